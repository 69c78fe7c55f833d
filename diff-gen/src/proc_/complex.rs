//! Fortran COMPLEX values that carry derivatives (docs/decisions.md, "Complex derivatives").
//!
//! A complex variable's derivative is complex of the same kind. Holomorphic operations
//! (`+ - * /`, `**` with a constant exponent, `exp`, `log`, `sqrt`, the trigonometric and
//! hyperbolic functions, differentiated procedures) take the complex chain rule, which is
//! the real one written over complex values: the derivative table's partials serve as they
//! are. The operations that are only real-linear take rules of their own here:
//! `cmplx(a, b[, kind])˙ = cmplx(ȧ, ḃ[, kind])`, `real(c)˙ = real(ċ)`, `aimag(c)˙ = aimag(ċ)`,
//! `conjg(c)˙ = conjg(ċ)`, `abs(c)˙ = real(conjg(c)·ċ)/abs(c)` (0 where `c = 0`). Anything
//! else applied to an active complex value is refused at its statement (`no_rule`).
//!
//! The adjoint (`radtap-diff-adjoint`, `transpose.rs`) transposes these with the convention
//! `z̄ = x̄ + i ȳ`; it asks [`ProcGen::complex_out`] which factors are complex, to conjugate
//! them.

use super::complex_types::*;
use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// Whether the primal unit declares complex variables of two kinds (`complex` and
    /// `complex(8)`): the adjoint then converts each complex seed to its node's kind.
    pub fn mixed_complex_kinds(&self) -> bool {
        if !self.has_complex() {
            return false;
        }
        let (mut four, mut eight) = (false, false);
        for (_, x) in self.f.src.exprs.iter() {
            if let Expr::Name(s) = x {
                if let Some(t) = self.g.prog.symbols[*s].ty.as_ref() {
                    if t.base == BaseClass::Complex {
                        four |= t.bytes == Some(8);
                        eight |= t.bytes != Some(8);
                    }
                }
            }
        }
        four && eight
    }

    /// Whether expression `e` of the unit being built (a tangent, a factor, an adjoint
    /// seed) is complex-valued: derivative variables and temporaries carry their type.
    pub fn complex_out(&self, e: ExprId) -> bool {
        if !self.has_complex() {
            return false;
        }
        let out = &self.g.out;
        let prog = self.g.prog;
        complex_expr(
            &self.u.exprs,
            e,
            &|s| sym_complex(prog, &out.symbols, s),
            &|c| radtap_il::vocab::routine_called(out, &self.u, c),
        )
    }

    /// The derivative temporary for a value of primal expression `e` of real kind `k`:
    /// complex when `e` is.
    pub fn deriv_temp_kind(&self, e: ExprId, k: u32) -> TempKind {
        if self.complex_src(e) {
            TempKind::Complex {
                bytes: self.complex_kind(e),
                deriv: true,
            }
        } else {
            TempKind::Real {
                bytes: k,
                deriv: true,
            }
        }
    }

    /// The tangent of intrinsic call `e` (`name(pos…)`) when it takes a complex rule:
    /// `None` when it does not (the table applies), `Some(None)` when its tangent is zero
    /// or refused.
    pub(crate) fn tan_complex(
        &mut self,
        e: ExprId,
        name: &str,
        routine: Option<radtap_il::vocab::RoutineId>,
        pos: &[ExprId],
        args: &'a [Arg],
    ) -> Option<Option<ExprId>> {
        if !self.has_complex() || !self.is_complex_intrinsic_site(e) {
            return None;
        }
        let first_complex = pos.first().is_some_and(|&x| self.complex_src(x));
        match name {
            "cmplx" | "dcmplx" | "complex" => {
                // cmplx(a, b[, kind])˙ = cmplx(ȧ, ḃ[, kind]): the user's kind kept.
                let mut ds = Vec::new();
                let mut any = false;
                for (i, a) in args.iter().enumerate() {
                    let value_arg = match a.keyword.as_deref().map(|k| k.to_ascii_lowercase()) {
                        Some(k) => k == "x" || k == "y",
                        None => i < 2,
                    };
                    if value_arg {
                        let d = self.tan(a.value);
                        any |= d.is_some();
                        let k = self.real_kind(a.value);
                        let d = d.unwrap_or_else(|| self.b().zero(k));
                        ds.push(Arg {
                            keyword: a.keyword.clone(),
                            value: d,
                        });
                    } else {
                        let v = self.cp(a.value);
                        ds.push(Arg {
                            keyword: a.keyword.clone(),
                            value: v,
                        });
                    }
                }
                if !any {
                    return Some(None);
                }
                // `cmplx(a, b)` without a kind is default (single) precision: the tangent
                // says so (`kind=kind(cmplx(a, b))`), as its derivative arguments may be of
                // another kind than `a` and `b` (`real(x)˙ = ẋ`).
                let has_kind = args.len() > 2
                    || args.iter().any(|a| {
                        a.keyword
                            .as_deref()
                            .is_some_and(|k| k.eq_ignore_ascii_case("kind"))
                    });
                if name == "cmplx" && !has_kind {
                    let prim = self.cp(e);
                    let k = self.b().call("kind", vec![prim]);
                    ds.push(Arg {
                        keyword: Some("kind".into()),
                        value: k,
                    });
                }
                let c = self.b().callee(name);
                Some(Some(self.b().e(Expr::Call {
                    callee: c,
                    args: ds,
                })))
            }
            "real" | "dble" | "dreal" | "float" | "sngl" | "aimag" | "dimag" | "imag" | "conjg"
            | "dconjg"
                if !pos.is_empty()
                    && !args.is_empty()
                    && (first_complex
                        || matches!(name, "aimag" | "dimag" | "imag" | "conjg" | "dconjg")) =>
            {
                // Real-linear: f(c)˙ = f(ċ), the other arguments (a kind) kept.
                let Some(d) = self.tan(pos[0]) else {
                    return Some(None);
                };
                let mut ds = vec![Arg {
                    keyword: None,
                    value: d,
                }];
                for a in &args[1..] {
                    let v = self.cp(a.value);
                    ds.push(Arg {
                        keyword: a.keyword.clone(),
                        value: v,
                    });
                }
                let c = self.b().callee(name);
                Some(Some(self.b().e(Expr::Call {
                    callee: c,
                    args: ds,
                })))
            }
            "abs" | "cabs" | "cdabs" | "zabs" if first_complex && pos.len() == 1 => {
                // |c|˙ = real(conjg(c)·ċ)/|c|, 0 where c = 0.
                let Some(d) = self.tan(pos[0]) else {
                    return Some(None);
                };
                let k = self.complex_kind(pos[0]);
                let c = self.cp(pos[0]);
                let cj = self.b().call("conjg", vec![c]);
                let d = self.b().factor(d);
                let p = self.b().mul(cj, d);
                let re = self.b().call("real", vec![p]);
                let c2 = self.cp(pos[0]);
                let a = self.b().call("abs", vec![c2]);
                let q = self.b().div(re, a);
                let c3 = self.cp(pos[0]);
                let a3 = self.b().call("abs", vec![c3]);
                let z = self.b().zero(k);
                let cond = self.b().bin(BinOp::Gt(RelSpell::Symbol), a3, z);
                Some(Some(self.guarded(q, cond, k)))
            }
            _ if first_complex || pos.iter().any(|&x| self.complex_src(x)) => {
                if routine.is_some_and(|r| r.routine().has(radtap_il::vocab::HOLO)) {
                    return None;
                }
                if args.iter().any(|a| self.active_inside(a.value)) {
                    self.no_rule = Some(format!("the intrinsic `{name}` of a complex value"));
                }
                Some(None)
            }
            _ => None,
        }
    }

    /// Whether the call `e` is an intrinsic (not a procedure of the program of that name).
    fn is_complex_intrinsic_site(&self, e: ExprId) -> bool {
        self.expr_call_site(e)
            .is_none_or(|c| matches!(&c.callee, Callee::Intrinsic(_)))
    }
}
