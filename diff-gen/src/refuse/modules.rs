//! Module privacy a derivative module cannot see past: private procedures and components
//! of foreign modules reached from a derivative.

use super::names::*;
use radtap_il::visit::{expr_children, stmt_children};
use radtap_il::*;

/// Entities PRIVATE to the module holding procedure `p` (a private procedure that is not
/// differentiated, a private variable or constant) referenced by `p`: its derivative is
/// placed in the derivative module, outside the module, where those names cannot be reached
/// (the output would not compile). Refused at the statement until they are copied beside
/// the derivative.
pub(crate) fn private_of_module(prog: &Program, p: UnitId, active: &[UnitId]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let u = &prog.units[p];
    let Some(m) = u.parent.filter(|&m| prog.units[m].kind == UnitKind::Module) else {
        return out;
    };
    let mscope = prog.units[m].scope;
    let msc = &prog.scopes[mscope];
    // A PRIVATE derived type of the module that a variable of `p` has: the derivative module
    // declares variables of it (`type(pair_t) :: p` in `f_d`) but cannot see it (the output
    // did not compile). A copy would be another type.
    let hidden_type = prog.scopes[u.scope].order.iter().find_map(|&x| {
        let BaseClass::Record(td) = prog.symbols[x].ty.as_ref()?.base else {
            return None;
        };
        let name = prog.record_type_name(td)?;
        let t = prog.lookup_local_chain(mscope, &name.to_ascii_lowercase())?;
        let sd = &prog.symbols[t];
        let hidden = sd.attrs.private || (msc.default_private && !sd.attrs.public);
        (sd.scope == mscope && sd.kind == SymbolKind::Type && hidden && prog.typedefs[td].unit == m)
            .then_some(name)
    });
    if let Some(name) = hidden_type {
        let sp = u.source_map.header.unwrap_or_default();
        let msg = format!(
            "the derived type `{name}` is PRIVATE to module `{}`, out of reach of the derivative module that declares its variables: differentiating procedures with variables of a private type is not supported yet (make `{name}` PUBLIC)",
            crate::generator::unit_name(prog, m),
        );
        out.push(Diagnostic::error(Code::Unsupported, sp, &msg));
        return out;
    }
    for (s, st) in u.stmts.iter() {
        let mut exprs = Vec::new();
        stmt_children(&st.kind, &mut |e| exprs.push(e), &mut |_| {});
        let mut hit = None;
        // Named constants and procedures without state are copied into the derivative
        // module (`private_copy`); what they reach must be copyable too.
        for e in exprs {
            hit = names_in(u, e).into_iter().find_map(|n| {
                let sd = &prog.symbols[n];
                let hidden = sd.attrs.private || (msc.default_private && !sd.attrs.public);
                if sd.scope != mscope || !hidden || sd.unit.is_some_and(|q| active.contains(&q)) {
                    return None;
                }
                crate::private_copy::needed_from(prog, m, vec![n], active)
                    .err()
                    .map(|b| (n, b))
            });
            if hit.is_some() {
                break;
            }
        }
        if hit.is_none() {
            if let Some(f) = private_component_in(prog, m, u, &st.kind) {
                let sp = u.source_map.stmt.get(s).copied().unwrap_or_default();
                let msg = format!(
                    "component `{f}` is PRIVATE to its type in module `{}`, out of reach of the derivative module; referring to private components from differentiated procedures is not supported yet (make `{f}` PUBLIC)",
                    crate::generator::unit_name(prog, m),
                );
                out.push(Diagnostic::error(Code::Unsupported, sp, &msg));
                continue;
            }
        }
        if let Some((n, b)) = hit {
            let sp = u.source_map.stmt.get(s).copied().unwrap_or_default();
            let through = if n == b {
                String::new()
            } else {
                format!(" (through `{}`)", prog.symbols[n].spelling)
            };
            let what = if prog.symbols[b].kind == SymbolKind::Procedure {
                "a private procedure keeping state between calls (SAVE, DATA, initialised locals) cannot be copied into the derivative module"
            } else {
                "a private module variable cannot be copied into the derivative module"
            };
            let msg = format!(
                "`{}` is PRIVATE to module `{}`{through}, out of reach of the derivative module; {what}: referring to it from differentiated procedures is not supported yet (make `{}` PUBLIC)",
                prog.symbols[b].spelling,
                crate::generator::unit_name(prog, m),
                prog.symbols[b].spelling
            );
            out.push(Diagnostic::error(Code::Unsupported, sp, &msg));
        }
    }
    out
}

/// A component named in statement `k` of `u` that some derived type of module `m` declares
/// PRIVATE (by attribute, or by a `private` statement in the type without `public`). By name:
/// a component of another type with the same name is taken for it (refused, never wrong).
pub(crate) fn private_component_in(
    prog: &Program,
    m: UnitId,
    u: &UnitData,
    k: &StmtKind,
) -> Option<String> {
    let mut private = Vec::new();
    for (_, td) in prog.typedefs.iter() {
        if td.unit != m {
            continue;
        }
        let all = td
            .fields
            .iter()
            .any(|d| matches!(d, Decl::Verbatim(v) if v == "private"));
        for d in &td.fields {
            let Decl::Var(v) = d else { continue };
            for e in &v.entities {
                let a = &prog.symbols[e.sym].attrs;
                if a.private || (all && !a.public) {
                    private.push(prog.symbols[e.sym].spelling.to_ascii_lowercase());
                }
            }
        }
    }
    if private.is_empty() {
        return None;
    }
    let mut exprs = Vec::new();
    stmt_children(k, &mut |e| exprs.push(e), &mut |_| {});
    let mut todo = exprs;
    while let Some(e) = todo.pop() {
        if let Expr::Field { field, .. } = &u.exprs[e] {
            if private.contains(&field.to_ascii_lowercase()) {
                return Some(field.clone());
            }
        }
        expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    None
}
