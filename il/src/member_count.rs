//! The element count of a C record's pointer member from the record's own integer members
//! (ADBench's `Matrix`: `data` holds at least `nrows * ncols` doubles), proven over the
//! whole program: what the adjoint needs to record a member block that helpers allocate,
//! resize and free (`resize`, `copy`), whose count no single allocation gives.
//!
//! [`member_count`] walks every C procedure that writes the pointer member or one of the
//! integer members of a record of the type, with a symbolic state per record it names
//! (`mat`, `dst`, `result[i]`): the known values of the integer members and a lower bound
//! of the block's count (`malloc(ncols * nrows * sizeof(double))`: at least `ncols *
//! nrows`; `NULL`: zero), as products of atoms (parameters and other expressions the
//! procedure never assigns, other records' members). Branch conditions give facts on
//! their arms (`mat->nrows * mat->ncols != nrows * ncols` false: the two products are
//! equal; `nrows * ncols > 0` false: the product is not positive). The invariant "count of
//! the block >= product of the members" must hold wherever another procedure could see the
//! record: at every call to a procedure of the program, at every return, and after a
//! loop's iteration, unless the record is freed before the procedure returns
//! (`delete_light_matrix_array`). A record allocated in the procedure (`mat =
//! malloc(sizeof(Matrix))`) starts with garbage; an array of them (`result =
//! malloc(count * sizeof(Matrix))`) must be set whole by a loop `for (i = 0; i < count;
//! i++)` over `result[i]`. Anything else touching the members (their address taken,
//! `++`, a member write the walk does not place, `memcpy`/`memset` of a record) and the
//! type is not proven.

use crate::*;
use std::collections::{BTreeMap, HashSet};

mod callers;
mod state;
mod walk;

pub use callers::{allocated_in_program, count_from_callers};
use state::State;
use walk::Walk;

/// The integer members of record type `td` whose product bounds the element count of the
/// block its pointer member `field` designates, in every record of the program wherever a
/// procedure can see it (see the module documentation); `None` when not proven.
pub fn member_count(prog: &Program, td: TypeDefId, field: &str) -> Option<Vec<String>> {
    let mut ints: Vec<String> = Vec::new();
    let mut elem = None;
    for f in &prog.typedefs[td].fields {
        let Decl::Var(v) = f else { continue };
        for e in &v.entities {
            let t = prog.symbols[e.sym].ty.as_ref()?;
            let name = prog.symbols[e.sym].spelling.clone();
            if name == field {
                if t.pointers != 1 || !t.dims.is_empty() || t.base != BaseClass::Real {
                    return None;
                }
                elem = Some(t.bytes);
            } else if t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty() {
                ints.push(name);
            }
        }
    }
    elem?;
    let mut cands: Vec<Vec<String>> = Vec::new();
    for i in 0..ints.len() {
        for j in i + 1..ints.len() {
            cands.push(vec![ints[i].clone(), ints[j].clone()]);
        }
    }
    cands.extend(ints.iter().map(|a| vec![a.clone()]));
    cands.into_iter().find(|c| holds(prog, td, field, c))
}

fn holds(prog: &Program, td: TypeDefId, field: &str, counts: &[String]) -> bool {
    for (uid, u) in prog.units.iter() {
        if u.lang != Lang::C {
            continue;
        }
        let mut w = Walk {
            prog,
            uid,
            u,
            td,
            field,
            counts,
            assigned: HashSet::new(),
            fresh: BTreeMap::new(),
            ok: true,
            fresh_id: 0,
        };
        if !w.touches() {
            continue;
        }
        w.collect_assigned();
        let mut st = State::default();
        let body = u.body.clone();
        w.block(&body, &mut st);
        w.exit(&st);
        if !w.ok {
            return false;
        }
    }
    true
}

/// Whether every record of type `td` owns the block behind its pointer member `field`: the
/// member is only ever set to a new allocation or `NULL` ([`member_count`] proves it, among
/// the rest), and no record of the type is copied whole (assigned, initialised from another,
/// or passed by value), so two different records never share a block.
pub fn records_own_blocks(prog: &Program, td: TypeDefId, field: &str) -> bool {
    if member_count(prog, td, field).is_none() {
        return false;
    }
    let by_value =
        |t: Option<&Type>| t.is_some_and(|t| t.base == BaseClass::Record(td) && t.pointers == 0);
    for (_, u) in prog.units.iter() {
        if u.params
            .iter()
            .any(|&p| by_value(prog.symbols[p].ty.as_ref()))
        {
            return false;
        }
        let rec_expr = |e: ExprId| rec_value(prog, u, e, td);
        for (_, s) in u.stmts.iter() {
            match &s.kind {
                StmtKind::Assign { lhs, .. } if rec_expr(*lhs) => return false,
                StmtKind::Decl(Decl::Var(v)) => {
                    for e in &v.entities {
                        if by_value(prog.symbols[e.sym].ty.as_ref())
                            && e.dims.as_ref().is_none_or(|d| d.is_empty())
                            && matches!(e.init, Some(Init::Expr(i)) if !matches!(u.exprs[i], Expr::ArrayCtor { .. }))
                        {
                            return false;
                        }
                    }
                }
                _ => {}
            }
        }
        for (_, e) in u.exprs.iter() {
            match e {
                Expr::Assign { lhs, .. } if rec_expr(*lhs) => return false,
                Expr::Call { args, .. } if args.iter().any(|a| rec_expr(a.value)) => return false,
                _ => {}
            }
        }
    }
    true
}

/// Whether `e` designates a whole record of type `td` by value (`m`, `*p`, `a[i]`).
fn rec_value(prog: &Program, u: &UnitData, e: ExprId, td: TypeDefId) -> bool {
    fn levels(prog: &Program, u: &UnitData, e: ExprId) -> Option<(BaseClass, i64)> {
        match &u.exprs[e] {
            Expr::Paren(a) => levels(prog, u, *a),
            Expr::Name(s) => {
                let t = prog.symbols[*s].ty.as_ref()?;
                Some((t.base, t.pointers as i64 + t.dims.len() as i64))
            }
            Expr::Index { base, subs } => {
                let (b, p) = levels(prog, u, *base)?;
                Some((b, p - subs.len() as i64))
            }
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => {
                let (b, p) = levels(prog, u, *arg)?;
                Some((b, p - 1))
            }
            Expr::Field { field, .. } => {
                // A member of record type (`s.m` with `m` a `Matrix`): any record type's
                // member of that name, its type taken (by value, or an array of them).
                prog.typedefs.iter().find_map(|(_, t)| {
                    t.fields.iter().find_map(|d| match d {
                        Decl::Var(v) => v.entities.iter().find_map(|e| {
                            let ft = prog.symbols[e.sym].ty.as_ref()?;
                            (prog.symbols[e.sym].spelling == *field
                                && matches!(ft.base, BaseClass::Record(_)))
                            .then(|| (ft.base, ft.pointers as i64 + ft.dims.len() as i64))
                        }),
                        _ => None,
                    })
                })
            }
            _ => None,
        }
    }
    levels(prog, u, e).is_some_and(|(b, p)| b == BaseClass::Record(td) && p == 0)
}
