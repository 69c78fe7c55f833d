//! The order of the input files does not matter (issue 50): a head in a file of its own
//! listed before the modules it uses (Tapenade's own SICOPOLIS makefile lists the head's file
//! first), and a module listed before a module it uses. The derivative of a unit USEs the
//! derivative modules of the modules it uses, and the output file has each derivative module
//! before its users. Before, `run_model_d` got no `use grid_state_d, flow_ops_d`: without
//! IMPLICIT NONE it compiled, `call relax_d()` an implicit external (undefined at link) and
//! `hd = 0` an implicit local.
//!
//! Each mode's output is compiled with gfortran, linked with the original sources (compiled
//! modules first) and a driver, and run: the tangent against central differences, the vector
//! tangent against the tangent, the adjoint (joint and split) by the dot product with the
//! tangent.

use radtap_il::Lang;
use radtap_validation::Toolchain;
use std::path::PathBuf;
use std::process::Command;

const STATE: &str = "\
! The state of a small relaxation model: heights on a line and a misfit.
module grid_state
  implicit none
  integer, parameter :: np = 4
  real(8) :: h(np), cost
end module grid_state
";

const OPS: &str = "\
! The operators of the model, on the state of grid_state.
module flow_ops
  use grid_state
  implicit none
contains
  subroutine relax(rate)
    real(8), intent(in) :: rate
    integer :: i
    do i = 2, np
      h(i) = h(i) + rate*h(i - 1)*h(i)
    end do
  end subroutine relax

  subroutine misfit()
    cost = sum(h**2) + sin(h(1))
  end subroutine misfit
end module flow_ops
";

const HEAD: &str = "\
! The model's entry point: an external subroutine without IMPLICIT NONE, in a file of its
! own that a build lists before the modules it uses.
subroutine run_model()
  use grid_state
  use flow_ops
  real(8) :: rate
  rate = 0.25d0
  do it = 1, 3
    call relax(rate)
  end do
  call misfit()
end subroutine run_model
";

/// The inputs and the direction of the drivers.
const SET_H: &str = "h = [0.9d0, 1.1d0, 0.7d0, 1.3d0]";
const DIR: &str = "[0.5d0, -1.0d0, 0.25d0, 0.75d0]";

/// Central differences of `cost` along `DIR`, printed `fd=`.
fn fd_lines() -> String {
    format!(
        "  eps = 1d-6\n  {SET_H}\n  h = h + eps*{DIR}\n  call run_model()\n  cp = cost\n  \
         {SET_H}\n  h = h - eps*{DIR}\n  call run_model()\n  print '(a,es24.16)', 'fd=', (cp - cost)/(2*eps)\n"
    )
}

/// The driver of one mode: prints `fd=` and the mode's derivative along `DIR` (`d=`).
fn driver(mode: &str) -> String {
    let body = match mode {
        "d" => format!("  {SET_H}\n  hd = {DIR}\n  call run_model_d()\n  print '(a,es24.16)', 'd=', costd\n"),
        "dv" => format!(
            "  {SET_H}\n  hd = 0\n  hd(1, :) = 2*{DIR}\n  hd(2, :) = {DIR}\n  call run_model_dv(2)\n  \
             print '(a,es24.16)', 'd=', costd(2)\n  print '(a,es24.16)', 'd2=', costd(1)/2\n"
        ),
        _ => format!(
            "  {SET_H}\n  costb = 1d0\n  call run_model_b()\n  print '(a,es24.16)', 'd=', sum(hb*{DIR})\n"
        ),
    };
    let suffix = if mode == "dv" { "dv" } else { &mode[..1] };
    format!(
        "program drv\n  use grid_state\n  use grid_state_{suffix}\n  implicit none\n  real(8) :: eps, cp\n{body}{}end program drv\n",
        fd_lines()
    )
}

fn value(out: &str, tag: &str) -> f64 {
    out.lines()
        .find_map(|l| l.trim().strip_prefix(tag))
        .unwrap_or_else(|| panic!("no `{tag}` in:\n{out}"))
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("`{tag}` in {out}: {e}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-file-order-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Differentiates with the files in `order` (names among `head.f90`, `ops.f90`,
/// `state.f90`) in each mode, then compiles, links and runs each output.
fn check_order(tag: &str, order: &[&str]) {
    let dir = scratch(tag);
    for (name, text) in [("state.f90", STATE), ("ops.f90", OPS), ("head.f90", HEAD)] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let modes: [(&str, &[&str]); 4] = [
        ("d", &["-d"]),
        ("dv", &["-d", "-vector", "-nbdirsmax", "2"]),
        ("b", &["-b"]),
        ("b", &["-b", "-nocheckpoint"]),
    ];
    let mut tc = Toolchain::new(None, None, std::time::Duration::from_secs(60));
    tc.fflags.push("-ftrivial-auto-var-init=pattern".into());
    let stem = order[0].trim_end_matches(".f90");
    for (k, (mode, flags)) in modes.iter().enumerate() {
        let run = dir.join(format!("run{k}"));
        std::fs::create_dir_all(&run).unwrap();
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        args.extend(["-head", "run_model(cost)/(h)", "-O"].map(String::from));
        args.push(run.display().to_string());
        args.extend(order.iter().map(|f| dir.join(f).display().to_string()));
        let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
            .args(&args)
            .output()
            .expect("run radtap");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{flags:?} {order:?}: {err}");
        let generated = run.join(format!("{stem}_{mode}.f90"));
        std::fs::write(run.join("drv.f90"), driver(mode)).unwrap();
        // The original compiled as a build would: modules first.
        let mut sources: Vec<PathBuf> = ["state.f90", "ops.f90", "head.f90"]
            .iter()
            .map(|f| dir.join(f))
            .collect();
        if *mode == "dv" {
            sources.push(run.join("DIFFSIZES.f90"));
        }
        sources.push(generated);
        sources.push(run.join("drv.f90"));
        let mut objects = Vec::new();
        if mode.starts_with('b') {
            objects.push(tc.runtime(&run).unwrap());
        }
        let exe = tc
            .compile(&run, Lang::Fortran, &[], &sources, &objects, "drv")
            .unwrap_or_else(|e| panic!("{flags:?} {order:?}:\n{e}"));
        let printed = tc
            .run(&run, &exe)
            .unwrap_or_else(|e| panic!("{flags:?} {order:?}:\n{e}"));
        let text = std::fs::read_to_string(run.join(format!("{stem}_{mode}.f90"))).unwrap();
        let suffix = if *mode == "dv" { "dv" } else { &mode[..1] };
        assert!(
            text.contains(&format!("use grid_state_{suffix}\n  use flow_ops_{suffix}\n")),
            "{flags:?} {order:?}: the head's derivative does not use the derivative modules:\n{text}"
        );
        let (fd, d) = (value(&printed, "fd="), value(&printed, "d="));
        assert!(
            (d - fd).abs() <= 1e-6 * fd.abs().max(1.0),
            "{flags:?} {order:?}: derivative {d} against divided differences {fd}"
        );
        if *mode == "dv" {
            let d2 = value(&printed, "d2=");
            assert!((d2 - d).abs() <= 1e-12 * d.abs(), "{printed}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn head_file_listed_before_its_modules() {
    check_order("head-first", &["head.f90", "state.f90", "ops.f90"]);
}

#[test]
fn modules_listed_after_their_users() {
    check_order("reversed", &["head.f90", "ops.f90", "state.f90"]);
}

#[test]
fn modules_listed_first() {
    check_order("modules-first", &["state.f90", "ops.f90", "head.f90"]);
}

/// A module used only by a procedure it contains, listed after: the module's own USE list
/// does not name it.
#[test]
fn module_used_by_a_contained_procedure() {
    let dir = scratch("contained");
    std::fs::write(
        dir.join("a.f90"),
        "module a_m\n  implicit none\ncontains\n  subroutine f(x, y)\n    use b_m\n    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    w = x*x\n    y = 2*w\n  end subroutine f\nend module a_m\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("b.f90"),
        "module b_m\n  implicit none\n  real(8) :: w\nend module b_m\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(["-d", "-head", "a_m.f(y)/(x)", "-O"])
        .arg(dir.join("o"))
        .arg(dir.join("a.f90"))
        .arg(dir.join("b.f90"))
        .output()
        .expect("run radtap");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("o/a_d.f90")).unwrap();
    let b = text.find("module b_m_d").expect("b_m_d written");
    let a = text.find("module a_m_d").expect("a_m_d written");
    assert!(b < a && text.contains("use b_m_d"), "{text}");
    let compiled = Command::new("gfortran")
        .current_dir(&dir)
        .args(["-c", "b.f90", "a.f90", "o/a_d.f90"])
        .output()
        .expect("run gfortran");
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
