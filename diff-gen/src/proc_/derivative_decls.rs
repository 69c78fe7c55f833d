//! The declaration of one derivative variable, and the derivative EQUIVALENCE and COMMON
//! statements mirroring the primal's.

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// The derivative declaration of the entities of `v` that carry derivatives.
    pub fn derivative_decl(&mut self, v: &VarDecl, c: &Copier<'a>) -> Option<VarDecl> {
        let ents: Vec<Entity> = v
            .entities
            .iter()
            .filter_map(|e| {
                let ds = *self.dvar.get(&e.sym)?;
                if self.f.sweep == Sweep::Fwd && self.f.src.params.contains(&e.sym) {
                    return None;
                }
                // COMMON members are declared with their derivative COMMON block.
                if self.g.dglobal.contains_key(&e.sym)
                    || self.g.prog.symbols[e.sym].common.is_some()
                {
                    return None;
                }
                let mut e2 = e.clone();
                e2.sym = ds;
                e2.init = None;
                // `DOUBLE PRECISION X` with the shape in a DIMENSION statement: the
                // derivative takes the shape here (no DIMENSION statement names it).
                let shaped = v.attrs.iter().any(|a| matches!(a, Attr::Dimension(_)));
                if e2.dims.is_none() && !shaped {
                    if let Some(t) = &self.g.prog.symbols[e.sym].ty {
                        if !t.dims.is_empty() {
                            e2.dims = Some(t.dims.clone());
                        }
                    }
                }
                Some(e2)
            })
            .collect();
        if ents.is_empty() {
            return None;
        }
        let mut dv = v.clone();
        dv.entities = ents;
        if self.f.adjoint {
            // Adjoints of inputs are written, of outputs read.
            for a in dv.attrs.iter_mut() {
                if let Attr::Intent(i) = a {
                    *i = Intent::InOut;
                }
            }
        }
        dv.attrs.retain(|a| match a {
            Attr::Keyword(k) => !matches!(
                k.as_str(),
                "parameter" | "external" | "intrinsic" | "protected" | "bind(c)"
            ),
            Attr::Intent(_) | Attr::Dimension(_) => true,
        });
        if let BaseClass::Record(td) = v.spec.class {
            let (_, n) = self.g.derivative_type(td);
            dv.spec.name = Some(n.clone());
            dv.spec.inline_def = None;
            if self.f.lang == Lang::C {
                dv.spec.keyword = "struct".into();
            }
        }
        let Decl::Var(mut dv) = c.decl(&mut self.u, &Decl::var(dv)) else {
            unreachable!("a variable declaration copies to one")
        };
        if self.f.vector {
            add_direction_dim(&mut self.u, &mut dv);
        }
        Some(*dv)
    }

    /// `EQUIVALENCE (ad, bd(2))` for `EQUIVALENCE (a, b(2))`: members of a group share one
    /// zone, so what is written through one is read through the others, and their derivatives
    /// must share storage the same way. A group whose members do not all carry a derivative,
    /// or mix types (a derivative of the punned value is not the pun of the derivatives), is
    /// refused with AD020 at its first member.
    pub(crate) fn derivative_equivalence(&mut self, sets: &[Vec<ExprId>]) -> Option<Decl> {
        let prog = self.g.prog;
        let src = self.f.src;
        let mut dsets = Vec::new();
        for set in sets {
            let syms: Vec<Option<SymbolId>> = set
                .iter()
                .map(|&e| radtap_dataflow::zones::base_symbol(prog, self.f.p, e))
                .collect();
            let with = syms
                .iter()
                .filter(|s| s.is_some_and(|s| self.dvar.contains_key(&s)))
                .count();
            if with == 0 {
                continue;
            }
            let ty = |s: &Option<SymbolId>| {
                s.and_then(|s| prog.symbols[s].ty.as_ref())
                    .map(|t| (t.base, t.bytes))
            };
            let same_type = syms
                .iter()
                .all(|s| ty(s).is_some() && ty(s) == ty(&syms[0]));
            let sp = src.source_map.expr.get(set[0]).copied().unwrap_or_default();
            if with != syms.len() || !same_type {
                let names: Vec<String> = syms
                    .iter()
                    .flatten()
                    .map(|&s| prog.name(s).to_string())
                    .collect();
                let without: Vec<String> = syms
                    .iter()
                    .flatten()
                    .filter(|s| !self.dvar.contains_key(s))
                    .map(|&s| prog.name(s).to_string())
                    .collect();
                // Say which of the two it is: a wrong reason sends the user the wrong way.
                let msg = if !same_type {
                    format!(
                        "EQUIVALENCE of {} with a derivative: members of different types are not supported; equivalence only variables of one real type",
                        names.join(", ")
                    )
                } else {
                    format!(
                        "EQUIVALENCE of {} with a derivative: {} would have no derivative sharing its storage, which is not supported",
                        names.join(", "),
                        without.join(", ")
                    )
                };
                self.g
                    .diags
                    .push(Diagnostic::error(Code::Unsupported, sp, &msg));
                continue;
            }
            let mut ds = Vec::new();
            for &e in set {
                // A whole variable names its first storage unit, derivative included; an
                // element takes the first direction (`bd(1, 2)`), directions being contiguous.
                let dir = match src.exprs[e] {
                    Expr::Name(_) => Dir::Omit,
                    _ => Dir::First,
                };
                ds.push(self.dref(e, dir)?);
            }
            dsets.push(ds);
        }
        (!dsets.is_empty()).then_some(Decl::Equivalence(dsets))
    }

    /// `common /blk_d/ ad, bd`: a derivative COMMON mirroring the primal one member for
    /// member, so every procedure lays it out alike.
    pub(crate) fn derivative_common(
        &mut self,
        blk: Option<SymbolId>,
        ents: &[Entity],
        c: &Copier<'a>,
        decls: &mut Vec<Decl>,
    ) {
        let bname = blk
            .map(|b| self.name_of(b).to_string())
            .unwrap_or_else(|| "blank".into());
        let dname = pattern(&self.g.opts.module_pattern, &bname);
        let bsym = self.g.new_symbol(self.u.scope, &dname, None);
        self.g.out.symbols[bsym].kind = SymbolKind::Common;
        let primal_block = blk.map(|b| self.name_of(b).to_ascii_lowercase());
        let dspelling = self.g.out.symbols[bsym].spelling.clone();
        self.g.dcommon.insert((self.f.p, primal_block), dspelling);
        let mut members = Vec::new();
        for e in ents {
            let ds = match self.dvar.get(&e.sym) {
                Some(&d) => d,
                None => {
                    let n = self.deriv_name(e.sym);
                    let ty = self.g.prog.symbols[e.sym].ty.clone();
                    let d = self.new_sym(&n, ty);
                    self.dvar.insert(e.sym, d);
                    d
                }
            };
            // Declare the member's derivative like the member.
            let t = self.g.prog.symbols[e.sym].ty.clone();
            if let Some(t) = t {
                let mut v = VarDecl {
                    spec: spec_of_type(Lang::Fortran, &t),
                    attrs: Vec::new(),
                    entities: vec![plain_entity(ds)],
                    double_colon: true,
                };
                let src_dims = e
                    .dims
                    .clone()
                    .or_else(|| (!t.dims.is_empty()).then(|| t.dims.clone()));
                if let Some(d) = src_dims {
                    v.entities[0].dims = Some(c.dims(&mut self.u, &d));
                }
                if self.f.vector {
                    add_direction_dim(&mut self.u, &mut v);
                }
                decls.push(Decl::var(v));
            }
            members.push(plain_entity(ds));
        }
        decls.push(Decl::Common(vec![(Some(bsym), members)]));
    }
}
