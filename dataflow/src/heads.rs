//! A head's independents and dependents resolved to zones of its zone space (`x`, `s%f`,
//! `p->x`), with the warnings (AD060) for a name that designates nothing differentiable, is
//! not found, or names an array only part of which may be meant.

use crate::info::*;
use crate::opaque;
use crate::zones::{self, ObjKey};
use crate::zoneset::ZoneSet;
use radtap_il::{Code, Diagnostic, Program, SymbolId, UnitId};

/// Zones named by `name` (`x`, `s%f`, `p->x`) in the head's zone space.
fn zones_of_name(prog: &Program, info: &ProcInfo, head: UnitId, name: &str) -> Option<ZoneSet> {
    let u = &prog.units[head];
    let lang = u.lang;
    let base = name.split(['(', '%', '.', '[', '-']).next().unwrap_or(name);
    let key = if lang == radtap_il::Lang::Fortran {
        base.to_ascii_lowercase()
    } else {
        base.to_string()
    };
    let sym: SymbolId = prog.lookup(u.scope, &key).or_else(|| {
        // A function's name stands for its result.
        u.result
            .filter(|r| prog.name(*r).eq_ignore_ascii_case(base))
    })?;
    let sym = if prog.symbols[sym].kind == radtap_il::SymbolKind::Procedure {
        u.result?
    } else {
        sym
    };
    let pz = &info.zones;
    let key = if zones::is_pointer(prog, sym) && pz.objects.contains_key(&ObjKey::Pointee(sym)) {
        ObjKey::Pointee(sym)
    } else {
        ObjKey::Sym(sym)
    };
    let o = pz.objects.get(&key)?;
    // A field path selects the zones whose printed name starts with it.
    let mut set = pz.obj_set(o);
    if name.len() > base.len() && name.contains(['%', '.']) {
        let want = name.replace(' ', "").to_ascii_lowercase();
        let narrowed: ZoneSet = set
            .iter()
            .filter(|z| {
                let zn = pz.zones[z.index()].name.to_ascii_lowercase();
                zn == want
                    || zn.starts_with(&format!("{want}%"))
                    || zn.starts_with(&format!("{want}."))
            })
            .collect();
        if !narrowed.is_empty() {
            set = narrowed;
        }
    }
    Some(set)
}

pub(crate) fn resolve_head(
    prog: &Program,
    info: &ProcInfo,
    r: &Request,
    diags: &mut Vec<Diagnostic>,
) -> HeadInfo {
    let pz = &info.zones;
    let iface = interface(pz);
    let pick = |names: &[String], default: &ZoneSet| -> Vec<(String, ZoneSet)> {
        if names.is_empty() {
            default
                .iter()
                .map(|z| {
                    let mut s = pz.empty();
                    s.insert(z);
                    (pz.zones[z.index()].name.clone(), s)
                })
                .collect()
        } else {
            // Only zones of a differentiable type can be independent or dependent.
            names
                .iter()
                .filter_map(|n| {
                    zones_of_name(prog, info, r.head, n)
                        .map(|s| (n.clone(), s.and(&pz.differentiable)))
                })
                .collect()
        }
    };
    let mut dflt_in = info.summary.reads.and(&pz.differentiable);
    dflt_in.intersect_with(&iface);
    // An INTENT(OUT) argument is undefined on entry: never an independent by default.
    for p in &pz.params {
        if prog.symbols[*p].attrs.intent == Some(radtap_il::Intent::Out) {
            if let Some(o) = pz.objects.get(&ObjKey::Sym(*p)) {
                dflt_in.subtract(&pz.obj_set(o));
            }
        }
    }
    // A C `const` global is a constant of the program: an independent only when named.
    for (k, o) in &pz.objects {
        if let ObjKey::Sym(sym) = k {
            if o.start >= pz.global_base && prog.symbols[*sym].attrs.constant {
                dflt_in.subtract(&pz.obj_set(o));
            }
        }
    }
    let mut dflt_out = info.summary.writes.and(&pz.differentiable);
    dflt_out.intersect_with(&iface);
    if prog.units[r.head].lang == radtap_il::Lang::C {
        // A C argument passed by value is a copy: writing it is invisible to the caller.
        for p in &pz.params {
            let by_value = prog.symbols[*p]
                .ty
                .as_ref()
                .is_none_or(|t| t.pointers == 0 && t.dims.is_empty());
            if let (true, Some(o)) = (by_value, pz.objects.get(&ObjKey::Sym(*p))) {
                dflt_out.subtract(&pz.obj_set(o));
            }
        }
    }
    // A procedure's SAVE local (CloverLeaf's `real(8) :: one_by_six = 1.0_8/6.0_8`, a C
    // `static` local) is out of the caller's reach: no default independent or dependent
    // (`radtap validate` refused the head: "neither an argument nor a global").
    for (k, o) in &pz.objects {
        if let ObjKey::Sym(sym) = k {
            let sd = &prog.symbols[*sym];
            let local = !sd.attrs.dummy
                && sd.common.is_none()
                && zones::unit_of_scope(prog, sd.scope).is_some_and(|u| {
                    matches!(
                        prog.units[u].kind,
                        radtap_il::UnitKind::Subroutine | radtap_il::UnitKind::Function
                    )
                });
            if o.start >= pz.global_base && local {
                dflt_in.subtract(&pz.obj_set(o));
                dflt_out.subtract(&pz.obj_set(o));
            }
        }
    }
    let named: Vec<String> = r.vars.iter().chain(&r.outvars).cloned().collect();
    diags.extend(opaque::refusals(prog, r.head, &named));
    let independents = pick(&r.vars, &dflt_in);
    let dependents = pick(&r.outvars, &dflt_out);
    let head_name = prog.units[r.head]
        .name
        .map(|n| prog.name(n).to_string())
        .unwrap_or_default();
    let dd = &info.summary.diff_dep;
    let default_independents = r.vars.is_empty();
    let mut boundary_active = pz.empty();
    for (n, zs) in &independents {
        for z in zs.iter() {
            if dependents
                .iter()
                .any(|(_, ds)| ds.iter().any(|t| dd.row(t).contains(z)))
            {
                boundary_active.insert(z);
            }
        }
        if !zs.intersects(&boundary_active) {
            let keep = if r.fixinterface {
                "kept because of -fixinterface"
            } else if array_like(prog, r.head, n) {
                ARRAY_KEPT
            } else {
                "it gets no derivative argument"
            };
            diags.push(warning(format!(
                "independent `{n}` of `{head_name}` has no differentiable influence on any dependent; {keep}"
            )));
        }
    }
    for (n, ds) in &dependents {
        let mut depends = false;
        for t in ds.iter() {
            if independents.iter().any(|(_, zs)| dd.row(t).intersects(zs)) {
                boundary_active.insert(t);
                depends = true;
            }
        }
        if !depends {
            let keep = if r.fixinterface {
                "kept because of -fixinterface"
            } else if default_independents {
                "its derivative argument is kept and set to zero, as Tapenade does when the independents are not named"
            } else if array_like(prog, r.head, n) {
                ARRAY_KEPT
            } else {
                "it gets no derivative argument"
            };
            diags.push(warning(format!(
                "dependent `{n}` of `{head_name}` does not depend differentiably on any independent; {keep}"
            )));
        }
    }
    HeadInfo {
        head: r.head,
        independents,
        dependents,
        fixinterface: r.fixinterface,
        boundary_active,
        default_independents,
    }
}

/// What AD060 says of an array or pointer argument that is not active on the head's boundary.
const ARRAY_KEPT: &str =
    "it keeps a derivative argument only if it is active inside, as scratch (Tapenade's `(loc)`)";

/// Whether `name` (as `-vars`/`-outvars` give it) is an array or pointer of `head`: such an
/// argument keeps its derivative argument when it is active inside the head.
fn array_like(prog: &Program, head: UnitId, name: &str) -> bool {
    let base = name
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .find(|w| !w.is_empty())
        .unwrap_or(name);
    let u = &prog.units[head];
    prog.lookup(u.scope, base).is_some_and(|s| {
        let sd = &prog.symbols[s];
        sd.attrs.pointer
            || sd.attrs.allocatable
            || sd
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers > 0 || !t.dims.is_empty())
    })
}

fn warning(msg: String) -> Diagnostic {
    let mut d = Diagnostic::global(Code::NoInfluence, msg);
    d.severity = radtap_il::Severity::Warning;
    d
}
