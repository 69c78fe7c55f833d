//! Derivative modules and COMMON blocks are named per mode (`m_d`, `m_dv`, `m_b`; `/cb_d/`,
//! `/cb_dv/`), like the procedures (docs/decisions.md, "Naming"), so that the outputs of
//! several modes link into one executable.

use std::process::Command;

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run");
    assert!(
        out.status.success(),
        "{:?}: {}{}",
        cmd,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A driver's output `yd ydv(1) ydv(2)`, the directions `xd` and `2 xd`: the vector tangent's
/// must be the scalar tangent's, and twice it.
fn vector_matches_tangent(out: &str) {
    let v: Vec<f64> = out
        .split_whitespace()
        .map(|w| w.parse().expect("a number"))
        .collect();
    assert_eq!(v.len(), 3, "{out}");
    assert!(v[0].abs() > 1e-3, "{out}");
    assert!((v[1] - v[0]).abs() <= 1e-14 * v[0].abs(), "{out}");
    assert!((v[2] - 2.0 * v[0]).abs() <= 1e-14 * v[0].abs(), "{out}");
}

const PROGRAM: &str = "module lm
  implicit none
  real(8) :: c = 1.5d0
contains
  subroutine f(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y
    real(8) :: w
    common /cb/ w
    c = c*x(1)
    call g(x(2))
    y = sin(c)*w
  end subroutine f
end module lm
subroutine g(t)
  real(8), intent(in) :: t
  real(8) :: w
  common /cb/ w
  w = t*t + 1.0d0
end subroutine g
";

/// A driver using `lm_d` and `lm_dv` together: the vector tangent's first direction must be
/// the scalar tangent along the same direction.
const DRIVER: &str = "program both
  use lm
  use lm_d
  use lm_dv, only: f_dv, cdv => cd
  use diffsizes
  implicit none
  real(8) :: x(2), xd(2), y, yd, xdv(nbdirsmax, 2), ydv(nbdirsmax), c0
  c0 = c
  x = (/ 0.7d0, 1.2d0 /)
  xd = (/ 0.3d0, -0.4d0 /)
  cd = 0.0d0
  call f_d(x, xd, y, yd)
  c = c0
  xdv = 0.0d0
  xdv(1, :) = xd
  xdv(2, :) = 2.0d0*xd
  cdv = 0.0d0
  call f_dv(x, xdv, y, ydv, 2)
  print '(3es25.16)', yd, ydv(1), ydv(2)
end program both
";

#[test]
fn tangent_and_vector_outputs_of_a_module_program_link_together() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-modenames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lm.f90"), PROGRAM).unwrap();
    std::fs::write(dir.join("both.f90"), DRIVER).unwrap();
    let d = dir.to_string_lossy().into_owned();
    for mode in [&["-d"][..], &["-d", "-vector", "-nbdirsmax", "2"][..]] {
        run(Command::new(env!("CARGO_BIN_EXE_radtap"))
            .args(mode)
            .args([
                "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, "lm.f90",
            ])
            .current_dir(&dir));
    }
    let td = std::fs::read_to_string(dir.join("lm_d.f90")).unwrap();
    let tv = std::fs::read_to_string(dir.join("lm_dv.f90")).unwrap();
    assert!(
        td.contains("module lm_d\n") && td.contains("/cb_d/"),
        "{td}"
    );
    assert!(
        tv.contains("module lm_dv\n") && tv.contains("/cb_dv/"),
        "{tv}"
    );
    run(Command::new("gfortran")
        .args([
            "-Wall",
            "-fcheck=all",
            "lm.f90",
            "DIFFSIZES.f90",
            "lm_d.f90",
            "lm_dv.f90",
            "both.f90",
            "-o",
            "both",
        ])
        .current_dir(&dir));
    vector_matches_tangent(&run(&mut Command::new(dir.join("both"))));
    let _ = std::fs::remove_dir_all(&dir);
}

const C_PROGRAM: &str = "static double s = 0.0;

static void acc(double x, double *out)
{
    s = 0.5 * s + x * x;
    *out = s;
}

void f(const double *x, double *y)
{
    acc(x[0], y);
    acc(x[1], y);
}
";

/// Calls the tangent and the vector tangent of `f` along the same direction.
const C_DRIVER: &str = "#include <stdio.h>
#include \"DIFFSIZES.h\"
void f_d(const double *x, const double *xd, double *y, double *yd);
void f_dv(const double *x, const double (*xd)[NBDirsMax], double *y, double (*yd)[NBDirsMax],
          int nbdirs);
int main(void)
{
    double x[2] = {0.7, 1.2}, xd[2] = {0.3, -0.4}, y, yd;
    double xdv[2][NBDirsMax] = {{0.3, 0.6}, {-0.4, -0.8}}, ydv[1][NBDirsMax];
    f_d(x, xd, &y, &yd);
    f_dv(x, xdv, &y, ydv, 2);
    printf(\"%.16e %.16e %.16e\\n\", yd, ydv[0][0], ydv[0][1]);
    return 0;
}
";

/// File-scope `static` state: its derivative is file-local in each mode's output (it was a
/// global `sd` in both the tangent and the vector tangent: \"multiple definition of `sd'\").
#[test]
fn c_outputs_with_static_state_link_together() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-modenames-c-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("cs.c"), C_PROGRAM).unwrap();
    std::fs::write(dir.join("main.c"), C_DRIVER).unwrap();
    let d = dir.to_string_lossy().into_owned();
    for mode in [&["-d"][..], &["-d", "-vector", "-nbdirsmax", "2"][..]] {
        run(Command::new(env!("CARGO_BIN_EXE_radtap"))
            .args(mode)
            .args([
                "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, "cs.c",
            ])
            .current_dir(&dir));
    }
    let td = std::fs::read_to_string(dir.join("cs_d.c")).unwrap();
    assert!(td.contains("static double sd;"), "{td}");
    run(Command::new("gcc")
        .args(["cs.c", "cs_d.c", "cs_dv.c", "main.c", "-lm", "-o", "both"])
        .current_dir(&dir));
    vector_matches_tangent(&run(&mut Command::new(dir.join("both"))));
    let _ = std::fs::remove_dir_all(&dir);
}
