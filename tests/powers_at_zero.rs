//! Powers at a zero base, where the corpus (inputs in [0.5, 1.5]) never looks: `t**m`,
//! `t**0`, `t**p` with `p = 0`, `t**1.5`, `t**s` with an active exponent, and C `pow`, all at
//! `t = 0` exactly. The derivative exists there (0, or `m·t^(m-1)`); the tangent and the
//! adjoint must give it, finite, not `0·∞` or `log(0)` (NaN).
//!
//! For each language one head `pw` is differentiated in tangent mode (`-d`) and adjoint mode
//! (`-b`); a small driver calls both at `t = 0` with the direction `td = sd = 1` and weights
//! `yb = 1`, and prints the tangent of every dependent and the adjoints `tb`, `sb`. The values
//! expected are the analytic ones. On failure the work directory is kept and named.

use radtap::{execute, normalize_args, Cli};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Exact derivatives at t = 0, s = 2.5 along td = sd = 1, one per dependent:
/// `t**m0` (m0 = 0), `t**m1` (m1 = 1), `t**m3` (m3 = 3), `t**1.5`, `t**2.0`, `t**0`,
/// `t**p` (p = 0, inactive), `t**s`, `(1+t)**s` (= s), `t**1.0` (= 1).
const TANGENT: [f64; 10] = [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.5, 1.0];
/// With every `yb = 1`: `tb` = the sum of the ∂y/∂t, `sb` = ∂(t**s)/∂s + ∂((1+t)**s)/∂s = 0.
const ADJOINT: [f64; 2] = [4.5, 0.0];

const FORTRAN: &str = "subroutine pw(t, s, p, m0, m1, m3, y)
  implicit none
  real(8), intent(in) :: t, s, p
  integer, intent(in) :: m0, m1, m3
  real(8), intent(out) :: y(10)
  y(1) = t**m0
  y(2) = t**m1
  y(3) = t**m3
  y(4) = t**1.5d0
  y(5) = t**2.0d0
  y(6) = t**0
  y(7) = t**p
  y(8) = t**s
  y(9) = (1 + t)**s
  y(10) = t**1.0d0
end subroutine pw
";

const FORTRAN_DRIVER: &str = "program drv
  implicit none
  real(8) :: t, td, tb, s, sd, sb, y(10), yd(10), yb(10)
  integer :: i
  t = 0; s = 2.5d0; td = 1; sd = 1
  call pw_d(t, td, s, sd, 0.0d0, 0, 1, 3, y, yd)
  do i = 1, 10
    print '(es24.16)', yd(i)
  end do
  yb = 1; tb = 0; sb = 0
  call pw_b(t, tb, s, sb, 0.0d0, 0, 1, 3, y, yb)
  print '(es24.16)', tb
  print '(es24.16)', sb
end program drv
";

const C: &str = "#include <math.h>
void pw(double t, double s, double p, int m0, int m1, int m3, double *y)
{
    y[0] = pow(t, m0);
    y[1] = pow(t, m1);
    y[2] = pow(t, m3);
    y[3] = pow(t, 1.5);
    y[4] = pow(t, 2.0);
    y[5] = pow(t, 0);
    y[6] = pow(t, p);
    y[7] = pow(t, s);
    y[8] = pow(1 + t, s);
    y[9] = pow(t, 1.0);
}
";

const C_DRIVER: &str = "#include <stdio.h>
void pw_d(double t, double td, double s, double sd, double p, int m0, int m1, int m3, double *y, double *yd);
void pw_b(double t, double *tb, double s, double *sb, double p, int m0, int m1, int m3, double *y, double *yb);
int main(void)
{
    double y[10], yd[10], yb[10], tb = 0, sb = 0;
    int i;
    pw_d(0.0, 1.0, 2.5, 1.0, 0.0, 0, 1, 3, y, yd);
    for (i = 0; i < 10; i++) printf(\"%.16e\\n\", yd[i]);
    for (i = 0; i < 10; i++) yb[i] = 1.0;
    pw_b(0.0, &tb, 2.5, &sb, 0.0, 0, 1, 3, y, yb);
    printf(\"%.16e\\n%.16e\\n\", tb, sb);
    return 0;
}
";

fn radtap(dir: &Path, src: &Path, mode: &str) -> Result<(), String> {
    let (d, s) = (dir.display().to_string(), src.display().to_string());
    let args = [
        "radtap", mode, "-head", "pw", "-vars", "t s", "-outvars", "y", "-O", &d, &s,
    ];
    let args = normalize_args(args.into_iter().map(String::from));
    let cli = <Cli as clap::Parser>::try_parse_from(args).map_err(|e| e.to_string())?;
    let o = execute(&cli);
    if o.status != 0 {
        return Err(format!("radtap {mode} failed:\n{}", o.stderr));
    }
    Ok(())
}

fn check(ext: &str, program: &str, driver: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("radtap-pow0-{ext}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let src = dir.join(format!("pw.{ext}"));
    std::fs::write(&src, program).map_err(|e| e.to_string())?;
    radtap(&dir, &src, "-d")?;
    radtap(&dir, &src, "-b")?;
    let rt = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(["runtime", "-O"])
        .arg(&dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !rt.status.success() {
        return Err("radtap runtime failed".into());
    }
    let drv = dir.join(format!("drv.{ext}"));
    std::fs::write(&drv, driver).map_err(|e| e.to_string())?;
    let sources: Vec<PathBuf> = vec![
        dir.join(format!("pw_d.{ext}")),
        dir.join(format!("pw_b.{ext}")),
        drv,
    ];
    let mut cmd = if ext == "c" {
        let mut c = Command::new("gcc");
        c.args(["-O0", "-std=c99"]);
        c
    } else {
        let mut c = Command::new("gfortran");
        c.args(["-O0", "-ffree-line-length-none"]);
        c
    };
    cmd.current_dir(&dir)
        .arg("-o")
        .arg("drv")
        .args(&sources)
        .arg("adStack.c");
    if ext == "c" {
        cmd.arg("-lm");
    }
    let o = cmd.output().map_err(|e| format!("compiler: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "compile failed in {}:\n{}",
            dir.display(),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let o = Command::new(dir.join("drv"))
        .output()
        .map_err(|e| e.to_string())?;
    let out = String::from_utf8_lossy(&o.stdout);
    let got: Vec<f64> = out
        .split_whitespace()
        .map(|w| w.parse::<f64>().unwrap_or(f64::NAN))
        .collect();
    let want: Vec<f64> = TANGENT.iter().chain(ADJOINT.iter()).copied().collect();
    let mut bad = Vec::new();
    for (i, w) in want.iter().enumerate() {
        let g = got.get(i).copied().unwrap_or(f64::NAN);
        if !g.is_finite() || (g - w).abs() > 1e-12 * w.abs().max(1.0) {
            let what = if i < TANGENT.len() {
                format!("tangent of y({})", i + 1)
            } else {
                ["adjoint tb", "adjoint sb"][i - TANGENT.len()].to_string()
            };
            bad.push(format!("{what}: {g} (expected {w})"));
        }
    }
    if !bad.is_empty() {
        return Err(format!(
            "at t = 0 ({}):\n  {}",
            dir.display(),
            bad.join("\n  ")
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn fortran_powers_have_finite_exact_derivatives_at_zero() {
    if let Err(e) = check("f90", FORTRAN, FORTRAN_DRIVER) {
        panic!("{e}");
    }
}

#[test]
fn c_pow_has_finite_exact_derivatives_at_zero() {
    if let Err(e) = check("c", C, C_DRIVER) {
        panic!("{e}");
    }
}
