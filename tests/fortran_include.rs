//! Fortran INCLUDE files: read beside the including file, then in the `-I` directories, and
//! expanded where the INCLUDE stands (`frontends/src/finclude.rs`). A file that cannot be
//! read is an error: its COMMON blocks would be unknown (they were implicit locals, and the
//! derivatives through them vanished, silently).

use std::path::{Path, PathBuf};
use std::process::Command;

fn radtap(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(args)
        .output()
        .expect("run radtap");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh directory under cargo's per-target temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-finclude-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

const TWO_ROUTINES: &str = "      SUBROUTINE S(X, Y)\n      INCLUDE 'g.inc'\n      DOUBLE PRECISION X, Y\n      G = X*X\n      CALL T(Y)\n      END\n      SUBROUTINE T(Y)\n      INCLUDE 'g.inc'\n      DOUBLE PRECISION Y\n      Y = 2.0D0*G\n      END\n";

#[test]
fn include_files_are_read_or_reported() {
    let dir = scratch("read");
    let src = dir.join("s.f");
    write(&src, TWO_ROUTINES);
    let o = s(&dir.join("o"));
    let args = ["-d", "-head", "S", "-vars", "X", "-outvars", "Y", "-O", &o];
    let (code, err) = radtap(&[&args[..], &[&s(&src)]].concat());
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains("s.f:2: cannot find the INCLUDE file \"g.inc\""),
        "{err}"
    );
    write(
        &dir.join("inc/g.inc"),
        "      DOUBLE PRECISION G\n      COMMON /CG/ G\n",
    );
    let (code, err) = radtap(&[&args[..], &["-I", &s(&dir.join("inc")), &s(&src)]].concat());
    assert_eq!(code, 0, "{err}");
    let d = std::fs::read_to_string(dir.join("o/s_d.f90")).unwrap();
    // The derivative goes through the COMMON block: Y = 2*X**2.
    assert!(
        d.contains("/CG_d/") && d.contains("Gd = Xd*X + X*Xd"),
        "{d}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two files named alike in different directories: each includer reads the one beside it
/// (the first found was read for every includer). Fixed-form sequence numbers in columns
/// 73-80 after the INCLUDE (the line was not taken for an INCLUDE, and left unread).
#[test]
fn each_include_is_the_one_beside_its_file() {
    let dir = scratch("beside");
    write(
        &dir.join("a/f.f"),
        "      SUBROUTINE F(X, Y)\n      INCLUDE 'scale.h'                                                 00010\n      DOUBLE PRECISION X, Y, H\n      Y = C*X + H(X)\n      END\n",
    );
    write(
        &dir.join("a/scale.h"),
        "      DOUBLE PRECISION C\n      PARAMETER (C = 2.0D0)\n",
    );
    write(
        &dir.join("b/h.f"),
        "      DOUBLE PRECISION FUNCTION H(X)\n      INCLUDE 'scale.h'\n      DOUBLE PRECISION X\n      H = C*X*X\n      END\n",
    );
    write(
        &dir.join("b/scale.h"),
        "      DOUBLE PRECISION C\n      PARAMETER (C = 10.0D0)\n",
    );
    let o = s(&dir.join("o"));
    let (code, err) = radtap(&[
        "-d",
        "-head",
        "F",
        "-vars",
        "X",
        "-outvars",
        "Y",
        "-O",
        &o,
        &s(&dir.join("a/f.f")),
        &s(&dir.join("b/h.f")),
    ]);
    assert_eq!(code, 0, "{err}");
    let out = std::fs::read_to_string(dir.join("o/f_d.f90")).unwrap();
    let (f, h) = out.split_once("function H_d").expect("F_d, then H_d");
    assert!(
        f.contains("C = 2.0D0") && !f.contains("C = 10.0D0"),
        "{out}"
    );
    assert!(
        h.contains("C = 10.0D0") && !h.contains("C = 2.0D0"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
