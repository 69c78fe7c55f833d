//! C pointer moves in the adjoint (`p = q`, `p += k`, `p++`): the adjoint pointer follows
//! the primal one, and the moves are undone backwards.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// `p = e`, `p += k`, `p++` on a C pointer: forwards, the pointer and its derivative
    /// are recorded, then both move; backwards, both are restored.
    pub(crate) fn adj_pointer_move(&mut self, s: StmtId, q: SymbolId, mv: PointerMove) -> Rev {
        let mut r = Rev::default();
        let dq = self.pg.dvar.get(&q).copied();
        if dq.is_some() && self.pg.f.sweep != Sweep::Joint && self.pg.f.src.params.contains(&q) {
            // A pointer argument: `f_fwd` has no derivative argument to move or record, and
            // `f_bwd` would start from the caller's: the output referenced undeclared names.
            self.pg.error(s, Code::Unsupported, "moving a pointer argument that has a derivative pointer in a procedure split into f_fwd and f_bwd (-nocheckpoint, or the NOCHECKPOINT directive) is not supported; keep its calls checkpointed");
            return r;
        }
        if let (Some(_), Sweep::Fwd | Sweep::Bwd, PointerMove::Assign { rhs, .. }) =
            (dq, self.pg.f.sweep, mv)
        {
            if !self.is_allocation(rhs) {
                // `row = X + i*m` with `X` an argument with a derivative pointer: `f_fwd` sets
                // `rowb = Xb + i*m` but has no `Xb` (the output did not compile).
                let mut names = std::collections::HashSet::new();
                self.names_in(rhs, &mut names);
                let from_arg = names
                    .into_iter()
                    .filter(|x| self.pg.f.src.params.contains(x) && self.pg.dvar.contains_key(x))
                    .min();
                if let Some(x) = from_arg {
                    let (qn, xn) = (
                        self.pg.name_of(q).to_string(),
                        self.pg.name_of(x).to_string(),
                    );
                    let msg = format!("the local pointer `{qn}` set from the argument `{xn}`, both with derivative pointers, in a procedure split into f_fwd and f_bwd (-nocheckpoint, or the NOCHECKPOINT directive) is not supported; keep its calls checkpointed");
                    self.pg.error(s, Code::Unsupported, &msg);
                    return r;
                }
            }
        }
        let mut ptrs = vec![q];
        ptrs.extend(dq);
        // A declaration's initialiser outside loops gives the pointer its first value:
        // there is nothing to restore.
        let first = (matches!(self.pg.f.src.stmts[s].kind, StmtKind::Decl(_))
            && !self.enclosing_loop(s))
            || (matches!(mv, PointerMove::Assign { op: None, .. })
                && self.first_value_of_local(s, q));
        let undone = self.undo_rotation(s);
        let first = first || undone.is_some();
        r.bwd.extend(undone.unwrap_or_default());
        for &v in ptrs.iter().filter(|_| !first) {
            let name = self.pg.g.out.symbols[v].spelling.clone();
            let a = self.pg.b().opaque(&format!("(void *){name}"));
            r.fwd.push(self.rt("pushPointer8", vec![a]));
            let b = self.pg.b().opaque(&format!("(void **)&{name}"));
            r.bwd.insert(0, self.rt("popPointer8", vec![b]));
        }
        // `q = malloc(…)` of a pointer the procedure frees: the backward sweep frees both
        // blocks where it passes the allocation again (the free itself is left out).
        if let PointerMove::Assign { op: None, rhs } = mv {
            if self.is_allocation(rhs) && self.freed_locals.contains(&q) {
                let mut frees = Vec::new();
                // `delete_matrix(m)` with the frees of the shadow (`records.rs`).
                let dealloc = self.deallocated.get(&q).copied();
                if let Some(d) = dealloc {
                    frees = self.delayed_deallocation(s, d);
                }
                for &v in ptrs.iter().filter(|_| dealloc.is_none()) {
                    let f = self.pg.b().opaque("free");
                    let a = self.pg.b().name(v);
                    frees.push(stmt(
                        &mut self.pg.u,
                        StmtKind::Call {
                            callee: f,
                            args: vec![Arg {
                                keyword: None,
                                value: a,
                            }],
                            no_parens: false,
                        },
                    ));
                }
                frees.append(&mut r.bwd);
                r.bwd = frees;
            }
        }
        let make = |pg: &mut Self, v: SymbolId, deriv: bool| -> Option<ExprId> {
            let n = pg.pg.b().name(v);
            Some(match mv {
                PointerMove::Step { inc, prefix } => pg.pg.b().e(Expr::IncDec {
                    inc,
                    prefix,
                    arg: n,
                }),
                PointerMove::Assign { op, rhs } => {
                    let rhs = if deriv && op.is_none() && pg.pg.allocator_of(rhs).is_some() {
                        // `m = get_new_matrix(r, c)`: the shadow, zeroed (`records.rs`).
                        let d = pg.pg.allocator_block(rhs, Some(q))?;
                        pg.zeroed_allocation(d);
                        d
                    } else if deriv && op.is_none() {
                        let d = pg.pg.dptr(rhs)?;
                        // Adjoints accumulate: the derivative block starts at zero.
                        pg.zeroed_allocation(d);
                        d
                    } else {
                        pg.pg.cp(rhs)
                    };
                    pg.pg.b().e(Expr::Assign { op, lhs: n, rhs })
                }
            })
        };
        if let Some(e) = make(self, q, false) {
            r.fwd.push(stmt(&mut self.pg.u, StmtKind::Expr(e)));
        }
        if let Some(d) = dq {
            match make(self, d, true) {
                Some(e) => {
                    r.fwd.push(stmt(&mut self.pg.u, StmtKind::Expr(e)));
                    if let PointerMove::Assign { op: None, rhs } = mv {
                        let members = self.shadow_members(rhs, q, d);
                        r.fwd.extend(members);
                    }
                }
                None => {
                    self.pg.error(
                        s,
                        Code::Unsupported,
                        "pointing a derivative pointer at this expression is not supported in adjoint mode yet",
                    );
                }
            }
        }
        r
    }

    /// The C pointer variable `e` names, if it does.
    pub(crate) fn pointer_var(&self, e: ExprId) -> Option<SymbolId> {
        let Expr::Name(q) = self.pg.f.src.exprs[e] else {
            return None;
        };
        if self.pg.f.lang != Lang::C {
            return None;
        }
        let t = self.pg.prog().symbols[q].ty.as_ref()?;
        (t.pointers > 0 && t.dims.is_empty()).then_some(q)
    }

    /// The backward sweep of statement `s` of a rotation `t = x1; x1 = x2; …; xk = t;`
    /// (`radtap_dataflow::rotation`) whose temporary only rotates: the rotation run
    /// backwards, `t = xk; xk = x(k-1)` for the last statement, `xi = x(i-1)` for the middle
    /// ones, `x1 = t` for the second, nothing for the first; on the pointers and on their
    /// derivatives alike. Nothing is recorded. `None` when `s` is no such statement, or when
    /// some of the pointers have a derivative and others do not.
    pub(crate) fn undo_rotation(&mut self, s: StmtId) -> Option<Vec<StmtId>> {
        let rotations = &self.pg.f.pi.zones.rotations;
        let (c, i) = rotations.iter().find_map(|r| r.cycle_of(s))?;
        if !c.temp_only_rotates {
            return None;
        }
        let k = c.chain.len();
        let x = |j: usize| c.chain[j - 1];
        let moves: Vec<(SymbolId, SymbolId)> = match i {
            0 => Vec::new(),
            1 => vec![(x(1), c.temp)],
            _ if i == k => vec![(c.temp, x(k)), (x(k), x(k - 1))],
            _ => vec![(x(i), x(i - 1))],
        };
        let all: Vec<SymbolId> = std::iter::once(c.temp)
            .chain(c.chain.iter().copied())
            .collect();
        let derivs: Vec<Option<SymbolId>> =
            all.iter().map(|v| self.pg.dvar.get(v).copied()).collect();
        let with_derivs = derivs.iter().all(Option::is_some);
        if !with_derivs && derivs.iter().any(Option::is_some) {
            return None;
        }
        let mut out = Vec::new();
        for (l, rr) in moves {
            let mut pairs = vec![(l, rr)];
            if with_derivs {
                pairs.push((self.pg.dvar[&l], self.pg.dvar[&rr]));
            }
            for (l, rr) in pairs {
                let lhs = self.pg.b().name(l);
                let rhs = self.pg.b().name(rr);
                let e = self.pg.b().e(Expr::Assign { op: None, lhs, rhs });
                out.push(stmt(&mut self.pg.u, StmtKind::Expr(e)));
            }
        }
        Some(out)
    }
}
