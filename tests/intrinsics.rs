//! Every spelling of every record of the vocabulary with a derivative rule
//! (`radtap_il::vocab::ROUTINES`), proven numerically in Fortran and in C (`double`, `float`
//! and `long double`).
//!
//! For each language one head `intrinsics(n, x, y)` is generated from the case lists below:
//! every case sets one dependent from its own elements of `x` (`y(7) = atan2(x(13), x(14))`),
//! so one tangent run along a direction `xd` (distinct value per element) and central
//! differences `(y(x + h·xd) - y(x - h·xd)) / 2h` check all cases at once. Proven, per case:
//! - the tangent matches central finite differences: double precision with h = 1e-6 to 1e-6
//!   relative; single-precision spellings (`alog`, `amin1`, `sngl`, C `sinf`, `powf`, …) with
//!   h = 1e-2 to 1e-3 relative, since float rounding divided by the step limits the accuracy of
//!   the difference quotient;
//! - the derivative is not zero at the chosen point, so the comparison proves something;
//! - non-differentiable intrinsics (`floor`, `nint`, …, `float` of an integer) contribute
//!   nothing: `x*floor(x)` has the derivative `floor(x)*ẋ`.
//!
//! And per language: every spelling of every table row is exercised by a case or listed in
//! `SKIPPED` with a reason. Inputs lie inside each function's smooth domain, away from the
//! kinks of `abs`, `sign`, `mod`; `min`/`max` select a clearly distinct argument, at varying
//! positions and arities; `maxval`/`minval` have a unique extremum.
//!
//! On failure the work directory (program, generated code, driver) is kept and its path printed.

use radtap::{execute, normalize_args, Cli};
use radtap_il::vocab::{Routine, ROUTINES};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    Fortran,
    C,
}

impl Lang {
    fn label(self) -> &'static str {
        match self {
            Lang::Fortran => "fortran",
            Lang::C => "c",
        }
    }

    fn ext(self) -> &'static str {
        match self {
            Lang::Fortran => "f90",
            Lang::C => "c",
        }
    }

    fn cases(self) -> &'static [Case] {
        match self {
            Lang::Fortran => FORTRAN,
            Lang::C => C,
        }
    }

    fn spellings(self, row: &Routine) -> Vec<String> {
        match self {
            Lang::Fortran => row.fortran.iter().map(|n| n.to_string()).collect(),
            Lang::C => row.c_spellings(),
        }
    }
}

/// The precision a case computes in, which sets the finite-difference step and tolerance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prec {
    Double,
    Single,
}

impl Prec {
    /// Index of the difference quotient in the driver's output (steps in `STEPS`).
    fn step_index(self) -> usize {
        match self {
            Prec::Double => 0,
            Prec::Single => 1,
        }
    }

    /// Relative tolerance between tangent and finite differences.
    fn tolerance(self) -> f64 {
        match self {
            Prec::Double => 1e-6,
            Prec::Single => 1e-3,
        }
    }
}

/// Finite-difference steps: double-precision cases, single-precision cases.
const STEPS: [f64; 2] = [1e-6, 1e-2];

/// Smallest |derivative| accepted at a case's point.
const NONZERO: f64 = 1e-3;

/// One dependent of the generated head.
struct Case {
    /// The spelling covered (a table spelling, or a non-differentiable intrinsic).
    name: &'static str,
    /// Fortran local arrays, `name@(dims) = value`: declared `real(8)` and assigned before the
    /// case; `@` becomes the case number.
    locals: &'static [&'static str],
    /// The expression: `{i}` is input `i`, `{i:j}` the Fortran section of inputs `i..=j`, `@`
    /// the case number.
    expr: &'static str,
    /// Values of the inputs.
    inputs: &'static [f64],
    prec: Prec,
}

/// A double-precision case.
const fn d(name: &'static str, expr: &'static str, inputs: &'static [f64]) -> Case {
    Case {
        name,
        locals: &[],
        expr,
        inputs,
        prec: Prec::Double,
    }
}

/// A single-precision case.
const fn s(name: &'static str, expr: &'static str, inputs: &'static [f64]) -> Case {
    Case {
        name,
        locals: &[],
        expr,
        inputs,
        prec: Prec::Single,
    }
}

/// A double-precision Fortran case with local arrays.
const fn l(
    name: &'static str,
    locals: &'static [&'static str],
    expr: &'static str,
    inputs: &'static [f64],
) -> Case {
    Case {
        name,
        locals,
        expr,
        inputs,
        prec: Prec::Double,
    }
}

/// Spellings not tested, with the reason. A case may exist for a skipped spelling (it is left
/// out of the program): delete the line here once radtap is fixed.
const SKIPPED: &[(Lang, &str, &str)] = &[];

const FORTRAN: &[Case] = &[
    d("sin", "sin({0})", &[0.7]),
    d("dsin", "dsin({0})", &[-0.4]),
    d("cos", "cos({0})", &[0.7]),
    d("dcos", "dcos({0})", &[1.1]),
    d("tan", "tan({0})", &[0.6]),
    d("dtan", "dtan({0})", &[-0.3]),
    d("asin", "asin({0})", &[0.4]),
    d("dasin", "dasin({0})", &[-0.6]),
    d("acos", "acos({0})", &[0.3]),
    d("dacos", "dacos({0})", &[-0.5]),
    d("atan", "atan({0})", &[0.8]),
    d("datan", "datan({0})", &[-1.7]),
    d("atan2", "atan2({0}, {1})", &[0.9, 1.3]),
    d("atan2", "atan2({0}, {1})", &[0.9, -1.3]),
    d("datan2", "datan2({0}, {1})", &[-0.4, 0.7]),
    d("sinh", "sinh({0})", &[0.6]),
    d("dsinh", "dsinh({0})", &[-0.8]),
    d("cosh", "cosh({0})", &[0.8]),
    d("dcosh", "dcosh({0})", &[-0.5]),
    d("tanh", "tanh({0})", &[0.5]),
    d("dtanh", "dtanh({0})", &[-0.9]),
    d("asinh", "asinh({0})", &[0.7]),
    d("dasinh", "dasinh({0})", &[-1.2]),
    d("acosh", "acosh({0})", &[1.6]),
    d("dacosh", "dacosh({0})", &[2.5]),
    d("atanh", "atanh({0})", &[0.4]),
    d("datanh", "datanh({0})", &[-0.6]),
    d("exp", "exp({0})", &[0.6]),
    d("dexp", "dexp({0})", &[-1.3]),
    d("log", "log({0})", &[1.7]),
    s("alog", "alog(sngl({0}))", &[2.6]),
    d("dlog", "dlog({0})", &[0.4]),
    d("log10", "log10({0})", &[2.3]),
    s("alog10", "alog10(sngl({0}))", &[3.4]),
    d("dlog10", "dlog10({0})", &[0.8]),
    d("sqrt", "sqrt({0})", &[1.9]),
    d("dsqrt", "dsqrt({0})", &[0.6]),
    d("abs", "abs({0})", &[-0.8]),
    d("dabs", "dabs({0})", &[1.3]),
    d("sign", "sign({0}, {1})", &[0.7, -1.2]),
    d("sign", "sign({0}, {1})", &[-0.7, 1.2]),
    d("dsign", "dsign({0}, {1})", &[-1.1, -0.4]),
    d("min", "min({0}, {1})", &[0.9, 0.4]),
    d("min", "min({0}, {1}, {2})", &[1.2, 0.3, 0.8]),
    d("min", "min({0}, {1}, {2}, {3})", &[0.5, 0.9, 0.7, -0.2]),
    s("amin1", "amin1(sngl({0}), sngl({1}))", &[0.4, 0.9]),
    s(
        "amin1",
        "amin1(sngl({0}), sngl({1}), sngl({2}))",
        &[1.1, 0.8, 0.2],
    ),
    d("dmin1", "dmin1({0}, {1})", &[1.5, -0.5]),
    d("dmin1", "dmin1({0}, {1}, {2})", &[0.3, 0.6, 0.9]),
    d("max", "max({0}, {1})", &[0.4, 0.9]),
    d("max", "max({0}, {1}, {2})", &[0.3, 1.2, 0.8]),
    d("max", "max({0}, {1}, {2}, {3})", &[1.5, 0.9, 0.7, -0.2]),
    s("amax1", "amax1(sngl({0}), sngl({1}))", &[0.9, 0.4]),
    s(
        "amax1",
        "amax1(sngl({0}), sngl({1}), sngl({2}))",
        &[0.2, 0.8, 1.1],
    ),
    d("dmax1", "dmax1({0}, {1})", &[-0.5, 1.5]),
    d("dmax1", "dmax1({0}, {1}, {2})", &[0.9, 0.6, 0.3]),
    d("mod", "mod({0}, {1})", &[5.3, 1.7]),
    d("mod", "mod({0}, {1})", &[-5.3, 1.7]),
    s("amod", "amod(sngl({0}), sngl({1}))", &[4.1, 1.3]),
    d("dmod", "dmod({0}, {1})", &[2.9, -0.8]),
    d("hypot", "hypot({0}, {1})", &[0.8, 1.5]),
    d("erf", "erf({0})", &[0.6]),
    d("derf", "derf({0})", &[-0.3]),
    d("erfc", "erfc({0})", &[0.5]),
    d("derfc", "derfc({0})", &[1.1]),
    d("gamma", "gamma({0})", &[2.7]),
    d("gamma", "gamma({0})", &[0.6]),
    d("dgamma", "dgamma({0})", &[1.8]),
    d("log_gamma", "log_gamma({0})", &[3.4]),
    d("lgamma", "lgamma({0})", &[0.7]),
    d("dlgama", "dlgama({0})", &[2.6]),
    s("algama", "algama(sngl({0}))", &[1.9]),
    d("dble", "dble({0})", &[0.9]),
    d("real", "real({0}, 8)", &[1.2]),
    s("real", "real({0})", &[-0.7]),
    s("sngl", "sngl({0})", &[1.3]),
    // Integer arguments: nothing to seed, the result is a constant factor.
    d("float", "{0} * float(nint({1}))", &[0.9, 3.2]),
    d("dfloat", "{0} * dfloat(int({1}))", &[1.1, 2.6]),
    // Arrays: sections and small matrices built from inputs; weights make a misplaced
    // element visible in the scalar result.
    d(
        "sum",
        "sum({0:2} * {3:5})",
        &[0.3, -0.2, 0.9, 1.4, 0.6, -1.1],
    ),
    d("product", "product({0:3})", &[1.2, -0.7, 0.9, 1.5]),
    d("norm2", "norm2({0:2})", &[0.8, -1.3, 0.4]),
    d("norm2", "norm2({0:1} - {2:3})", &[1.5, 0.2, -0.4, 0.9]),
    s("dprod", "dprod(real({0}), real({1}))", &[1.3, -0.6]),
    d("ddim", "ddim({0}, {1})", &[1.3, 0.4]),
    // A zero element (the derivative was product(x)/x: 0/0, NaN).
    d("product", "product({0:2})", &[2.0, 0.0, 3.0]),
    d(
        "dot_product",
        "dot_product({0:2}, {3:5})",
        &[0.5, 1.3, -0.8, 0.7, -0.4, 1.1],
    ),
    d(
        "matmul",
        "sum(matmul(reshape({0:5}, [2, 3]), reshape({6:11}, [3, 2])) \
         * reshape([1.0d0, 2.0d0, 3.0d0, 4.0d0], [2, 2]))",
        &[
            0.3, 0.8, -0.5, 1.2, 0.7, -0.9, 1.1, 0.4, -0.6, 0.2, 0.9, -1.3,
        ],
    ),
    d(
        "matmul",
        "dot_product(matmul(reshape({0:5}, [2, 3]), {6:8}), [1.0d0, -2.0d0])",
        &[0.3, 0.8, -0.5, 1.2, 0.7, -0.9, 1.1, 0.4, -0.6],
    ),
    d(
        "transpose",
        "sum(transpose(reshape({0:5}, [2, 3])) * reshape({6:11}, [3, 2]))",
        &[
            0.3, 0.8, -0.5, 1.2, 0.7, -0.9, 1.1, 0.4, -0.6, 0.2, 0.9, -1.3,
        ],
    ),
    d(
        "spread",
        "sum(spread({0:1}, 2, 3) * reshape({2:7}, [2, 3]))",
        &[0.6, -1.4, 0.3, 0.8, -0.5, 1.2, 0.7, -0.9],
    ),
    d(
        "reshape",
        "sum(reshape({0:5}, [3, 2]) * reshape([1.0d0, 2.0d0, 3.0d0, 4.0d0, 5.0d0, 6.0d0], [3, 2]))",
        &[0.3, 0.8, -0.5, 1.2, 0.7, -0.9],
    ),
    l(
        "maxval",
        &["v@(4) = {0:3}"],
        "maxval(v@)",
        &[0.2, 1.3, -0.4, 0.8],
    ),
    l(
        "maxval",
        &["a@(2, 3) = reshape({0:5}, [2, 3])"],
        "maxval(a@)",
        &[0.2, 0.5, -0.4, 1.6, 0.8, 1.1],
    ),
    d("maxval", "maxval({0:3})", &[0.7, -0.3, 1.4, 0.2]),
    d(
        "maxval",
        "maxval({0:2} * {3:5})",
        &[0.7, -0.3, 1.4, 1.2, 0.9, 0.5],
    ),
    l(
        "minval",
        &["v@(4) = {0:3}"],
        "minval(v@)",
        &[0.2, -1.3, 0.4, 0.8],
    ),
    l(
        "minval",
        &["a@(2, 3) = reshape({0:5}, [2, 3])"],
        "minval(a@)",
        &[0.2, 0.5, -0.4, 1.6, -0.8, 1.1],
    ),
    d("minval", "minval({0:3})", &[0.7, -0.3, 1.4, 0.2]),
    d(
        "minval",
        "minval(reshape({0:5}, [2, 3]))",
        &[0.2, 0.5, -0.4, 1.6, -0.8, 1.1],
    ),
    // Not differentiable: zero contribution.
    d("int", "{0} * int({0})", &[2.3]),
    d("nint", "{0} * nint({0})", &[1.8]),
    d("floor", "{0} * floor({0})", &[-1.4]),
    d("ceiling", "{0} * ceiling({0})", &[1.3]),
    d("aint", "{0} * aint({0})", &[-2.6]),
    d("anint", "{0} * anint({0})", &[2.7]),
];

const C: &[Case] = &[
    d("sin", "sin({0})", &[0.7]),
    s("sinf", "sinf({0})", &[-0.4]),
    d("cos", "cos({0})", &[0.7]),
    s("cosf", "cosf({0})", &[1.1]),
    d("tan", "tan({0})", &[0.6]),
    s("tanf", "tanf({0})", &[-0.3]),
    d("asin", "asin({0})", &[0.4]),
    s("asinf", "asinf({0})", &[0.4]),
    d("acos", "acos({0})", &[0.3]),
    s("acosf", "acosf({0})", &[0.3]),
    d("atan", "atan({0})", &[0.8]),
    s("atanf", "atanf({0})", &[0.8]),
    d("atan2", "atan2({0}, {1})", &[0.9, 1.3]),
    s("atan2f", "atan2f({0}, {1})", &[0.9, 1.3]),
    d("atan2", "atan2({0}, {1})", &[0.9, -1.3]),
    d("sinh", "sinh({0})", &[0.6]),
    s("sinhf", "sinhf({0})", &[0.6]),
    d("cosh", "cosh({0})", &[0.8]),
    s("coshf", "coshf({0})", &[0.8]),
    d("tanh", "tanh({0})", &[0.5]),
    s("tanhf", "tanhf({0})", &[0.5]),
    d("asinh", "asinh({0})", &[0.7]),
    s("asinhf", "asinhf({0})", &[0.7]),
    d("acosh", "acosh({0})", &[1.6]),
    s("acoshf", "acoshf({0})", &[1.6]),
    d("atanh", "atanh({0})", &[0.4]),
    s("atanhf", "atanhf({0})", &[0.4]),
    d("exp", "exp({0})", &[0.6]),
    s("expf", "expf({0})", &[-1.3]),
    d("exp2", "exp2({0})", &[0.9]),
    s("exp2f", "exp2f({0})", &[0.9]),
    d("expm1", "expm1({0})", &[-0.4]),
    s("expm1f", "expm1f({0})", &[-0.4]),
    d("log", "log({0})", &[1.7]),
    s("logf", "logf({0})", &[0.4]),
    d("log10", "log10({0})", &[2.3]),
    s("log10f", "log10f({0})", &[2.3]),
    d("log2", "log2({0})", &[0.7]),
    s("log2f", "log2f({0})", &[0.7]),
    d("log1p", "log1p({0})", &[-0.3]),
    s("log1pf", "log1pf({0})", &[-0.3]),
    d("sqrt", "sqrt({0})", &[1.9]),
    s("sqrtf", "sqrtf({0})", &[0.6]),
    d("cbrt", "cbrt({0})", &[-1.6]),
    s("cbrtf", "cbrtf({0})", &[-1.6]),
    d("pow", "pow({0}, {1})", &[1.7, 0.8]),
    s("powf", "powf({0}, {1})", &[0.6, 2.3]),
    d("fabs", "fabs({0})", &[-0.8]),
    s("fabsf", "fabsf({0})", &[1.3]),
    d("copysign", "copysign({0}, {1})", &[0.7, -1.2]),
    s("copysignf", "copysignf({0}, {1})", &[0.7, -1.2]),
    d("copysign", "copysign({0}, {1})", &[-0.7, 1.2]),
    d("fmin", "fmin({0}, {1})", &[0.9, 0.4]),
    s("fminf", "fminf({0}, {1})", &[0.9, 0.4]),
    d("fmin", "fmin(fmin({0}, {1}), {2})", &[1.2, 0.3, 0.8]),
    d("fmin", "fmin({0}, fmin({1}, {2}))", &[-0.2, 0.9, 0.7]),
    d("fmax", "fmax({0}, {1})", &[0.4, 0.9]),
    s("fmaxf", "fmaxf({0}, {1})", &[0.4, 0.9]),
    d("fmax", "fmax(fmax({0}, {1}), {2})", &[0.3, 1.2, 0.8]),
    d("fmax", "fmax({0}, fmax({1}, {2}))", &[1.5, 0.9, 0.7]),
    d("fmod", "fmod({0}, {1})", &[5.3, 1.7]),
    s("fmodf", "fmodf({0}, {1})", &[5.3, 1.7]),
    d("fmod", "fmod({0}, {1})", &[-5.3, 1.7]),
    d("hypot", "hypot({0}, {1})", &[0.8, 1.5]),
    s("hypotf", "hypotf({0}, {1})", &[0.8, 1.5]),
    d("erf", "erf({0})", &[0.6]),
    s("erff", "erff({0})", &[0.6]),
    d("erfc", "erfc({0})", &[0.5]),
    s("erfcf", "erfcf({0})", &[0.5]),
    d("tgamma", "tgamma({0})", &[2.7]),
    s("tgammaf", "tgammaf({0})", &[2.7]),
    d("tgamma", "tgamma({0})", &[0.6]),
    d("lgamma", "lgamma({0})", &[3.4]),
    s("lgammaf", "lgammaf({0})", &[3.4]),
    // `long double` spellings, at double-precision steps and tolerance.
    d("sinl", "sinl({0})", &[0.7]),
    d("cosl", "cosl({0})", &[0.7]),
    d("tanl", "tanl({0})", &[0.6]),
    d("asinl", "asinl({0})", &[0.4]),
    d("acosl", "acosl({0})", &[0.3]),
    d("atanl", "atanl({0})", &[0.8]),
    d("atan2l", "atan2l({0}, {1})", &[0.9, -1.3]),
    d("sinhl", "sinhl({0})", &[0.6]),
    d("coshl", "coshl({0})", &[0.8]),
    d("tanhl", "tanhl({0})", &[0.5]),
    d("asinhl", "asinhl({0})", &[0.7]),
    d("acoshl", "acoshl({0})", &[1.6]),
    d("atanhl", "atanhl({0})", &[0.4]),
    d("expl", "expl({0})", &[0.6]),
    d("exp2l", "exp2l({0})", &[0.9]),
    d("expm1l", "expm1l({0})", &[-0.4]),
    d("logl", "logl({0})", &[1.7]),
    d("log10l", "log10l({0})", &[2.3]),
    d("log2l", "log2l({0})", &[0.7]),
    d("log1pl", "log1pl({0})", &[-0.3]),
    d("sqrtl", "sqrtl({0})", &[1.9]),
    d("cbrtl", "cbrtl({0})", &[-1.6]),
    d("powl", "powl({0}, {1})", &[1.7, 0.8]),
    d("fabsl", "fabsl({0})", &[-0.8]),
    d("copysignl", "copysignl({0}, {1})", &[0.7, -1.2]),
    d("fminl", "fminl({0}, {1})", &[0.9, 0.4]),
    d("fmaxl", "fmaxl({0}, {1})", &[0.4, 0.9]),
    d("fmodl", "fmodl({0}, {1})", &[5.3, 1.7]),
    d("hypotl", "hypotl({0}, {1})", &[0.8, 1.5]),
    d("erfl", "erfl({0})", &[0.6]),
    d("erfcl", "erfcl({0})", &[0.5]),
    d("tgammal", "tgammal({0})", &[2.7]),
    d("lgammal", "lgammal({0})", &[3.4]),
    // C99 records added through the vocabulary: `double`, `float`, `long double`.
    d("fdim", "fdim({0}, {1})", &[1.7, 0.6]),
    d("fdim", "{0} + fdim({0}, {1})", &[0.6, 1.7]),
    s("fdimf", "fdimf({0}, {1})", &[1.7, 0.6]),
    d("fdiml", "fdiml({0}, {1})", &[1.9, -0.6]),
    d("fma", "fma({0}, {1}, {2})", &[0.7, -1.3, 0.4]),
    s("fmaf", "fmaf({0}, {1}, {2})", &[0.7, -1.3, 0.4]),
    d("fmal", "fmal({0}, {1}, {2})", &[1.1, 0.8, -0.3]),
    d("remainder", "remainder({0}, {1})", &[5.3, 1.7]),
    d("remainder", "remainder({0}, {1})", &[-4.1, 1.5]),
    s("remainderf", "remainderf({0}, {1})", &[5.3, 1.7]),
    d("remainderl", "remainderl({0}, {1})", &[5.3, 1.7]),
    d("ldexp", "ldexp({0}, 3)", &[0.7]),
    s("ldexpf", "ldexpf({0}, -2)", &[1.3]),
    d("ldexpl", "ldexpl({0}, 5)", &[-0.6]),
    d("scalbn", "scalbn({0}, 2)", &[0.9]),
    s("scalbnf", "scalbnf({0}, 3)", &[1.1]),
    d("scalbnl", "scalbnl({0}, -1)", &[0.4]),
    d("scalbln", "scalbln({0}, 4L)", &[0.3]),
    s("scalblnf", "scalblnf({0}, 1L)", &[1.6]),
    d("scalblnl", "scalblnl({0}, -3L)", &[2.2]),
    // Not differentiable: zero contribution.
    d("floor", "{0} * floor({0})", &[-1.4]),
    d("ceil", "{0} * ceil({0})", &[1.3]),
    d("trunc", "{0} * trunc({0})", &[-2.6]),
    d("round", "{0} * round({0})", &[2.7]),
];

/// A case placed in the generated program.
struct Placed {
    case: &'static Case,
    /// 1-based index of its dependent.
    y: usize,
    /// The expression as generated.
    text: String,
}

/// The direction of element `i` (1-based): distinct values in [0.25, 1).
fn direction(i: usize) -> f64 {
    0.25 + 0.75 * (i as f64 * 0.618_033_988_749_895).fract()
}

/// `template` with inputs numbered from `base` (1-based) and `@` replaced by `k`.
fn fill(template: &str, lang: Lang, base: usize, n_inputs: usize, k: usize) -> String {
    let elem = |s: &str| {
        let i: usize = s.trim().parse().expect("input number in template");
        assert!(i < n_inputs, "`{template}` uses input {i} of {n_inputs}");
        base + i
    };
    let mut out = String::new();
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let j = i + rest[i..].find('}').expect("closing brace in template");
        let spec = &rest[i + 1..j];
        out.push_str(&match (lang, spec.split_once(':')) {
            (Lang::Fortran, None) => format!("x({})", elem(spec)),
            (Lang::Fortran, Some((a, b))) => format!("x({}:{})", elem(a), elem(b)),
            (Lang::C, None) => format!("x[{}]", elem(spec) - 1),
            (Lang::C, Some(_)) => panic!("sections are Fortran only: `{template}`"),
        });
        rest = &rest[j + 1..];
    }
    out.push_str(rest);
    out.replace('@', &k.to_string())
}

/// The head `intrinsics(n, x, y)` with every case not skipped, the placed cases and the input
/// values.
fn program(lang: Lang) -> (String, Vec<Placed>, Vec<f64>) {
    let skipped = |name: &str| SKIPPED.iter().any(|s| s.0 == lang && s.1 == name);
    let (mut decls, mut body) = (String::new(), String::new());
    let mut placed = Vec::new();
    let mut x = Vec::new();
    for case in lang.cases().iter().filter(|c| !skipped(c.name)) {
        let k = placed.len() + 1;
        let base = x.len() + 1;
        let n = case.inputs.len();
        x.extend_from_slice(case.inputs);
        let text = fill(case.expr, lang, base, n, k);
        match lang {
            Lang::Fortran => {
                for local in case.locals {
                    let (lhs, rhs) = local.split_once(" = ").expect("local: `a@(dims) = value`");
                    let lhs = fill(lhs, lang, base, n, k);
                    let name = lhs.split('(').next().unwrap_or(&lhs);
                    writeln!(decls, "  real(8) :: {lhs}").unwrap();
                    writeln!(body, "  {name} = {}", fill(rhs, lang, base, n, k)).unwrap();
                }
                writeln!(body, "  y({k}) = {text}").unwrap();
            }
            Lang::C => {
                assert!(case.locals.is_empty(), "locals are Fortran only");
                writeln!(body, "    y[{}] = {text};", k - 1).unwrap();
            }
        }
        placed.push(Placed { case, y: k, text });
    }
    let src = match lang {
        Lang::Fortran => format!(
            "subroutine intrinsics(n, x, y)\n  integer, intent(in) :: n\n  \
             real(8), intent(in) :: x(n)\n  real(8), intent(out) :: y(n)\n\
             {decls}{body}end subroutine intrinsics\n"
        ),
        Lang::C => format!(
            "#include <math.h>\n\nvoid intrinsics(int n, double *x, double *y)\n{{\n{body}}}\n"
        ),
    };
    (src, placed, x)
}

/// A driver printing, for dependents `1..=m`: index, tangent, and the central difference
/// quotient for each step of `STEPS`.
fn driver(lang: Lang, x: &[f64], m: usize) -> String {
    let n = x.len();
    let mut out = String::new();
    match lang {
        Lang::Fortran => {
            let num = |v: f64| format!("{v:e}").replace('e', "d");
            out.push_str("program driver\n  implicit none\n");
            writeln!(out, "  integer, parameter :: n = {n}, m = {m}").unwrap();
            out.push_str("  real(8) :: x(n), xd(n), y(n), yd(n), yp(n), ym(n), fd(m, 2), h(2)\n");
            out.push_str("  integer :: i, j\n");
            writeln!(out, "  h = [{}, {}]", num(STEPS[0]), num(STEPS[1])).unwrap();
            for (i, v) in x.iter().enumerate() {
                let i = i + 1;
                let xd = num(direction(i));
                writeln!(out, "  x({i}) = {}\n  xd({i}) = {xd}", num(*v)).unwrap();
            }
            out.push_str(
                "  call intrinsics_d(n, x, xd, y, yd)\n  \
                 do j = 1, 2\n    \
                 call intrinsics(n, x + h(j)*xd, yp)\n    \
                 call intrinsics(n, x - h(j)*xd, ym)\n    \
                 fd(:, j) = (yp(1:m) - ym(1:m))/(2*h(j))\n  \
                 end do\n  \
                 do i = 1, m\n    \
                 write (*, '(i6, 3es27.17e3)') i, yd(i), fd(i, 1), fd(i, 2)\n  \
                 end do\n\
                 end program driver\n",
            );
        }
        Lang::C => {
            let list = |v: Vec<f64>| {
                v.iter()
                    .map(|v| format!("{v:e}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            out.push_str(
                "#include <stdio.h>\n\n\
                 void intrinsics(int n, double *x, double *y);\n\
                 void intrinsics_d(int n, double *x, double *xd, double *y, double *yd);\n\n",
            );
            writeln!(out, "#define N {n}\n#define M {m}").unwrap();
            let xd = (1..=n).map(direction).collect();
            writeln!(out, "static double x[N] = {{{}}};", list(x.to_vec())).unwrap();
            writeln!(out, "static double xd[N] = {{{}}};", list(xd)).unwrap();
            writeln!(
                out,
                "static const double h[2] = {{{:e}, {:e}}};",
                STEPS[0], STEPS[1]
            )
            .unwrap();
            out.push_str(
                "static double y[N], yd[N], xp[N], xm[N], yp[N], ym[N], fd[2][M];\n\n\
                 int main(void)\n{\n    \
                 int i, j;\n    \
                 intrinsics_d(N, x, xd, y, yd);\n    \
                 for (j = 0; j < 2; j++) {\n        \
                 for (i = 0; i < N; i++) {\n            \
                 xp[i] = x[i] + h[j] * xd[i];\n            \
                 xm[i] = x[i] - h[j] * xd[i];\n        \
                 }\n        \
                 intrinsics(N, xp, yp);\n        \
                 intrinsics(N, xm, ym);\n        \
                 for (i = 0; i < M; i++)\n            \
                 fd[j][i] = (yp[i] - ym[i]) / (2 * h[j]);\n    \
                 }\n    \
                 for (i = 0; i < M; i++)\n        \
                 printf(\"%d %.17e %.17e %.17e\\n\", i + 1, yd[i], fd[0][i], fd[1][i]);\n    \
                 return 0;\n}\n",
            );
        }
    }
    out
}

/// Table spellings neither tested nor skipped, stale skips, mislabelled cases.
fn coverage(lang: Lang) -> Vec<String> {
    let l = lang.label();
    let skipped: BTreeSet<&str> = SKIPPED
        .iter()
        .filter(|s| s.0 == lang)
        .map(|s| s.1)
        .collect();
    let tested: BTreeSet<&str> = lang
        .cases()
        .iter()
        .map(|c| c.name)
        .filter(|n| !skipped.contains(n))
        .collect();
    let spellings: BTreeSet<String> = ROUTINES
        .iter()
        .filter(|r| r.rule().is_some())
        .flat_map(|r| lang.spellings(r))
        .collect();
    let spellings: BTreeSet<&str> = spellings.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    for n in &spellings {
        if !tested.contains(n) && !skipped.contains(n) {
            problems.push(format!(
                "{l} `{n}`: spelling of a record neither tested nor in SKIPPED"
            ));
        }
    }
    for n in &skipped {
        if !spellings.contains(n) && !lang.cases().iter().any(|c| c.name == *n) {
            problems.push(format!(
                "{l} `{n}`: in SKIPPED but neither a spelling of a record nor a case"
            ));
        }
    }
    for c in lang.cases() {
        if !c.expr.contains(&format!("{}(", c.name)) {
            problems.push(format!(
                "{l} `{}`: case `{}` does not call it",
                c.name, c.expr
            ));
        }
    }
    problems
}

fn differentiate(dir: &Path, src: &Path) -> Result<(), String> {
    let (dir, src) = (dir.display().to_string(), src.display().to_string());
    let args = [
        "radtap",
        "-d",
        "-head",
        "intrinsics",
        "-vars",
        "x",
        "-outvars",
        "y",
        "-O",
        &dir,
        "-o",
        "gen",
        &src,
    ];
    let args = normalize_args(args.into_iter().map(String::from));
    let cli = <Cli as clap::Parser>::try_parse_from(args).map_err(|e| e.to_string())?;
    let o = execute(&cli);
    if o.status != 0 {
        return Err(format!("radtap -d failed:\n{}", o.stderr));
    }
    Ok(())
}

fn build_and_run(dir: &Path, lang: Lang, sources: &[PathBuf], exe: &str) -> Result<String, String> {
    let mut cmd = match lang {
        Lang::Fortran => {
            let mut c = Command::new("gfortran");
            c.args(["-O0", "-g", "-ffree-line-length-none", "-fno-range-check"]);
            c
        }
        Lang::C => {
            let mut c = Command::new("gcc");
            c.args(["-O0", "-g", "-std=c99", "-D_DEFAULT_SOURCE"]);
            c
        }
    };
    cmd.current_dir(dir).arg("-o").arg(exe).args(sources);
    if lang == Lang::C {
        cmd.arg("-lm");
    }
    let o = cmd.output().map_err(|e| format!("compiler: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "compile failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let o = Command::new(dir.join(exe))
        .output()
        .map_err(|e| format!("run: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "run failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Differentiates, builds and runs the program of `lang`; one failure description per case.
fn check(lang: Lang, dir: &Path) -> Result<Vec<String>, String> {
    let (src, placed, x) = program(lang);
    let prog = dir.join(format!("intrinsics.{}", lang.ext()));
    std::fs::write(&prog, src).map_err(|e| e.to_string())?;
    differentiate(dir, &prog)?;
    let drv = dir.join(format!("driver.{}", lang.ext()));
    std::fs::write(&drv, driver(lang, &x, placed.len())).map_err(|e| e.to_string())?;
    let gen = dir.join(format!("gen_d.{}", lang.ext()));
    let out = build_and_run(dir, lang, &[prog, gen, drv], "driver")?;
    let mut rows: HashMap<usize, [f64; 3]> = HashMap::new();
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
        if let &[i, t, fd0, fd1] = w.as_slice() {
            if let Ok(i) = i.parse() {
                rows.insert(i, [num(t), num(fd0), num(fd1)]);
            }
        }
    }
    let mut failures = Vec::new();
    for p in &placed {
        let c = p.case;
        let what = format!("{} {} `{}`", lang.label(), c.name, p.text);
        let Some(r) = rows.get(&p.y) else {
            failures.push(format!("{what}: no output from the driver"));
            continue;
        };
        let (t, fd) = (r[0], r[1 + c.prec.step_index()]);
        let rel = (t - fd).abs() / fd.abs().max(t.abs()).max(1e-8);
        if rel.is_nan() || rel > c.prec.tolerance() {
            failures.push(format!(
                "{what}: tangent {t:.12e} vs FD {fd:.12e} (relative {rel:.1e})"
            ));
        } else if fd.abs() < NONZERO {
            failures.push(format!(
                "{what}: derivative {fd:e} is ~0 here, choose another point"
            ));
        }
    }
    Ok(failures)
}

fn run(lang: Lang) {
    for (_, name, why) in SKIPPED.iter().filter(|s| s.0 == lang) {
        println!("skipped {} `{name}`: {why}", lang.label());
    }
    let mut problems = coverage(lang);
    let dir = std::env::temp_dir().join(format!(
        "radtap-intrinsics-{}-{}",
        lang.label(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("work directory");
    match check(lang, &dir) {
        Ok(failures) => problems.extend(failures),
        Err(e) => problems.push(e),
    }
    if problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    panic!(
        "{} problem(s), work directory kept: {}\n{}",
        problems.len(),
        dir.display(),
        problems.join("\n")
    );
}

#[test]
fn fortran_intrinsics_match_finite_differences() {
    run(Lang::Fortran);
}

#[test]
fn c_intrinsics_match_finite_differences() {
    run(Lang::C);
}
