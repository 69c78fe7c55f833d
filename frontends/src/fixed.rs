//! Fixed-form (F77) to free-form conversion that keeps every line where it was.
//!
//! tree-sitter-fortran does not parse fixed form (PARSING-NOTES.md). The conversion is
//! position-preserving: line numbers never change and columns change only where tabs are
//! expanded, so spans found in the converted text point into the user's file.
//! - `C`, `c`, `*`, `!` or `D` in column 1 (and blank-label `!` comments) become `!` comments;
//! - columns 73 and beyond are dropped (sequence numbers);
//! - a continuation line (non-blank, non-zero column 6) gets `&` in column 6, and the previous
//!   code line gets a trailing `&` (before its own `!` comment, outside strings).

use radtap_il::{Code, Diagnostic, Span};

/// Converts fixed-form source to free form. Diagnostics for malformed lines.
pub fn to_free_form(src: &str, file: u32) -> (String, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    // Index in `lines` of the last code line, and the byte where a `&` must be inserted.
    let mut last_code: Option<usize> = None;
    for (row, raw) in src.lines().enumerate() {
        let expanded = expand_tabs(raw);
        let line: String = expanded.chars().take(72).collect();
        let first = line.chars().next();
        let is_comment = matches!(first, Some('C' | 'c' | '*' | '!' | 'D' | 'd'))
            || line.trim().is_empty()
            || (line.len() > 6
                && line.chars().take(6).all(|c| c == ' ')
                && line[6..].trim_start().starts_with('!'))
            || (line.chars().take(6).all(|c| c == ' ') && line.trim_start().starts_with('!'));
        if is_comment {
            if matches!(first, Some('C' | 'c' | '*' | 'D' | 'd')) {
                lines.push(format!("!{}", &line[first.map_or(0, |c| c.len_utf8())..]));
            } else {
                lines.push(line);
            }
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let col6 = chars.get(5).copied().unwrap_or(' ');
        let is_cont = col6 != ' ' && col6 != '0';
        let label_field: String = chars.iter().take(5).collect();
        let label = label_field.trim();
        let mut bad = |col: u32, len: u32, msg: String| {
            let span = Span {
                file,
                line: row as u32 + 1,
                col,
                len,
            };
            diags.push(Diagnostic::error(Code::FixedForm, span, msg));
        };
        if is_cont {
            if !label.is_empty() {
                bad(
                    1,
                    5,
                    "a continuation line must have blanks in columns 1-5".into(),
                );
            }
            match last_code {
                Some(i) => lines[i] = insert_continuation_mark(&lines[i]),
                None => bad(
                    6,
                    1,
                    "continuation mark in column 6 but there is no statement to continue".into(),
                ),
            }
            let mut out = label_field;
            out.push('&');
            out.extend(chars.iter().skip(6));
            lines.push(out);
        } else {
            if !label.chars().all(|c| c.is_ascii_digit()) {
                bad(
                    1,
                    5,
                    format!("the label field (columns 1-5) must hold a number, found `{label}`"),
                );
            }
            lines.push(line);
        }
        last_code = Some(lines.len() - 1);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    (out, diags)
}

fn expand_tabs(s: &str) -> String {
    if !s.contains('\t') {
        return s.to_string();
    }
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c == '\t' {
            // DEC convention: a tab in the label field moves to column 7 (or 6 when followed by
            // a continuation digit); elsewhere it is a blank.
            if i < 6 && out.chars().count() < 6 {
                while out.chars().count() < 6 {
                    out.push(' ');
                }
            } else {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Appends `&` to a code line, before a trailing `!` comment that is outside strings.
fn insert_continuation_mark(line: &str) -> String {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        // Skip the label/continuation field: a `!` there is not a comment.
        if i < 6 {
            continue;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '!') => {
                let (code, comment) = line.split_at(i);
                return format!("{}& {}", code.trim_end(), comment);
            }
            _ => {}
        }
    }
    format!("{}&", line.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_and_comments_keep_lines() {
        let src = "C comment\n      X = 1 +\n     &    2\n*\n      Y = 3  ! c\n     1  + 4\n";
        let (out, d) = to_free_form(src, 0);
        assert!(d.is_empty());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 6);
        assert_eq!(lines[0], "! comment");
        assert_eq!(lines[1], "      X = 1 +&");
        assert_eq!(lines[2], "     &    2");
        assert_eq!(lines[4], "      Y = 3& ! c");
        assert_eq!(lines[5], "     &  + 4");
    }

    #[test]
    fn columns_past_72_are_dropped() {
        let src = format!("      X = 1{}SEQ00010\n", " ".repeat(61));
        let (out, _) = to_free_form(&src, 0);
        assert_eq!(out.trim_end(), "      X = 1");
    }

    #[test]
    fn continuation_on_first_line_is_reported() {
        let (_, d) = to_free_form("     &X = 1\n", 0);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, Code::FixedForm);
    }
}
