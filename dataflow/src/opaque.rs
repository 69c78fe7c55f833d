//! Real data an independent or dependent reaches only through an untyped pointer.
//!
//! The zones follow typed memory: a `void *` member (SUNDIALS' `N_Vector`, whose `content`
//! is cast to `N_VectorContent_Serial` to reach `data`) points to memory no zone models, so a
//! real read there is a constant to the analyses and a real write there is useful to none.
//! When the user names such a variable as an independent or a dependent, the derivative would
//! silently be zero: the head is refused at the cast instead (AD020), with what to do.

use radtap_il::{BaseClass, Code, Diagnostic, Expr, ExprId, Program, SymbolId, UnitId};

use crate::zones::{base_symbol, strip_parens};

/// The refusals for the independents and dependents `names` of `head` (as `-vars`/
/// `-outvars` spell them) whose real data the head reaches through a cast of a `void *`.
pub(crate) fn refusals(prog: &Program, head: UnitId, names: &[String]) -> Vec<Diagnostic> {
    let u = &prog.units[head];
    let mut named: Vec<(SymbolId, &str)> = Vec::new();
    for n in names {
        let base = n.split(['(', '%', '.', '[', '-']).next().unwrap_or(n);
        if let Some(s) = prog.lookup(u.scope, base) {
            if !named.iter().any(|(t, _)| *t == s) {
                named.push((s, n.as_str()));
            }
        }
    }
    let mut out = Vec::new();
    if named.is_empty() || u.lang != radtap_il::Lang::C {
        return out;
    }
    for (e, x) in u.exprs.iter() {
        let Expr::Cast { ty, arg } = x else {
            continue;
        };
        if !carries_reals(prog, &ty.spec.class) {
            continue;
        }
        if !untyped_pointer(prog, head, *arg) {
            continue;
        }
        let Some(root) = base_symbol(prog, head, *arg) else {
            continue;
        };
        let Some(&(_, name)) = named.iter().find(|(s, _)| *s == root) else {
            continue;
        };
        let Some(span) = u.source_map.expr.get(e).copied() else {
            continue;
        };
        if out
            .iter()
            .any(|d: &Diagnostic| d.span.is_some_and(|s| s.line == span.line))
        {
            continue;
        }
        let mut d = Diagnostic::error(
            Code::Unsupported,
            span,
            format!(
                "`{name}` reaches real data through an untyped pointer (`void *`) cast here: \
                 radtap does not follow memory through `void *`, so this data would get no \
                 derivative"
            ),
        );
        d.notes.push(
            "help: declare the member with its real type (a pointer to the record that holds \
             the data), or make the head a routine that takes the real array itself"
                .to_string(),
        );
        out.push(d);
    }
    out
}

/// Whether `e` is a pointer whose target radtap cannot see: a variable or record member
/// declared `void *`, or a member of a record whose definition the variable's type does not
/// reach (SUNDIALS declares `typedef struct _generic_N_Vector *N_Vector;` before the struct's
/// body, so `y->content` has no known type).
fn untyped_pointer(prog: &Program, unit: UnitId, e: ExprId) -> bool {
    let u = &prog.units[unit];
    let void = |t: &radtap_il::Type| t.base == BaseClass::Void && t.pointers >= 1;
    match &u.exprs[strip_parens(prog, unit, e)] {
        Expr::Name(s) => prog.symbols[*s].ty.as_ref().is_some_and(void),
        Expr::Field { base, field, .. } => {
            match crate::pointsto::member_type(prog, unit, *base, field) {
                Some(t) => void(t),
                None => base_symbol(prog, unit, *base)
                    .and_then(|r| prog.symbols[r].ty.as_ref())
                    .is_some_and(|t| t.base == BaseClass::Opaque),
            }
        }
        _ => false,
    }
}

/// Whether a cast to a type of class `class` can reach real data: a real, a record with a
/// real member, or a type radtap cannot see.
fn carries_reals(prog: &Program, class: &BaseClass) -> bool {
    match class {
        BaseClass::Real | BaseClass::Complex | BaseClass::Opaque => true,
        BaseClass::Record(td) => prog.typedefs[*td].fields.iter().any(|f| match f {
            radtap_il::Decl::Var(v) => matches!(
                v.spec.class,
                BaseClass::Real | BaseClass::Complex | BaseClass::Record(_) | BaseClass::Opaque
            ),
            _ => false,
        }),
        _ => false,
    }
}
