//! Fortran `INCLUDE 'file'` lines, expanded where they stand. Real F77 codes keep their
//! COMMON blocks and PARAMETERs in include files (`INCLUDE 'grid.h'` in every routine):
//! read as text and left unread, the COMMON variables were implicit locals and the
//! derivatives through them vanished. The caller reads the files (this crate never reads a
//! file) and gives them with the C headers; here the included statements replace the
//! INCLUDE line, joined on that one line by `;` (free form), so that every other line keeps
//! its number and a diagnostic inside the included text points at the INCLUDE line.

use crate::fixed;
use radtap_il::SourceForm;

/// How deep INCLUDEs may nest (a file including itself stops here).
const MAX_DEPTH: u32 = 8;

/// The file a Fortran INCLUDE line names (`      INCLUDE 'common.h'`, either quote, any
/// case).
pub fn fortran_include(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let head = t.get(..7)?;
    if !head.eq_ignore_ascii_case("include") {
        return None;
    }
    let rest = t[7..].trim_start();
    let q = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    // Whatever follows the name (a comment; sequence numbers in columns 73-80 of fixed form).
    rest[1..].split_once(q).map(|(name, _)| name)
}

/// The file an INCLUDE of `name` in file `from` reads, as (path, text): the one beside
/// `from` (as the caller looked for it first), else one in an include directory (whose
/// path ends with `/name`).
fn find<'f>(files: &'f [(String, String)], name: &str, from: &str) -> Option<&'f (String, String)> {
    let beside = std::path::Path::new(from)
        .parent()
        .map(|d| d.join(name).to_string_lossy().into_owned())
        .unwrap_or_else(|| name.to_string());
    files.iter().find(|(p, _)| *p == beside).or_else(|| {
        files
            .iter()
            .find(|(p, _)| p == name || p.ends_with(&format!("/{name}")))
    })
}

/// Free-form `text` of file `from` with its INCLUDE lines replaced by the statements of the
/// files they name (fixed form when the including file is). An INCLUDE naming no file
/// given stays (and is refused by the lowering).
pub(crate) fn expand(
    text: &str,
    from: &str,
    form: SourceForm,
    files: &[(String, String)],
) -> String {
    expand_at(text, from, form, files, 0)
}

fn expand_at(
    text: &str,
    from: &str,
    form: SourceForm,
    files: &[(String, String)],
    depth: u32,
) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let included = fortran_include(line)
            .filter(|_| depth < MAX_DEPTH)
            .and_then(|name| find(files, name, from));
        let Some((path, inc)) = included else {
            out.push_str(line);
            continue;
        };
        let free = match form {
            SourceForm::Fixed => fixed::to_free_form(inc, 0).0,
            _ => inc.to_string(),
        };
        let free = expand_at(&free, path, form, files, depth + 1);
        let indent = &line[..line.len() - line.trim_start().len()];
        out.push_str(indent);
        out.push_str(&one_line(&free));
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The statements of free-form `text` on one line, separated by `;`: comments and blank
/// lines dropped, continuation lines joined.
fn one_line(text: &str) -> String {
    let mut stmts: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut open = false;
    for l in text.lines() {
        let code = strip_comment(l).trim();
        if code.is_empty() {
            continue;
        }
        let (code, cont) = match code.strip_suffix('&') {
            Some(c) => (c.trim_end(), true),
            None => (code, false),
        };
        match code.strip_prefix('&') {
            Some(c) if open => cur.push_str(c),
            _ => {
                if open {
                    cur.push(' ');
                }
                cur.push_str(code);
            }
        }
        open = cont;
        if !cont {
            stmts.push(std::mem::take(&mut cur));
        }
    }
    if !cur.trim().is_empty() {
        stmts.push(cur);
    }
    stmts.join("; ")
}

/// A line without its `!` comment (outside character literals).
fn strip_comment(l: &str) -> &str {
    let mut quote: Option<char> = None;
    for (i, c) in l.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '!' => return &l[..i],
            None => {}
        }
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lines_are_recognised() {
        assert_eq!(fortran_include("      INCLUDE 'grid.h'"), Some("grid.h"));
        assert_eq!(
            fortran_include("  include \"a/b.inc\" ! c"),
            Some("a/b.inc")
        );
        assert_eq!(fortran_include("  include_x = 1"), None);
        assert_eq!(fortran_include("C     INCLUDE 'grid.h'"), None);
    }

    #[test]
    fn included_statements_join_on_one_line() {
        let files = vec![(
            "inc/grid.h".to_string(),
            "! grid\nreal(8) :: u(3), &\n   visc ! viscosity\ncommon /grid/ u, visc\n".to_string(),
        )];
        let text = "subroutine s\n  include 'grid.h'\n  u = 1\nend\n";
        let out = expand(text, "src/s.f90", SourceForm::Free, &files);
        assert_eq!(
            out,
            "subroutine s\n  real(8) :: u(3), visc; common /grid/ u, visc\n  u = 1\nend\n"
        );
    }
}
