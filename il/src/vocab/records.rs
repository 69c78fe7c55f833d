//! The records of the vocabulary (`super`) that have a derivative rule the generators apply
//! from the record alone, and [`ROUTINES`]: them, then the Fortran intrinsics without such a
//! rule (`super::intrinsics`), then the C library functions without one (`super::c_library`).
//! One record per routine, Fortran and C together; a spelling appears once per language. The
//! last argument of each constructor is the record's signature (syntax in the vocabulary's
//! module documentation).

use super::c_library::C_LIBRARY;
use super::intrinsics::INTRINSICS;
use super::make::d;
use super::types::flags::*;
use super::types::Routine;
use super::types::Rule::*;

/// The records with a rule.
const RULED: &[Routine] = &[
    d(
        &["sin", "dsin"],
        &["sin"],
        Elementwise(&["cos(x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["cos", "dcos"],
        &["cos"],
        Elementwise(&["-sin(x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["tan", "dtan"],
        &["tan"],
        Elementwise(&["1/(cos(x0)*cos(x0))"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["asin", "dasin"],
        &["asin"],
        Elementwise(&["1/sqrt(1-x0*x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["acos", "dacos"],
        &["acos"],
        Elementwise(&["-(1/sqrt(1-x0*x0))"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["atan", "datan"],
        &["atan"],
        Elementwise(&["1/(1+x0*x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["atan2", "datan2"],
        &["atan2"],
        Elementwise(&["x1/(x0*x0+x1*x1)", "-(x0/(x0*x0+x1*x1))"]),
        MATH | SAME_TYPE | REAL,
        "y: real(..), x: real(..) -> same(..)",
    ),
    d(
        &["sinh", "dsinh"],
        &["sinh"],
        Elementwise(&["cosh(x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["cosh", "dcosh"],
        &["cosh"],
        Elementwise(&["sinh(x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["tanh", "dtanh"],
        &["tanh"],
        Elementwise(&["1-tanh(x0)*tanh(x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["asinh", "dasinh"],
        &["asinh"],
        Elementwise(&["1/sqrt(x0*x0+1)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["acosh", "dacosh"],
        &["acosh"],
        Elementwise(&["1/sqrt(x0*x0-1)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["atanh", "datanh"],
        &["atanh"],
        Elementwise(&["1/(1-x0*x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["exp", "dexp"],
        &["exp"],
        Elementwise(&["exp(x0)"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &[],
        &["exp2"],
        Elementwise(&["log(2.0)*exp2(x0)"]),
        MATH,
        "x: real -> real",
    ),
    d(
        &[],
        &["expm1"],
        Elementwise(&["exp(x0)"]),
        MATH,
        "x: real -> real",
    ),
    d(
        &["log", "alog", "dlog"],
        &["log"],
        Elementwise(&["1/x0"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &["log10", "alog10", "dlog10"],
        &["log10"],
        Elementwise(&["1/(x0*log(10.0))"]),
        MATH | SAME_TYPE,
        "x: real(..) -> same(..)",
    ),
    d(
        &[],
        &["log2"],
        Elementwise(&["1/(x0*log(2.0))"]),
        MATH,
        "x: real -> real",
    ),
    d(
        &[],
        &["log1p"],
        Elementwise(&["1/(1+x0)"]),
        MATH,
        "x: real -> real",
    ),
    d(
        &["sqrt", "dsqrt"],
        &["sqrt"],
        Elementwise(&["1/(2*sqrt(x0))"]),
        MATH | SAME_TYPE | HOLO | KEEPS,
        "x: floating(..) -> same(..)",
    ),
    d(
        &[],
        &["cbrt"],
        Elementwise(&["1/(3*cbrt(x0)*cbrt(x0))"]),
        MATH,
        "x: real -> real",
    ),
    d(
        &[],
        &["pow"],
        Elementwise(&["nz(x1, x1*x0**(x1-1))", "pos(x0, x0**x1*log(x0))"]),
        MATH,
        "x: real, y: real -> real",
    ),
    d(
        &["abs", "dabs"],
        &["fabs"],
        Elementwise(&["sgn(x0)"]),
        MATH | SAME_TYPE | REAL | CHEAP,
        "a: number(..) -> same(..)",
    ),
    d(
        &["sign", "dsign"],
        &["copysign"],
        Elementwise(&["sgn(x0)*sgn(x1)"]),
        MATH | SAME_TYPE | REAL | CHEAP,
        "a: numeric(..), b: numeric(..) -> same(..)",
    ),
    d(
        &["min", "amin1", "dmin1"],
        &["fmin"],
        Select { max: false },
        MATH | SAME_TYPE | REAL | CHEAP,
        "a1: numeric(..), a2: numeric(..), a3?: numeric(..)... -> same(..)",
    ),
    d(
        &["max", "amax1", "dmax1"],
        &["fmax"],
        Select { max: true },
        MATH | SAME_TYPE | REAL | CHEAP,
        "a1: numeric(..), a2: numeric(..), a3?: numeric(..)... -> same(..)",
    ),
    d(
        &["mod", "amod", "dmod"],
        &["fmod"],
        Elementwise(&["1", "-trunc(x0/x1)"]),
        MATH | SAME_TYPE | REAL | CHEAP,
        "a: numeric(..), p: numeric(..) -> same(..)",
    ),
    d(
        &["hypot"],
        &["hypot"],
        Elementwise(&["x0/hypot(x0,x1)", "x1/hypot(x0,x1)"]),
        MATH | SAME_TYPE | REAL,
        "x: real(..), y: real(..) -> same(..)",
    ),
    d(
        &["erf", "derf"],
        &["erf"],
        Elementwise(&["2*exp(-(x0*x0))/sqrt(pi)"]),
        MATH | SAME_TYPE,
        "x: real(..) -> same(..)",
    ),
    d(
        &["erfc", "derfc"],
        &["erfc"],
        Elementwise(&["-(2*exp(-(x0*x0))/sqrt(pi))"]),
        MATH | SAME_TYPE,
        "x: real(..) -> same(..)",
    ),
    d(
        &["gamma", "dgamma"],
        &["tgamma"],
        Elementwise(&["gamma(x0)*psi(x0)"]),
        MATH | SAME_TYPE,
        "x: real(..) -> same(..)",
    ),
    d(
        &["log_gamma", "lgamma", "algama", "dlgama"],
        &["lgamma"],
        Elementwise(&["psi(x0)"]),
        MATH | SAME_TYPE,
        "x: real(..) -> same(..)",
    ),
    d(
        &["dble", "real", "float", "sngl", "dfloat"],
        &[],
        Elementwise(&["1"]),
        REAL | CHEAP,
        "a: number(..), kind?: integer -> real(..)",
    ),
    d(
        &["dprod"],
        &[],
        Elementwise(&["dble(x1)", "dble(x0)"]),
        0,
        "x: real(..), y: real(..) -> real(..)",
    ),
    d(
        &["sum"],
        &[],
        Linear,
        HOLO | KEEPS,
        "array: number(*), dim?: integer, mask?: logical(*) -> same(*)",
    ),
    d(
        &["transpose"],
        &[],
        Linear,
        HOLO | KEEPS,
        "matrix: any(:,:) -> same(:,:)",
    ),
    d(
        &["spread"],
        &[],
        Linear,
        HOLO | KEEPS,
        "source: any(any), dim: integer, ncopies: integer -> same(*)",
    ),
    d(
        &["reshape"],
        &[],
        Linear,
        HOLO | KEEPS,
        "source: any(*), shape: integer(:), pad?: any(*), order?: integer(:) -> same(*)",
    ),
    d(
        &["dot_product"],
        &[],
        Bilinear,
        KEEPS,
        "vector_a: any(:), vector_b: any(:) -> any",
    ),
    d(
        &["matmul"],
        &[],
        Bilinear,
        KEEPS,
        "matrix_a: any(*), matrix_b: any(*) -> any(*)",
    ),
    d(
        &["maxval"],
        &[],
        Extremum { max: true },
        REAL,
        "array: numeric(*), dim?: integer, mask?: logical(*) -> same(*)",
    ),
    d(
        &["minval"],
        &[],
        Extremum { max: false },
        REAL,
        "array: numeric(*), dim?: integer, mask?: logical(*) -> same(*)",
    ),
    d(
        &["product"],
        &[],
        Product,
        HOLO | KEEPS,
        "array: number(*), dim?: integer, mask?: logical(*) -> same(*)",
    ),
    d(
        &["norm2"],
        &[],
        Norm2,
        REAL,
        "x: real(*), dim?: integer -> same(*)",
    ),
    // C99 `math.h`, added as one record each plus their cases in tests/intrinsics.rs and
    // tests/tangent/c_libm_long_double.c (docs/decisions.md, "The vocabulary").
    d(
        &[],
        &["fdim"],
        Elementwise(&["pos(x0-x1, 1)", "-pos(x0-x1, 1)"]),
        MATH,
        "x: real, y: real -> real",
    ),
    d(
        &[],
        &["fma"],
        Elementwise(&["x1", "x0", "1"]),
        MATH,
        "x: real, y: real, z: real -> real",
    ),
    d(
        &[],
        &["remainder"],
        Elementwise(&["1", "-rint(x0/x1)"]),
        MATH,
        "x: real, y: real -> real",
    ),
    d(
        &[],
        &["ldexp"],
        Elementwise(&["ldexp(1.0, x1)"]),
        MATH,
        "x: real, exp: integer -> real",
    ),
    d(
        &[],
        &["scalbn"],
        Elementwise(&["scalbn(1.0, x1)"]),
        MATH,
        "x: real, n: integer -> real",
    ),
    d(
        &[],
        &["scalbln"],
        Elementwise(&["scalbln(1.0, x1)"]),
        MATH,
        "x: real, n: integer -> real",
    ),
];

/// Every routine radtap knows by name: the records with a rule, then the Fortran intrinsics
/// and the C library functions without one.
pub const ROUTINES: &[Routine] = &{
    const N: usize = RULED.len() + INTRINSICS.len() + C_LIBRARY.len();
    let mut all = [RULED[0]; N];
    let mut i = 0;
    while i < N {
        all[i] = if i < RULED.len() {
            RULED[i]
        } else if i < RULED.len() + INTRINSICS.len() {
            INTRINSICS[i - RULED.len()]
        } else {
            C_LIBRARY[i - RULED.len() - INTRINSICS.len()]
        };
        i += 1;
    }
    all
};
