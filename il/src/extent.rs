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

mod carried;
mod footprint;
pub mod parts;
pub mod pieces;
pub mod stored;
use crate::*;
use std::collections::{HashMap, HashSet};

mod poly;
mod walk;

pub use poly::Extent;
use poly::{loose_poly, over_loops, Poly};
use walk::{fixed_params, infer, jumps, Walk};
pub use walk::{Mode, OtherMembers};

/// The element count pointer parameter `ptr` of unit `unit` needs, or `None` when the code
/// does not tell.
pub fn pointer_extent(prog: &Program, unit: UnitId, ptr: SymbolId, mode: Mode) -> Option<Extent> {
    let mut busy = HashSet::new();
    let macros = int_macros(prog);
    infer(prog, &macros, unit, ptr, mode, &mut busy)
}

/// The element count of the block member `field` of the record the pointer parameter `ptr`
/// of unit `unit` points to (`lhs->data` of ADBench's `mat_mult(const Matrix *lhs, …)`),
/// when the unit only reads it: an upper bound ([`Mode::Cover`]) over the unit's integer
/// parameters and the record's integer members, which the unit never assigns (each member's
/// symbol stands for `ptr->member`: `lhs->nrows * lhs->ncols`), and the integer members of
/// other record pointer parameters, returned beside the extent as (placeholder, parameter,
/// member): the placeholder, a symbol id past the program's symbols that must never be
/// looked up, stands for `q->member` in the extent. For a caller that makes a block of zeros as large (the zero derivative of a record passed without one). `None`
/// when the member is written, passed to a procedure, or escapes, or an access is not
/// understood.
pub fn member_pointer_extent(
    prog: &Program,
    unit: UnitId,
    ptr: SymbolId,
    field: &str,
) -> Option<(Extent, OtherMembers)> {
    let u = &prog.units[unit];
    if u.lang != Lang::C || !u.params.contains(&ptr) {
        return None;
    }
    let macros = int_macros(prog);
    let mut busy = HashSet::new();
    let mut w = Walk::new(prog, &macros, u, ptr, Mode::Cover, &mut busy);
    w.member = Some(field.to_string());
    for &s in &u.body {
        w.stmt(s);
    }
    if w.lost || w.his.is_empty() {
        return None;
    }
    let mut counts: Vec<Poly> = w
        .his
        .iter()
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
    let others = w.others.into_inner();
    (!keep.is_empty() && keep.len() <= 4).then_some((Extent(keep), others))
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

/// Whether C unit `unit` writes every element of `*ptr` it reads before reading it (issue 21:
/// `Qtimesx(d, …, out)` sets `out[0 .. d)` in a first loop, then reads and updates `out[j]`
/// for `j` in `[1, d)`), so a re-run of a call never reads the values the caller's array held
/// before it. `false` whenever anything is unknown.
///
/// The rule, all of it required: `ptr` is a pointer parameter never assigned nor
/// address-taken, the unit has no jump (`break`, `continue`, `goto`, an early `return`);
/// statements of the body's top level that do not mention `ptr` come first, then a loop
/// `for (i = a; i < b; i++) ptr[i + c] = e;` (one assignment, `e`, the bounds and `c` a
/// constant mentioning neither `ptr` nor anything but literals, the counter and parameters
/// never assigned), which sets `ptr[a + c .. b - 1 + c]` whenever it runs; every later
/// mention of `ptr` is a subscript `ptr[k]` whose smallest and largest values over the loops
/// around it (known ranges only) lie in that interval by a constant margin, so an access that
/// runs reads an element the loop set (the subscript in range implies the loop ran over it).
/// Other pointer parameters are taken to point elsewhere (the caller checks its arguments).
pub fn written_before_read(prog: &Program, unit: UnitId, ptr: SymbolId) -> bool {
    let u = &prog.units[unit];
    let one_pointer = prog.symbols[ptr]
        .ty
        .as_ref()
        .is_some_and(|t| t.pointers == 1 && t.dims.is_empty());
    if u.lang != Lang::C || !u.params.contains(&ptr) || !one_pointer || jumps(u) {
        return false;
    }
    let macros = int_macros(prog);
    let mut busy = HashSet::new();
    let mut w = Walk::new(prog, &macros, u, ptr, Mode::Exact, &mut busy);
    if !w.fixed.contains(&ptr) {
        return false;
    }
    let mentions = |s: StmtId| {
        let mut found = false;
        let mut todo = vec![s];
        while let Some(x) = todo.pop() {
            stmt_children(
                &u.stmts[x].kind,
                &mut |e| {
                    let mut es = vec![e];
                    while let Some(y) = es.pop() {
                        if matches!(u.exprs[y], Expr::Name(n) if n == ptr) {
                            found = true;
                        }
                        expr_children(&u.exprs[y], &mut |c| es.push(c));
                    }
                },
                &mut |c| todo.push(c),
            );
        }
        found
    };
    let mut rest = u.body.iter().copied().skip_while(|&s| !mentions(s));
    let Some(first) = rest.next() else {
        return false;
    };
    // The killing loop and the interval it sets.
    let StmtKind::CFor {
        init,
        cond,
        step,
        body,
        ..
    } = &u.stmts[first].kind
    else {
        return false;
    };
    let Some((var, lo, hi)) = w.for_range(*init, *cond, *step, body) else {
        return false;
    };
    let [one] = body[..] else {
        return false;
    };
    let StmtKind::Assign { lhs, op: None, rhs } = &u.stmts[one].kind else {
        return false;
    };
    let Expr::Index { base, subs } = &u.exprs[*lhs] else {
        return false;
    };
    let ([Subscript::Index(k)], true) = (&subs[..], w.is_ptr(*base)) else {
        return false;
    };
    // Only the subscript of the target may mention `ptr`: the rest of the loop must not.
    let mut inner = false;
    let mut todo = vec![*rhs, *k];
    todo.extend(init.iter().filter_map(|&i| match &u.stmts[i].kind {
        StmtKind::Assign { rhs, .. } => Some(*rhs),
        _ => None,
    }));
    todo.extend(cond.iter().chain(step.iter()).copied());
    while let Some(y) = todo.pop() {
        if matches!(u.exprs[y], Expr::Name(n) if n == ptr) {
            inner = true;
        }
        expr_children(&u.exprs[y], &mut |c| todo.push(c));
    }
    if inner || init.is_some_and(|i| !matches!(u.stmts[i].kind, StmtKind::Assign { .. })) {
        return false;
    }
    w.loops.push((var, lo.clone(), hi.clone()));
    let shift = w
        .poly(*k)
        .and_then(|p| p.add(&Poly::var(var), -1))
        .filter(|p| p.0.keys().all(|m| m.is_empty()));
    w.loops.pop();
    let Some(shift) = shift else {
        return false;
    };
    let (Some(lo), Some(hi)) = (lo.add(&shift, 1), hi.add(&shift, 1)) else {
        return false;
    };
    let mut ok = true;
    for s in rest {
        ok &= in_interval(&mut w, s, &lo, &hi);
    }
    ok
}

/// Whether every mention of the walk's pointer in statement `s` is a subscript whose range
/// lies in `[lo, hi]` by a constant margin (loop counters of known ranges only).
fn in_interval(w: &mut Walk<'_, '_>, s: StmtId, lo: &Poly, hi: &Poly) -> bool {
    let u = w.u;
    let kind = &u.stmts[s].kind;
    if let StmtKind::CFor {
        init,
        cond,
        step,
        body,
        ..
    } = kind
    {
        let heads = init.iter().all(|&i| in_interval(w, i, lo, hi))
            && cond
                .iter()
                .chain(step.iter())
                .all(|&e| expr_in_interval(w, e, lo, hi));
        if !heads {
            return false;
        }
        let range = w.for_range(*init, *cond, *step, body);
        let pushed = range.is_some();
        if let Some(r) = range {
            w.loops.push(r);
        }
        let ok = body.iter().all(|&b| in_interval(w, b, lo, hi));
        if pushed {
            w.loops.pop();
        }
        return ok;
    }
    let mut exprs = Vec::new();
    let mut subs = Vec::new();
    stmt_children(kind, &mut |e| exprs.push(e), &mut |c| subs.push(c));
    exprs.iter().all(|&e| expr_in_interval(w, e, lo, hi))
        && subs.iter().all(|&c| in_interval(w, c, lo, hi))
}

/// [`in_interval`] for an expression.
fn expr_in_interval(w: &Walk<'_, '_>, e: ExprId, lo: &Poly, hi: &Poly) -> bool {
    let u = w.u;
    match &u.exprs[e] {
        Expr::Name(n) => *n != w.ptr,
        Expr::Index { base, subs } if w.is_ptr(*base) => {
            let [Subscript::Index(k)] = &subs[..] else {
                return false;
            };
            let Some(p) = w.poly(*k) else {
                return false;
            };
            let constant_nonneg =
                |d: Option<Poly>| d.is_some_and(|d| d.0.keys().all(|m| m.is_empty()) && d.nonneg());
            let (Some(mins), Some(maxs)) = (w.minima(p.clone()), w.maxima(p)) else {
                return false;
            };
            mins.iter().all(|m| constant_nonneg(m.add(lo, -1)))
                && maxs.iter().all(|m| constant_nonneg(hi.add(m, -1)))
                && expr_in_interval(w, *k, lo, hi)
        }
        other => {
            let mut ok = true;
            expr_children(other, &mut |c| ok &= expr_in_interval(w, c, lo, hi));
            ok
        }
    }
}
