//! The element count of a C pointer parameter, inferred from how the code indexes it: the one
//! inference the generators (a pointer's extent when no `-size` gives it: the adjoint's
//! records, the tangent's clearing of a non-independent's derivative) and `radtap validate`'s
//! driver (how much to allocate) share.
//!
//! `x[i + 1]` inside `for (i = 0; i < n - 1; i++)` reaches `x[n - 1]`, so `x` needs `n`
//! elements; `x[i * n + j]` over `i < m`, `j < n` needs `m * n`; `sq(n, &x[r * n], t)` inside
//! `for (r = 0; r < m; r++)` needs `r * n` plus what `sq` needs of its second argument, with
//! `sq`'s parameters replaced by the actual arguments. Subscripts are polynomials over loop
//! counters and the procedure's integer parameters (never assigned, never address-taken);
//! each counter is replaced by the end of its range where the subscript grows with it (both
//! ends where the sign of its coefficient is unknown), innermost loop first, so the result is
//! a polynomial (or the largest of a few) over the parameters. Integer parameters are taken as
//! non-negative sizes.
//!
//! Any use the inference does not understand (the pointer copied, moved, compared, its
//! address escaping, passed to a procedure whose own use is unknown, a subscript over another
//! variable) gives `None`: the caller then asks for `-size`, naming the pointer and the
//! procedure. In [`Mode::Exact`] (the generators, which read the whole extent) an access
//! under a condition or in a loop whose range is unknown also gives `None`: reading past the
//! caller's array is not allowed there, while the validation driver only allocates
//! ([`Mode::Cover`]: a larger array is safe).

use crate::visit::{decl_exprs, expr_children, stmt_children};
use crate::*;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A polynomial with integer coefficients over integer symbols (each monomial a sorted list of
/// symbols).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Poly(BTreeMap<Vec<SymbolId>, i64>);

impl Poly {
    fn lit(v: i64) -> Poly {
        let mut m = BTreeMap::new();
        if v != 0 {
            m.insert(vec![], v);
        }
        Poly(m)
    }
    fn var(s: SymbolId) -> Poly {
        Poly(BTreeMap::from([(vec![s], 1)]))
    }
    fn add(&self, o: &Poly, sign: i64) -> Option<Poly> {
        let mut m = self.0.clone();
        for (k, v) in &o.0 {
            let e = m.entry(k.clone()).or_insert(0);
            *e = e.checked_add(v.checked_mul(sign)?)?;
            if *e == 0 {
                m.remove(k);
            }
        }
        Some(Poly(m))
    }
    fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut r = Poly::default();
        for (a, x) in &self.0 {
            for (b, y) in &o.0 {
                let mut k = a.clone();
                k.extend(b.iter().copied());
                k.sort();
                if k.len() > 6 {
                    return None;
                }
                let t = Poly(BTreeMap::from([(k, x.checked_mul(*y)?)]));
                r = r.add(&t, 1)?;
            }
        }
        Some(r)
    }
    fn mentions(&self, s: SymbolId) -> bool {
        self.0.keys().any(|k| k.contains(&s))
    }
    /// `self` with `s` replaced by `by`; `None` unless `s` has degree at most 1.
    fn subst(&self, s: SymbolId, by: &Poly) -> Option<Poly> {
        let mut r = Poly::default();
        for (k, v) in &self.0 {
            let n = k.iter().filter(|&&x| x == s).count();
            let rest: Vec<SymbolId> = k.iter().copied().filter(|&x| x != s).collect();
            let t = Poly(BTreeMap::from([(rest, *v)]));
            let t = match n {
                0 => t,
                1 => t.mul(by)?,
                _ => return None,
            };
            r = r.add(&t, 1)?;
        }
        Some(r)
    }
    /// The sign of the coefficient of `s` (linear in `s`), with every other symbol taken as
    /// non-negative: `Some(true)` non-negative, `Some(false)` non-positive, `None` unknown.
    fn slope_sign(&self, s: SymbolId) -> Option<bool> {
        let cs: Vec<i64> = self
            .0
            .iter()
            .filter(|(k, _)| k.contains(&s))
            .map(|(_, v)| *v)
            .collect();
        if cs.iter().all(|&c| c >= 0) {
            Some(true)
        } else if cs.iter().all(|&c| c <= 0) {
            Some(false)
        } else {
            None
        }
    }
    fn nonneg(&self) -> bool {
        self.0.values().all(|&c| c >= 0)
    }
    fn eval(&self, val: &dyn Fn(SymbolId) -> Option<i64>) -> Option<i64> {
        let mut t = 0i64;
        for (k, c) in &self.0 {
            let mut m = *c;
            for &s in k {
                m = m.checked_mul(val(s)?)?;
            }
            t = t.checked_add(m)?;
        }
        Some(t)
    }
    fn text(&self, prog: &Program) -> String {
        let mut out = String::new();
        for (i, (k, c)) in self.0.iter().rev().enumerate() {
            let neg = *c < 0;
            let a = c.unsigned_abs();
            if i > 0 {
                out.push_str(if neg { " - " } else { " + " });
            } else if neg {
                out.push('-');
            }
            let names: Vec<&str> = k
                .iter()
                .map(|&s| prog.symbols[s].spelling.as_str())
                .collect();
            match (a, names.is_empty()) {
                (_, true) => out.push_str(&a.to_string()),
                (1, false) => out.push_str(&names.join(" * ")),
                _ => out.push_str(&format!("{a} * {}", names.join(" * "))),
            }
        }
        if out.is_empty() {
            out.push('0');
        }
        out
    }
}

/// How careful the inference is (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Every access counted must happen whenever the procedure runs: the generators.
    Exact,
    /// An upper bound is enough: the validation driver's allocations.
    Cover,
}

/// The element count of a pointer parameter: the largest of a few polynomials over the
/// procedure's integer parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extent(Vec<Poly>);

impl Extent {
    /// Its value, the integer parameters given by `val`.
    pub fn eval(&self, val: &dyn Fn(SymbolId) -> Option<i64>) -> Option<i64> {
        self.0
            .iter()
            .map(|p| p.eval(val))
            .try_fold(0i64, |m, v| Some(m.max(v?)))
    }
    /// The count as one polynomial, when it is one: its terms, each a coefficient and the
    /// parameters multiplied (none for the constant term).
    pub fn terms(&self) -> Option<Vec<(i64, Vec<SymbolId>)>> {
        match &self.0[..] {
            [p] => Some(p.0.iter().map(|(k, c)| (*c, k.clone())).collect()),
            _ => None,
        }
    }
    /// The count as an expression over the parameters' names (`m * n`, `n + 1`) when it is one
    /// polynomial.
    pub fn text(&self, prog: &Program) -> Option<String> {
        match &self.0[..] {
            [p] => Some(p.text(prog)),
            _ => None,
        }
    }
}

/// The element count pointer parameter `ptr` of unit `unit` needs, or `None` when the code
/// does not tell.
pub fn pointer_extent(prog: &Program, unit: UnitId, ptr: SymbolId, mode: Mode) -> Option<Extent> {
    let mut busy = HashSet::new();
    let macros = int_macros(prog);
    infer(prog, &macros, unit, ptr, mode, &mut busy)
}

/// The object-like macros whose value is an integer literal (`#define NP 11`), by name.
pub fn int_macros(prog: &Program) -> HashMap<String, i64> {
    let mut out = HashMap::new();
    for (_, u) in prog.units.iter() {
        for d in &u.decls {
            let Decl::Preproc(t) = d else { continue };
            for line in t.lines() {
                let mut w = line.split_whitespace();
                if let (Some("#define"), Some(n), Some(v), None) =
                    (w.next(), w.next(), w.next(), w.next())
                {
                    let v = v.trim_start_matches('(').trim_end_matches(')');
                    if let (false, Ok(v)) = (n.contains('('), v.parse::<i64>()) {
                        out.insert(n.to_string(), v);
                    }
                }
            }
        }
    }
    out
}

fn infer(
    prog: &Program,
    macros: &HashMap<String, i64>,
    unit: UnitId,
    ptr: SymbolId,
    mode: Mode,
    busy: &mut HashSet<(UnitId, SymbolId)>,
) -> Option<Extent> {
    let u = &prog.units[unit];
    if u.lang != Lang::C || !u.params.contains(&ptr) || !busy.insert((unit, ptr)) {
        return None;
    }
    if mode == Mode::Exact && jumps(u) {
        busy.remove(&(unit, ptr));
        return None;
    }
    let mut w = Walk {
        prog,
        macros,
        u,
        ptr,
        mode,
        fixed: fixed_params(u),
        loops: Vec::new(),
        cond: 0,
        his: Vec::new(),
        lost: false,
        busy,
    };
    for &s in &u.body {
        w.stmt(s);
    }
    let (lost, mut his) = (w.lost, w.his);
    busy.remove(&(unit, ptr));
    if lost || his.is_empty() {
        return None;
    }
    // Counts, not largest subscripts; a count another one surely exceeds is dropped.
    let mut counts: Vec<Poly> = his
        .drain(..)
        .map(|h| h.add(&Poly::lit(1), 1))
        .collect::<Option<_>>()?;
    counts.dedup();
    let keep: Vec<Poly> = counts
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            !counts.iter().enumerate().any(|(j, d)| {
                j != *i && d.add(c, -1).is_some_and(|x| x.nonneg()) && (d != *c || j < *i)
            })
        })
        .map(|(_, c)| c.clone())
        .collect();
    (!keep.is_empty() && keep.len() <= 4).then_some(Extent(keep))
}

/// The C function a called name designates: its own unit, else the function of that name
/// (a prototype's symbol names no unit).
fn definition(prog: &Program, s: SymbolId) -> Option<UnitId> {
    let sym = &prog.symbols[s];
    if let Some(u) = sym.unit.filter(|&u| prog.units[u].name == Some(s)) {
        return Some(u);
    }
    if sym.kind != SymbolKind::Procedure {
        return None;
    }
    prog.units
        .iter()
        .find(|(_, u)| {
            u.lang == Lang::C
                && matches!(u.kind, UnitKind::Function | UnitKind::Subroutine)
                && u.name
                    .is_some_and(|n| prog.symbols[n].spelling == sym.spelling)
        })
        .map(|(id, _)| id)
}

/// Whether the procedure jumps (`break`, `continue`, `goto`, a `return` before its last
/// statement): accesses after a jump may not happen.
fn jumps(u: &UnitData) -> bool {
    let last = u.body.last().copied();
    u.stmts.iter().any(|(s, st)| match st.kind {
        StmtKind::Break | StmtKind::CContinue | StmtKind::Goto(_) => true,
        StmtKind::Return(_) => Some(s) != last,
        _ => false,
    })
}

/// The integer parameters the procedure never assigns nor takes the address of.
fn fixed_params(u: &UnitData) -> HashSet<SymbolId> {
    let mut changed = HashSet::new();
    let root = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) => e = *a,
            Expr::Name(n) => return Some(*n),
            _ => return None,
        }
    };
    for (_, st) in u.stmts.iter() {
        if let StmtKind::Assign { lhs, .. } = &st.kind {
            changed.extend(root(*lhs));
        }
    }
    for (_, e) in u.exprs.iter() {
        match e {
            Expr::Assign { lhs: a, .. }
            | Expr::IncDec { arg: a, .. }
            | Expr::Unary {
                op: UnOp::AddrOf,
                arg: a,
            } => changed.extend(root(*a)),
            _ => {}
        }
    }
    u.params
        .iter()
        .copied()
        .filter(|p| !changed.contains(p))
        .collect()
}

struct Walk<'a, 'b> {
    prog: &'a Program,
    macros: &'a HashMap<String, i64>,
    u: &'a UnitData,
    ptr: SymbolId,
    mode: Mode,
    fixed: HashSet<SymbolId>,
    /// Loop counters around the current statement, outermost first, with their first and
    /// last values.
    loops: Vec<(SymbolId, Poly, Poly)>,
    /// Depth of conditional statements around the current one.
    cond: u32,
    /// The largest subscript of each access, over the parameters.
    his: Vec<Poly>,
    lost: bool,
    busy: &'b mut HashSet<(UnitId, SymbolId)>,
}

impl Walk<'_, '_> {
    fn is_ptr(&self, e: ExprId) -> bool {
        match &self.u.exprs[e] {
            Expr::Name(s) => *s == self.ptr,
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => self.is_ptr(*a),
            _ => false,
        }
    }

    /// An integer expression over loop counters, fixed parameters and literals.
    fn poly(&self, e: ExprId) -> Option<Poly> {
        match &self.u.exprs[e] {
            Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok().map(Poly::lit),
            Expr::Opaque(m) => self.macros.get(m).copied().map(Poly::lit),
            Expr::Name(s) => {
                let counter = self.loops.iter().any(|(v, _, _)| v == s);
                let int = self.prog.symbols[*s].ty.as_ref().is_some_and(|t| {
                    t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty()
                });
                (counter || (int && self.fixed.contains(s))).then(|| Poly::var(*s))
            }
            Expr::Paren(a) => self.poly(*a),
            Expr::Unary { op: UnOp::Neg, arg } => Poly::default().add(&self.poly(*arg)?, -1),
            Expr::Unary {
                op: UnOp::Plus,
                arg,
            } => self.poly(*arg),
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

    /// The largest value of `p` over the loops around: each counter, innermost first,
    /// replaced by the end its coefficient's sign picks (both when unknown).
    fn maxima(&self, p: Poly) -> Option<Vec<Poly>> {
        let mut cur = vec![p];
        for (v, lo, hi) in self.loops.iter().rev() {
            let mut next = Vec::new();
            for q in cur {
                if !q.mentions(*v) {
                    next.push(q);
                    continue;
                }
                match q.slope_sign(*v) {
                    Some(true) => next.push(q.subst(*v, hi)?),
                    Some(false) => next.push(q.subst(*v, lo)?),
                    None => {
                        next.push(q.subst(*v, hi)?);
                        next.push(q.subst(*v, lo)?);
                    }
                }
            }
            if next.len() > 4 {
                return None;
            }
            cur = next;
        }
        Some(cur)
    }

    /// The smallest value of `p` over the loops around is surely `>= 0`.
    fn min_nonneg(&self, p: &Poly) -> bool {
        let mut cur = vec![p.clone()];
        for (v, lo, hi) in self.loops.iter().rev() {
            let mut next = Vec::new();
            for q in cur {
                if !q.mentions(*v) {
                    next.push(q);
                    continue;
                }
                let (a, b) = (q.subst(*v, lo), q.subst(*v, hi));
                match (q.slope_sign(*v), a, b) {
                    (Some(true), Some(a), _) => next.push(a),
                    (Some(false), _, Some(b)) => next.push(b),
                    (None, Some(a), Some(b)) => next.extend([a, b]),
                    _ => return false,
                }
            }
            if next.len() > 8 {
                return false;
            }
            cur = next;
        }
        cur.iter().all(Poly::nonneg)
    }

    /// An access at the sum of subscripts `terms` (relative to `ptr`), plus `extra` elements
    /// beyond it.
    fn access(&mut self, terms: &[ExprId], extra: Option<&Poly>) {
        if self.mode == Mode::Exact && self.cond > 0 {
            self.lost = true;
            return;
        }
        let p = terms
            .iter()
            .try_fold(Poly::default(), |acc, &t| acc.add(&self.poly(t)?, 1));
        let Some(p) = p else {
            self.lost = true;
            return;
        };
        let top = match extra {
            Some(x) => p.add(x, 1).and_then(|t| t.add(&Poly::lit(1), -1)),
            None => Some(p.clone()),
        };
        // The driver only allocates: a negative subscript is the program's own fault there.
        let lo_ok = self.mode == Mode::Cover || self.min_nonneg(&p);
        match (lo_ok, top.and_then(|t| self.maxima(t))) {
            (true, Some(hs)) => self.his.extend(hs),
            _ => self.lost = true,
        }
    }

    /// `ptr`, `ptr + k`, `ptr + k + j`, `&ptr[k]`, `&(ptr[k])`: the terms of the offset
    /// (none for `ptr` itself), or `None` when `e` is not an address into `ptr`.
    fn address(&self, e: ExprId) -> Option<Vec<ExprId>> {
        match &self.u.exprs[e] {
            _ if self.is_ptr(e) => Some(Vec::new()),
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => self.address(*a),
            Expr::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                if let Some(mut t) = self.address(*lhs) {
                    t.push(*rhs);
                    Some(t)
                } else {
                    let mut t = self.address(*rhs)?;
                    t.push(*lhs);
                    Some(t)
                }
            }
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let mut a = *arg;
                while let Expr::Paren(x) = self.u.exprs[a] {
                    a = x;
                }
                match &self.u.exprs[a] {
                    Expr::Index { base, subs } => match subs.as_slice() {
                        [Subscript::Index(i)] => {
                            let mut t = self.address(*base)?;
                            t.push(*i);
                            Some(t)
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A call passing an address into `ptr` as argument `k`: what the callee needs of that
    /// parameter, its parameters replaced by the actual arguments.
    fn call(&mut self, callee: ExprId, args: &[Arg]) {
        for (k, a) in args.iter().enumerate() {
            let Some(off) = self.address(a.value) else {
                self.expr(a.value);
                continue;
            };
            for &o in &off {
                self.expr(o);
            }
            let target = match &self.u.exprs[callee] {
                Expr::Name(s) => definition(self.prog, *s),
                _ => None,
            };
            let need = target.and_then(|t| {
                let tu = &self.prog.units[t];
                let param = *tu.params.get(k)?;
                if tu.params.len() != args.len() {
                    return None;
                }
                let ext = infer(self.prog, self.macros, t, param, self.mode, self.busy)?;
                // The callee's parameters, as the caller's polynomials.
                let mut out = Vec::new();
                for count in &ext.0 {
                    let mut c = count.clone();
                    for (&fp, ap) in tu.params.iter().zip(args) {
                        if c.mentions(fp) {
                            c = c.subst(fp, &self.poly(ap.value)?)?;
                        }
                    }
                    out.push(c);
                }
                Some(out)
            });
            match need {
                Some(ns) => {
                    for n in ns {
                        self.access(&off, Some(&n));
                    }
                }
                None => self.lost = true,
            }
        }
    }

    fn expr(&mut self, e: ExprId) {
        if self.lost {
            return;
        }
        match &self.u.exprs[e] {
            Expr::Name(s) if *s == self.ptr => self.lost = true,
            Expr::Index { base, subs } if self.is_ptr(*base) => match subs.as_slice() {
                [Subscript::Index(i)] => {
                    self.access(&[*i], None);
                    self.expr(*i);
                }
                _ => self.lost = true,
            },
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } if self.address(*arg).is_some() => {
                let off = self.address(*arg).unwrap_or_default();
                self.access(&off, None);
                for o in off {
                    self.expr(o);
                }
            }
            Expr::Call { callee, args } => {
                let args = args.clone();
                self.call(*callee, &args);
            }
            // `&ptr[k]` anywhere but as an argument: the address escapes.
            Expr::Unary {
                op: UnOp::AddrOf, ..
            } if self.address(e).is_some() => self.lost = true,
            other => expr_children(other, &mut |c| self.expr(c)),
        }
    }

    /// The counter and first and last values of `for (i = a; i < b; i++)` (also `<=`,
    /// `i += 1`, and the descending `i >= b; i--`; in [`Mode::Cover`] also `i += k`, whose
    /// last value is at most `b - 1`).
    fn for_range(
        &self,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: &[StmtId],
    ) -> Option<(SymbolId, Poly, Poly)> {
        let u = self.u;
        let named = |e: ExprId, s: SymbolId| matches!(u.exprs[e], Expr::Name(x) if x == s);
        let (var, start) = match &u.stmts[init?].kind {
            StmtKind::Assign { lhs, op: None, rhs } => match u.exprs[*lhs] {
                Expr::Name(s) => (s, *rhs),
                _ => return None,
            },
            StmtKind::Expr(e) => match &u.exprs[*e] {
                Expr::Assign { op: None, lhs, rhs } => match u.exprs[*lhs] {
                    Expr::Name(s) => (s, *rhs),
                    _ => return None,
                },
                _ => return None,
            },
            StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 => match v.entities[0].init {
                Some(Init::Expr(x)) => (v.entities[0].sym, x),
                _ => return None,
            },
            _ => return None,
        };
        let up = match &u.exprs[step?] {
            Expr::IncDec { inc, arg, .. } if named(*arg, var) => *inc,
            Expr::Assign {
                op: Some(op),
                lhs,
                rhs,
            } if named(*lhs, var)
                && matches!(&u.exprs[*rhs], Expr::Literal(l) if l.text == "1"
                    || (self.mode == Mode::Cover && l.kind == LitKind::Int
                        && l.text.parse::<i64>().is_ok_and(|k| k > 1))) =>
            {
                match op {
                    BinOp::Add => true,
                    BinOp::Sub => false,
                    _ => return None,
                }
            }
            _ => return None,
        };
        // The body must not change the counter.
        let mut writes = false;
        let mut todo: Vec<StmtId> = body.to_vec();
        while let Some(s) = todo.pop() {
            if let StmtKind::Assign { lhs, .. } = &u.stmts[s].kind {
                writes |= named(*lhs, var);
            }
            stmt_children(
                &u.stmts[s].kind,
                &mut |e| {
                    let mut es = vec![e];
                    while let Some(x) = es.pop() {
                        match &u.exprs[x] {
                            Expr::Assign { lhs: a, .. }
                            | Expr::IncDec { arg: a, .. }
                            | Expr::Unary {
                                op: UnOp::AddrOf,
                                arg: a,
                            } => writes |= named(*a, var),
                            _ => {}
                        }
                        expr_children(&u.exprs[x], &mut |c| es.push(c));
                    }
                },
                &mut |c| todo.push(c),
            );
        }
        if writes {
            return None;
        }
        let Expr::Binary { op, lhs, rhs } = &u.exprs[cond?] else {
            return None;
        };
        if !named(*lhs, var) {
            return None;
        }
        let a = self.poly(start)?;
        let b = self.poly(*rhs)?;
        let one = Poly::lit(1);
        match (up, op) {
            (true, BinOp::Lt(_)) => Some((var, a, b.add(&one, -1)?)),
            (true, BinOp::Le(_)) => Some((var, a, b)),
            (false, BinOp::Gt(_)) => Some((var, b.add(&one, 1)?, a)),
            (false, BinOp::Ge(_)) => Some((var, b, a)),
            _ => None,
        }
    }

    fn stmt(&mut self, s: StmtId) {
        if self.lost {
            return;
        }
        match &self.u.stmts[s].kind {
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                if let Some(i) = init {
                    self.stmt(*i);
                }
                for e in cond.iter().chain(step.iter()) {
                    self.expr(*e);
                }
                match self.for_range(*init, *cond, *step, body) {
                    Some(r) => {
                        self.loops.push(r);
                        for &b in body {
                            self.stmt(b);
                        }
                        self.loops.pop();
                    }
                    None => {
                        // A loop whose range is unknown: its counter is no loop counter,
                        // and its body may not run.
                        self.cond += 1;
                        for &b in body {
                            self.stmt(b);
                        }
                        self.cond -= 1;
                    }
                }
            }
            StmtKind::Decl(d) => decl_exprs(d, &mut |e| self.expr(e)),
            StmtKind::Call { callee, args, .. } => {
                let args = args.clone();
                self.call(*callee, &args);
            }
            k @ (StmtKind::If { .. }
            | StmtKind::Switch { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }) => {
                let mut subs = Vec::new();
                stmt_children(k, &mut |e| self.expr(e), &mut |c| subs.push(c));
                self.cond += 1;
                for c in subs {
                    self.stmt(c);
                }
                self.cond -= 1;
            }
            k => {
                let mut subs = Vec::new();
                stmt_children(k, &mut |e| self.expr(e), &mut |c| subs.push(c));
                for c in subs {
                    self.stmt(c);
                }
            }
        }
    }
}
