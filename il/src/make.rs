//! Small constructors of IL nodes for the passes that rewrite the program before the analyses
//! (`early_return`, `memcpy`, `hoist`) and for the generators: a statement, an integer
//! literal, a one-variable declaration, a fresh variable, the `int`/`integer` type.

use crate::diag::Span;
use crate::ir::*;

impl UnitData {
    /// A new statement of this unit (no label, directive or comment), located at `span`.
    pub fn new_stmt(&mut self, kind: StmtKind, span: Option<Span>) -> StmtId {
        let s = self.stmts.alloc(Stmt {
            kind,
            label: None,
            construct_name: None,
            directives: Vec::new(),
            comment: None,
            omp: None,
        });
        if let Some(sp) = span {
            self.source_map.stmt.insert(s, sp);
        }
        s
    }

    /// A new statement `var = value` of this unit, located at `span`.
    pub fn assign_var(&mut self, var: SymbolId, value: ExprId, span: Option<Span>) -> StmtId {
        let lhs = self.exprs.alloc(Expr::Name(var));
        self.new_stmt(
            StmtKind::Assign {
                lhs,
                op: None,
                rhs: value,
            },
            span,
        )
    }

    /// A deep copy of expression `e` of this unit.
    pub fn deep_copy(&mut self, e: ExprId) -> ExprId {
        let mut node = self.exprs[e].clone();
        crate::copy::expr_slots(&mut node, &mut |slot| *slot = self.deep_copy(*slot));
        self.exprs.alloc(node)
    }

    /// A call of the intrinsic `name` with positional arguments (`size(y, 2)`).
    pub fn intrinsic_call(&mut self, name: &str, args: Vec<ExprId>) -> ExprId {
        let callee = self.exprs.alloc(Expr::Opaque(name.to_string()));
        let args = args
            .into_iter()
            .map(|value| Arg {
                keyword: None,
                value,
            })
            .collect();
        self.exprs.alloc(Expr::Call { callee, args })
    }

    /// A new integer literal of this unit (`0`, `1`).
    pub fn int_literal(&mut self, v: i64) -> ExprId {
        self.exprs.alloc(Expr::Literal(Literal {
            kind: LitKind::Int,
            text: v.to_string(),
        }))
    }
}

impl Decl {
    /// The declaration of one variable `sym` of type `spec` (C derivations `derived`), with
    /// no initializer.
    pub fn one(spec: TypeSpec, sym: SymbolId, derived: Vec<DeclOp>) -> Decl {
        Decl::var(VarDecl {
            spec,
            attrs: Vec::new(),
            entities: vec![Entity {
                sym,
                dims: None,
                char_len: None,
                derived,
                init: None,
            }],
            double_colon: false,
        })
    }
}

impl TypeSpec {
    /// Whether a C type is spelled with keywords only (`double`, `unsigned long`), not with
    /// a typedef name, whose type may be an array (`sizeof(vec3)` is three elements).
    pub fn c_keywords_only(&self) -> bool {
        !self.keyword.is_empty()
            && self.keyword.split_whitespace().all(|w| {
                matches!(
                    w,
                    "unsigned"
                        | "signed"
                        | "short"
                        | "long"
                        | "int"
                        | "char"
                        | "float"
                        | "double"
                        | "_Bool"
                        | "_Complex"
                )
            })
    }

    /// `integer` (Fortran) / `int` (C), four bytes.
    pub fn int(lang: Lang) -> TypeSpec {
        TypeSpec {
            class: BaseClass::Integer,
            keyword: match lang {
                Lang::Fortran => "integer",
                Lang::C => "int",
            }
            .into(),
            name: None,
            kind: KindSel::Default,
            char_len: None,
            bytes: Some(4),
            qualifiers: Vec::new(),
            inline_def: None,
        }
    }
}

impl Type {
    /// A four-byte integer scalar.
    pub fn int() -> Type {
        Type {
            base: BaseClass::Integer,
            bytes: Some(4),
            dims: Vec::new(),
            pointers: 0,
        }
    }
}

impl Program {
    /// The procedures in `lang` that have a body, in arena order (the rewrites before the
    /// analyses walk these).
    pub fn units_with_body(&self, lang: Lang) -> Vec<UnitId> {
        self.units
            .iter()
            .filter(|(_, u)| u.lang == lang && !u.body.is_empty())
            .map(|(id, _)| id)
            .collect()
    }

    /// A new variable of type `ty` in `scope`, named `base`, or `base1`, `base2`, … (the first
    /// name free there).
    pub fn add_fresh_variable(&mut self, scope: ScopeId, base: &str, ty: Option<Type>) -> SymbolId {
        let mut name = base.to_string();
        let mut k = 0;
        while self.lookup_local_chain(scope, &name).is_some() {
            k += 1;
            name = format!("{base}{k}");
        }
        let data = SymbolData::variable(&name, scope, ty);
        self.add_symbol(scope, name, data)
    }
}
