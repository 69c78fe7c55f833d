//! Assembling the generated file: the entry point of a differentiation, the layout of the
//! output (derivative modules, procedures, C file-scope declarations) and the derivative
//! units of each procedure, whose bodies come from the mode's [`BodyRules`].

pub(crate) mod c_file;
mod externals;
mod modules;
mod units;

use crate::gen::{key, unit_name, Gen};
use crate::proc_::BodyRules;
use crate::{Options, Output};
use c_file::CFiles;
use radtap_dataflow::ProgramInfo;
use radtap_il::*;
use std::collections::{HashMap, HashSet};

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

impl Gen<'_> {
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
                self.declare_dummy_procedures();
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
