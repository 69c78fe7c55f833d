//! # radtap-diff-tangent: tangent and vector-tangent differentiation
//!
//! Given a program and the facts of `radtap-dataflow` (run in tangent mode), this crate builds
//! *new* units — `f_d` (or `f_dv` in vector mode) for every procedure that carries derivatives,
//! a module `m_d` for each module whose variables, types or procedures need derivatives, and
//! derivative types `t_d` — into a copy of the program, and a new source file holding them.
//! Everything but the body of each derivative unit (what gets derivatives, names,
//! declarations, temporaries, `tan(e)`, the output file) is the shared generator
//! (`radtap-diff-gen`); this crate owns the tangent statement rules ([`TangentRules`]) that
//! build the bodies. The primal IL is never changed: units are copied statement by statement,
//! and derivative statements are inserted before the primal statement they differentiate
//! (paper §4.1–4.7, §5.3):
//!
//! - `v = e` at point `p`, `v` active after `p`: `v̇ = Σ ∂e/∂xᵢ · ẋᵢ` over the references `xᵢ`
//!   of `e` active before `p`, then `v = e`. When `v` has a derivative but is not active after
//!   `p` and is useful, `v̇ = 0` (the explicit reset of implicit zeros where control merges).
//!   (`assign.rs`)
//! - `call g(a…)` with an active call point: `call g_d(a, ȧ, …)`; an inactive actual whose
//!   formal has a derivative gets a zero temporary, an active expression a temporary holding
//!   its tangent. Calls with no active argument stay calls to `g`. (`calls.rs`, `args.rs`)
//! - A function reference `f(a)` inside an active expression is hoisted:
//!   `ṫ = f_d(a, ȧ, t)` before the statement, and `t` replaces `f(a)`. (`hoist.rs`)
//! - Control flow is copied as it is; only its bodies change (`stmts.rs`); WHERE and FORALL
//!   keep their masks (`masked.rs`); OpenMP loops keep their directives (`omp.rs`); a
//!   derivative pointer follows its primal (`pointers.rs`). The rules of a construct reach
//!   the statement dispatch back through [`Blocks`].
//!
//! Vector mode adds a direction index (`nd`, first dimension in Fortran, last in C) to every
//! derivative reference and wraps each run of derivative statements in one loop over
//! `nbdirs` directions.

mod args;
mod assign;
mod calls;
mod hoist;
mod masked;
mod omp;
mod pointers;
mod stmts;

pub use radtap_diff_gen::{Interface, Options, Output};

use radtap_dataflow::ProgramInfo;
use radtap_diff_gen::generator::{BodyRules, ProcGen};
use radtap_il::{Block, Diagnostic, Program};

/// What the rule files use: the IL, the generator, and the facts it reads.
mod prelude {
    pub(crate) use crate::{Blocks, Tan};
    pub(crate) use radtap_dataflow::ObjKey;
    pub(crate) use radtap_diff_gen::generator::*;
    pub(crate) use radtap_flowgraph::Callee;
    pub(crate) use radtap_il::copy::Copier;
    pub(crate) use radtap_il::vocab::Rule;
    pub(crate) use radtap_il::*;
    pub(crate) use std::collections::HashSet;
}

/// Differentiates the heads analysed in `info` (which must come from
/// `radtap_dataflow::analyze` in `Mode::Tangent`). Returns the generated program, or `None`
/// when an error diagnostic was produced.
pub fn differentiate(
    prog: &Program,
    info: &ProgramInfo,
    opts: &Options,
) -> (Option<Output>, Vec<Diagnostic>) {
    assert!(
        !opts.adjoint,
        "adjoint mode is radtap_diff_adjoint::differentiate"
    );
    radtap_diff_gen::generator::generate(prog, info, opts, &TangentRules)
}

/// Tangent and vector-tangent mode: the primal statements with their derivatives.
pub struct TangentRules;

impl BodyRules for TangentRules {
    fn body(&self, pg: &mut ProcGen<'_, '_>) -> Block {
        let src = pg.f.src;
        let mut body = pg.zero_non_independent_derivatives();
        let reset = pg.reset_saved_derivatives();
        body.extend(Tan { pg }.block(&src.body));
        pg.place_reset(&mut body, reset);
        body
    }
}

/// The tangent of a block of statements, as the rule of a construct reaches it for the blocks
/// nested in it (WHERE arms, loop bodies): the statement dispatch (`stmts.rs`) implements it,
/// so a construct's rule depends on this interface, not on the dispatcher.
pub(crate) trait Blocks {
    /// The derivative statements of block `b` (its primal statements included).
    fn block(&mut self, b: &[radtap_il::StmtId]) -> Block;
}

/// The tangent rules at work on one derivative unit: the generator's [`ProcGen`] (the unit
/// being built, its facts, names and temporaries), which the rules reach through `Deref`.
pub(crate) struct Tan<'p, 'g, 'a> {
    pg: &'p mut ProcGen<'g, 'a>,
}

impl<'g, 'a> std::ops::Deref for Tan<'_, 'g, 'a> {
    type Target = ProcGen<'g, 'a>;
    fn deref(&self) -> &Self::Target {
        self.pg
    }
}

impl std::ops::DerefMut for Tan<'_, '_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.pg
    }
}
