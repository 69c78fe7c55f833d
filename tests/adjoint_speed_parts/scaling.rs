//! How the adjoint's cost grows: linear in a division chain's length and in a grid's size,
//! a loop-invariant call evaluated once, and the optimisations before differentiation
//! evaluating less.

use super::*;

/// Item 1: each quotient of a division chain `y = (x+1)/(x+1)/.../(x+1)` is a factor of the
/// partials of every later denominator; written out in full in each partial, the adjoint was
/// quadratic in the chain's length (1,600 divisions: 13 MB of code, 25 s, 2.6 GB), while the
/// tangent shares each quotient in a temporary. The adjoint now shares them the same way
/// (`-nooptim sharepartials` writes them out again). Numbers: the corpus program
/// `div_chain.f90` (a chain with the same shape) goes through tests/adjoint.rs.
#[test]
fn the_adjoint_of_a_division_chain_is_linear_in_its_length() {
    // Deep expressions: on the CLI's stack size, as `radtap` runs.
    std::thread::Builder::new()
        .stack_size(radtap::STACK_BYTES)
        .spawn(division_chain)
        .unwrap()
        .join()
        .unwrap();
}

fn division_chain() {
    let dir = std::env::temp_dir().join(format!("radtap-divchain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opts: Vec<String> = ["-head", "f", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let size = |n: usize, extra: &[&str]| -> usize {
        let mut line = String::from("(x+1)");
        let mut rhs = Vec::new();
        for _ in 0..n {
            if line.len() > 90 {
                rhs.push(format!("{line} &"));
                line = String::from("&");
            }
            line.push_str("/(x+1)");
        }
        rhs.push(line);
        let src = dir.join(format!("div{n}.f90"));
        std::fs::write(
            &src,
            format!(
                "subroutine f(x, y)\n  real(8) :: x, y\n  y = {}\nend subroutine\n",
                rhs.join("\n")
            ),
        )
        .unwrap();
        let out = dir.join(format!("out{n}{}", extra.len()));
        let mut args = vec!["-b", "-o", "gen"];
        args.extend_from_slice(extra);
        let o = run_cli(&src, &opts, &args, &out);
        assert_eq!(o.status, 0, "{}", o.stderr);
        std::fs::metadata(out.join("gen_b.f90")).unwrap().len() as usize
    };
    let (short, long) = (size(100, &[]), size(400, &[]));
    assert!(
        long < 5 * short,
        "100 divisions: {short} bytes, 400 divisions: {long} bytes"
    );
    // Turned off, the partials are written out in full again (quadratic).
    let (short, long) = (
        size(100, &["-nooptim", "sharepartials"]),
        size(400, &["-nooptim", "sharepartials"]),
    );
    assert!(long > 10 * short, "{short} {long}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The driver of the grid model: the adjoint of `cost` once, then the peak of the AD stack.
const GRID_DRIVER: &str = r#"program drv
  use grid_m_b
  implicit none
  interface
    integer(8) function adstack_peakbytes()
    end function
  end interface
  integer :: i
  do i = 1, n
    a(i) = 0.6d0 + 0.3d0*sin(real(i, 8))
    t(:, i) = 0.5d0 + 0.1d0*cos(real(i, 8))
  end do
  costb = 1.0d0
  call step_b()
  print *, adstack_peakbytes()
end program drv
"#;

/// Issue 50, the recording rule (docs/decisions.md): the grid model of the corpus
/// (f_grid_recording.f90, SICOPOLIS's shapes: an element of a module array passed to a
/// checkpointed call, a callee writing one element or one column of module arrays addressed by
/// its dummies, a split call rewriting a column) at 500 and 2,000 points. What a call in a
/// grid loop modifies is recorded element by element (or column by column), so the peak of
/// the AD stack grows linearly with the grid: 4 times the points, at most 5 times the peak (whole arrays pushed
/// per point grew 16 times: 22 MB at 500 points, 352 MB at 2,000). The numeric suites
/// check the model's adjoint at 6 points.
#[test]
fn recording_is_linear_in_the_grid_size() {
    let dir = std::env::temp_dir().join(format!("radtap-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    radtap_runtime_stack::write_to(&dir).unwrap();
    for c in ["adStack", "adBinomial"] {
        let o = std::process::Command::new("gcc")
            .current_dir(&dir)
            .args(["-O2", "-c", &format!("{c}.c"), "-o", &format!("{c}.o")])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let mut peaks = Vec::new();
    for n in [500, 2000] {
        let d = dir.join(format!("n{n}"));
        std::fs::create_dir_all(&d).unwrap();
        let src = d.join("grid.f90");
        let model = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/tangent/f_grid_recording.f90"
        ))
        .unwrap();
        let sized = model.replace("n = 6", &format!("n = {n}"));
        assert_ne!(sized, model);
        std::fs::write(&src, sized).unwrap();
        std::fs::write(d.join("drv.f90"), GRID_DRIVER).unwrap();
        let opts = vec!["-head".to_string(), "grid_m.step(cost)/(a t)".to_string()];
        let o = run_cli(&src, &opts, &["-b", "-o", "grid"], &d);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let text = std::fs::read_to_string(d.join("grid_b.f90")).unwrap();
        for whole in [
            "pushreal8array(a,",
            "pushreal8array(h,",
            "pushreal8array(tnew,",
        ] {
            assert!(!text.contains(whole), "{whole} in\n{text}");
        }
        let o = std::process::Command::new("gfortran")
            .current_dir(&d)
            .args(["-O1", "grid.f90", "grid_b.f90", "drv.f90"])
            .args(["../adStack.o", "../adBinomial.o", "-o", "drv"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = std::process::Command::new(d.join("drv")).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let peak: f64 = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
        peaks.push(peak);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(peaks[0] > 0.0, "{peaks:?}");
    let ratio = peaks[1] / peaks[0];
    assert!(
        ratio <= 5.0,
        "peak AD stack grew {ratio} times for 4 times the points: {peaks:?}"
    );
}

/// Issue 47: a pure function called with loop-invariant arguments leaves the loop before
/// differentiation (`il::invariant`), so the adjoint of `out[i] = in[i] / mag(in, n)` calls
/// `mag` and `mag_b` once, not in every iteration (O(n) instead of O(n²)). Counted: the
/// adjoint compiled with `sqrt` renamed to a counter, at n = 100; `-nooptim hoistinvariant`
/// keeps the calls in the loop (the count grows with n). The numbers are the corpus suites'
/// (c_invariant_call.c, f_invariant_call.f90).
#[test]
fn a_loop_invariant_call_is_evaluated_once_by_the_adjoint() {
    const NORMALIZE: &str = "#include <math.h>\n\
        double mag(const double *v, int n) {\n    double s = 0.0;\n    for (int i = 0; i < n; i++)\n        s += v[i] * v[i];\n    return sqrt(s);\n}\n\
        void normalize(double *restrict out, const double *restrict in, int n) {\n    for (int i = 0; i < n; i++)\n        out[i] = in[i] / mag(in, n);\n}\n";
    const DRIVER: &str = "#include <stdio.h>\n#include <math.h>\n\
        long calls = 0;\ndouble counted_sqrt(double x) { calls++; return sqrt(x); }\n\
        void normalize_b(double *restrict out, double *restrict outb, const double *restrict in, double *restrict inb, int n);\n\
        int main(void) {\n    double in[100], out[100], inb[100] = {0}, outb[100];\n\
            for (int i = 0; i < 100; i++) { in[i] = 1.0 + i % 7; outb[i] = 1.0; }\n\
            normalize_b(out, outb, in, inb, 100);\n    printf(\"%ld\\n\", calls);\n    return 0;\n}\n";
    let dir = std::env::temp_dir().join(format!("radtap-invariant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    radtap_runtime_stack::write_to(&dir).unwrap();
    std::fs::write(dir.join("norm.c"), NORMALIZE).unwrap();
    std::fs::write(dir.join("drv.c"), DRIVER).unwrap();
    let mut counts = Vec::new();
    // hoistexpressions would move the pure call out of the loop too: off with hoistinvariant.
    let off = ["-nooptim", "hoistinvariant", "-nooptim", "hoistexpressions"];
    for extra in [&[][..], &off[..]] {
        let opts = vec!["-head".to_string(), "normalize(out)/(in)".to_string()];
        let mut args = vec!["-b", "-o", "gen"];
        args.extend_from_slice(extra);
        let o = run_cli(&dir.join("norm.c"), &opts, &args, &dir);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let o = std::process::Command::new("gcc")
            .current_dir(&dir)
            .args([
                "-O1",
                "-Dsqrt=counted_sqrt",
                "-c",
                "gen_b.c",
                "-o",
                "gen_b.o",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = std::process::Command::new("gcc")
            .current_dir(&dir)
            .args(["-O1", "drv.c", "gen_b.o", "adStack.c", "-o", "drv", "-lm"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = std::process::Command::new(dir.join("drv"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let calls: u64 = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
        counts.push(calls);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        counts[0] <= 2,
        "mag evaluated {} times by the adjoint",
        counts[0]
    );
    assert!(counts[1] >= 100, "-nooptim hoistinvariant: {counts:?}");
}

/// Issue 47, optimisation before differentiation: the adjoints of the corpus programs of
/// each shape evaluate the math functions they share or hoist fewer times than with the
/// optimisation turned off (counted: the adjoint compiled with `exp`, `sqrt`, `pow`, `sin`,
/// `cos` renamed to counters after `math.h`), and the inlined helpers' adjoints are not called.
/// c_invariant_expr.c (`-nooptim hoistexpressions`), c_common_subexpr.c (`sharecommon`),
/// c_inline_helper.c (`inlinehelpers`).
#[test]
fn optimisations_before_differentiation_evaluate_less() {
    const COUNTERS: &str = "#include <stdio.h>\n#include <math.h>\nlong calls = 0;\n\
        double c_exp(double x) { calls++; return exp(x); }\n\
        double c_sqrt(double x) { calls++; return sqrt(x); }\n\
        double c_pow(double x, double y) { calls++; return pow(x, y); }\n\
        double c_sin(double x) { calls++; return sin(x); }\n\
        double c_cos(double x) { calls++; return cos(x); }\n";
    const RENAME: &str = "#include <math.h>\n\
        double c_exp(double), c_sqrt(double), c_pow(double, double), c_sin(double), c_cos(double);\n\
        #define exp c_exp\n#define sqrt c_sqrt\n#define pow c_pow\n#define sin c_sin\n#define cos c_cos\n";
    const SCALE: &str = "void scale_b(double *y, double *yb, const double *x, double *xb, double a, double *ab, double b, double *bb, int n, double *s, double *sb);\n\
        int main(void) {\n    double x[8], xb[8] = {0}, y[8], yb[8], s, sb = 1.0, ab = 0, bb = 0;\n\
            for (int i = 0; i < 8; i++) { x[i] = 0.1 * (i + 1); yb[i] = 1.0; }\n\
            scale_b(y, yb, x, xb, 0.7, &ab, 1.3, &bb, 8, &s, &sb);\n    printf(\"%ld\\n\", calls);\n    return 0;\n}\n";
    const POLAR: &str = "void polar_b(int n, const double *x, double *xb, const double *y, double *yb, double *r, double *rb, double *c, double *cb, double *s, double *sb, double *e, double *eb);\n\
        int main(void) {\n    double x[20], xb[20] = {0}, y[20], yb[20] = {0}, r[20], rb[20], c[20], cb[20], s[20], sb[20], e, eb = 1.0;\n\
            for (int i = 0; i < 20; i++) { x[i] = 0.1 * (i + 1); y[i] = 0.05 * i; rb[i] = cb[i] = sb[i] = 1.0; }\n\
            polar_b(20, x, xb, y, yb, r, rb, c, cb, s, sb, &e, &eb);\n    printf(\"%ld\\n\", calls);\n    return 0;\n}\n";
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("radtap-optim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    radtap_runtime_stack::write_to(&dir).unwrap();
    let gen = |file: &str, extra: &[&str]| -> String {
        let path = root.join("tests/tangent").join(file);
        let (opts, _) = header(&path);
        let mut args = vec!["-b", "-o", "gen"];
        args.extend_from_slice(extra);
        let o = run_cli(&path, &opts, &args, &dir);
        assert_eq!(o.status, 0, "{file}: {}", o.stderr);
        std::fs::read_to_string(dir.join("gen_b.c")).unwrap()
    };
    let count = |file: &str, driver: &str, extra: &[&str]| -> u64 {
        gen(file, extra);
        std::fs::write(dir.join("drv.c"), format!("{COUNTERS}{driver}")).unwrap();
        // math.h first (its declarations intact), then the names renamed.
        std::fs::write(dir.join("counters.h"), RENAME).unwrap();
        let o = std::process::Command::new("gcc")
            .current_dir(&dir)
            .args([
                "-O1",
                "-include",
                "counters.h",
                "-c",
                "gen_b.c",
                "-o",
                "gen_b.o",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = std::process::Command::new("gcc")
            .current_dir(&dir)
            .args(["-O1", "drv.c", "gen_b.o", "adStack.c", "-o", "drv", "-lm"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = std::process::Command::new(dir.join("drv"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()
    };
    let hoisted = count("c_invariant_expr.c", SCALE, &[]);
    let in_loop = count(
        "c_invariant_expr.c",
        SCALE,
        &["-nooptim", "hoistexpressions"],
    );
    let shared = count("c_common_subexpr.c", POLAR, &[]);
    let twice = count("c_common_subexpr.c", POLAR, &["-nooptim", "sharecommon"]);
    let inlined = gen("c_inline_helper.c", &[]);
    let called = gen("c_inline_helper.c", &["-nooptim", "inlinehelpers"]);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("math calls: hoisted {hoisted} / {in_loop}, shared {shared} / {twice}");
    assert!(
        hoisted * 3 < in_loop,
        "invariant expressions: {hoisted} math calls hoisted, {in_loop} not"
    );
    assert!(
        shared * 3 < twice * 2,
        "common sub-expressions: {shared} math calls shared, {twice} not"
    );
    assert!(
        inlined.contains("sigmoid_b("),
        "a helper calling exp is not inlined"
    );
    for f in ["lerp_b(", "dist2_b("] {
        assert!(!inlined.contains(f), "{f} called:\n{inlined}");
        assert!(called.contains(f), "-nooptim inlinehelpers: {f} not called");
    }
}
