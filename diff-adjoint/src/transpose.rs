//! Transposition of a tangent expression: walking from the root to each derivative
//! reference gives its factor (paper Fig. 11), so tangent and adjoint share every partial.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// Transposes the linear form `t` (a tangent in the derivative references `marks`):
    /// pushes `(marker, contribution)` for `seed` flowing back into each marker.
    pub(crate) fn transpose(
        &mut self,
        t: ExprId,
        seed: ExprId,
        seed_rank: usize,
        marks: &Marks,
        out: &mut Vec<(ExprId, ExprId, usize)>,
    ) -> Result<(), String> {
        // The adjoint of a real value is real: a complex seed reaching a real-valued node
        // (a real variable's derivative, `abs(c)`'s guarded partial, `real(ċ)`) keeps its real
        // part, the transpose of the embedding of the reals into the complex numbers.
        let seed = if self.pg.has_complex() && !self.pg.complex_out(t) && self.pg.complex_out(seed)
        {
            let t2 = self.dup(t);
            let k = self.pg.b().call("kind", vec![t2]);
            self.pg.b().call("real", vec![seed, k])
        } else if self.pg.mixed_complex_kinds()
            && self.pg.complex_out(t)
            && self.pg.complex_out(seed)
        {
            // complex and complex(8) in one procedure: the seed in the kind of the node.
            let t2 = self.dup(t);
            let k = self.pg.b().call("kind", vec![t2]);
            self.pg
                .b()
                .call_kw("cmplx", vec![(None, seed), (Some("kind"), k)])
        } else {
            seed
        };
        if marks.contains(&t) {
            // `x(idx)` with an integer array `idx`: `xb(idx) = xb(idx) + s` keeps one of the
            // contributions of a repeated index, not their sum.
            if let Expr::Index { subs, .. } = &self.pg.u.exprs[t] {
                let vector = subs
                    .iter()
                    .any(|s| matches!(s, Subscript::Index(i) if self.out_rank(*i) > 0));
                if vector {
                    return Err("a read through a vector subscript (its indices may repeat)".into());
                }
            }
            out.push((t, seed, seed_rank));
            return Ok(());
        }
        if !self.has_marker(t, marks) {
            return Ok(());
        }
        let node = self.pg.u.exprs[t].clone();
        match node {
            Expr::Paren(a)
            | Expr::Unary {
                op: UnOp::Plus,
                arg: a,
            } => self.transpose(a, seed, seed_rank, marks, out),
            Expr::Unary { op: UnOp::Neg, arg } => {
                let s = self.pg.b().factor(seed);
                let s = self.pg.b().neg(s);
                self.transpose(arg, s, seed_rank, marks, out)
            }
            Expr::Binary { op, lhs, rhs } => {
                let (ml, mr) = (self.has_marker(lhs, marks), self.has_marker(rhs, marks));
                match op {
                    BinOp::Add | BinOp::Sub => {
                        let seed = if ml && mr {
                            self.shared_seed(seed, seed_rank)
                        } else {
                            seed
                        };
                        if ml {
                            let s = if mr { self.dup(seed) } else { seed };
                            self.transpose(lhs, s, seed_rank, marks, out)?;
                        }
                        if mr {
                            let s = if op == BinOp::Sub {
                                let s = self.pg.b().factor(seed);
                                self.pg.b().neg(s)
                            } else {
                                seed
                            };
                            self.transpose(rhs, s, seed_rank, marks, out)?;
                        }
                        Ok(())
                    }
                    BinOp::Mul if ml != mr => {
                        let (m, other) = if ml { (lhs, rhs) } else { (rhs, lhs) };
                        let f = self.dup(other);
                        // z̄ += conjg(u)·w̄ for w = z·u (complex).
                        let f = self.conj_if_complex(f);
                        let f = self.pg.paren_if_compound(f);
                        // An array factor makes an array seed of a scalar one (`sum(a*x)`).
                        let r = seed_rank.max(self.out_rank(f));
                        let sd = self.pg.b().factor(seed);
                        let s = self.pg.b().mul(f, sd);
                        self.transpose(m, s, r, marks, out)
                    }
                    BinOp::Div if ml && !mr => {
                        let d = self.dup(rhs);
                        let d = self.conj_if_complex(d);
                        let d = self.pg.paren_if_compound(d);
                        let r = seed_rank.max(self.out_rank(d));
                        let sd = self.pg.b().factor(seed);
                        let s = self.pg.b().div(sd, d);
                        self.transpose(lhs, s, r, marks, out)
                    }
                    _ => Err("a derivative that is not linear in its tangents".into()),
                }
            }
            Expr::Cond { cond, then, else_ } => {
                // The branch not taken has no partials to compute (`x != 0 ? sin(x)/x : 1`
                // at 0, `i > 0 ? u[i-1] : 0` at the boundary): each contribution of a branch
                // is wrapped whole, `(c ? x : 0)`, which C evaluates on one side only (a
                // guarded seed, `(c ? s : 0) / x`, still divided by zero), and without seed
                // temporaries, which would be computed unguarded. `scatter` turns an
                // increment made of such terms into `if (c) v̄ += x`.
                let share = std::mem::replace(&mut self.share_seeds, false);
                for (branch, taken) in [(then, true), (else_, false)] {
                    if !self.has_marker(branch, marks) {
                        continue;
                    }
                    let s = self.dup(seed);
                    let mut sub = Vec::new();
                    let res = self.transpose(branch, s, seed_rank, marks, &mut sub);
                    if let Err(e) = res {
                        self.share_seeds = share;
                        return Err(e);
                    }
                    for (m, x, r) in sub {
                        let c = self.dup(cond);
                        let z = self.pg.b().zero(self.zero_kind);
                        let (a, b) = if taken { (x, z) } else { (z, x) };
                        let g = self.pg.b().e(Expr::Cond {
                            cond: c,
                            then: a,
                            else_: b,
                        });
                        let g = self.pg.b().e(Expr::Paren(g));
                        self.guarded.insert(g, (cond, taken, x));
                        out.push((m, g, r));
                    }
                }
                self.share_seeds = share;
                Ok(())
            }
            Expr::Call { callee, args } => {
                let id = self.pg.callee_routine(callee);
                // Whether the callee is the routine of one of the Fortran generics `gs`.
                let is = |gs: &[&str]| id.is_some_and(|id| id.is_one_of(gs));
                let complex_arg = args.first().is_some_and(|a| self.pg.complex_out(a.value));
                match () {
                    // w = real(c) of a complex c: c̄ += cmplx(w̄, 0).
                    _ if is(&["real", "dreal"]) && complex_arg => {
                        let s = self.real_part(seed, args[0].value);
                        self.transpose(args[0].value, s, seed_rank, marks, out)
                    }
                    _ if is(&["real"]) && !args.is_empty() => {
                        self.transpose(args[0].value, seed, seed_rank, marks, out)
                    }
                    // w = aimag(c): c̄ += cmplx(0, w̄).
                    _ if is(&["aimag", "dimag", "imag"]) && args.len() == 1 => {
                        let s = self.real_part(seed, args[0].value);
                        let zero = self.pg.b().int(0);
                        let a = self.dup(args[0].value);
                        let kind = self.pg.b().call("kind", vec![a]);
                        let s = self.pg.b().call("cmplx", vec![zero, s, kind]);
                        self.transpose(args[0].value, s, seed_rank, marks, out)
                    }
                    // w = conjg(c): c̄ += conjg(w̄).
                    _ if is(&["conjg", "dconjg"]) && args.len() == 1 => {
                        let s = self.conj_if_complex(seed);
                        self.transpose(args[0].value, s, seed_rank, marks, out)
                    }
                    // w = cmplx(a, b[, kind]): ā += real(w̄), b̄ += aimag(w̄).
                    _ if is(&["cmplx", "dcmplx", "complex"]) => {
                        let seed = if self.has_marker(args[0].value, marks)
                            && args.get(1).is_some_and(|a| self.has_marker(a.value, marks))
                        {
                            self.shared_seed(seed, seed_rank)
                        } else {
                            seed
                        };
                        for (i, a) in args.iter().enumerate() {
                            let which = match a.keyword.as_deref().map(|k| k.to_ascii_lowercase()) {
                                Some(k) if k == "x" => 0,
                                Some(k) if k == "y" => 1,
                                Some(_) => continue,
                                None => i,
                            };
                            if which > 1 || !self.has_marker(a.value, marks) {
                                continue;
                            }
                            let s = self.dup(seed);
                            // A complex argument (`cmplx(c, kind=8)`) is converted whole; a
                            // real first argument takes the real part where the seed reaches
                            // it (the rule at the top), the second the imaginary part.
                            let s = if which == 0 || self.pg.complex_out(a.value) {
                                s
                            } else if self.pg.complex_out(s) {
                                let im = self.pg.b().call("aimag", vec![s]);
                                let a2 = self.dup(a.value);
                                let k = self.pg.b().call("kind", vec![a2]);
                                self.pg.b().call("real", vec![im, k])
                            } else {
                                continue;
                            };
                            self.transpose(a.value, s, seed_rank, marks, out)?;
                        }
                        Ok(())
                    }
                    // A whole-array sum used inside an array expression (`y = x/sum(x)`)
                    // has an array seed: every element's seed reaches the one sum, so the
                    // seed is summed (passing it on as it was gave each element only its
                    // own share: a silently wrong adjoint).
                    _ if is(&["sum"]) && args.len() == 1 => {
                        let a = args[0].value;
                        let s = self.scalar_seed(seed, seed_rank);
                        // A scalar inside the summed array expression (`sum(x + y)`, `y`
                        // broadcast) receives the seed of every element, and a reduction
                        // along a dimension inside (`sum(sum(a, dim=2))`) spreads an array:
                        // the seed is spread to the expression's shape first (a scalar seed
                        // gave `yb = yb + sb` for `size(x) * sb`: silently wrong).
                        let r = self.out_rank(a);
                        if r > 0 && self.needs_broadcast_seed(a, marks) {
                            let s = self.broadcast(s, a, r);
                            return self.transpose(a, s, r, marks, out);
                        }
                        self.transpose(a, s, 0, marks, out)
                    }
                    // sum(a, dim=k): the seed spread back along dimension k.
                    // sum(a, mask=m): the seed where m holds.
                    _ if is(&["sum"]) && self.mask_second(&args) => {
                        let a = args[0].value;
                        let seed = self.scalar_seed(seed, seed_rank);
                        let m = self.dup(args[1].value);
                        let z = self.pg.b().zero(self.zero_kind);
                        let r = self.out_rank(a);
                        let s = self.pg.b().call("merge", vec![seed, z, m]);
                        self.transpose(a, s, r, marks, out)
                    }
                    _ if is(&["sum"]) && args.len() == 2 => {
                        let a = args[0].value;
                        let k = self.dup(args[1].value);
                        let (a1, k2) = (self.dup(a), self.dup(k));
                        let n = self.pg.b().call("size", vec![a1, k2]);
                        let r = self.out_rank(a);
                        let s = self.pg.b().call("spread", vec![seed, k, n]);
                        self.transpose(a, s, r, marks, out)
                    }
                    // y = cshift(a, k): ā += cshift(ȳ, -k).
                    // A scalar seed (the array was reduced) reaches every element alike,
                    // however they are moved.
                    _ if is(&["cshift", "transpose"])
                        && seed_rank == 0
                        && self.out_rank(seed) == 0 =>
                    {
                        self.transpose(args[0].value, seed, 0, marks, out)
                    }
                    _ if is(&["cshift"])
                        && args.len() == 2
                        && args.iter().all(|a| a.keyword.is_none()) =>
                    {
                        let k = self.dup(args[1].value);
                        let k = self.pg.paren_if_compound(k);
                        let nk = self.pg.b().neg(k);
                        let s = self.pg.b().call("cshift", vec![seed, nk]);
                        self.transpose(args[0].value, s, seed_rank, marks, out)
                    }
                    // y = reshape(a, shp): the same elements in the same (array element)
                    // order, so ā += reshape(ȳ, shape(a)); a scalar seed (the array was
                    // reduced) reaches every element as it is. The source may have more
                    // elements than the result: those get no seed (`pad=`; without it the
                    // adjoint read past the seed's end); fewer, and the result's first
                    // elements are the source's, the rest a pad: a passive pad (the
                    // tangent's `[0.0_8]`) gets nothing, an active one and ORDER are refused.
                    _ if is(&["reshape"])
                        && (args.len() == 2
                            || args.len() == 3
                                && args[2]
                                    .keyword
                                    .as_deref()
                                    .is_none_or(|k| k.eq_ignore_ascii_case("pad"))
                                && !self.has_marker(args[2].value, marks))
                        && args[..2].iter().all(|a| a.keyword.is_none()) =>
                    {
                        let a = args[0].value;
                        let r = self.out_rank(a);
                        let seed = if seed_rank == 0 && self.out_rank(seed) == 0 {
                            let shp = self.dup(args[1].value);
                            let n = self.pg.b().call("product", vec![shp]);
                            let one = self.pg.b().int(1);
                            self.pg.b().call("spread", vec![seed, one, n])
                        } else {
                            seed
                        };
                        let a1 = self.dup(a);
                        let shp = self.pg.b().call("shape", vec![a1]);
                        let z = self.pg.b().zero(self.zero_kind);
                        let pad = self.pg.b().e(Expr::ArrayCtor {
                            items: vec![z],
                            old_style: false,
                            type_spec: None,
                        });
                        let s = self.pg.b().call_kw(
                            "reshape",
                            vec![(None, seed), (None, shp), (Some("pad"), pad)],
                        );
                        self.transpose(a, s, r, marks, out)
                    }
                    _ if is(&["reshape"]) => {
                        Err("the adjoint of `reshape` with an active PAD, or with ORDER".into())
                    }
                    _ if is(&["transpose"]) && args.len() == 1 => {
                        let s = self.pg.b().call("transpose", vec![seed]);
                        self.transpose(args[0].value, s, 2, marks, out)
                    }
                    _ if is(&["matmul"]) && args.len() == 2 => {
                        let (a, b) = (args[0].value, args[1].value);
                        let (ra, rb) = (self.out_rank(a), self.out_rank(b));
                        let first = self.has_marker(a, marks);
                        if first && self.has_marker(b, marks) {
                            return Err("the adjoint of `matmul` of two tangents".into());
                        }
                        let other = self.dup(if first { b } else { a });
                        // A scalar seed (`sum(matmul(a, b))`) is the seed of every element of
                        // the product: spread to its shape first.
                        let seed = if seed_rank == 0 && self.out_rank(seed) == 0 {
                            let mut extents = Vec::new();
                            if ra == 2 {
                                let a1 = self.dup(a);
                                let one = self.pg.b().int(1);
                                extents.push(self.pg.b().call("size", vec![a1, one]));
                            }
                            if rb == 2 {
                                let b1 = self.dup(b);
                                let two = self.pg.b().int(2);
                                extents.push(self.pg.b().call("size", vec![b1, two]));
                            }
                            let mut s = seed;
                            for (k, n) in extents.into_iter().enumerate() {
                                let dim = self.pg.b().int(k as i64 + 1);
                                s = self.pg.b().call("spread", vec![s, dim, n]);
                            }
                            s
                        } else {
                            seed
                        };
                        let s = match (first, ra, rb) {
                            // u = A v: Ā += ū vᵀ;  v̄ += Aᵀ ū.
                            (true, 2, 1) => self.outer(seed, other),
                            (false, 2, 1) | (false, 2, 2) => {
                                let t = self.pg.b().call("transpose", vec![other]);
                                self.pg.b().call("matmul", vec![t, seed])
                            }
                            // t = v A: v̄ += A t̄;  Ā += v t̄ᵀ.
                            (true, 1, 2) => self.pg.b().call("matmul", vec![other, seed]),
                            (false, 1, 2) => self.outer(other, seed),
                            // C = A B: Ā += C̄ Bᵀ.
                            (true, 2, 2) => {
                                let t = self.pg.b().call("transpose", vec![other]);
                                self.pg.b().call("matmul", vec![seed, t])
                            }
                            _ => return Err("the adjoint of this `matmul`".into()),
                        };
                        let (m, r) = if first { (a, ra) } else { (b, rb) };
                        self.transpose(m, s, r, marks, out)
                    }
                    _ if is(&["merge"]) && args.len() == 3 => {
                        for k in 0..2 {
                            let a = args[k].value;
                            if !self.has_marker(a, marks) {
                                continue;
                            }
                            let s = self.dup(seed);
                            let z = self.pg.b().zero(self.zero_kind);
                            let m = self.dup(args[2].value);
                            // An array mask makes an array seed of a scalar one.
                            let r = seed_rank.max(self.out_rank(m));
                            let s = if k == 0 {
                                self.pg.b().call("merge", vec![s, z, m])
                            } else {
                                self.pg.b().call("merge", vec![z, s, m])
                            };
                            self.transpose(a, s, r, marks, out)?;
                        }
                        Ok(())
                    }
                    _ if is(&["dot_product"]) && args.len() == 2 => {
                        let (a, b) = (args[0].value, args[1].value);
                        let (m, other) = if self.has_marker(a, marks) {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        let seed = self.scalar_seed(seed, seed_rank);
                        let f = self.dup(other);
                        let sd = self.pg.b().factor(seed);
                        let s = self.pg.b().mul(f, sd);
                        self.transpose(m, s, 1, marks, out)
                    }
                    _ => {
                        let name = match &self.pg.u.exprs[callee] {
                            Expr::Opaque(n) => n.to_ascii_lowercase(),
                            Expr::Intrinsic(r) => r.spelling.to_string(),
                            Expr::Name(s) => {
                                self.pg.g.out.symbols[*s].spelling.to_ascii_lowercase()
                            }
                            _ => String::new(),
                        };
                        Err(format!("the adjoint of `{name}`"))
                    }
                }
            }
            Expr::ArrayCtor { items, .. } => {
                self.transpose_ctor(&items, seed, seed_rank, marks, out)
            }
            _ => Err("the adjoint of this expression".into()),
        }
    }

    /// `conjg(e)` when `e` is complex, else `e` (the conjugate of a real is itself).
    fn conj_if_complex(&mut self, e: ExprId) -> ExprId {
        if self.pg.complex_out(e) {
            self.pg.b().call("conjg", vec![e])
        } else {
            e
        }
    }

    /// The real part of `e` in the kind of `like` when `e` is complex, else `e`.
    fn real_part(&mut self, e: ExprId, like: ExprId) -> ExprId {
        if self.pg.complex_out(e) {
            let e2 = self.dup(like);
            let k = self.pg.b().call("kind", vec![e2]);
            self.pg.b().call("real", vec![e, k])
        } else {
            e
        }
    }

    /// An array constructor `[t1, t2, …]` of tangents: item k is elements `o_k ..
    /// o_k + size(t_k) - 1` of the seed, `o_1 = 1` (a scalar item one element); a scalar
    /// seed (the constructor was reduced) reaches every element as it is. Items of rank 2 or
    /// more, implied DOs and seeds that cannot be subscripted are refused.
    fn transpose_ctor(
        &mut self,
        items: &[ExprId],
        seed: ExprId,
        seed_rank: usize,
        marks: &Marks,
        out: &mut Vec<(ExprId, ExprId, usize)>,
    ) -> Result<(), String> {
        let refused = "the adjoint of this expression (an array constructor with an implied DO or an item of rank 2 or more)";
        if items
            .iter()
            .any(|&i| matches!(self.pg.u.exprs[i], Expr::ImpliedDo { .. }) || self.out_rank(i) > 1)
        {
            return Err(refused.into());
        }
        let sr = seed_rank.max(self.out_rank(seed));
        if sr == 0 {
            for &i in items {
                if self.has_marker(i, marks) {
                    let s = self.dup(seed);
                    self.transpose(i, s, 0, marks, out)?;
                }
            }
            return Ok(());
        }
        if sr != 1 {
            return Err(refused.into());
        }
        // The offset of the current item: a constant and the sizes of the array items before.
        let mut constant = 1i64;
        let mut sizes: Vec<ExprId> = Vec::new();
        for &i in items {
            let r = self.out_rank(i);
            if self.has_marker(i, marks) {
                let mut start = self.pg.b().int(constant);
                for &z in &sizes {
                    let z = self.size_of(z);
                    start = self.pg.b().add(start, z);
                }
                let sub = if r == 0 {
                    Subscript::Index(start)
                } else {
                    let z = self.size_of(i);
                    let end = match self.int_lit(start) {
                        Some(v) if v == 1 => z,
                        Some(v) => {
                            let c = self.pg.b().int(v - 1);
                            self.pg.b().add(c, z)
                        }
                        None => {
                            let start2 = self.dup(start);
                            let end = self.pg.b().add(start2, z);
                            self.minus_one(end)
                        }
                    };
                    Subscript::Range(Some(start), Some(end), None)
                };
                let Some(s) = self.seed_part(seed, &sub) else {
                    return Err(
                        "the adjoint of an array constructor under this array expression".into(),
                    );
                };
                self.transpose(i, s, r, marks, out)?;
            }
            if r == 0 {
                constant += 1;
            } else {
                sizes.push(i);
            }
        }
        Ok(())
    }

    /// `size(e)` of a copy of `e`.
    fn size_of(&mut self, e: ExprId) -> ExprId {
        let d = self.dup(e);
        self.pg.b().call("size", vec![d])
    }

    /// Elements `sub` (counted from 1) of the rank-1 seed `seed`: the subscript is pushed
    /// through parentheses, signs and operations with scalars down to an array variable or
    /// a section `v(lo:hi)` (shifted by its lower bound). `None` for anything else.
    fn seed_part(&mut self, seed: ExprId, sub: &Subscript) -> Option<ExprId> {
        let node = self.pg.u.exprs[seed].clone();
        match node {
            Expr::Name(v) => {
                let t = self.pg.g.out.symbols[v].ty.as_ref()?;
                if t.dims.len() != 1 {
                    return None;
                }
                let shifted = t.dims[0].lower.is_some();
                let base = self.pg.b().name(v);
                let sub = if shifted {
                    let b2 = self.pg.b().name(v);
                    let one = self.pg.b().int(1);
                    let lb = self.pg.b().call("lbound", vec![b2, one]);
                    let shift = self.minus_one(lb);
                    self.shift_sub(sub, shift)
                } else {
                    self.dup_sub(sub)
                };
                Some(self.pg.b().index(base, vec![sub]))
            }
            Expr::Index { base, subs } => {
                if !matches!(self.pg.u.exprs[base], Expr::Name(_)) {
                    return None;
                }
                let ranges: Vec<usize> = (0..subs.len())
                    .filter(|&k| matches!(subs[k], Subscript::Range(..)))
                    .collect();
                let [k] = ranges[..] else { return None };
                let Subscript::Range(Some(lo), _, None) = subs[k] else {
                    return None;
                };
                let mut new = Vec::new();
                for (j, s) in subs.iter().enumerate() {
                    if j == k {
                        let lo = self.dup(lo);
                        let shift = self.minus_one(lo);
                        new.push(self.shift_sub(sub, shift));
                    } else {
                        new.push(self.dup_sub(s));
                    }
                }
                let b = self.dup(base);
                Some(self.pg.b().index(b, new))
            }
            // A factor `[u(1), b, a]` beside the seed: its k-th item.
            Expr::ArrayCtor { items, .. } => {
                let k = match sub {
                    Subscript::Index(k) => self.int_lit(*k)?,
                    Subscript::Range(..) => return None,
                };
                if items.iter().any(|&i| {
                    self.out_rank(i) > 0 || matches!(self.pg.u.exprs[i], Expr::ImpliedDo { .. })
                }) {
                    return None;
                }
                let item = *items.get(usize::try_from(k - 1).ok()?)?;
                let d = self.dup(item);
                Some(self.pg.paren_if_compound(d))
            }
            Expr::Paren(a) => {
                let a = self.seed_part(a, sub)?;
                Some(self.pg.b().e(Expr::Paren(a)))
            }
            Expr::Unary { op, arg } => {
                let a = self.seed_part(arg, sub)?;
                Some(self.pg.b().e(Expr::Unary { op, arg: a }))
            }
            Expr::Binary { op, lhs, rhs } => {
                let part = |this: &mut Self, x: ExprId| {
                    if this.out_rank(x) == 0 {
                        Some(this.dup(x))
                    } else {
                        this.seed_part(x, sub)
                    }
                };
                let l = part(self, lhs)?;
                let r = part(self, rhs)?;
                Some(self.pg.b().e(Expr::Binary { op, lhs: l, rhs: r }))
            }
            _ => None,
        }
    }

    /// The value of an integer literal (under parentheses).
    fn int_lit(&self, e: ExprId) -> Option<i64> {
        match &self.pg.u.exprs[e] {
            Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok(),
            Expr::Paren(a) => self.int_lit(*a),
            _ => None,
        }
    }

    /// `a - 1`, folded when `a` is an integer literal.
    fn minus_one(&mut self, a: ExprId) -> ExprId {
        if let Some(v) = self.int_lit(a) {
            return self.pg.b().int(v - 1);
        }
        let a = self.pg.paren_if_compound(a);
        let one = self.pg.b().int(1);
        self.pg.b().bin(BinOp::Sub, a, one)
    }

    fn dup_sub(&mut self, s: &Subscript) -> Subscript {
        match s {
            Subscript::Index(i) => Subscript::Index(self.dup(*i)),
            Subscript::Range(a, b, c) => Subscript::Range(
                a.map(|x| self.dup(x)),
                b.map(|x| self.dup(x)),
                c.map(|x| self.dup(x)),
            ),
        }
    }

    /// Subscript `s` plus `shift` (an integer expression, used once per bound).
    fn shift_sub(&mut self, s: &Subscript, shift: ExprId) -> Subscript {
        let plus = |this: &mut Self, x: ExprId| {
            if let (Some(a), Some(b)) = (this.int_lit(x), this.int_lit(shift)) {
                return this.pg.b().int(a + b);
            }
            let x = this.dup(x);
            if this.int_lit(shift) == Some(0) {
                return x;
            }
            let sh = this.dup(shift);
            this.pg.b().add(x, sh)
        };
        match s {
            Subscript::Index(i) => Subscript::Index(plus(self, *i)),
            Subscript::Range(a, b, c) => Subscript::Range(
                a.map(|x| plus(self, x)),
                b.map(|x| plus(self, x)),
                c.map(|x| self.dup(x)),
            ),
        }
    }

    /// The seed of a scalar-valued reduction (`sum(x)`, `sum(x, mask=m)`, `dot_product`):
    /// when the reduction sits in an array expression (`y = x/sum(x)`) the seed is an
    /// array, and every element's seed reaches the one scalar, so it is summed.
    /// Whether the seed of `sum(a)` must be spread to `a`'s shape: `a` holds a marker of rank
    /// 0 (a scalar broadcast over the array) or a reduction along a dimension.
    fn needs_broadcast_seed(&self, a: ExprId, marks: &Marks) -> bool {
        let mut todo = vec![a];
        while let Some(x) = todo.pop() {
            if marks.contains(&x) && self.out_rank(x) == 0 {
                return true;
            }
            // The elements of an array constructor are positions, not broadcasts.
            if matches!(self.pg.u.exprs[x], Expr::ArrayCtor { .. }) {
                continue;
            }
            if let Expr::Call { callee, args } = &self.pg.u.exprs[x] {
                let reduction = self
                    .pg
                    .callee_routine(*callee)
                    .is_some_and(|r| r.is_one_of(&["sum", "product"]));
                if reduction && args.len() == 2 {
                    return true;
                }
            }
            radtap_il::visit::expr_children(&self.pg.u.exprs[x], &mut |k| todo.push(k));
        }
        false
    }

    /// The scalar `s` spread to the shape of the rank-`r` expression `a`:
    /// `spread(s, 1, size(a))`, reshaped to `shape(a)` above rank 1.
    fn broadcast(&mut self, s: ExprId, a: ExprId, r: usize) -> ExprId {
        let (a1, one) = (self.dup(a), self.pg.b().int(1));
        let n = self.pg.b().call("size", vec![a1]);
        let flat = self.pg.b().call("spread", vec![s, one, n]);
        if r == 1 {
            return flat;
        }
        let a2 = self.dup(a);
        let shp = self.pg.b().call("shape", vec![a2]);
        self.pg.b().call("reshape", vec![flat, shp])
    }

    fn scalar_seed(&mut self, seed: ExprId, seed_rank: usize) -> ExprId {
        if self.pg.f.lang == Lang::Fortran && seed_rank.max(self.out_rank(seed)) > 0 {
            self.pg.b().call("sum", vec![seed])
        } else {
            seed
        }
    }

    /// The outer product `p qᵀ` of two rank-1 expressions.
    fn outer(&mut self, p: ExprId, q: ExprId) -> ExprId {
        let (p2, q2) = (self.dup(p), self.dup(q));
        let (two, one) = (self.pg.b().int(2), self.pg.b().int(1));
        let nq = self.pg.b().call("size", vec![q2]);
        let np = self.pg.b().call("size", vec![p2]);
        let sp = self.pg.b().call("spread", vec![p, two, nq]);
        let sq = self.pg.b().call("spread", vec![q, one, np]);
        self.pg.b().mul(sp, sq)
    }

    /// The markers `at` of the tangent expression `t`, with every node of `t` that has one
    /// below it computed in one walk: transposition asks at every node, and a subtree walk
    /// per question was quadratic in the expression's depth (`sin(sin(…))`, long sums).
    pub(crate) fn marks_of(&self, t: ExprId, at: HashSet<ExprId>) -> Marks {
        fn walk(adj: &Adj<'_, '_, '_>, e: ExprId, m: &mut Marks) -> bool {
            if m.under.contains(&e) {
                return true;
            }
            let mut kids = Vec::new();
            radtap_il::visit::expr_children(&adj.pg.u.exprs[e], &mut |k| kids.push(k));
            let mut any = m.at.contains(&e);
            for k in kids {
                any |= walk(adj, k, m);
            }
            if any {
                m.under.insert(e);
            }
            any
        }
        let mut m = Marks {
            at,
            under: HashSet::new(),
        };
        walk(self, t, &mut m);
        m
    }

    /// True when `e` is a marker or has one below it (a look-up in [`Marks`]).
    pub(crate) fn has_marker(&self, e: ExprId, marks: &Marks) -> bool {
        marks.under.contains(&e)
    }
}

/// The derivative references of a tangent expression being transposed (`at`) and the nodes
/// with one of them at or below them (`under`).
pub(crate) struct Marks {
    at: HashSet<ExprId>,
    under: HashSet<ExprId>,
}

impl Marks {
    /// True when `e` is one of the markers.
    pub(crate) fn contains(&self, e: &ExprId) -> bool {
        self.at.contains(e)
    }
}
