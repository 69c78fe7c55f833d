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
pub mod fixed;
mod fortran;
mod intrinsics;
mod ts;

use radtap_il::{Code, Diagnostic, Lang, Program, ScopeData, ScopeKind, SourceFile, SourceForm};

pub use intrinsics::is_fortran_intrinsic;

/// One input: its path (as given) and contents.
#[derive(Clone, Debug)]
pub struct Input {
    /// Path as given by the user, used in diagnostics and output names.
    pub path: String,
    /// File contents.
    pub text: String,
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

/// Parses and lowers all inputs into one program.
pub fn parse_program(inputs: &[Input]) -> (Program, Vec<Diagnostic>) {
    let mut prog = Program::default();
    let mut diags = Vec::new();
    let global = prog.scopes.alloc(ScopeData::new(ScopeKind::Global, None));

    // Prepare texts (fixed-form conversion) and parse trees.
    struct Prepared {
        file: u32,
        text: String,
        tree: Option<tree_sitter::Tree>,
    }
    let mut fortran = Vec::new();
    let mut cfiles = Vec::new();
    for inp in inputs {
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
        });
        let text = if form == SourceForm::Fixed {
            let (t, d) = fixed::to_free_form(&inp.text, file);
            diags.extend(d);
            t
        } else {
            inp.text.clone()
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
        let tree = parser.parse(&text, None);
        let p = Prepared { file, text, tree };
        match lang {
            Lang::Fortran => fortran.push(p),
            Lang::C => cfiles.push(p),
        }
    }

    // Syntax errors first, so they come before lowering diagnostics of the same file.
    for p in fortran.iter().chain(cfiles.iter()) {
        if let Some(t) = &p.tree {
            ts::syntax_errors(t.root_node(), &p.text, p.file, None, &mut diags);
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
    for p in &cfiles {
        if let Some(t) = &p.tree {
            let items = c::lower_c_file(
                &mut prog,
                &mut diags,
                p.file,
                &p.text,
                t.root_node(),
                global,
            );
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
    // Diagnostics in file order, then position.
    diags.sort_by_key(|d| d.span.map(|s| (s.file, s.line, s.col)).unwrap_or((0, 0, 0)));
    diags.dedup();
    (prog, diags)
}
