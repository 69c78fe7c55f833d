//! Adjoint of the assignment of a whole record (`v = w` of a Fortran derived type, C
//! `*out = m` of a struct): member by member over the record type's active real leaves,
//! `w̄.p += v̄.p; v̄.p = 0` for each path `p`. The derivative records cannot be added or set
//! to zero as wholes (the output did not compile). The right side must be a reference; a
//! record computed by an expression, a compound assignment and a copy between two elements
//! of one array (which may be the same element) are refused at their line. The value a
//! Fortran record assignment overwrites is recorded component by component.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// The adjoint increments of `lhs = rhs` where `lhs` is a whole record of type `td` with
    /// adjoint reference `ld`; `active` when the target is active after the statement.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record_increments(
        &mut self,
        s: StmtId,
        lhs: Target,
        td: TypeDefId,
        ld: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
        active: bool,
    ) -> Vec<StmtId> {
        if op.is_some() {
            self.pg.error(
                s,
                Code::Unsupported,
                "a compound assignment of a whole record is not supported in adjoint mode yet",
            );
            return Vec::new();
        }
        let mut r = rhs;
        while let Expr::Paren(a) = self.pg.f.src.exprs[r] {
            r = a;
        }
        let rd = if active {
            let reference = matches!(
                self.pg.f.src.exprs[r],
                Expr::Name(_)
                    | Expr::Index { .. }
                    | Expr::Field { .. }
                    | Expr::Unary {
                        op: UnOp::Deref,
                        ..
                    }
            );
            if !reference {
                self.pg.error(s, Code::Unsupported, "the assignment of a record value computed by an expression (not a variable) is not supported in adjoint mode yet");
                return Vec::new();
            }
            let lb = self.t_base(lhs);
            let rb = radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, r);
            if lb.is_some() && lb == rb {
                let identical = match lhs {
                    Target::Expr(l) => self.same_src(l, r),
                    Target::Sym(x) => matches!(self.pg.f.src.exprs[r], Expr::Name(y) if x == y),
                };
                if identical {
                    // `v = v`: nothing flows.
                    return Vec::new();
                }
                self.pg.error(s, Code::Unsupported, "a record assignment between two parts of one variable (they may be the same) is not supported in adjoint mode yet");
                return Vec::new();
            }
            self.pg.dref(r, Dir::Nd)
        } else {
            None
        };
        let leaves = self.pg.real_leaves(td);
        if self.pg.f.lang == Lang::C {
            if let Some((path, _, _)) = leaves.iter().find(|l| l.2) {
                // C arrays cannot be added or zeroed as wholes (`qb.s = 0.0` did not compile).
                let msg = format!("the assignment of a whole struct with the array member `{}` is not supported in adjoint mode yet (assign its members one by one)", path.join("."));
                self.pg.error(s, Code::Unsupported, &msg);
                return Vec::new();
            }
        }
        let mut out = Vec::new();
        for (path, k, _) in leaves {
            if let Some(rd) = rd {
                let target = self.leaf(rd, &path);
                let cur = self.leaf(rd, &path);
                let inc = self.leaf(ld, &path);
                let sum = self.pg.b().add(cur, inc);
                out.push(assign(&mut self.pg.u, target, sum));
            }
            let target = self.leaf(ld, &path);
            let z = self.pg.b().zero(k);
            out.push(assign(&mut self.pg.u, target, z));
        }
        out
    }

    /// A fresh copy of the output reference `base` followed by the member `path`.
    fn leaf(&mut self, base: ExprId, path: &[String]) -> ExprId {
        let mut e = self.dup(base);
        if matches!(self.pg.u.exprs[e], Expr::Unary { .. }) {
            e = self.pg.b().e(Expr::Paren(e));
        }
        for f in path {
            e = self.pg.b().e(Expr::Field {
                base: e,
                field: f.clone(),
                arrow: false,
            });
        }
        e
    }
}

impl<'a> Adj<'_, '_, 'a> {
    /// The slots recording the value target `t` overwrites: one, or for a Fortran whole
    /// record (`cells(i) = c`, `p%state = v`) one per leaf component in `rec` (the zones
    /// to record), as Tapenade does.
    pub(crate) fn slots_of_target(
        &mut self,
        t: Target,
        rec: &ZoneSet,
    ) -> Result<Vec<Slot>, String> {
        if let (Target::Expr(e), Lang::Fortran) = (t, self.pg.f.lang) {
            if let Some(td) = self.pg.record_of(e) {
                return self.record_ref_slots(e, td, rec);
            }
        }
        self.slot_of_target(t).map(|s| vec![s])
    }

    /// One slot per leaf component of the Fortran record reference `e` of type `td` whose
    /// zone is in `rec` (all when the zones do not map to the leaves one to one); a pointer,
    /// allocatable or array-of-records component, or an array component of an array of
    /// records, is refused.
    fn record_ref_slots(
        &mut self,
        e: ExprId,
        td: TypeDefId,
        rec: &ZoneSet,
    ) -> Result<Vec<Slot>, String> {
        let mut leaves = Vec::new();
        self.leaf_paths(td, &mut Vec::new(), &mut leaves, 0);
        // The reference's zones are its leaves', in layout order (`component_slots`).
        let zones: Vec<radtap_dataflow::ZoneId> = self
            .pg
            .g
            .info
            .ref_zones(self.pg.prog(), self.pg.f.p, e)
            .map(|z| z.iter().collect())
            .unwrap_or_default();
        let by_leaf = zones.len() == leaves.len();
        let rank = self.pg.rank_of(e);
        let refused = "recording a derived-type value with a pointer, allocatable or array-of-records component";
        let mut out = Vec::new();
        for (j, leaf) in leaves.into_iter().enumerate() {
            if by_leaf && !rec.contains(zones[j]) {
                continue;
            }
            let path = leaf.ok_or(refused)?;
            let ty = path
                .last()
                .and_then(|&f| self.pg.prog().symbols[f].ty.clone())
                .ok_or(refused)?;
            if rank > 0 && !ty.dims.is_empty() {
                return Err("recording an array component of an array of derived type".into());
            }
            let suffix = Self::suffix_of(&ty).ok_or("recording a component of this type")?;
            let base = self.pg.cp(e);
            out.push(self.component_slot(base, &path, &ty, rank, suffix));
        }
        Ok(out)
    }
}
