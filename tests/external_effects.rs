//! Statements with effects outside the program (a shell command, files opened and written,
//! lines printed) see in the derivatives the values they see in the original (issue 50).
//! The assignments building `shell_cmd` were sliced from the tangent and the adjoint as dead
//! for derivatives while `call execute_command_line(trim(shell_cmd))` stayed: the call's
//! argument was an expression, and the reads of an intrinsic subroutine's arguments counted
//! only through the variables it could write. The derivative ran an uninitialised command,
//! the directory was not made and the OPEN in it failed.
//!
//! `tests/external_effects/campaign.f90` is run as the original, then as each derivative
//! (tangent, vector tangent, joint and split adjoint) in a directory of its own: the files it
//! writes and the lines it prints must be the original's, and the derivatives must agree.

use radtap_il::Lang;
use radtap_validation::Toolchain;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Fortran driver of one mode (`p` the original): runs the head once and prints the
/// derivative of `total` along `DIR` (`d=`).
fn fortran_driver(mode: &str) -> String {
    let set = "  state = [1.2d0, 0.8d0, 1.1d0, 0.9d0]\n";
    let dir = "[0.5d0, -1.0d0, 0.25d0, 0.75d0]";
    let (uses, body) = match mode {
        "p" => (String::new(), "  call campaign(3)\n".to_string()),
        "d" => (
            "  use campaign_m_d\n".to_string(),
            format!("  stated = {dir}\n  call campaign_d(3)\n  print '(a,es24.16)', 'd=', totald\n"),
        ),
        "dv" => (
            "  use campaign_m_dv\n".to_string(),
            format!(
                "  stated(1, :) = {dir}\n  stated(2, :) = 0\n  call campaign_dv(3, 2)\n  \
                 print '(a,es24.16)', 'd=', totald(1)\n"
            ),
        ),
        _ => (
            "  use campaign_m_b\n".to_string(),
            format!("  totalb = 1\n  call campaign_b(3)\n  print '(a,es24.16)', 'd=', sum(stateb*{dir})\n"),
        ),
    };
    format!("program drv\n  use campaign_m\n{uses}  implicit none\n{set}{body}end program drv\n")
}

/// The C driver of one mode, as [`fortran_driver`].
fn c_driver(mode: &str) -> String {
    let body = match mode {
        "p" => "    campaign(3, state, &total);\n",
        "d" => {
            "    double stated[4], totald;\n    for (i = 0; i < 4; i++) stated[i] = dir[i];\n    \
             campaign_d(3, state, stated, &total, &totald);\n    printf(\"d=%.16e\\n\", totald);\n"
        }
        "dv" => {
            "    double stated[4][NBDirsMax] = {{0}}, totald[1][NBDirsMax];\n    \
             for (i = 0; i < 4; i++) stated[i][0] = dir[i];\n    \
             campaign_dv(3, state, stated, &total, totald, 2);\n    printf(\"d=%.16e\\n\", totald[0][0]);\n"
        }
        _ => {
            "    double stateb[4] = {0}, totalb = 1, d = 0;\n    \
             campaign_b(3, state, stateb, &total, &totalb);\n    \
             for (i = 0; i < 4; i++) d += stateb[i] * dir[i];\n    printf(\"d=%.16e\\n\", d);\n"
        }
    };
    let decl = match mode {
        "p" => "",
        "d" => "void campaign_d(int, double *, double *, double *, double *);\n",
        "dv" => "#include \"DIFFSIZES.h\"\nvoid campaign_dv(int, double *, double (*)[NBDirsMax], double *, double (*)[NBDirsMax], int);\n",
        _ => "void campaign_b(int, double *, double *, double *, double *);\n",
    };
    format!(
        "#include <stdio.h>\n{decl}void campaign(int, double *, double *);\nint main(void) {{\n    \
         double state[4] = {{1.2, 0.8, 1.1, 0.9}}, dir[4] = {{0.5, -1.0, 0.25, 0.75}}, total;\n    \
         int i;\n    (void)dir;\n    (void)i;\n{body}    return 0;\n}}\n"
    )
}

/// What a run left outside the program: the files under its directory (but the build's),
/// and the lines it printed to the log.
fn effects(dir: &Path, printed: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let made = dir.join("campaign_calib");
    if let Ok(rd) = std::fs::read_dir(&made) {
        for e in rd.flatten() {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            out.push((e.file_name().to_string_lossy().into_owned(), text));
        }
    }
    out.sort();
    for l in printed.lines().filter(|l| l.starts_with("log:")) {
        out.push(("stdout".into(), l.to_string()));
    }
    out
}

fn value(out: &str, tag: &str) -> f64 {
    out.lines()
        .find_map(|l| l.trim().strip_prefix(tag))
        .unwrap_or_else(|| panic!("no `{tag}` in:\n{out}"))
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("`{tag}` in {out}: {e}"))
}

/// Runs the original and each derivative of `file` (in `tests/external_effects/`), each in a
/// directory of its own, and compares what they leave outside the program.
fn check(file: &str, lang: Lang, head: &str) {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "radtap-external-effects-{file}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/external_effects")
        .join(file);
    let ext = if lang == Lang::C { "c" } else { "f90" };
    let mut tc = Toolchain::new(None, None, std::time::Duration::from_secs(60));
    tc.fflags.push("-ftrivial-auto-var-init=pattern".into());
    tc.cflags.push("-ftrivial-auto-var-init=pattern".into());
    let modes: [(&str, &str, &[&str]); 5] = [
        ("p", "original", &[]),
        ("d", "tangent", &["-d"]),
        ("dv", "vector", &["-d", "-vector", "-nbdirsmax", "2"]),
        ("b", "joint", &["-b"]),
        ("b", "split", &["-b", "-nocheckpoint"]),
    ];
    let mut reference: Option<Vec<(String, String)>> = None;
    let mut derivative: Option<f64> = None;
    for (mode, tag, flags) in modes {
        let dir = root.join(tag);
        std::fs::create_dir_all(&dir).unwrap();
        let mut sources = vec![src.clone()];
        let mut objects = Vec::new();
        if mode != "p" {
            let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
                .args(flags)
                .args(["-head", head, "-O"])
                .arg(&dir)
                .arg(&src)
                .output()
                .expect("run radtap");
            assert!(
                out.status.success(),
                "{tag}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            if mode == "dv" && lang == Lang::Fortran {
                sources.push(dir.join("DIFFSIZES.f90"));
            }
            sources.push(dir.join(format!("campaign_{mode}.{ext}")));
            if mode == "b" {
                objects.push(tc.runtime(&dir).unwrap());
            }
        }
        let driver = match lang {
            Lang::Fortran => fortran_driver(mode),
            Lang::C => c_driver(mode),
        };
        std::fs::write(dir.join(format!("drv.{ext}")), driver).unwrap();
        sources.push(dir.join(format!("drv.{ext}")));
        let exe = tc
            .compile(&dir, lang, &[], &sources, &objects, "drv")
            .unwrap_or_else(|e| panic!("{tag}:\n{e}"));
        let printed = tc
            .run(&dir, &exe)
            .unwrap_or_else(|e| panic!("{tag}: the run failed:\n{e}"));
        let seen = effects(&dir, &printed);
        match &reference {
            None => {
                assert!(
                    seen.iter()
                        .any(|(f, t)| f == "setup.txt" && t.trim() == "calib 4 2")
                        && seen.iter().any(|(f, t)| f == "stdout"
                            && t.starts_with("log: campaign calib_done: 3 steps, total")),
                    "the original's effects: {seen:?}"
                );
                reference = Some(seen);
            }
            Some(r) => assert_eq!(&seen, r, "{tag}: effects differ from the original's"),
        }
        if mode != "p" {
            let d = value(&printed, "d=");
            match derivative {
                None => derivative = Some(d),
                Some(t) => assert!(
                    (d - t).abs() <= 1e-10 * t.abs(),
                    "{tag}: derivative {d}, tangent {t}"
                ),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn fortran_commands_files_and_prints_see_the_original_values() {
    check(
        "campaign.f90",
        Lang::Fortran,
        "campaign_m.campaign(total)/(state)",
    );
}

/// C: the command built by `strcpy`/`strcat`/`snprintf` into local arrays was kept; the
/// adjoint hoisted `char outdir[64] = "campaign_calib";` as an assignment of a string to
/// an array, which did not compile.
#[test]
fn c_commands_and_prints_see_the_original_values() {
    check("campaign.c", Lang::C, "campaign(total)/(state)");
}
