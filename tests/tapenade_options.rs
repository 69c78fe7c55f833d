//! Command lines written for Tapenade 3.16 (`tapenade -help`): each option is accepted with
//! Tapenade's meaning or refused with a message naming it, never misread (issue 49:
//! `-output heat_tl` used to become `-o utput`, `-tgtmodulename` "unexpected argument '-t'").

use std::path::{Path, PathBuf};
use std::process::Command;

const MODULE: &str = "module mm
  implicit none
  real(8) :: g
contains
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = g*x*x
  end subroutine f
end module mm
";

/// What one command line must do.
enum Expect {
    /// Exit 0 and these files, each containing its text ("" for any content), and this
    /// text on stderr ("" for anything).
    Writes(&'static [(&'static str, &'static str)], &'static str),
    /// Exit 2 (a bad command line) with this text on stderr, and nothing written.
    Refused(&'static str),
}

fn run(args: &str, dir: &Path) -> (i32, String) {
    let heat = std::env::current_dir()
        .expect("cwd")
        .join("examples/heat.f90");
    let words: Vec<String> = args
        .split_whitespace()
        .map(|w| match w {
            "HEAT" => heat.display().to_string(),
            "MOD" => dir.join("m.f90").display().to_string(),
            "OUT" => dir.join("out").display().to_string(),
            w => w.to_string(),
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(&words)
        .current_dir(dir)
        .output()
        .expect("run radtap");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn tapenade_option_lines_have_tapenades_effect_or_are_refused_by_name() {
    use Expect::*;
    let table: &[(&str, Expect)] = &[
        // The eight options of the issue.
        (
            "-d -head heat_step -output heat_tl -O OUT HEAT",
            Writes(&[("heat_tl_d.f90", "subroutine heat_step_d(")], ""),
        ),
        (
            "-d -head mm.f -tgtmodulename %_tl -O OUT MOD",
            Writes(&[("m_d.f90", "module mm_tl")], ""),
        ),
        (
            "-b -head mm.f -adjmodulename %_adj -O OUT MOD",
            Writes(&[("m_b.f90", "module mm_adj")], ""),
        ),
        (
            "-d -head heat_step -inputlanguage fortran95 -outputlanguage fortran90 -O OUT HEAT",
            Writes(&[("heat_d.f90", "")], ""),
        ),
        (
            "-d -head heat_step -msglevel 20 -O OUT HEAT",
            Writes(&[("heat_d.f90", "")], "-msglevel 20 has no effect"),
        ),
        (
            "-d -head heat_step -r8 -O OUT HEAT",
            Refused("-r8 is not supported"),
        ),
        (
            "-d -head heat_step -noisize -O OUT HEAT",
            Writes(&[("heat_d.f90", "")], ""),
        ),
        // Tapenade's other spellings and defaults.
        (
            "-tangent -root heat_step -outputdirectory OUT -o h HEAT",
            Writes(&[("h_d.f90", "subroutine heat_step_d(")], ""),
        ),
        (
            "-reverse -head heat_step(cost)/(u) -adjvarname %_bar -adjfuncname %_adj -O OUT HEAT",
            Writes(&[("heat_b.f90", "subroutine heat_step_adj(u, u_bar")], ""),
        ),
        (
            "-d -head heat_step -tgtvarname %_dot -tgtfuncname %_tgt -O OUT HEAT",
            Writes(&[("heat_d.f90", "subroutine heat_step_tgt(u, u_dot")], ""),
        ),
        (
            "-d -multi -head heat_step -nbdirsmax 3 -O OUT HEAT",
            Writes(&[("heat_dv.f90", "subroutine heat_step_dv(")], ""),
        ),
        (
            "-b -head mm.f -modulename %_diff -O OUT MOD",
            Writes(&[("m_b.f90", "module mm_diff")], ""),
        ),
        (
            "-d -head heat_step -i4 -r4 -dr8 -p8 -fixinterface -nooptim tbr -O OUT HEAT",
            Writes(&[("heat_d.f90", "")], ""),
        ),
        (
            "-d -head heat_step -tracelevel 3 -O OUT HEAT",
            Writes(&[("heat_d.f90", "")], "-tracelevel 3 has no effect"),
        ),
        // Refused, each naming itself (and never reading its value as a file).
        (
            "-d -head heat_step -i8 -O OUT HEAT",
            Refused("-i8 is not supported"),
        ),
        (
            "-d -head heat_step -dr4 -O OUT HEAT",
            Refused("-dr4 is not supported"),
        ),
        (
            "-d -head heat_step -inputlanguage c -O OUT HEAT",
            Refused("-inputlanguage c: radtap takes each file's language from its name"),
        ),
        (
            "-d -head heat_step -outputlanguage c -O OUT HEAT",
            Refused("-outputlanguage c: radtap writes derivatives in the language of their input"),
        ),
        (
            "-d -head heat_step -outputlanguage fortran -O OUT HEAT",
            Refused("-outputlanguage fortran: radtap writes Fortran in free form"),
        ),
        (
            "-d -head heat_step -inputlanguage pascal -O OUT HEAT",
            Refused("-inputlanguage pascal: unknown language"),
        ),
        (
            "-d -head heat_step -nolib -O OUT HEAT",
            Refused("-nolib is not supported"),
        ),
        (
            "-d -head heat_step -specializeactivity %all% -O OUT HEAT",
            Refused("-specializeactivity %all% is not supported"),
        ),
        (
            "-d -head heat_step -splitoutputfiles -O OUT HEAT",
            Refused("-splitoutputfiles is not supported"),
        ),
        (
            "-d -head heat_step -debugTGT -O OUT HEAT",
            Refused("-debugTGT is not supported"),
        ),
        (
            "-b -head heat_step -debugADJ -O OUT HEAT",
            Refused("-debugADJ is not supported"),
        ),
        (
            "-d -head heat_step -msginfile -O OUT HEAT",
            Refused("-msginfile is not supported"),
        ),
        (
            "-d -head heat_step -noinclude -O OUT HEAT",
            Refused("-noinclude is not supported"),
        ),
        (
            "-d -head heat_step -dump d.txt -O OUT HEAT",
            Refused("-dump d.txt is not supported"),
        ),
        // Two dashes work as one.
        (
            "-d --head heat_step --msglevel 5 --output two -O OUT HEAT",
            Writes(&[("two_d.f90", "")], "-msglevel 5 has no effect"),
        ),
    ];
    let root = std::env::temp_dir().join(format!("radtap-tapenade-opts-{}", std::process::id()));
    let mut failures = Vec::new();
    for (i, (args, expect)) in table.iter().enumerate() {
        let dir = root.join(i.to_string());
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("m.f90"), MODULE).expect("module source");
        let (code, err) = run(args, &dir);
        let out = dir.join("out");
        match expect {
            Writes(want, note) => {
                if code != 0 || !err.contains(note) {
                    failures.push(format!("{args}: status {code}, stderr:\n{err}"));
                    continue;
                }
                for (name, text) in *want {
                    match std::fs::read_to_string(out.join(name)) {
                        Ok(t) if t.contains(text) => {}
                        Ok(t) => failures.push(format!("{args}: {name} lacks `{text}`:\n{t}")),
                        Err(_) => {
                            failures.push(format!("{args}: no {name} (written: {:?})", files(&out)))
                        }
                    }
                }
            }
            Refused(msg) => {
                if code != 2 || !err.contains(msg) {
                    failures.push(format!(
                        "{args}: want exit 2 with `{msg}`, got {code}:\n{err}"
                    ));
                } else if !files(&out).is_empty() {
                    failures.push(format!("{args}: refused but wrote {:?}", files(&out)));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn vars_take_commas_and_an_unknown_variable_lists_the_arguments() {
    let dir = std::env::temp_dir().join(format!("radtap-vars-commas-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (code, err) = run(
        "-d -head heat_step -vars u,dt -outvars cost -O OUT HEAT",
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("out/heat_d.f90")).expect("heat_d.f90");
    assert!(text.contains("independents: u dt"), "{text}");
    let (code, err) = run("-d -head heat_step -vars uu -O OUT HEAT", &dir);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error[AD041]")
            && err.contains("the arguments of `heat_step`: u, n, nsteps, dt, cost"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn short_help_names_every_command() {
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .arg("-h")
        .output()
        .expect("run radtap");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    for c in ["radtap validate", "radtap runtime", "radtap serve"] {
        assert!(text.contains(c), "{c} not in:\n{text}");
    }
}

#[test]
fn each_command_has_its_own_help() {
    for (cmd, want) in [
        ("validate", "-context"),
        ("serve", "--max-upload"),
        ("runtime", "adStack.c"),
    ] {
        for flag in ["--help", "-h"] {
            let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
                .args([cmd, flag])
                .output()
                .expect("run radtap");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{cmd} {flag}");
            assert!(
                text.starts_with(&format!("radtap {cmd}:")) && text.contains(want),
                "{cmd} {flag}:\n{text}"
            );
        }
    }
}

#[test]
fn a_c_file_named_f90_gets_a_hint_about_its_extension() {
    let dir = std::env::temp_dir().join(format!("radtap-wrong-ext-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let c = "#include <math.h>\ndouble f(double x) {\n  double y = sin(x);\n  return y * x;\n}\n";
    std::fs::write(dir.join("f.f90"), c).expect("source");
    std::fs::write(
        dir.join("g.c"),
        "subroutine g(x, y)\n  real :: x, y\n  y = x*x\nend subroutine g\n",
    )
    .expect("source");
    for (file, want) in [
        ("f.f90", "f.f90 is read as Fortran because of its extension, but it looks like C: rename it to end in .c"),
        ("g.c", "g.c is read as C because of its extension, but it looks like Fortran"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
            .args(["-p", file])
            .current_dir(&dir)
            .output()
            .expect("run radtap");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("error[AD010]") && err.contains(want), "{err}");
        assert_eq!(err.matches("looks like").count(), 1, "said once: {err}");
        // The hint instead of a screen of syntax errors (issue 49: 16 of them).
        assert_eq!(err.matches("error[AD01").count(), 1, "one error: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `-nooptim` names come from one table (`radtap_pipeline::optim::OPTIMS`): the help text,
/// the checking of the option, `radtap validate`'s bisection list and the web form all name
/// every optimization the table has, and only those.
#[test]
fn nooptim_names_agree_everywhere() {
    use radtap_pipeline::optim::{bisected, effective, Effect, OPTIMS};
    let radtap = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_radtap"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("radtap runs");
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).to_string(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    let (code, out, err) = radtap(&["--help"]);
    assert_eq!(code, 0, "{err}");
    let help = out.split_whitespace().collect::<Vec<_>>().join(" ");
    let form = radtap_web::form_page(None, None);
    let listed = form
        .split("-nooptim (space-separated: ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .expect("the form lists the -nooptim names");
    let on_form: Vec<&str> = listed.split(' ').collect();
    let bisect: Vec<&str> = bisected().collect();
    for r in OPTIMS {
        assert!(help.contains(r.name), "help lacks {}", r.name);
        // Each name is accepted; only those without an effect warn.
        let (code, _, err) = radtap(&[
            "-d",
            "-head",
            "heat_step",
            "-nooptim",
            r.name,
            "-O",
            &std::env::temp_dir()
                .join(format!("radtap-nooptim-{}", std::process::id()))
                .display()
                .to_string(),
            "examples/heat.f90",
        ]);
        assert_eq!(code, 0, "{}: {err}", r.name);
        assert_eq!(
            err.contains("has no effect yet"),
            r.effect == Effect::None,
            "{err}"
        );
        assert_eq!(
            on_form.contains(&r.name),
            r.effect != Effect::None,
            "{}",
            r.name
        );
        assert_eq!(
            bisect.contains(&r.name),
            r.effect == Effect::One,
            "{}",
            r.name
        );
    }
    assert_eq!(on_form, effective().collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("radtap-nooptim-{}", std::process::id())),
    );
}
