//! Adjoint mode, proven numerically on the corpus of `tests/tangent/`.
//!
//! Each program is differentiated by the CLI in tangent (`-d`) and adjoint (`-b`) mode, and
//! in split mode (`-b -nocheckpoint`); drivers are generated from the head's declarations
//! (`tests/common`), compiled with gfortran/gcc together with the runtime written by
//! `radtap_runtime_stack`, and run. Checked for every program the adjoint supports:
//! - the dot-product test: ⟨ẏ, ȳ⟩ from the tangent equals ⟨ẋ, x̄⟩ from the adjoint to 1e-12
//!   relative (ẋ = direction 1 of the tangent driver, ȳ = fixed weights);
//! - the gradient matches central finite differences: ⟨ȳ, Δy/Δx·ẋ⟩ = ⟨ẋ, x̄⟩ to 1e-6;
//! - the runtime stack is empty after `f_b` returns;
//! - split mode gives the same x̄ as joint mode.

mod common;

use common::*;
use radtap_il::*;
use std::path::{Path, PathBuf};

const UNSUPPORTED: &[(&str, &str)] = ADJOINT_UNSUPPORTED;

/// Whether `-nocheckpoint` (split mode) is checked against joint mode.
const SPLIT_MODE: bool = true;

/// Corpus programs split mode refuses (with a diagnostic): f2c's pointer arguments moved for
/// 1-based indexing (`a -= a_offset`) in a procedure split into `f_fwd`/`f_bwd`, and an
/// integer status returned by a function that writes through its arguments (`info = chol(n,
/// a)`, `return series_impl(y, res, scaled)`, checkpointed in joint mode only), and local pointers set from a pointer argument
/// (`const double *mu = p->mu + k * 2;`, ADBench's `xp = &(s[i])`, the hand tracker's
/// `const int *verts = triangles[c].verts;`, whose element count the split sweep would record),
/// and a helper's own local record whose member it allocates (each sweep would have its own
/// record), and a record passed by value to the call that changes it (`sq(z, &z)` of
/// c_vector_record_blocks.c: the backward sweep would pass the new value).
const SPLIT_UNSUPPORTED: &[&str] = &[
    "c_f2c_matrix.c",
    "c_f2c_commas.c",
    "c_cholesky_status.c",
    "c_status_return_call.c",
    "c_const_status_init.c",
    "c_member_pointers.c",
    "c_layer_pointer_carried.c",
    "c_triangle_verts.c",
    "c_helper_local_record.c",
    "c_vector_record_blocks.c",
];

fn build(dir: &Path, lang: Lang, srcs: &[PathBuf], exe: &str) -> Result<String, String> {
    // The runtime's headers, which generated C includes.
    radtap_runtime_stack::write_to(dir).map_err(|e| format!("runtime: {e}"))?;
    let mut all = srcs.to_vec();
    // OpenMP programs link a runtime whose stack is thread-local.
    all.extend(runtime(uses_openmp(srcs))?);
    build_and_run(dir, lang, &all, exe)
}

/// The runtime's objects, compiled once per run of the suite, kept in the target's temporary
/// directory.
fn runtime(openmp: bool) -> Result<[PathBuf; 2], String> {
    static RUNTIME: [std::sync::OnceLock<Result<[PathBuf; 2], String>>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let flags: &[&str] = if openmp { &["-fopenmp"] } else { &[] };
    let tag = if openmp { "-omp" } else { "" };
    RUNTIME[openmp as usize]
        .get_or_init(|| {
            let dir = runtime_dir();
            let src = dir.join(format!("src{tag}-{}", std::process::id()));
            radtap_runtime_stack::write_to(&src).map_err(|e| format!("runtime: {e}"))?;
            for c in ["adStack", "adBinomial"] {
                let tmp = src.join(format!("{c}.o"));
                let o = std::process::Command::new("gcc")
                    .current_dir(&src)
                    .args(flags)
                    .args(["-O2", "-c", &format!("{c}.c"), "-o"])
                    .arg(&tmp)
                    .output()
                    .map_err(|e| format!("gcc: {e}"))?;
                if !o.status.success() {
                    return Err(format!(
                        "runtime compile failed: {}",
                        String::from_utf8_lossy(&o.stderr)
                    ));
                }
                std::fs::rename(&tmp, dir.join(format!("{c}{tag}.o")))
                    .map_err(|e| format!("runtime: {e}"))?;
            }
            let _ = std::fs::remove_dir_all(&src);
            Ok([
                dir.join(format!("adStack{tag}.o")),
                dir.join(format!("adBinomial{tag}.o")),
            ])
        })
        .clone()
}

/// One directory for every run of the suite: each run compiles the runtime once to names of
/// its own and renames them into place, so concurrent runs never see half-written objects.
fn runtime_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("adjoint-runtime")
}

/// Runs the adjoint of one corpus file (`extra` options) and returns x̄ per independent
/// element, ⟨ẋ, x̄⟩ and the weights ȳ put on the dependents.
fn adjoint_run(
    path: &Path,
    dir: &Path,
    extra: &[&str],
    tag: &str,
) -> Result<(Vec<f64>, f64, Vec<(String, f64)>, f64), String> {
    let (opts, sizes) = header(path);
    let mut args = vec!["-b", "-o", "gen"];
    args.extend_from_slice(extra);
    let o = run_cli(path, &opts, &args, dir);
    if o.status != 0 {
        return Err(format!("radtap -b {extra:?} failed:\n{}", o.stderr));
    }
    let gen = o.adjoint.as_ref().ok_or("no adjoint output")?;
    let h = describe(gen, &sizes);
    let orig = dir.join(path.file_name().unwrap());
    let ext = if h.lang == Lang::C { "c" } else { "f90" };
    let drv = format!("drv_b{tag}.{ext}");
    std::fs::write(dir.join(&drv), driver(&h, Kind::Adjoint)).unwrap();
    let mut srcs = vec![original_object(&orig, h.lang)?];
    if h.lang == Lang::Fortran {
        srcs.push(dir.join("gen_b.f90"));
    }
    srcs.push(dir.join(&drv));
    let out = build(dir, h.lang, &srcs, &format!("drv_b{tag}"))
        .map_err(|e| format!("{e}\n(in {})", dir.display()))?;
    let m = parse_out(&out);
    let stack = m.get("S").and_then(|v| v.first()).map_or(f64::NAN, |x| x.1);
    if stack != 0.0 {
        return Err(format!(
            "the runtime stack holds {stack} bytes after f_b returns\n(in {})",
            dir.display()
        ));
    }
    let xs = m.get("X").cloned().unwrap_or_default();
    let bs = m.get("B").cloned().unwrap_or_default();
    let xb: f64 = xs.iter().zip(&bs).map(|(x, b)| x.1 * b.1).sum();
    let w = m.get("W").cloned().unwrap_or_default();
    let peak = m.get("P").and_then(|v| v.first()).map_or(f64::NAN, |x| x.1);
    Ok((bs.iter().map(|b| b.1).collect(), xb, w, peak))
}

fn check(path: &Path) -> Result<(), String> {
    let (opts, _) = header(path);
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let dir = std::env::temp_dir().join(format!("radtap-adjoint-{}-{stem}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(path, dir.join(path.file_name().unwrap())).unwrap();
    // The tangent (direction 1) and central differences, from the tangent driver.
    let o = run_cli(path, &opts, &["-d", "-o", "gen"], &dir);
    if o.status != 0 {
        return Err(format!("radtap -d failed:\n{}", o.stderr));
    }
    let (_, sizes) = header(path);
    let ht = describe(o.tangent.as_ref().ok_or("no tangent")?, &sizes);
    let ext = if ht.lang == Lang::C { "c" } else { "f90" };
    std::fs::write(dir.join(format!("drv_d.{ext}")), driver(&ht, Kind::Scalar)).unwrap();
    let mut srcs = vec![original_object(
        &dir.join(path.file_name().unwrap()),
        ht.lang,
    )?];
    if ht.lang == Lang::Fortran {
        srcs.push(dir.join("gen_d.f90"));
    }
    srcs.push(dir.join(format!("drv_d.{ext}")));
    let out = build_and_run(&dir, ht.lang, &srcs, "drv_d")
        .map_err(|e| format!("tangent: {e}\n(in {})", dir.display()))?;
    let m = parse_out(&out);
    let (t1, fp, fm) = (&m["T1"], &m["FP"], &m["FM"]);
    // Joint mode.
    let (xb, dot_x, w, _) = adjoint_run(path, &dir, &[], "")?;
    if w.len() != t1.len() {
        return Err(format!(
            "the adjoint driver seeds {} dependent elements, the tangent prints {}",
            w.len(),
            t1.len()
        ));
    }
    let dot_y: f64 = t1.iter().zip(&w).map(|(t, w)| t.1 * w.1).sum();
    let dot_fd: f64 = fp
        .iter()
        .zip(fm)
        .zip(&w)
        .map(|((p, q), w)| (p.1 - q.1) / (2.0 * H) * w.1)
        .sum();
    let scale = dot_y.abs().max(dot_x.abs()).max(1e-300);
    let rel = (dot_y - dot_x).abs() / scale;
    if !(rel <= 1e-12) {
        return Err(format!(
            "dot-product test: <ydot, ybar> = {dot_y:.17e}, <xdot, xbar> = {dot_x:.17e}, relative error {rel:.3e}\n(in {})",
            dir.display()
        ));
    }
    let rel_fd = (dot_fd - dot_x).abs() / dot_fd.abs().max(dot_x.abs()).max(1e-300);
    if !(rel_fd <= 1e-6) {
        return Err(format!(
            "adjoint gradient vs central differences: {dot_x:.17e} vs {dot_fd:.17e}, relative error {rel_fd:.3e}\n(in {})",
            dir.display()
        ));
    }
    if dot_x == 0.0 {
        return Err("the adjoint gradient is zero: the test proves nothing".into());
    }
    // Split mode gives the same gradient.
    if !SPLIT_MODE || std::env::var("RADTAP_NO_SPLIT").is_ok() {
        let _ = std::fs::remove_dir_all(&dir);
        return Ok(());
    }
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    if SPLIT_UNSUPPORTED.contains(&name.as_str()) {
        // Refused with a diagnostic in split mode, never wrong code.
        return match adjoint_run(path, &dir, &["-nocheckpoint"], "s") {
            Err(e) if e.contains("error[AD0") => {
                let _ = std::fs::remove_dir_all(&dir);
                Ok(())
            }
            Err(e) => Err(format!("split mode failed without a diagnostic: {e}")),
            Ok(_) => Err("listed in SPLIT_UNSUPPORTED but accepted in split mode: test it".into()),
        };
    }
    let (xb_split, _, _, _) = adjoint_run(path, &dir, &["-nocheckpoint"], "s")?;
    for (k, (a, b)) in xb.iter().zip(&xb_split).enumerate() {
        if (a - b).abs() > 1e-13 * a.abs().max(b.abs()).max(1e-300) {
            return Err(format!(
                "split mode differs from joint mode at independent element {k}: {b} vs {a}\n(in {})",
                dir.display()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn adjoint_passes_dot_product_and_finite_difference_tests() {
    // RADTAP_ADJOINT_ONLY=substring restricts the run (for debugging one program).
    let only = std::env::var("RADTAP_ADJOINT_ONLY").ok();
    let files: Vec<PathBuf> = corpus()
        .into_iter()
        .filter(|f| {
            only.as_ref()
                .is_none_or(|o| f.to_string_lossy().contains(o.as_str()))
        })
        .collect();
    let mut failures = Vec::new();
    let mut passed = 0;
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if let Some((_, why)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
            // Refused with a diagnostic, never wrong code.
            let (opts, _) = header(f);
            let dir = std::env::temp_dir().join(format!("radtap-adjoint-u-{}", std::process::id()));
            let o = run_cli(f, &opts, &["-b", "-o", "gen"], &dir);
            let _ = std::fs::remove_dir_all(&dir);
            if o.status == 0 {
                failures.push(format!(
                    "{name}: listed as unsupported ({why}) but now accepted: test it"
                ));
            } else if !o.stderr.contains("error[AD0") {
                failures.push(format!("{name}: refused without a diagnostic"));
            }
            continue;
        }
        match check(f) {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    eprintln!(
        "adjoint suite: {passed} of {} programs pass ({} refused as unsupported)",
        files.len(),
        UNSUPPORTED.len()
    );
    for f in &failures {
        eprintln!("FAIL {f}\n");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    assert!(
        only.is_some() || passed >= 51,
        "the adjoint suite must prove at least 30 programs ({passed} pass)"
    );
}

/// `$AD NOCHECKPOINT` splits exactly the calls it names: before a call (that call runs
/// `g_fwd`/`g_bwd`, another call to `g` stays checkpointed with `g_b`) and on a header (every
/// call). The numbers of both programs are proven by the suite above; this checks the
/// directive took effect, and that a misplaced one is reported.
#[test]
fn nocheckpoint_directive_splits_the_calls_it_names() {
    let dir = std::env::temp_dir().join(format!("radtap-nockp-{}", std::process::id()));
    for (file, expect, absent) in [
        (
            "tests/tangent/f_nocheckpoint.f90",
            &[
                "call smooth(n, a, 0.5d0)",
                "call smooth_fwd(n, a, 0.25d0)",
                "call smooth_bwd(n, a, ab, 0.25d0)",
                "call smooth_b(n, a, ab, 0.5d0)",
                "energy_res = energy_fwd(n, a)",
                "call energy_bwd(n, a, ab, energy_resb)",
            ][..],
            "subroutine energy_b(",
        ),
        (
            "tests/tangent/c_nocheckpoint.c",
            &[
                "scale(n, a, 0.1);",
                "scale_fwd(n, a, 0.2);",
                "scale_b(n, a, ab, 0.1);",
                "scale_bwd(n, a, ab, 0.2);",
                "relax_fwd(n, a);",
                "relax_bwd(n, a, ab);",
            ][..],
            "void relax_b(",
        ),
    ] {
        let f = Path::new(file);
        let (opts, _) = header(f);
        let o = run_cli(f, &opts, &["-b", "-o", "gen"], &dir);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let ext = f.extension().unwrap().to_string_lossy();
        let text = std::fs::read_to_string(dir.join(format!("gen_b.{ext}"))).unwrap();
        for e in expect {
            assert!(text.contains(e), "{file}: `{e}` missing in\n{text}");
        }
        assert!(!text.contains(absent), "{file}: `{absent}` is not used");
    }
    // A directive before a statement with no call is a warning naming its line.
    let src = dir.join("misplaced.f90");
    std::fs::write(
        &src,
        "subroutine m(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  !$AD NOCHECKPOINT\n  y = x*x\nend subroutine m\n",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "m", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = run_cli(&src, &opts, &["-b"], &dir.join("out"));
    assert_eq!(o.status, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("misplaced.f90:5:") && o.stderr.contains("warning[AD050]"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Memory behind a C pointer or an assumed-size array has no size radtap can see: the
/// adjoint asks for it by name (`-size y=N`) instead of recording too little, and records
/// exactly that many elements when given (the suite above proves the numbers).
#[test]
fn unknown_sizes_are_asked_for_by_name_and_used_when_given() {
    for (file, head, vars) in [
        (
            "tests/tangent/c_globals.c",
            "gl_head",
            ["-vars", "x", "-outvars", "y"],
        ),
        (
            "tests/tangent/f_assumed_size.f90",
            "asize",
            ["-vars", "x y", "-outvars", "y"],
        ),
    ] {
        let dir =
            std::env::temp_dir().join(format!("radtap-adjoint-size-{}-{head}", std::process::id()));
        let mut opts: Vec<String> = vec!["-head".into(), head.into()];
        opts.extend(vars.iter().map(|s| s.to_string()));
        let mut p = Path::new(file).to_path_buf();
        if head == "gl_head" {
            // The callee's code shows it writes y[0 .. n) only: each call records that
            // section, no -size needed (`slices.rs`). Under a condition its extent is
            // unknown again, and so is what to record.
            let o = run_cli(&p, &opts, &["-b"], &dir);
            assert_eq!(o.status, 0, "{}", o.stderr);
            assert!(
                o.written[0].1.contains("pushReal8Array(y, n)"),
                "{}",
                o.written[0].1
            );
            let text = std::fs::read_to_string(&p).unwrap().replace(
                "        y[i] = g_scale",
                "        if (i < n)\n            y[i] = g_scale",
            );
            std::fs::create_dir_all(&dir).unwrap();
            p = dir.join("c_globals_cond.c");
            std::fs::write(&p, text).unwrap();
        }
        let p = p.as_path();
        let o = run_cli(p, &opts, &["-b"], &dir);
        assert_eq!(o.status, 1, "{}", o.stderr);
        assert!(o.stderr.contains("give -size y=N"), "{}", o.stderr);
        let o = run_cli(p, &opts, &["-b", "-size", "y=n"], &dir);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let text = &o.written[0].1;
        assert!(
            text.contains("pushReal8Array(y, n)") || text.contains("call pushreal8array(y, n)"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Writes `text` as `name` in a scratch directory, runs `-b` with `-head head -vars x
/// -outvars outvars`, and asserts exit status 1 with an AD020 at `at` (`:line:col:`) whose
/// message contains `what`.
fn assert_adjoint_refused(name: &str, text: &str, outvars: &str, at: &str, what: &str) {
    let dir = std::env::temp_dir().join(format!(
        "radtap-adjoint-refused-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join(name);
    std::fs::write(&src, text).unwrap();
    let opts: Vec<String> = ["-head", "f", "-vars", "x", "-outvars", outvars]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = run_cli(&src, &opts, &["-b"], &dir.join("out"));
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("{at} error[AD020]")) && o.stderr.contains(what),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chained assignment whose value reads one of its targets (`a = b = 2 * b`) is refused at
/// its line rather than differentiated as if every target held the same value.
#[test]
fn chained_assignment_reading_a_target_is_refused() {
    assert_adjoint_refused(
        "chain_self.c",
        "void f(double x, double *y)\n{\n    double a, b;\n    b = x;\n    a = b = 2.0 * b;\n    *y = a * b;\n}\n",
        "y",
        ":5:5:",
        "reads one of its targets",
    );
}

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
    let chain = include_str!("tangent/c_hand_bone_chain.c");
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

/// An ELSEWHERE mask that reads what an earlier arm wrote other than element by element
/// (here through a reduction, which sees the written values) is still refused at its line;
/// read element by element it is differentiated (`tests/tangent/f_where_deferred_masks.f90`).
#[test]
fn elsewhere_mask_reading_a_written_array_through_a_reduction_is_refused() {
    assert_adjoint_refused(
        "elsewhere_sum.f90",
        "subroutine f(x, y)\n  real(8), intent(inout) :: x(4)\n  real(8), intent(out) :: y\n  where (x < 1.0d0)\n    x = x*x\n  elsewhere (x > sum(x)/4)\n    x = sin(x)\n  end where\n  y = sum(x)\nend subroutine f\n",
        "x y",
        ":4:3:",
        "other than element by element",
    );
}

/// Fortran pointers whose associations cannot be re-established backwards (associated inside
/// a loop, or a dummy pointer) are refused at their line.
#[test]
fn fortran_pointers_associated_in_loops_are_refused() {
    assert_adjoint_refused(
        "ptr_loop.f90",
        "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(inout), target :: x(n)\n  real(8), intent(out) :: y\n  real(8), pointer :: p\n  integer :: i\n  y = 0\n  do i = 1, n\n    p => x(i)\n    p = sin(p)\n    y = y + p*p\n  end do\nend subroutine f\n",
        "x y",
        ":9:5:",
        "inside a loop",
    );
}

/// A function writing real data with a derivative (here a module variable) referenced inside
/// an expression is refused at its line: the backward sweep would recompute the result and
/// `f_b` run `f`'s forward sweep again, so `acc` was incremented twice (a silently wrong
/// adjoint). One whose effect carries no derivative runs its split pair once.
#[test]
fn impure_function_in_an_expression_is_split_or_refused() {
    let dir = std::env::temp_dir().join(format!("radtap-adjoint-impure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("side.f90");
    std::fs::write(
        &src,
        "module m\n  implicit none\n  real(8) :: acc\ncontains\n  function f(t) result(r)\n    real(8), intent(in) :: t\n    real(8) :: r\n    acc = acc + t\n    r = t*acc\n  end function f\nend module m\n\nsubroutine h(x, y)\n  use m\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  acc = x\n  y = f(x)\nend subroutine h\n",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "h", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // Real data with a derivative written by a function in an expression: still refused.
    let o = run_cli(&src, &opts, &["-b"], &dir.join("out"));
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(":19:3: error[AD020]")
            && o.stderr.contains(
                "the function `f`, which writes real data through its arguments or globals"
            ),
        "{}",
        o.stderr
    );
    // The tangent runs `f_d` once: still differentiated.
    let o = run_cli(&src, &opts, &["-d"], &dir.join("out3"));
    assert_eq!(o.status, 0, "{}", o.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    // Issue 44 item 7: a SAVE counter, and (C) an integer written through a pointer that an
    // earlier statement's adjoint reads (the backward sweep ran `sq` again and the adjoint of
    // `w = x[0] * k` used k = 3 instead of 1), were refused; the reference now runs `g_fwd`
    // forwards and `g_bwd` backwards (the effect once), what it writes that earlier
    // statements need recorded around it. Tangent and adjoint agree.
    let save = "! radtap: -head h -vars \"x\" -outvars \"y\"\n! sizes:\nfunction g(t) result(r)\n  implicit none\n  real(8), intent(in) :: t\n  real(8) :: r\n  real(8), save :: n = 0\n  n = n + 1\n  r = t*n\nend function g\n\nsubroutine h(x, y)\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  real(8), external :: g\n  y = g(x) + x\nend subroutine h\n";
    let ptr = "// radtap: -head f -vars \"x\" -outvars \"y\"\n// sizes: x=2 y=1\nstatic double sq(double t, int *k) { *k = *k + 1; return t * t; }\nvoid f(const double *x, double *y) {\n  int k = 1;\n  double w = x[0] * k;\n  double s = sq(x[1], &k);\n  *y = w * s;\n}\n";
    for (name, text) in [("side_save.f90", save), ("side_ptr.c", ptr)] {
        let (dot_y, dot_x, _) = tangent_and_adjoint(name, text);
        assert!(
            (dot_y - dot_x).abs() <= 1e-12 * dot_y.abs().max(1e-300),
            "{name}: <ydot, ybar> = {dot_y}, <xdot, xbar> = {dot_x}"
        );
    }
}

/// A C VLA is hoisted to the top of the adjoint with the extent of its bound there: a bound
/// that reads a local changed after its initialisation, or a parameter the function changes
/// (assigned, or stepped by `n++` in an expression statement, which went unnoticed: the
/// hoisted array was one element short), would give another extent, so it is refused at the
/// declaration (`c_vla_work.c` and `c_lstm_cells.c`, a local bound `int m = 2 * l * b;`, have
/// the bounds that work).
#[test]
fn vla_with_a_changing_bound_is_refused() {
    let body = "    int i;\n    *y = 0.0;\n    for (i = 0; i < n; i++)\n        t[i] = sin(x[i]);\n    for (i = 0; i < n; i++)\n        *y += t[i] * t[i];\n}\n";
    assert_adjoint_refused(
        "vla_local.c",
        &format!("#include <math.h>\nvoid f(int n, const double *x, double *y)\n{{\n    int k = n + 1;\n    double t[k];\n    k--;\n{body}"),
        "y",
        ":5:5:",
        "a C variable-length array whose bound reads a variable this function changes",
    );
    assert_adjoint_refused(
        "vla_stepped.c",
        &format!("#include <math.h>\nvoid f(int n, const double *x, double *y)\n{{\n    n++;\n    double t[n];\n{body}"),
        "y",
        ":5:5:",
        "a C variable-length array whose bound reads a variable this function changes",
    );
    assert_adjoint_refused(
        "vla_param.c",
        &format!("#include <math.h>\nvoid f(int n, const double *x, double *y)\n{{\n    double t[n];\n    n = n - 1;\n{body}"),
        "y",
        ":4:5:",
        "a C variable-length array whose bound reads a variable this function changes",
    );
}

/// A struct recorded as bytes keeps its pointer members, not the data they designate (the
/// zone of `v->data` is the data): a snapshot that needs the data behind a member the
/// procedure did not allocate is refused at the call (it recorded the struct's bytes and
/// replayed `smooth` on the last values, a silently wrong adjoint; `c_member_snapshot.c` has
/// the member allocated by the procedure, whose block is recorded).
#[test]
fn snapshot_of_data_behind_a_record_member_is_refused() {
    let dir = std::env::temp_dir().join(format!("radtap-adjoint-member-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("pvec.c");
    std::fs::write(
        &src,
        "#include <math.h>\n\ntypedef struct {\n    int n;\n    double *data;\n} Vec;\n\nstatic void smooth(Vec *v)\n{\n    int i;\n    for (i = 0; i < v->n; i++)\n        v->data[i] = sin(v->data[i]) * v->data[i] + 0.5;\n}\n\nvoid f(Vec *v, double *y)\n{\n    int k;\n    for (k = 0; k < 3; k++)\n        smooth(v);\n    y[0] = v->data[0] * v->data[1];\n}\n",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "f(y)/(v)", "-size", "v=1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = run_cli(&src, &opts, &["-b"], &dir.join("out"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("pvec.c:19:9: error[AD020]")
            && o.stderr
                .contains("recording what the record member `v.data` points to"),
        "{}",
        o.stderr
    );
}

/// A `malloc`'d work array is recorded with the extent of its allocation only when that
/// extent is still the block's wherever it is recorded: a count that changes after the
/// allocation leaves the block unrecordable, refused where it is needed
/// (`c_malloc_rows.c` has the allocations that work).
#[test]
fn heap_work_array_with_a_changing_count_is_refused() {
    assert_adjoint_refused(
        "heap_count.c",
        "#include <math.h>\n#include <stdlib.h>\nstatic void g(int n, const double *x, double *t)\n{\n    int i;\n    for (i = 0; i < n; i++)\n        t[i] = sin(x[i]);\n}\nvoid f(int n, const double *x, double *y)\n{\n    double *t = malloc(n * sizeof(double));\n    int r, i;\n    n = n - 1;\n    *y = 0.0;\n    for (r = 0; r < 2; r++) {\n        g(n, x, t);\n        for (i = 0; i < n; i++)\n            *y += t[i] * t[i];\n    }\n    free(t);\n}\n",
        "y",
        ":16:9:",
        "in memory allocated at line 11 whose element count radtap cannot fix",
    );
}

/// The peak of the runtime stack (`adStack_peakBytes`) and x̄ of corpus program `name` as
/// written, and of the same program with its `$AD` directive lines taken out (store-all).
fn peaks_with_and_without_directives(name: &str) -> ((f64, Vec<f64>), (f64, Vec<f64>)) {
    peaks_of_edited(name, None)
}

/// [`peaks_with_and_without_directives`] of the program with `edit.0` replaced by `edit.1`.
fn peaks_of_edited(name: &str, edit: Option<(&str, &str)>) -> ((f64, Vec<f64>), (f64, Vec<f64>)) {
    let path = Path::new("tests/tangent").join(name);
    let mut text = std::fs::read_to_string(&path).unwrap();
    if let Some((from, to)) = edit {
        assert!(text.contains(from), "{name} has no `{from}`");
        text = text.replace(from, to);
    }
    let tag = edit.map_or(String::new(), |e| format!("-{}", e.1));
    let dir = std::env::temp_dir().join(format!("radtap-peak-{}-{name}{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |sub: &str, text: &str| {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join(name);
        std::fs::write(&p, text).unwrap();
        let (xb, _, _, peak) = adjoint_run(&p, &d, &[], "").unwrap_or_else(|e| panic!("{e}"));
        (peak, xb)
    };
    let with = run("with", &text);
    let plain: String = text
        .lines()
        .map(|l| {
            let t = l.trim_start();
            let directive = ["!$AD", "!$ad", "// $AD", "/* $AD"]
                .iter()
                .any(|p| t.starts_with(p));
            if directive {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(plain, text, "{name} has no directive line");
    let without = run("without", &plain);
    let _ = std::fs::remove_dir_all(&dir);
    (with, without)
}

/// The same x̄ to round-off.
fn assert_same_gradient(name: &str, a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1e-300),
            "{name}: x̄[{k}] = {x} with the directives, {y} without"
        );
    }
}

/// `$AD CHECKPOINT-START` … `CHECKPOINT-END` regions are checkpointed like calls: the same
/// gradient as store-all (the suite above proves it against finite differences and the
/// tangent) with a lower peak stack, in Fortran and C.
#[test]
fn checkpoint_regions_lower_the_peak_stack() {
    for name in ["f_checkpoint_region.f90", "c_checkpoint_region.c"] {
        let ((peak, xb), (peak_all, xb_all)) = peaks_with_and_without_directives(name);
        eprintln!("{name}: peak {peak} bytes with the regions, {peak_all} store-all");
        assert_same_gradient(name, &xb, &xb_all);
        assert!(
            peak < 0.5 * peak_all,
            "{name}: peak stack {peak} bytes with the regions, {peak_all} store-all"
        );
    }
}

/// What a checkpointed region cannot run twice or leave early is refused at its line: an
/// EXIT out of a loop inside the region, a C declaration inside it.
#[test]
fn checkpoint_region_with_a_jump_or_a_declaration_is_refused() {
    assert_adjoint_refused(
        "ckp_exit.f90",
        "subroutine f(n, x, y)\n  integer n, i\n  real(8) x, y\n  y = x\n  !$AD CHECKPOINT-START\n  do i = 1, n\n    y = sin(y)*x\n    if (y > 10) exit\n  end do\n  !$AD CHECKPOINT-END\n  y = y*x\nend subroutine f\n",
        "y",
        ":8:17:",
        "a jump (RETURN, STOP, EXIT, CYCLE, GOTO) inside a `$AD CHECKPOINT-START` region",
    );
    assert_adjoint_refused(
        "ckp_decl.c",
        "#include <math.h>\nvoid f(double x, double *y)\n{\n    double v = x;\n    // $AD CHECKPOINT-START\n    v = sin(v);\n    double w = v * x;\n    v = w * w;\n    // $AD CHECKPOINT-END\n    *y = v;\n}\n",
        "y",
        ":7:5:",
        "a declaration inside a `$AD CHECKPOINT-START` region",
    );
}

/// The tangent (direction 1, `T1`) and the adjoint (`x̄`, weights `W`) of a program written
/// to a scratch directory: `(⟨ẏ, ȳ⟩, ⟨ẋ, x̄⟩, x̄)`. No finite differences: for programs whose
/// derivative is not the true one on purpose.
fn tangent_and_adjoint(name: &str, text: &str) -> (f64, f64, Vec<f64>) {
    let dir = std::env::temp_dir().join(format!("radtap-ta-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let (opts, sizes) = header(&path);
    let o = run_cli(&path, &opts, &["-d", "-o", "gen"], &dir);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let ht = describe(o.tangent.as_ref().unwrap(), &sizes);
    let ext = if ht.lang == Lang::C { "c" } else { "f90" };
    std::fs::write(dir.join(format!("drv_d.{ext}")), driver(&ht, Kind::Scalar)).unwrap();
    let mut srcs = vec![path.clone()];
    if ht.lang == Lang::Fortran {
        srcs.push(dir.join("gen_d.f90"));
    }
    srcs.push(dir.join(format!("drv_d.{ext}")));
    let out = build_and_run(&dir, ht.lang, &srcs, "drv_d").unwrap_or_else(|e| panic!("{e}"));
    let m = parse_out(&out);
    let (xb, dot_x, w, _) = adjoint_run(&path, &dir, &[], "").unwrap_or_else(|e| panic!("{e}"));
    let dot_y: f64 = m["T1"].iter().zip(&w).map(|(t, w)| t.1 * w.1).sum();
    let _ = std::fs::remove_dir_all(&dir);
    (dot_y, dot_x, xb)
}

/// `$AD DO-NOT-DIFF` … `END-DO-NOT-DIFF`: what the region writes leaves it with a zero
/// derivative. Here `c = Σ x(k)²` is computed in the region and `y = x(1)·c + x(2)`, so
/// x̄(k) = 0 for k ≥ 3 exactly (the true derivative is 2·x(1)·x(k)), x̄(2) = ȳ, and the
/// tangent agrees with the adjoint (dot product), in Fortran and C.
#[test]
fn do_not_diff_region_gives_zero_derivatives_through_it() {
    let f = "! radtap: -head f -vars \"x\" -outvars \"y\"\n! sizes: n=5 x=n\nsubroutine f(n, x, y)\n  integer n, k\n  real(8) x(n), y, c\n  c = 0\n  !$AD DO-NOT-DIFF\n  do k = 1, n\n    c = c + x(k)**2\n  end do\n  !$AD END-DO-NOT-DIFF\n  y = x(1)*c + x(2)\nend subroutine f\n";
    let c = "// radtap: -head f -vars \"x\" -outvars \"y\"\n// sizes: n=5 x=n y=1\nvoid f(int n, const double *x, double *y)\n{\n    int k;\n    double c = 0;\n    /* $AD DO-NOT-DIFF */\n    for (k = 0; k < n; k++)\n        c = c + x[k] * x[k];\n    /* $AD END-DO-NOT-DIFF */\n    *y = x[0] * c + x[1];\n}\n";
    for (name, text) in [("dnd.f90", f), ("dnd.c", c)] {
        let (dot_y, dot_x, xb) = tangent_and_adjoint(name, text);
        assert_eq!(xb.len(), 5, "{name}");
        assert!(xb[2..].iter().all(|&v| v == 0.0), "{name}: x̄ = {xb:?}");
        assert!(xb[0] != 0.0 && xb[1] != 0.0, "{name}: x̄ = {xb:?}");
        let rel = (dot_y - dot_x).abs() / dot_y.abs().max(dot_x.abs());
        assert!(rel <= 1e-12, "{name}: dot product {dot_y} vs {dot_x}");
    }
}

/// `$AD BINOMIAL-CKP nsteps 10 first` on a nonlinear time loop of 1,000 steps, in Fortran
/// (nsteps = trip count + 1) and C (nsteps = 1,500): the same gradient as store-all (proven
/// against finite differences and the tangent by the suite above) with a peak stack at
/// most 5% of the store-all peak (10 snapshots of the state and one step's tape).
#[test]
fn binomial_checkpointing_bounds_the_peak_stack() {
    for name in ["f_binomial_ckp.f90", "c_binomial_ckp.c"] {
        binomial_peak_within_5_percent(name);
    }
}

/// `$AD BINOMIAL-CKP` on a DO WHILE (Fortran), a `while` and a `do … while` (C) time loop of 1,000 steps
/// driven by a step counter the body advances: the forward sweep counts the trips and the
/// schedule runs against that count; same gradient as store-all, peak at most 5% of it.
#[test]
fn binomial_checkpointing_of_while_loops_bounds_the_peak_stack() {
    for name in [
        "f_binomial_while.f90",
        "c_binomial_while.c",
        "c_binomial_dowhile.c",
    ] {
        binomial_peak_within_5_percent(name);
    }
}

fn binomial_peak_within_5_percent(name: &str) {
    let ((peak, xb), (peak_all, xb_all)) = peaks_with_and_without_directives(name);
    eprintln!("{name}: peak {peak} bytes with BINOMIAL-CKP, {peak_all} store-all");
    assert_same_gradient(name, &xb, &xb_all);
    assert!(
        peak <= 0.05 * peak_all,
        "{name}: peak stack {peak} bytes with BINOMIAL-CKP, {peak_all} store-all"
    );
}

/// `do i = 1, n; call inner(x(i), c)` with a scalar dummy: each checkpointed call records
/// `x(i)` only, so the peak stack is O(n) (here at most 16 bytes per iteration and a little
/// more), not n whole copies of `x` (n = 40: 12,800 bytes).
#[test]
fn element_call_snapshots_record_the_element() {
    peak_at_most("f_element_call.f90", 16.0 * 40.0 + 256.0);
}

/// C: `sec_step(2, c, &s[k * 2])` in a loop of 20 calls, the callee writing `v[0 .. b)`:
/// each checkpointed call records the 2 elements of `s` it can write through the actual
/// argument's section (`pushReal8Array(&s[k * 2], 2)`), not the whole `s` (40 elements):
/// at most 16 bytes per call and a little more (the whole `s` each time: 6,400 bytes).
#[test]
fn section_call_snapshots_record_the_section() {
    peak_at_most("c_section_call.c", 16.0 * 20.0 + 256.0);
}

/// The adjoint of corpus program `name` runs with a peak stack of at most `max` bytes.
fn peak_at_most(name: &str, max: f64) {
    let path = Path::new("tests/tangent").join(name);
    let dir = std::env::temp_dir().join(format!("radtap-elem-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&path, dir.join(name)).unwrap();
    let (_, _, _, peak) =
        adjoint_run(&dir.join(name), &dir, &[], "").unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(peak <= max, "{name}: peak stack {peak} bytes");
}

/// `$AD II-LOOP` (Fortran): each iteration checkpointed with the element it touches as its
/// snapshot, so the peak stack is at most two iterations' tape (store-all peak / n each)
/// plus 24 bytes of snapshot per iteration, with the same gradient as store-all.
#[test]
fn ii_loop_holds_one_iteration_tape() {
    let name = "f_ii_loop.f90";
    let ((peak, xb), (peak_all, xb_all)) = peaks_with_and_without_directives(name);
    eprintln!("{name}: peak {peak} bytes with II-LOOP, {peak_all} store-all");
    assert_same_gradient(name, &xb, &xb_all);
    let n = 40.0;
    assert!(
        peak <= 2.0 * peak_all / n + 24.0 * n,
        "{name}: peak stack {peak} bytes with II-LOOP, {peak_all} store-all"
    );
}

/// `$AD II-LOOP` on a C `for` loop: each iteration checkpointed with the element `x[i]` it
/// touches as its snapshot, so the peak stack is at most two iterations' tape plus 24 bytes
/// of snapshot per iteration, with the same gradient as store-all.
#[test]
fn ii_loop_on_c_for_holds_one_iteration_tape() {
    let name = "c_ii_loop.c";
    let ((peak, xb), (peak_all, xb_all)) = peaks_with_and_without_directives(name);
    eprintln!("{name}: peak {peak} bytes with II-LOOP, {peak_all} store-all");
    assert_same_gradient(name, &xb, &xb_all);
    let n = 40.0;
    assert!(
        peak <= 2.0 * peak_all / n + 24.0 * n,
        "{name}: peak stack {peak} bytes with II-LOOP, {peak_all} store-all"
    );
}

/// `$AD FP-LOOP` (Fortran DO WHILE and DO with EXIT, C `while`, and `for (;;)` and a counted
/// `for` with `break`; an iteration filling a temporary element by element, fp_loop_fill):
/// one converged iteration is taped and its adjoint iterated (Christianson), so the peak
/// stack is the same whatever the number of primal iterations: the primal tolerance 1e-15
/// and 1e-6 give different iteration counts (the store-all peak grows with them) and the
/// same peak. The gradient agrees with store-all (the suite above also proves it against
/// finite differences to 1e-6 and the tangent to 1e-12, with adj_reduction=1e-15).
#[test]
fn fp_loop_peak_stack_does_not_depend_on_the_iteration_count() {
    for (name, tight) in [
        ("f_fp_loop.f90", "1.0d-15"),
        ("f_fp_loop_exit.f90", "1.0d-15"),
        ("f_fp_loop_exit_first.f90", "1.0d-15"),
        ("c_fp_loop.c", "1.0e-15"),
        ("c_fp_loop_break.c", "1.0e-15"),
        ("c_fp_loop_for.c", "1.0e-15"),
        ("f_fp_loop_fill.f90", "1.0d-15"),
        ("c_fp_loop_fill.c", "1.0e-15"),
    ] {
        let loose = tight.replace("-15", "-6");
        let ((peak, xb), (peak_all, xb_all)) = peaks_of_edited(name, None);
        let ((peak2, _), (peak_all2, _)) = peaks_of_edited(name, Some((tight, &loose)));
        eprintln!(
            "{name}: peak {peak} / {peak2} bytes with FP-LOOP, {peak_all} / {peak_all2} store-all (tolerance {tight} / {loose})"
        );
        for (k, (x, y)) in xb.iter().zip(&xb_all).enumerate() {
            assert!(
                (x - y).abs() <= 1e-10 * x.abs().max(y.abs()),
                "{name}: x̄[{k}] = {x} with FP-LOOP, {y} store-all"
            );
        }
        assert!(
            peak_all2 < 0.8 * peak_all,
            "{name}: the two tolerances should give different iteration counts: store-all peaks {peak_all} / {peak_all2}"
        );
        assert_eq!(
            peak, peak2,
            "{name}: FP-LOOP peak depends on the iteration count"
        );
        assert!(
            peak < 0.25 * peak_all,
            "{name}: peak {peak} with FP-LOOP, {peak_all} store-all"
        );
    }
}

/// FP-LOOP iterates the adjoint until the norm of the state's adjoint settles; the runtime's
/// norm reads doubles, so a complex state would be half-measured and the loop could stop
/// before its adjoint has converged. A complex FP-LOOP variable is reported (AD050 at the loop,
/// exit 0) and the loop taped whole: no `adFixedPoint` call, every iteration recorded.
#[test]
fn fp_loop_over_complex_state_is_taped_whole() {
    let dir = std::env::temp_dir().join(format!("radtap-fpcplx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("fpc.f90").to_string_lossy().into_owned();
    std::fs::write(
        &s,
        "subroutine f(x, y)\n  real(8) :: x, y, e\n  complex(8) :: z\n  z = cmplx(x, 0.1d0, 8)\n  e = 1\n  !$AD FP-LOOP \"z\"\n  do while (e > 1.0d-14)\n    e = abs(0.5d0*cos(z)*x - z)\n    z = 0.5d0*cos(z)*x\n  end do\n  y = real(z, 8)\nend subroutine f\n",
    )
    .unwrap();
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("fpc.f90:7:3: warning[AD050]")
            && err.contains("names `z`, which is not a real(8)/double variable or array: the loop is taped whole"),
        "{err}"
    );
    let out = std::fs::read_to_string(dir.join("fpc_b.f90")).unwrap();
    assert!(!out.to_lowercase().contains("adfixedpoint"), "{out}");
    assert!(out.to_lowercase().contains("pushcomplex16"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Single-precision `complex` (default kind) has no corpus program (finite differences of
/// single-precision intermediates cannot meet the corpus tolerances); its derivatives keep the
/// kind of the variable they belong to in every mode, and `cmplx` without a kind keeps the
/// primal's default kind, also where a complex(8) value is mixed in.
#[test]
fn single_precision_complex_derivatives_keep_their_kind() {
    let dir = std::env::temp_dir().join(format!("radtap-cplx4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("s4.f90").to_string_lossy().into_owned();
    std::fs::write(
        &s,
        "subroutine f(x, y)\n  implicit none\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y(3)\n  complex :: z, w\n  complex(8) :: u\n  z = cmplx(x(1), x(2))\n  w = exp(z)*z + conjg(z)/(z + 1.0)\n  u = cmplx(x(2), x(1), 8)*w\n  y(1) = real(w)\n  y(2) = aimag(u) + abs(w)\n  y(3) = dble(u*u)\nend subroutine f\n",
    )
    .unwrap();
    let modes: [(&[&str], &str, &[&str]); 3] = [
        (
            &["-d"],
            "s4_d.f90",
            &[
                "complex :: zd, wd\n",
                "complex(8) :: ud\n",
                "zd = cmplx(xd(1), xd(2), kind=kind(cmplx(x(1), x(2))))",
                "ud = cmplx(xd(2), xd(1), 8)*w + cmplx(x(2), x(1), 8)*wd",
            ],
        ),
        (
            &["-d", "-vector", "-nbdirsmax", "4"],
            "s4_dv.f90",
            &[
                "complex :: zd(nbdirsmax), wd(nbdirsmax)\n",
                "complex(8) :: ud(nbdirsmax)\n",
                "zd(nd) = cmplx(xd(nd, 1), xd(nd, 2), kind=kind(cmplx(x(1), x(2))))",
            ],
        ),
        (
            &["-b"],
            "s4_b.f90",
            &["complex :: zb, wb\n", "complex(8) :: ub\n"],
        ),
    ];
    for (mode, out, wanted) in modes {
        let mut args: Vec<&str> = mode.to_vec();
        args.extend(["-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s]);
        let (code, _, err) = radtap(&args);
        assert_eq!(code, 0, "{mode:?}: {err}");
        let text = std::fs::read_to_string(dir.join(out)).unwrap();
        for w in wanted {
            assert!(text.contains(w), "{mode:?}: no `{w}` in\n{text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `$AD FP-LOOP` where the adjoint cannot iterate one converged iteration safely is reported
/// (AD050 at the loop, exit 0) and the loop taped whole (no `adFixedPoint` call): an active
/// value carried from one iteration to the next that is not among the directive's variables
/// (a sum that does not converge: iterating its adjoint would be wrong), an exit in the middle
/// of the body (Fortran `do`, C `for (;;)`), a var that is not written; an FP-LOOP with no
/// loop after it is reported too; a loop it can iterate says nothing.
#[test]
fn fp_loop_it_cannot_iterate_is_reported() {
    let dir = std::env::temp_dir().join(format!("radtap-fpdirs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("fp.f90").to_string_lossy().into_owned();
    std::fs::write(
        &s,
        "subroutine f(x, y)\n  real(8) :: x, y, z, s, e\n  z = x\n  s = 0\n  e = 1\n  !$AD FP-LOOP z adj_reduction=1e-12\n  do while (e > 1.0d-14)\n    e = abs(0.5d0*cos(z)*x - z)\n    z = 0.5d0*cos(z)*x\n    s = s + z\n  end do\n  !$AD FP-LOOP \"z\"\n  do\n    e = abs(0.5d0*cos(z)*x - z)\n    if (e < 1.0d-14) exit\n    z = 0.5d0*cos(z)*x\n  end do\n  !$AD FP-LOOP \"x\"\n  do while (e > 1.0d-14)\n    e = abs(0.5d0*cos(z)*x - z)\n    z = 0.5d0*cos(z)*x\n  end do\n  !$AD FP-LOOP \"z\"\n  y = z + s\n  !$AD FP-LOOP \"z\" adj_reduction=1e-12\n  do while (e > 1.0d-14)\n    e = abs(0.5d0*cos(z)*x - z)\n    z = 0.5d0*cos(z)*x\n  end do\n  y = y + z\nend subroutine f\n",
    )
    .unwrap();
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    let at = |line: u32, what: &str| {
        err.lines()
            .any(|l| l.contains(&format!("fp.f90:{line}:3: warning[AD050]")) && l.contains(what))
    };
    assert!(at(7, "`s` may be read before being written"), "{err}");
    assert!(at(13, "only exit is one `if (…) exit`"), "{err}");
    assert!(
        at(19, "names `x`, which the iteration does not write"),
        "{err}"
    );
    assert!(
        at(
            24,
            "`$AD FP-LOOP` applies to the loop right after it, and none follows"
        ),
        "{err}"
    );
    assert!(!err.contains("fp.f90:26:"), "{err}");
    let gen = std::fs::read_to_string(dir.join("fp_b.f90")).expect("fp_b.f90");
    // The last loop only.
    assert_eq!(gen.matches("call adfixedpoint_next(").count(), 1, "{gen}");
    let c = dir.join("fp.c").to_string_lossy().into_owned();
    std::fs::write(&c, "#include <math.h>\nvoid g(double x, double *y)\n{\n    double z = x, e;\n    // $AD FP-LOOP z\n    for (;;) {\n        e = fabs(0.5 * cos(z) * x - z);\n        if (e < 1e-14)\n            break;\n        z = 0.5 * cos(z) * x;\n    }\n    *y = z;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "g", "-vars", "x", "-outvars", "y", "-O", &d, &c,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.lines().any(|l| l.contains("fp.c:6:5: warning[AD050]")
            && l.contains("`$AD FP-LOOP` needs a DO WHILE")),
        "{err}"
    );
    assert!(!std::fs::read_to_string(dir.join("fp_b.c"))
        .expect("fp_b.c")
        .contains("adFixedPoint"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `$AD FP-LOOP` over an iteration filling a temporary element by element (fpfill.rs) is
/// only accepted when every element is written before any read of it in the iteration; other
/// shapes keep the AD050 warning and are taped whole: the last element never written
/// (`do i = 2, n - 1`), a read of an element not yet written (`xn(min(i + 1, n))`), the fill
/// out of order (`xn(2:n)` then `xn(1)`, beyond the analysis), a bound the iteration writes
/// (`k = n; do i = 2, k`). The recurrence `xn(i) = … xn(i - 1)` after `xn(1)` is accepted.
#[test]
fn fp_loop_over_a_partly_filled_temporary_is_reported() {
    let dir = std::env::temp_dir().join(format!("radtap-fpfill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("fp.f90").to_string_lossy().into_owned();
    let text = concat!(
        "subroutine f(n, p, y)\n",
        "  integer n, i, k\n",
        "  real(8) p(n), y, x(n), xn(n), e\n",
        "  x = 1\n",
        "  e = 1\n",
        "  !$AD FP-LOOP \"x\"\n",
        "  do while (e > 1.0d-14)\n",
        "    xn(1) = 0.5d0*cos(x(1)) + p(1)\n",
        "    do i = 2, n - 1\n",
        "      xn(i) = 0.5d0*cos(x(i)) + p(i)\n",
        "    end do\n",
        "    e = maxval(abs(xn - x))\n",
        "    x = xn\n",
        "  end do\n",
        "  !$AD FP-LOOP \"x\"\n",
        "  do while (e > 1.0d-14)\n",
        "    xn(1) = 0.5d0*cos(x(1)) + p(1)\n",
        "    do i = 2, n\n",
        "      xn(i) = 0.5d0*cos(x(i)) + p(i)*xn(min(i + 1, n))\n",
        "    end do\n",
        "    e = maxval(abs(xn - x))\n",
        "    x = xn\n",
        "  end do\n",
        "  !$AD FP-LOOP \"x\"\n",
        "  do while (e > 1.0d-14)\n",
        "    do i = 2, n\n",
        "      xn(i) = 0.5d0*cos(x(i)) + p(i)\n",
        "    end do\n",
        "    xn(1) = 0.5d0*cos(x(1)) + p(1)*xn(2)\n",
        "    e = maxval(abs(xn - x))\n",
        "    x = xn\n",
        "  end do\n",
        "  !$AD FP-LOOP \"x\"\n",
        "  do while (e > 1.0d-14)\n",
        "    xn(1) = 0.5d0*cos(x(1)) + p(1)\n",
        "    k = n\n",
        "    do i = 2, k\n",
        "      xn(i) = 0.5d0*cos(x(i)) + p(i)\n",
        "    end do\n",
        "    e = maxval(abs(xn - x))\n",
        "    x = xn\n",
        "  end do\n",
        "  !$AD FP-LOOP \"x\"\n",
        "  do while (e > 1.0d-14)\n",
        "    xn(1) = 0.5d0*cos(x(1)) + p(1)\n",
        "    do i = 2, n\n",
        "      xn(i) = 0.5d0*cos(x(i)) + p(i)*xn(i - 1)\n",
        "    end do\n",
        "    e = maxval(abs(xn - x))\n",
        "    x = xn\n",
        "  end do\n",
        "  y = sum(x)\n",
        "end subroutine f\n",
    );
    std::fs::write(&s, text).unwrap();
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "p", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    for line in [7, 16, 25, 34] {
        assert!(
            err.lines()
                .any(|l| l.contains(&format!("fp.f90:{line}:3: warning[AD050]"))
                    && l.contains("`xn` may be read before being written")),
            "line {line}: {err}"
        );
    }
    assert!(!err.contains("fp.f90:44:"), "{err}");
    let gen = std::fs::read_to_string(dir.join("fp_b.f90")).expect("fp_b.f90");
    assert_eq!(gen.matches("call adfixedpoint_next(").count(), 1, "{gen}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the radtap binary: exit code, stdout, stderr.
fn radtap(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(args)
        .output()
        .expect("run radtap");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// In split mode (`-nocheckpoint`) the forward and backward sweeps of a procedure are two
/// procedures: a local ALLOCATABLE array allocated by `g_fwd` is not allocated in `g_bwd`,
/// which read it (a crash, or garbage). This was refused at the ALLOCATE; now `g_fwd` hands
/// the bounds over and `g_bwd` allocates the array and its adjoint before popping the values
/// into it (the numbers: `tests/tangent/f_split_local_allocatable.f90`, this program, and
/// `f_local_allocatable_return.f90`, split = joint). A SAVE local is still refused.
#[test]
fn local_allocatable_in_a_split_procedure_is_allocated_by_the_backward_sweep() {
    let dir = std::env::temp_dir().join(format!("radtap-splitalloc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("sa.f90");
    std::fs::write(
        &src,
        "module sa
  implicit none
contains
  subroutine g(x, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8), allocatable :: buf(:)
    allocate(buf(n))
    buf = x*x
    x = sin(buf)
    deallocate(buf)
  end subroutine g
  subroutine h(x, y, n)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8) :: w(n)
    w = x
    call g(w, n)
    y = sum(w)
  end subroutine h
end module sa
",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "h", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = run_cli(
        &src,
        &opts,
        &["-b", "-nocheckpoint", "-o", "sa"],
        &dir.join("split"),
    );
    assert_eq!(o.status, 0, "{}", o.stderr);
    let code = std::fs::read_to_string(dir.join("split/sa_b.f90")).unwrap();
    let bwd = &code[code.find("subroutine g_bwd").expect("g_bwd")..];
    let (alloc, pop) = (
        bwd.find("allocate(buf(").expect("buf allocated"),
        bwd.find("call popreal8array(buf").expect("buf popped"),
    );
    assert!(alloc < pop, "{bwd}");
    assert!(bwd.contains("allocate(bufb("), "{bwd}");
    let o = run_cli(&src, &opts, &["-b"], &dir.join("joint"));
    assert_eq!(o.status, 0, "{}", o.stderr);
    // A SAVE local would stay allocated in the forward sweep: still refused.
    let text = std::fs::read_to_string(&src).unwrap();
    std::fs::write(
        &src,
        text.replace("allocatable :: buf(:)", "allocatable, save :: buf(:)"),
    )
    .unwrap();
    let o = run_cli(&src, &opts, &["-b", "-nocheckpoint"], &dir.join("save"));
    assert!(
        o.status == 1
            && o.stderr.contains("sa.f90:8:5: error[AD020]")
            && o.stderr
                .contains("ALLOCATE of a SAVE or pointer local array"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
