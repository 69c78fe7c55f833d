//! Prints the tree-sitter parse tree of a file (Fortran by extension `.f90`/`.f`, else C):
//! a development aid for frontend work.
use std::fmt::Write as _;

fn walk(n: tree_sitter::Node, src: &[u8], depth: usize, field: Option<&str>, out: &mut String) {
    let text = n.utf8_text(src).unwrap_or("");
    let short: String = text.chars().take(40).collect::<String>().replace('\n', "⏎");
    let _ = writeln!(
        out,
        "{}{}{}{} [{}:{}] {:?}",
        "  ".repeat(depth),
        field.map(|f| format!("{f}: ")).unwrap_or_default(),
        if n.is_named() { "" } else { "'" },
        n.kind(),
        n.start_position().row + 1,
        n.start_position().column + 1,
        short
    );
    let mut c = n.walk();
    for (i, ch) in n.children(&mut c).enumerate() {
        let f = n.field_name_for_child(i as u32);
        walk(ch, src, depth + 1, f, out);
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: tsdump FILE");
    let src = std::fs::read_to_string(&path).expect("read");
    let mut p = tree_sitter::Parser::new();
    let lang: tree_sitter::Language = if path.ends_with(".c") || path.ends_with(".h") {
        tree_sitter_c::LANGUAGE.into()
    } else {
        tree_sitter_fortran::LANGUAGE.into()
    };
    p.set_language(&lang).expect("lang");
    let t = p.parse(&src, None).expect("parse");
    let mut out = String::new();
    walk(t.root_node(), src.as_bytes(), 0, None, &mut out);
    print!("{out}");
}
