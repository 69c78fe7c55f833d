//! Adjoint mode (paper §4.4–4.5, §4.8–4.11, §5.4): the body of `f_b` is a *forward sweep*
//! (the primal statements that the derivatives need, each preceded by the recording of the
//! to-be-recorded values it overwrites, and the control flow recorded where flow merges)
//! followed by a *backward sweep* (the adjoint statements in reverse order, each preceded by
//! the restoration of the values its primal overwrote).
//!
//! Both sweeps are built from the statement tree at once: every rule returns a [`Rev`] pair,
//! and a block's backward sweep is its statements' backward sweeps in reverse order, so the
//! structure of the original stays recognisable in both.
//!
//! The adjoint of an assignment is the *transposition* of its tangent: the tangent
//! `v̇ = Σ cᵢ·ẋᵢ` built by the same rules as tangent mode (one derivative table) is walked
//! from the root to each derivative reference `ẋᵢ`, accumulating the factor `cᵢ`; the
//! adjoint increments `x̄ᵢ += cᵢ·v̄` are then merged per reference (Fig. 11). So tangent and
//! adjoint can never disagree on a partial derivative.
//!
//! Calls are checkpointed (joint mode): the forward sweep runs the original procedure after
//! pushing the snapshot (the values the call overwrites that its adjoint or the adjoint of
//! earlier statements reads: `save` of the dataflow), and the backward sweep restores the
//! snapshot (read twice through a repeat mark), calls `g_b` — which runs its own forward
//! and backward sweeps — and restores the snapshot again for the statements before.
//!
//! ## What this crate owns
//!
//! The adjoint statement rules, built on the shared generator of `radtap-diff-gen`
//! ([`radtap_diff_gen::generator`]): that crate chooses what gets derivatives, names them,
//! declares them and assembles the output file; this one supplies the body of each `f_b`
//! (or `f_fwd`/`f_bwd` in split mode) through [`BodyRules`]. One file per idea:
//!
//! - `base.rs` — what every rule uses (refusals, forward-only statements, targets' zones,
//!   runtime calls, the unit's own variables, canonical loops, allocation counts);
//!   `control.rs` — control codes pushed and popped; `rerun.rs` — snapshots of a piece run
//!   again; `jump_forms.rs` — which code jumps, which loops keep their structure;
//! - `sweeps.rs` — the body, the split-mode sweeps, the statement dispatch ([`Statements`]),
//!   prologue/epilogue;
//! - `record.rs` — pushes and pops, TBR; `snapshots.rs` — snapshots of checkpointed pieces;
//!   `sizes.rs` — `-size` counts;
//! - `assign.rs`, `transpose.rs`, `scatter.rs` — assignments, the transposition of their
//!   tangent, the increments it scatters; `c_exprs.rs` — C expression statements and
//!   returns; `pointer_moves.rs` — C pointer moves;
//! - `branches.rs`, `loops.rs` — IF/SELECT and loop reversal;
//! - `memory.rs` — declarations, ALLOCATE, `malloc`/`free`, Fortran pointer association;
//! - `init_pairs.rs` — calls to an initialisation routine allocating module arrays and to the
//!   finalisation freeing them (`Gen::alloc_calls`): adjoint arrays allocated beside the one,
//!   the other delayed to the backward sweep;
//! - `calls.rs` — checkpointed and split calls; `slices.rs` — their snapshots cut to the
//!   element an argument passes;
//! - `jumps.rs` — flow-graph reversal of code with jumps; `structjumps.rs` — loops with
//!   EXIT/CYCLE/`break`/`continue` reversed without it, the loops kept ([`JumpLoops`]);
//! - `masked.rs` — WHERE and FORALL;
//! - `induction.rs` — integer counters rebuilt backwards instead of pushed, loop variables'
//!   entry values recorded only when read outside their loops, first values not recorded;
//! - `prune.rs` — function results recomputed backwards only where an adjoint reads them;
//! - `shared.rs` — a seed flowing into several references computed once into a temporary;
//! - `reread.rs` — a snapshot of one value read again with `look` instead of a repeat mark.
//! - `locals.rs` — values a joint adjoint records outside every loop kept in local variables
//!   instead of on the stack.
//! - `results.rs` — a user function's partial written with its stored result
//!   (`gates[i] = sigmoid(a)`: `y * y * (1.0 / y - 1.0)` instead of calling `sigmoid_b`).
//! - `siblings.rs` — intrinsic values stored in scalars read back by the partials
//!   (`costheta` for `sin(theta)`'s partial `cos(theta)`).
//! - `regions.rs` — blocks ([`Blocks`]) with their `$AD CHECKPOINT-START`/`-END` and
//!   `DO-NOT-DIFF` regions; `omp.rs`, `omp_body.rs`, `omp_sections.rs` — OpenMP reversal;
//! - `binomial.rs` — `$AD BINOMIAL-CKP` time loops under the revolve schedule;
//! - `fploop.rs` — `$AD FP-LOOP` fixed-point loops: one converged iteration taped, its
//!   adjoint iterated (Christianson);
//! - `iiloop.rs` — `$AD II-LOOP` loops checkpointed per iteration.
//!
//! Checkpointing schedules (binomial, II-LOOP, FP-LOOP, regions) belong here too. No two
//! files call each other (`tests/boundaries.rs`): a rule reaches the statement and block
//! dispatch back through the traits [`Statements`], [`Blocks`] and [`JumpLoops`].
//!
//! ## Invariants
//!
//! - The primal IL is never changed: every statement is built in the output unit `pg.pg.u`.
//! - Every rule returns a [`Rev`] whose backward sweep undoes exactly what its forward sweep
//!   recorded: the runtime stack is empty when `f_b` returns.
//! - What cannot be reversed is refused with error AD020 at its statement, never
//!   differentiated wrongly.

mod assign;
mod base;
pub(crate) use base::{Count, Rec};
mod binomial;
mod branches;
mod c_exprs;
mod calls;
mod control;
mod fpfill;
mod fploop;
mod iiloop;
mod induction;
mod init_pairs;
mod jump_forms;
mod jumps;
mod locals;
mod loops;
mod masked;
mod memory;
mod omp;
mod omp_body;
mod omp_sections;
mod pointer_moves;
mod prune;
mod recompute;
mod record;
mod records;
mod regions;
mod reread;
mod rerun;
mod results;
mod scatter;
mod shared;
mod siblings;
mod sizes;
mod slices;
mod snapshots;
mod structjumps;
mod sweeps;
mod transpose;
mod wholerec;

use radtap_dataflow::{ObjKey, ProgramInfo, ZoneSet};
use radtap_diff_gen::generator::{
    assign, has_nocheckpoint, key, pattern, stmt, unit_name, BodyRules, Dir, ProcGen, Reuse,
    Sharing, Sweep, TanOf, Tangent, TempKind,
};
use radtap_diff_gen::{Options, Output};
use radtap_flowgraph::{Callee, Part, Point};
use radtap_il::copy::Copier;
use radtap_il::*;
use std::collections::{HashMap, HashSet};

/// Differentiates the heads analysed in `info` (from `radtap_dataflow::analyze` in
/// `Mode::Adjoint`) in adjoint mode; `opts` must have `adjoint` set
/// ([`Options::adjoint`]). Returns the generated program, or `None` when an error
/// diagnostic was produced.
pub fn differentiate(
    prog: &Program,
    info: &ProgramInfo,
    opts: &Options,
) -> (Option<Output>, Vec<Diagnostic>) {
    assert!(
        opts.adjoint,
        "radtap_diff_adjoint::differentiate needs adjoint options"
    );
    radtap_diff_gen::generator::generate(prog, info, opts, &AdjointRules)
}

/// The adjoint body rules, plugged into the shared generator.
struct AdjointRules;

impl BodyRules for AdjointRules {
    fn body(&self, pg: &mut ProcGen<'_, '_>) -> Block {
        Adj::new(pg).adjoint_body()
    }
}

/// The statement dispatch, as the rule of a construct reaches it for the statements nested
/// in it: `sweeps.rs` implements it, so a construct's rule depends on this interface, not
/// on the dispatcher.
pub(crate) trait Statements<'a> {
    /// The forward and backward statements of `s` ([`Self::rev_stmt_rule`]), each carrying
    /// the span of `s` unless a statement inside it gave it its own: the unparser maps every
    /// generated line back to the primal line it comes from (`-html`, the web page).
    fn rev_stmt(&mut self, s: StmtId) -> Rev;

    /// The rule of statement `s`: both its sweeps.
    fn rev_stmt_rule(&mut self, s: StmtId) -> Rev;
}

/// Both sweeps of a block (or a range of one) with its directive regions, as the rule of a
/// construct reaches them for its nested blocks: `regions.rs` implements it.
pub(crate) trait Blocks<'a> {
    /// Both sweeps of a block: its statements' in order, their backward sweeps in reverse,
    /// with the directive regions of the block checkpointed (or left undifferentiated).
    fn rev_block(&mut self, b: &'a [StmtId]) -> Rev;

    /// Both sweeps of `b[lo..hi]`, whose regions not yet entered are those whose parent is
    /// `outer`.
    fn rev_range(
        &mut self,
        b: &'a [StmtId],
        lo: usize,
        hi: usize,
        regions: &[radtap_il::directives::Region],
        outer: Option<usize>,
    ) -> Rev;
}

/// The loops with EXIT/CYCLE or `break`/`continue` reversed with their structure, as the
/// loop rules reach them: `structjumps.rs` implements it, reusing the loop rules of
/// `loops.rs` for the pieces.
pub(crate) trait JumpLoops<'a> {
    /// Counted DO left by EXIT (module doc): `DO var = from + (ad_count−1)·step, from, −step`
    /// backwards.
    #[allow(clippy::too_many_arguments)]
    fn adj_do_leaving(
        &mut self,
        s: StmtId,
        var: ExprId,
        start: ExprId,
        end: ExprId,
        step: Option<ExprId>,
        r: Rev,
        keep: bool,
    ) -> Rev;

    /// Simple counted C `for` left by `break`: `for (i = from + ad_count − 1; i >= from; --i)`
    /// backwards (mirrored when counting down). `init`, `cond`, `step` are the forward
    /// loop's header as built by `adj_counted_for`; `before` its declaration's sweeps.
    #[allow(clippy::too_many_arguments)]
    fn adj_cfor_leaving(
        &mut self,
        s: StmtId,
        c: &CanonFor,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        r: Rev,
        before: Rev,
    ) -> Rev;
}

/// The adjoint of one procedure being built: the shared generator state (`pg`) and what
/// only the adjoint rules keep.
struct Adj<'p, 'g, 'a> {
    /// The shared per-procedure generator: derivative variables, declarations, `tan(e)`.
    pg: &'p mut ProcGen<'g, 'a>,
    /// Zones some point of the procedure writes.
    written_anywhere: ZoneSet,
    /// A snapshot being built for a loop re-run step after step (BINOMIAL-CKP): the
    /// callees' primal code runs there and its results feed the next steps.
    stepping_rerun: bool,
    /// The variable receiving popped control codes.
    branch: Option<SymbolId>,
    /// C split forward sweep: the value the function returns.
    c_return_value: Option<ExprId>,
    /// The local a split forward sweep lowered to basic blocks returns (`adj_c_return`).
    c_return_local: Option<SymbolId>,
    /// The statements inside a loop.
    in_loop: HashSet<StmtId>,
    /// Split mode: local allocatable arrays the forward sweep allocates; the backward sweep
    /// (another call) allocates them again with the bounds they had (`split_local_arrays`).
    split_allocs: Vec<SymbolId>,
    /// The last label made up for reversed jumps.
    next_label: u32,
    /// C: names of the declarations hoisted to the top of the body.
    c_hoisted_names: HashSet<String>,
    /// Local pointers freed at the top level of the body (their frees move to where the
    /// backward sweep passes their allocation).
    freed_locals: HashSet<SymbolId>,
    /// Record members (`m.data`, keyed by [`Adj::member_path`]) freed at the top level of
    /// the body, whose allocation's adjoint frees them (`records.rs`).
    freed_members: HashSet<String>,
    /// Local pointers freed by a deallocator call at the top level (`delete_matrix(m)`),
    /// with that call: it moves to where the backward sweep passes the allocation.
    deallocated: HashMap<SymbolId, StmtId>,
    /// C scalar locals the forward sweep records (`sweeps.rs` sets them to zero first, so no
    /// push reads an uninitialised value: the first iteration of a loop recorded garbage).
    recorded_locals: std::collections::BTreeSet<SymbolId>,
    /// The real kind (bytes) of the statement being transposed, for the zeros built beside
    /// its seed (`merge(s, 0.0, m)` must match `s`).
    zero_kind: u32,
    /// Scalar stores kept until their adjoint (`siblings.rs`), on first use.
    kept: Option<radtap_il::extent::stored::KeptScalars>,
    /// What `induction.rs` finds about integer counters, on first use.
    ind: induction::Cache,
    /// Scalar real seeds shared by several contributions are assigned to a temporary first
    /// (`shared.rs`): set while the increments of a real scalar target are built.
    share_seeds: bool,
    /// The assignments of those temporaries, emitted before the increments.
    seed_temps: Vec<StmtId>,
    /// Contributions from a branch of a C conditional, `(c ? x : 0)` (or `(c ? 0 : x)`), by
    /// the wrapper: the condition, whether it is the `then` branch, and `x` (`transpose.rs`);
    /// an increment made only of such terms alike becomes `if (c) v̄ += x` (`scatter`).
    guarded: HashMap<ExprId, (ExprId, bool, ExprId)>,
    /// The body (its first statement) of the `$AD II-LOOP` loop being reversed, and its
    /// counter: that body is checkpointed per iteration (`iiloop.rs`).
    ii_body: Option<(StmtId, SymbolId)>,
    /// The body (its first statement) of the parallel loop being reversed with recomputed
    /// iterations, its reduction variables and the variables each iteration owns
    /// (`omp.rs`).
    omp_body: Option<(StmtId, Vec<SymbolId>, Vec<SymbolId>)>,
    /// The variables each iteration of the parallel loop being reversed owns: a critical
    /// section may set them (`omp.rs`, `rev_critical`).
    omp_own: Vec<SymbolId>,
    /// The variables of the counted loops around the statement being reversed whose
    /// backward loops set them to the forward iteration's value (`induction.rs`,
    /// `restored_loop_var`): bounds reading only these and unchanged variables are
    /// evaluated again backwards (`for (j = i + 1; …)` inside a loop over `i`), not pushed.
    restored_vars: ZoneSet,
    /// The IFs reversed through a control code, by their forward-sweep statement: what
    /// keeping one whole at the turn needs (`branches.rs`, `join_at_turn`).
    joint_ifs: HashMap<StmtId, JointIf>,
    /// How many `popControl` statements were built (the branch variable is declared only
    /// when one is left).
    control_pops: usize,
    /// How many loops reversed structurally with their jumps (`structjumps.rs`) enclose the
    /// statement being reversed: their EXIT/CYCLE are copied, and blocks guard what follows
    /// a jump.
    jump_loops: usize,
    /// F77 GOTOs that act as a CYCLE (to the CONTINUE ending their loop) or an EXIT (to the
    /// statement just after it): whether it leaves, its loop, and the outermost loop around
    /// it (`structjumps.rs`, `loop_gotos`).
    loop_gotos: HashMap<StmtId, LoopGoto>,
    /// Calls run again in the backward sweep instead of recorded (`recompute.rs`), with the
    /// zones their snapshot leaves out.
    recomputed: HashMap<StmtId, ZoneSet>,
    /// Functions whose partial can be written with their result (`results.rs`), by function.
    chains: HashMap<UnitId, bool>,
    /// Split mode, `f_bwd`: statements that zero derivatives of C variable-length arrays,
    /// run first (`memory.rs`).
    bwd_zeros: Vec<StmtId>,
    /// Every value recorded through [`Adj::push_pop`], with the statements that push and
    /// restore it (`locals.rs` keeps those outside loops in a local variable).
    recs: Vec<Rec>,
    /// The entry of `recs` each push or restore statement belongs to, and whether it is the
    /// push.
    rec_of: HashMap<StmtId, (u32, bool)>,
}

/// A GOTO that acts as an EXIT or a CYCLE of its innermost loop.
#[derive(Clone, Copy)]
pub(crate) struct LoopGoto {
    pub(crate) leaves: bool,
    pub(crate) outermost: StmtId,
}

/// An IF reversed through a control code, kept to be rebuilt whole at the turn.
struct JointIf {
    /// The primal IF.
    src: StmtId,
    /// The conditions of its arms (copies used by the forward-sweep IF only).
    conds: Vec<ExprId>,
    /// Per arm, and last the ELSE (possibly empty): forward and backward statements.
    arms: Vec<(Vec<StmtId>, Vec<StmtId>)>,
    /// What the backward sweep starts with: the pop of the code and the branch chain.
    bwd_head: Vec<StmtId>,
}

impl<'p, 'g, 'a> Adj<'p, 'g, 'a> {
    fn new(pg: &'p mut ProcGen<'g, 'a>) -> Self {
        let n = pg.f.pi.zones.len();
        let loop_gotos = structjumps::loop_gotos(pg.f.src);
        Adj {
            pg,
            written_anywhere: ZoneSet::new(n),
            stepping_rerun: false,
            branch: None,
            c_return_value: None,
            c_return_local: None,
            in_loop: HashSet::new(),
            split_allocs: Vec::new(),
            next_label: 0,
            c_hoisted_names: HashSet::new(),
            freed_locals: HashSet::new(),
            freed_members: HashSet::new(),
            deallocated: HashMap::new(),
            recorded_locals: Default::default(),
            zero_kind: 8,
            kept: None,
            ind: Default::default(),
            share_seeds: false,
            seed_temps: Vec::new(),
            guarded: HashMap::new(),
            ii_body: None,
            omp_body: None,
            omp_own: Vec::new(),
            restored_vars: ZoneSet::new(n),
            joint_ifs: HashMap::new(),
            control_pops: 0,
            jump_loops: 0,
            loop_gotos,
            recomputed: HashMap::new(),
            chains: HashMap::new(),
            bwd_zeros: Vec::new(),
            recs: Vec::new(),
            rec_of: HashMap::new(),
        }
    }
}

/// Calls `f` on every statement of the trees rooted at `roots`.
fn subtree(src: &UnitData, roots: &[StmtId], f: &mut dyn FnMut(StmtId)) {
    let mut stack: Vec<StmtId> = roots.to_vec();
    while let Some(x) = stack.pop() {
        f(x);
        radtap_il::visit::stmt_children(&src.stmts[x].kind, &mut |_| {}, &mut |k| stack.push(k));
    }
}

/// The two sweeps of a piece of code, each in execution order.
#[derive(Default)]
pub(crate) struct Rev {
    pub(crate) fwd: Vec<StmtId>,
    pub(crate) bwd: Vec<StmtId>,
}

/// What an assignment writes: a primal reference, or a C variable initialised in its
/// declaration.
#[derive(Clone, Copy)]
pub(crate) enum Target {
    Expr(ExprId),
    Sym(SymbolId),
}

/// How a recorded value is pushed: the runtime type suffix and, for arrays, the element
/// count.
pub(crate) struct Slot {
    /// The reference (built in the output unit; duplicated for each use).
    pub(crate) primal: ExprId,
    /// `Real8`, `Integer4`, …
    pub(crate) suffix: &'static str,
    /// Element count of an array (built in the output unit).
    pub(crate) count: Option<ExprId>,
}

/// Function references hoisted out of one statement.
#[derive(Default)]
pub(crate) struct Hoisted {
    /// `t = f(a)` before the primal statement.
    pub(crate) fwd: Vec<StmtId>,
    /// The same, recomputed in the backward sweep.
    pub(crate) recompute: Vec<StmtId>,
    /// `t̄ = 0` before the statement's adjoint.
    pub(crate) zero: Vec<StmtId>,
    /// `f_b(a, ā, t̄)` after it, outermost first.
    pub(crate) calls: Vec<StmtId>,
    /// Some reference runs `f_fwd` forwards (split mode): its `f_bwd` must run backwards
    /// even when the statement has no adjoint, to pop what `f_fwd` pushed.
    pub(crate) split: bool,
    /// Results of references to functions with a side effect (`Gen::effect_split`): the
    /// temporary and the function's result symbol. Recorded after the hoisted calls instead
    /// of recomputed backwards (`record_effect_results`).
    pub(crate) effect_results: Vec<(SymbolId, SymbolId)>,
    /// The last (outermost) C reference of a user function hoisted: the reference, the
    /// statement among `calls` calling its adjoint, and the function (`results.rs`).
    pub(crate) result: Option<(ExprId, StmtId, UnitId)>,
}

/// How a C pointer moves.
#[derive(Clone, Copy)]
pub(crate) enum PointerMove {
    /// `p++`, `--p`, …
    Step { inc: bool, prefix: bool },
    /// `p = e`, `p += k`.
    Assign { op: Option<BinOp>, rhs: ExprId },
}

/// A simple counted C loop.
pub(crate) struct CanonFor {
    pub(crate) var: SymbolId,
    pub(crate) from: ExprId,
    pub(crate) bound: ExprId,
    /// `<=` / `>=` rather than `<` / `>`.
    pub(crate) inclusive: bool,
    /// Counting up.
    pub(crate) up: bool,
    /// Its bounds read nothing the procedure writes: re-evaluated backwards.
    pub(crate) static_: bool,
}
