//! What the command line diagnoses or refuses at its line rather than writing wrong
//! derivatives: unsupported constructs, constructs with wrong derivatives, assignments through
//! the address of a pointer, elemental procedures on arrays, and syntax errors located at the
//! fault without a cascade.

use super::*;

#[test]
fn tangent_through_unsupported_constructs_is_diagnosed() {
    let (dir, f) = scratch(
        "ext",
        "subroutine f(x, y)\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  real(8), external :: blackbox\n  real(8) :: a(2)\n  a = x\n  read (*, *) a(1)\n  y = blackbox(x) + a(1)*a(2)\nend subroutine f\n",
    );
    let d = dir.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&[
        "-d", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &f,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("ext.f90:9:3: error[AD070]") && err.contains("`blackbox`"),
        "{err}"
    );
    assert!(err.contains("ext.f90:8:3: warning[AD071]"), "{err}");
    assert!(
        err.contains("y = blackbox(x) + a(1)*a(2)"),
        "the source line is shown: {err}"
    );
    assert!(
        !dir.join("ext_d.f90").exists(),
        "nothing is written on error"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Constructs whose derivatives would be silently wrong are refused with AD020 at their line,
/// in tangent, vector and adjoint mode: ASSOCIATE (a variable or an expression selector),
/// complex head arguments and complex powers with a variable exponent, EQUIVALENCE of different types; C99 complex types; PRIVATE
/// components of a module's type (the derivative module, outside it, cannot reach them).
#[test]
fn constructs_with_wrong_derivatives_are_refused_at_their_line() {
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        (
            "assoc_var.f90",
            "subroutine f(x, y)\n  real(8), intent(inout) :: x(2)\n  real(8), intent(out) :: y\n  associate (h => x(1))\n    h = h*x(2)\n  end associate\n  y = x(1)\nend subroutine f\n",
            "x",
            ":4:3: error[AD020]",
            "ASSOCIATE",
        ),
        (
            "assoc_expr.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y(2)\n  associate (s => x*x)\n    y = s\n  end associate\nend subroutine f\n",
            "x",
            ":4:3: error[AD020]",
            "ASSOCIATE",
        ),
        // Complex intermediates are differentiated (tests/tangent/f_complex_*.f90); a complex
        // independent or dependent of the head is not (the harnesses are real-valued), nor a
        // complex power with a non-constant exponent.
        (
            "cplx_head_in.f90",
            "subroutine f(x, y)\n  complex(8), intent(in) :: x\n  real(8), intent(out) :: y\n  y = abs(x*x)\nend subroutine f\n",
            "x",
            ":1:1: error[AD020]",
            "the complex variable `x` as an independent or dependent of the head is not supported yet",
        ),
        (
            "cplx_head_out.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x(2)\n  complex(8), intent(out) :: y\n  y = cmplx(x(1), x(2), 8)\nend subroutine f\n",
            "x",
            ":1:1: error[AD020]",
            "the complex variable `y` as an independent or dependent of the head is not supported yet",
        ),
        (
            "cplx_pow.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y\n  complex(8) :: z, w\n  z = cmplx(x(1), 1.0d0, 8)\n  w = z**x(2)\n  y = real(w, 8)\nend subroutine f\n",
            "x",
            ":6:3: error[AD020]",
            "a complex power whose exponent is not an integer constant",
        ),
        (
            "equiv_types.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y\n  real(8) :: a\n  real(4) :: c(2)\n  equivalence (a, c(1))\n  a = x(1)*x(2)\n  y = c(2)\nend subroutine f\n",
            "x",
            ":6:16: error[AD020]",
            "EQUIVALENCE of a, c with a derivative: members of different types are not supported",
        ),
        (
            "equiv_module.f90",
            "module m\n  real(8) :: a, b\n  equivalence (a, b)\ncontains\n  subroutine f(x, y)\n    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    a = x*x\n    y = b\n  end subroutine f\nend module m\n",
            "x",
            ":8:5: error[AD020]",
            "EQUIVALENCE of another unit",
        ),
        (
            "private_comp.f90",
            "module m\n  implicit none\n  type t\n    real(8), private :: a\n    real(8) :: b\n  end type t\ncontains\n  subroutine set(s, x)\n    type(t), intent(out) :: s\n    real(8), intent(in) :: x\n    s%a = x*x\n    s%b = 2.0d0\n  end subroutine set\n  function get(s) result(r)\n    type(t), intent(in) :: s\n    real(8) :: r\n    r = s%a*s%b\n  end function get\nend module m\nsubroutine f(x, y)\n  use m\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  type(t) :: s\n  call set(s, x)\n  y = get(s)\nend subroutine f\n",
            "x",
            ":11:5: error[AD020]",
            "component `a` is PRIVATE to its type in module `m`",
        ),
        (
            "private_stmt.f90",
            "module m\n  implicit none\n  type t\n    private\n    real(8) :: a\n    real(8), public :: b\n  end type t\ncontains\n  subroutine set(s, x)\n    type(t), intent(out) :: s\n    real(8), intent(in) :: x\n    s%a = x*x\n    s%b = 2.0d0\n  end subroutine set\n  function get(s) result(r)\n    type(t), intent(in) :: s\n    real(8) :: r\n    r = s%a*s%b\n  end function get\nend module m\nsubroutine f(x, y)\n  use m\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  type(t) :: s\n  call set(s, x)\n  y = get(s)\nend subroutine f\n",
            "x",
            ":12:5: error[AD020]",
            "component `a` is PRIVATE to its type in module `m`",
        ),
        (
            "cplx.c",
            "#include <complex.h>\nvoid f(double *x, double *y)\n{\n    double complex z = x[0] + x[1] * I;\n    y[0] = creal(z * z);\n}\n",
            "x",
            ":4:12: error[AD020]",
            "C99 complex type `complex`",
        ),
    ];
    let dir = std::env::temp_dir().join(format!("radtap-cli-refused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    for (name, text, vars, at, what) in cases {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let f = f.to_string_lossy().into_owned();
        let modes: [&[&str]; 3] = [&["-d"], &["-d", "-vector", "-nbdirsmax", "4"], &["-b"]];
        for mode in modes {
            let mut args: Vec<&str> = mode.to_vec();
            args.extend(["-head", "f", "-vars", vars, "-outvars", "y", "-O", &d, &f]);
            let (code, _, err) = radtap(&args);
            assert_eq!(code, 1, "{name} {mode:?}: {err}");
            assert!(
                err.contains(&format!("{name}{at}")) && err.contains(what),
                "{name} {mode:?}: {err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pointer with a derivative pointer whose own address is taken may be assigned through
/// it (`*(&c) = …`, `*pp = …`, a callee given `&c`), which the derivative pointer does not
/// follow: refused where the address is taken, in the tangent and in the adjoint. (Before,
/// `*(&c) = g + 1` left c without targets: its statements were sliced away, primal included.)
#[test]
fn assignments_through_the_address_of_a_pointer_are_refused() {
    let dir = std::env::temp_dir().join(format!("radtap-cli-pp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    for (name, line, how) in [
        ("star_addr", 6, "    *(&c) = g + 1;\n"),
        ("ptr_ptr", 6, "    double **pp = &(c);\n    *pp = g + 1;\n"),
    ] {
        let f = dir.join(format!("{name}.c"));
        std::fs::write(
            &f,
            format!("#include <stdlib.h>\nvoid h(const double *w, double *y)\n{{\n    double *g = malloc(2 * sizeof(double));\n    double *c;\n{how}    c[0] = w[0] * w[1];\n    y[0] = g[1];\n    free(g);\n}}\n"),
        )
        .unwrap();
        let fs = f.to_string_lossy().into_owned();
        for mode in ["-d", "-b"] {
            let (code, _, err) = radtap(&[
                mode, "-head", "h", "-vars", "w", "-outvars", "y", "-O", &d, &fs,
            ]);
            assert_eq!(code, 1, "{name} {mode}: {err}");
            assert!(
                err.contains(&format!("{name}.c:{line}:5: error[AD020]"))
                    && err.contains("the address of pointer `c` is taken"),
                "{name} {mode}: {err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A missing `)` or END DO is reported at the line of the fault, as a compiler would, and
/// the head is not reported missing on top of it (it was `1:1` and a cascading AD040).
#[test]
fn syntax_errors_are_located_at_the_fault_without_a_cascade() {
    let dir = scratch_dir("syntax");
    let cases = [
        (
            "paren.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  integer :: i\n  y = 0\n  y = sin(x + 1.0d0\nend subroutine f\n",
            "paren.f90:6:10: error[AD011]: missing `)`",
        ),
        (
            "enddo.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  integer :: i\n  y = 0\n  do i = 1, 3\n    y = y + x\nend subroutine f\n",
            "enddo.f90:6:3: error[AD011]: missing `END DO`",
        ),
        (
            "paren.c",
            "#include <math.h>\nvoid f(double x, double *y) {\n  *y = sin(x;\n}\n",
            "paren.c:3:13: error[AD011]: expected `)` here",
        ),
    ];
    for (name, text, want) in cases {
        let src = dir.join(name);
        std::fs::write(&src, text).expect("write source");
        let s = src.to_string_lossy().into_owned();
        let (code, _, err) = radtap(&["-d", "-head", "f", &s]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(want), "{name}: {err}");
        assert!(!err.contains("AD040"), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An ELEMENTAL procedure applied to arrays in active code is refused at its line (the
/// scalar derivative was called with arrays: output that does not compile, exit 0).
#[test]
fn elemental_procedures_on_arrays_are_refused() {
    let (dir, d, s) = scratch_file("elemental", "el.f90", "module el\ncontains\nelemental function sq(t) result(s)\n  real(8), intent(in) :: t\n  real(8) :: s\n  s = t*t\nend function sq\n\
         subroutine top(x, y)\n  real(8), intent(in) :: x(3)\n  real(8), intent(out) :: y(3)\n  y = sq(x) + sum(x)\nend subroutine top\nend module el\n");
    for mode in ["-d", "-b"] {
        let (code, _, err) = radtap(&[
            mode, "-head", "top", "-vars", "x", "-outvars", "y", "-O", &d, &s,
        ]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(
                "el.f90:11:3: error[AD020]: the elemental procedure `sq` is applied to arrays"
            ),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
