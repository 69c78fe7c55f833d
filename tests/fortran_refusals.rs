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
    for (code, err) in all_modes(&dir, &f, head, "x", "y") {
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!("{name}.f90:{at}: error[AD020]")) && err.contains(msg),
            "{err}"
        );
    }
}

#[test]
fn a_call_to_a_host_of_internal_procedures_using_its_arguments_is_refused() {
    // `bar` writes `foo`'s argument `y` by host association: the analyses numbered `y` as a
    // global, so `h` saw no dependence of `b` on `a` and wrote a zero derivative.
    let text = "module mi
  implicit none
contains
  subroutine foo(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    call bar()
  contains
    subroutine bar()
      y = sin(x)
    end subroutine bar
  end subroutine foo
  subroutine h(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    call foo(x, y)
  end subroutine h
end module mi
";
    assert_refused(
        "hostsub",
        text,
        "h",
        "16:5",
        "`foo` has internal procedures that use its argument",
    );
    // A function-valued internal procedure used in an expression.
    let text = "module mf
  implicit none
contains
  real(8) function foo(x)
    real(8), intent(in) :: x
    foo = g() + 1.0d0
  contains
    real(8) function g()
      g = sin(x)
    end function g
  end function foo
  subroutine h(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = 2.0d0*foo(x)
  end subroutine h
end module mf
";
    assert_refused(
        "hostfun",
        text,
        "h",
        "15:5",
        "`foo` has internal procedures that use its argument `x`",
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
    for (code, err) in all_modes(&dir, &f, "head", "x", "y") {
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
