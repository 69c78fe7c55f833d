//! # radtap-frontends: Fortran and C source into the IL
//!
//! The only crate that links tree-sitter. [`parse_program`] takes every input file of a run,
//! parses each with tree-sitter-fortran or tree-sitter-c (chosen by extension), and lowers the
//! trees into one [`radtap_il::Program`], returning diagnostics instead of stopping at the
//! first error. Fixed-form Fortran goes through a position-preserving conversion ([`fixed`]).
//!
//! Invariants: a diagnostic never panics the frontend; every span points into the user's
//! original file; a construct the IL cannot represent is reported as `AD020 unsupported`
//! with its location, never dropped silently.

mod c;
mod c_complex;
mod cpp;
mod depth;
mod fault;
mod finclude;
pub mod fixed;
mod fortran;
pub mod library;
mod omp;
mod symbols;
mod ts;

use radtap_il::{
    Code, Diagnostic, Lang, Program, ScopeData, ScopeKind, SourceFile, SourceForm, Span,
};

pub use depth::{MAX_BLOCKS, MAX_DEPTH, MAX_NESTING};
pub use radtap_il::vocab::is_fortran_intrinsic;

/// One input: its path (as given) and contents.
#[derive(Clone, Debug)]
pub struct Input {
    /// Path as given by the user, used in diagnostics and output names.
    pub path: String,
    /// File contents.
    pub text: String,
}

/// How the C preprocessor runs (`frontends/src/cpp.rs`): the user's `-I`, `-D NAME[=VAL]`,
/// `-U NAME`, and whether it may read the files `#include` names.
#[derive(Clone, Debug, Default)]
pub struct Preprocessor {
    /// `-I` directories, in order, searched after the including file's own directory.
    pub include_dirs: Vec<String>,
    /// `-D` options as given (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// `-U` options.
    pub undefs: Vec<String>,
    /// Whether cpp may read the files the sources include (the command line and the web
    /// service). Without it (library callers that hand every header in memory), C `#include`
    /// lines are taken out before cpp runs and put back at the top.
    pub read_includes: bool,
    /// The directory cpp runs in and searches quoted includes from, instead of the including
    /// file's own directory (the web service: the request's private directory, where it wrote
    /// the submitted files). The files cpp names in its line markers and messages are then
    /// relative to it (the submitted names, never the directory's path), and relative `-I`
    /// directories are taken from it.
    pub base_dir: Option<std::path::PathBuf>,
}

impl Preprocessor {
    /// Whether the user gave `-D` or `-U`: then every C file goes through cpp.
    fn options_given(&self) -> bool {
        !self.defines.is_empty() || !self.undefs.is_empty()
    }
}

/// The user headers a C source includes (directly or through headers), as the real
/// preprocessor finds them with the options of `pp` (`#if` branches not taken are not
/// followed, angle-bracket includes are found in the `-I` directories, system headers are
/// left out), each listed after the headers it includes. On failure (a header in a taken
/// branch that does not exist, `#error`), the diagnostic, located at the line of `path`
/// when the failure is in it (`file` is its index among the inputs).
pub fn c_user_headers(
    path: &str,
    text: &str,
    file: u32,
    pp: &Preprocessor,
) -> Result<Vec<String>, Diagnostic> {
    cpp::user_headers(path, text, pp).map_err(|e| cpp_failure(file, path, &e, pp))
}

/// The diagnostic for cpp's failure on input `file`: at the user's line when cpp says
/// where; a header not found is AD001, anything else AD013.
fn cpp_failure(file: u32, path: &str, e: &str, pp: &Preprocessor) -> Diagnostic {
    match cpp::first_error(e) {
        Some(cpp::CppError {
            line,
            col,
            msg,
            inside,
        }) => {
            let missing = msg.strip_suffix(": No such file or directory");
            let (code, msg) = if let Some(name) = missing {
                let m = if pp.base_dir.is_some() {
                    format!(
                        "the header \"{name}\" is not among the submitted files nor the system headers: add it"
                    )
                } else {
                    format!(
                        "cannot find the header \"{name}\" (looked beside {path} and in the -I directories)"
                    )
                };
                (Code::Io, m)
            } else {
                (
                    Code::Preprocessor,
                    format!("the C preprocessor failed: {msg}"),
                )
            };
            // In a file this line includes: say where.
            let msg = match inside {
                Some(at) => format!("{msg} (at {at}, which this line includes)"),
                None => msg,
            };
            Diagnostic::error(
                code,
                Span {
                    file,
                    line,
                    col,
                    len: 1,
                },
                msg,
            )
        }
        None => Diagnostic::global(Code::Preprocessor, format!("{path}: {e}")),
    }
}

/// Whether a file is Fortran, from its extension (its INCLUDE lines name files to read).
pub fn is_fortran(path: &str) -> bool {
    matches!(classify(path), Some((Lang::Fortran, _)))
}

/// Language and form of a file, from its extension.
pub fn classify(path: &str) -> Option<(Lang, SourceForm)> {
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    Some(match ext {
        "f" | "for" | "f77" | "F" | "FOR" | "ftn" => (Lang::Fortran, SourceForm::Fixed),
        "f90" | "f95" | "f03" | "f08" | "F90" | "F95" | "F03" | "F08" => {
            (Lang::Fortran, SourceForm::Free)
        }
        "c" | "h" => (Lang::C, SourceForm::C),
        _ => return None,
    })
}

/// Whether [`parse_program`] runs the C preprocessor (`cpp`) on this input: a Fortran file
/// with an upper-case extension (`.F`, `.F90`), or a C file with conditional compilation
/// (`#if`, `#ifdef`, `#elif`).
pub fn preprocessed(path: &str, text: &str) -> bool {
    match classify(path) {
        Some((Lang::Fortran, _)) => path
            .rsplit('.')
            .next()
            .is_some_and(|e| e.chars().next().is_some_and(|c| c.is_ascii_uppercase())),
        Some((Lang::C, _)) => text.lines().any(|l| {
            let t = l.trim_start().trim_start_matches('#').trim_start();
            l.trim_start().starts_with('#') && (t.starts_with("if") || t.starts_with("elif"))
        }),
        None => false,
    }
}

/// Whether a C file that defines or includes macros is not C as written (tree-sitter finds
/// errors): then it is read as cpp expands it. With the parse tree it made, when it made one
/// and cpp is not needed: the text is then parsed as it is, and the tree serves again (a file
/// of 8,000 statements was parsed twice).
fn c_needs_cpp_tree(text: &str) -> (bool, Option<tree_sitter::Tree>) {
    let macros = text.lines().any(|l| {
        let t = l.trim_start();
        t.strip_prefix('#').is_some_and(|r| {
            let r = r.trim_start();
            r.starts_with("define") || r.starts_with("include")
        })
    });
    // C99 complex types are refused as written (cpp would rename them).
    if !macros || !c_complex::complex_types(text, 0, None).is_empty() {
        return (false, None);
    }
    let mut parser = tree_sitter::Parser::new();
    if parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .is_err()
    {
        return (false, None);
    }
    match parser.parse(c::parens::settle(text).as_ref(), None) {
        Some(t) if t.root_node().has_error() => (true, None),
        t => (false, t),
    }
}

/// The given headers split into the Fortran include files (named by the INCLUDE lines of
/// the Fortran inputs, or of such files), as (path, text), and the C headers.
fn fortran_includes(inputs: &[Input], headers: &[Input]) -> (Vec<(String, String)>, Vec<Input>) {
    let mut names: Vec<String> = Vec::new();
    let mut todo: Vec<&str> = inputs
        .iter()
        .filter(|i| is_fortran(&i.path))
        .map(|i| i.text.as_str())
        .collect();
    let named = |h: &Input, n: &str| h.path == n || h.path.ends_with(&format!("/{n}"));
    while let Some(t) = todo.pop() {
        for l in t.lines() {
            let Some(n) = fortran_include(l) else {
                continue;
            };
            if names.iter().any(|m| m == n) {
                continue;
            }
            names.push(n.to_string());
            todo.extend(
                headers
                    .iter()
                    .filter(|h| named(h, n))
                    .map(|h| h.text.as_str()),
            );
        }
    }
    let (f, c): (Vec<&Input>, Vec<&Input>) = headers
        .iter()
        .partition(|h| names.iter().any(|n| named(h, n)));
    (
        f.into_iter()
            .map(|h| (h.path.clone(), h.text.clone()))
            .collect(),
        c.into_iter().cloned().collect(),
    )
}

/// The file a quoted C include line names (`#include "defs.h"`, spaces allowed after `#`):
/// a user header, read by the caller and given to [`parse_program_with_headers`].
pub fn quoted_include(line: &str) -> Option<&str> {
    let t = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = t.strip_prefix("include")?.trim_start().strip_prefix('"')?;
    rest.split_once('"').map(|(name, _)| name)
}

pub use finclude::fortran_include;

/// Parses and lowers all inputs into one program.
pub fn parse_program(inputs: &[Input]) -> (Program, Vec<Diagnostic>) {
    parse_program_with_headers(inputs, &[])
}

/// Parses and lowers all inputs into one program, with the C headers their quoted
/// `#include`s name (read by the caller: this crate never reads a file). The headers become
/// files of the program marked [`SourceFile::header`], after the inputs; their declarations
/// (types, typedefs, prototypes, `extern` globals, function-like macros) are visible to every
/// C input, and diagnostics inside them are located in them.
pub fn parse_program_with_headers(
    inputs: &[Input],
    headers: &[Input],
) -> (Program, Vec<Diagnostic>) {
    parse_program_with(inputs, headers, &Preprocessor::default())
}

/// [`parse_program_with_headers`] with the preprocessor's options. With
/// [`Preprocessor::read_includes`], a C file goes through cpp when it has conditionals,
/// when `-D`/`-U` are given, or when tree-sitter cannot parse it as written and it defines
/// or includes macros (an empty export macro `API double f(…)`, a loop header macro
/// `for_k { … }`): cpp expands what the parser cannot read.
pub fn parse_program_with(
    inputs: &[Input],
    headers: &[Input],
    pp: &Preprocessor,
) -> (Program, Vec<Diagnostic>) {
    let mut prog = Program::default();
    let mut diags = Vec::new();
    let global = prog.scopes.alloc(ScopeData::new(ScopeKind::Global, None));
    // The "headers" a Fortran INCLUDE names are text expanded in place, not files.
    let (fincludes, headers) = fortran_includes(inputs, headers);
    let headers = &headers[..];
    let n_inputs = inputs.len();

    // Prepare texts (fixed-form conversion) and parse trees.
    struct Prepared {
        file: u32,
        text: String,
        tree: Option<tree_sitter::Tree>,
        line_map: Option<Vec<u32>>,
    }
    let mut fortran = Vec::new();
    let mut cfiles = Vec::new();
    for (k, inp) in inputs.iter().chain(headers).enumerate() {
        let header = k >= n_inputs;
        let Some((lang, form)) = classify(&inp.path) else {
            diags.push(Diagnostic::global(
                Code::UnknownExtension,
                format!("{}: cannot tell the language from the extension", inp.path),
            ));
            continue;
        };
        let file = prog.files.len() as u32;
        prog.files.push(SourceFile {
            path: inp.path.clone(),
            lang,
            form,
            items: vec![],
            header,
        });
        // `.F`/`.F90` (upper-case extension): the C preprocessor runs first; a line map
        // brings spans back to the user's file.
        let needs_cpp = lang == Lang::Fortran && preprocessed(&inp.path, &inp.text);
        let mut parsed = None;
        let c_cpp = lang == Lang::C
            && (preprocessed(&inp.path, &inp.text)
                || (pp.read_includes
                    && (pp.options_given() || {
                        let (needs, tree) = c_needs_cpp_tree(&inp.text);
                        parsed = tree;
                        needs
                    })));
        let (source, line_map) = if needs_cpp || c_cpp {
            let r = if needs_cpp {
                cpp::preprocess(&inp.path, &inp.text, pp)
            } else {
                cpp::preprocess_c(&inp.path, &inp.text, header, pp)
            };
            match r {
                Ok((t, m)) => (t, Some(m)),
                Err(e) => {
                    // Located at the user's line when cpp says where (it reads stdin).
                    diags.push(cpp_failure(file, &inp.path, &e, pp));
                    continue;
                }
            }
        } else {
            (inp.text.clone(), None)
        };
        let text = if form == SourceForm::Fixed {
            let (t, d) = fixed::to_free_form(&source, file);
            diags.extend(d);
            t
        } else {
            source
        };
        let text = if lang == Lang::Fortran && !fincludes.is_empty() {
            finclude::expand(&text, &inp.path, form, &fincludes)
        } else if lang == Lang::C {
            // Same offsets; the check above parsed the same settled text.
            match c::parens::settle(&text) {
                std::borrow::Cow::Owned(t) => t,
                std::borrow::Cow::Borrowed(_) => text,
            }
        } else {
            text
        };
        let mut parser = tree_sitter::Parser::new();
        let language: tree_sitter::Language = match lang {
            Lang::Fortran => tree_sitter_fortran::LANGUAGE.into(),
            Lang::C => tree_sitter_c::LANGUAGE.into(),
        };
        if parser.set_language(&language).is_err() {
            diags.push(Diagnostic::global(
                Code::Internal,
                "tree-sitter grammar version mismatch",
            ));
            continue;
        }
        // The tree of the check above, when the text is the one it parsed.
        let mut tree = match parsed {
            Some(t) if !c_cpp => Some(t),
            _ => parser.parse(&text, None),
        };
        // Too deep for the recursive passes: reported, and the file is not lowered.
        if let Some(d) = tree
            .as_ref()
            .and_then(|t| depth::check(t.root_node(), file, line_map.as_deref()))
        {
            diags.push(d);
            tree = None;
        }
        let p = Prepared {
            file,
            text,
            tree,
            line_map,
        };
        match lang {
            Lang::Fortran => fortran.push(p),
            Lang::C => cfiles.push(p),
        }
    }

    // C99 complex types: refused whatever else the file holds (they also break the parse).
    let mut refused = Vec::new();
    for p in &cfiles {
        refused.extend(c_complex::complex_types(
            &p.text,
            p.file,
            p.line_map.as_deref(),
        ));
    }
    // Syntax errors first, so they come before lowering diagnostics of the same file.
    let tagged = fortran.iter().map(|p| (p, true));
    for (p, is_fortran) in tagged.chain(cfiles.iter().map(|p| (p, false))) {
        if let Some(t) = &p.tree {
            ts::syntax_errors(
                t.root_node(),
                &p.text,
                p.file,
                p.line_map.as_deref(),
                is_fortran,
                &mut diags,
            );
        }
    }

    let ffiles: Vec<fortran::FFile> = fortran
        .iter()
        .filter_map(|p| {
            p.tree.as_ref().map(|t| fortran::FFile {
                file: p.file,
                src: &p.text,
                root: t.root_node(),
                line_map: None,
            })
        })
        .collect();
    let items = fortran::FortranLowering::new(&mut prog, &mut diags, &ffiles, global).run();
    for (f, its) in ffiles.iter().zip(items) {
        prog.files[f.file as usize].items = its;
    }
    // Headers first, each seeing the ones before it; then the inputs, seeing all headers.
    let mut parent = global;
    let mut macros = c::Macros::new();
    cfiles.sort_by_key(|p| !prog.files[p.file as usize].header);
    for p in &cfiles {
        if let Some(t) = &p.tree {
            let header = prog.files[p.file as usize].header;
            let (items, scope, m) = c::lower_c_file(
                &mut prog,
                &mut diags,
                c::CFileIn {
                    file: p.file,
                    src: &p.text,
                    root: t.root_node(),
                    global,
                    parent,
                    macros: macros.clone(),
                    line_map: p.line_map.as_deref(),
                },
            );
            if header {
                parent = scope;
                macros = m;
            }
            prog.files[p.file as usize].items = items;
        }
    }
    // A broken tree makes lowering report noise (names in half-parsed declarations): for a
    // file with syntax errors, report the syntax errors only.
    let broken: Vec<u32> = diags
        .iter()
        .filter(|d| matches!(d.code, Code::Syntax | Code::MissingToken))
        .filter_map(|d| d.span.map(|s| s.file))
        .collect();
    diags.retain(|d| match d.span {
        Some(s) if broken.contains(&s.file) => {
            matches!(d.code, Code::Syntax | Code::MissingToken | Code::FixedForm)
        }
        _ => true,
    });
    diags.extend(refused);
    let ids: Vec<radtap_il::UnitId> = prog.units.iter().map(|(id, _)| id).collect();
    for u in ids {
        prog.units[u]
            .refusals
            .retain(|d| !d.span.is_some_and(|s| broken.contains(&s.file)));
    }
    // Diagnostics in file order, then position.
    diags.sort_by_key(|d| d.span.map(|s| (s.file, s.line, s.col)).unwrap_or((0, 0, 0)));
    diags.dedup();
    (prog, diags)
}

#[cfg(test)]
mod grammar_tests {
    //! The frontends match on node kinds and field names by string: a grammar upgrade that
    //! renames one must fail here, loudly, rather than silently drop constructs.

    fn check(lang: tree_sitter::Language, kinds: &[&str], fields: &[&str]) {
        for k in kinds {
            assert!(
                lang.id_for_node_kind(k, true) != 0,
                "node kind `{k}` no longer exists in the grammar"
            );
        }
        for f in fields {
            assert!(
                lang.field_id_for_name(f).is_some(),
                "field `{f}` no longer exists in the grammar"
            );
        }
    }

    #[test]
    fn fortran_node_kinds_exist() {
        check(
            tree_sitter_fortran::LANGUAGE.into(),
            &[
                "program",
                "module",
                "subroutine",
                "function",
                "block_data",
                "internal_procedures",
                "subroutine_statement",
                "function_statement",
                "variable_declaration",
                "intrinsic_type",
                "derived_type",
                "type_qualifier",
                "sized_declarator",
                "init_declarator",
                "data_declarator",
                "pointer_init_declarator",
                "extent_specifier",
                "assumed_size",
                "use_statement",
                "use_alias",
                "included_items",
                "implicit_statement",
                "implicit_range",
                "parameter_statement",
                "common_statement",
                "variable_group",
                "equivalence_statement",
                "data_statement",
                "data_set",
                "data_value",
                "derived_type_definition",
                "interface",
                "procedure_statement",
                "assignment_statement",
                "subroutine_call",
                "if_statement",
                "elseif_clause",
                "else_clause",
                "do_loop",
                "do_statement",
                "loop_control_expression",
                "end_do_label_loop_statement",
                "do_label_virtual",
                "select_case_statement",
                "case_statement",
                "case_value_range_list",
                "where_statement",
                "elsewhere_clause",
                "forall_statement",
                "triplet_spec",
                "keyword_statement",
                "statement_label",
                "statement_label_reference",
                "arithmetic_if_statement",
                "stop_statement",
                "write_statement",
                "print_statement",
                "read_statement",
                "format_statement",
                "allocate_statement",
                "sized_allocation",
                "associate_statement",
                "association",
                "block_construct",
                "call_expression",
                "argument_list",
                "keyword_argument",
                "math_expression",
                "logical_expression",
                "relational_expression",
                "concatenation_expression",
                "unary_expression",
                "derived_type_member_expression",
                "type_member",
                "array_literal",
                "implied_do_loop_expression",
                "number_literal",
                "string_literal",
                "boolean_literal",
                "complex_literal",
                "null_literal",
                "parenthesized_expression",
                "comment",
                "entry_statement",
            ],
            &[
                "name",
                "parameters",
                "type",
                "attribute",
                "declarator",
                "left",
                "right",
                "operator",
                "argument",
                "kind",
                "do_label",
                "subroutine",
                "value",
                "selector",
                "repeat",
            ],
        );
    }

    #[test]
    fn c_node_kinds_exist() {
        check(
            tree_sitter_c::LANGUAGE.into(),
            &[
                "function_definition",
                "declaration",
                "type_definition",
                "init_declarator",
                "pointer_declarator",
                "array_declarator",
                "function_declarator",
                "parenthesized_declarator",
                "parameter_declaration",
                "variadic_parameter",
                "struct_specifier",
                "union_specifier",
                "enum_specifier",
                "field_declaration",
                "enumerator",
                "primitive_type",
                "sized_type_specifier",
                "type_identifier",
                "storage_class_specifier",
                "type_qualifier",
                "compound_statement",
                "expression_statement",
                "if_statement",
                "for_statement",
                "while_statement",
                "do_statement",
                "switch_statement",
                "case_statement",
                "labeled_statement",
                "goto_statement",
                "return_statement",
                "break_statement",
                "continue_statement",
                "assignment_expression",
                "binary_expression",
                "unary_expression",
                "pointer_expression",
                "update_expression",
                "call_expression",
                "subscript_expression",
                "field_expression",
                "cast_expression",
                "sizeof_expression",
                "conditional_expression",
                "comma_expression",
                "initializer_list",
                "initializer_pair",
                "compound_literal_expression",
                "type_descriptor",
                "preproc_include",
                "preproc_def",
                "preproc_function_def",
                "concatenated_string",
                "char_literal",
            ],
            &[
                "declarator",
                "type",
                "value",
                "parameters",
                "body",
                "name",
                "condition",
                "consequence",
                "alternative",
                "initializer",
                "update",
                "left",
                "right",
                "operator",
                "argument",
                "function",
                "arguments",
                "index",
                "field",
                "size",
                "label",
                "designator",
            ],
        );
    }
}

#[cfg(test)]
mod scope_tests {
    use super::*;
    use radtap_il::{Expr, ScopeKind, StmtKind, UnitKind};

    /// Where the left-hand side of the first assignment in the main program resolves to.
    fn lhs_owner(src: &str) -> (String, UnitKind) {
        let (p, d) = parse_program(&[Input {
            path: "t.f90".into(),
            text: src.into(),
        }]);
        assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
        let (_, main) = p
            .units
            .iter()
            .find(|(_, u)| u.kind == UnitKind::Program)
            .expect("main program");
        let first = main.body.iter().find_map(|&s| match main.stmts[s].kind {
            StmtKind::Assign { lhs, .. } => Some(lhs),
            _ => None,
        });
        let Expr::Name(sym) = main.exprs[first.expect("an assignment")] else {
            panic!("lhs is not a name")
        };
        let ScopeKind::Unit(owner) = p.scopes[p.symbols[sym].scope].kind else {
            panic!("not a unit scope")
        };
        (p.name(sym).to_string(), p.units[owner].kind)
    }

    #[test]
    fn default_private_hides_module_names_not_marked_public() {
        let m = "module m\n  private\n  real :: hidden = 1.0\n  real, public :: shown = 2.0\nend module m\n";
        let (_, owner) = lhs_owner(&format!(
            "{m}program p\n  use m\n  hidden = 3.0\n  print *, hidden\nend program p\n"
        ));
        assert_eq!(
            owner,
            UnitKind::Program,
            "`hidden` is private to m: the main program's own implicit variable"
        );
        let (_, owner) = lhs_owner(&format!(
            "{m}program p\n  use m\n  shown = 3.0\n  print *, shown\nend program p\n"
        ));
        assert_eq!(
            owner,
            UnitKind::Module,
            "`shown` is public: it comes from m"
        );
    }

    #[test]
    fn use_rename_resolves_to_the_module_symbol() {
        let src = "module m\n  real :: long_name = 1.0\nend module m\nprogram p\n  use m, only: s => long_name\n  s = 2.0\n  print *, s\nend program p\n";
        let (name, owner) = lhs_owner(src);
        assert_eq!((name.as_str(), owner), ("long_name", UnitKind::Module));
    }

    #[test]
    fn modules_are_lowered_in_use_order_whatever_their_number() {
        // `b` uses `a` but comes first; and more modules than any fixed bound.
        let mut src = String::from("module b\n  use a\n  real :: vb = 2.0\nend module b\n");
        src.push_str("module a\n  real :: va = 1.0\nend module a\n");
        for k in 0..1100 {
            src.push_str(&format!(
                "module m{k}\n  real :: v{k} = 1.0\nend module m{k}\n"
            ));
        }
        let prog = |v: &str, m: &str| {
            format!("{src}program p\n  use {m}\n  {v} = 3.0\n  print *, {v}\nend program p\n")
        };
        assert_eq!(
            lhs_owner(&prog("va", "b")),
            ("va".to_string(), UnitKind::Module)
        );
        assert_eq!(
            lhs_owner(&prog("v1099", "m1099")),
            ("v1099".to_string(), UnitKind::Module)
        );
    }
}
