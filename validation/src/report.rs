//! The verdicts of a validation and their report.
//!
//! A tangent element is checked against central divided differences two ways: at the step
//! `h` (the cube root of the machine epsilon, scaled) with an error estimate from `2h`, and by
//! Ridders' extrapolation over a decreasing sequence of steps, which gives a value and an
//! error bound. Its status is
//! - PASS when either agrees with the tangent within its tolerance (the extrapolation only
//!   when it converged);
//! - FAIL only when the extrapolation converged (its error bound is small) and the tangent
//!   differs from it beyond the tolerance plus that bound, or when the differences at `h`
//!   and `2h` agree (to 1e-4 relative) and the tangent differs from them;
//! - INCONCLUSIVE when the extrapolation does not converge: the function is not smooth at
//!   any step the arithmetic allows (overflowing growth, `sin` of a huge argument), so the
//!   divided differences prove nothing either way;
//! - NON-FINITE when the primal, the tangent or a divided difference is inf or NaN: the
//!   inputs are the problem, never the derivative.
//!
//! The dot-product test needs no step: it decides the adjoint whatever the tangent's status.
//! A validation whose tangent is zero on every dependent proves nothing and is
//! INCONCLUSIVE, never PASS.

use std::fmt::Write as _;

/// Relative tolerance of tangent vs divided differences (on top of the estimated error of
/// the differences themselves).
pub const TOL_FD: f64 = 1e-6;
/// Relative tolerance of the dot-product test.
pub const TOL_DOT: f64 = 1e-10;
/// The same when the program computes in single precision (`real(4)`, C `float`): both
/// sides carry its rounding (about 1e-7 relative), which a wrong adjoint exceeds by far.
pub const TOL_DOT_SINGLE: f64 = 1e-5;
/// Ratio of successive steps of Ridders' sequence.
pub const RIDDERS_CON: f64 = 1.4;
/// Number of steps of Ridders' sequence.
pub const RIDDERS_STEPS: usize = 16;
/// Ridders' extrapolation has converged when its error bound is below this, relative.
pub const CONVERGED: f64 = 1e-4;

/// The steps of Ridders' sequence: from 1e-2 of the input scale down by [`RIDDERS_CON`];
/// `step` is the classic step (cube root of epsilon times the scale).
pub fn ridders_steps(step: f64) -> Vec<f64> {
    let scale = step / f64::EPSILON.cbrt();
    (0..RIDDERS_STEPS)
        .map(|i| 1e-2 * scale / RIDDERS_CON.powi(i as i32))
        .collect()
}

/// Ridders' extrapolation (Numerical Recipes' `dfridr`) of central differences `d[i]` taken
/// at the steps of [`ridders_steps`]: the best estimate and its error. The tableau stops
/// when a higher order is worse than the best so far by a factor 2 (rounding has taken
/// over).
pub fn ridders(d: &[f64]) -> (f64, f64) {
    let n = d.len();
    if n == 0 {
        return (f64::NAN, f64::INFINITY);
    }
    let con2 = RIDDERS_CON * RIDDERS_CON;
    let mut a = vec![vec![0.0; n]; n];
    a[0][0] = d[0];
    let (mut ans, mut err) = (d[0], f64::INFINITY);
    for i in 1..n {
        a[0][i] = d[i];
        let mut fac = con2;
        for j in 1..=i {
            a[j][i] = (a[j - 1][i] * fac - a[j - 1][i - 1]) / (fac - 1.0);
            fac *= con2;
            let errt = (a[j][i] - a[j - 1][i])
                .abs()
                .max((a[j][i] - a[j - 1][i - 1]).abs());
            if errt <= err {
                err = errt;
                ans = a[j][i];
            }
        }
        if (a[i][i] - a[i - 1][i - 1]).abs() >= 2.0 * err {
            break;
        }
    }
    (ans, err)
}

/// The outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Pass,
    Inconclusive,
    Fail,
    NonFinite,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Inconclusive => "INCONCLUSIVE",
            Status::Fail => "FAIL",
            Status::NonFinite => "NON-FINITE",
        }
    }
}

/// One dependent element: tangent vs divided differences.
#[derive(Clone, Debug)]
pub struct Element {
    /// `y(3)`, `s%v(2)`, `y[0]`, the function result `f`.
    pub label: String,
    pub tangent: f64,
    /// The divided difference shown: Ridders' estimate when it converged, else the one at
    /// the classic step.
    pub fd: f64,
    /// Estimated error of `fd`.
    pub estimate: f64,
    pub status: Status,
}

impl Element {
    /// Classifies an element. `primal` holds the values of this element at the base point and
    /// at ±h, ±2h; `classic` is (difference at h, at 2h, rounding
    /// error); `ridders` the differences of Ridders' sequence; `around` the tangent at x ± h
    /// when the driver printed it.
    pub fn check(
        label: String,
        tangent: f64,
        primal: &[f64],
        classic: (f64, f64, f64),
        ridders_d: &[f64],
        around: Option<(f64, f64)>,
    ) -> Element {
        let (fd, fd2, round) = classic;
        let finite = tangent.is_finite()
            && primal.iter().all(|x| x.is_finite())
            && fd.is_finite()
            && fd2.is_finite()
            && around.is_none_or(|(a, b)| a.is_finite() && b.is_finite());
        if !finite {
            return Element {
                label,
                tangent,
                fd,
                estimate: f64::NAN,
                status: Status::NonFinite,
            };
        }
        let t = tangent;
        let estimate = (fd - fd2).abs() / 3.0 + round;
        let big = t.abs().max(fd.abs());
        // The estimate widens the tolerance, but never beyond 1e-4 relative: a wrong
        // derivative at a kink must still fail.
        let slack = (10.0 * estimate).min(1e-4 * big);
        let classic_pass = (t - fd).abs() <= TOL_FD * big + slack;
        // Ridders' large steps may leave the function's domain (`acos` near 1, overflow):
        // only the finite tail of small steps is extrapolated.
        let tail = ridders_d
            .iter()
            .rposition(|x| !x.is_finite())
            .map_or(0, |i| i + 1);
        let ridders_d = &ridders_d[tail..];
        let (r, rerr) = if ridders_d.len() >= 2 {
            ridders(ridders_d)
        } else {
            (f64::NAN, f64::INFINITY)
        };
        let rbig = t.abs().max(r.abs());
        let converged = rerr.is_finite() && rerr <= CONVERGED * rbig;
        // Only an extrapolation that converged can vouch for the tangent: an error bound of
        // the size of the value (steps across a jump or a branch) let anything pass.
        // The primal's rounding (single precision: about 1e-7 of the value, over the step)
        // is in every difference of the sequence too, beyond the bound the tableau gives.
        let ridders_pass =
            converged && (t - r).abs() <= TOL_FD * rbig + 10.0 * rerr + round.min(1e-4 * rbig);
        let (shown, shown_err) = if converged && !classic_pass {
            (r, rerr)
        } else {
            (fd, estimate)
        };
        // A smooth derivative changes linearly over [x-h, x+h] up to O(h²): its second
        // difference there is far below the tolerance. When it is not, the derivative
        // oscillates or jumps inside the step (a kink, `sin` of a huge argument) and no
        // divided difference, however it converges, can be compared to it.
        let rough = around.is_some_and(|(tp, tm)| {
            (tp + tm - 2.0 * t).abs() > TOL_FD * t.abs().max(tp.abs()).max(tm.abs())
        });
        // The differences at h and 2h agreeing is convergence too, at the scale that matters:
        // Ridders' large steps may leave the region where the function is smooth (a clamp, a
        // branch a little away) while the tangent is wrong at the point (a zero tangent
        // against differences of 0.6 at both steps was INCONCLUSIVE, not FAIL).
        let classic_converged = estimate <= CONVERGED * big;
        let status = if classic_pass || ridders_pass {
            Status::Pass
        } else if rough {
            Status::Inconclusive
        } else if converged || classic_converged {
            Status::Fail
        } else {
            Status::Inconclusive
        };
        Element {
            label,
            tangent,
            fd: shown,
            estimate: shown_err,
            status,
        }
    }

    /// |ẏ − Δy/Δx| relative to the larger of the two.
    pub fn rel_error(&self) -> f64 {
        let d = (self.tangent - self.fd).abs();
        if d == 0.0 {
            0.0
        } else {
            d / self.tangent.abs().max(self.fd.abs())
        }
    }
}

/// The checks of one dependent variable.
#[derive(Clone, Debug)]
pub struct Dependent {
    pub name: String,
    pub elements: Vec<Element>,
}

impl Dependent {
    /// The worst status of its elements.
    pub fn status(&self) -> Status {
        self.elements
            .iter()
            .map(|e| e.status)
            .max()
            .unwrap_or(Status::Pass)
    }
    pub fn pass(&self) -> bool {
        self.status() == Status::Pass
    }
    /// The element with the worst status and, among those, the largest relative error.
    pub fn worst(&self) -> Option<&Element> {
        self.elements.iter().max_by(|a, b| {
            (a.status, a.rel_error())
                .partial_cmp(&(b.status, b.rel_error()))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }
}

/// The dot-product test.
#[derive(Clone, Debug)]
pub struct DotProduct {
    /// ⟨ẏ, ȳ⟩ from the tangent (ȳ = ẏ·`ybar_scale`).
    pub ydot_ydot: f64,
    /// The factor on ȳ = ẏ: 1, or 1/max|ẏ| when ⟨ẏ, ẏ⟩ would overflow.
    pub ybar_scale: f64,
    /// ⟨ẋ, x̄⟩ from the adjoint with ȳ = ẏ.
    pub xdot_xbar: f64,
    /// Bytes on the runtime stack after `f_b` returned.
    pub stack_after: f64,
    /// With several dependents: (dependent, ⟨ẏ_j, ẏ_j⟩, ⟨ẋ, x̄⟩ with ȳ on dependent j only,
    /// stack bytes after that run).
    pub per_dependent: Vec<(String, f64, f64, f64)>,
    /// The relative tolerance: [`TOL_DOT`], or [`TOL_DOT_SINGLE`] for a program computing in
    /// single precision.
    pub tol: f64,
    /// An MPI program's ranks (issue 46): ȳ is the driver's fixed weights on every rank,
    /// and both products are summed over the ranks.
    pub ranks: Option<u32>,
}

impl DotProduct {
    pub fn rel_error(&self) -> f64 {
        let d = (self.ydot_ydot - self.xdot_xbar).abs();
        if d == 0.0 {
            0.0
        } else {
            d / self.ydot_ydot.abs().max(self.xdot_xbar.abs())
        }
    }
    pub fn pass(&self) -> bool {
        self.rel_error() <= self.tol && self.stack_after == 0.0 && self.failing().is_empty()
    }

    /// Dependents whose own dot-product test fails.
    pub fn failing(&self) -> Vec<&str> {
        let scale = self.ydot_ydot.abs();
        self.per_dependent
            .iter()
            .filter(|(_, a, b, st)| !dot_close(*a, *b, scale, self.tol) || *st != 0.0)
            .map(|(n, ..)| n.as_str())
            .collect()
    }
}

/// Whether the two sides of a dot-product test agree: relative to their size, or (for a
/// dependent that barely depends on the independents) to the whole test's size.
fn dot_close(a: f64, b: f64, scale: f64, tol: f64) -> bool {
    let d = (a - b).abs();
    d <= tol * a.abs().max(b.abs()) || d <= 1e-4 * tol * scale
}

/// The outcome of the checks.
#[derive(Clone, Debug)]
pub struct Report {
    /// What the driver took differently from what it was told (`-size` on a real scalar).
    pub warnings: Vec<String>,
    pub head: String,
    pub tangent_name: String,
    pub adjoint_name: Option<String>,
    pub seed: u64,
    /// Divided-difference step along ẋ.
    pub step: f64,
    pub dependents: Vec<Dependent>,
    pub dot: Option<DotProduct>,
}

impl Report {
    /// Whether the tangent is zero on every dependent element (nothing is proven).
    pub fn zero_tangent(&self) -> bool {
        self.dependents
            .iter()
            .flat_map(|d| &d.elements)
            .all(|e| e.tangent == 0.0)
    }

    /// The verdict: NON-FINITE (an input problem) before FAIL before INCONCLUSIVE.
    pub fn verdict(&self) -> Status {
        let tangent = self
            .dependents
            .iter()
            .map(Dependent::status)
            .max()
            .unwrap_or(Status::Pass);
        let dot = match &self.dot {
            Some(d) if !(d.ydot_ydot.is_finite() && d.xdot_xbar.is_finite()) => Status::NonFinite,
            Some(d) if !d.pass() => Status::Fail,
            _ => Status::Pass,
        };
        let zero = if self.zero_tangent() {
            Status::Inconclusive
        } else {
            Status::Pass
        };
        tangent.max(dot).max(zero)
    }

    pub fn pass(&self) -> bool {
        self.verdict() == Status::Pass
    }

    /// The dependents whose tangent disagrees with converged divided differences.
    pub fn failing_dependents(&self) -> Vec<&str> {
        self.with_status(Status::Fail)
    }

    /// The dependents whose worst element has status `s`.
    pub fn with_status(&self, s: Status) -> Vec<&str> {
        self.dependents
            .iter()
            .filter(|d| d.status() == s)
            .map(|d| d.name.as_str())
            .collect()
    }

    /// The human-readable report.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "tangent {} vs central divided differences (seed {}, step {:.2e} along xdot):",
            self.tangent_name, self.seed, self.step
        );
        let _ = writeln!(
            s,
            "  {:<14} {:>5}  {:<14} {:>24} {:>24} {:>9} {:>9}  result",
            "dependent", "elems", "worst at", "tangent", "divided diff", "rel.err", "estimate"
        );
        for d in &self.dependents {
            let Some(w) = d.worst() else { continue };
            let est = if w.fd != 0.0 || w.tangent != 0.0 {
                w.estimate / w.fd.abs().max(w.tangent.abs())
            } else {
                0.0
            };
            let _ = writeln!(
                s,
                "  {:<14} {:>5}  {:<14} {:>24.16e} {:>24.16e} {:>9.2e} {:>9.2e}  {}",
                d.name,
                d.elements.len(),
                w.label,
                w.tangent,
                w.fd,
                w.rel_error(),
                est,
                d.status().word()
            );
            if !d.pass() {
                let bad = d
                    .elements
                    .iter()
                    .filter(|e| e.status != Status::Pass)
                    .count();
                let how = match d.status() {
                    Status::Fail => "differ",
                    Status::Inconclusive => "have divided differences that do not converge",
                    _ => "are not finite",
                };
                let _ = writeln!(
                    s,
                    "  {:<14} {bad} of {} elements {how}",
                    "",
                    d.elements.len()
                );
            }
        }
        let _ = writeln!(
            s,
            "  tolerance: relative error <= {TOL_FD:.0e} + the estimated error of the differences (truncation from step 2h, rounding; or Ridders' extrapolation over {RIDDERS_STEPS} steps)"
        );
        match (&self.dot, &self.adjoint_name) {
            (Some(dp), Some(name)) => {
                if let Some(np) = dp.ranks {
                    let _ = writeln!(
                        s,
                        "dot-product test, adjoint {name} on {np} MPI ranks, with ybar = fixed weights on every rank, both products summed over the ranks (<ydot, ydot> below means <ydot, ybar>):"
                    );
                } else if dp.ybar_scale == 1.0 {
                    let _ = writeln!(s, "dot-product test, adjoint {name} with ybar = ydot:");
                } else {
                    let _ = writeln!(
                        s,
                        "dot-product test, adjoint {name} with ybar = ydot * {:.3e} (scaled so the products do not overflow; <ydot, ydot> below means <ydot, ybar>):",
                        dp.ybar_scale
                    );
                }
                let _ = writeln!(s, "  <ydot, ydot> = {:>24.16e}", dp.ydot_ydot);
                let _ =
                    writeln!(
                    s,
                    "  <xdot, xbar> = {:>24.16e}   relative error {:.2e} (tolerance {:.0e}{})  {}",
                    dp.xdot_xbar,
                    dp.rel_error(),
                    dp.tol,
                    if dp.tol > TOL_DOT {
                        ": the program computes in single precision"
                    } else {
                        ""
                    },
                    if dp.rel_error() <= dp.tol { "PASS" } else { "FAIL" }
                );
                let _ = writeln!(
                    s,
                    "  runtime stack after {name} returns: {} bytes  {}",
                    dp.stack_after,
                    if dp.stack_after == 0.0 {
                        "PASS"
                    } else {
                        "FAIL (pushes and pops do not match)"
                    }
                );
                if !dp.per_dependent.is_empty() {
                    let _ = writeln!(s, "  per dependent (ybar = ydot on it alone):");
                    let scale = dp.ydot_ydot.abs();
                    for (n, a, b, st) in &dp.per_dependent {
                        let ok = dot_close(*a, *b, scale, dp.tol) && *st == 0.0;
                        let rel = if a == b {
                            0.0
                        } else {
                            (a - b).abs() / a.abs().max(b.abs())
                        };
                        let _ = writeln!(
                            s,
                            "    {n:<14} {a:>24.16e} {b:>24.16e}  {rel:.2e}  {}",
                            if ok { "PASS" } else { "FAIL" }
                        );
                    }
                }
            }
            _ if self.verdict() == Status::NonFinite => {
                let _ = writeln!(s, "dot-product test: not run (values that are not finite)");
            }
            _ => {
                let _ = writeln!(s, "dot-product test: not run (no adjoint)");
            }
        }
        if self.zero_tangent() {
            let _ = writeln!(
                s,
                "note: the tangent is zero on every dependent: they do not depend on the independents at these inputs, so nothing is proven"
            );
        }
        let _ = writeln!(s, "{}", self.verdict().word());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn central(f: impl Fn(f64) -> f64, x: f64) -> Vec<f64> {
        ridders_steps(f64::EPSILON.cbrt())
            .iter()
            .map(|h| (f(x + h) - f(x - h)) / (2.0 * h))
            .collect()
    }

    #[test]
    fn ridders_converges_on_a_smooth_function() {
        let (v, e) = ridders(&central(f64::sin, 1.0));
        assert!((v - 1f64.cos()).abs() < 1e-12, "{v} {e}");
        assert!(e < 1e-10, "{e}");
    }

    #[test]
    fn ridders_does_not_converge_where_the_function_oscillates_faster_than_any_step() {
        let (_, e) = ridders(&central(|x| (1e9 * x).sin(), 1.0));
        assert!(e > CONVERGED, "{e}");
    }

    #[test]
    fn statuses() {
        let d = central(f64::sin, 1.0);
        let c = 1f64.cos();
        let el = |t: f64, p: &[f64]| Element::check("y".into(), t, p, (c, c, 0.0), &d, None).status;
        assert_eq!(el(c, &[1.0]), Status::Pass);
        assert_eq!(el(-c, &[1.0]), Status::Fail);
        assert_eq!(el(c, &[f64::INFINITY]), Status::NonFinite);
        let noisy = central(|x| (1e9 * x).sin(), 1.0);
        let e = Element::check("y".into(), 3.0, &[1.0], (1.0, 2.0, 0.0), &noisy, None);
        assert_eq!(e.status, Status::Inconclusive);
        // Ridders does not converge, but the differences at h and 2h agree: a zero tangent
        // against them is wrong.
        let e = Element::check("y".into(), 0.0, &[1.0], (0.6, 0.6, 1e-12), &noisy, None);
        assert_eq!(e.status, Status::Fail);
        let e = Element::check("y".into(), 0.6, &[1.0], (0.6, 0.6, 1e-12), &noisy, None);
        assert_eq!(e.status, Status::Pass);
        // Converged differences, but a derivative that jumps inside the step.
        let e = Element::check("y".into(), -c, &[1.0], (c, c, 0.0), &d, Some((c, -c)));
        assert_eq!(e.status, Status::Inconclusive);
        let e = Element::check("y".into(), -c, &[1.0], (c, c, 0.0), &d, Some((-c, -c)));
        assert_eq!(e.status, Status::Fail);
        // Large steps outside the domain: the finite tail still decides.
        let mut out_of_domain = d.clone();
        out_of_domain[0] = f64::NAN;
        out_of_domain[1] = f64::INFINITY;
        let e = Element::check("y".into(), -c, &[1.0], (c, c, 0.0), &out_of_domain, None);
        assert_eq!(e.status, Status::Fail);
        let e = Element::check("y".into(), c, &[1.0], (0.0, 0.0, 0.0), &out_of_domain, None);
        assert_eq!(e.status, Status::Pass);
        // Ridders' large steps cross a jump a little away (`if (t > 352)` at t = 351): its
        // error bound is of the size of the value, and a tangent 3 times the differences at
        // h (which agree with 2h only loosely here) is not vouched for by it.
        let jump = |x: f64| if x > 352.0 { x - 300.0 } else { 2.0 * x };
        let across: Vec<f64> = ridders_steps(f64::EPSILON.cbrt() * 351.0)
            .iter()
            .map(|h| (jump(351.0 + h) - jump(351.0 - h)) / (2.0 * h))
            .collect();
        let e = Element::check(
            "y".into(),
            6.0,
            &[702.0],
            (2.0, 2.0 + 1e-3, 0.0),
            &across,
            None,
        );
        assert_ne!(e.status, Status::Pass, "{e:?}");
    }
}
