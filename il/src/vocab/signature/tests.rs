//! Tests of the signatures (`super`): every record's parses, agrees with the rest of its
//! record, and binds actual arguments as the standard does.

use super::super::records::ROUTINES;
use super::super::types::{flags::*, Deriv, Routine, Rule};
use super::*;

fn name(r: &Routine) -> &'static str {
    r.fortran.first().or(r.c.first()).copied().unwrap_or("?")
}

fn record(n: &str) -> &'static Routine {
    ROUTINES
        .iter()
        .find(|r| r.fortran.contains(&n) || r.c.contains(&n))
        .unwrap_or_else(|| panic!("no record `{n}`"))
}

#[test]
fn every_record_signature_parses() {
    let all = signatures();
    assert_eq!(all.len(), ROUTINES.len());
    for (r, s) in ROUTINES.iter().zip(all) {
        assert_eq!(r.signature(), s, "{}", name(r));
        assert_eq!(&parse_record(r), s);
        // Fortran keywords in lower case (C99 has `va_start`'s `parmN`).
        for p in s.params.iter().filter(|_| !r.fortran.is_empty()) {
            assert_eq!(p.name, p.name.to_lowercase().as_str(), "{}", name(r));
        }
    }
    // A record built elsewhere is parsed on demand.
    let mut own = *record("sin");
    own.sig = "q: real -> real";
    assert_eq!(own.signature().params[0].name, "q");
}

#[test]
#[should_panic(expected = "vocabulary record `mybad`")]
fn a_malformed_signature_panics_with_the_record_name() {
    let mut r = *record("sin");
    r.fortran = &["mybad"];
    r.sig = "x: reel(..) -> same(..)";
    parse_record(&r);
}

#[test]
fn malformed_signatures_are_refused() {
    for bad in [
        "x",
        "x: reel",
        "x: real(:,*)",
        "x: real(..",
        "x: real, x: integer",
        "a: real..., b: real",
        "x: real -> double",
        ": real",
        "x y: real",
    ] {
        assert!(parse_signature(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_syntax_reads_as_documented() {
    let p = |name, access, ty, rank, optional, pointer| Param {
        name,
        access,
        ty,
        rank,
        optional,
        pointer,
    };
    use {Access::*, ArgRank as R, ArgType as T};
    let s = record("frexp").signature();
    assert_eq!(
        s.params,
        [
            p("value", In, T::Real, R::Scalar, false, false),
            p("exp", Out, T::Integer, R::Scalar, false, true)
        ]
    );
    assert_eq!(s.result, Some((ResultType::Real, R::Scalar)));
    assert!(!s.variadic && !s.pointer_result);
    let s = record("min").signature();
    assert!(s.variadic && s.params[2].optional && s.params.len() == 3);
    assert_eq!(s.result, Some((ResultType::Same, R::Elemental)));
    let s = record("printf").signature();
    assert!(s.variadic);
    assert_eq!(s.params[1], p("arg", In, T::Any, R::Scalar, true, false));
    assert!(record("memcpy").signature().pointer_result);
    let s = record("transpose").signature();
    assert_eq!(s.params[0].rank, R::Rank(2));
    assert_eq!(s.result, Some((ResultType::Same, R::Rank(2))));
    let s = record("cpu_time").signature();
    assert_eq!(s.result, None);
    assert_eq!(s.params[0].access, Out);
    assert_eq!(record("kind").signature().params[0].rank, R::Any);
    assert_eq!(record("sum").signature().params[0].rank, R::Array);
    let s = record("abort").signature();
    assert!(s.params.is_empty() && s.result.is_none());
    assert_eq!(
        record("rand").signature().result,
        Some((ResultType::Integer, R::Scalar))
    );
}

/// Elemental as Fortran 2008 (or the GNU and module documentation) says, from the signature
/// alone: the F77 specifics, `hypot`, `erf`, `dim`, `merge`, the complex parts and the bit
/// functions too (104 records lacked the flag that said so before).
#[test]
fn elemental_routines_are_told_by_their_signature() {
    for n in [
        "sin", "dsin", "atan2", "hypot", "erf", "gamma", "dim", "ddim", "merge", "aimag", "cmplx",
        "real", "int", "nint", "iand", "modulo", "index", "mvbits",
    ] {
        assert!(record(n).elemental(), "{n}");
    }
    for n in [
        "sum",
        "matmul",
        "dot_product",
        "transpose",
        "reshape",
        "kind",
        "size",
        "present",
        "random_number",
        "maxval",
        "norm2",
        "pack",
    ] {
        assert!(!record(n).elemental(), "{n}");
    }
}

#[test]
fn signatures_agree_with_rules_and_flags() {
    for r in ROUTINES {
        let (n, s) = (name(r), r.signature());
        if let Some(Rule::Elementwise(ps)) = r.rule() {
            assert!(
                s.params.len() >= ps.len(),
                "{n}: fewer params than partials"
            );
            for p in &s.params[..ps.len()] {
                assert_eq!(p.access, Access::In, "{n}");
                assert!(
                    matches!(
                        p.ty,
                        ArgType::Real | ArgType::Number | ArgType::Numeric | ArgType::Floating
                    ),
                    "{n}: a partial with respect to a {:?}",
                    p.ty
                );
            }
        }
        if r.flags & (MEMORY | COPY) != 0 {
            // `malloc` and `calloc` take sizes: only their result is a pointer.
            assert!(
                s.pointer_result || s.params.iter().any(|p| p.pointer),
                "{n}: pointers"
            );
        }
        if s.result.is_none() {
            assert!(
                matches!(r.deriv, Deriv::Zero | Deriv::NoRule(_)),
                "{n}: a subroutine with a rule"
            );
        }
        let result = s.result.map(|(t, _)| t);
        if r.has(REAL) {
            assert!(
                result.is_some_and(|t| t != ResultType::Complex),
                "{n}: REAL"
            );
        }
        if r.has(CPLX) {
            assert_eq!(result, Some(ResultType::Complex), "{n}: CPLX");
        }
        if r.has(SAME_TYPE) {
            assert_eq!(result, Some(ResultType::Same), "{n}: SAME_TYPE");
        }
        // A C spelling is called with scalars: a signature shared with Fortran is elemental
        // at most; one of C alone is scalar.
        if !r.c.is_empty() {
            let ranks = s.params.iter().map(|p| p.rank).chain(s.result.map(|x| x.1));
            for k in ranks {
                if r.fortran.is_empty() {
                    assert_eq!(k, ArgRank::Scalar, "{n}");
                } else {
                    assert!(
                        matches!(k, ArgRank::Scalar | ArgRank::Elemental | ArgRank::Any),
                        "{n}"
                    );
                }
            }
        }
    }
}

#[test]
fn actuals_bind_by_position_then_keyword() {
    let sum = record("sum").signature();
    assert_eq!(sum.bind(&[None, Some("mask")]), [Some(0), Some(2)]);
    assert_eq!(sum.bind(&[None, None]), [Some(0), Some(1)]);
    assert_eq!(
        sum.bind(&[None, Some("MASK"), Some("Dim")]),
        [Some(0), Some(2), Some(1)]
    );
    assert_eq!(sum.bind(&[None, Some("msk")]), [Some(0), None]);
    assert_eq!(
        sum.bind(&[None, None, None, None]),
        [Some(0), Some(1), Some(2), None]
    );
    // A positional after a keyword, a second actual for one param.
    assert_eq!(sum.bind(&[Some("array"), None]), [Some(0), None]);
    assert_eq!(sum.bind(&[None, Some("array")]), [Some(0), None]);
    let min = record("min").signature();
    assert_eq!(
        min.bind(&[None, None, None, None]),
        [Some(0), Some(1), Some(2), Some(2)]
    );
    assert_eq!(
        min.bind(&[Some("a2"), Some("a1"), Some("a5"), Some("a3")]),
        [Some(1), Some(0), Some(2), Some(2)]
    );
    assert_eq!(
        min.bind(&[None, None, Some("b3")]),
        [Some(0), Some(1), None]
    );
    assert_eq!(
        record("printf").signature().bind(&[None, None, None]),
        [Some(0), Some(1), Some(1)]
    );
    assert_eq!(
        record("sin").signature().bind(&[None, None]),
        [Some(0), None]
    );
    assert_eq!(
        record("random_seed").signature().bind(&[Some("get")]),
        [Some(2)]
    );
}

#[test]
fn written_params_are_the_outputs() {
    let w = |n| record(n).signature().written().collect::<Vec<_>>();
    assert_eq!(w("sin"), Vec::<usize>::new());
    assert_eq!(w("cpu_time"), [0]);
    assert_eq!(w("date_and_time"), [0, 1, 2, 3]);
    assert_eq!(w("system_clock"), [0, 1, 2]);
    assert_eq!(w("random_number"), [0]);
    assert_eq!(w("random_seed"), [0, 2]);
    assert_eq!(w("mvbits"), [3]);
    assert_eq!(w("move_alloc"), [0, 1]);
    assert_eq!(w("get_command_argument"), [1, 2, 3]);
    assert_eq!(w("get_environment_variable"), [1, 2, 3]);
    assert_eq!(w("execute_command_line"), [2, 3, 4]);
    assert_eq!(w("c_f_pointer"), [1]);
    assert_eq!(w("frexp"), [1]);
    assert_eq!(w("modf"), [1]);
    assert_eq!(w("remquo"), [2]);
    assert_eq!(w("memcpy"), [0]);
    assert_eq!(w("memmove"), [0]);
    assert_eq!(w("memset"), [0]);
    assert_eq!(w("free"), [0]);
    assert_eq!(w("fprintf"), [0]);
    assert_eq!(w("sprintf"), [0]);
}

/// The tangent of a [`Rule::Linear`] record differentiates every argument of a
/// differentiable type; one past the first is a pad, filled cyclically, whose zero is a
/// one-element array (`diff-gen`'s `tan_call`). A new linear record with another kind of
/// extra differentiable argument needs its own zero there first.
#[test]
fn linear_extra_params_are_pads() {
    for r in ROUTINES {
        if r.rule() != Some(Rule::Linear) {
            continue;
        }
        for p in &r.signature().params[1..] {
            assert!(
                !p.ty.differentiable() || p.name == "pad",
                "{:?}: `{}`",
                r.fortran,
                p.name
            );
        }
    }
}

/// The `math.h` functions that store through a pointer are not pure (`c_math` in the
/// effects): the signature alone says so.
#[test]
fn math_functions_storing_through_a_pointer() {
    let storing: Vec<&str> = ROUTINES
        .iter()
        .filter(|r| r.has(MATH) && r.signature().stores_through_pointer())
        .map(name)
        .collect();
    assert_eq!(storing, ["frexp", "modf", "remquo"]);
}
