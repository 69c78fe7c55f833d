//! Functions without side effects: a statement whose value nothing needs may be sliced away
//! with the references it makes to them (the adjoint's forward sweep computes no primal
//! output, as Tapenade's does not).

use crate::effects::c_math;
use radtap_flowgraph::{CallSite, Callee};
use radtap_il::{Decl, Expr, ExprId, Lang, Program, StmtKind, SymbolKind, UnitId};
use std::collections::HashSet;

/// Whether calling the function `unit` has no effect besides its result, so that a statement
/// whose value nothing needs may drop the call with it: a function (not recursive: `free`
/// holds the callees already found so, bottom-up) that writes only its own private locals
/// and its result (no argument but a C by-value one, no global, COMMON, SAVE or C `static`
/// variable, nothing through a pointer), performs no I/O, STOP, allocation or subroutine
/// call, and calls only pure intrinsics and functions of `free`. Conservative: anything it
/// cannot see through (an EQUIVALENCE, a DATA or initialised local, a pointer assignment,
/// WHERE/FORALL) makes the function impure.
pub(crate) fn side_effect_free(
    prog: &Program,
    unit: UnitId,
    sites: &[CallSite],
    free: &HashSet<UnitId>,
) -> bool {
    let u = &prog.units[unit];
    if u.kind != radtap_il::UnitKind::Function {
        return false;
    }
    for site in sites {
        let ok = site.expr.is_some()
            && match &site.callee {
                Callee::Defined(cs) => cs.iter().all(|c| free.contains(c)),
                Callee::Intrinsic(r) => match u.lang {
                    Lang::Fortran => true,
                    Lang::C => c_math(*r),
                },
                Callee::External(_) => false,
            };
        if !ok {
            return false;
        }
    }
    let private = |s: radtap_il::SymbolId| {
        let d = &prog.symbols[s];
        if Some(s) == u.result {
            return true;
        }
        // Its own scope, or a C block's inside it (`for (int i = 0; …)`).
        let mut sc = Some(d.scope);
        while let Some(x) = sc.filter(|&x| x != u.scope) {
            sc = match prog.scopes[x].kind {
                radtap_il::ScopeKind::Block => prog.scopes[x].parent,
                _ => None,
            };
        }
        let plain = d.kind == SymbolKind::Variable
            && sc == Some(u.scope)
            && !d.attrs.save
            && !d.attrs.pointer
            && !d.attrs.target
            && d.common.is_none()
            && d.ty.as_ref().is_some_and(|t| t.pointers == 0);
        plain && (!d.attrs.dummy || (u.lang == Lang::C && d.attrs.value))
    };
    // The reference a write goes to: a private variable, or an element of a private array.
    let writable = |e: ExprId| match &u.exprs[e] {
        Expr::Name(s) => private(*s),
        Expr::Index { base, .. } => matches!(u.exprs[*base], Expr::Name(s) if private(s)),
        _ => false,
    };
    for (_, e) in u.exprs.iter() {
        let ok = match e {
            Expr::Assign { lhs, .. } => writable(*lhs),
            Expr::IncDec { arg, .. } => writable(*arg),
            _ => true,
        };
        if !ok {
            return false;
        }
    }
    for d in &u.decls {
        match d {
            // An initialised Fortran local is implicitly SAVE.
            Decl::Var(v)
                if u.lang == Lang::Fortran
                    && v.entities.iter().any(|en| {
                        en.init.is_some() && prog.symbols[en.sym].kind != SymbolKind::Constant
                    }) =>
            {
                return false
            }
            Decl::Common(_) | Decl::Equivalence(_) | Decl::Data(_) => return false,
            Decl::Attr(a) if a.keyword == "save" => return false,
            _ => {}
        }
    }
    for (_, st) in u.stmts.iter() {
        let ok = match &st.kind {
            StmtKind::Assign { lhs, .. } => writable(*lhs),
            StmtKind::Decl(Decl::Var(v)) => {
                u.lang == Lang::C || v.entities.iter().all(|en| en.init.is_none())
            }
            StmtKind::Expr(_)
            | StmtKind::If { .. }
            | StmtKind::Do { .. }
            | StmtKind::While { .. }
            | StmtKind::Loop { .. }
            | StmtKind::CFor { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::Select { .. }
            | StmtKind::Switch { .. }
            | StmtKind::CaseLabel(_)
            | StmtKind::Block { .. }
            | StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::Break
            | StmtKind::CContinue
            | StmtKind::Goto(_)
            | StmtKind::ComputedGoto { .. }
            | StmtKind::ArithIf { .. }
            | StmtKind::Return(_)
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Comment(_)
            | StmtKind::Format(_) => true,
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}
