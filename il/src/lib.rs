//! # radtap-il: the language-neutral intermediate language
//!
//! Everything between the frontends and the unparsers speaks this IL. A [`Program`] holds the
//! input files; files hold *units* (Fortran program units, module procedures, C translation
//! units and their functions). Each unit owns a symbol table ([`ScopeData`], nested through
//! `parent`, with `USE` imports) and two arenas, statements and expressions, addressed by typed
//! ids ([`StmtId`], [`ExprId`]). Source spans live in a side table ([`SourceMap`]), never on the
//! nodes, so transformations build new nodes without spans and snapshots do not churn.
//!
//! Invariants (checked by [`verify()`]):
//! - every id stored in a unit points into that unit's arenas, and every statement appears
//!   once in the unit's tree;
//! - names in expressions are resolved to symbols ([`Expr::Name`]); the only unresolved names
//!   are [`Expr::Opaque`] (C macros and names from modules outside the program); a call
//!   the generators build to a routine of the vocabulary has the typed callee
//!   [`Expr::Intrinsic`] (its record and the spelling written), which consumers compare
//!   by record (the frontends still resolve a source call to its symbol);
//! - structured control (IF, DO, SELECT, C for/while/switch) is kept as trees for readable
//!   output; GOTO, EXIT/CYCLE, break/continue and RETURN are explicit jump statements;
//! - declarations keep their source order and spelling, comments included, so the unparsers
//!   can write code that reads like the input.
//!
//! Fortran and C differ only where their semantics do: by-reference vs by-value arguments and
//! array base are attributes ([`SymAttrs::value`]); C-only constructs (`?:`, `++`, `switch`
//! with fall-through) are their own variants.
//!
//! Besides the IL, [`extent`] infers the element count of a C pointer argument from the code
//! (subscripts over loop counters and integer arguments, through the helpers the pointer is
//! passed to): a question on the IL alone that the generators and the validation driver
//! both ask, so it lives below both.
//!
//! [`clib`] is the list of C library functions radtap knows by name: any other C function
//! without a body is an unknown routine, whatever headers declare it.
//!
//! [`vocab`] holds one record per intrinsic and C library function radtap knows by name
//! (spellings, effects, properties, derivative rule), read by every crate that needs a fact
//! about one; [`vocab::RoutineRef`] names a record in the IL.
//!
//! [`library`] reads descriptions of routines without source (Tapenade's library syntax, `-ext`)
//! and holds radtap's built-in ones (reference BLAS, CBLAS).
//!
//! This crate knows nothing of tree-sitter, petgraph or bitsets.

pub mod alloc;
pub mod any_length;
mod arena;
pub mod blocks;
pub mod clib;
pub mod comma;
pub mod copy;
pub mod cse;
pub mod diag;
pub mod directives;
pub mod dump;
pub mod early_return;
mod explain;
pub mod extent;
pub mod fwdgoto;
pub mod hoist;
pub mod incdec;
pub mod inline;
pub mod intrinsic_args;
pub mod invariant;
pub mod invariant_expr;
mod ir;
pub mod labelled_do;
pub mod library;
pub mod lift;
mod make;
pub mod member_count;
pub mod memcpy;
pub mod omp;
pub mod omp_reduce;
mod omp_types;
pub mod slices;
pub mod source_alloc;
pub mod specialise;
pub mod statics;
pub mod stmtfn;
pub mod subscripts;
pub mod ternary;
mod valexpr;
mod verify;
pub mod visit;
pub mod vocab;

pub use arena::{Arena, ArenaMap, Idx};
pub use diag::{Code, Diagnostic, Severity, Span};
pub use directives::{BinomialArgs, Directive, DirectiveKind, FpLoopArgs};
pub use ir::*;
pub use verify::{verify, VerifyError};
