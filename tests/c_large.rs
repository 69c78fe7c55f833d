//! A generated C program of about 5,000 lines (issue 17 item 7): several hundred helpers, all
//! declared by prototypes at the top and defined after the functions that call them (every
//! call is a forward reference), each a loop over a work array passed on by pointer. Its
//! tangent and adjoint compile with `gcc -Wall` (no warning but unused ones) and pass
//! `radtap validate` (tangent against divided differences, the adjoint's dot-product test and
//! empty stack), with only the integer `-size` (the pointers' extents come from the code).

mod common;

use radtap::{execute, normalize_args, Cli};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;

/// Helpers in the program; chains of `CHAIN` helpers each call the next.
const HELPERS: usize = 335;
const CHAIN: usize = 10;

fn program() -> String {
    let mut s = String::new();
    s.push_str("// radtap: -head \"big(y)/(x)\"\n#include <math.h>\n\n");
    for i in 0..HELPERS {
        let _ = writeln!(
            s,
            "static void h{i}(int n, const double *x, double *w, double *r);"
        );
    }
    s.push_str("\nvoid big(int n, const double *x, double *w, double *y)\n{\n    int c;\n    double t;\n    y[0] = 0.0;\n");
    s.push_str("    for (c = 0; c < 2; c++) {\n");
    for i in (0..HELPERS).step_by(CHAIN) {
        let _ = writeln!(
            s,
            "        h{i}(n, x, w, &t);\n        y[0] = y[0] + 0.5 * t;"
        );
    }
    s.push_str("    }\n}\n");
    for i in 0..HELPERS {
        let a = 0.3 + 0.01 * (i % 17) as f64;
        let b = 0.2 + 0.01 * (i % 13) as f64;
        let _ = write!(
            s,
            "\n/* helper {i} of {HELPERS} */\nstatic void h{i}(int n, const double *x, double *w, double *r)\n{{\n    int k;\n    double s = 0.0, t;\n    for (k = 0; k < n; k++) {{\n        w[k] = (x[k]) * {a:.2} + sin(w[k]) * {b:.2};\n        s = s + (w[k]) * w[k] * 0.1;\n    }}\n"
        );
        if i % CHAIN != CHAIN - 1 && i + 1 < HELPERS {
            let _ = writeln!(
                s,
                "    h{}(n, &(x[0]), w, &t);\n    s = s + 0.5 * t;",
                i + 1
            );
        }
        s.push_str("    *r = s / (1.0 + s);\n}\n");
    }
    s
}

fn cli(args: &[String]) -> radtap::Outcome {
    let mut a = vec!["radtap".to_string()];
    a.extend(args.iter().cloned());
    let cli =
        <Cli as clap::Parser>::try_parse_from(normalize_args(a.into_iter())).expect("options");
    execute(&cli)
}

/// `gcc -Wall -c`: any warning other than an unused variable fails.
fn compiles_with_wall(dir: &Path, file: &str) -> Result<(), String> {
    let o = Command::new("gcc")
        .args([
            "-std=c99",
            "-Wall",
            "-Wno-unused-variable",
            "-Wno-unused-but-set-variable",
        ])
        .args(["-Wno-unused-function", "-I", "."])
        .args(["-c", file])
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    let err = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() || err.contains("warning") {
        return Err(format!("{file}:\n{err}"));
    }
    Ok(())
}

#[test]
fn a_5000_line_c_program_with_forward_references_compiles_and_validates() {
    let dir = std::env::temp_dir().join(format!("radtap-large-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text = program();
    let lines = text.lines().count();
    assert!((5000..5600).contains(&lines), "{lines} lines");
    let src = dir.join("big.c");
    std::fs::write(&src, &text).unwrap();
    let s = src.display().to_string();
    let (opts, _) = common::header(&src);
    // One differentiation (tangent and adjoint), kept for the compile check below.
    let keep = dir.join("keep");
    let mut a = vec!["validate".to_string()];
    a.extend(opts);
    a.extend(["-size".into(), "n=3".into(), "-keep".into()]);
    a.extend([keep.display().to_string(), s.clone()]);
    let o = cli(&a);
    assert!(
        o.status == 0 && o.dump.contains("PASS\n") && !o.dump.contains("FAIL"),
        "status {}\n{}{}",
        o.status,
        o.dump,
        o.stderr
    );
    for f in ["big.c", "big_d.c", "big_b.c"] {
        if let Err(e) = compiles_with_wall(&keep, f) {
            panic!("{e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
