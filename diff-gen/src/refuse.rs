//! Constructs no mode differentiates yet, refused with AD020 at their statement before any
//! derivative code is built, so that neither the tangent nor the adjoint can be silently wrong.
//!
//! - C complex values that carry derivatives (`double complex`, `creal`, `cexp`, ...): the
//!   C rules are written for real values, so a C point that reads or writes an active value
//!   and holds a complex value or complex intrinsic reading a variable that may carry a
//!   derivative is refused. A passive complex value is a constant there and is kept. Fortran
//!   COMPLEX is differentiated (docs/decisions.md, "Complex derivatives"), except as an
//!   independent or dependent of the head ([`complex_head_variables`]): the harnesses that
//!   prove derivatives are real-valued. A complex component of a derived type in a statement
//!   with derivatives is refused ([`complex_component_in`]): the complex rules know complex
//!   values by the types of variables, and would treat it as a real.
//! - ASSOCIATE whose selector involves a non-integer variable: an associate name that aliases
//!   a variable is a separate symbol for the analyses, so writes through it would be lost and
//!   its derivative would not alias the variable's.
//! - Variables equivalenced in a module: the analyses of a procedure see only its own
//!   EQUIVALENCE statements (those get equivalenced derivatives, `proc_/decls.rs`).
//! - TRANSFER whose source may carry a derivative (it reinterprets bits, often through an
//!   integer that carries none): a point that reads a varied or active value and holds
//!   `transfer(source, mold)` with a non-integer variable in `source` is refused.
//! - READ from an internal file (a character variable) that a WRITE of the same procedure
//!   filled with values that may carry derivatives, into items whose derivative is needed:
//!   the value comes back through text, its derivative would be silently zero.
//! - Calls to a procedure whose internal procedures use its real dummy arguments by host
//!   association: the analyses number a host-associated variable once, as a global, so the
//!   callee's summary does not map those effects to the actual arguments (the derivative
//!   through the call would be silently zero). The pipeline lifts host association into
//!   arguments first (`radtap_il::lift`), so this only fires on a program that was not
//!   lifted: a safety net, kept so that such a program is refused rather than wrong.
//! - Calls through a type-bound procedure binding (`b%energy()`): the analyses resolve no
//!   callee behind it, so its effects (and activity) would be unknown.
//! - Calls through a dummy procedure resolved to one procedure whose derivative the
//!   derivative of the caller cannot name (see [`unreachable_dummy_actuals`]).

mod complex;
mod modules;
mod names;

pub(crate) use complex::*;
pub(crate) use modules::*;
use names::*;

use radtap_dataflow::{ProcInfo, ProgramInfo};
use radtap_flowgraph::Callee;
use radtap_flowgraph::Part;
use radtap_il::visit::{expr_children, stmt_children};
use radtap_il::*;
use std::collections::{BTreeSet, HashMap};

/// The AD020 refusals for procedure `p`, differentiated with the facts in `pi`.
/// What [`unsupported`] reads of the whole program, gathered once: scanning every unit's
/// declarations and every type again for each differentiated procedure made the checks
/// quadratic in the number of procedures (26% of `-d` on 11,000 procedures).
pub(crate) struct ProgramFacts {
    /// Each EQUIVALENCE set holding a non-integer variable, with the unit declaring it.
    equivalenced: Vec<(UnitId, Vec<SymbolId>)>,
    /// The binding names of type-bound procedures ([`binding_names`]).
    bindings: Vec<String>,
}

impl ProgramFacts {
    /// Gathers the facts of `prog`.
    pub(crate) fn new(prog: &Program) -> Self {
        ProgramFacts {
            equivalenced: equivalenced_sets(prog),
            bindings: binding_names(prog),
        }
    }
}

pub(crate) fn unsupported(
    prog: &Program,
    facts: &ProgramFacts,
    pi: &ProcInfo,
    p: UnitId,
) -> Vec<Diagnostic> {
    let u = &prog.units[p];
    let mut out = Vec::new();
    foreign_equivalence(prog, &facts.equivalenced, p, &mut out);
    common_extension(prog, p, &mut out);
    internal_file_round_trip(prog, pi, p, &mut out);
    // A set: a list searched at every point was quadratic in the procedure's length.
    let mut seen = std::collections::HashSet::new();
    let bindings = &facts.bindings;
    for (i, pt) in pi.point.iter().enumerate() {
        let s = pt.stmt;
        if !seen.insert((s, pt.part)) {
            continue;
        }
        let span = u.source_map.stmt.get(s).copied().unwrap_or_default();
        let active = pi.activity.as_ref().is_some_and(|a| a.has_derivative[i]);
        if let Some(m) = crate::mpi::unsupported_use(prog, u, s).filter(|_| active) {
            out.push(Diagnostic::error(Code::Unsupported, span, m));
        }
        match (&u.stmts[s].kind, pt.part) {
            (
                StmtKind::Block {
                    associations,
                    construct: BlockKind::Associate,
                    ..
                },
                _,
            ) => {
                let real = associations
                    .iter()
                    .any(|(_, sel)| names_in(u, *sel).iter().any(|&n| !integer_like(prog, n)));
                if real {
                    out.push(Diagnostic::error(
                        Code::Unsupported,
                        span,
                        "ASSOCIATE with a selector that may carry derivatives is not differentiated yet; use the selector (or a pointer to it) instead of the associate name",
                    ));
                }
            }
            (k, Part::Whole) => {
                // The analyses see no callee behind a binding (its effects are unknown to
                // them, activity included): refused in every differentiated procedure.
                if let Some(b) = binding_call(u, k, bindings) {
                    out.push(Diagnostic::error(
                        Code::Unsupported,
                        span,
                        format!("a call through the type-bound procedure binding `%{b}` is not differentiated yet; call the procedure it binds directly"),
                    ));
                    continue;
                }
                // A name of a module that is not among the inputs has no zone: the analyses
                // see no write, so the assignment was sliced away from the derivative (its
                // primal value lost) and what it carried was lost (issue 51).
                if let Some(name) = unresolved_target(u, k) {
                    out.push(Diagnostic::error(
                        Code::Unsupported,
                        span,
                        format!("an assignment to `{name}`, a name of a module that is not among the input files: radtap cannot see what it holds, so the derivative code would drop this assignment; add the module's source file"),
                    ));
                    continue;
                }
                let Some(act) = &pi.activity else { continue };
                let e = &pi.effects[i];
                let active = e.reads.intersects(&act.active_before[i])
                    || e.writes.intersects(&act.active_after[i]);
                if active {
                    if let Some(name) = elemental_on_arrays(prog, u, k) {
                        out.push(Diagnostic::error(
                            Code::Unsupported,
                            span,
                            format!("the elemental procedure `{name}` is applied to arrays here: its derivative is not elemental yet; write the loop over the elements"),
                        ));
                    }
                }
                let varied = e.reads.intersects(&act.varied_before[i]);
                if (active || varied) && point_transfers_real(prog, u, k) {
                    out.push(Diagnostic::error(
                        Code::Unsupported,
                        span,
                        "TRANSFER of a value that may carry a derivative is not differentiated: the derivative would be lost; use an assignment or a conversion intrinsic",
                    ));
                }
                // A complex value that carries no derivative (passive twiddle factors read
                // through `real(w)`, `aimag(w)`) is a constant: only complex values reading
                // or writing a variable that may carry a derivative are refused.
                let carries = |s: SymbolId| {
                    !integer_like(prog, s)
                        && pi.zones.sym_zones(s).is_none_or(|z| {
                            z.intersects(&act.varied_before[i])
                                || z.intersects(&act.active_after[i])
                        })
                };
                // Complex components are not: the complex rules know complex values by the
                // types of variables, so a complex component would be differentiated as a
                // real (its adjoint factor left unconjugated).
                if active && u.lang == Lang::Fortran {
                    if let Some(c) = complex_component_in(prog, u, k) {
                        out.push(Diagnostic::error(
                            Code::Unsupported,
                            span,
                            format!("the complex component `%{c}` of a derived type in a statement with derivatives is not supported yet; copy it to a complex variable"),
                        ));
                    }
                }
                // Fortran complex arithmetic is differentiated (docs/decisions.md, "Complex
                // derivatives"); C `double complex` is not yet.
                if active && u.lang == Lang::C && point_is_complex(prog, u, k, &carries) {
                    out.push(Diagnostic::error(
                        Code::Unsupported,
                        span,
                        "complex derivatives are not supported yet: this statement computes an active value with complex arithmetic",
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

/// The unresolved name a Fortran assignment writes (`g = …`, `g(i) = …`, `g%c = …` with `g`
/// from a module that is not among the inputs, AD033), if any.
fn unresolved_target(u: &UnitData, k: &StmtKind) -> Option<String> {
    let StmtKind::Assign { lhs, .. } = k else {
        return None;
    };
    if u.lang != Lang::Fortran {
        return None;
    }
    let mut e = *lhs;
    loop {
        match &u.exprs[e] {
            Expr::Opaque(t) => return Some(t.clone()),
            Expr::Index { base, .. } | Expr::Field { base, .. } => e = *base,
            Expr::Call { callee, .. } => e = *callee,
            Expr::Paren(a) => e = *a,
            _ => return None,
        }
    }
}

/// Binding names of the type-bound procedures of every derived type (`procedure :: energy`,
/// `procedure, pass(b) :: scaled => scaled_energy`, `generic :: g => a, b`), lower-cased.
fn binding_names(prog: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for (_, td) in prog.typedefs.iter() {
        for f in &td.fields {
            let Decl::Verbatim(v) = f else { continue };
            let v = v.to_ascii_lowercase();
            let is_binding = ["procedure", "generic", "final"]
                .iter()
                .any(|k| v.starts_with(k));
            let Some((_, items)) = v.split_once("::").filter(|_| is_binding) else {
                continue;
            };
            for it in items.split(',') {
                let name = it.split("=>").next().unwrap_or("").trim();
                if !name.is_empty() {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

/// The binding name of a type-bound procedure call (`b%energy()`, `call b%step(h)`) in `k`:
/// a component reference or call whose name is a binding of some type.
fn binding_call(u: &UnitData, k: &StmtKind, bindings: &[String]) -> Option<String> {
    if bindings.is_empty() {
        return None;
    }
    let is_binding = |e: ExprId| match &u.exprs[e] {
        Expr::Field { field, .. } if bindings.contains(&field.to_ascii_lowercase()) => {
            Some(field.clone())
        }
        _ => None,
    };
    if let StmtKind::Call { callee, .. } = k {
        if let Some(b) = is_binding(*callee) {
            return Some(b);
        }
    }
    let mut roots = Vec::new();
    stmt_children(k, &mut |e| roots.push(e), &mut |_| {});
    while let Some(e) = roots.pop() {
        match &u.exprs[e] {
            Expr::Call { callee: b, .. } | Expr::Index { base: b, .. } => {
                if let Some(name) = is_binding(*b) {
                    return Some(name);
                }
            }
            _ => {}
        }
        expr_children(&u.exprs[e], &mut |c| roots.push(c));
    }
    None
}

/// The name of a user ELEMENTAL procedure the point calls with an array argument.
fn elemental_on_arrays(prog: &Program, u: &UnitData, k: &StmtKind) -> Option<String> {
    let mut roots = Vec::new();
    stmt_children(k, &mut |e| roots.push(e), &mut |_| {});
    if let StmtKind::Call { callee, args, .. } = k {
        if let Some(n) = elemental_callee(prog, u, *callee) {
            if args.iter().any(|a| array_valued(prog, u, a.value)) {
                return Some(n);
            }
        }
    }
    let mut stack = roots;
    while let Some(e) = stack.pop() {
        if let Expr::Call { callee, args } = &u.exprs[e] {
            if let Some(n) = elemental_callee(prog, u, *callee) {
                if args.iter().any(|a| array_valued(prog, u, a.value)) {
                    return Some(n);
                }
            }
        }
        expr_children(&u.exprs[e], &mut |c| stack.push(c));
    }
    None
}

/// The name of the user procedure `callee` names, when it is ELEMENTAL.
fn elemental_callee(prog: &Program, u: &UnitData, callee: ExprId) -> Option<String> {
    let Expr::Name(s) = u.exprs[callee] else {
        return None;
    };
    let unit = prog.symbols[s].unit?;
    let elemental = prog.units[unit]
        .attrs
        .prefixes
        .iter()
        .any(|p| p.eq_ignore_ascii_case("elemental"));
    elemental.then(|| prog.name(s).to_string())
}

/// Whether expression `e` may be an array: a whole array, a section, or an operation or
/// call on one.
fn array_valued(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    match &u.exprs[e] {
        Expr::Name(s) => prog.symbols[*s]
            .ty
            .as_ref()
            .is_some_and(|t| !t.dims.is_empty()),
        Expr::Index { base, subs } => {
            subs.iter().any(|x| matches!(x, Subscript::Range(..)))
                || (subs.is_empty() && array_valued(prog, u, *base))
        }
        Expr::Call { callee, args } => {
            // Reductions and inquiries give scalars (without `dim=`).
            const SCALAR: &[&str] = &[
                "sum",
                "product",
                "maxval",
                "minval",
                "dot_product",
                "norm2",
                "size",
                "count",
                "any",
                "all",
                "lbound",
                "ubound",
            ];
            let reduction = matches!(u.exprs[*callee], Expr::Name(f)
                if SCALAR.iter().any(|r| prog.name(f).eq_ignore_ascii_case(r)))
                && args.len() == 1;
            !reduction && args.iter().any(|a| array_valued(prog, u, a.value))
        }
        other => {
            let mut any = false;
            expr_children(other, &mut |c| any |= array_valued(prog, u, c));
            any
        }
    }
}

/// Variables equivalenced in another unit (a module) that `p` reads or writes: the analyses
/// of `p` see only its own EQUIVALENCE statements, so a write through one member would not
/// reach the others. Refused at the first statement of `p` that names one.
/// Each EQUIVALENCE set of the program that holds a non-integer variable: its variables and
/// the unit declaring the set.
fn equivalenced_sets(prog: &Program) -> Vec<(UnitId, Vec<SymbolId>)> {
    let mut out = Vec::new();
    for (q, qu) in prog.units.iter() {
        for d in &qu.decls {
            let Decl::Equivalence(sets) = d else { continue };
            for set in sets {
                let syms: Vec<SymbolId> = set
                    .iter()
                    .flat_map(|&e| names_in(qu, e).into_iter().take(1))
                    .collect();
                if syms.iter().any(|&s| !integer_like(prog, s)) {
                    out.push((q, syms));
                }
            }
        }
    }
    out
}

fn foreign_equivalence(
    prog: &Program,
    equivalenced: &[(UnitId, Vec<SymbolId>)],
    p: UnitId,
    out: &mut Vec<Diagnostic>,
) {
    let members: Vec<SymbolId> = equivalenced
        .iter()
        .filter(|(q, _)| *q != p)
        .flat_map(|(_, syms)| syms.iter().copied())
        .collect();
    if members.is_empty() {
        return;
    }
    let u = &prog.units[p];
    let mut hits: Vec<(Span, SymbolId)> = Vec::new();
    for (s, st) in u.stmts.iter() {
        let mut exprs = Vec::new();
        stmt_children(&st.kind, &mut |e| exprs.push(e), &mut |_| {});
        for e in exprs {
            if let Some(&m) = names_in(u, e).iter().find(|n| members.contains(n)) {
                let sp = u.source_map.stmt.get(s).copied().unwrap_or_default();
                hits.push((sp, m));
            }
        }
    }
    hits.sort_by_key(|(sp, _)| (sp.file, sp.line, sp.col));
    if let Some((sp, m)) = hits.first() {
        out.push(Diagnostic::error(
            Code::Unsupported,
            *sp,
            format!(
                "`{}` is in an EQUIVALENCE of another unit (a module); EQUIVALENCE is differentiated only among a procedure's own variables",
                prog.name(*m)
            ),
        ));
    }
}

/// An EQUIVALENCE that extends a COMMON block past its end (or before its start) as `p`
/// declares it: the analyses give the equivalenced variable the zones of the block as
/// declared in `p`, so what it writes in the extension would not reach another unit's longer
/// declaration of the block. Refused at the EQUIVALENCE.
fn common_extension(prog: &Program, p: UnitId, out: &mut Vec<Diagnostic>) {
    let Some((e, s, b)) = radtap_dataflow::zones::equivalence_outside_common(prog, p) else {
        return;
    };
    let u = &prog.units[p];
    let sp = u.source_map.expr.get(e).copied().unwrap_or_default();
    out.push(Diagnostic::error(
        Code::Unsupported,
        sp,
        format!(
            "EQUIVALENCE of `{}` extends COMMON /{}/ beyond the block as declared here; declare the whole block in every unit instead",
            prog.name(s),
            prog.name(b)
        ),
    ));
}

/// Calls, from the procedures the heads reach, to a procedure whose internal procedures use
/// its non-integer dummy arguments by host association.
/// The heads and every procedure they may call, heads first.
/// Addresses of memory that may carry derivatives stored where the analyses do not follow
/// them (`w.p = y`, `rows[0] = y`, `view_t w = {y, 2}`, `w%p => y`): a callee writing through `w->p`
/// would be seen writing the record `w`, not `y`, so `y`'s derivative would be silently left
/// alone (zones, `escapes`). Refused at the store, in every procedure reached from a head,
/// when the stored memory is varied or useful somewhere in that procedure.
pub(crate) fn stored_addresses(prog: &Program, info: &ProgramInfo) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for p in reached_from_heads(info) {
        let Some(pi) = info.procs.get(&p) else {
            continue;
        };
        let Some(act) = &pi.activity else { continue };
        if pi.zones.escapes.is_empty() {
            continue;
        }
        let mut carries = act.varied_in.clone();
        carries.union_with(&act.useful_out);
        for z in act.varied_before.iter().chain(&act.useful_after) {
            carries.union_with(z);
        }
        let u = &prog.units[p];
        for (s, zones) in &pi.zones.escapes {
            let Some(z) = zones.and(&carries).iter().next() else {
                continue;
            };
            let name = pi.zones.zones[z.index()].name.clone();
            out.push(Diagnostic::error(
                Code::Unsupported,
                u.source_map.stmt.get(*s).copied().unwrap_or_default(),
                format!("the address of `{name}`, which may carry a derivative, is stored in a record member or an array element here: radtap does not follow addresses stored in memory (a write through the copy, in this procedure or a callee, would be missed and the derivative silently wrong); pass the pointer itself as an argument"),
            ));
        }
    }
    out
}

fn reached_from_heads(info: &ProgramInfo) -> Vec<UnitId> {
    let mut reach: Vec<UnitId> = info.heads.iter().map(|h| h.head).collect();
    let mut reached: std::collections::HashSet<UnitId> = reach.iter().copied().collect();
    let mut i = 0;
    while i < reach.len() {
        let p = reach[i];
        i += 1;
        for c in info.callgraph.sites_of(p) {
            if let Callee::Defined(list) = &c.callee {
                for &q in list {
                    if reached.insert(q) {
                        reach.push(q);
                    }
                }
            }
        }
    }
    reach
}

pub(crate) fn host_associated_dummies(prog: &Program, info: &ProgramInfo) -> Vec<Diagnostic> {
    let reach = reached_from_heads(info);
    // The internal procedures of each unit, found once: looking for them among all units at
    // every call site was quadratic in the number of procedures.
    let mut internals: HashMap<UnitId, Vec<UnitId>> = HashMap::new();
    for (iu, d) in prog.units.iter() {
        if let Some(q) = d.parent {
            internals.entry(q).or_default().push(iu);
        }
    }
    let mut out = Vec::new();
    for &p in &reach {
        let u = &prog.units[p];
        for c in info.callgraph.sites_of(p) {
            let Callee::Defined(list) = &c.callee else {
                continue;
            };
            for &q in list {
                // A call from one of `q`'s own internal procedures (recursion) is left alone.
                if u.parent == Some(q) {
                    continue;
                }
                let inner = internals.get(&q).map_or(&[][..], |v| &v[..]);
                if let Some(d) = dummy_used_by_internal(prog, q, inner) {
                    let span = u.source_map.stmt.get(c.stmt).copied().unwrap_or_default();
                    out.push(Diagnostic::error(
                        Code::Unsupported,
                        span,
                        format!(
                            "`{}` has internal procedures that use its argument `{}` by host association; calls to it are not differentiated yet (pass `{}` to the internal procedure as an argument)",
                            crate::gen::unit_name(prog, q),
                            prog.name(d),
                            prog.name(d)
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// A non-integer dummy argument of `q` that an internal procedure of `q` names.
fn dummy_used_by_internal(prog: &Program, q: UnitId, internals: &[UnitId]) -> Option<SymbolId> {
    let params = &prog.units[q].params;
    internals.iter().map(|&iu| &prog.units[iu]).find_map(|iu| {
        iu.exprs.iter().find_map(|(_, e)| match e {
            Expr::Name(s) if params.contains(s) && !integer_like(prog, *s) => Some(*s),
            _ => None,
        })
    })
}

/// The character variable an I/O control list names as its unit (`(buf, *)`, `unit=buf`),
/// lower-cased, when it is one: an internal file.
fn internal_file(prog: &Program, u: &UnitData, control: &str) -> Option<String> {
    let control = control.trim();
    let control = control.strip_prefix('(').unwrap_or(control);
    let first = control
        .split([',', ')'])
        .next()?
        .trim()
        .to_ascii_lowercase();
    let first = first.strip_prefix("unit").map_or(first.as_str(), |r| {
        r.trim_start().strip_prefix('=').unwrap_or(first.as_str())
    });
    let first = first.trim();
    let name: String = first
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect::<String>()
        .to_ascii_lowercase();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let s = prog.lookup(u.scope, &name)?;
    let t = prog.symbols[s].ty.as_ref()?;
    (t.base == BaseClass::Character).then_some(name)
}

/// A READ from an internal file that a WRITE of `p` filled with varied values, into items
/// whose derivative is needed afterwards (a value passed through text loses its derivative).
fn internal_file_round_trip(prog: &Program, pi: &ProcInfo, p: UnitId, out: &mut Vec<Diagnostic>) {
    let Some(act) = &pi.activity else { return };
    let u = &prog.units[p];
    let mut written: Vec<String> = Vec::new();
    for (i, pt) in pi.point.iter().enumerate() {
        if let StmtKind::Io {
            kind: IoKind::Write,
            control,
            ..
        } = &u.stmts[pt.stmt].kind
        {
            if pi.effects[i].reads.intersects(&act.varied_before[i]) {
                written.extend(internal_file(prog, u, control));
            }
        }
    }
    if written.is_empty() {
        return;
    }
    let mut done = Vec::new();
    for (i, pt) in pi.point.iter().enumerate() {
        let StmtKind::Io {
            kind: IoKind::Read,
            control,
            ..
        } = &u.stmts[pt.stmt].kind
        else {
            continue;
        };
        let Some(name) = internal_file(prog, u, control) else {
            continue;
        };
        if !written.contains(&name) || done.contains(&pt.stmt) {
            continue;
        }
        if pi.effects[i].writes.intersects(&act.useful_after[i]) {
            done.push(pt.stmt);
            let span = u.source_map.stmt.get(pt.stmt).copied().unwrap_or_default();
            out.push(Diagnostic::error(
                Code::Unsupported,
                span,
                format!(
                    "this READ from the internal file `{name}` takes back values written with derivatives: a value passed through text loses its derivative; assign it instead"
                ),
            ));
        }
    }
}

/// Calls in procedure `p` through one of its dummy procedures that the call graph resolves to
/// one differentiated procedure `c` whose derivative the derivative of `p` cannot reach: the
/// derivative of `p` calls `c_d` by name, which compiles where `c` is external, in `p`'s own
/// module, or in a module `p` (or its module) uses. A library module calling the user's
/// function from a module that uses the library (the common layout) needs the derivative
/// procedure passed as an argument: refused at the call until then (the output did not
/// link).
pub(crate) fn unreachable_dummy_actuals(
    prog: &Program,
    info: &ProgramInfo,
    p: UnitId,
    active: &[UnitId],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let u = &prog.units[p];
    for site in info.callgraph.sites_of(p) {
        let Callee::Defined(list) = &site.callee else {
            continue;
        };
        let [c] = list.as_slice() else { continue };
        let callee = match (site.expr, &u.stmts[site.stmt].kind) {
            (Some(e), _) => match &u.exprs[e] {
                Expr::Call { callee, .. } => *callee,
                _ => continue,
            },
            (None, StmtKind::Call { callee, .. }) => *callee,
            _ => continue,
        };
        let Expr::Name(d) = &u.exprs[callee] else {
            continue;
        };
        // The list of active procedures is searched last, for the few calls through a dummy
        // (searched at every call site, it was quadratic in the number of procedures).
        if !u.params.contains(d) || !active.contains(c) || reaches(prog, p, *c) {
            continue;
        }
        let sp = u
            .source_map
            .stmt
            .get(site.stmt)
            .copied()
            .unwrap_or_default();
        let msg = format!(
            "a call through the dummy procedure `{}` to `{}`, whose derivative is out of reach of this procedure's derivative (its module does not use `{}`'s module), is not differentiated yet",
            prog.symbols[*d].spelling,
            crate::generator::unit_name(prog, *c),
            crate::generator::unit_name(prog, *c),
        );
        out.push(Diagnostic::error(Code::Unsupported, sp, &msg));
    }
    out
}

/// Whether the derivative of procedure `p` can call the derivative of `c` by name.
fn reaches(prog: &Program, p: UnitId, c: UnitId) -> bool {
    let Some(cm) = prog.units[c].parent else {
        return true;
    };
    let mut at = Some(p);
    while let Some(q) = at {
        if q == cm {
            return true;
        }
        let uses_cm = prog.units[q]
            .decls
            .iter()
            .any(|d| matches!(d, Decl::Use(ui, _) if ui.unit == Some(cm)));
        if uses_cm {
            return true;
        }
        at = prog.units[q].parent;
    }
    false
}

/// C file-scope `static` variables the derivative file would hold a copy of its own of,
/// apart from the one the original functions set: the generated file declares them again
/// (internal linkage cannot be shared across files), so when a head writes one and a function
/// that is not itself `static` (called in the original file, not copied) reads or writes it,
/// or such a function writes one the head reads, the two files see different values: a
/// silently wrong derivative. Refused at the first call of that function, with the remedy.
pub(crate) fn file_static_shared(prog: &Program, info: &ProgramInfo) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Global zone ranges of the file-static, non-const variables.
    let mut statics: Vec<(SymbolId, std::ops::Range<u32>)> = Vec::new();
    for (k, o) in &info.globals.objects {
        let radtap_dataflow::zones::ObjKey::Sym(s) = k else {
            continue;
        };
        let d = &prog.symbols[*s];
        let file = radtap_dataflow::zones::unit_of_scope(prog, d.scope)
            .is_some_and(|m| prog.units[m].kind == UnitKind::CFile);
        if file && d.attrs.save && !d.attrs.constant {
            statics.push((*s, o.start..o.start + o.len));
        }
    }
    if statics.is_empty() {
        return out;
    }
    let globals_of = |p: UnitId, writes_only: bool| -> BTreeSet<u32> {
        let pi = &info.procs[&p];
        let mut set = pi.summary.writes.clone();
        if !writes_only {
            set.union_with(&pi.summary.reads);
        }
        set.iter()
            .filter_map(|z| pi.zones.global_of_local(z))
            .collect()
    };
    let heads: Vec<UnitId> = info.heads.iter().map(|h| h.head).collect();
    let mut head_writes = BTreeSet::new();
    let mut head_uses = BTreeSet::new();
    for &h in &heads {
        if info.procs.contains_key(&h) {
            head_writes.extend(globals_of(h, true));
            head_uses.extend(globals_of(h, false));
        }
    }
    // Each callee's global zones, computed once however many calls it has.
    let mut seen: HashMap<UnitId, (BTreeSet<u32>, BTreeSet<u32>)> = HashMap::new();
    for p in reached_from_heads(info) {
        for c in info.callgraph.sites_of(p) {
            let Callee::Defined(list) = &c.callee else {
                continue;
            };
            for &q in list {
                let u = &prog.units[q];
                let outside = u.lang == Lang::C
                    && !heads.contains(&q)
                    && !u.attrs.prefixes.iter().any(|x| x == "static")
                    && info.procs.contains_key(&q);
                if outside {
                    let (w, uses) = seen
                        .entry(q)
                        .or_insert_with(|| (globals_of(q, true), globals_of(q, false)));
                    let shared = statics.iter().find(|(_, r)| {
                        r.clone().any(|z| {
                            (head_writes.contains(&z) && uses.contains(&z))
                                || (w.contains(&z) && head_uses.contains(&z))
                        })
                    });
                    if let Some((s, _)) = shared {
                        let caller = &prog.units[p];
                        let span = caller
                            .source_map
                            .stmt
                            .get(c.stmt)
                            .copied()
                            .unwrap_or_default();
                        out.push(Diagnostic::error(
                            Code::Unsupported,
                            span,
                            format!(
                                "`{}` uses the file-scope `static` variable `{}`, which the differentiated code uses too: the generated file would hold a copy of its own, apart from the one `{}` sees in the original file; declare `{}` without `static` (external linkage) so both files share it",
                                crate::gen::unit_name(prog, q),
                                prog.name(*s),
                                crate::gen::unit_name(prog, q),
                                prog.name(*s)
                            ),
                        ));
                        return out;
                    }
                }
            }
        }
    }
    out
}

/// The refusal of an active call to `name`, which has no body in the input files: a C
/// function-like macro the frontend could not expand (its `#define` is in a file given),
/// or a procedure whose source is missing.
pub fn no_body_message(prog: &Program, name: &str) -> String {
    let define = format!("#define {name}(");
    let is_macro = prog.units.iter().any(|(_, u)| {
        u.kind == UnitKind::CFile
            && u.decls.iter().any(|d| {
                matches!(d, Decl::Preproc(l) if l.split_whitespace().collect::<Vec<_>>().join(" ").starts_with(&define))
            })
    });
    let dummy_procedure = prog.units.iter().any(|(_, u)| {
        u.params.iter().any(|&q| {
            let sd = &prog.symbols[q];
            sd.spelling.eq_ignore_ascii_case(name)
                && (u.lang == Lang::C
                    || matches!(sd.kind, SymbolKind::Procedure | SymbolKind::Unknown))
        })
    });
    if name == "<expression>" {
        "a call through a function pointer carries derivatives, but radtap cannot tell which function it runs: call the function by name (or, in Fortran, pass it as a dummy procedure)".to_string()
    } else if dummy_procedure {
        format!("a call through the dummy procedure (or function pointer) `{name}`, where an intrinsic or a procedure without a body is passed as an actual procedure somewhere in the program: radtap cannot tell which runs here; pass a function of the program instead (a wrapper around the intrinsic)")
    } else if is_macro {
        format!("the macro `{name}` has a body that is not an expression (a statement, or `#`/`##`): radtap cannot differentiate through it; write it as a function or expand it by hand")
    } else if name.len() > 4 && name[..4].eq_ignore_ascii_case("mpi_") {
        format!("`{name}` is an MPI call radtap does not differentiate yet (it differentiates MPI_Send, MPI_Recv, MPI_Sendrecv, MPI_Isend, MPI_Irecv, MPI_Wait, MPI_Waitall, MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Gather, MPI_Scatter, MPI_Allgather, MPI_Gatherv and MPI_Scatterv): the derivatives would not travel with the data; use those, or keep this call out of the code differentiated")
    } else {
        format!("`{name}` has no body in the input files and no derivative: radtap takes a routine it does not know to read and write anything its arguments reach and any global, so the derivative through this call would be wrong; add the file that defines it to the inputs (a prototype, a header or an interface is not enough), or describe it in a library file given with `-ext LIBFILE` (Tapenade's syntax) and supply its derivatives `NAME_d`/`NAME_b`")
    }
}
