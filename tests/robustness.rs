//! Robust on any input (issue 24): the same input gives byte-identical output on every run,
//! command-line edge cases are refused, deep nesting gives a located error or works, and
//! inputs that used to cost super-linear time or memory stay linear (checked by output size
//! and a generous time bound that only catches blow-ups; the figures are in
//! `benches/scaling.sh`).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch directory for one test under the target's temporary directory.
fn scratch(tag: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("robust-{tag}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn radtap(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(args)
        .output()
        .expect("run radtap")
}

/// Everything one run produced: exit status, stdout, stderr and every file written, with
/// the output directory's path taken out of the messages.
fn transcript(out: &Output, dir: &Path) -> String {
    let d = dir.display().to_string();
    let mut t = format!(
        "status {:?}\n--stdout\n{}\n--stderr\n{}\n",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).replace(&d, "DIR"),
        String::from_utf8_lossy(&out.stderr).replace(&d, "DIR")
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    for f in files {
        t.push_str(&format!(
            "--file {}\n",
            f.file_name().unwrap().to_string_lossy()
        ));
        t.push_str(&String::from_utf8_lossy(
            &std::fs::read(&f).unwrap_or_default(),
        ));
    }
    t
}

/// Runs radtap `runs` times in separate processes (each has its own hash seeds), all at
/// once, and returns the transcripts.
fn runs(tag: &str, args: &[String], runs: usize) -> Vec<String> {
    let base = scratch(tag);
    let children: Vec<(PathBuf, std::process::Child)> = (0..runs)
        .map(|i| {
            let d = base.join(i.to_string());
            std::fs::create_dir_all(&d).unwrap();
            let child = Command::new(env!("CARGO_BIN_EXE_radtap"))
                .args(args)
                .arg("-O")
                .arg(&d)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("run radtap");
            (d, child)
        })
        .collect();
    let out = children
        .into_iter()
        .map(|(d, c)| transcript(&c.wait_with_output().expect("wait"), &d))
        .collect();
    let _ = std::fs::remove_dir_all(&base);
    out
}

fn assert_identical(what: &str, ts: &[String]) {
    for (i, t) in ts.iter().enumerate().skip(1) {
        assert!(
            *t == ts[0],
            "{what}: run {} differs from run 0\n--- run 0\n{}\n--- run {i}\n{t}",
            i,
            ts[0]
        );
    }
}

/// Every corpus program in tangent and adjoint mode, three processes each: byte-identical
/// files, messages and exit status (issue 24 item 3: a COMMON member's name in the header
/// comment and in AD060 came from hash order).
#[test]
fn corpus_output_is_byte_identical_across_runs() {
    let files = common::corpus();
    std::thread::scope(|s| {
        let chunks: Vec<&[PathBuf]> = files.chunks(files.len().div_ceil(2)).collect();
        for (k, chunk) in chunks.into_iter().enumerate() {
            s.spawn(move || {
                for f in chunk {
                    let (opts, _) = common::header(f);
                    for mode in ["-d", "-b"] {
                        let mut args = vec![mode.to_string()];
                        args.extend(opts.iter().cloned());
                        args.push(f.display().to_string());
                        let what = format!("{} {mode}", f.display());
                        assert_identical(&what, &runs(&format!("det{k}"), &args, 3));
                    }
                }
            });
        }
    });
}

/// The programs of the report, with every head, in every mode and in
/// -dump-analysis: byte-identical over three runs.
#[test]
fn common_block_programs_are_deterministic() {
    let cases: &[(&str, &[&str])] = &[
        (
            "tests/roundtrip/fortran/f77_common_blocks.f",
            &["COMBLK", "FILL", "ACCUM", "RESCAL"],
        ),
        (
            "tests/roundtrip/fortran/legacy_freeform.f90",
            &["legacy_freeform", "advance"],
        ),
    ];
    for (file, heads) in cases {
        for head in *heads {
            for mode in ["-d", "-b", "-dump-analysis"] {
                let args: Vec<String> = [mode, "-head", head, file]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                assert_identical(&format!("{file} {head} {mode}"), &runs("common", &args, 3));
            }
        }
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Item 4: an output stem is a file name (`-o /` wrote `/_d.f90` at the root), and vector mode
/// needs at least one direction (`-nbdirsmax 0` wrote zero-length arrays): both are bad
/// command lines, exit 2 with a message, and nothing is written.
#[test]
fn bad_output_stems_and_zero_directions_are_usage_errors() {
    let dir = scratch("usage");
    let d = dir.to_string_lossy().into_owned();
    let heat = "examples/heat.f90";
    for stem in ["/", "a/b", "../x", "", ".."] {
        let out = radtap(&["-d", "-head", "heat_step", "-o", stem, "-O", &d, heat]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "-o {stem:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("an output stem is a file name without directories"),
            "{}",
            text(&out.stderr)
        );
    }
    let out = radtap(&["-d", "-head", "heat_step", "-o", "mine", "-O", &d, heat]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(dir.join("mine_d.f90").exists());
    let out = radtap(&[
        "-d",
        "-vector",
        "-nbdirsmax",
        "0",
        "-head",
        "heat_step",
        "-O",
        &d,
        heat,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("-nbdirsmax 0: vector mode needs at least one direction"));
    assert!(!dir.join("heat_dv.f90").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 5: a file that is not UTF-8 (a Latin-1 `é` in a comment) is located at the byte;
/// a preprocessor error at the user's file and line, not `<stdin>`.
#[test]
fn unreadable_text_and_cpp_errors_are_located() {
    let dir = scratch("located");
    let d = dir.to_string_lossy().into_owned();
    let f = dir.join("lat.f90");
    std::fs::write(
        &f,
        b"subroutine f(x)\n  real :: x\n  ! caf\xe9 au lait\n  x = 1\nend subroutine f\n",
    )
    .unwrap();
    let fs = f.to_string_lossy().into_owned();
    let out = radtap(&["-p", &fs, "-O", &d]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(&format!(
            "error[AD001]: {fs}:3:8: not UTF-8 text (byte 0xe9)"
        )),
        "{}",
        text(&out.stderr)
    );
    let c = dir.join("bad.c");
    std::fs::write(
        &c,
        "#if 1\nint x;\n#error boom here\n#endif\nvoid f(double x, double *y) { *y = x; }\n",
    )
    .unwrap();
    let cs = c.to_string_lossy().into_owned();
    let out = radtap(&["-p", &cs, "-O", &d]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.contains(&format!(
            "{cs}:3:2: error[AD013]: the C preprocessor failed: #error boom here"
        )),
        "{err}"
    );
    assert!(!err.contains("<stdin>"), "{err}");
    let g = dir.join("e.F90");
    std::fs::write(&g, "subroutine f(x)\n  real :: x\n#if\n#endif\nend\n").unwrap();
    let gs = g.to_string_lossy().into_owned();
    let err = text(&radtap(&["-p", &gs, "-O", &d]).stderr);
    assert!(err.contains(&format!("{gs}:3:1: error[AD013]")), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
