//! The IL data types: program, files, units, scopes, symbols, declarations, statements and
//! expressions, one file each, all re-exported at the crate root.
//!
//! The files name each other's types through the crate root (`crate::X`), never directly.

mod decls;
mod exprs;
mod program;
mod stmts;
mod symbols;

pub use decls::*;
pub use exprs::*;
pub use program::*;
pub use stmts::*;
pub use symbols::*;
