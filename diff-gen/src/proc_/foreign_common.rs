//! COMMON blocks and module variables a callee uses that this procedure does not see: the
//! adjoint must record them around a call that overwrites them (the values its backward
//! sweep needs), so the derivative unit declares the block as the callee does, or USEs the
//! module variable by name (Tapenade does the same).

use super::*;
use radtap_il::visit::{decl_exprs, expr_children};

impl ProcGen<'_, '_> {
    /// Declares in this derivative unit the COMMON block of `x`, a member declared by another
    /// procedure, with every member of the block as that procedure declares them. Returns
    /// whether `x` can be named here: false where a member's name is taken in this procedure
    /// or its declaration needs a name that does not mean the same here.
    pub fn declare_foreign_common(&mut self, x: SymbolId) -> bool {
        let prog = self.g.prog;
        if self.f.lang != Lang::Fortran {
            return false;
        }
        let Some(blk) = prog.symbols[x].common else {
            return false;
        };
        // Declared here already (by the procedure or by an earlier copy): `x` is named here
        // when it is one of those members; another procedure's name for the same memory is
        // covered by them.
        let mut declared = self
            .u
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Common(bs) => Some(bs),
                _ => None,
            })
            .flatten()
            .filter(|(b, _)| *b == Some(blk))
            .peekable();
        if declared.peek().is_some() {
            return declared.any(|(_, es)| es.iter().any(|e| e.sym == x));
        }
        let Some(owner) = radtap_dataflow::zones::unit_of_scope(prog, prog.symbols[x].scope) else {
            return false;
        };
        if owner == self.f.p {
            return false;
        }
        let src = &prog.units[owner];
        if !matches!(
            src.kind,
            UnitKind::Subroutine | UnitKind::Function | UnitKind::Program
        ) {
            return false;
        }
        let members: Vec<Entity> = src
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Common(bs) => Some(bs),
                _ => None,
            })
            .flatten()
            .filter(|(b, _)| *b == Some(blk))
            .flat_map(|(_, es)| es.iter().cloned())
            .collect();
        if !members.iter().any(|e| e.sym == x) {
            return false;
        }
        let here = self.f.src.scope;
        let means_the_same = |s: SymbolId| {
            prog.lookup(here, &key(Lang::Fortran, &prog.symbols[s].spelling)) == Some(s)
        };
        let mut decls = Vec::new();
        for m in &members {
            if prog
                .lookup(here, &key(Lang::Fortran, &prog.symbols[m.sym].spelling))
                .is_some()
            {
                return false;
            }
            let explicit = src.decls.iter().find_map(|d| match d {
                Decl::Var(v) if v.entities.iter().any(|e| e.sym == m.sym) => Some(v),
                _ => None,
            });
            let v = match explicit {
                Some(v) => {
                    let mut v = VarDecl::clone(v);
                    v.entities.retain(|e| e.sym == m.sym);
                    v.attrs
                        .retain(|a| !matches!(a, Attr::Keyword(k) if k == "save"));
                    v
                }
                None => {
                    let Some(t) = &prog.symbols[m.sym].ty else {
                        return false;
                    };
                    let mut t = t.clone();
                    t.dims.clear(); // given by the COMMON statement
                    VarDecl {
                        spec: spec_of_type(Lang::Fortran, &t),
                        attrs: Vec::new(),
                        entities: vec![plain_entity(m.sym)],
                        double_colon: true,
                    }
                }
            };
            decls.push(Decl::var(v));
        }
        decls.push(Decl::Common(vec![(Some(blk), members)]));
        // Every name the copied declarations use (kinds, bounds) must mean the same here.
        let mut names = Vec::new();
        for d in &decls {
            let mut todo = Vec::new();
            decl_exprs(d, &mut |e| todo.push(e));
            while let Some(e) = todo.pop() {
                if let Expr::Name(s) = &src.exprs[e] {
                    names.push(*s);
                }
                expr_children(&src.exprs[e], &mut |c| todo.push(c));
            }
        }
        if !names.into_iter().all(means_the_same) {
            return false;
        }
        let c = Copier { src };
        for d in decls {
            let d = c.decl(&mut self.u, &d);
            self.u.decls.push(d);
        }
        true
    }

    /// Makes the module variable `x`, which this procedure does not see (its module is not
    /// USEd here, or USEd with an ONLY list without it), visible in this derivative unit by
    /// `use m, only: x`. Returns false where that cannot be done: `x` is no variable of a
    /// module of the program, it is PRIVATE, or its name means something else here.
    pub fn use_foreign_module_var(&mut self, x: SymbolId) -> bool {
        let prog = self.g.prog;
        if self.f.lang != Lang::Fortran {
            return false;
        }
        let sym = &prog.symbols[x];
        if sym.kind != SymbolKind::Variable || sym.attrs.constant {
            return false;
        }
        let Some(owner) = radtap_dataflow::zones::unit_of_scope(prog, sym.scope) else {
            return false;
        };
        let m = &prog.units[owner];
        if m.kind != UnitKind::Module {
            return false;
        }
        let msc = &prog.scopes[m.scope];
        if sym.attrs.private || (msc.default_private && !sym.attrs.public) {
            return false;
        }
        let name = sym.spelling.clone();
        let mname = crate::generator::unit_name(prog, owner).to_string();
        let already = self.u.decls.iter().any(|d| {
            matches!(d, Decl::Use(ui, _) if ui.unit == Some(owner)
                && ui.names.iter().any(|(l, _)| l.eq_ignore_ascii_case(&name)))
        });
        if already {
            return true;
        }
        if prog
            .lookup(self.f.src.scope, &key(Lang::Fortran, &name))
            .is_some()
            || self.u_has_name(&name)
        {
            return false;
        }
        let d = Decl::Use(
            UseImport {
                module: mname.to_ascii_lowercase(),
                unit: Some(owner),
                only: true,
                names: vec![(name.clone(), name.clone())],
            },
            format!("use {mname}, only: {name}"),
        );
        // USE statements come first: after the last one, or after the leading comments.
        let at = match self
            .u
            .decls
            .iter()
            .rposition(|d| matches!(d, Decl::Use(..)))
        {
            Some(i) => i + 1,
            None => self
                .u
                .decls
                .iter()
                .position(|d| !matches!(d, Decl::Comment(_)))
                .unwrap_or(self.u.decls.len()),
        };
        self.u.decls.insert(at, d);
        // Its derivative, from the module's derivative module (a `use m2, only: fold` inside
        // a callee left the head writing `foldd` undeclared).
        if let Some(&dm) = self.g.dmodule.get(&owner) {
            let used = self
                .u
                .decls
                .iter()
                .any(|d| matches!(d, Decl::Use(ui, _) if ui.unit == Some(dm)));
            if Some(dm) != self.u.parent && !used {
                if let Some(dd) = self.g.derivative_use(owner, dm, true) {
                    self.u.decls.insert(at + 1, dd);
                }
            }
        }
        true
    }

    /// The derivative of the global `x` (a module variable or a COMMON member) in this
    /// unit, made visible here if it is not (a USE by name, or the COMMON block and its
    /// derivative mirror declared as another procedure declares them); `None` where that
    /// cannot be done.
    fn visible_global_derivative(&mut self, x: SymbolId) -> Option<SymbolId> {
        let prog = self.g.prog;
        let sd = &prog.symbols[x];
        if sd.common.is_none() {
            let ds = *self.g.dglobal.get(&x)?;
            let seen = prog.lookup(self.f.src.scope, &key(Lang::Fortran, &sd.spelling)) == Some(x);
            return (seen || self.use_foreign_module_var(x)).then_some(ds);
        }
        if let Some(&d) = self.dvar.get(&x) {
            return Some(d);
        }
        let blk = sd.common?;
        let declared_here = self.f.src.decls.iter().any(|d| {
            matches!(d, Decl::Common(bs) if bs.iter().any(|(b, es)| *b == Some(blk) && es.iter().any(|e| e.sym == x)))
        });
        if declared_here || !self.declare_foreign_common(x) {
            return None;
        }
        // The block's mirror, declared as the procedure owning `x` declares its members.
        let owner = radtap_dataflow::zones::unit_of_scope(prog, sd.scope)?;
        let src = &prog.units[owner];
        let members: Vec<Entity> = src
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Common(bs) => Some(bs),
                _ => None,
            })
            .flatten()
            .filter(|(b, _)| *b == Some(blk))
            .flat_map(|(_, es)| es.iter().cloned())
            .collect();
        let c = Copier { src };
        let mut decls = Vec::new();
        self.derivative_common(Some(blk), &members, &c, &mut decls);
        self.u.decls.extend(decls);
        self.dvar.get(&x).copied()
    }

    /// The variables (sorted) with a derivative in this procedure that hold no zone of
    /// `keep`: those whose derivative a head clears on entry.
    fn cleared_globals(&self, keep: &ZoneSet) -> Vec<SymbolId> {
        let dz = self.g.deriv_zones(self.f.p);
        let mut globals: Vec<SymbolId> = self
            .f
            .pi
            .zones
            .objects
            .iter()
            .filter_map(|(k, o)| match k {
                ObjKey::Sym(x) => {
                    let z = self.f.pi.zones.obj_set(o);
                    (z.intersects(&dz) && !z.intersects(keep)).then_some(*x)
                }
                _ => None,
            })
            .collect();
        globals.sort();
        globals.dedup();
        globals
    }

    /// At a head's entry: `vd = 0` for every module variable and COMMON member `v` with a
    /// derivative here, except those holding zones of `keep` (the independents in tangent
    /// mode, the dependents in adjoint mode). Only those are inputs (DESIGN.md); the others'
    /// derivatives live in static storage that keeps what a previous run left there, which
    /// the code reads as zero wherever the global does not vary: a primal call resetting
    /// an accumulator (`call reset()`, `call vaccum(h, 0)`) left its derivative (or
    /// adjoint) as the last run ended, and a second run of the head gave another result.
    pub fn zero_global_derivatives(&mut self, keep: &ZoneSet) -> Vec<StmtId> {
        let mut out = Vec::new();
        if !self.g.info.heads.iter().any(|h| h.head == self.f.p) {
            return out;
        }
        out.extend(self.next_run());
        if self.f.lang == Lang::C {
            out.extend(self.zero_c_global_derivatives(keep));
            return out;
        }
        let prog = self.g.prog;
        let globals = self.cleared_globals(keep);
        for x in globals {
            let sd = &prog.symbols[x];
            let module = radtap_dataflow::zones::unit_of_scope(prog, sd.scope)
                .is_some_and(|m| prog.units[m].kind == UnitKind::Module);
            if !(module || sd.common.is_some()) || self.f.src.params.contains(&x) {
                continue;
            }
            let Some(ty) = sd.ty.clone() else { continue };
            if ty.pointers > 0
                || sd.attrs.pointer
                || !matches!(ty.base, BaseClass::Real | BaseClass::Complex)
            {
                continue;
            }
            let allocatable = sd.attrs.allocatable;
            let Some(ds) = self.visible_global_derivative(x) else {
                continue;
            };
            let (l, z) = (self.b().name(ds), self.b().zero(ty.bytes.unwrap_or(4)));
            let mut st = assign(&mut self.u, l, z);
            if allocatable {
                // The derivative is allocated with the primal, at its ALLOCATE; but a primal
                // already allocated on entry (by an earlier primal run, or before a guard
                // `if (.not. allocated(w)) allocate(w(n))`) would leave it unallocated: give
                // it the primal's bounds here.
                //   if (allocated(wd)) deallocate(wd)
                //   if (allocated(w)) then
                //     allocate(wd(lbound(w,1):ubound(w,1)))
                //     wd = 0
                //   end if
                let free = self.free_if_allocated(ds);
                out.push(free);
                // `allocate(wd(lbound(w,1):ubound(w,1), ...))`, the directions first in vector
                // mode (`mold=` cannot add that dimension).
                let subs = self.bounds_like(x, ty.dims.len());
                let n = self.b().name(ds);
                let item = if subs.is_empty() {
                    n
                } else {
                    self.b().index(n, subs)
                };
                let alloc = stmt(
                    &mut self.u,
                    StmtKind::Memory {
                        op: MemOp::Allocate,
                        items: vec![item],
                        options: Vec::new(),
                    },
                );
                let m = self.b().name(x);
                let cond = self.b().call("allocated", vec![m]);
                st = stmt(
                    &mut self.u,
                    StmtKind::If {
                        arms: vec![(cond, vec![alloc, st])],
                        else_block: None,
                        logical: false,
                        braces: Vec::new(),
                    },
                );
            }
            out.push(st);
        }
        out
    }

    /// The C globals (file-scope variables, `extern` ones included) whose derivative is
    /// live in this head and holds no zone of `keep`: `gd = 0.0` for a scalar, and for an
    /// array (or any global in vector mode, where a direction dimension is added)
    /// `for (i = 0; i < sizeof(gd)/sizeof(double); ++i) ((double *)gd)[i] = 0.0;`. Real
    /// globals only: a struct global's derivative is not cleared yet.
    fn zero_c_global_derivatives(&mut self, keep: &ZoneSet) -> Vec<StmtId> {
        let mut out = Vec::new();
        let prog = self.g.prog;
        let globals = self.cleared_globals(keep);
        for x in globals {
            let Some(&ds) = self.g.dglobal.get(&x) else {
                continue;
            };
            let sd = &prog.symbols[x];
            let Some(ty) = sd.ty.clone() else { continue };
            if ty.pointers > 0 || !matches!(ty.base, BaseClass::Real) {
                continue;
            }
            let bytes = ty.bytes.unwrap_or(8);
            if ty.dims.is_empty() && !self.f.vector {
                let (l, z) = (self.b().name(ds), self.b().zero(bytes));
                out.push(assign(&mut self.u, l, z));
                continue;
            }
            let cty = match bytes {
                4 => "float",
                16 => "long double",
                _ => "double",
            };
            let dn = self.g.out.symbols[ds].spelling.clone();
            let i = self.temp("i", TempKind::Int);
            let iv = self.b().name(i);
            let base = self.b().opaque(&format!("(({cty} *){dn})"));
            let elem = self.b().index(base, vec![Subscript::Index(iv)]);
            let z = self.b().zero(bytes);
            let body = vec![assign(&mut self.u, elem, z)];
            let bound = self
                .b()
                .opaque(&format!("(int)(sizeof({dn})/sizeof({cty}))"));
            out.push(self.c_count_loop(i, bound, body, false));
        }
        out
    }

    /// Whether a symbol of the derivative unit being built is spelled `name`.
    fn u_has_name(&self, name: &str) -> bool {
        let sc = self.u.scope;
        self.g.out.scopes[sc]
            .names
            .keys()
            .any(|k| k.eq_ignore_ascii_case(name))
    }

    /// Fortran `if (allocated(a)) deallocate(a)`.
    pub(crate) fn free_if_allocated(&mut self, a: SymbolId) -> StmtId {
        let n = self.b().name(a);
        let cond = self.b().call("allocated", vec![n]);
        let n = self.b().name(a);
        let free = stmt(
            &mut self.u,
            StmtKind::Memory {
                op: MemOp::Deallocate,
                items: vec![n],
                options: Vec::new(),
            },
        );
        stmt(
            &mut self.u,
            StmtKind::If {
                arms: vec![(cond, vec![free])],
                else_block: None,
                logical: true,
                braces: Vec::new(),
            },
        )
    }

    /// `(nbdirsmax, lbound(w,1):ubound(w,1), …)`: the bounds of the rank-`rank` array `w`,
    /// the directions first in vector mode (`mold=` cannot add that dimension).
    pub(crate) fn bounds_like(&mut self, w: SymbolId, rank: usize) -> Vec<Subscript> {
        let mut subs = Vec::new();
        if self.f.vector {
            let n = self.b().opaque("nbdirsmax");
            subs.push(Subscript::Index(n));
        }
        for k in 1..=rank as i64 {
            let (a, kk) = (self.b().name(w), self.b().int(k));
            let lo = self.b().call("lbound", vec![a, kk]);
            let (a, kk) = (self.b().name(w), self.b().int(k));
            let hi = self.b().call("ubound", vec![a, kk]);
            subs.push(Subscript::Range(Some(lo), Some(hi), None));
        }
        subs
    }
}
