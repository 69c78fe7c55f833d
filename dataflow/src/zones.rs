//! Memory zones: the program's memory cut into pieces the analyses track.
//!
//! - One zone per scalar or whole array of a basic type (Tapenade does not distinguish array
//!   elements: writing `a(i)` writes zone `a` partially).
//! - One zone per leaf field of a derived type or struct, recursively, laid out in depth-first
//!   order so that every field path (`s%f`, `s%g%h`) is a contiguous range of zones.
//! - One zone per *fragment* of a COMMON block: the byte boundaries of every declaration of
//!   the block in every unit cut it into pieces, and each member covers a contiguous range of
//!   pieces.
//! - One zone per EQUIVALENCE group of a procedure's own variables (sets sharing a member are
//!   one group); a group holding a COMMON member gives its other members the zones of the
//!   whole block as this unit declares it. A write through any member of a group is partial
//!   (`ProcZones::equivalenced`): it never kills the storage the other names see.
//! - Global zones (module variables, C file-scope variables, COMMON fragments, SAVE and C
//!   `static` locals, variables of a host used by its internal procedures) are numbered once
//!   for the program. Each procedure's zone space is its own zones (dummies, result, locals,
//!   pointees of pointer dummies, allocation sites) followed by the global zones it uses
//!   directly or through its callees, so summaries translate between callee and caller by
//!   table lookups.
//!
//! Pointer destinations are a flow-insensitive, intraprocedural may-analysis (Andersen-style):
//! a pointer variable points to every object any assignment in the procedure may make it
//! point to (`p = &v`, `p = a`, `p = q + k`, `p => t`, `malloc`/`ALLOCATE`: one object per
//! allocation statement). A pointer dummy or pointer global points to its *formal pointee*
//! (`*x`), which a call maps to what the actual argument points to. A dereference the analysis
//! cannot resolve (a pointer loaded from a struct field or an array of pointers) may reach
//! every object whose address is taken in the procedure, every pointee and allocation and
//! every global: sound, and coarse. Pointer components of derived types hold their target as
//! one zone of the containing object (aliasing between two such targets is not modelled).

mod globals;
mod layout;
mod procs;
mod symbols;

pub use globals::Globals;
pub(crate) use layout::Layouts;
pub use layout::{Obj, ObjKey, ZoneInfo};
pub(crate) use procs::build_proc_zones;
pub use procs::{equivalence_outside_common, ProcZones};
pub use symbols::{base_symbol, const_int, is_diff_base, is_pointer, unit_of_scope};
pub(crate) use symbols::{is_alloc_call, is_pointer_base, named_constant, strip_parens};
