//! Adjoint increments: the seed of a transposed tangent scattered onto its derivative
//! references (`x̄ᵢ += ∂f/∂xᵢ · ȳ`), like terms merged and common guards factored out.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// The adjoint increments of the tangent `t` (with derivative references `marks`) for
    /// `seed` of rank `seed_rank`: `x̄ = x̄ + Σ cᵢ·seed`, merged per reference in order of
    /// first appearance. The contributions to a reference in `self_marks` (the assigned
    /// variable itself) are returned instead. `None` (and an error) when the tangent cannot
    /// be transposed.
    #[allow(clippy::type_complexity)]
    pub(crate) fn scatter(
        &mut self,
        s: StmtId,
        t: ExprId,
        seed: ExprId,
        seed_rank: usize,
        marks: &[(ExprId, ExprId)],
        self_marks: &HashSet<ExprId>,
    ) -> Option<(Vec<StmtId>, Option<Vec<ExprId>>)> {
        let mset = self.marks_of(t, marks.iter().map(|m| m.0).collect());
        let mut contribs = Vec::new();
        let outer_temps = std::mem::take(&mut self.seed_temps);
        let res = self.transpose(t, seed, seed_rank, &mset, &mut contribs);
        let seed_temps = std::mem::replace(&mut self.seed_temps, outer_temps);
        if let Err(what) = res {
            self.guarded.clear();
            let msg = format!("{what} is not supported in adjoint mode yet");
            self.pg.error(s, Code::Unsupported, &msg);
            return None;
        }
        let mut groups: Vec<(ExprId, Vec<ExprId>, bool)> = Vec::new();
        let mut alike = Alike::default();
        // Each marker's source reference, the first listed (a search per contribution was
        // quadratic in the number of terms).
        let mut src_of: HashMap<ExprId, ExprId> = HashMap::with_capacity(marks.len());
        for &(m, r) in marks {
            src_of.entry(m).or_insert(r);
        }
        for (m, c, srank) in contribs {
            // An array seed flowing into a scalar: summed.
            let src_ref = src_of.get(&m).copied();
            let mrank = src_ref.map_or(0, |r| self.pg.rank_of(r));
            // The contribution may be an array though the seed is not: a scalar broadcast
            // in an array expression under `sum` (`sum((x - mean)**2)` into `mean`).
            let crank = srank.max(self.out_rank(c));
            let c = if self.pg.f.lang == Lang::Fortran && crank > 0 && mrank == 0 {
                self.pg.b().call("sum", vec![c])
            } else {
                c
            };
            match alike.find_or_add(self, m, groups.len()) {
                Some(g) => groups[g].1.push(c),
                None => groups.push((m, vec![c], self_marks.contains(&m))),
            }
        }
        let mut incs = seed_temps;
        let mut self_group = None;
        for (m, cs, is_self) in groups {
            if is_self {
                self_group = Some(self.merge_like_terms(cs));
                continue;
            }
            let inc = self.increment(m, cs);
            incs.push(inc);
        }
        self.guarded.clear();
        Some((incs, self_group))
    }

    /// `m = m + Σ cs`, made under the conditions of the branches of C conditionals every
    /// term comes from, outermost first (`ub[i-1]` is not touched at `i == 0`).
    fn increment(&mut self, m: ExprId, cs: Vec<ExprId>) -> StmtId {
        if let Some((cond, taken, inner)) = self.common_guard(&cs) {
            let inc = self.increment(m, inner);
            let c = self.dup(cond);
            let c = if taken {
                c
            } else {
                let c = self.pg.paren_if_compound(c);
                self.pg.b().e(Expr::Unary {
                    op: UnOp::Not,
                    arg: c,
                })
            };
            return self.if_stmt(vec![(c, vec![inc])], None);
        }
        let cs = self.merge_like_terms(cs);
        let target = self.dup(m);
        let mut sum = self.dup(m);
        for c in cs {
            sum = self.pg.b().add(sum, c);
        }
        assign(&mut self.pg.u, target, sum)
    }

    /// The condition and side shared by every term of `cs`, each from a branch of a C
    /// conditional (`transpose.rs`), with the terms unwrapped.
    fn common_guard(&self, cs: &[ExprId]) -> Option<(ExprId, bool, Vec<ExprId>)> {
        let (c0, t0, _) = *self.guarded.get(cs.first()?)?;
        let mut inner = Vec::with_capacity(cs.len());
        for c in cs {
            let &(c1, t1, x) = self.guarded.get(c)?;
            if t1 != t0 || !(c1 == c0 || self.same_out(c1, c0)) {
                return None;
            }
            inner.push(x);
        }
        Some((c0, t0, inner))
    }

    /// Contributions to one reference written alike, merged: `x̄ += x·ȳ + x·ȳ` becomes
    /// `x̄ += 2*x·ȳ` (the same value: doubling is exact). Part of `sharepartials`.
    fn merge_like_terms(&mut self, cs: Vec<ExprId>) -> Vec<ExprId> {
        if cs.len() < 2 || !self.pg.g.opts.share_partials {
            return cs;
        }
        let mut merged: Vec<(ExprId, i64)> = Vec::new();
        let mut alike = Alike::default();
        for c in cs {
            match alike.find_or_add(self, c, merged.len()) {
                Some(m) => merged[m].1 += 1,
                None => merged.push((c, 1)),
            }
        }
        merged
            .into_iter()
            .map(|(c, k)| {
                if k == 1 {
                    c
                } else {
                    let n = self.pg.b().int(k);
                    self.pg.b().mul(n, c)
                }
            })
            .collect()
    }

    /// A structural hash of an output expression, equal for any two that [`Self::same_out`]
    /// calls the same (one iterative walk: terms may nest deeply).
    pub(crate) fn out_key(&self, e: ExprId) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            let x = &self.pg.u.exprs[e];
            std::mem::discriminant(x).hash(&mut h);
            match x {
                Expr::Name(p) => p.hash(&mut h),
                Expr::Literal(p) => p.text.hash(&mut h),
                Expr::Opaque(p) => p.hash(&mut h),
                Expr::Intrinsic(r) => r.hash(&mut h),
                Expr::Field { field, arrow, .. } => (field, arrow).hash(&mut h),
                Expr::Unary { op, .. } => std::mem::discriminant(op).hash(&mut h),
                Expr::Binary { op, .. } => std::mem::discriminant(op).hash(&mut h),
                Expr::Index { subs, .. } => {
                    for p in subs {
                        std::mem::discriminant(p).hash(&mut h);
                    }
                }
                _ => {}
            }
            let before = stack.len();
            radtap_il::visit::expr_children(x, &mut |k| stack.push(k));
            (stack.len() - before).hash(&mut h);
        }
        h.finish()
    }

    /// Whether two expressions of the output unit are the same, written alike.
    pub(crate) fn same_out(&self, a: ExprId, b: ExprId) -> bool {
        let (x, y) = (&self.pg.u.exprs[a], &self.pg.u.exprs[b]);
        if std::mem::discriminant(x) != std::mem::discriminant(y) {
            return false;
        }
        match (x, y) {
            (Expr::Name(p), Expr::Name(q)) => p == q,
            (Expr::Literal(p), Expr::Literal(q)) => p.text == q.text,
            (Expr::Opaque(p), Expr::Opaque(q)) => p == q,
            (Expr::Intrinsic(p), Expr::Intrinsic(q)) => p == q,
            (
                Expr::Field {
                    field: f1,
                    arrow: a1,
                    ..
                },
                Expr::Field {
                    field: f2,
                    arrow: a2,
                    ..
                },
            ) if f1 != f2 || a1 != a2 => false,
            (Expr::Unary { op: o1, .. }, Expr::Unary { op: o2, .. }) if o1 != o2 => false,
            (Expr::Binary { op: o1, .. }, Expr::Binary { op: o2, .. }) if o1 != o2 => false,
            (Expr::Index { subs: s1, .. }, Expr::Index { subs: s2, .. })
                if s1.len() != s2.len()
                    || s1
                        .iter()
                        .zip(s2)
                        .any(|(p, q)| std::mem::discriminant(p) != std::mem::discriminant(q)) =>
            {
                false
            }
            // Subscript by subscript, each bound in its place: the children alone do not
            // say which (`a(2:n, :)` and `a(:, 2:n)` have the same ones, and their
            // contributions were merged into one: silently wrong).
            (Expr::Index { base: b1, subs: s1 }, Expr::Index { base: b2, subs: s2 }) => {
                let same = |p: &Option<ExprId>, q: &Option<ExprId>| match (p, q) {
                    (None, None) => true,
                    (Some(p), Some(q)) => self.same_out(*p, *q),
                    _ => false,
                };
                self.same_out(*b1, *b2)
                    && s1.iter().zip(s2).all(|(p, q)| match (p, q) {
                        (Subscript::Index(p), Subscript::Index(q)) => self.same_out(*p, *q),
                        (Subscript::Range(a1, b1, c1), Subscript::Range(a2, b2, c2)) => {
                            same(a1, a2) && same(b1, b2) && same(c1, c2)
                        }
                        _ => false,
                    })
            }
            (Expr::Cast { ty: t1, .. }, Expr::Cast { ty: t2, .. }) if t1 != t2 => false,
            (Expr::SizeofType(t1), Expr::SizeofType(t2)) => t1 == t2,
            (Expr::Call { args: a1, .. }, Expr::Call { args: a2, .. })
                if a1.len() != a2.len()
                    || a1.iter().zip(a2).any(|(p, q)| p.keyword != q.keyword) =>
            {
                false
            }
            (Expr::Literal(_) | Expr::Name(_) | Expr::Opaque(_) | Expr::Intrinsic(_), _) => true,
            _ => {
                let (mut ka, mut kb) = (Vec::new(), Vec::new());
                radtap_il::visit::expr_children(x, &mut |k| ka.push(k));
                radtap_il::visit::expr_children(y, &mut |k| kb.push(k));
                ka.len() == kb.len() && ka.iter().zip(&kb).all(|(p, q)| self.same_out(*p, *q))
            }
        }
    }
}

/// Expressions of the output unit seen so far, found again by structure: each is compared
/// only with those of equal [`Adj::out_key`] (comparing with every earlier one was quadratic:
/// a 20,000-term sum took minutes).
#[derive(Default)]
struct Alike {
    buckets: HashMap<u64, Vec<(ExprId, usize)>>,
}

impl Alike {
    /// The index recorded with an earlier expression written like `e`; otherwise records
    /// `e` with `next` and gives `None`.
    fn find_or_add(&mut self, adj: &Adj<'_, '_, '_>, e: ExprId, next: usize) -> Option<usize> {
        let bucket = self.buckets.entry(adj.out_key(e)).or_default();
        if let Some(&(_, i)) = bucket.iter().find(|(d, _)| adj.same_out(*d, e)) {
            return Some(i);
        }
        bucket.push((e, next));
        None
    }
}
