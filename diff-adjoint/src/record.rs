//! Recording: runtime calls (push/pop/look), the slots a value is recorded in, snapshots
//! of checkpointed pieces, `-size` element counts, and what TBR says to record.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// Push and pop statements of a slot.
    pub(crate) fn push_pop(&mut self, sl: &Slot) -> (StmtId, StmtId) {
        let (p1, p2) = (self.dup(sl.primal), self.dup(sl.primal));
        let arr = if sl.count.is_some() { "Array" } else { "" };
        let (push_args, pop_args) = match (sl.count, self.pg.f.lang) {
            (Some(n), _) => {
                let (n1, n2) = (self.dup(n), self.dup(n));
                let (p1, p2) = (self.unconst(p1), self.unconst(p2));
                (vec![p1, n1], vec![p2, n2])
            }
            (None, Lang::Fortran) => (vec![p1], vec![p2]),
            (None, Lang::C) => {
                if let Expr::Name(v) = self.pg.u.exprs[sl.primal] {
                    self.note_recorded_local(v);
                }
                let a = self.addr_of(p2);
                (vec![p1], vec![a])
            }
        };
        let push = self.rt(&format!("push{}{arr}", sl.suffix), push_args);
        let pop = self.rt(&format!("pop{}{arr}", sl.suffix), pop_args);
        self.note_record(sl, push, pop);
        (push, pop)
    }

    /// `(double *)x` for a C `const double *x` parameter recorded whole (a checkpoint that
    /// cannot prove a callee leaves it alone): the runtime's array routines take non-const
    /// pointers, and gcc rejects the discarded qualifier.
    fn unconst(&mut self, e: ExprId) -> ExprId {
        if self.pg.f.lang != Lang::C {
            return e;
        }
        let Expr::Name(v) = self.pg.u.exprs[e] else {
            return e;
        };
        let src = self.pg.f.src;
        let Some(cp) = src
            .params
            .iter()
            .position(|&p| p == v)
            .and_then(|k| src.c_params.get(k))
        else {
            return e;
        };
        let one_pointer = matches!(cp.derived.as_slice(), [DeclOp::Pointer(_)]);
        if !one_pointer || !cp.spec.qualifiers.iter().any(|q| q == "const") {
            return e;
        }
        let mut spec = cp.spec.clone();
        spec.qualifiers.retain(|q| q != "const");
        let ty = CParam {
            spec,
            name: None,
            derived: vec![DeclOp::Pointer(Vec::new())],
            dims: Vec::new(),
        };
        self.pg.b().e(Expr::Cast {
            ty: Box::new(ty),
            arg: e,
        })
    }

    /// Notes a C scalar local of this procedure that the forward sweep records.
    fn note_recorded_local(&mut self, v: SymbolId) {
        let sd = &self.pg.prog().symbols[v];
        let scalar = sd.ty.as_ref().is_some_and(|t| {
            t.pointers == 0
                && t.dims.is_empty()
                && matches!(t.base, BaseClass::Real | BaseClass::Integer)
        });
        if scalar && !sd.attrs.save && !sd.attrs.dummy && self.own_local(v) {
            self.recorded_locals.insert(v);
        }
    }

    /// `v = 0` for each recorded C scalar local: the forward sweep starts with them, so a push
    /// before the local's first value (the first iteration of a loop) pushes no
    /// uninitialised value.
    pub(crate) fn recorded_local_zeros(&mut self) -> Vec<StmtId> {
        let vars: Vec<SymbolId> = std::mem::take(&mut self.recorded_locals)
            .into_iter()
            .collect();
        let mut out = Vec::new();
        for v in vars {
            let Some((base, bytes)) = self.pg.prog().symbols[v]
                .ty
                .as_ref()
                .map(|t| (t.base, t.bytes))
            else {
                continue;
            };
            let zero = match base {
                BaseClass::Real => self.pg.b().zero(bytes.unwrap_or(8)),
                _ => self.pg.b().int(0),
            };
            let l = self.pg.b().name(v);
            out.push(assign(&mut self.pg.u, l, zero));
        }
        out
    }

    /// `v = 0` for each Fortran scalar local (real or integer) whose value the derivative
    /// computations read, in a procedure whose body is reversed on basic blocks (an early
    /// RETURN, GOTO, EXIT): such a local may be set in the forward sweep and read in the
    /// backward sweep only along one branch of a control bit, a correlation gfortran's flow
    /// analysis does not see ("may be used uninitialized"). The C adjoint zeroes its recorded
    /// locals the same way ([`Self::recorded_local_zeros`]). Locals with a value from their
    /// declaration (an initialisation, SAVE) are left alone, and a unit with DATA, EQUIVALENCE
    /// or a SAVE of everything gets none: zeroing them would change the program.
    /// Whether Fortran variable `v` is a plain real or integer scalar local of this procedure
    /// that may be set to zero before the first statement: declared in the unit's own scope
    /// (a BLOCK's local is not visible at the start), not a dummy, pointer, allocatable,
    /// COMMON member or function result, not SAVEd or initialised; and the unit has no DATA,
    /// EQUIVALENCE (which may give a local a value before the first statement) or SAVE of
    /// every local (whose values then carry over from the previous call).
    pub(crate) fn zeroable_fortran_local(&self, v: SymbolId) -> bool {
        let src = self.pg.f.src;
        let prog = self.pg.prog();
        if !prog.symbols.contains(v) {
            return false;
        }
        for d in &src.decls {
            match d {
                Decl::Var(vd) if vd.entities.iter().any(|e| e.sym == v && e.init.is_some()) => {
                    return false
                }
                Decl::Data(_) | Decl::Equivalence(_) => return false,
                Decl::Attr(a) if a.keyword == "save" && a.items.is_empty() => return false,
                _ => {}
            }
        }
        let sd = &prog.symbols[v];
        sd.kind == SymbolKind::Variable
            && !sd.attrs.dummy
            && !sd.attrs.save
            && !sd.attrs.pointer
            && !sd.attrs.allocatable
            && sd.common.is_none()
            && Some(v) != src.result
            && sd.scope == src.scope
            && sd.ty.as_ref().is_some_and(|ty| {
                ty.dims.is_empty() && matches!(ty.base, BaseClass::Real | BaseClass::Integer)
            })
            && self.own_local(v)
    }

    /// The zero of a real or integer variable's type.
    fn zero_of(&mut self, v: SymbolId) -> ExprId {
        match self.pg.prog().symbols[v]
            .ty
            .as_ref()
            .map(|t| (t.base, t.bytes))
        {
            Some((BaseClass::Real, bytes)) => self.pg.b().zero(bytes.unwrap_or(8)),
            _ => self.pg.b().int(0),
        }
    }

    pub(crate) fn jump_local_zeros(&mut self) -> Vec<StmtId> {
        let mut out = Vec::new();
        if self.pg.f.lang != Lang::Fortran || !self.body_has_jumps() {
            return out;
        }
        let mut read = self.pg.f.pi.zones.empty();
        for u in &self.pg.f.act.deriv_uses {
            read.union_with(u);
        }
        let vars = self.zone_symbols();
        for v in vars {
            let used = self
                .pg
                .f
                .pi
                .zones
                .sym_zones(v)
                .is_some_and(|z| z.intersects(&read));
            if !used || !self.zeroable_fortran_local(v) {
                continue;
            }
            let zero = self.zero_of(v);
            let l = self.pg.b().name(v);
            out.push(assign(&mut self.pg.u, l, zero));
        }
        out
    }

    pub(crate) fn suffix_of(ty: &Type) -> Option<&'static str> {
        Some(match (ty.base, ty.bytes) {
            (BaseClass::Real, Some(4)) => "Real4",
            // C `long double`, Fortran real(16) and real(10): 16 bytes of storage.
            (BaseClass::Real, Some(10 | 16)) => "Real16",
            (BaseClass::Real, _) => "Real8",
            (BaseClass::Complex, Some(8)) => "Complex8",
            (BaseClass::Complex, Some(20 | 32)) => "Complex32",
            (BaseClass::Complex, _) => "Complex16",
            (BaseClass::Integer | BaseClass::Enum, Some(8)) => "Integer8",
            // C `short`, Fortran integer(2): popInteger4 would write 4 bytes into 2.
            (BaseClass::Integer, Some(2)) => "Integer2",
            (BaseClass::Integer | BaseClass::Enum, _) => "Integer4",
            (BaseClass::Logical, _) => "Boolean",
            (BaseClass::Character, _) => "Character",
            _ => return None,
        })
    }

    /// The slot of a primal reference being overwritten.
    pub(crate) fn slot_of_target(&mut self, t: Target) -> Result<Slot, String> {
        match t {
            Target::Sym(s) => self.slot_of_sym(s),
            Target::Expr(e) => {
                let base = radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, e)
                    .ok_or("a value written through an expression radtap cannot name")?;
                let ty = self.pg.prog().symbols[base]
                    .ty
                    .clone()
                    .ok_or("an untyped variable")?;
                let rank = self.pg.rank_of(e);
                let elem_ty = match self.pg.f.lang {
                    Lang::C => self.c_elem_type(e),
                    Lang::Fortran => None,
                }
                .unwrap_or_else(|| ty.clone());
                let leaf = self.leaf_type(e);
                if let BaseClass::Record(_) = elem_ty.base {
                    if let (Lang::C, None, Expr::Name(v)) =
                        (self.pg.f.lang, &leaf, &self.pg.f.src.exprs[e])
                    {
                        // `cur = nxt;`: the struct recorded whole, as bytes.
                        return self.slot_of_sym(*v);
                    }
                    if leaf.is_none() {
                        return Err("recording a whole derived-type value".into());
                    }
                }
                let leaf_ty = leaf.unwrap_or(elem_ty);
                let suffix = Self::suffix_of(&leaf_ty).ok_or("recording a value of this type")?;
                let primal = self.pg.cp(e);
                if self.pg.f.lang == Lang::Fortran && leaf_ty.base == BaseClass::Character {
                    let rank = self.string_rank(e);
                    let count = Some(self.string_bytes(primal, rank, None));
                    return Ok(Slot {
                        primal,
                        suffix,
                        count,
                    });
                }
                let count = if rank > 0 {
                    let p = self.pg.cp(e);
                    Some(self.pg.b().call("size", vec![p]))
                } else {
                    None
                };
                Ok(Slot {
                    primal,
                    suffix,
                    count,
                })
            }
        }
    }

    /// The rank of a Fortran character reference: a substring `s(2:3)`, `a(i)(2:3)` is as
    /// ranked as the string it is taken from (not a section).
    fn string_rank(&self, e: ExprId) -> usize {
        if let Expr::Index { base, subs } = &self.pg.f.src.exprs[e] {
            let base_is_scalar_name = match &self.pg.f.src.exprs[*base] {
                Expr::Name(s) => self.pg.prog().symbols[*s]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.dims.is_empty()),
                Expr::Index { .. } => true,
                _ => false,
            };
            if subs.len() == 1 && base_is_scalar_name {
                return self.pg.rank_of(*base);
            }
        }
        self.pg.rank_of(e)
    }

    /// The bytes of the Fortran string(s) `e` (copied): `len(e)`, times the element count
    /// (`n`, else `size(e)`) of an array.
    pub(crate) fn string_bytes(&mut self, e: ExprId, rank: usize, n: Option<ExprId>) -> ExprId {
        let p = self.dup(e);
        let len = self.pg.b().call("len", vec![p]);
        match (rank, n) {
            (0, _) => len,
            (_, Some(n)) => {
                let n = self.pg.paren_if_compound(n);
                self.pg.b().mul(len, n)
            }
            (_, None) => {
                let p = self.dup(e);
                let size = self.pg.b().call("size", vec![p]);
                self.pg.b().mul(len, size)
            }
        }
    }

    /// The type of the element a C reference designates (`a[i]` of `double a[3]` is a double,
    /// `*p` of `double *p` too).
    pub(crate) fn c_elem_type(&self, e: ExprId) -> Option<Type> {
        let base = radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, e)?;
        let mut t = self.pg.prog().symbols[base].ty.clone()?;
        match &self.pg.f.src.exprs[e] {
            Expr::Name(_) => Some(t),
            Expr::Index { .. } | Expr::Unary { .. } => {
                t.dims.clear();
                t.pointers = 0;
                Some(t)
            }
            _ => None,
        }
    }

    /// The type of the leaf a component reference designates (`s%x`, `p->v`).
    pub(crate) fn leaf_type(&self, e: ExprId) -> Option<Type> {
        match &self.pg.f.src.exprs[e] {
            Expr::Field { base, field, .. } => {
                let td = self.pg.record_of(*base)?;
                self.pg.prog().typedefs[td]
                    .fields
                    .iter()
                    .find_map(|f| match f {
                        Decl::Var(v) => v
                            .entities
                            .iter()
                            .find(|x| {
                                self.pg.prog().symbols[x.sym]
                                    .spelling
                                    .eq_ignore_ascii_case(field)
                            })
                            .and_then(|x| self.pg.prog().symbols[x.sym].ty.clone()),
                        _ => None,
                    })
            }
            Expr::Index { base, .. } if self.pg.f.lang == Lang::Fortran => self.leaf_type(*base),
            // `p->v[i]`: an element of an array component.
            Expr::Index { base, .. } => {
                let mut t = self.leaf_type(*base)?;
                t.dims.clear();
                Some(t)
            }
            _ => None,
        }
    }

    /// The slot of a whole variable (snapshots).
    pub(crate) fn slot_of_sym(&mut self, s: SymbolId) -> Result<Slot, String> {
        let name = self.pg.name_of(s).to_string();
        let ty = self.pg.prog().symbols[s]
            .ty
            .clone()
            .ok_or_else(|| format!("`{name}` has no type"))?;
        if let BaseClass::Record(_) = ty.base {
            if self.pg.f.lang == Lang::C {
                return self.c_record_bytes(s, &ty);
            }
            return Err(format!("recording the derived-type variable `{name}`"));
        }
        let suffix =
            Self::suffix_of(&ty).ok_or_else(|| format!("recording `{name}` (its type)"))?;
        let primal = self.pg.b().name(s);
        if self.pg.f.lang == Lang::Fortran && ty.base == BaseClass::Character {
            // Whole strings: `len` bytes per element.
            let n = if ty.dims.iter().any(|d| d.upper == DimUpper::Assumed) {
                match self.user_size(s) {
                    Some(n) => Some(n?),
                    None => {
                        return Err(format!(
                            "recording the assumed-size array `{name}` needs its element count: give -size {}=N; it",
                            name.to_ascii_lowercase()
                        ))
                    }
                }
            } else {
                None
            };
            let count = Some(self.string_bytes(primal, ty.dims.len(), n));
            return Ok(Slot {
                primal,
                suffix,
                count,
            });
        }
        let count = match (self.pg.f.lang, ty.dims.is_empty(), ty.pointers) {
            (_, true, 0) => None,
            (Lang::Fortran, false, _) => {
                if ty.dims.iter().any(|d| d.upper == DimUpper::Assumed) {
                    return match self.user_size(s) {
                        Some(n) => Ok(Slot {
                            primal,
                            suffix,
                            count: Some(n?),
                        }),
                        None => Err(format!(
                            "recording the assumed-size array `{name}` needs its element count: give -size {}=N (an expression over integer variables visible in `{}`); it",
                            name.to_ascii_lowercase(),
                            unit_name(self.pg.prog(), self.pg.f.p)
                        )),
                    };
                }
                let p = self.pg.b().name(s);
                Some(self.pg.b().call("size", vec![p]))
            }
            (Lang::C, false, 0) => {
                let owner = radtap_dataflow::zones::unit_of_scope(
                    self.pg.prog(),
                    self.pg.prog().symbols[s].scope,
                )
                .unwrap_or(self.pg.f.p);
                let mut n: Option<ExprId> = None;
                for d in &ty.dims {
                    let DimUpper::Expr(x) = d.upper else {
                        return Err(format!("recording the C array `{name}` of unknown size"));
                    };
                    let x = Copier {
                        src: &self.pg.g.prog.units[owner],
                    }
                    .expr(&mut self.pg.u, x);
                    let x = self.pg.paren_if_compound(x);
                    n = Some(match n {
                        None => x,
                        Some(m) => self.pg.b().mul(m, x),
                    });
                }
                if ty.dims.len() > 1 {
                    // Contiguous in C: recorded flat through its first element (a VLA or
                    // fixed-size parameter is a pointer to rows, which `double *` refuses).
                    let first = format!("&{}{}", self.pg.name_of(s), "[0]".repeat(ty.dims.len()));
                    let primal = self.pg.b().opaque(&first);
                    return Ok(Slot {
                        primal,
                        suffix,
                        count: n,
                    });
                }
                n
            }
            (Lang::C, _, _) => match self.user_size(s) {
                Some(n) if ty.pointers == 1 && ty.dims.is_empty() => Some(n?),
                None if self.malloc_extent(s).is_some() => {
                    let (_, n) = self
                        .malloc_extent(s)
                        .ok_or_else(|| format!("recording `{name}`"))?;
                    Some(
                        self.count_expr(n)
                            .ok_or_else(|| format!("recording `{name}`"))?,
                    )
                }
                _ => {
                    return Err(format!(
                        "recording what the C pointer `{name}` designates needs its element count: give -size {name}=N (an expression over integer variables visible in `{}`); it",
                        unit_name(self.pg.prog(), self.pg.f.p)
                    ))
                }
            },
            (Lang::Fortran, true, _) => None,
        };
        Ok(Slot {
            primal,
            suffix,
            count,
        })
    }

    /// A C struct, array of structs or (with `-size`) the structs behind a pointer, recorded
    /// as bytes: `pushCharacterArray((char *)&s, sizeof(s))`.
    fn c_record_bytes(&mut self, s: SymbolId, ty: &Type) -> Result<Slot, String> {
        let name = self.pg.name_of(s).to_string();
        let (primal, count) = match (ty.pointers, ty.dims.is_empty()) {
            (0, true) => (
                self.pg.b().opaque(&format!("(char *)&{name}")),
                self.pg.b().opaque(&format!("sizeof({name})")),
            ),
            (0, false) => (
                self.pg.b().opaque(&format!("(char *){name}")),
                self.pg.b().opaque(&format!("sizeof({name})")),
            ),
            (1, true) => {
                // The count of the block from its one allocation (`m =
                // get_matrix_array(count)`, `malloc(n * sizeof(Matrix))`) as for reals.
                let given = self.user_size(s);
                let allocated = match given {
                    None => self.malloc_extent(s).and_then(|(_, c)| self.count_expr(c)),
                    Some(_) => None,
                };
                let n = match (given, allocated) {
                    (Some(n), _) => n?,
                    (None, Some(n)) => n,
                    (None, None) => {
                        return Err(format!(
                            "recording the structs the C pointer `{name}` designates needs their count: give -size {name}=N (an expression over integer variables visible in `{}`); it",
                            unit_name(self.pg.prog(), self.pg.f.p)
                        ))
                    }
                };
                let n = self.pg.paren_if_compound(n);
                let each = self.pg.b().opaque(&format!("sizeof(*{name})"));
                (
                    self.pg.b().opaque(&format!("(char *){name}")),
                    self.pg.b().mul(n, each),
                )
            }
            _ => return Err(format!("recording the derived-type variable `{name}`")),
        };
        Ok(Slot {
            primal,
            suffix: "Character",
            count: Some(count),
        })
    }

    /// Whether `s` is declared with an MPI handle type (`MPI_Request`, `MPI_Status`).
    pub(crate) fn mpi_handle(&self, s: SymbolId) -> bool {
        let opaque = self.pg.prog().symbols[s]
            .ty
            .as_ref()
            .is_some_and(|t| t.base == BaseClass::Opaque);
        let is = |d: &Decl| match d {
            Decl::Var(v) => {
                matches!(v.spec.keyword.as_str(), "MPI_Request" | "MPI_Status")
                    && v.entities.iter().any(|e| e.sym == s)
            }
            _ => false,
        };
        opaque
            && (self.pg.f.src.decls.iter().any(is)
                || self.pg.f.src.stmts.iter().any(|(_, st)| match &st.kind {
                    StmtKind::Decl(d) => is(d),
                    _ => false,
                }))
    }

    /// Whether `x` is a SAVE array of another procedure whose value on entry no call reads:
    /// split by a constant subscript, each slice is written before it is read or only read
    /// (MINPACK-2's `diarfj`: `dt(:, 1)` from DATA, `dt(:, 2)` computed from it at every
    /// call). Running the callee again backwards from whatever state the forward sweep left
    /// computes the same values. A procedure with internal procedures does not qualify.
    pub(crate) fn save_local_carries_nothing(&self, x: SymbolId) -> bool {
        let prog = self.pg.prog();
        let sd = &prog.symbols[x];
        let Some(o) = radtap_dataflow::zones::unit_of_scope(prog, sd.scope) else {
            return false;
        };
        o != self.pg.f.p
            && sd.attrs.save
            && !prog.units[o].params.contains(&x)
            && matches!(
                prog.units[o].kind,
                UnitKind::Subroutine | UnitKind::Function
            )
            && !prog.units.iter().any(|(_, u)| u.parent == Some(o))
            && sd.ty.as_ref().is_some_and(|t| !t.dims.is_empty())
            && radtap_il::slices::slices_carry_nothing(prog, o, x)
    }

    /// Whether `x` is a SAVE local of another procedure (a call counter, a "warned once"
    /// flag) that only statements dead for derivatives read. A caller cannot record it
    /// around a call (it is not visible there), and need not: the derivative code never
    /// reads it, so the value a checkpointed callee sees when it runs again backwards
    /// cannot change a derivative. A procedure with internal procedures (which could read
    /// it by host association) does not qualify.
    pub(crate) fn save_local_read_by_dead_code_only(&self, x: SymbolId) -> bool {
        let prog = self.pg.prog();
        let sd = &prog.symbols[x];
        let Some(o) = radtap_dataflow::zones::unit_of_scope(prog, sd.scope) else {
            return false;
        };
        if o == self.pg.f.p
            || !sd.attrs.save
            || prog.units[o].params.contains(&x)
            || !matches!(
                prog.units[o].kind,
                UnitKind::Subroutine | UnitKind::Function
            )
            || prog.units.iter().any(|(_, u)| u.parent == Some(o))
        {
            return false;
        }
        let Some(oi) = self.pg.g.info.procs.get(&o) else {
            return false;
        };
        let (Some(act), Some(z)) = (&oi.activity, oi.zones.sym_zones(x)) else {
            return false;
        };
        // Where the original primal of the owner (or of a procedure calling it) runs inside
        // a rerun (called by a procedure that is itself called, whose forward sweep runs
        // again in a checkpoint), what it computes from the saved value must not be needed
        // by derivatives there (`s = s/2 + sin(x); y = s` with `y` read by the caller's
        // adjoint: recomputed from the state the forward sweep left).
        let info = &self.pg.g.info;
        for (&c, ci) in &info.procs {
            let Some(zc) = ci.zones.sym_zones(x) else {
                continue;
            };
            let mut fed = ci.zones.empty();
            for t in 0..ci.zones.len() as u32 {
                let t = radtap_dataflow::ZoneId(t);
                if !zc.contains(t) && ci.summary.dep.row(t).intersects(&zc) {
                    fed.insert(t);
                }
            }
            if fed.is_empty() {
                continue;
            }
            for &q in &self.pg.g.active {
                // A BINOMIAL-CKP loop of this procedure re-runs its steps' callees too.
                let rerun = !info.callgraph.callers(q).is_empty()
                    || !info.heads.iter().any(|h| h.head == q)
                    || (q == self.pg.f.p && self.stepping_rerun);
                let Some(qi) = info.procs.get(&q) else {
                    continue;
                };
                let (true, Some(qa)) = (rerun, &qi.activity) else {
                    continue;
                };
                for (i, e) in qi.effects.iter().enumerate() {
                    for m in e.call_maps.iter().filter(|m| m.callee == c) {
                        let needed = fed.iter().any(|t| {
                            m.tgt
                                .get(t.index())
                                .and_then(|t| t.as_ref())
                                .is_some_and(|ys| {
                                    ys.iter().any(|y| qa.difflive_after[i].contains(*y))
                                })
                        });
                        if needed {
                            return false;
                        }
                    }
                }
            }
        }
        !oi.effects
            .iter()
            .zip(&act.live)
            .any(|(e, &live)| live && e.reads.intersects(&z))
    }

    /// The variables owning zones of this procedure, in symbol order.
    pub(crate) fn zone_symbols(&self) -> Vec<SymbolId> {
        let mut vars: Vec<SymbolId> = self
            .pg
            .f
            .pi
            .zones
            .objects
            .keys()
            .filter_map(|k| match k {
                ObjKey::Sym(x) => Some(*x),
                _ => None,
            })
            .collect();
        vars.sort();
        vars.dedup();
        vars
    }

    /// Zones point `i` must record before it runs.
    pub(crate) fn to_record(&self, i: usize) -> ZoneSet {
        if !self.is_live(i) {
            return self.pg.f.pi.zones.empty();
        }
        let w = &self.pg.f.pi.effects[i].writes;
        let mut need = if self.pg.g.opts.tbr {
            // `save` of the dataflow where the point is live for derivatives; the same
            // formula where it runs anyway.
            let mut need = self.pg.f.act.tbr_before[i].clone();
            need.union_with(&self.pg.f.act.deriv_uses[i]);
            need.intersect_with(w);
            need
        } else {
            w.clone()
        };
        // MPI requests and statuses are never restored (`mpi_handle`).
        let mpi = self
            .pg
            .prog()
            .described
            .values()
            .any(radtap_il::library::is_mpi);
        for (k, o) in self.pg.f.pi.zones.objects.iter().filter(|_| mpi) {
            if matches!(k, ObjKey::Sym(x) if self.mpi_handle(*x)) {
                need.subtract(&self.pg.f.pi.zones.obj_set(o));
            }
        }
        need
    }

    /// Whether the primal statement at point `i` runs in the forward sweep. Split sweeps
    /// are not sliced: the forward sweep replaces the primal procedure.
    pub(crate) fn is_live(&self, i: usize) -> bool {
        !self.pg.g.opts.slice_dead
            || self.pg.f.sweep != Sweep::Joint
            || self.pg.f.act.live[i]
            || !self.pg.f.pi.effects[i].sliceable
    }

    // ------------------------------------------------------------------ assignments
}
