//! The program's global zones, numbered once: module variables, C file-scope variables,
//! SAVE and `static` locals, variables a host shares with its internal procedures, the
//! pointees of global pointers, and COMMON blocks cut into fragments at the byte boundaries
//! of every unit's declaration of the block; and the ones a routine radtap does not know may
//! reach.

use super::layout::*;
use super::symbols::*;
use radtap_il::{Decl, Expr, Program, SymbolId, SymbolKind, UnitId, UnitKind};
use std::collections::{BTreeMap, BTreeSet};

/// The global zones of a program.
pub struct Globals {
    /// Zone descriptions, in global numbering.
    pub zones: Vec<ZoneInfo>,
    /// Global objects and their global ranges.
    pub objects: BTreeMap<ObjKey, Obj>,
    /// Procedure-local variables that are global-like (SAVE/static, host-associated,
    /// EQUIVALENCE storage is local and not here).
    pub(crate) globalish: BTreeSet<SymbolId>,
}

impl Globals {
    /// Numbers the global zones of `prog`.
    pub(crate) fn build(prog: &Program, lay: &mut Layouts, procs: &[UnitId]) -> Globals {
        let mut g = Globals {
            zones: Vec::new(),
            objects: BTreeMap::new(),
            globalish: BTreeSet::new(),
        };
        // Host association: a variable referenced from a unit other than its own.
        let mut foreign = BTreeSet::new();
        for &p in procs {
            let u = &prog.units[p];
            for (_, e) in u.exprs.iter() {
                if let Expr::Name(s) = e {
                    let sd = &prog.symbols[*s];
                    if sd.kind != SymbolKind::Variable {
                        continue;
                    }
                    if let Some(owner) = unit_of_scope(prog, sd.scope) {
                        let ok = prog.units[owner].kind;
                        if owner != p && !matches!(ok, UnitKind::Module | UnitKind::CFile) {
                            foreign.insert(*s);
                        }
                    }
                }
            }
        }
        // Module and C file-scope variables, SAVE/static locals, host variables.
        let mut syms: Vec<SymbolId> = Vec::new();
        for (_, u) in prog.units.iter() {
            let sc = &prog.scopes[u.scope];
            for &s in &sc.order {
                let sd = &prog.symbols[s];
                if sd.kind != SymbolKind::Variable || sd.common.is_some() {
                    continue;
                }
                let global = match u.kind {
                    UnitKind::Module | UnitKind::CFile => true,
                    _ => {
                        (sd.attrs.save && !sd.attrs.dummy && !named_constant(prog, s))
                            || foreign.contains(&s)
                    }
                };
                if global && !named_constant(prog, s) {
                    syms.push(s);
                }
            }
        }
        for s in syms {
            g.globalish.insert(s);
            let (names, rec, scalar) = sym_leaves(prog, lay, s, prog.name(s));
            let start = g.zones.len() as u32;
            g.zones.extend(names);
            let len = g.zones.len() as u32 - start;
            g.objects.insert(
                ObjKey::Sym(s),
                Obj {
                    start,
                    len,
                    rec,
                    scalar,
                },
            );
            // A global pointer has a formal pointee.
            if is_pointer(prog, s) {
                g.add_pointee(prog, lay, s);
            }
        }
        g.build_commons(prog);
        g
    }

    /// The global zones (global numbering) a routine without a body and without a
    /// description may read and write: what it can name (module variables, COMMON blocks, C
    /// file-scope variables that are not `static`) and what global pointers point to.
    /// SAVE/`static` locals, host variables and C `static` globals are out of its reach
    /// unless their address is passed, which the call's arguments say.
    pub(crate) fn reachable_by_unknown(&self, prog: &Program) -> BTreeSet<u32> {
        let mut out = BTreeSet::new();
        for (k, o) in &self.objects {
            let s = match k {
                ObjKey::Sym(s) | ObjKey::Pointee(s) => *s,
                ObjKey::Heap(..) => continue,
            };
            let sd = &prog.symbols[s];
            let reachable = sd.common.is_some()
                || unit_of_scope(prog, sd.scope).is_some_and(|q| match prog.units[q].kind {
                    UnitKind::Module => true,
                    UnitKind::CFile => !sd.attrs.save,
                    _ => false,
                });
            if reachable {
                out.extend(o.start..o.start + o.len);
            }
        }
        out
    }

    fn add_pointee(&mut self, prog: &Program, lay: &mut Layouts, s: SymbolId) {
        let (names, rec) = pointee_leaves(prog, lay, s);
        let start = self.zones.len() as u32;
        self.zones.extend(names);
        let len = self.zones.len() as u32 - start;
        self.objects.insert(
            ObjKey::Pointee(s),
            Obj {
                start,
                len,
                rec,
                scalar: false,
            },
        );
    }

    /// COMMON blocks: fragments by byte offset across every declaration of each block.
    fn build_commons(&mut self, prog: &Program) {
        // block name → list of (unit, members in order)
        let mut blocks: Vec<(String, Vec<Vec<SymbolId>>)> = Vec::new();
        for (_, u) in prog.units.iter() {
            for d in &u.decls {
                let Decl::Common(list) = d else { continue };
                for (name, ents) in list {
                    let key = name
                        .map(|n| prog.name(n).to_ascii_lowercase())
                        .unwrap_or_default();
                    let members: Vec<SymbolId> = ents.iter().map(|e| e.sym).collect();
                    match blocks.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, v)) => {
                            // Several COMMON statements for one block in a unit continue it;
                            // we keep one list per statement, which is enough for offsets
                            // when each unit declares the block once (the usual case).
                            v.push(members)
                        }
                        None => blocks.push((key, vec![members])),
                    }
                }
            }
        }
        for (name, decls) in blocks {
            // Byte layout of each declaration.
            let mut members: Vec<(SymbolId, Option<(i64, i64)>)> = Vec::new();
            let mut cuts: BTreeSet<i64> = BTreeSet::new();
            let mut exact = true;
            for d in &decls {
                let mut off = 0i64;
                cuts.insert(0);
                for &s in d {
                    let size = sym_bytes(prog, s);
                    match size {
                        Some(sz) if exact => {
                            members.push((s, Some((off, off + sz))));
                            off += sz;
                            cuts.insert(off);
                        }
                        _ => {
                            exact = false;
                            members.push((s, None));
                        }
                    }
                }
            }
            let label = if name.is_empty() {
                "//".to_string()
            } else {
                format!("/{name}/")
            };
            let start = self.zones.len() as u32;
            if !exact {
                // Unknown sizes: the whole block is one fragment.
                let diff = members.iter().any(|(s, _)| sym_differentiable(prog, *s));
                self.zones.push(ZoneInfo {
                    name: label.clone(),
                    differentiable: diff,
                });
                for (s, _) in members {
                    self.objects.insert(
                        ObjKey::Sym(s),
                        Obj {
                            start,
                            len: 1,
                            rec: None,
                            scalar: false,
                        },
                    );
                }
                continue;
            }
            let cuts: Vec<i64> = cuts.into_iter().collect();
            let nfrag = cuts.len().saturating_sub(1).max(1);
            let mut diff = vec![false; nfrag];
            let mut names: Vec<Option<String>> = vec![None; nfrag];
            let frag_of = |b: i64| cuts.iter().position(|&c| c == b).unwrap_or(0);
            for (s, span) in &members {
                let (lo, hi) = span.expect("exact layout");
                let (a, b) = (frag_of(lo), frag_of(hi).max(frag_of(lo) + 1));
                for f in a..b.min(nfrag) {
                    diff[f] |= sym_differentiable(prog, *s);
                    if names[f].is_none() && b - a == 1 {
                        names[f] = Some(format!("{label}{}", prog.name(*s)));
                    }
                }
            }
            for f in 0..nfrag {
                self.zones.push(ZoneInfo {
                    name: names[f]
                        .clone()
                        .unwrap_or_else(|| format!("{label}@{}", cuts[f])),
                    differentiable: diff[f],
                });
            }
            for (s, span) in members {
                let (lo, hi) = span.expect("exact layout");
                let (a, b) = (frag_of(lo), frag_of(hi).max(frag_of(lo) + 1));
                let scalar = prog.symbols[s]
                    .ty
                    .as_ref()
                    .is_none_or(|t| t.dims.is_empty());
                self.objects.insert(
                    ObjKey::Sym(s),
                    Obj {
                        start: start + a as u32,
                        len: (b - a) as u32,
                        rec: None,
                        scalar: scalar && b - a == 1,
                    },
                );
            }
        }
    }
}
