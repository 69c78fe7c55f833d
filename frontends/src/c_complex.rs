//! C99 complex types (`double complex` with `<complex.h>`, `_Complex`, `_Imaginary`) are not
//! in tree-sitter-c's grammar and radtap has no derivative rules for complex values: they are
//! refused with AD020 at the type keyword, so the user reads why rather than only a syntax
//! error at the declared name.

use radtap_il::{Code, Diagnostic, Span};

/// One AD020 per complex type keyword in `text` (comments, strings and preprocessor lines
/// skipped). `complex` counts only in a file that includes `<complex.h>`.
pub(crate) fn complex_types(text: &str, file: u32, line_map: Option<&[u32]>) -> Vec<Diagnostic> {
    let has_header = text
        .lines()
        .any(|l| l.trim_start().starts_with('#') && l.contains("complex.h"));
    let mut out = Vec::new();
    let mut in_block = false;
    for (row, line) in text.lines().enumerate() {
        if !in_block && line.trim_start().starts_with('#') {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        let mut in_str: Option<char> = None;
        while i < chars.len() {
            let c = chars[i];
            if in_block {
                if c == '*' && chars.get(i + 1) == Some(&'/') {
                    in_block = false;
                    i += 1;
                }
                i += 1;
                continue;
            }
            if let Some(q) = in_str {
                if c == '\\' {
                    i += 1;
                } else if c == q {
                    in_str = None;
                }
                i += 1;
                continue;
            }
            match c {
                '/' if chars.get(i + 1) == Some(&'/') => break,
                '/' if chars.get(i + 1) == Some(&'*') => {
                    in_block = true;
                    i += 2;
                    continue;
                }
                '"' | '\'' => in_str = Some(c),
                _ if c.is_ascii_alphabetic() || c == '_' => {
                    let start = i;
                    while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                        i += 1;
                    }
                    // Only a word spelled like one of the three is collected (every word of
                    // the file was: an allocation per word).
                    let is = |w: &str| chars[start..i].iter().copied().eq(w.chars());
                    let complex =
                        is("_Complex") || is("_Imaginary") || (has_header && is("complex"));
                    if complex {
                        let word: String = chars[start..i].iter().collect();
                        let line = match line_map {
                            Some(m) => m.get(row).copied().unwrap_or(row as u32 + 1),
                            None => row as u32 + 1,
                        };
                        let sp = Span {
                            file,
                            line,
                            col: start as u32 + 1,
                            len: word.len() as u32,
                        };
                        out.push(Diagnostic::error(
                            Code::Unsupported,
                            sp,
                            format!("unsupported construct: the C99 complex type `{word}`; complex values and their derivatives are not supported yet (use pairs of `double`)"),
                        ));
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}
