//! Dumps of the IL.
//!
//! [`structural`] writes every unit as a tree in which each id is replaced by what it names
//! (expressions and statements expanded in place, symbols by name and kind), so it does not
//! depend on arena order or spans: two programs are equal ignoring spans exactly when their
//! structural dumps are equal. Tests use it for `parse(unparse(IL)) == IL`.

use crate::ir::*;
use std::fmt::Write;

/// A span- and arena-order-independent text of the whole program.
pub fn structural(p: &Program) -> String {
    let mut out = String::new();
    for f in &p.files {
        let _ = writeln!(out, "file {:?}", f.lang);
        for it in &f.items {
            match it {
                FileItem::Comment(c) => {
                    let _ = writeln!(out, "  comment {c:?}");
                }
                FileItem::Unit(u) => unit(p, *u, 1, &mut out),
            }
        }
    }
    out
}

fn unit(p: &Program, uid: UnitId, depth: usize, out: &mut String) {
    let u = &p.units[uid];
    let pad = "  ".repeat(depth);
    let header = format!(
        "unit {:?} name={:?} params={:?} result={:?}/{} header={:?} ret={:?} attrs={:?} dirs={:?} empty_parens={} cparams={:?} variadic={} void={} trailing={:?}",
        u.kind,
        u.name.map(|n| p.name(n)),
        u.params.iter().map(|&s| p.name(s)).collect::<Vec<_>>(),
        u.result.map(|n| p.name(n)),
        u.explicit_result,
        u.header_type,
        u.ret_derived,
        u.attrs,
        u.directives,
        u.empty_parens,
        u.c_params,
        u.c_variadic,
        u.c_void_params,
        u.trailing_comments,
    );
    let _ = writeln!(out, "{pad}{}", expand(p, uid, &header));
    for d in &u.decls {
        let _ = writeln!(out, "{pad}  decl {}", expand(p, uid, &format!("{d:?}")));
        match d {
            Decl::Unit(c) => unit(p, *c, depth + 2, out),
            Decl::Interface(i) => i.bodies.iter().for_each(|&b| unit(p, b, depth + 2, out)),
            _ => {}
        }
    }
    for &s in &u.body {
        let _ = writeln!(
            out,
            "{pad}  stmt {}",
            expand(p, uid, &format!("{:?}", u.stmts[s]))
        );
    }
    for &c in &u.contains {
        unit(p, c, depth + 1, out);
    }
}

/// Replaces `Expr#n`, `Stmt#n`, `SymbolData#n`, `TypeDefData#n`, `ScopeData#n` and
/// `UnitData#n` in a Debug text by what they name.
fn expand(p: &Program, uid: UnitId, s: &str) -> String {
    expand_in(p, uid, s, 0)
}

fn expand_in(p: &Program, uid: UnitId, s: &str, types: u32) -> String {
    let u = &p.units[uid];
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    const TAGS: [&str; 6] = [
        "Expr#",
        "Stmt#",
        "SymbolData#",
        "TypeDefData#",
        "ScopeData#",
        "UnitData#",
    ];
    loop {
        let next = TAGS
            .iter()
            .filter_map(|t| rest.find(t).map(|i| (i, *t)))
            .min_by_key(|(i, _)| *i);
        let Some((i, tag)) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..i]);
        let after = &rest[i + tag.len()..];
        let digits = after.chars().take_while(|c| c.is_ascii_digit()).count();
        let n: u32 = after[..digits].parse().unwrap_or(0);
        rest = &after[digits..];
        match tag {
            "Expr#" => {
                let id = ExprId::from_raw(n);
                if u.exprs.contains(id) {
                    out.push_str(&expand_in(p, uid, &format!("{:?}", u.exprs[id]), types));
                }
            }
            "Stmt#" => {
                let id = StmtId::from_raw(n);
                if u.stmts.contains(id) {
                    out.push_str(&expand_in(p, uid, &format!("{:?}", u.stmts[id]), types));
                }
            }
            "SymbolData#" => {
                let id = SymbolId::from_raw(n);
                if p.symbols.contains(id) {
                    let sd = &p.symbols[id];
                    let _ = write!(out, "`{}`:{:?}", sd.spelling, sd.kind);
                }
            }
            "TypeDefData#" => {
                let id = TypeDefId::from_raw(n);
                if p.typedefs.contains(id) {
                    let td = &p.typedefs[id];
                    // Fields once: a record's own fields may name it (`struct node *next`).
                    let fields = if types == 0 {
                        expand_in(p, td.unit, &format!("{:?}", td.fields), types + 1)
                    } else {
                        String::new()
                    };
                    let _ = write!(
                        out,
                        "type[{:?} {:?} {:?} {fields}]",
                        td.kind, td.name, td.attrs
                    );
                }
            }
            "UnitData#" => {
                let id = UnitId::from_raw(n);
                if p.units.contains(id) {
                    let _ = write!(out, "unit[{:?}]", p.units[id].name.map(|s| p.name(s)));
                }
            }
            _ => out.push_str("scope"),
        }
    }
}
