//! Temporaries of the derivative unit (`temp`, `forget_temp`) and the declarations that end
//! the unit once its body is built (`finish_declarations`: temporaries, `register` dropped
//! from derivative copies).

use super::decls::scalar_var;
use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// Declares the temporaries made while generating statements.
    /// C `register` storage dropped from every declaration of an adjoint unit: the adjoint
    /// records by address (`popPointer8((void **)&a)`), which a register variable forbids
    /// (n-body's `register planet *a, *b;` did not compile).
    pub(crate) fn drop_register(&mut self) {
        fn strip(d: &mut Decl) {
            if let Decl::Var(v) = d {
                v.attrs
                    .retain(|a| !matches!(a, Attr::Keyword(k) if k == "register"));
            }
        }
        self.u.decls.iter_mut().for_each(strip);
        for id in self.u.stmts.ids().collect::<Vec<_>>() {
            match &mut self.u.stmts[id].kind {
                StmtKind::Decl(d) => strip(d),
                StmtKind::Block { decls, .. } => decls.iter_mut().for_each(strip),
                _ => {}
            }
        }
    }

    pub(crate) fn finish_declarations(&mut self) {
        let temps = std::mem::take(&mut self.temps);
        let mut decls = Vec::new();
        for (f, t) in std::mem::take(&mut self.extern_funcs) {
            decls.push(Decl::var(VarDecl {
                spec: spec_of_type(self.f.lang, &t),
                attrs: vec![Attr::Keyword("external".into())],
                entities: vec![plain_entity(f)],
                double_colon: true,
            }));
        }
        for (s, k) in temps {
            let mut v = match k {
                TempKind::Int => VarDecl {
                    spec: TypeSpec::int(self.f.lang),
                    attrs: Vec::new(),
                    entities: vec![plain_entity(s)],
                    double_colon: true,
                },
                TempKind::RealArray { bytes, len } => {
                    let mut v = scalar_var(self.f.lang, s, BaseClass::Real, bytes);
                    let n = self.u.int_literal(i64::from(len));
                    match self.f.lang {
                        Lang::Fortran => {
                            v.entities[0].dims = Some(vec![Dim {
                                lower: None,
                                upper: DimUpper::Expr(n),
                            }])
                        }
                        Lang::C => v.entities[0].derived.push(DeclOp::Array(Some(n))),
                    }
                    v
                }
                TempKind::Shaped { bytes, deriv, dims } => {
                    let mut v = scalar_var(self.f.lang, s, BaseClass::Real, bytes);
                    v.entities[0].dims = Some(dims);
                    if deriv && self.f.vector {
                        add_direction_dim(&mut self.u, &mut v);
                    }
                    v
                }
                TempKind::Real { bytes, deriv } | TempKind::Complex { bytes, deriv } => {
                    let mut v = if matches!(k, TempKind::Complex { .. }) {
                        scalar_var(self.f.lang, s, BaseClass::Complex, 2 * bytes)
                    } else {
                        scalar_var(self.f.lang, s, BaseClass::Real, bytes)
                    };
                    if deriv && self.f.vector {
                        add_direction_dim(&mut self.u, &mut v);
                    }
                    v
                }
                TempKind::Like { .. } | TempKind::Mask { .. } => {
                    let (sym, deriv, mask) = match k {
                        TempKind::Like { sym, deriv } => (sym, deriv, false),
                        TempKind::Mask { sym } => (sym, false, true),
                        _ => unreachable!("matched above"),
                    };
                    let t = self.g.prog.symbols[sym].ty.clone().unwrap_or(Type {
                        base: BaseClass::Real,
                        bytes: Some(8),
                        dims: Vec::new(),
                        pointers: 0,
                    });
                    let mut t2 = t.clone();
                    t2.dims.clear();
                    t2.pointers = 0;
                    if mask {
                        t2.base = BaseClass::Logical;
                        t2.bytes = None;
                    }
                    let mut spec = spec_of_type(self.f.lang, &t2);
                    if let BaseClass::Record(td) = t.base {
                        let td = if deriv {
                            self.g.derivative_type(td).1
                        } else {
                            self.g.prog.typedefs[td].name.clone().unwrap_or_default()
                        };
                        spec.keyword = match self.f.lang {
                            Lang::C => "struct",
                            Lang::Fortran => "type",
                        }
                        .into();
                        spec.name = Some(td);
                    }
                    let mut v = VarDecl {
                        spec,
                        attrs: Vec::new(),
                        entities: vec![plain_entity(s)],
                        double_colon: true,
                    };
                    if !t.dims.is_empty() {
                        let owner = radtap_dataflow::zones::unit_of_scope(
                            self.g.prog,
                            self.g.prog.symbols[sym].scope,
                        )
                        .unwrap_or(self.f.p);
                        let c = Copier {
                            src: &self.g.prog.units[owner],
                        };
                        let dims = c.dims(&mut self.u, &t.dims);
                        // Shaped like an allocatable or assumed-shape array: an allocatable
                        // temporary, allocated by the assignment of a mask, or by
                        // `alloc_like` before a zero derivative is given to a call.
                        if self.f.lang == Lang::Fortran
                            && t.dims.iter().any(|d| d.upper == DimUpper::Deferred)
                        {
                            v.attrs.push(Attr::Keyword("allocatable".into()));
                        }
                        match self.f.lang {
                            Lang::Fortran => v.entities[0].dims = Some(dims),
                            Lang::C => {
                                for d in dims.iter().rev() {
                                    if let DimUpper::Expr(e) = d.upper {
                                        v.entities[0].derived.push(DeclOp::Array(Some(e)));
                                    }
                                }
                            }
                        }
                    }
                    if deriv && self.f.vector {
                        add_direction_dim(&mut self.u, &mut v);
                    }
                    v
                }
            };
            if self.f.lang == Lang::C {
                // Zero-initialised so a dummy derivative needs no statement: `= 0.0`, and
                // `= {0}` for arrays and records (a dummy derivative array was left holding
                // what the stack held, and the tangent read it).
                // Integer literals and `NBDirsMax` (vector mode): not variable-length.
                let constant_extents = v.entities[0].derived.iter().all(|op| {
                    matches!(op, DeclOp::Array(Some(e))
                        if matches!(&self.u.exprs[*e],
                            Expr::Literal(l) if l.kind == LitKind::Int)
                            || matches!(&self.u.exprs[*e], Expr::Opaque(_)))
                });
                if !constant_extents {
                    // A variable-length array cannot be initialised in C.
                } else if !v.entities[0].derived.is_empty()
                    || matches!(v.spec.class, BaseClass::Record(_))
                {
                    let zero = self.u.int_literal(0);
                    let braces = self.u.exprs.alloc(Expr::ArrayCtor {
                        items: vec![zero],
                        old_style: false,
                        type_spec: None,
                    });
                    v.entities[0].init = Some(Init::Expr(braces));
                } else {
                    let mut b = B {
                        u: &mut self.u,
                        lang: Lang::C,
                    };
                    let z = if v.spec.class == BaseClass::Integer {
                        b.int(0)
                    } else {
                        b.zero(8)
                    };
                    v.entities[0].init = Some(Init::Expr(z));
                }
            }
            v.double_colon = true;
            decls.push(Decl::var(v));
        }
        match self.f.lang {
            Lang::Fortran => self.u.decls.extend(decls),
            Lang::C => {
                let mut all = std::mem::take(&mut self.c_local_decls);
                // The direction counter, when nothing names it (a procedure whose
                // derivatives are all records' pointers set or freed outside direction
                // loops: `int nd;` was an unused variable).
                if let Some(nd) = self.nd {
                    let used = self
                        .u
                        .exprs
                        .iter()
                        .any(|(_, x)| matches!(x, Expr::Name(n) if *n == nd));
                    if !used {
                        all.retain(|d| {
                            !matches!(d, Decl::Var(v) if v.entities.iter().any(|e| e.sym == nd))
                        });
                    }
                }
                all.extend(decls);
                let mut body: Vec<StmtId> = all
                    .into_iter()
                    .map(|d| stmt(&mut self.u, StmtKind::Decl(d)))
                    .collect();
                let mut copies = Vec::new();
                let mut whole = Vec::new();
                for (d, din, record) in std::mem::take(&mut self.entry_copies) {
                    let (l, r) = (self.b().name(d), self.b().name(din));
                    if record {
                        // A record holds its directions at its leaves: copied whole.
                        whole.push(assign(&mut self.u, l, r));
                        continue;
                    }
                    let nd = self.nd.expect("vector");
                    let (i1, i2) = (self.b().name(nd), self.b().name(nd));
                    let l = self.b().index(l, vec![Subscript::Index(i1)]);
                    let r = self.b().index(r, vec![Subscript::Index(i2)]);
                    copies.push(assign(&mut self.u, l, r));
                }
                body.extend(whole);
                body.extend(self.dir(copies));
                body.append(&mut self.u.body);
                self.u.body = body;
            }
        }
    }
}
