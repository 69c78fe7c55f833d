//! The head's independents and dependents that are not arguments (COMMON members, module
//! variables, C globals), described for the driver: where each lives and its elements.

use super::args::*;
use super::shapes::*;
use super::sizes::*;
use radtap_il::*;
use std::collections::HashMap;

/// The head's independents and dependents that are not arguments: COMMON members, module
/// variables, C globals. Each must be a real(8)/double the driver can reach; anything else
/// is an error naming it (the driver must never leave an independent unfilled).
pub(super) fn describe_globals(
    p: &Program,
    iface: &radtap_diff_tangent::Interface,
    head_name: &str,
    env: &HashMap<String, i64>,
    fresh: &mut dyn FnMut(String) -> String,
    in_list: &dyn Fn(&[String], &str) -> bool,
    value_of: &dyn Fn(&str) -> Option<String>,
) -> Result<(Vec<RealArg>, Vec<CommonBlock>), String> {
    let hu = &p.units[iface.head];
    let c = hu.lang == Lang::C;
    let base = |n: &str| -> String {
        let n = n.trim_start_matches('*');
        let n = n.split(['%', '.', '(', '[']).next().unwrap_or(n);
        n.to_ascii_lowercase()
    };
    let params: Vec<String> = hu
        .params
        .iter()
        .map(|&s| p.symbols[s].spelling.to_ascii_lowercase())
        .collect();
    let mut names: Vec<String> = Vec::new();
    for n in iface.independents.iter().chain(&iface.dependents) {
        let b = base(n);
        if !b.is_empty()
            && !names.contains(&b)
            && !params.contains(&b)
            && b != head_name.to_ascii_lowercase()
        {
            names.push(b);
        }
    }
    let unit_of = |scope: ScopeId| p.units.iter().find(|(_, u)| u.scope == scope).map(|x| x.0);
    let spelled = |s: SymbolId, n: &str| p.symbols[s].spelling.eq_ignore_ascii_case(n);
    // COMMON blocks of the head: (key, entities in order).
    let mut blocks: Vec<(Option<SymbolId>, Vec<SymbolId>)> = Vec::new();
    for d in &hu.decls {
        if let Decl::Common(bs) = d {
            for (b, ents) in bs {
                let key =
                    |x: &Option<SymbolId>| x.map(|s| p.symbols[s].spelling.to_ascii_lowercase());
                match blocks.iter_mut().find(|(k, _)| key(k) == key(b)) {
                    Some(e) => e.1.extend(ents.iter().map(|e| e.sym)),
                    None => blocks.push((*b, ents.iter().map(|e| e.sym).collect())),
                }
            }
        }
    }
    let extents_of = |s: SymbolId, u: UnitId| -> Result<Vec<(i64, i64)>, String> {
        let ty = p.symbols[s].ty.as_ref().ok_or("no type")?;
        let mut v = Vec::new();
        for (k, d) in ty.dims.iter().enumerate() {
            v.push(dim_ext(p, u, d, c, env).ok_or_else(|| {
                format!(
                    "the extent of dimension {} of `{}` is not a constant",
                    k + 1,
                    p.symbols[s].spelling
                )
            })?);
        }
        Ok(v)
    };
    let mut globals = Vec::new();
    let mut commons: Vec<CommonBlock> = Vec::new();
    for n in names {
        let what = if in_list(&iface.independents, &n) {
            "independent"
        } else {
            "dependent"
        };
        let cant = |why: &str| {
            format!("the {what} `{n}` of `{head_name}` is {why}: validate cannot fill it")
        };
        let common = (!c)
            .then(|| {
                blocks.iter().enumerate().find_map(|(bi, (_, ms))| {
                    ms.iter().position(|&m| spelled(m, &n)).map(|mi| (bi, mi))
                })
            })
            .flatten();
        let global = iface.globals.iter().find(|(s, _)| spelled(*s, &n));
        let (sym, unit, home, name, deriv) = match (common, global) {
            (Some((bi, mi)), _) => {
                let (blk, members) = &blocks[bi];
                let key = blk.map(|s| p.symbols[s].spelling.to_ascii_lowercase());
                let shown = key.clone().unwrap_or_default();
                let dblock = iface
                    .commons
                    .iter()
                    .find(|(b, _)| *b == key)
                    .map(|x| x.1.clone())
                    .ok_or_else(|| {
                        cant(&format!(
                            "in COMMON /{shown}/, which has no derivative block"
                        ))
                    })?;
                let di = match commons.iter().position(|cb| cb.block == key) {
                    Some(i) => i,
                    None => {
                        let mut ms = Vec::new();
                        for (j, &m) in members.iter().enumerate() {
                            let ty = p.symbols[m].ty.as_ref().ok_or_else(|| cant("untyped"))?;
                            let b = ty.bytes.ok_or_else(|| {
                                cant(&format!(
                                    "in COMMON /{shown}/ beside `{}`, whose size is unknown",
                                    p.symbols[m].spelling
                                ))
                            })?;
                            let t = match ty.base {
                                BaseClass::Integer => format!("integer({b})"),
                                BaseClass::Real => format!("real({b})"),
                                BaseClass::Logical => format!("logical({b})"),
                                BaseClass::Complex => format!("complex({})", b / 2),
                                _ => {
                                    return Err(cant(&format!(
                                        "in COMMON /{shown}/ beside `{}`, whose type the driver cannot declare",
                                        p.symbols[m].spelling
                                    )))
                                }
                            };
                            let ext = extents_of(m, iface.head).map_err(|e| cant(&e))?;
                            let dims = if ext.is_empty() {
                                String::new()
                            } else {
                                let d: Vec<String> =
                                    ext.iter().map(|(lo, hi)| format!("{lo}:{hi}")).collect();
                                format!("({})", d.join(","))
                            };
                            let nm = fresh(format!("rc{}_{j}", commons.len() + 1));
                            let dn = fresh(format!("{nm}d"));
                            ms.push((t, dims, nm, dn));
                        }
                        commons.push(CommonBlock {
                            block: key.clone(),
                            dblock,
                            members: ms,
                        });
                        commons.len() - 1
                    }
                };
                let (_, _, nm, dn) = commons[di].members[mi].clone();
                (members[mi], iface.head, GlobalHome::Common, nm, dn)
            }
            (None, Some(&(s, d))) => {
                let u = unit_of(p.symbols[s].scope)
                    .ok_or_else(|| cant("declared nowhere the driver can see"))?;
                if c && p.symbols[s].attrs.constant && what == "independent" {
                    // Differences would need writing it: undefined behaviour in C.
                    return Err(cant(
                        "a `const` global, which the program never lets change",
                    ));
                }
                if c {
                    (
                        s,
                        u,
                        GlobalHome::C,
                        p.symbols[s].spelling.clone(),
                        p.symbols[d].spelling.clone(),
                    )
                } else {
                    // The derivative module declaring `d` (the symbol lives in the primal
                    // module's scope).
                    let declares = |u: &UnitData| {
                        u.decls.iter().any(
                            |x| matches!(x, Decl::Var(v) if v.entities.iter().any(|e| e.sym == d)),
                        )
                    };
                    let du = p
                        .units
                        .iter()
                        .find(|(_, u)| u.kind == UnitKind::Module && declares(u))
                        .map(|x| x.0)
                        .ok_or_else(|| cant("without a derivative module"))?;
                    let mname = |u: UnitId| {
                        p.units[u]
                            .name
                            .map(|x| p.symbols[x].spelling.clone())
                            .unwrap_or_default()
                    };
                    let home = GlobalHome::Module {
                        module: mname(u),
                        var: p.symbols[s].spelling.clone(),
                        dmodule: mname(du),
                        dvar: p.symbols[d].spelling.clone(),
                    };
                    let nm = fresh(format!("rg_{n}"));
                    let dn = fresh(format!("rg_{n}d"));
                    (s, u, home, nm, dn)
                }
            }
            (None, None) => {
                return Err(cant(
                    "neither an argument nor a COMMON, module or global variable with a derivative",
                ))
            }
        };
        let ty = p.symbols[sym].ty.as_ref().ok_or_else(|| cant("untyped"))?;
        if ty.base != BaseClass::Real || ty.pointers > 0 {
            return Err(cant("not a real variable"));
        }
        if ty.bytes.is_some_and(|b| b != 8) {
            return Err(cant(
                "single precision (the driver fills real(8)/double only)",
            ));
        }
        let extents = extents_of(sym, unit).map_err(|e| cant(&e))?;
        let count = cartesian(&extents, c).len();
        globals.push(RealArg {
            zero_in: false,
            label: p.symbols[sym].spelling.clone(),
            name,
            deriv: Some(deriv),
            elems: cartesian(&extents, c),
            extents,
            record: None,
            c_pointer: false,
            assumed_shape: false,
            indep: in_list(&iface.independents, &n),
            dep: in_list(&iface.dependents, &n),
            home: Some(home),
            value: match value_of(&n) {
                Some(v) => Some(value_list(&n, &v, count)?),
                None => None,
            },
            passive: Vec::new(),
        });
    }
    Ok((globals, commons))
}
