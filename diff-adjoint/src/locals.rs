//! Recorded values kept in local variables instead of on the stack (issue 21).
//!
//! In a joint adjoint, a value recorded by a statement outside every loop is pushed at most
//! once per call of `f_b`, and each of its pops (and the looks or repeat-mark pops that
//! read it again) runs at most once, after the push, in the same call. Such a value needs
//! no stack: `pushReal8(proj[0]); … popReal8(&proj[0]);` becomes `save = proj[0]; …
//! proj[0] = save;`, a register or a stack slot of the C frame instead of a call into the
//! runtime, and it costs no tape bytes. Recursion is no concern: each activation has its
//! own locals.
//!
//! What stays on the stack: anything in a loop (a push runs once per iteration), a body
//! reversed through its flow graph (labels and `goto`s: a block may run more than once), split
//! mode (the pops run in another procedure), records of a type other than real or default
//! integer, arrays of a size that is not a small constant, and Fortran arrays. The rewrite
//! runs on the finished body, from the pairs [`Adj::push_pop`] built (copies made by
//! [`Adj::dup_stmt`] for looks and repeat marks join their pair), so a push and the pops that
//! read it are always converted together. `-nooptim localrecords` keeps every value on the
//! stack.

use crate::*;

/// The largest constant-size array kept in a local (elements).
const MAX_ELEMENTS: i64 = 8;

/// The most values one procedure keeps in locals (elements): beyond, records stay on the
/// stack (a machine-written straight-line procedure would get a local per statement).
const MAX_SAVES: usize = 64;

impl Adj<'_, '_, '_> {
    /// Rewrites the finished joint body: the records outside loops go to local variables,
    /// and repeat marks left with nothing to re-read are dropped.
    pub(crate) fn records_in_locals(&mut self, body: &mut Vec<StmtId>) {
        if !self.pg.g.opts.local_records || self.pg.f.sweep != Sweep::Joint || self.recs.is_empty()
        {
            return;
        }
        // How often each statement stands in the body, and whether one stands in a loop.
        let mut seen: HashMap<StmtId, (u32, bool)> = HashMap::new();
        let mut todo: Vec<(StmtId, bool)> = body.iter().map(|&s| (s, false)).collect();
        while let Some((s, in_loop)) = todo.pop() {
            let e = seen.entry(s).or_insert((0, false));
            e.0 += 1;
            e.1 |= in_loop;
            let k = &self.pg.u.stmts[s].kind;
            if matches!(
                k,
                StmtKind::Goto(_) | StmtKind::ComputedGoto { .. } | StmtKind::ArithIf { .. }
            ) {
                return;
            }
            let lp = k.repeats_body();
            radtap_il::visit::stmt_children(k, &mut |_| {}, &mut |c| todo.push((c, in_loop || lp)));
        }
        let once = |s: &StmtId| seen.get(s).is_none_or(|&(n, l)| n == 1 && !l);
        // Each record's statements, pushes first, in a stable order.
        let mut stmts: Vec<(u32, bool, StmtId)> = self
            .rec_of
            .iter()
            .map(|(&s, &(k, push))| (k, !push, s))
            .collect();
        stmts.sort_unstable_by_key(|&(k, pop, s)| (k, pop, s.index()));
        let mut replace: HashMap<StmtId, Vec<StmtId>> = HashMap::new();
        let mut zero_arrays = HashSet::new();
        // Fortran: the saves, and the plain locals they copy, set to zero first.
        let mut fortran_saves: Vec<(SymbolId, Option<u32>)> = Vec::new();
        let mut saved = 0;
        for group in stmts.chunk_by(|a, b| a.0 == b.0) {
            let pushes = group.iter().take_while(|x| !x.1).count();
            let [(k, _, push)] = group[..pushes] else {
                continue;
            };
            let restores = &group[pushes..];
            if saved >= MAX_SAVES {
                break;
            }
            if !seen.contains_key(&push) || !once(&push) || !restores.iter().all(|x| once(&x.2)) {
                continue;
            }
            let r = &self.recs[k as usize];
            let (primal, suffix, count) = (r.primal, r.suffix, r.count);
            let Some(elems) = self.local_elements(primal, suffix, count) else {
                continue;
            };
            if saved + elems.len() > MAX_SAVES {
                break;
            }
            saved += elems.len();
            let bytes = if suffix == "Real4" { 4 } else { 8 };
            let kind = match (elems.len(), suffix) {
                (_, "Integer4") => TempKind::Int,
                (1, _) if count.is_none() => TempKind::Real {
                    bytes,
                    deriv: false,
                },
                (n, _) => TempKind::RealArray {
                    bytes,
                    len: n as u32,
                },
            };
            let base = match &self.pg.u.exprs[elems[0]] {
                Expr::Name(v) => Some(*v),
                Expr::Index { base, .. } => match &self.pg.u.exprs[*base] {
                    Expr::Name(v) => Some(*v),
                    _ => None,
                },
                _ => None,
            };
            let name = base.map_or("save".to_string(), |v| {
                format!("{}_save", self.pg.g.out.symbols[v].spelling)
            });
            // A plain Fortran local recorded before its first value (a loop counter in a
            // loop's snapshot) is set to zero first, as C's recorded scalars are; one that
            // cannot be (DATA, EQUIVALENCE, SAVE in the unit) stays on the stack.
            let mut zero_primal = None;
            if let (Lang::Fortran, Expr::Name(v)) = (self.pg.f.lang, &self.pg.u.exprs[primal]) {
                let v = *v;
                if self.pg.prog().symbols.contains(v) && self.own_local(v) {
                    if !self.zeroable_fortran_local(v) {
                        continue;
                    }
                    zero_primal = Some(v);
                }
            }
            let save = self.pg.temp(&name, kind);
            match (self.pg.f.lang, base) {
                (Lang::C, Some(v))
                    if self.pg.prog().symbols.contains(v)
                        && self.own_local(v)
                        && !self.pg.prog().symbols[v].attrs.save =>
                {
                    zero_arrays.insert(v);
                }
                _ => {}
            }
            if self.pg.f.lang == Lang::Fortran {
                let zero = (suffix != "Integer4").then_some(bytes);
                fortran_saves.push((save, zero));
                if let Some(v) = zero_primal {
                    fortran_saves.push((v, zero));
                }
            }
            let slot = |me: &mut Self, j: usize| {
                let n = me.pg.b().name(save);
                if count.is_none() {
                    return n;
                }
                let i = me.pg.b().int(j as i64);
                me.pg.b().index(n, vec![Subscript::Index(i)])
            };
            let mut saves = Vec::new();
            for (j, &e) in elems.iter().enumerate() {
                let (l, r) = (slot(self, j), self.dup(e));
                saves.push(assign(&mut self.pg.u, l, r));
            }
            replace.insert(push, saves);
            for &(_, _, p) in restores {
                let mut loads = Vec::new();
                for (j, &e) in elems.iter().enumerate() {
                    let (l, r) = (self.dup(e), slot(self, j));
                    loads.push(assign(&mut self.pg.u, l, r));
                }
                replace.insert(p, loads);
            }
        }
        if replace.is_empty() {
            return;
        }
        self.splice(body, &replace);
        // The copies read what the push only passed by address: a local array recorded
        // before its first value (a loop's snapshot) starts at zero, as recorded scalar
        // locals do (`recorded_local_zeros`), and so do Fortran's saves (C's are declared
        // with `= 0`).
        self.zero_saved_arrays(&zero_arrays);
        if self.pg.f.lang == Lang::Fortran {
            let mut zeros = Vec::new();
            for (v, bytes) in fortran_saves {
                let n = self.pg.b().name(v);
                let z = match bytes {
                    Some(b) => self.pg.b().zero(b),
                    None => self.pg.b().int(0),
                };
                zeros.push(assign(&mut self.pg.u, n, z));
            }
            zeros.append(body);
            *body = zeros;
        }
    }

    /// Gives the C local arrays `vars` of this procedure the initialiser `= {0}` in their
    /// declaration (when it has constant extents and no initialiser).
    fn zero_saved_arrays(&mut self, vars: &HashSet<SymbolId>) {
        for d in self.pg.c_local_decls.iter_mut() {
            let Decl::Var(v) = d else { continue };
            for e in v.entities.iter_mut() {
                if !vars.contains(&e.sym) || e.init.is_some() {
                    continue;
                }
                let constant = !e.derived.is_empty()
                    && e.derived.iter().all(|op| {
                        matches!(op, DeclOp::Array(Some(x))
                            if matches!(&self.pg.u.exprs[*x],
                                Expr::Literal(l) if l.kind == LitKind::Int))
                    });
                if constant {
                    let zero = self.pg.u.int_literal(0);
                    let braces = self.pg.u.exprs.alloc(Expr::ArrayCtor {
                        items: vec![zero],
                        old_style: false,
                        type_spec: None,
                    });
                    e.init = Some(Init::Expr(braces));
                }
            }
        }
    }

    /// The references a local copy of a record reads and restores, one per element: the
    /// recorded scalar, or each element of a C array of constant size `count`
    /// (`proj` → `proj[0]`, `proj[1]`; `&s[k]` → `s[k + 0]`, …). `None` when the record
    /// stays on the stack.
    fn local_elements(
        &mut self,
        primal: ExprId,
        suffix: &str,
        count: Option<ExprId>,
    ) -> Option<Vec<ExprId>> {
        if !matches!(suffix, "Real8" | "Real4" | "Integer4") {
            return None;
        }
        let Some(n) = count else {
            return Some(vec![primal]);
        };
        if self.pg.f.lang != Lang::C || suffix == "Integer4" {
            return None;
        }
        let len = match &self.pg.u.exprs[n] {
            Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse::<i64>().ok()?,
            _ => return None,
        };
        if !(1..=MAX_ELEMENTS).contains(&len) {
            return None;
        }
        // The base and first subscript of element 0.
        let (base, first) = match &self.pg.u.exprs[primal] {
            Expr::Name(_) => (primal, None),
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => match &self.pg.u.exprs[*arg] {
                Expr::Index { base, subs } => match subs.as_slice() {
                    [Subscript::Index(i)] => (*base, Some(*i)),
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        let mut out = Vec::new();
        for j in 0..len {
            let b = self.dup(base);
            let i = match first {
                None => self.pg.b().int(j),
                Some(i) if j == 0 => self.dup(i),
                Some(i) => {
                    let (i, k) = (self.dup(i), self.pg.b().int(j));
                    self.pg.b().add(i, k)
                }
            };
            out.push(self.pg.b().index(b, vec![Subscript::Index(i)]));
        }
        Some(out)
    }

    /// Puts the replacements of `replace` in place in `block` and the blocks under it, and
    /// drops the repeat marks that no longer enclose a pop.
    fn splice(&mut self, block: &mut Vec<StmtId>, replace: &HashMap<StmtId, Vec<StmtId>>) {
        let mut out = Vec::with_capacity(block.len());
        for &s in block.iter() {
            if let Some(r) = replace.get(&s) {
                out.extend(r.iter().copied());
                continue;
            }
            let mut kind = std::mem::replace(&mut self.pg.u.stmts[s].kind, StmtKind::Empty);
            radtap_il::directives::child_blocks_mut(&mut kind, &mut |b| self.splice(b, replace));
            self.pg.u.stmts[s].kind = kind;
            out.push(s);
        }
        // `adStack_startRepeat(); <no runtime call>; adStack_resetRepeat();
        // adStack_endRepeat();` re-reads nothing from the stack.
        let mut k = 0;
        while k < out.len() {
            if self.runtime_is(out[k], "adStack_startRepeat") {
                let mut j = k + 1;
                while j < out.len() && self.runtime_name(out[j]).is_none() {
                    j += 1;
                }
                if j + 1 < out.len()
                    && self.runtime_is(out[j], "adStack_resetRepeat")
                    && self.runtime_is(out[j + 1], "adStack_endRepeat")
                {
                    out.remove(j + 1);
                    out.remove(j);
                    out.remove(k);
                    continue;
                }
            }
            k += 1;
        }
        *block = out;
    }

    /// Whether statement `s` calls runtime routine `name` (any case: Fortran calls it in
    /// lower case).
    fn runtime_is(&self, s: StmtId, name: &str) -> bool {
        self.runtime_name(s)
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    }
}
