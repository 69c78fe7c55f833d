//! Expressions: names (declared, macros, C library functions), literals, operators, calls,
//! subscripts, members, casts, `sizeof`, conditionals, comma expressions and initializers.

use super::lower::*;
use crate::ts::Field;
use crate::ts::{children_with_fields, named_children};
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 's> CLower<'a, 's> {
    pub(super) fn opaque(&mut self, n: Node) -> ExprId {
        let t = self.t(n).to_string();
        self.alloc(Expr::Opaque(t), n)
    }

    pub(super) fn expr(&mut self, n: Node) -> ExprId {
        if self.is_operator_node(n) {
            return self.operator_expr(n);
        }
        match n.kind() {
            "identifier" => self.name(n, false),
            "number_literal" => {
                // tree-sitter-c sometimes folds a sign into the literal (`(T)-5`): keep the
                // sign as an operator so both readings give the same IL.
                let t = self.t(n);
                let (negative, digits) = match t.strip_prefix('-') {
                    Some(rest) => (true, rest.trim()),
                    None => (false, t),
                };
                let lit = Literal {
                    kind: c_number_kind(digits),
                    text: digits.to_string(),
                };
                let lit = self.alloc(Expr::Literal(lit), n);
                if negative {
                    self.alloc(
                        Expr::Unary {
                            op: UnOp::Neg,
                            arg: lit,
                        },
                        n,
                    )
                } else {
                    lit
                }
            }
            "string_literal" | "concatenated_string" | "raw_string_literal" => {
                let t = if n.kind() == "concatenated_string" {
                    named_children(n)
                        .into_iter()
                        .map(|c| self.t(c).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                } else {
                    self.t(n).to_string()
                };
                self.alloc(
                    Expr::Literal(Literal {
                        kind: LitKind::Str,
                        text: t,
                    }),
                    n,
                )
            }
            "char_literal" => {
                let t = self.t(n).to_string();
                self.alloc(
                    Expr::Literal(Literal {
                        kind: LitKind::Char,
                        text: t,
                    }),
                    n,
                )
            }
            "true" | "false" => {
                let t = self.t(n).to_string();
                self.alloc(
                    Expr::Literal(Literal {
                        kind: LitKind::Logical,
                        text: t,
                    }),
                    n,
                )
            }
            "null" => self.alloc(Expr::Opaque("NULL".into()), n),
            "parenthesized_expression" => {
                let inner: Vec<Node> = named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() != "comment")
                    .collect();
                if let [one] = inner.as_slice() {
                    if one.kind() == "identifier" && self.is_typedef_name(self.t(*one)) {
                        let t = format!("{CAST_MARK}{}", self.t(*one));
                        return self.alloc(Expr::Opaque(t), n);
                    }
                    let e = self.expr(*one);
                    return self.alloc(Expr::Paren(e), n);
                }
                self.opaque(n)
            }
            "update_expression" => {
                let Some(a) = n.field("argument") else {
                    return self.opaque(n);
                };
                let op_node = n.field("operator");
                let inc = op_node.is_some_and(|o| self.t(o) == "++");
                let prefix = op_node.is_some_and(|o| o.start_byte() < a.start_byte());
                let arg = self.lvalue(a);
                self.alloc(Expr::IncDec { inc, prefix, arg }, n)
            }
            "assignment_expression" => {
                let op = n
                    .field("operator")
                    .map(|o| self.t(o).to_string())
                    .unwrap_or_default();
                let (Some(l), Some(r)) = (n.field("left"), n.field("right")) else {
                    return self.opaque(n);
                };
                let lhs = self.lvalue(l);
                let rhs = self.expr(r);
                self.alloc(
                    Expr::Assign {
                        op: compound_op(&op),
                        lhs,
                        rhs,
                    },
                    n,
                )
            }
            "call_expression" => {
                let Some(f) = n.field("function") else {
                    return self.opaque(n);
                };
                let al = n.field("arguments");
                if let Some(e) = self.function_macro(n, f, al) {
                    return e;
                }
                let args: Vec<Arg> = match al {
                    Some(al) => named_children(al)
                        .into_iter()
                        .filter(|c| c.kind() != "comment")
                        .map(|c| Arg {
                            keyword: None,
                            value: self.expr(c),
                        })
                        .collect(),
                    None => vec![],
                };
                // `(T)(x)`: a cast that tree-sitter read as a call.
                if f.kind() != "identifier" && args.len() == 1 {
                    let fe = self.expr(f);
                    if self.cast_slot(fe).is_some() {
                        // `(real)(index_t)`: the bare type name is the type of a cast.
                        let a = args[0].value;
                        if let Expr::Opaque(t) = &self.p.units[self.unit].exprs[a] {
                            if let Some(name) = t.strip_prefix(BARE_TYPE_MARK) {
                                let mark = format!("{CAST_MARK}{name}");
                                self.u().exprs[a] = Expr::Opaque(mark);
                            }
                        }
                        let arg = self.alloc(Expr::Paren(args[0].value), n);
                        if let Some(e) = self.fill_cast(fe, arg) {
                            return e;
                        }
                    }
                    return self.alloc(Expr::Call { callee: fe, args }, n);
                }
                let callee = if f.kind() == "identifier" {
                    self.name(f, true)
                } else {
                    self.expr(f)
                };
                self.alloc(Expr::Call { callee, args }, n)
            }
            "subscript_expression" => {
                let (Some(a), Some(i)) = (n.field("argument"), n.field("index")) else {
                    return self.opaque(n);
                };
                let base = self.expr(a);
                let idx = self.expr(i);
                self.alloc(
                    Expr::Index {
                        base,
                        subs: vec![Subscript::Index(idx)],
                    },
                    n,
                )
            }
            "field_expression" => {
                let (Some(a), Some(f)) = (n.field("argument"), n.field("field")) else {
                    return self.opaque(n);
                };
                let arrow = n.field("operator").is_some_and(|o| self.t(o) == "->");
                let base = self.expr(a);
                let field = self.t(f).to_string();
                self.alloc(Expr::Field { base, field, arrow }, n)
            }
            "sizeof_expression" => match n.field("type") {
                Some(t) => {
                    let ty = self.type_descriptor(t);
                    self.alloc(Expr::SizeofType(Box::new(ty)), n)
                }
                None => self.opaque(n),
            },
            "conditional_expression" => {
                let (Some(c), Some(a), Some(b)) = (
                    n.field("condition"),
                    n.field("consequence"),
                    n.field("alternative"),
                ) else {
                    return self.opaque(n);
                };
                let cond = self.expr(c);
                let then = self.expr(a);
                let else_ = self.expr(b);
                self.alloc(Expr::Cond { cond, then, else_ }, n)
            }
            "comma_expression" => {
                let mut items = Vec::new();
                let mut cur = n;
                while let (Some(l), Some(r)) = (cur.field("left"), cur.field("right")) {
                    items.push(self.expr(l));
                    if r.kind() == "comma_expression" {
                        cur = r;
                    } else {
                        items.push(self.expr(r));
                        break;
                    }
                }
                self.alloc(Expr::Comma(items), n)
            }
            "initializer_list" => {
                let items = named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() != "comment")
                    .map(|c| self.expr(c))
                    .collect();
                self.alloc(
                    Expr::ArrayCtor {
                        items,
                        old_style: false,
                        type_spec: None,
                    },
                    n,
                )
            }
            "initializer_pair" => {
                let mut designators = Vec::new();
                for (field, c) in children_with_fields(n) {
                    if field == Some("designator") {
                        designators.push(self.t(c).split_whitespace().collect::<String>());
                    }
                }
                let Some(v) = n.field("value") else {
                    return self.opaque(n);
                };
                let value = self.expr(v);
                self.alloc(Expr::Designated { designators, value }, n)
            }
            "compound_literal_expression" => {
                let (Some(t), Some(v)) = (n.field("type"), n.field("value")) else {
                    return self.opaque(n);
                };
                let ty = self.type_descriptor(t);
                let init = self.expr(v);
                self.alloc(
                    Expr::CompoundLit {
                        ty: Box::new(ty),
                        init,
                    },
                    n,
                )
            }
            "ERROR" => self.opaque(n),
            other => {
                self.unsupported(n, &format!("expression `{other}`"));
                self.opaque(n)
            }
        }
    }
}

impl Names for CLower<'_, '_> {
    fn name(&mut self, n: Node, as_callee: bool) -> ExprId {
        let name = self.t(n).to_string();
        if let Some(s) = self.p.lookup(self.scope, &name) {
            if self.p.symbols[s].kind == SymbolKind::Type {
                // A typedef name in expression position: the type of a cast that
                // tree-sitter read as a call argument, `(real)(index_t)(x)`.
                return self.alloc(Expr::Opaque(format!("{BARE_TYPE_MARK}{name}")), n);
            }
            return self.alloc(Expr::Name(s), n);
        }
        if let Some(e) = self.object_macro(n) {
            return e;
        }
        if self.macros.contains_key(&name)
            || name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            || HEADER_NAMES.contains(&name.as_str())
            // Reserved to the implementation (C11 7.1.3): a system header's constant
            // (glibc's `isprint(c)` expands to `… & _ISprint`, an enumerator).
            // GCC's builtins (`__builtin_huge_val()` from `HUGE_VAL`) are functions radtap
            // knows, not constants.
            || (name.starts_with('_')
                && name[1..].starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
                && !name.starts_with("__builtin"))
        {
            return self.alloc(Expr::Opaque(name), n);
        }
        // A known library function may be named without a call (passed as a function
        // pointer).
        if as_callee || radtap_il::clib::c_library(&name).is_some() {
            // A library function (math.h, stdio.h): one symbol for the program.
            let g = self.global;
            let key = format!("c:{name}");
            let s = match self.p.scopes[g].names.get(&key) {
                Some(&s) => s,
                None => self
                    .p
                    .add_symbol(g, key, sym_c(&name, SymbolKind::Intrinsic, g)),
            };
            return self.alloc(Expr::Name(s), n);
        }
        if self.proto_params.contains(&name) {
            return self.alloc(Expr::Opaque(name), n);
        }
        let sp = self.sp(n);
        self.diags.push(Diagnostic::error(
            Code::Undeclared,
            sp,
            format!("`{name}` is not declared"),
        ));
        self.alloc(Expr::Opaque(name), n)
    }

    /// An assignment or `++`/`--` target. Parentheses around it mean nothing (`(c) = p + 1`)
    /// and are dropped, so that every pass recognises the variable assigned.
    fn lvalue(&mut self, n: Node) -> ExprId {
        let mut e = self.expr(n);
        while let Expr::Paren(a) = self.p.units[self.unit].exprs[e] {
            e = a;
        }
        e
    }
}
