//! `radtap validate`: it passes on every program of the numeric corpus with no hand-written
//! driver (only the integer inputs and pointer sizes of each file's `sizes:` line), and it
//! fails, naming what is wrong, on derivative files broken on purpose and given through
//! `-derivatives DIR`. Errors that stop a validation (a missing size, a compile failure, a
//! crash, a time-out, no compiler) are reported with exit status 1.

mod common;

use common::*;
use radtap::{normalize_args, Cli, Outcome};
use std::path::{Path, PathBuf};

fn cli(args: &[String]) -> Outcome {
    let mut all = vec!["radtap".to_string()];
    all.extend(args.iter().cloned());
    let parsed = <Cli as clap::Parser>::try_parse_from(normalize_args(all.into_iter()))
        .expect("options parse");
    let o = execute_on_big_stack(&parsed);
    // A failed validation keeps its build in a temporary directory and says where; the
    // failures provoked here must not leave it behind.
    for says in ["the build are kept in ", "the build are in "] {
        if let Some(rest) = o.stderr.split(says).nth(1) {
            let kept = PathBuf::from(rest.lines().next().unwrap_or("").trim());
            let ours = kept
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("radtap-validate-"));
            if ours && kept.starts_with(std::env::temp_dir()) {
                let _ = std::fs::remove_dir_all(&kept);
            }
        }
    }
    o
}

fn strings(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// `radtap validate` on one corpus file with its options and sizes, plus `extra`.
fn validate_corpus(path: &Path, extra: &[String]) -> Outcome {
    let (opts, sizes) = header(path);
    let mut args = vec!["validate".to_string()];
    args.extend(opts);
    let mut sizes: Vec<_> = sizes.into_iter().collect();
    sizes.sort();
    for (k, v) in sizes {
        args.push("-size".into());
        args.push(format!("{k}={v}"));
    }
    args.extend(extra.iter().cloned());
    args.push(path.display().to_string());
    cli(&args)
}

fn corpus_of(lang: &str) -> Vec<PathBuf> {
    corpus()
        .into_iter()
        .filter(|p| {
            let c = p.extension().is_some_and(|e| e == "c");
            c == (lang == "c")
        })
        .collect()
}

/// Every program passes; the ones adjoint mode refuses stop with the refusal, status 1.
fn passes_on(lang: &str) -> usize {
    let mut failures = Vec::new();
    let mut passed = 0;
    for f in corpus_of(lang) {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let o = validate_corpus(&f, &[]);
        if ADJOINT_UNSUPPORTED.iter().any(|(n, _)| *n == name) {
            if o.status != 1 || !o.stderr.contains("error[AD0") {
                failures.push(format!(
                    "{name}: adjoint-unsupported program not refused cleanly (status {}):\n{}",
                    o.status, o.stderr
                ));
            }
            continue;
        }
        if o.status != 0 || !o.dump.contains("PASS\n") || o.dump.contains("FAIL") {
            failures.push(format!(
                "{name}: status {}\n{}{}",
                o.status, o.dump, o.stderr
            ));
        } else {
            passed += 1;
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}\n");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    passed
}

#[test]
fn validate_passes_on_every_fortran_program_of_the_corpus() {
    let n = passes_on("fortran");
    assert!(n >= 31, "only {n} Fortran programs validated");
}

#[test]
fn validate_passes_on_every_c_program_of_the_corpus() {
    let n = passes_on("c");
    assert!(n >= 20, "only {n} C programs validated");
}

/// The C programs written as numerical C is (issue 17: typedef'd structs in a header next
/// to the source, heap work arrays, VLAs, helpers on pointers), with their integer inputs:
/// `radtap validate` sizes every pointer argument from the code itself (the extent inference
/// the generators share, `radtap_il::extent`), through the helpers the pointers are passed
/// to, with no element count given.
const SIZED_BY_THE_CODE: &[(&str, &[&str])] = &[
    ("c_gmm_objective.c", &["d=3", "k=2", "n=4"]),
    ("c_lstm_objective.c", &["l=2", "c=3", "b=2"]),
    ("c_ba_objective.c", &["n=2", "m=3"]),
    ("c_hand_skin.c", &["npts=4"]),
    ("c_logreg_objective.c", &["n=5", "d=2"]),
    ("c_spline_fit.c", &["n=6"]),
    ("c_two_heads.c", &["n=4"]),
    ("c_malloc_rows.c", &["n=4", "m=3"]),
    ("c_vla_work.c", &["n=4", "m=3"]),
    ("c_lstm_cells.c", &["l=2", "b=3", "c=3"]),
    // Through the members of a `Matrix *` (`i < m->rows * m->cols`), known where the head
    // sets them (`m.rows = r`) or from the allocator that does (`get_new_matrix(r, c)`).
    ("c_matrix_heap.c", &["r=3", "c=4"]),
    ("c_matrix_helpers.c", &["r=3", "c=4"]),
    ("e_c_matrix_helpers.c", &["r=2", "c=3"]),
];

#[test]
fn validate_sizes_c_pointer_arguments_from_the_code() {
    let mut failures = Vec::new();
    for (file, ints) in SIZED_BY_THE_CODE {
        let path = Path::new("tests/tangent").join(file);
        let (opts, _) = header(&path);
        let mut args = vec!["validate".to_string()];
        args.extend(opts);
        for kv in *ints {
            args.push("-size".into());
            args.push(kv.to_string());
        }
        args.push(path.display().to_string());
        let o = cli(&args);
        if o.status != 0 || !o.dump.contains("PASS\n") || o.dump.contains("FAIL") {
            failures.push(format!(
                "{file}: status {}\n{}{}",
                o.status, o.dump, o.stderr
            ));
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}\n");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
}

/// A scratch directory per test.
fn scratch(name: &str) -> PathBuf {
    // Under cargo's per-target temporary directory: nothing is left in /tmp.
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-vtest-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const NL: &str = "tests/tangent/f_sim_nl_diffusion.f90";
const HEAT_C: &str = "tests/tangent/c_heat_stencil.c";

/// Generates the derivatives of a corpus file into `dir` and applies `edit` to one of them
/// (`_d` or `_b`): `(from, to)` replaced once, which must be found.
fn broken(path: &str, dir: &Path, which: &str, edits: &[(&str, &str)]) {
    let p = Path::new(path);
    let (opts, _) = header(p);
    let o = run_cli(p, &opts, &["-d", "-b"], dir);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let stem = p.file_stem().unwrap().to_string_lossy();
    let ext = p.extension().unwrap().to_string_lossy();
    let file = dir.join(format!("{stem}_{which}.{ext}"));
    let mut text = std::fs::read_to_string(&file).unwrap();
    for (from, to) in edits {
        assert!(
            text.contains(from),
            "the generated {} no longer contains `{from}`: update this test",
            file.display()
        );
        text = text.replacen(from, to, 1);
    }
    std::fs::write(&file, text).unwrap();
}

/// Validates the broken files; returns the outcome after checking it failed a check.
fn validate_broken(path: &str, dir: &Path) -> Outcome {
    let o = validate_corpus(
        Path::new(path),
        &["-derivatives".into(), dir.display().to_string()],
    );
    assert_eq!(
        o.status, 4,
        "a broken derivative passed:\n{}{}",
        o.dump, o.stderr
    );
    assert!(o.dump.contains("FAIL"), "{}", o.dump);
    o
}

#[test]
fn a_sign_flipped_in_the_tangent_is_found_and_its_dependent_named() {
    let d = scratch("tsign");
    broken(
        NL,
        &d,
        "d",
        &[("ed = 0.5d0*sum(2*u*ud)", "ed = -0.5d0*sum(2*u*ud)")],
    );
    let o = validate_broken(NL, &d);
    assert!(
        o.stderr.contains("the tangent of `e` differs"),
        "{}",
        o.stderr
    );
    // `u` is still right, and said so.
    let u_row = o
        .dump
        .lines()
        .find(|l| l.trim_start().starts_with("u "))
        .unwrap();
    assert!(u_row.ends_with("PASS"), "{u_row}");
}

#[test]
fn a_term_dropped_from_the_tangent_is_found() {
    let d = scratch("tterm");
    broken(NL, &d, "d", &[(" + 0.01d0*par%src*(cos(u)*ud)", "")]);
    let o = validate_broken(NL, &d);
    assert!(
        o.stderr.contains("the tangent of `u`, `e` differs"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_sign_flipped_in_the_adjoint_fails_the_dot_product_test() {
    let d = scratch("asign");
    broken(
        NL,
        &d,
        "b",
        &[("ub(n) = ub(n) - tempb4", "ub(n) = ub(n) + tempb4")],
    );
    let o = validate_broken(NL, &d);
    assert!(
        o.stderr
            .contains("the adjoint fails the dot-product test for `u`, `e`"),
        "{}",
        o.stderr
    );
    // The tangent is untouched and passes.
    assert!(!o.stderr.contains("the tangent of"), "{}", o.stderr);
}

#[test]
fn a_missing_pop_leaves_bytes_on_the_stack_and_is_reported() {
    let d = scratch("apop");
    broken(NL, &d, "b", &[("call popreal8array(u, size(u))\n", "")]);
    let o = validate_broken(NL, &d);
    assert!(
        o.stderr.contains("bytes are left on the runtime stack"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_missing_push_and_pop_pair_fails_the_dot_product_test() {
    let d = scratch("apushpop");
    broken(
        NL,
        &d,
        "b",
        &[
            ("call pushreal8array(u, size(u))\n", ""),
            ("call popreal8array(u, size(u))\n", ""),
        ],
    );
    let o = validate_broken(NL, &d);
    assert!(o.stderr.contains("dot-product test for"), "{}", o.stderr);
    assert!(
        !o.stderr.contains("left on the runtime stack"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_dropped_adjoint_reset_is_found() {
    let d = scratch("areset");
    broken(NL, &d, "b", &[("      fluxb(1) = 0.0_8\n", "")]);
    let o = validate_broken(NL, &d);
    assert!(o.stderr.contains("dot-product test"), "{}", o.stderr);
}

#[test]
fn a_term_dropped_from_a_c_tangent_is_found() {
    let d = scratch("ctterm");
    broken(HEAT_C, &d, "d", &[(" + 0.02 * (cos(u[i]) * ud[i])", "")]);
    let o = validate_broken(HEAT_C, &d);
    assert!(
        o.stderr.contains("the tangent of `u` differs"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_term_dropped_from_a_c_adjoint_is_found() {
    let d = scratch("caterm");
    broken(
        HEAT_C,
        &d,
        "b",
        &[(
            "rb = rb + (u[i - 1] - 2.0 * u[i] + u[i + 1]) * tmpb[i];\n",
            "",
        )],
    );
    let o = validate_broken(HEAT_C, &d);
    assert!(
        o.stderr.contains("the adjoint fails the dot-product test"),
        "{}",
        o.stderr
    );
}

#[test]
fn untouched_derivative_files_pass_and_a_missing_adjoint_is_noted() {
    let d = scratch("good");
    broken(NL, &d, "d", &[]);
    let o = validate_corpus(
        Path::new(NL),
        &["-derivatives".into(), d.display().to_string()],
    );
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    std::fs::remove_file(d.join("f_sim_nl_diffusion_b.f90")).unwrap();
    let o = validate_corpus(
        Path::new(NL),
        &["-derivatives".into(), d.display().to_string()],
    );
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(o.dump.contains("dot-product test: not run"), "{}", o.dump);
}

#[test]
fn a_missing_integer_size_is_named() {
    let o = cli(&strings(&[
        "validate",
        "-head",
        "nl_diffuse",
        "-size",
        "n=10",
        NL,
    ]));
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("`nt`") && o.stderr.contains("-size nt="),
        "{}",
        o.stderr
    );
}

#[test]
fn a_c_pointer_whose_size_the_code_does_not_show_is_named() {
    // `y` is walked by another pointer (`p = y; p++`): nothing bounds it. (`heat1d`'s
    // pointers, indexed by loop counters up to `n`, are sized without -size: see
    // tests/validate_inputs.rs.)
    let o = cli(&strings(&[
        "validate",
        "-head",
        "wsmooth",
        "-vars",
        "x",
        "-outvars",
        "x y",
        "-size",
        "n=6",
        "tests/tangent/c_pointer_args.c",
    ]));
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("`y`") && o.stderr.contains("-size y="),
        "{}",
        o.stderr
    );
}

#[test]
fn a_derivative_file_that_does_not_compile_shows_the_compiler_and_the_directory() {
    let d = scratch("nocompile");
    broken(
        NL,
        &d,
        "d",
        &[("ed = 0.5d0*sum(2*u*ud)", "ed = 0.5d0*sum(2*u*ud")],
    );
    let o = validate_corpus(
        Path::new(NL),
        &["-derivatives".into(), d.display().to_string()],
    );
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(o.stderr.contains("does not compile"), "{}", o.stderr);
    assert!(o.stderr.contains("gfortran"), "{}", o.stderr);
    assert!(o.stderr.contains("the build are in"), "{}", o.stderr);
}

#[test]
fn a_run_that_hangs_is_stopped_at_the_time_limit() {
    let d = scratch("hang");
    broken(
        NL,
        &d,
        "d",
        &[(
            "    allocate(fluxd(n + 1))\n",
            "    allocate(fluxd(n + 1))\n    do while (n > 0)\n    end do\n",
        )],
    );
    let o = validate_corpus(
        Path::new(NL),
        &[
            "-derivatives".into(),
            d.display().to_string(),
            "-timeout".into(),
            "2".into(),
        ],
    );
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("did not finish within 2 s"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_run_that_crashes_is_reported() {
    let d = scratch("crash");
    broken(
        HEAT_C,
        &d,
        "d",
        &[(
            "    double tmp[64];\n",
            "    double tmp[64];\n    *(volatile int *)0 = 1;\n",
        )],
    );
    let o = validate_corpus(
        Path::new(HEAT_C),
        &["-derivatives".into(), d.display().to_string()],
    );
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(o.stderr.contains("stopped with"), "{}", o.stderr);
}

#[test]
fn no_compiler_is_a_clear_error() {
    let p = Path::new(NL);
    let (opts, _) = header(p);
    let d = scratch("nocc");
    let o = run_cli(p, &opts, &["-d", "-b"], &d);
    assert_eq!(o.status, 0);
    let mut tc = radtap_validation::Toolchain::new(None, None, std::time::Duration::from_secs(5));
    tc.fc = "radtap-no-such-compiler".into();
    let job = radtap_validation::Job {
        sources: vec![p.to_path_buf()],
        tangent: radtap_validation::Derivative {
            output: o.tangent.as_ref().unwrap(),
            file: d.join("f_sim_nl_diffusion_d.f90"),
        },
        adjoint: None,
        sizes: radtap_validation::Sizes::parse(&["n=4", "nt=2"]).unwrap(),
        values: Vec::new(),
        seed: 1,
        toolchain: tc,
        dir: d.join("build"),
    };
    let e = radtap_validation::validate(&job).unwrap_err();
    assert!(matches!(e, radtap_validation::Error::NoCompiler(_)));
    let m = e.to_string();
    assert!(
        m.contains("no Fortran compiler found") && m.contains("FC"),
        "{m}"
    );
}

#[test]
fn the_shipped_example_validates_with_a_kept_build() {
    let d = scratch("keep");
    let o = cli(&strings(&[
        "validate",
        "-head",
        "heat_step",
        "-vars",
        "u dt",
        "-outvars",
        "u cost",
        "-size",
        "n=10",
        "-size",
        "nsteps=20",
        "-seed",
        "7",
        "-keep",
        &d.display().to_string(),
        "examples/heat.f90",
    ]));
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(o.dump.contains("seed 7"), "{}", o.dump);
    // The example has its own main program: the driver's replaces it.
    assert!(d.join("validate_d.f90").exists() && d.join("validate_b.f90").exists());
    assert!(d.join("validate_b").exists());
}

/// Validates `src` written to a scratch file `name` with `opts`; the outcome.
fn validate_source(name: &str, src: &str, opts: &[&str]) -> Outcome {
    let dir = scratch(name);
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    let mut args = strings(&["validate"]);
    args.extend(strings(opts));
    args.push(path.display().to_string());
    let o = cli(&args);
    let _ = std::fs::remove_dir_all(&dir);
    o
}

/// A single-precision intermediate rounds the tangent and the adjoint differently (about
/// 1e-8 here): the dot-product test allows single precision's rounding (it said FAIL, "the
/// fault is in the differentiation itself"); a wrong adjoint is still far beyond that.
#[test]
fn the_dot_product_tolerance_allows_single_precision() {
    let src = "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: x(n)\n  real(8), intent(out) :: y(n)\n  real :: sx\n  integer :: i\n  do i = 1, n\n    sx = real(x(i))\n    y(i) = dble(sx)*2.0d0 + x(i)**2 + sx*x(i)\n  end do\nend subroutine f\n";
    let o = validate_source(
        "single.f90",
        src,
        &["-head", "f", "-vars", "x", "-outvars", "y", "-size", "n=4"],
    );
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(
        o.dump
            .contains("tolerance 1e-5: the program computes in single precision"),
        "{}",
        o.dump
    );
}

/// A head computing in single precision (`float a = (float)x[i]`): its divided differences
/// carry the float rounding of the primal, about 1e-7 of the value over the step, which the
/// verdict allows for (a correct tangent was a FAIL "in the differentiation itself", 1.1e-6
/// off with an error bound of 2e-14); a tangent wrong by 1 % still fails.
#[test]
fn divided_differences_allow_single_precision_rounding() {
    let src = "#include <math.h>\nvoid ff(int n, const double *x, double *y)\n{\n    int i;\n    for (i = 0; i < n; i++) {\n        float a = (float)x[i];\n        float b = a - 2.0f;\n        float s = fabsf(b);\n        y[i] = (double)s + x[i] * x[i];\n    }\n}\n";
    let args = [
        "-head", "ff", "-vars", "x", "-outvars", "y", "-size", "n=6", "-size", "x=n", "-size",
        "y=n",
    ];
    let o = validate_source("floats.c", src, &args);
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    // The derivatives of the original checked against a primal 1 % off: a FAIL.
    let d = scratch("floatwrong");
    let gen = d.join("gen");
    std::fs::create_dir_all(&gen).unwrap();
    std::fs::write(gen.join("floats.c"), src).unwrap();
    let mut a = strings(&["-d", "-b"]);
    a.extend(strings(&args));
    a.extend(strings(&["-O", &gen.display().to_string()]));
    a.push(gen.join("floats.c").display().to_string());
    let o = cli(&a);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let wrong = src.replace("(double)s + x[i]", "(double)s * 1.01 + x[i]");
    std::fs::write(d.join("floats.c"), wrong).unwrap();
    let mut a = strings(&["validate"]);
    a.extend(strings(&args));
    a.extend(strings(&["-derivatives", &gen.display().to_string()]));
    a.push(d.join("floats.c").display().to_string());
    let o = cli(&a);
    let _ = std::fs::remove_dir_all(&d);
    assert_eq!(o.status, 4, "{}{}", o.dump, o.stderr);
}

/// Helpers with `float` parameters given `double` values (`q(x[0])`, `g(u, (float)c)`):
/// the adjoint passed the `double` adjoint's address for the helper's `float *` (a float
/// written into half of a double: the dot-product test 0.43 off; no compile with gcc 14).
/// A temporary of the parameter's type now, joint and split, compiled as gcc 14 would.
#[test]
fn float_parameters_get_their_adjoint_through_a_float_temporary() {
    let src = std::fs::read_to_string("tests/edge_refused/v_c_float_param_actual.c").unwrap();
    for split in [false, true] {
        let mut args = vec![
            "-head",
            "mixed",
            "-vars",
            "x c",
            "-outvars",
            "y",
            "-size",
            "x=2",
            "-size",
            "y=2",
            "-cflags",
            "-O0 -g -Werror=incompatible-pointer-types",
        ];
        if split {
            args.push("-nocheckpoint");
        }
        let o = validate_source("float_params.c", &src, &args);
        assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    }
}

/// A struct argument whose integer member the head advances (a running mean's count): every
/// call of the driver starts from the same struct (the count went 1, 2, 3… across the
/// primal, tangent and divided-difference calls: a false FAIL).
#[test]
fn record_arguments_start_every_call_alike() {
    let src = "typedef struct {\n    int count;\n    double mean;\n    double m2;\n} Acc;\n\nvoid push(Acc *w, double x)\n{\n    w->count++;\n    double delta = x - w->mean;\n    w->mean += delta / (double)w->count;\n    w->m2 += delta * (x - w->mean);\n}\n";
    let o = validate_source(
        "welford.c",
        src,
        &["-head", "push", "-vars", "w x", "-outvars", "w"],
    );
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(o.dump.ends_with("PASS\n"), "{}", o.dump);
}

/// A `const particle_t *p` indexed `p[i]`: the driver had one struct, so the head read past
/// it (PASS with n = 1's numbers at n = 3, a crash at n = 5); it was then refused. The count
/// the subscripts show (`n`) now sizes an array of structs, and the head PASSes (issue 48
/// item 1).
#[test]
fn a_pointer_to_several_structs_is_driven_as_an_array_of_them() {
    let src = "typedef struct { double x, v, m; } particle_t;\n\nvoid energy(int n, const particle_t *p, double *e)\n{\n    int i;\n    double s = 0.0;\n    for (i = 0; i < n; i++)\n        s += 0.5 * p[i].m * p[i].v * p[i].v + p[i].x * p[i].x;\n    *e = s;\n}\n";
    let o = validate_source(
        "particles.c",
        src,
        &[
            "-head", "energy", "-vars", "p", "-outvars", "e", "-size", "n=3",
        ],
    );
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(o.dump.ends_with("PASS\n"), "{}", o.dump);
}

/// `real(dp) function sq(a)` (kind in the type prefix, `dp` from the host module): the kind
/// was read before the host declared `dp`, a default real was guessed, and validate took the
/// program for single precision (tolerance 1e-5: a wrong adjoint 3e-7 off passed).
#[test]
fn a_kind_in_a_function_prefix_is_not_single_precision() {
    let src = "module mk\n  implicit none\n  integer, parameter :: dp = kind(1.d0)\ncontains\n  real(dp) function sq(a)\n    real(dp), intent(in) :: a\n    sq = a*a\n  end function sq\nend module mk\nsubroutine f(x, y)\n  use mk\n  real(dp), intent(in) :: x(2)\n  real(dp), intent(out) :: y\n  y = sq(x(1)) + x(2)*x(1)\nend subroutine f\n";
    let o = validate_source(
        "prefix.f90",
        src,
        &["-head", "f", "-vars", "x", "-outvars", "y"],
    );
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(o.dump.contains("(tolerance 1e-10)"), "{}", o.dump);
}

/// Issue 45: the adjoint of an OpenMP `reduction(*: s)` records the partial products: with
/// a factor exactly 0 (`x[2] - 2 mu` at x = 2, mu = 1) the gradient is the product of the
/// other factors, not `s̄ s / f = 0/0` (a NaN the dot-product test would fail), with 1 and 2
/// threads.
#[test]
fn an_omp_product_with_a_zero_factor_has_its_exact_adjoint() {
    let src = "void lik(int n, const double *x, double mu, double *p)\n{\n    double s = 1.0;\n    int i;\n#pragma omp parallel for reduction(*: s)\n    for (i = 0; i < n; i++)\n        s *= x[i] - mu * i;\n    *p = s;\n}\n";
    let args = [
        "-head", "lik", "-vars", "x mu", "-outvars", "p", "-size", "n=5", "-size", "x=n", "-size",
        "p=1", "-value", "x=2", "-value", "mu=1",
    ];
    let o = validate_source("zero_factor.c", src, &args);
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(
        o.dump.contains("PASS\n") && !o.dump.contains("nan"),
        "{}",
        o.dump
    );
}
