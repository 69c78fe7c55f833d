//! Operator expressions (binary, unary, casts, `sizeof`), re-read with the symbol table.
//!
//! `(a) - b` is a subtraction when `a` names a variable and a cast of `-b` when it names a
//! type, and tree-sitter-c cannot know which: it reads `(f) - x*y` as `((f)(-x)) * y` and
//! `(real) - y` as a subtraction. So a whole tree of operators is flattened into its tokens
//! in source order (operands, operators, casts), every `(name)` is classified as a cast or a
//! parenthesized operand by looking the name up in the scope (a variable shadows a typedef),
//! and the tokens are parsed again by precedence climbing. Flattening is iterative and the
//! parse recurses only once per precedence level, so a long chain `(x) - (x) - … * y` is
//! read in linear time and without deep recursion.

use super::lower::*;
use crate::ts::named_children;
use crate::ts::Field;
use radtap_il::*;
use tree_sitter::Node;

/// One token of an operator expression.
#[derive(Clone, Copy)]
struct Tok<'t> {
    kind: TokKind<'t>,
    /// The node the token starts at and the one it ends at (for spans).
    first: Node<'t>,
    last: Node<'t>,
}

#[derive(Clone, Copy)]
enum TokKind<'t> {
    /// An operand lowered on its own (name, literal, call, subscript, parenthesized...).
    /// `cast_name` is set when tree-sitter read `(name)` as a cast type.
    Atom {
        e: ExprId,
        cast_name: Option<&'t str>,
    },
    /// An operator spelled `text`, binary or prefix depending on its position.
    Op(&'t str),
    /// `(T)`: a cast, from tree-sitter's own cast (`ty` is its type descriptor) or from a
    /// parenthesized typedef name (`ty` is `None`, the name is `name`).
    Cast { ty: Option<Node<'t>>, name: &'t str },
}

/// Binding power of a binary operator (C precedence; all left-associative).
fn binary_op(t: &str) -> Option<(u8, BinOp)> {
    Some(match t {
        "*" => (10, BinOp::Mul),
        "/" => (10, BinOp::Div),
        "%" => (10, BinOp::Rem),
        "+" => (9, BinOp::Add),
        "-" => (9, BinOp::Sub),
        "<<" => (8, BinOp::Shl),
        ">>" => (8, BinOp::Shr),
        "<" => (7, BinOp::Lt(RelSpell::Symbol)),
        "<=" => (7, BinOp::Le(RelSpell::Symbol)),
        ">" => (7, BinOp::Gt(RelSpell::Symbol)),
        ">=" => (7, BinOp::Ge(RelSpell::Symbol)),
        "==" => (6, BinOp::Eq(RelSpell::Symbol)),
        "!=" => (6, BinOp::Ne(RelSpell::Symbol)),
        "&" => (5, BinOp::BitAnd),
        "^" => (4, BinOp::BitXor),
        "|" => (3, BinOp::BitOr),
        "&&" => (2, BinOp::And),
        "||" => (1, BinOp::Or),
        _ => return None,
    })
}

fn prefix_op(t: &str) -> Option<UnOp> {
    Some(match t {
        "-" => UnOp::Neg,
        "+" => UnOp::Plus,
        "!" => UnOp::Not,
        "~" => UnOp::BitNot,
        "*" => UnOp::Deref,
        "&" => UnOp::AddrOf,
        "sizeof" => UnOp::Sizeof,
        _ => return None,
    })
}

/// The argument of a postfix `x++`/`x--` when tree-sitter put a prefix operator tree there.
fn postfix_on_operator(n: Node) -> Option<Node> {
    let a = n.field("argument")?;
    let o = n.field("operator")?;
    let prefix_tree = matches!(
        a.kind(),
        "unary_expression" | "pointer_expression" | "cast_expression" | "sizeof_expression"
    );
    (o.start_byte() > a.start_byte() && prefix_tree).then_some(a)
}

/// A work item of the flattening: a node, or a postfix operator to apply once its operand's
/// tokens are out.
enum Item<'t> {
    Node(Node<'t>),
    Postfix(Node<'t>),
}

/// A prefix waiting for its operand: an operator or a cast.
enum Prefix<'t> {
    Op(UnOp, Node<'t>),
    Cast(Tok<'t>),
}

impl<'a, 's> CLower<'a, 's> {
    /// Whether a node is part of an operator tree (flattened) rather than an operand.
    pub(super) fn is_operator_node(&self, n: Node) -> bool {
        match n.kind() {
            "binary_expression" | "unary_expression" | "pointer_expression" | "cast_expression" => {
                true
            }
            "sizeof_expression" => n.field("value").is_some(),
            // tree-sitter reads `-a[i]++` as `(-a[i])++`: postfix binds tighter.
            "update_expression" => postfix_on_operator(n).is_some(),
            _ => false,
        }
    }

    /// Lowers a binary, unary, cast or `sizeof` expression and every operator tree below it.
    pub(super) fn operator_expr<'t>(&mut self, n: Node<'t>) -> ExprId {
        let toks = self.flatten(n);
        let mut pos = 0;
        let e = self.parse_binary(&toks, &mut pos, 1);
        match (e, toks.get(pos)) {
            (Some(e), None) => e,
            (e, rest) => {
                if let Some(t) = rest {
                    // After `(f)` read as an operand, the error is that `f` is no type.
                    let prev = pos.checked_sub(1).and_then(|p| toks.get(p));
                    match prev {
                        Some(
                            p @ Tok {
                                kind:
                                    TokKind::Atom {
                                        cast_name: Some(_), ..
                                    },
                                ..
                            },
                        ) => self.unexpected(p),
                        _ => self.unexpected(t),
                    }
                } else if e.is_none() {
                    self.syntax(n, "incomplete expression");
                }
                self.opaque(n)
            }
        }
    }

    /// Whether `name` is a type name at this point (a typedef in scope, not shadowed).
    fn names_type(&self, name: &str) -> bool {
        self.is_typedef_name(name)
    }

    /// The single identifier inside `( … )`, if that is all there is.
    fn paren_identifier<'t>(&self, n: Node<'t>) -> Option<Node<'t>> {
        let inner: Vec<Node> = named_children(n)
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .collect();
        match inner.as_slice() {
            [one] if one.kind() == "identifier" => Some(*one),
            _ => None,
        }
    }

    /// The tokens of the operator tree `root`, in source order (without recursion).
    fn flatten<'t>(&mut self, root: Node<'t>) -> Vec<Tok<'t>>
    where
        's: 't,
    {
        let mut toks = Vec::new();
        let mut stack = vec![Item::Node(root)];
        while let Some(item) = stack.pop() {
            let tok = |kind, first, last| Tok { kind, first, last };
            let n = match item {
                Item::Node(n) => n,
                Item::Postfix(u) => {
                    self.apply_postfix(&mut toks, u);
                    continue;
                }
            };
            if !n.is_named() {
                toks.push(tok(TokKind::Op(self.t(n)), n, n));
                continue;
            }
            match n.kind() {
                "binary_expression" => {
                    let (Some(l), Some(o), Some(r)) =
                        (n.field("left"), n.field("operator"), n.field("right"))
                    else {
                        let e = self.opaque(n);
                        toks.push(tok(TokKind::Atom { e, cast_name: None }, n, n));
                        continue;
                    };
                    stack.extend([r, o, l].map(Item::Node));
                }
                "unary_expression" | "pointer_expression" => {
                    let (Some(o), Some(a)) = (n.field("operator"), n.field("argument")) else {
                        let e = self.opaque(n);
                        toks.push(tok(TokKind::Atom { e, cast_name: None }, n, n));
                        continue;
                    };
                    stack.extend([a, o].map(Item::Node));
                }
                "sizeof_expression" if n.field("value").is_some() => {
                    let v = n.field("value").unwrap_or(n);
                    let kw = n.child(0).unwrap_or(n);
                    toks.push(tok(TokKind::Op("sizeof"), kw, kw));
                    stack.push(Item::Node(v));
                }
                "cast_expression" => {
                    let (Some(t), Some(v)) = (n.field("type"), n.field("value")) else {
                        let e = self.opaque(n);
                        toks.push(tok(TokKind::Atom { e, cast_name: None }, n, n));
                        continue;
                    };
                    let open = n.child(0).unwrap_or(n);
                    let close = t.next_sibling().unwrap_or(t);
                    // `(name)` where `name` is not a type here: a parenthesized operand
                    // that tree-sitter took for a cast (`(f) - x*y`).
                    let bare = match named_children(t).as_slice() {
                        [one] if one.kind() == "type_identifier" => Some(self.t(*one)),
                        _ => None,
                    };
                    match bare {
                        Some(name) if !self.names_type(name) => {
                            let id = t.named_child(0).unwrap_or(t);
                            let inner = self.name(id, false);
                            let e = self.alloc_span(Expr::Paren(inner), open, close);
                            let kind = TokKind::Atom {
                                e,
                                cast_name: Some(name),
                            };
                            toks.push(tok(kind, open, close));
                        }
                        _ => toks.push(tok(
                            TokKind::Cast {
                                ty: Some(t),
                                name: "",
                            },
                            open,
                            close,
                        )),
                    }
                    stack.push(Item::Node(v));
                }
                "update_expression" if postfix_on_operator(n).is_some() => {
                    let a = postfix_on_operator(n).unwrap_or(n);
                    stack.push(Item::Postfix(n));
                    stack.push(Item::Node(a));
                }
                "parenthesized_expression" => match self.paren_identifier(n) {
                    Some(id) if self.names_type(self.t(id)) => {
                        let name = self.t(id);
                        toks.push(tok(TokKind::Cast { ty: None, name }, n, n));
                    }
                    _ => {
                        let e = self.expr(n);
                        toks.push(tok(TokKind::Atom { e, cast_name: None }, n, n));
                    }
                },
                "number_literal" if self.t(n).starts_with('-') => {
                    // tree-sitter folds the sign into the literal after `(T)`: the sign is
                    // an operator of its own, binary or prefix as the tokens decide.
                    toks.push(tok(TokKind::Op("-"), n, n));
                    let digits = self.t(n)[1..].trim();
                    let lit = Literal {
                        kind: c_number_kind(digits),
                        text: digits.to_string(),
                    };
                    let e = self.alloc(Expr::Literal(lit), n);
                    toks.push(tok(TokKind::Atom { e, cast_name: None }, n, n));
                }
                _ => {
                    let e = self.expr(n);
                    toks.push(tok(TokKind::Atom { e, cast_name: None }, n, n));
                }
            }
        }
        toks
    }

    /// `x++` / `x--` on the operand that ends the tokens so far (`-a[i]++` is `-(a[i]++)`).
    fn apply_postfix<'t>(&mut self, toks: &mut [Tok<'t>], u: Node<'t>) {
        let inc = u.field("operator").is_some_and(|o| self.t(o) == "++");
        match toks.last_mut() {
            Some(Tok {
                kind: TokKind::Atom { e, .. },
                first,
                last,
            }) => {
                let mut arg = *e;
                while let Expr::Paren(a) = self.p.units[self.unit].exprs[arg] {
                    arg = a;
                }
                let first = *first;
                *e = self.alloc_span(
                    Expr::IncDec {
                        inc,
                        prefix: false,
                        arg,
                    },
                    first,
                    u,
                );
                *last = u;
            }
            _ => self.syntax(u, "`++`/`--` needs a variable"),
        }
    }

    /// Precedence climbing over `toks[*pos..]`: operands joined by binary operators of
    /// binding power at least `min`.
    fn parse_binary<'t>(&mut self, toks: &[Tok<'t>], pos: &mut usize, min: u8) -> Option<ExprId> {
        let first = toks.get(*pos)?.first;
        let mut lhs = self.parse_unary(toks, pos)?;
        while let Some(Tok {
            kind: TokKind::Op(t),
            ..
        }) = toks.get(*pos)
        {
            let Some((prec, op)) = binary_op(t) else {
                break;
            };
            if prec < min {
                break;
            }
            *pos += 1;
            let rhs = self.parse_binary(toks, pos, prec + 1)?;
            let last = toks[*pos - 1].last;
            lhs = self.alloc_span(Expr::Binary { op, lhs, rhs }, first, last);
        }
        Some(lhs)
    }

    /// Prefix operators and casts, then one operand.
    fn parse_unary<'t>(&mut self, toks: &[Tok<'t>], pos: &mut usize) -> Option<ExprId> {
        let mut prefixes: Vec<Prefix<'t>> = Vec::new();
        let mut operand = None;
        while let Some(tok) = toks.get(*pos) {
            match tok.kind {
                TokKind::Op(t) => match prefix_op(t) {
                    Some(op) => {
                        prefixes.push(Prefix::Op(op, tok.first));
                        *pos += 1;
                    }
                    None => break,
                },
                TokKind::Cast { ty, name } => {
                    *pos += 1;
                    // `sizeof (T)` is the size of a type, never `sizeof` of a cast.
                    if let Some(Prefix::Op(UnOp::Sizeof, kw)) = prefixes.last() {
                        let kw = *kw;
                        prefixes.pop();
                        let ty = self.cast_type(ty, name);
                        operand =
                            Some(self.alloc_span(Expr::SizeofType(Box::new(ty)), kw, tok.last));
                        break;
                    }
                    prefixes.push(Prefix::Cast(*tok));
                }
                TokKind::Atom { e, .. } => {
                    *pos += 1;
                    operand = Some(self.fill_pending_cast(toks, pos, e, tok.first));
                    break;
                }
            }
        }
        let mut e = match operand {
            Some(e) => e,
            None => match prefixes.pop() {
                // `(T)` with nothing it could cast: a type name used as a value, reported
                // with the other unused cast marks.
                Some(Prefix::Cast(Tok {
                    kind: TokKind::Cast { ty: None, name },
                    first,
                    last,
                })) => self.alloc_span(Expr::Opaque(format!("{CAST_MARK}{name}")), first, last),
                _ => {
                    if let Some(t) = toks.get(*pos) {
                        self.unexpected(t);
                    }
                    return None;
                }
            },
        };
        let last = toks[*pos - 1].last;
        while let Some(p) = prefixes.pop() {
            e = match p {
                Prefix::Op(op, first) => self.alloc_span(Expr::Unary { op, arg: e }, first, last),
                Prefix::Cast(tok) => {
                    let TokKind::Cast { ty, name } = tok.kind else {
                        continue;
                    };
                    let ty = self.cast_type(ty, name);
                    self.alloc_span(
                        Expr::Cast {
                            ty: Box::new(ty),
                            arg: e,
                        },
                        tok.first,
                        last,
                    )
                }
            };
        }
        Some(e)
    }

    /// `(real)(index_t) - 5`: tree-sitter read `(real)(index_t)` as a call, which leaves the
    /// cast mark of `index_t` pending at its right end; a prefix operator after it starts the
    /// operand that cast takes.
    fn fill_pending_cast<'t>(
        &mut self,
        toks: &[Tok<'t>],
        pos: &mut usize,
        atom: ExprId,
        node: Node<'t>,
    ) -> ExprId {
        let next_is_prefix = matches!(
            toks.get(*pos),
            Some(Tok { kind: TokKind::Op(t), .. }) if prefix_op(t).is_some()
        );
        if node.kind() != "call_expression" || !next_is_prefix || self.cast_slot(atom).is_none() {
            return atom;
        }
        match self.parse_unary(toks, pos) {
            Some(inner) => self.fill_cast(atom, inner).unwrap_or(atom),
            None => atom,
        }
    }

    fn cast_type<'t>(&mut self, ty: Option<Node<'t>>, name: &str) -> CParam {
        match ty {
            Some(t) => self.type_descriptor(t),
            None => self.typedef_cparam(name),
        }
    }

    fn unexpected<'t>(&mut self, t: &Tok<'t>) {
        let msg = match t.kind {
            TokKind::Atom {
                cast_name: Some(name),
                ..
            } => format!("`{name}` is not a type name here, so `({name})` cannot be a cast"),
            _ => format!("unexpected `{}` in this expression", self.t(t.first)),
        };
        self.syntax(t.first, &msg);
    }

    fn syntax(&mut self, n: Node, msg: &str) {
        let sp = self.sp(n);
        self.diags
            .push(Diagnostic::error(Code::Syntax, sp, msg.to_string()));
    }

    fn alloc_span(&mut self, e: Expr, first: Node, last: Node) -> ExprId {
        let sp = match self.span_at {
            Some(at) => at,
            None => crate::ts::span_between(first, last, self.file, self.line_map),
        };
        let u = self.u();
        let id = u.exprs.alloc(e);
        u.source_map.expr.insert(id, sp);
        id
    }
}
