//! C functions that return a value before their end (`if (v <= 0.0) return 0.0; … return
//! log(v);`), restructured before the adjoint is built: each `return e` becomes `r = e` on a
//! new local `r` of the function's type, the statements after an IF whose arms return move
//! into its arm that does not, and the function ends with one `return r`. The adjoint reverses
//! the structured code (a value returned early was refused).
//!
//! Only returns in IF constructs are rewritten, when what follows each IF goes to one open
//! path (the statements would be copied into two arms otherwise) and every path ends by
//! setting the result. A return in a loop (in IFs of its body) becomes `result = e; returned
//! = 1; break;`, and what follows the loop runs under `if (returned == 0)` (a table lookup
//! returning from its search loop); from a nested loop or `switch`, each enclosing one is
//! left after it by `if (returned != 0) break;` (a 2-D search). A `switch` is left
//! by `break` the same way; one that always returns (`default:` present, no `break`, a
//! return last: an activation selector) needs no flag. A function with any other early
//! return is left as written (the adjoint refuses it at the return), and so is a function
//! with a `goto`, whose body the adjoint lowers to basic blocks with its returns.

use crate::ir::*;
use crate::visit::stmt_children;

/// Restructures the early value returns of every C function (see the module doc).
pub fn structure_value_returns(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| u.lang == Lang::C && u.result.is_some())
        .map(|(id, _)| id)
        .collect();
    for id in units {
        rewrite_unit(prog, id);
    }
}

fn rewrite_unit(prog: &mut Program, id: UnitId) {
    let u = &prog.units[id];
    let body = u.body.clone();
    let early = body
        .iter()
        .enumerate()
        .any(|(i, &s)| returns_in(u, s) && !(i + 1 == body.len() && is_return(u, s)));
    // With a `goto`, the adjoint lowers the body to basic blocks, returns included (cephes'
    // `gamma`): moving statements here could take a labelled one away from its jumps.
    if !early || has_goto(u, &body) {
        return;
    }
    // A dry run first: nothing is changed unless every path of the rewritten body sets the
    // result, with no statement copied.
    if open_ends(u, &body, false) != Some(0) {
        return;
    }
    let Some(header) = u.header_type.clone() else {
        return;
    };
    let derived = u.ret_derived.clone();
    let scope = u.scope;
    let needs_flag = loop_with_return(u);
    let ty = u.result.and_then(|r| prog.symbols[r].ty.clone());
    let r = prog.add_fresh_variable(scope, "result", ty);
    let flag = needs_flag.then(|| prog.add_fresh_variable(scope, "returned", Some(Type::int())));
    let u = &mut prog.units[id];
    let last_span = body.last().and_then(|s| u.source_map.stmt.get(*s).copied());
    let mut new_body = rewrite(u, &body, &[], r, flag);
    let mut decls = vec![Decl::one(header, r, derived)];
    decls.extend(flag.map(|f| Decl::one(TypeSpec::int(Lang::C), f, Vec::new())));
    // After the leading declarations, as the function's own are.
    let at = new_body
        .iter()
        .position(|&s| !matches!(u.stmts[s].kind, StmtKind::Decl(_)))
        .unwrap_or(new_body.len());
    let n_decls = decls.len();
    for (k, decl) in decls.into_iter().enumerate() {
        let d = u.new_stmt(StmtKind::Decl(decl), last_span);
        new_body.insert(at + k, d);
    }
    // The flag starts clear: a `switch` that always returns sets the result without it, and
    // a loop inside it may test it (`if (returned != 0) break;`).
    if let Some(f) = flag {
        let zero = u.int_literal(0);
        let clear = u.assign_var(f, zero, last_span);
        new_body.insert(at + n_decls, clear);
    }
    let v = u.exprs.alloc(Expr::Name(r));
    let ret = u.new_stmt(StmtKind::Return(Some(v)), last_span);
    new_body.push(ret);
    u.body = new_body;
}

fn is_return(u: &UnitData, s: StmtId) -> bool {
    matches!(u.stmts[s].kind, StmtKind::Return(_))
}

/// Whether statement `s` is or holds a `return`.
fn returns_in(u: &UnitData, s: StmtId) -> bool {
    if is_return(u, s) {
        return true;
    }
    let mut kids = Vec::new();
    stmt_children(&u.stmts[s].kind, &mut |_| {}, &mut |k| kids.push(k));
    kids.into_iter().any(|k| returns_in(u, k))
}

/// The number of points where block `b`, rewritten, goes on to what follows it (`then`
/// when something does: `more`); `None` when it cannot be rewritten: a return in a loop or a
/// `switch`, or statements that would have to be copied to two such points.
fn open_ends(u: &UnitData, b: &[StmtId], more: bool) -> Option<usize> {
    for (i, &s) in b.iter().enumerate() {
        if !returns_in(u, s) {
            continue;
        }
        let rest = &b[i + 1..];
        let rest_more = !rest.is_empty() || more;
        return match &u.stmts[s].kind {
            StmtKind::Return(Some(_)) => Some(0),
            StmtKind::If {
                arms, else_block, ..
            } => {
                let mut m = 0;
                for (_, blk) in arms {
                    m += open_ends(u, blk, rest_more)?;
                }
                m += match else_block {
                    Some(blk) => open_ends(u, blk, rest_more)?,
                    None => 1,
                };
                match m {
                    0 => Some(0),
                    // What follows moves to the one open point.
                    1 => open_ends(u, rest, more),
                    _ if rest_more => None,
                    _ => Some(m),
                }
            }
            // A loop whose returns leave it with `break`: its normal exit goes on to what
            // follows, the paths that returned are done.
            // A `switch` every path of which returns (`default:` present, no `break`, a
            // return last): nothing goes on after it.
            StmtKind::Switch { body, .. }
                if loop_returns_only(u, body) && switch_always_returns(u, body) =>
            {
                Some(0)
            }
            StmtKind::CFor { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::Switch { body, .. }
                if loop_returns_only(u, body) =>
            {
                open_ends(u, rest, more)
            }
            _ => None,
        };
    }
    Some(1)
}

/// Block `b` rewritten (its [`open_ends`] allowed it) and followed by `then`: `return e` as
/// `r = e`, what follows an IF with returns moved to its open point, the statements after a
/// return dropped.
fn rewrite(
    u: &mut UnitData,
    b: &[StmtId],
    then: &[StmtId],
    r: SymbolId,
    flag: Option<SymbolId>,
) -> Vec<StmtId> {
    let mut out = Vec::new();
    for (i, &s) in b.iter().enumerate() {
        if !returns_in(u, s) {
            out.push(s);
            continue;
        }
        let mut rest: Vec<StmtId> = b[i + 1..].to_vec();
        rest.extend_from_slice(then);
        match u.stmts[s].kind.clone() {
            StmtKind::Return(Some(e)) => {
                let span = u.source_map.stmt.get(s).copied();
                out.push(u.assign_var(r, e, span));
            }
            StmtKind::If {
                arms, else_block, ..
            } => {
                let mut new_arms = Vec::new();
                for (c, blk) in &arms {
                    let nb = rewrite(u, blk, &rest, r, flag);
                    new_arms.push((*c, nb));
                }
                let eb = else_block.unwrap_or_default();
                let ne = rewrite(u, &eb, &rest, r, flag);
                let braces = vec![true; new_arms.len() + 1];
                u.stmts[s].kind = StmtKind::If {
                    arms: new_arms,
                    else_block: (!ne.is_empty()).then_some(ne),
                    logical: false,
                    braces,
                };
                out.push(s);
            }
            StmtKind::Switch { body, .. } if switch_always_returns(u, &body) => {
                // `switch (k) { case …: result = e; break; … default: result = e; break; }`:
                // nothing follows it.
                let body = breaking_returns(u, &body, r, flag);
                if let StmtKind::Switch { body: b, .. } = &mut u.stmts[s].kind {
                    *b = body;
                }
                out.push(s);
            }
            StmtKind::CFor { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::Switch { .. } => {
                // `returned = 0; loop { … result = e; returned = 1; break; … }` and what
                // follows only when no return ran: `if (returned == 0) { … }`. A `switch`
                // is left by `break` the same way.
                let Some(flag) = flag else {
                    out.push(s);
                    return out;
                };
                let span = u.source_map.stmt.get(s).copied();
                let zero = u.int_literal(0);
                let clear = u.assign_var(flag, zero, span);
                leave_by_break(u, s, r, flag);
                out.push(clear);
                out.push(s);
                let tail = rewrite(u, &rest, &[], r, Some(flag));
                if !tail.is_empty() {
                    out.push(flag_test(u, flag, BinOp::Eq(RelSpell::Symbol), tail, span));
                }
            }
            _ => out.push(s),
        }
        return out;
    }
    if !then.is_empty() {
        let tail = rewrite(u, then, &[], r, flag);
        out.extend(tail);
    }
    out
}

/// Loop or `switch` statement `s` with the returns of its body leaving it by `break`
/// ([`breaking_returns`]).
fn leave_by_break(u: &mut UnitData, s: StmtId, r: SymbolId, flag: SymbolId) {
    let mut kind = u.stmts[s].kind.clone();
    if let StmtKind::CFor { body, .. }
    | StmtKind::While { body, .. }
    | StmtKind::DoWhile { body, .. }
    | StmtKind::Switch { body, .. } = &mut kind
    {
        *body = breaking_returns(u, body, r, Some(flag));
    }
    u.stmts[s].kind = kind;
}

/// `if (flag OP 0) { then }`.
fn flag_test(
    u: &mut UnitData,
    flag: SymbolId,
    op: BinOp,
    then: Block,
    span: Option<crate::diag::Span>,
) -> StmtId {
    let fl = u.exprs.alloc(Expr::Name(flag));
    let zero = u.int_literal(0);
    let cond = u.exprs.alloc(Expr::Binary {
        op,
        lhs: fl,
        rhs: zero,
    });
    u.new_stmt(
        StmtKind::If {
            arms: vec![(cond, then)],
            else_block: None,
            logical: false,
            braces: vec![true],
        },
        span,
    )
}

/// Loop or `switch` body `b` with each `return e` (in IFs and blocks of it, see
/// [`loop_returns_only`]) as `r = e; flag = 1; break;` (`r = e; break;` without a flag).
fn breaking_returns(
    u: &mut UnitData,
    b: &[StmtId],
    r: SymbolId,
    flag: Option<SymbolId>,
) -> Vec<StmtId> {
    let mut out = Vec::new();
    for &s in b {
        if !returns_in(u, s) {
            out.push(s);
            continue;
        }
        let span = u.source_map.stmt.get(s).copied();
        match u.stmts[s].kind.clone() {
            StmtKind::Return(Some(e)) => {
                out.push(u.assign_var(r, e, span));
                if let Some(flag) = flag {
                    let one = u.int_literal(1);
                    out.push(u.assign_var(flag, one, span));
                }
                out.push(u.new_stmt(StmtKind::Break, span));
            }
            StmtKind::If {
                arms,
                else_block,
                logical,
                ..
            } => {
                let arms: Vec<(ExprId, Block)> = arms
                    .iter()
                    .map(|(c, blk)| (*c, breaking_returns(u, blk, r, flag)))
                    .collect();
                let else_block = else_block.map(|blk| breaking_returns(u, &blk, r, flag));
                let braces = vec![true; arms.len() + 1];
                u.stmts[s].kind = StmtKind::If {
                    arms,
                    else_block,
                    logical,
                    braces,
                };
                out.push(s);
            }
            StmtKind::Block {
                scope,
                decls,
                body,
                associations,
                construct,
            } => {
                let body = breaking_returns(u, &body, r, flag);
                u.stmts[s].kind = StmtKind::Block {
                    scope,
                    decls,
                    body,
                    associations,
                    construct,
                };
                out.push(s);
            }
            StmtKind::CFor { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::Switch { .. } => {
                // Nested: its `break` leaves it only, the flag then leaves this one.
                let Some(flag) = flag else {
                    out.push(s);
                    continue;
                };
                leave_by_break(u, s, r, flag);
                out.push(s);
                let brk = u.new_stmt(StmtKind::Break, span);
                out.push(flag_test(
                    u,
                    flag,
                    BinOp::Ne(RelSpell::Symbol),
                    vec![brk],
                    span,
                ));
            }
            _ => out.push(s),
        }
    }
    out
}

/// Whether the returns of loop body `b` all return a value from IFs and blocks of the body
/// itself: none in a nested loop or `switch` (a `break` there would leave that instead).
fn loop_returns_only(u: &UnitData, b: &[StmtId]) -> bool {
    b.iter().all(|&s| {
        if !returns_in(u, s) {
            return true;
        }
        match &u.stmts[s].kind {
            StmtKind::Return(Some(_)) => true,
            StmtKind::If {
                arms, else_block, ..
            } => {
                arms.iter().all(|(_, blk)| loop_returns_only(u, blk))
                    && else_block
                        .as_ref()
                        .is_none_or(|blk| loop_returns_only(u, blk))
            }
            StmtKind::Block { body, .. } => loop_returns_only(u, body),
            // A nested loop or `switch` is left by `break` too, then its enclosing one by
            // `if (returned != 0) break;` (a 2-D search returning from its inner loop).
            StmtKind::CFor { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::Switch { body, .. } => loop_returns_only(u, body),
            _ => false,
        }
    })
}

/// Whether a `switch` with body `b` always returns: it has a `default:` label, its last
/// statement is a return, and nothing leaves it otherwise (no `break` or `goto` in it
/// outside nested loops and switches, where a `break` leaves those).
fn switch_always_returns(u: &UnitData, b: &[StmtId]) -> bool {
    fn leaves(u: &UnitData, s: StmtId) -> bool {
        match &u.stmts[s].kind {
            StmtKind::Break | StmtKind::Goto(_) => true,
            StmtKind::CFor { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::Switch { .. } => {
                let mut goto = false;
                let mut todo = vec![s];
                while let Some(t) = todo.pop() {
                    goto |= matches!(u.stmts[t].kind, StmtKind::Goto(_));
                    stmt_children(&u.stmts[t].kind, &mut |_| {}, &mut |k| todo.push(k));
                }
                goto
            }
            k => {
                let mut kids = Vec::new();
                stmt_children(k, &mut |_| {}, &mut |c| kids.push(c));
                kids.into_iter().any(|c| leaves(u, c))
            }
        }
    }
    b.iter()
        .any(|&s| matches!(u.stmts[s].kind, StmtKind::CaseLabel(None)))
        && b.last().is_some_and(|&s| is_return(u, s))
        && !b.iter().any(|&s| leaves(u, s))
}

/// Whether unit `u` has a loop, or a `switch` that does not always return, holding a
/// return (the rewrite then needs a flag).
fn loop_with_return(u: &UnitData) -> bool {
    u.stmts.iter().any(|(s, st)| {
        let exits = match &st.kind {
            StmtKind::CFor { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => true,
            StmtKind::Switch { body, .. } => !switch_always_returns(u, body),
            _ => false,
        };
        exits && returns_in(u, s)
    })
}

/// Whether `block` holds a `goto` (at any depth).
fn has_goto(u: &UnitData, block: &[StmtId]) -> bool {
    let mut todo: Vec<StmtId> = block.to_vec();
    while let Some(s) = todo.pop() {
        if matches!(
            u.stmts[s].kind,
            StmtKind::Goto(_) | StmtKind::ComputedGoto { .. }
        ) {
            return true;
        }
        stmt_children(&u.stmts[s].kind, &mut |_| {}, &mut |c| todo.push(c));
    }
    false
}

/// In a C function whose result is not real (a status code), `return f(a);` with a call of a
/// function of the program in the value becomes `r = f(a); return r;` on a new local `r`
/// (declared first): the adjoint has a rule for a call whose result is assigned, and none for
/// a call inside the value of a `return` whose value has no adjoint (GSL's `int
/// gsl_sf_expint_E1_e(x, result) { return expint_E1_impl(x, result, 0); }` had its call left
/// out of the adjoint: `result`'s adjoint never reached `x`).
pub fn name_returned_calls(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| {
            u.lang == Lang::C
                && u.result.is_some_and(|r| {
                    prog.symbols[r].ty.as_ref().is_some_and(|t| {
                        !matches!(t.base, BaseClass::Real | BaseClass::Complex)
                            && t.pointers == 0
                            && t.dims.is_empty()
                    })
                })
                && u.header_type.is_some()
        })
        .map(|(id, _)| id)
        .collect();
    for id in units {
        if !prog.units[id]
            .stmts
            .iter()
            .any(|(_, s)| matches!(s.kind, StmtKind::Return(Some(e)) if calls_program_function(prog, &prog.units[id], e)))
        {
            continue;
        }
        let u = &prog.units[id];
        let Some(header) = u.header_type.clone() else {
            continue;
        };
        let derived = u.ret_derived.clone();
        let scope = u.scope;
        let ty = u.result.and_then(|r| prog.symbols[r].ty.clone());
        let r = prog.add_fresh_variable(scope, "result", ty);
        let called: std::collections::HashSet<StmtId> = {
            let u = &prog.units[id];
            u.stmts
                .iter()
                .filter(|(_, s)| matches!(s.kind, StmtKind::Return(Some(e)) if calls_program_function(prog, u, e)))
                .map(|(k, _)| k)
                .collect()
        };
        let u = &mut prog.units[id];
        let body = std::mem::take(&mut u.body);
        let mut body = name_in_block(u, body, r, &called);
        let span = body
            .first()
            .and_then(|s| u.source_map.stmt.get(*s).copied());
        let d = u.new_stmt(StmtKind::Decl(Decl::one(header, r, derived)), span);
        let at = body
            .iter()
            .position(|&s| !matches!(u.stmts[s].kind, StmtKind::Decl(_)))
            .unwrap_or(body.len());
        body.insert(at, d);
        u.body = body;
    }
}

/// Whether expression `e` of `u` calls a function of the program (one with a body).
fn calls_program_function(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    let mut found = false;
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        if let Expr::Call { callee, .. } = &u.exprs[x] {
            if let Expr::Name(f) = u.exprs[*callee] {
                found |= prog.symbols[f].unit.is_some();
            }
        }
        crate::visit::expr_children(&u.exprs[x], &mut |k| stack.push(k));
    }
    found
}

/// Block `b` with each `return e` that `called` marks (by statement index) written
/// `r = e; return r;`.
fn name_in_block(
    u: &mut UnitData,
    b: Vec<StmtId>,
    r: SymbolId,
    called: &std::collections::HashSet<StmtId>,
) -> Vec<StmtId> {
    let mut out = Vec::with_capacity(b.len());
    for s in b {
        let mut kind = std::mem::replace(&mut u.stmts[s].kind, StmtKind::Empty);
        crate::directives::child_blocks_mut(&mut kind, &mut |blk| {
            let inner = std::mem::take(blk);
            *blk = name_in_block(u, inner, r, called);
        });
        match kind {
            StmtKind::Return(Some(e)) if called.contains(&s) => {
                let span = u.source_map.stmt.get(s).copied();
                let set = u.assign_var(r, e, span);
                u.stmts[set].label = u.stmts[s].label.take();
                out.push(set);
                let v = u.exprs.alloc(Expr::Name(r));
                u.stmts[s].kind = StmtKind::Return(Some(v));
            }
            k => u.stmts[s].kind = k,
        }
        out.push(s);
    }
    out
}
