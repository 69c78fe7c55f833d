//! Snapshots of generated tangent code, for readability review.
//!
//! These pin what users read; they prove nothing numerically (that is `tests/tangent.rs`,
//! which compiles and runs the same programs). A change here should be reviewed as a change
//! of the code users get: run `cargo insta review`.

use radtap::{execute, normalize_args, Cli};
use std::path::Path;

/// Programs of `tests/tangent/` snapshotted in scalar mode; the ones marked `true` in vector
/// mode as well.
const PROGRAMS: &[(&str, bool)] = &[
    ("f_scalar_ops.f90", false),
    ("f_calls.f90", true),
    ("f_function_head.f90", false),
    ("f_module_vars.f90", false),
    ("f_derived_type.f90", false),
    ("f_where_forall.f90", true),
    ("f_pointer_target.f90", false),
    ("f_allocatable_local.f90", false),
    ("f77_common_active.f", false),
    ("f77_computed_goto.f", false),
    ("c_pointer_args.c", true),
    ("c_struct_ptr.c", false),
    ("c_scalar_return.c", true),
    ("c_globals.c", false),
    ("f_dead_code.f90", false),
    ("f_type_components.f90", true),
];

fn options(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("corpus file");
    let line = text.lines().next().expect("first line");
    let (_, o) = line.split_once("radtap:").expect("radtap: OPTIONS");
    // Options are simple: words, and one double-quoted list per option.
    let mut out = Vec::new();
    for (i, part) in o.trim().split('"').enumerate() {
        if i % 2 == 1 {
            out.push(part.to_string());
        } else {
            out.extend(part.split_whitespace().map(str::to_string));
        }
    }
    out
}

fn generate(file: &str, vector: bool) -> String {
    generate_with(file, vector, &[])
}

fn generate_with(file: &str, vector: bool, extra: &[&str]) -> String {
    let path = Path::new("tests/tangent").join(file);
    let dir = std::env::temp_dir().join(format!(
        "radtap-tangent-snap-{}-{file}-{vector}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut args = vec!["radtap".to_string(), "-d".into()];
    if vector {
        args.extend(["-vector".into(), "-nbdirsmax".into(), "4".into()]);
    }
    args.extend(options(&path));
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend([
        "-O".into(),
        dir.display().to_string(),
        "-o".into(),
        "gen".into(),
    ]);
    args.push(path.display().to_string());
    let cli = <Cli as clap::Parser>::try_parse_from(normalize_args(args.into_iter()))
        .expect("options parse");
    let o = execute(&cli);
    assert_eq!(o.status, 0, "{file}: {}", o.stderr);
    let ext = if file.ends_with(".c") { "c" } else { "f90" };
    let suffix = if vector { "dv" } else { "d" };
    let text = std::fs::read_to_string(dir.join(format!("gen_{suffix}.{ext}"))).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    text
}

#[test]
fn generated_tangent_code() {
    for &(file, vector) in PROGRAMS {
        let name = file.replace('.', "_");
        insta::assert_snapshot!(format!("{name}_d"), generate(file, false));
        if vector {
            insta::assert_snapshot!(format!("{name}_dv"), generate(file, true));
        }
    }
}

/// Diff-liveness slicing drops the dead diagnostics of `f_dead_code.f90` (the numeric suite
/// proves the sliced code still computes the primal results); `-nooptim diffliveness` keeps
/// them.
#[test]
fn diffliveness_slices_dead_primal_code_unless_disabled() {
    let sliced = generate("f_dead_code.f90", false);
    let kept = generate_with("f_dead_code.f90", false, &["-nooptim", "diffliveness"]);
    for dead in [
        "norm = sqrt(norm)",
        "peak = max(peak, abs(x(i)))",
        "norm = 0.0d0",
    ] {
        assert!(
            !sliced.contains(dead),
            "`{dead}` should be sliced:\n{sliced}"
        );
        assert!(kept.contains(dead), "`{dead}` should be kept:\n{kept}");
    }
    for live in ["scale = 1.0d0/dble(n)", "count = count + 1"] {
        assert!(sliced.contains(live), "`{live}` must stay:\n{sliced}");
    }
}
