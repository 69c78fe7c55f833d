//! The service's files are the command line's, byte for byte, made from the submission only:
//! the whole numeric corpus in every mode, preprocessing as the command line does it, C headers
//! and `#include`s from the submitted files never from the server's, and diagnostics naming the
//! submitted files, never the server's directory.

use super::*;

/// The service reads no file but the request's and the system headers: an include that
/// leaves the submission (an absolute name, a `..`, a name computed by a macro), however
/// spelled, is refused at its line, in any submitted file (a header a `.F90` includes too),
/// and nothing is read.
#[test]
fn sources_cannot_make_the_preprocessor_read_a_file_of_the_server() {
    let s = default_server();
    let cases = [
        ("sq.F90", "#include \"/etc/passwd\"\n", 1, 2),
        (
            "sq.F90",
            "! fine\n#  /* */ include \"/etc/passwd\"\n",
            2,
            10,
        ),
        ("sq.F", "#inc\\\nlude \"/etc/passwd\"\n", 1, 2),
        ("sq.F90", "#inc/**/lude \"/etc/passwd\"\n", 1, 2),
        ("sq.F90", "# /*\n*/ include \"/etc/passwd\"\n", 2, 4),
        ("sq.F90", "#include \"../sq.F90\"\n", 1, 2),
        ("sq.c", "#if 1\n%:include \"/etc/passwd\"\n#endif\n", 2, 3),
        ("sq.c", "#if 1\n#  include \"/etc/passwd\"\n#endif\n", 2, 4),
        ("sq.c", "#if __has_include(\"/etc/passwd\")\n#endif\n", 1, 5),
        ("sq.c", "#if 1\n#embed \"/etc/passwd\"\n#endif\n", 2, 2),
        ("sq.c", "#include \"/etc/passwd\"\n", 1, 2),
        ("sq.c", "#include \"../x\"\n", 1, 2),
        ("sq.c", "#include <../../etc/passwd>\n", 1, 2),
        ("sq.c", "#define FOO \"/etc/passwd\"\n#include FOO\n", 2, 2),
        ("sq.c", "#define FOO <stdio.h>\n#include FOO\n", 2, 2),
        ("sq.c", "#pragma GCC dependency \"/etc/passwd\"\n", 1, 13),
        (
            "sq.c",
            "#define CAT(a, b) a##b\n#if CAT(__has_inc, lude)(\"/etc/passwd\")\n#endif\n",
            2,
            5,
        ),
    ];
    for (name, text, line, column) in cases {
        let r = json!({"files": [{"name": name, "content": format!("{text}{SQ}")}],
                       "head": "sq", "modes": ["tangent"]});
        let a = http::post_json(s.addr, "/api/differentiate", &r);
        assert_eq!(a.status, 200, "{}", a.text());
        let v = a.json();
        assert_eq!(v["ok"], false, "{name} {text:?}: {v}");
        let d = &v["diagnostics"][0];
        assert_eq!(
            (&d["code"], &d["file"], &d["line"], &d["column"]),
            (&json!("AD020"), &json!(name), &json!(line), &json!(column)),
            "{name} {text:?}: {v}"
        );
        assert_eq!(
            d["source"],
            text.split('\n').nth(line - 1).expect("line"),
            "{v}"
        );
        assert!(
            d["message"]
                .as_str()
                .expect("message")
                .contains("the service reads only the submitted files and the system headers"),
            "{v}"
        );
        assert!(!a.text().contains("root:"), "the file leaked: {v}");
    }
    // A submitted header that a `.F90` includes is checked as well.
    let f = "subroutine sq(x, y)\n  real :: x, y\n#include \"body.inc\"\nend subroutine sq\n";
    let r = json!({"files": [{"name": "sq.F90", "content": f},
                             {"name": "body.inc", "content": "  y = x*x\n#include </etc/passwd>\n"}],
                   "head": "sq", "modes": ["tangent"]});
    let v = http::post_json(s.addr, "/api/differentiate", &r).json();
    let d = &v["diagnostics"][0];
    assert_eq!(
        (&v["ok"], &d["file"], &d["line"], &d["code"]),
        (
            &json!(false),
            &json!("body.inc"),
            &json!(2),
            &json!("AD020")
        ),
        "{v}"
    );
    // Words on other lines read no file: a Fortran comment, a C string (issue 49: refused).
    for (name, text) in [
        (
            "sq.F90",
            "! we include the square
#ifdef NOTHING
#endif
",
        ),
        (
            "sq.c",
            "#ifdef NOTHING
#endif
const char *why = \"import\";
",
        ),
    ] {
        let r = json!({"files": [{"name": name, "content": format!("{text}{}", if name.ends_with(".c") { "void sq(double *x, double *y) { *y = *x * *x; }\n" } else { SQ })}],
                       "head": "sq", "modes": ["tangent"]});
        let v = http::post_json(s.addr, "/api/differentiate", &r).json();
        assert_eq!(v["ok"], true, "{name}: {v}");
    }
    // A Fortran INCLUDE file missing from the request: an INCLUDE file, not a header, located
    // at its line so that the result page links it.
    let f =
        "subroutine sq(x, y)\n  real :: x, y\n  include 'defs.inc'\n  y = x*x\nend subroutine sq\n";
    let r =
        json!({"files": [{"name": "sq.f90", "content": f}], "head": "sq", "modes": ["tangent"]});
    let v = http::post_json(s.addr, "/api/differentiate", &r).json();
    let d = v["diagnostics"]
        .as_array()
        .and_then(|a| a.iter().find(|d| d["code"] == "AD001"))
        .unwrap_or_else(|| panic!("no AD001: {v}"));
    assert_eq!(d["file"], "sq.f90", "{v}");
    assert_eq!((&d["line"], &d["column"]), (&json!(3), &json!(3)), "{v}");
    assert_eq!(
        d["message"],
        "the INCLUDE file \"defs.inc\" is not among the submitted files: add it"
    );
    // A C file's own `#include <math.h>` lines are fine: they never reach the preprocessor.
    let c = "#include <math.h>\n#ifdef NOTHING\n#endif\nvoid sq(double *x, double *y) { *y = sin(*x); }\n";
    let r = json!({"files": [{"name": "sq.c", "content": c}], "head": "sq", "vars": "x",
                   "outvars": "y", "modes": ["tangent"]});
    let v = http::post_json(s.addr, "/api/differentiate", &r).json();
    assert_eq!(v["ok"], true, "{v}");
}

/// The API's files are the CLI's, byte for byte: the shipped example and every program of
/// the numeric corpus whose options the API has, in every mode.
#[test]
fn the_api_writes_the_files_the_command_line_writes() {
    let s = default_server();
    let mut programs: Vec<(PathBuf, Vec<String>)> = vec![(
        PathBuf::from("examples/heat.f90"),
        ["-head", "heat_step", "-vars", "u", "-outvars", "cost"]
            .map(String::from)
            .to_vec(),
    )];
    let mut corpus: Vec<PathBuf> = std::fs::read_dir("tests/tangent")
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e != "md" && e != "h" && e != "inc")
        })
        .collect();
    corpus.sort();
    for p in corpus {
        let (opts, _) = common::header(&p);
        programs.push((p, opts));
    }
    let (mut compared, mut languages) = (0, std::collections::BTreeSet::new());
    for (path, opts) in &programs {
        let c = cli(opts);
        if c.fixinterface || c.tgtvarname.is_some() || c.adjvarname.is_some() || c.stem.is_some() {
            continue;
        }
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let content = std::fs::read_to_string(path).expect("source");
        for (mode, flags) in MODES {
            // The CLI writes the input's path as given into the header comment: run it in
            // the input's directory, on the plain name the API is given.
            let dir = scratch(mode);
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_radtap"))
                .args(flags.iter())
                .args(opts)
                .arg("-O")
                .arg(&dir)
                .arg(&name)
                .current_dir(path.parent().expect("dir"))
                .output()
                .expect("radtap");
            let mut cli_files: Vec<(String, String)> = std::fs::read_dir(&dir)
                .map(|d| {
                    d.map(|e| {
                        let p = e.expect("entry").path();
                        let n = p.file_name().expect("n").to_string_lossy().into_owned();
                        (n, std::fs::read_to_string(&p).expect("text"))
                    })
                    .collect()
                })
                .unwrap_or_default();
            cli_files.sort();
            let _ = std::fs::remove_dir_all(&dir);
            // The program's own header (`c_xxx.h`, `f77_xxx.inc` beside it), submitted
            // with it.
            let mut files = vec![json!({"name": name, "content": content})];
            for h in [path.with_extension("h"), path.with_extension("inc")] {
                if !h.exists() {
                    continue;
                }
                files.push(json!({
                    "name": h.file_name().expect("n").to_string_lossy(),
                    "content": std::fs::read_to_string(&h).expect("header"),
                }));
            }
            let r = json!({
                "files": files,
                "head": c.head, "vars": c.vars.clone().unwrap_or_default(),
                "outvars": c.outvars.clone().unwrap_or_default(), "modes": [mode],
                "options": {"nbdirsmax": c.nbdirsmax.or((*mode == "vector").then_some(4)),
                            "nooptim": c.nooptim, "size": c.size, "nocheckpoint": c.nocheckpoint},
            });
            let a = http::post_json(s.addr, "/api/differentiate", &r);
            assert_eq!(a.status, 200, "{name} {mode}: {}", a.text());
            let v = a.json();
            assert_eq!(
                v["ok"] == true,
                o.status.success(),
                "{name} {mode}: {v}\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
            let mut api_files: Vec<(String, String)> = v["files"]
                .as_array()
                .expect("files")
                .iter()
                .map(|f| {
                    (
                        f["name"].as_str().expect("n").into(),
                        f["content"].as_str().expect("c").into(),
                    )
                })
                .collect();
            api_files.sort();
            assert!(
                cli_files == api_files,
                "{name} {mode}: the API's files differ from the CLI's"
            );
            compared += api_files.len();
            languages.insert(path.extension().map(|e| e.to_string_lossy().into_owned()));
        }
    }
    assert!(compared > 200, "only {compared} files compared");
    assert!(languages.len() >= 3, "{languages:?}");
}

/// A C source's quoted `#include "defs.h"` is served from the submitted files (the header
/// submitted with it is read as the CLI reads one from disk), one naming no submitted file
/// is reported (AD001) at its line, and one naming a file of the server is refused there.
#[test]
fn c_headers_come_from_the_submission_never_from_the_server() {
    let s = default_server();
    let c = "#include \"defs.h\"\nvoid sq(const vec2 x, double *y) { *y = x[0] * x[1]; }\n";
    let h = "typedef double vec2[2];\n";
    let r = json!({"files": [{"name": "sq.c", "content": c}, {"name": "defs.h", "content": h}],
                   "head": "sq", "vars": "x", "outvars": "y", "modes": ["tangent"]});
    let v = http::post_json(s.addr, "/api/differentiate", &r).json();
    assert_eq!(v["ok"], true, "{v}");
    assert!(
        v.to_string().contains("#include \\\"defs.h\\\""),
        "the generated file includes the header: {v}"
    );
    for (name, code, message) in [
        (
            "defs.h",
            "AD001",
            "the header \"defs.h\" is not among the submitted files nor the system headers: add it",
        ),
        (
            "/etc/passwd",
            "AD020",
            "`#include` names a file outside the submission (an absolute name)",
        ),
    ] {
        let c = format!("#include \"{name}\"\nvoid sq(double *x, double *y) {{ *y = *x; }}\n");
        let r = json!({"files": [{"name": "sq.c", "content": c}],
                       "head": "sq", "vars": "x", "outvars": "y", "modes": ["tangent"]});
        let a = http::post_json(s.addr, "/api/differentiate", &r);
        let v = a.json();
        assert_eq!(v["ok"], false, "{v}");
        // Located at the #include line, so that the result page links it (issue 49).
        let d = &v["diagnostics"][0];
        assert_eq!(
            (&d["file"], &d["line"], &d["code"]),
            (&json!("sq.c"), &json!(1), &json!(code)),
            "{v}"
        );
        assert!(
            d["message"].as_str().expect("message").starts_with(message),
            "{v}"
        );
        assert_eq!(d["source"], format!("#include \"{name}\""), "{v}");
        assert!(!a.text().contains("root:"), "the file leaked: {v}");
    }
}

/// The files of the preprocessing cases (`tests/preprocessing/<case>`, checked numerically
/// by `tests/preprocessing.rs`), submitted as they stand: the service preprocesses them as
/// the command line does (issue 43), so its files are the CLI's byte for byte. Before, a
/// `.F90` that `#include`s a submitted file was refused, and a C file's includes were taken
/// out of their `#if` and all put back at the top.
#[test]
fn the_service_preprocesses_the_submission_as_the_command_line_does() {
    let s = default_server();
    let cases: &[(&str, &str, &[&str])] = &[
        ("fortran", "f.F90", &["-head", "f"]),
        (
            "ifheaders",
            "chain.c",
            &["-head", "chain_energy", "-vars", "x"],
        ),
        ("nested", "funcs.c", &["-head", "rosen"]),
        ("export", "cep.c", &["-head", "cep_poly"]),
        ("loopmacro", "nbody.c", &["-head", "energy"]),
        ("winif", "run.c", &["-head", "rmsnorm"]),
        ("reserved", "r.c", &["-head", "sq"]),
        ("pragma", "mv.c", &["-head", "matvec"]),
    ];
    for (case, main, opts) in cases {
        let dir = Path::new("tests/preprocessing").join(case);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("case")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.is_file())
            .map(|p| p.file_name().expect("n").to_string_lossy().into_owned())
            .collect();
        names.sort();
        // The main file first: it names the outputs.
        names.retain(|n| n != main);
        names.insert(0, main.to_string());
        let files: Vec<Value> = names
            .iter()
            .map(|n| json!({"name": n, "content": std::fs::read_to_string(dir.join(n)).expect("file")}))
            .collect();
        let c = cli(&opts.iter().map(|o| o.to_string()).collect::<Vec<_>>());
        for (mode, flags) in &MODES[..3] {
            let out = scratch(&format!("pp-{case}-{mode}"));
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_radtap"))
                .args(flags.iter())
                .args(opts.iter())
                .arg("-O")
                .arg(&out)
                .arg(main)
                .current_dir(&dir)
                .output()
                .expect("radtap");
            assert!(
                o.status.success(),
                "{case} {mode}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let mut cli_files: Vec<(String, String)> = std::fs::read_dir(&out)
                .expect("out")
                .map(|e| {
                    let p = e.expect("entry").path();
                    let n = p.file_name().expect("n").to_string_lossy().into_owned();
                    (n, std::fs::read_to_string(&p).expect("text"))
                })
                .collect();
            cli_files.sort();
            let _ = std::fs::remove_dir_all(&out);
            let r = json!({
                "files": files, "head": c.head, "vars": c.vars.clone().unwrap_or_default(),
                "modes": [mode], "options": {"nbdirsmax": (*mode == "vector").then_some(4)},
            });
            let a = http::post_json(s.addr, "/api/differentiate", &r);
            let v = a.json();
            assert_eq!(v["ok"], true, "{case} {mode}: {v}");
            let mut api_files: Vec<(String, String)> = v["files"]
                .as_array()
                .expect("files")
                .iter()
                .map(|f| {
                    (
                        f["name"].as_str().expect("n").into(),
                        f["content"].as_str().expect("c").into(),
                    )
                })
                .collect();
            api_files.sort();
            assert!(
                cli_files == api_files,
                "{case} {mode}: the API's files differ from the CLI's:\n{cli_files:#?}\n{api_files:#?}"
            );
        }
    }
    // What the cases are about, on the service's files: the `.F90`'s included statement is
    // differentiated; the C file includes its headers under its own `#if`.
    let submit = |case: &str, main: &str, head: &str| -> Value {
        let dir = Path::new("tests/preprocessing").join(case);
        let mut files = vec![json!({"name": main,
            "content": std::fs::read_to_string(dir.join(main)).expect("main")})];
        for e in std::fs::read_dir(&dir).expect("case") {
            let p = e.expect("entry").path();
            let n = p.file_name().expect("n").to_string_lossy().into_owned();
            if n != main {
                files.push(json!({"name": n, "content": std::fs::read_to_string(&p).expect("f")}));
            }
        }
        let r = json!({"files": files, "head": head, "modes": ["tangent"]});
        http::post_json(s.addr, "/api/differentiate", &r).json()
    };
    let v = submit("fortran", "f.F90", "f");
    let t = v["files"][0]["content"].as_str().unwrap_or("").to_string();
    assert!(
        t.contains("yd = yd + 2*x*xd") || t.contains("y = y + x*x"),
        "{v}"
    );
    assert!(
        t.contains("y = y + x*x"),
        "the included statement is there: {t}"
    );
    let v = submit("ifheaders", "chain.c", "chain_energy");
    let t = v["files"][0]["content"].as_str().unwrap_or("").to_string();
    assert!(
        t.contains("#ifdef SINGLE_PRECISION\n#include \"prec_single.h\"\n#else\n#include \"prec_double.h\"\n#endif\n#include \"spring.h\"\n"),
        "{t}"
    );
    assert!(
        !t.contains("typedef"),
        "the headers are included, not copied: {t}"
    );
}

/// Diagnostics name the submitted files, never the request's directory on the server: an
/// error inside a submitted header is located in it, and one cpp finds there is placed at
/// the source's `#include` of it, naming the header's line.
#[test]
fn diagnostics_name_the_submitted_files_never_the_servers_directory() {
    let s = default_server();
    let c = "#include \"defs.h\"\nvoid sq(const vec2 x, double *y) { *y = x[0] * x[1]; }\n";
    let area = std::env::temp_dir().display().to_string();
    for (h, file, line) in [
        ("typedef double vec2[2]\nint k = ;\n", "defs.h", 1),
        ("#if 1\n#error the header says no\n#endif\n", "sq.c", 1),
    ] {
        let r = json!({"files": [{"name": "sq.c", "content": c}, {"name": "defs.h", "content": h}],
                       "head": "sq", "vars": "x", "outvars": "y", "modes": ["tangent", "adjoint"]});
        let a = http::post_json(s.addr, "/api/differentiate", &r);
        let v = a.json();
        assert_eq!(v["ok"], false, "{v}");
        let d = &v["diagnostics"][0];
        assert_eq!(
            (&d["file"], &d["line"]),
            (&json!(file), &json!(line)),
            "{v}"
        );
        assert!(a.text().contains("defs.h"), "{v}");
        if file == "sq.c" {
            assert_eq!(
                d["message"],
                "the C preprocessor failed: #error the header says no (at defs.h:2:2, which \
                 this line includes)"
            );
            assert_eq!(d["source"], "#include \"defs.h\"", "{v}");
        }
        assert!(
            !a.text().contains(&area) && !a.text().contains("radtap-serve"),
            "the server's directory shows: {v}"
        );
    }
}
