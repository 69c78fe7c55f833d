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
