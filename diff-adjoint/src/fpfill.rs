//! Element-level must-write for `$AD FP-LOOP` (fploop.rs): an iteration that fills a
//! temporary rank-1 array element by element before reading it,
//!
//! ```text
//! xn(1) = …                      ! or C `xn[0] = …`
//! do i = 2, n                    ! or C `for (i = 1; i < n; i++)`
//!   xn(i) = … xn(i-1) …          ! reads only elements already written
//! end do
//! err = maxval(abs(xn - x))      ! the whole array, now all written
//! ```
//!
//! carries nothing of `xn` from one iteration to the next, so `xn` need not be among the
//! directive's variables. The scan follows the iteration's top-level statements keeping, for
//! each such array, the written prefix `[lower bound, hi]` (`hi` affine in integer scalars the
//! iteration does not write): an element assignment `v(k) = …` with `k = hi + 1` extends it,
//! a step-1 DO (counted C `for`) starting at `hi + 1` whose body assigns `v(i)` at its top
//! level with no jump in it extends it to the loop's last value; every read of `v` on the
//! way must be an element of the prefix (or `v(i)` after its assignment in the loop body).
//! Once `hi` is the declared upper bound, the whole array is written (killed). Anything else
//! leaves the array to the zone analysis (a value possibly carried: AD050 stays).

use crate::*;
use std::collections::BTreeMap;

/// `Σ cᵢ·sᵢ + c`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
struct Aff(BTreeMap<SymbolId, i64>, i64);

impl Aff {
    /// `self + k·o`.
    fn add_times(&self, o: &Aff, k: i64) -> Aff {
        let mut r = self.clone();
        for (s, c) in &o.0 {
            *r.0.entry(*s).or_insert(0) += k * c;
        }
        r.0.retain(|_, c| *c != 0);
        r.1 += k * o.1;
        r
    }

    fn lit(c: i64) -> Self {
        Aff(BTreeMap::new(), c)
    }
    fn shift(&self, c: i64) -> Aff {
        let mut r = self.clone();
        r.1 += c;
        r
    }
    /// `self - o` when it is a constant.
    fn minus_const(&self, o: &Aff) -> Option<i64> {
        let d = self.add_times(o, -1);
        d.0.is_empty().then_some(d.1)
    }
}

/// The scan's state: the written prefix of each array being filled.
pub(crate) struct FillScan {
    /// Array → (lower bound, declared upper bound, highest written element).
    arrays: HashMap<SymbolId, (Aff, Aff, Aff)>,
    /// Everything the iteration may write (symbols in a bound must not be among it).
    writes: ZoneSet,
}

impl<'a> Adj<'_, '_, 'a> {
    /// A scan over an iteration writing `writes`.
    pub(crate) fn fill_scan(&self, writes: ZoneSet) -> FillScan {
        FillScan {
            arrays: HashMap::new(),
            writes,
        }
    }

    /// Steps the scan over the top-level statement `t`: the arrays whose every read in `t`
    /// is an element already written (their zones leave `t`'s exposed reads), and the arrays
    /// `t` completes (the whole array written: killed).
    pub(crate) fn fill_step(&self, sc: &mut FillScan, t: StmtId) -> (Vec<SymbolId>, Vec<SymbolId>) {
        let src = self.pg.f.src;
        let (mut covered, mut done) = (Vec::new(), Vec::new());
        let targets: Vec<(SymbolId, ExprId)> = match &src.stmts[t].kind {
            StmtKind::Assign { lhs, op: None, .. } => self.elem_target(*lhs).into_iter().collect(),
            StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } => body
                .iter()
                .filter_map(|&b| match &src.stmts[b].kind {
                    StmtKind::Assign { lhs, op: None, .. } => self.elem_target(*lhs),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        for (v, _) in targets {
            if !sc.arrays.contains_key(&v) {
                if let Some((lo, up)) = self.bounds_of(sc, v) {
                    let hi = lo.shift(-1);
                    sc.arrays.insert(v, (lo, up, hi));
                }
            }
        }
        let names: Vec<SymbolId> = sc.arrays.keys().copied().collect();
        for v in names {
            let (lo, up, hi) = sc.arrays[&v].clone();
            let Some(new_hi) = self.fill_stmt(sc, t, v, &lo, &hi) else {
                continue;
            };
            covered.push(v);
            if new_hi != hi {
                if new_hi == up {
                    done.push(v);
                }
                sc.arrays.insert(v, (lo, up, new_hi));
            }
        }
        (covered, done)
    }

    /// `v` and the subscript of `v(k)` / `v[k]`, `v` a rank-1 array.
    fn elem_target(&self, e: ExprId) -> Option<(SymbolId, ExprId)> {
        let src = self.pg.f.src;
        let Expr::Index { base, subs } = &src.exprs[e] else {
            return None;
        };
        let (Expr::Name(v), [Subscript::Index(k)]) = (&src.exprs[*base], &subs[..]) else {
            return None;
        };
        let ty = self.pg.prog().symbols[*v].ty.as_ref()?;
        (ty.dims.len() == 1 && ty.pointers == 0).then_some((*v, *k))
    }

    /// The declared lower and upper bounds of the rank-1 array `v` (C: `0`, extent − 1), for
    /// an array declared in this procedure.
    fn bounds_of(&self, sc: &FillScan, v: SymbolId) -> Option<(Aff, Aff)> {
        let prog = self.pg.prog();
        // Declared here (a local or a dummy): its bounds are expressions of this unit.
        if radtap_dataflow::zones::unit_of_scope(prog, prog.symbols[v].scope) != Some(self.pg.f.p) {
            return None;
        }
        let ty = prog.symbols[v].ty.as_ref()?;
        let d = ty.dims.first()?;
        let DimUpper::Expr(u) = d.upper else {
            return None;
        };
        let up = self.aff(sc, u, None)?;
        match self.pg.f.lang {
            Lang::C => Some((Aff::lit(0), up.shift(-1))),
            Lang::Fortran => {
                let lo = match d.lower {
                    Some(l) => self.aff(sc, l, None)?,
                    None => Aff::lit(1),
                };
                Some((lo, up))
            }
        }
    }

    /// An integer expression affine in integer scalars the iteration does not write, and in
    /// the counter `ctr` (of the fill loop being scanned).
    fn aff(&self, sc: &FillScan, e: ExprId, ctr: Option<SymbolId>) -> Option<Aff> {
        let src = self.pg.f.src;
        match &src.exprs[e] {
            Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok().map(Aff::lit),
            Expr::Name(s) => {
                let p = &self.pg.prog().symbols[*s];
                let int = p.ty.as_ref().is_some_and(|t| {
                    t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty()
                });
                let fixed = Some(*s) == ctr
                    || self
                        .pg
                        .f
                        .pi
                        .zones
                        .sym_zones(*s)
                        .is_some_and(|z| !z.intersects(&sc.writes));
                (int && fixed).then(|| Aff(BTreeMap::from([(*s, 1)]), 0))
            }
            Expr::Paren(a) => self.aff(sc, *a, ctr),
            Expr::Unary { op: UnOp::Neg, arg } => {
                Some(Aff::default().add_times(&self.aff(sc, *arg, ctr)?, -1))
            }
            Expr::Binary { op, lhs, rhs } => {
                let (a, b) = (self.aff(sc, *lhs, ctr)?, self.aff(sc, *rhs, ctr)?);
                match op {
                    BinOp::Add => Some(a.add_times(&b, 1)),
                    BinOp::Sub => Some(a.add_times(&b, -1)),
                    BinOp::Mul if a.0.is_empty() => Some(Aff::default().add_times(&b, a.1)),
                    BinOp::Mul if b.0.is_empty() => Some(Aff::default().add_times(&a, b.1)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The new highest written element of `v` after the top-level statement `t` when every
    /// read of `v` in `t` is an element already written, else `None`.
    fn fill_stmt(&self, sc: &FillScan, t: StmtId, v: SymbolId, lo: &Aff, hi: &Aff) -> Option<Aff> {
        let src = self.pg.f.src;
        // Reads of `v` must lie in `[lo, hi]`, or be `v(ctr)` once `v(ctr)` is written.
        let in_prefix = |k: &Aff| {
            k.minus_const(lo).is_some_and(|d| d >= 0) && hi.minus_const(k).is_some_and(|d| d >= 0)
        };
        match &src.stmts[t].kind {
            StmtKind::Assign { lhs, op: None, rhs } => {
                if let Some((w, k)) = self.elem_target(*lhs) {
                    if w == v {
                        self.reads_ok(sc, &[*rhs, k], v, None, &in_prefix)?;
                        let k = self.aff(sc, k, None);
                        return Some(match k {
                            Some(k) if k == hi.shift(1) => k,
                            _ => hi.clone(),
                        });
                    }
                }
                self.reads_ok(sc, &[*lhs, *rhs], v, None, &in_prefix)?;
                Some(hi.clone())
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let Expr::Name(i) = src.exprs[*var] else {
                    return self.untouched(t, v).then(|| hi.clone());
                };
                let one = step.is_none_or(|e| self.pg.const_value(e) == Some(1.0));
                let a = self.aff(sc, *start, None);
                let b = self.aff(sc, *end, None);
                match (one, a, b) {
                    (true, Some(a), Some(b)) if a == hi.shift(1) => {
                        self.fill_body(sc, body, v, i, &a, lo, hi)?;
                        Some(b)
                    }
                    _ => self.untouched(t, v).then(|| hi.clone()),
                }
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                let cf = self.canonical_for(*init, *cond, *step, body);
                let range = cf.filter(|c| c.up).and_then(|c| {
                    let a = self.aff(sc, c.from, None)?;
                    let b = self.aff(sc, c.bound, None)?;
                    Some((c.var, a, if c.inclusive { b } else { b.shift(-1) }))
                });
                match range {
                    Some((i, a, b)) if a == hi.shift(1) => {
                        self.fill_body(sc, body, v, i, &a, lo, hi)?;
                        Some(b)
                    }
                    _ => self.untouched(t, v).then(|| hi.clone()),
                }
            }
            _ => self.untouched(t, v).then(|| hi.clone()),
        }
    }

    /// The body of a fill loop over `i` from `a` (`v` written up to `a − 1` on entry): it
    /// assigns `v(i)` at its top level, has no jump, and reads of `v` are `v(i + c)` with
    /// `c < 0` and `a + c ≥ lo`, elements of `[lo, a − 1]`, or `v(i)` after its assignment.
    #[allow(clippy::too_many_arguments)]
    fn fill_body(
        &self,
        sc: &FillScan,
        body: &[StmtId],
        v: SymbolId,
        i: SymbolId,
        a: &Aff,
        lo: &Aff,
        hi: &Aff,
    ) -> Option<()> {
        let src = self.pg.f.src;
        let mut jump = false;
        subtree(src, body, &mut |x| {
            jump |= matches!(
                src.stmts[x].kind,
                StmtKind::Exit(_)
                    | StmtKind::Cycle(_)
                    | StmtKind::Break
                    | StmtKind::CContinue
                    | StmtKind::Goto(_)
                    | StmtKind::ComputedGoto { .. }
                    | StmtKind::ArithIf { .. }
                    | StmtKind::Return(_)
                    | StmtKind::Stop { .. }
            );
        });
        if jump {
            return None;
        }
        let ctr = Aff(BTreeMap::from([(i, 1)]), 0);
        let mut written = false;
        for &b in body {
            let ok = |k: &Aff| {
                if k.minus_const(lo).is_some_and(|d| d >= 0)
                    && hi.minus_const(k).is_some_and(|d| d >= 0)
                {
                    return true;
                }
                match k.minus_const(&ctr) {
                    Some(0) => written,
                    Some(c) => c < 0 && a.shift(c).minus_const(lo).is_some_and(|d| d >= 0),
                    None => false,
                }
            };
            if let StmtKind::Assign { lhs, op: None, rhs } = &src.stmts[b].kind {
                if let Some((w, k)) = self.elem_target(*lhs) {
                    if w == v {
                        self.reads_ok(sc, &[*rhs, k], v, Some(i), &ok)?;
                        if self.aff(sc, k, Some(i)).as_ref() == Some(&ctr) {
                            written = true;
                        }
                        continue;
                    }
                }
            }
            let mut exprs = Vec::new();
            subtree(src, &[b], &mut |x| {
                radtap_il::visit::stmt_children(
                    &src.stmts[x].kind,
                    &mut |e| exprs.push(e),
                    &mut |_| {},
                );
            });
            self.reads_ok(sc, &exprs, v, Some(i), &ok)?;
        }
        written.then_some(())
    }

    /// Every mention of `v` in `roots` is `v(k)` with `k` affine and `ok(k)`.
    fn reads_ok(
        &self,
        sc: &FillScan,
        roots: &[ExprId],
        v: SymbolId,
        ctr: Option<SymbolId>,
        ok: &dyn Fn(&Aff) -> bool,
    ) -> Option<()> {
        let src = self.pg.f.src;
        let mut todo = roots.to_vec();
        while let Some(e) = todo.pop() {
            match &src.exprs[e] {
                Expr::Name(n) if *n == v => return None,
                Expr::Index { base, subs } if matches!(src.exprs[*base], Expr::Name(n) if n == v) =>
                {
                    let [Subscript::Index(k)] = &subs[..] else {
                        return None;
                    };
                    if !ok(&self.aff(sc, *k, ctr)?) {
                        return None;
                    }
                    todo.push(*k);
                }
                other => radtap_il::visit::expr_children(other, &mut |c| todo.push(c)),
            }
        }
        Some(())
    }

    /// Whether the statement `t` does not mention `v`.
    fn untouched(&self, t: StmtId, v: SymbolId) -> bool {
        let src = self.pg.f.src;
        let mut exprs = Vec::new();
        subtree(src, &[t], &mut |x| {
            radtap_il::visit::stmt_children(
                &src.stmts[x].kind,
                &mut |e| exprs.push(e),
                &mut |_| {},
            );
        });
        let mut found = false;
        while let Some(e) = exprs.pop() {
            if matches!(src.exprs[e], Expr::Name(n) if n == v) {
                found = true;
            }
            radtap_il::visit::expr_children(&src.exprs[e], &mut |c| exprs.push(c));
        }
        !found
    }
}
