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

use crate::zoneset::{ZoneId, ZoneSet};
use radtap_il::{
    BaseClass, Decl, Dim, DimUpper, Expr, ExprId, Init, Intent, Lang, LitKind, Program, ScopeId,
    ScopeKind, StmtKind, Subscript, SymbolId, SymbolKind, TypeDefId, UnitId, UnitKind,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};

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

/// Whether values of this base class carry derivatives.
pub fn is_diff_base(b: BaseClass) -> bool {
    matches!(b, BaseClass::Real | BaseClass::Complex)
}

/// The unit owning a scope (walking out of BLOCK scopes).
pub fn unit_of_scope(prog: &Program, s: ScopeId) -> Option<UnitId> {
    prog.unit_of_scope(s)
}

/// A named constant: a Fortran PARAMETER or C enumerator. C `const` objects are variables
/// that are never written after their initialisation (`const double u = t*t;`).
pub(crate) fn named_constant(prog: &Program, s: SymbolId) -> bool {
    let sd = &prog.symbols[s];
    sd.kind == SymbolKind::Constant
        || (sd.attrs.constant
            && unit_of_scope(prog, sd.scope).is_none_or(|u| prog.units[u].lang == Lang::Fortran))
}

/// Integer value of a constant expression of `unit` (literals, PARAMETERs, + - * /).
pub fn const_int(prog: &Program, unit: UnitId, e: ExprId, depth: u32) -> Option<i64> {
    if depth > 32 {
        return None;
    }
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Literal(l) if l.kind == LitKind::Int => {
            let t = l
                .text
                .split('_')
                .next()?
                .trim_end_matches(['u', 'U', 'l', 'L']);
            t.parse().ok()
        }
        Expr::Paren(a) => const_int(prog, unit, *a, depth + 1),
        Expr::Unary {
            op: radtap_il::UnOp::Neg,
            arg,
        } => const_int(prog, unit, *arg, depth + 1).map(|v| -v),
        Expr::Binary { op, lhs, rhs } => {
            let a = const_int(prog, unit, *lhs, depth + 1)?;
            let b = const_int(prog, unit, *rhs, depth + 1)?;
            use radtap_il::BinOp::*;
            match op {
                Add => a.checked_add(b),
                Sub => a.checked_sub(b),
                Mul => a.checked_mul(b),
                Div if b != 0 => Some(a / b),
                _ => None,
            }
        }
        Expr::Name(s) => {
            let sd = &prog.symbols[*s];
            if !(sd.attrs.constant || sd.kind == SymbolKind::Constant) {
                return None;
            }
            let owner = unit_of_scope(prog, sd.scope)?;
            let (iu, ie) = constant_init(prog, owner, *s)?;
            const_int(prog, iu, ie, depth + 1)
        }
        _ => None,
    }
}

fn constant_init(prog: &Program, unit: UnitId, s: SymbolId) -> Option<(UnitId, ExprId)> {
    for d in &prog.units[unit].decls {
        match d {
            Decl::Parameter(items) => {
                if let Some((_, e)) = items.iter().find(|(x, _)| *x == s) {
                    return Some((unit, *e));
                }
            }
            Decl::Var(v) => {
                for ent in &v.entities {
                    if ent.sym == s {
                        if let Some(Init::Expr(e)) = ent.init {
                            return Some((unit, e));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Number of elements of a symbol's dimensions when all are constant.
fn element_count(prog: &Program, unit: UnitId, dims: &[Dim]) -> Option<i64> {
    let mut n = 1i64;
    for d in dims {
        let DimUpper::Expr(up) = d.upper else {
            return None;
        };
        let hi = const_int(prog, unit, up, 0)?;
        let lo = match d.lower {
            Some(l) => const_int(prog, unit, l, 0)?,
            None => 1,
        };
        n = n.checked_mul((hi - lo + 1).max(0))?;
    }
    Some(n)
}

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

/// Bytes of a variable when its element size and extents are constant.
fn sym_bytes(prog: &Program, s: SymbolId) -> Option<i64> {
    let sd = &prog.symbols[s];
    let ty = sd.ty.as_ref()?;
    let elem = ty.bytes? as i64;
    let unit = unit_of_scope(prog, sd.scope)?;
    Some(elem * element_count(prog, unit, &ty.dims)?)
}

fn sym_differentiable(prog: &Program, s: SymbolId) -> bool {
    let sd = &prog.symbols[s];
    sd.ty
        .as_ref()
        .is_some_and(|t| is_diff_base(t.base) && t.pointers == 0 && !sd.attrs.pointer)
}

/// Whether `s` holds an address: a C pointer, or a Fortran POINTER.
pub fn is_pointer(prog: &Program, s: SymbolId) -> bool {
    let sd = &prog.symbols[s];
    sd.attrs.pointer || sd.ty.as_ref().is_some_and(|t| t.pointers > 0)
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

/// Allocation statements of a unit: `ALLOCATE` of pointers and C `malloc`-family calls.
pub(crate) fn allocation_sites(prog: &Program, unit: UnitId) -> Vec<(radtap_il::StmtId, SymbolId)> {
    let u = &prog.units[unit];
    let mut out = Vec::new();
    for (sid, st) in u.stmts.iter() {
        match &st.kind {
            StmtKind::Memory {
                op: radtap_il::MemOp::Allocate,
                items,
                ..
            } => {
                for &it in items {
                    if let Some(s) = base_symbol(prog, unit, it) {
                        if prog.symbols[s].attrs.pointer {
                            out.push((sid, s));
                        }
                    }
                }
            }
            StmtKind::Assign { lhs, rhs, .. } if is_alloc_call(prog, unit, *rhs) => {
                if let Some(s) = base_symbol(prog, unit, *lhs) {
                    out.push((sid, s));
                }
            }
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    if let Some(Init::Expr(i)) = e.init {
                        if is_alloc_call(prog, unit, i) {
                            out.push((sid, e.sym));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// `malloc(...)`, `calloc`, `realloc`, or a call to a C function that returns a block it
/// allocates (`radtap_il::alloc`), possibly under a cast.
pub(crate) fn is_alloc_call(prog: &Program, unit: UnitId, e: ExprId) -> bool {
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Cast { arg, .. } | Expr::Paren(arg) => is_alloc_call(prog, unit, *arg),
        Expr::Call { callee, .. } => match &u.exprs[*callee] {
            Expr::Name(s) => {
                matches!(
                    prog.name(*s),
                    "malloc" | "calloc" | "realloc" | "aligned_alloc"
                ) || radtap_il::alloc::allocator_call(prog, unit, e).is_some()
            }
            _ => false,
        },
        _ => false,
    }
}

/// `e` without the parentheses around it: `((p))` is `p` for every question asked of a
/// reference or an address.
pub(crate) fn strip_parens(prog: &Program, unit: UnitId, mut e: ExprId) -> ExprId {
    while let Expr::Paren(a) = &prog.units[unit].exprs[e] {
        e = *a;
    }
    e
}

/// Whether the C expression `e`, used as the base of `e[i]`, is a pointer value (its targets
/// are the memory indexed) rather than an array object (indexed in place): a pointer
/// variable, pointer arithmetic, a cast, an address, a call.
pub(crate) fn is_pointer_base(prog: &Program, unit: UnitId, e: ExprId) -> bool {
    match &prog.units[unit].exprs[strip_parens(prog, unit, e)] {
        Expr::Name(s) => prog.symbols[*s]
            .ty
            .as_ref()
            .is_some_and(|t| t.pointers > 0 && t.dims.is_empty()),
        Expr::Binary { .. }
        | Expr::Cast { .. }
        | Expr::Unary { .. }
        | Expr::Call { .. }
        | Expr::Cond { .. }
        | Expr::Assign { .. }
        | Expr::Comma(_) => true,
        _ => false,
    }
}

/// The variable at the root of a reference (`a` in `a(i)%b`).
pub fn base_symbol(prog: &Program, unit: UnitId, e: ExprId) -> Option<SymbolId> {
    let u = &prog.units[unit];
    match &u.exprs[e] {
        Expr::Name(s) => Some(*s),
        Expr::Index { base, .. } | Expr::Field { base, .. } => base_symbol(prog, unit, *base),
        Expr::Paren(a) | Expr::Cast { arg: a, .. } => base_symbol(prog, unit, *a),
        // `*p`, and `*&x` / `*(&(x[i]))`: the address names the variable.
        Expr::Unary {
            op: radtap_il::UnOp::Deref | radtap_il::UnOp::AddrOf,
            arg,
        } => base_symbol(prog, unit, *arg),
        // C pointer arithmetic `x + i`, `i + x`, `x - i`: the operand that is an address.
        Expr::Binary {
            op: op @ (radtap_il::BinOp::Add | radtap_il::BinOp::Sub),
            lhs,
            rhs,
        } => {
            let is_addr = |s: &SymbolId| {
                prog.symbols[*s]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0 || !t.dims.is_empty())
            };
            base_symbol(prog, unit, *lhs).filter(is_addr).or_else(|| {
                (*op == radtap_il::BinOp::Add)
                    .then(|| base_symbol(prog, unit, *rhs).filter(is_addr))
                    .flatten()
            })
        }
        _ => None,
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
