//! MPI programs (issue 46), on the real MPI (OpenMPI's `mpicc` and `mpirun`).
//!
//! Each program of `tests/mpi/` is differentiated by the CLI in tangent and adjoint mode;
//! the suites' drivers (`tests/common`), made MPI programs by `radtap_validation::mpi`, are
//! compiled with `mpicc` together with radtap's MPI layer (`adMPI.c`) and the runtime, and
//! run with `mpirun -np 2` and `-np 3`. Checked on every rank: the tangent against central
//! differences of the original run on the same ranks (one global direction), and the stack
//! empty after the adjoint; summed over the ranks: the dot-product test ⟨ẏ, ȳ⟩ = ⟨ẋ, x̄⟩.
//! Without `mpicc`/`mpirun` the test says so and checks nothing (`.ci/run` installs them).

mod common;

use common::*;
use radtap_il::Lang;
use radtap_validation::build::parse_out;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One rank's output, by tag.
type Out = std::collections::HashMap<String, Vec<(String, f64)>>;

fn corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("tests/mpi")
        .expect("tests/mpi")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c" || e == "f90"))
        // RADTAP_MPI_ONLY=part: the programs whose name contains `part` (when working on one).
        .filter(|p| {
            std::env::var("RADTAP_MPI_ONLY")
                .map_or(true, |o| p.to_string_lossy().contains(o.as_str()))
        })
        .collect();
    v.sort();
    v
}

/// The directory of one program's build, under the target's temporary directory.
fn work_dir(stem: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mpi-{stem}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The runtime and the MPI layer, compiled into `dir`.
fn layers(dir: &Path) -> Result<Vec<PathBuf>, String> {
    radtap_runtime_stack::write_to(dir).map_err(|e| e.to_string())?;
    let mut objs = vec![radtap_validation::mpi::layer_object(dir)?];
    for c in ["adStack", "adBinomial"] {
        let o = std::process::Command::new("mpicc")
            .current_dir(dir)
            .args(["-O2", "-c", &format!("{c}.c"), "-o", &format!("{c}.o")])
            .output()
            .map_err(|e| e.to_string())?;
        if !o.status.success() {
            return Err(String::from_utf8_lossy(&o.stderr).into_owned());
        }
        objs.push(dir.join(format!("{c}.o")));
    }
    Ok(objs)
}

/// Builds the driver of `kind` for the generated file `gen` and runs it on each rank count.
fn build(
    dir: &Path,
    orig: &Path,
    gen: &radtap_diff_tangent::Output,
    sizes: &std::collections::HashMap<String, String>,
    kind: Kind,
    objs: &[PathBuf],
) -> Result<PathBuf, String> {
    let h = describe(gen, sizes);
    let name = if kind == Kind::Adjoint {
        "drv_b"
    } else {
        "drv_d"
    };
    let text = radtap_validation::mpi::wrap_driver(&driver(&h, kind), h.lang)
        .ok_or("the driver could not be made an MPI program")?;
    let ext = if h.lang == Lang::C { "c" } else { "f90" };
    let src = dir.join(format!("{name}.{ext}"));
    std::fs::write(&src, text).unwrap();
    let mut tc = radtap_validation::Toolchain::new(None, None, Duration::from_secs(60)).with_mpi(2);
    tc.cflags.push("-ftrivial-auto-var-init=pattern".into());
    tc.fflags.push("-ftrivial-auto-var-init=pattern".into());
    let mut srcs = Vec::new();
    if h.lang == Lang::Fortran {
        let gen = if kind == Kind::Adjoint {
            "gen_b.f90"
        } else {
            "gen_d.f90"
        };
        srcs.push(dir.join(gen));
    }
    srcs.push(src);
    tc.compile(dir, h.lang, &[orig.to_path_buf()], &srcs, objs, name)
}

/// Checks one program with `np` ranks, from its built drivers.
fn check_np(dir: &Path, tangent: &Path, adjoint: &Path, np: u32) -> Result<String, String> {
    let t = Duration::from_secs(30);
    let touts: Vec<Out> = radtap_validation::mpi::run(dir, tangent, np, t)?
        .iter()
        .map(|s| parse_out(s))
        .collect();
    let bouts: Vec<Out> = radtap_validation::mpi::run(dir, adjoint, np, t)?
        .iter()
        .map(|s| parse_out(s))
        .collect();
    let (mut dot_y, mut dot_x, mut worst_fd, mut any) = (0.0f64, 0.0f64, 0.0f64, false);
    for (r, (m, b)) in touts.iter().zip(&bouts).enumerate() {
        let (t1, fp, fm) = (&m["T1"], &m["FP"], &m["FM"]);
        for ((t, p), q) in t1.iter().zip(fp).zip(fm) {
            let fd = (p.1 - q.1) / (2.0 * H);
            let err = (t.1 - fd).abs() / t.1.abs().max(fd.abs()).max(1e-3);
            if err.is_nan() || err > 1e-6 {
                return Err(format!(
                    "-np {np}, rank {r}: tangent of {} is {:.12e}, central differences {fd:.12e}",
                    t.0, t.1
                ));
            }
            worst_fd = worst_fd.max(err);
            any |= t.1 != 0.0;
        }
        let w = b.get("W").cloned().unwrap_or_default();
        if w.len() != t1.len() {
            return Err(format!(
                "rank {r}: {} weights for {} tangents",
                w.len(),
                t1.len()
            ));
        }
        dot_y += t1.iter().zip(&w).map(|(t, w)| t.1 * w.1).sum::<f64>();
        let (xs, bs) = (&b["X"], &b["B"]);
        dot_x += xs.iter().zip(bs).map(|(x, b)| x.1 * b.1).sum::<f64>();
        let stack = b.get("S").and_then(|v| v.first()).map_or(f64::NAN, |x| x.1);
        if stack != 0.0 {
            return Err(format!(
                "-np {np}, rank {r}: the stack holds {stack} bytes after f_b"
            ));
        }
    }
    if !any {
        return Err(format!(
            "-np {np}: the tangent is zero on every rank: nothing is proven"
        ));
    }
    let rel = (dot_y - dot_x).abs() / dot_y.abs().max(dot_x.abs()).max(1e-300);
    if rel.is_nan() || rel > 1e-11 {
        return Err(format!(
            "-np {np}: dot product over the ranks: <ydot, ybar> = {dot_y:.17e}, <xdot, xbar> = {dot_x:.17e}, relative error {rel:.2e}"
        ));
    }
    Ok(format!(
        "-np {np}: tangent vs differences {worst_fd:.1e}, dot product {rel:.1e}"
    ))
}

fn check(path: &Path) -> Result<String, String> {
    let (opts, sizes) = header(path);
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let dir = work_dir(&stem);
    let orig = dir.join(path.file_name().unwrap());
    std::fs::copy(path, &orig).unwrap();
    let o = run_cli(path, &opts, &["-d", "-b", "-o", "gen"], &dir);
    if o.status != 0 {
        return Err(format!("radtap -d -b failed:\n{}", o.stderr));
    }
    let objs = layers(&dir)?;
    let tangent = build(
        &dir,
        &orig,
        o.tangent.as_ref().unwrap(),
        &sizes,
        Kind::Scalar,
        &objs,
    )?;
    let adjoint = build(
        &dir,
        &orig,
        o.adjoint.as_ref().unwrap(),
        &sizes,
        Kind::Adjoint,
        &objs,
    )?;
    let mut said = Vec::new();
    for np in [2, 3] {
        said.push(
            check_np(&dir, &tangent, &adjoint, np)
                .map_err(|e| format!("{e}\n(in {})", dir.display()))?,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(said.join("; "))
}

#[test]
fn mpi_programs_pass_tangent_and_dot_product_tests_on_2_and_3_ranks() {
    if !radtap_validation::mpi::available() {
        println!("SKIPPED: mpicc/mpirun not found (install openmpi-bin libopenmpi-dev)");
        return;
    }
    let files = corpus();
    assert!(!files.is_empty());
    // Two programs at a time (two cores): each builds its drivers, then runs them on 2 and
    // 3 ranks.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(f) = files.get(i) else { break };
                match check(f) {
                    Ok(r) => println!("{}: {r}", f.display()),
                    Err(e) => failures
                        .lock()
                        .unwrap()
                        .push(format!("{}: {e}", f.display())),
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn validate_np_2_passes_on_an_mpi_program() {
    if !radtap_validation::mpi::available() {
        println!("SKIPPED: mpicc/mpirun not found (install openmpi-bin libopenmpi-dev)");
        return;
    }
    let keep = work_dir("validate");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args([
            "validate",
            "-np",
            "2",
            "-head",
            "diffuse(cost u)/(u k)",
            "-size",
            "cost=1",
        ])
        .arg("-keep")
        .arg(&keep)
        .arg("tests/mpi/c_mpi_diffusion.c")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
    assert!(out.contains("on 2 MPI ranks"), "{out}");
    assert!(out.contains("cost[0] on rank 1"), "{out}");
    assert!(out.trim_end().ends_with("PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&keep);
}

/// Differentiates `text` (file `name`) with `opts`; returns the diagnostics.
fn refused(name: &str, text: &str, opts: &[&str]) -> String {
    let dir = work_dir(&format!("refused-{name}"));
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let opts: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
    let o = run_cli(&path, &opts, &[], &dir.join("out"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status, 1, "accepted:\n{}", o.stderr);
    o.stderr
}

/// What radtap cannot differentiate around MPI is refused at its line, never written wrong
/// (no MPI needed: nothing runs).
#[test]
fn unsupported_mpi_uses_are_refused_at_their_line() {
    // A real message sent from a point where nothing active is sent, while its receiver's
    // data is active: the receiver would wait for a derivative message forever.
    let text = "#include <mpi.h>\nvoid f(double *x, double *y) {\n    int rank;\n    double z = 2.0, w = 0.0;\n    MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    if (rank == 0)\n        MPI_Send(&z, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);\n    else\n        MPI_Recv(&w, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n    *y = x[0] * w;\n}\n";
    for mode in ["-d", "-b"] {
        let e = refused("passive_send.c", text, &[mode, "-head", "f(y)/(x)"]);
        assert!(
            e.contains("passive_send.c:7:9: error[AD020]: this `MPI_Send` moves real data that carries no derivative here"),
            "{e}"
        );
    }
    // Vector mode: the MPI layer has no vector tangents.
    let text = std::fs::read_to_string("tests/mpi/c_mpi_diffusion.c").unwrap();
    let e = refused(
        "c_mpi_diffusion.c",
        &text,
        &["-d", "-vector", "-head", "diffuse(cost u)/(u k)"],
    );
    assert!(
        e.contains(
            "error[AD020]: the vector tangent of `MPI_Sendrecv` (built-in MPI) is not written yet"
        ),
        "{e}"
    );
    // The result of a data-moving MPI call used in an expression (its derivative would be
    // lost), and MPI_IN_PLACE (the layer would take the sentinel for a buffer).
    let text = "#include <mpi.h>\nvoid f(double *x, double *y) {\n    double t = x[0] * x[0], s;\n    int err = MPI_Allreduce(&t, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);\n    *y = s * x[1] + err;\n}\n";
    for mode in ["-d", "-b"] {
        let e = refused("result.c", text, &[mode, "-head", "f(y)/(x)"]);
        assert!(
            e.contains(
                "result.c:4:5: error[AD020]: the result of `MPI_Allreduce` used in an expression"
            ),
            "{e}"
        );
    }
    let text = "subroutine g(x, y)\n  use mpi\n  implicit none\n  real(8) :: x(2), y, t\n  integer :: ierr\n  t = x(1) * x(2)\n  call MPI_Allreduce(MPI_IN_PLACE, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)\n  y = t * x(1)\nend subroutine g\n";
    for mode in ["-d", "-b"] {
        let e = refused("in_place.f90", text, &[mode, "-head", "g(y)/(x)"]);
        assert!(
            e.contains(
                "in_place.f90:7:3: error[AD020]: `MPI_IN_PLACE` in a call to `mpi_allreduce`"
            ),
            "{e}"
        );
    }
    // Checkpoints (the adjoint runs their code again): a region holding an MPI call, and a
    // procedure posting non-blocking messages split by NOCHECKPOINT (its `_fwd` has neither
    // the adjoint buffers nor `_bwd`'s requests). A procedure that communicates otherwise is
    // split without being asked (corpus `f_mpi_helpers.f90`).
    let text = "subroutine g(x, y)\n  use mpi\n  implicit none\n  real(8) :: x(2), y, t, s\n  integer :: ierr\n  t = x(1) * x(2)\n  !$AD CHECKPOINT-START\n  t = t * x(1)\n  call MPI_Allreduce(t, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)\n  !$AD CHECKPOINT-END\n  y = s * x(1)\nend subroutine g\n";
    let e = refused("ckp.f90", text, &["-b", "-head", "g(y)/(x)"]);
    assert!(
        e.contains("ckp.f90:9:3: error[AD020]: an MPI call (itself or in the procedure it calls) inside a `$AD CHECKPOINT-START` region"),
        "{e}"
    );
    let text = "subroutine halo(u)\n  use mpi\n  implicit none\n  real(8) :: u(3)\n  integer :: ierr, req(2)\n  call MPI_Irecv(u(1), 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, req(1), ierr)\n  call MPI_Isend(u(3), 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, req(2), ierr)\n  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)\nend subroutine halo\n\nsubroutine g(u, y)\n  implicit none\n  real(8) :: u(3), y\n  !$AD NOCHECKPOINT\n  call halo(u)\n  y = u(1) * u(2) * u(3)\nend subroutine g\n";
    let e = refused("nbsplit.f90", text, &["-b", "-head", "g(y)/(u)"]);
    assert!(
        e.contains("nbsplit.f90:6:3: error[AD020]: a non-blocking MPI call (or its wait) in a procedure differentiated in split mode (NOCHECKPOINT) is not supported"),
        "{e}"
    );
    // Keyword arguments (`ierror=ierr`, `use mpi_f08`'s names): the layer's Fortran entry
    // points have no explicit interface (corpus `f_mpi_f08.f90` passes them in order).
    let text = "subroutine g(x, y)\n  use mpi_f08\n  implicit none\n  real(8) :: x(2), y, t, s\n  integer :: ierr\n  t = x(1) * x(2)\n  call MPI_Allreduce(t, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierror=ierr)\n  y = s * x(1)\nend subroutine g\n";
    for mode in ["-d", "-b"] {
        let e = refused("keywords.f90", text, &[mode, "-head", "g(y)/(x)"]);
        assert!(
            e.contains("keywords.f90:7:3: error[AD020]: keyword arguments in a call to `mpi_allreduce` are not supported"),
            "{e}"
        );
    }
    // An MPI routine radtap does not differentiate, with active data (Fortran).
    let text = "subroutine g(x, y)\n  use mpi\n  implicit none\n  real(8) :: x(2), y(4)\n  integer :: ierr\n  call MPI_Alltoall(x, 2, MPI_DOUBLE_PRECISION, y, 2, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)\nend subroutine g\n";
    let e = refused("alltoall.f90", text, &["-d", "-head", "g(y)/(x)"]);
    assert!(
        e.contains("alltoall.f90:6:3: error[AD070]: `MPI_Alltoall` is an MPI call radtap does not differentiate yet"),
        "{e}"
    );
}

/// Fortran MPI calls record what they write, as C's do: the `count` elements from the
/// buffer's first element (`pushreal8array(u(0), 1)` for one halo cell), not the whole
/// array around each call; the root's side of a gather (`count` from each rank) whole. (No
/// MPI needed: the generated text is read; `mpi_programs_…` runs these programs.)
#[test]
fn fortran_mpi_calls_record_the_elements_they_write() {
    let dir = work_dir("records");
    for (file, head, want, whole) in [
        (
            "f_mpi_diffusion.f90",
            "diffuse(cost u)/(u k)",
            &[
                "call pushreal8array(u(0), 1)",
                "call popreal8array(u(7), 1)",
            ][..],
            &["pushreal8array(u, size(u))"][..],
        ),
        (
            "f_mpi_scatter_gather.f90",
            "calib(cost)/(p x)",
            &[
                "call pushreal8array(mine, 2)",
                "call pushreal8array(all, size(all))",
            ][..],
            &["pushreal8array(mine, size(mine))"][..],
        ),
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_radtap"))
            .args(["-b", "-head", head, "-O"])
            .arg(&dir)
            .arg(Path::new("tests/mpi").join(file))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let stem = file.trim_end_matches(".f90");
        let text = std::fs::read_to_string(dir.join(format!("{stem}_b.f90"))).unwrap();
        for w in want {
            assert!(text.contains(w), "{file}: no `{w}` in\n{text}");
        }
        for w in whole {
            assert!(!text.contains(w), "{file}: `{w}` in\n{text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
