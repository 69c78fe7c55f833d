//! Stage 2: the sources lowered by the frontends into one program checked by the IL
//! verifier ([`parse`]), with the notes about a file whose extension says another language
//! than its text.

use crate::request::Request;
use radtap_il::{Code, Diagnostic, Program};

/// Stage 2: the frontends lower every source into one program, and the IL verifier checks
/// it. The diagnostics start with the request's unreadable inputs.
pub fn parse(req: &Request) -> (Program, Vec<Diagnostic>) {
    let inputs: Vec<radtap_frontends::Input> = req
        .sources
        .iter()
        .map(|(path, text)| radtap_frontends::Input {
            path: path.clone(),
            text: text.clone(),
        })
        .collect();
    let headers: Vec<radtap_frontends::Input> = req
        .headers
        .iter()
        .map(|(path, text)| radtap_frontends::Input {
            path: path.clone(),
            text: text.clone(),
        })
        .collect();
    let (mut prog, mut diags) =
        radtap_frontends::parse_program_with(&inputs, &headers, &req.options.preprocessor);
    // Routines without source that a description knows get stand-ins (`frontends::library`):
    // parsed with the program, marked so no generator writes them.
    if req.options.ext.is_empty() && !radtap_frontends::library::calls_undefined(&prog) {
        return finish_parse(prog, diags, req);
    }
    let mut lib = radtap_il::library::Library::builtin();
    for (path, text) in &req.options.ext {
        if let Err(e) = lib.add(path, text) {
            diags.push(Diagnostic::global(
                Code::Syntax,
                format!("{path}:{}:{}: {}", e.line, e.col, e.message),
            ));
        }
    }
    let stand_ins = radtap_frontends::library::stand_ins(&prog, &lib);
    if !stand_ins.is_empty() && !diags.iter().any(|d| d.is_error()) {
        let mut all = inputs.clone();
        all.extend(stand_ins.iter().map(|(i, _)| i.clone()));
        let (p, d) =
            radtap_frontends::parse_program_with(&all, &headers, &req.options.preprocessor);
        prog = p;
        diags = d;
        for (k, f) in prog.files.iter().enumerate().skip(inputs.len()) {
            let Some((_, names)) = stand_ins.iter().find(|(i, _)| i.path == f.path) else {
                continue;
            };
            let _ = k;
            let mut units = Vec::new();
            for item in &f.items {
                if let radtap_il::FileItem::Unit(u) = item {
                    units.push(*u);
                    units.extend(prog.units[*u].decls.iter().filter_map(|d| match d {
                        radtap_il::Decl::Unit(c) => Some(*c),
                        _ => None,
                    }));
                }
            }
            for u in units {
                let Some(n) = prog.units[u].name else {
                    continue;
                };
                let sp = &prog.symbols[n].spelling;
                if let Some(d) = names
                    .iter()
                    .find(|x| x.eq_ignore_ascii_case(sp))
                    .and_then(|x| lib.get(x))
                {
                    prog.described.insert(u, d.clone());
                }
            }
        }
    }
    finish_parse(prog, diags, req)
}

/// The end of [`parse`]: the diagnostics of unreadable inputs first, wrong extensions noted,
/// the IL verified.
fn finish_parse(
    prog: Program,
    mut diags: Vec<Diagnostic>,
    req: &Request,
) -> (Program, Vec<Diagnostic>) {
    // A header cpp could not find is reported once, by the reader of the headers.
    diags.retain(|d| !req.unreadable.contains(d));
    note_wrong_extensions(&prog, req, &mut diags);
    diags.splice(0..0, req.unreadable.iter().cloned());
    if let Err(errs) = radtap_il::verify(&prog) {
        for e in errs {
            diags.push(Diagnostic::global(
                Code::Internal,
                format!("IL verifier: {} (please report)", e.0),
            ));
        }
    }
    (prog, diags)
}

/// The language a text looks written in, whatever its name says: C when most of its code
/// lines end in `;`, `{` or `}` or are `#include`s, Fortran when most start with a Fortran
/// keyword; `None` when it is not clear.
fn apparent_language(text: &str) -> Option<radtap_il::Lang> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('!') && !l.starts_with("//"))
        .collect();
    if lines.len() < 2 {
        return None;
    }
    let c = lines
        .iter()
        .filter(|l| {
            l.ends_with(';') || l.ends_with('{') || l.ends_with('}') || l.starts_with("#include")
        })
        .count();
    const FORTRAN: &[&str] = &[
        "subroutine",
        "end",
        "program",
        "module",
        "use ",
        "implicit",
        "real",
        "integer",
        "double precision",
        "do ",
        "if ",
        "call ",
        "function",
        "contains",
        "logical",
    ];
    let fortran = lines
        .iter()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            FORTRAN.iter().any(|k| l.starts_with(k)) && !l.ends_with(';') && !l.ends_with('{')
        })
        .count();
    if 2 * c > lines.len() {
        Some(radtap_il::Lang::C)
    } else if 2 * fortran > lines.len() {
        Some(radtap_il::Lang::Fortran)
    } else {
        None
    }
}

/// A file with syntax errors that looks written in the other language than its extension
/// says (a C file named `.f90`): its first syntax error says so, and the others, which only
/// repeat that the file is not what its name says, are left out (issue 49: 16 syntax
/// errors and no hint before).
fn note_wrong_extensions(prog: &Program, req: &Request, diags: &mut Vec<Diagnostic>) {
    for (i, file) in prog.files.iter().enumerate() {
        let Some((_, text)) = req.sources.iter().find(|(p, _)| *p == file.path) else {
            continue;
        };
        let in_file = |d: &Diagnostic| {
            matches!(d.code, Code::Syntax | Code::MissingToken)
                && d.span.is_some_and(|s| s.file as usize == i)
        };
        let Some(first) = diags
            .iter()
            .position(|d| d.code == Code::Syntax && in_file(d))
        else {
            continue;
        };
        if !apparent_language(text).is_some_and(|l| l != file.lang) {
            continue;
        }
        let (named, other, ext) = match file.lang {
            radtap_il::Lang::Fortran => ("Fortran", "C", ".c"),
            radtap_il::Lang::C => ("C", "Fortran", ".f90 (or .f for fixed form)"),
        };
        let more = diags.iter().filter(|d| in_file(d)).count() - 1;
        let mut note = format!(
            "{} is read as {named} because of its extension, but it looks like {other}: \
             rename it to end in {ext}",
            file.path
        );
        if more > 0 {
            note.push_str(&format!(
                " ({more} further syntax error{} of this file not shown)",
                if more == 1 { "" } else { "s" }
            ));
        }
        diags[first].notes.push(note);
        let mut k = 0;
        diags.retain(|d| {
            let keep = !in_file(d) || k == first;
            k += 1;
            keep
        });
    }
}
