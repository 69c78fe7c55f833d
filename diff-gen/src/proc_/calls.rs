//! Tangent rules for calls, C `return`, memory statements, declarations with
//! initialisers.

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// What a call or reference through `callee` that resolves to several procedures is: a
    /// generic name, or a dummy procedure that receives several different procedures.
    pub fn several_procedures(&self, callee: ExprId) -> String {
        match &self.f.src.exprs[callee] {
            Expr::Name(sym) if self.f.src.params.contains(sym) => format!(
                "a call through the dummy procedure `{}`, which receives several different procedures,",
                self.g.prog.symbols[*sym].spelling
            ),
            _ => "a generic call that resolves to several specific procedures".to_string(),
        }
    }

    /// A C pointer `like` passed where the callee's derivative takes a derivative argument,
    /// with no derivative of its own here: a zero temporary like it would be one scalar,
    /// passed where the callee's derivative reads an array (it did not compile). Refused
    /// (AD020 at `s`, naming the pointer); `true` when refused. Tangent and adjoint alike.
    pub fn refuse_passive_pointer_actual(&mut self, s: StmtId, like: SymbolId) -> bool {
        let pointer = self.prog().symbols[like]
            .ty
            .as_ref()
            .is_some_and(|t| t.pointers > 0 && t.dims.is_empty());
        if pointer {
            let name = self.prog().symbols[like].spelling.clone();
            let msg = format!("the pointer argument `{name}` carries no derivative here, but the callee's derivative takes one for it (another call or head makes that argument active); passing zeros of unknown extent is not supported yet: make `{name}` an independent too, or copy it into an array of known size");
            self.error(s, Code::Unsupported, &msg);
        }
        pointer
    }

    /// Whether C argument `e` designates memory of a variable with a derivative (`m`, `&a[i]`,
    /// `p + k`): a record whose twin members a member setter keeps beside the primal's.
    pub fn has_shadow(&self, mut e: ExprId) -> bool {
        loop {
            match &self.f.src.exprs[e] {
                Expr::Name(s) => return self.dvar.contains_key(s),
                Expr::Paren(a)
                | Expr::Cast { arg: a, .. }
                | Expr::Unary { arg: a, .. }
                | Expr::Index { base: a, .. }
                | Expr::Binary { lhs: a, .. } => e = *a,
                _ => return false,
            }
        }
    }

    /// A Fortran MPI call without its error argument (`use mpi_f08`, where it is optional):
    /// radtap's MPI layer always writes one, so the derivative call is given a temporary.
    pub fn mpi_error_arg(&mut self, c: UnitId, args: &[Arg], out: &mut Vec<Arg>) {
        let omitted = self.f.lang == Lang::Fortran
            && args.iter().all(|a| a.keyword.is_none())
            && (self.prog().described.get(&c))
                .is_some_and(|d| radtap_il::library::is_mpi(d) && args.len() + 1 == d.arity());
        if omitted {
            let t = self.temp("ad_ierr", TempKind::Int);
            let v = self.b().name(t);
            out.push(Arg {
                keyword: None,
                value: v,
            });
        }
    }

    /// The statements giving Fortran temporary `t`, declared like array `like` (a
    /// `TempKind::Like`), the bounds of `like` when its shape is deferred or assumed (an
    /// allocatable work array or an assumed-shape dummy passed whole to a dummy with a
    /// derivative): the temporary is allocatable (`decls.rs`), and
    /// `if (allocated(t)) deallocate(t); allocate(t(lbound(like,1):ubound(like,1), …))`,
    /// the directions first in vector mode. Empty for any other array (`real(8) ::
    /// dummyzerod(:)`, with no ALLOCATABLE, did not compile: bspline-fortran's `db1ink`).
    pub fn alloc_like(&mut self, t: SymbolId, like: SymbolId) -> Vec<StmtId> {
        let Some(ty) = self.prog().symbols[like].ty.clone() else {
            return Vec::new();
        };
        if self.f.lang != Lang::Fortran || !ty.dims.iter().any(|d| d.upper == DimUpper::Deferred) {
            return Vec::new();
        }
        let free = self.free_if_allocated(t);
        let subs = self.bounds_like(like, ty.dims.len());
        let n = self.b().name(t);
        let item = self.b().index(n, subs);
        let alloc = stmt(
            &mut self.u,
            StmtKind::Memory {
                op: MemOp::Allocate,
                items: vec![item],
                options: Vec::new(),
            },
        );
        vec![free, alloc]
    }

    /// Whether inactive actual `a`, an element or section of an array passed to an array
    /// dummy with a derivative (QUADPACK's `dqagse(…, Work(1), Work(l1), …)`), can take as
    /// derivative a zeroed temporary shaped like its array `base` (`TempKind::Like`): the
    /// array is a Fortran one of explicit shape, so the temporary can be declared and holds
    /// at least the elements the dummy reaches from `a` (those left in the array). The
    /// callee's derivative starts from zero there, as the actual's derivative is zero, and
    /// what it leaves there is not needed, as the actual is inactive after the call.
    pub fn zeroed_like_base(&self, a: ExprId, base: Option<SymbolId>) -> bool {
        let prog = self.prog();
        let Expr::Index { base: b, subs } = &self.f.src.exprs[a] else {
            return false;
        };
        let Some(sym) = base.filter(|&s| matches!(self.f.src.exprs[*b], Expr::Name(n) if n == s))
        else {
            return false;
        };
        let sd = &prog.symbols[sym];
        self.f.lang == Lang::Fortran
            && !subs.is_empty()
            && !sd.attrs.pointer
            && !sd.attrs.allocatable
            && sd.ty.as_ref().is_some_and(|t| {
                t.base == BaseClass::Real
                    && !t.dims.is_empty()
                    && t.dims.iter().all(|d| matches!(d.upper, DimUpper::Expr(_)))
            })
    }

    /// The direction index `nd` of vector mode, as an expression (vector mode declares it
    /// with the unit's header, before any statement is differentiated).
    /// Whether call statement `s` passes by value (to a procedure of the program) a variable
    /// the call itself writes (`g(z, &z)`), a real one when `real_only`. Vector mode passes
    /// a by-value derivative by address; split mode passes the value again to `g_bwd`.
    pub fn by_value_changed_by_call(&self, s: StmtId, args: &[Arg], real_only: bool) -> bool {
        let prog = self.prog();
        let Some(site) = self.stmt_call_site(s) else {
            return false;
        };
        let radtap_flowgraph::Callee::Defined(l) = &site.callee else {
            return false;
        };
        let (Some(&c), Some(i)) = (l.first(), self.pid(s)) else {
            return false;
        };
        let mut writes = self.f.pi.effects[i].writes.clone();
        if real_only {
            writes.intersect_with(&self.f.pi.zones.differentiable);
        }
        args.iter().enumerate().any(|(k, a)| {
            prog.units[c]
                .params
                .get(k)
                .is_some_and(|&f| prog.symbols[f].attrs.value)
                && self
                    .g
                    .info
                    .ref_zones(prog, self.f.p, a.value)
                    .is_some_and(|z| z.intersects(&writes))
        })
    }

    /// The derivative item of an ALLOCATE/DEALLOCATE/NULLIFY item.
    pub fn alloc_item(&mut self, it: ExprId, op: MemOp) -> Option<ExprId> {
        let src = self.f.src;
        match (&src.exprs[it], op) {
            (Expr::Index { base, subs }, MemOp::Allocate) => {
                let Expr::Name(s) = src.exprs[*base] else {
                    return None;
                };
                let ds = *self.dvar.get(&s)?;
                let mut subs2: Vec<Subscript> = Vec::new();
                if self.f.vector {
                    let n = self.b().opaque("nbdirsmax");
                    subs2.push(Subscript::Index(n));
                }
                let c = Copier { src };
                for sub in subs {
                    subs2.push(match sub {
                        Subscript::Index(e) => Subscript::Index(c.expr(&mut self.u, *e)),
                        Subscript::Range(a, b, x) => Subscript::Range(
                            a.map(|e| c.expr(&mut self.u, e)),
                            b.map(|e| c.expr(&mut self.u, e)),
                            x.map(|e| c.expr(&mut self.u, e)),
                        ),
                    });
                }
                let n = self.b().name(ds);
                Some(self.b().index(n, subs2))
            }
            // A scalar pointer or allocatable has a rank-1 derivative in vector mode:
            // `allocate(a)` becomes `allocate(ad(nbdirsmax))`.
            (Expr::Name(s), MemOp::Allocate)
                if self.f.vector
                    && self.prog().symbols[*s]
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.dims.is_empty()) =>
            {
                let ds = *self.dvar.get(s)?;
                let n = self.b().opaque("nbdirsmax");
                let d = self.b().name(ds);
                Some(self.b().index(d, vec![Subscript::Index(n)]))
            }
            (Expr::Name(s), _) => {
                let ds = *self.dvar.get(s)?;
                Some(self.b().name(ds))
            }
            _ => None,
        }
    }

    /// The derivative item of an ALLOCATE/DEALLOCATE of a Fortran record component
    /// (`r%w(n)`, `r%w`) that has a derivative, in direction `nd` in vector mode.
    pub fn component_alloc_item(&mut self, it: ExprId, op: MemOp) -> Option<ExprId> {
        if self.f.lang != Lang::Fortran || !matches!(op, MemOp::Allocate | MemOp::Deallocate) {
            return None;
        }
        let src = self.f.src;
        match &src.exprs[it] {
            Expr::Index { base, subs } if matches!(src.exprs[*base], Expr::Field { .. }) => {
                if op != MemOp::Allocate {
                    return None;
                }
                let db = self.dref(*base, Dir::Nd)?;
                let subs2 = subs.iter().map(|x| self.cp_sub(x)).collect();
                Some(self.b().index(db, subs2))
            }
            Expr::Field { .. } => self.dref(it, Dir::Nd),
            _ => None,
        }
    }

    /// A C declarator mixing pointers and arrays (`double (*r)[4]`, `double *p[3]`) with a
    /// derivative: it is neither followed as a pointer nor as an array. The analyses do not
    /// follow what a callee writes through one either (`double (*a)[M] = malloc(…); fill(n,
    /// x, a);` had no derivative at all: a silently wrong gradient), so one of reals given
    /// to a call is refused even when found passive.
    pub fn pointer_array_refusal(&self, v: &VarDecl) -> Option<String> {
        if self.f.lang != Lang::C {
            return None;
        }
        let e = v.entities.iter().find(|e| {
            let real = self.prog().symbols[e.sym]
                .ty
                .as_ref()
                .is_some_and(|t| matches!(t.base, BaseClass::Real | BaseClass::Complex));
            (self.dvar.contains_key(&e.sym) || (real && self.given_to_a_call(e.sym)))
                && e.derived.iter().any(|o| matches!(o, DeclOp::Pointer(_)))
                && e.derived.iter().any(|o| matches!(o, DeclOp::Array(_)))
        })?;
        let name = self.prog().name(e.sym).to_string();
        Some(format!("a pointer to an array or an array of pointers (`{name}`) of reals is not differentiated yet; index the array directly (or declare it as the 2-D array it points to)"))
    }

    /// Whether variable `v` is an argument of a call of this procedure (a call statement's or
    /// a function reference's), as itself.
    fn given_to_a_call(&self, v: SymbolId) -> bool {
        let is_v = |e: ExprId| matches!(self.f.src.exprs[e], Expr::Name(x) if x == v);
        self.f.src.stmts.iter().any(|(_, st)| {
            matches!(&st.kind, StmtKind::Call { args, .. } if args.iter().any(|a| is_v(a.value)))
        }) || self.f.src.exprs.iter().any(|(_, e)| {
            matches!(e, Expr::Call { args, .. } if args.iter().any(|a| is_v(a.value)))
        })
    }
}
