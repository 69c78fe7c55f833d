//! C `long double` and Fortran `real(16)` end to end (issue 44 item 8): recorded with
//! `pushReal16`/`popReal16` (they were pushed as `Real8`: the adjoint read garbage back),
//! temporaries and function-result temporaries of the expression's type (they were `double`,
//! or `real` in Fortran: `g_d(…, &g_res)` wrote 16 bytes into 8). Each program is
//! differentiated in tangent, joint adjoint and split adjoint mode, compiled with its runtime
//! and a driver of ours, and run: the tangent agrees with central differences and the adjoint
//! with the tangent to the precision of the type (1e-17 for x87 `long double`, 1e-28 for
//! quad `real(16)`: a `double` temporary anywhere costs 1e-16).

mod common;

use common::*;
use std::path::Path;
use std::process::Command;

fn run(dir: &Path, prog: &str, args: &[&str]) {
    let o = Command::new(prog)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{prog} {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Differentiates `src` (head `head`) into `dir` in tangent mode and in the adjoint mode of
/// `adjoint_opts`.
fn differentiate(dir: &Path, src: &Path, head: &str, adjoint_opts: &[&str]) {
    let opts = vec!["-head".to_string(), head.to_string()];
    let o = run_cli(src, &opts, &["-d"], dir);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let mut b = vec!["-b"];
    b.extend_from_slice(adjoint_opts);
    let o = run_cli(src, &opts, &b, dir);
    assert_eq!(o.status, 0, "{}", o.stderr);
}

/// The two relative errors the driver prints.
fn errors(exe: &Path) -> (f64, f64) {
    let o = Command::new(exe).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let v: Vec<f64> = out
        .split_whitespace()
        .map(|w| w.parse().unwrap_or(f64::NAN))
        .collect();
    assert_eq!(v.len(), 2, "{out}");
    (v[0], v[1])
}

#[test]
fn long_double_and_real16_derivatives_keep_their_precision() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/long_double");
    let root = std::env::temp_dir().join(format!("radtap-long-double-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    radtap_runtime_stack::write_to(&root).unwrap();
    run(&root, "gcc", &["-O2", "-c", "adStack.c", "adBinomial.c"]);
    let rt = [root.join("adStack.o"), root.join("adBinomial.o")];
    for (tag, split) in [("joint", &[][..]), ("split", &["-nocheckpoint"][..])] {
        // C long double.
        let d = root.join(format!("c-{tag}"));
        std::fs::create_dir_all(&d).unwrap();
        for f in ["ld.c", "drv_c.c"] {
            std::fs::copy(corpus.join(f), d.join(f)).unwrap();
        }
        differentiate(&d, &d.join("ld.c"), "f(y)/(a)", split);
        let inc = format!("-I{}", root.display());
        let mut args = vec![
            "-O2",
            "-Werror=incompatible-pointer-types",
            &inc,
            "ld.c",
            "ld_d.c",
        ];
        args.extend(["ld_b.c", "drv_c.c", "-o", "drv", "-lm"]);
        let rts: Vec<String> = rt.iter().map(|p| p.display().to_string()).collect();
        args.extend(rts.iter().map(String::as_str));
        run(&d, "gcc", &args);
        let (fd, dot) = errors(&d.join("drv"));
        assert!(fd < 1e-9, "C {tag}: tangent vs differences {fd}");
        assert!(dot < 1e-17, "C {tag}: dot product {dot}");
        // Fortran real(16).
        let d = root.join(format!("f-{tag}"));
        std::fs::create_dir_all(&d).unwrap();
        for f in ["quad.f90", "drv_f.f90"] {
            std::fs::copy(corpus.join(f), d.join(f)).unwrap();
        }
        differentiate(&d, &d.join("quad.f90"), "q_m.f(y)/(a)", split);
        let mut args = vec!["-O2", "quad.f90", "quad_d.f90", "quad_b.f90", "drv_f.f90"];
        args.extend(["-o", "drv"]);
        args.extend(rts.iter().map(String::as_str));
        run(&d, "gfortran", &args);
        let (fd, dot) = errors(&d.join("drv"));
        assert!(fd < 1e-9, "Fortran {tag}: tangent vs differences {fd}");
        assert!(dot < 1e-28, "Fortran {tag}: dot product {dot}");
    }
    let _ = std::fs::remove_dir_all(&root);
}
