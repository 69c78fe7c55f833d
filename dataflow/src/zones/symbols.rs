//! Facts about symbols and expressions the zone builder reads: whether a base class carries
//! derivatives, a variable's byte size and constant value, whether it is a pointer, the unit
//! a scope belongs to, the variable an expression designates (`base_symbol`), and the
//! allocation statements of a unit (`malloc`-family calls, `ALLOCATE` of pointers). No zone
//! numbering here.

use radtap_il::{
    BaseClass, Decl, Dim, DimUpper, Expr, ExprId, Init, Lang, LitKind, Program, ScopeId, StmtKind,
    SymbolId, SymbolKind, UnitId,
};

/// Whether values of this base class carry derivatives.
pub fn is_diff_base(b: BaseClass) -> bool {
    matches!(b, BaseClass::Real | BaseClass::Complex)
}

/// The unit owning a scope (walking out of BLOCK scopes).
pub fn unit_of_scope(prog: &Program, s: ScopeId) -> Option<UnitId> {
    prog.unit_of_scope(s)
}

/// A named constant: a Fortran PARAMETER or C enumerator. C `const` objects are variables
/// that are never written after their initialisation (`const double u = t*t;`).
pub(crate) fn named_constant(prog: &Program, s: SymbolId) -> bool {
    let sd = &prog.symbols[s];
    sd.kind == SymbolKind::Constant
        || (sd.attrs.constant
            && unit_of_scope(prog, sd.scope).is_none_or(|u| prog.units[u].lang == Lang::Fortran))
}

/// Integer value of a constant expression of `unit` (literals, PARAMETERs, + - * /).
pub fn const_int(prog: &Program, unit: UnitId, e: ExprId, depth: u32) -> Option<i64> {
    if depth > 32 {
        return None;
    }
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Literal(l) if l.kind == LitKind::Int => {
            let t = l
                .text
                .split('_')
                .next()?
                .trim_end_matches(['u', 'U', 'l', 'L']);
            t.parse().ok()
        }
        Expr::Paren(a) => const_int(prog, unit, *a, depth + 1),
        Expr::Unary {
            op: radtap_il::UnOp::Neg,
            arg,
        } => const_int(prog, unit, *arg, depth + 1).map(|v| -v),
        Expr::Binary { op, lhs, rhs } => {
            let a = const_int(prog, unit, *lhs, depth + 1)?;
            let b = const_int(prog, unit, *rhs, depth + 1)?;
            use radtap_il::BinOp::*;
            match op {
                Add => a.checked_add(b),
                Sub => a.checked_sub(b),
                Mul => a.checked_mul(b),
                Div if b != 0 => Some(a / b),
                _ => None,
            }
        }
        Expr::Name(s) => {
            let sd = &prog.symbols[*s];
            if !(sd.attrs.constant || sd.kind == SymbolKind::Constant) {
                return None;
            }
            let owner = unit_of_scope(prog, sd.scope)?;
            let (iu, ie) = constant_init(prog, owner, *s)?;
            const_int(prog, iu, ie, depth + 1)
        }
        _ => None,
    }
}

fn constant_init(prog: &Program, unit: UnitId, s: SymbolId) -> Option<(UnitId, ExprId)> {
    for d in &prog.units[unit].decls {
        match d {
            Decl::Parameter(items) => {
                if let Some((_, e)) = items.iter().find(|(x, _)| *x == s) {
                    return Some((unit, *e));
                }
            }
            Decl::Var(v) => {
                for ent in &v.entities {
                    if ent.sym == s {
                        if let Some(Init::Expr(e)) = ent.init {
                            return Some((unit, e));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Number of elements of a symbol's dimensions when all are constant.
fn element_count(prog: &Program, unit: UnitId, dims: &[Dim]) -> Option<i64> {
    let mut n = 1i64;
    for d in dims {
        let DimUpper::Expr(up) = d.upper else {
            return None;
        };
        let hi = const_int(prog, unit, up, 0)?;
        let lo = match d.lower {
            Some(l) => const_int(prog, unit, l, 0)?,
            None => 1,
        };
        n = n.checked_mul((hi - lo + 1).max(0))?;
    }
    Some(n)
}
/// Bytes of a variable when its element size and extents are constant.
pub(super) fn sym_bytes(prog: &Program, s: SymbolId) -> Option<i64> {
    let sd = &prog.symbols[s];
    let ty = sd.ty.as_ref()?;
    let elem = ty.bytes? as i64;
    let unit = unit_of_scope(prog, sd.scope)?;
    Some(elem * element_count(prog, unit, &ty.dims)?)
}

pub(super) fn sym_differentiable(prog: &Program, s: SymbolId) -> bool {
    let sd = &prog.symbols[s];
    sd.ty
        .as_ref()
        .is_some_and(|t| is_diff_base(t.base) && t.pointers == 0 && !sd.attrs.pointer)
}

/// Whether `s` holds an address: a C pointer, or a Fortran POINTER.
pub fn is_pointer(prog: &Program, s: SymbolId) -> bool {
    let sd = &prog.symbols[s];
    sd.attrs.pointer || sd.ty.as_ref().is_some_and(|t| t.pointers > 0)
}

/// Allocation statements of a unit: `ALLOCATE` of pointers and C `malloc`-family calls.
pub(crate) fn allocation_sites(prog: &Program, unit: UnitId) -> Vec<(radtap_il::StmtId, SymbolId)> {
    let u = &prog.units[unit];
    let mut out = Vec::new();
    for (sid, st) in u.stmts.iter() {
        match &st.kind {
            StmtKind::Memory {
                op: radtap_il::MemOp::Allocate,
                items,
                ..
            } => {
                for &it in items {
                    if let Some(s) = base_symbol(prog, unit, it) {
                        if prog.symbols[s].attrs.pointer {
                            out.push((sid, s));
                        }
                    }
                }
            }
            StmtKind::Assign { lhs, rhs, .. } if is_alloc_call(prog, unit, *rhs) => {
                if let Some(s) = base_symbol(prog, unit, *lhs) {
                    out.push((sid, s));
                }
            }
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    if let Some(Init::Expr(i)) = e.init {
                        if is_alloc_call(prog, unit, i) {
                            out.push((sid, e.sym));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// `malloc(...)`, `calloc`, `realloc`, or a call to a C function that returns a block it
/// allocates (`radtap_il::alloc`), possibly under a cast.
pub(crate) fn is_alloc_call(prog: &Program, unit: UnitId, e: ExprId) -> bool {
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Cast { arg, .. } | Expr::Paren(arg) => is_alloc_call(prog, unit, *arg),
        Expr::Call { callee, .. } => match &u.exprs[*callee] {
            Expr::Name(s) => {
                matches!(
                    prog.name(*s),
                    "malloc" | "calloc" | "realloc" | "aligned_alloc"
                ) || radtap_il::alloc::allocator_call(prog, unit, e).is_some()
            }
            _ => false,
        },
        _ => false,
    }
}

/// `e` without the parentheses around it: `((p))` is `p` for every question asked of a
/// reference or an address.
pub(crate) fn strip_parens(prog: &Program, unit: UnitId, mut e: ExprId) -> ExprId {
    while let Expr::Paren(a) = &prog.units[unit].exprs[e] {
        e = *a;
    }
    e
}

/// Whether the C expression `e`, used as the base of `e[i]`, is a pointer value (its targets
/// are the memory indexed) rather than an array object (indexed in place): a pointer
/// variable, pointer arithmetic, a cast, an address, a call.
pub(crate) fn is_pointer_base(prog: &Program, unit: UnitId, e: ExprId) -> bool {
    match &prog.units[unit].exprs[strip_parens(prog, unit, e)] {
        Expr::Name(s) => prog.symbols[*s]
            .ty
            .as_ref()
            .is_some_and(|t| t.pointers > 0 && t.dims.is_empty()),
        Expr::Binary { .. }
        | Expr::Cast { .. }
        | Expr::Unary { .. }
        | Expr::Call { .. }
        | Expr::Cond { .. }
        | Expr::Assign { .. }
        | Expr::Comma(_) => true,
        _ => false,
    }
}

/// The variable at the root of a reference (`a` in `a(i)%b`).
pub fn base_symbol(prog: &Program, unit: UnitId, e: ExprId) -> Option<SymbolId> {
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Name(s) => Some(*s),
        Expr::Index { base, .. } | Expr::Field { base, .. } => base_symbol(prog, unit, *base),
        Expr::Paren(a) | Expr::Cast { arg: a, .. } => base_symbol(prog, unit, *a),
        // `*p`, and `*&x` / `*(&(x[i]))`: the address names the variable.
        Expr::Unary {
            op: radtap_il::UnOp::Deref | radtap_il::UnOp::AddrOf,
            arg,
        } => base_symbol(prog, unit, *arg),
        // C pointer arithmetic `x + i`, `i + x`, `x - i`: the operand that is an address.
        Expr::Binary {
            op: op @ (radtap_il::BinOp::Add | radtap_il::BinOp::Sub),
            lhs,
            rhs,
        } => {
            let is_addr = |s: &SymbolId| {
                prog.symbols[*s]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0 || !t.dims.is_empty())
            };
            base_symbol(prog, unit, *lhs).filter(is_addr).or_else(|| {
                (*op == radtap_il::BinOp::Add)
                    .then(|| base_symbol(prog, unit, *rhs).filter(is_addr))
                    .flatten()
            })
        }
        _ => None,
    }
}
