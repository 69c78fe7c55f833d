//! The part of a Fortran dummy array a procedure can touch, for the proof that two pieces of
//! one array passed to one call are disjoint (`super::pieces`): per dimension, the largest
//! subscript of every access, over the procedure's integer dummies.
//!
//! An upper bound is enough (a larger footprint only refuses more), so every statement is
//! walked, except the arms of an IF whose condition is a constant where the call's constant
//! arguments are known: BLAS's `DTRSM('Left', …)` tests `LSAME(SIDE, 'L')` and touches an
//! `M` by `M` corner of `A` on that side, an `N` by `N` one on the other. The conditions are
//! evaluated by running the code they call ([`Eval`]: `LSAME` compares characters through
//! `ICHAR`) on constants only; any value not known leaves the condition unknown, and both
//! arms are walked.
//!
//! The footprint is lost (`None`) when the dummy is used other than as an element with one
//! subscript per dimension, each a polynomial over loop counters of known ranges and integer
//! dummies the procedure never changes, at least the dimension's lower bound; or when it is
//! passed to a procedure (which may reach further by sequence association).

use super::*;

/// A constant the evaluator knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Val {
    Int(i64),
    Str(String),
    Bool(bool),
}

/// The value a dummy `dummy` of unit `unit` takes when the actual argument is the constant
/// `v`: a string cut or padded to the dummy's declared length (`CHARACTER SIDE` keeps the
/// first letter of `'Left'`); `None` when the length is not a constant or `*`.
pub(super) fn bind(prog: &Program, unit: UnitId, dummy: SymbolId, v: Val) -> Option<Val> {
    let Val::Str(s) = v else {
        return Some(v);
    };
    let u = &prog.units[unit];
    let mut len = None;
    for d in &u.decls {
        let Decl::Var(vd) = d else { continue };
        if let Some(en) = vd.entities.iter().find(|en| en.sym == dummy) {
            let spec = vd.spec.char_len.as_ref().map(|c| match c {
                CharLen::Star(l) | CharLen::Paren(l) | CharLen::Keyword(l) => l,
            });
            len = Some(match en.char_len.as_ref().or(spec) {
                None => Some(1),
                Some(LenValue::Assumed) => None,
                Some(LenValue::Expr(e)) => match &u.exprs[*e] {
                    Expr::Literal(l) if l.kind == LitKind::Int => Some(l.text.parse().ok()?),
                    _ => return None,
                },
                Some(LenValue::Deferred) => return None,
            });
        }
    }
    let Some(len) = len else {
        // Not declared: an implicit type is not CHARACTER.
        return None;
    };
    Some(Val::Str(match len {
        None => s,
        Some(n) => {
            let mut t: String = s.chars().take(n).collect();
            while t.chars().count() < n {
                t.push(' ');
            }
            t
        }
    }))
}

/// Fortran locals of `u` set by exactly one plain assignment `v = e` and changed by nothing
/// else (no other assignment, DO variable, actual argument, I/O item, initialiser, SAVE,
/// COMMON, dummy), with the statement that sets each.
pub(super) fn single_assignments(prog: &Program, u: &UnitData) -> HashMap<SymbolId, StmtId> {
    let mut count: HashMap<SymbolId, (usize, Option<StmtId>)> = HashMap::new();
    let mut spoiled: HashSet<SymbolId> = HashSet::new();
    let root = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) => e = *a,
            Expr::Name(n) => return Some(*n),
            Expr::Index { base, .. } | Expr::Field { base, .. } => e = *base,
            _ => return None,
        }
    };
    for (s, st) in u.stmts.iter() {
        match &st.kind {
            StmtKind::Assign { lhs, op, .. } => {
                if let Some(v) = root(*lhs) {
                    let c = count.entry(v).or_insert((0, None));
                    c.0 += 1;
                    c.1 = Some(s);
                    if op.is_some() || !matches!(u.exprs[*lhs], Expr::Name(_)) {
                        spoiled.insert(v);
                    }
                }
            }
            StmtKind::Do { var, .. } => spoiled.extend(root(*var)),
            StmtKind::Call { args, .. } => {
                spoiled.extend(args.iter().filter_map(|a| root(a.value)))
            }
            StmtKind::Io { items, .. } | StmtKind::Memory { items, .. } => {
                spoiled.extend(items.iter().filter_map(|&e| root(e)))
            }
            _ => {}
        }
    }
    for (_, e) in u.exprs.iter() {
        match e {
            Expr::Call { callee, args } => {
                let intrinsic = matches!(u.exprs[*callee], Expr::Name(f)
                    if prog.symbols[f].kind == SymbolKind::Intrinsic);
                if !intrinsic {
                    spoiled.extend(args.iter().filter_map(|a| root(a.value)));
                }
            }
            Expr::ImpliedDo { var, .. } => spoiled.extend(root(*var)),
            _ => {}
        }
    }
    // A variable EQUIVALENCEd with another changes through the other's name.
    for d in &u.decls {
        if let Decl::Equivalence(sets) = d {
            spoiled.extend(sets.iter().flatten().filter_map(|&e| root(e)));
        }
    }
    count
        .into_iter()
        .filter_map(|(v, (n, s))| {
            let sd = &prog.symbols[v];
            let local = sd.kind == SymbolKind::Variable
                && sd.common.is_none()
                && !sd.attrs.dummy
                && !sd.attrs.save
                && !sd.attrs.pointer
                && !sd.attrs.target
                && sd.ty.as_ref().is_some_and(|t| t.dims.is_empty())
                && sd.unit.is_none()
                && u.params.iter().all(|&p| p != v)
                && u.result != Some(v);
            (n == 1 && local && !spoiled.contains(&v)).then_some((v, s?))
        })
        .collect()
}

/// The Fortran function with a body that a callee name designates.
fn function_unit(prog: &Program, u: &UnitData, callee: ExprId) -> Option<UnitId> {
    let Expr::Name(f) = u.exprs[callee] else {
        return None;
    };
    let sd = &prog.symbols[f];
    if sd.attrs.dummy || !matches!(sd.kind, SymbolKind::Procedure | SymbolKind::Variable) {
        return None;
    }
    let ok = |d: UnitId| {
        let du = &prog.units[d];
        du.lang == Lang::Fortran && du.kind == UnitKind::Function && !du.body.is_empty()
    };
    if let Some(d) = sd.unit.filter(|&d| ok(d)) {
        return Some(d);
    }
    let mut found = prog.units.iter().filter(|(d, du)| {
        ok(*d)
            && du
                .name
                .is_some_and(|n| prog.symbols[n].spelling.eq_ignore_ascii_case(&sd.spelling))
    });
    let first = found.next().map(|(d, _)| d);
    found.next().is_none().then_some(first?)
}

/// Whether something in unit `u` may change its variable `v`: an assignment, a DO or I/O
/// naming it, a CALL passing it, a function passed it that changes its dummies (or that is
/// not in the program).
fn changes(prog: &Program, u: &UnitData, v: SymbolId) -> bool {
    let root = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) => e = *a,
            Expr::Name(n) => return Some(*n),
            Expr::Index { base, .. } | Expr::Field { base, .. } => e = *base,
            _ => return None,
        }
    };
    let is = |e: ExprId| root(e) == Some(v);
    let stmt = u.stmts.iter().any(|(_, st)| match &st.kind {
        StmtKind::Assign { lhs, .. } => is(*lhs),
        StmtKind::Do { var, .. } => is(*var),
        StmtKind::Call { args, .. } => args.iter().any(|a| is(a.value)),
        StmtKind::Io { items, .. } | StmtKind::Memory { items, .. } => items.iter().any(|&e| is(e)),
        _ => false,
    });
    stmt || u.exprs.iter().any(|(_, e)| match e {
        Expr::Call { callee, args } if args.iter().any(|a| is(a.value)) => {
            let intrinsic = matches!(u.exprs[*callee], Expr::Name(f)
                if prog.symbols[f].kind == SymbolKind::Intrinsic);
            !intrinsic
                && function_unit(prog, u, *callee)
                    .is_none_or(|d| writes_dummies(prog, &prog.units[d]))
        }
        Expr::ImpliedDo { var, .. } => is(*var),
        _ => false,
    })
}

/// Whether unit `d` may change one of its dummies (calls passing them counted as changes).
fn writes_dummies(prog: &Program, d: &UnitData) -> bool {
    d.params.iter().any(|&p| {
        let mut any = false;
        for (_, e) in d.exprs.iter() {
            if let Expr::Call { callee, args } = e {
                let intrinsic = matches!(d.exprs[*callee], Expr::Name(f)
                    if prog.symbols[f].kind == SymbolKind::Intrinsic);
                any |= !intrinsic
                    && args
                        .iter()
                        .any(|a| matches!(d.exprs[a.value], Expr::Name(n) if n == p));
            }
        }
        any || d.stmts.iter().any(|(_, st)| match &st.kind {
            StmtKind::Assign { lhs, .. } => {
                let mut e = *lhs;
                loop {
                    match &d.exprs[e] {
                        Expr::Index { base, .. } | Expr::Field { base, .. } | Expr::Paren(base) => {
                            e = *base
                        }
                        Expr::Name(n) => break *n == p,
                        _ => break true,
                    }
                }
            }
            StmtKind::Do { var, .. } => matches!(d.exprs[*var], Expr::Name(n) if n == p),
            StmtKind::Call { args, .. } => args
                .iter()
                .any(|a| matches!(d.exprs[a.value], Expr::Name(n) if n == p)),
            StmtKind::Io { .. } | StmtKind::Memory { .. } => true,
            _ => false,
        })
    })
}

/// Evaluation of constant expressions of one unit, the values of some of its variables known.
pub(super) struct Eval<'a> {
    pub(super) prog: &'a Program,
    pub(super) u: &'a UnitData,
    pub(super) env: HashMap<SymbolId, Val>,
    /// Calls still allowed to be run, so recursion ends.
    pub(super) depth: u32,
}

/// How a run of statements ended.
enum Flow {
    Next,
    Return,
}

impl Eval<'_> {
    /// The value of `e`, when every value it needs is known.
    pub(super) fn eval(&self, e: ExprId) -> Option<Val> {
        let u = self.u;
        match &u.exprs[e] {
            Expr::Literal(l) => match l.kind {
                LitKind::Int => l.text.parse().ok().map(Val::Int),
                LitKind::Logical => Some(Val::Bool(l.text.to_ascii_lowercase().contains("true"))),
                LitKind::Str => {
                    let q = l.text.chars().next()?;
                    let body = l.text.strip_prefix(q)?.strip_suffix(q)?;
                    let two: String = [q, q].iter().collect();
                    Some(Val::Str(body.replace(&two, &q.to_string())))
                }
                _ => None,
            },
            Expr::Name(s) => self.env.get(s).cloned(),
            Expr::Paren(a) => self.eval(*a),
            Expr::Unary { op: UnOp::Not, arg } => match self.eval(*arg)? {
                Val::Bool(b) => Some(Val::Bool(!b)),
                _ => None,
            },
            Expr::Unary { op: UnOp::Neg, arg } => match self.eval(*arg)? {
                Val::Int(i) => Some(Val::Int(i.checked_neg()?)),
                _ => None,
            },
            Expr::Binary { op, lhs, rhs } => self.binary(*op, *lhs, *rhs),
            Expr::Call { callee, args } => {
                let vals: Vec<Val> = args
                    .iter()
                    .map(|a| self.eval(a.value))
                    .collect::<Option<_>>()?;
                let Expr::Name(f) = u.exprs[*callee] else {
                    return None;
                };
                let sd = &self.prog.symbols[f];
                if sd.kind == SymbolKind::Intrinsic {
                    let name = sd.spelling.to_ascii_lowercase();
                    return match (name.as_str(), &vals[..]) {
                        ("ichar" | "iachar", [Val::Str(s)]) if s.is_ascii() && !s.is_empty() => {
                            Some(Val::Int(i64::from(s.as_bytes()[0])))
                        }
                        _ => None,
                    };
                }
                if self.depth == 0 || args.iter().any(|a| a.keyword.is_some()) {
                    return None;
                }
                let d = function_unit(self.prog, u, *callee)?;
                run_function(self.prog, d, vals, self.depth - 1)
            }
            _ => None,
        }
    }

    fn binary(&self, op: BinOp, lhs: ExprId, rhs: ExprId) -> Option<Val> {
        use Val::*;
        if let BinOp::And | BinOp::Or = op {
            // One operand decides alone: `.NOT.LSIDE .AND. …` is false when LSIDE is true.
            let (a, b) = (self.eval(lhs), self.eval(rhs));
            let wins = op == BinOp::Or;
            return match (a, b) {
                (Some(Bool(x)), _) | (_, Some(Bool(x))) if x == wins => Some(Bool(wins)),
                (Some(Bool(_)), Some(Bool(_))) => Some(Bool(!wins)),
                _ => None,
            };
        }
        let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
        let ord = match (&a, &b) {
            (Int(x), Int(y)) => x.cmp(y),
            (Str(x), Str(y)) => {
                // Fortran compares strings padded with blanks to the same length.
                let n = x.len().max(y.len());
                format!("{x:<n$}").cmp(&format!("{y:<n$}"))
            }
            (Bool(x), Bool(y)) => match op {
                BinOp::Eqv => return Some(Bool(x == y)),
                BinOp::Neqv => return Some(Bool(x != y)),
                _ => return None,
            },
            _ => return None,
        };
        use std::cmp::Ordering::*;
        let int = |f: fn(i64, i64) -> Option<i64>| match (&a, &b) {
            (Int(x), Int(y)) => f(*x, *y).map(Int),
            _ => None,
        };
        match op {
            BinOp::Eq(_) => Some(Bool(ord == Equal)),
            BinOp::Ne(_) => Some(Bool(ord != Equal)),
            BinOp::Lt(_) => Some(Bool(ord == Less)),
            BinOp::Le(_) => Some(Bool(ord != Greater)),
            BinOp::Gt(_) => Some(Bool(ord == Greater)),
            BinOp::Ge(_) => Some(Bool(ord != Less)),
            BinOp::Add => int(i64::checked_add),
            BinOp::Sub => int(i64::checked_sub),
            BinOp::Mul => int(i64::checked_mul),
            _ => None,
        }
    }

    /// Runs `block` (plain assignments to names, IF, RETURN, CONTINUE and comments only).
    fn run(&mut self, block: &[StmtId]) -> Option<Flow> {
        for &s in block {
            match &self.u.stmts[s].kind {
                StmtKind::Assign { lhs, op: None, rhs } => {
                    let Expr::Name(v) = self.u.exprs[*lhs] else {
                        return None;
                    };
                    let x = self.eval(*rhs)?;
                    self.env.insert(v, x);
                }
                StmtKind::If {
                    arms, else_block, ..
                } => {
                    let mut taken = else_block.as_deref();
                    for (c, b) in arms {
                        if self.eval(*c)? == Val::Bool(true) {
                            taken = Some(b);
                            break;
                        }
                    }
                    if let Some(b) = taken {
                        if let Flow::Return = self.run(b)? {
                            return Some(Flow::Return);
                        }
                    }
                }
                StmtKind::Return(None) => return Some(Flow::Return),
                StmtKind::Continue | StmtKind::Comment(_) => {}
                _ => return None,
            }
        }
        Some(Flow::Next)
    }
}

/// The value Fortran function `d` returns for constant arguments `args`.
fn run_function(prog: &Program, d: UnitId, args: Vec<Val>, depth: u32) -> Option<Val> {
    let du = &prog.units[d];
    if du.params.len() != args.len() || writes_dummies(prog, du) {
        return None;
    }
    let mut env = HashMap::new();
    for (&p, v) in du.params.iter().zip(args) {
        env.insert(p, bind(prog, d, p, v)?);
    }
    let mut ev = Eval {
        prog,
        u: du,
        env,
        depth,
    };
    ev.run(&du.body)?;
    let r = du.result.or(du.name)?;
    ev.env.get(&r).cloned()
}

/// The largest subscript in each dimension of dummy array `dummy` of Fortran unit `callee`
/// (a few polynomials per dimension over its integer dummies), the values of some of its
/// dummies known (`known`: the call's constant arguments); `None` when the code does not
/// tell (module doc).
pub(super) fn footprint(
    prog: &Program,
    callee: UnitId,
    dummy: SymbolId,
    known: HashMap<SymbolId, Val>,
) -> Option<Vec<Vec<Poly>>> {
    let u = &prog.units[callee];
    let dims = &prog.symbols[dummy].ty.as_ref()?.dims;
    if u.lang != Lang::Fortran || dims.is_empty() || !u.params.contains(&dummy) {
        return None;
    }
    // A constant argument stays the dummy's value while nothing in the callee can change
    // the dummy: no assignment, DO, I/O or CALL naming it, and only functions passed it
    // that change none of their dummies.
    let mut known = known;
    known.retain(|&p, _| !changes(prog, u, p));
    let macros = HashMap::new();
    let lower = dims
        .iter()
        .map(|d| {
            d.lower
                .map_or(Some(Poly::lit(1)), |l| loose_poly(prog, &macros, u, l))
        })
        .collect::<Option<Vec<_>>>()?;
    let once = single_assignments(prog, u);
    let mut w = Fp {
        ev: Eval {
            prog,
            u,
            env: known,
            depth: 4,
        },
        dummy,
        once: once.into_values().collect(),
        fixed: unchanged_dummies(prog, u),
        loops: Vec::new(),
        lower,
        his: vec![Vec::new(); dims.len()],
        lost: false,
    };
    for &s in &u.body {
        w.stmt(s, true);
    }
    if w.lost || w.his.iter().any(Vec::is_empty) {
        return None;
    }
    let mut out = Vec::new();
    for his in w.his {
        let keep = largest(his)?;
        out.push(keep);
    }
    Some(out)
}

/// The polynomials of `ps` that no other one surely exceeds (at most four).
fn largest(mut ps: Vec<Poly>) -> Option<Vec<Poly>> {
    ps.sort_by(|a, b| a.0.cmp(&b.0));
    ps.dedup();
    let keep: Vec<Poly> = ps
        .iter()
        .filter(|c| {
            !ps.iter()
                .any(|d| d != *c && d.add(c, -1).is_some_and(|x| x.nonneg()))
        })
        .cloned()
        .collect();
    (!keep.is_empty() && keep.len() <= 4).then_some(keep)
}

/// The integer dummies of Fortran unit `u` nothing in it changes (no assignment, DO
/// variable, actual argument of a procedure that is not intrinsic, I/O item).
pub(super) fn unchanged_dummies(prog: &Program, u: &UnitData) -> HashSet<SymbolId> {
    let mut changed = HashSet::new();
    let mut note = |e: ExprId| {
        let mut e = e;
        loop {
            match &u.exprs[e] {
                Expr::Paren(a) => e = *a,
                Expr::Name(n) => {
                    changed.insert(*n);
                    return;
                }
                _ => return,
            }
        }
    };
    for (_, st) in u.stmts.iter() {
        match &st.kind {
            StmtKind::Assign { lhs, .. } => note(*lhs),
            StmtKind::Do { var, .. } => note(*var),
            StmtKind::Call { args, .. } => args.iter().for_each(|a| note(a.value)),
            StmtKind::Io { items, .. } => items.iter().for_each(|&e| note(e)),
            _ => {}
        }
    }
    for (_, e) in u.exprs.iter() {
        if let Expr::Call { callee, args } = e {
            let intrinsic = matches!(u.exprs[*callee], Expr::Name(f)
                if prog.symbols[f].kind == SymbolKind::Intrinsic);
            if !intrinsic {
                args.iter().for_each(|a| note(a.value));
            }
        }
    }
    u.params
        .iter()
        .copied()
        .filter(|p| {
            !changed.contains(p)
                && prog.symbols[*p].ty.as_ref().is_some_and(|t| {
                    t.base == BaseClass::Integer && t.dims.is_empty() && t.pointers == 0
                })
        })
        .collect()
}

/// The footprint walk (see [`footprint`]).
struct Fp<'a> {
    ev: Eval<'a>,
    dummy: SymbolId,
    /// Assignments of locals set once (their values join `ev.env` when known).
    once: HashSet<StmtId>,
    fixed: HashSet<SymbolId>,
    /// Loop counters around, outermost first, with their smallest and largest values.
    loops: Vec<(SymbolId, Poly, Poly)>,
    lower: Vec<Poly>,
    his: Vec<Vec<Poly>>,
    lost: bool,
}

impl Fp<'_> {
    fn poly(&self, e: ExprId) -> Option<Poly> {
        let u = self.ev.u;
        match &u.exprs[e] {
            Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok().map(Poly::lit),
            Expr::Name(s) if self.loops.iter().any(|(v, _, _)| v == s) => Some(Poly::var(*s)),
            Expr::Name(s) if self.fixed.contains(s) => Some(Poly::var(*s)),
            Expr::Name(s) => match self.ev.env.get(s) {
                Some(Val::Int(i)) => Some(Poly::lit(*i)),
                _ => None,
            },
            Expr::Paren(a) => self.poly(*a),
            Expr::Unary { op: UnOp::Neg, arg } => Poly::default().add(&self.poly(*arg)?, -1),
            Expr::Binary { op, lhs, rhs } => {
                let (a, b) = (self.poly(*lhs)?, self.poly(*rhs)?);
                match op {
                    BinOp::Add => a.add(&b, 1),
                    BinOp::Sub => a.add(&b, -1),
                    BinOp::Mul => a.mul(&b),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn block(&mut self, b: &[StmtId]) {
        for &s in b {
            self.stmt(s, false);
        }
    }

    /// Walks statement `s` (`top`: at the unit's top level, where a local set once takes
    /// its value for what follows).
    fn stmt(&mut self, s: StmtId, top: bool) {
        if self.lost {
            return;
        }
        let u = self.ev.u;
        match &u.stmts[s].kind {
            StmtKind::Assign { lhs, rhs, .. } => {
                self.expr(*lhs);
                self.expr(*rhs);
                if let (true, true, Expr::Name(v)) = (top, self.once.contains(&s), &u.exprs[*lhs]) {
                    if let Some(x) = self.ev.eval(*rhs) {
                        self.ev.env.insert(*v, x);
                    }
                }
            }
            StmtKind::If {
                arms, else_block, ..
            } => {
                for (c, b) in arms {
                    self.expr(*c);
                    match self.ev.eval(*c) {
                        Some(Val::Bool(true)) => return self.block(b),
                        Some(Val::Bool(false)) => {}
                        _ => self.block(b),
                    }
                }
                if let Some(b) = else_block {
                    self.block(b);
                }
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                for &e in [*start, *end].iter().chain(step.iter()) {
                    self.expr(e);
                }
                let sign = match step {
                    None => Some(1),
                    Some(x) => match self.poly(*x) {
                        Some(p) if p.is_const() => p.eval(&|_| None).map(i64::signum),
                        _ => None,
                    },
                };
                let range = match (&u.exprs[*var], self.poly(*start), self.poly(*end), sign) {
                    (Expr::Name(v), Some(a), Some(b), Some(1)) => Some((*v, a, b)),
                    (Expr::Name(v), Some(a), Some(b), Some(-1)) => Some((*v, b, a)),
                    _ => None,
                };
                // Without a known range, an access through the counter is no polynomial:
                // the footprint is lost there.
                let pushed = range.is_some();
                self.loops.extend(range);
                self.block(body);
                if pushed {
                    self.loops.pop();
                }
            }
            StmtKind::Call { args, .. } => {
                for a in args {
                    if self.names_dummy(a.value) {
                        self.lost = true;
                    }
                    self.expr(a.value);
                }
            }
            kind => {
                let (mut es, mut ss) = (Vec::new(), Vec::new());
                stmt_children(kind, &mut |e| es.push(e), &mut |c| ss.push(c));
                for e in es {
                    self.expr(e);
                }
                self.block(&ss);
            }
        }
    }

    /// `e` is the dummy or one of its elements (an actual argument reaching past it).
    fn names_dummy(&self, e: ExprId) -> bool {
        let u = self.ev.u;
        match &u.exprs[e] {
            Expr::Name(s) => *s == self.dummy,
            Expr::Index { base, .. } | Expr::Paren(base) => self.names_dummy(*base),
            _ => false,
        }
    }

    fn expr(&mut self, e: ExprId) {
        if self.lost {
            return;
        }
        let u = self.ev.u;
        match &u.exprs[e] {
            Expr::Name(s) if *s == self.dummy => self.lost = true,
            Expr::Index { base, subs } if matches!(u.exprs[*base], Expr::Name(b) if b == self.dummy) =>
            {
                if subs.len() != self.his.len() {
                    self.lost = true;
                    return;
                }
                for (d, sub) in subs.iter().enumerate() {
                    let Subscript::Index(x) = sub else {
                        self.lost = true;
                        return;
                    };
                    self.expr(*x);
                    let Some(p) = self.poly(*x) else {
                        self.lost = true;
                        return;
                    };
                    let (Some(lo), Some(hi)) = (
                        over_loops(&self.loops, p.clone(), false),
                        over_loops(&self.loops, p, true),
                    ) else {
                        self.lost = true;
                        return;
                    };
                    let below = lo
                        .iter()
                        .any(|m| !m.add(&self.lower[d], -1).is_some_and(|g| g.nonneg()));
                    if below {
                        self.lost = true;
                        return;
                    }
                    self.his[d].extend(hi);
                }
            }
            Expr::Call { callee, args } => {
                let intrinsic = matches!(u.exprs[*callee], Expr::Name(f)
                    if self.ev.prog.symbols[f].kind == SymbolKind::Intrinsic);
                for a in args {
                    if !intrinsic && self.names_dummy(a.value) {
                        self.lost = true;
                    }
                    self.expr(a.value);
                }
            }
            other => {
                let mut cs = Vec::new();
                expr_children(other, &mut |c| cs.push(c));
                for c in cs {
                    self.expr(c);
                }
            }
        }
    }
}
