//! C functions that only allocate or only free memory, recognised from their code: the
//! ADBench-style `Matrix *get_new_matrix(int r, int c)` (a `malloc` of the struct and of its
//! `data`), `double *get_new_vector(int n)`, and `delete_matrix(Matrix *m)` (`free(m->data);
//! free(m);`).
//!
//! A call to an allocator returns a fresh block, like `malloc` itself (the analyses give it
//! a heap object at the call), and the derivative code mirrors it: the shadow block, and the
//! shadows of its pointer members, are allocated beside the call with the sizes the
//! allocator gives them (its parameters replaced by the call's arguments), and freed with
//! them where a deallocator or `free` frees the primal. The shapes are narrow on purpose, so
//! that the sizes can be read off the code:
//!
//! - an allocator's body is, at its top level, declarations, one allocation of the pointer
//!   it returns (`T *p = malloc(…)`, or `return malloc(…);` directly), assignments of the
//!   pointee's integer members from expressions without calls (`p->rows = r`; a real
//!   member would carry a derivative the shadow does not),
//!   allocations of its pointer members (`p->data = malloc(…)`, each once), and `return p;`
//!   last; the sizes read only its parameters, which it never assigns;
//! - a deallocator takes one pointer and its body is only `free(p->f);` statements and
//!   `free(p);`.

use crate::*;

/// A C function returning a block it allocates ([`allocator`]).
#[derive(Debug, Clone)]
pub struct Allocator {
    /// The allocation of the returned block (`malloc(sizeof(Matrix))`, under casts), an
    /// expression of the allocator's unit.
    pub block: ExprId,
    /// The allocations of the block's pointer members: member name and allocation.
    pub members: Vec<(String, ExprId)>,
}

/// A C function freeing its one pointer argument's members and maybe the block
/// ([`deallocator`]).
#[derive(Debug, Clone)]
pub struct Deallocator {
    /// The members freed (`free(m->data)`), in order.
    pub members: Vec<String>,
    /// Whether the block itself is freed (`free(m)`).
    pub block: bool,
}

fn strip(u: &UnitData, mut e: ExprId) -> ExprId {
    while let Expr::Paren(a) | Expr::Cast { arg: a, .. } = &u.exprs[e] {
        e = *a;
    }
    e
}

fn callee_is(prog: &Program, u: &UnitData, callee: ExprId, names: &[&str]) -> bool {
    match &u.exprs[callee] {
        Expr::Name(s) => names.contains(&prog.symbols[*s].spelling.as_str()),
        Expr::Opaque(t) => names.contains(&t.as_str()),
        _ => false,
    }
}

/// Whether `e` is `malloc(…)` or `calloc(…)` (under casts and parentheses) whose arguments
/// read only parameters of `u` and constants (no calls other than `sizeof`).
fn is_sized_allocation(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    let Expr::Call { callee, args } = &u.exprs[strip(u, e)] else {
        return false;
    };
    callee_is(prog, u, *callee, &["malloc", "calloc"])
        && args.iter().all(|a| reads_only_params(u, a.value))
}

/// Whether `e` reads only parameters of `u`, constants and `sizeof`.
fn reads_only_params(u: &UnitData, e: ExprId) -> bool {
    let mut ok = true;
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        match &u.exprs[x] {
            Expr::Name(s) => ok &= u.params.contains(s),
            Expr::Call { .. }
            | Expr::Assign { .. }
            | Expr::IncDec { .. }
            | Expr::Opaque(_)
            | Expr::Comma(_) => ok = false,
            other => crate::visit::expr_children(other, &mut |k| todo.push(k)),
        }
    }
    ok
}

/// The member `f` of `p->f` (or `(*p).f`, parentheses aside) when `p` is the variable `p`.
fn member_of(u: &UnitData, e: ExprId, p: SymbolId) -> Option<String> {
    let Expr::Field { base, field, .. } = &u.exprs[strip(u, e)] else {
        return None;
    };
    let mut b = strip(u, *base);
    if let Expr::Unary {
        op: UnOp::Deref,
        arg,
    } = &u.exprs[b]
    {
        b = strip(u, *arg);
    }
    matches!(u.exprs[b], Expr::Name(q) if q == p).then(|| field.clone())
}

/// The type of member `field` of the record `p` points to.
fn member_type<'p>(prog: &'p Program, p: SymbolId, field: &str) -> Option<&'p Type> {
    let t = prog.symbols[p].ty.as_ref()?;
    let BaseClass::Record(td) = t.base else {
        return None;
    };
    prog.typedefs[td].fields.iter().find_map(|f| match f {
        Decl::Var(v) => v
            .entities
            .iter()
            .find(|x| prog.symbols[x.sym].spelling == field)
            .and_then(|x| prog.symbols[x.sym].ty.as_ref()),
        _ => None,
    })
}

/// Whether member `field` of the record `p` points to is a pointer (not an array of
/// pointers).
fn is_pointer_member(prog: &Program, p: SymbolId, field: &str) -> Option<bool> {
    member_type(prog, p, field).map(|t| t.pointers > 0 && t.dims.is_empty())
}

/// Whether member `field` of the record `p` points to is a scalar that can carry no
/// derivative (an integer, logical, character or enum): the shadow leaves it alone.
fn is_passive_member(prog: &Program, p: SymbolId, field: &str) -> bool {
    member_type(prog, p, field).is_some_and(|t| {
        t.pointers == 0
            && t.dims.is_empty()
            && matches!(
                t.base,
                BaseClass::Integer | BaseClass::Logical | BaseClass::Character | BaseClass::Enum
            )
    })
}

/// The allocator `unit` is, if it is one (module doc).
pub fn allocator(prog: &Program, unit: UnitId) -> Option<Allocator> {
    let u = &prog.units[unit];
    let res = u.result?;
    let rt = prog.symbols[res].ty.as_ref()?;
    if u.lang != Lang::C || rt.pointers != 1 || !rt.dims.is_empty() || u.body.is_empty() {
        return None;
    }
    let (&last, rest) = u.body.split_last()?;
    let StmtKind::Return(Some(r)) = u.stmts[last].kind else {
        return None;
    };
    // `return malloc(…);`
    if rest.iter().all(|&s| matches!(u.stmts[s].kind, StmtKind::Decl(Decl::Var(ref v)) if v.entities.iter().all(|e| e.init.is_none())))
        && is_sized_allocation(prog, u, r)
    {
        return Some(Allocator {
            block: r,
            members: Vec::new(),
        });
    }
    let Expr::Name(p) = u.exprs[strip(u, r)] else {
        return None;
    };
    if u.params.contains(&p) {
        return None;
    }
    let mut block = None;
    let mut members: Vec<(String, ExprId)> = Vec::new();
    for &s in rest {
        match &u.stmts[s].kind {
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    match e.init {
                        None => {}
                        Some(Init::Expr(i)) if e.sym == p && block.is_none() => {
                            if !is_sized_allocation(prog, u, i) {
                                return None;
                            }
                            block = Some(i);
                        }
                        Some(_) => return None,
                    }
                }
            }
            StmtKind::Assign { lhs, op: None, rhs } => {
                if matches!(u.exprs[strip(u, *lhs)], Expr::Name(q) if q == p) {
                    if block.is_some() || !is_sized_allocation(prog, u, *rhs) {
                        return None;
                    }
                    block = Some(*rhs);
                    continue;
                }
                block?;
                let f = member_of(u, *lhs, p)?;
                if is_pointer_member(prog, p, &f)? {
                    if members.iter().any(|(g, _)| *g == f) || !is_sized_allocation(prog, u, *rhs) {
                        return None;
                    }
                    members.push((f, *rhs));
                } else if !is_passive_member(prog, p, &f) || !reads_only_params(u, *rhs) {
                    // A real member set from an argument would carry a derivative the
                    // shadow does not.
                    return None;
                }
            }
            _ => return None,
        }
    }
    // The parameters the sizes read are never assigned: no statement but these.
    Some(Allocator {
        block: block?,
        members,
    })
}

/// The deallocator `unit` is, if it is one (module doc).
pub fn deallocator(prog: &Program, unit: UnitId) -> Option<Deallocator> {
    let u = &prog.units[unit];
    let [p] = u.params[..] else { return None };
    let pt = prog.symbols[p].ty.as_ref()?;
    if u.lang != Lang::C || u.result.is_some() || pt.pointers != 1 || u.body.is_empty() {
        return None;
    }
    let mut out = Deallocator {
        members: Vec::new(),
        block: false,
    };
    for &s in &u.body {
        let StmtKind::Call { callee, args, .. } = &u.stmts[s].kind else {
            return None;
        };
        let [a] = &args[..] else { return None };
        if out.block || !callee_is(prog, u, *callee, &["free"]) {
            return None;
        }
        if matches!(u.exprs[strip(u, a.value)], Expr::Name(q) if q == p) {
            out.block = true;
        } else {
            let f = member_of(u, a.value, p)?;
            if !is_pointer_member(prog, p, &f)? || out.members.contains(&f) {
                return None;
            }
            out.members.push(f);
        }
    }
    Some(out)
}

/// The C function defined in the program that `callee` (an expression of `unit`) names.
pub fn called_unit(prog: &Program, unit: UnitId, callee: ExprId) -> Option<UnitId> {
    let u = &prog.units[unit];
    let Expr::Name(s) = u.exprs[callee] else {
        return None;
    };
    let sd = &prog.symbols[s];
    if sd.kind != SymbolKind::Procedure || u.lang != Lang::C {
        return None;
    }
    if let Some(d) = sd.unit.filter(|&d| !prog.units[d].body.is_empty()) {
        return Some(d);
    }
    prog.units.iter().find_map(|(d, du)| {
        (du.lang == Lang::C
            && !du.body.is_empty()
            && du
                .name
                .is_some_and(|n| prog.symbols[n].spelling == sd.spelling))
        .then_some(d)
    })
}

/// The allocator a call expression `e` of `unit` calls (under casts and parentheses).
pub fn allocator_call(prog: &Program, unit: UnitId, e: ExprId) -> Option<(UnitId, Allocator)> {
    let u = &prog.units[unit];
    let Expr::Call { callee, .. } = &u.exprs[strip(u, e)] else {
        return None;
    };
    let d = called_unit(prog, unit, *callee)?;
    allocator(prog, d).map(|a| (d, a))
}
