//! Parentheses around a plain operand settled before tree-sitter (issue 43: linear parse
//! time on machine-generated C).
//!
//! `(x) - (y)` is a cast of `-(y)` to type `x` or a difference, depending on whether `x` names
//! a type. tree-sitter-c keeps both readings as stack versions and compares their subtrees at
//! each merge: on a generated statement of 4,000 parenthesised operands (`(x[0]) - (x[1]) *
//! (y) - …`) the parse took 13 s, growing faster than the square of the length. Once the unit
//! is known, the question is settled by the text: the parentheses of `(v)`, where `v` is a
//! postfix expression (`x`, `x[i]`, `p->a.b[k]`, `f(a)`) whose first name is no type, change
//! nothing (a postfix expression binds tighter than any operator around it), so they are
//! replaced by blanks. Every byte keeps its offset: spans, lines and columns are unchanged.
//!
//! Only statements with many such groups are touched (`MANY`): ordinary code is parsed as it
//! is written, and its parentheses stay in the output. Never touched: parentheses after a name
//! or a keyword but `return` (`f(x)`, `if (x)`, `sizeof (x)`), after `)` or `]` (a cast's operand), around
//! anything that starts with a type name, a keyword or a name any `typedef` of the file
//! mentions.

use std::borrow::Cow;
use std::collections::HashSet;

/// Statements with fewer settleable groups are left as written.
const MANY: usize = 64;

/// The text with the parentheses of plain operands blanked in statements that have many.
pub(crate) fn settle(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    // Cheap test first: most files have no statement that long.
    if b.iter().filter(|&&c| c == b'(').count() < MANY {
        return Cow::Borrowed(text);
    }
    let types = typedef_names(b);
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut statement: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' | b'\'' => i = skip_literal(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') || b.get(i + 1) == Some(&b'*') => {
                i = skip_comment(b, i)
            }
            b'#' if line_start(b, i) => {
                // A preprocessor line (with its continuations).
                while i < b.len() && !(b[i] == b'\n' && b[i - 1] != b'\\') {
                    i += 1;
                }
            }
            b';' | b'{' | b'}' => {
                if statement.len() >= MANY {
                    groups.append(&mut statement);
                }
                statement.clear();
                i += 1;
            }
            b'(' => {
                if let Some(close) = plain_operand(b, i, &types) {
                    statement.push((i, close));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    if statement.len() >= MANY {
        groups.append(&mut statement);
    }
    if groups.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = b.to_vec();
    for (open, close) in groups {
        out[open] = b' ';
        out[close] = b' ';
    }
    // Only ASCII parentheses were replaced by ASCII blanks.
    Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

/// If `b[open]` opens `( name postfix* )` where the parentheses change nothing, the index of
/// its `)`.
fn plain_operand(b: &[u8], open: usize, types: &HashSet<&[u8]>) -> Option<usize> {
    // What comes before: an operator, `(`, `,`, `=`, `[`, `?`, `:`, or the start.
    let end = b[..open]
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |k| k + 1);
    let start = b[..end]
        .iter()
        .rposition(|&c| !is_word(c))
        .map_or(0, |k| k + 1);
    let after_return = &b[start..end] == b"return";
    let before = end.checked_sub(1).map(|k| b[k]);
    if !after_return && before.is_some_and(|c| is_word(c) || c == b')' || c == b']' || c == b'}') {
        return None;
    }
    let mut i = skip_blanks(b, open + 1);
    let name = word(b, i)?;
    // A name ending in `_t` is taken for a type (`uint32_t`, `int64_t`).
    if types.contains(name) || KEYWORDS.contains(&name) || name.ends_with(b"_t") {
        return None;
    }
    i += name.len();
    loop {
        i = skip_blanks(b, i);
        match b.get(i)? {
            b')' => return Some(i),
            b'[' => i = balanced(b, i, b'[', b']')? + 1,
            b'(' => i = balanced(b, i, b'(', b')')? + 1,
            b'.' => {
                i = skip_blanks(b, i + 1);
                i += word(b, i)?.len();
            }
            b'-' if b.get(i + 1) == Some(&b'>') => {
                i = skip_blanks(b, i + 2);
                i += word(b, i)?.len();
            }
            _ => return None,
        }
    }
}

/// The index of the bracket closing the one at `i`, over nested brackets, literals and
/// comments; None when the statement ends first.
fn balanced(b: &[u8], mut i: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i = skip_literal(b, i);
                continue;
            }
            b';' | b'{' | b'}' => return None,
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Every name appearing in a `typedef` declaration of the text (from the keyword to its `;`
/// outside braces): a superset of the type names the file defines.
fn typedef_names(b: &[u8]) -> HashSet<&[u8]> {
    let mut names = HashSet::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(w) = word(b, i) {
            let starts = i == 0 || !is_word(b[i - 1]);
            i += w.len();
            if starts && w == b"typedef" {
                let mut depth = 0i32;
                while i < b.len() {
                    match b[i] {
                        b'{' => depth += 1,
                        b'}' => depth -= 1,
                        b';' if depth <= 0 => break,
                        _ => {}
                    }
                    if let Some(n) = word(b, i) {
                        if !is_word(b[i - 1]) {
                            names.insert(n);
                        }
                        i += n.len();
                    } else {
                        i += 1;
                    }
                }
            }
        } else {
            i += 1;
        }
    }
    names
}

/// C keywords and the common library type names a header not read may define.
const KEYWORDS: &[&[u8]] = &[
    b"auto",
    b"break",
    b"case",
    b"char",
    b"const",
    b"continue",
    b"default",
    b"do",
    b"double",
    b"else",
    b"enum",
    b"extern",
    b"float",
    b"for",
    b"goto",
    b"if",
    b"inline",
    b"int",
    b"long",
    b"register",
    b"restrict",
    b"return",
    b"short",
    b"signed",
    b"sizeof",
    b"static",
    b"struct",
    b"switch",
    b"typedef",
    b"union",
    b"unsigned",
    b"void",
    b"volatile",
    b"while",
    b"_Bool",
    b"_Complex",
    b"_Imaginary",
    b"__restrict",
    b"__inline",
    b"__attribute__",
    b"__typeof__",
    b"typeof",
    b"size_t",
    b"ptrdiff_t",
    b"FILE",
    b"va_list",
    b"bool",
    b"complex",
];

/// The identifier starting at `i` (a letter or `_` first).
fn word(b: &[u8], i: usize) -> Option<&[u8]> {
    let first = *b.get(i)?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let end = b[i..]
        .iter()
        .position(|&c| !is_word(c))
        .map_or(b.len(), |k| i + k);
    Some(&b[i..end])
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Past a string or character literal starting at `i`.
fn skip_literal(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut k = i + 1;
    while k < b.len() && b[k] != q && b[k] != b'\n' {
        k += if b[k] == b'\\' { 2 } else { 1 };
    }
    (k + 1).min(b.len())
}

/// Past a comment starting at `i`.
fn skip_comment(b: &[u8], i: usize) -> usize {
    if b[i + 1] == b'/' {
        b[i..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |k| i + k)
    } else {
        b[i + 2..]
            .windows(2)
            .position(|w| w == b"*/")
            .map_or(b.len(), |k| i + 2 + k + 2)
    }
}

fn line_start(b: &[u8], i: usize) -> bool {
    b[..i]
        .iter()
        .rev()
        .take_while(|&&c| c != b'\n')
        .all(|c| c.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn many(s: &str) -> String {
        // A statement of MANY copies of `s`, joined by ` - `.
        vec![s; MANY].join(" - ")
    }

    #[test]
    fn plain_operands_lose_their_parentheses_in_long_statements() {
        let text = format!(
            "double f(double *x, double y) {{ return {}; }}",
            many("(x[1]) * (y)")
        );
        let out = settle(&text);
        assert_eq!(out.len(), text.len());
        assert!(!out.contains("(x[1])") && !out.contains("(y)"), "{out}");
        assert!(out.contains(" x[1]  *  y "), "{out}");
    }

    #[test]
    fn short_statements_and_casts_stay_as_written() {
        let short = "double f(double *x, double y) { return (x[1]) - (y); }";
        assert_eq!(settle(short), short);
        let text = format!(
            "typedef double real; double f(real *x, double y) {{ return {}; }}",
            many("(real)(y) + (double) y + sizeof (y) + g(y) + (size_t)(y) + (uint32_t) y + (real *) x")
        );
        let out = settle(&text);
        for kept in [
            "(real)(y)",
            "(double) y",
            "sizeof (y)",
            "g(y)",
            "(size_t)(y)",
            "(uint32_t) y",
            "(real *) x",
        ] {
            assert!(out.contains(kept), "{kept}: {out}");
        }
    }

    #[test]
    fn postfix_chains_and_literals() {
        let text = format!(
            "double f(struct s *p) {{ if (p) return {}; return 0; }}",
            many("(p->a.b[k]) + (h(\")\", 2))")
        );
        let out = settle(&text);
        assert!(out.contains("if (p)"), "{out}");
        assert!(out.contains(" p->a.b[k]  +  h(\")\", 2) "), "{out}");
    }
}
