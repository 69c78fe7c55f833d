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
//! - a pointer member may instead be set to `NULL` (`mat->data = NULL;`, ADBench's
//!   `get_new_empty_matrix`), and a block of several records may have its elements' members
//!   set in a loop (`for (i = 0; i < count; i++) { result[i].data = NULL;
//!   result[i].nrows = result[i].ncols = 0; }`, ADBench's `get_matrix_array`): only
//!   `NULL` for pointer members and values over the parameters for integer ones. Then
//!   the shadow block is allocated zeroed ([`Allocator::zeroed`]), so that every twin
//!   member starts as `NULL` beside its primal, whatever the loop's range (a null pointer
//!   is all bits zero on the platforms radtap's output targets: POSIX);
//! - a deallocator takes one pointer and its body is only `free(p->f);` statements (each
//!   maybe guarded, `if (p->f != NULL) free(p->f);`) and `free(p);`; or it takes a pointer
//!   to several records and integers, frees the members of each record in one loop
//!   `for (i = 0; i < count; i++) free(p[i].f);` (guarded or not) and then maybe `free(p)`
//!   (ADBench's `delete_light_matrix_array(m, count)`); the count reads only parameters.

use crate::*;

/// A C function returning a block it allocates ([`allocator`]).
#[derive(Debug, Clone)]
pub struct Allocator {
    /// The allocation of the returned block (`malloc(sizeof(Matrix))`, under casts), an
    /// expression of the allocator's unit.
    pub block: ExprId,
    /// The allocations of the block's pointer members: member name and allocation.
    pub members: Vec<(String, ExprId)>,
    /// Whether the allocator sets pointer members to `NULL` (in the block, or in each of
    /// its records in a loop): the shadow block must then be allocated zeroed, its twin
    /// members `NULL` too.
    pub zeroed: bool,
}

/// A C function freeing its one pointer argument's members and maybe the block
/// ([`deallocator`]).
#[derive(Debug, Clone)]
pub struct Deallocator {
    /// The members freed (`free(m->data)`), in order.
    pub members: Vec<String>,
    /// Whether the block itself is freed (`free(m)`).
    pub block: bool,
    /// For a block of several records whose members are freed in a loop, the loop's count
    /// (`count` of `for (i = 0; i < count; i++) free(m[i].data);`), an expression of the
    /// deallocator's unit over its parameters; the pointer is then its first parameter.
    pub each: Option<ExprId>,
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
        Expr::Intrinsic(r) => names.contains(&r.spelling),
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
            | Expr::Intrinsic(_)
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
            zeroed: false,
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
    let mut nulled: Vec<String> = Vec::new();
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
                    if members.iter().any(|(g, _)| *g == f) || nulled.contains(&f) {
                        return None;
                    }
                    if is_null(u, *rhs) {
                        nulled.push(f);
                    } else if is_sized_allocation(prog, u, *rhs) {
                        members.push((f, *rhs));
                    } else {
                        return None;
                    }
                } else if !passive_chain(prog, u, p, None, *lhs, *rhs) {
                    // A real member set from an argument would carry a derivative the
                    // shadow does not.
                    return None;
                }
            }
            StmtKind::Expr(x) => {
                block?;
                let Expr::Assign { op: None, lhs, rhs } = &u.exprs[*x] else {
                    return None;
                };
                if !passive_chain(prog, u, p, None, *lhs, *rhs) {
                    return None;
                }
            }
            StmtKind::CFor {
                init: Some(init),
                cond,
                step,
                body,
                ..
            } => {
                // `for (i = 0; i < count; i++) { p[i].data = NULL; p[i].rows = 0; }`
                block?;
                let StmtKind::Assign {
                    lhs: iv,
                    op: None,
                    rhs: i0,
                } = &u.stmts[*init].kind
                else {
                    return None;
                };
                let Expr::Name(i) = u.exprs[*iv] else {
                    return None;
                };
                if i == p || u.params.contains(&i) || !reads_only_params(u, *i0) {
                    return None;
                }
                let header_ok = |e: &Option<ExprId>| e.is_some_and(|e| no_calls(u, e, i));
                if !header_ok(cond) || !header_ok(step) {
                    return None;
                }
                for &b in body {
                    let (lhs, rhs) = match &u.stmts[b].kind {
                        StmtKind::Assign { lhs, op: None, rhs } => (*lhs, *rhs),
                        StmtKind::Expr(x) => match &u.exprs[*x] {
                            Expr::Assign { op: None, lhs, rhs } => (*lhs, *rhs),
                            _ => return None,
                        },
                        _ => return None,
                    };
                    let f = element_member_of(u, lhs, p, i)?;
                    if is_pointer_member(prog, p, &f)? {
                        if !is_null(u, rhs) || members.iter().any(|(g, _)| *g == f) {
                            return None;
                        }
                        nulled.push(f);
                    } else if !passive_chain(prog, u, p, Some(i), lhs, rhs) {
                        return None;
                    }
                }
            }
            _ => return None,
        }
    }
    // The parameters the sizes read are never assigned: no statement but these.
    Some(Allocator {
        block: block?,
        members,
        zeroed: !nulled.is_empty(),
    })
}

/// Whether `e` is the null pointer constant (`NULL`, `0`, `(void *)0`).
fn is_null(u: &UnitData, e: ExprId) -> bool {
    match &u.exprs[strip(u, e)] {
        Expr::Opaque(t) => t == "NULL",
        Expr::Literal(l) => l.kind == LitKind::Int && l.text == "0",
        _ => false,
    }
}

/// Whether `e` calls nothing and assigns nothing but the loop variable `i`.
fn no_calls(u: &UnitData, e: ExprId, i: SymbolId) -> bool {
    let mut ok = true;
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        match &u.exprs[x] {
            Expr::Call { .. } | Expr::Opaque(_) | Expr::Intrinsic(_) | Expr::Comma(_) => ok = false,
            Expr::Assign { lhs, .. } | Expr::IncDec { arg: lhs, .. } => {
                ok &= matches!(u.exprs[*lhs], Expr::Name(q) if q == i);
                crate::visit::expr_children(&u.exprs[x], &mut |k| todo.push(k));
            }
            other => crate::visit::expr_children(other, &mut |k| todo.push(k)),
        }
    }
    ok
}

/// The member `f` of `p[i].f` (parentheses aside), `i` the loop variable.
fn element_member_of(u: &UnitData, e: ExprId, p: SymbolId, i: SymbolId) -> Option<String> {
    let Expr::Field { base, field, .. } = &u.exprs[strip(u, e)] else {
        return None;
    };
    let Expr::Index { base: b, subs } = &u.exprs[strip(u, *base)] else {
        return None;
    };
    let [Subscript::Index(k)] = &subs[..] else {
        return None;
    };
    (matches!(u.exprs[strip(u, *b)], Expr::Name(q) if q == p)
        && matches!(u.exprs[strip(u, *k)], Expr::Name(q) if q == i))
    .then(|| field.clone())
}

/// Whether `lhs = rhs` (with `rhs` maybe itself `lhs2 = rhs2`, a chain) sets only integer
/// members of the block `p` (of its element `p[i]` when `i` is given) to a value over the
/// parameters.
fn passive_chain(
    prog: &Program,
    u: &UnitData,
    p: SymbolId,
    i: Option<SymbolId>,
    mut lhs: ExprId,
    mut rhs: ExprId,
) -> bool {
    loop {
        let f = match i {
            None => member_of(u, lhs, p),
            Some(i) => element_member_of(u, lhs, p, i),
        };
        if !f.is_some_and(|f| is_passive_member(prog, p, &f)) {
            return false;
        }
        match &u.exprs[strip(u, rhs)] {
            Expr::Assign {
                op: None,
                lhs: l2,
                rhs: r2,
            } => (lhs, rhs) = (*l2, *r2),
            _ => return reads_only_params(u, rhs),
        }
    }
}

/// The deallocator `unit` is, if it is one (module doc).
pub fn deallocator(prog: &Program, unit: UnitId) -> Option<Deallocator> {
    let u = &prog.units[unit];
    let (&p, others) = u.params.split_first()?;
    let pt = prog.symbols[p].ty.as_ref()?;
    if u.lang != Lang::C || u.result.is_some() || pt.pointers != 1 || u.body.is_empty() {
        return None;
    }
    let integer = |q: SymbolId| {
        prog.symbols[q]
            .ty
            .as_ref()
            .is_some_and(|t| t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty())
    };
    if !others.iter().all(|&q| integer(q)) {
        return None;
    }
    let mut out = Deallocator {
        members: Vec::new(),
        block: false,
        each: None,
    };
    for &s in &u.body {
        if out.block {
            return None;
        }
        match &u.stmts[s].kind {
            StmtKind::Decl(Decl::Var(v)) if v.entities.iter().all(|e| e.init.is_none()) => {}
            StmtKind::Call { .. } | StmtKind::If { .. } => {
                if let Some(x) = freed(prog, u, s) {
                    if matches!(u.exprs[strip(u, x)], Expr::Name(q) if q == p) {
                        out.block = true;
                        continue;
                    }
                }
                // A member freed at the top level: only for one record.
                let f = member_freed(prog, u, s, |e| member_of(u, e, p))?;
                if out.each.is_some()
                    || !is_pointer_member(prog, p, &f)?
                    || out.members.contains(&f)
                {
                    return None;
                }
                out.members.push(f);
            }
            StmtKind::CFor {
                init: Some(init),
                cond: Some(cond),
                step: Some(step),
                body,
                ..
            } => {
                if out.each.is_some() || !out.members.is_empty() {
                    return None;
                }
                let i = counted_from_zero(u, *init, *step)?;
                if i == p || u.params.contains(&i) {
                    return None;
                }
                let Expr::Binary {
                    op: BinOp::Lt(_),
                    lhs,
                    rhs: count,
                } = &u.exprs[strip(u, *cond)]
                else {
                    return None;
                };
                if !matches!(u.exprs[strip(u, *lhs)], Expr::Name(q) if q == i)
                    || !reads_only_params(u, *count)
                {
                    return None;
                }
                for &b in body {
                    let f = member_freed(prog, u, b, |e| element_member_of(u, e, p, i))?;
                    if !is_pointer_member(prog, p, &f)? || out.members.contains(&f) {
                        return None;
                    }
                    out.members.push(f);
                }
                out.each = Some(*count);
            }
            _ => return None,
        }
    }
    // Integers beside the pointer serve the loop's count only.
    (others.is_empty() || out.each.is_some()).then_some(out)
}

/// The loop variable of a C loop header `i = 0; …; i++` (or `++i`, `i += 1`).
fn counted_from_zero(u: &UnitData, init: StmtId, step: ExprId) -> Option<SymbolId> {
    let (iv, i0) = match &u.stmts[init].kind {
        StmtKind::Assign { lhs, op: None, rhs } => (*lhs, *rhs),
        StmtKind::Expr(x) => match &u.exprs[*x] {
            Expr::Assign { op: None, lhs, rhs } => (*lhs, *rhs),
            _ => return None,
        },
        _ => return None,
    };
    let Expr::Name(i) = u.exprs[strip(u, iv)] else {
        return None;
    };
    let zero = matches!(&u.exprs[strip(u, i0)], Expr::Literal(l) if l.kind == LitKind::Int && l.text == "0");
    let is_i = |e: ExprId| matches!(u.exprs[strip(u, e)], Expr::Name(q) if q == i);
    let one = |e: ExprId| matches!(&u.exprs[strip(u, e)], Expr::Literal(l) if l.kind == LitKind::Int && l.text == "1");
    let stepped = match &u.exprs[step] {
        Expr::IncDec { inc: true, arg, .. } => is_i(*arg),
        Expr::Assign {
            op: Some(BinOp::Add),
            lhs,
            rhs,
        } => is_i(*lhs) && one(*rhs),
        _ => false,
    };
    (zero && stepped).then_some(i)
}

/// The pointer statement `s` frees: `free(x);`.
fn freed(prog: &Program, u: &UnitData, s: StmtId) -> Option<ExprId> {
    let StmtKind::Call { callee, args, .. } = &u.stmts[s].kind else {
        return None;
    };
    let [a] = &args[..] else { return None };
    callee_is(prog, u, *callee, &["free"]).then_some(a.value)
}

/// The member statement `s` frees, `free(x.f);` or `if (x.f != NULL) { free(x.f); }` (also
/// `if (x.f)`, `if (NULL != x.f)`), where `member` reads `f` off `x.f`.
fn member_freed(
    prog: &Program,
    u: &UnitData,
    s: StmtId,
    member: impl Fn(ExprId) -> Option<String>,
) -> Option<String> {
    if let Some(x) = freed(prog, u, s) {
        return member(x);
    }
    let StmtKind::If {
        arms, else_block, ..
    } = &u.stmts[s].kind
    else {
        return None;
    };
    let ([(cond, blk)], None) = (&arms[..], else_block) else {
        return None;
    };
    let [inner] = blk[..] else { return None };
    let f = member(freed(prog, u, inner)?)?;
    let tested = match &u.exprs[strip(u, *cond)] {
        Expr::Binary {
            op: BinOp::Ne(_),
            lhs,
            rhs,
        } => {
            (is_null(u, *rhs) && member(*lhs).as_ref() == Some(&f))
                || (is_null(u, *lhs) && member(*rhs).as_ref() == Some(&f))
        }
        _ => member(*cond).as_ref() == Some(&f),
    };
    tested.then_some(f)
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
