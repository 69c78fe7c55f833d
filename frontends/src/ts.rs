//! Small helpers over tree-sitter nodes shared by both frontends.

use radtap_il::{Code, Diagnostic, Span};
use tree_sitter::Node;

/// `Node::child_by_field_name` with the field's id looked up once per language and name:
/// tree-sitter finds a field's id by comparing the name with every field name of the grammar
/// in turn, which at every field access of the lowering was 5% of `-p`.
pub(crate) trait Field<'t> {
    /// The child of this node in the field `name`.
    fn field(&self, name: &'static str) -> Option<Node<'t>>;
}

impl<'t> Field<'t> for Node<'t> {
    fn field(&self, name: &'static str) -> Option<Node<'t>> {
        use std::cell::RefCell;
        use std::collections::HashMap;
        thread_local! {
            // (language, name's address, name's length) → the field's id (0: none).
            static IDS: RefCell<HashMap<(usize, usize, usize), u16>> = RefCell::default();
        }
        // The language's address (a copy of a static grammar is the same pointer).
        let lang = self.language();
        let lang_ptr = (*lang).clone().into_raw() as usize;
        let key = (lang_ptr, name.as_ptr() as usize, name.len());
        let id = IDS.with(|ids| {
            *ids.borrow_mut()
                .entry(key)
                .or_insert_with(|| lang.field_id_for_name(name).map_or(0, |f| f.get()))
        });
        if id == 0 {
            None
        } else {
            self.child_by_field_id(id)
        }
    }
}

/// The text of a node.
pub(crate) fn text<'s>(n: Node, src: &'s str) -> &'s str {
    src.get(n.byte_range()).unwrap_or("")
}

/// Named children of a node, skipping comments.
pub(crate) fn named_children(n: Node) -> Vec<Node> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

/// All children with their field names.
pub(crate) fn children_with_fields(n: Node) -> Vec<(Option<&'static str>, Node)> {
    let mut out = Vec::with_capacity(n.child_count());
    let mut c = n.walk();
    if c.goto_first_child() {
        loop {
            out.push((c.field_name(), c.node()));
            if !c.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

/// Span of a node, through `line_map` (converted line → original line) when given.
pub(crate) fn span(n: Node, file: u32, line_map: Option<&[u32]>) -> Span {
    span_between(n, n, file, line_map)
}

/// Span from the start of `first` to the end of `last`, as [`span`] computes it.
pub(crate) fn span_between(first: Node, last: Node, file: u32, line_map: Option<&[u32]>) -> Span {
    let p = first.start_position();
    let e = last.end_position();
    let len = if e.row == p.row {
        (e.column - p.column).max(1)
    } else {
        1
    };
    let line = match line_map {
        Some(m) => m.get(p.row).copied().unwrap_or(p.row as u32 + 1),
        None => p.row as u32 + 1,
    };
    Span {
        file,
        line,
        col: p.column as u32 + 1,
        len: len as u32,
    }
}

/// Reports every ERROR and MISSING node under `root`; nested errors are reported once.
pub(crate) fn syntax_errors(
    root: Node,
    src: &str,
    file: u32,
    line_map: Option<&[u32]>,
    fortran: bool,
    out: &mut Vec<Diagnostic>,
) {
    if !root.has_error() {
        return;
    }
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.is_missing() {
            let what = n.kind();
            out.push(Diagnostic::error(
                Code::MissingToken,
                span(n, file, line_map),
                format!("expected `{what}` here"),
            ));
            continue;
        }
        if n.is_error() {
            let t = text(n, src);
            let first_line = t.lines().next().unwrap_or("").trim();
            let shown: String = first_line.chars().take(40).collect();
            let multi_line = t.trim_end().contains('\n');
            // A construct over several lines: find the line of the fault (a parenthesis
            // never closed, a block never ended), as a compiler would.
            let fault = if multi_line {
                if fortran {
                    crate::fault::fortran(t)
                } else {
                    crate::fault::c(t)
                }
            } else {
                None
            };
            if let Some(f) = fault {
                let p = n.start_position();
                let row = p.row + f.row;
                let col = if f.row == 0 { p.column + f.col } else { f.col };
                let line = match line_map {
                    Some(m) => m.get(row).copied().unwrap_or(row as u32 + 1),
                    None => row as u32 + 1,
                };
                let sp = Span {
                    file,
                    line,
                    col: col as u32 + 1,
                    len: 1,
                };
                out.push(Diagnostic::error(Code::MissingToken, sp, f.msg));
                continue;
            }
            let msg = if shown.is_empty() {
                "syntax error".to_string()
            } else if multi_line {
                format!("syntax error: cannot parse the construct that starts with `{shown}` (an END statement, closing brace or parenthesis may be missing or misplaced)")
            } else {
                format!("syntax error: cannot parse `{shown}`")
            };
            out.push(Diagnostic::error(
                Code::Syntax,
                span(n, file, line_map),
                msg,
            ));
            continue;
        }
        if n.has_error() {
            let mut c = n.walk();
            let kids: Vec<Node> = n.children(&mut c).collect();
            stack.extend(kids.into_iter().rev());
        }
    }
}

/// Whether comment node `c` sits at the end of the line where node `prev` ends (a trailing
/// comment, `x = 1  ! why`), rather than on a line of its own. A node that takes its line's
/// newline with it ends at column 0 of the next row.
pub(crate) fn trails(prev: Node, c: Node) -> bool {
    let end = prev.end_position();
    let row = if end.column == 0 && end.row > prev.start_position().row {
        end.row - 1
    } else {
        end.row
    };
    c.start_position().row == row
}
