//! Derivative modules `m_d` (Fortran): the derivatives of a module's variables, its
//! derivative types and procedures, and the private procedures of foreign modules copied so a
//! derivative can call them.

use crate::gen::{diffsizes_use, pattern, unit_name, Gen};
use crate::proc_::{add_direction_dim, BodyRules};
use radtap_il::copy::Copier;
use radtap_il::*;

impl Gen<'_> {
    /// The derivative module of module `m`, when it has anything: derivative variables,
    /// derivative types, derivative procedures.
    pub(crate) fn module_d(&mut self, m: UnitId, rules: &dyn BodyRules) -> Option<UnitId> {
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
}

/// The part of a module's declaration `d` that declares constants of `consts` (the PRIVATE
/// constants copied into a derivative module), without its `private`/`public` attribute:
/// `private :: …` says it once there (`, private` and the statement together do not compile).
pub(super) fn constants_of(d: &Decl, consts: &[SymbolId]) -> Option<Decl> {
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
