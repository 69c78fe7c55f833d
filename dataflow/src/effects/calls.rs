//! The effect of a call: a procedure of the program through its summary, its actual
//! arguments bound to the callee's zones and its results mapped back; an intrinsic or library
//! routine by what the vocabulary says of it; and a function reference inside an expression.

use super::types::*;
use crate::zones::{is_pointer, Obj, ObjKey};
use crate::zoneset::{ZoneId, ZoneSet};
use radtap_flowgraph::{CallSite, Callee};
use radtap_il::vocab::{Access, RoutineId};
use radtap_il::{Arg, Expr, ExprId, Lang, Program, UnitData, UnitId};
use std::collections::BTreeMap;

impl Eval<'_> {
    /// A function reference inside an expression.
    pub(super) fn call_value(&mut self, e: ExprId, args: &[Arg]) -> Val {
        let site = self.by_expr.get(&e).copied();
        match site.map(|s| &s.callee) {
            Some(&Callee::Intrinsic(r)) => {
                // An argument given by keyword is differentiable as the param it binds to in
                // the record's signature: never `dim=`, `kind=`, `mask=`, but `reshape`'s
                // `pad=` and `cmplx`'s `y=` (required ones are positional by now:
                // `il::intrinsic_args`). One that binds to nothing is taken as differentiable.
                let sig = r.signature();
                let bound = sig.bind_args(args);
                let mut vals = Vec::new();
                for (a, p) in args.iter().zip(bound) {
                    let v = self.value(a.value);
                    let passive = a.keyword.is_some()
                        && p.is_some_and(|p| !sig.params[p].ty.differentiable());
                    vals.push(if passive { v.nondiff() } else { v });
                }
                let mut all = self.empty();
                for v in &vals {
                    all.union_with(&v.reads);
                }
                self.copy_through(r, args);
                if self.u.lang == Lang::C {
                    self.stores_through(r, args, &all);
                }
                let mut out = Val {
                    reads: self.empty(),
                    ..Val::default()
                };
                match intrinsic_class(r) {
                    IntrinsicClass::NonDiff => {
                        for v in vals {
                            out = out.union(v.nondiff());
                        }
                    }
                    IntrinsicClass::Linear => {
                        // Linear in its differentiable arguments, but the derivative still
                        // evaluates the others: `merge`'s and `pack`'s masks, `dim=`,
                        // `reshape`'s shape, `cshift`'s shift (the adjoint of
                        // `y = merge(t, c, t > c)` reads `t` in its mask).
                        let mut ctl = self.empty();
                        for v in vals.iter().filter(|v| v.diff.is_empty()) {
                            ctl.union_with(&v.reads);
                        }
                        for v in vals {
                            out = out.union(v.with_uses(&ctl));
                        }
                    }
                    IntrinsicClass::Nonlinear => {
                        for v in vals {
                            out = out.union(v.with_uses(&all));
                        }
                    }
                    IntrinsicClass::FirstOnly => {
                        for (i, v) in vals.into_iter().enumerate() {
                            out = out.union(if i == 0 {
                                v.with_uses(&all)
                            } else {
                                v.nondiff()
                            });
                        }
                    }
                }
                out
            }
            Some(_) => {
                let site = site.expect("matched");
                let was = std::mem::replace(&mut self.in_expr, true);
                let v = self.call(site, args, false);
                self.in_expr = was;
                v
            }
            None => {
                // Not a call site (an array the frontend could not tell apart): be
                // conservative and treat it as nonlinear in everything.
                let mut out = Val {
                    reads: self.empty(),
                    ..Val::default()
                };
                for a in args {
                    out = out.union(self.value(a.value));
                }
                let all = out.reads.clone();
                out.with_uses(&all)
            }
        }
    }

    /// A call to a procedure of the program (through its summary), an external procedure, or
    /// an intrinsic subroutine. Returns the value of a function result.
    pub(super) fn call(&mut self, site: &CallSite, args: &[Arg], stmt: bool) -> Val {
        match &site.callee {
            Callee::Defined(list) => {
                self.eff.calls = true;
                let mut out = Val {
                    reads: self.empty(),
                    ..Val::default()
                };
                let single = list.len() == 1;
                for &c in list {
                    let v = self.apply_summary(c, args, single);
                    out = out.union(v);
                }
                out
            }
            Callee::Intrinsic(_) | Callee::External(_) => {
                let external = matches!(site.callee, Callee::External(_));
                if let Callee::Intrinsic(r) = site.callee {
                    self.copy_through(r, args);
                }
                // Every argument is read; by-reference arguments of a Fortran external
                // subroutine (and pointees of C pointer arguments) may be written with values
                // depending on every argument. An intrinsic writes what its signature says.
                let access = match site.callee {
                    Callee::Intrinsic(r) => intrinsic_access(r, args),
                    _ => vec![Access::InOut; args.len()],
                };
                let mut all = Val {
                    reads: self.empty(),
                    ..Val::default()
                };
                let mut targets = Vec::new();
                for (a, &access) in args.iter().zip(&access) {
                    let v = self.value(a.value);
                    all = all.union(v);
                    if external && self.u.lang == Lang::C && self.is_pointer_value(a.value) {
                        // What an unknown C function is given the address of, it may read.
                        let pointee = self.deref(a.value);
                        all = all.union(self.ref_value(&pointee));
                    }
                    let r = if self.u.lang == Lang::Fortran {
                        if stmt || external {
                            self.reference(a.value, false)
                        } else {
                            None
                        }
                    } else if self.is_pointer_value(a.value) {
                        Some(self.deref(a.value))
                    } else {
                        None
                    };
                    match (r, access) {
                        (None, _) | (Some(_), Access::In) => {}
                        // `call random_number(x)`, `call cpu_time(t)`, C `frexp`'s `exp`:
                        // overwritten with a new value, where the whole object is written.
                        (Some(r), Access::Out) => targets.push(r),
                        (Some(mut r), Access::InOut) => {
                            r.total = false;
                            targets.push(r);
                        }
                    }
                }
                if external && !self.pz.unknown_reach.is_empty() {
                    // An unknown routine may read and write every global it can name
                    // (docs/decisions.md, "Unknown routines"): `ext_touch()` may change the
                    // active `g` the caller reads next.
                    let objs = self
                        .pz
                        .unknown_reach
                        .iter()
                        .map(|z| Obj {
                            start: z.0,
                            len: 1,
                            rec: None,
                            scalar: false,
                        })
                        .collect();
                    let r = Ref {
                        objs,
                        total: false,
                        addr: self.empty(),
                    };
                    all = all.union(self.ref_value(&r));
                    targets.push(r);
                }
                let reads = all.reads.clone();
                // What the arguments read is read by the call even when no argument is a
                // variable it could write (`call execute_command_line(trim(cmd))`): the
                // assignments building `cmd` were sliced away while the call stayed.
                self.eff.reads.union_with(&reads);
                let dv = if external {
                    all.clone().with_uses(&reads)
                } else {
                    // Intrinsic subroutines (`random_number`, `cpu_time`) produce new values.
                    Val {
                        reads: reads.clone(),
                        diff: BTreeMap::new(),
                    }
                };
                for r in &targets {
                    self.write(r, &dv);
                }
                if external {
                    all.with_uses(&reads)
                } else {
                    all.nondiff()
                }
            }
        }
    }

    /// Applies callee `c`'s summary at this call: maps each callee interface zone to caller
    /// zones (actual arguments, pointees, globals) and composes.
    pub(super) fn apply_summary(&mut self, c: UnitId, args: &[Arg], single: bool) -> Val {
        let env = self.env;
        let (Some(cz), Some(sum)) = (env.zones.get(&c), env.summaries.get(&c)) else {
            let mut v = Val {
                reads: self.empty(),
                ..Val::default()
            };
            for a in args {
                v = v.union(self.value(a.value));
            }
            return v;
        };
        let cu = &self.prog.units[c];
        let n = cz.len();
        // src[z]: caller zones the callee zone's entry value comes from; dsrc: the
        // differentiable ones; tgt[z]: caller zones written when the callee writes z, and
        // whether that correspondence is exact (so kills carry over).
        let mut src: Vec<Option<ZoneSet>> = vec![None; n];
        let mut dsrc: Vec<Option<ZoneSet>> = vec![None; n];
        let mut tgt: Vec<Option<(Vec<ZoneId>, bool)>> = vec![None; n];
        let mut addr_all = self.empty();
        let mut arg_reads = self.empty();
        for (i, &d) in cz.params.iter().enumerate() {
            // The actual of the i-th dummy: by position, or by keyword (`roughness=r`
            // passed the 5th actual to the 5th dummy whatever its keyword named, so an
            // OPTIONAL output given by keyword lost its dependencies).
            let Some(a) = actual_of(self.prog, cu, args, i) else {
                continue;
            };
            let a = a.value;
            let dsd = &self.prog.symbols[d];
            let by_value = cu.lang == Lang::C
                && !is_pointer(self.prog, d)
                && dsd.ty.as_ref().is_none_or(|t| t.dims.is_empty())
                || dsd.attrs.value;
            let Some(dobj) = cz.objects.get(&ObjKey::Sym(d)).copied() else {
                continue;
            };
            let c_pointer = cu.lang == Lang::C && is_pointer(self.prog, d);
            if by_value || c_pointer {
                let v = if c_pointer {
                    self.addr_value(a)
                } else {
                    self.value(a)
                };
                bind_value(&v, dobj, &mut src, &mut dsrc, &mut arg_reads);
                if c_pointer {
                    if let Some(pobj) = cz.objects.get(&ObjKey::Pointee(d)).copied() {
                        let r = self.deref(a);
                        addr_all.union_with(&r.addr);
                        self.map_ref(&r, pobj, &mut src, &mut dsrc, &mut tgt, false);
                    }
                }
                continue;
            }
            // By reference: Fortran dummies, C array parameters.
            let r = if cu.lang == Lang::C {
                Some(self.deref(a))
            } else {
                self.reference(a, false)
            };
            match r {
                Some(r) => {
                    addr_all.union_with(&r.addr);
                    arg_reads.union_with(&r.addr);
                    self.map_ref(&r, dobj, &mut src, &mut dsrc, &mut tgt, single);
                    if let Some(pobj) = cz.objects.get(&ObjKey::Pointee(d)).copied() {
                        // A Fortran pointer dummy: its target is what the actual points to.
                        let keys = match &self.u.exprs[a] {
                            Expr::Name(s) => self.pz.pts.get(s).cloned().unwrap_or_default(),
                            _ => Vec::new(),
                        };
                        let objs = self.objs_of_keys(&keys);
                        let pr = Ref {
                            objs,
                            total: false,
                            addr: self.empty(),
                        };
                        self.map_ref(&pr, pobj, &mut src, &mut dsrc, &mut tgt, false);
                    }
                }
                None => {
                    // An expression passed by reference: the callee sees a temporary.
                    let v = self.value(a);
                    bind_value(&v, dobj, &mut src, &mut dsrc, &mut arg_reads);
                }
            }
        }
        // Globals.
        for (i, &gz) in cz.globals.iter().enumerate() {
            let cl = cz.global_base as usize + i;
            if let Some(mine) = self.pz.local_of_global(gz) {
                let mut s = self.empty();
                s.insert(mine);
                src[cl] = Some(s.clone());
                dsrc[cl] = Some(if self.pz.differentiable.contains(mine) {
                    s
                } else {
                    self.empty()
                });
                tgt[cl] = Some((vec![mine], single));
            }
        }
        let image = |set: &ZoneSet, m: &Vec<Option<ZoneSet>>, n: usize| {
            let mut out = ZoneSet::new(n);
            for z in set.iter() {
                if let Some(s) = &m[z.index()] {
                    out.union_with(s);
                }
            }
            out
        };
        let me = self.pz.len();
        let reads = image(&sum.reads, &src, me);
        self.eff.reads.union_with(&reads);
        self.eff.reads.union_with(&arg_reads);
        let mut all_reads = reads.clone();
        all_reads.union_with(&arg_reads);
        for t in sum.writes.iter() {
            let Some((targets, exact)) = &tgt[t.index()] else {
                continue;
            };
            let mut s = image(sum.dep.row(t), &src, me);
            s.union_with(&addr_all);
            let ds = image(sum.diff_dep.row(t), &dsrc, me);
            for &ct in targets {
                if self.pz.readonly.contains(ct) {
                    continue;
                }
                self.eff.writes.insert(ct);
                if *exact && sum.kills.contains(t) {
                    self.eff.kills.insert(ct);
                }
                self.eff.dep.row_mut(ct, || ZoneSet::new(me)).union_with(&s);
                if self.pz.differentiable.contains(ct) {
                    self.eff
                        .diff_dep
                        .row_mut(ct, || ZoneSet::new(me))
                        .union_with(&ds);
                    for x in ds.iter() {
                        self.eff
                            .partials
                            .row_mut(x, || ZoneSet::new(me))
                            .union_with(&all_reads);
                    }
                }
            }
        }
        self.messages(sum, &tgt, &dsrc);
        self.eff.addr.union_with(&addr_all);
        self.eff.call_maps.push(CallMap {
            callee: c,
            src: src.clone(),
            tgt: tgt
                .iter()
                .map(|t| t.as_ref().map(|(v, _)| v.clone()))
                .collect(),
            in_expr: self.in_expr,
        });
        // The function result, as a value.
        let mut v = Val {
            reads: ZoneSet::new(me),
            ..Val::default()
        };
        if let Some(r) = cz
            .result
            .and_then(|r| cz.objects.get(&ObjKey::Sym(r)).copied())
        {
            for z in r.start..r.start + r.len {
                let t = ZoneId(z);
                v.reads.union_with(&image(sum.dep.row(t), &src, me));
                let ds = image(sum.diff_dep.row(t), &dsrc, me);
                for x in ds.iter() {
                    v.diff.insert(x, all_reads.clone());
                }
            }
            v.reads.union_with(&arg_reads);
        }
        v
    }

    /// Maps the callee object `dobj` onto the caller reference `r`: field to field when the
    /// layouts agree, every zone to every zone otherwise.
    pub(super) fn map_ref(
        &self,
        r: &Ref,
        dobj: Obj,
        src: &mut [Option<ZoneSet>],
        dsrc: &mut [Option<ZoneSet>],
        tgt: &mut [Option<(Vec<ZoneId>, bool)>],
        single: bool,
    ) {
        let me = self.pz.len();
        let pairwise = r.objs.len() == 1 && r.objs[0].len == dobj.len;
        let all = self.objs_zones(&r.objs);
        for k in 0..dobj.len {
            let cz = (dobj.start + k) as usize;
            let zs: ZoneSet = if pairwise {
                std::iter::once(ZoneId(r.objs[0].start + k)).collect()
            } else {
                all.clone()
            };
            let mut s = ZoneSet::new(me);
            s.union_with(&zs);
            let ds = s.and(&self.pz.differentiable);
            src[cz]
                .get_or_insert_with(|| ZoneSet::new(me))
                .union_with(&s);
            dsrc[cz]
                .get_or_insert_with(|| ZoneSet::new(me))
                .union_with(&ds);
            let exact = single && pairwise && r.total;
            let e = tgt[cz].get_or_insert_with(|| (Vec::new(), exact));
            e.1 &= exact;
            for z in s.iter() {
                if !e.0.contains(&z) {
                    e.0.push(z);
                }
            }
        }
    }
}

/// A callee zone that receives a value (by-value argument, or an expression passed by
/// reference): its entry value comes from what `v` reads, differentiably from `v`'s sources.
fn bind_value(
    v: &Val,
    dobj: Obj,
    src: &mut [Option<ZoneSet>],
    dsrc: &mut [Option<ZoneSet>],
    arg_reads: &mut ZoneSet,
) {
    arg_reads.union_with(&v.reads);
    let ds: ZoneSet = v.diff.keys().copied().collect();
    for z in dobj.start..dobj.start + dobj.len {
        src[z as usize] = Some(v.reads.clone());
        dsrc[z as usize] = Some(ds.clone());
    }
}

/// The actual argument associated with the `i`-th dummy of `cu`: the `i`-th actual when it
/// is positional, else the actual whose keyword names that dummy.
fn actual_of<'x>(prog: &Program, cu: &UnitData, args: &'x [Arg], i: usize) -> Option<&'x Arg> {
    if let Some(a) = args.get(i).filter(|a| a.keyword.is_none()) {
        return Some(a);
    }
    let name = &prog.symbols[*cu.params.get(i)?].spelling;
    args.iter().find(|a| {
        a.keyword
            .as_ref()
            .is_some_and(|k| k.eq_ignore_ascii_case(name))
    })
}

impl Eval<'_> {
    /// What a C library function called in an expression stores through its pointer
    /// arguments, as its signature says (`frexp`'s `exp`, `modf`'s `iptr`, `strtod`'s
    /// `endptr`): a new value, depending on what the arguments read (`reads`).
    fn stores_through(&mut self, r: RoutineId, args: &[Arg], reads: &ZoneSet) {
        for (a, access) in args.iter().zip(intrinsic_access(r, args)) {
            if access == Access::In || !self.is_pointer_value(a.value) {
                continue;
            }
            let mut t = self.deref(a.value);
            t.total &= access == Access::Out;
            let v = Val {
                reads: reads.clone(),
                diff: BTreeMap::new(),
            };
            self.write(&t, &v);
        }
    }
}

/// What intrinsic `r` does with each actual of `args`, by its signature: an actual that binds
/// to no param is taken as read and written. The copies (`memcpy`, `memset`, `move_alloc`)
/// write through `copy_through` alone: their destination holds what they copy, not a new
/// value.
fn intrinsic_access(r: RoutineId, args: &[Arg]) -> Vec<Access> {
    let sig = r.signature();
    sig.bind_args(args)
        .into_iter()
        .map(|p| match p {
            _ if super::library::is_copy(r) => Access::In,
            Some(p) => sig.params[p].access,
            None => Access::InOut,
        })
        .collect()
}
