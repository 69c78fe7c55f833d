//! Adjoint-mode choices of the whole program: procedures that set record members they do
//! not own (split, never checkpointed), split-mode procedure pairs, functions with a side
//! effect referenced in expressions (`f_fwd`/`f_bwd`), and the primal copies `f_nodiff`.

use super::*;

impl Gen<'_> {
    /// Adjoint mode: every procedure that sets or frees a member with a derivative twin of
    /// a record it does not own (`split_setters`; heads aside) is split into `_fwd`/`_bwd` and always called
    /// so. Its memory effects then happen once, in the forward sweep, where the shadow
    /// follows the primal, and are reversed once, in the backward sweep; a checkpointed
    /// call ran the primal (no shadow allocated, the old block freed) and then the
    /// procedure again.
    pub(crate) fn split_member_setters(&mut self) {
        if !self.opts.adjoint {
            return;
        }
        self.split_setters = crate::heap_records::split_setters(
            self.prog,
            self.info,
            &self.member_setters,
            &self.active_fields,
        );
        let setters: Vec<UnitId> = self.split_setters.iter().copied().collect();
        for p in setters {
            if self.split_procs.contains_key(&p)
                || self.info.heads.iter().any(|h| h.head == p)
                || !self.dproc.contains_key(&p)
            {
                continue;
            }
            let base = unit_name(self.prog, p);
            self.name_split_pair(p, &base);
        }
    }

    /// The `_fwd`/`_bwd` procedure names of `p` (whose name is `base`), in `split_procs`.
    pub(crate) fn name_split_pair(&mut self, p: UnitId, base: &str) {
        let gs = self.global_scope;
        let mut mk = |pat: &str| {
            let name = self.fresh_global(&pattern(pat, base));
            self.out.symbols.alloc(SymbolData {
                spelling: name,
                kind: SymbolKind::Procedure,
                scope: gs,
                ty: None,
                attrs: SymAttrs::default(),
                unit: None,
                common: None,
                implicit_type: false,
            })
        };
        let f = mk("%_fwd");
        let b = mk("%_bwd");
        self.split_procs.insert(p, (f, b));
    }

    /// The procedures some call to which is not checkpointed: `$AD NOCHECKPOINT` on the
    /// procedure's header or before a call to it. One pass over the call sites (asked per
    /// procedure, it scanned every call site of the program each time).
    pub(crate) fn nocheckpoint_wanted(&mut self) -> BTreeSet<UnitId> {
        let mut out = BTreeSet::new();
        if self.opts.adjoint {
            self.find_communicating();
            out.extend(self.mpi_split.iter().copied());
        }
        for (q, qu) in self.prog.units.iter() {
            if has_nocheckpoint(&qu.directives) {
                out.insert(q);
            }
            for c in self.info.callgraph.sites_of(q) {
                if let radtap_flowgraph::Callee::Defined(l) = &c.callee {
                    if has_nocheckpoint(&qu.stmts[c.stmt].directives) {
                        out.extend(l.iter().copied());
                    }
                }
            }
        }
        out
    }

    /// The `_fwd`/`_bwd` pair a call to `callee` from a statement with `dirs` uses: split
    /// mode, or `$AD NOCHECKPOINT` on the callee's header or on the call.
    pub fn split_call(&self, callee: UnitId, dirs: &[Directive]) -> Option<(SymbolId, SymbolId)> {
        let pair = self.split_procs.get(&callee).copied()?;
        (self.opts.split
            || (self.opts.adjoint && self.split_setters.contains(&callee))
            || (self.opts.adjoint && self.mpi_split.contains(&callee))
            || has_nocheckpoint(&self.prog.units[callee].directives)
            || has_nocheckpoint(dirs))
        .then_some(pair)
    }

    /// The `_fwd`/`_bwd` pair of a reference inside an expression to function `callee`,
    /// when the function has a side effect (`effect_split`): the effect runs once, in
    /// the forward sweep (NLopt's `return testfuncs_status(n, x, f);` counting calls).
    pub fn effect_split_call(&self, callee: UnitId) -> Option<(SymbolId, SymbolId)> {
        self.effect_split
            .contains(&callee)
            .then(|| self.split_procs.get(&callee).copied())
            .flatten()
    }

    /// Active functions with a side effect (`effect_of`) referenced inside an expression
    /// at a point with derivatives of an active procedure.
    pub(crate) fn effect_references(&self) -> HashSet<UnitId> {
        let mut out = HashSet::new();
        for &p in &self.active {
            let Some(pi) = self.info.procs.get(&p) else {
                continue;
            };
            let Some(a) = &pi.activity else { continue };
            for site in self.info.callgraph.sites_of(p) {
                let radtap_flowgraph::Callee::Defined(l) = &site.callee else {
                    continue;
                };
                let [c] = l.as_slice() else { continue };
                if site.expr.is_none()
                    || out.contains(c)
                    || !self.active.contains(c)
                    || self.prog.units[*c].result.is_none()
                {
                    continue;
                }
                let active_point = pi
                    .point
                    .iter()
                    .zip(&a.has_derivative)
                    .any(|(pt, &d)| d && pt.stmt == site.stmt);
                if active_point && self.effect_of(*c).is_some() && !self.writes_value_dummy(*c) {
                    out.insert(*c);
                }
            }
        }
        out
    }

    /// Whether Fortran function `c` writes one of its VALUE dummies: its split sweeps would
    /// not see the copy's changes (`twice(t)` with `t = t*t`: a wrong adjoint), so such a
    /// reference stays refused.
    fn writes_value_dummy(&self, c: UnitId) -> bool {
        let (prog, u) = (self.prog, &self.prog.units[c]);
        let Some(ci) = self.info.procs.get(&c) else {
            return false;
        };
        u.lang == Lang::Fortran
            && u.params.iter().any(|&p| {
                prog.symbols[p].attrs.value
                    && ci
                        .zones
                        .sym_zones(p)
                        .is_some_and(|z| z.intersects(&ci.summary.writes))
            })
    }

    /// A variable outside the function `c` that it may write (a module, COMMON or SAVE
    /// variable, an argument), if any: such a function referenced inside an expression
    /// would run again in the backward sweep (the result's recomputation, then `c_b`'s own
    /// forward sweep), so its side effect would happen twice.
    pub fn effect_of(&self, c: UnitId) -> Option<String> {
        let ci = self.info.procs.get(&c)?;
        let cz = &ci.zones;
        let prog = self.prog;
        let mut found: Vec<String> = Vec::new();
        for (k, o) in &cz.objects {
            // What a dummy or global holds, or (C) what a pointer dummy or global points to.
            let (x, what) = match k {
                ObjKey::Sym(x) => (x, ""),
                ObjKey::Pointee(x) => (x, "*"),
                ObjKey::Heap(..) => continue,
            };
            // A C parameter is a copy (`x = x * a` inside `scale(double x, …)`): writing
            // it changes nothing of the caller's; what it points to does.
            // (A record copy's adjoint is not handed back yet: still refused.)
            let c_copy = prog.units[c].lang == Lang::C
                && what.is_empty()
                && prog.symbols[*x]
                    .ty
                    .as_ref()
                    .is_some_and(|t| !matches!(t.base, BaseClass::Record(_)));
            let outside = (cz.params.contains(x) && !c_copy) || o.start >= cz.global_base;
            if outside && Some(*x) != cz.result && cz.obj_set(o).intersects(&ci.summary.writes) {
                found.push(format!("{what}{}", prog.symbols[*x].spelling));
            }
        }
        found.sort();
        found.into_iter().next()
    }

    /// Active functions referenced from active code whose copy behaves like the original:
    /// no SAVE'd or initialised locals, no writes to globals. In C also the void functions
    /// active code calls (issue 21, item 6): the forward sweep of a checkpointed call runs
    /// the primal, and a `static inline` copy in the adjoint's file is code gcc can inline
    /// where the original, in another object file, is not. Every call in the generated C
    /// units to a procedure with a copy calls the copy (`assemble.rs`, `call_primal_copies`).
    pub(crate) fn choose_primal_copies(&mut self) {
        let mut referenced = BTreeSet::new();
        for &p in &self.active {
            for c in self.info.callgraph.sites_of(p) {
                if let radtap_flowgraph::Callee::Defined(list) = &c.callee {
                    if list.len() == 1
                        && self.active.contains(&list[0])
                        && (c.expr.is_some() || self.lang == Lang::C)
                    {
                        referenced.insert(list[0]);
                    }
                }
            }
        }
        for f in referenced {
            let u = &self.prog.units[f];
            // A described routine has no body to copy: its primal is the library's.
            if self.prog.described.contains_key(&f) {
                continue;
            }
            // A `static` C function is in the adjoint's file already (a verbatim copy).
            let void_c = self.lang == Lang::C
                && u.kind == UnitKind::Subroutine
                && !u.attrs.prefixes.iter().any(|x| x == "static");
            if !void_c && (u.kind != UnitKind::Function || u.result.is_none()) {
                continue;
            }
            let pi = &self.info.procs[&f];
            if pi
                .summary
                .writes
                .iter()
                .any(|z| pi.zones.global_of_local(z).is_some())
            {
                continue;
            }
            let saved = self.prog.scopes[u.scope].order.iter().any(|&s| {
                let a = &self.prog.symbols[s].attrs;
                a.save && !a.constant
            }) || u.decls.iter().any(|d| match d {
                Decl::Var(v) => {
                    !v.attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "parameter"))
                        && v.entities.iter().any(|e| e.init.is_some())
                }
                Decl::Data(_) => true,
                _ => false,
            });
            if saved {
                continue;
            }
            let base = unit_name(self.prog, f);
            let name = self.fresh_global(&format!("{base}_nodiff"));
            let gs = self.global_scope;
            let s = self.out.symbols.alloc(SymbolData {
                spelling: name,
                kind: SymbolKind::Procedure,
                scope: gs,
                ty: None,
                attrs: SymAttrs::default(),
                unit: None,
                common: None,
                implicit_type: false,
            });
            self.primal_copies.insert(f, s);
        }
    }
}
