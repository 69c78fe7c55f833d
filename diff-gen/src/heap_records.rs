//! C records that own heap memory (`typedef struct { int rows, cols; double *data; } Matrix;`):
//! which pointer members get a derivative twin, and where the generator cannot keep the twin
//! beside the primal pointer, refused with AD020 before any code is built.
//!
//! A record member of pointer type that may designate active memory is a member of the
//! derivative record too (`Matrix_d { double *data; }`). The tangent rules keep it beside the
//! primal member where the differentiated code assigns it (`m.data = malloc(…)` gives
//! `md.data = malloc(…)`, `free(m.data)` frees `md.data` too: `proc_/dref.rs`,
//! `proc_/calls.rs`). Two cases would leave the twin dangling, so the derivative would be read
//! from memory nobody allocated (a crash at best, a silently wrong value at worst):
//!
//! - a procedure with no derivative (nothing active in it) that sets or frees such a member:
//!   `alloc_matrix(&m, r, c)` is called as is, and `md.data` never gets its block. Refused at
//!   the call, in every mode, naming the callee, the member and the line that sets it.
//! - a set or free of such a member in differentiated code that the mode cannot follow: the
//!   adjoint rules take `m->f = malloc(…)`/`NULL` and `free(m->f)` anywhere (the free
//!   delayed, the pointers recorded; `diff-adjoint`'s `records.rs`) and refuse other
//!   values at their line.

use radtap_dataflow::ProgramInfo;
use radtap_flowgraph::Callee;
use radtap_il::*;
use std::collections::{HashMap, HashSet};

/// The record type and member a C reference `s.f`, `p->f`, `(s).f`, `a[i].f` designates, when
/// the member is a pointer (not an array of pointers).
fn pointer_member(prog: &Program, u: &UnitData, mut e: ExprId) -> Option<(TypeDefId, String)> {
    while let Expr::Paren(a) = u.exprs[e] {
        e = a;
    }
    let Expr::Field { base, field, .. } = &u.exprs[e] else {
        return None;
    };
    let td = record_of(prog, u, *base)?;
    let sym = member(prog, td, field)?;
    let t = prog.symbols[sym].ty.as_ref()?;
    (t.pointers > 0 && t.dims.is_empty()).then(|| (td, field.clone()))
}

/// The symbol of member `field` of record type `td`.
fn member(prog: &Program, td: TypeDefId, field: &str) -> Option<SymbolId> {
    prog.typedefs[td].fields.iter().find_map(|f| match f {
        Decl::Var(v) => v
            .entities
            .iter()
            .find(|x| prog.symbols[x.sym].spelling == field)
            .map(|x| x.sym),
        _ => None,
    })
}

/// The record type of a reference (`s`, `a[i]`, `*p`, `s.inner`, `p->q`).
fn record_of(prog: &Program, u: &UnitData, e: ExprId) -> Option<TypeDefId> {
    let ty = |s: SymbolId| match prog.symbols[s].ty.as_ref()?.base {
        BaseClass::Record(td) => Some(td),
        _ => None,
    };
    match &u.exprs[e] {
        Expr::Name(s) => ty(*s),
        Expr::Index { base, .. } | Expr::Paren(base) => record_of(prog, u, *base),
        Expr::Unary {
            op: UnOp::Deref,
            arg,
        } => record_of(prog, u, *arg),
        Expr::Field { base, field, .. } => ty(member(prog, record_of(prog, u, *base)?, field)?),
        _ => None,
    }
}

/// The statements of unit `p` that set (`x.f = …`) or free (`free(x.f)`) a pointer member
/// whose derivative record holds a twin (`active` lists the members of each derivative
/// record), with the member's name.
fn member_writes(
    prog: &Program,
    p: UnitId,
    active: &HashMap<TypeDefId, HashSet<String>>,
    foreign_only: bool,
) -> Vec<(StmtId, String)> {
    let u = &prog.units[p];
    let twin = |e: ExprId| {
        pointer_member(prog, u, e)
            .filter(|(td, f)| active.get(td).is_some_and(|s| s.contains(f)))
            .filter(|_| !foreign_only || !own_record(prog, p, e))
            .map(|(_, f)| f)
    };
    let mut out = Vec::new();
    for (sid, st) in u.stmts.iter() {
        match &st.kind {
            StmtKind::Assign { lhs, .. } => {
                if let Some(f) = twin(*lhs) {
                    out.push((sid, f));
                }
            }
            StmtKind::Call { callee, args, .. } => {
                let free = matches!(&u.exprs[*callee], Expr::Name(s) if prog.symbols[*s].spelling == "free")
                    || matches!(&u.exprs[*callee], Expr::Opaque(s) if s == "free")
                    || matches!(&u.exprs[*callee], Expr::Intrinsic(r)
                        if Some(r.id) == radtap_il::vocab::id_of("free", Lang::C));
                if let (true, [a]) = (free, &args[..]) {
                    if let Some(f) = twin(a.value) {
                        out.push((sid, f));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether member reference `e` (`v.data`, `v.inner.data`) is of a record variable local to
/// `p` (not a parameter, not reached through a pointer or a subscript): nobody outside `p`
/// sees its members.
fn own_record(prog: &Program, p: UnitId, mut e: ExprId) -> bool {
    let u = &prog.units[p];
    loop {
        match &u.exprs[e] {
            Expr::Paren(a) => e = *a,
            Expr::Field {
                base, arrow: false, ..
            } => e = *base,
            Expr::Name(s) => {
                let sd = &prog.symbols[*s];
                return !u.params.contains(s)
                    && !sd.attrs.save
                    && sd
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.pointers == 0 && t.dims.is_empty())
                    && radtap_dataflow::zones::unit_of_scope(prog, sd.scope) == Some(p);
            }
            _ => return false,
        }
    }
}

/// Whether the call `site` of `c` in `p` is one the generators mirror with shadow memory
/// (`proc_/shadow.rs`): an allocator's value assigned to a pointer variable
/// (`m = get_new_matrix(r, c)`, `Matrix *m = get_new_matrix(r, c);`), a deallocator called
/// on a pointer variable (`delete_matrix(m)`).
fn shadowed_call(prog: &Program, p: UnitId, site: &radtap_flowgraph::CallSite, c: UnitId) -> bool {
    let u = &prog.units[p];
    let strip = |mut e: ExprId| {
        while let Expr::Paren(a) | Expr::Cast { arg: a, .. } = u.exprs[e] {
            e = a;
        }
        e
    };
    let is_var = |e: ExprId| matches!(u.exprs[strip(e)], Expr::Name(_));
    match (&u.stmts[site.stmt].kind, site.expr) {
        (StmtKind::Assign { lhs, op: None, rhs }, Some(x)) => {
            is_var(*lhs) && strip(*rhs) == x && radtap_il::alloc::allocator(prog, c).is_some()
        }
        (StmtKind::Decl(Decl::Var(v)), Some(x)) => {
            v.entities
                .iter()
                .any(|e| matches!(e.init, Some(Init::Expr(i)) if strip(i) == x))
                && radtap_il::alloc::allocator(prog, c).is_some()
        }
        (StmtKind::Call { args, .. }, None) => {
            // A block of several records freed member by member in a loop
            // (`delete_light_matrix_array(m, count)`) too: the adjoint delays it to the
            // backward sweep where it can, and refuses it at its line otherwise.
            args.first().is_some_and(|a| is_var(a.value))
                && radtap_il::alloc::deallocator(prog, c)
                    .is_some_and(|_| args.len() == prog.units[c].params.len())
        }
        _ => false,
    }
}

/// The first statement that sets or frees a member with a derivative twin in procedure `p`
/// or, through calls, in one it calls: the procedure, the statement and the member.
fn reach(
    prog: &Program,
    info: &ProgramInfo,
    p: UnitId,
    active: &HashMap<TypeDefId, HashSet<String>>,
    foreign_only: bool,
    memo: &mut HashMap<UnitId, Option<(UnitId, StmtId, String)>>,
) -> Option<(UnitId, StmtId, String)> {
    if let Some(r) = memo.get(&p) {
        return r.clone();
    }
    memo.insert(p, None);
    let mut r = member_writes(prog, p, active, foreign_only)
        .into_iter()
        .next()
        .map(|(s, f)| (p, s, f));
    if r.is_none() {
        for site in info.callgraph.sites_of(p) {
            if let Callee::Defined(list) = &site.callee {
                r = list
                    .iter()
                    .find_map(|&c| reach(prog, info, c, active, foreign_only, memo));
                if r.is_some() {
                    break;
                }
            }
        }
    }
    memo.insert(p, r.clone());
    r
}

/// The differentiated C procedures that set or free (themselves or through their callees)
/// a record's pointer member with a derivative twin (`resize(m, r, c)`: `free(m->data);
/// m->data = malloc(…)`). A call to one passing a record with a derivative calls its
/// derivative even where nothing is active yet, so that the twin follows the primal member
/// (`resize(pose, 3, n)` on a fresh empty matrix before anything active is written into
/// it: called as the primal, the twin stayed `NULL` and the derivative code wrote through
/// it).
pub(crate) fn member_setters(
    prog: &Program,
    info: &ProgramInfo,
    differentiated: &[UnitId],
    active: &HashMap<TypeDefId, HashSet<String>>,
) -> std::collections::BTreeSet<UnitId> {
    let mut memo = HashMap::new();
    differentiated
        .iter()
        .copied()
        .filter(|&p| prog.units[p].lang == Lang::C && !active.is_empty())
        .filter(|&p| reach(prog, info, p, active, false, &mut memo).is_some())
        .collect()
}

/// The member setters that set or free (themselves or through their callees) a member of
/// a record they do not own ([`own_record`]: `resize(m, r, c)` on its argument): adjoint
/// mode splits them (`Gen::split_member_setters`). One that only allocates and frees the
/// members of its own local records stays checkpointed (`diff-adjoint`'s `records.rs`).
pub(crate) fn split_setters(
    prog: &Program,
    info: &ProgramInfo,
    setters: &std::collections::BTreeSet<UnitId>,
    active: &HashMap<TypeDefId, HashSet<String>>,
) -> std::collections::BTreeSet<UnitId> {
    let mut memo = HashMap::new();
    setters
        .iter()
        .copied()
        .filter(|&p| reach(prog, info, p, active, true, &mut memo).is_some())
        .collect()
}

/// AD020 at every call, from a differentiated C procedure, of a procedure with no derivative
/// that sets or frees (itself or through its callees) a record's pointer member with a
/// derivative twin.
pub(crate) fn refusals(
    prog: &Program,
    info: &ProgramInfo,
    differentiated: &[UnitId],
    active: &HashMap<TypeDefId, HashSet<String>>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if active.is_empty() {
        return out;
    }
    let mut memo: HashMap<UnitId, Option<(UnitId, StmtId, String)>> = HashMap::new();
    for &p in differentiated {
        let u = &prog.units[p];
        if u.lang != Lang::C {
            continue;
        }
        let span = |s: StmtId| u.source_map.stmt.get(s).copied().unwrap_or_default();
        for site in info.callgraph.sites_of(p) {
            let Callee::Defined(list) = &site.callee else {
                continue;
            };
            for &c in list.iter().filter(|c| !differentiated.contains(c)) {
                if shadowed_call(prog, p, site, c) {
                    continue;
                }
                if let Some((q, s, f)) = reach(prog, info, c, active, false, &mut memo) {
                    let line = prog.units[q]
                        .source_map
                        .stmt
                        .get(s)
                        .map(|sp| format!(" (line {})", sp.line))
                        .unwrap_or_default();
                    let msg = format!(
                        "`{}` has no derivative but sets or frees the pointer member `{f}`{line} of a record whose derivative holds a twin of it: the twin would be left unallocated; set and free record members holding active data in the differentiated procedures (or pass the arrays themselves)",
                        prog.units[c].name.map_or("", |s| prog.name(s))
                    );
                    out.push(Diagnostic::error(Code::Unsupported, span(site.stmt), msg));
                }
            }
        }
    }
    out
}
