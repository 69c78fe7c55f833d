//! What an expression designates: the objects and zones of a reference (`a(i)`, `s%f`,
//! `p->x`, `*p`, through the points-to sets, the whole universe when a dereference is not
//! resolved), the zones its subscripts read, and the value of an address (`&x`, an array
//! passed whole).

use super::types::*;
use crate::zones::{is_pointer, Obj, ObjKey};
use crate::zoneset::ZoneSet;
use radtap_il::{Expr, ExprId, Lang, Subscript, SymbolKind, UnOp};
use std::collections::BTreeMap;

impl Eval<'_> {
    pub(super) fn objs_zones(&self, objs: &[Obj]) -> ZoneSet {
        let mut s = self.empty();
        for o in objs {
            s.union_with(&self.pz.obj_set(o));
        }
        s
    }

    /// The value of a reference: its zones, differentiable ones with the address as partial
    /// uses (`a(i)`'s derivative reads `i`).
    pub(super) fn ref_value(&self, r: &Ref) -> Val {
        let zs = self.objs_zones(&r.objs);
        let mut reads = zs.clone();
        reads.union_with(&r.addr);
        let mut diff = BTreeMap::new();
        for z in zs.iter() {
            if self.pz.differentiable.contains(z) {
                diff.insert(z, r.addr.clone());
            }
        }
        Val { reads, diff }
    }

    pub(super) fn objs_of_keys(&self, keys: &[ObjKey]) -> Vec<Obj> {
        keys.iter()
            .filter_map(|k| self.pz.objects.get(k).copied())
            .collect()
    }

    pub(super) fn universe_objs(&self) -> Vec<Obj> {
        self.objs_of_keys(&self.pz.universe(&self.pz.address_taken))
    }

    /// What a pointer-valued expression points to.
    pub(super) fn deref(&mut self, p: ExprId) -> Ref {
        let t = crate::pointsto::targets(self.prog, self.unit, p, &self.pz.pts);
        let v = self.addr_value(p);
        let objs = match t {
            crate::pointsto::Targets::Objs(k) => self.objs_of_keys(&k),
            crate::pointsto::Targets::Unknown => self.universe_objs(),
        };
        let total = objs.len() == 1 && objs[0].scalar && objs[0].len == 1;
        Ref {
            objs,
            total: total
                && matches!(
                    self.u.exprs[crate::zones::strip_parens(self.prog, self.unit, p)],
                    Expr::Unary {
                        op: UnOp::AddrOf,
                        ..
                    }
                ),
            addr: v.reads,
        }
    }

    /// Resolves a reference expression to memory; `None` for a non-reference (a value).
    /// `as_pointer` resolves a Fortran POINTER name to the pointer itself, not its target.
    pub(super) fn reference(&mut self, e: ExprId, as_pointer: bool) -> Option<Ref> {
        match &self.u.exprs[e] {
            Expr::Name(s) => {
                let sd = &self.prog.symbols[*s];
                if !matches!(sd.kind, SymbolKind::Variable | SymbolKind::Unknown) {
                    return None;
                }
                if sd.attrs.pointer && !as_pointer && self.u.lang == Lang::Fortran {
                    // Fortran: a pointer name in an expression stands for its target.
                    let keys = self.pz.pts.get(s).cloned().unwrap_or_default();
                    let objs = self.objs_of_keys(&keys);
                    return Some(Ref {
                        total: false,
                        objs,
                        addr: self.empty(),
                    });
                }
                let o = self.pz.objects.get(&ObjKey::Sym(*s)).copied()?;
                Some(Ref {
                    objs: vec![o],
                    // A member of an EQUIVALENCE writes part of its group's storage.
                    total: !self.pz.equivalenced.contains(s),
                    addr: self.empty(),
                })
            }
            Expr::Index { base, subs } => {
                let (base, subs) = (*base, subs.clone());
                let whole = subs
                    .iter()
                    .all(|s| matches!(s, Subscript::Range(None, None, None)));
                let mut addr = self.empty();
                for s in &subs {
                    let z = self.subscript(s);
                    addr.union_with(&z);
                }
                // `p[i]`, `(p)[i]`, `(p + 1)[0]`: the memory p points to, not p itself.
                let base_is_c_pointer = self.u.lang == Lang::C
                    && crate::zones::is_pointer_base(self.prog, self.unit, base);
                let mut r = if base_is_c_pointer {
                    self.deref(base)
                } else {
                    self.reference(base, false)?
                };
                r.total &= whole;
                r.addr.union_with(&addr);
                Some(r)
            }
            Expr::Field { base, field, arrow } => {
                let (base, field, arrow) = (*base, field.clone(), *arrow);
                let r = if arrow {
                    self.deref(base)
                } else {
                    self.reference(base, false)?
                };
                let mut objs = Vec::new();
                let mut lay = self.env.layouts.borrow_mut();
                for o in &r.objs {
                    match o.rec.and_then(|td| lay.field(self.prog, td, &field)) {
                        Some((off, len, rec)) if off + len <= o.len => objs.push(Obj {
                            start: o.start + off,
                            len,
                            rec,
                            scalar: o.scalar,
                        }),
                        _ => objs.push(*o),
                    }
                }
                Some(Ref {
                    objs,
                    total: r.total,
                    addr: r.addr,
                })
            }
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => Some(self.deref(*arg)),
            Expr::Paren(a) => self.reference(*a, as_pointer),
            _ => None,
        }
    }

    pub(super) fn subscript(&mut self, s: &Subscript) -> ZoneSet {
        let mut out = self.empty();
        match s {
            Subscript::Index(e) => {
                let v = self.value(*e);
                out.union_with(&v.reads);
            }
            Subscript::Range(a, b, c) => {
                for e in [a, b, c].into_iter().flatten() {
                    let v = self.value(*e);
                    out.union_with(&v.reads);
                }
            }
        }
        out
    }

    /// The value of a pointer-valued expression: it reads the pointer and the address parts.
    pub(super) fn addr_value(&mut self, e: ExprId) -> Val {
        match &self.u.exprs[e] {
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => match self.reference(*arg, true) {
                Some(r) => Val {
                    reads: r.addr,
                    diff: BTreeMap::new(),
                },
                None => self.value(*arg).nondiff(),
            },
            Expr::Name(s) if !is_pointer(self.prog, *s) => Val {
                // An array converted to its address reads nothing.
                reads: self.empty(),
                diff: BTreeMap::new(),
            },
            Expr::Name(s) => {
                let mut reads = self.empty();
                if let Some(o) = self.pz.objects.get(&ObjKey::Sym(*s)) {
                    reads.union_with(&self.pz.obj_set(o));
                }
                Val {
                    reads,
                    diff: BTreeMap::new(),
                }
            }
            _ => self.value(e).nondiff(),
        }
    }
}
