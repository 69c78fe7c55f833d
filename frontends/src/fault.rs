//! Locating the fault inside a construct the parser could not read. tree-sitter reports a
//! missing `)` or END DO as one ERROR node spanning the whole procedure; these line scanners
//! find the line a compiler would name: a parenthesis never closed, a block never ended.

/// A fault found: 0-based row and column within the scanned text, and the message.
pub(crate) struct Fault {
    pub(crate) row: usize,
    pub(crate) col: usize,
    pub(crate) msg: String,
}

/// Fortran (free form, or fixed form already read as lines): unbalanced parentheses within a
/// statement (continuations joined), and block constructs (DO, IF-THEN, SELECT, WHERE,
/// FORALL, BLOCK, ASSOCIATE) not ended before the procedure's END.
pub(crate) fn fortran(text: &str) -> Option<Fault> {
    // Blocks open: (keyword, row, col).
    let mut blocks: Vec<(&'static str, usize, usize)> = Vec::new();
    // The statement being read: open parentheses (row, col), its first row and words.
    let mut parens: Vec<(usize, usize)> = Vec::new();
    let mut stmt = String::new();
    let mut stmt_row = 0;
    let mut stmt_col = 0;
    for (row, line) in text.lines().enumerate() {
        let mut code = String::new();
        let (mut quote, mut col0) = (None::<char>, None);
        let mut continued = false;
        for (col, ch) in line.char_indices() {
            match quote {
                Some(q) => {
                    if ch == q {
                        quote = None;
                    }
                    code.push(' ');
                    continue;
                }
                None if ch == '\'' || ch == '"' => {
                    quote = Some(ch);
                    code.push(' ');
                    continue;
                }
                None if ch == '!' => break,
                None => {}
            }
            if col0.is_none() && !ch.is_whitespace() {
                if ch == '&' && !stmt.is_empty() {
                    continue;
                }
                col0 = Some(col);
            }
            match ch {
                '(' => parens.push((row, col)),
                ')' => {
                    if parens.pop().is_none() {
                        return Some(Fault {
                            row,
                            col,
                            msg: "syntax error: this `)` closes no parenthesis".into(),
                        });
                    }
                }
                _ => {}
            }
            code.push(ch);
        }
        let trimmed = code.trim_end();
        if let Some(stripped) = trimmed.strip_suffix('&') {
            continued = true;
            code = stripped.to_string();
        }
        if stmt.is_empty() {
            stmt_row = row;
            stmt_col = col0.unwrap_or(0);
        }
        stmt.push_str(&code);
        stmt.push(' ');
        if continued {
            continue;
        }
        // The statement is complete.
        if let Some(&(r, c)) = parens.first() {
            return Some(Fault {
                row: r,
                col: c,
                msg: "missing `)`: this parenthesis is never closed in its statement".into(),
            });
        }
        let s = std::mem::take(&mut stmt);
        if let Some(f) = block_word(&s, stmt_row, stmt_col, &mut blocks) {
            return Some(f);
        }
    }
    None
}

/// Tracks block openers and closers of one statement; a unit END (or CONTAINS) with a block
/// still open, or a closer of the wrong kind, is the fault.
fn block_word(
    stmt: &str,
    row: usize,
    col: usize,
    blocks: &mut Vec<(&'static str, usize, usize)>,
) -> Option<Fault> {
    let low = stmt.trim().to_ascii_lowercase();
    // A statement label, then a construct name `name:`.
    let mut s = low
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start();
    if let Some((name, rest)) = s.split_once(':') {
        if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            s = rest.trim_start();
        }
    }
    let words: Vec<&str> = s
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let first = words.first().copied().unwrap_or("");
    let second = words.get(1).copied().unwrap_or("");
    let unclosed = |blocks: &[(&'static str, usize, usize)]| {
        blocks.last().map(|&(k, r, c)| Fault {
            row: r,
            col: c,
            msg: format!(
                "missing `END {}`: this {} is never ended",
                k.to_ascii_uppercase(),
                k.to_ascii_uppercase()
            ),
        })
    };
    let opener: Option<&'static str> = match first {
        // `do 10 i = ...` ends at a label: not tracked.
        "do" if !second.chars().next().is_some_and(|c| c.is_ascii_digit()) => Some("do"),
        "if" if s.trim_end().ends_with("then") => Some("if"),
        "select" => Some("select"),
        "where" | "forall" if s.trim_end().ends_with(')') => {
            Some(if first == "where" { "where" } else { "forall" })
        }
        "block" if second.is_empty() => Some("block"),
        "associate" => Some("associate"),
        _ => None,
    };
    if let Some(k) = opener {
        blocks.push((k, row, col));
        return None;
    }
    let closer = match (first, second) {
        ("enddo", _) | ("end", "do") => Some("do"),
        ("endif", _) | ("end", "if") => Some("if"),
        ("endselect", _) | ("end", "select") => Some("select"),
        ("endwhere", _) | ("end", "where") => Some("where"),
        ("endforall", _) | ("end", "forall") => Some("forall"),
        ("endblock", _) | ("end", "block") => Some("block"),
        ("endassociate", _) | ("end", "associate") => Some("associate"),
        _ => None,
    };
    if let Some(k) = closer {
        return match blocks.pop() {
            Some((open, _, _)) if open == k => None,
            Some(top) => {
                blocks.push(top);
                unclosed(blocks)
            }
            None => Some(Fault {
                row,
                col,
                msg: format!(
                    "syntax error: this END {} closes no {}",
                    k.to_ascii_uppercase(),
                    k.to_ascii_uppercase()
                ),
            }),
        };
    }
    let unit_end = first == "contains"
        || (first == "end"
            && matches!(
                second,
                "" | "subroutine" | "function" | "program" | "module"
            ))
        || matches!(
            first,
            "endsubroutine" | "endfunction" | "endprogram" | "endmodule"
        );
    if unit_end && !blocks.is_empty() {
        return unclosed(blocks);
    }
    None
}

/// C: a `(` or `[` still open at a `;` (outside a `for` header) or at a `}`, and a `{` never
/// closed.
pub(crate) fn c(text: &str) -> Option<Fault> {
    let chars: Vec<char> = text.chars().collect();
    let (mut row, mut col) = (0usize, 0usize);
    let mut stack: Vec<(char, usize, usize, bool)> = Vec::new();
    let mut i = 0;
    let mut last_word = String::new();
    while i < chars.len() {
        let ch = chars[i];
        let (r, c) = (row, col);
        // Advance the position first.
        if ch == '\n' {
            row += 1;
            col = 0;
        } else {
            col += 1;
        }
        i += 1;
        match ch {
            '/' if chars.get(i) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                    col += 1;
                }
            }
            '/' if chars.get(i) == Some(&'*') => {
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    if chars[i] == '\n' {
                        row += 1;
                        col = 0;
                    } else {
                        col += 1;
                    }
                    i += 1;
                }
                i += 2;
                col += 2;
            }
            '"' | '\'' => {
                while i < chars.len() && chars[i] != ch && chars[i] != '\n' {
                    if chars[i] == '\\' {
                        i += 1;
                        col += 1;
                    }
                    i += 1;
                    col += 1;
                }
                if chars.get(i) != Some(&ch) {
                    let what = if ch == '"' {
                        "string"
                    } else {
                        "character constant"
                    };
                    return Some(Fault {
                        row: r,
                        col: c,
                        msg: format!("missing `{ch}`: this {what} is never closed on its line"),
                    });
                }
                i += 1;
                col += 1;
            }
            '(' | '[' | '{' => {
                let for_header = ch == '(' && last_word == "for";
                stack.push((ch, r, c, for_header));
            }
            ')' | ']' | '}' => {
                let want = match ch {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                match stack.pop() {
                    Some((open, _, _, _)) if open == want => {}
                    Some((open, orow, ocol, _)) => {
                        let close = if open == '(' {
                            ')'
                        } else if open == '[' {
                            ']'
                        } else {
                            '}'
                        };
                        return Some(Fault {
                            row: orow,
                            col: ocol,
                            msg: format!("missing `{close}`: this `{open}` is never closed"),
                        });
                    }
                    None => {
                        return Some(Fault {
                            row: r,
                            col: c,
                            msg: format!("syntax error: this `{ch}` closes nothing"),
                        })
                    }
                }
            }
            ';' => {
                if let Some(&(open, orow, ocol, for_header)) = stack.last() {
                    if open != '{' && !for_header {
                        let close = if open == '(' { ')' } else { ']' };
                        return Some(Fault {
                            row: orow,
                            col: ocol,
                            msg: format!("missing `{close}`: this `{open}` is never closed"),
                        });
                    }
                }
            }
            _ => {}
        }
        if ch.is_alphanumeric() || ch == '_' {
            if i >= 2 && !(chars[i - 2].is_alphanumeric() || chars[i - 2] == '_') {
                last_word.clear();
            }
            last_word.push(ch);
        } else if !ch.is_whitespace() {
            last_word.clear();
        }
    }
    stack.last().map(|&(open, orow, ocol, _)| {
        let close = if open == '(' {
            ')'
        } else if open == '[' {
            ']'
        } else {
            '}'
        };
        Fault {
            row: orow,
            col: ocol,
            msg: format!("missing `{close}`: this `{open}` is never closed"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(f: Option<Fault>) -> Option<(usize, usize, String)> {
        f.map(|f| (f.row, f.col, f.msg))
    }

    #[test]
    fn fortran_faults_are_found_at_their_line() {
        let f = at(fortran(
            "subroutine f(x, y)\n  real(8) :: x, y\n  y = sin(x + 1.0d0\nend subroutine f\n",
        ));
        assert_eq!(
            f.map(|(r, c, m)| (r, c, m.starts_with("missing `)`"))),
            Some((2, 9, true))
        );
        let f = at(fortran(
            "subroutine g(x, y)\n  do i = 1, 3\n    y = y + x\nend subroutine g\n",
        ));
        assert_eq!(
            f.map(|(r, _, m)| (r, m)),
            Some((1, "missing `END DO`: this DO is never ended".into()))
        );
        let f = at(fortran(
            "subroutine g(x)\n  if (x > 0) then\n    do i = 1, 3\n    end do\n  y = 1\nend\n",
        ));
        assert_eq!(f.map(|(r, _, _)| r), Some(1));
        // Well-formed code: nothing to report (strings, comments and continuations respected).
        let ok = "subroutine h(x)\n  outer: do i = 1, 3\n    print *, 'a (', x ! (\n    y = f(x, &\n      & 2)\n  end do outer\n  where (x > 0) x = 1\n  do 10 i = 1, 2\n10 continue\nend subroutine h\n";
        assert!(fortran(ok).is_none());
    }

    #[test]
    fn c_faults_are_found_at_their_line() {
        let f = at(c(
            "double f(double x) {\n  double y = sin(x;\n  return y;\n}\n",
        ));
        assert_eq!(f.map(|(r, c, _)| (r, c)), Some((1, 16)));
        let f = at(c(
            "void g(double *y) {\n  for (int i = 0; i < 3; i++) {\n    y[i] = 1;\n}\n",
        ));
        assert_eq!(
            f.map(|(r, _, m)| (r, m)),
            Some((0, "missing `}`: this `{` is never closed".into()))
        );
        assert!(c("void h(void) { for (;;) { a[(1)] = \"(\"; /* ( */ } }\n").is_none());
    }
}
