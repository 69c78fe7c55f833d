//! Fixed-form (F77) to free-form conversion that keeps every line where it was.
//!
//! tree-sitter-fortran does not parse fixed form (PARSING-NOTES.md). The conversion is
//! position-preserving: line numbers never change and columns change only where tabs are
//! expanded, so spans found in the converted text point into the user's file.
//! - `C`, `c`, `*`, `!` or `D` in column 1 (and blank-label `!` comments) become `!` comments;
//! - columns 73 and beyond are dropped (sequence numbers);
//! - a continuation line (non-blank, non-zero column 6) gets `&` in column 6, and the previous
//!   code line gets a trailing `&` (before its own `!` comment, outside strings);
//! - blanks are insignificant in fixed form, so blanks inside a name are closed up:
//!   `COMMON /C/ A B` names one variable `AB`, and `X 1 = Y` assigns `X1` ([`join_name_blanks`]).

use radtap_il::{Code, Diagnostic, Span};

/// Converts fixed-form source to free form. Diagnostics for malformed lines.
pub fn to_free_form(src: &str, file: u32) -> (String, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    // Index in `lines` of the last code line, and the byte where a `&` must be inserted.
    let mut last_code: Option<usize> = None;
    // String state carried into continuation lines, and whether the statement is a FORMAT
    // (whose Hollerith and edit descriptors keep their blanks).
    let mut quote: Option<char> = None;
    let mut format_stmt = false;
    // Whether the statement is a DATA statement (whose Hollerith constants stay as written:
    // a Hollerith datum of a numeric variable is no character constant).
    let mut data_stmt = false;
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
            let mut code: Vec<char> = chars.iter().skip(6).copied().collect();
            match last_code {
                Some(i) => {
                    // A name, number or operator split by the end of the line (`0.1D+03.` /
                    // `OR. X`, `ALPHA` / `BETA`) is one token in fixed form: the part on the
                    // continuation line joins the previous line (whose later columns hold
                    // nothing) and leaves blanks where it was.
                    if quote.is_none() && !format_stmt {
                        if let Some((joined, n)) = split_token(&lines[i], &code) {
                            lines[i] = joined;
                            let start = code.iter().position(|&c| c != ' ').unwrap_or(0);
                            code[start..start + n].iter_mut().for_each(|c| *c = ' ');
                        }
                    }
                    lines[i] = insert_continuation_mark(&lines[i]);
                }
                None => bad(
                    6,
                    1,
                    "continuation mark in column 6 but there is no statement to continue".into(),
                ),
            }
            let mut out = label_field;
            out.push('&');
            if format_stmt {
                out.extend(code);
            } else {
                out.push_str(&join_name_blanks(&code, &mut quote, !data_stmt));
            }
            lines.push(out);
        } else {
            if !label.chars().all(|c| c.is_ascii_digit()) {
                bad(
                    1,
                    5,
                    format!("the label field (columns 1-5) must hold a number, found `{label}`"),
                );
            }
            let code: Vec<char> = chars.iter().skip(6).copied().collect();
            quote = None;
            let first_word: String = code
                .iter()
                .filter(|c| **c != ' ')
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            format_stmt = first_word.to_ascii_uppercase().starts_with("FORMAT");
            data_stmt = first_word.to_ascii_uppercase().starts_with("DATA");
            if format_stmt || code.is_empty() {
                lines.push(line);
            } else {
                let mut out: String = chars.iter().take(6).collect();
                out.push_str(&join_name_blanks(&code, &mut quote, !data_stmt));
                lines.push(out);
            }
        }
        last_code = Some(lines.len() - 1);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    (out, diags)
}

/// Words after which a blank separates (statement keywords, type names, `GO TO`, `END DO`,
/// `ELSE IF`, ...): everywhere else two words with only blanks between are one name.
const KEYWORDS: &[&str] = &[
    "ALLOCATABLE",
    "ALLOCATE",
    "ASSIGN",
    "BACKSPACE",
    "BLOCK",
    "BLOCKDATA",
    "BYTE",
    "CALL",
    "CASE",
    "CHARACTER",
    "CLASS",
    "CLOSE",
    "COMMON",
    "COMPLEX",
    "CONTAINS",
    "CONTINUE",
    "CYCLE",
    "DATA",
    "DEALLOCATE",
    "DEFAULT",
    "DIMENSION",
    "DO",
    "DOUBLE",
    "ELEMENTAL",
    "ELSE",
    "ELSEIF",
    "ELSEWHERE",
    "END",
    "ENDDO",
    "ENDIF",
    "ENTRY",
    "EQUIVALENCE",
    "EXIT",
    "EXTERNAL",
    "FORALL",
    "FORMAT",
    "FUNCTION",
    "GO",
    "GOTO",
    "IF",
    "IMPLICIT",
    "IN",
    "INCLUDE",
    "INOUT",
    "INQUIRE",
    "INTEGER",
    "INTENT",
    "INTERFACE",
    "INTRINSIC",
    "LOGICAL",
    "MODULE",
    "NAMELIST",
    "NONE",
    "OPEN",
    "OPTIONAL",
    "OUT",
    "PARAMETER",
    "PAUSE",
    "POINTER",
    "PRECISION",
    "PRINT",
    "PROCEDURE",
    "PROGRAM",
    "PURE",
    "READ",
    "REAL",
    "RECURSIVE",
    "RESULT",
    "RETURN",
    "REWIND",
    "SAVE",
    "SELECT",
    "STOP",
    "SUBROUTINE",
    "TARGET",
    "THEN",
    "TO",
    "TYPE",
    "USE",
    "WHERE",
    "WHILE",
    "WRITE",
];

/// Words that start a new part of a statement even after a name (`IF (…) THEN` is after a
/// parenthesis; these are for safety: never glue a name to them).
const NEVER_GLUED_AFTER: &[&str] = &["THEN", "FUNCTION", "SUBROUTINE"];

/// Closes up blanks inside names in the code part of a fixed-form line (columns 7-72):
/// `A B` becomes `AB ` (the blank moves after the name, so later columns do not move).
/// Blanks are kept after a keyword (`CALL S`, `GO TO 10`, `DOUBLE PRECISION X`), between a
/// number and a name (`DO 10 I`, `REAL*8 X`, `ASSIGN 10 TO L`), in strings (`quote` carries
/// an open string into the next continuation line) and in `!` comments.
fn join_name_blanks(code: &[char], quote: &mut Option<char>, hollerith: bool) -> String {
    let is_w = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < code.len() {
        let c = code[i];
        if let Some(q) = *quote {
            out.push(c);
            if c == q {
                *quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            '\'' | '"' => {
                *quote = Some(c);
                out.push(c);
                i += 1;
            }
            '!' => {
                out.extend(&code[i..]);
                break;
            }
            c if is_w(c) => {
                if let Some((text, end)) = number(code, i, &out, hollerith) {
                    let pad = (end - i).saturating_sub(text.chars().count());
                    out.push_str(&text);
                    out.extend(std::iter::repeat_n(' ', pad));
                    i = end;
                    continue;
                }
                // A name, with the blanks closed up where the next word continues it.
                let mut word = String::new();
                let mut moved = 0;
                loop {
                    let start = i;
                    while i < code.len() && is_w(code[i]) {
                        i += 1;
                    }
                    let part: String = code[start..i].iter().collect();
                    word.push_str(&part);
                    out.push_str(&part);
                    let mut k = i;
                    while k < code.len() && code[k] == ' ' {
                        k += 1;
                    }
                    let next_start = k;
                    while k < code.len() && is_w(code[k]) {
                        k += 1;
                    }
                    let next: String = code[next_start..k].iter().collect();
                    if next_start > i && !next.is_empty() && glues(&word, &next) {
                        moved += next_start - i;
                        i = next_start;
                    } else {
                        break;
                    }
                }
                out.extend(std::iter::repeat_n(' ', moved));
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A numeric constant starting at `code[i]` whose blanks must be closed up, with the index
/// after it: a real constant with blanks among its digits or before its exponent (QUADPACK's
/// `0.1294849661 6886969327 0611432679 082 D0`, `1 000.0D0`; blanks are insignificant in
/// fixed form), or a Hollerith actual argument (`CALL XERROR(26HABNORMAL RETURN FROM DQAGS,
/// …)`, after `(` or `,` outside DATA statements when `hollerith`), written as a character
/// constant. `None` for anything else (`DO 10 I`, `REAL*8 X`, an integer), which the name
/// rule handles.
fn number(code: &[char], i: usize, out: &str, hollerith: bool) -> Option<(String, usize)> {
    let n = code.len();
    let blanks = |mut j: usize| {
        while j < n && code[j] == ' ' {
            j += 1;
        }
        j
    };
    let digits = |lit: &mut String, mut j: usize| {
        // Digit groups separated by blanks: one run of digits.
        loop {
            while j < n && code[j].is_ascii_digit() {
                lit.push(code[j]);
                j += 1;
            }
            let k = blanks(j);
            if k > j && k < n && code[k].is_ascii_digit() {
                j = k;
            } else {
                return j;
            }
        }
    };
    let mut j = i;
    while j < n && code[j].is_ascii_digit() {
        j += 1;
    }
    let prev = out.trim_end().chars().last();
    if hollerith && matches!(prev, Some('(' | ',')) && j < n && matches!(code[j], 'h' | 'H') {
        let len: usize = code[i..j].iter().collect::<String>().parse().ok()?;
        let text: String = code.get(j + 1..j + 1 + len)?.iter().collect();
        let q = if !text.contains('\'') { '\'' } else { '"' };
        let body = if q == '"' && text.contains('"') {
            text.replace('"', "\"\"")
        } else {
            text
        };
        return Some((format!("{q}{body}{q}"), j + 1 + len));
    }
    let mut lit = String::new();
    let mut j = digits(&mut lit, i);
    let exponent_at = |j: usize| {
        let k = blanks(j);
        if k >= n || !matches!(code[k], 'd' | 'D' | 'e' | 'E' | 'q' | 'Q') {
            return None;
        }
        let mut m = blanks(k + 1);
        if m < n && matches!(code[m], '+' | '-') {
            m = blanks(m + 1);
        }
        (m < n && code[m].is_ascii_digit()).then_some(k)
    };
    // A decimal point: digits, an exponent, or no letter after it (`1.`, not `1.EQ.`).
    if j < n && code[j] == '.' {
        let after = code.get(j + 1).copied();
        let dot_digits = after.is_some_and(|c| c.is_ascii_digit());
        if dot_digits
            || exponent_at(j + 1) == Some(j + 1)
            || !after.is_some_and(|c| c.is_ascii_alphabetic())
        {
            lit.push('.');
            j += 1;
            if dot_digits {
                j = digits(&mut lit, j);
            }
        } else {
            return None;
        }
    } else {
        // An integer (no decimal point: an exponent after blanks, `10 D1` of `DO 10 D1 = …`,
        // is not one): the name rule closes up its digit groups.
        return None;
    }
    if let Some(k) = exponent_at(j) {
        lit.push(code[k]);
        let mut m = blanks(k + 1);
        if matches!(code[m], '+' | '-') {
            lit.push(code[m]);
            m = blanks(m + 1);
        }
        j = digits(&mut lit, m);
    }
    // Only where blanks were closed up: anything else is left to the name rule.
    let written: String = code[i..j].iter().collect();
    (written != lit).then_some((lit, j))
}

/// Whether `next`, after only blanks, continues the name `word`.
fn glues(word: &str, next: &str) -> bool {
    let w = word.to_ascii_uppercase();
    let n = next.to_ascii_uppercase();
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if KEYWORDS.contains(&w.as_str()) || NEVER_GLUED_AFTER.contains(&n.as_str()) {
        return false;
    }
    // F2008 `ERROR STOP` (msise00's fixed-form `error stop` became `errorstop`, AD010).
    if w == "ERROR" && n == "STOP" {
        return false;
    }
    // `DO 10 I`, `REAL*8 X`, `ASSIGN 10 TO L`: a number is not the start of a name.
    if digits(&w) && !digits(&n) {
        return false;
    }
    true
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
/// When code line `prev` ends in a token that the continuation's `code` goes on with (blanks
/// are insignificant in fixed form), `prev` with the continuation's part of it appended and
/// that part's length. Only where tokens are split: a word (name or number) followed by a
/// word that continues it ([`glues`]: not after a keyword, not `DO 10` / `I`), or a `.`
/// followed by a word (`.` / `OR.`, `1.` / `5`).
fn split_token(prev: &str, code: &[char]) -> Option<(String, usize)> {
    let is_w = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let (end, open) = code_end(prev);
    if open {
        return None;
    }
    let (head, comment) = prev.split_at(end);
    let head = head.trim_end();
    let last = head.chars().last()?;
    let start = code.iter().position(|&c| c != ' ')?;
    let mut part: String = code[start..].iter().take_while(|&&c| is_w(c)).collect();
    if part.is_empty() {
        return None;
    }
    // `.` / `OR.`: the operator's closing dot goes with it.
    if last == '.'
        && part.chars().all(|c| c.is_ascii_alphabetic())
        && code.get(start + part.len()) == Some(&'.')
    {
        part.push('.');
    }
    // A line ending in a whole operator (`.OR.`, `.TRUE.`) ends a token; one ending in a dot
    // that opens an operator or follows digits (`0.1D+03.`, `X .`) does not.
    let whole_operator = last == '.' && {
        let before: String = head[..head.len() - 1]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        !before.is_empty() && head[..head.len() - 1 - before.len()].ends_with('.')
    };
    let joins = if last == '.' {
        !whole_operator
    } else if is_w(last) {
        let word: String = head
            .chars()
            .rev()
            .take_while(|&c| is_w(c))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        head.len() > 6 && glues(&word, &part)
    } else {
        false
    };
    joins.then(|| {
        let gap = if comment.is_empty() { "" } else { " " };
        (format!("{head}{part}{gap}{comment}"), part.chars().count())
    })
}

fn insert_continuation_mark(line: &str) -> String {
    let (end, _) = code_end(line);
    let (code, comment) = line.split_at(end);
    if comment.is_empty() {
        format!("{}&", code.trim_end())
    } else {
        format!("{}& {}", code.trim_end(), comment)
    }
}

/// Where the code of converted line `line` ends (at its `!` comment outside strings, or the
/// line's end), and whether a string is still open there. The label/continuation field
/// (columns 1-6) is skipped: a `!` there is not a comment.
fn code_end(line: &str) -> (usize, bool) {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        if i < 6 {
            continue;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '!') => return (i, false),
            _ => {}
        }
    }
    (line.len(), quote.is_some())
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
    fn blanks_inside_names_are_closed_up() {
        let src = "      COMMON /C/ A B, /D/ X Y Z\n      X 1 = Y 2 + 1 000\n      CALL S 1(A B, 'A B')\n      DO 10 I = 1, 3\n      GO TO 10\n      DOUBLE PRECISION P Q\n        error stop\n";
        let (out, d) = to_free_form(src, 0);
        assert!(d.is_empty());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "      COMMON /C/ AB , /D/ XYZ  ");
        assert_eq!(lines[1], "      X1  = Y2  + 1000 ");
        assert_eq!(lines[2], "      CALL S1 (AB , 'A B')");
        assert_eq!(lines[3], "      DO 10 I = 1, 3");
        assert_eq!(lines[4], "      GO TO 10");
        assert_eq!(lines[5], "      DOUBLE PRECISION PQ ");
        assert_eq!(lines[6], "        error stop");
    }

    /// Tokens split by the end of a line: QUADPACK's `0.1d+03.` / `or.errsum`, a name, a
    /// number; not after a keyword (`GO TO` / `10`) nor between a number and a name.
    #[test]
    fn tokens_split_across_continuation_lines_are_joined() {
        let src = "      IF (R.GT.0.1D+03.\n     *OR.E.GT.1) Y = ALPHA\n     *BETA + 1\n     *5\n      GO TO\n     *10\n      DO 10\n     * I = 1, 3\n      IF (I.NE.0.OR.\n     *  A.EQ.0) X = 1\n";
        let (out, d) = to_free_form(src, 0);
        assert!(d.is_empty());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "      IF (R.GT.0.1D+03.OR.&");
        assert_eq!(lines[1], "     &   E.GT.1) Y = ALPHABETA&");
        assert_eq!(lines[2], "     &     + 15&");
        assert_eq!(lines[3], "     & ");
        assert_eq!(lines[4], "      GO TO&");
        assert_eq!(lines[5], "     &10");
        assert_eq!(lines[6], "      DO 10&");
        assert_eq!(lines[7], "     & I = 1, 3");
        assert_eq!(lines[8], "      IF (I.NE.0.OR.&");
        assert_eq!(lines[9], "     &  A.EQ.0) X = 1");
    }

    /// QUADPACK's constants (`0.1294849661 6886969327 0611432679 082 D0`) and Hollerith
    /// arguments (`CALL XERROR(26HABNORMAL RETURN FROM DQAGS, …)`), refused before (AD010);
    /// what must not change: `DO 10 D1 = …`, `1.EQ.I`, `X .GT. 1. .AND. …`, a DATA Hollerith.
    #[test]
    fn blanks_inside_numbers_and_hollerith_arguments() {
        let src = "      DATA WG(1) / 0.1294849661 6886969327 082 D0 /\n      X = 1 000.5 D-3 + 1.5 E 2 + 2. d0\n      CALL XERROR(6HBAD  Y, 6, 1HA, 2H'A)\n      DO 10 D1 = 1, 3\n      IF (1.EQ.I .AND. X .GT. 1. .AND. 2 .LT. 3) Y = 1.5\n      DATA H / 4HABCD /\n      Y = F(1, 2H X)\n";
        let (out, d) = to_free_form(src, 0);
        assert!(d.is_empty());
        let lines: Vec<&str> = out.lines().collect();
        let orig: Vec<&str> = src.lines().collect();
        for (a, b) in lines.iter().zip(&orig) {
            assert_eq!(a.len(), b.len(), "columns kept: {a}");
        }
        assert_eq!(
            lines[0],
            "      DATA WG(1) / 0.12948496616886969327082D0    /"
        );
        assert_eq!(lines[1], "      X = 1000.5D-3   + 1.5E2   + 2.d0 ");
        assert_eq!(lines[2], "      CALL XERROR('BAD  Y', 6, 'A', \"'A\")");
        assert_eq!(lines[3], "      DO 10 D1 = 1, 3");
        assert_eq!(lines[4], orig[4]);
        assert_eq!(lines[5], orig[5]);
        assert_eq!(lines[6], "      Y = F(1, ' X')");
    }

    #[test]
    fn continuation_on_first_line_is_reported() {
        let (_, d) = to_free_form("     &X = 1\n", 0);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, Code::FixedForm);
    }
}
