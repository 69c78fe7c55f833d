//! The element count of a pointer parameter from what its callers pass, and whether the
//! records a pointer designates were allocated by the program: both read the allocation
//! (`malloc(C * sizeof(T))`, `calloc`, an allocator whose count is its parameter) of a local
//! pointer assigned once, in the procedure or at every call of it.

use crate::*;

/// The element count of C pointer parameter `ptr` of `unit` from its callers: at every call
/// (there must be one at least; `unit` must not be called from outside, a head), the actual
/// is a local pointer of the caller assigned once, its address never taken, from
/// `malloc(C * sizeof(T))` or an allocator whose count is one of its parameters
/// (`get_matrix_array(bone_count)`), and one parameter `n` of `unit` that `unit` never
/// assigns receives `C` written the same at every call: the count is `n`'s name.
pub fn count_from_callers(prog: &Program, unit: UnitId, ptr: SymbolId) -> Option<String> {
    let u = &prog.units[unit];
    let k = u.params.iter().position(|&p| p == ptr)?;
    let mut param: Option<usize> = None;
    let (mut calls, mut ones) = (0, 0);
    for (cid, cu) in prog.units.iter() {
        if cu.lang != Lang::C {
            continue;
        }
        let mut sites: Vec<Vec<Arg>> = Vec::new();
        for (_, s) in cu.stmts.iter() {
            if let StmtKind::Call { callee, args, .. } = &s.kind {
                if crate::alloc::called_unit(prog, cid, *callee) == Some(unit) {
                    sites.push(args.clone());
                }
            }
        }
        for (_, e) in cu.exprs.iter() {
            if let Expr::Call { callee, args } = e {
                if crate::alloc::called_unit(prog, cid, *callee) == Some(unit)
                    && !sites
                        .iter()
                        .any(|s| s.first().map(|a| a.value) == args.first().map(|a| a.value))
                {
                    sites.push(args.clone());
                }
            }
        }
        // A reference to the procedure other than a call (a function pointer): unknown callers.
        let uname = u.name.map(|n| prog.symbols[n].spelling.as_str());
        let named = cu
            .exprs
            .iter()
            .filter(|(_, e)| {
                matches!(e, Expr::Name(s) if prog.symbols[*s].unit == Some(unit)
                    || Some(prog.symbols[*s].spelling.as_str()) == uname)
            })
            .count();
        if named > sites.len() {
            return None;
        }
        for args in sites {
            calls += 1;
            let a = args.get(k)?;
            let count = match local_block_count(prog, cid, a.value)? {
                Block::One => {
                    ones += 1;
                    continue;
                }
                Block::Count(c) => c,
            };
            let j = args.iter().enumerate().position(|(j, b)| {
                j != k && b.keyword.is_none() && crate::visit::same_expr(cu, b.value, count)
            })?;
            if param.is_some_and(|p| p != j) {
                return None;
            }
            param = Some(j);
        }
    }
    // One record at every call (`R = get_new_matrix(3, 3)`).
    if calls > 0 && ones == calls {
        return Some("1".into());
    }
    if ones > 0 {
        return None;
    }
    let j = param.filter(|_| calls > 0)?;
    let n = *u.params.get(j)?;
    let assigned = u.exprs.iter().any(|(_, e)| match e {
        Expr::Assign { lhs, .. } | Expr::IncDec { arg: lhs, .. } => {
            matches!(u.exprs[*lhs], Expr::Name(x) if x == n)
        }
        Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } => matches!(u.exprs[*arg], Expr::Name(x) if x == n),
        _ => false,
    }) || u.stmts.iter().any(|(_, s)| {
        matches!(&s.kind, StmtKind::Assign { lhs, .. } if matches!(u.exprs[*lhs], Expr::Name(x) if x == n))
    });
    let int = prog.symbols[n]
        .ty
        .as_ref()
        .is_some_and(|t| t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty());
    (!assigned && int).then(|| prog.symbols[n].spelling.clone())
}

/// The count `C` (an expression of `unit`) of the block the local pointer `e` designates,
/// assigned once from `malloc(C * sizeof(T))` / `calloc(C, sizeof(T))` or an allocator
/// whose block count is its parameter (the call's argument then).
enum Block {
    /// One record (`malloc(sizeof(T))`, or an allocator of one).
    One,
    /// `C` records, an expression of the caller.
    Count(ExprId),
}

fn local_block_count(prog: &Program, unit: UnitId, e: ExprId) -> Option<Block> {
    let u = &prog.units[unit];
    let Expr::Name(q) = u.exprs[strip_in(u, e)] else {
        return None;
    };
    local_sym_block(prog, unit, q)
}

/// Whether the records pointer `p` of `unit` designates were allocated by the program: `p`
/// a local set once from an allocation, or a parameter (of a procedure that is not a head:
/// `head` false) every caller passes such a local ([`count_from_callers`]).
pub fn allocated_in_program(prog: &Program, unit: UnitId, p: SymbolId, head: bool) -> bool {
    if prog.units[unit].params.contains(&p) {
        !head && count_from_callers(prog, unit, p).is_some()
    } else {
        local_sym_block(prog, unit, p).is_some()
    }
}

fn local_sym_block(prog: &Program, unit: UnitId, q: SymbolId) -> Option<Block> {
    let u = &prog.units[unit];
    let strip = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
            _ => return e,
        }
    };
    if u.params.contains(&q) {
        return None;
    }
    let is_q = |x: ExprId| matches!(u.exprs[strip(x)], Expr::Name(v) if v == q);
    let mut sets = Vec::new();
    for (_, x) in u.exprs.iter() {
        match x {
            Expr::Assign { lhs, rhs, .. } if is_q(*lhs) => sets.push(*rhs),
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } if is_q(*arg) => return None,
            _ => {}
        }
    }
    for (_, s) in u.stmts.iter() {
        match &s.kind {
            StmtKind::Assign { lhs, rhs, .. } if is_q(*lhs) => sets.push(*rhs),
            StmtKind::Decl(Decl::Var(v)) => {
                for en in &v.entities {
                    if en.sym == q {
                        if let Some(Init::Expr(i)) = en.init {
                            sets.push(i);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    sets.dedup();
    let [rhs] = sets[..] else { return None };
    let Expr::Call { callee, args } = &u.exprs[strip(rhs)] else {
        return None;
    };
    let Expr::Name(f) = u.exprs[*callee] else {
        return None;
    };
    let size_of = |x: ExprId| matches!(u.exprs[strip(x)], Expr::SizeofType(_));
    match (prog.symbols[f].spelling.as_str(), &args[..]) {
        ("malloc", [a]) if size_of(a.value) => Some(Block::One),
        ("malloc", [a]) => match &u.exprs[strip(a.value)] {
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if size_of(*rhs) => Some(Block::Count(*lhs)),
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if size_of(*lhs) => Some(Block::Count(*rhs)),
            _ => None,
        },
        ("calloc", [n, s]) if size_of(s.value) => Some(Block::Count(n.value)),
        _ => {
            let (d, al) = crate::alloc::allocator_call(prog, unit, rhs)?;
            let du = &prog.units[d];
            if let Expr::Call { args: ba, .. } = &du.exprs[strip_in(du, al.block)] {
                if let [a] = &ba[..] {
                    if matches!(du.exprs[strip_in(du, a.value)], Expr::SizeofType(_)) {
                        return Some(Block::One);
                    }
                }
            }
            // The allocator's block: `malloc(count * sizeof(T))` with `count` a parameter.
            let block = local_alloc_count(du, al.block)?;
            let Expr::Name(p) = du.exprs[block] else {
                return None;
            };
            let i = du.params.iter().position(|&x| x == p)?;
            args.get(i).map(|a| Block::Count(a.value))
        }
    }
}

fn strip_in(u: &UnitData, mut e: ExprId) -> ExprId {
    loop {
        match &u.exprs[e] {
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
            _ => return e,
        }
    }
}

/// `C` of `malloc(C * sizeof(T))` / `calloc(C, sizeof(T))` (under casts) in `u`.
fn local_alloc_count(u: &UnitData, e: ExprId) -> Option<ExprId> {
    let strip = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
            _ => return e,
        }
    };
    let Expr::Call { args, .. } = &u.exprs[strip(e)] else {
        return None;
    };
    let size_of = |x: ExprId| matches!(u.exprs[strip(x)], Expr::SizeofType(_));
    match &args[..] {
        [a] => match &u.exprs[strip(a.value)] {
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if size_of(*rhs) => Some(strip(*lhs)),
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if size_of(*lhs) => Some(strip(*rhs)),
            _ => None,
        },
        [n, s] if size_of(s.value) => Some(strip(n.value)),
        _ => None,
    }
}
