//! Bad input: every file in `tests/diagnostics/inputs` gets its rendered diagnostics and exit
//! status snapshotted (`tests/snapshots/`). No input may panic the tool, and every input that
//! is rejected must be rejected with status 1 and at least one `error[AD...]` line.

use radtap::{execute, Cli};
use std::path::PathBuf;

fn run(path: &str) -> (u8, String) {
    let out = std::env::temp_dir().join(format!("radtap-diag-{}", std::process::id()));
    let cli = Cli {
        primal: true,
        files: vec![PathBuf::from(path)],
        outdir: Some(out.clone()),
        ..Cli::default()
    };
    let o = execute(&cli);
    let _ = std::fs::remove_dir_all(&out);
    (o.status, o.stderr)
}

#[test]
fn bad_inputs_give_located_diagnostics() {
    let dir = PathBuf::from("tests/diagnostics/inputs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("inputs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut rejected = 0;
    for f in &files {
        let path = f.to_string_lossy().replace('\\', "/");
        let (status, stderr) = run(&path);
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("x")
            .replace('.', "_");
        insta::assert_snapshot!(name, format!("exit status: {status}\n{stderr}"));
        if status != 0 {
            rejected += 1;
            assert_eq!(status, 1, "{path}: a bad input must exit with status 1");
            assert!(
                stderr.contains(&format!("{path}:")) && stderr.contains(": error[AD"),
                "{path}: diagnostics must be located:\n{stderr}"
            );
        }
    }
    assert!(
        rejected >= 15,
        "at least 15 bad inputs must be rejected, {rejected} were"
    );
}

#[test]
fn unsupported_constructs_are_reported_with_their_location() {
    for (f, needle) in [
        (
            "tests/unsupported/generic_interfaces.f90",
            "operator/assignment interfaces",
        ),
        // IMPORT and `procedure(iface)` dummies are read now (issue 19 item 2); the
        // procedure pointer `fp` is still refused.
        (
            "tests/unsupported/numerical_integration.f90",
            "procedure pointers",
        ),
    ] {
        let (status, stderr) = run(f);
        assert_eq!(status, 1, "{f}");
        assert!(
            stderr.contains("error[AD020]: unsupported construct") && stderr.contains(needle),
            "{f}:\n{stderr}"
        );
    }
}

#[test]
fn missing_file_is_a_user_error() {
    let (status, stderr) = run("tests/diagnostics/no_such_file.f90");
    assert_eq!(status, 1);
    assert!(
        stderr.contains("error[AD001]") && stderr.contains("no_such_file.f90"),
        "{stderr}"
    );
}

#[test]
fn several_errors_are_reported_in_one_run() {
    let (status, stderr) = run("tests/diagnostics/inputs/two_errors.f90");
    assert_eq!(status, 1);
    assert!(stderr.matches("error[AD").count() >= 2, "{stderr}");
}
