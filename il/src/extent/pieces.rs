//! Fortran: whether two actual arguments of one call are disjoint pieces of one array, so the
//! callee's adjoint, which updates each through its own dummy, cannot update one through the
//! other (issue 44).
//!
//! Each argument is a piece: an element `a(i)` / `a(i, j)` of an array of the caller (or the
//! whole `a`, from its lower bounds) and the part of the dummy the callee can touch from
//! there: one element for a scalar dummy, the declared shape of an explicit-shape dummy
//! (`X(NX+1, NY+1)`), else the largest subscripts of the callee's accesses
//! ([`footprint`](super::footprint): BLAS's `A(LDA, *)`). Two tests, polynomials over the
//! caller's integers, each taken as a non-negative size:
//!
//! - in the array's element sequence (sequence association), the later piece starts after
//!   the earlier one's last element (MINPACK's `CALL FCN(N, WA(1), WA(N+1))`, MINPACK-2's
//!   `W(1)`, `W(ITEMP+1)` with `ITEMP = (NX+1)*(NY+1)`);
//! - for blocks of a matrix whose dummies have the caller's leading dimension (LAPACK's
//!   `DGEMM(…, A(J+JB, J), LDA, A(J, J+JB), LDA, ONE, A(J+JB, J+JB), LDA)`): the later
//!   block's columns start after the earlier one's last column, or its rows after the
//!   earlier one's last row and end within the column. A block's rows stay below the
//!   dummy's leading dimension (Fortran's bound on every subscript but the last's); that a
//!   block ends within its column, where needed, is proved from the caller's argument checks
//!   ([`entry_facts`]: LAPACK's `ELSE IF (LDA.LT.MAX(1, M)) INFO = -4` … `IF (INFO.NE.0)
//!   RETURN` gives `LDA >= M`).
//!
//! A local of the caller set once from integers nothing changes (`ITEMP`, QUADPACK's `l1 =
//! limit + 1`) is replaced by its value. `false` whenever anything is unknown.

use super::footprint::{bind, footprint, single_assignments, Eval};
use super::*;

/// Whether actual arguments `pair` of the call statement `s` of Fortran unit `unit` to
/// `callee` are disjoint pieces of one array (module doc). `unchanged` tells the dummies of
/// `unit` that nothing in it changes (calls included).
pub fn disjoint_pieces(
    prog: &Program,
    unit: UnitId,
    s: StmtId,
    callee: UnitId,
    args: &[Arg],
    (k, l): (usize, usize),
    unchanged: &dyn Fn(SymbolId) -> bool,
) -> bool {
    let u = &prog.units[unit];
    let cu = &prog.units[callee];
    if u.lang != Lang::Fortran
        || cu.lang != Lang::Fortran
        || args.len() > cu.params.len()
        || args.iter().any(|a| a.keyword.is_some())
    {
        return false;
    }
    // Cheap first: both arguments parts of one array.
    let array = |i: usize| match &u.exprs[args[i].value] {
        Expr::Index { base, .. } => match u.exprs[*base] {
            Expr::Name(a) => Some(a),
            _ => None,
        },
        Expr::Name(a) => Some(*a),
        _ => None,
    };
    if array(k).is_none() || array(k) != array(l) {
        return false;
    }
    let cx = Caller {
        prog,
        u,
        callee,
        args,
        once: single_assignments(prog, u),
        unchanged,
    };
    let (Some(a), Some(b)) = (cx.piece(k), cx.piece(l)) else {
        return false;
    };
    if a.array != b.array {
        return false;
    }
    let facts = entry_facts(prog, u, s, unchanged);
    let provable = |p: Option<Poly>| {
        p.is_some_and(|p| {
            p.nonneg()
                || facts
                    .iter()
                    .any(|f| p.add(f, -1).is_some_and(|d| d.nonneg()))
        })
    };
    // The sequence: `y` starts after the last element of `x`.
    let after = |x: &Piece, y: &Piece| {
        x.count
            .iter()
            .all(|c| provable(Poly::gap(&y.lin, &x.lin, c)))
    };
    if after(&a, &b) || after(&b, &a) {
        return true;
    }
    let (Some(ld), Some(ba), Some(bb)) = (cx.leading(a.array), &a.block, &b.block) else {
        return false;
    };
    if [ba, bb]
        .iter()
        .any(|x| x.ld.as_ref().is_some_and(|d| *d != ld))
    {
        return false;
    }
    let i = |p: &Piece| p.start[0].clone();
    let j = |p: &Piece| p.start[1].clone();
    // Columns: `y`'s first column after `x`'s last, and `y`'s first row not above `x`'s
    // (`x` may run past its last column's end, not past `y`'s first element) or `x`'s last
    // row within the column.
    let right = |x: &Piece, bx: &Block2, y: &Piece| {
        let past = |c: &Poly| j(y).add(&j(x), -1).and_then(|d| d.add(c, -1));
        bx.cols
            .iter()
            .all(|c| provable(past(c).and_then(|d| i(y).add(&i(x), -1)?.add(&d.mul(&ld)?, 1))))
            || (bx.cols.iter().all(|c| provable(past(c)))
                && bx
                    .rows
                    .iter()
                    .all(|r| provable(ld.add(&i(x), -1).and_then(|d| d.add(r, -1)))))
    };
    // Rows: `y`'s first row after `x`'s last, `y`'s last row within its column.
    let below = |x: &Piece, bx: &Block2, y: &Piece, by: &Block2| {
        bx.rows
            .iter()
            .all(|r| provable(i(y).add(&i(x), -1).and_then(|d| d.add(r, -1))))
            && by
                .rows
                .iter()
                .all(|r| provable(ld.add(&i(y), -1).and_then(|d| d.add(r, -1))))
    };
    right(&a, ba, &b) || right(&b, bb, &a) || below(&a, ba, &b, bb) || below(&b, bb, &a, ba)
}

/// One argument as a piece of an array of the caller.
struct Piece {
    array: SymbolId,
    /// The first element's subscripts, from the array's lower bounds (0 for the first).
    start: Vec<Poly>,
    /// Its place in the element sequence.
    lin: Poly,
    /// The elements the callee can reach from there (the largest of a few).
    count: Vec<Poly>,
    /// The dummy as a block of a matrix, when it is one.
    block: Option<Block2>,
}

/// The rows and columns a rank-2 (or scalar) dummy can reach.
struct Block2 {
    /// Its leading dimension (`None`: a scalar, one element, fits any).
    ld: Option<Poly>,
    rows: Vec<Poly>,
    cols: Vec<Poly>,
}

struct Caller<'a> {
    prog: &'a Program,
    u: &'a UnitData,
    callee: UnitId,
    args: &'a [Arg],
    once: HashMap<SymbolId, StmtId>,
    unchanged: &'a dyn Fn(SymbolId) -> bool,
}

impl Caller<'_> {
    /// An integer expression of the caller, its locals set once replaced by their values.
    fn poly(&self, e: ExprId) -> Option<Poly> {
        let macros = HashMap::new();
        let mut p = loose_poly(self.prog, &macros, self.u, e)?;
        for _ in 0..4 {
            let vars: Vec<SymbolId> =
                p.0.keys()
                    .flatten()
                    .copied()
                    .filter(|v| self.settled(*v, 3))
                    .filter(|v| self.once.contains_key(v))
                    .collect();
            let Some(&v) = vars.first() else {
                return Some(p);
            };
            let StmtKind::Assign { rhs, .. } = &self.u.stmts[self.once[&v]].kind else {
                return None;
            };
            p = p.subst(v, &loose_poly(self.prog, &macros, self.u, *rhs)?)?;
        }
        Some(p)
    }

    /// Whether `v` is a local set once from integers nothing changes (or such locals).
    fn settled(&self, v: SymbolId, depth: u32) -> bool {
        let Some(&s) = self.once.get(&v) else {
            return false;
        };
        let StmtKind::Assign { rhs, .. } = &self.u.stmts[s].kind else {
            return false;
        };
        let macros = HashMap::new();
        loose_poly(self.prog, &macros, self.u, *rhs).is_some_and(|p| {
            p.0.keys().flatten().all(|&w| {
                (self.prog.symbols[w].attrs.dummy && (self.unchanged)(w))
                    || self.prog.symbols[w].kind == SymbolKind::Constant
                    || (depth > 0 && self.settled(w, depth - 1))
            })
        })
    }

    /// The caller's array's extent in its first dimension, for a rank-2 array.
    fn leading(&self, a: SymbolId) -> Option<Poly> {
        let dims = &self.prog.symbols[a].ty.as_ref()?.dims;
        if dims.len() != 2 {
            return None;
        }
        self.extent(&dims[0])
    }

    fn extent(&self, d: &Dim) -> Option<Poly> {
        let DimUpper::Expr(up) = d.upper else {
            return None;
        };
        let lo = d.lower.map_or(Some(Poly::lit(1)), |x| self.poly(x))?;
        self.poly(up)?.add(&lo, -1)?.add(&Poly::lit(1), 1)
    }

    /// A callee's polynomial with its integer dummies replaced by the call's arguments.
    fn at_call(&self, mut p: Poly) -> Option<Poly> {
        let cu = &self.prog.units[self.callee];
        for (j, &fp) in cu.params.iter().enumerate() {
            if p.mentions(fp) {
                p = p.subst(fp, &self.poly(self.args.get(j)?.value)?)?;
            }
        }
        Some(p)
    }

    /// Argument `i` as a piece.
    fn piece(&self, i: usize) -> Option<Piece> {
        let (prog, u) = (self.prog, self.u);
        let (array, subs) = match &u.exprs[self.args[i].value] {
            Expr::Index { base, subs } => match &u.exprs[*base] {
                Expr::Name(a) => (*a, Some(subs)),
                _ => return None,
            },
            Expr::Name(a) => (*a, None),
            _ => return None,
        };
        let sd = &prog.symbols[array];
        let dims = &sd.ty.as_ref()?.dims;
        if dims.is_empty() || sd.attrs.pointer {
            return None;
        }
        let mut start = Vec::new();
        for (d, dim) in dims.iter().enumerate() {
            let lo = dim.lower.map_or(Some(Poly::lit(1)), |x| self.poly(x))?;
            start.push(match subs {
                None => Poly::default(),
                Some(subs) => match subs.get(d)? {
                    Subscript::Index(e) => self.poly(*e)?.add(&lo, -1)?,
                    Subscript::Range(..) => return None,
                },
            });
        }
        if subs.is_some_and(|s| s.len() != dims.len()) {
            return None;
        }
        let mut lin = Poly::default();
        let mut stride = Poly::lit(1);
        for (d, s) in start.iter().enumerate() {
            lin = lin.add(&s.mul(&stride)?, 1)?;
            if d + 1 < dims.len() {
                stride = stride.mul(&self.extent(&dims[d])?)?;
            }
        }
        let (count, block) = self.reach(i)?;
        Some(Piece {
            array,
            start,
            lin,
            count,
            block,
        })
    }

    /// What the callee can reach of dummy `i`: element counts and, for a matrix, its block.
    fn reach(&self, i: usize) -> Option<(Vec<Poly>, Option<Block2>)> {
        let (prog, cu) = (self.prog, &self.prog.units[self.callee]);
        let formal = cu.params[i];
        let ft = prog.symbols[formal].ty.as_ref()?;
        let macros = HashMap::new();
        let cpoly = |e: ExprId| loose_poly(prog, &macros, cu, e);
        if ft.dims.is_empty() {
            if prog.symbols[formal].attrs.pointer {
                return None;
            }
            let one = vec![Poly::lit(1)];
            let block = Block2 {
                ld: None,
                rows: one.clone(),
                cols: one.clone(),
            };
            return Some((one, Some(block)));
        }
        let lower = ft
            .dims
            .iter()
            .map(|d| d.lower.map_or(Some(Poly::lit(1)), &cpoly))
            .collect::<Option<Vec<_>>>()?;
        let ext = |d: &Dim, lo: &Poly| match d.upper {
            DimUpper::Expr(up) => cpoly(up)?.add(lo, -1)?.add(&Poly::lit(1), 1),
            _ => None,
        };
        let exts: Vec<Option<Poly>> = ft
            .dims
            .iter()
            .zip(&lower)
            .map(|(d, lo)| ext(d, lo))
            .collect();
        // The declared shape when every extent is known, unless it is one element in all
        // (`X(1)`: F77's array of any length); else the accesses' largest subscripts.
        let declared = exts.iter().cloned().collect::<Option<Vec<_>>>();
        let total = declared
            .as_ref()
            .and_then(|es| es.iter().try_fold(Poly::lit(1), |acc, e| acc.mul(e)));
        let his: Vec<Vec<Poly>> = match (declared, total) {
            (Some(es), Some(t)) if t != Poly::lit(1) => es
                .iter()
                .zip(&lower)
                .map(|(e, lo)| Some(vec![e.add(lo, 1)?.add(&Poly::lit(1), -1)?]))
                .collect::<Option<_>>()?,
            _ => {
                let mut known = HashMap::new();
                let ev = Eval {
                    prog,
                    u: self.u,
                    env: HashMap::new(),
                    depth: 0,
                };
                for (j, a) in self.args.iter().enumerate() {
                    let lit = matches!(self.u.exprs[a.value], Expr::Literal(_));
                    if let (true, Some(v)) = (lit, ev.eval(a.value)) {
                        if let Some(v) = bind(prog, self.callee, cu.params[j], v) {
                            known.insert(cu.params[j], v);
                        }
                    }
                }
                footprint(prog, self.callee, formal, known)?
            }
        };
        // Counts along each dimension, then the element count in the sequence: the last
        // element's place plus one, for every choice among the largest subscripts.
        let counts: Vec<Vec<Poly>> = his
            .iter()
            .zip(&lower)
            .map(|(hs, lo)| {
                hs.iter()
                    .map(|h| self.at_call(h.add(lo, -1)?.add(&Poly::lit(1), 1)?))
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<_>>()?;
        let strides = {
            let mut v = vec![Poly::lit(1)];
            for d in 0..ft.dims.len() - 1 {
                let e = self.at_call(exts[d].clone()?)?;
                v.push(v[d].mul(&e)?);
            }
            v
        };
        let mut totals = vec![Poly::lit(1)];
        for (d, cs) in counts.iter().enumerate() {
            let mut next = Vec::new();
            for t in &totals {
                for c in cs {
                    next.push(t.add(&c.add(&Poly::lit(1), -1)?.mul(&strides[d])?, 1)?);
                }
            }
            if next.len() > 16 {
                return None;
            }
            totals = next;
        }
        let block = match (&counts[..], &exts[..]) {
            ([rows, cols], [Some(ld), _]) => Some(Block2 {
                ld: Some(self.at_call(ld.clone())?),
                rows: rows.clone(),
                cols: cols.clone(),
            }),
            _ => None,
        };
        Some((totals, block))
    }
}

/// What the argument checks at the top of Fortran unit `u` before statement `s` guarantee,
/// as polynomials `>= 0` over dummies nothing in `u` changes: the negated condition of a
/// top-level `IF (c) RETURN` (or an IF block ending in RETURN or STOP), and LAPACK's idiom
/// `INFO = 0; IF (c1) THEN INFO = -1 ELSE IF (c2) THEN INFO = -2 … END IF; IF (INFO.NE.0)
/// THEN … RETURN END IF`, past which every `ci` is false. Conditions are comparisons of
/// integer polynomials, `MAX` on the larger side, `MIN` on the smaller, `.OR.` of such. None
/// in a unit with GOTOs or ENTRY (a jump could pass the checks).
fn entry_facts(
    prog: &Program,
    u: &UnitData,
    s: StmtId,
    unchanged: &dyn Fn(SymbolId) -> bool,
) -> Vec<Poly> {
    let jumps = u.stmts.iter().any(|(_, st)| {
        matches!(
            st.kind,
            StmtKind::Goto(_)
                | StmtKind::ComputedGoto { .. }
                | StmtKind::ArithIf { .. }
                | StmtKind::Entry { .. }
        )
    });
    let Some(top) = u.body.iter().position(|&t| within(u, t, s)) else {
        return Vec::new();
    };
    if jumps {
        return Vec::new();
    }
    let code: Vec<StmtId> = u.body[..top]
        .iter()
        .copied()
        .filter(|&t| !matches!(u.stmts[t].kind, StmtKind::Comment(_)))
        .collect();
    let f = Facts { prog, u, unchanged };
    let mut out = Vec::new();
    for (n, &t) in code.iter().enumerate() {
        if let Some(c) = f.guard(t) {
            f.negated(c, &mut out);
        }
        // `INFO = 0`, the chain, the test.
        let StmtKind::Assign { lhs, op: None, rhs } = &u.stmts[t].kind else {
            continue;
        };
        let (Expr::Name(v), Some(0)) = (&u.exprs[*lhs], int_literal(u, *rhs)) else {
            continue;
        };
        let (Some(&chain), Some(&test)) = (code.get(n + 1), code.get(n + 2)) else {
            continue;
        };
        let StmtKind::If {
            arms, else_block, ..
        } = &u.stmts[chain].kind
        else {
            continue;
        };
        let sets = |b: &Block| match b[..] {
            [x] => matches!(&u.stmts[x].kind, StmtKind::Assign { lhs, op: None, rhs }
                if matches!(u.exprs[*lhs], Expr::Name(w) if w == *v)
                    && int_literal(u, *rhs).is_some_and(|k| k != 0)),
            _ => false,
        };
        let tested = f.guard(test).is_some_and(|c| match &u.exprs[c] {
            Expr::Binary {
                op: BinOp::Ne(_),
                lhs,
                rhs,
            } => {
                matches!(u.exprs[*lhs], Expr::Name(w) if w == *v) && int_literal(u, *rhs) == Some(0)
            }
            _ => false,
        });
        if tested && arms.iter().all(|(_, b)| sets(b)) && else_block.as_ref().is_none_or(sets) {
            for (c, _) in arms {
                f.negated(*c, &mut out);
            }
        }
    }
    out
}

/// Whether statement `s` is `t` or inside it.
fn within(u: &UnitData, t: StmtId, s: StmtId) -> bool {
    if t == s {
        return true;
    }
    let mut found = false;
    stmt_children(&u.stmts[t].kind, &mut |_| {}, &mut |c| {
        found |= within(u, c, s)
    });
    found
}

/// The value of an integer literal, or of a negated one.
fn int_literal(u: &UnitData, e: ExprId) -> Option<i64> {
    match &u.exprs[e] {
        Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok(),
        Expr::Unary { op: UnOp::Neg, arg } => int_literal(u, *arg)?.checked_neg(),
        Expr::Paren(a) => int_literal(u, *a),
        _ => None,
    }
}

struct Facts<'a> {
    prog: &'a Program,
    u: &'a UnitData,
    unchanged: &'a dyn Fn(SymbolId) -> bool,
}

impl Facts<'_> {
    /// The condition of `IF (c) RETURN`, or of an IF block of one arm ending in RETURN or
    /// STOP.
    fn guard(&self, t: StmtId) -> Option<ExprId> {
        let u = self.u;
        let StmtKind::If {
            arms,
            else_block: None,
            ..
        } = &u.stmts[t].kind
        else {
            return None;
        };
        let [(c, b)] = &arms[..] else {
            return None;
        };
        let last = b
            .iter()
            .rev()
            .find(|&&x| !matches!(u.stmts[x].kind, StmtKind::Comment(_)))?;
        matches!(
            u.stmts[*last].kind,
            StmtKind::Return(_) | StmtKind::Stop { .. }
        )
        .then_some(*c)
    }

    /// A polynomial over unchanged dummies and literals.
    fn poly(&self, e: ExprId) -> Option<Poly> {
        let p = loose_poly(self.prog, &HashMap::new(), self.u, e)?;
        p.0.keys()
            .flatten()
            .all(|&v| self.prog.symbols[v].attrs.dummy && (self.unchanged)(v))
            .then_some(p)
    }

    /// The operands of `e` when it is a call of intrinsic `name` (`MAX`, `MIN`), else `e`.
    fn parts(&self, e: ExprId, name: &str) -> Vec<ExprId> {
        let u = self.u;
        let mut e = e;
        while let Expr::Paren(a) = u.exprs[e] {
            e = a;
        }
        match &u.exprs[e] {
            Expr::Call { callee, args } => match u.exprs[*callee] {
                Expr::Name(f)
                    if self.prog.symbols[f].kind == SymbolKind::Intrinsic
                        && self.prog.symbols[f].spelling.eq_ignore_ascii_case(name) =>
                {
                    args.iter().map(|a| a.value).collect()
                }
                _ => vec![e],
            },
            _ => vec![e],
        }
    }

    /// `small + add <= big`, as facts.
    fn le(&self, small: ExprId, add: i64, big: ExprId, out: &mut Vec<Poly>) {
        for s in self.parts(small, "max") {
            for b in self.parts(big, "min") {
                let fact = self
                    .poly(b)
                    .zip(self.poly(s))
                    .and_then(|(b, s)| b.add(&s, -1)?.add(&Poly::lit(add), -1));
                out.extend(fact);
            }
        }
    }

    /// Facts true when condition `c` is false.
    fn negated(&self, c: ExprId, out: &mut Vec<Poly>) {
        match &self.u.exprs[c] {
            Expr::Paren(a) => self.negated(*a, out),
            Expr::Unary { op: UnOp::Not, arg } => self.holds(*arg, out),
            Expr::Binary { op, lhs, rhs } => match op {
                BinOp::Or => {
                    self.negated(*lhs, out);
                    self.negated(*rhs, out);
                }
                BinOp::Lt(_) => self.le(*rhs, 0, *lhs, out),
                BinOp::Le(_) => self.le(*rhs, 1, *lhs, out),
                BinOp::Gt(_) => self.le(*lhs, 0, *rhs, out),
                BinOp::Ge(_) => self.le(*lhs, 1, *rhs, out),
                _ => {}
            },
            _ => {}
        }
    }

    /// Facts true when condition `c` is true.
    fn holds(&self, c: ExprId, out: &mut Vec<Poly>) {
        match &self.u.exprs[c] {
            Expr::Paren(a) => self.holds(*a, out),
            Expr::Unary { op: UnOp::Not, arg } => self.negated(*arg, out),
            Expr::Binary { op, lhs, rhs } => match op {
                BinOp::And => {
                    self.holds(*lhs, out);
                    self.holds(*rhs, out);
                }
                BinOp::Lt(_) => self.le(*lhs, 1, *rhs, out),
                BinOp::Le(_) => self.le(*lhs, 0, *rhs, out),
                BinOp::Gt(_) => self.le(*rhs, 1, *lhs, out),
                BinOp::Ge(_) => self.le(*rhs, 0, *lhs, out),
                _ => {}
            },
            _ => {}
        }
    }
}
