//! What a head's derivative arguments hold on entry: only independents' derivatives (tangent)
//! and dependents' adjoints (adjoint) are inputs (DESIGN.md), so the others are cleared
//! before they are read — whole variables, C pointees of known extent, C array parameters.

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// Whether the adjoint of input parameter `p` is overwritten (set, not incremented):
    /// in a head, for Fortran arguments of known size (zeroed first) and C by-value
    /// arguments (stored through their pointer at the end). Elsewhere adjoints of inputs are
    /// incremented, as the chain rule across a call needs.
    pub fn input_adjoint_overwritten(&self, p: SymbolId) -> bool {
        let is_head = self.g.info.heads.iter().any(|h| h.head == self.f.p);
        let assumed_size = self.prog().symbols[p]
            .ty
            .as_ref()
            .is_some_and(|t| t.dims.iter().any(|d| d.upper == DimUpper::Assumed));
        is_head && (self.c_by_value(p) || (self.f.lang == Lang::Fortran && !assumed_size))
    }

    /// Whether the adjoint of the head's parameter `p` is set to zero before the backward
    /// sweep, its value on entry ignored: `p` is written but is not a dependent (only
    /// dependents' adjoints are inputs, DESIGN.md), and its adjoint can be assigned whole:
    /// a Fortran argument of known size, or a C pointer whose element count `-size` gives.
    pub fn output_adjoint_ignored(&self, p: SymbolId) -> bool {
        let sd = &self.prog().symbols[p];
        let Some(ty) = sd.ty.as_ref() else {
            return false;
        };
        if self.c_elements_param(p) {
            return self.pointee_output_not_dependent(p) && self.elements_extent_known(p);
        }
        if ty.pointers > 0 || sd.attrs.pointer {
            return false;
        }
        let Some(z) = self.f.pi.zones.sym_zones(p) else {
            return false;
        };
        self.input_adjoint_overwritten(p)
            && !self.c_by_value(p)
            && z.intersects(&self.f.pi.summary.writes)
            && !self.head_dependents().is_some_and(|d| d.intersects(&z))
            && self.head_dependents().is_some()
    }

    /// Whether `s` is a parameter whose derivative is a local of this unit (it has one, but
    /// no derivative argument).
    pub(super) fn derivative_is_local_param(&self, s: SymbolId) -> bool {
        self.dvar.contains_key(&s)
            && self
                .f
                .src
                .params
                .iter()
                .zip(&self.g.dparams[&self.f.p])
                .any(|(&p, &f)| p == s && !f)
    }

    /// Whether `p` is a C parameter passing elements the caller owns: a pointer (`double *a`)
    /// or an array (`double a[4]`, `double a[][3]`), not a pointer to pointers.
    pub fn c_elements_param(&self, p: SymbolId) -> bool {
        let Some(ty) = self.prog().symbols[p].ty.as_ref() else {
            return false;
        };
        self.f.lang == Lang::C
            && self.f.src.params.contains(&p)
            && ((ty.pointers == 1 && ty.dims.is_empty())
                || (ty.pointers == 0 && !ty.dims.is_empty()))
    }

    /// The zones of the elements parameter `p` passes: a C pointer's pointee, a C or Fortran
    /// array's elements ([`Self::c_elements_param`], Fortran assumed-size arrays).
    fn elements_zones(&self, p: SymbolId) -> Option<ZoneSet> {
        let pz = &self.f.pi.zones;
        let is_array = self.prog().symbols[p]
            .ty
            .as_ref()
            .is_some_and(|t| !t.dims.is_empty());
        if is_array || self.f.lang == Lang::Fortran {
            return pz.sym_zones(p);
        }
        pz.objects.get(&ObjKey::Pointee(p)).map(|o| pz.obj_set(o))
    }

    /// Whether radtap knows how many elements C parameter `p` passes: an array's declared
    /// extents, a pointer's `-size` or inferred count.
    fn elements_extent_known(&self, p: SymbolId) -> bool {
        match self.array_param_extents(p) {
            Some(e) => e.is_some(),
            None => self.pointee_size(p).is_some(),
        }
    }

    /// For a C array parameter, its extents when each is declared (`double a[n][3]`; `None`
    /// for `a[][3]`); `None` for anything else.
    fn array_param_extents(&self, p: SymbolId) -> Option<Option<Vec<ExprId>>> {
        let ty = self.prog().symbols[p].ty.as_ref()?;
        if self.f.lang != Lang::C || ty.pointers != 0 || ty.dims.is_empty() {
            return None;
        }
        let ext = ty.dims.iter().map(|d| match d.upper {
            DimUpper::Expr(e) => Some(e),
            _ => None,
        });
        Some(ext.collect())
    }

    /// A head's parameter whose elements ([`Self::elements_zones`]) are written and are
    /// neither a dependent nor an independent (an independent's adjoint is incremented: the
    /// caller passes zeros).
    pub fn pointee_output_not_dependent(&self, p: SymbolId) -> bool {
        let Some(z) = self.elements_zones(p) else {
            return false;
        };
        let Some(h) = self.g.info.heads.iter().find(|h| h.head == self.f.p) else {
            return false;
        };
        let named = |list: &[(String, ZoneSet)]| list.iter().any(|(_, d)| d.intersects(&z));
        z.intersects(&self.f.pi.summary.writes) && !named(&h.dependents) && !named(&h.independents)
    }

    /// The union of the dependents' zones, when this procedure is a head.
    fn head_dependents(&self) -> Option<ZoneSet> {
        let h = self.g.info.heads.iter().find(|h| h.head == self.f.p)?;
        let mut d = self.f.pi.zones.empty();
        for (_, z) in &h.dependents {
            d.union_with(z);
        }
        Some(d)
    }

    /// The element count `-size p=n` (or `-size proc.p=n`) gives for pointer `p`, else the
    /// one the code shows ([`Self::inferred_size`]).
    pub fn pointee_size(&self, p: SymbolId) -> Option<String> {
        let name = self.prog().symbols[p].spelling.to_ascii_lowercase();
        let qual = format!(
            "{}.{name}",
            crate::gen::unit_name(self.prog(), self.f.p).to_ascii_lowercase()
        );
        let sizes = &self.g.opts.sizes;
        sizes
            .iter()
            .rev()
            .find(|(k, _)| *k == qual)
            .or_else(|| sizes.iter().rev().find(|(k, _)| *k == name))
            .map(|(_, v)| v.clone())
            .or_else(|| self.inferred_size(p))
    }

    /// The element count of C pointer parameter `p` as the code shows it (subscripts over
    /// loop counters and integer parameters, through the procedures it is passed to:
    /// [`radtap_il::extent`], the inference `radtap validate` uses too), when every access
    /// counted surely happens; as text over the parameters' names.
    pub fn inferred_size(&self, p: SymbolId) -> Option<String> {
        use radtap_il::extent::{pointer_extent, Mode};
        pointer_extent(self.prog(), self.f.p, p, Mode::Exact)?.text(self.prog())
    }

    /// Tangent mode, a head: `ẋ = 0` on entry for the parameters that carry a derivative, are
    /// read, and are not independents. Only independents' derivatives are inputs (DESIGN.md):
    /// whatever the caller passes there is ignored. Covers real (and complex) scalars and
    /// arrays of known or assumed shape, and C by-value scalars in scalar mode; C pointers are
    /// left as they are (their extent is unknown here).
    pub fn zero_non_independent_derivatives(&mut self) -> Vec<StmtId> {
        let mut out = Vec::new();
        let Some(h) = self.g.info.heads.iter().find(|h| h.head == self.f.p) else {
            return out;
        };
        let mut indep = self.f.pi.zones.empty();
        for (_, z) in &h.independents {
            indep.union_with(z);
        }
        out.extend(self.zero_global_derivatives(&indep));
        // Whether the entry value of zones `z` may be read, or reach the exit in what the
        // procedure does not overwrite on every path (`y(1:n:2)` written, `y(2)` kept: its
        // derivative is zero, not the caller's).
        let kills = &self.f.pi.summary.kills;
        let entry_matters = |z: &ZoneSet, reads: &ZoneSet| {
            z.intersects(reads) || z.iter().any(|t| !kills.contains(t))
        };
        for &p in &self.f.src.params {
            let Some(&d) = self.dvar.get(&p) else {
                continue;
            };
            let sd = &self.prog().symbols[p];
            let Some(ty) = sd.ty.as_ref() else { continue };
            let assumed_size = ty.dims.iter().any(|x| x.upper == DimUpper::Assumed);
            let fortran_whole = self.f.lang == Lang::Fortran && !sd.attrs.pointer && !assumed_size;
            let c_scalar = self.c_by_value(p) && !self.f.vector;
            let c_pointer = self.c_elements_param(p) && matches!(ty.base, BaseClass::Real);
            if c_pointer {
                let Some(z) = self.elements_zones(p) else {
                    continue;
                };
                if !z.intersects(&indep) && entry_matters(&z, &self.f.pi.summary.reads) {
                    // With its extent, clear it whenever its entry value may be read;
                    // without, say so when the code reads it before writing it (a loop
                    // filling it first would make every C output array suspect).
                    if self.elements_extent_known(p) || self.first_touch_reads(&z) {
                        let why = "is not an independent: its derivative on entry is no input";
                        out.extend(self.clear_pointee(p, d, why));
                    }
                }
                continue;
            }
            if ty.pointers > 0
                || !(fortran_whole || c_scalar)
                || !matches!(ty.base, BaseClass::Real | BaseClass::Complex)
            {
                continue;
            }
            let Some(z) = self.f.pi.zones.sym_zones(p) else {
                continue;
            };
            if z.intersects(&indep) || !entry_matters(&z, &self.f.pi.summary.reads) {
                continue;
            }
            let bytes = ty.bytes.unwrap_or(4);
            let l = self.b().name(d);
            let zero = self.b().zero(bytes);
            out.push(assign(&mut self.u, l, zero));
        }
        out
    }

    /// `d[0..n) = 0` for the derivative `d` of the C pointer parameter `p`, with `n` from
    /// `-size p=n` (or `-size proc.p=n`); for a C array parameter, a loop over each declared
    /// extent; for a Fortran assumed-size array, [`Self::clear_assumed_size`]. Without an
    /// extent, a warning (AD061) names the parameter: its derivative on entry is then read as
    /// the caller passes it. `why` says why it must be cleared (`p` ...).
    pub fn clear_pointee(&mut self, p: SymbolId, d: SymbolId, why: &str) -> Option<StmtId> {
        if self.f.lang == Lang::Fortran {
            return self.clear_assumed_size(p, d, why);
        }
        let bounds: Option<Vec<ExprId>> = match self.array_param_extents(p) {
            Some(ext) => ext.map(|ext| {
                let c = Copier { src: self.f.src };
                ext.iter().map(|&e| c.expr(&mut self.u, e)).collect()
            }),
            None => self
                .pointee_size(p)
                .map(|n| vec![self.b().opaque(&format!("({n})"))]),
        };
        let Some(bounds) = bounds else {
            self.warn_no_extent(p, d, why);
            return None;
        };
        Some(self.zero_c_elements(d, bounds))
    }

    /// AD061: `p`'s derivative `d` must be cleared (`why`) but its extent is not known.
    fn warn_no_extent(&mut self, p: SymbolId, d: SymbolId, why: &str) {
        let name = self.prog().symbols[p].spelling.clone();
        let sp = self.f.src.source_map.header.unwrap_or_default();
        let dn = self.g.out.symbols[d].spelling.clone();
        self.g.uncleared.push((self.f.p, dn.clone()));
        let what = match self.f.lang {
            Lang::C => "elements",
            Lang::Fortran => "elements of a one-dimensional array",
        };
        self.g.diags.push(Diagnostic::warning(
            Code::EntryDerivative,
            sp,
            format!(
                "`{name}` {why}, but radtap cannot clear `{dn}` without its extent: \
                 give -size {name}=N ({what}), or pass zeros in `{dn}`"
            ),
        ));
    }

    /// Fortran: `d(lo:lo+n-1) = 0` for the derivative `d` of the assumed-size (`w(*)`)
    /// rank-1 parameter `p`, with `n` from `-size p=n`; else a warning (AD061) as for C
    /// pointers (a work array neither independent nor dependent: the caller's adjoint in
    /// `wb` leaked into the result).
    fn clear_assumed_size(&mut self, p: SymbolId, d: SymbolId, why: &str) -> Option<StmtId> {
        let ty = self.prog().symbols[p].ty.clone()?;
        let n = (ty.dims.len() == 1).then(|| self.pointee_size(p)).flatten();
        let Some(n) = n else {
            self.warn_no_extent(p, d, why);
            return None;
        };
        let lo = match ty.dims[0].lower {
            Some(e) => Copier { src: self.f.src }.expr(&mut self.u, e),
            None => self.b().int(1),
        };
        let lo2 = self.dup(lo);
        let count = self.b().opaque(&format!("({n})"));
        let one = self.b().int(1);
        let last = self.b().bin(BinOp::Add, lo2, count);
        let hi = self.b().bin(BinOp::Sub, last, one);
        let dn = self.b().name(d);
        let sec = self
            .b()
            .index(dn, vec![Subscript::Range(Some(lo), Some(hi), None)]);
        let z = self.b().zero(ty.bytes.unwrap_or(8));
        Some(assign(&mut self.u, sec, z))
    }
}
