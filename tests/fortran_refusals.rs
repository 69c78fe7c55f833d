//! Fortran constructs whose derivative used to be silently wrong: each is now refused with a
//! located AD020 (or warned about with AD071) in tangent, vector and adjoint mode.

use std::process::Command;

fn radtap(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(args)
        .output()
        .expect("run radtap");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `text` to `NAME.f90` in a fresh directory; returns the directory and the file.
fn scratch(name: &str, text: &str) -> (String, String) {
    // Under cargo's per-target temporary directory: nothing is left in /tmp.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-frefuse-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{name}.f90"));
    std::fs::write(&f, text).unwrap();
    (
        dir.to_string_lossy().into_owned(),
        f.to_string_lossy().into_owned(),
    )
}

/// Runs every mode on `file` and returns (exit code, stderr) of each.
fn all_modes(dir: &str, file: &str, head: &str, vars: &str, outvars: &str) -> Vec<(i32, String)> {
    let modes: [&[&str]; 3] = [&["-d"], &["-d", "-vector", "-nbdirsmax", "2"], &["-b"]];
    modes
        .iter()
        .map(|m| {
            let mut args: Vec<&str> = m.to_vec();
            args.extend([
                "-head", head, "-vars", vars, "-outvars", outvars, "-O", dir, file,
            ]);
            let (code, _, err) = radtap(&args);
            (code, err)
        })
        .collect()
}

fn assert_refused(name: &str, text: &str, head: &str, at: &str, msg: &str) {
    let (dir, f) = scratch(name, text);
    let runs = all_modes(&dir, &f, head, "x", "y");
    let _ = std::fs::remove_dir_all(&dir);
    for (code, err) in runs {
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!("{name}.f90:{at}: error[AD020]")) && err.contains(msg),
            "{err}"
        );
    }
}

#[test]
fn internal_procedures_that_cannot_receive_their_host_variables_are_refused() {
    // Host association is lifted into arguments (`radtap_il::lift`; the numeric corpus has
    // `f_internal_*`). A host array of rank 2 with an assumed size cannot be passed as one.
    let text = "subroutine head(x, y, n)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n, *)
  real(8), intent(out) :: y
  call bar()
contains
  subroutine bar()
    y = sin(x(1, 1))
  end subroutine bar
end subroutine head
";
    assert_refused(
        "hostsize",
        text,
        "head",
        "7:3",
        "the internal procedure `bar` uses the host's `x` and `x` is an assumed-size array of rank 2",
    );
    // `g` declares its own `y` and calls `h`, which uses the host's `y`: `g` cannot receive
    // the host's under the same name.
    let text = "subroutine head(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  call g()
contains
  subroutine g()
    real(8) :: y
    y = 1.0d0
    call h()
  end subroutine g
  subroutine h()
    y = sin(x)
  end subroutine h
end subroutine head
";
    assert_refused(
        "hostshadow",
        text,
        "head",
        "6:3",
        "the internal procedure `g` uses the host's `y` and it declares its own `y`",
    );
    // An internal procedure of a main program has no derivative to live in.
    let text = "program main
  real(8) :: x, y
  x = 1.0d0
  call bar(x, y)
contains
  subroutine bar(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = sin(x)
  end subroutine bar
end program main
";
    assert_refused(
        "hostprog",
        text,
        "bar",
        "6:3",
        "differentiating the internal procedure `bar` of a main program, or as a head",
    );
}

#[test]
fn transfer_of_an_active_value_is_refused() {
    let text = "subroutine head(x, y)
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  real(8) :: w
  integer(8) :: iz
  iz = transfer(x(1), iz)
  w = transfer(iz, w)
  y = x(2)*w
end subroutine head
";
    assert_refused("transfer", text, "head", "6:3", "TRANSFER");
}

#[test]
fn a_generic_reference_that_the_argument_types_do_not_resolve_is_refused() {
    // `merge(...)` has no type radtap can tell: the reference could be either specific.
    let text = "module mg
  implicit none
  interface sq
    module procedure sq_r, sq_i
  end interface
contains
  real(8) function sq_r(x)
    real(8), intent(in) :: x
    sq_r = x*x
  end function sq_r
  integer function sq_i(i)
    integer, intent(in) :: i
    sq_i = i*i
  end function sq_i
  subroutine head(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = sq(merge(x, 2.0d0*x, x > 0.0d0))
  end subroutine head
end module mg
";
    assert_refused(
        "generic",
        text,
        "head",
        "18:5",
        "generic function reference whose specific procedure cannot be told",
    );
}

#[test]
fn a_whole_array_read_into_an_active_array_is_warned_about() {
    let text = "subroutine head(x, y)
  real(8), intent(inout) :: x(2)
  real(8), intent(out) :: y
  read(3,*) x
  y = x(1)*x(2)
end subroutine head
";
    let (dir, f) = scratch("readarr", text);
    let runs = all_modes(&dir, &f, "head", "x", "y");
    let _ = std::fs::remove_dir_all(&dir);
    for (code, err) in runs {
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("readarr.f90:4:3: warning[AD071]"), "{err}");
    }
}

#[test]
fn a_value_passed_through_an_internal_file_is_refused() {
    // `t` gets the value of `x` through the text in `buf`: its derivative was silently zero.
    let text = "subroutine head(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  character(len=40) :: buf
  real(8) :: t
  write(buf, *) x
  read(unit=buf, fmt=*) t
  y = t*x
end subroutine head
";
    assert_refused("intfile", text, "head", "7:3", "internal file `buf`");
}

/// A library routine with a `procedure(iface)` dummy (`drive`), one with two (`drive2`),
/// and one with an internal procedure (`drive3`), which is not specialised.
const DUMMY_PROC_LIB: &str = "module fm
  implicit none
  abstract interface
    subroutine f_iface(x, y)
      real(8), intent(in) :: x
      real(8), intent(out) :: y
    end subroutine f_iface
  end interface
contains
  subroutine drive(fcn, x, y)
    procedure(f_iface) :: fcn
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    call fcn(x, y)
  end subroutine drive
  subroutine drive2(fcn, gcn, x, y)
    procedure(f_iface) :: fcn, gcn
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    real(8) :: t
    call fcn(x, t)
    call gcn(t, y)
  end subroutine drive2
  subroutine drive3(fcn, x, y)
    procedure(f_iface) :: fcn
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    call fcn(twice(x), y)
  contains
    real(8) function twice(v)
      real(8), intent(in) :: v
      twice = 2*v
    end function twice
  end subroutine drive3
end module fm
";

/// The user's module (using the library) with `fsq` and `fcu`, and `head` calling `CALLS`.
fn dummy_user(calls: &str) -> String {
    format!(
        "{DUMMY_PROC_LIB}module fu
  use fm
  implicit none
contains
  subroutine fsq(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x*x + sin(x)
  end subroutine fsq
  subroutine fcu(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x**3
  end subroutine fcu
  subroutine head(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    real(8) :: t
{calls}
  end subroutine head
end module fu
"
    )
}

/// `drive` receiving `fsq` and `fcu`, from a module that uses the library: specialised per
/// actual procedure (`il::specialise`), each copy in the user's module (it was refused: the
/// derivative could not call one derivative for both, nor reach the user's module). The
/// numbers are checked on tests/tangent/f_dummy_procedure_actuals.f90 and rw_f_abstract_*.
#[test]
fn a_dummy_procedure_receiving_several_procedures_is_specialised() {
    let text = dummy_user("    call drive(fsq, x, t)\n    call drive(fcu, t, y)");
    let (dir, f) = scratch("dummy_several", &text);
    let runs = all_modes(&dir, &f, "head", "x", "y");
    let tangent = std::fs::read_to_string(format!("{dir}/dummy_several_d.f90")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    for (code, err) in runs {
        assert_eq!(code, 0, "{err}");
    }
    assert!(
        tangent.contains("call drive_d(fsq, x, xd, t, td)")
            && tangent.contains("call drive_d0(fcu, t, td, y, yd)")
            && tangent.contains("call fsq_d(x, xd, y, yd)")
            && tangent.contains("call fcu_d(x, xd, y, yd)"),
        "{tangent}"
    );
}

/// `drive2` with two dummy procedures, called with (`fsq`, `fcu`) and (`fcu`, `fsq`): one
/// copy per pair of actual procedures (it was refused, AD020 at each call through a dummy;
/// issue 44 item 3). The numbers are checked on tests/tangent/f77_stiff_dummy_procs.f.
#[test]
fn a_routine_with_two_dummy_procedures_is_specialised_per_pair() {
    let text = dummy_user("    call drive2(fsq, fcu, x, t)\n    call drive2(fcu, fsq, t, y)");
    let (dir, f) = scratch("dummy_two", &text);
    let runs = all_modes(&dir, &f, "head", "x", "y");
    let tangent = std::fs::read_to_string(format!("{dir}/dummy_two_d.f90")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    for (code, err) in runs {
        assert_eq!(code, 0, "{err}");
    }
    assert!(
        tangent.contains("call drive2_d(fsq, fcu, x, xd, t, td)")
            && tangent.contains("call drive2_d0(fcu, fsq, t, td, y, yd)")
            && tangent.contains("call fsq_d(x, xd, t, td)")
            && tangent.contains("call fcu_d(t, td, y, yd)"),
        "{tangent}"
    );
}

#[test]
fn a_dummy_procedure_that_is_not_specialised_is_refused() {
    // A routine with an internal procedure is not specialised: the user's function lives in
    // a module that uses the library, whose derivative module cannot call its derivative by
    // name (the output did not link).
    assert_refused(
        "dummy_reach",
        &dummy_user("    call drive3(fsq, x, y)"),
        "head",
        "28:5",
        "a call through the dummy procedure `fcn` to `fsq`, whose derivative is out of reach",
    );
}

#[test]
fn do_concurrent_with_locality_or_type_spec_and_procedure_pointers_are_refused() {
    let text = "subroutine head(x, y)
  real(8) :: x(4), y, t
  integer :: i
  do concurrent (i = 1:4) local(t)
    t = x(i)**2
    x(i) = t
  end do
  y = sum(x)
end subroutine head
";
    assert_refused(
        "dc_local",
        text,
        "head",
        "4:27",
        "DO CONCURRENT with locality specifiers",
    );
    let text = "subroutine head(x, y)
  real(8) :: x(4), y
  do concurrent (integer :: k = 1:4)
    x(k) = x(k)*2
  end do
  y = sum(x)
end subroutine head
";
    assert_refused(
        "dc_type",
        text,
        "head",
        "3:18",
        "DO CONCURRENT with a type-spec",
    );
    let text = "module pp
  implicit none
  abstract interface
    function f_fun(x) result(r)
      real(8), intent(in) :: x
      real(8) :: r
    end function f_fun
  end interface
contains
  function sq(x) result(r)
    real(8), intent(in) :: x
    real(8) :: r
    r = x*x
  end function sq
  subroutine head(x, y)
    real(8) :: x, y
    procedure(f_fun), pointer :: f
    f => sq
    y = f(x)
  end subroutine head
end module pp
";
    assert_refused("proc_pointer", text, "head", "17:23", "procedure pointers");
}

#[test]
fn a_statement_function_it_cannot_inline_is_refused_by_name() {
    // It was AD070 "`q` has no body in the input files ... add its source file", which
    // misled: the body is the statement function's. Statement functions with real and
    // integer dummies are inlined now (`il::stmtfn`, f77_stmt_function_active.f in the
    // corpus); a logical dummy is not, and the reference is refused by name.
    let text = "subroutine head(x, y)
  real(8) :: x, y, q, u
  logical :: l
  q(u, l) = merge(u*u, u**3, l)
  y = q(x, .true.)
end subroutine head
";
    assert_refused(
        "stmt_function",
        text,
        "head",
        "5:3",
        "the statement function `q` applied to active values is not differentiated yet",
    );
}

#[test]
fn a_call_through_a_type_bound_procedure_binding_is_refused() {
    // The type and its bindings are read (and written back); a call through a binding names
    // no procedure the analyses resolve.
    let text = "module tbm
  implicit none
  type :: body
    real(8) :: m, v
  contains
    procedure :: energy
  end type body
contains
  function energy(b) result(e)
    class(body), intent(in) :: b
    real(8) :: e
    e = 0.5d0*b%m*b%v**2
  end function energy
  subroutine head(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(body) :: b
    b%m = x
    b%v = 2.0d0*x
    y = b%energy()
  end subroutine head
end module tbm
";
    assert_refused(
        "binding_call",
        text,
        "head",
        "20:5",
        "a call through the type-bound procedure binding `%energy` is not differentiated yet",
    );
}

/// Complex values are known to the complex rules by the types of variables; a complex
/// component of a derived type was differentiated as a real (`abs(p%c)` got the real `sign`
/// rule, and the adjoint left a passive complex component factor unconjugated): a statement
/// with derivatives that reads or writes a complex component is refused, active or passive.
#[test]
fn complex_components_of_derived_types_are_refused() {
    let types = "module mc
  implicit none
  type pt
    complex(8) :: c
    real(8) :: r
  end type pt
end module mc
";
    let active = format!(
        "{types}subroutine f(x, y)
  use mc
  implicit none
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  type(pt) :: p
  p%r = x(2)
  p%c = cmplx(x(1), x(2), 8)
  y = abs(p%c) + p%r
end subroutine f
"
    );
    assert_refused(
        "cplxcomp",
        &active,
        "f",
        "15:3",
        "the complex component `%c` of a derived type in a statement with derivatives is not supported yet",
    );
    let passive = format!(
        "{types}subroutine f(x, y)
  use mc
  implicit none
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  type(pt) :: p
  complex(8) :: z, w
  p%c = (0.5d0, 2.0d0)
  z = cmplx(x(1), x(2), 8)
  w = z*p%c
  y = aimag(w)
end subroutine f
"
    );
    assert_refused(
        "cplxcomppas",
        &passive,
        "f",
        "17:3",
        "the complex component `%c` of a derived type in a statement with derivatives is not supported yet",
    );
}

/// PRIVATE module entities reached from a differentiated procedure are copied into the
/// derivative module when a copy is the same thing (named constants, procedures without
/// state); module state is not: a private module variable (a copy would be another
/// variable), and a private procedure with a SAVE'd local (its copy would count its own
/// calls), directly or through a copied procedure, stay refused at the statement.
#[test]
fn private_module_state_out_of_reach_of_the_derivative_is_refused() {
    assert_refused(
        "privvar",
        "module pv\n  implicit none\n  private\n  public :: step\n  real(8) :: scale = 2.0d0\ncontains\n  subroutine step(x, y)\n    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    y = scale*x**2\n  end subroutine step\nend module pv\n",
        "step",
        "10:5",
        "`scale` is PRIVATE to module `pv`, out of reach of the derivative module; a private module variable cannot be copied",
    );
    assert_refused(
        "privsave",
        "module ps\n  implicit none\n  private\n  public :: step\ncontains\n  integer function ncalls()\n    integer, save :: n = 0\n    n = n + 1\n    ncalls = n\n  end function ncalls\n  integer function twice()\n    twice = 2*ncalls()\n  end function twice\n  subroutine step(x, y)\n    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    y = x**2*twice()\n  end subroutine step\nend module ps\n",
        "step",
        "17:5",
        "`ncalls` is PRIVATE to module `ps` (through `twice`), out of reach of the derivative module; a private procedure keeping state between calls",
    );
}

/// A differentiated module procedure calling a PRIVATE procedure of its module (that is not
/// differentiated itself): the derivative module gets a PRIVATE copy of it, and the output
/// compiles in every mode (it was refused at the call; a private procedure with state is
/// still refused: tests/fortran_refusals.rs). An active private procedure (`sq`) has its
/// derivative in the derivative module.
#[test]
fn private_module_procedure_called_from_derivative_is_copied() {
    let src = "module props\n  implicit none\n  private\n  public :: step\ncontains\n  integer function ifloor(v)\n    real(8), intent(in) :: v\n    ifloor = int(floor(v))\n  end function ifloor\n  real(8) function sq(v)\n    real(8), intent(in) :: v\n    sq = v*v\n  end function sq\n  subroutine step(x, y)\n    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    integer :: k\n    k = ifloor(x*0.1d0) + 1\n    y = sq(x)*k\n  end subroutine step\nend module props\n";
    let (d, f) = scratch("privcall", src);
    let dir = std::path::PathBuf::from(&d);
    let gf = |args: &[&str]| {
        let out = Command::new("gfortran")
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("run gfortran");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    gf(&["-c", "privcall.f90"]);
    for (mode, file) in [
        (&["-d"][..], "privcall_d.f90"),
        (&["-d", "--vector"][..], "privcall_dv.f90"),
    ] {
        let mut args = mode.to_vec();
        args.extend(["-head", "step", "-vars", "x", "-outvars", "y", "-O", &d, &f]);
        let (code, _, err) = radtap(&args);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        assert!(
            text.contains("private :: ifloor") && text.contains(" sq_d"),
            "{text}"
        );
        if !file.ends_with("_dv.f90") {
            gf(&["-fsyntax-only", file]);
        }
    }
    let (code, _, err) = radtap(&[
        "-b", "-head", "step", "-vars", "x", "-outvars", "y", "-O", &d, &f,
    ]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
