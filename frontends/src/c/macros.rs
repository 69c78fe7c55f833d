//! Macro uses in expressions. A use of a macro whose expansion reads data (a variable, a
//! function, anything but constants: `#define XFIRST x[0]`) is expanded: the body, with the
//! arguments of a function-like macro substituted as cpp substitutes them (as text), is
//! parsed on its own and lowered in the scope of the use, every node of it located at the
//! use. Constant object-like macros (`#define N 3`, `#define EPS 1e-9`) stay names, so that
//! an integer macro is a constant. A use that cannot be expanded (the body is no expression,
//! or uses `#`/`##`) while its expansion may read data is refused, naming the macro.

use super::lower::*;
use crate::ts::{named_children, Field};
use radtap_il::*;
use tree_sitter::Node;

/// How deep macros may expand inside macros (a self-referential macro stops here).
const MAX_DEPTH: u32 = 32;

const C_WORDS: &[&str] = &[
    "sizeof", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "void",
    "const", "volatile", "struct", "union", "enum", "_Bool", "restrict",
];

/// The identifiers of a macro body, in order (string and character literals skipped).
fn identifiers(body: &str) -> Vec<(usize, usize)> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c.is_ascii_digit() || c == b'.' {
            // A number, with its suffixes and exponents (`1e-9`, `0x1fUL`).
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Whether macro text may write what it names: an assignment (`=`, `*=`, not `==`, `<=`,
/// `>=`, `!=`), `++`, `--`, or an address taken (`&`, not `&&`). A logging macro
/// (`printf(#x "=%g", x)`) does not.
fn may_write(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| {
        let prev = if i > 0 { b[i - 1] } else { b' ' };
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        match b[i] {
            b'=' => !matches!(prev, b'=' | b'!' | b'<' | b'>') && next != b'=',
            b'+' | b'-' => next == b[i],
            b'&' => prev != b'&' && next != b'&',
            _ => false,
        }
    })
}

/// Whether a macro body is one operand wherever it is pasted: a name, a number, a string,
/// or parenthesised whole.
fn atomic(body: &str) -> bool {
    let t = body.trim();
    let b = t.as_bytes();
    let Some(&first) = b.first() else {
        return true;
    };
    if first == b'(' {
        // The parenthesis opened first closes at the end.
        let mut depth = 0;
        for (i, &c) in b.iter().enumerate() {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1 == b.len();
                    }
                }
                _ => {}
            }
        }
        return false;
    }
    if first == b'"' {
        return b.len() > 1 && b[b.len() - 1] == b'"' && !t[1..t.len() - 1].contains('"');
    }
    if first.is_ascii_alphabetic() || first == b'_' {
        return b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    }
    if first.is_ascii_digit() || first == b'.' {
        // A number with its suffixes and exponent (`1e-9`, `0x1fUL`, `2.5f`).
        return b.iter().enumerate().all(|(i, &c)| {
            c.is_ascii_alphanumeric()
                || c == b'.'
                || ((c == b'+' || c == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P'))
        });
    }
    false
}

/// The binding strength of a C binary operator (higher binds tighter).
fn precedence(op: &str) -> u8 {
    match op {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "<" | "<=" | ">" | ">=" => 7,
        "==" | "!=" => 6,
        "&" => 5,
        "^" => 4,
        "|" => 3,
        "&&" => 2,
        _ => 1,
    }
}

/// A macro expansion parsed as the body of a function (`void radtap_macro_use(void) { … }`):
/// the wrapped text and its tree.
fn parse_expansion(text: &str) -> (String, Option<tree_sitter::Tree>) {
    let wrapped = format!("void radtap_macro_use(void) {{\n{text}\n;}}\n");
    let mut parser = tree_sitter::Parser::new();
    let language: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
    let tree = match parser.set_language(&language) {
        Ok(()) => parser.parse(&wrapped, None),
        Err(_) => None,
    };
    (wrapped, tree)
}

/// The body with each parameter replaced by its argument's text.
fn substitute(body: &str, params: &[String], args: &[String]) -> String {
    let mut out = String::new();
    let mut last = 0;
    for (s, e) in identifiers(body) {
        if let Some(k) = params.iter().position(|p| p == &body[s..e]) {
            out.push_str(&body[last..s]);
            out.push_str(&args[k]);
            last = e;
        }
    }
    out.push_str(&body[last..]);
    out
}

/// Node kinds that bind as one operand wherever they stand.
const ATOMS: &[&str] = &[
    "identifier",
    "number_literal",
    "string_literal",
    "char_literal",
    "true",
    "false",
    "null",
    "subscript_expression",
    "call_expression",
    "field_expression",
    "parenthesized_expression",
];

impl<'a, 's> CLower<'a, 's> {
    /// Whether the expansion of the object-like or function-like macro `name` may read
    /// data: its body names a declared variable or function, or another such macro.
    fn macro_reads_data(&self, name: &str, depth: u32) -> bool {
        let Some(def) = self.macros.get(name) else {
            return false;
        };
        let params = def.params.clone().unwrap_or_default();
        self.text_reads_data(&def.body, &params, depth)
    }

    /// Whether macro text (a body with parameters `params`, or an expansion) names a
    /// declared variable or function, or a macro whose expansion may read data.
    fn text_reads_data(&self, text: &str, params: &[String], depth: u32) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        identifiers(text).into_iter().any(|(s, e)| {
            let id = &text[s..e];
            if params.iter().any(|p| p == id) || C_WORDS.contains(&id) {
                return false;
            }
            match self.p.lookup(self.scope, id) {
                Some(sym) => self.p.symbols[sym].kind != SymbolKind::Type,
                None => {
                    self.macros.get(id).is_some_and(|d| d.params.is_some())
                        || self.macro_reads_data(id, depth + 1)
                }
            }
        })
    }

    /// A use of the object-like macro `n` (an identifier): its expansion, or `None` when it
    /// stays a name (a constant, or not a macro).
    pub(super) fn object_macro(&mut self, n: Node) -> Option<ExprId> {
        let name = self.t(n);
        let def = self.macros.get(name)?;
        // A constant stays a name, unless its body is no single operand (`GAMMA-1.0`: the
        // name pasted into a derivative's product would bind to the wrong operands) or its
        // definition changes in the file (the generated file has the last one).
        let constant = !self.macro_reads_data(name, 0)
            && atomic(&def.body)
            && !self.redefined.iter().any(|r| r == name);
        if def.params.is_some() || constant {
            return None;
        }
        let body = def.body.clone();
        self.expand(name, &body, n)
    }

    /// A call `f(args)` of the function-like macro `f`: its expansion, or `None` when `f`
    /// is no function-like macro.
    pub(super) fn function_macro(&mut self, n: Node, f: Node, al: Option<Node>) -> Option<ExprId> {
        if f.kind() != "identifier" {
            return None;
        }
        let name = self.t(f);
        let def = self.macros.get(name)?;
        let params = def.params.clone()?;
        let body = def.body.clone();
        let Some((params, args)) = self.macro_args(&params, al) else {
            let sp = self.sp(n);
            self.diags.push(Diagnostic::error(
                Code::Syntax,
                sp,
                format!("the macro `{name}` takes {} arguments", params.len()),
            ));
            return Some(self.opaque(n));
        };
        let text = substitute(&body, &params, &args);
        self.expand(name, &text, n)
    }

    /// The parameters and argument texts of a use of a function-like macro (`__VA_ARGS__`
    /// standing for the arguments from the `...` on); `None` when their numbers differ.
    fn macro_args(
        &self,
        params: &[String],
        al: Option<Node>,
    ) -> Option<(Vec<String>, Vec<String>)> {
        let mut params = params.to_vec();
        let mut args: Vec<String> = match al {
            Some(al) => named_children(al)
                .into_iter()
                .filter(|c| c.kind() != "comment")
                .map(|c| self.t(c).to_string())
                .collect(),
            None => vec![],
        };
        // `f(fmt, ...)`: `__VA_ARGS__` stands for the arguments from the `...` on.
        if params.last().is_some_and(|p| p == "...") {
            let k = params.len() - 1;
            params[k] = "__VA_ARGS__".to_string();
            if args.len() > k {
                let rest = args.split_off(k).join(", ");
                args.push(rest);
            } else if args.len() == k {
                args.push(String::new());
            }
        }
        let no_args = params.is_empty() || (params.len() == 1 && args.is_empty());
        if args.len() != params.len() && !no_args {
            return None;
        }
        let args = if args.is_empty() {
            vec![String::new(); params.len()]
        } else {
            args
        };
        Some((params, args))
    }

    /// A statement that uses a function-like macro whose expansion is statements (`SWAP(a,
    /// b);` with `{ double t = (a); (a) = (b); (b) = t; }`, the `do { … } while (0)` idiom,
    /// an `if`, a statement list): the expansion lowered in its place, as cpp pastes it.
    /// A statement list is expanded only where it stands in a block (under an unbraced `if`
    /// or loop only its first statement would be governed). `false` when `n` is no such use
    /// (the expression path then expands it or refuses it).
    pub(super) fn statement_macro(&mut self, n: Node, out: &mut Block) -> bool {
        let call = named_children(n)
            .into_iter()
            .find(|c| c.kind() != "comment");
        let Some(call) = call.filter(|c| c.kind() == "call_expression") else {
            return false;
        };
        let Some(f) = call.field("function").filter(|f| f.kind() == "identifier") else {
            return false;
        };
        let name = self.t(f).to_string();
        let Some(def) = self.macros.get(&name) else {
            return false;
        };
        let Some(params) = def.params.clone() else {
            return false;
        };
        if self.macro_depth >= MAX_DEPTH || def.body.contains('#') {
            return false;
        }
        let body = def.body.clone();
        let Some((params, args)) = self.macro_args(&params, call.field("arguments")) else {
            return false;
        };
        let text = substitute(&body, &params, &args);
        let (wrapped, tree) = parse_expansion(&text);
        let Some(tree) = tree.filter(|t| !t.root_node().has_error()) else {
            return false;
        };
        let root = tree.root_node();
        let empty = |s: &Node| {
            s.kind() == "expression_statement"
                && named_children(*s).iter().all(|c| c.kind() == "comment")
        };
        let stmts: Vec<Node> = root
            .named_child(0)
            .and_then(|f| f.field("body"))
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|s| s.kind() != "comment" && !empty(s))
            .collect();
        match stmts.as_slice() {
            [] => return false,
            // An expression: the expression path.
            [s] if s.kind() == "expression_statement" => return false,
            // `if (c) MAC(x); else …` with an `if` without `else` for MAC: cpp gives the
            // `else` to the macro's `if` (the dangling else), which an expansion in place
            // would not: left to the expression path (refused when it writes).
            [s] if s.kind() == "if_statement" && s.field("alternative").is_none() => {
                let dangling = n.parent().is_some_and(|p| {
                    p.kind() == "if_statement"
                        && p.field("consequence") == Some(n)
                        && p.field("alternative").is_some()
                });
                if dangling {
                    return false;
                }
            }
            [_] => {}
            _ => {
                let in_block = n
                    .parent()
                    .is_some_and(|p| matches!(p.kind(), "compound_statement" | "case_statement"));
                if !in_block {
                    return false;
                }
            }
        }
        let dirs = std::mem::take(&mut self.pending_dirs);
        let mut sub = self.nested(n, &wrapped, dirs);
        // A `break` or `continue` in the body leaves the `do { … } while (0)` of the macro
        // (or a loop inside it), never the user's loop: such a body stays a loop.
        let leaves = identifiers(&text)
            .into_iter()
            .any(|(a, b)| matches!(&text[a..b], "break" | "continue"));
        for s in stmts {
            // `do { … } while (0)`: its body, once.
            let once = s.kind() == "do_statement"
                && !leaves
                && s.field("condition")
                    .is_some_and(|c| wrapped[c.byte_range()].replace(' ', "") == "(0)");
            match s.field("body").filter(|_| once) {
                Some(b) => sub.stmt_into(b, None, out),
                None => sub.stmt_into(s, None, out),
            }
        }
        let (macros, dirs) = (sub.macros, sub.pending_dirs);
        self.macros = macros;
        self.pending_dirs = dirs;
        true
    }

    /// A lowering of the expansion `wrapped` of the macro used at `n`, in this scope, every
    /// node located at the use; it holds the macros until they are taken back.
    fn nested<'b>(
        &'b mut self,
        n: Node,
        wrapped: &'b str,
        pending_dirs: Vec<Directive>,
    ) -> CLower<'b, 'b> {
        let sp = self.sp(n);
        CLower {
            p: &mut *self.p,
            diags: &mut *self.diags,
            file: self.file,
            src: wrapped,
            global: self.global,
            file_unit: self.file_unit,
            unit: self.unit,
            scope: self.scope,
            macros: std::mem::take(&mut self.macros),
            pending_dirs,
            pending_omp: None,
            omp_regions: self.omp_regions,
            omp_worksharing: vec![],
            proto_params: self.proto_params.clone(),
            line_map: self.line_map,
            span_at: Some(sp),
            macro_depth: self.macro_depth + 1,
            redefined: self.redefined.clone(),
        }
    }

    /// `None` (the use stays a call or a name, as an unknown function or a constant) when
    /// the expansion `text` reads no data; otherwise the refusal. The arguments count: a
    /// statement macro `SCALE(w, x[1])` (`{ (v) *= (s); }`) writes `w` as cpp expands it,
    /// which a call taking `w` by value could not (it was kept as such a call: silently
    /// wrong).
    fn refuse_macro(&mut self, name: &str, text: &str, n: Node, why: &str) -> Option<ExprId> {
        let writes_args = may_write(text) && self.text_reads_data(text, &[], 0);
        if !self.macro_reads_data(name, 0) && !writes_args {
            return None;
        }
        let sp = self.sp(n);
        let d = Diagnostic::error(
            Code::NoDerivative,
            sp,
            format!("the macro `{name}` {why}: radtap cannot differentiate through it; write it as a function or expand it by hand"),
        );
        // Inside a function: reported when a head reaches it (GSL's `gsl_sf_erf(x)`, a
        // wrapper around `gsl_sf_erf_e` by `EVAL_RESULT`, which stringifies the call,
        // refused every head of its file).
        if self.unit != self.file_unit {
            self.u().refusals.push(d);
        } else {
            self.diags.push(d);
        }
        Some(self.opaque(n))
    }

    /// Lowers the expansion `text` of the macro `name` used at `n` (`None`: the use stays
    /// as it is written, see [`Self::refuse_macro`]).
    fn expand(&mut self, name: &str, text: &str, n: Node) -> Option<ExprId> {
        if self.macro_depth >= MAX_DEPTH {
            return self.refuse_macro(name, text, n, "expands into itself");
        }
        if text.contains('#') {
            return self.refuse_macro(name, text, n, "uses `#` or `##`");
        }
        let (wrapped, tree) = parse_expansion(text);
        let Some(tree) = tree else {
            return self.refuse_macro(name, text, n, "could not be read");
        };
        let root = tree.root_node();
        let stmts = root
            .named_child(0)
            .and_then(|f| f.field("body"))
            .map(named_children)
            .unwrap_or_default();
        let expr = match stmts.as_slice() {
            [s] if !root.has_error() && s.kind() == "expression_statement" => {
                named_children(*s).into_iter().next()
            }
            _ => None,
        };
        let Some(expr) = expr else {
            return self.refuse_macro(name, text, n, "has a body that is not an expression");
        };
        // cpp pastes the text: a body that is an operator expression would bind to the
        // operators around the use, which lowering it as one operand would not do.
        let atom = ATOMS.contains(&expr.kind());
        let bound = n.parent().is_some_and(|p| {
            matches!(
                p.kind(),
                "binary_expression"
                    | "unary_expression"
                    | "pointer_expression"
                    | "cast_expression"
                    | "update_expression"
                    | "field_expression"
                    | "sizeof_expression"
            ) || (p.kind() == "subscript_expression" && p.field("argument") == Some(n))
                || (p.kind() == "call_expression" && p.field("function") == Some(n))
        });
        // Pasted between binary operators that bind less tightly than its own top operator
        // (`i < NPTS+1`), the body is one operand after all.
        let pasted_whole = n.parent().is_some_and(|p| {
            p.kind() == "binary_expression" && {
                let left = p.field("left") == Some(n);
                let outer = p.field("operator").map(|o| precedence(self.t(o)));
                let inner = (expr.kind() == "binary_expression")
                    .then(|| expr.field("operator"))
                    .flatten()
                    .map(|o| precedence(&wrapped[o.byte_range()]));
                match (outer, inner) {
                    (Some(o), Some(i)) => i > o || (left && i == o),
                    _ => false,
                }
            }
        });
        if !atom && bound && !pasted_whole {
            // Kept as a name, the generated derivative would paste it into other operators
            // (`sd / NP1` with `NP1` = `NPTS+1`): refused even when it reads no data.
            let sp = self.sp(n);
            self.diags.push(Diagnostic::error(
                Code::NoDerivative,
                sp,
                format!("the macro `{name}` has a body that is not parenthesised (`{}`), used as an operand: cpp binds it to the operators around it, which the derivative code would not reproduce; parenthesise its body", text.trim()),
            ));
            return Some(self.opaque(n));
        }
        let mut sub = self.nested(n, &wrapped, Vec::new());
        let e = sub.expr(expr);
        self.macros = sub.macros;
        Some(if atom {
            e
        } else {
            self.alloc(Expr::Paren(e), n)
        })
    }
}
