//! Assembling the generated file: the entry point of a differentiation, the layout of the
//! output (derivative modules, procedures, C file-scope declarations) and the derivative
//! units of each procedure, whose bodies come from the mode's [`BodyRules`].

use crate::gen::{diffsizes_use, has_nocheckpoint, key, pattern, unit_name, Gen};
use crate::proc_::{add_direction_dim, BodyRules, ProcGen, Sweep};
use crate::{Options, Output};
use radtap_dataflow::ProgramInfo;
use radtap_il::copy::Copier;
use radtap_il::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Differentiates the heads of `info`; the body of every derivative unit comes from `rules`.
pub(crate) fn run(
    prog: &Program,
    info: &ProgramInfo,
    opts: &Options,
    rules: &dyn BodyRules,
) -> (Option<Output>, Vec<Diagnostic>) {
    let Some(h) = info.heads.first() else {
        return (None, Vec::new());
    };
    let lang = prog.units[h.head].lang;
    let mut taken = HashSet::new();
    for (_, s) in prog.symbols.iter() {
        taken.insert(key(lang, &s.spelling));
    }
    // Local names of USE renames (`use mb, only: c1b => c1`) are no symbol's spelling, but a
    // generated name equal to one (`c1b`, the adjoint of `ma`'s `c1`) would be ambiguous
    // where both are visible.
    for (_, u) in prog.units.iter() {
        for d in &u.decls {
            if let Decl::Use(ui, _) = d {
                for (local, _) in &ui.names {
                    taken.insert(key(lang, local));
                }
            }
        }
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
        allocating: std::collections::BTreeSet::new(),
        member_setters: std::collections::BTreeSet::new(),
        split_setters: std::collections::BTreeSet::new(),
        communicating: std::collections::BTreeSet::new(),
        mpi_split: std::collections::BTreeSet::new(),
        member_counts: Default::default(),
        alloc_calls: HashMap::new(),
        dproc: HashMap::new(),
        dparams: HashMap::new(),
        dresult: HashMap::new(),
        dglobal: HashMap::new(),
        dcommon: HashMap::new(),
        dtype: HashMap::new(),
        active_fields: HashMap::new(),
        pending_types: Vec::new(),
        dmodule: HashMap::new(),
        taken,
        diags: Vec::new(),
        uncleared: Vec::new(),
        needs_digamma: false,
        int_macros: radtap_il::extent::int_macros(prog),
        needs_binomial: false,
        global_scope,
        split_procs: HashMap::new(),
        effect_split: HashSet::new(),
        primal_copies: HashMap::new(),
        generated: Vec::new(),
    };
    g.choose_procedures();
    if opts.adjoint {
        g.choose_primal_copies();
    }
    g.choose_active_fields();
    g.member_setters = crate::heap_records::member_setters(prog, info, &g.active, &g.active_fields);
    g.split_member_setters();
    let mut pending = std::mem::take(&mut g.pending_types);
    pending.sort();
    pending.dedup();
    for td in pending {
        g.derivative_type(td);
    }
    g.choose_globals();
    g.diags
        .extend(crate::refuse::host_associated_dummies(prog, info));
    g.diags
        .extend(crate::refuse::complex_head_variables(prog, info));
    g.diags
        .extend(crate::refuse::file_static_shared(prog, info));
    g.diags.extend(crate::refuse::stored_addresses(prog, info));
    let facts = crate::refuse::ProgramFacts::new(prog);
    for &p in &g.active.clone() {
        g.diags
            .extend(crate::refuse::unsupported(prog, &facts, &info.procs[&p], p));
        g.diags
            .extend(crate::refuse::private_of_module(prog, p, &g.active));
        g.diags.extend(crate::refuse::unreachable_dummy_actuals(
            prog, info, p, &g.active,
        ));
        if prog.units[p].lang != lang {
            g.diags.push(Diagnostic::error(
                Code::Unsupported,
                prog.units[p].source_map.header.unwrap_or_default(),
                "differentiating through procedures of another language is not supported",
            ));
        }
        // The internal procedures of a subroutine or function are emitted inside the host's
        // derivative (`proc_units`); a main program has no derivative to hold them, and an
        // internal head could not be called from outside.
        let host_kind = prog.units[p].parent.map(|q| prog.units[q].kind);
        let internal = matches!(
            host_kind,
            Some(UnitKind::Subroutine | UnitKind::Function | UnitKind::Program)
        );
        if internal
            && (host_kind == Some(UnitKind::Program) || info.heads.iter().any(|h| h.head == p))
        {
            g.diags.push(Diagnostic::error(
                Code::Unsupported,
                prog.units[p].source_map.header.unwrap_or_default(),
                format!(
                    "differentiating the internal procedure `{}` of a main program, or as a head, is not supported yet; make it a module procedure",
                    unit_name(prog, p)
                ),
            ));
        }
    }
    if g.opts.adjoint {
        g.diags.extend(allocating_call_refusals(prog, info, &g));
    }
    let heap = crate::heap_records::refusals(prog, info, &g.active, &g.active_fields);
    g.diags.extend(heap);
    // A C union with a member carrying a derivative: its members share storage, and a
    // derivative record (one member each) does not (the other members' derivatives were
    // lost: f2c's COMMON with different member names per routine).
    let mut unions: Vec<TypeDefId> = g
        .active_fields
        .iter()
        .filter(|(td, f)| !f.is_empty() && prog.typedefs[**td].kind == TypeDefKind::Union)
        .map(|(td, _)| *td)
        .collect();
    unions.sort();
    for td in unions {
        let name = prog.typedefs[td]
            .name
            .clone()
            .unwrap_or_else(|| "(anonymous)".into());
        let at = g
            .active
            .iter()
            .find_map(|&p| prog.units[p].source_map.header);
        g.diags.push(Diagnostic::error(
            Code::Unsupported,
            at.unwrap_or_default(),
            format!("the union `{name}` holds values that carry derivatives: its members share storage, their derivatives would not; use a struct, or one name for the shared data"),
        ));
    }
    if g.diags.iter().any(|d| d.is_error()) {
        return (None, g.diags);
    }
    let file = g.assemble(rules);
    g.replace_described(file);
    // A statement is checked in every unit made from it (split mode, lowered regions):
    // each problem is reported once.
    let mut seen: Vec<Diagnostic> = Vec::new();
    g.diags.retain(|d| {
        let new = !seen.contains(d);
        if new {
            seen.push(d.clone());
        }
        new
    });
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

/// A prototype of C function `src`, its types' expressions copied into unit `fu`.
pub(crate) fn prototype_of(src: &UnitData, fu: &mut UnitData) -> Decl {
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
    Decl::var(VarDecl {
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

/// What the C output has taken in so far, across its input files and headers.
#[derive(Default)]
struct CFiles {
    /// `#include "DIFFSIZES.h"` is written (vector mode).
    diffsizes: bool,
    /// The headers (file indices) whose derivative types are written.
    headers_done: Vec<usize>,
    /// The declarations being taken in are a header's (included, not copied).
    in_header: bool,
}

/// The top-level units of the Fortran input files, each with the comments above it, in file
/// order except that a module comes before every unit that uses it (in its own declarations
/// or a contained procedure's): a depth-first walk over USE from each unit in file order, so
/// an order that already has modules first is kept as it is.
fn fortran_unit_order(prog: &Program) -> Vec<(Vec<FileItem>, UnitId)> {
    let mut entries: Vec<(Vec<FileItem>, UnitId)> = Vec::new();
    for f in &prog.files {
        let mut above = Vec::new();
        for it in &f.items {
            match it {
                FileItem::Comment(c) => above.push(FileItem::Comment(c.clone())),
                FileItem::Unit(u) => entries.push((std::mem::take(&mut above), *u)),
            }
        }
    }
    let at: HashMap<UnitId, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, (_, u))| (*u, i))
        .collect();
    /// The modules unit `u` and the units it contains use.
    fn used(prog: &Program, u: UnitId, out: &mut Vec<UnitId>) {
        for d in &prog.units[u].decls {
            if let Decl::Use(ui, _) = d {
                out.extend(ui.unit);
            }
        }
        for &q in &prog.units[u].contains {
            used(prog, q, out);
        }
    }
    fn visit(
        prog: &Program,
        i: usize,
        entries: &[(Vec<FileItem>, UnitId)],
        at: &HashMap<UnitId, usize>,
        done: &mut [bool],
        order: &mut Vec<usize>,
    ) {
        if done[i] {
            return;
        }
        done[i] = true;
        let mut deps = Vec::new();
        used(prog, entries[i].1, &mut deps);
        for m in deps {
            if let Some(&j) = at.get(&m) {
                visit(prog, j, entries, at, done, order);
            }
        }
        order.push(i);
    }
    let mut done = vec![false; entries.len()];
    let mut order = Vec::new();
    for i in 0..entries.len() {
        visit(prog, i, &entries, &at, &mut done, &mut order);
    }
    let mut slots: Vec<Option<(Vec<FileItem>, UnitId)>> = entries.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// The part of a module's declaration `d` that declares constants of `consts` (the PRIVATE
/// constants copied into a derivative module), without its `private`/`public` attribute:
/// `private :: …` says it once there (`, private` and the statement together do not compile).
fn constants_of(d: &Decl, consts: &[SymbolId]) -> Option<Decl> {
    match d {
        Decl::Var(v) => {
            let mut v = v.clone();
            v.entities.retain(|e| consts.contains(&e.sym));
            if v.entities.is_empty() {
                return None;
            }
            v.attrs
                .retain(|a| !matches!(a, Attr::Keyword(k) if k == "private" || k == "public"));
            Some(Decl::Var(v))
        }
        Decl::Parameter(ps) => {
            let ps: Vec<_> = ps
                .iter()
                .filter(|(s, _)| consts.contains(s))
                .cloned()
                .collect();
            (!ps.is_empty()).then_some(Decl::Parameter(ps))
        }
        _ => None,
    }
}

/// The name of a quoted include line (`#include "defs.h"`).
fn quoted_include(line: &str) -> Option<&str> {
    let t = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = t.strip_prefix("include")?.trim_start().strip_prefix('"')?;
    rest.split_once('"').map(|(name, _)| name)
}

impl Gen<'_> {
    /// Whether a global of this declaration has a derivative global.
    fn has_derivative_global(&self, v: &VarDecl) -> bool {
        v.entities.iter().any(|e| self.dglobal.contains_key(&e.sym))
    }

    /// Lays out the generated file: derivative modules, procedures, C declarations.
    pub(crate) fn assemble(&mut self, rules: &dyn BodyRules) -> usize {
        let prog = self.prog;
        let head_file = prog
            .files
            .iter()
            .position(|f| f.lang == self.lang && !f.header)
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
                .filter(|f| !f.header && !library::STAND_IN_FILES.contains(&f.path.as_str()))
                .map(|f| f.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        match self.lang {
            Lang::Fortran => {
                items.push(FileItem::Comment(banner));
                // Modules before the units that use them, whatever the order of the input
                // files: a derivative unit USEs the derivative modules made so far (`m_d` is
                // known once `module_d(m)` ran), and the output is one file, which gfortran
                // compiles top to bottom.
                for (above, u) in fortran_unit_order(prog) {
                    let at = items.len();
                    match prog.units[u].kind {
                        UnitKind::Module => {
                            if let Some(m) = self.module_d(u, rules) {
                                items.push(FileItem::Unit(m));
                            }
                        }
                        UnitKind::Subroutine | UnitKind::Function => {
                            if self.active.contains(&u) {
                                for d in self.proc_units(u, None, rules) {
                                    items.push(FileItem::Unit(d));
                                }
                            }
                        }
                        UnitKind::Program | UnitKind::BlockData | UnitKind::CFile => {}
                    }
                    // The comments above a unit go above its derivatives.
                    if items.len() > at {
                        items.splice(at..at, above);
                    }
                }
                self.derivative_interface_bodies();
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
                let mut st = CFiles::default();
                // The user's headers are written where they are included (their derivative
                // types right after the `#include`); one that no input includes, last.
                let headers: Vec<usize> = (0..prog.files.len())
                    .filter(|&fi| prog.files[fi].header)
                    .collect();
                for fi in (0..prog.files.len())
                    .filter(|fi| !headers.contains(fi))
                    .chain(headers.iter().copied())
                {
                    if prog.files[fi].header {
                        if st.headers_done.contains(&fi) {
                            continue;
                        }
                        st.headers_done.push(fi);
                    }
                    for it in prog.files[fi].items.clone() {
                        let FileItem::Unit(cu) = it else { continue };
                        if prog.units[cu].kind != UnitKind::CFile {
                            continue;
                        }
                        st.in_header = prog.files[fi].header;
                        self.c_file_decls(cu, fid, &mut fu, &mut decls, &mut st, rules);
                    }
                }
                if self.needs_binomial {
                    fu.decls
                        .push(Decl::Verbatim("#include \"adBinomial.h\"".to_string()));
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
            header: false,
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
        st: &mut CFiles,
        rules: &dyn BodyRules,
    ) {
        let header = st.in_header;
        let prog = self.prog;
        let src = &prog.units[cu];
        let c = Copier { src };
        if self.opts.vector && !st.diffsizes {
            fu.decls
                .push(Decl::Preproc("#include \"DIFFSIZES.h\"".into()));
            st.diffsizes = true;
        }
        // The comments right above a function go above its derivatives.
        let mut above = Vec::new();
        for d in src.decls.clone() {
            if let Decl::Comment(_) = d {
                above.push(d);
                continue;
            }
            let above = std::mem::take(&mut above);
            match &d {
                Decl::Preproc(line) => {
                    // A header's own lines stay in the header, which the output includes.
                    if !header {
                        fu.decls.push(d.clone());
                    }
                    // The derivative types of an included header's types come right after
                    // its `#include`.
                    if let Some(hf) = quoted_include(line).and_then(|n| {
                        (0..prog.files.len()).find(|&fi| {
                            prog.files[fi].header
                                && !st.headers_done.contains(&fi)
                                && Path::new(&prog.files[fi].path).ends_with(n)
                        })
                    }) {
                        st.headers_done.push(hf);
                        st.in_header = true;
                        for it in prog.files[hf].items.clone() {
                            if let FileItem::Unit(hu) = it {
                                self.c_file_decls(hu, fid, fu, funcs, st, rules);
                            }
                        }
                        st.in_header = header;
                    }
                }
                Decl::TypeDef(td) if header => {
                    if self.dtype.contains_key(td) {
                        let dd = self.type_decl(*td, fu);
                        fu.decls.push(dd);
                    }
                }
                Decl::Var(v) if header && !self.has_derivative_global(v) => {
                    if let Some(td) = v.spec.inline_def {
                        if self.dtype.contains_key(&td) {
                            let dd = self.type_decl(td, fu);
                            fu.decls.push(dd);
                        }
                    }
                }
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
                    if header {
                        // The primal declaration is the header's.
                        fu.decls.pop();
                    }
                    if !dents.is_empty() {
                        let mut dv = v.clone();
                        dv.entities = dents;
                        // File-scope `static` state keeps a file-local derivative: the
                        // tangent's `sd` and the vector tangent's `sd[NBDirsMax]` link together.
                        dv.attrs.retain(
                            |a| !matches!(a, Attr::Keyword(k) if k == "extern" || k == "static"),
                        );
                        if is_static {
                            dv.attrs.insert(0, Attr::Keyword("static".into()));
                        }
                        // The derivative of a `const` global is set by the caller or the
                        // adjoint: never const.
                        dv.spec.qualifiers.retain(|q| q != "const");
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
                    if header || prog.described.contains_key(&f) {
                        // Defined in the header, which the output includes; a described
                        // routine's prototype is its library's header's.
                    } else if is_static {
                        let copy = self.copy_unit(f, Some(fid));
                        fu.decls.push(Decl::Unit(copy));
                    } else {
                        {
                            let x = self.prototype(f, fu);
                            fu.decls.push(x);
                        }
                    }
                    if self.active.contains(&f) {
                        for (i, d) in self.proc_units(f, Some(fid), rules).into_iter().enumerate() {
                            if i == 0 {
                                // Written above the function, before its header comment.
                                let texts = above.iter().filter_map(|c| match c {
                                    Decl::Comment(t) => Some(Directive::comment(t.clone())),
                                    _ => None,
                                });
                                self.out.units[d].directives.splice(0..0, texts);
                            }
                            funcs.push(Decl::Unit(d));
                        }
                    }
                }
                Decl::Comment(_)
                | Decl::TrailingComment(_)
                | Decl::Directive(_)
                | Decl::Verbatim(_) => {}
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
        prototype_of(&self.prog.units[f], fu)
    }

    /// A verbatim copy of a unit (C `static` helpers the generated code calls).
    fn copy_unit(&mut self, f: UnitId, parent: Option<UnitId>) -> UnitId {
        let src = &self.prog.units[f];
        let c = Copier { src };
        let mut u = UnitData::new(src.kind, src.lang, src.scope);
        u.name = src.name;
        u.parent = parent;
        u.params = src.params.clone();
        u.result = src.result;
        u.explicit_result = src.explicit_result;
        u.header_type = src.header_type.as_ref().map(|t| c.spec(&mut u, t));
        u.ret_derived = c.ops(&mut u, &src.ret_derived);
        u.attrs = src.attrs.clone();
        u.c_params = src.c_params.iter().map(|p| c.cparam(&mut u, p)).collect();
        u.c_void_params = src.c_void_params;
        u.c_variadic = src.c_variadic;
        u.empty_parens = src.empty_parens;
        u.decls = src.decls.iter().map(|d| c.decl(&mut u, d)).collect();
        u.body = c.block(&mut u, &src.body);
        let id = self.out.units.alloc(u);
        // A copied Fortran procedure carries its internal procedures.
        if self.lang == Lang::Fortran {
            for q in src.contains.clone() {
                let cq = self.copy_unit(q, Some(id));
                self.out.units[id].contains.push(cq);
            }
        }
        id
    }

    /// The derivative module of module `m`, when it has anything: derivative variables,
    /// derivative types, derivative procedures.
    fn module_d(&mut self, m: UnitId, rules: &dyn BodyRules) -> Option<UnitId> {
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
        let dname = self.fresh_global(&pattern(&self.opts.module_pattern, &mname));
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
        // A module PRIVATE by default does not pass on what it uses (`wp` from a kinds
        // module): its USE statements are repeated, so the copied declarations and bodies
        // see the same names.
        if prog.scopes[src.scope].default_private {
            let c = Copier { src };
            for d in &src.decls {
                if let Decl::Use(..) = d {
                    let d = c.decl(&mut u, d);
                    u.decls.push(d);
                }
            }
        }
        // Derivative modules of the modules this one uses.
        for d in &src.decls {
            if let Decl::Use(ui, _) = d {
                if let (Some(um), Some(dm)) = (ui.unit, ui.unit.and_then(|x| self.dmodule.get(&x)))
                {
                    // `only:` or renames: keep the rest of the used module out of scope.
                    let only = ui.only || !ui.names.is_empty();
                    if let Some(d) = self.derivative_use(um, *dm, only) {
                        u.decls.push(d);
                    }
                }
            }
        }
        if self.opts.vector {
            u.decls.push(diffsizes_use());
        }
        // The module's scope sees what its USE statements import, so that names printed
        // in it (a component's kind `wp`, renamed from `real64`) are spelled as here.
        for d in &u.decls {
            if let Decl::Use(ui, _) = d {
                self.out.scopes[scope].uses.push(ui.clone());
            }
        }
        // The module's own implicit typing: its procedures' implicitly typed locals (`do k =
        // 1, n` with no IMPLICIT NONE) are typed in the derivative procedures as in the
        // original (`implicit none` here left them undeclared: no compile); every name
        // radtap makes is declared.
        let implicits: Vec<Decl> = src
            .decls
            .iter()
            .filter(|d| matches!(d, Decl::Implicit(_)))
            .cloned()
            .collect();
        u.decls.extend(implicits);
        // PRIVATE constants and procedures of the module its derivative procedures need,
        // copied here as PRIVATE (`private_copy`; what cannot be copied was refused); the
        // constants first, as the derivative types and variables may use them (`real(dp)`).
        let copies = crate::private_copy::needed(prog, m, &procs, &self.active).unwrap_or_default();
        for d in &src.decls {
            let Some(d) = constants_of(d, &copies.consts) else {
                continue;
            };
            let d = Copier { src }.decl(&mut u, &d);
            u.decls.push(d);
        }
        // The PRIVATE abstract interfaces a copied dummy names (`procedure(func) :: f`).
        let abstracts = crate::private_copy::abstract_interfaces(prog, m, &procs);
        for itf in &abstracts {
            u.decls.push(Decl::Interface(itf.clone()));
        }
        let mut copied: Vec<String> = (copies.consts.iter().copied())
            .chain(copies.procs.iter().filter_map(|&q| prog.units[q].name))
            .chain(
                abstracts
                    .iter()
                    .flat_map(|i| i.bodies.iter().filter_map(|&b| prog.units[b].name)),
            )
            .map(|s| prog.symbols[s].spelling.clone())
            .collect();
        // Library procedures specialised for this module's function live here and name the
        // library module's PRIVATE entities: copied the same way (`private_copy`).
        let foreign_procs = self.foreign_private_copies(m, &procs, scope, &mut u, &mut copied);
        if !copied.is_empty() {
            u.decls
                .push(Decl::Verbatim(format!("private :: {}", copied.join(", "))));
        }
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
                    add_direction_dim(&mut u, v);
                }
            }
            u.decls.push(dd);
        }
        u.parent = None;
        self.out.units[mid] = u;
        for p in procs {
            for d in self.proc_units(p, Some(mid), rules) {
                self.out.units[mid].contains.push(d);
            }
        }
        for q in copies.procs.into_iter().chain(foreign_procs) {
            let cq = self.copy_unit(q, Some(mid));
            self.out.units[mid].contains.push(cq);
        }
        Some(mid)
    }

    /// The PRIVATE constants, abstract interfaces and procedures of other modules that the
    /// procedures `procs` of module `m` name (specialised copies of library procedures, see
    /// `private_copy`), declared in the derivative module `u` (scope `scope`) as PRIVATE, with
    /// the USE statements of those modules (their kinds: `wp` from `iso_fortran_env`); their
    /// names are added to `copied`. Returns the procedures to copy.
    fn foreign_private_copies(
        &mut self,
        m: UnitId,
        procs: &[UnitId],
        scope: ScopeId,
        u: &mut UnitData,
        copied: &mut Vec<String>,
    ) -> Vec<UnitId> {
        let prog = self.prog;
        let mut out = Vec::new();
        for om in crate::private_copy::foreign_modules(prog, m, procs) {
            let osrc = &prog.units[om];
            let Ok(oc) = crate::private_copy::needed(prog, om, procs, &self.active) else {
                continue;
            };
            let c = Copier { src: osrc };
            let at = u
                .decls
                .iter()
                .position(|d| !matches!(d, Decl::Use(..)))
                .unwrap_or(u.decls.len());
            let mut k = at;
            for d in &osrc.decls {
                if let Decl::Use(ui, _) = d {
                    let d = c.decl(u, d);
                    u.decls.insert(k, d);
                    k += 1;
                    self.out.scopes[scope].uses.push(ui.clone());
                }
            }
            for d in &osrc.decls {
                let Some(d) = constants_of(d, &oc.consts) else {
                    continue;
                };
                let d = c.decl(u, &d);
                u.decls.push(d);
            }
            let abstracts = crate::private_copy::abstract_interfaces(prog, om, procs);
            for itf in &abstracts {
                u.decls.push(Decl::Interface(itf.clone()));
            }
            copied.extend(
                (oc.consts.iter().copied())
                    .chain(oc.procs.iter().filter_map(|&q| prog.units[q].name))
                    .chain(
                        abstracts
                            .iter()
                            .flat_map(|i| i.bodies.iter().filter_map(|&b| prog.units[b].name)),
                    )
                    .map(|s| prog.symbols[s].spelling.clone()),
            );
            out.extend(oc.procs);
        }
        out
    }

    /// The derivative units of procedure `p`: one, or in split adjoint mode the forward and
    /// backward sweeps of a procedure that is not a head.
    fn proc_units(
        &mut self,
        p: UnitId,
        parent: Option<UnitId>,
        rules: &dyn BodyRules,
    ) -> Vec<UnitId> {
        let mut out = Vec::new();
        if let Some(&name) = self.primal_copies.get(&p) {
            let c = self.copy_unit(p, parent);
            let u = &mut self.out.units[c];
            if u.name != u.result {
                u.explicit_result = self.lang == Lang::Fortran;
            }
            u.name = Some(name);
            if self.lang == Lang::C {
                // `inline`: no warning when every call of the copy went to `g_fwd`.
                u.attrs.prefixes.retain(|x| x != "static" && x != "inline");
                u.attrs
                    .prefixes
                    .splice(0..0, ["static".into(), "inline".into()]);
            }
            out.push(c);
        }
        let sweeps = self.sweep_units(p, parent, rules);
        for &d in &sweeps {
            self.internal_units(p, d, rules);
        }
        out.extend(sweeps);
        if self.lang == Lang::C {
            for &d in &out {
                self.call_primal_copies(d);
            }
        }
        self.generated.extend(out.iter().map(|&d| (p, d)));
        out
    }

    /// The internal procedures of `p` inside its derivative unit `d`: the derivative units of
    /// the active ones, and a copy of every one, which the calls without derivatives keep
    /// calling. Their host variables were made arguments (`radtap_il::lift`), so nothing in
    /// them depends on what the host's derivative declares.
    fn internal_units(&mut self, p: UnitId, d: UnitId, rules: &dyn BodyRules) {
        if self.lang != Lang::Fortran {
            return;
        }
        for q in self.prog.units[p].contains.clone() {
            let mut inner = Vec::new();
            if self.active.contains(&q) {
                inner.extend(self.proc_units(q, Some(d), rules));
            }
            inner.push(self.copy_unit(q, Some(d)));
            self.out.units[d].contains.extend(inner);
        }
    }

    /// C: every call in generated unit `d` to a procedure with a primal copy calls the copy
    /// (the same code, in the same file, so gcc can inline it; `Gen::choose_primal_copies`).
    fn call_primal_copies(&mut self, d: UnitId) {
        if self.primal_copies.is_empty() {
            return;
        }
        let by_name: HashMap<String, SymbolId> = self
            .primal_copies
            .iter()
            .filter(|(&f, _)| {
                // A `static` original is in the file too (`copy_unit`): its calls stay.
                !self.prog.units[f]
                    .attrs
                    .prefixes
                    .iter()
                    .any(|x| x == "static")
            })
            .map(|(&f, &c)| (unit_name(self.prog, f), c))
            .collect();
        let u = &mut self.out.units[d];
        let callees: Vec<ExprId> = u
            .exprs
            .iter()
            .filter_map(|(_, e)| match e {
                Expr::Call { callee, .. } => Some(*callee),
                _ => None,
            })
            .chain(u.stmts.iter().filter_map(|(_, s)| match &s.kind {
                StmtKind::Call { callee, .. } => Some(*callee),
                _ => None,
            }))
            .collect();
        for c in callees {
            if let Expr::Name(sym) = u.exprs[c] {
                let sd = &self.out.symbols[sym];
                if sd.kind == SymbolKind::Procedure {
                    if let Some(&copy) = by_name.get(&sd.spelling) {
                        u.exprs[c] = Expr::Name(copy);
                    }
                }
            }
        }
    }

    /// A generated unit that copied the caller's interface block for an external procedure
    /// `foo` which has derivatives also gets interface bodies for them (`foo_d`, `foo_b`,
    /// sweeps, primal copy): a procedure with assumed-shape, optional, pointer... dummies
    /// needs an explicit interface at every call, and so do its derivatives.
    fn derivative_interface_bodies(&mut self) {
        let prog = self.prog;
        let generated = self.generated.clone();
        for &(_, u) in &generated {
            for di in 0..self.out.units[u].decls.len() {
                let Decl::Interface(itf) = &self.out.units[u].decls[di] else {
                    continue;
                };
                if itf.is_abstract || itf.name.is_some() {
                    continue;
                }
                let mut extra = Vec::new();
                for b in itf.bodies.clone() {
                    let Some(name) = self.out.units[b].name else {
                        continue;
                    };
                    let spelling = self.out.symbols[name].spelling.clone();
                    for &(p, d) in &generated {
                        let pu = &prog.units[p];
                        if pu.parent.is_none()
                            && pu.name.is_some_and(|n| {
                                prog.symbols[n].spelling.eq_ignore_ascii_case(&spelling)
                            })
                        {
                            extra.push(self.interface_body(d, u));
                        }
                    }
                }
                if let Decl::Interface(itf) = &mut self.out.units[u].decls[di] {
                    itf.bodies.extend(extra);
                }
            }
        }
    }

    /// The interface body of generated unit `d`, for an interface block of unit `host`: its
    /// header and the declarations of its dummies (and of the constants they use).
    fn interface_body(&mut self, d: UnitId, host: UnitId) -> UnitId {
        let mut ib = self.out.units[d].clone();
        ib.parent = Some(host);
        ib.body = Vec::new();
        ib.contains = Vec::new();
        ib.trailing_comments = Vec::new();
        ib.directives = Vec::new();
        let keep: HashSet<SymbolId> = ib.params.iter().copied().chain(ib.result).collect();
        let decls = std::mem::take(&mut ib.decls);
        for mut dl in decls {
            match &mut dl {
                Decl::Var(v) => {
                    let constant = v
                        .attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "parameter"));
                    if !constant {
                        v.entities.retain(|e| keep.contains(&e.sym));
                    }
                    if v.entities.is_empty() {
                        continue;
                    }
                }
                Decl::Attr(a) => {
                    a.items.retain(|i| keep.contains(&i.sym));
                    if a.items.is_empty() {
                        continue;
                    }
                }
                Decl::Use(..)
                | Decl::Implicit(_)
                | Decl::Parameter(_)
                | Decl::TypeDef(_)
                | Decl::Interface(_) => {}
                Decl::Common(_)
                | Decl::Equivalence(_)
                | Decl::Data(_)
                | Decl::StmtFunction { .. }
                | Decl::Comment(_)
                | Decl::TrailingComment(_)
                | Decl::Directive(_)
                | Decl::Unit(_)
                | Decl::Preproc(_)
                | Decl::Verbatim(_)
                | Decl::Enumerators(_) => continue,
            }
            ib.decls.push(dl);
        }
        self.out.units.alloc(ib)
    }

    fn sweep_units(
        &mut self,
        p: UnitId,
        parent: Option<UnitId>,
        rules: &dyn BodyRules,
    ) -> Vec<UnitId> {
        let mut out = Vec::new();
        if self.split_procs.contains_key(&p) {
            out.push(ProcGen::run_sweep(self, p, parent, Sweep::Fwd, rules));
            out.push(ProcGen::run_sweep(self, p, parent, Sweep::Bwd, rules));
        }
        // The joint `g_b`, unless no call uses it.
        let all_split = self.opts.adjoint
            && !self.info.heads.iter().any(|h| h.head == p)
            && (self.opts.split
                || has_nocheckpoint(&self.prog.units[p].directives)
                || self.split_setters.contains(&p)
                || self.mpi_split.contains(&p));
        if !all_split {
            out.push(ProcGen::run_sweep(self, p, parent, Sweep::Joint, rules));
        }
        out
    }
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

/// Adjoint mode: a call to a procedure that allocates or frees module variables with
/// derivatives (`Gen::allocating`) is refused at the call, unless it is one half of an
/// initialisation / finalisation pair (`Gen::alloc_calls`). The forward sweep would run the
/// primal procedure, so the derivative variables would never be allocated.
fn allocating_call_refusals(prog: &Program, info: &ProgramInfo, g: &Gen) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for &p in &g.active {
        let u = &prog.units[p];
        for c in info.callgraph.sites_of(p) {
            let radtap_flowgraph::Callee::Defined(l) = &c.callee else {
                continue;
            };
            let Some(&q) = l.iter().find(|q| g.allocating.contains(q)) else {
                continue;
            };
            if g.alloc_calls.contains_key(&(p, c.stmt)) {
                continue;
            }
            let span = u.source_map.stmt.get(c.stmt).copied().unwrap_or_default();
            out.push(Diagnostic::error(
                Code::Unsupported,
                span,
                format!(
                    "a call to `{}`, which allocates or frees module variables that carry derivatives, is not supported in adjoint mode yet",
                    unit_name(prog, q)
                ),
            ));
        }
    }
    out
}
