//! The program-wide choices: which procedures get derivatives (and which are split, which
//! allocate), which module variables and C globals, and the interface a driver calls.

use super::*;

impl Gen<'_> {
    pub(crate) fn choose_procedures(&mut self) {
        let heads: Vec<UnitId> = self.info.heads.iter().map(|h| h.head).collect();
        for (u, _) in self.prog.units.iter() {
            let Some(pi) = self.info.procs.get(&u) else {
                continue;
            };
            let Some(a) = &pi.activity else { continue };
            if heads.contains(&u) || a.has_derivative.iter().any(|&b| b) {
                self.active.push(u);
            }
        }
        // MPI routines moving real data: active where their calls are (`mpi.rs`).
        for p in self.message_routines() {
            if !self.active.contains(&p) {
                self.active.push(p);
            }
        }
        self.add_allocating_procedures();
        if self.opts.adjoint {
            self.pair_allocating_calls();
        }
        let nockp = self.nocheckpoint_wanted();
        if self.opts.adjoint {
            self.effect_split = self.effect_references();
        }
        for &p in &self.active.clone() {
            let pi = &self.info.procs[&p];
            let d = self.deriv_zones(p);
            let has = |s: SymbolId| -> bool {
                let own = pi.zones.sym_zones(s).is_some_and(|z| z.intersects(&d));
                let pointee = pi
                    .zones
                    .objects
                    .get(&ObjKey::Pointee(s))
                    .is_some_and(|o| pi.zones.obj_set(o).intersects(&d));
                own || pointee
            };
            let mut flags: Vec<bool> = self.prog.units[p].params.iter().map(|&s| has(s)).collect();
            // A described routine's derivative is written once for every use: each real
            // argument has its derivative (`NAME_d(n, x, xd, y, yd)`), whatever is active.
            let described = self.prog.described.contains_key(&p);
            if described {
                flags = self.prog.units[p]
                    .params
                    .iter()
                    .map(|&s| radtap_il::library::real_valued(self.prog, s))
                    .collect();
            }
            // A head's arguments follow Tapenade 3.16's interface rule (DESIGN.md, calling
            // conventions; the table in tests/tapenade_interfaces.rs), unless -fixinterface:
            // - a scalar gets a derivative argument only when active on the boundary: an
            //   independent that influences a dependent, a dependent that depends on an
            //   independent; elsewhere its derivative is a local starting at zero;
            // - an array or pointer active anywhere inside keeps its derivative argument,
            //   scratch when it is neither (Tapenade's RW status `x:(loc)`);
            // - without named independents, every dependent keeps its argument, zero when
            //   nothing varies it (`deriv_zones` gives it a derivative).
            if let Some(h) = self
                .info
                .heads
                .iter()
                .find(|h| h.head == p && !h.fixinterface)
            {
                let mut zero_kept = pi.zones.empty();
                if h.default_independents {
                    for (_, z) in &h.dependents {
                        zero_kept.union_with(z);
                    }
                }
                for (f, &s) in flags.iter_mut().zip(&self.prog.units[p].params) {
                    let mut z = pi.zones.sym_zones(s).unwrap_or_else(|| pi.zones.empty());
                    if let Some(o) = pi.zones.objects.get(&ObjKey::Pointee(s)) {
                        z.union_with(&pi.zones.obj_set(o));
                    }
                    if *f && self.scalar_param(s) && !z.intersects(&h.boundary_active) {
                        *f = false;
                    }
                    if !*f && z.intersects(&zero_kept) && z.intersects(&d) {
                        *f = true;
                    }
                }
            }
            // Derivative types are needed before the file is laid out.
            let mut recs = Vec::new();
            for (k, o) in &pi.zones.objects {
                if let (ObjKey::Sym(s) | ObjKey::Pointee(s), Some(td)) = (k, o.rec) {
                    if pi.zones.obj_set(o).intersects(&d) && self.prog.symbols[*s].ty.is_some() {
                        recs.push(td);
                    }
                }
            }
            recs.extend(
                record_blocks(self.prog, &pi.zones, &d)
                    .into_iter()
                    .map(|(td, _)| td),
            );
            self.dparams.insert(p, flags);
            self.pending_types.extend(recs);
            let r = self.prog.units[p].result.is_some_and(|s| {
                has(s) || (described && radtap_il::library::real_valued(self.prog, s))
            });
            self.dresult.insert(p, r);
            let base = unit_name(self.prog, p);
            let name = self.fresh_global(&pattern(&self.opts.func_pattern, &base));
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
            self.dproc.insert(p, s);
            let is_head = self.info.heads.iter().any(|h| h.head == p);
            // A described routine has no body to split.
            let wanted = !is_head && (self.opts.split || nockp.contains(&p));
            if self.opts.adjoint && !described && (wanted || self.effect_split.contains(&p)) {
                self.name_split_pair(p, &base);
            }
        }
    }

    /// Procedures that ALLOCATE or DEALLOCATE a module variable with a derivative (active in
    /// some differentiated procedure) are differentiated too, though nothing in them is
    /// active: their derivative allocates the derivative variable with the primal (an
    /// `rk4_init` allocating module work arrays; called as the primal, the derivative
    /// arrays were never allocated and the derivative code crashed).
    fn add_allocating_procedures(&mut self) {
        let mut active_globals: BTreeSet<u32> = BTreeSet::new();
        for &p in &self.active {
            let pi = &self.info.procs[&p];
            for z in self.deriv_zones(p).iter() {
                if let Some(gz) = pi.zones.global_of_local(z) {
                    active_globals.insert(gz);
                }
            }
        }
        let has_derivative = |s: SymbolId| -> bool {
            let sd = &self.prog.symbols[s];
            let module = radtap_dataflow::zones::unit_of_scope(self.prog, sd.scope);
            sd.common.is_none()
                && module.is_some_and(|m| self.prog.units[m].kind == UnitKind::Module)
                && self
                    .info
                    .globals
                    .objects
                    .get(&ObjKey::Sym(s))
                    .is_some_and(|o| {
                        (o.start..o.start + o.len).any(|z| active_globals.contains(&z))
                    })
        };
        let mut more = BTreeSet::new();
        for (u, ud) in self.prog.units.iter() {
            if self.active.contains(&u)
                || self
                    .info
                    .procs
                    .get(&u)
                    .is_none_or(|pi| pi.activity.is_none())
            {
                continue;
            }
            let allocates = ud.stmts.iter().any(|(_, st)| match &st.kind {
                StmtKind::Memory { op, items, .. } if *op != MemOp::Nullify => {
                    items.iter().any(|&it| {
                        let base = match &ud.exprs[it] {
                            Expr::Index { base, .. } => *base,
                            _ => it,
                        };
                        matches!(ud.exprs[base], Expr::Name(s) if has_derivative(s))
                    })
                }
                _ => false,
            });
            if allocates {
                more.insert(u);
            }
        }
        // Their callers, up the call graph.
        loop {
            let before = more.len();
            for (u, _) in self.prog.units.iter() {
                if more.contains(&u)
                    || self.active.contains(&u)
                    || self
                        .info
                        .procs
                        .get(&u)
                        .is_none_or(|pi| pi.activity.is_none())
                {
                    continue;
                }
                let calls = self.info.callgraph.sites_of(u).iter().any(|c| {
                    matches!(&c.callee, radtap_flowgraph::Callee::Defined(l)
                        if l.iter().any(|q| more.contains(q)))
                });
                if calls {
                    more.insert(u);
                }
            }
            if more.len() == before {
                break;
            }
        }
        self.active.extend(more.iter().copied());
        self.allocating = more;
    }

    /// Global zones active anywhere → the module variables and C globals that get a global
    /// derivative.
    pub(crate) fn choose_globals(&mut self) {
        let mut active_globals: BTreeSet<u32> = BTreeSet::new();
        for &p in &self.active {
            let pi = &self.info.procs[&p];
            for z in self.deriv_zones(p).iter() {
                if let Some(gz) = pi.zones.global_of_local(z) {
                    active_globals.insert(gz);
                }
            }
        }
        let mut syms: Vec<SymbolId> = Vec::new();
        for (k, o) in &self.info.globals.objects {
            let ObjKey::Sym(s) = k else { continue };
            if self.prog.symbols[*s].common.is_some() {
                continue; // COMMON members get a mirror COMMON per procedure
            }
            if (o.start..o.start + o.len).any(|z| active_globals.contains(&z)) {
                syms.push(*s);
            }
        }
        syms.sort();
        for s in syms {
            let sd = &self.prog.symbols[s];
            let module = radtap_dataflow::zones::unit_of_scope(self.prog, sd.scope);
            let is_module_var = module.is_some_and(|m| self.prog.units[m].kind == UnitKind::Module);
            let is_c_global = module.is_some_and(|m| self.prog.units[m].kind == UnitKind::CFile);
            if !(is_module_var || is_c_global) {
                // SAVE locals and host-associated variables: a SAVE local's derivative is a
                // SAVE local of the derivative procedure (made in the procedure).
                continue;
            }
            let name = self.fresh_global(&pattern(&self.opts.var_pattern, &sd.spelling));
            let scope = sd.scope;
            let ty = sd.ty.clone();
            let ds = self.new_symbol(scope, &name, ty);
            self.dglobal.insert(s, ds);
            if let Some(td) = sd.ty.as_ref().and_then(|t| match t.base {
                BaseClass::Record(td) => Some(td),
                _ => None,
            }) {
                self.derivative_type(td);
            }
        }
    }

    pub(crate) fn interfaces(&self) -> Vec<Interface> {
        let mut out = Vec::new();
        for h in &self.info.heads {
            let p = h.head;
            let Some(&ds) = self.dproc.get(&p) else {
                continue;
            };
            let u = &self.prog.units[p];
            let flags = &self.dparams[&p];
            // The names the generated procedure gives its derivative arguments: the pattern
            // (`xd`) unless a primal name took it (an argument `xd` makes `x`'s derivative
            // `xd0`). Each derivative argument follows its primal one in the generated list.
            let generated: Option<Vec<String>> = self
                .out
                .units
                .iter()
                .find(|(_, du)| du.name == Some(ds))
                .map(|(_, du)| {
                    du.params
                        .iter()
                        .map(|&q| self.out.symbols[q].spelling.clone())
                        .collect()
                });
            let mut at = 0;
            let params = u
                .params
                .iter()
                .zip(flags)
                .map(|(&s, &f)| {
                    at += 1;
                    let name = f.then(|| {
                        at += 1;
                        generated
                            .as_ref()
                            .and_then(|g| g.get(at - 1).cloned())
                            .unwrap_or_else(|| {
                                pattern(&self.opts.var_pattern, &self.prog.symbols[s].spelling)
                            })
                    });
                    (s, name)
                })
                .collect();
            let module = u
                .parent
                .and_then(|m| self.dmodule.get(&m))
                .map(|m| unit_name(&self.out, *m));
            let uses = self
                .dmodule
                .values()
                .map(|m| unit_name(&self.out, *m))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            out.push(Interface {
                head: p,
                name: self.out.symbols[ds].spelling.clone(),
                module,
                params,
                result_deriv: self.dresult.get(&p).copied().unwrap_or(false),
                uses,
                independents: h.independents.iter().map(|(n, _)| n.clone()).collect(),
                dependents: h.dependents.iter().map(|(n, _)| n.clone()).collect(),
                globals: {
                    let mut g: Vec<(SymbolId, SymbolId)> =
                        self.dglobal.iter().map(|(&s, &d)| (s, d)).collect();
                    g.sort();
                    g
                },
                commons: {
                    let mut c: Vec<(Option<String>, String)> = self
                        .dcommon
                        .iter()
                        .filter(|((q, _), _)| *q == p)
                        .map(|((_, b), d)| (b.clone(), d.clone()))
                        .collect();
                    c.sort();
                    c
                },
                active_fields: self.active_fields.clone(),
                zero_on_entry: self
                    .uncleared
                    .iter()
                    .filter(|(q, _)| *q == p)
                    .map(|(_, n)| n.clone())
                    .collect(),
            });
        }
        out
    }
}
