//! Pointer destinations: flow-insensitive, intraprocedural, may (see [`crate::zones`]).

use crate::zones::{
    base_symbol, is_alloc_call, is_pointer, is_pointer_base, strip_parens, ObjKey, ProcZones,
};
use radtap_il::{BinOp, Decl, Expr, ExprId, Init, Program, StmtKind, SymbolId, UnOp, UnitId};
use std::collections::BTreeMap;

/// What a pointer-valued expression may point to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Targets {
    /// These objects.
    Objs(Vec<ObjKey>),
    /// Anything: the procedure's universe.
    Unknown,
}

/// Fills `pz.pts` for every pointer variable of the zone space.
pub(crate) fn compute(prog: &Program, unit: UnitId, pz: &mut ProcZones) {
    let u = &prog.units[unit];
    let mut pts: BTreeMap<SymbolId, Vec<ObjKey>> = BTreeMap::new();
    let mut unknown: Vec<SymbolId> = Vec::new();
    for k in pz.objects.keys() {
        if let ObjKey::Pointee(s) = k {
            pts.entry(*s).or_default().push(*k);
        }
    }
    // (pointer, value expression, allocation statement)
    let mut assigns: Vec<(SymbolId, Option<ExprId>, Option<radtap_il::StmtId>)> = Vec::new();
    for (sid, st) in u.stmts.iter() {
        match &st.kind {
            StmtKind::Assign { lhs, rhs, op: None } | StmtKind::PointerAssign { lhs, rhs } => {
                if let Expr::Name(p) = &u.exprs[*lhs] {
                    if is_pointer(prog, *p) {
                        let alloc = is_alloc_call(prog, unit, *rhs);
                        assigns.push((*p, (!alloc).then_some(*rhs), alloc.then_some(sid)));
                    }
                }
            }
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    if let (Some(Init::Expr(i)), true) = (&e.init, is_pointer(prog, e.sym)) {
                        let alloc = is_alloc_call(prog, unit, *i);
                        assigns.push((e.sym, (!alloc).then_some(*i), alloc.then_some(sid)));
                    }
                }
            }
            StmtKind::Memory {
                op: radtap_il::MemOp::Allocate,
                items,
                ..
            } => {
                for &it in items {
                    if let Some(p) = base_symbol(prog, unit, it) {
                        if prog.symbols[p].attrs.pointer {
                            assigns.push((p, None, Some(sid)));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // C assignments inside expressions (`for (p = x, q = y; …)`, `a = p = b`).
    for (_, e) in u.exprs.iter() {
        if let Expr::Assign { lhs, rhs, op: None } = e {
            if let Expr::Name(p) = &u.exprs[*lhs] {
                if is_pointer(prog, *p) {
                    let alloc = is_alloc_call(prog, unit, *rhs);
                    assigns.push((*p, (!alloc).then_some(*rhs), None));
                }
            }
        }
    }
    for d in &u.decls {
        if let Decl::Var(v) = d {
            for e in &v.entities {
                if let (Some(Init::Expr(i) | Init::Pointer(i)), true) =
                    (&e.init, is_pointer(prog, e.sym))
                {
                    assigns.push((e.sym, Some(*i), None));
                }
            }
        }
    }
    // A pointer variable whose own address is taken (`&p`, `&(p)`) may be assigned through
    // it (`*(&p) = q`, `**pp = …`, a callee): its targets are not only those assigned by name.
    for (_, e) in u.exprs.iter() {
        if let Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } = e
        {
            if let Expr::Name(p) = &u.exprs[strip_parens(prog, unit, *arg)] {
                if is_pointer(prog, *p) && !unknown.contains(p) {
                    unknown.push(*p);
                }
            }
        }
    }
    for _round in 0..32 {
        let mut changed = false;
        for (p, rhs, alloc) in &assigns {
            let t = match (rhs, alloc) {
                (_, Some(sid)) => Targets::Objs(vec![ObjKey::Heap(unit, *sid)]),
                (Some(e), None) => targets(prog, unit, *e, &pts),
                (None, None) => continue,
            };
            match t {
                Targets::Unknown => {
                    if !unknown.contains(p) {
                        unknown.push(*p);
                        changed = true;
                    }
                }
                Targets::Objs(v) => {
                    let e = pts.entry(*p).or_default();
                    for k in v {
                        if !e.contains(&k) && pz.objects.contains_key(&k) {
                            e.push(k);
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let taken = address_taken(prog, unit, pz);
    let universe = pz.universe(&taken);
    for p in unknown {
        let e = pts.entry(p).or_default();
        for k in &universe {
            if !e.contains(k) {
                e.push(*k);
            }
        }
    }
    for v in pts.values_mut() {
        v.sort();
    }
    pz.pts = pts;
    pz.address_taken = taken;
    pz.escapes = escapes(prog, unit, pz, &universe);
    pz.rotations = crate::rotation::find(prog, unit, &|e| is_alloc_call(prog, unit, e));
}

/// The statements of `unit` that store an address of memory with differentiable zones where
/// the points-to sets do not follow it: through an assignment to anything but a pointer
/// variable (`w.p = y`, `rows[0] = y`, `*pp = y`), or as an item of a brace initialiser
/// (`view_t w = {y, 2}`); in Fortran, a pointer assignment to a component or an element
/// (`w%p => y`). A fresh allocation stored there (`m->data = malloc(…)`) is not one: that
/// memory is reached only through its record, which the analyses take it to be part of.
fn escapes(
    prog: &Program,
    unit: UnitId,
    pz: &ProcZones,
    universe: &[ObjKey],
) -> Vec<(radtap_il::StmtId, crate::ZoneSet)> {
    let u = &prog.units[unit];
    let mut out = Vec::new();
    // A store into a pointer variable through its address (`*(&c) = g`, `*pp = g` with
    // `pp = &c`) is one the points-to sets miss too, refused where that address is taken.
    let into_pointer_variable = |lhs: ExprId| {
        let base = match &u.exprs[strip_parens(prog, unit, lhs)] {
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => *arg,
            Expr::Index { base, .. } if is_pointer_base(prog, unit, *base) => *base,
            _ => return false,
        };
        matches!(targets(prog, unit, base, &pz.pts), Targets::Objs(k)
            if !k.is_empty() && k.iter().all(|k| matches!(k, ObjKey::Sym(s) if is_pointer(prog, *s))))
    };
    let not_a_name = |lhs: ExprId| {
        !matches!(u.exprs[strip_parens(prog, unit, lhs)], Expr::Name(_))
            && !into_pointer_variable(lhs)
    };
    for (sid, st) in u.stmts.iter() {
        // Addresses stored: Fortran pointer assignments are addresses by construction; a C
        // value stored is one only when its type says so.
        let mut stored: Vec<ExprId> = Vec::new();
        match &st.kind {
            StmtKind::PointerAssign { lhs, rhs } if u.lang != radtap_il::Lang::C => {
                if not_a_name(*lhs) {
                    stored.push(*rhs);
                }
            }
            _ if u.lang != radtap_il::Lang::C => {}
            kind => {
                let mut c_stored = Vec::new();
                if let StmtKind::Assign { lhs, rhs, op: None } = kind {
                    if not_a_name(*lhs) {
                        c_stored.push(*rhs);
                    }
                }
                let mut todo: Vec<ExprId> = Vec::new();
                radtap_il::visit::stmt_children(kind, &mut |e| todo.push(e), &mut |_| {});
                while let Some(e) = todo.pop() {
                    match &u.exprs[e] {
                        Expr::Assign { lhs, rhs, op: None } if not_a_name(*lhs) => {
                            c_stored.push(*rhs)
                        }
                        Expr::ArrayCtor { items, .. } => {
                            for &i in items {
                                match &u.exprs[i] {
                                    Expr::Designated { value, .. } => c_stored.push(*value),
                                    _ => c_stored.push(i),
                                }
                            }
                        }
                        _ => {}
                    }
                    radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
                }
                stored.extend(c_stored.into_iter().filter(|&v| {
                    pointer_valued(prog, unit, v) && pointee_may_be_real(prog, unit, v)
                }));
            }
        }
        let mut zones = pz.empty();
        for v in stored {
            let keys = match targets(prog, unit, v, &pz.pts) {
                Targets::Objs(k) => k,
                Targets::Unknown => universe.to_vec(),
            };
            for k in keys {
                if let Some(o) = pz.objects.get(&k) {
                    zones.union_with(&pz.obj_set(o).and(&pz.differentiable));
                }
            }
        }
        if !zones.is_empty() {
            out.push((sid, zones));
        }
    }
    out
}

/// Whether the C expression `e` is an address (a pointer, an array converted to one, `&x`,
/// pointer arithmetic), other than a fresh allocation.
fn pointer_valued(prog: &Program, unit: UnitId, e: ExprId) -> bool {
    indirections(prog, unit, e).is_none_or(|n| n > 0)
}

/// How many times the value of `e` can be dereferenced or subscripted (pointer levels plus
/// array dimensions left); `None` when its type is not known. A fresh allocation counts as
/// none: its memory is reached only through where it is stored.
fn indirections(prog: &Program, unit: UnitId, e: ExprId) -> Option<usize> {
    let u = &prog.units[unit];
    let of = |t: &radtap_il::Type| t.pointers as usize + t.dims.len();
    match &u.exprs[e] {
        Expr::Name(s) => match prog.symbols[*s].kind {
            radtap_il::SymbolKind::Variable | radtap_il::SymbolKind::Unknown => {
                prog.symbols[*s].ty.as_ref().map(of)
            }
            _ => Some(0),
        },
        Expr::Unary {
            op: UnOp::AddrOf, ..
        } => Some(1),
        Expr::Unary {
            op: UnOp::Deref,
            arg,
        } => indirections(prog, unit, *arg).map(|n| n.saturating_sub(1)),
        // Pointer arithmetic, or either value of `c ? p : q`.
        Expr::Binary {
            op: BinOp::Add | BinOp::Sub,
            lhs: a,
            rhs: b,
        }
        | Expr::Cond {
            then: a, else_: b, ..
        } => Some(indirections(prog, unit, *a)?.max(indirections(prog, unit, *b)?)),
        Expr::Paren(a) | Expr::Cast { arg: a, .. } | Expr::Assign { rhs: a, .. } => {
            indirections(prog, unit, *a)
        }
        Expr::Field { base, field, .. } => member_type(prog, unit, *base, field).map(of),
        Expr::Index { base, subs } => {
            indirections(prog, unit, *base).map(|n| n.saturating_sub(subs.len()))
        }
        Expr::Call { callee, .. } => {
            if crate::zones::is_alloc_call(prog, unit, e) {
                return Some(0);
            }
            match &u.exprs[*callee] {
                // An intrinsic (`exp`, `fma`) has no declared type: a value.
                Expr::Name(s) => Some(
                    prog.symbols[*s]
                        .ty
                        .as_ref()
                        .map_or(0, |t| t.pointers as usize),
                ),
                _ => None,
            }
        }
        _ => Some(0),
    }
}

/// Whether the address `e` may designate real data (false when the type it is read from
/// says integer, logical or character).
fn pointee_may_be_real(prog: &Program, unit: UnitId, e: ExprId) -> bool {
    let u = &prog.units[unit];
    let ty = match &u.exprs[strip_parens(prog, unit, e)] {
        Expr::Name(s) => prog.symbols[*s].ty.as_ref(),
        Expr::Field { base, field, .. } => member_type(prog, unit, *base, field),
        Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } => return pointee_may_be_real(prog, unit, *arg),
        _ => None,
    };
    !ty.is_some_and(|t| {
        matches!(
            t.base,
            radtap_il::BaseClass::Integer
                | radtap_il::BaseClass::Logical
                | radtap_il::BaseClass::Character
                | radtap_il::BaseClass::Enum
        )
    })
}

/// The declared type of member `field` of the record `base` designates (`base` a record
/// variable, a pointer to one, or an element of an array of them).
pub(crate) fn member_type<'p>(
    prog: &'p Program,
    unit: UnitId,
    base: ExprId,
    field: &str,
) -> Option<&'p radtap_il::Type> {
    let u = &prog.units[unit];
    let root = match &u.exprs[strip_parens(prog, unit, base)] {
        Expr::Name(s) => *s,
        Expr::Index { base, .. } => match &u.exprs[strip_parens(prog, unit, *base)] {
            Expr::Name(s) => *s,
            _ => return None,
        },
        Expr::Field {
            base: inner,
            field: f,
            ..
        } => {
            let t = member_type(prog, unit, *inner, f)?;
            return record_member(prog, t, field);
        }
        _ => return None,
    };
    record_member(prog, prog.symbols[root].ty.as_ref()?, field)
}

fn record_member<'p>(
    prog: &'p Program,
    t: &radtap_il::Type,
    field: &str,
) -> Option<&'p radtap_il::Type> {
    let radtap_il::BaseClass::Record(td) = t.base else {
        return None;
    };
    prog.typedefs[td].fields.iter().find_map(|f| match f {
        radtap_il::Decl::Var(v) => v
            .entities
            .iter()
            .find(|x| prog.symbols[x.sym].spelling == field)
            .and_then(|x| prog.symbols[x.sym].ty.as_ref()),
        _ => None,
    })
}

/// Objects whose address is taken (`&v`, or an array converted to a pointer).
fn address_taken(prog: &Program, unit: UnitId, pz: &ProcZones) -> Vec<ObjKey> {
    let u = &prog.units[unit];
    let mut v = Vec::new();
    for (_, e) in u.exprs.iter() {
        if let Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } = e
        {
            if let Some(s) = base_symbol(prog, unit, *arg) {
                v.push(ObjKey::Sym(s));
            }
        }
    }
    for (k, _) in pz.objects.iter() {
        if let ObjKey::Sym(s) = k {
            if prog.symbols[*s].attrs.target {
                v.push(*k);
            }
        }
    }
    v.sort();
    v.dedup();
    v
}

/// Targets of a pointer-valued expression, given the current points-to sets.
pub(crate) fn targets(
    prog: &Program,
    unit: UnitId,
    e: ExprId,
    pts: &BTreeMap<SymbolId, Vec<ObjKey>>,
) -> Targets {
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } => object_targets(prog, unit, *arg, pts),
        Expr::Name(s) => {
            if is_pointer(prog, *s) {
                Targets::Objs(pts.get(s).cloned().unwrap_or_default())
            } else {
                // An array converted to a pointer, or a Fortran `p => t` target.
                Targets::Objs(vec![ObjKey::Sym(*s)])
            }
        }
        Expr::Index { base, .. } => match &u.exprs[*base] {
            // Fortran `p => a(1:n)`.
            Expr::Name(s) if !is_pointer(prog, *s) => Targets::Objs(vec![ObjKey::Sym(*s)]),
            _ => Targets::Unknown,
        },
        Expr::Binary {
            op: BinOp::Add | BinOp::Sub,
            lhs,
            rhs,
        } => {
            let l = targets(prog, unit, *lhs, pts);
            if l != Targets::Objs(Vec::new()) {
                l
            } else {
                targets(prog, unit, *rhs, pts)
            }
        }
        Expr::Paren(a) | Expr::Cast { arg: a, .. } => targets(prog, unit, *a, pts),
        // An array member converted to its address (`step(s.y)`, `f(p->y)`): inside the
        // record. It was unknown, so a call through it was taken to reach every global and
        // pointee but not `s` itself: its snapshot recorded the wrong memory.
        Expr::Field { base, field, arrow } if array_member(prog, unit, *base, field, *arrow) => {
            if *arrow {
                targets(prog, unit, *base, pts)
            } else {
                base_or_unknown(prog, unit, e)
            }
        }
        Expr::Literal(_) => Targets::Objs(Vec::new()),
        Expr::Call { callee, .. } => match &u.exprs[*callee] {
            Expr::Name(s) if prog.name(*s).eq_ignore_ascii_case("null") => {
                Targets::Objs(Vec::new())
            }
            _ => Targets::Unknown,
        },
        Expr::Opaque(t) if t == "NULL" => Targets::Objs(Vec::new()),
        Expr::Cond { then, else_, .. } => {
            match (
                targets(prog, unit, *then, pts),
                targets(prog, unit, *else_, pts),
            ) {
                (Targets::Objs(mut a), Targets::Objs(b)) => {
                    a.extend(b);
                    Targets::Objs(a)
                }
                _ => Targets::Unknown,
            }
        }
        _ => Targets::Unknown,
    }
}

/// The objects a C lvalue `e` lies in (what `&e` points to). Parentheses are seen through
/// at every level: `&(g[1])`, `&((p)[i])`, `&(*p)`.
fn object_targets(
    prog: &Program,
    unit: UnitId,
    e: ExprId,
    pts: &BTreeMap<SymbolId, Vec<ObjKey>>,
) -> Targets {
    let u = &prog.units[unit];
    match &u.exprs[strip_parens(prog, unit, e)] {
        // `&*p`: p's targets.
        Expr::Unary {
            op: UnOp::Deref,
            arg: inner,
        } => targets(prog, unit, *inner, pts),
        // `&p[i]`, `&(p + 1)[0]`, `&((double *)q)[i]`: the targets of the pointer value.
        Expr::Index { base, .. } if is_pointer_base(prog, unit, *base) => {
            targets(prog, unit, *base, pts)
        }
        // `&p->x`: in what p points to.
        Expr::Field {
            base, arrow: true, ..
        } => targets(prog, unit, *base, pts),
        _ => base_or_unknown(prog, unit, e),
    }
}

fn base_or_unknown(prog: &Program, unit: UnitId, e: ExprId) -> Targets {
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Name(s) => Targets::Objs(vec![ObjKey::Sym(*s)]),
        // An element of an element of a pointer (`&pp[i][j]`): not in `pp` itself.
        Expr::Index { base, .. } if is_pointer_base(prog, unit, *base) => Targets::Unknown,
        Expr::Index { base, .. }
        | Expr::Field {
            base, arrow: false, ..
        } => base_or_unknown(prog, unit, *base),
        Expr::Paren(a) => base_or_unknown(prog, unit, *a),
        _ => Targets::Unknown,
    }
}

/// Whether `base.field` (`base->field` when `arrow`) is a C array member of a record, `base`
/// a variable of the record type (a pointer to it when `arrow`).
fn array_member(prog: &Program, unit: UnitId, base: ExprId, field: &str, arrow: bool) -> bool {
    let u = &prog.units[unit];
    let Expr::Name(b) = u.exprs[strip_parens(prog, unit, base)] else {
        return false;
    };
    let Some(t) = prog.symbols[b].ty.as_ref() else {
        return false;
    };
    let radtap_il::BaseClass::Record(td) = t.base else {
        return false;
    };
    if u.lang != radtap_il::Lang::C || t.pointers != u32::from(arrow) || !t.dims.is_empty() {
        return false;
    }
    prog.typedefs[td].fields.iter().any(|f| match f {
        radtap_il::Decl::Var(v) => v.entities.iter().any(|x| {
            prog.symbols[x.sym].spelling == field
                && prog.symbols[x.sym]
                    .ty
                    .as_ref()
                    .is_some_and(|ft| ft.pointers == 0 && !ft.dims.is_empty())
        }),
        _ => false,
    })
}
