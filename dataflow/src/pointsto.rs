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
