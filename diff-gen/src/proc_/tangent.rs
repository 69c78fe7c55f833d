//! The tangent of an expression as a value: what a rule asks the generator for when it needs
//! more than the derivative expression itself.
//!
//! `ProcGen::tan` builds `Σ ∂e/∂xᵢ · ẋᵢ`. The adjoint transposes that expression, so it also
//! needs the derivative references the tangent read (each with the primal reference it is the
//! derivative of), and the definitions of the costly calls the partials share; it can also
//! tell the generator which values the primal stored that are still there when the adjoint
//! runs ([`Reuse`]), so the partials read them instead of calling the intrinsic again.
//! `ProcGen::tangent` takes all of that as arguments and returns it as a [`Tangent`]; the
//! generator's bookkeeping while the tangent is built stays inside it. The types are here;
//! `ProcGen::tangent` is in `expr.rs`.

use radtap_il::{BinOp, ExprId, StmtId};

/// What to take the tangent of.
#[derive(Clone, Copy, Debug)]
pub enum TanOf {
    /// An expression.
    Expr(ExprId),
    /// The update `lhs op= rhs` (`lhs` a primal reference).
    Update { op: BinOp, lhs: ExprId, rhs: ExprId },
    /// Nothing (a passive value), though the shared calls of the expression are still
    /// collected and defined as for the others.
    Passive(ExprId),
}

impl TanOf {
    pub(super) fn expr(self) -> ExprId {
        match self {
            TanOf::Expr(e) | TanOf::Passive(e) => e,
            TanOf::Update { rhs, .. } => rhs,
        }
    }
}

/// How the costly intrinsic calls of the expression are shared between its partials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// Not at all: the calls are left to the statement being built (`resolve_shared`).
    Untouched,
    /// Calls registered before are defined once, into temporaries ([`Tangent::shared`]).
    Resolved,
    /// The expression's calls are registered first (`collect_shared`), then defined.
    Collected,
}

/// Values the primal stored that are still there when the derivative code runs.
#[derive(Clone, Debug, Default)]
pub struct Reuse {
    /// The intrinsic call that is the whole right side of the assignment being
    /// differentiated, with its target (`extent::stored_until_adjoint`): its shared
    /// definition reads the target instead of calling the intrinsic again.
    pub stored: Option<(ExprId, ExprId)>,
    /// Intrinsic calls `w = g(a)` of other statements, with their target: a partial calling
    /// `g` on the same arguments reads `w` instead (`sintheta = sin(theta)`'s partial
    /// `cos(theta)` is `costheta`).
    pub siblings: Vec<(ExprId, ExprId)>,
}

/// The tangent of an expression.
#[derive(Clone, Debug, Default)]
pub struct Tangent {
    /// `Σ ∂e/∂xᵢ · ẋᵢ` in the unit being built; `None` when it is zero.
    pub deriv: Option<ExprId>,
    /// The derivative references `deriv` reads, each with the primal reference it is the
    /// derivative of (the nodes the adjoint transposes at).
    pub refs: Vec<(ExprId, ExprId)>,
    /// The definitions of the shared calls `deriv` reads, to run before it.
    pub shared: Vec<StmtId>,
}
