//! Derivative types: which components of each record type are active somewhere (only they
//! have a place in the derivative type), and the derivative type declarations.

use super::*;

impl Gen<'_> {
    /// Marks the components of record types whose zones carry derivatives in some active
    /// procedure (a record component is active when one of its own components is).
    pub(crate) fn choose_active_fields(&mut self) {
        for &p in &self.active.clone() {
            let d = self.deriv_zones(p);
            let pz = &self.info.procs[&p].zones;
            for o in pz.objects.values() {
                if let Some(td) = o.rec {
                    self.mark_fields(td, o.start, &d, 0);
                }
            }
            for (td, _) in record_blocks(self.prog, pz, &d)
                .into_iter()
                .filter(|&(_, layout)| !layout)
            {
                self.mark_all_real_fields(td, 0);
            }
        }
    }

    /// Marks every real component of record type `td` (and of its record components).
    fn mark_all_real_fields(&mut self, td: TypeDefId, depth: u32) {
        if depth > 16 {
            return;
        }
        for f in self.prog.typedefs[td].fields.clone() {
            let Decl::Var(v) = f else { continue };
            for e in &v.entities {
                let sd = &self.prog.symbols[e.sym];
                let name = sd.spelling.clone();
                match sd.ty.as_ref().map(|t| (t.base, t.pointers)) {
                    Some((BaseClass::Real, 0)) => {
                        self.active_fields.entry(td).or_default().insert(name);
                    }
                    Some((BaseClass::Record(inner), 0)) => {
                        self.mark_all_real_fields(inner, depth + 1);
                        if self
                            .active_fields
                            .get(&inner)
                            .is_some_and(|a| !a.is_empty())
                        {
                            self.active_fields.entry(td).or_default().insert(name);
                        }
                    }
                    _ => {}
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
        let base = self
            .prog
            .record_type_name(td)
            .unwrap_or_else(|| "anon".into());
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
            // Derivative components keep the primal names (`xd%f`). A real component with a
            // default value (`real :: lost = 0.0`) starts each record at that constant, so its
            // derivative starts at zero: the derivative component keeps an initializer, which
            // `type_decl` makes a zero (dropping it left the derivative undefined).
            let zero_init = self.lang == Lang::Fortran
                && matches!(v.spec.class, BaseClass::Real | BaseClass::Complex)
                && !v
                    .attrs
                    .iter()
                    .any(|a| matches!(a, Attr::Keyword(k) if k == "pointer" || k == "allocatable"));
            v2.entities = ents
                .into_iter()
                .map(|mut e| {
                    if !(zero_init && matches!(e.init, Some(Init::Expr(_)))) {
                        e.init = None;
                    }
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
    fn differentiable_sym(&self, s: SymbolId) -> bool {
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
        let mut fields: Vec<Decl> = self.out.typedefs[dt]
            .fields
            .clone()
            .iter()
            .map(|f| c.decl(dst, f))
            .collect();
        // The initializers kept by `derivative_type` (primal default values) become zeros.
        for f in &mut fields {
            let Decl::Var(v) = f else { continue };
            // C vector mode: the directions innermost at each real leaf (`double x` →
            // `double x[NBDirsMax]`, `double *data` → `double (*data)[NBDirsMax]`), one
            // record for all directions (docs/decisions.md, vector records).
            if self.opts.vector
                && self.lang == Lang::C
                && matches!(v.spec.class, BaseClass::Real | BaseClass::Complex)
            {
                crate::build::add_direction_dim(dst, v);
            }
            for e in &mut v.entities {
                if let Some(Init::Expr(_)) = e.init {
                    let z = crate::build::B {
                        u: &mut *dst,
                        lang: self.lang,
                    }
                    .real("0.0", 0);
                    e.init = Some(Init::Expr(z));
                }
            }
        }
        let mut def = self.out.typedefs[dt].clone();
        def.fields = fields;
        def.unit = UnitId::from_raw(self.out.units.len() as u32); // patched by the caller
        let name = def.name.clone();
        let id = self.out.typedefs.alloc(def);
        match self.lang {
            Lang::Fortran => Decl::TypeDef(id),
            // C writes `struct t_d { … };` as a declaration with no declarators.
            Lang::C => Decl::var(VarDecl {
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

    pub(crate) fn record_type_used(&self, td: TypeDefId) -> bool {
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
}
