//! The walk that infers an extent: [`Walk`] visits a C procedure's statements and
//! expressions, keeps the loops around the current point with their ranges, and records the
//! largest subscript of each access to the pointer (or, in member mode, to `ptr->field`);
//! [`infer`] runs it for one pointer parameter and follows calls into the callee's own
//! inference (with the actual arguments for the callee's parameters). Also the facts about a
//! procedure the walk needs: its fixed integer parameters, whether it jumps, which function a
//! called name designates, the symbol of a record member; and [`Mode`], how careful the
//! inference is.

use super::poly::{over_loops, Extent, Poly};
use crate::visit::{decl_exprs, expr_children, stmt_children};
use crate::*;
use std::collections::{HashMap, HashSet};

/// How careful the inference is (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Every access counted must happen whenever the procedure runs: the generators.
    Exact,
    /// An upper bound is enough: the validation driver's allocations.
    Cover,
}

/// The members of other record parameters standing in a [`member_pointer_extent`](super::member_pointer_extent):
/// placeholder symbol, parameter, member name.
pub type OtherMembers = Vec<(SymbolId, SymbolId, String)>;

pub(super) fn infer(
    prog: &Program,
    macros: &HashMap<String, i64>,
    unit: UnitId,
    ptr: SymbolId,
    mode: Mode,
    busy: &mut HashSet<(UnitId, SymbolId)>,
) -> Option<Extent> {
    let u = &prog.units[unit];
    if u.lang != Lang::C || !u.params.contains(&ptr) || !busy.insert((unit, ptr)) {
        return None;
    }
    if mode == Mode::Exact && jumps(u) {
        busy.remove(&(unit, ptr));
        return None;
    }
    let mut w = Walk::new(prog, macros, u, ptr, mode, busy);
    for &s in &u.body {
        w.stmt(s);
    }
    let (lost, mut his) = (w.lost, w.his);
    busy.remove(&(unit, ptr));
    if lost || his.is_empty() {
        return None;
    }
    // Counts, not largest subscripts; a count another one surely exceeds is dropped.
    let mut counts: Vec<Poly> = his
        .drain(..)
        .map(|h| h.add(&Poly::lit(1), 1))
        .collect::<Option<_>>()?;
    counts.dedup();
    let keep: Vec<Poly> = counts
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            !counts.iter().enumerate().any(|(j, d)| {
                j != *i && d.add(c, -1).is_some_and(|x| x.nonneg()) && (d != *c || j < *i)
            })
        })
        .map(|(_, c)| c.clone())
        .collect();
    (!keep.is_empty() && keep.len() <= 4).then_some(Extent(keep))
}

/// The C function a called name designates: its own unit, else the function of that name
/// (a prototype's symbol names no unit).
pub(super) fn definition(prog: &Program, s: SymbolId) -> Option<UnitId> {
    let sym = &prog.symbols[s];
    if let Some(u) = sym.unit.filter(|&u| prog.units[u].name == Some(s)) {
        return Some(u);
    }
    if sym.kind != SymbolKind::Procedure {
        return None;
    }
    prog.units
        .iter()
        .find(|(_, u)| {
            u.lang == Lang::C
                && matches!(u.kind, UnitKind::Function | UnitKind::Subroutine)
                && u.name
                    .is_some_and(|n| prog.symbols[n].spelling == sym.spelling)
        })
        .map(|(id, _)| id)
}

/// The symbol of member `field` of record type `td`.
pub(super) fn member_symbol(prog: &Program, td: TypeDefId, field: &str) -> Option<SymbolId> {
    prog.typedefs[td].fields.iter().find_map(|f| match f {
        Decl::Var(v) => v
            .entities
            .iter()
            .find(|x| prog.symbols[x.sym].spelling == field)
            .map(|x| x.sym),
        _ => None,
    })
}

/// Whether parameter `p` points to a record one of whose members is the symbol `f`.
pub(super) fn record_member(prog: &Program, p: SymbolId, f: SymbolId) -> bool {
    prog.symbols[p].ty.as_ref().is_some_and(|t| {
        t.pointers == 1
            && matches!(t.base, BaseClass::Record(td)
                if member_symbol(prog, td, &prog.symbols[f].spelling) == Some(f))
    })
}

/// Whether the procedure jumps (`break`, `continue`, `goto`, a `return` before its last
/// statement): accesses after a jump may not happen.
pub(super) fn jumps(u: &UnitData) -> bool {
    let last = u.body.last().copied();
    u.stmts.iter().any(|(s, st)| match st.kind {
        StmtKind::Break | StmtKind::CContinue | StmtKind::Goto(_) => true,
        StmtKind::Return(_) => Some(s) != last,
        _ => false,
    })
}

/// The integer parameters the procedure never assigns nor takes the address of.
pub(super) fn fixed_params(u: &UnitData) -> HashSet<SymbolId> {
    let mut changed = HashSet::new();
    let root = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) => e = *a,
            Expr::Name(n) => return Some(*n),
            _ => return None,
        }
    };
    for (_, st) in u.stmts.iter() {
        if let StmtKind::Assign { lhs, .. } = &st.kind {
            changed.extend(root(*lhs));
        }
    }
    for (_, e) in u.exprs.iter() {
        match e {
            Expr::Assign { lhs: a, .. }
            | Expr::IncDec { arg: a, .. }
            | Expr::Unary {
                op: UnOp::AddrOf,
                arg: a,
            } => changed.extend(root(*a)),
            _ => {}
        }
    }
    u.params
        .iter()
        .copied()
        .filter(|p| !changed.contains(p))
        .collect()
}

pub(super) struct Walk<'a, 'b> {
    pub(super) prog: &'a Program,
    pub(super) macros: &'a HashMap<String, i64>,
    pub(super) u: &'a UnitData,
    pub(super) ptr: SymbolId,
    pub(super) mode: Mode,
    pub(super) fixed: HashSet<SymbolId>,
    /// Loop counters around the current statement, outermost first, with their first and
    /// last values.
    pub(super) loops: Vec<(SymbolId, Poly, Poly)>,
    /// Depth of conditional statements around the current one.
    pub(super) cond: u32,
    /// The largest subscript of each access, over the parameters.
    pub(super) his: Vec<Poly>,
    pub(super) lost: bool,
    pub(super) busy: &'b mut HashSet<(UnitId, SymbolId)>,
    /// The member of the record `ptr` points to whose pointee is sized instead of `ptr`'s
    /// ([`member_pointer_extent`](super::member_pointer_extent)): `lhs->data` for `ptr` = `lhs`, field `data`.
    pub(super) member: Option<String>,
    /// Member mode: the integer members of other record pointer parameters read in the
    /// polynomials, `q->field`, each standing as a placeholder variable numbered past the
    /// program's symbols (never looked up): placeholder, `q`, field.
    pub(super) others: std::cell::RefCell<OtherMembers>,
}

impl<'a, 'b> Walk<'a, 'b> {
    pub(super) fn new(
        prog: &'a Program,
        macros: &'a HashMap<String, i64>,
        u: &'a UnitData,
        ptr: SymbolId,
        mode: Mode,
        busy: &'b mut HashSet<(UnitId, SymbolId)>,
    ) -> Self {
        Walk {
            prog,
            macros,
            u,
            ptr,
            mode,
            fixed: fixed_params(u),
            loops: Vec::new(),
            cond: 0,
            his: Vec::new(),
            lost: false,
            busy,
            member: None,
            others: Default::default(),
        }
    }
}

impl Walk<'_, '_> {
    pub(super) fn is_ptr(&self, e: ExprId) -> bool {
        if let Some(m) = &self.member {
            return self.ptr_member(e).is_some_and(|f| f == m);
        }
        match &self.u.exprs[e] {
            Expr::Name(s) => *s == self.ptr,
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => self.is_ptr(*a),
            _ => false,
        }
    }

    /// The member `f` of `ptr->f` (or `(*ptr).f`, parentheses and casts aside).
    pub(super) fn ptr_member(&self, mut e: ExprId) -> Option<&str> {
        while let Expr::Paren(a) | Expr::Cast { arg: a, .. } = self.u.exprs[e] {
            e = a;
        }
        let Expr::Field { base, field, .. } = &self.u.exprs[e] else {
            return None;
        };
        let mut b = *base;
        while let Expr::Paren(a) = self.u.exprs[b] {
            b = a;
        }
        if let Expr::Unary {
            op: UnOp::Deref,
            arg,
        } = self.u.exprs[b]
        {
            b = arg;
        }
        matches!(self.u.exprs[b], Expr::Name(p) if p == self.ptr).then_some(field.as_str())
    }

    /// An integer expression over loop counters, fixed parameters and literals.
    pub(super) fn poly(&self, e: ExprId) -> Option<Poly> {
        match &self.u.exprs[e] {
            Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok().map(Poly::lit),
            Expr::Opaque(m) => self.macros.get(m).copied().map(Poly::lit),
            Expr::Name(s) => {
                let counter = self.loops.iter().any(|(v, _, _)| v == s);
                let int = self.prog.symbols[*s].ty.as_ref().is_some_and(|t| {
                    t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty()
                });
                (counter || (int && self.fixed.contains(s))).then(|| Poly::var(*s))
            }
            Expr::Paren(a) => self.poly(*a),
            Expr::Field { field, .. } if self.member.is_some() && self.ptr_member(e).is_some() => {
                self.own_member(self.ptr, field).map(|_| {
                    let t = self.prog.symbols[self.ptr].ty.as_ref();
                    let td = match t.map(|t| t.base) {
                        Some(BaseClass::Record(td)) => td,
                        _ => unreachable!("own_member checked the record"),
                    };
                    Poly::var(member_symbol(self.prog, td, field).expect("checked"))
                })
            }
            Expr::Field {
                base,
                field,
                arrow: true,
            } if self.member.is_some() => {
                // `q->field` of another record pointer parameter: a placeholder.
                let q = self.param_pointer(*base)?;
                self.own_member(q, field)?;
                let mut others = self.others.borrow_mut();
                if let Some((v, ..)) = others.iter().find(|(_, p, g)| *p == q && g == field) {
                    return Some(Poly::var(*v));
                }
                let v = SymbolId::from_raw((self.prog.symbols.len() + others.len()) as u32);
                others.push((v, q, field.clone()));
                Some(Poly::var(v))
            }
            Expr::Field { base, field, .. } if self.mode == Mode::Cover => {
                let p = self.param_pointer(*base)?;
                self.member_var(p, field).map(Poly::var)
            }
            Expr::Unary { op: UnOp::Neg, arg } => Poly::default().add(&self.poly(*arg)?, -1),
            Expr::Unary {
                op: UnOp::Plus,
                arg,
            } => self.poly(*arg),
            Expr::Binary { op, lhs, rhs } => {
                let (a, b) = (self.poly(*lhs)?, self.poly(*rhs)?);
                match op {
                    BinOp::Add => a.add(&b, 1),
                    BinOp::Sub => a.add(&b, -1),
                    BinOp::Mul => a.mul(&b),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The largest value of `p` over the loops around ([`over_loops`]).
    pub(super) fn maxima(&self, p: Poly) -> Option<Vec<Poly>> {
        over_loops(&self.loops, p, true)
    }

    /// The smallest value of `p` over the loops around ([`over_loops`]).
    pub(super) fn minima(&self, p: Poly) -> Option<Vec<Poly>> {
        over_loops(&self.loops, p, false)
    }

    /// The smallest value of `p` over the loops around is surely `>= 0`.
    pub(super) fn min_nonneg(&self, p: &Poly) -> bool {
        let mut cur = vec![p.clone()];
        for (v, lo, hi) in self.loops.iter().rev() {
            let mut next = Vec::new();
            for q in cur {
                if !q.mentions(*v) {
                    next.push(q);
                    continue;
                }
                let (a, b) = (q.subst(*v, lo), q.subst(*v, hi));
                match (q.slope_sign(*v), a, b) {
                    (Some(true), Some(a), _) => next.push(a),
                    (Some(false), _, Some(b)) => next.push(b),
                    (None, Some(a), Some(b)) => next.extend([a, b]),
                    _ => return false,
                }
            }
            if next.len() > 8 {
                return false;
            }
            cur = next;
        }
        cur.iter().all(Poly::nonneg)
    }

    /// An access at the sum of subscripts `terms` (relative to `ptr`), plus `extra` elements
    /// beyond it.
    pub(super) fn access(&mut self, terms: &[ExprId], extra: Option<&Poly>) {
        if self.mode == Mode::Exact && self.cond > 0 {
            self.lost = true;
            return;
        }
        let p = terms
            .iter()
            .try_fold(Poly::default(), |acc, &t| acc.add(&self.poly(t)?, 1));
        let Some(p) = p else {
            self.lost = true;
            return;
        };
        let top = match extra {
            Some(x) => p.add(x, 1).and_then(|t| t.add(&Poly::lit(1), -1)),
            None => Some(p.clone()),
        };
        // The driver only allocates: a negative subscript is the program's own fault there.
        let lo_ok = self.mode == Mode::Cover || self.min_nonneg(&p);
        match (lo_ok, top.and_then(|t| self.maxima(t))) {
            (true, Some(hs)) => self.his.extend(hs),
            _ => self.lost = true,
        }
    }

    /// `ptr`, `ptr + k`, `ptr + k + j`, `&ptr[k]`, `&(ptr[k])`: the terms of the offset
    /// (none for `ptr` itself), or `None` when `e` is not an address into `ptr`.
    pub(super) fn address(&self, e: ExprId) -> Option<Vec<ExprId>> {
        match &self.u.exprs[e] {
            _ if self.is_ptr(e) => Some(Vec::new()),
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => self.address(*a),
            Expr::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                if let Some(mut t) = self.address(*lhs) {
                    t.push(*rhs);
                    Some(t)
                } else {
                    let mut t = self.address(*rhs)?;
                    t.push(*lhs);
                    Some(t)
                }
            }
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let mut a = *arg;
                while let Expr::Paren(x) = self.u.exprs[a] {
                    a = x;
                }
                match &self.u.exprs[a] {
                    Expr::Index { base, subs } => match subs.as_slice() {
                        [Subscript::Index(i)] => {
                            let mut t = self.address(*base)?;
                            t.push(*i);
                            Some(t)
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether the target `w` of an assignment is an element of `ptr->member`.
    pub(super) fn writes_member(&self, mut w: ExprId) -> bool {
        while let Expr::Paren(a) = self.u.exprs[w] {
            w = a;
        }
        match &self.u.exprs[w] {
            Expr::Index { base, .. } => self.is_ptr(*base),
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => self.address(*arg).is_some(),
            _ => false,
        }
    }

    /// A call passing an address into `ptr` as argument `k`: what the callee needs of that
    /// parameter, its parameters replaced by the actual arguments.
    pub(super) fn call(&mut self, callee: ExprId, args: &[Arg]) {
        // Member mode: the callee might write the member's pointee.
        if self.member.is_some() && args.iter().any(|a| self.address(a.value).is_some()) {
            self.lost = true;
            return;
        }
        for (k, a) in args.iter().enumerate() {
            let Some(off) = self.address(a.value) else {
                self.expr(a.value);
                continue;
            };
            for &o in &off {
                self.expr(o);
            }
            let target = match &self.u.exprs[callee] {
                Expr::Name(s) => definition(self.prog, *s),
                _ => None,
            };
            let need = target.and_then(|t| {
                let tu = &self.prog.units[t];
                let param = *tu.params.get(k)?;
                if tu.params.len() != args.len() {
                    return None;
                }
                let ext = infer(self.prog, self.macros, t, param, self.mode, self.busy)?;
                // The callee's parameters, as the caller's polynomials.
                let mut out = Vec::new();
                for count in &ext.0 {
                    let mut c = count.clone();
                    for (&fp, ap) in tu.params.iter().zip(args) {
                        if c.mentions(fp) {
                            c = c.subst(fp, &self.poly(ap.value)?)?;
                        }
                    }
                    // `m->rows` of a record parameter: what the caller knows of the member
                    // of the record it passes.
                    let vars: Vec<SymbolId> = c.0.keys().flatten().copied().collect();
                    for v in vars {
                        if !c.mentions(v) || self.loops.iter().any(|(l, _, _)| *l == v) {
                            continue;
                        }
                        let Some(k) = tu
                            .params
                            .iter()
                            .position(|&fp| record_member(self.prog, fp, v))
                        else {
                            continue;
                        };
                        let by = self.member_value(args[k].value, v)?;
                        c = c.subst(v, &by)?;
                    }
                    out.push(c);
                }
                Some(out)
            });
            match need {
                Some(ns) => {
                    for n in ns {
                        self.access(&off, Some(&n));
                    }
                }
                None => self.lost = true,
            }
        }
    }

    /// The pointer parameter `e` names (parentheses aside), never assigned here.
    pub(super) fn param_pointer(&self, mut e: ExprId) -> Option<SymbolId> {
        while let Expr::Paren(a) = self.u.exprs[e] {
            e = a;
        }
        match self.u.exprs[e] {
            Expr::Name(p) if self.u.params.contains(&p) && self.fixed.contains(&p) => Some(p),
            _ => None,
        }
    }

    /// Member `field` of the record the pointer parameter `p` points to, as a variable of
    /// the polynomials (validation driver only, [`Mode::Cover`]): an integer member that no
    /// statement of this procedure assigns (through any record), `p` the only parameter
    /// pointing to that record type (the member's symbol stands for `p->field`). A caller
    /// replaces it by what it knows of the member of its argument
    /// ([`Self::member_value`]).
    pub(super) fn member_var(&self, p: SymbolId, field: &str) -> Option<SymbolId> {
        let t = self.prog.symbols[p].ty.as_ref()?;
        let BaseClass::Record(td) = t.base else {
            return None;
        };
        if t.pointers != 1 {
            return None;
        }
        let f = member_symbol(self.prog, td, field)?;
        let ft = self.prog.symbols[f].ty.as_ref()?;
        if ft.base != BaseClass::Integer || ft.pointers > 0 || !ft.dims.is_empty() {
            return None;
        }
        let same_type = self
            .u
            .params
            .iter()
            .filter(|&&q| record_member(self.prog, q, f))
            .count();
        let assigned = self.u.stmts.iter().any(|(_, st)| {
            matches!(st.kind, StmtKind::Assign { lhs, .. }
                if matches!(&self.u.exprs[lhs], Expr::Field { field: g, .. } if g == field))
        }) || self.u.exprs.iter().any(|(_, e)| match e {
            Expr::Assign { lhs: a, .. } | Expr::IncDec { arg: a, .. } => {
                matches!(&self.u.exprs[*a], Expr::Field { field: g, .. } if g == field)
            }
            _ => false,
        });
        (same_type == 1 && !assigned).then_some(f)
    }

    /// Whether integer member `field` of the record the pointer parameter `p` points to can
    /// be a variable of the polynomials: no statement of this procedure assigns a member of
    /// that name ([`member_pointer_extent`](super::member_pointer_extent)).
    pub(super) fn own_member(&self, p: SymbolId, field: &str) -> Option<()> {
        let t = self.prog.symbols[p].ty.as_ref()?;
        let BaseClass::Record(td) = t.base else {
            return None;
        };
        if t.pointers != 1 || !t.dims.is_empty() {
            return None;
        }
        let f = member_symbol(self.prog, td, field)?;
        let ft = self.prog.symbols[f].ty.as_ref()?;
        if ft.base != BaseClass::Integer || ft.pointers > 0 || !ft.dims.is_empty() {
            return None;
        }
        let named =
            |a: ExprId| matches!(&self.u.exprs[a], Expr::Field { field: g, .. } if g == field);
        let assigned = self
            .u
            .stmts
            .iter()
            .any(|(_, st)| matches!(st.kind, StmtKind::Assign { lhs, .. } if named(lhs)))
            || self.u.exprs.iter().any(|(_, e)| match e {
                Expr::Assign { lhs: a, .. } | Expr::IncDec { arg: a, .. } => named(*a),
                _ => false,
            });
        (!assigned).then_some(())
    }

    /// What this procedure knows of member `f` (a symbol of a record's fields) of the record
    /// argument `a` passes: `p->f` of its own record parameter `p` (a variable again), the
    /// value `s.f = e` gives it for `&s` (one top-level assignment), or the value the
    /// allocator gives it for a pointer set once from an allocator call
    /// (`m = get_new_matrix(r, c)`, `m->rows = r` there: `r`).
    pub(super) fn member_value(&self, mut a: ExprId, f: SymbolId) -> Option<Poly> {
        let u = self.u;
        while let Expr::Paren(x) | Expr::Cast { arg: x, .. } = u.exprs[a] {
            a = x;
        }
        let field = self.prog.symbols[f].spelling.clone();
        let named = |e: ExprId, s: SymbolId| {
            let mut e = e;
            while let Expr::Paren(x) = u.exprs[e] {
                e = x;
            }
            matches!(u.exprs[e], Expr::Name(x) if x == s)
        };
        match &u.exprs[a] {
            Expr::Name(q) if u.params.contains(q) => {
                let p = self.param_pointer(a)?;
                (self.member_var(p, &field)? == f).then(|| Poly::var(f))
            }
            Expr::Name(q) => {
                // A local pointer set once, from an allocator call.
                let mut sets = Vec::new();
                for (sid, st) in u.stmts.iter() {
                    match &st.kind {
                        StmtKind::Assign { lhs, rhs, .. } if named(*lhs, *q) => {
                            sets.push((sid, *rhs))
                        }
                        StmtKind::Decl(Decl::Var(v)) => {
                            for e in &v.entities {
                                if let (true, Some(Init::Expr(i))) = (e.sym == *q, &e.init) {
                                    sets.push((sid, *i));
                                }
                            }
                        }
                        _ => {}
                    }
                }
                let [(_, rhs)] = sets[..] else {
                    return None;
                };
                let mut r = rhs;
                while let Expr::Paren(x) | Expr::Cast { arg: x, .. } = u.exprs[r] {
                    r = x;
                }
                let Expr::Call { callee, args } = &u.exprs[r] else {
                    return None;
                };
                let Expr::Name(fs) = u.exprs[*callee] else {
                    return None;
                };
                let d = definition(self.prog, fs)?;
                crate::alloc::allocator(self.prog, d)?;
                let du = &self.prog.units[d];
                // `p->field = e` in the allocator, `e` over its parameters.
                let e = du.body.iter().find_map(|&s| match &du.stmts[s].kind {
                    StmtKind::Assign { lhs, rhs, op: None } => match &du.exprs[*lhs] {
                        Expr::Field { field: g, .. } if *g == field => Some(*rhs),
                        _ => None,
                    },
                    _ => None,
                })?;
                let mut busy = HashSet::new();
                let w = Walk {
                    prog: self.prog,
                    macros: self.macros,
                    u: du,
                    ptr: f,
                    mode: self.mode,
                    fixed: fixed_params(du),
                    loops: Vec::new(),
                    cond: 0,
                    his: Vec::new(),
                    lost: false,
                    busy: &mut busy,
                    member: None,
                    others: Default::default(),
                };
                let mut v = w.poly(e)?;
                for (&fp, ap) in du.params.iter().zip(args) {
                    if v.mentions(fp) {
                        v = v.subst(fp, &self.poly(ap.value)?)?;
                    }
                }
                Some(v)
            }
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let Expr::Name(s) = u.exprs[*arg] else {
                    return None;
                };
                // `s.field = e` once, at the top level, `e` over fixed parameters.
                let mut vals = Vec::new();
                for (sid, st) in u.stmts.iter() {
                    if let StmtKind::Assign { lhs, rhs, .. } = &st.kind {
                        if let Expr::Field { base, field: g, .. } = &u.exprs[*lhs] {
                            if *g == field && named(*base, s) {
                                vals.push((sid, *rhs));
                            }
                        }
                    }
                }
                let [(sid, e)] = vals[..] else {
                    return None;
                };
                if !u.body.contains(&sid) {
                    return None;
                }
                let v = self.poly(e)?;
                (!self.loops.iter().any(|(l, _, _)| v.mentions(*l))).then_some(v)
            }
            _ => None,
        }
    }

    pub(super) fn expr(&mut self, e: ExprId) {
        if self.lost {
            return;
        }
        match &self.u.exprs[e] {
            Expr::Name(s) if *s == self.ptr => self.lost = true,
            // Member mode: `ptr->rows` is read as it is; `ptr->data` not indexed escapes.
            Expr::Field { .. } if self.member.is_some() && self.ptr_member(e).is_some() => {
                if self.is_ptr(e) {
                    self.lost = true;
                }
            }
            // Member mode: the member's pointee is read only (its size is that of a block
            // of zeros the caller makes).
            Expr::Assign { lhs: w, .. } | Expr::IncDec { arg: w, .. }
                if self.member.is_some() && self.writes_member(*w) =>
            {
                self.lost = true
            }
            Expr::Index { base, subs } if self.is_ptr(*base) => match subs.as_slice() {
                [Subscript::Index(i)] => {
                    self.access(&[*i], None);
                    self.expr(*i);
                }
                _ => self.lost = true,
            },
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } if self.address(*arg).is_some() => {
                let off = self.address(*arg).unwrap_or_default();
                self.access(&off, None);
                for o in off {
                    self.expr(o);
                }
            }
            Expr::Call { callee, args } => {
                let args = args.clone();
                self.call(*callee, &args);
            }
            // `&ptr[k]` anywhere but as an argument: the address escapes.
            Expr::Unary {
                op: UnOp::AddrOf, ..
            } if self.address(e).is_some() => self.lost = true,
            other => expr_children(other, &mut |c| self.expr(c)),
        }
    }

    /// The counter and first and last values of `for (i = a; i < b; i++)` (also `<=`,
    /// `i += 1`, and the descending `i >= b; i--`; in [`Mode::Cover`] also `i += k`, whose
    /// last value is at most `b - 1`).
    pub(super) fn for_range(
        &self,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: &[StmtId],
    ) -> Option<(SymbolId, Poly, Poly)> {
        let u = self.u;
        let named = |e: ExprId, s: SymbolId| matches!(u.exprs[e], Expr::Name(x) if x == s);
        let (var, start) = match &u.stmts[init?].kind {
            StmtKind::Assign { lhs, op: None, rhs } => match u.exprs[*lhs] {
                Expr::Name(s) => (s, *rhs),
                _ => return None,
            },
            StmtKind::Expr(e) => match &u.exprs[*e] {
                Expr::Assign { op: None, lhs, rhs } => match u.exprs[*lhs] {
                    Expr::Name(s) => (s, *rhs),
                    _ => return None,
                },
                _ => return None,
            },
            StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 => match v.entities[0].init {
                Some(Init::Expr(x)) => (v.entities[0].sym, x),
                _ => return None,
            },
            _ => return None,
        };
        let up = match &u.exprs[step?] {
            Expr::IncDec { inc, arg, .. } if named(*arg, var) => *inc,
            Expr::Assign {
                op: Some(op),
                lhs,
                rhs,
            } if named(*lhs, var)
                && matches!(&u.exprs[*rhs], Expr::Literal(l) if l.text == "1"
                    || (self.mode == Mode::Cover && l.kind == LitKind::Int
                        && l.text.parse::<i64>().is_ok_and(|k| k > 1))) =>
            {
                match op {
                    BinOp::Add => true,
                    BinOp::Sub => false,
                    _ => return None,
                }
            }
            _ => return None,
        };
        // The body must not change the counter.
        let mut writes = false;
        let mut todo: Vec<StmtId> = body.to_vec();
        while let Some(s) = todo.pop() {
            if let StmtKind::Assign { lhs, .. } = &u.stmts[s].kind {
                writes |= named(*lhs, var);
            }
            stmt_children(
                &u.stmts[s].kind,
                &mut |e| {
                    let mut es = vec![e];
                    while let Some(x) = es.pop() {
                        match &u.exprs[x] {
                            Expr::Assign { lhs: a, .. }
                            | Expr::IncDec { arg: a, .. }
                            | Expr::Unary {
                                op: UnOp::AddrOf,
                                arg: a,
                            } => writes |= named(*a, var),
                            _ => {}
                        }
                        expr_children(&u.exprs[x], &mut |c| es.push(c));
                    }
                },
                &mut |c| todo.push(c),
            );
        }
        if writes {
            return None;
        }
        let Expr::Binary { op, lhs, rhs } = &u.exprs[cond?] else {
            return None;
        };
        if !named(*lhs, var) {
            return None;
        }
        let a = self.poly(start)?;
        let b = self.poly(*rhs)?;
        let one = Poly::lit(1);
        match (up, op) {
            (true, BinOp::Lt(_)) => Some((var, a, b.add(&one, -1)?)),
            (true, BinOp::Le(_)) => Some((var, a, b)),
            (false, BinOp::Gt(_)) => Some((var, b.add(&one, 1)?, a)),
            (false, BinOp::Ge(_)) => Some((var, b, a)),
            _ => None,
        }
    }

    pub(super) fn stmt(&mut self, s: StmtId) {
        if self.lost {
            return;
        }
        match &self.u.stmts[s].kind {
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                if let Some(i) = init {
                    self.stmt(*i);
                }
                for e in cond.iter().chain(step.iter()) {
                    self.expr(*e);
                }
                match self.for_range(*init, *cond, *step, body) {
                    Some(r) => {
                        self.loops.push(r);
                        for &b in body {
                            self.stmt(b);
                        }
                        self.loops.pop();
                    }
                    None => {
                        // A loop whose range is unknown: its counter is no loop counter,
                        // and its body may not run.
                        self.cond += 1;
                        for &b in body {
                            self.stmt(b);
                        }
                        self.cond -= 1;
                    }
                }
            }
            StmtKind::Assign { lhs, .. } if self.member.is_some() && self.writes_member(*lhs) => {
                self.lost = true
            }
            StmtKind::Decl(d) => decl_exprs(d, &mut |e| self.expr(e)),
            StmtKind::Call { callee, args, .. } => {
                let args = args.clone();
                self.call(*callee, &args);
            }
            k @ (StmtKind::If { .. }
            | StmtKind::Switch { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }) => {
                let mut subs = Vec::new();
                stmt_children(k, &mut |e| self.expr(e), &mut |c| subs.push(c));
                self.cond += 1;
                for c in subs {
                    self.stmt(c);
                }
                self.cond -= 1;
            }
            k => {
                let mut subs = Vec::new();
                stmt_children(k, &mut |e| self.expr(e), &mut |c| subs.push(c));
                for c in subs {
                    self.stmt(c);
                }
            }
        }
    }
}
