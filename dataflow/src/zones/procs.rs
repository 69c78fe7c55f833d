//! A procedure's zone space ([`ProcZones`]): its own zones (dummies, result, locals,
//! pointees of pointer dummies, allocation sites, EQUIVALENCE groups) followed by the global
//! zones it uses, and the builder that numbers them; with the EQUIVALENCE offsets a group's
//! members share.

use super::globals::*;
use super::layout::*;
use super::symbols::*;
use crate::zoneset::{ZoneId, ZoneSet};
use radtap_il::{
    Decl, DimUpper, Expr, ExprId, Intent, Lang, Program, ScopeKind, Subscript, SymbolId,
    SymbolKind, TypeDefId, UnitId,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A procedure's zone space: own zones first, then the global zones it uses.
pub struct ProcZones {
    /// Zone descriptions in local numbering.
    pub zones: Vec<ZoneInfo>,
    /// Objects visible in the procedure, in local numbering.
    pub objects: BTreeMap<ObjKey, Obj>,
    /// Global zones included, sorted; `global_base + i` is the local id of `globals[i]`.
    pub globals: Vec<u32>,
    /// Local id of the first global zone.
    pub global_base: u32,
    /// Dummy arguments in parameter order.
    pub params: Vec<SymbolId>,
    /// Function result variable.
    pub result: Option<SymbolId>,
    /// Points-to sets of pointer variables.
    pub pts: BTreeMap<SymbolId, Vec<ObjKey>>,
    /// Differentiable zones.
    pub differentiable: ZoneSet,
    /// Objects whose address is taken in the procedure.
    pub address_taken: Vec<ObjKey>,
    /// Members of the procedure's EQUIVALENCE groups: their zones hold the storage of every
    /// member, so a write through one name is partial.
    pub equivalenced: BTreeSet<SymbolId>,
    /// Zones of C `const` objects of static storage (globals, `static const` locals): set
    /// before the program runs and never written by a valid program, so no write through a
    /// pointer or a call reaches them (a snapshot around a call popped into `static const
    /// double c`, in read-only memory: a crash); and of the procedure's Fortran INTENT(IN)
    /// dummies (a restore `x(1) = x_save` did not compile).
    pub readonly: ZoneSet,
    /// Statements that store the address of memory with differentiable zones somewhere the
    /// analyses do not follow (a C record member, array element, `*pp` or brace initialiser;
    /// a Fortran pointer component or element), with those zones
    /// (every differentiable zone of the universe when the address is unknown). Filled by
    /// `pointsto::compute`; the differentiators refuse them (a write through the stored
    /// pointer in a callee would be seen as a write of the record, not of the memory).
    pub escapes: Vec<(radtap_il::StmtId, ZoneSet)>,
    /// C pointers that take turns on blocks they allocated once (`tmp = u; u = unew;
    /// unew = tmp;`): within a group they never designate the same block
    /// ([`crate::rotation`]). Filled by `pointsto::compute`.
    pub rotations: Vec<crate::rotation::Rotation>,
    /// The global zones a routine radtap does not know may read and write (module
    /// variables, COMMON blocks, C globals of external linkage, and what global pointers
    /// point to), in local numbering; filled for procedures that call such a routine,
    /// directly or through their callees ([`Globals::reachable_by_unknown`]).
    pub unknown_reach: ZoneSet,
}

impl ProcZones {
    /// Number of zones.
    pub fn len(&self) -> usize {
        self.zones.len()
    }
    /// Whether there are no zones.
    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }
    /// An empty set over this procedure's zones.
    pub fn empty(&self) -> ZoneSet {
        ZoneSet::new(self.zones.len())
    }
    /// Local id of a global zone, if the procedure includes it.
    pub fn local_of_global(&self, gz: u32) -> Option<ZoneId> {
        self.globals
            .binary_search(&gz)
            .ok()
            .map(|i| ZoneId(self.global_base + i as u32))
    }
    /// The global zone behind a local id, if it is one.
    pub fn global_of_local(&self, z: ZoneId) -> Option<u32> {
        z.0.checked_sub(self.global_base)
            .and_then(|i| self.globals.get(i as usize).copied())
    }
    /// The zones of an object as a set.
    pub fn obj_set(&self, o: &Obj) -> ZoneSet {
        let mut s = self.empty();
        for z in o.start..o.start + o.len {
            s.insert(ZoneId(z));
        }
        s
    }
    /// Zones of the variable `s`, if it is visible here.
    pub fn sym_zones(&self, s: SymbolId) -> Option<ZoneSet> {
        self.objects.get(&ObjKey::Sym(s)).map(|o| self.obj_set(o))
    }
    /// Every object a pointer of unknown origin may reach.
    pub fn universe(&self, address_taken: &[ObjKey]) -> Vec<ObjKey> {
        let mut v: Vec<ObjKey> = self
            .objects
            .keys()
            .filter(|k| match k {
                ObjKey::Sym(s) => address_taken.contains(k) || self.is_global_obj(**k, *s),
                ObjKey::Pointee(_) | ObjKey::Heap(..) => true,
            })
            .copied()
            .collect();
        v.sort();
        v
    }

    fn is_global_obj(&self, k: ObjKey, _s: SymbolId) -> bool {
        self.objects
            .get(&k)
            .is_some_and(|o| o.start >= self.global_base)
    }
}

/// Builds the zone space of `unit`, including the global zones in `globals_used`. The
/// pointer destinations (`pts`, `address_taken`) are left empty: `pointsto::compute` fills
/// them from the zones.
pub(crate) fn build_proc_zones(
    prog: &Program,
    lay: &mut Layouts,
    globals: &Globals,
    unit: UnitId,
    globals_used: &BTreeSet<u32>,
) -> ProcZones {
    let u = &prog.units[unit];
    let mut zones: Vec<ZoneInfo> = Vec::new();
    let mut objects: BTreeMap<ObjKey, Obj> = BTreeMap::new();
    let add = |zones: &mut Vec<ZoneInfo>,
               objects: &mut BTreeMap<ObjKey, Obj>,
               key: ObjKey,
               leaves: Vec<ZoneInfo>,
               rec: Option<TypeDefId>,
               scalar: bool| {
        if objects.contains_key(&key) {
            return;
        }
        let start = zones.len() as u32;
        zones.extend(leaves);
        let len = zones.len() as u32 - start;
        objects.insert(
            key,
            Obj {
                start,
                len,
                rec,
                scalar,
            },
        );
    };
    // Own variables: the unit scope and every block scope nested in it (Fortran BLOCK, C
    // compound statements, including the bodies of `for`/`if`/`while`).
    let mut scopes = vec![u.scope];
    scopes.extend(
        prog.scopes
            .iter()
            .filter(|(_, sc)| sc.kind == ScopeKind::Block)
            .filter(|(id, _)| unit_of_scope(prog, *id) == Some(unit))
            .map(|(id, _)| id),
    );
    let mut own: Vec<SymbolId> = Vec::new();
    for p in &u.params {
        own.push(*p);
    }
    if let Some(r) = u.result {
        own.push(r);
    }
    for sc in &scopes {
        for &s in &prog.scopes[*sc].order {
            let sd = &prog.symbols[s];
            if sd.kind == SymbolKind::Variable
                && !named_constant(prog, s)
                && sd.common.is_none()
                && !globals.globalish.contains(&s)
                && !own.contains(&s)
            {
                own.push(s);
            }
        }
    }
    // EQUIVALENCE: members of a group share one zone; sets with a member in common are one
    // group (`(a, b), (c, d), (b, c)` is one group of four).
    let mut groups: Vec<Vec<SymbolId>> = Vec::new();
    for d in &u.decls {
        let Decl::Equivalence(gs) = d else { continue };
        for g in gs {
            let mut merged: Vec<SymbolId> = Vec::new();
            for &e in g {
                if let Some(s) = base_symbol(prog, unit, e) {
                    if !merged.contains(&s) {
                        merged.push(s);
                    }
                }
            }
            // Earlier groups' members first, so names keep the declaration order.
            let mut joined: Vec<SymbolId> = Vec::new();
            let mut i = 0;
            while i < groups.len() {
                if groups[i].iter().any(|s| merged.contains(s)) {
                    joined.extend(groups.remove(i));
                } else {
                    i += 1;
                }
            }
            for s in merged {
                if !joined.contains(&s) {
                    joined.push(s);
                }
            }
            groups.push(joined);
        }
    }
    // Every member of a group: a write through one name writes only part of the storage the
    // group's zone stands for, so it never kills that zone.
    let equivalenced: BTreeSet<SymbolId> = groups.iter().flatten().copied().collect();
    // Groups equivalenced into a COMMON block: their members outside the block share the
    // zones of the whole block (as declared in this unit), mapped once the globals are.
    let mut into_common: Vec<(SymbolId, Vec<SymbolId>)> = Vec::new();
    for g in &groups {
        if let Some(b) = g.iter().find_map(|s| prog.symbols[*s].common) {
            // The block's members declared here all have global zones this unit uses.
            let covered = g.iter().all(|s| {
                prog.symbols[*s].common != Some(b)
                    || globals.objects.get(&ObjKey::Sym(*s)).is_some_and(|o| {
                        (o.start..o.start + o.len).all(|z| globals_used.contains(&z))
                    })
            });
            if !covered {
                continue; // not expected; the locals keep zones of their own
            }
            let locals: Vec<SymbolId> = g
                .iter()
                .copied()
                .filter(|s| prog.symbols[*s].common.is_none())
                .collect();
            into_common.push((b, locals));
            continue;
        }
        let name = g
            .iter()
            .map(|s| prog.name(*s))
            .collect::<Vec<_>>()
            .join("=");
        let diff = g.iter().any(|s| sym_differentiable(prog, *s));
        let start = zones.len() as u32;
        zones.push(ZoneInfo {
            name,
            differentiable: diff,
        });
        for s in g {
            objects.insert(
                ObjKey::Sym(*s),
                Obj {
                    start,
                    len: 1,
                    rec: None,
                    scalar: false,
                },
            );
        }
    }
    for &s in &own {
        if into_common.iter().any(|(_, l)| l.contains(&s)) {
            continue;
        }
        let (leaves, rec, scalar) = sym_leaves(prog, lay, s, prog.name(s));
        add(
            &mut zones,
            &mut objects,
            ObjKey::Sym(s),
            leaves,
            rec,
            scalar,
        );
    }
    // Formal pointees of pointer dummies; C array dummies are their own (by-reference) object.
    for p in &u.params {
        if is_pointer(prog, *p) {
            let (leaves, rec) = pointee_leaves(prog, lay, *p);
            add(
                &mut zones,
                &mut objects,
                ObjKey::Pointee(*p),
                leaves,
                rec,
                false,
            );
        }
    }
    // Allocation sites.
    for (sid, s) in allocation_sites(prog, unit) {
        let (mut leaves, rec) = pointee_leaves(prog, lay, s);
        let line = u.source_map.stmt.get(sid).map(|sp| sp.line).unwrap_or(0);
        for l in &mut leaves {
            l.name = format!("{}@{line}", l.name);
        }
        add(
            &mut zones,
            &mut objects,
            ObjKey::Heap(unit, sid),
            leaves,
            rec,
            false,
        );
    }
    // Global zones used.
    let global_base = zones.len() as u32;
    let globals_v: Vec<u32> = globals_used.iter().copied().collect();
    for &gz in &globals_v {
        zones.push(globals.zones[gz as usize].clone());
    }
    for (k, o) in &globals.objects {
        if let Ok(i) = globals_v.binary_search(&o.start) {
            if globals_v.get(i + o.len as usize - 1) == Some(&(o.start + o.len - 1)) {
                objects.insert(
                    *k,
                    Obj {
                        start: global_base + i as u32,
                        ..*o
                    },
                );
            }
        }
    }
    // Locals equivalenced into a COMMON block: every zone of the block this unit declares
    // (contiguous: a block's global zones are, and this unit uses all of them).
    for (b, locals) in &into_common {
        let range = objects
            .iter()
            .filter(|(k, _)| {
                matches!(k, ObjKey::Sym(s) if prog.symbols[*s].common == Some(*b)
                    && unit_of_scope(prog, prog.symbols[*s].scope) == Some(unit))
            })
            .map(|(_, o)| (o.start, o.start + o.len))
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)));
        for &s in locals {
            let Some((lo, hi)) = range else { continue };
            let obj = Obj {
                start: lo,
                len: hi - lo,
                rec: None,
                scalar: false,
            };
            objects.insert(ObjKey::Sym(s), obj);
        }
    }
    // Names as spelled in this unit for COMMON members of one fragment. Other units'
    // spellings of the same fragment may be among the objects too: this unit's win, then
    // the first declared, so the names never depend on hash order.
    let mut members: Vec<(bool, SymbolId, u32)> = objects
        .iter()
        .filter_map(|(k, o)| match k {
            ObjKey::Sym(s) if prog.symbols[*s].common.is_some() && o.len == 1 => {
                let here = unit_of_scope(prog, prog.symbols[*s].scope) == Some(unit);
                Some((here, *s, o.start))
            }
            _ => None,
        })
        .collect();
    members.sort_by_key(|&(here, s, _)| (here, std::cmp::Reverse(s)));
    for (_, s, start) in members {
        let blk = prog.symbols[s].common.map(|b| prog.name(b).to_string());
        zones[start as usize].name = format!("/{}/{}", blk.unwrap_or_default(), prog.name(s));
    }
    let mut differentiable = ZoneSet::new(zones.len());
    for (i, z) in zones.iter().enumerate() {
        if z.differentiable {
            differentiable.insert(ZoneId(i as u32));
        }
    }
    let mut readonly = ZoneSet::new(zones.len());
    for (k, o) in &objects {
        if let ObjKey::Sym(x) = k {
            let sd = &prog.symbols[*x];
            let static_storage = o.start >= global_base || sd.attrs.save;
            let c = unit_of_scope(prog, sd.scope).is_none_or(|q| prog.units[q].lang == Lang::C)
                && u.lang == Lang::C;
            // A Fortran INTENT(IN) dummy of this procedure (not a pointer, whose target may
            // change): a valid program never changes it, so no call writes it and nothing
            // records or restores it (`x(1) = x_save` did not compile: OpenAD's
            // argumentConversionSaveIndex, a callee writing its dummy on a path not taken).
            let intent_in = u.lang == Lang::Fortran
                && sd.attrs.dummy
                && sd.attrs.intent == Some(Intent::In)
                && !sd.attrs.pointer
                && u.params.contains(x);
            if (sd.attrs.constant && static_storage && c && sd.kind != SymbolKind::Constant)
                || intent_in
            {
                for z in o.start..o.start + o.len {
                    readonly.insert(ZoneId(z));
                }
            }
        }
    }
    ProcZones {
        readonly,
        zones,
        objects,
        globals: globals_v,
        global_base,
        params: u.params.clone(),
        result: u.result,
        pts: BTreeMap::new(),
        differentiable,
        address_taken: Vec::new(),
        equivalenced,
        escapes: Vec::new(),
        rotations: Vec::new(),
        unknown_reach: ZoneSet::new(0),
    }
}

/// Byte offset of the storage unit `e` names (`v`, `v(i, j)`) from the start of `v`, when
/// its subscripts, bounds and element size are constants.
fn equiv_offset(prog: &Program, unit: UnitId, e: ExprId) -> Option<i64> {
    let u = &prog.units[unit];
    let (s, subs) = match &u.exprs[e] {
        Expr::Name(s) => return Some(0).filter(|_| prog.symbols[*s].ty.is_some()),
        Expr::Index { base, subs } => match u.exprs[*base] {
            Expr::Name(s) => (s, subs),
            _ => return None,
        },
        _ => return None,
    };
    let ty = prog.symbols[s].ty.as_ref()?;
    let elem = ty.bytes? as i64;
    if subs.len() != ty.dims.len() {
        return None;
    }
    let owner = unit_of_scope(prog, prog.symbols[s].scope)?;
    let (mut off, mut stride) = (0i64, 1i64);
    for (sub, d) in subs.iter().zip(&ty.dims) {
        let Subscript::Index(i) = sub else {
            return None;
        };
        let i = const_int(prog, unit, *i, 0)?;
        let lo = match d.lower {
            Some(l) => const_int(prog, owner, l, 0)?,
            None => 1,
        };
        off += (i - lo) * stride;
        if let DimUpper::Expr(up) = d.upper {
            stride *= (const_int(prog, owner, up, 0)? - lo + 1).max(0);
        }
    }
    Some(off * elem)
}

/// An EQUIVALENCE set of `unit` placing a variable outside the COMMON block it is
/// equivalenced into, as the unit declares the block (before its start, or extending it past
/// its end): the set's first member, the variable and the block. Only decided when the
/// subscripts, bounds and sizes are constants.
pub fn equivalence_outside_common(
    prog: &Program,
    unit: UnitId,
) -> Option<(ExprId, SymbolId, SymbolId)> {
    let u = &prog.units[unit];
    // Offsets of the COMMON members in this unit, and each block's size.
    let mut at: HashMap<SymbolId, i64> = HashMap::new();
    let mut size: HashMap<SymbolId, i64> = HashMap::new();
    for d in &u.decls {
        let Decl::Common(list) = d else { continue };
        for (_, ents) in list {
            for e in ents {
                let Some(b) = prog.symbols[e.sym].common else {
                    continue;
                };
                let n = size.entry(b).or_insert(0);
                if *n < 0 {
                    continue;
                }
                at.insert(e.sym, *n);
                match sym_bytes(prog, e.sym) {
                    Some(k) => *n += k,
                    None => *n = -1, // unknown from here on
                }
            }
        }
    }
    for d in &u.decls {
        let Decl::Equivalence(sets) = d else { continue };
        for set in sets {
            // The set's member in a COMMON block, at a known byte of the block.
            let anchor = set.iter().find_map(|&e| {
                let s = base_symbol(prog, unit, e)?;
                let b = prog.symbols[s].common?;
                Some((b, *at.get(&s)? + equiv_offset(prog, unit, e)?))
            });
            let Some((b, pos)) = anchor else { continue };
            let total = size.get(&b).copied().unwrap_or(-1);
            if total < 0 {
                continue;
            }
            for &e in set {
                let Some(s) = base_symbol(prog, unit, e) else {
                    continue;
                };
                if prog.symbols[s].common.is_some() {
                    continue;
                }
                let (Some(off), Some(n)) = (equiv_offset(prog, unit, e), sym_bytes(prog, s)) else {
                    continue;
                };
                let start = pos - off;
                if start < 0 || start + n > total {
                    return Some((set[0], s, b));
                }
            }
        }
    }
    None
}
