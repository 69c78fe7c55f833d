//! A head run more than once by one driver: the same derivatives each time (Fortran and C),
//! a C static state restarting its derivative each run, and one record given twice stopping
//! the adjoint when it runs.

use super::*;

/// The derivatives of globals live in static storage: a head's tangent and adjoint clear
/// those that are no inputs on entry (the adjoint at the start of its backward sweep), so a
/// second call gives the same derivatives. Here a module accumulator and a COMMON one that the
/// head does not declare are reset by primal calls (`rg_reset` has no derivative at all):
/// before, the second tangent and the second adjoint added the first run's derivatives
/// (silently wrong: 16.50 instead of 6.735). And a delay line keeps the previous run's value
/// in a local saved by its initialiser: the state a run starts from is a constant of the
/// run, so its saved derivative starts each run at zero (`saved.rs`).
#[test]
fn head_called_twice_gives_the_same_derivatives() {
    let dir = std::env::temp_dir().join(format!("radtap-twice-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("rg.f90");
    std::fs::write(&src, SRC).unwrap();
    let opts: Vec<String> = ["-head", "f", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for (mode, drv) in [("-d", DRV_D), ("-b", DRV_B)] {
        let o = run_cli(&src, &opts, &[mode, "-o", "gen"], &dir);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let tag = &mode[1..];
        std::fs::write(dir.join(format!("drv_{tag}.f90")), drv).unwrap();
        let srcs = [
            src.clone(),
            dir.join(format!("gen_{tag}.f90")),
            dir.join(format!("drv_{tag}.f90")),
        ];
        let out = build(&dir, Lang::Fortran, &srcs, &format!("drv_{tag}"))
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
        let v: Vec<f64> = out.split_whitespace().map(|t| t.parse().unwrap()).collect();
        let (first, second) = v.split_at(v.len() / 2);
        assert_eq!(
            first, second,
            "{mode}: first call {first:?}, second {second:?}"
        );
        if mode == "-d" {
            assert!((first[0] - 6.735).abs() < 1e-12, "{first:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    const SRC: &str = "module rg_mod\n  implicit none\n  real(8) :: acc\ncontains\n  subroutine rg_reset()\n    acc = 0.0d0\n  end subroutine rg_reset\n  subroutine rg_add(v)\n    real(8), intent(in) :: v\n    acc = acc + v*v\n  end subroutine rg_add\nend module rg_mod\n\nsubroutine rg_creset()\n  double precision tot\n  common /rgc/ tot\n  tot = 1.0d0\nend subroutine rg_creset\n\nsubroutine rg_cadd(v, t)\n  double precision v, t, tot\n  common /rgc/ tot\n  tot = tot*v\n  t = tot\nend subroutine rg_cadd\n\nsubroutine delay(v, d)\n  real(8), intent(in) :: v\n  real(8), intent(out) :: d\n  real(8) :: s = 0.0d0\n  d = s\n  s = v*v\nend subroutine delay\n\nsubroutine f(x, y)\n  use rg_mod\n  implicit none\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y\n  real(8) :: t, d\n  integer :: k\n  call rg_reset()\n  call rg_creset()\n  do k = 1, 3\n    call rg_add(x(1))\n    call rg_cadd(x(2), t)\n  end do\n  call delay(x(1), d)\n  y = acc + t + d\nend subroutine f\n";
    const DRV_D: &str = "program drv\n  implicit none\n  real(8) :: x(2), xd(2), y, yd1, yd2\n  x = [0.7d0, 1.3d0]\n  xd = [1.0d0, 0.5d0]\n  call f_d(x, xd, y, yd1)\n  call f_d(x, xd, y, yd2)\n  print '(2es25.16)', yd1, yd2\nend program drv\n";
    const DRV_B: &str = "program drv\n  implicit none\n  real(8) :: x(2), xb1(2), xb2(2), y, yb\n  x = [0.7d0, 1.3d0]\n  yb = 1.0d0\n  call f_b(x, xb1, y, yb)\n  yb = 1.0d0\n  call f_b(x, xb2, y, yb)\n  print '(4es25.16)', xb1, xb2\nend program drv\n";
}

/// Differentiates C source `src` (head `f`, `-vars x -outvars y`) in each mode of `drivers`
/// (`-d`, `-dv` with two directions, `-b`), builds it with the mode's driver and returns the
/// numbers each driver prints, by mode. `name` names the scratch directory.
fn run_c_drivers(name: &str, src: &str, drivers: &[(&str, &str)]) -> Vec<(String, Vec<f64>)> {
    let dir = std::env::temp_dir().join(format!("radtap-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.c"));
    std::fs::write(&path, src).unwrap();
    let opts: Vec<String> = ["-head", "f", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut runs = Vec::new();
    for &(mode, drv) in drivers {
        let flags: &[&str] = match mode {
            "-dv" => &["-d", "-vector", "-nbdirsmax", "2"],
            m => &[m],
        };
        let mut extra = flags.to_vec();
        extra.extend(["-o", "gen"]);
        let o = run_cli(&path, &opts, &extra, &dir);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let tag = &mode[1..];
        std::fs::write(dir.join(format!("drv_{tag}.c")), drv).unwrap();
        let srcs = [
            path.clone(),
            dir.join(format!("gen_{tag}.c")),
            dir.join(format!("drv_{tag}.c")),
        ];
        let out = build(&dir, Lang::C, &srcs, &format!("drv_{tag}"))
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
        let v = out.split_whitespace().map(|t| t.parse().unwrap()).collect();
        runs.push((mode.to_string(), v));
    }
    let _ = std::fs::remove_dir_all(&dir);
    runs
}

/// The same for C globals (file-scope scalars and arrays, in scalar and vector mode): a head
/// clears their derivatives on entry (the adjoint at the start of its backward sweep). Before,
/// a second call of `f_d` gave 10.374 instead of 5.67, and the adjoint likewise added the
/// first run's adjoints of `acc`, `tot` and `arr`.
#[test]
fn c_head_called_twice_gives_the_same_derivatives() {
    let drivers = [("-d", DRV_D), ("-dv", DRV_DV), ("-b", DRV_B)];
    for (mode, v) in run_c_drivers("twice-c", SRC, &drivers) {
        let mode = mode.as_str();
        let (first, second) = v.split_at(v.len() / 2);
        assert_eq!(
            first, second,
            "{mode}: first call {first:?}, second {second:?}"
        );
        // y = 3 x0² + x0³ + 3 x0 x1, ẋ = (1, 0.5): ẏ = 6x0 + 3x0² + 3x1 + 1.5x0 = 10.62.
        if mode == "-d" {
            assert!((first[0] - 10.62).abs() < 1e-12, "{first:?}");
        }
        if mode == "-b" {
            // x̄ = ∇y = (6x0 + 3x0² + 3x1, 3x0).
            assert!((first[0] - 9.57).abs() < 1e-12, "{first:?}");
            assert!((first[1] - 2.1).abs() < 1e-12, "{first:?}");
        }
    }
    const SRC: &str = "double acc;\ndouble tot = 1.0;\ndouble arr[4];\nvoid reset(void) {\n  int i;\n  acc = 0.0;\n  tot = 1.0;\n  for (i = 0; i < 4; i++) arr[i] = 0.0;\n}\nvoid add(double v, double w) {\n  acc = acc + v * v;\n  tot = tot * v;\n  arr[2] = arr[2] + w;\n}\nvoid f(double *x, double *y) {\n  int k;\n  reset();\n  for (k = 0; k < 3; k++) add(x[0], x[1] * x[0]);\n  *y = acc + tot + arr[2];\n}\n";
    const DRV_D: &str = "#include <stdio.h>\nvoid f_d(double *x, double *xd, double *y, double *yd);\nint main(void) {\n  double x[2] = {0.7, 1.3}, xd[2] = {1.0, 0.5}, y, yd1, yd2;\n  f_d(x, xd, &y, &yd1);\n  f_d(x, xd, &y, &yd2);\n  printf(\"%.16e %.16e\\n\", yd1, yd2);\n  return 0;\n}\n";
    const DRV_DV: &str = "#include <stdio.h>\nvoid f_dv(double *x, double (*xd)[2], double *y, double (*yd)[2], int nbdirs);\nint main(void) {\n  double x[2] = {0.7, 1.3}, xd[2][2] = {{1.0, 0.0}, {0.5, 1.0}}, y, yd1[1][2], yd2[1][2];\n  f_dv(x, xd, &y, yd1, 2);\n  f_dv(x, xd, &y, yd2, 2);\n  printf(\"%.16e %.16e %.16e %.16e\\n\", yd1[0][0], yd1[0][1], yd2[0][0], yd2[0][1]);\n  return 0;\n}\n";
    const DRV_B: &str = "#include <stdio.h>\nvoid f_b(double *x, double *xb, double *y, double *yb);\nint main(void) {\n  double x[2] = {0.7, 1.3}, xb1[2] = {0.0, 0.0}, xb2[2] = {0.0, 0.0}, y, yb = 1.0;\n  f_b(x, xb1, &y, &yb);\n  yb = 1.0;\n  f_b(x, xb2, &y, &yb);\n  printf(\"%.16e %.16e %.16e %.16e\\n\", xb1[0], xb1[1], xb2[0], xb2[1]);\n  return 0;\n}\n";
}

/// `mat_mult(&absolutes[parents[i]], &relatives[i], &absolutes[i])` (ADBench's hand tracker)
/// on records the program allocated, which own their blocks: the adjoint checks when it runs
/// that the two are different records (`parents[i] != i`), and stops with the line when they
/// are one (the primal's own result is then an in-place product the adjoint cannot follow);
/// with a tree of parents it runs and gives the gradient.
#[test]
fn one_record_given_twice_stops_the_adjoint_when_it_runs() {
    let chain = include_str!("../tangent/c_hand_bone_chain.c");
    let src = format!("{chain}\n{HEAD}");
    let tree = run_c_drivers("alias-tree-c", &src, &[("-b", &DRV.replace("PARENT", "1"))]);
    let v = &tree[0].1;
    assert!(
        v.len() == 2 && v.iter().all(|g| g.is_finite() && *g != 0.0),
        "{v:?}"
    );
    // parents[2] == 2: `mat_mult(&abs[2], &rel[2], &abs[2])`.
    let r = std::panic::catch_unwind(|| {
        run_c_drivers("alias-self-c", &src, &[("-b", &DRV.replace("PARENT", "2"))])
    });
    // run_c_drivers stopped before removing its directory.
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("radtap-alias-self-c-{}", std::process::id())),
    );
    let msg = match r {
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
        Ok(v) => panic!("ran through: {v:?}"),
    };
    assert!(
        msg.contains("arguments 1 and 3 of mat_mult are one record"),
        "{msg}"
    );
    const HEAD: &str = "void f(const int *par, const double *x, double *y)\n{\n    int i, j, n = 4;\n    Matrix *rel = get_matrix_array(n);\n    Matrix *abs_ = get_matrix_array(n);\n    for (i = 0; i < n; i++)\n    {\n        resize(&rel[i], 3, 3);\n        for (j = 0; j < 9; j++)\n            rel[i].data[j] = x[j % 2] * (i + 1) + (j % 4 == 0);\n    }\n    relatives_to_absolutes(n, rel, par, abs_);\n    y[0] = abs_[n - 1].data[0] * abs_[n - 1].data[4];\n    delete_light_matrix_array(rel, n);\n    delete_light_matrix_array(abs_, n);\n}\n";
    const DRV: &str = "#include <stdio.h>\nvoid f_b(const int *par, const double *x, double *xb, double *y, double *yb);\nint main(void) {\n  int par[4] = {-1, 0, PARENT, 1};\n  double x[2] = {0.3, 0.7}, xb[2] = {0.0, 0.0}, y[1], yb[1] = {1.0};\n  f_b(par, x, xb, y, yb);\n  printf(\"%.16e %.16e\\n\", xb[0], xb[1]);\n  return 0;\n}\n";
}

/// C `static` locals carrying a derivative from one call to the next: each run of the head
/// starts their derivatives at zero (the state a previous run left is a constant of this
/// run). `y = smooth(x0) + smooth(x1)` with `s = s/2 + v²`: whatever state the first run
/// left, ẏ = 3 x0 ẋ0 + 2 x1 ẋ1. Before, the second run of `f_d` added 0.75 ṡ of the first.
#[test]
fn c_static_state_restarts_its_derivative_each_run() {
    for (mode, v) in run_c_drivers("static-c", SRC, &[("-d", DRV_D), ("-dv", DRV_DV)]) {
        // x = (0.7, 1.3), ẋ = (1, 0.5) (and (0, 1) in vector mode): 2.1 + 1.3 = 3.4, 2.6.
        let want: &[f64] = if mode == "-d" {
            &[3.4, 3.4, 3.4]
        } else {
            &[3.4, 2.6, 3.4, 2.6, 3.4, 2.6]
        };
        assert_eq!(v.len(), want.len(), "{mode}: {v:?}");
        for (g, w) in v.iter().zip(want) {
            assert!(
                (g - w).abs() < 1e-12,
                "{mode}: runs gave {v:?}, want {want:?}"
            );
        }
    }
    const SRC: &str = "static double smooth(double v) {\n  static double s = 0.0;\n  s = 0.5 * s + v * v;\n  return s;\n}\nvoid f(const double *x, double *y) {\n  *y = smooth(x[0]) + smooth(x[1]);\n}\n";
    const DRV_D: &str = "#include <stdio.h>\nvoid f_d(const double *x, const double *xd, double *y, double *yd);\nint main(void) {\n  double x[2] = {0.7, 1.3}, xd[2] = {1.0, 0.5}, y, yd[3];\n  for (int k = 0; k < 3; k++) f_d(x, xd, &y, &yd[k]);\n  printf(\"%.16e %.16e %.16e\\n\", yd[0], yd[1], yd[2]);\n  return 0;\n}\n";
    const DRV_DV: &str = "#include <stdio.h>\nvoid f_dv(const double *x, const double (*xd)[2], double *y, double (*yd)[2], int nbdirs);\nint main(void) {\n  double x[2] = {0.7, 1.3}, xd[2][2] = {{1.0, 0.0}, {0.5, 1.0}}, y, yd[3][1][2];\n  for (int k = 0; k < 3; k++) f_dv(x, xd, &y, yd[k], 2);\n  for (int k = 0; k < 3; k++) printf(\"%.16e %.16e \", yd[k][0][0], yd[k][0][1]);\n  printf(\"\\n\");\n  return 0;\n}\n";
}
