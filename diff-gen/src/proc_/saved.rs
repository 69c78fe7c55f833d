//! Locals saved from one call to the next (Fortran: a SAVE statement or attribute, a SAVE
//! without a list, DATA, an initialiser; C: `static`) whose values carry a derivative: the derivative is
//! saved with the value, so a filter's recurrence keeps its derivative from one call to
//! the next. Each run of a head starts from the state the previous runs left, a constant of
//! this run: the saved derivatives start each run at zero. A head counts its runs in
//! `common /radtap_generation/` (C: a file-scope `static int radtap_generation;`, a
//! tentative definition repeated above each function using it); a procedure with saved
//! derivatives zeroes them when it first runs in a new run of a head (on entry of the
//! tangent, at the start of the backward sweep of the adjoint), remembering the run in a
//! saved local.

use super::*;

/// The COMMON block, and its variable, that count the runs of the heads.
const RUNS: &str = "radtap_generation";

impl<'a> ProcGen<'_, 'a> {
    /// The saved locals of this procedure that carry a derivative, with the derivative.
    fn saved_with_derivative(&self) -> Vec<(SymbolId, SymbolId)> {
        let mut out: Vec<(SymbolId, SymbolId)> = self
            .dvar
            .iter()
            .filter(|(s, _)| self.saved_local(**s))
            .map(|(s, d)| (*s, *d))
            .collect();
        out.sort();
        out
    }

    fn saved_local(&self, s: SymbolId) -> bool {
        let sd = &self.g.prog.symbols[s];
        sd.attrs.save
            && sd.kind == SymbolKind::Variable
            && !self.f.src.params.contains(&s)
            && sd.common.is_none()
            && !self.g.dglobal.contains_key(&s)
            && radtap_dataflow::zones::unit_of_scope(self.g.prog, sd.scope) == Some(self.f.p)
    }

    /// Whether some procedure being differentiated has a saved real local (a head then
    /// counts its runs).
    fn program_has_saved_state(&self) -> bool {
        let prog = self.g.prog;
        self.g.active.iter().any(|&p| {
            let u = &prog.units[p];
            u.kind != UnitKind::CFile
                && prog.scopes[u.scope].order.iter().any(|&s| {
                    let sd = &prog.symbols[s];
                    sd.attrs.save
                        && sd.kind == SymbolKind::Variable
                        && !sd.attrs.dummy
                        && sd.common.is_none()
                        && sd.ty.as_ref().is_some_and(|t| {
                            matches!(
                                t.base,
                                BaseClass::Real | BaseClass::Complex | BaseClass::Record(_)
                            )
                        })
                })
        })
    }

    /// The declarations this module adds: `save :: sd` for derivatives of locals saved
    /// without a SAVE attribute on their type statement (which the derivative's declaration
    /// copies) or a SAVE without a list (which saves them already); the run counter with its
    /// COMMON block where it is used; `integer, save :: radtap_seen = -1`.
    pub(crate) fn saved_derivative_decls(&mut self) -> Vec<Decl> {
        self.refuse_unshared_state();
        let mut decls = Vec::new();
        let saved = self.saved_with_derivative();
        let counts = self.counts_runs();
        if saved.is_empty() && !counts {
            return decls;
        }
        if self.f.lang == Lang::C {
            self.c_run_counter(counts, !saved.is_empty());
            return decls;
        }
        let save = Attr::Keyword("save".into());
        let mut by_attr = HashSet::new();
        let mut bare = false;
        for d in &self.f.src.decls {
            match d {
                Decl::Attr(a) if a.keyword == "save" && a.items.is_empty() => bare = true,
                Decl::Var(v) if v.attrs.contains(&save) => {
                    by_attr.extend(v.entities.iter().map(|e| e.sym))
                }
                _ => {}
            }
        }
        self.counts = counts;
        if self.f.adjoint {
            // The adjoint allocates such an array again where it passes its ALLOCATE and
            // frees it backwards, with the adjoint carried to the previous call.
            let prog = self.g.prog;
            if let Some(&(x, _)) = saved
                .iter()
                .find(|(x, _)| prog.symbols[*x].attrs.allocatable || prog.symbols[*x].attrs.pointer)
            {
                let msg = format!(
                    "the saved allocatable or pointer array `{}` carries a derivative from one call to the next: not supported in adjoint mode yet",
                    prog.symbols[x].spelling
                );
                let sp = self.f.src.source_map.header.unwrap_or_default();
                self.g
                    .diags
                    .push(Diagnostic::error(Code::Unsupported, sp, &msg));
            }
        }
        let items: Vec<AttrItem> = saved
            .iter()
            .filter(|(s, _)| !bare && !by_attr.contains(s))
            .map(|&(_, d)| AttrItem {
                sym: d,
                dims: None,
                common: false,
            })
            .collect();
        if !items.is_empty() {
            decls.push(Decl::Attr(AttrStmt {
                keyword: "save".into(),
                double_colon: true,
                items,
            }));
        }
        // The run counter, in its COMMON block.
        let n = self.fresh(RUNS);
        let counter = self.new_sym(&n, Some(Type::int()));
        let block = self.g.new_symbol(self.u.scope, RUNS, None);
        self.g.out.symbols[block].kind = SymbolKind::Common;
        decls.push(Decl::one(TypeSpec::int(Lang::Fortran), counter, Vec::new()));
        decls.push(Decl::Common(vec![(
            Some(block),
            vec![plain_entity(counter)],
        )]));
        self.run_counter = Some(counter);
        if !saved.is_empty() {
            let n = self.fresh("radtap_seen");
            let seen = self.new_sym(&n, Some(Type::int()));
            let minus_one = self.u.int_literal(-1);
            let mut d = Decl::one(TypeSpec::int(Lang::Fortran), seen, Vec::new());
            if let Decl::Var(v) = &mut d {
                v.double_colon = true;
                // Under a SAVE without a list, a SAVE attribute is a duplicate.
                if !bare {
                    v.attrs.push(save);
                }
                v.entities[0].init = Some(Init::Expr(minus_one));
            }
            decls.push(d);
            self.run_seen = Some(seen);
        }
        decls
    }

    /// C: `static int radtap_generation;` above the function (a tentative definition: each
    /// function using the counter repeats it, the file has one), and `static int radtap_seen =
    /// -1;` in a function with saved derivatives.
    fn c_run_counter(&mut self, counts: bool, has_saved: bool) {
        let n = self.fresh(RUNS);
        self.run_counter = Some(self.new_sym(&n, Some(Type::int())));
        self.counts = counts;
        self.u.directives.insert(
            0,
            Directive::comment(format!(
                "static int {n}; /* runs of the heads: saved derivatives restart at zero */"
            )),
        );
        if has_saved {
            let n = self.fresh("radtap_seen");
            let seen = self.new_sym(&n, Some(Type::int()));
            let minus_one = self.u.int_literal(-1);
            let mut d = Decl::one(TypeSpec::int(Lang::C), seen, Vec::new());
            if let Decl::Var(v) = &mut d {
                v.attrs.push(Attr::Keyword("static".into()));
                v.entities[0].init = Some(Init::Expr(minus_one));
            }
            self.c_local_decls.push(d);
            self.run_seen = Some(seen);
        }
    }

    /// Whether this procedure starts the runs: a head, when some procedure being
    /// differentiated has saved state, that no procedure being differentiated calls (a head
    /// called inside another head's run would zero the saved derivatives in the middle of
    /// it; called from outside, it does not start a new run then: a known gap).
    fn counts_runs(&self) -> bool {
        self.g.info.heads.iter().any(|h| h.head == self.f.p)
            && self.program_has_saved_state()
            && !self
                .g
                .info
                .callgraph
                .callers(self.f.p)
                .iter()
                .any(|c| self.g.active.contains(c))
    }

    /// A head: `radtap_generation = radtap_generation + 1`, a new run.
    pub(crate) fn next_run(&mut self) -> Vec<StmtId> {
        let (Some(c), true) = (self.run_counter, self.counts) else {
            return Vec::new();
        };
        let (l, r, one) = (self.b().name(c), self.b().name(c), self.b().int(1));
        let sum = self.b().bin(BinOp::Add, r, one);
        vec![assign(&mut self.u, l, sum)]
    }

    /// Puts the statements of [`Self::reset_saved_derivatives`] into `body`, the statements of
    /// this procedure in the derivative: first, or in C after the declarations of the
    /// saved derivatives (statements of the body there).
    pub fn place_reset(&self, body: &mut Vec<StmtId>, reset: Vec<StmtId>) {
        let saved: Vec<SymbolId> = self.saved_with_derivative().iter().map(|p| p.1).collect();
        let declares_saved = |s: &StmtId| {
            matches!(&self.u.stmts[*s].kind, StmtKind::Decl(Decl::Var(v))
                if v.entities.iter().any(|e| saved.contains(&e.sym)))
        };
        let at = match self.f.lang {
            Lang::C => body.iter().rposition(declares_saved).map_or(0, |i| i + 1),
            Lang::Fortran => 0,
        };
        body.splice(at..at, reset);
    }

    /// `if (radtap_seen /= radtap_generation) then; sd = 0; …; radtap_seen =
    /// radtap_generation; end if`: the saved derivatives start a run of a head at zero.
    pub fn reset_saved_derivatives(&mut self) -> Vec<StmtId> {
        let (Some(c), Some(seen)) = (self.run_counter, self.run_seen) else {
            return Vec::new();
        };
        let mut body = Vec::new();
        for (s, d) in self.saved_with_derivative() {
            let Some(ty) = self.g.prog.symbols[s].ty.clone() else {
                continue;
            };
            let l = self.b().name(d);
            let zero = match ty.base {
                BaseClass::Record(td) => self.zero_record_leaves(l, td),
                _ if self.f.lang == Lang::C => {
                    // C: element by element (a static array), over the directions.
                    let c = Copier { src: self.f.src };
                    let mut bounds = Vec::new();
                    for dim in &ty.dims {
                        if let DimUpper::Expr(e) = dim.upper {
                            bounds.push(c.expr(&mut self.u, e));
                        }
                    }
                    vec![self.zero_c_elements(d, bounds)]
                }
                _ => {
                    let z = self.b().zero(ty.bytes.unwrap_or(4));
                    vec![assign(&mut self.u, l, z)]
                }
            };
            let sd = &self.g.prog.symbols[s];
            if sd.attrs.allocatable || sd.attrs.pointer {
                // Not allocated before the first call allocates it.
                let n = self.b().name(d);
                let test = if sd.attrs.pointer {
                    "associated"
                } else {
                    "allocated"
                };
                let cond = self.b().call(test, vec![n]);
                body.push(stmt(
                    &mut self.u,
                    StmtKind::If {
                        arms: vec![(cond, zero)],
                        else_block: None,
                        logical: false,
                        braces: Vec::new(),
                    },
                ));
            } else {
                body.extend(zero);
            }
        }
        let (l, r) = (self.b().name(seen), self.b().name(c));
        body.push(assign(&mut self.u, l, r));
        let (a, b) = (self.b().name(seen), self.b().name(c));
        let cond = self.b().bin(BinOp::Ne(RelSpell::Symbol), a, b);
        vec![stmt(
            &mut self.u,
            StmtKind::If {
                arms: vec![(cond, body)],
                else_block: None,
                logical: false,
                braces: Vec::new(),
            },
        )]
    }
}
