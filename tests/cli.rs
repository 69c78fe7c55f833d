//! The command line: Tapenade spellings, exit statuses, -head and -vars checks, -primal output,
//! the `$AD` directives it reports, C headers; the derivative's interface, the refusals and the
//! generated code in `cli_parts/`.

#[path = "cli_parts/interface.rs"]
mod interface;
#[path = "cli_parts/output.rs"]
mod output;
#[path = "cli_parts/refusals.rs"]
mod refusals;

use std::process::Command;

fn radtap(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(args)
        .output()
        .expect("run radtap");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn tapenade_single_dash_options_are_accepted() {
    let dir = std::env::temp_dir().join(format!("radtap-cli-{}", std::process::id()));
    let d = dir.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&[
        "-primal",
        "-head",
        "heat_step",
        "-vars",
        "u",
        "-outvars",
        "u",
        "-O",
        &d,
        "examples/heat.f90",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("heat_p.f90")).expect("heat_p.f90 written");
    assert!(text.contains("subroutine heat_step"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_head_is_reported() {
    let (code, _, err) = radtap(&[
        "-p",
        "-head",
        "nosuch",
        "-O",
        "/tmp/radtap-cli-x",
        "examples/heat.f90",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error[AD040]") && err.contains("nosuch") && err.contains("heat_step"),
        "{err}"
    );
}

#[test]
fn unknown_variable_is_reported() {
    let (code, _, err) = radtap(&[
        "-p",
        "-head",
        "heat_step",
        "-vars",
        "zzz",
        "-O",
        "/tmp/radtap-cli-x",
        "examples/heat.f90",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("error[AD041]") && err.contains("zzz"), "{err}");
}

#[test]
fn bad_command_line_exits_with_2() {
    let (code, _, _) = radtap(&["-p", "--no-such-option", "examples/heat.f90"]);
    assert_eq!(code, 2);
    let (code, _, err) = radtap(&["examples/heat.f90"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = radtap(&["-d", "examples/heat.f90"]);
    assert_eq!(code, 2);
    assert!(err.contains("-head"), "{err}");
    // A bad option value is a bad command line too.
    let (code, _, err) = radtap(&[
        "-d",
        "-head",
        "heat_step",
        "-nooptim",
        "bogus",
        "examples/heat.f90",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("-nooptim bogus: unknown optimization"),
        "{err}"
    );
    let (code, _, err) = radtap(&[
        "-d",
        "-head",
        "heat_step",
        "-size",
        "n",
        "examples/heat.f90",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn help_explains_the_options() {
    let (code, out, _) = radtap(&["--help"]);
    assert_eq!(code, 0);
    for opt in [
        "--head",
        "--vars",
        "--outvars",
        "--primal",
        "--tangent",
        "--reverse",
        "-O",
    ] {
        assert!(out.contains(opt), "--help does not mention {opt}");
    }
}

#[test]
fn explain_prints_a_code() {
    let (code, _, err) = radtap(&["-explain", "AD020"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("AD020") && err.contains("not support"),
        "{err}"
    );
    // Every code has a real explanation: a paragraph, and what to do.
    for c in radtap_il::Code::ALL {
        let (code, _, err) = radtap(&["-explain", c.as_str()]);
        assert_eq!(code, 0, "{err}");
        assert!(err.lines().count() >= 5, "{}: {err}", c.as_str());
        assert!(err.contains("What to do"), "{}: {err}", c.as_str());
    }
}

fn scratch(name: &str, text: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("radtap-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{name}.f90"));
    std::fs::write(&f, text).unwrap();
    (dir, f.to_string_lossy().into_owned())
}

/// `text` written as `file` in a fresh scratch directory (removed by the caller): the
/// directory, and the directory and the file as arguments.
fn scratch_file(tag: &str, file: &str, text: &str) -> (std::path::PathBuf, String, String) {
    let dir = scratch_dir(tag);
    let src = dir.join(file);
    std::fs::write(&src, text).expect("write source");
    let d = dir.to_string_lossy().into_owned();
    let s = src.to_string_lossy().into_owned();
    (dir, d, s)
}

/// A scratch directory for one test, removed by the caller.
fn scratch_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("radtap-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// `-head` strings are read as a grammar (spaces inside parentheses and around the
/// separator, commas, several heads each with lists), not split on spaces.
#[test]
fn head_strings_with_spaces_and_several_heads_differentiate() {
    let (dir, d, s) = scratch_file(
        "heads",
        "two.c",
        "double g(double x, double y) { return x * y + y; }\n\
         void h(double a, double b, double *err) { *err = a * b * b; }\n",
    );
    for head in [
        "g(g) / (x, y)",
        "g(g)/(x y) h(err)/(a b)",
        "h(a b)>(err)",
        "h(a, b)\\(err)",
    ] {
        let (code, _, err) = radtap(&["-d", "-head", head, "-O", &d, &s]);
        assert_eq!(code, 0, "{head}: {err}");
        let text = std::fs::read_to_string(dir.join("two_d.c")).expect("two_d.c");
        if head.starts_with('g') {
            assert!(
                text.contains("g_d(double x, double xd, double y, double yd"),
                "{head}: {text}"
            );
        }
        if head.contains("h(") {
            assert!(
                text.contains("h_d(double a, double ad, double b, double bd"),
                "{head}: {text}"
            );
        }
    }
    let (code, _, err) = radtap(&["-d", "-head", "g(g)/(x y", "-O", &d, &s]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unbalanced parenthesis"), "{err}");
    let (code, _, err) = radtap(&["-d", "-head", " ", "-O", &d, &s]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("-head names no procedure"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 20: no `$AD` directive is ignored without a word. Until the checkpointing
/// directives are implemented, the adjoint says so (AD050, at the statement they precede),
/// and an unknown word is reported; output is still written (exit 0).
#[test]
fn unimplemented_and_unknown_directives_are_reported() {
    let (dir, d, s) = scratch_file("dirs", "dir.f90", "subroutine f(x, y, n)\n  integer :: n, i\n  real(8) :: x, y\n  y = x\n  !$AD BINOMIAL-CKP n 5 1\n  do i = 1, n\n    y = sin(y)*x\n  end do\n  !$AD FROBNICATE\n  y = y*2\nend subroutine f\n");
    let c = dir.join("dir.c").to_string_lossy().into_owned();
    std::fs::write(&c, "#include <math.h>\nvoid g(double x, double *y, int n)\n{\n    int j = 0;\n    double v = x;\n    // $AD II-LOOP\n    for (int i = 0; i < n; i++)\n        v = sin(v) * x;\n    // $AD II-LOOP\n    for (; j < n; j++)\n        v = sin(v) * x;\n    *y = v;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    // BINOMIAL-CKP before a DO loop is implemented now: no word.
    assert!(!err.contains("`$AD BINOMIAL-CKP`"), "{err}");
    assert!(
        err.contains("dir.f90:10:3: warning[AD050]")
            && err.contains("unknown directive `$AD FROBNICATE`"),
        "{err}"
    );
    assert!(dir.join("dir_b.f90").exists());
    let (code, _, err) = radtap(&[
        "-b", "-head", "g", "-vars", "x", "-outvars", "y", "-O", &d, &c,
    ]);
    assert_eq!(code, 0, "{err}");
    // II-LOOP on a counted C `for` is implemented: no word; on a loop that is not counted
    // (no initialisation) it is said that the loop is taped whole.
    assert!(!err.contains("dir.c:7:"), "{err}");
    assert!(!err.contains("is not implemented yet"), "{err}");
    assert!(
        err.lines().any(|l| l.contains("dir.c:10:")
            && l.contains("warning[AD050]")
            && l.contains("`$AD II-LOOP` needs a counted `for")),
        "{err}"
    );
    // Tangent mode has no use for them: no word there.
    let (code, _, err) = radtap(&[
        "-d", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("AD050"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Checkpoint and DO-NOT-DIFF regions that match nothing are reported at the directive's own
/// line (AD050, exit 0): a region crossing the end of a loop, a lone END, a START with
/// nothing after it, a region directive among the declarations; matched regions say nothing.
#[test]
fn unmatched_and_misplaced_region_directives_are_reported() {
    let (dir, d, s) = scratch_file(
        "regdirs",
        "reg.f90",
        "subroutine f(x, y, n)\n  integer :: n, i\n  !$AD CHECKPOINT-END\n  real(8) :: x, y\n  y = x\n  !$AD CHECKPOINT-START\n  do i = 1, n\n    y = sin(y)*x\n    !$AD CHECKPOINT-END\n  end do\n  !$AD CHECKPOINT-START\n  y = y*2\n  !$AD CHECKPOINT-END\n  !$AD DO-NOT-DIFF\n  !$AD BINOMIAL-CKP n 5 1\nend subroutine f\n",
    );
    let c = dir.join("reg.c").to_string_lossy().into_owned();
    std::fs::write(&c, "#include <math.h>\nvoid g(double x, double *y, int n)\n{\n    double v = x;\n    for (int i = 0; i < n; i++) {\n        v = sin(v) * x;\n        /* $AD END-DO-NOT-DIFF */\n    }\n    // $AD CHECKPOINT-START\n    v = v * 2;\n    // $AD CHECKPOINT-END\n    *y = v;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    let at = |line: &str, what: &str| {
        assert!(
            err.lines()
                .any(|l| l.contains(line) && l.contains("warning[AD050]") && l.contains(what)),
            "{line} {what}:\n{err}"
        )
    };
    at(
        "/reg.f90:3:",
        "`$AD CHECKPOINT-END` must stand among the executable statements",
    );
    at(
        "/reg.f90:6:",
        "`$AD CHECKPOINT-START` has no matching `$AD CHECKPOINT-END` in the same block",
    );
    at(
        "/reg.f90:9:",
        "`$AD CHECKPOINT-END` closes no `$AD CHECKPOINT-START` of the same block",
    );
    at(
        "/reg.f90:14:",
        "`$AD DO-NOT-DIFF` has no matching `$AD END-DO-NOT-DIFF`",
    );
    at(
        "/reg.f90:15:",
        "`$AD BINOMIAL-CKP` applies to the DO or `for` loop right after it",
    );
    assert!(
        !err.contains("reg.f90:11:") && !err.contains("reg.f90:13:"),
        "{err}"
    );
    assert_eq!(err.matches("AD050").count(), 5, "{err}");
    let (code, _, err) = radtap(&[
        "-b", "-head", "g", "-vars", "x", "-outvars", "y", "-O", &d, &c,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("reg.c:7:9: warning[AD050]")
            && err.contains("`$AD END-DO-NOT-DIFF` closes no `$AD DO-NOT-DIFF` of the same block"),
        "{err}"
    );
    assert_eq!(err.matches("AD050").count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `$AD BINOMIAL-CKP` before a loop the schedule cannot drive (a step other than 1, a body
/// that changes the bound, a `for` counter declared in the loop) is reported (AD050) and the
/// loop is taped whole: exit 0, the output written.
#[test]
fn binomial_ckp_on_a_loop_it_cannot_drive_is_reported() {
    let (dir, d, s) = scratch_file(
        "binodirs",
        "bino.f90",
        "subroutine f(x, y, n)\n  integer :: n, i, m\n  real(8) :: x, y\n  y = x\n  m = n\n  !$AD BINOMIAL-CKP n 5 1\n  do i = 1, n, 2\n    y = sin(y)*x\n  end do\n  !$AD BINOMIAL-CKP m 5 1\n  do i = 1, m\n    y = sin(y)*x\n    m = m - 1\n  end do\nend subroutine f\n",
    );
    let c = dir.join("bino.c").to_string_lossy().into_owned();
    std::fs::write(&c, "#include <math.h>\nvoid g(double x, double *y, int n)\n{\n    double v = x;\n    // $AD BINOMIAL-CKP n 5 0\n    for (int i = 0; i < n; i++)\n        v = sin(v) * x;\n    *y = v;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("bino.f90:7:3: warning[AD050]")
            && err.contains("`$AD BINOMIAL-CKP` needs a DO loop with step 1"),
        "{err}"
    );
    assert!(
        err.contains("bino.f90:11:3: warning[AD050]")
            && err.contains("needs loop bounds that the loop body does not change"),
        "{err}"
    );
    assert!(dir.join("bino_b.f90").exists());
    let (code, _, err) = radtap(&[
        "-b", "-head", "g", "-vars", "x", "-outvars", "y", "-O", &d, &c,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("bino.c:6:5: warning[AD050]") && err.contains("counter is declared before it"),
        "{err}"
    );
    // A `while` whose condition has an effect: the backward sweep never evaluates it, so the
    // schedule cannot drive it (taped whole, with the reason).
    let w = dir.join("binow.c").to_string_lossy().into_owned();
    std::fs::write(&w, "#include <math.h>\nvoid h(double x, double *y, int n)\n{\n    double v = x;\n    int k = 0;\n    // $AD BINOMIAL-CKP n 5 0\n    while (k++ < n)\n        v = sin(v) * x;\n    *y = v;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "h", "-vars", "x", "-outvars", "y", "-O", &d, &w,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("binow.c:7:5: warning[AD050]")
            && err.contains("needs a loop condition without an assignment"),
        "{err}"
    );
    assert!(dir.join("binow_b.c").exists());
    let wf = dir.join("binow.f90").to_string_lossy().into_owned();
    std::fs::write(&wf, "module m\ncontains\n  logical function more(k, n)\n    integer :: k, n\n    k = k + 1\n    more = k <= n\n  end function more\n  subroutine f(x, y, n)\n    integer :: n, k\n    real(8) :: x, y\n    y = x\n    k = 0\n    !$AD BINOMIAL-CKP n 5 1\n    do while (more(k, n))\n      y = sin(y)*x\n    end do\n  end subroutine f\nend module m\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &wf,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("binow.f90:14:5: warning[AD050]")
            && err.contains("needs a loop condition without a call of a procedure of the program"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A C source with its own header: the types, typedefs, struct tags, prototypes, macros and
/// `extern` globals of a quoted `#include "defs.h"` are read (beside the source); the
/// generated files include the header instead of re-declaring it, with the derivative
/// types of its structs right after the `#include`, and compile.
#[test]
fn c_user_header_declarations_are_read() {
    let dir = scratch_dir("cheader");
    std::fs::write(
        dir.join("defs.h"),
        "#ifndef DEFS_H\n#define DEFS_H\n#define SCALE 2.0\n\
         typedef struct { double gamma; int m; } Wishart;\n\
         struct pt { double x, y; };\ntypedef struct pt Pt;\n\
         double sq(double v);\nextern double gfac;\n#endif\n",
    )
    .expect("write header");
    std::fs::write(
        dir.join("main.c"),
        "#include <math.h>\n#include \"defs.h\"\ndouble gfac = 3.0;\n\
         double f(const Wishart *w, double x) {\n  Pt p;\n  p.x = x * w->gamma; p.y = x;\n\
         \x20 return SCALE * sq(p.x) * gfac + p.y * w->m;\n}\n\
         double sq(double v) { return v * v; }\n",
    )
    .expect("write source");
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("main.c").to_string_lossy().into_owned();
    for (mode, out) in [("-d", "main_d.c"), ("-b", "main_b.c")] {
        let (code, _, err) = radtap(&[mode, "-head", "f(f)/(w x)", "-O", &d, &s]);
        assert_eq!(code, 0, "{mode}: {err}");
        let gen = std::fs::read_to_string(dir.join(out)).expect("generated file");
        let inc = gen
            .find("#include \"defs.h\"")
            .expect("the header is included");
        let dty = gen
            .find("struct Wishart_")
            .expect("Wishart's derivative type");
        assert!(inc < dty, "derivative type after the #include:\n{gen}");
        assert!(
            !gen.contains("typedef") && !gen.contains("struct pt {"),
            "the header's types are not re-declared:\n{gen}"
        );
        let o = Command::new("gcc")
            .args(["-fsyntax-only", "-Wall", "-I"])
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/runtime-stack/c"))
            .arg(dir.join(out))
            .output()
            .expect("gcc");
        assert!(
            o.status.success(),
            "{gen}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A diagnostic inside a header is located in the header (file:line:col), with its line.
#[test]
fn c_error_inside_a_header_is_located_in_the_header() {
    let dir = scratch_dir("cheadererr");
    std::fs::write(
        dir.join("defs.h"),
        "typedef double real;\nstruct s { real a; mystery_t b; };\n",
    )
    .expect("write header");
    std::fs::write(
        dir.join("main.c"),
        "#include \"defs.h\"\ndouble f(double x) { return x * x; }\n",
    )
    .expect("write source");
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("main.c").to_string_lossy().into_owned();
    let (code, _, err) = radtap(&["-d", "-head", "f", "-O", &d, &s]);
    assert_ne!(code, 0);
    let h = dir.join("defs.h").to_string_lossy().into_owned();
    assert!(
        err.contains(&format!(
            "{h}:2:20: error[AD030]: unknown type name `mystery_t`"
        )),
        "{err}"
    );
    assert!(err.contains("struct s { real a; mystery_t b; };"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Quoted includes are searched beside the source, then in the `-I` directories; one found
/// nowhere is an AD001 error naming the include line (its declarations would be unknown).
#[test]
fn c_headers_are_searched_in_include_directories() {
    let dir = scratch_dir("cheaderinc");
    let inc = dir.join("include");
    std::fs::create_dir_all(&inc).expect("include dir");
    std::fs::write(inc.join("vec.h"), "typedef double vec3[3];\n").expect("write header");
    std::fs::write(
        dir.join("main.c"),
        "#include \"vec.h\"\ndouble f(const double *x) {\n  vec3 v;\n  v[0] = x[0] * x[0];\n  return v[0];\n}\n",
    )
    .expect("write source");
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("main.c").to_string_lossy().into_owned();
    let i = inc.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&["-d", "-head", "f(f)/(x)", "-O", &d, &s]);
    assert_ne!(code, 0);
    assert!(
        err.contains(&format!(
            "{s}:1:10: error[AD001]: cannot find the header \"vec.h\" (looked beside {s} and in the -I directories)"
        )),
        "{err}"
    );
    let (code, _, err) = radtap(&["-d", "-head", "f(f)/(x)", "-I", &i, "-O", &d, &s]);
    assert_eq!(code, 0, "{err}");
    let gen = std::fs::read_to_string(dir.join("main_d.c")).expect("generated file");
    assert!(gen.contains("#include \"vec.h\""), "{gen}");
    assert!(!gen.contains("typedef"), "{gen}");
    let _ = std::fs::remove_dir_all(&dir);
}
