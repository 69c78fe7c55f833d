//! Resolution of a Fortran generic call to its specific procedure by the types of the
//! actual arguments (type, kind, rank), as the compiler does. A generic whose specifics
//! cannot be told apart keeps all of them (the differentiators then refuse the call).

use radtap_il::{
    Arg, BaseClass, Decl, Expr, ExprId, Init, LitKind, Program, ScopeId, ScopeKind, Subscript,
    SymbolId, SymbolKind, UnitId,
};

/// What is known of an actual argument's type: class, bytes of one element (when known)
/// and rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ArgTy {
    base: BaseClass,
    bytes: Option<u32>,
    rank: usize,
}

/// The specifics of `candidates` that accept `args` as written in `unit`; when the types of
/// the actuals cannot tell them apart (or none matches), all of them.
pub(crate) fn filter_specifics(
    prog: &Program,
    unit: UnitId,
    args: &[Arg],
    candidates: Vec<UnitId>,
) -> Vec<UnitId> {
    if candidates.len() < 2 {
        return candidates;
    }
    let tys: Vec<Option<ArgTy>> = args.iter().map(|a| arg_ty(prog, unit, a.value)).collect();
    let fit: Vec<UnitId> = candidates
        .iter()
        .copied()
        .filter(|&c| accepts(prog, c, args, &tys))
        .collect();
    if fit.is_empty() {
        candidates
    } else {
        fit
    }
}

/// Whether specific `c` accepts actuals of types `tys` (unknown types are accepted).
fn accepts(prog: &Program, c: UnitId, args: &[Arg], tys: &[Option<ArgTy>]) -> bool {
    let cu = &prog.units[c];
    if args.len() > cu.params.len() {
        return false;
    }
    for (i, (a, t)) in args.iter().zip(tys).enumerate() {
        let formal = match &a.keyword {
            Some(k) => cu
                .params
                .iter()
                .copied()
                .find(|&p| prog.symbols[p].spelling.eq_ignore_ascii_case(k)),
            None => cu.params.get(i).copied(),
        };
        let Some(f) = formal else { return false };
        let (Some(t), Some(ft)) = (t, prog.symbols[f].ty.as_ref()) else {
            continue;
        };
        if !same_class(t.base, ft.base) || t.rank != ft.dims.len() {
            return false;
        }
        if let (Some(a), Some(b)) = (t.bytes, ft.bytes) {
            if a != b {
                return false;
            }
        }
    }
    true
}

fn same_class(a: BaseClass, b: BaseClass) -> bool {
    match (a, b) {
        (BaseClass::Record(_), BaseClass::Record(_)) => true,
        _ => a == b,
    }
}

/// The type of an actual argument, when it can be told from the expression alone.
fn arg_ty(prog: &Program, unit: UnitId, e: ExprId) -> Option<ArgTy> {
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Literal(l) => {
            let t = l.text.to_ascii_lowercase();
            // `0.5_dp`: the kind named by a constant (of a module, maybe an intrinsic one).
            let suffix = t
                .rsplit_once('_')
                .and_then(|(_, k)| literal_kind(prog, u.scope, k));
            let (base, bytes) = match l.kind {
                LitKind::Int => (
                    BaseClass::Integer,
                    if t.contains('_') { suffix } else { Some(4) },
                ),
                LitKind::Real => {
                    let bytes = if t.contains('_') {
                        suffix
                    } else if t.contains('d') {
                        Some(8)
                    } else {
                        Some(4)
                    };
                    (BaseClass::Real, bytes)
                }
                LitKind::Logical => (BaseClass::Logical, None),
                LitKind::Str => (BaseClass::Character, None),
                LitKind::Complex => (BaseClass::Complex, None),
                _ => return None,
            };
            Some(ArgTy {
                base,
                bytes,
                rank: 0,
            })
        }
        Expr::Name(s) => {
            let t = prog.symbols[*s].ty.as_ref()?;
            Some(ArgTy {
                base: t.base,
                bytes: t.bytes,
                rank: t.dims.len(),
            })
        }
        Expr::Index { base, subs } => {
            let Expr::Name(s) = &u.exprs[*base] else {
                return None;
            };
            let t = prog.symbols[*s].ty.as_ref()?;
            if t.base == BaseClass::Character && t.dims.is_empty() {
                return None;
            }
            Some(ArgTy {
                base: t.base,
                bytes: t.bytes,
                rank: subs
                    .iter()
                    .filter(|s| matches!(s, Subscript::Range(..)))
                    .count(),
            })
        }
        Expr::Paren(a) | Expr::Unary { arg: a, .. } => arg_ty(prog, unit, *a),
        Expr::Call { callee, args } => {
            let Expr::Name(f) = &u.exprs[*callee] else {
                return None;
            };
            let fs = &prog.symbols[*f];
            let name = fs.spelling.to_ascii_lowercase();
            if fs.kind == SymbolKind::Intrinsic {
                // Elemental intrinsics whose result has the type of their first argument.
                let r = radtap_il::vocab::library_routine(u.lang, &fs.spelling);
                if r.is_some_and(|r| r.routine().has(radtap_il::vocab::SAME_TYPE)) {
                    return arg_ty(prog, unit, args.first()?.value);
                }
                // Conversions to real: `dble(x)`, `real(x, wp)` (kind as a named constant
                // or a literal).
                let rank = arg_ty(prog, unit, args.first()?.value).map(|t| t.rank);
                let bytes = match (name.as_str(), args.as_slice()) {
                    ("dble", [_]) => Some(8),
                    ("real", [_, k]) => match &u.exprs[k.value] {
                        Expr::Name(c) => const_value(prog, *c, 0).map(|v| v as u32),
                        Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok(),
                        _ => None,
                    },
                    _ => None,
                };
                return bytes.map(|b| ArgTy {
                    base: BaseClass::Real,
                    bytes: Some(b),
                    rank: rank.unwrap_or(0),
                });
            }
            let t = match fs.unit.and_then(|d| prog.units[d].result) {
                Some(r) => prog.symbols[r].ty.as_ref()?,
                None if fs.kind == SymbolKind::Procedure => fs.ty.as_ref()?,
                None => return None,
            };
            Some(ArgTy {
                base: t.base,
                bytes: t.bytes,
                rank: t.dims.len(),
            })
        }
        Expr::Binary { op, lhs, rhs } => {
            use radtap_il::BinOp::*;
            if !matches!(op, Add | Sub | Mul | Div | Pow) {
                return None;
            }
            let l = arg_ty(prog, unit, *lhs)?;
            let r = arg_ty(prog, unit, *rhs)?;
            let rank = l.rank.max(r.rank);
            if matches!(op, Pow) {
                return Some(ArgTy { rank, ..l });
            }
            match (l.base, r.base) {
                (BaseClass::Integer, BaseClass::Integer) | (BaseClass::Real, BaseClass::Real) => {
                    Some(ArgTy {
                        base: l.base,
                        bytes: match (l.bytes, r.bytes) {
                            (Some(a), Some(b)) => Some(a.max(b)),
                            _ => None,
                        },
                        rank,
                    })
                }
                (BaseClass::Real, BaseClass::Integer) => Some(ArgTy { rank, ..l }),
                (BaseClass::Integer, BaseClass::Real) => Some(ArgTy { rank, ..r }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The value of kind `k` written after `_` in a literal as seen from `scope`: digits, or a
/// named integer constant.
fn literal_kind(prog: &Program, scope: ScopeId, k: &str) -> Option<u32> {
    if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) {
        return k.parse().ok();
    }
    let s = prog.lookup(scope, k)?;
    const_value(prog, s, 0).and_then(|v| u32::try_from(v).ok())
}

/// The value of the integer named constant `s` when its initialisation is an integer literal
/// or another such constant (`integer, parameter :: wp = real64`).
fn const_value(prog: &Program, s: SymbolId, depth: u32) -> Option<i64> {
    let sd = &prog.symbols[s];
    if !(sd.kind == SymbolKind::Constant || sd.attrs.constant) || depth > 8 {
        return None;
    }
    let mut sc = sd.scope;
    let owner = loop {
        match prog.scopes[sc].kind {
            ScopeKind::Unit(u) => break u,
            ScopeKind::Type(_) | ScopeKind::Global => return None,
            ScopeKind::Block => sc = prog.scopes[sc].parent?,
        }
    };
    let u = &prog.units[owner];
    let init = u.decls.iter().find_map(|d| match d {
        Decl::Var(v) => v.entities.iter().find_map(|e| match (&e.init, e.sym == s) {
            (Some(Init::Expr(x)), true) => Some(*x),
            _ => None,
        }),
        Decl::Parameter(ps) => ps.iter().find_map(|(p, x)| (*p == s).then_some(*x)),
        _ => None,
    })?;
    match &u.exprs[init] {
        Expr::Literal(l) if l.kind == LitKind::Int && !l.text.contains('_') => l.text.parse().ok(),
        Expr::Name(c) => const_value(prog, *c, depth + 1),
        _ => None,
    }
}
