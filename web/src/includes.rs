//! Which files a submission may make the C preprocessor read. The service runs the real
//! preprocessor (as the command line does) in the request's private directory, where it wrote
//! the submitted files; cpp would read any file an include names, so every include-like
//! construct of every submitted file is checked first:
//! `#include`, `#include_next`, `#import`, `#embed`, `__has_include`, `__has_include_next`,
//! `__has_embed`, and `#pragma GCC dependency` (which reads a file's date). An include is
//! accepted when its argument is a literal `"name"` or `<name>` that is relative and has no
//! `..` component: it names a submitted file or a system header, nothing else. Anything
//! else (an absolute name, a `..`, an include computed by a macro, `#include FOO`) is
//! refused, located at its line.
//!
//! Directive lines are found as cpp finds them, once backslash-newline splices are joined
//! and comments taken out (traditional cpp, which `.F90` files go through, pastes
//! `#inc/**/lude` into a directive). Where a comment or a string starts depends on the
//! preprocessor's mode, so the lines are read in four ways (as written; without `/* */`;
//! without comments and strings, with and without `//` comments) and a directive found in any
//! of them is checked: a reading that takes a directive for a comment cannot hide it.
//! Only directive lines (`#` first; `%:` and `??=` spell `#` too) make cpp read a file: a
//! Fortran comment or a C string that says "include" is no directive.
//!
//! Token pasting could assemble `__has_include` (`CAT(__has_inc, lude)`) or a `_Pragma`'s
//! `GCC dependency` from pieces no word check sees; so an `#if` or `#elif` naming a macro of
//! the submission that pastes tokens (or names one that does) is refused, and so is a
//! `_Pragma` computed by a macro in a submission with such macros. Not caught: what the
//! system headers' own macros could paste (none of glibc's builds a file name).

/// An include the service refuses: where it is and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// The submitted file's name.
    pub(crate) file: String,
    /// 1-based line.
    pub(crate) line: u32,
    /// 1-based column (in characters) of the directive's name or operator.
    pub(crate) column: u32,
    /// Why.
    pub(crate) message: String,
    /// The source line.
    pub(crate) source: String,
}

/// What the check found in the submitted files.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// The refused includes, in file then line order.
    pub(crate) refused: Vec<Refusal>,
    /// The names the accepted includes give (`defs.h`), each once: submitted files so named
    /// are headers, not sources.
    pub(crate) named: Vec<String>,
}

/// Checks every include-like construct of `files` (name, text).
pub(crate) fn scan<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Scan {
    let files: Vec<(&str, &str)> = files.into_iter().collect();
    let pasting = pasting_macros(&files);
    let mut out = Scan::default();
    for (name, text) in files {
        let mut found: Vec<Refusal> = Vec::new();
        for reading in [
            Reading::Raw,
            Reading::Block,
            Reading::Lexed,
            Reading::LexedNoLine,
        ] {
            let chars = read(text, reading);
            for line in logical_lines(&chars) {
                let cx = Cx {
                    file: name,
                    text,
                    pasting: &pasting,
                };
                check_line(&cx, &line, &mut found, &mut out.named);
            }
        }
        found.sort_by_key(|r| (r.line, r.column));
        found.dedup_by_key(|r| (r.line, r.column));
        out.refused.extend(found);
    }
    out
}

/// The macros of the submission that paste tokens (`##` in their definition), or whose
/// definition names one that does: expanded in an `#if`, they could assemble
/// `__has_include` from pieces no check sees (`CAT(__has_inc, lude)`).
fn pasting_macros(files: &[(&str, &str)]) -> Vec<String> {
    let mut defs: Vec<(String, Vec<String>, bool)> = Vec::new();
    for (_, text) in files {
        for line in logical_lines(&read(text, Reading::Lexed)) {
            let Some(body) = directive_body(&line) else {
                continue;
            };
            let k = blanks(body, 0);
            if ident(body, k).is_none_or(|(d, _)| d != "define") {
                continue;
            }
            let Some((name, e)) = ident(body, k + 6).or_else(|| ident(body, blanks(body, k + 6)))
            else {
                continue;
            };
            let rest: String = body[e..].iter().map(|c| c.0).collect();
            let names = rest
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect();
            defs.push((name, names, rest.contains("##")));
        }
    }
    let mut pasting: Vec<String> = defs.iter().filter(|d| d.2).map(|d| d.0.clone()).collect();
    loop {
        let more: Vec<String> = defs
            .iter()
            .filter(|(n, names, _)| {
                !pasting.contains(n) && names.iter().any(|w| pasting.contains(w))
            })
            .map(|d| d.0.clone())
            .collect();
        if more.is_empty() {
            return pasting;
        }
        pasting.extend(more);
    }
}

/// What a line is checked with.
struct Cx<'a> {
    file: &'a str,
    text: &'a str,
    /// [`pasting_macros`].
    pasting: &'a [String],
}

/// One way of reading a file's text (see the module comment).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Splices joined, nothing taken out.
    Raw,
    /// `/* */` taken out wherever they are (traditional cpp pastes around them).
    Block,
    /// Strings and character constants skipped (they end at the line's end at the latest),
    /// `/* */` and `//` comments taken out (C).
    Lexed,
    /// As `Lexed`, but `//` is no comment (traditional cpp: Fortran's concatenation).
    LexedNoLine,
}

/// A character of a reading, with its place in the file: (char, line, column), 1-based.
type Placed = (char, u32, u32);

/// The characters of `text` as `reading` leaves them, each with its place; newlines kept
/// (a comment's newlines too, so lines keep their numbers where it matters: a directive
/// after a comment that spans lines is found on the comment's last line).
fn read(text: &str, reading: Reading) -> Vec<Placed> {
    // Splices joined.
    let mut raw: Vec<Placed> = Vec::with_capacity(text.len());
    for (i, l) in text.split('\n').enumerate() {
        for (j, c) in l.chars().enumerate() {
            raw.push((c, i as u32 + 1, j as u32 + 1));
        }
        raw.push(('\n', i as u32 + 1, l.chars().count() as u32 + 1));
    }
    let mut spliced: Vec<Placed> = Vec::with_capacity(raw.len());
    let mut k = 0;
    while k < raw.len() {
        let c = raw[k].0;
        let next = raw.get(k + 1).map(|x| x.0);
        let after = raw.get(k + 2).map(|x| x.0);
        if c == '\\' && next == Some('\n') {
            k += 2;
        } else if c == '\\' && next == Some('\r') && after == Some('\n') {
            k += 3;
        } else {
            spliced.push(raw[k]);
            k += 1;
        }
    }
    if reading == Reading::Raw {
        return spliced;
    }
    let lexed = matches!(reading, Reading::Lexed | Reading::LexedNoLine);
    let mut out: Vec<Placed> = Vec::with_capacity(spliced.len());
    let mut k = 0;
    let at = |k: usize| spliced.get(k).map(|x| x.0);
    while k < spliced.len() {
        let c = spliced[k].0;
        if c == '/' && at(k + 1) == Some('*') {
            k += 2;
            while k < spliced.len() && !(spliced[k].0 == '*' && at(k + 1) == Some('/')) {
                k += 1;
            }
            k += 2;
        } else if lexed && reading == Reading::Lexed && c == '/' && at(k + 1) == Some('/') {
            while k < spliced.len() && spliced[k].0 != '\n' {
                k += 1;
            }
        } else if lexed && (c == '"' || c == '\'') {
            // The literal is kept (an include's name is one); what is inside is no comment.
            out.push(spliced[k]);
            k += 1;
            while k < spliced.len() && spliced[k].0 != c && spliced[k].0 != '\n' {
                if spliced[k].0 == '\\' && at(k + 1).is_some_and(|n| n != '\n') {
                    out.push(spliced[k]);
                    k += 1;
                }
                out.push(spliced[k]);
                k += 1;
            }
            if k < spliced.len() && spliced[k].0 == c {
                out.push(spliced[k]);
                k += 1;
            }
        } else {
            out.push(spliced[k]);
            k += 1;
        }
    }
    out
}

/// The lines of a reading, without their newlines.
fn logical_lines(chars: &[Placed]) -> Vec<Vec<Placed>> {
    chars.split(|c| c.0 == '\n').map(|l| l.to_vec()).collect()
}

/// The directive of a line, if it is one: the characters after `#` (or `%:`, `??=`).
fn directive_body(line: &[Placed]) -> Option<&[Placed]> {
    let start = line.iter().position(|c| !c.0.is_whitespace())?;
    let l = &line[start..];
    let s: String = l.iter().take(3).map(|c| c.0).collect();
    if s.starts_with('#') {
        Some(&l[1..])
    } else if s.starts_with("%:") {
        Some(&l[2..])
    } else if s.starts_with("??=") {
        Some(&l[3..])
    } else {
        None
    }
}

/// Skips blanks from `k`.
fn blanks(l: &[Placed], mut k: usize) -> usize {
    while k < l.len() && l[k].0.is_whitespace() {
        k += 1;
    }
    k
}

/// The identifier at `k`, if one starts there, and where it ends.
fn ident(l: &[Placed], k: usize) -> Option<(String, usize)> {
    let first = l.get(k)?.0;
    if !(first.is_alphabetic() || first == '_') {
        return None;
    }
    let mut e = k;
    while e < l.len() && (l[e].0.is_alphanumeric() || l[e].0 == '_') {
        e += 1;
    }
    Some((l[k..e].iter().map(|c| c.0).collect(), e))
}

/// The literal name at `k` (`"name"` or `<name>`), and where it ends.
fn literal(l: &[Placed], k: usize) -> Option<(String, usize)> {
    let close = match l.get(k)?.0 {
        '"' => '"',
        '<' => '>',
        _ => return None,
    };
    let end = (k + 1..l.len()).find(|&e| l[e].0 == close)?;
    Some((l[k + 1..end].iter().map(|c| c.0).collect(), end + 1))
}

/// Why a literal include name is refused, if it is.
fn bad_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("names no file")
    } else if name.starts_with('/') {
        Some("names a file outside the submission (an absolute name)")
    } else if name.split(['/', '\\']).any(|c| c == "..") {
        Some("goes out of the submission (`..`)")
    } else {
        None
    }
}

/// Checks one line of one reading: its directive's include, and every `__has_include`-like
/// operator on it.
fn check_line(cx: &Cx, line: &[Placed], refused: &mut Vec<Refusal>, named: &mut Vec<String>) {
    let mut refuse = |at: Placed, message: String| {
        let source = cx
            .text
            .lines()
            .nth(at.1 as usize - 1)
            .unwrap_or("")
            .to_string();
        refused.push(Refusal {
            file: cx.file.to_string(),
            line: at.1,
            column: at.2,
            message,
            source,
        });
    };
    // `_Pragma("GCC dependency \"f\"")` reads a file's date, and a `_Pragma` whose text a
    // macro computes could be made to say so where the submission pastes tokens.
    let mut j = 0;
    while j < line.len() {
        let Some((w, e)) = ident(line, j) else {
            j += 1;
            continue;
        };
        if w == "_Pragma" {
            let open = blanks(line, e);
            let arg = (line.get(open).map(|c| c.0) == Some('('))
                .then(|| literal(line, blanks(line, open + 1)))
                .flatten();
            match arg {
                Some((text, _)) if text.contains("dependency") => refuse(
                    line[j],
                    "`_Pragma(\"GCC dependency …\")` reads another file: the service reads \
                     only the submitted files and the system headers"
                        .into(),
                ),
                None if !cx.pasting.is_empty() => refuse(
                    line[j],
                    "a `_Pragma` computed by a macro, in a submission whose macros paste tokens \
                     (`##`): it could be made to read another file (`GCC dependency`), and the \
                     service reads only the submitted files and the system headers"
                        .into(),
                ),
                _ => {}
            }
        }
        j = e;
    }
    let Some(body) = directive_body(line) else {
        return;
    };
    const RULE: &str = "the service reads only the submitted files and the system headers: \
                        name a submitted file (`#include \"defs.h\"`) or a system header \
                        (`#include <math.h>`)";
    let k = blanks(body, 0);
    if let Some((d, e)) = ident(body, k) {
        match d.as_str() {
            "include" | "include_next" | "import" | "embed" => {
                let a = blanks(body, e);
                match literal(body, a) {
                    Some((name, _)) => match bad_name(&name) {
                        Some(why) => refuse(body[k], format!("`#{d}` {why}: {RULE}")),
                        None => {
                            if !named.contains(&name) {
                                named.push(name);
                            }
                        }
                    },
                    None => refuse(
                        body[k],
                        format!(
                            "`#{d}` without a literal name (computed by a macro, it could \
                             name any file): {RULE}"
                        ),
                    ),
                }
            }
            "pragma" => {
                let mut j = e;
                while j < body.len() {
                    match ident(body, j) {
                        Some((w, e)) => {
                            if w == "dependency" {
                                refuse(
                                    body[j],
                                    format!("`#pragma GCC dependency` reads another file: {RULE}"),
                                );
                            }
                            j = e;
                        }
                        None => j += 1,
                    }
                }
            }
            "if" | "elif" => {
                let mut j = e;
                while j < body.len() {
                    match ident(body, j) {
                        Some((w, e)) => {
                            if cx.pasting.contains(&w) {
                                refuse(
                                    body[j],
                                    format!(
                                        "`#{d}` with `{w}`, a macro that pastes tokens (`##`): \
                                         it could assemble `__has_include` and look any file \
                                         up; {RULE}"
                                    ),
                                );
                                break;
                            }
                            j = e;
                        }
                        None => j += 1,
                    }
                }
            }
            _ => {}
        }
    }
    // The operators that look a file up, wherever they stand on a directive line (`#if`,
    // a `#define` that hides one).
    let mut j = 0;
    while j < body.len() {
        let Some((w, e)) = ident(body, j) else {
            j += 1;
            continue;
        };
        if matches!(
            w.as_str(),
            "__has_include" | "__has_include_next" | "__has_embed"
        ) {
            let open = blanks(body, e);
            let arg = (body.get(open).map(|c| c.0) == Some('('))
                .then(|| literal(body, blanks(body, open + 1)))
                .flatten();
            match arg {
                Some((name, _)) => {
                    if let Some(why) = bad_name(&name) {
                        refuse(body[j], format!("`{w}` {why}: {RULE}"));
                    }
                }
                None => refuse(
                    body[j],
                    format!(
                        "`{w}` without a literal name (computed by a macro, it could name any \
                         file): {RULE}"
                    ),
                ),
            }
        }
        j = e;
    }
}

#[cfg(test)]
mod tests {
    use super::scan;

    fn refused(name: &str, text: &str) -> Vec<(u32, u32)> {
        scan([(name, text)])
            .refused
            .iter()
            .map(|r| (r.line, r.column))
            .collect()
    }

    #[test]
    fn literal_relative_names_are_accepted() {
        let s = scan([(
            "f.c",
            "#include \"defs.h\"\n#  include <math.h>\n#if __has_include(\"x.h\")\n#endif\n\
             #include <sys/types.h>\n",
        )]);
        assert!(s.refused.is_empty(), "{:?}", s.refused);
        assert_eq!(s.named, ["defs.h", "math.h", "sys/types.h"]);
    }

    #[test]
    fn leaving_the_submission_is_refused_at_its_line() {
        assert_eq!(
            refused("f.c", "int x;\n#include \"/etc/passwd\"\n"),
            [(2, 2)]
        );
        assert_eq!(refused("f.c", "#include \"../x\"\n"), [(1, 2)]);
        assert_eq!(refused("f.c", "#include <../../etc/passwd>\n"), [(1, 2)]);
        assert_eq!(refused("f.c", "#include <a/../../b>\n"), [(1, 2)]);
        assert_eq!(
            refused("f.c", "#define FOO \"x.h\"\n#include FOO\n"),
            [(2, 2)]
        );
        assert_eq!(refused("f.c", "#  include_next \"/x\"\n"), [(1, 4)]);
        assert_eq!(refused("f.c", "#import \"/x\"\n"), [(1, 2)]);
        assert_eq!(refused("f.c", "#embed \"/x\"\n"), [(1, 2)]);
        assert_eq!(
            refused("f.c", "#if __has_include(</x>)\n#endif\n"),
            [(1, 5)]
        );
        assert_eq!(refused("f.c", "#define H __has_include\n"), [(1, 11)]);
        assert_eq!(
            refused("f.c", "#pragma GCC dependency \"/etc/passwd\"\n"),
            [(1, 13)]
        );
    }

    #[test]
    fn pasting_cannot_assemble_a_lookup() {
        let cat = "#define CAT(a, b) a##b\n#define HAS CAT(__has_inc, lude)\n";
        assert_eq!(
            refused(
                "f.c",
                &format!("{cat}#if CAT(__has_inc, lude)(\"/x\")\n#endif\n")
            ),
            [(3, 5)]
        );
        assert_eq!(
            refused("f.c", &format!("{cat}#if 1\n#elif HAS(\"/x\")\n#endif\n")),
            [(4, 7)]
        );
        // Pasting elsewhere, and `#if` on plain macros, are fine.
        let ok = format!("{cat}#define N 3\n#if N > 2\n#endif\ndouble CAT(x, y);\n");
        assert!(refused("f.c", &ok).is_empty());
        // A computed `_Pragma` is fine unless the submission pastes tokens.
        let omp = "#define OMP(x) _Pragma(#x)\n";
        assert!(refused("f.c", omp).is_empty());
        assert_eq!(refused("f.c", &format!("{omp}{cat}")), [(1, 16)]);
        assert_eq!(
            refused("f.c", "_Pragma(\"GCC dependency \\\"/x\\\"\")\n"),
            [(1, 1)]
        );
    }

    #[test]
    fn splices_comments_and_digraphs_do_not_hide_a_directive() {
        assert_eq!(refused("f.F", "#inc\\\nlude \"/etc/passwd\"\n"), [(1, 2)]);
        assert_eq!(refused("f.F90", "#inc/**/lude \"/etc/passwd\"\n"), [(1, 2)]);
        assert_eq!(refused("f.F90", "# /*\n*/ include \"/x\"\n"), [(2, 4)]);
        assert_eq!(refused("f.c", "%:include \"/x\"\n"), [(1, 3)]);
        // A string that holds `/*` opens no comment in C; a `//` comment hides none either.
        let c = "const char *s = \"/*\";\n#include \"/x\"\n/* */\n";
        assert_eq!(refused("f.c", c), [(2, 2)]);
        let c = "// see /*\n#include \"/x\"\n";
        assert_eq!(refused("f.c", c), [(2, 2)]);
    }

    #[test]
    fn words_outside_directives_are_no_include() {
        assert!(refused("f.F90", "! we include /etc/passwd\nx = 1\n").is_empty());
        assert!(refused("f.c", "const char *w = \"#include </x>\";\n").is_empty());
    }
}
