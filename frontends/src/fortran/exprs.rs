//! Expressions: literals, operators (with right-associative `**`), members, array
//! constructors and implied DO, and the allocation of expressions with their spans.

use super::lower::*;
use crate::ts::Field;
use crate::ts::{children_with_fields, named_children};
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 't> FortranLowering<'a, 't> {
    pub(super) fn paren_inner(&mut self, n: Node<'t>) -> ExprId {
        match named_children(n)
            .into_iter()
            .find(|c| c.kind() != "comment")
        {
            Some(inner) => self.expr(inner),
            None => self.opaque(n),
        }
    }

    pub(super) fn opaque(&mut self, n: Node) -> ExprId {
        let t = self.t(n).to_string();
        let sp = self.sp(n);
        let u = self.unit();
        let e = u.exprs.alloc(Expr::Opaque(t));
        u.source_map.expr.insert(e, sp);
        e
    }

    pub(crate) fn expr(&mut self, n: Node<'t>) -> ExprId {
        match n.kind() {
            "identifier" => self.name_expr(n),
            "number_literal" => {
                let t = self.t(n).to_string();
                let is_real = t.contains(['.', 'e', 'E', 'd', 'D'])
                    && !t.starts_with(['z', 'Z', 'b', 'B', 'o', 'O']);
                let kind = if is_real { LitKind::Real } else { LitKind::Int };
                self.alloc_expr(Expr::Literal(Literal { kind, text: t }), n)
            }
            "string_literal" => {
                let t = normalize_continuations(self.t(n));
                self.alloc_expr(
                    Expr::Literal(Literal {
                        kind: LitKind::Str,
                        text: t,
                    }),
                    n,
                )
            }
            "boolean_literal" => {
                let t = self.t(n).to_string();
                self.alloc_expr(
                    Expr::Literal(Literal {
                        kind: LitKind::Logical,
                        text: t,
                    }),
                    n,
                )
            }
            "complex_literal" => {
                let t: String = normalize_continuations(self.t(n));
                self.alloc_expr(
                    Expr::Literal(Literal {
                        kind: LitKind::Complex,
                        text: t,
                    }),
                    n,
                )
            }
            "null_literal" => {
                let scope = self.scope();
                let sym = match self.p.lookup(scope, "null") {
                    Some(s) => s,
                    None => self.p.add_symbol(
                        scope,
                        "null".into(),
                        sym_data("null", SymbolKind::Intrinsic, scope),
                    ),
                };
                let callee = self.alloc_expr(Expr::Name(sym), n);
                self.alloc_expr(
                    Expr::Call {
                        callee,
                        args: vec![],
                    },
                    n,
                )
            }
            "parenthesized_expression" => {
                let inner = self.paren_inner(n);
                self.alloc_expr(Expr::Paren(inner), n)
            }
            "math_expression" => {
                let op_t = n
                    .field("operator")
                    .map(|o| self.t(o).to_string())
                    .unwrap_or_default();
                if op_t == "**" {
                    return self.pow_chain(n);
                }
                let op = match op_t.as_str() {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    _ => {
                        self.unsupported(n, &format!("user-defined operator `{op_t}`"));
                        return self.opaque(n);
                    }
                };
                self.binary(n, op)
            }
            "unary_expression" => {
                let op_t = match n.field("operator").or_else(|| n.child(0)) {
                    Some(o) => self.t(o).to_string(),
                    None => String::new(),
                };
                if n.field("argument").is_none() {
                    // `-2.0` in a DATA value: the sign is part of the constant.
                    let t = self.t(n).split_whitespace().collect::<String>();
                    let is_real = t.contains(['.', 'e', 'E', 'd', 'D']);
                    let kind = if is_real { LitKind::Real } else { LitKind::Int };
                    return self.alloc_expr(Expr::Literal(Literal { kind, text: t }), n);
                }
                let op = match op_t.as_str() {
                    "-" => UnOp::Neg,
                    "+" => UnOp::Plus,
                    _ => {
                        self.unsupported(n, &format!("user-defined operator `{op_t}`"));
                        return self.opaque(n);
                    }
                };
                let Some(a) = n.field("argument") else {
                    return self.opaque(n);
                };
                let arg = self.expr(a);
                self.alloc_expr(Expr::Unary { op, arg }, n)
            }
            "logical_expression" => {
                let op_t = n
                    .field("operator")
                    .map(|o| self.t(o).to_ascii_lowercase())
                    .unwrap_or_default();
                if op_t == ".not." {
                    let Some(a) = n.field("argument").or_else(|| n.field("right")) else {
                        return self.opaque(n);
                    };
                    let arg = self.expr(a);
                    return self.alloc_expr(Expr::Unary { op: UnOp::Not, arg }, n);
                }
                let op = match op_t.as_str() {
                    ".and." => BinOp::And,
                    ".or." => BinOp::Or,
                    ".eqv." => BinOp::Eqv,
                    _ => BinOp::Neqv,
                };
                self.binary(n, op)
            }
            "relational_expression" => {
                let op_t = n
                    .field("operator")
                    .map(|o| self.t(o).to_ascii_lowercase())
                    .unwrap_or_default();
                let sp = if op_t.starts_with('.') {
                    RelSpell::Dotted
                } else {
                    RelSpell::Symbol
                };
                let op = match op_t.as_str() {
                    "==" | ".eq." => BinOp::Eq(sp),
                    "/=" | ".ne." => BinOp::Ne(sp),
                    "<" | ".lt." => BinOp::Lt(sp),
                    "<=" | ".le." => BinOp::Le(sp),
                    ">" | ".gt." => BinOp::Gt(sp),
                    _ => BinOp::Ge(sp),
                };
                self.binary(n, op)
            }
            "concatenation_expression" => self.binary(n, BinOp::Concat),
            "call_expression" => self.call_expr(n),
            "derived_type_member_expression" => {
                let kids = named_children(n);
                let (Some(b), Some(f)) = (
                    kids.first(),
                    kids.iter().find(|c| c.kind() == "type_member"),
                ) else {
                    return self.opaque(n);
                };
                let base = self.expr(*b);
                let field = self.t(*f).to_string();
                self.alloc_expr(
                    Expr::Field {
                        base,
                        field,
                        arrow: false,
                    },
                    n,
                )
            }
            "array_literal" => {
                let old_style = self.t(n).starts_with("(/");
                let mut items = Vec::new();
                let mut type_spec = None;
                for (field, c) in children_with_fields(n) {
                    if field == Some("type") {
                        if c.is_named() {
                            type_spec = Some(normalize_ws(self.t(c)));
                        }
                        continue;
                    }
                    if c.is_named() && c.kind() != "comment" {
                        items.push(self.expr(c));
                    }
                }
                self.alloc_expr(
                    Expr::ArrayCtor {
                        items,
                        old_style,
                        type_spec,
                    },
                    n,
                )
            }
            "implied_do_loop_expression" => {
                let kids: Vec<Node> = named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() != "comment")
                    .collect();
                let Some(lc) = kids.iter().find(|c| c.kind() == "loop_control_expression") else {
                    return self.opaque(n);
                };
                let items: Vec<ExprId> = kids
                    .iter()
                    .filter(|c| c.kind() != "loop_control_expression")
                    .map(|c| self.expr(*c))
                    .collect();
                let ks: Vec<Node> = named_children(*lc)
                    .into_iter()
                    .filter(|c| c.kind() != "comment")
                    .collect();
                if ks.len() < 3 {
                    return self.opaque(n);
                }
                let var = self.expr(ks[0]);
                let lo = self.expr(ks[1]);
                let hi = self.expr(ks[2]);
                let step = ks.get(3).map(|s| self.expr(*s));
                self.alloc_expr(
                    Expr::ImpliedDo {
                        items,
                        var,
                        lo,
                        hi,
                        step,
                    },
                    n,
                )
            }
            "keyword_argument" => {
                self.unsupported(n, "a keyword argument here");
                self.opaque(n)
            }
            "extent_specifier" => {
                self.unsupported(n, "a range here");
                self.opaque(n)
            }
            "conditional_expression" => {
                self.unsupported(n, "conditional expressions (Fortran 2023)");
                self.opaque(n)
            }
            "coarray_expression" => {
                self.unsupported(n, "coarrays");
                self.opaque(n)
            }
            "ERROR" => self.opaque(n),
            other => {
                self.unsupported(n, &format!("expression `{other}`"));
                self.opaque(n)
            }
        }
    }

    fn binary(&mut self, n: Node<'t>, op: BinOp) -> ExprId {
        let (Some(l), Some(r)) = (n.field("left"), n.field("right")) else {
            return self.opaque(n);
        };
        let lhs = self.expr(l);
        let rhs = self.expr(r);
        self.alloc_expr(Expr::Binary { op, lhs, rhs }, n)
    }

    /// `a**b**c` parses left-associative; Fortran's `**` is right-associative.
    fn pow_chain(&mut self, n: Node<'t>) -> ExprId {
        let mut operands = Vec::new();
        let mut cur = n;
        loop {
            let is_pow = cur.kind() == "math_expression"
                && cur.field("operator").is_some_and(|o| self.t(o) == "**");
            if !is_pow {
                operands.push(cur);
                break;
            }
            let (Some(l), Some(r)) = (cur.field("left"), cur.field("right")) else {
                return self.opaque(n);
            };
            operands.push(r);
            cur = l;
        }
        operands.reverse(); // a, b, c
        let mut acc = self.expr(operands[operands.len() - 1]);
        for i in (0..operands.len() - 1).rev() {
            let l = self.expr(operands[i]);
            let node = if i == 0 { n } else { operands[i] };
            acc = self.alloc_expr(
                Expr::Binary {
                    op: BinOp::Pow,
                    lhs: l,
                    rhs: acc,
                },
                node,
            );
        }
        acc
    }
}
