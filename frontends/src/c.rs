//! C lowering (placeholder replaced below).
use radtap_il::*;
pub(crate) fn lower_c_file(_p: &mut Program, _d: &mut Vec<Diagnostic>, _file: u32, _src: &str, _root: tree_sitter::Node, _g: ScopeId) -> Vec<FileItem> { vec![] }
