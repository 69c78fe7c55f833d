//! What a zone and an object are ([`ZoneInfo`], [`ObjKey`], [`Obj`]), and how a variable is
//! cut into zones: records laid out leaf by leaf in depth-first order ([`Layouts`], so every
//! field path is a contiguous range), the zones of a variable and of the formal pointee of a
//! pointer.

use super::symbols::*;
use radtap_il::{BaseClass, Decl, Lang, Program, SymbolId, TypeDefId, UnitId};
use std::collections::HashMap;

/// What a zone is, for printing and for mapping across calls.
#[derive(Clone, Debug)]
pub struct ZoneInfo {
    /// Printable name: `x`, `s%f`, `p->x`, `*p`, `/blk/a`.
    pub name: String,
    /// Of a differentiable type (real or complex).
    pub differentiable: bool,
}

/// Something that owns a range of zones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjKey {
    /// A variable (local, dummy, result, global).
    Sym(SymbolId),
    /// The formal pointee `*p` of a pointer dummy or pointer global.
    Pointee(SymbolId),
    /// Memory allocated by a statement (`malloc`, `ALLOCATE` of a pointer).
    Heap(UnitId, radtap_il::StmtId),
}

/// A contiguous range of zones with the record type laid out in it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Obj {
    /// First zone.
    pub start: u32,
    /// Number of zones.
    pub len: u32,
    /// Record type whose leaves the range holds (for field selection).
    pub rec: Option<TypeDefId>,
    /// A scalar (not an array): a total write through a unique pointer kills it.
    pub scalar: bool,
}

/// Layouts of records: leaves in depth-first order.
#[derive(Default)]
pub(crate) struct Layouts {
    memo: HashMap<TypeDefId, Vec<(String, bool)>>,
}

impl Layouts {
    /// Leaves of a record type: (path suffix like `%x%y` or `.x`, differentiable).
    pub(crate) fn leaves(&mut self, prog: &Program, td: TypeDefId) -> Vec<(String, bool)> {
        self.leaves_depth(prog, td, 0)
    }

    fn leaves_depth(&mut self, prog: &Program, td: TypeDefId, depth: u32) -> Vec<(String, bool)> {
        if let Some(v) = self.memo.get(&td) {
            return v.clone();
        }
        let t = &prog.typedefs[td];
        let lang = prog.units[t.unit].lang;
        let sep = if lang == Lang::Fortran { "%" } else { "." };
        let mut out = Vec::new();
        for d in &t.fields {
            let Decl::Var(v) = d else { continue };
            for e in &v.entities {
                let sd = &prog.symbols[e.sym];
                let name = format!("{sep}{}", sd.spelling);
                let ty = sd.ty.as_ref();
                let by_ref =
                    sd.attrs.pointer || ty.is_some_and(|t| t.pointers > 0) || !e.derived.is_empty();
                match ty.map(|t| t.base) {
                    Some(BaseClass::Record(inner)) if !by_ref && depth < 16 && inner != td => {
                        for (suffix, diff) in self.leaves_depth(prog, inner, depth + 1) {
                            out.push((format!("{name}{suffix}"), diff));
                        }
                    }
                    Some(BaseClass::Record(inner)) => {
                        // A pointer to a record: one zone for everything reachable from it.
                        let diff = self.has_real(prog, inner, depth + 1);
                        out.push((name, diff));
                    }
                    Some(b) => out.push((name, is_diff_base(b))),
                    None => out.push((name, false)),
                }
            }
        }
        if out.is_empty() {
            out.push((String::new(), false));
        }
        self.memo.insert(td, out.clone());
        out
    }

    fn has_real(&mut self, prog: &Program, td: TypeDefId, depth: u32) -> bool {
        if depth > 16 {
            return false;
        }
        prog.typedefs[td].fields.iter().any(|d| {
            let Decl::Var(v) = d else { return false };
            v.entities.iter().any(|e| {
                matches!(
                    prog.symbols[e.sym].ty.as_ref().map(|t| t.base),
                    Some(BaseClass::Real | BaseClass::Complex)
                )
            })
        })
    }

    /// The zone range of field `field` inside a record of type `td`: (offset, len, type).
    pub(crate) fn field(
        &mut self,
        prog: &Program,
        td: TypeDefId,
        field: &str,
    ) -> Option<(u32, u32, Option<TypeDefId>)> {
        let t = &prog.typedefs[td];
        let mut off = 0u32;
        for d in &t.fields {
            let Decl::Var(v) = d else { continue };
            for e in &v.entities {
                let sd = &prog.symbols[e.sym];
                let ty = sd.ty.as_ref();
                let by_ref =
                    sd.attrs.pointer || ty.is_some_and(|t| t.pointers > 0) || !e.derived.is_empty();
                let (len, rec) = match ty.map(|t| t.base) {
                    Some(BaseClass::Record(inner)) if !by_ref && inner != td => {
                        (self.leaves(prog, inner).len() as u32, Some(inner))
                    }
                    _ => (1, None),
                };
                if sd.spelling.eq_ignore_ascii_case(field) {
                    return Some((off, len, rec));
                }
                off += len;
            }
        }
        None
    }
}

/// Zones of a variable: leaves of its record type, or one zone.
pub(crate) fn sym_leaves(
    prog: &Program,
    lay: &mut Layouts,
    s: SymbolId,
    name: &str,
) -> (Vec<ZoneInfo>, Option<TypeDefId>, bool) {
    let sd = &prog.symbols[s];
    let ty = sd.ty.as_ref();
    let scalar = ty.is_none_or(|t| t.dims.is_empty());
    if is_pointer(prog, s) {
        // The pointer itself: an address, never differentiable.
        return (
            vec![ZoneInfo {
                name: name.to_string(),
                differentiable: false,
            }],
            None,
            scalar,
        );
    }
    match ty.map(|t| t.base) {
        Some(BaseClass::Record(td)) => {
            let leaves = lay.leaves(prog, td);
            (
                leaves
                    .into_iter()
                    .map(|(suffix, differentiable)| ZoneInfo {
                        name: format!("{name}{suffix}"),
                        differentiable,
                    })
                    .collect(),
                Some(td),
                scalar,
            )
        }
        Some(b) => (
            vec![ZoneInfo {
                name: name.to_string(),
                differentiable: is_diff_base(b),
            }],
            None,
            scalar,
        ),
        None => (
            vec![ZoneInfo {
                name: name.to_string(),
                differentiable: false,
            }],
            None,
            scalar,
        ),
    }
}

/// Zones of the formal pointee `*p` of pointer `p`.
pub(crate) fn pointee_leaves(
    prog: &Program,
    lay: &mut Layouts,
    s: SymbolId,
) -> (Vec<ZoneInfo>, Option<TypeDefId>) {
    let sd = &prog.symbols[s];
    let lang = unit_of_scope(prog, sd.scope)
        .map(|u| prog.units[u].lang)
        .unwrap_or(Lang::C);
    let name = if lang == Lang::Fortran {
        format!("{}=>", sd.spelling)
    } else {
        format!("*{}", sd.spelling)
    };
    let ty = sd.ty.as_ref();
    match ty.map(|t| t.base) {
        Some(BaseClass::Record(td)) => {
            let sep_name = if lang == Lang::Fortran {
                sd.spelling.to_string()
            } else {
                format!("{}->", sd.spelling)
            };
            let leaves = lay.leaves(prog, td);
            (
                leaves
                    .into_iter()
                    .map(|(suffix, differentiable)| ZoneInfo {
                        name: if lang == Lang::C {
                            format!("{sep_name}{}", suffix.trim_start_matches('.'))
                        } else {
                            format!("{sep_name}{suffix}")
                        },
                        differentiable,
                    })
                    .collect(),
                Some(td),
            )
        }
        Some(b) => (
            vec![ZoneInfo {
                name,
                differentiable: is_diff_base(b) && ty.is_some_and(|t| t.pointers <= 1),
            }],
            None,
        ),
        None => (
            vec![ZoneInfo {
                name,
                differentiable: false,
            }],
            None,
        ),
    }
}
