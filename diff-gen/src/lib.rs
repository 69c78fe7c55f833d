//! # radtap-diff-gen: the generator tangent and adjoint modes share
//!
//! Given a program and the facts of `radtap-dataflow`, this crate decides which procedures,
//! variables, derivative types, COMMON/module mirrors and globals get derivatives and names
//! them (`gen.rs`), builds the derivative unit of each procedure — header, declarations,
//! temporaries, derivative references (`proc_/dref.rs`), and the tangent of an expression
//! `tan(e)` from the rules of the vocabulary ([`radtap_il::vocab`], `proc_/expr.rs`) — and lays
//! out the output file (`assemble.rs`). The statements of each derivative unit's body come
//! from the mode's [`generator::BodyRules`]: the tangent statement rules of
//! `radtap-diff-tangent`, the adjoint rules of `radtap-diff-adjoint` (which transposes `tan`).
//! Both crates sit beside each other on this one; neither depends on the other.
//!
//! Invariant: the primal IL is never changed. Units are copied statement by statement with
//! [`radtap_il::copy::Copier`] into a copy of the program, and generated units are added to
//! it (paper §4.1–4.7, §5.3).
//!
//! Vector mode adds a direction index (`nd`, first dimension in Fortran, last in C) to every
//! derivative reference; the tangent rules wrap each run of derivative statements in one loop
//! over `nbdirs` directions ([`generator::ProcGen::dir`]).

mod alloc_pairs;
mod assemble;
mod build;
mod gen;
mod heap_records;
mod library;
pub mod mpi;
mod private_copy;
mod proc_;
mod refuse;
pub use refuse::no_body_message;

use radtap_il::{Program, SymbolId, TypeDefId, UnitId};

/// What to generate and how to name it.
#[derive(Clone, Debug)]
pub struct Options {
    /// Vector tangent (`-vector`): one extra direction dimension.
    pub vector: bool,
    /// `-nbdirsmax N`: also write the DIFFSIZES file.
    pub nbdirsmax: Option<u32>,
    /// Derivative variable pattern (`%d`).
    pub var_pattern: String,
    /// Derivative procedure pattern (`%_d`, `%_dv`).
    pub func_pattern: String,
    /// Derivative type pattern (`%_d`; `%_b` in adjoint mode). A vector derivative type has
    /// the scalar one's components (the direction dimension is on the variables), and it
    /// lives in the vector module, so it keeps this name.
    pub type_pattern: String,
    /// Derivative module and derivative COMMON block pattern, one per mode (`%_d`, `%_dv`,
    /// `%_b`) like the procedures', so that the files of several modes link together: a
    /// vector `/cb_dv/` has a direction dimension the scalar `/cb_d/` has not.
    pub module_pattern: String,
    /// Diff-liveness slicing: primal assignments whose values neither the derivatives nor
    /// the procedure's outputs need are left out (`-nooptim diffliveness` keeps them).
    pub slice_dead: bool,
    /// Adjoint mode (`-b`): `f_b` with a forward and a backward sweep.
    pub adjoint: bool,
    /// Adjoint mode: record only to-be-recorded values (`-nooptim tbr` records every value
    /// overwritten).
    pub tbr: bool,
    /// Adjoint split mode (`-nocheckpoint`): calls run `g_fwd` in the forward sweep and
    /// `g_bwd` in the backward sweep instead of being checkpointed.
    pub split: bool,
    /// Adjoint mode: element counts of C pointers and Fortran assumed-size arrays the adjoint
    /// must record whole (`-size y=n`, or `-size proc.y=n*m` for one procedure's): the name
    /// (lower-cased) and an integer expression over variables visible there.
    pub sizes: Vec<(String, String)>,
    /// Adjoint mode: integer counters the backward sweep can rebuild (loop variables on
    /// entry to their loop, constant steps `k++`) are not recorded (`-nooptim induction`
    /// records them).
    pub induction: bool,
    /// Adjoint mode: a seed that flows into several derivative references is computed once
    /// into a temporary (`-nooptim sharepartials` writes it out at each use).
    pub share_partials: bool,
    /// Adjoint mode: an IF at the turn of a joint-mode procedure (its forward sweep last,
    /// its backward sweep first) is kept whole, with no control code pushed and popped at
    /// once (`-nooptim deadcontrol` keeps the codes).
    pub joint_branches: bool,
    /// Adjoint mode: before a checkpointed call is re-run backwards, only the snapshot values
    /// the call reads on entry are restored; the values it overwrites before reading them
    /// are not (`-nooptim snapshot` restores the whole snapshot).
    pub snapshot_needs: bool,
    /// Adjoint mode: loops with EXIT/CYCLE or `break`/`continue` are reversed as loops, the
    /// code after a jump guarded by a control bit (`-nooptim structuredjumps` lowers them to
    /// basic blocks and `goto`s).
    pub structured_jumps: bool,
    /// Adjoint mode: a cheap C call filling a work array is run again in the backward sweep
    /// instead of the array being recorded (`-nooptim recomputeintermediates` records it).
    pub recompute: bool,
    /// Adjoint mode: a value a joint adjoint records outside every loop (each push and its
    /// pops run at most once per call) is kept in a local variable instead of on the stack
    /// (`-nooptim localrecords` pushes it).
    pub local_records: bool,
}

impl Options {
    /// Defaults for scalar or vector tangent mode.
    pub fn new(vector: bool) -> Self {
        Options {
            vector,
            nbdirsmax: None,
            var_pattern: "%d".into(),
            func_pattern: if vector { "%_dv" } else { "%_d" }.into(),
            type_pattern: "%_d".into(),
            module_pattern: if vector { "%_dv" } else { "%_d" }.into(),
            slice_dead: true,
            adjoint: false,
            tbr: true,
            split: false,
            sizes: Vec::new(),
            induction: true,
            share_partials: true,
            joint_branches: true,
            snapshot_needs: true,
            structured_jumps: true,
            recompute: true,
            local_records: true,
        }
    }

    /// Defaults for adjoint mode.
    pub fn adjoint() -> Self {
        Options {
            vector: false,
            nbdirsmax: None,
            var_pattern: "%b".into(),
            func_pattern: "%_b".into(),
            type_pattern: "%_b".into(),
            module_pattern: "%_b".into(),
            slice_dead: true,
            adjoint: true,
            tbr: true,
            split: false,
            sizes: Vec::new(),
            induction: true,
            share_partials: true,
            joint_branches: true,
            snapshot_needs: true,
            structured_jumps: true,
            recompute: true,
            local_records: true,
        }
    }
}

/// The generated code.
pub struct Output {
    /// The input program plus the generated units.
    pub program: Program,
    /// Index of the generated file in `program.files`.
    pub file: usize,
    /// The differentiated head procedures, as a driver calls them.
    pub interfaces: Vec<Interface>,
    /// Extra files to write beside the generated one (name, contents): `DIFFSIZES`.
    pub extra_files: Vec<(String, String)>,
}

/// How to call the derivative of a head.
#[derive(Clone, Debug)]
pub struct Interface {
    /// The primal head.
    pub head: UnitId,
    /// The derivative procedure's name.
    pub name: String,
    /// The module holding it (Fortran module procedures), to `USE`.
    pub module: Option<String>,
    /// The primal parameters in order, with the name of the derivative argument that follows
    /// each one, if any.
    pub params: Vec<(SymbolId, Option<String>)>,
    /// Whether the head is a function whose result has a derivative (returned in scalar
    /// mode; the last two arguments before `nbdirs` in vector mode).
    pub result_deriv: bool,
    /// Names of derivative modules the caller must `USE` for derivative types.
    pub uses: Vec<String>,
    /// The independents, as named on the command line or by default.
    pub independents: Vec<String>,
    /// The dependents.
    pub dependents: Vec<String>,
    /// Derivatives of module variables and C globals, where a caller sees them: (the
    /// primal global, its derivative in the derivative module / the output file), symbols
    /// of the output program.
    pub globals: Vec<(SymbolId, SymbolId)>,
    /// The head's derivative COMMON blocks: (primal block name, `None` for blank COMMON;
    /// derivative block name). Each mirrors its primal block member for member.
    pub commons: Vec<(Option<String>, String)>,
    /// The components of each record type that have a derivative (the derivative type has
    /// only those), spelled as the type declares them.
    pub active_fields: std::collections::HashMap<TypeDefId, std::collections::HashSet<String>>,
    /// Derivative arguments that are no input of the derivative but that it cannot clear on
    /// entry, their extent unknown (AD061): the caller must pass zeros there.
    pub zero_on_entry: Vec<String>,
}

/// The generator both modes share, as `radtap-diff-adjoint` builds on it.
///
/// [`generate`](generator::generate) runs a whole differentiation: it chooses the procedures,
/// variables, derivative types and globals that get derivatives ([`Gen`](generator::Gen)),
/// builds every derivative unit with a [`ProcGen`](generator::ProcGen) — header,
/// declarations, temporaries, in any mode — whose body comes from the mode's
/// [`BodyRules`](generator::BodyRules), and lays out the output file.
///
/// What a body rule may use of a [`ProcGen`](generator::ProcGen):
/// - what it reads and never changes, `f` ([`Facts`](generator::Facts), `Copy`): the
///   procedure `p`, its unit `src`, its analyses `pi`/`act` (dataflow and activity), `lang`
///   and the mode (`vector`, `adjoint`, `sweep`); and the cursor `cur` (active zones before
///   the current point);
/// - what it writes, the emitter: the output unit `u`, built with [`B`](generator::B) (`pg.b()`), [`stmt`](generator::stmt)
///   and [`assign`](generator::assign); copies of primal statements and expressions
///   (`copy_stmt`, `cp`);
/// - derivatives: `dvar` (primal symbol → derivative), `dref` (a reference's derivative),
///   `dptr`, `tan` (the tangent of an expression from the one derivative table), and
///   [`tangent`](generator::ProcGen::tangent), the tangent as a value
///   ([`Tangent`](generator::Tangent): the derivative, the derivative references it reads —
///   how the adjoint transposes it — and its shared sub-expressions' definitions, reading the
///   stored values a [`Reuse`](generator::Reuse) names);
/// - temporaries (`temp` with a [`TempKind`](generator::TempKind)), `fresh` names,
///   diagnostics (`error`, `warn`) and the program-wide [`Gen`](generator::Gen) (`g`).
/// - what no rule may differentiate where it stands: `check_expr_effects` (run on every
///   statement by both modes: assignments, `++`/`--`, comma expressions and calls hidden in
///   expressions, refused with AD020), `call_writes_differentiable` (a function reference
///   with side effects), `aliased_args`/`aliased_call`/`warn_aliased_args` (actual arguments
///   that may share memory the callee writes).
///
/// The invariant every rule keeps: the primal IL is never changed.
pub mod generator {
    pub use crate::build::{assign, stmt, B};
    pub use crate::gen::{has_nocheckpoint, key, pattern, unit_name, AllocCall, Gen};
    pub use crate::proc_::omp::{loop_body, loop_counter};
    pub use crate::proc_::{
        BodyRules, Dir, Facts, ProcGen, Reuse, Sharing, Sweep, TanOf, Tangent, Tangents, TempKind,
    };

    use crate::{Options, Output};
    use radtap_dataflow::ProgramInfo;
    use radtap_il::{Diagnostic, Program};

    /// Runs a differentiation whose derivative bodies come from `rules`.
    pub fn generate(
        prog: &Program,
        info: &ProgramInfo,
        opts: &Options,
        rules: &dyn BodyRules,
    ) -> (Option<Output>, Vec<Diagnostic>) {
        crate::assemble::run(prog, info, opts, rules)
    }
}
