//! Syntax colouring on the server: each line of a Fortran or C file as HTML, with `<span
//! class>` around comments (`c`), strings (`s`), numbers (`n`), keywords (`k`) and
//! preprocessor lines (`p`); the stylesheet of the page gives the colours. A small lexer, not a
//! parser: it only has to be right about where comments and strings start and end, so that the
//! rest of the text is escaped and shown as it is.

/// HTML-escapes `s` (`&`, `<`, `>`, `"`, `'`).
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const FORTRAN_KEYWORDS: &[&str] = &[
    "allocatable",
    "allocate",
    "call",
    "case",
    "character",
    "complex",
    "contains",
    "cycle",
    "data",
    "deallocate",
    "default",
    "dimension",
    "do",
    "double",
    "else",
    "elseif",
    "elsewhere",
    "end",
    "enddo",
    "endif",
    "exit",
    "external",
    "function",
    "go",
    "goto",
    "if",
    "implicit",
    "in",
    "inout",
    "integer",
    "intent",
    "interface",
    "intrinsic",
    "kind",
    "logical",
    "module",
    "none",
    "only",
    "optional",
    "out",
    "parameter",
    "pointer",
    "precision",
    "private",
    "program",
    "public",
    "pure",
    "real",
    "recursive",
    "result",
    "return",
    "save",
    "select",
    "stop",
    "subroutine",
    "target",
    "then",
    "type",
    "use",
    "where",
    "while",
];

const C_KEYWORDS: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while",
];

/// The language of a file name, for colouring: C for `.c`/`.h`, Fortran otherwise.
fn is_c(name: &str) -> bool {
    name.ends_with(".c") || name.ends_with(".h")
}

/// Whether a fixed-form Fortran file (`.f`, `.for`, `.f77`, `.F`, `.ftn`): a `c` or `*` in
/// column 1 starts a comment there.
fn is_fixed(name: &str) -> bool {
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    matches!(ext, "f" | "for" | "f77" | "F" | "FOR" | "ftn")
}

fn span(out: &mut String, class: &str, text: &str) {
    out.push_str("<span class=\"");
    out.push_str(class);
    out.push_str("\">");
    out.push_str(&escape(text));
    out.push_str("</span>");
}

/// Each line of `text` as coloured HTML (without the line break).
pub(crate) fn lines(name: &str, text: &str) -> Vec<String> {
    let c = is_c(name);
    let fixed = is_fixed(name);
    let mut in_block_comment = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let mut html = String::new();
        let ch: Vec<char> = line.chars().collect();
        let mut i = 0;
        if !c && (line.trim_start().starts_with('#') || (fixed && starts_fixed_comment(line))) {
            span(&mut html, if fixed { "c" } else { "p" }, line);
            out.push(html);
            continue;
        }
        if c && !in_block_comment && line.trim_start().starts_with('#') {
            span(&mut html, "p", line);
            out.push(html);
            continue;
        }
        while i < ch.len() {
            if in_block_comment {
                let start = i;
                while i < ch.len() && !(ch[i] == '*' && ch.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                if i < ch.len() {
                    i += 2;
                    in_block_comment = false;
                }
                span(&mut html, "c", &collect(&ch[start..i]));
                continue;
            }
            let x = ch[i];
            if (c && x == '/' && ch.get(i + 1) == Some(&'/')) || (!c && x == '!') {
                span(&mut html, "c", &collect(&ch[i..]));
                break;
            }
            if c && x == '/' && ch.get(i + 1) == Some(&'*') {
                in_block_comment = true;
                let start = i;
                i += 2;
                while i < ch.len() && !(ch[i] == '*' && ch.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                if i < ch.len() {
                    i += 2;
                    in_block_comment = false;
                }
                span(&mut html, "c", &collect(&ch[start..i]));
                continue;
            }
            if x == '"' || x == '\'' {
                let start = i;
                i += 1;
                while i < ch.len() && ch[i] != x {
                    if c && ch[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i = (i + 1).min(ch.len());
                span(&mut html, "s", &collect(&ch[start..i]));
                continue;
            }
            if x.is_ascii_digit() || (x == '.' && ch.get(i + 1).is_some_and(char::is_ascii_digit)) {
                let start = i;
                while i < ch.len()
                    && (ch[i].is_ascii_alphanumeric()
                        || ch[i] == '.'
                        || ch[i] == '_'
                        || ((ch[i] == '+' || ch[i] == '-')
                            && matches!(ch[i - 1], 'e' | 'E' | 'd' | 'D')))
                {
                    // `1.eq.x`: the dot of an operator ends the number.
                    if ch[i] == '.' && ch.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic()) {
                        let rest: String = ch[i + 1..].iter().take(4).collect();
                        if rest.contains('.') && !c {
                            break;
                        }
                    }
                    i += 1;
                }
                span(&mut html, "n", &collect(&ch[start..i]));
                continue;
            }
            if x.is_alphabetic() || x == '_' {
                let start = i;
                while i < ch.len() && (ch[i].is_alphanumeric() || ch[i] == '_') {
                    i += 1;
                }
                let word = collect(&ch[start..i]);
                let keyword = if c {
                    C_KEYWORDS.contains(&word.as_str())
                } else {
                    FORTRAN_KEYWORDS.contains(&word.to_ascii_lowercase().as_str())
                };
                if keyword {
                    span(&mut html, "k", &word);
                } else {
                    html.push_str(&escape(&word));
                }
                continue;
            }
            html.push_str(&escape(&x.to_string()));
            i += 1;
        }
        out.push(html);
    }
    out
}

fn starts_fixed_comment(line: &str) -> bool {
    matches!(line.chars().next(), Some('c' | 'C' | '*'))
}

fn collect(c: &[char]) -> String {
    c.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_strings_and_keywords_get_their_classes_and_text_is_escaped() {
        let l = lines("a.f90", "  y = x*2.5d0 ! a < b\n  print *, 'it''s'\n");
        assert_eq!(
            l[0],
            "  y = x*<span class=\"n\">2.5d0</span> <span class=\"c\">! a &lt; b</span>"
        );
        assert!(
            l[1].contains("<span class=\"s\">&#39;it&#39;</span>"),
            "{}",
            l[1]
        );
        let l = lines("a.c", "#include <math.h>\n/* x\n y */ int z; // <\n");
        assert_eq!(l[0], "<span class=\"p\">#include &lt;math.h&gt;</span>");
        assert_eq!(l[1], "<span class=\"c\">/* x</span>");
        assert!(l[2].starts_with("<span class=\"c\"> y */</span> <span class=\"k\">int</span>"));
        assert!(
            l[2].ends_with("<span class=\"c\">// &lt;</span>"),
            "{}",
            l[2]
        );
    }
}
