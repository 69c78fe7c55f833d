//! Buffer rotations: local C pointers that take turns on blocks they allocated once
//! (the time-step idiom `tmp = u; u = unew; unew = tmp;`).
//!
//! The points-to sets are flow-insensitive: after a swap both `u` and `unew` may point to
//! either block, so a call `step(u, unew)` looked like two arguments that may share memory,
//! and neither pointer had one element count. A rotation group carries the relational fact
//! the sets cannot: its members are pointers that
//! - are declared in the function (not parameters, not `static`), their address never taken;
//! - are each assigned exactly once outside rotations, from `malloc`/`calloc` or an
//!   allocator of the program, in a statement at the top level of the body that comes
//!   before every rotation;
//! - are otherwise assigned only by rotations: consecutive statements of one block
//!   `t = x1; x1 = x2; …; xk = t;` (the first may be the declaration `T *t = x1;`), none
//!   labelled but the first (a jump into it would run part of it), with `x1 … xk` distinct
//!   members and `t` none.
//!
//! A rotation permutes the members' values, so once the allocations have run the members
//! designate pairwise distinct blocks, each one of the group's allocations, for the rest of
//! the function (until a `free`, after which a valid program does not use them).

use radtap_il::directives::for_each_block;
use radtap_il::{Decl, Expr, ExprId, Init, Program, StmtId, StmtKind, SymbolId, UnOp, UnitId};
use std::collections::BTreeMap;

/// One group of pointers that rotate over the blocks they allocated (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rotation {
    /// The members with the statement allocating each one's first block, in symbol order.
    pub members: Vec<(SymbolId, StmtId)>,
    /// Every statement of the group's rotations.
    pub swaps: Vec<StmtId>,
    /// The rotations themselves.
    pub cycles: Vec<Cycle>,
}

/// One rotation `t = x1; x1 = x2; …; xk = t;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// `t`.
    pub temp: SymbolId,
    /// `x1 … xk`.
    pub chain: Vec<SymbolId>,
    /// Its `k + 1` statements, in order.
    pub stmts: Vec<StmtId>,
    /// Whether `t` is named nowhere but in the first and last statements of rotations: its
    /// value before a rotation is then never needed, and an adjoint undoes the rotation by
    /// running it backwards (`t = xk; xk = x(k-1); …; x1 = t`) instead of recording the
    /// pointers.
    pub temp_only_rotates: bool,
}

impl Rotation {
    /// The cycle holding statement `s`, with the index of `s` in it.
    pub fn cycle_of(&self, s: StmtId) -> Option<(&Cycle, usize)> {
        self.cycles
            .iter()
            .find_map(|c| c.stmts.iter().position(|&t| t == s).map(|i| (c, i)))
    }
    /// Whether `s` is a member.
    pub fn has(&self, s: SymbolId) -> bool {
        self.members.iter().any(|&(m, _)| m == s)
    }
}

/// The rotation groups of C function `unit`; `is_alloc_call` tells the expressions that
/// allocate a fresh block.
pub fn find(prog: &Program, unit: UnitId, is_alloc_call: &dyn Fn(ExprId) -> bool) -> Vec<Rotation> {
    let u = &prog.units[unit];
    if u.lang != radtap_il::Lang::C {
        return Vec::new();
    }
    let name_of = |mut e: ExprId| {
        while let Expr::Paren(a) = &u.exprs[e] {
            e = *a;
        }
        match &u.exprs[e] {
            Expr::Name(s) => Some(*s),
            _ => None,
        }
    };
    // Rotations: (temporary, members in order, statements).
    let mut rotations: Vec<(SymbolId, Vec<SymbolId>, Vec<StmtId>)> = Vec::new();
    for_each_block(u, &mut |b| {
        for i in 0..b.len() {
            let first = match &u.stmts[b[i]].kind {
                StmtKind::Assign {
                    lhs, rhs, op: None, ..
                } => name_of(*lhs).zip(name_of(*rhs)),
                StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 => match v.entities[0].init {
                    Some(Init::Expr(e)) => name_of(e).map(|x| (v.entities[0].sym, x)),
                    _ => None,
                },
                _ => None,
            };
            let Some((t, x1)) = first else { continue };
            let mut chain = vec![x1];
            let mut stmts = vec![b[i]];
            for &s in &b[i + 1..] {
                // A jump to a label inside would run part of the rotation only.
                if u.stmts[s].label.is_some() {
                    break;
                }
                let StmtKind::Assign {
                    lhs, rhs, op: None, ..
                } = &u.stmts[s].kind
                else {
                    break;
                };
                let (Some(l), Some(r)) = (name_of(*lhs), name_of(*rhs)) else {
                    break;
                };
                if Some(&l) != chain.last() {
                    break;
                }
                stmts.push(s);
                if r == t {
                    if chain.len() >= 2 && !chain[1..].contains(&x1) {
                        let mut sorted = chain.clone();
                        sorted.sort();
                        sorted.dedup();
                        if sorted.len() == chain.len() && !chain.contains(&t) {
                            rotations.push((t, chain.clone(), stmts.clone()));
                        }
                    }
                    break;
                }
                chain.push(r);
            }
        }
    });
    if rotations.is_empty() {
        return Vec::new();
    }
    let swaps: Vec<StmtId> = rotations.iter().flat_map(|r| r.2.iter().copied()).collect();
    let temps: Vec<SymbolId> = rotations.iter().map(|r| r.0).collect();
    // Candidates: members of some rotation that are never temporaries.
    let mut members: Vec<SymbolId> = rotations.iter().flat_map(|r| r.1.clone()).collect();
    members.sort();
    members.dedup();
    let declared_here = |s: SymbolId| {
        u.stmts.iter().any(|(_, st)| match &st.kind {
            StmtKind::Decl(Decl::Var(v)) => v.entities.iter().any(|e| e.sym == s),
            _ => false,
        })
    };
    let pointer_local = |s: SymbolId| {
        let sd = &prog.symbols[s];
        !temps.contains(&s)
            && !u.params.contains(&s)
            && !sd.attrs.save
            && sd
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers == 1 && t.dims.is_empty())
            && declared_here(s)
    };
    // Writes outside rotations, and writes no rotation explains.
    let mut alloc: BTreeMap<SymbolId, Vec<StmtId>> = BTreeMap::new();
    let mut bad: Vec<SymbolId> = members
        .iter()
        .copied()
        .filter(|&m| !pointer_local(m))
        .collect();
    for (sid, st) in u.stmts.iter() {
        if swaps.contains(&sid) {
            continue;
        }
        match &st.kind {
            StmtKind::Assign { lhs, rhs, op } => {
                if let Some(p) = name_of(*lhs).filter(|p| members.contains(p)) {
                    let fresh =
                        op.is_none() && is_alloc_call(*rhs) && !is_realloc(prog, unit, *rhs);
                    if fresh {
                        alloc.entry(p).or_default().push(sid);
                    } else {
                        bad.push(p);
                    }
                }
            }
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    if let (Some(Init::Expr(i)), true) = (&e.init, members.contains(&e.sym)) {
                        if is_alloc_call(*i) && !is_realloc(prog, unit, *i) {
                            alloc.entry(e.sym).or_default().push(sid);
                        } else {
                            bad.push(e.sym);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Writes inside expressions (`a = b = c`, `p++`) and addresses taken.
    for (_, e) in u.exprs.iter() {
        let target = match e {
            Expr::Assign { lhs, .. } => name_of(*lhs),
            Expr::IncDec { arg, .. } => name_of(*arg),
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => name_of(*arg),
            _ => None,
        };
        if let Some(p) = target.filter(|p| members.contains(p)) {
            bad.push(p);
        }
    }
    // A temporary named only where rotations set and read it.
    let only_rotates = |t: SymbolId| {
        let named = |e: &ExprId| name_of(*e) == Some(t);
        let mut inside = 0;
        for (_, _, stmts) in &rotations {
            for (k, &st) in stmts.iter().enumerate() {
                if let StmtKind::Assign { lhs, rhs, .. } = &u.stmts[st].kind {
                    let at = if k == 0 { lhs } else { rhs };
                    inside += usize::from(named(at));
                }
            }
        }
        let everywhere = u
            .exprs
            .iter()
            .filter(|(_, e)| matches!(e, Expr::Name(x) if *x == t))
            .count();
        everywhere == inside
    };
    // Position in the body of the top-level statement holding each swap.
    let top_of = |s: StmtId| u.body.iter().position(|&t| t == s || holds(u, t, s));
    let mut groups: Vec<Rotation> = Vec::new();
    // Members linked by a rotation form one group; a group with one bad member is dropped.
    let mut group_of: BTreeMap<SymbolId, usize> = BTreeMap::new();
    let mut sets: Vec<(Vec<SymbolId>, Vec<usize>)> = Vec::new();
    for (ri, (_, chain, _)) in rotations.iter().enumerate() {
        let joined: Vec<usize> = {
            let mut v: Vec<usize> = chain
                .iter()
                .filter_map(|m| group_of.get(m).copied())
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let (mut ms, mut ss) = (chain.clone(), vec![ri]);
        for &g in joined.iter().rev() {
            let (m, s) = std::mem::take(&mut sets[g]);
            ms.extend(m);
            ss.extend(s);
        }
        ms.sort();
        ms.dedup();
        let idx = sets.len();
        for &m in &ms {
            group_of.insert(m, idx);
        }
        sets.push((ms, ss));
    }
    for (ms, rs) in sets.into_iter().filter(|(m, _)| !m.is_empty()) {
        let cycles: Vec<Cycle> = rs
            .iter()
            .map(|&i| Cycle {
                temp: rotations[i].0,
                chain: rotations[i].1.clone(),
                stmts: rotations[i].2.clone(),
                temp_only_rotates: only_rotates(rotations[i].0),
            })
            .collect();
        let ss: Vec<StmtId> = cycles
            .iter()
            .flat_map(|c| c.stmts.iter().copied())
            .collect();
        if ms.iter().any(|m| bad.contains(m)) {
            continue;
        }
        let mut with_alloc = Vec::new();
        for &m in &ms {
            match alloc.get(&m).map(|v| &v[..]) {
                Some(&[a]) if u.body.contains(&a) => with_alloc.push((m, a)),
                _ => break,
            }
        }
        if with_alloc.len() != ms.len() {
            continue;
        }
        let last_alloc = with_alloc
            .iter()
            .filter_map(|&(_, a)| u.body.iter().position(|&t| t == a))
            .max();
        let after = ss
            .iter()
            .all(|&s| matches!((top_of(s), last_alloc), (Some(t), Some(l)) if t > l));
        if after {
            groups.push(Rotation {
                members: with_alloc,
                swaps: ss,
                cycles,
            });
        }
    }
    groups
}

/// Whether `e` calls `realloc` (its block may be the one it was given).
fn is_realloc(prog: &Program, unit: UnitId, e: ExprId) -> bool {
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Cast { arg, .. } | Expr::Paren(arg) => is_realloc(prog, unit, *arg),
        Expr::Call { callee, .. } => {
            matches!(&u.exprs[*callee], Expr::Name(s) if prog.name(*s) == "realloc")
        }
        _ => false,
    }
}

/// Whether statement `outer` holds `inner` in one of its blocks, at any depth.
fn holds(u: &radtap_il::UnitData, outer: StmtId, inner: StmtId) -> bool {
    let mut found = false;
    radtap_il::visit::stmt_children(&u.stmts[outer].kind, &mut |_| {}, &mut |c| {
        found |= c == inner || holds(u, c, inner);
    });
    found
}
