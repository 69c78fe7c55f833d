//! One procedure's derivative unit: what its rules read ([`Facts`]) and write ([`ProcGen`]),
//! the mode's [`BodyRules`], and [`Tangents`], through which the rules for the pieces of an
//! expression reach its tangent. The pieces are in `proc_/`: the services every rule uses
//! (`base.rs`), the unit's construction (`unit.rs`), declarations, derivative references,
//! the tangent of an expression (`expr.rs`, `intrinsic.rs`, `complex.rs`), shared
//! sub-expressions, and what no rule may differentiate where it stands.

pub(crate) use crate::build::add_direction_dim;
use crate::build::{assign, stmt, B};
use crate::gen::{diffsizes_use, key, pattern, Gen};
use radtap_dataflow::{ActivityInfo, ObjKey, ProcInfo, ZoneSet};
use radtap_flowgraph::{CallSite, Callee, Part, Point};
use radtap_il::copy::{expr_slots, Copier};
use radtap_il::vocab::{self, Rule, Tpl};
use radtap_il::*;
use std::collections::{HashMap, HashSet};

mod alias;
mod base;
mod callee_shape;
mod calls;
mod complex;
mod complex_types;
mod decls;
mod derivative_decls;
mod dref;
mod entry;
mod expr;
mod foreign_common;
mod intrinsic;
mod nodiff;
pub(crate) mod omp;
mod saved;
mod shadow;
mod shared_state;
mod sharing;
mod sidefx;
mod stmts;
mod tangent;
mod temps;
mod unit;
pub use tangent::{Reuse, Sharing, TanOf, Tangent};

/// The body of a derivative unit, supplied by the mode: the tangent rules of
/// `radtap-diff-tangent`, the adjoint rules of `radtap-diff-adjoint`. Everything else of the unit
/// (header, declarations, temporaries) is built by [`ProcGen`] the same way in every mode.
pub trait BodyRules {
    /// Builds the statements of `pg.u`'s body from the primal body `pg.f.src.body`.
    fn body(&self, pg: &mut ProcGen<'_, '_>) -> Block;
}

/// The tangent of an expression, as the rules for its pieces reach it for their operands
/// (an intrinsic's arguments, a complex part): `expr.rs` implements it, so the rule of a
/// piece depends on this interface, not on the recursion over expressions.
pub trait Tangents {
    /// The tangent of primal expression `e` given the active zones `cur`: `None` when it is
    /// zero.
    fn tan(&mut self, e: ExprId) -> Option<ExprId>;
}

/// What the rules of one derivative unit read and never change: the primal procedure, its
/// analyses, and the mode. `Copy`, so a rule can hold it while it writes to the unit.
#[derive(Clone, Copy)]
pub struct Facts<'a> {
    /// The primal procedure.
    pub p: UnitId,
    /// Its unit (never changed).
    pub src: &'a UnitData,
    /// Its data-flow facts: zones, point effects, TBR, diff-liveness.
    pub pi: &'a ProcInfo,
    /// Its activity.
    pub act: &'a ActivityInfo,
    /// The language of the procedure and its derivative.
    pub lang: Lang,
    /// Vector mode: derivatives carry a direction dimension.
    pub vector: bool,
    /// Adjoint mode: `f_b` with a forward and a backward sweep.
    pub adjoint: bool,
    /// Adjoint mode: which sweeps this unit holds.
    pub sweep: Sweep,
}

/// Builds the derivative version of one procedure.
pub struct ProcGen<'g, 'a> {
    /// What the rules read and never change: the procedure, its analyses, the mode.
    pub f: Facts<'a>,
    /// The program-wide generator: choices, names, the output program, diagnostics.
    pub g: &'g mut Gen<'a>,
    /// The derivative unit being built.
    pub u: UnitData,
    /// Primal variable → its derivative.
    pub dvar: HashMap<SymbolId, SymbolId>,
    /// Names used in this unit.
    local: HashSet<String>,
    /// For each base `fresh` was asked for, the suffix to try next (see `Gen::fresh_from`).
    suffixes: HashMap<String, usize>,
    /// Direction index and count (vector mode).
    nd: Option<SymbolId>,
    pub nbdirs: Option<SymbolId>,
    /// Temporaries to declare.
    temps: Vec<(SymbolId, TempKind)>,
    /// Fortran derivative functions of external procedures referenced here, with the bytes
    /// of their result: they need an `external` declaration.
    pub extern_funcs: Vec<(SymbolId, Type)>,
    /// C vector mode: derivatives of by-value arguments the procedure writes, with the
    /// argument they are copied from on entry (the caller's directions stay untouched),
    /// and whether it is a record (copied whole, outside a direction loop).
    entry_copies: Vec<(SymbolId, SymbolId, bool)>,
    /// Costly intrinsic calls of the statement being differentiated (outermost first), with
    /// the placeholder nodes standing for their copies: a call used twice (by the primal and
    /// by its partial) is computed once into a temporary.
    shared: Vec<(ExprId, Vec<ExprId>)>,
    /// The index in `shared` of each call not yet resolved (`cp` looks every node up here:
    /// a linear search would make a statement of n calls cost n²).
    shared_at: HashMap<ExprId, usize>,
    /// `kind_of` and `rank_of` of the primal's operator and call nodes, computed once: both
    /// recurse into operands and are asked at every level of a nested expression (n² on
    /// `abs(abs(...abs(x)))`, n deep, without the memo).
    kinds: std::cell::RefCell<HashMap<ExprId, u32>>,
    ranks: std::cell::RefCell<HashMap<ExprId, usize>>,
    /// The node count of primal expressions (`size_of`).
    sizes: std::cell::RefCell<HashMap<ExprId, usize>>,
    /// Inside the body of a FORALL or WHERE: no shared temporaries there (a scalar assigned
    /// in a FORALL body holds the value of the last index for every index, and WHERE bodies
    /// take array assignments only).
    /// Inside a branch of a C conditional (`c ? a : b`), which runs only when taken: its
    /// partials stay in place (not computed once before a vector direction loop).
    pub(crate) in_branch: u32,
    pub in_masked: bool,
    /// The values the tangent being built may read instead of computing them again
    /// ([`ProcGen::tangent`]).
    reuse: Reuse,
    /// The intrinsic call whose partials are being built, with its table row.
    cur_call: Option<(ExprId, &'static vocab::Routine)>,
    /// Set when an active real reference had no derivative to read (reported at the
    /// statement).
    pub lost_derivative: bool,
    /// Statements to follow the derivative call being built (`shadow.rs`: the frees of a
    /// zero derivative record's blocks): taken by the call rules after the call.
    pub post_call: Vec<StmtId>,
    /// Set when the tangent met an expression it cannot differentiate where it stands (a
    /// reference to a differentiated function that was not hoisted, an assignment or comma
    /// expression): what it was, reported at the statement.
    pub lost_value: Option<&'static str>,
    /// Set when an active argument reached an intrinsic radtap has no derivative rule for
    /// (or a form of one it does not differentiate): what it was, reported at the statement.
    no_rule: Option<String>,
    /// Whether the primal unit holds anything complex (computed once, `has_complex`).
    has_complex: std::cell::OnceCell<bool>,
    /// Direction loops built, which may be merged with their neighbours.
    pub dir_loops: HashSet<StmtId>,
    /// Function references hoisted out of the current statement: primal and derivative temp.
    pub hoisted: HashMap<ExprId, (SymbolId, Option<SymbolId>)>,
    /// Active zones before the current point.
    pub cur: ZoneSet,
    /// C scalar mode: the pointer receiving the primal result.
    pub result_ptr: Option<SymbolId>,
    /// Vector-mode partials computed before the direction loop.
    pub pre: Vec<StmtId>,
    /// C: declarations to put at the top of the body.
    pub c_local_decls: Vec<Decl>,
    /// The digamma helper is declared in this unit.
    digamma_declared: bool,
    /// Inside a vector-mode WHERE/FORALL copy: derivative statements only, not wrapped.
    pub deriv_only: bool,
    /// Fortran: the counter of head runs (in its COMMON block) and, in a procedure with
    /// saved derivatives, the run they were last zeroed in (`saved.rs`).
    run_counter: Option<SymbolId>,
    run_seen: Option<SymbolId>,
    /// A head that starts the runs (`saved.rs` `counts_runs`).
    counts: bool,
    /// While [`ProcGen::tangent`] builds a tangent: the derivative references it reads
    /// (output expression, primal reference).
    refs: Option<Vec<(ExprId, ExprId)>>,
    /// Adjoint mode, C: by-value arguments' adjoint pointer parameters and the local adjoint
    /// accumulating in the body.
    pub adj_by_ptr: Vec<(SymbolId, SymbolId)>,
}

/// Which sweeps an adjoint unit holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    /// Both (`f_b`), or not adjoint mode.
    Joint,
    /// Split mode `f_fwd`: the forward sweep, then the values its backward sweep reads.
    Fwd,
    /// Split mode `f_bwd`: those values, then the backward sweep.
    Bwd,
}

/// How a temporary is declared.
#[derive(Clone, Debug)]
pub enum TempKind {
    /// A real scalar of this many bytes (a derivative when `deriv`, with the direction
    /// dimension in vector mode).
    Real { bytes: u32, deriv: bool },
    /// A complex scalar whose parts have this many bytes (a derivative when `deriv`, with
    /// the direction dimension in vector mode).
    Complex { bytes: u32, deriv: bool },
    /// Like a primal variable (same type and shape); a derivative when `deriv`.
    Like { sym: SymbolId, deriv: bool },
    /// A default integer (adjoint mode: control codes, loop bounds, iteration counts).
    Int,
    /// A default logical array shaped like a primal array (adjoint mode: WHERE masks).
    Mask { sym: SymbolId },
    /// A C array of `len` reals of this many bytes (adjoint mode: a recorded array of
    /// constant size kept in a local instead of on the stack).
    RealArray { bytes: u32, len: u32 },
    /// A Fortran real array of these dimensions (expressions of the unit being built), a
    /// derivative when `deriv` (with the direction dimension first in vector mode): the
    /// value of a hoisted reference to an array-valued function and its derivative.
    Shaped {
        bytes: u32,
        deriv: bool,
        dims: Vec<Dim>,
    },
}

impl<'g, 'a> ProcGen<'g, 'a> {
    // ------------------------------------------------------------------ variables
}

/// Where the direction index goes in a derivative reference (vector mode).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// `xd(nd, i)`: inside a direction loop.
    Nd,
    /// `xd(:, i)`: an element passed to a scalar dummy.
    All,
    /// `xd(1, i)`: an element passed by sequence association to an array dummy.
    First,
    /// `xd`: no direction index (pointers, whole arrays passed on).
    Omit,
}

/// A type spec for a semantic type (implicitly typed Fortran variables, temporaries).
fn spec_of_type(lang: Lang, t: &Type) -> TypeSpec {
    let bytes = t.bytes.unwrap_or(8);
    let keyword = match (lang, t.base, bytes) {
        (Lang::Fortran, BaseClass::Real, 8) => "real(8)",
        (Lang::Fortran, BaseClass::Real, 10) => "real(10)",
        (Lang::Fortran, BaseClass::Real, 16) => "real(16)",
        (Lang::Fortran, BaseClass::Real, _) => "real",
        (Lang::Fortran, BaseClass::Complex, 16) => "complex(8)",
        (Lang::Fortran, BaseClass::Complex, 20) => "complex(10)",
        (Lang::Fortran, BaseClass::Complex, 32) => "complex(16)",
        (Lang::Fortran, BaseClass::Complex, _) => "complex",
        (Lang::Fortran, BaseClass::Integer, _) => "integer",
        (Lang::Fortran, BaseClass::Logical, _) => "logical",
        (Lang::C, BaseClass::Real, 4) => "float",
        (Lang::C, BaseClass::Real, 10 | 16) => "long double",
        (Lang::C, BaseClass::Real, _) => "double",
        (Lang::C, BaseClass::Integer, 8) => "long",
        (Lang::C, BaseClass::Integer, 2) => "short",
        (Lang::C, BaseClass::Integer, _) => "int",
        (Lang::Fortran, _, _) => "real(8)",
        (Lang::C, _, _) => "double",
    };
    TypeSpec {
        class: t.base,
        keyword: keyword.into(),
        name: None,
        kind: KindSel::Default,
        char_len: None,
        bytes: Some(bytes),
        qualifiers: Vec::new(),
        inline_def: None,
    }
}

fn plain_entity(sym: SymbolId) -> Entity {
    Entity {
        sym,
        dims: None,
        char_len: None,
        derived: Vec::new(),
        init: None,
    }
}
