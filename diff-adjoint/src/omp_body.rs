//! What the reversal of a parallel loop needs to know of its body: which increments each
//! iteration owns (so they need no atomic), critical sections and their increments, the
//! extents of arrays the loop writes, and the stack operations to keep per iteration.

use crate::*;
use radtap_diff_gen::generator::{loop_body, loop_counter};
use radtap_il::omp::{base_name, declared_below, stmts_below, written, Omp, OmpKind};

/// Why a critical section is refused.
pub(crate) const CRITICAL_ORDER: &str = "a critical section that sets a shared variable other than by increments `x = x + e` (or calls, or declares): the order the threads ran it in, which its adjoint would need,";

/// Whether statement `x` is a critical section.
pub(crate) fn is_critical(u: &UnitData, x: StmtId) -> bool {
    matches!(u.stmts[x].omp.as_deref(), Some(o) if matches!(o.kind, OmpKind::Critical(_)))
}

/// The variable a target `x`, `x[i]`, `x(i)%f` or `*x` (C, a pointer's pointee) sets.
pub(crate) fn target_var(u: &UnitData, e: ExprId) -> Option<SymbolId> {
    match &u.exprs[e] {
        Expr::Unary {
            op: UnOp::Deref,
            arg,
        } => match u.exprs[*arg] {
            Expr::Name(x) => Some(x),
            _ => None,
        },
        _ => base_name(u, e),
    }
}

/// The arguments of statement `st` when it is a call.
pub(crate) fn call_of(u: &UnitData, st: StmtId) -> Option<&[Arg]> {
    match &u.stmts[st].kind {
        StmtKind::Call { args, .. } => Some(args),
        StmtKind::Expr(e) => match &u.exprs[*e] {
            Expr::Call { args, .. } => Some(args),
            _ => None,
        },
        _ => None,
    }
}

/// The variable an assignment `st` writes.
pub(crate) fn increment_target(u: &UnitData, st: StmtId) -> Option<SymbolId> {
    match &u.stmts[st].kind {
        StmtKind::Assign { lhs, .. } => base_name(u, *lhs),
        _ => None,
    }
}

/// Whether statement `st` is an increment `x = x + e`, `x = e + x`, `x = x - e`,
/// `x += e`, `x -= e` of a reference to `x` whose `e` does not mention `x`.
pub(crate) fn increment_of(u: &UnitData, st: StmtId, x: SymbolId) -> bool {
    let StmtKind::Assign { lhs, op, rhs } = &u.stmts[st].kind else {
        return false;
    };
    if target_var(u, *lhs) != Some(x) {
        return false;
    }
    let mentions = |e: ExprId| {
        let mut found = false;
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            if matches!(u.exprs[e], Expr::Name(v) if v == x) {
                found = true;
            }
            radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
        }
        found
    };
    // The subscripts of the target may not read `x` either.
    let target_clean = match &u.exprs[*lhs] {
        Expr::Index { subs, .. } => subs.iter().all(|sb| match sb {
            Subscript::Index(i) => !mentions(*i),
            Subscript::Range(..) => false,
        }),
        _ => true,
    };
    if !target_clean {
        return false;
    }
    match op {
        Some(BinOp::Add | BinOp::Sub) => !mentions(*rhs),
        Some(_) => false,
        None => {
            // The terms of the sum `rhs`, with their signs: the target once, positive.
            let terms = radtap_il::omp::sum_terms(u, *rhs);
            let own = terms
                .iter()
                .filter(|&&(e, plus)| plus && radtap_il::omp::same_ref(u, e, *lhs))
                .count();
            own == 1
                && terms
                    .iter()
                    .filter(|&&(e, _)| !radtap_il::omp::same_ref(u, e, *lhs))
                    .all(|&(e, _)| !mentions(e))
        }
    }
}

/// Whether the references `rs` of an array all have, in one dimension, the same subscript
/// `i`, `i + c` or `i - c` of the loop counter `i`: each iteration then touches its own
/// elements.
pub(crate) fn owned(u: &UnitData, rs: &[(StmtId, ExprId)], i: SymbolId) -> bool {
    let subs_of = |e: ExprId| match &u.exprs[e] {
        Expr::Index { subs, .. } => Some(subs.clone()),
        _ => None,
    };
    let Some(first) = rs.first().and_then(|&(_, e)| subs_of(e)) else {
        return false;
    };
    let of_counter = |e: ExprId| match &u.exprs[e] {
        Expr::Name(v) => *v == i,
        Expr::Binary {
            op: BinOp::Add | BinOp::Sub,
            lhs,
            rhs,
        } => {
            matches!(u.exprs[*lhs], Expr::Name(v) if v == i)
                && matches!(&u.exprs[*rhs], Expr::Literal(l) if l.kind == LitKind::Int)
        }
        _ => false,
    };
    (0..first.len()).any(|d| {
        let Subscript::Index(k) = first[d] else {
            return false;
        };
        of_counter(k)
            && rs.iter().all(|&(_, e)| match subs_of(e) {
                Some(s) if s.len() == first.len() => {
                    matches!(s[d], Subscript::Index(k2) if radtap_il::omp::same_ref(u, k, k2))
                }
                _ => false,
            })
    })
}

/// The scalars statements inside the critical sections of `body` increment (`s = s + e`),
/// which a recomputed iteration must not increment again: reductions.
pub(crate) fn critical_increments(u: &UnitData, body: &[StmtId]) -> Vec<SymbolId> {
    let mut all = Vec::new();
    stmts_below(u, body, &mut all);
    let mut out = Vec::new();
    for &x in &all {
        if !is_critical(u, x) {
            continue;
        }
        let mut below = Vec::new();
        for b in radtap_il::directives::child_blocks(&u.stmts[x].kind) {
            stmts_below(u, b, &mut below);
        }
        for y in below {
            if let StmtKind::Assign { lhs, .. } = &u.stmts[y].kind {
                let scalar = matches!(u.exprs[*lhs], Expr::Name(_) | Expr::Unary { .. });
                if let Some(v) = target_var(u, *lhs).filter(|_| scalar) {
                    if increment_of(u, y, v) && !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// Whether a subscript of the reference `e` (`x[k]`, `x(k, l)`) names a variable `pick`
/// takes.
pub(crate) fn subscripts_mention(u: &UnitData, e: ExprId, pick: impl Fn(SymbolId) -> bool) -> bool {
    let Expr::Index { subs, .. } = &u.exprs[e] else {
        return false;
    };
    let mut todo: Vec<ExprId> = Vec::new();
    for sb in subs {
        match sb {
            Subscript::Index(i) => todo.push(*i),
            Subscript::Range(a, b, c) => todo.extend([a, b, c].into_iter().flatten().copied()),
        }
    }
    while let Some(e) = todo.pop() {
        if let Expr::Name(v) = u.exprs[e] {
            if pick(v) {
                return true;
            }
        }
        radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    false
}

/// How an array reduction clause names the array of the references `rs`: Fortran, the
/// whole array (`Some(None)`) unless it is assumed-size; C, the section from 0 to the
/// largest constant subscript, or to `E` when every subscript is the counter `j` of an
/// inner loop `for (j = 0; j < E; j++)` (either way) with `E` a variable the body leaves
/// alone. `None`: not known (the increments stay atomic).
pub(crate) fn array_extent(
    prog: &Program,
    u: &UnitData,
    body: &[StmtId],
    rs: &[(StmtId, ExprId)],
    changed: &[SymbolId],
) -> Option<Option<radtap_il::omp::OmpLen>> {
    use radtap_il::omp::OmpLen;
    let x = base_name(u, rs.first()?.1)?;
    if u.lang == Lang::Fortran {
        let t = prog.symbols[x].ty.as_ref()?;
        let whole = !t.dims.is_empty() && t.dims.iter().all(|d| d.upper != DimUpper::Assumed);
        return whole.then_some(None);
    }
    let mut all = Vec::new();
    stmts_below(u, body, &mut all);
    let mut len: Option<OmpLen> = None;
    for &(st, e) in rs {
        let Expr::Index { subs, .. } = &u.exprs[e] else {
            return None;
        };
        let [Subscript::Index(k)] = subs.as_slice() else {
            return None;
        };
        let this = match &u.exprs[*k] {
            Expr::Literal(l) if l.kind == LitKind::Int => OmpLen::Const(
                l.text
                    .trim_end_matches(['u', 'U', 'l', 'L'])
                    .parse::<u64>()
                    .ok()?
                    + 1,
            ),
            Expr::Name(j) => {
                // Every loop over `j` around the reference the same `0 .. E-1` (there is
                // one: `j` is no other variable the body changes).
                let around = |l: StmtId| {
                    let mut b = Vec::new();
                    stmts_below(u, &loop_body(u, l), &mut b);
                    b.contains(&st)
                };
                let mut e = None;
                for l in all
                    .iter()
                    .copied()
                    .filter(|&l| loop_counter(u, l) == Some(*j) && around(l))
                {
                    let n = zero_to(u, l, *j).filter(|n| !changed.contains(n))?;
                    if e.is_some_and(|m| m != n) {
                        return None;
                    }
                    e = Some(n);
                }
                OmpLen::Var(e?)
            }
            _ => return None,
        };
        len = Some(match (len, this) {
            (None, t) => t,
            (Some(OmpLen::Const(a)), OmpLen::Const(b)) => OmpLen::Const(a.max(b)),
            (Some(OmpLen::Var(a)), OmpLen::Var(b)) if a == b => OmpLen::Var(a),
            _ => return None,
        });
    }
    Some(len)
}

/// The variable `E` of a C loop `for (j = 0; j < E; j++)` or `for (j = E - 1; j >= 0; --j)`
/// over `j`.
pub(crate) fn zero_to(u: &UnitData, l: StmtId, j: SymbolId) -> Option<SymbolId> {
    let StmtKind::CFor {
        init: Some(init),
        cond: Some(cond),
        step: Some(step),
        ..
    } = &u.stmts[l].kind
    else {
        return None;
    };
    let strip = |mut e: ExprId| {
        while let Expr::Paren(x) = u.exprs[e] {
            e = x;
        }
        e
    };
    let lit = |e: ExprId, t: &str| matches!(&u.exprs[strip(e)], Expr::Literal(l) if l.text == t);
    let name = |e: ExprId| match u.exprs[strip(e)] {
        Expr::Name(v) => Some(v),
        _ => None,
    };
    let start = match &u.stmts[*init].kind {
        StmtKind::Assign { lhs, op: None, rhs } if name(*lhs) == Some(j) => *rhs,
        StmtKind::Expr(e) => match &u.exprs[*e] {
            Expr::Assign { lhs, op: None, rhs } if name(*lhs) == Some(j) => *rhs,
            _ => return None,
        },
        StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 && v.entities[0].sym == j => {
            match &v.entities[0].init {
                Some(Init::Expr(e)) => *e,
                _ => return None,
            }
        }
        _ => return None,
    };
    let Expr::IncDec { arg, inc, .. } = &u.exprs[*step] else {
        return None;
    };
    if name(*arg) != Some(j) {
        return None;
    }
    let Expr::Binary { op, lhs, rhs } = &u.exprs[*cond] else {
        return None;
    };
    if name(*lhs) != Some(j) {
        return None;
    }
    match (inc, op) {
        (true, BinOp::Lt(_)) if lit(start, "0") => name(*rhs),
        (false, BinOp::Ge(_)) if lit(*rhs, "0") => match &u.exprs[strip(start)] {
            Expr::Binary {
                op: BinOp::Sub,
                lhs: e,
                rhs: one,
            } if lit(*one, "1") => name(*e),
            _ => None,
        },
        _ => None,
    }
}

/// Removes from `b` (and the blocks below) the assignments to the variables `reds`.
pub(crate) fn strip_updates(u: &mut UnitData, b: &mut Block, reds: &[SymbolId]) {
    if reds.is_empty() {
        return;
    }
    // `s = …` and, for a critical section's `*s += e`, `*s = …`.
    b.retain(|&s| {
        !matches!(&u.stmts[s].kind, StmtKind::Assign { lhs, .. }
            if matches!(u.exprs[*lhs], Expr::Name(_) | Expr::Unary { op: UnOp::Deref, .. })
                && target_var(u, *lhs).is_some_and(|x| reds.contains(&x)))
    });
    for &s in b.iter() {
        let mut kind = std::mem::replace(&mut u.stmts[s].kind, StmtKind::Empty);
        radtap_il::directives::child_blocks_mut(&mut kind, &mut |cb| strip_updates(u, cb, reds));
        u.stmts[s].kind = kind;
    }
}

/// Removes, in `b` and the blocks below, the reset `x̄(k) = 0` right after `t = x̄(k)` and
/// the later `x̄(k) = x̄(k) + t` when nothing between names `x̄` or changes what `x̄(k)`'s
/// subscripts read: together they leave `x̄(k)` unchanged. Whether anything was removed.
pub(crate) fn drop_round_trips(prog: &Program, u: &mut UnitData, b: &mut Block) -> bool {
    let mut changed = false;
    for &s in b.iter() {
        let mut kind = std::mem::replace(&mut u.stmts[s].kind, StmtKind::Empty);
        radtap_il::directives::child_blocks_mut(&mut kind, &mut |cb| {
            changed |= drop_round_trips(prog, u, cb);
        });
        u.stmts[s].kind = kind;
    }
    let assign = |u: &UnitData, s: StmtId| match &u.stmts[s].kind {
        StmtKind::Assign { lhs, op: None, rhs } => Some((*lhs, *rhs)),
        _ => None,
    };
    let names = |u: &UnitData, e: ExprId| {
        let mut v = Vec::new();
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            if let Expr::Name(x) = u.exprs[e] {
                v.push(x);
            }
            radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
        }
        v
    };
    let mut a = 0;
    while a + 1 < b.len() {
        let found = (|| {
            let (t, x) = assign(u, b[a])?;
            let Expr::Name(tv) = u.exprs[t] else {
                return None;
            };
            let base = base_name(u, x)?;
            let (x2, zero) = assign(u, b[a + 1])?;
            let is_zero = matches!(&u.exprs[zero], Expr::Literal(l)
                if l.text.trim_end_matches("_8").trim_end_matches('d').parse::<f64>() == Ok(0.0)
                    || l.text.starts_with("0.0"));
            if !(radtap_il::omp::same_ref(u, x, x2) && is_zero) {
                return None;
            }
            let watched = names(u, x);
            for c in a + 2..b.len() {
                if let Some((l, r)) = assign(u, b[c]) {
                    if radtap_il::omp::same_ref(u, l, x) {
                        let back = matches!(&u.exprs[r], Expr::Binary { op: BinOp::Add, lhs: p, rhs: q }
                            if radtap_il::omp::same_ref(u, *p, x) && matches!(u.exprs[*q], Expr::Name(y) if y == tv));
                        return back.then_some(c);
                    }
                }
                // Anything else naming x̄, or writing `t` or a name the subscripts read: no.
                let mut seen = Vec::new();
                radtap_il::visit::stmt_children(
                    &u.stmts[b[c]].kind,
                    &mut |e| seen.extend(names(u, e)),
                    &mut |_| {},
                );
                if seen.contains(&base) {
                    return None;
                }
                let w = written(prog, u, &b[c..=c]);
                if w.iter().any(|(y, _)| watched.contains(y) || *y == tv) {
                    return None;
                }
            }
            None
        })();
        match found {
            Some(c) => {
                b.remove(c);
                b.remove(a + 1);
                changed = true;
            }
            None => a += 1,
        }
    }
    changed
}

/// The variables an iteration of the parallel loop `s` owns: its counter, the private
/// variables of its clauses, the variables declared in its body and the counters of the
/// loops inside.
pub(crate) fn per_iteration(
    src: &UnitData,
    s: StmtId,
    body: &[StmtId],
    omp: &Omp,
) -> Vec<SymbolId> {
    let mut own: Vec<SymbolId> = omp.private_vars();
    own.extend(declared_below(src, body));
    own.extend(loop_counter(src, s));
    let mut all = Vec::new();
    stmts_below(src, body, &mut all);
    own.extend(all.iter().filter_map(|&x| loop_counter(src, x)));
    own
}

/// The variable statement `st` pushes (`what` = "push": `pushReal8(t)`) or pops into
/// (`what` = "pop": `popReal8(&t)`, Fortran `call popreal8(t)`), if it is one such call
/// of the runtime of one variable.
pub(crate) fn stack_op(prog: &Program, u: &UnitData, st: StmtId, what: &str) -> Option<SymbolId> {
    let (callee, args) = match &u.stmts[st].kind {
        StmtKind::Call { callee, args, .. } => (*callee, args),
        StmtKind::Expr(e) => match &u.exprs[*e] {
            Expr::Call { callee, args } => (*callee, args),
            _ => return None,
        },
        _ => return None,
    };
    let n = match &u.exprs[callee] {
        Expr::Name(f) => prog.name(*f).to_ascii_lowercase(),
        // The runtime's entry points are written as they are spelled.
        Expr::Opaque(t) => t.to_ascii_lowercase(),
        Expr::Intrinsic(r) => r.spelling.to_string(),
        _ => return None,
    };
    if !n.starts_with(what) || n.contains("array") || n.contains("control") || args.len() != 1 {
        return None;
    }
    let mut e = args[0].value;
    if let Expr::Unary {
        op: UnOp::AddrOf,
        arg,
    } = &u.exprs[e]
    {
        e = *arg;
    }
    match u.exprs[e] {
        Expr::Name(x) => Some(x),
        _ => None,
    }
}

/// Whether the references `rs` of a flat array all have the subscript `i*E + j` (or
/// `E*i + j`, `j + i*E`) of the loop counter `i`, where `j` is the counter of a loop around
/// each of them running over `0 .. E-1` (`for (j = 0; j < E; j++)` or reversed, `for (j =
/// E - 1; j >= 0; --j)`), and `E` reads nothing the body writes: row `i` of a matrix stored
/// by rows (llama2.c's `w[i * n + j]`), each iteration's own.
pub(crate) fn owned_rows(
    prog: &Program,
    u: &UnitData,
    body: &[StmtId],
    rs: &[(StmtId, ExprId)],
    i: SymbolId,
) -> bool {
    let same = |a: ExprId, b: ExprId| radtap_il::omp::same_ref(u, a, b);
    let name_is = |e: ExprId, v: SymbolId| matches!(u.exprs[e], Expr::Name(x) if x == v);
    // (j, E) of a subscript `i*E + j`.
    let split = |e: ExprId| -> Option<(SymbolId, ExprId)> {
        let Expr::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
        } = &u.exprs[e]
        else {
            return None;
        };
        let row = |m: ExprId| match &u.exprs[m] {
            Expr::Binary {
                op: BinOp::Mul,
                lhs: a,
                rhs: b,
            } if name_is(*a, i) => Some(*b),
            Expr::Binary {
                op: BinOp::Mul,
                lhs: a,
                rhs: b,
            } if name_is(*b, i) => Some(*a),
            _ => None,
        };
        for (m, j) in [(*lhs, *rhs), (*rhs, *lhs)] {
            if let (Some(ext), Expr::Name(jv)) = (row(m), &u.exprs[j]) {
                return Some((*jv, ext));
            }
        }
        None
    };
    let subscript = |e: ExprId| match &u.exprs[e] {
        Expr::Index { subs, .. } if subs.len() == 1 => match subs[0] {
            Subscript::Index(k) => Some(k),
            Subscript::Range(..) => None,
        },
        _ => None,
    };
    let Some(first) = rs.first().and_then(|&(_, e)| subscript(e)) else {
        return false;
    };
    let Some((j, ext)) = split(first) else {
        return false;
    };
    if !rs
        .iter()
        .all(|&(_, e)| subscript(e).is_some_and(|k| same(k, first)))
    {
        return false;
    }
    // `E` reads nothing the body writes.
    let changed: Vec<SymbolId> = written(prog, u, body).into_iter().map(|(x, _)| x).collect();
    let mut todo = vec![ext];
    while let Some(e) = todo.pop() {
        if let Expr::Name(x) = u.exprs[e] {
            if x == i || x == j || changed.contains(&x) {
                return false;
            }
        }
        radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    // Each reference inside a loop over `j` from 0 to E-1 (either way).
    let one = |e: ExprId| matches!(&u.exprs[e], Expr::Literal(l) if l.text == "1");
    let zero = |e: ExprId| matches!(&u.exprs[e], Expr::Literal(l) if l.text == "0");
    let strip = |mut e: ExprId| {
        while let Expr::Paren(x) = u.exprs[e] {
            e = x;
        }
        e
    };
    let counted = |l: StmtId| -> bool {
        let StmtKind::CFor {
            init: Some(init),
            cond: Some(cond),
            step: Some(step),
            ..
        } = &u.stmts[l].kind
        else {
            return false;
        };
        let start = match &u.stmts[*init].kind {
            StmtKind::Assign { lhs, op: None, rhs } if name_is(*lhs, j) => *rhs,
            StmtKind::Expr(e) => match &u.exprs[*e] {
                Expr::Assign { lhs, op: None, rhs } if name_is(*lhs, j) => *rhs,
                _ => return false,
            },
            StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 && v.entities[0].sym == j => {
                match &v.entities[0].init {
                    Some(Init::Expr(e)) => *e,
                    _ => return false,
                }
            }
            _ => return false,
        };
        let step_by_one = matches!(&u.exprs[*step], Expr::IncDec { arg, .. } if name_is(*arg, j));
        let up = matches!(&u.exprs[*step], Expr::IncDec { inc: true, .. });
        let start = strip(start);
        let bound = match &u.exprs[*cond] {
            Expr::Binary { op, lhs, rhs } if name_is(*lhs, j) => Some((*op, strip(*rhs))),
            _ => None,
        };
        match (up, bound) {
            (true, Some((BinOp::Lt(_), b))) => step_by_one && zero(start) && same(b, ext),
            (false, Some((BinOp::Ge(_), b))) => {
                step_by_one
                    && zero(b)
                    && matches!(&u.exprs[start], Expr::Binary { op: BinOp::Sub, lhs, rhs }
                        if same(strip(*lhs), ext) && one(*rhs))
            }
            _ => false,
        }
    };
    // The loops over `j` and the statements inside each.
    let mut inside: Vec<StmtId> = Vec::new();
    let mut all = Vec::new();
    stmts_below(u, body, &mut all);
    for l in all {
        if loop_counter(u, l) == Some(j) && counted(l) {
            // Nothing in the loop changes `j` but the loop.
            let lb = loop_body(u, l);
            if written(prog, u, &lb).iter().any(|&(x, _)| x == j) {
                continue;
            }
            let mut b = Vec::new();
            stmts_below(u, &lb, &mut b);
            inside.extend(b);
        }
    }
    rs.iter().all(|(st, _)| inside.contains(st))
}
