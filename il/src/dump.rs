//! Dumps of the IL: `structural` (everything but spans, for equality tests).

use crate::ir::*;
use std::fmt::Write;

/// A text holding every field of the program except source spans: two programs are equal
/// ignoring spans exactly when their structural dumps are equal.
pub fn structural(p: &Program) -> String {
    let mut out = String::new();
    for f in &p.files {
        let _ = writeln!(out, "file {:?} items={:?}", f.lang, f.items);
    }
    for (id, u) in p.units.iter() {
        let _ = writeln!(
            out,
            "unit {id:?} {:?} name={:?} parent={:?} params={:?} result={:?}/{} header={:?} ret={:?} attrs={:?} contains={:?} trailing={:?} dirs={:?} empty_parens={} void={}",
            u.kind,
            u.name.map(|n| p.name(n)),
            u.parent,
            u.params.iter().map(|&s| p.name(s)).collect::<Vec<_>>(),
            u.result.map(|n| p.name(n)),
            u.explicit_result,
            u.header_type,
            u.ret_derived,
            u.attrs,
            u.contains,
            u.trailing_comments,
            u.directives,
            u.empty_parens,
            u.c_void_params
        );
        let _ = writeln!(out, "  cparams {:?} variadic={}", u.c_params, u.c_variadic);
        let _ = writeln!(out, "  decls {:?}", u.decls);
        let _ = writeln!(out, "  body {:?}", u.body);
        for (sid, s) in u.stmts.iter() {
            let _ = writeln!(out, "  {sid:?} {s:?}");
        }
        for (eid, e) in u.exprs.iter() {
            let _ = writeln!(out, "  {eid:?} {e:?}");
        }
    }
    for (sid, s) in p.symbols.iter() {
        let _ = writeln!(
            out,
            "sym {sid:?} {} {:?} scope={:?} ty={:?} attrs={:?} unit={:?} common={:?}",
            s.spelling, s.kind, s.scope, s.ty, s.attrs, s.unit, s.common
        );
    }
    for (tid, t) in p.typedefs.iter() {
        let _ = writeln!(out, "type {tid:?} {t:?}");
    }
    out
}
