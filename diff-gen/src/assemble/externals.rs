//! Dummy procedures known only by their calls, declared EXTERNAL in the generated units.
//!
//! FMM's `QUANC8(FUN, …)` declares `DOUBLE PRECISION FUN` and calls `FUN(X)`; RKF45's `FEHL`
//! calls an undeclared `F`: the dummy is a procedure by those calls alone. A derivative unit
//! or a primal copy calls the actual's derivative or copy instead (`il::specialise`), so the
//! dummy would be a variable there, and the caller's `CALL QUANC8_D(SQ, …)` would not
//! compile ("Invalid procedure argument").

use crate::gen::Gen;
use radtap_il::*;
use std::collections::HashSet;

impl Gen<'_> {
    /// Adds `EXTERNAL f` to every Fortran unit of the output (but interface bodies) for each
    /// dummy procedure `f` that no EXTERNAL, interface or PROCEDURE declaration names.
    pub(crate) fn declare_dummy_procedures(&mut self) {
        let out = &self.out;
        let bodies: HashSet<UnitId> = out
            .units
            .iter()
            .flat_map(|(_, u)| u.decls.iter())
            .filter_map(|d| match d {
                Decl::Interface(i) => Some(i.bodies.iter().copied()),
                _ => None,
            })
            .flatten()
            .collect();
        let mut edits = Vec::new();
        for (id, u) in out.units.iter() {
            if u.lang != Lang::Fortran || bodies.contains(&id) {
                continue;
            }
            let items: Vec<AttrItem> = u
                .params
                .iter()
                .copied()
                .filter(|&p| {
                    let sd = &out.symbols[p];
                    sd.kind == SymbolKind::Procedure
                        && sd.attrs.dummy
                        && !sd.attrs.external
                        && !declared(out, u, p)
                })
                .map(|sym| AttrItem {
                    sym,
                    dims: None,
                    common: false,
                })
                .collect();
            if !items.is_empty() {
                edits.push((id, items));
            }
        }
        for (id, items) in edits {
            self.out.units[id].decls.push(Decl::Attr(AttrStmt {
                keyword: "external".into(),
                double_colon: false,
                items,
            }));
        }
    }
}

/// Whether a declaration of `u` says that `s` is a procedure: EXTERNAL (or INTRINSIC), an
/// interface body of its name, or `procedure(…) :: s`.
fn declared(out: &Program, u: &UnitData, s: SymbolId) -> bool {
    let name = &out.symbols[s].spelling;
    u.decls.iter().any(|d| match d {
        Decl::Attr(a) => {
            matches!(a.keyword.as_str(), "external" | "intrinsic")
                && a.items.iter().any(|i| i.sym == s)
        }
        Decl::Var(v) => {
            v.entities.iter().any(|e| e.sym == s)
                && (v.spec.keyword == "procedure"
                    || v.attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "external")))
        }
        Decl::Interface(i) => i.bodies.iter().any(|&b| {
            out.units[b]
                .name
                .is_some_and(|n| out.symbols[n].spelling.eq_ignore_ascii_case(name))
        }),
        _ => false,
    })
}
