//! Intrinsic results an adjoint can read back from where the primal stored them (issue 21):
//! [`stored_until_adjoint`], on the polynomial machinery of the parent module.

use super::*;

/// Whether the element C statement `s` (`p[k] = e;`) stores is written by no statement that
/// may run after `s` in `unit`, nor through any other name (issue 21: LSTM's
/// `gates[3 * hsize + i] = tanh(…)`, the other gates stored to `gates[i]`, `gates[hsize + i]`,
/// `gates[2 * hsize + i]` in the same loop): an adjoint may then read `p[k]` back instead of
/// evaluating `e` again. `false` whenever anything is unknown.
///
/// The rule, all of it required: the unit has no jump; `p` is a local array or pointer of the
/// unit (not a parameter, not `static`), mentioned only as `p[…]`, as the target of an
/// assignment at the top level of the body before the loop of `s` (`p = malloc(…)`), and in a
/// top-level `free(p)`; `s` is a statement of the body of a counted loop
/// `for (i = a; i < b; i++)` at the top level of the body, with `k` a polynomial over `i`,
/// never-assigned integer parameters and literals whose coefficient of `i` is a non-zero
/// constant (each iteration stores another element); every other statement writing an
/// element of `p` either comes before that loop at the top level, or is a statement of the
/// same loop body whose subscript's values over the loop lie wholly below or wholly above
/// those of `k`, by a constant margin (the integer parameters taken as non-negative sizes).
pub fn stored_until_adjoint(
    prog: &Program,
    macros: &HashMap<String, i64>,
    unit: UnitId,
    s: StmtId,
) -> bool {
    let u = &prog.units[unit];
    if u.lang != Lang::C || jumps(u) {
        return false;
    }
    let StmtKind::Assign { lhs, op: None, .. } = &u.stmts[s].kind else {
        return false;
    };
    let Expr::Index { base, subs } = &u.exprs[*lhs] else {
        return false;
    };
    let (Expr::Name(p), [Subscript::Index(k)]) = (&u.exprs[*base], &subs[..]) else {
        return false;
    };
    let (p, k) = (*p, *k);
    let sd = &prog.symbols[p];
    let shape_ok = sd.ty.as_ref().is_some_and(|t| {
        (t.pointers == 1 && t.dims.is_empty()) || (t.pointers == 0 && t.dims.len() == 1)
    });
    let local =
        !u.params.contains(&p) && prog.unit_of_scope(sd.scope) == Some(unit) && !sd.attrs.save;
    if !shape_ok || !local {
        return false;
    }
    // The top-level loop whose body holds `s`.
    let Some(pos) = u.body.iter().position(
        |&t| matches!(&u.stmts[t].kind, StmtKind::CFor { body, .. } if body.contains(&s)),
    ) else {
        return false;
    };
    let StmtKind::CFor {
        init,
        cond,
        step,
        body,
        ..
    } = &u.stmts[u.body[pos]].kind
    else {
        return false;
    };
    let mut busy = HashSet::new();
    let mut w = Walk::new(prog, macros, u, p, Mode::Exact, &mut busy);
    let Some(range) = w.for_range(*init, *cond, *step, body) else {
        return false;
    };
    let var = range.0;
    w.loops.push(range);
    // The stored subscript: linear in the counter with a non-zero constant coefficient.
    let Some(kp) = w.poly(k) else {
        return false;
    };
    let injective = kp.0.iter().any(|(m, &c)| m[..] == [var] && c != 0)
        && kp.0.keys().all(|m| m[..] == [var] || !m.contains(&var));
    if !injective {
        return false;
    }
    let (Some(kmin), Some(kmax)) = (w.minima(kp.clone()), w.maxima(kp)) else {
        return false;
    };
    // `a` wholly below `b` by a constant margin: `min(b) - max(a) - 1` a non-negative
    // polynomial for every bound.
    let below = |amax: &[Poly], bmin: &[Poly]| {
        amax.iter().all(|a| {
            bmin.iter().all(|b| {
                b.add(a, -1)
                    .and_then(|d| d.add(&Poly::lit(1), -1))
                    .is_some_and(|d| d.nonneg())
            })
        })
    };
    // Every statement, with the top-level statement it belongs to.
    let mut all: Vec<(StmtId, usize)> = Vec::new();
    for (j, &t) in u.body.iter().enumerate() {
        let mut todo = vec![t];
        while let Some(x) = todo.pop() {
            all.push((x, j));
            stmt_children(&u.stmts[x].kind, &mut |_| {}, &mut |c| todo.push(c));
        }
    }
    let is_p = |e: ExprId| matches!(u.exprs[e], Expr::Name(x) if x == p);
    for (t, root) in all {
        let kind = &u.stmts[t].kind;
        let top = u.body.contains(&t);
        let mut exprs = Vec::new();
        stmt_children(kind, &mut |e| exprs.push(e), &mut |_| {});
        if let StmtKind::Decl(d) = kind {
            decl_exprs(d, &mut |e| exprs.push(e));
        }
        match kind {
            // `p = malloc(…)` before the loop.
            StmtKind::Assign { lhs: l, rhs, .. } if is_p(*l) => {
                if !(top && root < pos && !mentions_sym(u, *rhs, p)) {
                    return false;
                }
                continue;
            }
            // `free(p)` at the top level.
            StmtKind::Call { callee, args, .. }
                if top
                    && matches!(&u.exprs[*callee], Expr::Name(f) if prog.symbols[*f].spelling == "free")
                    && matches!(&args[..], [a] if is_p(a.value)) =>
            {
                continue;
            }
            // Another store into an element of `p`.
            StmtKind::Assign { lhs: l, rhs, .. } if t != s => {
                if let Expr::Index { base: b, subs: ss } = &u.exprs[*l] {
                    if is_p(*b) {
                        let apart = body.contains(&t)
                            && match &ss[..] {
                                [Subscript::Index(k2)] => w.poly(*k2).is_some_and(|q| {
                                    match (w.minima(q.clone()), w.maxima(q)) {
                                        (Some(qmin), Some(qmax)) => {
                                            below(&qmax, &kmin) || below(&kmax, &qmin)
                                        }
                                        _ => false,
                                    }
                                }),
                                _ => false,
                            };
                        if !(root < pos || apart)
                            || ss.iter().any(|x| subscript_mentions(u, x, p))
                            || !only_read_elements(u, *rhs, p)
                            || writes_element(u, *rhs, p)
                        {
                            return false;
                        }
                        continue;
                    }
                }
            }
            _ => {}
        }
        // Anything else only reads elements of `p`.
        for e in exprs {
            if !only_read_elements(u, e, p) || writes_element(u, e, p) {
                return false;
            }
        }
        // A store written as an expression or a statement kind not matched above.
        if t != s && matches!(kind, StmtKind::Assign { lhs: l, .. } if mentions_sym(u, *l, p)) {
            return false;
        }
    }
    true
}

/// Whether expression `e` of `u` mentions symbol `p` anywhere.
fn mentions_sym(u: &UnitData, e: ExprId, p: SymbolId) -> bool {
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        if matches!(u.exprs[x], Expr::Name(n) if n == p) {
            return true;
        }
        expr_children(&u.exprs[x], &mut |c| todo.push(c));
    }
    false
}

/// Whether subscript `s` mentions `p`.
fn subscript_mentions(u: &UnitData, s: &Subscript, p: SymbolId) -> bool {
    let mut found = false;
    crate::visit::subscript_children(s, &mut |e| found |= mentions_sym(u, e, p));
    found
}

/// Whether every mention of `p` in `e` is the base of an element `p[k]` (whose subscript
/// does not mention `p`).
fn only_read_elements(u: &UnitData, e: ExprId, p: SymbolId) -> bool {
    match &u.exprs[e] {
        Expr::Name(n) => *n != p,
        Expr::Index { base, subs } if matches!(u.exprs[*base], Expr::Name(x) if x == p) => {
            subs.iter().all(|s| !subscript_mentions(u, s, p))
        }
        other => {
            let mut ok = true;
            expr_children(other, &mut |c| ok &= only_read_elements(u, c, p));
            ok
        }
    }
}

/// Whether `e` writes an element of `p` inside an expression (`p[i]++`, `x = p[i] = y`).
fn writes_element(u: &UnitData, e: ExprId, p: SymbolId) -> bool {
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        match &u.exprs[x] {
            Expr::Assign { lhs: a, .. } | Expr::IncDec { arg: a, .. } if mentions_sym(u, *a, p) => {
                return true;
            }
            other => expr_children(other, &mut |c| todo.push(c)),
        }
    }
    false
}

/// The scalar stores of a C unit whose value stays until their adjoint (issue 21: bundle
/// adjustment's `theta = sqrt(sqtheta)`, `costheta = cos(theta)`), and its plain locals.
#[derive(Debug, Default)]
pub struct KeptScalars {
    /// Statements `v = e;` (`v` a plain local) that are the only assignment of `v` and run
    /// at most once (no loop around them, no jump in the unit): nothing restores or
    /// overwrites `v` between the forward run of the statement and its adjoint, so an adjoint
    /// may read `v` back instead of evaluating `e` again. With `v`.
    pub stores: HashMap<StmtId, SymbolId>,
    /// Scalar local variables and by-value parameters that only their own name can change:
    /// no pointer, not `static`, address never taken.
    pub plain: HashSet<SymbolId>,
    /// Each statement's position: the number of its block (a statement list of the unit, in
    /// `blocks`) and its index there.
    pub at: HashMap<StmtId, (usize, usize)>,
    /// The blocks of the unit, its body first.
    pub blocks: Vec<Vec<StmtId>>,
}

/// [`KeptScalars`] of `unit` (empty for Fortran and for units with jumps), in two walks.
pub fn kept_scalars(prog: &Program, unit: UnitId) -> KeptScalars {
    let u = &prog.units[unit];
    let mut out = KeptScalars::default();
    if u.lang != Lang::C || jumps(u) {
        return out;
    }
    let mut writes: HashMap<SymbolId, usize> = HashMap::new();
    let mut addressed: HashSet<SymbolId> = HashSet::new();
    let mut mentioned: HashSet<SymbolId> = HashSet::new();
    for (_, e) in u.exprs.iter() {
        match e {
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let mut todo = vec![*arg];
                while let Some(x) = todo.pop() {
                    if let Expr::Name(n) = u.exprs[x] {
                        addressed.insert(n);
                    }
                    expr_children(&u.exprs[x], &mut |c| todo.push(c));
                }
            }
            Expr::Assign { lhs: a, .. } | Expr::IncDec { arg: a, .. } => {
                if let Some(v) = root_name(u, *a) {
                    *writes.entry(v).or_default() += 2;
                }
            }
            Expr::Name(n) => {
                mentioned.insert(*n);
            }
            _ => {}
        }
    }
    let mut todo_blocks: Vec<&[StmtId]> = vec![&u.body[..]];
    while let Some(b) = todo_blocks.pop() {
        let n = out.blocks.len();
        for (k, &t) in b.iter().enumerate() {
            out.at.insert(t, (n, k));
            child_blocks(&u.stmts[t].kind, &mut todo_blocks);
        }
        out.blocks.push(b.to_vec());
    }
    let mut single: Vec<(StmtId, SymbolId)> = Vec::new();
    let mut todo: Vec<(StmtId, bool)> = u.body.iter().map(|&t| (t, false)).collect();
    while let Some((t, looped)) = todo.pop() {
        let kind = &u.stmts[t].kind;
        match kind {
            StmtKind::Assign { lhs, op, .. } => {
                if let Some(v) = root_name(u, *lhs) {
                    *writes.entry(v).or_default() += 1;
                    if !looped && op.is_none() && matches!(u.exprs[*lhs], Expr::Name(_)) {
                        single.push((t, v));
                    }
                }
            }
            StmtKind::Decl(Decl::Var(vd)) => {
                for en in vd.entities.iter().filter(|en| en.init.is_some()) {
                    *writes.entry(en.sym).or_default() += 2;
                }
            }
            _ => {}
        }
        let here = looped || kind.repeats_body();
        stmt_children(kind, &mut |_| {}, &mut |c| todo.push((c, here)));
    }
    for v in mentioned {
        let sd = &prog.symbols[v];
        let scalar = sd
            .ty
            .as_ref()
            .is_some_and(|t| t.pointers == 0 && t.dims.is_empty());
        if scalar
            && prog.unit_of_scope(sd.scope) == Some(unit)
            && !sd.attrs.save
            && !addressed.contains(&v)
        {
            out.plain.insert(v);
        }
    }
    for (t, v) in single {
        if writes.get(&v) == Some(&1) && out.plain.contains(&v) {
            out.stores.insert(t, v);
        }
    }
    out
}

/// The variable an assignment target `x`, `(x)` names, if it is a plain name.
fn root_name(u: &UnitData, mut e: ExprId) -> Option<SymbolId> {
    loop {
        match &u.exprs[e] {
            Expr::Paren(a) => e = *a,
            Expr::Name(n) => return Some(*n),
            _ => return None,
        }
    }
}

/// The statement lists (blocks) directly inside statement kind `kind`.
fn child_blocks<'u>(kind: &'u StmtKind, out: &mut Vec<&'u [StmtId]>) {
    match kind {
        StmtKind::If {
            arms, else_block, ..
        }
        | StmtKind::Where {
            arms, else_block, ..
        } => {
            out.extend(arms.iter().map(|(_, b)| &b[..]));
            out.extend(else_block.iter().map(|b| &b[..]));
        }
        StmtKind::Do { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Loop { body }
        | StmtKind::CFor { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Forall { body, .. }
        | StmtKind::Block { body, .. } => out.push(&body[..]),
        StmtKind::Select { cases, .. } => out.extend(cases.iter().map(|c| &c.body[..])),
        _ => {}
    }
}

/// Whether statement `s` of `u` or one nested in it may assign one of the plain locals
/// `vars` ([`plain_local`]: only their names can change them).
pub fn writes_plain(u: &UnitData, s: StmtId, vars: &[SymbolId]) -> bool {
    let mut todo = vec![s];
    while let Some(t) = todo.pop() {
        let kind = &u.stmts[t].kind;
        if stmt_writes(u, kind, vars) {
            return true;
        }
        stmt_children(kind, &mut |_| {}, &mut |c| todo.push(c));
    }
    false
}

/// Whether statement kind `kind` itself (not its nested statements) assigns one of `vars`,
/// as its target, in an expression (`x = y = 0`, `k++`) or a declaration's initializer.
fn stmt_writes(u: &UnitData, kind: &StmtKind, vars: &[SymbolId]) -> bool {
    let named = |e: ExprId| vars.iter().any(|&v| mentions_sym(u, e, v));
    let root_named = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) => e = *a,
            Expr::Name(n) => return vars.contains(n),
            _ => return false,
        }
    };
    let mut exprs = Vec::new();
    stmt_children(kind, &mut |e| exprs.push(e), &mut |_| {});
    match kind {
        StmtKind::Assign { lhs, .. } if root_named(*lhs) => return true,
        StmtKind::Decl(d) => {
            if let Decl::Var(vd) = d {
                if vd
                    .entities
                    .iter()
                    .any(|en| vars.contains(&en.sym) && en.init.is_some())
                {
                    return true;
                }
            }
            decl_exprs(d, &mut |e| exprs.push(e));
        }
        _ => {}
    }
    exprs.into_iter().any(|e| {
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            match &u.exprs[x] {
                Expr::Assign { lhs: a, .. } | Expr::IncDec { arg: a, .. } if named(*a) => {
                    return true;
                }
                other => expr_children(other, &mut |c| todo.push(c)),
            }
        }
        false
    })
}
