//! The units of one procedure in the output: its derivative (or `_fwd`/`_bwd` in split
//! mode), internal procedures, primal copies, interface bodies, and the copies of primal
//! units the derivatives call.

use crate::gen::{has_nocheckpoint, unit_name, Gen};
use crate::proc_::{BodyRules, ProcGen, Sweep};
use radtap_il::copy::Copier;
use radtap_il::*;
use std::collections::{HashMap, HashSet};

impl Gen<'_> {
    /// Whether a global of this declaration has a derivative global.
    pub(crate) fn has_derivative_global(&self, v: &VarDecl) -> bool {
        v.entities.iter().any(|e| self.dglobal.contains_key(&e.sym))
    }

    /// A verbatim copy of a unit (C `static` helpers the generated code calls).
    pub(crate) fn copy_unit(&mut self, f: UnitId, parent: Option<UnitId>) -> UnitId {
        let src = &self.prog.units[f];
        let c = Copier { src };
        let mut u = UnitData::new(src.kind, src.lang, src.scope);
        u.name = src.name;
        u.parent = parent;
        u.params = src.params.clone();
        u.result = src.result;
        u.explicit_result = src.explicit_result;
        u.header_type = src.header_type.as_ref().map(|t| c.spec(&mut u, t));
        u.ret_derived = c.ops(&mut u, &src.ret_derived);
        u.attrs = src.attrs.clone();
        u.c_params = src.c_params.iter().map(|p| c.cparam(&mut u, p)).collect();
        u.c_void_params = src.c_void_params;
        u.c_variadic = src.c_variadic;
        u.empty_parens = src.empty_parens;
        u.decls = src.decls.iter().map(|d| c.decl(&mut u, d)).collect();
        u.body = c.block(&mut u, &src.body);
        let id = self.out.units.alloc(u);
        // A copied Fortran procedure carries its internal procedures.
        if self.lang == Lang::Fortran {
            for q in src.contains.clone() {
                let cq = self.copy_unit(q, Some(id));
                self.out.units[id].contains.push(cq);
            }
        }
        id
    }

    /// The derivative units of procedure `p`: one, or in split adjoint mode the forward and
    /// backward sweeps of a procedure that is not a head.
    pub(crate) fn proc_units(
        &mut self,
        p: UnitId,
        parent: Option<UnitId>,
        rules: &dyn BodyRules,
    ) -> Vec<UnitId> {
        let mut out = Vec::new();
        if let Some(&name) = self.primal_copies.get(&p) {
            let c = self.copy_unit(p, parent);
            let u = &mut self.out.units[c];
            if u.name != u.result {
                u.explicit_result = self.lang == Lang::Fortran;
            }
            u.name = Some(name);
            if self.lang == Lang::C {
                // `inline`: no warning when every call of the copy went to `g_fwd`.
                u.attrs.prefixes.retain(|x| x != "static" && x != "inline");
                u.attrs
                    .prefixes
                    .splice(0..0, ["static".into(), "inline".into()]);
            }
            out.push(c);
        }
        let sweeps = self.sweep_units(p, parent, rules);
        for &d in &sweeps {
            self.internal_units(p, d, rules);
        }
        out.extend(sweeps);
        if self.lang == Lang::C {
            for &d in &out {
                self.call_primal_copies(d);
            }
        }
        self.generated.extend(out.iter().map(|&d| (p, d)));
        out
    }

    /// The internal procedures of `p` inside its derivative unit `d`: the derivative units of
    /// the active ones, and a copy of every one, which the calls without derivatives keep
    /// calling. Their host variables were made arguments (`radtap_il::lift`), so nothing in
    /// them depends on what the host's derivative declares.
    fn internal_units(&mut self, p: UnitId, d: UnitId, rules: &dyn BodyRules) {
        if self.lang != Lang::Fortran {
            return;
        }
        for q in self.prog.units[p].contains.clone() {
            let mut inner = Vec::new();
            if self.active.contains(&q) {
                inner.extend(self.proc_units(q, Some(d), rules));
            }
            inner.push(self.copy_unit(q, Some(d)));
            self.out.units[d].contains.extend(inner);
        }
    }

    /// C: every call in generated unit `d` to a procedure with a primal copy calls the copy
    /// (the same code, in the same file, so gcc can inline it; `Gen::choose_primal_copies`).
    fn call_primal_copies(&mut self, d: UnitId) {
        if self.primal_copies.is_empty() {
            return;
        }
        let by_name: HashMap<String, SymbolId> = self
            .primal_copies
            .iter()
            .filter(|(&f, _)| {
                // A `static` original is in the file too (`copy_unit`): its calls stay.
                !self.prog.units[f]
                    .attrs
                    .prefixes
                    .iter()
                    .any(|x| x == "static")
            })
            .map(|(&f, &c)| (unit_name(self.prog, f), c))
            .collect();
        let u = &mut self.out.units[d];
        let callees: Vec<ExprId> = u
            .exprs
            .iter()
            .filter_map(|(_, e)| match e {
                Expr::Call { callee, .. } => Some(*callee),
                _ => None,
            })
            .chain(u.stmts.iter().filter_map(|(_, s)| match &s.kind {
                StmtKind::Call { callee, .. } => Some(*callee),
                _ => None,
            }))
            .collect();
        for c in callees {
            if let Expr::Name(sym) = u.exprs[c] {
                let sd = &self.out.symbols[sym];
                if sd.kind == SymbolKind::Procedure {
                    if let Some(&copy) = by_name.get(&sd.spelling) {
                        u.exprs[c] = Expr::Name(copy);
                    }
                }
            }
        }
    }

    /// A generated unit that copied the caller's interface block for an external procedure
    /// `foo` which has derivatives also gets interface bodies for them (`foo_d`, `foo_b`,
    /// sweeps, primal copy): a procedure with assumed-shape, optional, pointer... dummies
    /// needs an explicit interface at every call, and so do its derivatives.
    pub(crate) fn derivative_interface_bodies(&mut self) {
        let prog = self.prog;
        let generated = self.generated.clone();
        for &(_, u) in &generated {
            for di in 0..self.out.units[u].decls.len() {
                let Decl::Interface(itf) = &self.out.units[u].decls[di] else {
                    continue;
                };
                if itf.is_abstract || itf.name.is_some() {
                    continue;
                }
                let mut extra = Vec::new();
                for b in itf.bodies.clone() {
                    let Some(name) = self.out.units[b].name else {
                        continue;
                    };
                    let spelling = self.out.symbols[name].spelling.clone();
                    for &(p, d) in &generated {
                        let pu = &prog.units[p];
                        if pu.parent.is_none()
                            && pu.name.is_some_and(|n| {
                                prog.symbols[n].spelling.eq_ignore_ascii_case(&spelling)
                            })
                        {
                            extra.push(self.interface_body(d, u));
                        }
                    }
                }
                if let Decl::Interface(itf) = &mut self.out.units[u].decls[di] {
                    itf.bodies.extend(extra);
                }
            }
        }
    }

    /// The interface body of generated unit `d`, for an interface block of unit `host`: its
    /// header and the declarations of its dummies (and of the constants they use).
    fn interface_body(&mut self, d: UnitId, host: UnitId) -> UnitId {
        let mut ib = self.out.units[d].clone();
        ib.parent = Some(host);
        ib.body = Vec::new();
        ib.contains = Vec::new();
        ib.trailing_comments = Vec::new();
        ib.directives = Vec::new();
        let keep: HashSet<SymbolId> = ib.params.iter().copied().chain(ib.result).collect();
        let decls = std::mem::take(&mut ib.decls);
        for mut dl in decls {
            match &mut dl {
                Decl::Var(v) => {
                    let constant = v
                        .attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "parameter"));
                    if !constant {
                        v.entities.retain(|e| keep.contains(&e.sym));
                    }
                    if v.entities.is_empty() {
                        continue;
                    }
                }
                Decl::Attr(a) => {
                    a.items.retain(|i| keep.contains(&i.sym));
                    if a.items.is_empty() {
                        continue;
                    }
                }
                Decl::Use(..)
                | Decl::Implicit(_)
                | Decl::Parameter(_)
                | Decl::TypeDef(_)
                | Decl::Interface(_) => {}
                Decl::Common(_)
                | Decl::Equivalence(_)
                | Decl::Data(_)
                | Decl::StmtFunction { .. }
                | Decl::Comment(_)
                | Decl::TrailingComment(_)
                | Decl::Directive(_)
                | Decl::Unit(_)
                | Decl::Preproc(_)
                | Decl::Verbatim(_)
                | Decl::Enumerators(_) => continue,
            }
            ib.decls.push(dl);
        }
        self.out.units.alloc(ib)
    }

    fn sweep_units(
        &mut self,
        p: UnitId,
        parent: Option<UnitId>,
        rules: &dyn BodyRules,
    ) -> Vec<UnitId> {
        let mut out = Vec::new();
        if self.split_procs.contains_key(&p) {
            out.push(ProcGen::run_sweep(self, p, parent, Sweep::Fwd, rules));
            out.push(ProcGen::run_sweep(self, p, parent, Sweep::Bwd, rules));
        }
        // The joint `g_b`, unless no call uses it.
        let all_split = self.opts.adjoint
            && !self.info.heads.iter().any(|h| h.head == p)
            && (self.opts.split
                || has_nocheckpoint(&self.prog.units[p].directives)
                || self.split_setters.contains(&p)
                || self.mpi_split.contains(&p));
        if !all_split {
            out.push(ProcGen::run_sweep(self, p, parent, Sweep::Joint, rules));
        }
        out
    }
}
