//! The element count of a C pointer argument of the head, for the driver's allocations: the
//! inference the generators use too ([`radtap_il::extent`], in its covering mode: a larger
//! array is safe for the driver), evaluated at the integer inputs' values.

use radtap_il::extent::{pointer_extent, Mode};
use radtap_il::*;
use std::collections::HashMap;

/// The element count pointer parameter `ptr` of unit `u` needs at the integer inputs `env`
/// (lower-case names), or `None` when the code does not tell.
pub fn infer(p: &Program, u: UnitId, ptr: SymbolId, env: &HashMap<String, i64>) -> Option<i64> {
    let ext = pointer_extent(p, u, ptr, Mode::Cover)?;
    let n = ext.eval(&|s| {
        env.get(&p.symbols[s].spelling.to_ascii_lowercase())
            .copied()
    })?;
    (n >= 0).then_some(n)
}
