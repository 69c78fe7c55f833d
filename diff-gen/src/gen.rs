//! The whole-program part: which procedures, variables and types get derivatives, their
//! names, derivative modules, types and globals, and the layout of the generated file.

mod adjoint_choices;
mod choose;
mod types;

use crate::{Interface, Options};
use radtap_dataflow::{ObjKey, ProcZones, ProgramInfo, ZoneSet};
use radtap_il::copy::Copier;
use radtap_il::*;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Per record type and pointer member, the integer members counting its block, or `None`
/// when not proven (`radtap_il::member_count`).
pub(crate) type MemberCounts = HashMap<(radtap_il::TypeDefId, String), Option<Vec<String>>>;

/// Program-wide state of one differentiation.
pub struct Gen<'a> {
    /// The primal program (never changed).
    pub prog: &'a Program,
    /// The analyses of the heads.
    pub info: &'a ProgramInfo,
    /// What to generate and how to name it.
    pub opts: &'a Options,
    /// The primal program plus the generated units.
    pub out: Program,
    pub(crate) lang: Lang,
    /// Procedures that get a derivative version, in source order.
    pub active: Vec<UnitId>,
    /// Active procedures with nothing active in them that allocate or free (maybe through
    /// calls) a module variable with a derivative: calls to them always call the derivative.
    pub allocating: BTreeSet<UnitId>,
    /// Differentiated C procedures that set or free a record member with a derivative twin
    /// (`heap_records::member_setters`): a call passing a record with a derivative always
    /// calls the derivative.
    pub member_setters: BTreeSet<UnitId>,
    /// Adjoint mode: the member setters that set or free members of records they do not
    /// own (`heap_records::split_setters`), split and always called as `_fwd`/`_bwd`.
    pub split_setters: BTreeSet<UnitId>,
    /// The procedures that communicate through MPI, themselves or through their callees
    /// (`mpi::communicating`): checkpointed regions refuse them.
    pub communicating: BTreeSet<UnitId>,
    /// Adjoint mode: those of them it splits, never runs twice (all but the ones posting
    /// non-blocking messages themselves, `mpi::posts_nonblocking`).
    pub mpi_split: BTreeSet<UnitId>,
    /// Adjoint mode: the integer members whose product counts a record type's pointer
    /// member block (`radtap_il::member_count`), computed when first needed.
    pub member_counts: std::cell::RefCell<MemberCounts>,
    /// Adjoint mode: the calls to allocating procedures handled as an initialisation /
    /// finalisation pair (`alloc_pairs.rs`), by (caller, call statement).
    pub alloc_calls: HashMap<(UnitId, StmtId), AllocCall>,
    /// Derivative procedure name symbol of each active procedure.
    pub dproc: HashMap<UnitId, SymbolId>,
    /// Which parameters of each active procedure carry a derivative.
    pub dparams: HashMap<UnitId, Vec<bool>>,
    /// Whether each active function's result carries a derivative.
    pub(crate) dresult: HashMap<UnitId, bool>,
    /// Derivatives of module variables and C globals (symbols in `m_d` / the output file).
    pub dglobal: HashMap<SymbolId, SymbolId>,
    /// Derivative COMMON block of each (procedure, primal block; `None` blank COMMON).
    pub(crate) dcommon: HashMap<(UnitId, Option<String>), String>,
    /// Derivative type of each record type.
    pub(crate) dtype: HashMap<TypeDefId, (TypeDefId, String)>,
    /// Components of each record type that are active somewhere in the program: only they
    /// have a place in the derivative type.
    pub active_fields: HashMap<TypeDefId, HashSet<String>>,
    /// Record types of active objects, whose derivative types are made once the active
    /// components are known.
    pub(crate) pending_types: Vec<TypeDefId>,
    /// Derivative module of each module.
    pub(crate) dmodule: HashMap<UnitId, UnitId>,
    /// Every name in use (lower-cased for Fortran): generated names avoid them.
    pub(crate) taken: HashSet<String>,
    /// Diagnostics of the differentiation (an error means nothing is written).
    pub diags: Vec<Diagnostic>,
    /// Derivative arguments a procedure must clear on entry but cannot (AD061): (the
    /// procedure, the derivative argument's name). The caller passes zeros there.
    pub(crate) uncleared: Vec<(UnitId, String)>,
    /// The digamma helper is needed (derivatives of `gamma`/`lgamma`).
    pub(crate) needs_digamma: bool,
    /// The C object-like macros defined as integer literals (`#define NBONES 3`, a header's
    /// too): their uses are constants (array extents, subscripts).
    pub int_macros: HashMap<String, i64>,
    /// The adjoint calls the binomial checkpointing runtime (`adBinomial.h` in C).
    pub needs_binomial: bool,
    /// Scope of generated global names.
    pub(crate) global_scope: ScopeId,
    /// Split adjoint mode: the `_fwd` and `_bwd` procedure names of each procedure that is
    /// not a head.
    pub(crate) split_procs: HashMap<UnitId, (SymbolId, SymbolId)>,
    /// Adjoint mode: functions with a side effect (a write outside their locals and result)
    /// that differentiated code references inside an expression. Such a reference runs
    /// `f_fwd` in the forward sweep and `f_bwd` backwards, so the effect happens once
    /// (`split_procs` holds their pair, heads included).
    pub(crate) effect_split: HashSet<UnitId>,
    /// Adjoint mode: functions referenced from differentiated code get a primal copy
    /// `f_nodiff` next to `f_b`, so the forward sweep and the recomputation in the backward
    /// sweep call code the compiler can inline.
    pub primal_copies: HashMap<UnitId, SymbolId>,
    /// The generated units of each procedure (derivatives, sweeps, primal copy), in order.
    pub(crate) generated: Vec<(UnitId, UnitId)>,
}

/// A call the adjoint handles as one half of an initialisation / finalisation pair.
#[derive(Clone, Debug)]
pub enum AllocCall {
    /// `call init()`: allocates the module arrays `allocated`; the backward sweep frees their
    /// adjoints, and the primal arrays of `freed` (those a later finalisation frees), where
    /// it passes this call.
    Init {
        callee: UnitId,
        allocated: Vec<SymbolId>,
        freed: Vec<SymbolId>,
    },
    /// `call finalize()`: only frees arrays an initialisation allocated; delayed to the
    /// backward sweep.
    Final { callee: UnitId },
}

impl AllocCall {
    /// The procedure called.
    pub fn callee(&self) -> UnitId {
        match self {
            AllocCall::Init { callee, .. } | AllocCall::Final { callee } => *callee,
        }
    }
}

/// The name of a unit.
pub fn unit_name(prog: &Program, u: UnitId) -> String {
    prog.units[u]
        .name
        .map(|s| prog.symbols[s].spelling.clone())
        .unwrap_or_default()
}

/// Case-folding key of a name in a language.
pub fn key(lang: Lang, s: &str) -> String {
    match lang {
        Lang::Fortran => s.to_ascii_lowercase(),
        Lang::C => s.to_string(),
    }
}

/// Applies a name pattern (`%d` on `x` is `xd`).
pub fn pattern(p: &str, name: &str) -> String {
    if p.contains('%') {
        p.replace('%', name)
    } else {
        format!("{name}{p}")
    }
}

impl Gen<'_> {
    /// The zones of procedure `p`'s parameters: their own and what they point to.
    fn param_zones(&self, p: UnitId) -> ZoneSet {
        let pz = &self.info.procs[&p].zones;
        let mut out = pz.empty();
        for &s in &self.prog.units[p].params {
            if let Some(z) = pz.sym_zones(s) {
                out.union_with(&z);
            }
            if let Some(o) = pz.objects.get(&ObjKey::Pointee(s)) {
                out.union_with(&pz.obj_set(o));
            }
        }
        out
    }

    /// Whether parameter `s` is a scalar whose derivative Tapenade 3.16 makes a local when
    /// it is not active on the head's boundary: a real or complex scalar, neither array,
    /// pointer nor allocatable (a Fortran scalar, a C argument passed by value).
    fn scalar_param(&self, s: SymbolId) -> bool {
        let sd = &self.prog.symbols[s];
        let Some(t) = sd.ty.as_ref() else {
            return false;
        };
        t.pointers == 0
            && t.dims.is_empty()
            && !sd.attrs.pointer
            && !sd.attrs.allocatable
            && matches!(t.base, BaseClass::Real | BaseClass::Complex)
    }

    /// Zones carrying a derivative anywhere in procedure `p`.
    pub fn deriv_zones(&self, p: UnitId) -> ZoneSet {
        let pi = &self.info.procs[&p];
        let mut d = pi.zones.empty();
        if let Some(a) = &pi.activity {
            for s in a.active_before.iter().chain(a.active_after.iter()) {
                d.union_with(s);
            }
            // With -fixinterface, a head's listed independents and dependents keep their
            // derivatives even when found inactive (DESIGN.md); without it they have none
            // (AD060 says so).
            if let Some(h) = self
                .info
                .heads
                .iter()
                .find(|h| h.head == p && h.fixinterface)
            {
                for (_, z) in h.independents.iter().chain(h.dependents.iter()) {
                    d.union_with(z);
                }
            }
            // Without named independents, Tapenade keeps every dependent argument's
            // derivative, zero when nothing varies it (`choose_procedures`).
            if let Some(h) = self
                .info
                .heads
                .iter()
                .find(|h| h.head == p && !h.fixinterface && h.default_independents)
            {
                let params = self.param_zones(p);
                for (_, z) in &h.dependents {
                    d.union_with(&z.and(&params));
                }
            }
        }
        d.intersect_with(&pi.zones.differentiable);
        d
    }

    /// A fresh name from `base`: `base`, else `base0`, `base1`, …
    /// Whether `f` names the forward or backward sweep of a procedure differentiated in split
    /// mode (its records cross from one sweep to the other).
    pub fn is_split_sweep(&self, f: SymbolId) -> bool {
        self.split_procs.values().any(|&(a, b)| a == f || b == f)
    }

    pub(crate) fn fresh(&mut self, base: &str, local: &mut HashSet<String>) -> String {
        self.fresh_from(base, local, None).0
    }

    /// `fresh`, trying the suffixes from `from` on (`Some(i)`: `base` and `base0`…`base{i-1}`
    /// are known taken), with the suffix to start from next time. Both name sets only grow,
    /// so a caller asking for many names of one base (temporaries) keeps the cost of each
    /// constant instead of rescanning `temp0`, `temp1`, … every time.
    pub(crate) fn fresh_from(
        &mut self,
        base: &str,
        local: &mut HashSet<String>,
        from: Option<usize>,
    ) -> (String, usize) {
        let (mut n, mut i) = match from {
            None => (base.to_string(), 0),
            Some(i) => (format!("{base}{i}"), i + 1),
        };
        while self.taken.contains(&key(self.lang, &n)) || local.contains(&key(self.lang, &n)) {
            n = format!("{base}{}", i);
            i += 1;
        }
        local.insert(key(self.lang, &n));
        (n, i)
    }

    /// The name a derivative procedure gives the derivative dummy named after `base` (its
    /// dummy's name under the variable pattern): the first of `base`, `base0`, … that no name
    /// of the program takes, as `ProcGen::deriv_name` chooses it. A keyword actual argument
    /// names the derivative dummy by it (`yb` taken by a caller's local makes it `yb0`).
    pub fn dummy_name(&self, base: &str) -> String {
        let mut n = base.to_string();
        let mut i = 0;
        while self.taken.contains(&key(self.lang, &n)) {
            n = format!("{base}{i}");
            i += 1;
        }
        n
    }

    /// A fresh program-wide name.
    pub(crate) fn fresh_global(&mut self, base: &str) -> String {
        let mut none = HashSet::new();
        let n = self.fresh(base, &mut none);
        self.taken.insert(key(self.lang, &n));
        n
    }

    pub(crate) fn new_symbol(&mut self, scope: ScopeId, name: &str, ty: Option<Type>) -> SymbolId {
        self.out
            .symbols
            .alloc(SymbolData::variable(name, scope, ty))
    }
}

/// `use diffsizes`.
pub(crate) fn diffsizes_use() -> Decl {
    Decl::Use(
        UseImport {
            module: "diffsizes".into(),
            unit: None,
            only: false,
            names: Vec::new(),
        },
        "use diffsizes".into(),
    )
}

/// Whether `dirs` holds `$AD NOCHECKPOINT`.
pub fn has_nocheckpoint(dirs: &[Directive]) -> bool {
    dirs.iter().any(|d| d.kind == DirectiveKind::Nocheckpoint)
}

impl Gen<'_> {
    /// The names derivative module `m_d` of module `m` declares itself (derivative variables,
    /// types and procedures), for a `use m_d, only:` list: a user's `use m, only:` keeps the
    /// rest of `m` out of scope, and so must the derivative USE.
    pub(crate) fn dmodule_own_names(&self, m: UnitId) -> Vec<String> {
        let prog = self.prog;
        let mscope = prog.units[m].scope;
        let mut out: Vec<String> = Vec::new();
        for (s, ds) in &self.dglobal {
            if prog.symbols[*s].scope == mscope {
                out.push(self.out.symbols[*ds].spelling.clone());
            }
        }
        for (td, (_, name)) in &self.dtype {
            if prog.typedefs[*td].unit == m {
                out.push(name.clone());
            }
        }
        for &p in &self.active {
            if prog.units[p].parent != Some(m) {
                continue;
            }
            // The joint version exists unless every call is split (`assemble.rs`).
            let all_split = self.opts.adjoint
                && !self.info.heads.iter().any(|h| h.head == p)
                && (self.opts.split
                    || has_nocheckpoint(&prog.units[p].directives)
                    || self.mpi_split.contains(&p));
            if let Some(d) = self.dproc.get(&p).filter(|_| !all_split) {
                out.push(self.out.symbols[*d].spelling.clone());
            }
            if let Some((f, b)) = self.split_procs.get(&p) {
                out.push(self.out.symbols[*f].spelling.clone());
                out.push(self.out.symbols[*b].spelling.clone());
            }
        }
        for (p, c) in &self.primal_copies {
            if prog.units[*p].parent == Some(m) {
                out.push(self.out.symbols[*c].spelling.clone());
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// `use m_d` for a unit that uses module `m` (derivative module `dm`); with the user's
    /// `only:` list or renames (`only`), `use m_d, only: <names m_d declares>`, or nothing
    /// when it declares none.
    pub(crate) fn derivative_use(&self, m: UnitId, dm: UnitId, only: bool) -> Option<Decl> {
        let n = unit_name(&self.out, dm);
        let names = if only {
            self.dmodule_own_names(m)
        } else {
            Vec::new()
        };
        if only && names.is_empty() {
            return None;
        }
        let text = if only {
            format!("use {n}, only: {}", names.join(", "))
        } else {
            format!("use {n}")
        };
        Some(Decl::Use(
            UseImport {
                module: n.to_ascii_lowercase(),
                unit: Some(dm),
                only,
                names: names.iter().map(|x| (x.clone(), x.clone())).collect(),
            },
            text,
        ))
    }
}

/// The record types of the heap blocks a pointer to records designates that carry
/// derivatives (zones in `d`: `Body *b = malloc(n * sizeof(Body))`), each with whether the
/// block's zones follow the record's layout (when not, one zone stands for the block and every
/// real component gets a derivative). The derivative type was never emitted for them, and
/// `struct Body_d` did not compile.
fn record_blocks(prog: &Program, pz: &ProcZones, d: &ZoneSet) -> Vec<(TypeDefId, bool)> {
    let mut out = Vec::new();
    for (s, keys) in &pz.pts {
        let Some(BaseClass::Record(td)) = prog.symbols[*s]
            .ty
            .as_ref()
            .filter(|t| t.pointers > 0)
            .map(|t| t.base)
        else {
            continue;
        };
        for k in keys {
            let Some(o) = pz.objects.get(k).filter(|_| matches!(k, ObjKey::Heap(..))) else {
                continue;
            };
            let entry = (td, o.rec.is_some());
            if pz.obj_set(o).intersects(d) && !out.contains(&entry) {
                out.push(entry);
            }
        }
    }
    out
}
