//! Library calls that copy values, whose effects the records' signatures do not tell:
//! `memcpy`, `memmove`, `memset`, Fortran `move_alloc`; and what C arguments pass an address.

use super::types::*;
use crate::zoneset::{ZoneId, ZoneSet};
use radtap_il::vocab::RoutineId;
use radtap_il::{Arg, Expr, ExprId, Lang, UnOp};

/// Whether the effects of `r` on its arguments are the copy [`Eval::copy_through`] models,
/// not what its signature says of each argument alone.
pub(super) fn is_copy(r: RoutineId) -> bool {
    r.routine().has(radtap_il::vocab::COPY) || r.is_one_of(&["move_alloc"])
}

impl Eval<'_> {
    /// C `memcpy`/`memmove`: the values behind the source land behind the destination,
    /// derivatives with them (what the copy writes depends on what it reads); `memset`
    /// writes a constant there. Fortran `move_alloc(from, to)`: `to` holds what `from` held,
    /// derivatives with it, and `from` nothing (it is deallocated).
    pub(super) fn copy_through(&mut self, r: RoutineId, args: &[Arg]) {
        if is_copy(r) && self.u.lang == Lang::Fortran && args.len() == 2 {
            let v = self.value(args[0].value);
            if let Some(to) = self.reference(args[1].value, false) {
                self.write(&to, &v);
            }
            if let Some(from) = self.reference(args[0].value, false) {
                let gone = Val {
                    reads: self.empty(),
                    ..Val::default()
                };
                self.write(&from, &gone);
            }
        }
        let c = |name: &str| r.is_c(name);
        if c("memset") && self.u.lang == Lang::C && !args.is_empty() {
            // The bytes behind the destination are set to a constant: written, depending on
            // nothing (its derivative is zero after).
            let mut dst = self.deref(args[0].value);
            dst.total = false;
            let v = Val {
                reads: self.empty(),
                ..Val::default()
            };
            self.write(&dst, &v);
        }
        if (c("memcpy") || c("memmove")) && self.u.lang == Lang::C && args.len() >= 2 {
            let src = self.deref(args[1].value);
            let v = self.ref_value(&src);
            let mut dst = self.deref(args[0].value);
            dst.total = false;
            self.write(&dst, &v);
        }
    }

    /// Messages (MPI, issue 46): what the callee sends or receives (its summary's `sent` /
    /// `received`), in the caller's zones: `tgt` and `dsrc` map each callee zone.
    pub(super) fn messages(
        &mut self,
        sum: &crate::Summary,
        tgt: &[Option<(Vec<ZoneId>, bool)>],
        dsrc: &[Option<ZoneSet>],
    ) {
        for t in sum.received.iter() {
            if let Some((targets, _)) = &tgt[t.index()] {
                for &ct in targets {
                    if self.pz.differentiable.contains(ct) && !self.eff.received.contains(&ct) {
                        self.eff.received.push(ct);
                    }
                }
            }
        }
        for z in sum.sent.iter() {
            for x in dsrc[z.index()].iter().flat_map(|s| s.iter()) {
                if !self.eff.sent.contains(&x) {
                    self.eff.sent.push(x);
                }
            }
        }
    }

    pub(super) fn is_pointer_value(&self, e: ExprId) -> bool {
        match &self.u.exprs[e] {
            Expr::Unary {
                op: UnOp::AddrOf, ..
            } => true,
            Expr::Name(s) => {
                let t = self.prog.symbols[*s].ty.as_ref();
                t.is_some_and(|t| t.pointers > 0 || !t.dims.is_empty())
            }
            Expr::Binary { lhs, rhs, .. } => {
                self.is_pointer_value(*lhs) || self.is_pointer_value(*rhs)
            }
            Expr::Cast { arg, .. } | Expr::Paren(arg) => self.is_pointer_value(*arg),
            _ => false,
        }
    }
}
