//! # radtap-flowgraph: basic blocks per procedure, and the call graph
//!
//! The IL keeps structured control as trees so the output reads like the input. Analyses need
//! the flow of control instead, so this crate builds, per procedure, a graph of basic blocks
//! whose contents are *points*: a simple statement ([`Part::Whole`]), or one piece of a
//! structured statement: the i-th condition of an IF/WHERE, the selector of a SELECT or
//! switch, the initialisation, test and increment of a loop. A point names its statement, so
//! every analysis fact can be printed next to the original statement (the link back to the
//! structured code), and the differentiators can look facts up by statement.
//!
//! Invariants:
//! - block 0 is the entry and block 1 the exit; the entry is empty apart from edges to the
//!   first statement and to each `ENTRY` statement (alternate entries);
//! - a block with two or more successors ends with the point that decides between them (its
//!   *test*), except the entry block;
//! - every jump (GOTO, computed GOTO, arithmetic IF, EXIT/CYCLE, break/continue, RETURN, STOP)
//!   is an edge; code after a jump starts a fresh block with no predecessor (unreachable
//!   blocks stay in the graph but are absent from [`FlowGraph::rpo`]);
//! - control dependence is computed from post-dominators, so GOTO-built control is covered
//!   as well as structured control.
//!
//! The call graph ([`CallGraph`]) lists every call site with its possible callees, resolves
//! Fortran generic interfaces to the specific procedures that accept the actual arguments'
//! type, kind and rank (all of them when the types cannot tell them apart; `generic.rs`)
//! and C function pointers (and
//! Fortran dummy procedures) to every procedure whose address is taken with the same arity,
//! and orders strongly connected components bottom-up (callees first) for summaries.
//!
//! This crate reads the IL and never changes it.

mod callgraph;
mod cfg;
mod generic;

pub use callgraph::{CallGraph, CallSite, Callee};
pub use cfg::{BlockData, BlockId, FlowGraph, Part, Point};
