//! A new symbol's data, as both frontends make it.

use radtap_il::*;

pub(crate) fn sym_data(spelling: &str, kind: SymbolKind, scope: ScopeId) -> SymbolData {
    SymbolData {
        spelling: spelling.to_string(),
        kind,
        scope,
        ty: None,
        attrs: SymAttrs::default(),
        unit: None,
        common: None,
        implicit_type: false,
    }
}
