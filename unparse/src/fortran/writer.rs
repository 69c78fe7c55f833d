//! The Fortran writer's state and its primitives: a logical line at the current
//! indentation, continued with `&` past 132 columns (never inside a string), with the
//! statement span of each line.

use radtap_il::*;

const MAX_LINE: usize = 132;

/// The string-literal state after character `c`: the open quote, or `None` outside strings.
fn quote_state(q: Option<char>, c: char) -> Option<char> {
    match (q, c) {
        (Some(open), c) if c == open => None,
        (Some(open), _) => Some(open),
        (None, '\'' | '"') => Some(c),
        (None, _) => None,
    }
}

/// The writer: the program, the text so far, the indentation, and each line's span.
pub(super) struct W<'p> {
    pub(super) p: &'p Program,
    pub(super) out: String,
    pub(super) indent: usize,
    /// The statement span of each line written.
    pub(super) map: crate::LineSpans,
}

impl<'p> W<'p> {
    /// Emits one logical line at the current indentation, continued with `&` past 132 columns.
    pub(crate) fn line(&mut self, s: &str) {
        self.line_with_label(None, s)
    }

    /// Ends the line just written with comment `c`, as the source had it; on a line of its
    /// own when that line would pass 132 columns.
    pub(crate) fn trail(&mut self, c: &str) {
        let start = self.out[..self.out.len().saturating_sub(1)]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let width = self.out.len() - start;
        if self.out.ends_with('\n') && width + c.trim().len() < MAX_LINE {
            self.out.pop();
            self.out.push(' ');
            self.out.push_str(c.trim());
            self.out.push('\n');
        } else {
            self.line(c);
        }
    }

    pub(crate) fn line_with_label(&mut self, label: Option<&str>, s: &str) {
        let mut first = String::new();
        if let Some(l) = label {
            first.push_str(l);
            first.push(' ');
        }
        let pad = (self.indent * 2).saturating_sub(first.len());
        first.push_str(&" ".repeat(pad));
        if s.trim_start().starts_with('!') {
            // Comments are written as they came (never continued).
            self.out.push_str(&first);
            self.out.push_str(s.trim_start());
            self.out.push('\n');
            return;
        }
        let full = format!("{first}{s}");
        if full.len() <= MAX_LINE {
            self.out.push_str(&full);
            self.out.push('\n');
            return;
        }
        self.wrap(&full);
    }

    fn wrap(&mut self, full: &str) {
        // Split after a blank or comma outside strings when possible; otherwise at the limit,
        // which inside a string is the `&`...`&` character-context continuation.
        let chars: Vec<char> = full.chars().collect();
        let mut start = 0;
        let mut quote: Option<char> = None;
        let mut first = true;
        // Continuation lines are indented past the statement, then `&` (which also continues
        // a character context).
        let cont = format!("{}&", " ".repeat((self.indent * 2 + 4).min(60)));
        loop {
            if !first {
                self.out.push_str(&cont);
            }
            let budget = if first {
                MAX_LINE - 1
            } else {
                MAX_LINE - 1 - cont.len()
            };
            if chars.len() - start <= budget {
                self.out.extend(&chars[start..]);
                self.out.push('\n');
                return;
            }
            let limit = start + budget;
            let mut cut = limit;
            let mut q = quote;
            for (i, &c) in chars.iter().enumerate().take(limit).skip(start) {
                q = quote_state(q, c);
                if q.is_none() && (c == ' ' || c == ',') && i > start + 10 {
                    cut = i + 1;
                }
            }
            quote = chars[start..cut]
                .iter()
                .fold(quote, |q, &c| quote_state(q, c));
            self.out.extend(&chars[start..cut]);
            self.out.push_str("&\n");
            start = cut;
            first = false;
        }
    }

    pub(crate) fn name(&self, s: SymbolId) -> &'p str {
        self.p.name(s)
    }
}
