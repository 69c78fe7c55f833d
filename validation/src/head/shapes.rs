//! An argument's elements: the extent of each dimension from its declaration and the
//! integer inputs, every index combination in element order, the real leaves of a record
//! type, and how a real's precision is named in a refusal.

use crate::ilvalue::eval;
use radtap_il::*;
use std::collections::{HashMap, HashSet};

/// Every combination of indices of `ext`, as access suffixes.
pub(super) fn cartesian(ext: &[(i64, i64)], c: bool) -> Vec<String> {
    if ext.is_empty() {
        return vec![String::new()];
    }
    let mut out: Vec<Vec<i64>> = vec![Vec::new()];
    for &(lo, hi) in ext {
        out = out
            .into_iter()
            .flat_map(|o| {
                (lo..=hi).map(move |i| {
                    let mut v = o.clone();
                    v.push(i);
                    v
                })
            })
            .collect();
    }
    out.into_iter()
        .map(|ix| {
            if c {
                ix.iter().map(|i| format!("[{i}]")).collect()
            } else {
                let s: Vec<String> = ix.iter().map(i64::to_string).collect();
                format!("({})", s.join(","))
            }
        })
        .collect()
}

/// The real leaves of a record type: `%f`, `%v(2)` / `.f`, `.v[1]`, each with whether the
/// derivative type has it (`active`: the members with a derivative, per type).
pub(super) fn record_leaves(
    p: &Program,
    td: TypeDefId,
    c: bool,
    env: &HashMap<String, i64>,
    active: &HashMap<TypeDefId, HashSet<String>>,
) -> Result<Vec<(String, bool)>, String> {
    let t = &p.typedefs[td];
    let mut out = Vec::new();
    let sep = if c { "." } else { "%" };
    for f in &t.fields {
        let Decl::Var(v) = f else { continue };
        for en in &v.entities {
            let s = &p.symbols[en.sym];
            let Some(ty) = &s.ty else { continue };
            let has = active
                .get(&td)
                .is_some_and(|a| a.iter().any(|x| x.eq_ignore_ascii_case(&s.spelling)));
            match ty.base {
                BaseClass::Real if ty.bytes.is_some_and(|b| b != 8) => {
                    return Err(format!(
                        "component `{}` is {}: the driver fills real(8)/double only, so validate cannot check this head yet",
                        s.spelling,
                        precision_name(ty.bytes)
                    ));
                }
                BaseClass::Real => {
                    let mut ext = Vec::new();
                    for (k, d) in ty.dims.iter().enumerate() {
                        ext.push(dim_ext(p, t.unit, d, c, env).ok_or_else(|| {
                            format!(
                                "the extent of dimension {} of component `{}` is not a constant",
                                k + 1,
                                s.spelling
                            )
                        })?);
                    }
                    for e in cartesian(&ext, c) {
                        out.push((format!("{sep}{}{e}", s.spelling), has));
                    }
                }
                BaseClass::Record(inner) if ty.dims.is_empty() => {
                    for (l, inner_has) in record_leaves(p, inner, c, env, active)? {
                        out.push((format!("{sep}{}{l}", s.spelling), has && inner_has));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// Index range of a declared dimension (C: `0..n-1`).
pub(super) fn dim_ext(
    p: &Program,
    u: UnitId,
    d: &Dim,
    c: bool,
    env: &HashMap<String, i64>,
) -> Option<(i64, i64)> {
    let lo = match d.lower {
        Some(l) => eval(p, u, l, env)?,
        None => i64::from(!c),
    };
    let hi = match d.upper {
        DimUpper::Expr(e) => eval(p, u, e, env)?,
        _ => return None,
    };
    Some(if c { (0, hi - 1) } else { (lo, hi) })
}

/// How a real of `bytes` bytes is named in a refusal.
pub(super) fn precision_name(bytes: Option<u32>) -> &'static str {
    match bytes {
        Some(4) => "single precision",
        Some(10 | 16) => "extended precision (`long double`, `real(10)`, `real(16)`)",
        _ => "not double precision",
    }
}
