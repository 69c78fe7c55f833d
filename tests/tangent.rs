//! Tangent and vector-tangent mode, proven numerically on the corpus in `tests/tangent/`.
//!
//! Each program is differentiated by the CLI (`-d`, then `-d -vector -nbdirsmax 3`), a driver
//! is generated from the head's declarations (integer inputs from the file's `sizes:` line,
//! real inputs and directions from a fixed pseudo-random sequence), everything is compiled
//! with gfortran/gcc and run. Checked for every program:
//! - the tangent matches central finite differences to 1e-6 relative on every dependent;
//! - the primal results computed by `f_d` equal the original's;
//! - `f_dv` with 3 directions matches 3 scalar `f_d` runs to 1e-12 relative.

mod common;

use common::*;
use radtap_il::*;
use std::path::{Path, PathBuf};

/// Differentiates, builds and checks one corpus file; returns a failure description.
fn check(path: &Path) -> Result<(), String> {
    let (opts, sizes) = header(path);
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let dir = std::env::temp_dir().join(format!("radtap-tangent-{}-{stem}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let o = run_cli(path, &opts, &["-d", "-o", "gen"], &dir);
    if o.status != 0 {
        return Err(format!("radtap -d failed:\n{}", o.stderr));
    }
    let gen = o.tangent.as_ref().ok_or("no tangent output")?;
    let h = describe(gen, &sizes);
    let orig = dir.join(path.file_name().unwrap());
    std::fs::copy(path, &orig).unwrap();
    let (gen_d, gen_dv) = match h.lang {
        Lang::Fortran => ("gen_d.f90", "gen_dv.f90"),
        Lang::C => ("gen_d.c", "gen_dv.c"),
    };
    let ext = if h.lang == Lang::C { "c" } else { "f90" };
    std::fs::write(dir.join(format!("drv_d.{ext}")), driver(&h, Kind::Scalar)).unwrap();
    let mut srcs = vec![original_object(&orig, h.lang)?];
    if h.lang == Lang::Fortran {
        srcs.push(dir.join(gen_d));
    }
    srcs.push(dir.join(format!("drv_d.{ext}")));
    let out = build_and_run(&dir, h.lang, &srcs, "drv_d")
        .map_err(|e| format!("{e}\n(in {})", dir.display()))?;
    let m = parse_out(&out);
    // Primal equality.
    let p0 = &m["P0"];
    let p1 = &m["P1"];
    for (a, b) in p0.iter().zip(p1) {
        if (a.1 - b.1).abs() > 1e-13 * a.1.abs().max(1e-300) {
            return Err(format!("primal differs in f_d: {} {} vs {}", a.0, a.1, b.1));
        }
    }
    // Tangent vs central differences, per dependent.
    let (fp, fm, t1) = (&m["FP"], &m["FM"], &m["T1"]);
    let mut names: Vec<String> = t1.iter().map(|x| x.0.clone()).collect();
    names.dedup();
    for n in &names {
        let (mut num, mut den) = (0.0f64, 0.0f64);
        for ((t, p), q) in t1.iter().zip(fp).zip(fm).filter(|((t, _), _)| &t.0 == n) {
            let fd = (p.1 - q.1) / (2.0 * H);
            num += (t.1 - fd).powi(2);
            den += fd.powi(2).max(t.1.powi(2));
        }
        let rel = num.sqrt() / den.sqrt().max(1e-30);
        if !(rel <= 1e-6) {
            return Err(format!("tangent of `{n}` differs from finite differences: relative error {rel:.3e}\n(in {})", dir.display()));
        }
        if den == 0.0 {
            return Err(format!(
                "dependent `{n}` has a zero derivative: the test proves nothing"
            ));
        }
    }
    // Vector mode.
    let o = run_cli(
        path,
        &opts,
        &["-d", "-vector", "-nbdirsmax", "3", "-o", "gen"],
        &dir,
    );
    if let Some(m) = vector_refusal(path) {
        // Refused with its reason, never wrong or uncompilable code.
        return match (o.status, o.stderr.contains(m)) {
            (1, true) => {
                let _ = std::fs::remove_dir_all(&dir);
                Ok(())
            }
            _ => Err(format!(
                "vector mode must refuse with `{m}`: status {}\n{}",
                o.status, o.stderr
            )),
        };
    }
    if o.status != 0 {
        return Err(format!("radtap -d -vector failed:\n{}", o.stderr));
    }
    let gen = o.tangent.as_ref().ok_or("no vector output")?;
    let hv = describe(gen, &sizes);
    std::fs::write(dir.join(format!("drv_dv.{ext}")), driver(&hv, Kind::Vector)).unwrap();
    let mut srcs = Vec::new();
    if h.lang == Lang::Fortran {
        srcs.push(dir.join("DIFFSIZES.f90"));
    }
    srcs.push(original_object(&orig, h.lang)?);
    if h.lang == Lang::Fortran {
        srcs.push(dir.join(gen_dv));
    }
    srcs.push(dir.join(format!("drv_dv.{ext}")));
    let out = build_and_run(&dir, h.lang, &srcs, "drv_dv")
        .map_err(|e| format!("vector: {e}\n(in {})", dir.display()))?;
    let mv = parse_out(&out);
    for d in 1..=NDIR {
        let (v, t) = (&mv[&format!("V{d}")], &m[&format!("T{d}")]);
        for (a, b) in v.iter().zip(t) {
            if (a.1 - b.1).abs() > 1e-12 * b.1.abs().max(1e-12) {
                return Err(format!(
                    "vector direction {d} of `{}`: {} vs scalar {}\n(in {})",
                    a.0,
                    a.1,
                    b.1,
                    dir.display()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Every program of the corpus must pass all three checks (tangent vs finite differences,
/// primal equality, vector vs scalar).
#[test]
fn tangent_matches_finite_differences_and_vector_matches_scalar() {
    // RADTAP_TANGENT_ONLY=substring restricts the run (for debugging one program).
    let only = std::env::var("RADTAP_TANGENT_ONLY").ok();
    let files: Vec<PathBuf> = corpus()
        .into_iter()
        .filter(|f| {
            only.as_ref()
                .is_none_or(|o| f.to_string_lossy().contains(o.as_str()))
        })
        .collect();
    let mut failures = Vec::new();
    for f in &files {
        if let Err(e) = check(f) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    eprintln!(
        "tangent suite: {} of {} programs pass",
        files.len() - failures.len(),
        files.len()
    );
    for f in &failures {
        eprintln!("FAIL {f}\n");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    assert!(
        only.is_some() || files.len() >= 30,
        "the suite must prove at least 30 programs"
    );
}

/// Issue 16: the generated code of the whole corpus — tangent, vector tangent and adjoint —
/// compiles with `-Wall`, every warning an error but the "unused" ones (a primal's own
/// unused arguments and labels are copied as they are). Checked with `-fsyntax-only`, two
/// programs at a time.
#[test]
fn generated_code_of_the_corpus_compiles_with_wall() {
    check_corpus_two_at_a_time("wall", wall);
}

fn wall(path: &Path, root: &Path) -> Result<(), String> {
    let (opts, _) = header(path);
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let fortran = path.extension().is_some_and(|e| e != "c");
    for (tag, mode) in [
        ("d", &["-d"][..]),
        ("dv", &["-d", "-vector", "-nbdirsmax", "3"][..]),
        ("b", &["-b"][..]),
    ] {
        let dir = root.join(format!("{stem}-{tag}"));
        std::fs::create_dir_all(&dir).unwrap();
        let mut extra = mode.to_vec();
        extra.extend(["-o", "gen"]);
        let o = run_cli(path, &opts, &extra, &dir);
        let name = path.file_name().unwrap().to_string_lossy();
        if tag == "b" && ADJOINT_UNSUPPORTED.iter().any(|(n, _)| *n == name) {
            // Refused, nothing written: checked by the adjoint suite.
            continue;
        }
        if tag == "dv" && vector_refusal(path).is_some() {
            // Refused, nothing written: checked by the numeric tangent suite.
            continue;
        }
        if o.status != 0 {
            return Err(format!("radtap {mode:?} failed:\n{}", o.stderr));
        }
        let run = |cmd: &mut std::process::Command| -> Result<(), String> {
            let out = cmd.current_dir(&dir).output().map_err(|e| e.to_string())?;
            if out.status.success() {
                Ok(())
            } else {
                Err(String::from_utf8_lossy(&out.stderr).into_owned())
            }
        };
        let generated = format!("gen_{tag}.{}", if fortran { "f90" } else { "c" });
        // OpenMP directives are compiled, not ignored (issue 45): gcc checks their syntax.
        let omp: &[&str] = if uses_openmp(&[path.to_path_buf()]) {
            &["-fopenmp"]
        } else {
            &[]
        };
        if fortran {
            // The primal's modules first (and the vector mode's DIFFSIZES), as a build would.
            let prim = dir.join(path.file_name().unwrap());
            std::fs::copy(path, &prim).unwrap();
            let mut first = std::process::Command::new("gfortran");
            // The corpus's INCLUDE files (`f77_include_common.inc`) are beside it.
            let corpus_dir = path
                .parent()
                .and_then(|d| d.canonicalize().ok())
                .unwrap_or_default();
            first.arg("-fsyntax-only").arg("-I").arg(corpus_dir);
            if tag == "dv" {
                first.arg("DIFFSIZES.f90");
            }
            run(first.arg(&prim))?;
            let mut cmd = std::process::Command::new("gfortran");
            if path.extension().is_some_and(|e| e == "f") {
                // F77 keeps its arithmetic IFs: deleted features are not warnings there.
                cmd.arg("-std=legacy");
            }
            run(cmd.args(omp).args([
                "-fsyntax-only",
                "-Wall",
                "-Werror",
                "-Wno-error=unused-dummy-argument",
                "-Wno-error=unused-label",
                "-Wno-error=unused-variable",
                "-Wno-error=unused-parameter",
                "-Wno-error=unused-function",
                &generated,
            ]))
            .map_err(|e| format!("{generated} ({mode:?}):\n{e}"))?;
        } else {
            run(std::process::Command::new("gcc")
                .args(omp)
                .args([
                    "-fsyntax-only",
                    "-Wall",
                    "-Werror",
                    "-Wno-error=unused-variable",
                    "-Wno-error=unused-but-set-variable",
                    "-Wno-error=unused-function",
                    "-Wno-error=unused-label",
                    &generated,
                ])
                .arg(concat!(
                    "-I",
                    env!("CARGO_MANIFEST_DIR"),
                    "/runtime-stack/c"
                ))
                .arg(concat!("-I", env!("CARGO_MANIFEST_DIR"), "/tests/tangent")))
            .map_err(|e| format!("{generated} ({mode:?}):\n{e}"))?;
        }
    }
    Ok(())
}

/// Issue 45: the derivative of each OpenMP parallel loop of the corpus (`*_omp_*`) runs in
/// parallel: the tangent has one parallel loop per primal one, the adjoint a reversed
/// parallel loop (`schedule(static)`) per primal one; each `parallel sections` construct is
/// one in the tangent, two (forward and backward) in the adjoint. The numbers are proven by the numeric
/// suites (built with `-fopenmp`, run with 2 threads) and `radtap validate` (1 and 2).
#[test]
fn openmp_derivative_loops_carry_their_directive() {
    let count = |t: &str, words: &[&str]| {
        t.lines()
            .map(|l| l.trim().to_ascii_lowercase())
            .filter(|l| {
                let l = l
                    .trim_start_matches("#pragma omp")
                    .trim_start_matches("!$omp")
                    .trim();
                words.iter().any(|w| l.starts_with(w))
            })
            .count()
    };
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("omp-{}", std::process::id()));
    let files: Vec<PathBuf> = corpus()
        .into_iter()
        .filter(|f| uses_openmp(std::slice::from_ref(f)))
        .collect();
    assert!(files.len() >= 9, "{files:?}");
    for f in &files {
        let (opts, _) = header(f);
        let src = std::fs::read_to_string(f).unwrap();
        let loops: usize = src
            .lines()
            .filter(|l| {
                let l = l.trim().to_ascii_lowercase();
                (l.starts_with("#pragma omp") || l.starts_with("!$omp"))
                    && ["for", "parallel for", "do", "parallel do"]
                        .iter()
                        .any(|w| {
                            let rest = l
                                .trim_start_matches("#pragma omp")
                                .trim_start_matches("!$omp")
                                .trim();
                            rest == *w || rest.starts_with(&format!("{w} "))
                        })
            })
            .count();
        let sections = src
            .lines()
            .map(|l| l.trim().to_ascii_lowercase())
            .filter(|l| {
                l.starts_with("#pragma omp parallel sections")
                    || l.starts_with("!$omp parallel sections")
            })
            .count();
        assert!(loops + sections >= 1, "{}", f.display());
        let ext = if f.extension().is_some_and(|e| e == "c") {
            "c"
        } else {
            "f90"
        };
        for (mode, file) in [("-d", "gen_d"), ("-b", "gen_b")] {
            let dir = root.join(format!(
                "{}{mode}",
                f.file_stem().unwrap().to_string_lossy()
            ));
            let o = run_cli(f, &opts, &[mode, "-o", "gen"], &dir);
            assert_eq!(o.status, 0, "{}: {}", f.display(), o.stderr);
            let t = std::fs::read_to_string(dir.join(format!("{file}.{ext}"))).unwrap();
            let parallel = count(&t, &["parallel for", "parallel do"]);
            let parallel_sections = count(&t, &["parallel sections"]);
            if mode == "-d" {
                assert_eq!(parallel, loops, "{}:\n{t}", f.display());
                assert_eq!(parallel_sections, sections, "{}:\n{t}", f.display());
            } else {
                assert!(parallel_sections >= 2 * sections, "{}:\n{t}", f.display());
                assert!(parallel >= loops, "{}:\n{t}", f.display());
                assert!(
                    t.matches("schedule(static)").count() >= loops,
                    "{}:\n{t}",
                    f.display()
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Issue 45: the adjoint of llama2.c's `matmul` shape (`c_omp_matmul.c`) writes row i of
/// w̄ (`wb[i * n + j]`, j over 0..n-1) without atomics, and accumulates x̄[j], which every
/// row increments, per thread: an array reduction over the extent of the loop over j, not
/// an atomic update per element and row. So do shared coefficients (`c_omp_coeffs.c`:
/// w̄[0..2], while x̄'s neighbours stay atomic) and Fortran's x̄ (`f_omp_matvec.f90`, the
/// whole array).
#[test]
fn openmp_adjoint_increments_every_iteration_makes_are_array_reductions() {
    let gen = |file: &str, ext: &str| {
        let f = Path::new("tests/tangent").join(file);
        let (opts, _) = header(&f);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("omp-rows-{file}-{}", std::process::id()));
        let o = run_cli(&f, &opts, &["-b", "-o", "gen"], &dir);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let t = std::fs::read_to_string(dir.join(format!("gen_b.{ext}"))).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        t
    };
    let atomic_before = |t: &str, needle: &str| {
        let at = t.find(needle).unwrap_or_else(|| panic!("{needle}:\n{t}"));
        t[..at].trim_end().ends_with("#pragma omp atomic")
    };
    let t = gen("c_omp_matmul.c", "c");
    assert!(!atomic_before(&t, "wb[i * n + j] = "), "{t}");
    assert!(!atomic_before(&t, "xb[j] = "), "{t}");
    assert!(t.contains("reduction(+: xb[:n])"), "{t}");
    let t = gen("c_omp_coeffs.c", "c");
    assert!(t.contains("reduction(+: wb[:3])"), "{t}");
    assert!(!atomic_before(&t, "wb[0] = "), "{t}");
    assert!(atomic_before(&t, "xb[i - 1] = "), "{t}");
    let t = gen("f_omp_matvec.f90", "f90");
    assert!(t.contains("reduction(+: xb)"), "{t}");
    assert!(!t.contains("!$omp atomic"), "{t}");
}

/// Issue 45: the updates of an `omp atomic` statement stay atomic in tangent and vector
/// tangent mode, the derivative's and the primal's — in vector mode each direction's update
/// inside the loop over directions (a race CI once caught only by chance: the directions
/// differed from the scalar tangent's on one run in several).
#[test]
fn openmp_atomic_updates_stay_atomic_in_every_direction() {
    for f in [
        "tests/tangent/c_omp_atomic.c",
        "tests/tangent/f_omp_atomic.f90",
    ] {
        let f = Path::new(f);
        let (opts, _) = header(f);
        let ext = f.extension().unwrap().to_string_lossy().into_owned();
        for (tag, mode, file) in [
            ("d", &["-d"][..], "gen_d"),
            ("dv", &["-d", "-vector", "-nbdirsmax", "3"][..], "gen_dv"),
        ] {
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
                "omp-atomic-{}-{tag}-{}",
                f.file_stem().unwrap().to_string_lossy(),
                std::process::id()
            ));
            let o = run_cli(f, &opts, &[mode, &["-o", "gen"][..]].concat(), &dir);
            assert_eq!(o.status, 0, "{}", o.stderr);
            let t = std::fs::read_to_string(dir.join(format!("{file}.{ext}"))).unwrap();
            let _ = std::fs::remove_dir_all(&dir);
            let lines: Vec<&str> = t.lines().map(str::trim).collect();
            let par = lines.iter().position(|l| l.contains("parallel")).unwrap();
            let mut updates = 0;
            for (k, l) in lines.iter().enumerate().skip(par) {
                let target = ["y[", "y(", "yd[", "yd("].iter().any(|p| l.starts_with(p));
                if target && l.contains('=') {
                    updates += 1;
                    let prev = lines[k - 1].to_ascii_lowercase();
                    assert!(
                        prev == "#pragma omp atomic" || prev == "!$omp atomic",
                        "{} {tag}: `{l}` is not atomic:\n{t}",
                        f.display()
                    );
                }
            }
            assert_eq!(updates, 2, "{} {tag}:\n{t}", f.display());
        }
    }
}
