//! The OpenMP directive of a statement as data (issue 45; the helpers are in `omp.rs`).
//! Generic in the clause variables' type so that `ir` can hold it without this module
//! naming `ir` (files of a crate never name each other both ways: `tests/boundaries.rs`).

/// An OpenMP directive governing one statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OmpOf<S> {
    /// What it is.
    pub kind: OmpKindOf<S>,
    /// Where the directive is, when it came from the source.
    pub span: Option<crate::diag::Span>,
}

/// The constructs radtap gives a meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OmpKindOf<S> {
    /// A parallel loop (`parallel for` / `parallel do`) over a DO or counted C `for`.
    Loop(Vec<OmpClauseOf<S>>),
    /// `omp atomic` on an update `x = x op e` / `x op= e`.
    Atomic,
    /// `omp critical [(name)]` on a block (a `StmtKind::Block` of kind `C`, in both
    /// languages: Fortran's `!$omp critical … !$omp end critical` is written without
    /// `block`/`end block`).
    Critical(Option<String>),
    /// `parallel sections` on a block whose statements are its sections (blocks marked
    /// [`OmpKindOf::Section`]), with the construct's clauses.
    Sections(Vec<OmpClauseOf<S>>),
    /// `section`: one block of a `parallel sections` construct.
    Section,
}

/// A clause of a parallel loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OmpClauseOf<S> {
    /// `private(…)`.
    Private(Vec<S>),
    /// `firstprivate(…)`.
    FirstPrivate(Vec<S>),
    /// `lastprivate(…)`.
    LastPrivate(Vec<S>),
    /// `shared(…)`.
    Shared(Vec<S>),
    /// `reduction(op: …)`, the operator as written (`+`, `*`, `max`, `min`, …).
    Reduction(String, Vec<S>),
    /// `reduction(op: x[:len])` (C, an array section from 0) / `reduction(op: x)` (Fortran,
    /// the whole array): an array the iterations all increment, written by the adjoint.
    ArrayReduction(String, S, Option<OmpLenOf<S>>),
    /// `collapse(n)`.
    Collapse(u32),
    /// `default(…)`, the argument as written.
    Default(String),
    /// Anything else (`schedule(static)`, `num_threads(4)`, `nowait`), as written.
    Other(String),
}

/// The length of an array section in a clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OmpLenOf<S> {
    /// A constant.
    Const(u64),
    /// A variable (an integer argument `n`).
    Var(S),
}
