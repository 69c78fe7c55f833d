//! The walk of one C procedure that checks the member-count invariant (see
//! [`member_count`](super::member_count)): [`Walk`] follows the statements with a
//! [`State`], places every write to the pointer member or an integer member of a tracked
//! record, joins the states of branches and loop iterations, and checks "count of the block >=
//! product of the members" at every call, return and loop back edge; anything it cannot place
//! clears `ok`.

use super::state::{Blk, Prod, Rec, State};
use crate::*;
use std::collections::{BTreeMap, HashSet};

pub(super) struct Walk<'p> {
    pub(super) prog: &'p Program,
    pub(super) uid: UnitId,
    pub(super) u: &'p UnitData,
    pub(super) td: TypeDefId,
    pub(super) field: &'p str,
    pub(super) counts: &'p [String],
    /// Symbols the unit assigns (atoms must not read them).
    pub(super) assigned: HashSet<SymbolId>,
    /// Pointers to records allocated here (`mat = malloc(…)`), with the count expression
    /// of an array of them.
    pub(super) fresh: BTreeMap<String, Option<ExprId>>,
    pub(super) ok: bool,
    pub(super) fresh_id: usize,
}

impl Walk<'_> {
    pub(super) fn strip(&self, mut e: ExprId) -> ExprId {
        loop {
            match &self.u.exprs[e] {
                Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
                _ => return e,
            }
        }
    }

    /// The record type of expression `e` designating a record (`mat` of `mat->f` with
    /// `arrow`, `m` or `a[i]` of `.f`).
    pub(super) fn is_rec(&self, base: ExprId, arrow: bool) -> bool {
        let want = if arrow { 1 } else { 0 };
        self.ty_of(base)
            .is_some_and(|(b, p)| b == BaseClass::Record(self.td) && p == want)
    }

    /// Base class and pointer levels left of `e`.
    pub(super) fn ty_of(&self, e: ExprId) -> Option<(BaseClass, i64)> {
        match &self.u.exprs[self.strip(e)] {
            Expr::Name(s) => {
                let t = self.prog.symbols[*s].ty.as_ref()?;
                Some((t.base, t.pointers as i64 + t.dims.len() as i64))
            }
            Expr::Index { base, subs } => {
                let (b, p) = self.ty_of(*base)?;
                Some((b, p - subs.len() as i64))
            }
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => {
                let (b, p) = self.ty_of(*arg)?;
                Some((b, p - 1))
            }
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let (b, p) = self.ty_of(*arg)?;
                Some((b, p + 1))
            }
            _ => None,
        }
    }

    /// `B.f` / `B->m` of a record of the type: (key of B, member).
    pub(super) fn member(&self, e: ExprId) -> Option<(String, String)> {
        let Expr::Field { base, field, arrow } = &self.u.exprs[self.strip(e)] else {
            return None;
        };
        if !self.is_rec(*base, *arrow) {
            return None;
        }
        let k = self.key(*base)?;
        Some((if *arrow { format!("*{k}") } else { k }, field.clone()))
    }

    /// Whether `m` is the pointer member or a count member.
    pub(super) fn tracked(&self, m: &str) -> bool {
        m == self.field || self.counts.iter().any(|c| c == m)
    }

    pub(super) fn key(&self, e: ExprId) -> Option<String> {
        match &self.u.exprs[self.strip(e)] {
            Expr::Name(s) => Some(self.prog.symbols[*s].spelling.clone()),
            Expr::Index { base, subs } if subs.len() == 1 => {
                let b = self.key(*base)?;
                let Subscript::Index(i) = &subs[0] else {
                    return None;
                };
                match &self.u.exprs[self.strip(*i)] {
                    Expr::Name(s) => Some(format!("{b}[{}]", self.prog.symbols[*s].spelling)),
                    _ => None,
                }
            }
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => Some(format!("*{}", self.key(*arg)?)),
            _ => None,
        }
    }

    pub(super) fn root(k: &str) -> &str {
        let k = k.trim_start_matches('*');
        k.split('[').next().unwrap_or(k)
    }

    /// Whether the unit names a tracked member of a record of the type.
    pub(super) fn touches(&self) -> bool {
        self.u.exprs.iter().any(|(id, e)| {
            matches!(e, Expr::Field { field, .. } if self.tracked(field))
                && self.member(id).is_some()
        })
    }

    pub(super) fn collect_assigned(&mut self) {
        for (_, e) in self.u.exprs.iter() {
            let target = match e {
                Expr::Assign { lhs, .. } => Some(*lhs),
                Expr::IncDec { arg, .. } => Some(*arg),
                Expr::Unary {
                    op: UnOp::AddrOf,
                    arg,
                } => Some(*arg),
                _ => None,
            };
            if let Some(t) = target {
                if let Expr::Name(s) = self.u.exprs[self.strip(t)] {
                    self.assigned.insert(s);
                }
            }
        }
        for (_, s) in self.u.stmts.iter() {
            if let StmtKind::Assign { lhs, .. } = s.kind {
                if let Expr::Name(x) = self.u.exprs[self.strip(lhs)] {
                    self.assigned.insert(x);
                }
            }
        }
    }

    /// Text of an atom, when it reads nothing the unit assigns (but loop counters of
    /// keys) and has no side effect.
    pub(super) fn text(&self, e: ExprId) -> Option<String> {
        match &self.u.exprs[self.strip(e)] {
            Expr::Name(s) => {
                (!self.assigned.contains(s)).then(|| self.prog.symbols[*s].spelling.clone())
            }
            Expr::Literal(l) => Some(l.text.clone()),
            Expr::Opaque(t) => Some(t.clone()),
            Expr::Intrinsic(r) => Some(r.spelling.to_string()),
            Expr::Field { base, field, arrow } => {
                let b = self.key(*base)?;
                Some(format!("{b}{}{field}", if *arrow { "->" } else { "." }))
            }
            Expr::Binary { op, lhs, rhs } => {
                let o = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    _ => return None,
                };
                Some(format!("({} {o} {})", self.text(*lhs)?, self.text(*rhs)?))
            }
            _ => None,
        }
    }

    /// The product an integer expression is, members of tracked records replaced by their
    /// values.
    pub(super) fn val(&self, e: ExprId, st: &State) -> Option<Prod> {
        let e = self.strip(e);
        if let Expr::Binary {
            op: BinOp::Mul,
            lhs,
            rhs,
        } = &self.u.exprs[e]
        {
            let mut p = self.val(*lhs, st)?;
            p.extend(self.val(*rhs, st)?);
            p.sort();
            return Some(p);
        }
        if let Some((k, m)) = self.member(e) {
            if let Some(i) = self.counts.iter().position(|c| *c == m) {
                return st.recs.get(&k).map(|r| r.mem[i].clone()).or_else(|| {
                    Some(vec![format!("{k}.{m}")]) // as the record holds it on entry
                });
            }
        }
        if let Expr::Literal(l) = &self.u.exprs[e] {
            if l.text == "0" {
                return Some(vec!["0".into()]);
            }
            if l.text == "1" {
                return Some(Vec::new());
            }
        }
        Some(vec![self.text(e)?])
    }

    /// The record state of key `k`, as it is on entry when not met yet.
    pub(super) fn rec<'s>(&mut self, k: &str, st: &'s mut State) -> &'s mut Rec {
        if !st.recs.contains_key(k) {
            let r = if self.fresh.contains_key(Self::root(k)) {
                Rec {
                    blk: Blk::Broken,
                    mem: self.counts.iter().map(|_| vec!["?".into()]).collect(),
                }
            } else {
                let mem: Vec<Prod> = self
                    .counts
                    .iter()
                    .map(|c| vec![format!("{k}.{c}")])
                    .collect();
                let mut p: Prod = mem.iter().flatten().cloned().collect();
                p.sort();
                Rec {
                    blk: Blk::AtLeast(p),
                    mem,
                }
            };
            st.recs.insert(k.to_string(), r);
        }
        st.recs.get_mut(k).expect("inserted")
    }

    pub(super) fn prod(r: &Rec) -> Prod {
        let mut p: Prod = r.mem.iter().flatten().cloned().collect();
        p.sort();
        p
    }

    pub(super) fn ge(blk: &Blk, p: &Prod, st: &State) -> bool {
        let zero = p.iter().any(|a| a == "0");
        match blk {
            Blk::AtLeast(q) => {
                zero || q == p
                    || st
                        .eqs
                        .iter()
                        .any(|(a, b)| (a == q && b == p) || (a == p && b == q))
            }
            Blk::Null => zero || st.nonpos.contains(p),
            Blk::Broken => false,
        }
    }

    pub(super) fn valid(r: &Rec, st: &State) -> bool {
        !r.mem.iter().flatten().any(|a| a == "?") && Self::ge(&r.blk, &Self::prod(r), st)
    }

    /// Every record another procedure could see satisfies the invariant.
    pub(super) fn check_all(&mut self, st: &State) {
        for (k, r) in &st.recs {
            if !st.dead.contains(k) && !Self::valid(r, st) {
                self.ok = false;
            }
        }
    }

    pub(super) fn exit(&mut self, st: &State) {
        // A loop left records of an array broken: only if the array is freed.
        for d in &st.dead {
            if let Some(root) = d.strip_prefix('?') {
                if !st.dead.contains(root) {
                    self.ok = false;
                }
            }
        }
        // Records allocated here and not freed: an array set whole by a loop (no longer
        // fresh then), or one record whose members were all set.
        for (root, n) in &self.fresh {
            if st.dead.contains(root) {
                continue;
            }
            let single_ok = n.is_none()
                && st
                    .recs
                    .get(&format!("*{root}"))
                    .is_some_and(|r| Self::valid(r, st));
            if !single_ok {
                self.ok = false;
            }
        }
        for (k, r) in &st.recs {
            let root = Self::root(k);
            if st.dead.contains(k) || st.dead.contains(root) {
                continue;
            }
            // A local record variable dies here.
            // (Not a file-scope or static record: another procedure sees it.)
            let local = self.u.exprs.iter().any(|(_, e)| {
                matches!(e, Expr::Name(s) if self.prog.symbols[*s].spelling == root
                    && !self.u.params.contains(s)
                    && self.prog.unit_of_scope(self.prog.symbols[*s].scope) == Some(self.uid)
                    && !self.prog.symbols[*s].attrs.save
                    && self.prog.symbols[*s].ty.as_ref().is_some_and(|t| t.pointers == 0 && t.dims.is_empty()))
            });
            if local {
                continue;
            }
            if k.contains('[') && self.fresh.contains_key(root) {
                continue; // checked where its loop ends
            }
            if !Self::valid(r, st) {
                self.ok = false;
            }
        }
    }

    pub(super) fn is_call_to(&self, e: ExprId, names: &[&str]) -> Option<Vec<Arg>> {
        let Expr::Call { callee, args } = &self.u.exprs[self.strip(e)] else {
            return None;
        };
        let Expr::Name(f) = self.u.exprs[*callee] else {
            return None;
        };
        names
            .contains(&self.prog.symbols[f].spelling.as_str())
            .then(|| args.clone())
    }

    /// `malloc(C * sizeof(T))` / `calloc(C, sizeof(T))` of the member's element: `C`.
    pub(super) fn alloc_prod(&self, e: ExprId, st: &State) -> Option<Prod> {
        if let Some(args) = self.is_call_to(e, &["calloc"]) {
            let [n, s] = &args[..] else { return None };
            return self.is_elem_size(s.value).then(|| self.val(n.value, st))?;
        }
        let args = self.is_call_to(e, &["malloc"])?;
        let [a] = &args[..] else { return None };
        let mut factors = Vec::new();
        let mut todo = vec![a.value];
        while let Some(x) = todo.pop() {
            match &self.u.exprs[self.strip(x)] {
                Expr::Binary {
                    op: BinOp::Mul,
                    lhs,
                    rhs,
                } => {
                    todo.push(*lhs);
                    todo.push(*rhs);
                }
                _ => factors.push(x),
            }
        }
        let at = factors.iter().position(|&f| self.is_elem_size(f))?;
        factors.remove(at);
        let mut p = Vec::new();
        for f in factors {
            p.extend(self.val(f, st)?);
        }
        p.sort();
        Some(p)
    }

    pub(super) fn is_elem_size(&self, e: ExprId) -> bool {
        matches!(&self.u.exprs[self.strip(e)], Expr::SizeofType(cp)
            if cp.derived.is_empty() && cp.spec.class == BaseClass::Real)
    }

    pub(super) fn is_null(&self, e: ExprId) -> bool {
        match &self.u.exprs[self.strip(e)] {
            Expr::Opaque(t) => t == "NULL",
            Expr::Name(s) => self.prog.symbols[*s].spelling == "NULL",
            Expr::Literal(l) => l.text == "0",
            _ => false,
        }
    }

    /// An assignment `lhs = rhs` (`op` compound).
    pub(super) fn assign(&mut self, lhs: ExprId, op: Option<BinOp>, rhs: ExprId, st: &mut State) {
        // A chained `a = b = 0`: the inner one first.
        if let Expr::Assign {
            op: o2,
            lhs: l2,
            rhs: r2,
        } = self.u.exprs[self.strip(rhs)].clone()
        {
            self.assign(l2, o2, r2, st);
            if !self.ok {
                return;
            }
            let v = self.val(l2, st);
            return self.set(lhs, op, v, Some(r2), st);
        }
        self.expr_effects(rhs, st);
        let v = self.val(rhs, st);
        self.set(lhs, op, v, Some(rhs), st)
    }

    pub(super) fn set(
        &mut self,
        lhs: ExprId,
        op: Option<BinOp>,
        v: Option<Prod>,
        rhs: Option<ExprId>,
        st: &mut State,
    ) {
        if let Expr::Field { base, field, arrow } = &self.u.exprs[self.strip(lhs)] {
            if self.tracked(field) && self.is_rec(*base, *arrow) && self.key(*base).is_none() {
                self.ok = false;
                return;
            }
        }
        if let Some((k, m)) = self.member(lhs) {
            if !self.tracked(&m) {
                return;
            }
            if op.is_some() {
                self.ok = false;
                return;
            }
            if m == self.field {
                let blk = match rhs {
                    Some(r) if self.is_null(r) => Blk::Null,
                    Some(r) => match self.alloc_prod(r, st) {
                        Some(p) => Blk::AtLeast(p),
                        None => {
                            self.ok = false;
                            return;
                        }
                    },
                    None => Blk::Broken,
                };
                self.rec(&k, st).blk = blk;
                return;
            }
            let i = self.counts.iter().position(|c| *c == m).expect("tracked");
            match v {
                Some(p) => self.rec(&k, st).mem[i] = p,
                None => self.ok = false,
            }
            return;
        }
        // A pointer to records set: allocated here, or another valid record.
        if let Expr::Name(s) = self.u.exprs[self.strip(lhs)] {
            let t = self.prog.symbols[s].ty.as_ref();
            if t.is_some_and(|t| t.base == BaseClass::Record(self.td)) {
                let name = self.prog.symbols[s].spelling.clone();
                st.recs.retain(|k, _| Self::root(k) != name);
                let fresh = rhs.and_then(|r| {
                    if let Some(a) = self.is_call_to(r, &["malloc"]) {
                        Some(a.first().and_then(|a| self.record_array_count(a.value)))
                    } else if let Some(a) = self.is_call_to(r, &["calloc"]) {
                        // zeroed: members 0 and NULL
                        let _ = a;
                        None
                    } else {
                        None
                    }
                });
                match fresh {
                    Some(n) => {
                        self.fresh.insert(name, n);
                    }
                    None => {
                        self.fresh.remove(&name);
                    }
                }
                return;
            }
        }
        // A whole record copied (`*p = q`, `a[i] = b`): valid when the copy is.
        if let Some((b, p)) = self.ty_of(lhs) {
            if b == BaseClass::Record(self.td) && p == 0 {
                if let Some(k) = self.key(lhs) {
                    self.fresh_id += 1;
                    let mem: Vec<Prod> = self
                        .counts
                        .iter()
                        .map(|c| vec![format!("{k}.{c}#{}", self.fresh_id)])
                        .collect();
                    let mut p: Prod = mem.iter().flatten().cloned().collect();
                    p.sort();
                    st.recs.insert(
                        k,
                        Rec {
                            blk: Blk::AtLeast(p),
                            mem,
                        },
                    );
                    let src_ok = rhs
                        .and_then(|r| self.key(r))
                        .and_then(|rk| st.recs.get(&rk).map(|r| Self::valid(r, st)))
                        .unwrap_or(true);
                    if !src_ok {
                        self.ok = false;
                    }
                } else {
                    self.ok = false;
                }
            }
        }
    }

    /// `C` of `malloc(C * sizeof(T))` for an array of records.
    pub(super) fn record_array_count(&self, e: ExprId) -> Option<ExprId> {
        match &self.u.exprs[self.strip(e)] {
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } => {
                let rec = |x: ExprId| {
                    matches!(&self.u.exprs[self.strip(x)], Expr::SizeofType(cp)
                        if cp.spec.class == BaseClass::Record(self.td) && cp.derived.is_empty())
                };
                if rec(*rhs) {
                    Some(*lhs)
                } else if rec(*lhs) {
                    Some(*rhs)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// Calls and side effects inside an expression.
    pub(super) fn expr_effects(&mut self, e: ExprId, st: &mut State) {
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            match &self.u.exprs[x] {
                Expr::Call { callee, args } => {
                    self.call(*callee, &args.clone(), st);
                }
                Expr::Assign { lhs, .. } => {
                    let rec = self.member(*lhs).is_some_and(|(_, m)| self.tracked(&m))
                        || matches!(&self.u.exprs[self.strip(*lhs)], Expr::Field { field, .. } if self.tracked(field))
                        || self
                            .ty_of(*lhs)
                            .is_some_and(|(b, _)| b == BaseClass::Record(self.td));
                    if rec {
                        self.ok = false;
                    }
                }
                Expr::IncDec { arg, .. }
                | Expr::Unary {
                    op: UnOp::AddrOf,
                    arg,
                } if self.member(*arg).is_some_and(|(_, m)| self.tracked(&m)) => {
                    self.ok = false;
                }
                _ => {}
            }
            crate::visit::expr_children(&self.u.exprs[x], &mut |k| todo.push(k));
        }
    }

    pub(super) fn call(&mut self, callee: ExprId, args: &[Arg], st: &mut State) {
        let name = match &self.u.exprs[callee] {
            Expr::Name(f) => self.prog.symbols[*f].spelling.clone(),
            Expr::Opaque(t) => t.clone(),
            Expr::Intrinsic(r) => r.spelling.to_string(),
            _ => String::new(),
        };
        match name.as_str() {
            "free" => {
                if let [a] = args {
                    if let Some((k, m)) = self.member(a.value) {
                        if m == self.field {
                            self.rec(&k, st).blk = Blk::Broken;
                        }
                    } else if let Some(k) = self.key(a.value) {
                        st.dead.insert(k.clone());
                        st.dead.insert(format!("*{k}"));
                    }
                }
                return;
            }
            "memcpy" | "memset" | "memmove" | "realloc" => {
                if args.iter().any(|a| {
                    self.ty_of(a.value)
                        .is_some_and(|(b, _)| b == BaseClass::Record(self.td))
                }) {
                    self.ok = false;
                }
                return;
            }
            _ => {}
        }
        let defined = self.prog.units.iter().any(|(_, u)| {
            u.name
                .is_some_and(|n| self.prog.symbols[n].spelling == name)
        });
        if defined {
            self.check_all(st);
            for (root, n) in &self.fresh {
                if st.dead.contains(root) {
                    continue;
                }
                let single_ok = n.is_none()
                    && st
                        .recs
                        .get(&format!("*{root}"))
                        .is_some_and(|r| Self::valid(r, st));
                if !single_ok {
                    self.ok = false;
                }
            }
            // The callee keeps the invariant, its values unknown here.
            let keys: Vec<String> = st.recs.keys().cloned().collect();
            for k in keys {
                self.fresh_id += 1;
                let mem: Vec<Prod> = self
                    .counts
                    .iter()
                    .map(|c| vec![format!("{k}.{c}#{}", self.fresh_id)])
                    .collect();
                let mut p: Prod = mem.iter().flatten().cloned().collect();
                p.sort();
                st.recs.insert(
                    k,
                    Rec {
                        blk: Blk::AtLeast(p),
                        mem,
                    },
                );
            }
        }
    }

    pub(super) fn block(&mut self, b: &[StmtId], st: &mut State) {
        for &s in b {
            if !self.ok {
                return;
            }
            self.stmt(s, st);
        }
    }

    pub(super) fn cond_facts(
        &self,
        c: ExprId,
        st: &State,
        truth: bool,
    ) -> (Vec<(Prod, Prod)>, Vec<Prod>) {
        let (mut eqs, mut nonpos) = (Vec::new(), Vec::new());
        if let Expr::Binary { op, lhs, rhs } = &self.u.exprs[self.strip(c)] {
            let (l, r) = (self.val(*lhs, st), self.val(*rhs, st));
            match (op, truth, l, r) {
                (BinOp::Ne(_), false, Some(l), Some(r))
                | (BinOp::Eq(_), true, Some(l), Some(r)) => eqs.push((l, r)),
                (BinOp::Gt(_), false, Some(l), Some(r)) if r == vec!["0".to_string()] => {
                    nonpos.push(l)
                }
                (BinOp::Le(_), true, Some(l), Some(r)) if r == vec!["0".to_string()] => {
                    nonpos.push(l)
                }
                _ => {}
            }
        }
        (eqs, nonpos)
    }

    /// The state after both arms: a record's block bound is kept when each arm's bound is
    /// at least one product (under the arm's facts).
    pub(super) fn join(&mut self, a: State, b: State, base: &State) -> State {
        let mut out = base.clone();
        out.dead = a.dead.union(&b.dead).cloned().collect();
        let keys: HashSet<String> = a.recs.keys().chain(b.recs.keys()).cloned().collect();
        for k in keys {
            let mut ra = a.recs.get(&k).cloned();
            let mut rb = b.recs.get(&k).cloned();
            if ra.is_none() {
                let mut t = base.clone();
                ra = Some(self.rec(&k, &mut t).clone());
            }
            if rb.is_none() {
                let mut t = base.clone();
                rb = Some(self.rec(&k, &mut t).clone());
            }
            let (ra, rb) = (ra.expect("set"), rb.expect("set"));
            if ra.mem != rb.mem {
                out.recs.insert(
                    k,
                    Rec {
                        blk: Blk::Broken,
                        mem: ra.mem.iter().map(|_| vec!["?".into()]).collect(),
                    },
                );
                continue;
            }
            let blk = if ra.blk == rb.blk {
                ra.blk.clone()
            } else {
                let mut cands: Vec<Prod> = Vec::new();
                for x in [&ra.blk, &rb.blk] {
                    if let Blk::AtLeast(p) = x {
                        cands.push(p.clone());
                    }
                }
                cands.push(Self::prod(&ra));
                cands
                    .into_iter()
                    .find(|p| Self::ge(&ra.blk, p, &a) && Self::ge(&rb.blk, p, &b))
                    .map(Blk::AtLeast)
                    .unwrap_or(Blk::Broken)
            };
            out.recs.insert(k, Rec { blk, mem: ra.mem });
        }
        out
    }

    pub(super) fn stmt(&mut self, s: StmtId, st: &mut State) {
        let kind = self.u.stmts[s].kind.clone();
        match kind {
            StmtKind::Assign { lhs, op, rhs } => self.assign(lhs, op, rhs, st),
            StmtKind::Expr(e) => match self.u.exprs[self.strip(e)].clone() {
                Expr::Assign { op, lhs, rhs } => self.assign(lhs, op, rhs, st),
                _ => self.expr_effects(e, st),
            },
            StmtKind::Call { callee, args, .. } => {
                for a in &args {
                    self.expr_effects(a.value, st);
                }
                self.call(callee, &args, st)
            }
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    if let Some(Init::Expr(i)) = e.init {
                        let lhs_ty = self.prog.symbols[e.sym].ty.as_ref();
                        if lhs_ty.is_some_and(|t| t.base == BaseClass::Record(self.td)) {
                            let name = self.prog.symbols[e.sym].spelling.clone();
                            self.expr_effects(i, st);
                            if t_is_ptr(lhs_ty) {
                                if let Some(a) = self.is_call_to(i, &["malloc"]) {
                                    let n =
                                        a.first().and_then(|a| self.record_array_count(a.value));
                                    self.fresh.insert(name, n);
                                }
                            } else {
                                self.ok = false;
                            }
                        } else {
                            self.expr_effects(i, st);
                        }
                    }
                }
            }
            StmtKind::Decl(_) => {}
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr_effects(e, st);
                }
                self.exit(st);
            }
            StmtKind::If {
                arms, else_block, ..
            } => {
                let mut cur = st.clone();
                let mut outs: Vec<State> = Vec::new();
                for (c, b) in &arms {
                    self.expr_effects(*c, &mut cur);
                    let mut t = cur.clone();
                    let (e, n) = self.cond_facts(*c, &cur, true);
                    t.eqs.extend(e);
                    t.nonpos.extend(n);
                    self.block(b, &mut t);
                    outs.push(t);
                    let (e, n) = self.cond_facts(*c, &cur, false);
                    cur.eqs.extend(e);
                    cur.nonpos.extend(n);
                }
                if let Some(b) = &else_block {
                    self.block(b, &mut cur);
                }
                outs.push(cur);
                let mut acc = outs.remove(0);
                for o in outs {
                    acc = self.join(acc, o, st);
                }
                acc.eqs = st.eqs.clone();
                acc.nonpos = st.nonpos.clone();
                *st = acc;
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                if let Some(i) = init {
                    self.stmt(i, st);
                }
                if let Some(c) = cond {
                    self.expr_effects(c, st);
                }
                let var = init.and_then(|i| self.counter(i));
                if let Some(e) = step {
                    self.expr_effects(e, st);
                }
                self.loop_body(&body, var, cond, st);
            }
            StmtKind::While { cond, body, .. } | StmtKind::DoWhile { body, cond } => {
                self.expr_effects(cond, st);
                self.loop_body(&body, None, None, st);
            }
            StmtKind::Loop { body } => self.loop_body(&body, None, None, st),
            StmtKind::Block { body, .. } => self.block(&body, st),
            StmtKind::Break | StmtKind::CContinue | StmtKind::Comment(_) => {}
            // Anything else (a Fortran-style loop, a jump, a switch) in a procedure that
            // sets these members: not proven.
            _ => self.ok = false,
        }
    }

    /// `i` of a `for` initialisation `i = 0`.
    pub(super) fn counter(&self, init: StmtId) -> Option<String> {
        let (lhs, rhs) = match &self.u.stmts[init].kind {
            StmtKind::Assign { lhs, rhs, op: None } => (*lhs, *rhs),
            StmtKind::Expr(e) => match &self.u.exprs[*e] {
                Expr::Assign { lhs, rhs, op: None } => (*lhs, *rhs),
                _ => return None,
            },
            _ => return None,
        };
        let Expr::Name(s) = self.u.exprs[self.strip(lhs)] else {
            return None;
        };
        matches!(&self.u.exprs[self.strip(rhs)], Expr::Literal(l) if l.text == "0")
            .then(|| self.prog.symbols[s].spelling.clone())
    }

    /// A loop body: run twice (the second time from what the first left, the records it
    /// changed valid but unknown); the records named by the counter (`result[i]`) start
    /// afresh each iteration and must be valid at its end, and an array allocated here
    /// that the loop sets whole (`for (i = 0; i < count; i++)`, `count` its allocation's)
    /// is valid after it.
    pub(super) fn loop_body(
        &mut self,
        body: &[StmtId],
        var: Option<String>,
        cond: Option<ExprId>,
        st: &mut State,
    ) {
        let per_iter = |k: &str| var.as_ref().is_some_and(|v| k.contains(&format!("[{v}]")));
        let mut first = st.clone();
        first.recs.retain(|k, _| !per_iter(k));
        self.block(body, &mut first);
        let mut mid = st.clone();
        for (k, r) in &first.recs {
            if per_iter(k) {
                continue;
            }
            if st.recs.get(k) != Some(r) {
                let valid = Self::valid(r, &first);
                self.fresh_id += 1;
                let mem: Vec<Prod> = self
                    .counts
                    .iter()
                    .map(|c| vec![format!("{k}.{c}#{}", self.fresh_id)])
                    .collect();
                let mut p: Prod = mem.iter().flatten().cloned().collect();
                p.sort();
                let blk = if valid { Blk::AtLeast(p) } else { Blk::Broken };
                mid.recs.insert(k.clone(), Rec { blk, mem });
            }
        }
        mid.dead = first.dead.clone();
        let mut second = mid.clone();
        self.block(body, &mut second);
        // Per-iteration records valid at the end of the body, unless freed later.
        let mut whole: Vec<String> = Vec::new();
        for (k, r) in &second.recs {
            if per_iter(k) {
                let root = Self::root(k).to_string();
                if !Self::valid(r, &second) && !second.dead.contains(k) {
                    // left broken: fine only when the array is freed afterwards
                    mid.dead.insert(format!("?{root}"));
                } else if let (Some(Some(n)), Some(c)) = (self.fresh.get(&root), cond) {
                    if self.covers(c, *n, var.as_deref().unwrap_or("")) {
                        whole.push(root);
                    }
                }
            } else if !st.dead.contains(k) && !Self::valid(r, &second) && st.recs.get(k) != Some(r)
            {
                mid.recs.insert(k.clone(), r.clone());
            }
        }
        for r in whole {
            self.fresh.remove(&r);
        }
        *st = mid;
    }

    /// Whether loop condition `c` is `i < n` with `n` written as `count`.
    pub(super) fn covers(&self, c: ExprId, count: ExprId, var: &str) -> bool {
        let Expr::Binary {
            op: BinOp::Lt(_),
            lhs,
            rhs,
        } = &self.u.exprs[self.strip(c)]
        else {
            return false;
        };
        matches!(self.u.exprs[self.strip(*lhs)], Expr::Name(s) if self.prog.symbols[s].spelling == var)
            && crate::visit::same_expr(self.u, *rhs, count)
            && self.text(*rhs).is_some()
    }
}

pub(super) fn t_is_ptr(t: Option<&Type>) -> bool {
    t.is_some_and(|t| t.pointers == 1 && t.dims.is_empty())
}
