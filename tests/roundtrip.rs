//! Round trip over the corpus in `tests/roundtrip/{fortran,c}`: every program is parsed,
//! regenerated (`-primal`), compiled with gfortran/gcc together with the original, and both
//! binaries must print exactly the same thing. Then `parse(unparse(IL)) == IL` ignoring spans,
//! and unparsing is stable (writing the re-parsed program gives the same text).

use radtap_frontends::{parse_program, Input};
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/roundtrip")
            .join(dir),
    )
    .expect("corpus directory")
    .filter_map(|e| e.ok().map(|e| e.path()))
    .filter(|p| {
        matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("f" | "f90" | "c")
        )
    })
    .collect();
    v.sort();
    v
}

fn compile_and_run(src: &Path, exe: &Path, workdir: &Path) -> Result<String, String> {
    let ext = src.extension().and_then(|e| e.to_str()).unwrap_or("");
    let mut cmd = match ext {
        "c" => {
            let mut c = Command::new("gcc");
            c.args(["-std=c99", "-w", "-O0"]).arg(src).arg("-lm");
            c
        }
        _ => {
            let mut c = Command::new("gfortran");
            c.arg("-w");
            if ext == "f" {
                c.arg("-std=legacy");
            }
            c.arg(src);
            c
        }
    };
    let out = cmd
        .arg("-o")
        .arg(exe)
        .current_dir(workdir)
        .output()
        .map_err(|e| format!("cannot run the compiler: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "compile failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let run = Command::new(exe)
        .current_dir(workdir)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !run.status.success() {
        return Err(format!("program exited with {:?}", run.status.code()));
    }
    Ok(String::from_utf8_lossy(&run.stdout).into_owned())
}

fn check_file(path: &Path, work: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("x")
        .to_string();
    let (prog, diags) = parse_program(&[Input {
        path: name.clone(),
        text,
    }]);
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        return Err(format!("frontend error: {}", d.render(&name, None)));
    }
    radtap_il::verify(&prog).map_err(|e| format!("verifier: {e:?}"))?;
    let regenerated = radtap_unparse::write_file(&prog, 0);
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("x");
    let ext = radtap_unparse::output_extension(&prog, 0);
    let dir = work.join(stem);
    std::fs::create_dir_all(dir.join("orig")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.join("new")).map_err(|e| e.to_string())?;
    if ext == "f90" {
        if let Some((i, l)) = regenerated.lines().enumerate().find(|(_, l)| l.len() > 132) {
            return Err(format!(
                "regenerated line {} is longer than 132 columns: {l}",
                i + 1
            ));
        }
    }
    let new_src = dir.join("new").join(format!("{stem}_p.{ext}"));
    std::fs::write(&new_src, &regenerated).map_err(|e| e.to_string())?;
    let expected = compile_and_run(path, &dir.join("orig").join("prog"), &dir.join("orig"))
        .map_err(|e| format!("original: {e}"))?;
    let got = compile_and_run(&new_src, &dir.join("new").join("prog"), &dir.join("new"))
        .map_err(|e| format!("regenerated ({}): {e}", new_src.display()))?;
    if expected != got {
        return Err(format!(
            "output differs\n--- original\n{expected}\n--- regenerated\n{got}"
        ));
    }
    if expected.trim().is_empty() {
        return Err("the program prints nothing: the comparison would prove nothing".into());
    }
    // parse(unparse(IL)) == IL, ignoring spans; and unparsing is stable.
    let new_name = format!("{stem}_p.{ext}");
    let (prog2, diags2) = parse_program(&[Input {
        path: new_name.clone(),
        text: regenerated.clone(),
    }]);
    if let Some(d) = diags2.iter().find(|d| d.is_error()) {
        return Err(format!(
            "re-parse error: {}",
            d.render(&new_name, Some(&regenerated))
        ));
    }
    let (a, b) = (
        radtap_il::dump::structural(&prog),
        radtap_il::dump::structural(&prog2),
    );
    if a != b {
        let first = a
            .lines()
            .zip(b.lines())
            .find(|(x, y)| x != y)
            .map(|(x, y)| format!("\n  before: {x}\n  after:  {y}"))
            .unwrap_or_default();
        return Err(format!("parse(unparse(IL)) differs from IL:{first}"));
    }
    if radtap_unparse::write_file(&prog2, 0) != regenerated {
        return Err("unparsing is not stable".into());
    }
    Ok(())
}

fn run_corpus(dir: &str, min_files: usize) {
    let files = corpus(dir);
    assert!(
        files.len() >= min_files,
        "expected at least {min_files} files in tests/roundtrip/{dir}, found {}",
        files.len()
    );
    let work = std::env::temp_dir().join(format!("radtap-roundtrip-{dir}-{}", std::process::id()));
    let mut failures = Vec::new();
    for f in &files {
        if let Err(e) = check_file(f, &work) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(
        failures.is_empty(),
        "{} of {} files failed the round trip:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn fortran_corpus_round_trips() {
    run_corpus("fortran", 40);
}

#[test]
fn c_corpus_round_trips() {
    run_corpus("c", 20);
}

#[test]
fn corpus_has_enough_fixed_form_files() {
    let n = corpus("fortran")
        .iter()
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("f"))
        .count();
    assert!(n >= 12, "need at least 12 fixed-form files, have {n}");
}

/// The expressions of every unit of a C source, after checking that it parses cleanly.
fn c_exprs(src: &str) -> Vec<radtap_il::Expr> {
    let (prog, diags) = parse_program(&[Input {
        path: "t.c".into(),
        text: src.into(),
    }]);
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        panic!("frontend error: {}", d.render("t.c", Some(src)));
    }
    radtap_il::verify(&prog).expect("verifier");
    prog.units
        .iter()
        .flat_map(|(_, u)| u.exprs.iter().map(|(_, e)| e.clone()))
        .collect()
}

fn count(es: &[radtap_il::Expr], f: impl Fn(&radtap_il::Expr) -> bool) -> usize {
    es.iter().filter(|e| f(e)).count()
}

/// `(f) - x*y` subtracts when `f` is a variable (tree-sitter alone reads a cast of `-x` to a
/// type `f`, then `* y`); it casts `-x` when `f` names a typedef, also after a variable of
/// that name went out of scope.
#[test]
fn a_parenthesized_name_is_a_cast_only_when_it_names_a_type() {
    use radtap_il::{BinOp, Expr, UnOp};
    let es = c_exprs("double g(double x, double y) { double f = y*y; return (f) - x*y; }");
    assert_eq!(count(&es, |e| matches!(e, Expr::Cast { .. })), 0);
    let subs: Vec<_> = es
        .iter()
        .filter_map(|e| match e {
            Expr::Binary {
                op: BinOp::Sub,
                lhs,
                rhs,
            } => Some((*lhs, *rhs)),
            _ => None,
        })
        .collect();
    assert_eq!(subs.len(), 1, "one subtraction");
    assert_eq!(
        count(&es, |e| matches!(e, Expr::Binary { op: BinOp::Mul, .. })),
        2
    );
    assert_eq!(
        count(&es, |e| matches!(e, Expr::Unary { op: UnOp::Neg, .. })),
        0
    );

    let es = c_exprs(
        "typedef double real;\n\
         double g(double x, double y) { double a; { double real = x; a = (real) - x*y; }\n\
         return a + (real) - x*y; }",
    );
    // One cast (of `-x`, outside the block), one subtraction (inside it).
    assert_eq!(count(&es, |e| matches!(e, Expr::Cast { .. })), 1);
    assert_eq!(
        count(&es, |e| matches!(e, Expr::Binary { op: BinOp::Sub, .. })),
        1
    );
    assert_eq!(
        count(&es, |e| matches!(e, Expr::Unary { op: UnOp::Neg, .. })),
        1
    );
}

/// `(x) - (x) - … - (x) * y` with 2,000 operands: tree-sitter nests one cast per operand;
/// re-reading the chain is linear and iterative (it was quadratic, and overflowed the stack).
#[test]
fn a_long_chain_of_parenthesized_operands_parses() {
    use radtap_il::{BinOp, Expr};
    let n = 2000;
    let chain = vec!["(x)"; n].join(" - ");
    let es = c_exprs(&format!(
        "double g(double x, double y) {{ return {chain} * y; }}"
    ));
    assert_eq!(count(&es, |e| matches!(e, Expr::Cast { .. })), 0);
    assert_eq!(
        count(&es, |e| matches!(e, Expr::Binary { op: BinOp::Sub, .. })),
        n - 1
    );
    assert_eq!(
        count(&es, |e| matches!(e, Expr::Binary { op: BinOp::Mul, .. })),
        1
    );
}

/// A fixed-form program regenerated in free form (upper case), after a clean parse.
fn regenerate_fixed(src: &str) -> String {
    let (prog, diags) = parse_program(&[Input {
        path: "s.f".into(),
        text: src.into(),
    }]);
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        panic!("frontend error: {}", d.render("s.f", Some(src)));
    }
    radtap_unparse::write_file(&prog, 0).to_ascii_uppercase()
}

/// Blanks are insignificant in fixed form: `COMMON /C/ A B` is the one variable `AB` (it was
/// regenerated as `A, B`, two implicit REALs, which changes the COMMON layout), and `X 1 = Y`
/// assigns `X1` (a syntax error before).
#[test]
fn fixed_form_blanks_inside_names_are_insignificant() {
    let out = regenerate_fixed(
        "      SUBROUTINE S(Y)\n      DOUBLE PRECISION Y, AB\n      COMMON /C/ A B\n      Y = AB\n      END\n",
    );
    assert!(out.contains("COMMON /C/ AB\n"), "{out}");
    let out = regenerate_fixed(
        "      SUBROUTINE S(Y)\n      DOUBLE PRECISION Y, X1\n      X 1 = Y\n      Y = X 1 * 2.0D0\n      CALL S UB(Y)\n      END\n",
    );
    assert!(out.contains("X1 = Y\n"), "{out}");
    assert!(out.contains("Y = X1*2.0D0\n"), "{out}");
    assert!(out.contains("CALL SUB(Y)\n"), "{out}");
}
