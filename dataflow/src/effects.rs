//! What each point of a flow graph does to memory: the elementary facts every analysis
//! composes (paper §5.2: `use`, `out`, `kill`, `Dep(I)`, `Diff-dep(I)`, and the uses of the
//! derivative instruction `use(I')`).
//!
//! An assignment `t = e` writes the zones of `t`; it *kills* them when `t` is a whole
//! variable (or a whole field) and no WHERE mask applies. The new value of each written zone
//! depends on every zone `e` reads plus the zones used to address `t` (`Dep`), and in a
//! differentiable way on the differentiable zones `e` uses differentiably (`Diff-dep`):
//! indices, conditions, comparisons, integer conversions and `floor`/`int`/`nint` break the
//! chain (Fig. 9). For each differentiable source `x`, [`Effect::partials`] lists the zones
//! the partial derivative `∂e/∂x` reads (`b` for `a*b`, `a` for `sin(a)`, nothing for `a+b`):
//! they are `use(I')` when `x` is active, so a value used only linearly is never recorded.

use crate::zones::{is_pointer, ObjKey, ProcZones};
use crate::zoneset::{ZoneId, ZoneSet};
use crate::Env;
use radtap_flowgraph::{CallSite, Callee, FlowGraph, Part, Point};
use radtap_il::{
    BaseClass, BinOp, Decl, Expr, ExprId, Init, IoKind, Lang, MemOp, StmtKind, UnOp, UnitId,
};
use std::collections::{BTreeMap, HashMap};

mod calls;
pub(crate) mod io;
mod library;
mod refs;
mod types;

use types::*;
pub use types::{intrinsic_class, CallMap, Effect, IntrinsicClass};

/// Computes the effect of every point of `g`; `sites` are the unit's call sites.
pub(crate) fn point_effects(
    env: &Env<'_>,
    g: &FlowGraph,
    pz: &ProcZones,
    sites: &[CallSite],
) -> Vec<Effect> {
    let unit = g.unit;
    let u = &env.prog.units[unit];
    let mut by_expr: HashMap<radtap_il::ExprId, &CallSite> = HashMap::new();
    let mut by_stmt: HashMap<radtap_il::StmtId, &CallSite> = HashMap::new();
    for s in sites {
        match s.expr {
            Some(e) => {
                by_expr.insert(e, s);
            }
            None => {
                by_stmt.insert(s.stmt, s);
            }
        }
    }
    let mut out = Vec::new();
    for b in &g.blocks {
        for &p in &b.points {
            let mut ev = Eval {
                env,
                prog: env.prog,
                unit,
                u,
                pz,
                by_expr: &by_expr,
                eff: Effect {
                    reads: pz.empty(),
                    writes: pz.empty(),
                    kills: pz.empty(),
                    addr: pz.empty(),
                    ..Effect::default()
                },
                masked: g.is_masked(p.stmt),
                in_expr: false,
            };
            ev.point(p, by_stmt.get(&p.stmt).copied());
            ev.eff.sliceable = match u.stmts[p.stmt].kind {
                StmtKind::Assign { lhs, rhs, .. } => {
                    pure(u, &by_expr, env.free, lhs) && pure(u, &by_expr, env.free, rhs)
                }
                _ => false,
            };
            out.push(ev.eff);
        }
    }
    out
}

/// Whether evaluating `e` has no effect besides its value: no C assignment or increment
/// inside, no call to an external procedure or to one of the program outside `free`, no
/// library function that is not mathematical (Fortran intrinsic functions are all pure).
fn pure(
    u: &radtap_il::UnitData,
    calls: &HashMap<radtap_il::ExprId, &CallSite>,
    free: &std::collections::HashSet<UnitId>,
    e: radtap_il::ExprId,
) -> bool {
    let node = &u.exprs[e];
    match node {
        Expr::Assign { .. } | Expr::IncDec { .. } => return false,
        Expr::Call { .. } => {
            let ok = match calls.get(&e).map(|c| &c.callee) {
                None => true,
                Some(Callee::Intrinsic(r)) => u.lang == Lang::Fortran || c_math(*r),
                Some(Callee::Defined(cs)) => cs.iter().all(|c| free.contains(c)),
                Some(Callee::External(_)) => false,
            };
            if !ok {
                return false;
            }
        }
        _ => {}
    }
    let mut ok = true;
    radtap_il::visit::expr_children(node, &mut |k| ok &= pure(u, calls, free, k));
    ok
}

/// A C library function without side effects: `math.h` in its `double`, `f` and `l`
/// spellings and `abs`, `labs`, other than those storing through a pointer (`frexp`, `modf`,
/// `remquo`).
pub(crate) fn c_math(r: radtap_il::vocab::RoutineId) -> bool {
    use radtap_il::clib::CLibrary;
    let r = r.routine();
    r.library_kind() == Some(CLibrary::Math) && !r.signature().stores_through_pointer()
}

/// The zones a reference expression may touch (see [`crate::ProgramInfo::ref_zones`]).
pub(crate) fn reference_zones(
    env: &Env<'_>,
    unit: UnitId,
    pz: &ProcZones,
    e: radtap_il::ExprId,
) -> Option<ZoneSet> {
    let by_expr = HashMap::new();
    let mut ev = Eval {
        env,
        prog: env.prog,
        unit,
        u: &env.prog.units[unit],
        pz,
        by_expr: &by_expr,
        eff: Effect {
            reads: pz.empty(),
            writes: pz.empty(),
            kills: pz.empty(),
            addr: pz.empty(),
            ..Effect::default()
        },
        masked: false,
        in_expr: false,
    };
    let r = ev.reference(e, false)?;
    Some(ev.objs_zones(&r.objs))
}

impl Eval<'_> {
    /// The rule of each point kind.
    fn point(&mut self, p: Point, call: Option<&CallSite>) {
        let st = &self.u.stmts[p.stmt];
        match (&st.kind, p.part) {
            (StmtKind::Assign { lhs, op, rhs }, _) => {
                self.assign(*lhs, *op, *rhs);
            }
            (StmtKind::PointerAssign { lhs, rhs }, _) => {
                // The pointer's association changes: an address, never differentiable.
                let v = self.addr_value(*rhs);
                if let Some(r) = self.reference(*lhs, false) {
                    self.write(&r, &v.nondiff());
                }
            }
            (StmtKind::Call { args, .. }, _) => match call {
                // The call evaluates each argument as the callee takes it: a variable passed
                // by reference is read only if the callee reads it (its summary says), not
                // by being passed; function references inside arguments run as part of it.
                Some(site) => {
                    let _ = self.call(site, args, true);
                }
                None => {
                    for a in args {
                        self.side_effects_only(a.value);
                    }
                }
            },
            (StmtKind::Expr(e), _) => {
                let v = self.value(*e);
                self.eff.reads.union_with(&v.reads);
            }
            (StmtKind::Decl(d), _) => self.decl(d),
            (StmtKind::Memory { op, items, options }, _) => {
                for o in options {
                    let v = self.value(o.value);
                    self.eff.reads.union_with(&v.reads);
                }
                for &it in items {
                    let (obj, shape) = match &self.u.exprs[it] {
                        Expr::Index { base, subs } if *op == MemOp::Allocate => {
                            (*base, subs.clone())
                        }
                        _ => (it, Vec::new()),
                    };
                    for s in &shape {
                        let v = self.subscript(s);
                        self.eff.reads.union_with(&v);
                    }
                    // ALLOCATE/DEALLOCATE leave the contents undefined: a kill with no source.
                    if let Some(mut r) = self.reference(obj, true) {
                        r.total = true;
                        let v = Val {
                            reads: self.empty(),
                            diff: BTreeMap::new(),
                        };
                        self.write(&r, &v);
                    }
                }
            }
            (
                StmtKind::Io {
                    kind,
                    items,
                    control,
                },
                _,
            ) => {
                // Variables of the control list (an internal file, a unit number): read, and
                // what a READ stores depends on them.
                let ctl = self.control_reads(control);
                self.eff.reads.union_with(&ctl);
                for (o, total) in self.control_writes(*kind, control) {
                    let r = Ref {
                        objs: vec![o],
                        total,
                        addr: self.empty(),
                    };
                    // What it stores depends on the statement's data and control.
                    let mut reads = ctl.clone();
                    if *kind != IoKind::Read {
                        for &it in items {
                            reads.union_with(&self.value(it).reads);
                        }
                    }
                    let v = Val {
                        reads,
                        diff: BTreeMap::new(),
                    };
                    self.write(&r, &v);
                }
                for &it in items {
                    match kind {
                        IoKind::Read => {
                            if let Some(r) = self.reference(it, false) {
                                let mut reads = r.addr.clone();
                                reads.union_with(&ctl);
                                let v = Val {
                                    reads,
                                    diff: BTreeMap::new(),
                                };
                                self.write(&r, &v);
                            } else {
                                let v = self.value(it);
                                self.eff.reads.union_with(&v.reads);
                            }
                        }
                        _ => {
                            let v = self.value(it);
                            self.eff.reads.union_with(&v.reads);
                        }
                    }
                }
            }
            (StmtKind::Return(Some(e)), _) => {
                let v = self.value(*e);
                match self
                    .pz
                    .result
                    .and_then(|r| self.pz.objects.get(&ObjKey::Sym(r)))
                {
                    Some(o) => {
                        let r = Ref {
                            objs: vec![*o],
                            total: true,
                            addr: self.empty(),
                        };
                        self.write(&r, &v);
                    }
                    None => {
                        self.eff.reads.union_with(&v.reads);
                    }
                }
            }
            (StmtKind::Stop { code: Some(e), .. }, _) => {
                let v = self.value(*e);
                self.eff.reads.union_with(&v.reads);
            }
            (StmtKind::ComputedGoto { expr, .. }, _) | (StmtKind::ArithIf { expr, .. }, _) => {
                let v = self.value(*expr);
                self.eff.reads.union_with(&v.reads);
            }
            (StmtKind::If { arms, .. }, Part::Cond(i))
            | (StmtKind::Where { arms, .. }, Part::Cond(i)) => {
                let v = self.value(arms[i as usize].0);
                self.eff.reads.union_with(&v.reads);
            }
            (StmtKind::While { cond, .. }, _) | (StmtKind::DoWhile { cond, .. }, _) => {
                let v = self.value(*cond);
                self.eff.reads.union_with(&v.reads);
            }
            (StmtKind::CFor { cond, step, .. }, part) => {
                let e = if part == Part::LoopStep { *step } else { *cond };
                if let Some(e) = e {
                    let v = self.value(e);
                    self.eff.reads.union_with(&v.reads);
                }
            }
            (StmtKind::Select { selector: e, .. }, _) | (StmtKind::Switch { expr: e, .. }, _) => {
                let v = self.value(*e);
                self.eff.reads.union_with(&v.reads);
            }
            (
                StmtKind::Do {
                    var,
                    start,
                    end,
                    step,
                    ..
                },
                part,
            ) => {
                let mut v = match part {
                    Part::LoopInit => self.value(*start),
                    _ => self.value(*var),
                };
                v = v.union(self.value(*end));
                if let Some(s) = step {
                    v = v.union(self.value(*s));
                }
                // The loop counter is an index: its value never carries a derivative.
                let v = v.nondiff();
                if part == Part::LoopHead {
                    self.eff.reads.union_with(&v.reads);
                } else if let Some(r) = self.reference(*var, false) {
                    self.write(&r, &v);
                }
            }
            (StmtKind::Forall { specs, mask, .. }, _) => {
                for sp in specs {
                    let mut v = self.value(sp.lo).union(self.value(sp.hi));
                    if let Some(s) = sp.stride {
                        v = v.union(self.value(s));
                    }
                    if let Some(r) = self.reference(sp.var, false) {
                        self.write(&r, &v.nondiff());
                    }
                }
                if let Some(m) = mask {
                    let v = self.value(*m);
                    self.eff.reads.union_with(&v.reads);
                }
            }
            (StmtKind::Block { associations, .. }, _) => {
                for (name, sel) in associations {
                    // An associate name is a new variable holding the selector's value. A name
                    // that aliases a variable is NOT modelled as an alias (writes through it do
                    // not reach the variable), and names without zones of their own get no write
                    // here: the differentiators refuse ASSOCIATE with a selector that may carry
                    // derivatives (AD020, diff-tangent's refuse.rs).
                    if let Some(o) = self.pz.objects.get(&ObjKey::Sym(*name)).copied() {
                        let v = self.value(*sel);
                        let r = Ref {
                            objs: vec![o],
                            total: true,
                            addr: self.empty(),
                        };
                        self.write(&r, &v);
                    }
                }
            }
            // Points with no effect on memory.
            (StmtKind::If { .. }, _)
            | (StmtKind::Where { .. }, _)
            | (StmtKind::Loop { .. }, _)
            | (StmtKind::CaseLabel(_), _)
            | (StmtKind::Exit(_), _)
            | (StmtKind::Cycle(_), _)
            | (StmtKind::Break, _)
            | (StmtKind::CContinue, _)
            | (StmtKind::Goto(_), _)
            | (StmtKind::Return(None), _)
            | (StmtKind::Stop { code: None, .. }, _)
            | (StmtKind::Continue, _)
            | (StmtKind::Empty, _)
            | (StmtKind::Format(_), _)
            | (StmtKind::Entry { .. }, _)
            | (StmtKind::Comment(_), _) => {}
        }
    }

    fn decl(&mut self, d: &Decl) {
        let Decl::Var(v) = d else { return };
        for e in &v.entities {
            let Some(Init::Expr(i)) = e.init else {
                continue;
            };
            // A `static` (saved) local's initialiser runs once, before the program: no write.
            if self.prog.symbols[e.sym].attrs.save {
                continue;
            }
            let Some(o) = self.pz.objects.get(&ObjKey::Sym(e.sym)).copied() else {
                continue;
            };
            let val = if is_pointer(self.prog, e.sym) {
                self.addr_value(i).nondiff()
            } else {
                self.value(i)
            };
            let r = Ref {
                objs: vec![o],
                total: !self.pz.equivalenced.contains(&e.sym),
                addr: self.empty(),
            };
            self.write(&r, &val);
        }
    }

    /// The effect of `lhs (op)= rhs`; returns the value written (the value of the
    /// assignment as a C expression), when it is one value.
    fn assign(&mut self, lhs: ExprId, op: Option<BinOp>, rhs: ExprId) -> Option<Val> {
        let Some(r) = self.reference(lhs, false) else {
            let v = self.value(rhs);
            self.eff.reads.union_with(&v.reads);
            return Some(v);
        };
        // A whole record copied from a record of the same layout: field to field.
        if op.is_none() && r.total && r.objs.len() == 1 && r.objs[0].len > 1 {
            if let Some(src) = self.reference(rhs, false) {
                if src.objs.len() == 1 && src.objs[0].len == r.objs[0].len {
                    self.side_effects_only(rhs);
                    self.copy_fields(&r, &src);
                    return None;
                }
            }
        }
        // C `p = q` moves the pointer; Fortran `p = e` (p a POINTER) assigns its target.
        let ptr_lhs = self.u.lang == Lang::C
            && matches!(self.u.exprs[lhs], Expr::Name(s) if is_pointer(self.prog, s));
        let mut v = match (ptr_lhs, op) {
            // `p = q` moves to an address; `p -= off` by an integer (it read nothing).
            (true, None) => self.addr_value(rhs).nondiff(),
            (true, Some(_)) => self.value(rhs).nondiff(),
            (false, _) => self.value(rhs),
        };
        if let Some(op) = op {
            let old = self.ref_value(&r);
            v = self.binary(op, old, v);
            let mut r2 = r.clone();
            r2.total = false;
            self.write(&r2, &v);
            return Some(v);
        }
        self.write(&r, &v);
        Some(v)
    }

    fn copy_fields(&mut self, dst: &Ref, src: &Ref) {
        let (d, s) = (dst.objs[0], src.objs[0]);
        for k in 0..d.len {
            let t = ZoneId(d.start + k);
            let z = ZoneId(s.start + k);
            let mut reads = src.addr.clone();
            reads.insert(z);
            reads.union_with(&dst.addr);
            self.eff.reads.union_with(&reads);
            self.eff.writes.insert(t);
            if !self.masked {
                self.eff.kills.insert(t);
            }
            self.eff
                .dep
                .row_mut(t, || self.pz.empty())
                .union_with(&reads);
            if self.pz.differentiable.contains(t) && self.pz.differentiable.contains(z) {
                let mut one = self.pz.empty();
                one.insert(z);
                self.eff
                    .diff_dep
                    .row_mut(t, || self.pz.empty())
                    .union_with(&one);
                self.eff
                    .partials
                    .row_mut(z, || self.pz.empty())
                    .union_with(&src.addr);
            }
        }
        self.eff.addr.union_with(&dst.addr);
    }

    /// Evaluates `e` only for the side effects of calls and C assignments inside it.
    fn side_effects_only(&mut self, e: ExprId) {
        let v = self.value(e);
        self.eff.reads.union_with(&v.reads);
    }

    fn binary(&mut self, op: BinOp, a: Val, b: Val) -> Val {
        match op {
            BinOp::Add | BinOp::Sub => a.union(b),
            BinOp::Mul => {
                let (ra, rb) = (a.reads.clone(), b.reads.clone());
                a.with_uses(&rb).union(b.with_uses(&ra))
            }
            BinOp::Div => {
                let (ra, rb) = (a.reads.clone(), b.reads.clone());
                let mut both = ra.clone();
                both.union_with(&rb);
                a.with_uses(&rb).union(b.with_uses(&both))
            }
            BinOp::Pow => {
                let mut both = a.reads.clone();
                both.union_with(&b.reads);
                a.union(b).with_uses(&both)
            }
            BinOp::Rem
            | BinOp::Concat
            | BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
            | BinOp::And
            | BinOp::Or
            | BinOp::Eqv
            | BinOp::Neqv
            | BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::BitXor
            | BinOp::Shl
            | BinOp::Shr => a.union(b).nondiff(),
        }
    }
}

impl Values for Eval<'_> {
    /// The value of an expression, recording side effects of calls and C assignments.
    fn value(&mut self, e: ExprId) -> Val {
        let none = || Val::default();
        // Matched by reference: `u` outlives `self`'s borrow (cloning the node was one
        // allocation per literal and per call's arguments).
        let u = self.u;
        match &u.exprs[e] {
            Expr::Literal(_) | Expr::Opaque(_) | Expr::Intrinsic(_) | Expr::SizeofType(_) => Val {
                reads: self.empty(),
                ..none()
            },
            Expr::Name(s) => {
                if crate::zones::named_constant(self.prog, *s) {
                    return Val {
                        reads: self.empty(),
                        ..none()
                    };
                }
                match self.reference(e, false) {
                    Some(r) => self.ref_value(&r),
                    None => Val {
                        reads: self.empty(),
                        ..none()
                    },
                }
            }
            Expr::Index { .. } | Expr::Field { .. } => match self.reference(e, false) {
                Some(r) => self.ref_value(&r),
                None => {
                    // An element of memory without a zone (a named-constant table `wgk(jtw)`)
                    // still reads its subscripts: `jtw = 2*j` was sliced from the tangent
                    // and left unrecorded by the adjoint (QUADPACK's Gauss-Kronrod rules).
                    let mut reads = self.empty();
                    let mut at = e;
                    loop {
                        match &self.u.exprs[at] {
                            Expr::Index { base, subs } => {
                                let (base, subs) = (*base, subs.clone());
                                for s in &subs {
                                    let z = self.subscript(s);
                                    reads.union_with(&z);
                                }
                                at = base;
                            }
                            Expr::Field { base, .. } => at = *base,
                            _ => break,
                        }
                    }
                    Val { reads, ..none() }
                }
            },
            Expr::Unary { op, arg } => match op {
                UnOp::Neg | UnOp::Plus => self.value(*arg),
                UnOp::Not | UnOp::BitNot | UnOp::Sizeof => self.value(*arg).nondiff(),
                UnOp::AddrOf => self.addr_value(e),
                UnOp::Deref => {
                    let r = self.deref(*arg);
                    self.ref_value(&r)
                }
            },
            Expr::Binary { op, lhs, rhs } => {
                let a = self.value(*lhs);
                let b = self.value(*rhs);
                self.binary(*op, a, b)
            }
            Expr::Paren(a) => self.value(*a),
            Expr::Call { args, .. } => self.call_value(e, args),
            Expr::ArrayCtor { items, .. } | Expr::Comma(items) => {
                let mut v = Val {
                    reads: self.empty(),
                    ..none()
                };
                for &i in items {
                    v = v.union(self.value(i));
                }
                v
            }
            Expr::ImpliedDo {
                items,
                lo,
                hi,
                step,
                ..
            } => {
                let mut v = Val {
                    reads: self.empty(),
                    ..none()
                };
                for &i in items {
                    v = v.union(self.value(i));
                }
                let mut ctl = self.value(*lo).union(self.value(*hi)).nondiff();
                if let Some(s) = *step {
                    ctl = ctl.union(self.value(s)).nondiff();
                }
                v.union(ctl)
            }
            Expr::Cast { ty, arg } => {
                let v = self.value(*arg);
                let real = ty.derived.is_empty()
                    && matches!(ty.spec.class, BaseClass::Real | BaseClass::Complex);
                if real {
                    v
                } else {
                    v.nondiff()
                }
            }
            Expr::Cond { cond, then, else_ } => {
                let c = self.value(*cond).nondiff();
                let v = self.value(*then).union(self.value(*else_));
                let uses = c.reads.clone();
                v.with_uses(&uses).union(c)
            }
            Expr::Assign { op, lhs, rhs } => {
                // The value of `a = e` is the value written, not `a` before the statement
                // (the point's effect reads zones as they were before it).
                if let Some(v) = self.assign(*lhs, *op, *rhs) {
                    return v;
                }
                match self.reference(*lhs, false) {
                    Some(r) => self.ref_value(&r),
                    None => Val {
                        reads: self.empty(),
                        ..none()
                    },
                }
            }
            Expr::IncDec { arg, .. } => {
                let v = self.value(*arg);
                if let Some(mut r) = self.reference(*arg, true) {
                    r.total = false;
                    self.write(&r, &v);
                }
                v
            }
            Expr::CompoundLit { init, .. } => self.value(*init),
            Expr::Designated { value, .. } => self.value(*value),
        }
    }

    /// Records a write of value `v` into `r`.
    fn write(&mut self, r: &Ref, v: &Val) {
        self.eff.reads.union_with(&v.reads);
        self.eff.reads.union_with(&r.addr);
        self.eff.addr.union_with(&r.addr);
        let total = r.total && !self.masked && r.objs.len() == 1;
        let mut sources = v.reads.clone();
        sources.union_with(&r.addr);
        let mut dsrc = self.pz.empty();
        for (k, _) in v.diff.iter() {
            if self.pz.differentiable.contains(*k) {
                dsrc.insert(*k);
            }
        }
        for o in &r.objs {
            for z in o.start..o.start + o.len {
                let t = ZoneId(z);
                if self.pz.readonly.contains(t) {
                    continue;
                }
                self.eff.writes.insert(t);
                if total {
                    self.eff.kills.insert(t);
                }
                self.eff
                    .dep
                    .row_mut(t, || self.pz.empty())
                    .union_with(&sources);
                if self.pz.differentiable.contains(t) {
                    self.eff
                        .diff_dep
                        .row_mut(t, || self.pz.empty())
                        .union_with(&dsrc);
                }
            }
        }
        if r.objs
            .iter()
            .any(|o| (o.start..o.start + o.len).any(|z| self.pz.differentiable.contains(ZoneId(z))))
        {
            for (k, p) in &v.diff {
                if self.pz.differentiable.contains(*k) {
                    self.eff
                        .partials
                        .row_mut(*k, || self.pz.empty())
                        .union_with(p);
                }
            }
        }
    }
}
