//! C lowering: tree-sitter-c trees into the IL.
//!
//! A C file becomes one `CFile` unit whose declarations keep the file's order (preprocessor
//! lines, declarations, type definitions, and function definitions as `Decl::Unit`). Functions
//! are units of their own whose scope's parent is the file scope; compound statements open
//! block scopes. Typedef names are tracked in the scopes, so that `(real)(x)` and `(real) - y`,
//! which tree-sitter-c parses as a call and a subtraction, are reclassified as casts.
//!
//! This file holds the lowering state, the file-level items and the helpers the submodules
//! share; declarations, functions, statements, expressions and casts are in the submodules.

use crate::ts::Field;
use crate::ts::{named_children, text};
use radtap_il::directives::parse_directive;
use radtap_il::*;
use tree_sitter::Node;

mod casts;
mod decls;
mod exprs;
mod functions;
mod lower;
mod macros;
mod operators;
pub(crate) mod parens;
mod stmts;

use lower::*;
pub(crate) use lower::{MacroDef, Macros};

/// What [`lower_c_file`] lowers: one C file, its scope's parent (the global scope, or the
/// last header's scope), and the macros of the headers it sees.
pub(crate) struct CFileIn<'s, 't> {
    pub(crate) file: u32,
    pub(crate) src: &'s str,
    pub(crate) root: Node<'t>,
    pub(crate) global: ScopeId,
    pub(crate) parent: ScopeId,
    pub(crate) macros: Macros,
    pub(crate) line_map: Option<&'s [u32]>,
}

/// The macros a file defines more than once or `#undef`s.
fn redefined_macros(root: Node, src: &str) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for ch in named_children(root) {
        let name = match ch.kind() {
            "preproc_def" | "preproc_function_def" => ch.field("name").map(|n| text(n, src)),
            "preproc_call" => {
                let directive = ch.field("directive").map(|d| text(d, src)).unwrap_or("");
                let arg = ch.field("argument").map(|a| text(a, src).trim());
                match arg {
                    Some(a) if directive == "#undef" => {
                        out.push(a.to_string());
                        None
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(n) = name {
            if seen.contains(&n) {
                out.push(n.to_string());
            }
            seen.push(n);
        }
    }
    out
}

/// Lowers one C file; returns its items, its file scope and the macros known
/// at its end (the ones it was given and its own).
pub(crate) fn lower_c_file(
    p: &mut Program,
    diags: &mut Vec<Diagnostic>,
    input: CFileIn,
) -> (Vec<FileItem>, ScopeId, Macros) {
    let CFileIn {
        file,
        src,
        root,
        global,
        parent,
        macros,
        line_map,
    } = input;
    let scope = p
        .scopes
        .alloc(ScopeData::new(ScopeKind::Global, Some(parent)));
    let uid = p
        .units
        .alloc(UnitData::new(UnitKind::CFile, Lang::C, scope));
    p.scopes[scope].kind = ScopeKind::Unit(uid);
    let mut l = CLower {
        p,
        diags,
        file,
        src,
        global,
        file_unit: uid,
        unit: uid,
        scope,
        macros,
        pending_dirs: vec![],
        pending_omp: None,
        omp_regions: 0,
        omp_worksharing: vec![],
        proto_params: vec![],
        line_map,
        span_at: None,
        macro_depth: 0,
        redefined: std::rc::Rc::new(redefined_macros(root, src)),
    };
    let mut decls = Vec::new();
    for ch in named_children(root) {
        l.top_item(ch, &mut decls);
    }
    for d in std::mem::take(&mut l.pending_dirs) {
        decls.push(Decl::Directive(d));
    }
    l.p.units[uid].decls = decls;
    l.report_unused_cast_marks();
    let macros = std::mem::take(&mut l.macros);
    (vec![FileItem::Unit(uid)], scope, macros)
}

impl<'a, 's> CLower<'a, 's> {
    fn top_item(&mut self, ch: Node, decls: &mut Vec<Decl>) {
        match ch.kind() {
            "preproc_include" | "preproc_call" => {
                decls.push(Decl::Preproc(self.t(ch).trim_end().to_string()))
            }
            "preproc_def" | "preproc_function_def" => {
                if let Some(n) = ch.field("name") {
                    let params = ch.field("parameters").map(|ps| {
                        let mut cur = ps.walk();
                        ps.children(&mut cur)
                            .filter(|p| matches!(p.kind(), "identifier" | "..."))
                            .map(|p| self.t(p).to_string())
                            .collect()
                    });
                    let body = ch.field("value").map(|v| self.t(v)).unwrap_or_default();
                    // Line splices are blanks in the body.
                    let body = body.replace("\\\r\n", " ").replace("\\\n", " ");
                    let def = MacroDef { params, body };
                    self.macros.insert(self.t(n).to_string(), def);
                }
                decls.push(Decl::Preproc(self.t(ch).trim_end().to_string()));
            }
            "comment" => {
                let t = self.t(ch).to_string();
                match parse_directive(&t) {
                    Some(mut d) => {
                        d.span = Some(self.sp(ch));
                        self.pending_dirs.push(d)
                    }
                    None => decls.push(Decl::Comment(t)),
                }
            }
            "function_definition" => {
                if let Some(u) = self.function(ch) {
                    decls.push(Decl::Unit(u));
                }
            }
            "declaration" | "type_definition" => {
                for d in std::mem::take(&mut self.pending_dirs) {
                    decls.push(Decl::Directive(d));
                }
                if let Some(v) = self.declaration(ch) {
                    decls.push(Decl::var(v));
                }
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                // `struct p { ... };` at file level.
                let spec = self.type_spec_node(ch, vec![]);
                decls.push(Decl::var(VarDecl {
                    spec,
                    attrs: vec![],
                    entities: vec![],
                    double_colon: false,
                }));
            }
            // Conditionals around includes only, written back by the preprocessing stage
            // (`cpp.rs`): kept as they are.
            "preproc_if" | "preproc_ifdef" if includes_only(ch) => {
                decls.push(Decl::Preproc(self.t(ch).trim_end().to_string()))
            }
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" => self.unsupported(
                ch,
                "conditional compilation (#if/#ifdef): run the C preprocessor first",
            ),
            "ERROR" | ";" => {}
            "expression_statement" if self.t(ch).trim() == ";" => {}
            other => self.unsupported(ch, &format!("`{other}` at file level")),
        }
    }
}

/// Whether a conditional's branches hold nothing but includes, comments and conditionals of
/// the same kind.
fn includes_only(n: Node) -> bool {
    let condition = n.child_by_field_name("condition").map(|c| c.id());
    let name = n.child_by_field_name("name").map(|c| c.id());
    let mut cur = n.walk();
    let ok = n.named_children(&mut cur).all(|c| {
        Some(c.id()) == condition
            || Some(c.id()) == name
            || match c.kind() {
                "preproc_include" | "comment" => true,
                "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
                | "preproc_elifdef" => includes_only(c),
                _ => false,
            }
    });
    ok
}
