//! The whole-program part: which procedures, variables and types get derivatives, their
//! names, derivative modules, types and globals, and the layout of the generated file.

use crate::proc_::{ProcGen, Sweep};
use crate::{Interface, Options, Output};
use radtap_dataflow::{ObjKey, ProgramInfo, ZoneSet};
use radtap_il::copy::Copier;
use radtap_il::*;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Program-wide state of one differentiation.
pub(crate) struct Gen<'a> {
    pub(crate) prog: &'a Program,
    pub(crate) info: &'a ProgramInfo,
    pub(crate) opts: &'a Options,
    pub(crate) out: Program,
    pub(crate) lang: Lang,
    /// Procedures that get a derivative version, in source order.
    pub(crate) active: Vec<UnitId>,
    /// Derivative procedure name symbol of each active procedure.
    pub(crate) dproc: HashMap<UnitId, SymbolId>,
    /// Which parameters of each active procedure carry a derivative.
    pub(crate) dparams: HashMap<UnitId, Vec<bool>>,
    /// Whether each active function's result carries a derivative.
    pub(crate) dresult: HashMap<UnitId, bool>,
    /// Derivatives of module variables and C globals (symbols in `m_d` / the output file).
    pub(crate) dglobal: HashMap<SymbolId, SymbolId>,
    /// Derivative type of each record type.
    pub(crate) dtype: HashMap<TypeDefId, (TypeDefId, String)>,
    /// Components of each record type that are active somewhere in the program: only they
    /// have a place in the derivative type.
    pub(crate) active_fields: HashMap<TypeDefId, HashSet<String>>,
    /// Record types of active objects, whose derivative types are made once the active
    /// components are known.
    pending_types: Vec<TypeDefId>,
    /// Derivative module of each module.
    pub(crate) dmodule: HashMap<UnitId, UnitId>,
    /// Every name in use (lower-cased for Fortran): generated names avoid them.
    pub(crate) taken: HashSet<String>,
    pub(crate) diags: Vec<Diagnostic>,
    /// The digamma helper is needed (derivatives of `gamma`/`lgamma`).
    pub(crate) needs_digamma: bool,
    /// Scope of generated global names.
    pub(crate) global_scope: ScopeId,
    /// Split adjoint mode: the `_fwd` and `_bwd` procedure names of each procedure that is
    /// not a head.
    pub(crate) split_procs: HashMap<UnitId, (SymbolId, SymbolId)>,
    /// Adjoint mode: functions referenced from differentiated code get a primal copy
    /// `f_nodiff` next to `f_b`, so the forward sweep and the recomputation in the backward
    /// sweep call code the compiler can inline.
    pub(crate) primal_copies: HashMap<UnitId, SymbolId>,
}

pub(crate) fn run(
    prog: &Program,
    info: &ProgramInfo,
    opts: &Options,
) -> (Option<Output>, Vec<Diagnostic>) {
    let Some(h) = info.heads.first() else {
        return (None, Vec::new());
    };
    let lang = prog.units[h.head].lang;
    let mut taken = HashSet::new();
    for (_, s) in prog.symbols.iter() {
        taken.insert(key(lang, &s.spelling));
    }
    let global_scope = prog
        .scopes
        .iter()
        .find(|(_, s)| s.kind == ScopeKind::Global && s.parent.is_none())
        .map(|(id, _)| id)
        .unwrap_or_else(|| prog.units[h.head].scope);
    let mut g = Gen {
        prog,
        info,
        opts,
        out: prog.clone(),
        lang,
        active: Vec::new(),
        dproc: HashMap::new(),
        dparams: HashMap::new(),
        dresult: HashMap::new(),
        dglobal: HashMap::new(),
        dtype: HashMap::new(),
        active_fields: HashMap::new(),
        pending_types: Vec::new(),
        dmodule: HashMap::new(),
        taken,
        diags: Vec::new(),
        needs_digamma: false,
        global_scope,
        split_procs: HashMap::new(),
        primal_copies: HashMap::new(),
    };
    g.choose_procedures();
    if opts.adjoint {
        g.choose_primal_copies();
    }
    g.choose_active_fields();
    let mut pending = std::mem::take(&mut g.pending_types);
    pending.sort();
    pending.dedup();
    for td in pending {
        g.derivative_type(td);
    }
    g.choose_globals();
    for &p in &g.active.clone() {
        if prog.units[p].lang != lang {
            g.diags.push(Diagnostic::error(
                Code::Unsupported,
                prog.units[p].source_map.header.unwrap_or_default(),
                "differentiating through procedures of another language is not supported",
            ));
        }
        if prog.units[p].parent.is_some_and(|q| {
            matches!(
                prog.units[q].kind,
                UnitKind::Subroutine | UnitKind::Function | UnitKind::Program
            )
        }) {
            g.diags.push(Diagnostic::error(
                Code::Unsupported,
                prog.units[p].source_map.header.unwrap_or_default(),
                format!(
                    "differentiating the internal procedure `{}` is not supported yet; make it a module procedure",
                    unit_name(prog, p)
                ),
            ));
        }
    }
    if g.diags.iter().any(|d| d.is_error()) {
        return (None, g.diags);
    }
    let file = g.assemble();
    if g.diags.iter().any(|d| d.is_error()) {
        return (None, g.diags);
    }
    let interfaces = g.interfaces();
    let mut extra_files = Vec::new();
    if let (true, Some(n)) = (opts.vector, opts.nbdirsmax) {
        extra_files.push(match lang {
            Lang::Fortran => (
                "DIFFSIZES.f90".to_string(),
                format!("module diffsizes\n  implicit none\n  integer, parameter :: nbdirsmax = {n}\nend module diffsizes\n"),
            ),
            Lang::C => (
                "DIFFSIZES.h".to_string(),
                format!("#ifndef DIFFSIZES_H\n#define DIFFSIZES_H\n#define NBDirsMax {n}\n#endif\n"),
            ),
        });
    }
    let diags = std::mem::take(&mut g.diags);
    (
        Some(Output {
            program: g.out,
            file,
            interfaces,
            extra_files,
        }),
        diags,
    )
}

/// The name of a unit.
pub(crate) fn unit_name(prog: &Program, u: UnitId) -> String {
    prog.units[u]
        .name
        .map(|s| prog.symbols[s].spelling.clone())
        .unwrap_or_default()
}

/// Case-folding key of a name in a language.
pub(crate) fn key(lang: Lang, s: &str) -> String {
    match lang {
        Lang::Fortran => s.to_ascii_lowercase(),
        Lang::C => s.to_string(),
    }
}

/// Applies a name pattern (`%d` on `x` is `xd`).
pub(crate) fn pattern(p: &str, name: &str) -> String {
    if p.contains('%') {
        p.replace('%', name)
    } else {
        format!("{name}{p}")
    }
}

impl Gen<'_> {
    /// A fresh name from `base`: `base`, else `base0`, `base1`, …
    pub(crate) fn fresh(&mut self, base: &str, local: &mut HashSet<String>) -> String {
        let mut n = base.to_string();
        let mut i = 0;
        while self.taken.contains(&key(self.lang, &n)) || local.contains(&key(self.lang, &n)) {
            n = format!("{base}{i}");
            i += 1;
        }
        local.insert(key(self.lang, &n));
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
        self.out.symbols.alloc(SymbolData {
            spelling: name.to_string(),
            kind: SymbolKind::Variable,
            scope,
            ty,
            attrs: SymAttrs::default(),
            unit: None,
            common: None,
            implicit_type: false,
        })
    }

    /// Zones carrying a derivative anywhere in procedure `p`.
    pub(crate) fn deriv_zones(&self, p: UnitId) -> ZoneSet {
        let pi = &self.info.procs[&p];
        let mut d = pi.zones.empty();
        if let Some(a) = &pi.activity {
            for s in a.active_before.iter().chain(a.active_after.iter()) {
                d.union_with(s);
            }
            // A head's listed independents and dependents keep their derivatives
            // (-fixinterface, and variables listed but found inactive).
            if let Some(h) = self.info.heads.iter().find(|h| h.head == p) {
                for (_, z) in h.independents.iter().chain(h.dependents.iter()) {
                    d.union_with(z);
                }
            }
        }
        d.intersect_with(&pi.zones.differentiable);
        d
    }

    fn choose_procedures(&mut self) {
        let heads: Vec<UnitId> = self.info.heads.iter().map(|h| h.head).collect();
        for (u, _) in self.prog.units.iter() {
            let Some(pi) = self.info.procs.get(&u) else {
                continue;
            };
            let Some(a) = &pi.activity else { continue };
            if heads.contains(&u) || a.has_derivative.iter().any(|&b| b) {
                self.active.push(u);
            }
        }
        for &p in &self.active.clone() {
            let pi = &self.info.procs[&p];
            let d = self.deriv_zones(p);
            let has = |s: SymbolId| -> bool {
                let own = pi.zones.sym_zones(s).is_some_and(|z| z.intersects(&d));
                let pointee = pi
                    .zones
                    .objects
                    .get(&ObjKey::Pointee(s))
                    .is_some_and(|o| pi.zones.obj_set(o).intersects(&d));
                own || pointee
            };
            let flags: Vec<bool> = self.prog.units[p].params.iter().map(|&s| has(s)).collect();
            // Derivative types are needed before the file is laid out.
            let mut recs = Vec::new();
            for (k, o) in &pi.zones.objects {
                if let (ObjKey::Sym(s) | ObjKey::Pointee(s), Some(td)) = (k, o.rec) {
                    if pi.zones.obj_set(o).intersects(&d) && self.prog.symbols[*s].ty.is_some() {
                        recs.push(td);
                    }
                }
            }
            self.dparams.insert(p, flags);
            self.pending_types.extend(recs);
            let r = self.prog.units[p].result.is_some_and(has);
            self.dresult.insert(p, r);
            let base = unit_name(self.prog, p);
            let name = self.fresh_global(&pattern(&self.opts.func_pattern, &base));
            let gs = self.global_scope;
            let s = self.out.symbols.alloc(SymbolData {
                spelling: name,
                kind: SymbolKind::Procedure,
                scope: gs,
                ty: None,
                attrs: SymAttrs::default(),
                unit: None,
                common: None,
                implicit_type: false,
            });
            self.dproc.insert(p, s);
            let is_head = self.info.heads.iter().any(|h| h.head == p);
            if self.opts.adjoint && !is_head && (self.opts.split || self.nocheckpoint_wanted(p)) {
                let mut mk = |pat: &str| {
                    let name = self.fresh_global(&pattern(pat, &base));
                    self.out.symbols.alloc(SymbolData {
                        spelling: name,
                        kind: SymbolKind::Procedure,
                        scope: gs,
                        ty: None,
                        attrs: SymAttrs::default(),
                        unit: None,
                        common: None,
                        implicit_type: false,
                    })
                };
                let f = mk("%_fwd");
                let b = mk("%_bwd");
                self.split_procs.insert(p, (f, b));
            }
        }
    }

    /// Whether some call to `p` is not checkpointed: `$AD NOCHECKPOINT` on `p`'s header or
    /// before a call to it.
    fn nocheckpoint_wanted(&self, p: UnitId) -> bool {
        if has_nocheckpoint(&self.prog.units[p].directives) {
            return true;
        }
        self.prog.units.iter().any(|(q, qu)| {
            self.info.callgraph.sites_of(q).iter().any(|c| {
                matches!(&c.callee, radtap_flowgraph::Callee::Defined(l) if l.contains(&p))
                    && has_nocheckpoint(&qu.stmts[c.stmt].directives)
            })
        })
    }

    /// The `_fwd`/`_bwd` pair a call to `callee` from a statement with `dirs` uses: split
    /// mode, or `$AD NOCHECKPOINT` on the callee's header or on the call.
    pub(crate) fn split_call(
        &self,
        callee: UnitId,
        dirs: &[Directive],
    ) -> Option<(SymbolId, SymbolId)> {
        let pair = self.split_procs.get(&callee).copied()?;
        (self.opts.split
            || has_nocheckpoint(&self.prog.units[callee].directives)
            || has_nocheckpoint(dirs))
        .then_some(pair)
    }

    /// Active functions referenced from active code whose copy behaves like the original:
    /// no SAVE'd or initialised locals, no writes to globals.
    fn choose_primal_copies(&mut self) {
        let mut referenced = BTreeSet::new();
        for &p in &self.active {
            for c in self.info.callgraph.sites_of(p) {
                if let (Some(_), radtap_flowgraph::Callee::Defined(list)) = (c.expr, &c.callee) {
                    if list.len() == 1 && self.active.contains(&list[0]) {
                        referenced.insert(list[0]);
                    }
                }
            }
        }
        for f in referenced {
            let u = &self.prog.units[f];
            if u.kind != UnitKind::Function || u.result.is_none() {
                continue;
            }
            let pi = &self.info.procs[&f];
            if pi
                .summary
                .writes
                .iter()
                .any(|z| pi.zones.global_of_local(z).is_some())
            {
                continue;
            }
            let saved = self.prog.scopes[u.scope].order.iter().any(|&s| {
                let a = &self.prog.symbols[s].attrs;
                a.save && !a.constant
            }) || u.decls.iter().any(|d| match d {
                Decl::Var(v) => {
                    !v.attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "parameter"))
                        && v.entities.iter().any(|e| e.init.is_some())
                }
                Decl::Data(_) => true,
                _ => false,
            });
            if saved {
                continue;
            }
            let base = unit_name(self.prog, f);
            let name = self.fresh_global(&format!("{base}_nodiff"));
            let gs = self.global_scope;
            let s = self.out.symbols.alloc(SymbolData {
                spelling: name,
                kind: SymbolKind::Procedure,
                scope: gs,
                ty: None,
                attrs: SymAttrs::default(),
                unit: None,
                common: None,
                implicit_type: false,
            });
            self.primal_copies.insert(f, s);
        }
    }

    /// Global zones active anywhere → the module variables and C globals that get a global
    /// derivative.
    fn choose_globals(&mut self) {
        let mut active_globals: BTreeSet<u32> = BTreeSet::new();
        for &p in &self.active {
            let pi = &self.info.procs[&p];
            for z in self.deriv_zones(p).iter() {
                if let Some(gz) = pi.zones.global_of_local(z) {
                    active_globals.insert(gz);
                }
            }
        }
        let mut syms: Vec<SymbolId> = Vec::new();
        for (k, o) in &self.info.globals.objects {
            let ObjKey::Sym(s) = k else { continue };
            if self.prog.symbols[*s].common.is_some() {
                continue; // COMMON members get a mirror COMMON per procedure
            }
            if (o.start..o.start + o.len).any(|z| active_globals.contains(&z)) {
                syms.push(*s);
            }
        }
        syms.sort();
        for s in syms {
            let sd = &self.prog.symbols[s];
            let module = radtap_dataflow::zones::unit_of_scope(self.prog, sd.scope);
            let is_module_var = module.is_some_and(|m| self.prog.units[m].kind == UnitKind::Module);
            let is_c_global = module.is_some_and(|m| self.prog.units[m].kind == UnitKind::CFile);
            if !(is_module_var || is_c_global) {
                // SAVE locals and host-associated variables: a SAVE local's derivative is a
                // SAVE local of the derivative procedure (made in the procedure).
                continue;
            }
            let name = self.fresh_global(&pattern(&self.opts.var_pattern, &sd.spelling));
            let scope = sd.scope;
            let ty = sd.ty.clone();
            let ds = self.new_symbol(scope, &name, ty);
            self.dglobal.insert(s, ds);
            if let Some(td) = sd.ty.as_ref().and_then(|t| match t.base {
                BaseClass::Record(td) => Some(td),
                _ => None,
            }) {
                self.derivative_type(td);
            }
        }
    }

    /// Marks the components of record types whose zones carry derivatives in some active
    /// procedure (a record component is active when one of its own components is).
    fn choose_active_fields(&mut self) {
        for &p in &self.active.clone() {
            let d = self.deriv_zones(p);
            let pz = &self.info.procs[&p].zones;
            for o in pz.objects.values() {
                if let Some(td) = o.rec {
                    self.mark_fields(td, o.start, &d, 0);
                }
            }
        }
    }

    /// Marks the active components of a record of type `td` whose zones start at `start`;
    /// whether any is.
    fn mark_fields(&mut self, td: TypeDefId, start: u32, d: &ZoneSet, depth: u32) -> bool {
        if depth > 16 {
            return false;
        }
        let mut any = false;
        let fields = self.prog.typedefs[td].fields.clone();
        for f in &fields {
            let Decl::Var(v) = f else { continue };
            for e in &v.entities {
                let name = self.prog.symbols[e.sym].spelling.clone();
                let Some((off, len, rec)) = self.info.field_range(self.prog, td, &name) else {
                    continue;
                };
                let (a, b) = (start + off, start + off + len);
                let mut active = (a..b).any(|z| d.contains(radtap_dataflow::ZoneId(z)));
                if let Some(inner) = rec {
                    active |= self.mark_fields(inner, a, d, depth + 1);
                }
                if active {
                    self.active_fields.entry(td).or_default().insert(name);
                    any = true;
                }
            }
        }
        any
    }

    /// The derivative type of a record type (created on first use): the differentiable
    /// components, record components by their derivative type.
    pub(crate) fn derivative_type(&mut self, td: TypeDefId) -> (TypeDefId, String) {
        if let Some(x) = self.dtype.get(&td) {
            return x.clone();
        }
        let t = &self.prog.typedefs[td];
        let base = t.name.clone().unwrap_or_else(|| "anon".into());
        let name = self.fresh_global(&pattern(&self.opts.type_pattern, &base));
        let src_unit = t.unit;
        let mut fields = Vec::new();
        let scope = self
            .out
            .scopes
            .alloc(ScopeData::new(ScopeKind::Type(td), None));
        let id_placeholder = self.out.typedefs.alloc(TypeDefData {
            kind: t.kind,
            name: Some(name.clone()),
            fields: Vec::new(),
            scope,
            unit: src_unit,
            attrs: Vec::new(),
            sequence: t.sequence,
        });
        self.dtype.insert(td, (id_placeholder, name.clone()));
        let src_fields = t.fields.clone();
        for f in &src_fields {
            let Decl::Var(v) = f else { continue };
            let ents: Vec<Entity> = v
                .entities
                .iter()
                .filter(|e| {
                    self.differentiable_sym(e.sym)
                        && self
                            .active_fields
                            .get(&td)
                            .is_some_and(|a| a.contains(&self.prog.symbols[e.sym].spelling))
                })
                .cloned()
                .collect();
            if ents.is_empty() {
                continue;
            }
            let mut v2 = v.clone();
            if let BaseClass::Record(inner) = v.spec.class {
                let (_, iname) = self.derivative_type(inner);
                v2.spec.name = Some(iname.clone());
                if self.lang == Lang::C {
                    v2.spec.keyword = "struct".into();
                }
            }
            // Derivative components keep the primal names (`xd%f`).
            v2.entities = ents
                .into_iter()
                .map(|mut e| {
                    e.init = None;
                    e
                })
                .collect();
            v2.attrs
                .retain(|a| !matches!(a, Attr::Keyword(k) if k == "parameter"));
            fields.push(Decl::Var(v2));
        }
        // Field expressions (array bounds) live in the source unit's arena: the type is
        // emitted in a unit that copies them (see `type_decl`).
        self.out.typedefs[id_placeholder].fields = fields;
        (id_placeholder, name)
    }

    /// Whether a symbol is of a differentiable type (real, complex, or a record holding one).
    pub(crate) fn differentiable_sym(&self, s: SymbolId) -> bool {
        self.prog.symbols[s]
            .ty
            .as_ref()
            .is_some_and(|t| self.differentiable_base(t.base, 0))
    }

    fn differentiable_base(&self, b: BaseClass, depth: u32) -> bool {
        match b {
            BaseClass::Real | BaseClass::Complex => true,
            BaseClass::Record(td) if depth < 16 => self.prog.typedefs[td].fields.iter().any(|f| {
                matches!(f, Decl::Var(v) if v.entities.iter().any(|e| self.prog.symbols[e.sym].ty.as_ref().is_some_and(|t| self.differentiable_base(t.base, depth + 1))))
            }),
            _ => false,
        }
    }

    /// Copies a derivative type definition into unit `dst` (its bounds into `dst`'s arena).
    pub(crate) fn type_decl(&mut self, primal: TypeDefId, dst: &mut UnitData) -> Decl {
        let (dt, _) = self.derivative_type(primal);
        let src = &self.prog.units[self.prog.typedefs[primal].unit];
        let c = Copier { src };
        let fields: Vec<Decl> = self.out.typedefs[dt]
            .fields
            .clone()
            .iter()
            .map(|f| c.decl(dst, f))
            .collect();
        let mut def = self.out.typedefs[dt].clone();
        def.fields = fields;
        def.unit = UnitId::from_raw(self.out.units.len() as u32); // patched by the caller
        let name = def.name.clone();
        let id = self.out.typedefs.alloc(def);
        match self.lang {
            Lang::Fortran => Decl::TypeDef(id),
            // C writes `struct t_d { … };` as a declaration with no declarators.
            Lang::C => Decl::Var(VarDecl {
                spec: TypeSpec {
                    class: BaseClass::Record(primal),
                    keyword: "struct".into(),
                    name,
                    kind: KindSel::Default,
                    char_len: None,
                    bytes: None,
                    qualifiers: Vec::new(),
                    inline_def: Some(id),
                },
                attrs: Vec::new(),
                entities: Vec::new(),
                double_colon: false,
            }),
        }
    }

    /// Lays out the generated file: derivative modules, procedures, C declarations.
    fn assemble(&mut self) -> usize {
        let prog = self.prog;
        let head_file = prog
            .files
            .iter()
            .position(|f| f.lang == self.lang)
            .unwrap_or(0);
        let mut items = Vec::new();
        let mode = if self.opts.adjoint {
            "reverse (adjoint) mode"
        } else if self.opts.vector {
            "vector tangent (forward) mode"
        } else {
            "tangent (forward) mode"
        };
        let lead = match self.lang {
            Lang::Fortran => "!",
            Lang::C => "//",
        };
        let banner = format!(
            "{lead} Generated by radtap {} in {mode} from {}.",
            env!("CARGO_PKG_VERSION"),
            prog.files
                .iter()
                .map(|f| f.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        match self.lang {
            Lang::Fortran => {
                items.push(FileItem::Comment(banner));
                for fi in 0..prog.files.len() {
                    for it in prog.files[fi].items.clone() {
                        let FileItem::Unit(u) = it else { continue };
                        match prog.units[u].kind {
                            UnitKind::Module => {
                                if let Some(m) = self.module_d(u) {
                                    items.push(FileItem::Unit(m));
                                }
                            }
                            UnitKind::Subroutine | UnitKind::Function => {
                                if self.active.contains(&u) {
                                    for d in self.proc_units(u, None) {
                                        items.push(FileItem::Unit(d));
                                    }
                                }
                            }
                            UnitKind::Program | UnitKind::BlockData | UnitKind::CFile => {}
                        }
                    }
                }
                if self.needs_digamma {
                    for l in DIGAMMA_F90.lines() {
                        items.push(FileItem::Comment(l.to_string()));
                    }
                }
            }
            Lang::C => {
                let scope = self
                    .out
                    .scopes
                    .alloc(ScopeData::new(ScopeKind::Global, Some(self.global_scope)));
                let mut fu = UnitData::new(UnitKind::CFile, Lang::C, scope);
                fu.decls.push(Decl::Comment(banner));
                if self.opts.adjoint {
                    fu.decls
                        .push(Decl::Verbatim("#include \"adStack.h\"".to_string()));
                }
                let fid = self
                    .out
                    .units
                    .alloc(UnitData::new(UnitKind::CFile, Lang::C, scope));
                self.out.scopes[scope].kind = ScopeKind::Unit(fid);
                let mut decls = Vec::new();
                let mut included = false;
                for fi in 0..prog.files.len() {
                    for it in prog.files[fi].items.clone() {
                        let FileItem::Unit(cu) = it else { continue };
                        if prog.units[cu].kind != UnitKind::CFile {
                            continue;
                        }
                        self.c_file_decls(cu, fid, &mut fu, &mut decls, &mut included);
                    }
                }
                if self.needs_digamma {
                    fu.decls.push(Decl::Verbatim(DIGAMMA_C.to_string()));
                }
                fu.decls.extend(decls);
                self.out.units[fid] = fu;
                self.out.units[fid].scope = scope;
                items.push(FileItem::Unit(fid));
            }
        }
        let form = match self.lang {
            Lang::Fortran => SourceForm::Free,
            Lang::C => SourceForm::C,
        };
        let stem = prog.files[head_file].path.clone();
        self.out.files.push(SourceFile {
            path: stem,
            lang: self.lang,
            form,
            items,
        });
        self.out.files.len() - 1
    }

    /// The C file's declarations, in order: preprocessor lines, types and their derivative
    /// types, globals as `extern` with their derivatives, prototypes of primal functions and
    /// copies of `static` ones, then the derivative functions.
    fn c_file_decls(
        &mut self,
        cu: UnitId,
        fid: UnitId,
        fu: &mut UnitData,
        funcs: &mut Vec<Decl>,
        included: &mut bool,
    ) {
        let prog = self.prog;
        let src = &prog.units[cu];
        let c = Copier { src };
        if self.opts.vector && !*included {
            fu.decls
                .push(Decl::Preproc("#include \"DIFFSIZES.h\"".into()));
            *included = true;
        }
        for d in src.decls.clone() {
            match &d {
                Decl::Preproc(_) => fu.decls.push(d.clone()),
                Decl::TypeDef(td) => {
                    // The primal type, its field bounds copied into this unit.
                    let fields: Vec<Decl> = prog.typedefs[*td]
                        .fields
                        .iter()
                        .map(|f| {
                            Copier {
                                src: &prog.units[prog.typedefs[*td].unit],
                            }
                            .decl(fu, f)
                        })
                        .collect();
                    let mut def = prog.typedefs[*td].clone();
                    def.fields = fields;
                    def.unit = fid;
                    let id = self.out.typedefs.alloc(def);
                    fu.decls.push(Decl::TypeDef(id));
                    if self.dtype.contains_key(td) {
                        let dd = self.type_decl(*td, fu);
                        fu.decls.push(dd);
                    }
                }
                Decl::Var(v) => {
                    let is_typedef = v
                        .attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "typedef"));
                    let is_proto = v
                        .entities
                        .iter()
                        .all(|e| e.derived.iter().any(|o| matches!(o, DeclOp::Function(..))));
                    if is_typedef || is_proto {
                        let mut x = c.decl(fu, &d);
                        self.copy_inline_def(&mut x, fid, fu);
                        fu.decls.push(x);
                        if let Some(td) = v.spec.inline_def {
                            if self.dtype.contains_key(&td) {
                                let dd = self.type_decl(td, fu);
                                fu.decls.push(dd);
                            }
                        }
                        continue;
                    }
                    let is_static = v
                        .attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "static"));
                    let mut ext = c.decl(fu, &d);
                    self.copy_inline_def(&mut ext, fid, fu);
                    if let Decl::Var(ev) = &mut ext {
                        if !is_static {
                            ev.attrs
                                .retain(|a| !matches!(a, Attr::Keyword(k) if k == "extern"));
                            ev.attrs.insert(0, Attr::Keyword("extern".into()));
                            for e in &mut ev.entities {
                                e.init = None;
                            }
                        }
                    }
                    fu.decls.push(ext);
                    // Derivative globals.
                    let dents: Vec<Entity> = v
                        .entities
                        .iter()
                        .filter_map(|e| {
                            let ds = *self.dglobal.get(&e.sym)?;
                            let mut e2 = e.clone();
                            e2.sym = ds;
                            e2.init = None;
                            Some(e2)
                        })
                        .collect();
                    if !dents.is_empty() {
                        let mut dv = v.clone();
                        dv.entities = dents;
                        dv.attrs.retain(
                            |a| !matches!(a, Attr::Keyword(k) if k == "extern" || k == "static"),
                        );
                        if let BaseClass::Record(td) = v.spec.class {
                            let (_, n) = self.derivative_type(td);
                            dv.spec.keyword = "struct".into();
                            dv.spec.name = Some(n);
                            dv.spec.inline_def = None;
                        }
                        let mut dd = c.decl(fu, &Decl::Var(dv));
                        if self.opts.vector {
                            if let Decl::Var(v) = &mut dd {
                                for e in &mut v.entities {
                                    let n = fu.exprs.alloc(Expr::Opaque("NBDirsMax".into()));
                                    e.derived.insert(0, DeclOp::Array(Some(n)));
                                }
                            }
                        }
                        fu.decls.push(dd);
                    }
                }
                Decl::Unit(f) => {
                    let f = *f;
                    let fdata = &prog.units[f];
                    let is_static = fdata.attrs.prefixes.iter().any(|p| p == "static");
                    if is_static {
                        let copy = self.copy_unit(f, Some(fid));
                        fu.decls.push(Decl::Unit(copy));
                    } else {
                        {
                            let x = self.prototype(f, fu);
                            fu.decls.push(x);
                        }
                    }
                    if self.active.contains(&f) {
                        for d in self.proc_units(f, Some(fid)) {
                            funcs.push(Decl::Unit(d));
                        }
                    }
                }
                Decl::Comment(_) | Decl::Directive(_) | Decl::Verbatim(_) => {}
                Decl::Use(..)
                | Decl::Implicit(_)
                | Decl::Parameter(_)
                | Decl::Common(_)
                | Decl::Equivalence(_)
                | Decl::Data(_)
                | Decl::Attr(_)
                | Decl::Interface(_)
                | Decl::StmtFunction { .. }
                | Decl::Enumerators(_) => {}
            }
        }
    }

    /// Points a copied declaration's inline struct definition at a copy whose field bounds
    /// live in `fu`.
    fn copy_inline_def(&mut self, d: &mut Decl, fid: UnitId, fu: &mut UnitData) {
        let Decl::Var(v) = d else { return };
        let Some(td) = v.spec.inline_def else { return };
        let prog = self.prog;
        let src = &prog.units[prog.typedefs[td].unit];
        let fields: Vec<Decl> = prog.typedefs[td]
            .fields
            .iter()
            .map(|f| Copier { src }.decl(fu, f))
            .collect();
        let mut def = prog.typedefs[td].clone();
        def.fields = fields;
        def.unit = fid;
        v.spec.inline_def = Some(self.out.typedefs.alloc(def));
    }

    /// A prototype for a C function of the primal program.
    fn prototype(&mut self, f: UnitId, fu: &mut UnitData) -> Decl {
        let src = &self.prog.units[f];
        let c = Copier { src };
        let params: Vec<CParam> = src.c_params.iter().map(|p| c.cparam(fu, p)).collect();
        let mut ops = c.ops(fu, &src.ret_derived);
        ops.push(DeclOp::Function(params, src.c_variadic));
        let spec = src.header_type.clone().unwrap_or(TypeSpec {
            class: BaseClass::Void,
            keyword: "void".into(),
            name: None,
            kind: KindSel::Default,
            char_len: None,
            bytes: None,
            qualifiers: Vec::new(),
            inline_def: None,
        });
        let spec = c.spec(fu, &spec);
        Decl::Var(VarDecl {
            spec,
            attrs: Vec::new(),
            entities: vec![Entity {
                sym: src.name.expect("C function has a name"),
                dims: None,
                char_len: None,
                derived: ops,
                init: None,
            }],
            double_colon: false,
        })
    }

    /// A verbatim copy of a unit (C `static` helpers the generated code calls).
    pub(crate) fn copy_unit(&mut self, f: UnitId, parent: Option<UnitId>) -> UnitId {
        let src = &self.prog.units[f];
        let c = Copier { src };
        let mut u = UnitData::new(src.kind, src.lang, src.scope);
        u.name = src.name;
        u.parent = parent;
        u.params = src.params.clone();
        u.result = src.result;
        u.header_type = src.header_type.as_ref().map(|t| c.spec(&mut u, t));
        u.ret_derived = c.ops(&mut u, &src.ret_derived);
        u.attrs = src.attrs.clone();
        u.c_params = src.c_params.iter().map(|p| c.cparam(&mut u, p)).collect();
        u.c_void_params = src.c_void_params;
        u.c_variadic = src.c_variadic;
        u.empty_parens = src.empty_parens;
        u.decls = src.decls.iter().map(|d| c.decl(&mut u, d)).collect();
        u.body = c.block(&mut u, &src.body);
        self.out.units.alloc(u)
    }

    /// The derivative module of module `m`, when it has anything: derivative variables,
    /// derivative types, derivative procedures.
    fn module_d(&mut self, m: UnitId) -> Option<UnitId> {
        let prog = self.prog;
        let src = &prog.units[m];
        let vars: Vec<SymbolId> = prog.scopes[src.scope]
            .order
            .iter()
            .copied()
            .filter(|s| self.dglobal.contains_key(s))
            .collect();
        let procs: Vec<UnitId> = src
            .contains
            .iter()
            .copied()
            .filter(|p| self.active.contains(p))
            .collect();
        let types: Vec<TypeDefId> = src
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::TypeDef(td) if self.dtype.contains_key(td) || self.record_type_used(*td) => {
                    Some(*td)
                }
                _ => None,
            })
            .collect();
        if vars.is_empty() && procs.is_empty() && types.is_empty() {
            return None;
        }
        let mname = unit_name(prog, m);
        let dname = self.fresh_global(&pattern(&self.opts.type_pattern, &mname));
        let gs = self.global_scope;
        let msym = self.out.symbols.alloc(SymbolData {
            spelling: dname,
            kind: SymbolKind::Module,
            scope: gs,
            ty: None,
            attrs: SymAttrs::default(),
            unit: None,
            common: None,
            implicit_type: false,
        });
        let scope = self
            .out
            .scopes
            .alloc(ScopeData::new(ScopeKind::Global, Some(gs)));
        let mut u = UnitData::new(UnitKind::Module, Lang::Fortran, scope);
        u.name = Some(msym);
        let mid = self
            .out
            .units
            .alloc(UnitData::new(UnitKind::Module, Lang::Fortran, scope));
        self.out.scopes[scope].kind = ScopeKind::Unit(mid);
        self.out.symbols[msym].unit = Some(mid);
        self.dmodule.insert(m, mid);
        u.decls.push(Decl::Use(
            UseImport {
                module: mname.to_ascii_lowercase(),
                unit: Some(m),
                only: false,
                names: Vec::new(),
            },
            format!("use {mname}"),
        ));
        // Derivative modules of the modules this one uses.
        for d in &src.decls {
            if let Decl::Use(ui, _) = d {
                if let Some(dm) = ui.unit.and_then(|x| self.dmodule.get(&x)) {
                    let n = unit_name(&self.out, *dm);
                    u.decls.push(Decl::Use(
                        UseImport {
                            module: n.to_ascii_lowercase(),
                            unit: Some(*dm),
                            only: false,
                            names: Vec::new(),
                        },
                        format!("use {n}"),
                    ));
                }
            }
        }
        if self.opts.vector {
            u.decls.push(diffsizes_use());
        }
        u.decls.push(Decl::Implicit("implicit none".into()));
        for td in types {
            let d = self.type_decl(td, &mut u);
            if let Decl::TypeDef(id) = d {
                self.out.typedefs[id].unit = mid;
            }
            u.decls.push(d);
        }
        // Derivative variables, declared like their primal.
        let c = Copier { src };
        for d in &src.decls {
            let Decl::Var(v) = d else { continue };
            let ents: Vec<Entity> = v
                .entities
                .iter()
                .filter(|e| vars.contains(&e.sym))
                .map(|e| {
                    let mut e2 = e.clone();
                    e2.sym = self.dglobal[&e.sym];
                    e2.init = None;
                    e2
                })
                .collect();
            if ents.is_empty() {
                continue;
            }
            let mut dv = v.clone();
            dv.entities = ents;
            dv.attrs
                .retain(|a| !matches!(a, Attr::Keyword(k) if k == "parameter" || k == "protected"));
            if let BaseClass::Record(td) = v.spec.class {
                let (_, n) = self.derivative_type(td);
                dv.spec.name = Some(n);
            }
            let mut dd = c.decl(&mut u, &Decl::Var(dv));
            if self.opts.vector {
                if let Decl::Var(v) = &mut dd {
                    crate::proc_::add_direction_dim(&mut u, v);
                }
            }
            u.decls.push(dd);
        }
        u.parent = None;
        self.out.units[mid] = u;
        for p in procs {
            for d in self.proc_units(p, Some(mid)) {
                self.out.units[mid].contains.push(d);
            }
        }
        Some(mid)
    }

    /// The derivative units of procedure `p`: one, or in split adjoint mode the forward and
    /// backward sweeps of a procedure that is not a head.
    fn proc_units(&mut self, p: UnitId, parent: Option<UnitId>) -> Vec<UnitId> {
        let mut out = Vec::new();
        if let Some(&name) = self.primal_copies.get(&p) {
            let c = self.copy_unit(p, parent);
            let u = &mut self.out.units[c];
            if u.name != u.result {
                u.explicit_result = self.lang == Lang::Fortran;
            }
            u.name = Some(name);
            if self.lang == Lang::C && !u.attrs.prefixes.iter().any(|x| x == "static") {
                u.attrs.prefixes.insert(0, "static".into());
            }
            out.push(c);
        }
        out.extend(self.sweep_units(p, parent));
        out
    }

    fn sweep_units(&mut self, p: UnitId, parent: Option<UnitId>) -> Vec<UnitId> {
        let mut out = Vec::new();
        if self.split_procs.contains_key(&p) {
            out.push(ProcGen::run_sweep(self, p, parent, Sweep::Fwd));
            out.push(ProcGen::run_sweep(self, p, parent, Sweep::Bwd));
        }
        // The joint `g_b`, unless no call uses it.
        let all_split = self.opts.adjoint
            && !self.info.heads.iter().any(|h| h.head == p)
            && (self.opts.split || has_nocheckpoint(&self.prog.units[p].directives));
        if !all_split {
            out.push(ProcGen::run(self, p, parent));
        }
        out
    }

    fn record_type_used(&self, td: TypeDefId) -> bool {
        // A record type needs a derivative type when a variable of the type has a derivative
        // in some active procedure.
        self.active.iter().any(|&p| {
            let pi = &self.info.procs[&p];
            let d = self.deriv_zones(p);
            pi.zones
                .objects
                .iter()
                .any(|(_, o)| o.rec == Some(td) && pi.zones.obj_set(o).intersects(&d))
        })
    }

    fn interfaces(&self) -> Vec<Interface> {
        let mut out = Vec::new();
        for h in &self.info.heads {
            let p = h.head;
            let Some(&ds) = self.dproc.get(&p) else {
                continue;
            };
            let u = &self.prog.units[p];
            let flags = &self.dparams[&p];
            let params = u
                .params
                .iter()
                .zip(flags)
                .map(|(&s, &f)| {
                    (
                        s,
                        f.then(|| pattern(&self.opts.var_pattern, &self.prog.symbols[s].spelling)),
                    )
                })
                .collect();
            let module = u
                .parent
                .and_then(|m| self.dmodule.get(&m))
                .map(|m| unit_name(&self.out, *m));
            let uses = self
                .dmodule
                .values()
                .map(|m| unit_name(&self.out, *m))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            out.push(Interface {
                head: p,
                name: self.out.symbols[ds].spelling.clone(),
                module,
                params,
                result_deriv: self.dresult.get(&p).copied().unwrap_or(false),
                uses,
                independents: h.independents.iter().map(|(n, _)| n.clone()).collect(),
                dependents: h.dependents.iter().map(|(n, _)| n.clone()).collect(),
            });
        }
        out
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

/// Digamma ψ(x) for `x > 0`, for the derivatives of `gamma` and `log_gamma`: recurrence up to
/// x ≥ 6, then the asymptotic series (relative error below 1e-13).
const DIGAMMA_F90: &str = "\
pure function radtap_digamma(x) result(r)
  real(8), intent(in) :: x
  real(8) :: r, y, f
  r = 0.0_8
  y = x
  do while (y < 6.0_8)
    r = r - 1.0_8/y
    y = y + 1.0_8
  end do
  f = 1.0_8/(y*y)
  r = r + log(y) - 0.5_8/y - f*(1.0_8/12 - f*(1.0_8/120 - f*(1.0_8/252 - f*(1.0_8/240 - f/132))))
end function radtap_digamma";

const DIGAMMA_C: &str = "\
/* Digamma psi(x) for x > 0 (derivatives of tgamma and lgamma). */
static double radtap_digamma(double x) {
    double r = 0.0, f;
    while (x < 6.0) {
        r -= 1.0 / x;
        x += 1.0;
    }
    f = 1.0 / (x * x);
    return r + log(x) - 0.5 / x
        - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}";

/// Whether `dirs` holds `$AD NOCHECKPOINT`.
pub(crate) fn has_nocheckpoint(dirs: &[Directive]) -> bool {
    dirs.iter().any(|d| d.name == "NOCHECKPOINT")
}
