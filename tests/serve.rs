//! The web submission service (`radtap serve`, crate `radtap-web`) against its contract
//! (DESIGN.md, "Web submission service"): the JSON API, every error status, the limits, the
//! form and the result page, the zip, graceful shutdown, and the files byte-identical to the
//! command line's on the shipped example and the whole numeric corpus (Fortran and C, every
//! mode). Servers run in-process on a free loopback port; one test runs the binary.

mod common;
mod http;

use radtap::pipeline::{Request, Response};
use radtap::{execute, normalize_args, Cli};
use radtap_web::{Config, Server};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn server(cfg: Config) -> Server {
    radtap_web::start(Config {
        addr: "127.0.0.1:0".parse().expect("addr"),
        ..cfg
    })
    .expect("the server starts")
}

fn default_server() -> Server {
    server(Config::default())
}

const SQ: &str = "subroutine sq(x, y)\n  real :: x, y\n  y = x*x\nend subroutine sq\n";

fn sq_request(modes: &[&str]) -> Value {
    json!({
        "files": [{"name": "sq.f90", "content": SQ}],
        "head": "sq", "vars": "x", "outvars": "y",
        "modes": modes,
    })
}

fn names(v: &Value) -> Vec<String> {
    v["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["name"].as_str().expect("name").to_string())
        .collect()
}

#[test]
fn the_api_differentiates_and_answers_the_contract() {
    let s = default_server();
    let a = http::get(s.addr, "/api/health");
    assert_eq!(a.status, 200);
    let a = http::post_json(
        s.addr,
        "/api/differentiate",
        &sq_request(&["tangent", "vector", "split"]),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.header("content-type"), Some("application/json"));
    let v = a.json();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(names(&v), ["sq_d.f90", "sq_dv.f90", "sq_b.f90"]);
    assert!(v["files"][2]["content"]
        .as_str()
        .expect("text")
        .contains("subroutine sq_b"));
    // A warning is located and carries its source line.
    let mut r = sq_request(&["tangent"]);
    r["files"][0]["content"] = json!(READ_SQ);
    let v = http::post_json(s.addr, "/api/differentiate", &r).json();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(
        v["diagnostics"][0],
        json!({"file": "sq.f90", "line": 4, "column": 3, "code": "AD071", "severity": "warning",
               "message": "this READ overwrites an active variable: the value read is taken as a constant and the derivative it had is lost",
               "source": "  read(5,*) t"}),
    );
    // A whole-run warning has no place.
    r["files"][0]["content"] =
        json!("subroutine sq(x, z, y)\n  real :: x, y, z\n  y = x*x\nend subroutine sq\n");
    r["vars"] = json!("x z");
    let v = http::post_json(s.addr, "/api/differentiate", &r).json();
    let d = &v["diagnostics"][0];
    assert_eq!(
        (&d["code"], &d["file"], &d["line"]),
        (&json!("AD060"), &json!(""), &json!(0)),
        "{v}"
    );
}

/// A program with a located warning (AD071 on line 4).
const READ_SQ: &str =
    "subroutine sq(x, y)\n  real :: x, y, t\n  t = x\n  read(5,*) t\n  y = x*t\nend subroutine sq\n";

#[test]
fn a_bad_source_is_200_with_ok_false_and_located_diagnostics() {
    let s = default_server();
    let mut r = sq_request(&["adjoint"]);
    r["files"][0]["content"] = json!(
        "subroutine sq(x, y)\n  implicit none\n  real :: x, y\n  y = x*w\nend subroutine sq\n"
    );
    let a = http::post_json(s.addr, "/api/differentiate", &r);
    assert_eq!(a.status, 200, "{}", a.text());
    let v = a.json();
    assert_eq!(v["ok"], false);
    assert!(names(&v).is_empty(), "{v}");
    let d = &v["diagnostics"][0];
    assert_eq!(d["file"], "sq.f90");
    assert_eq!(
        (&d["line"], &d["code"]),
        (&json!(4), &json!("AD030")),
        "{v}"
    );
    assert_eq!(d["severity"], "error");
    assert_eq!(d["source"], "  y = x*w");
    // A construct radtap refuses is a located AD020, not a derivative.
    let mut r = sq_request(&["adjoint"]);
    r["files"][0]["name"] = json!("sq.c");
    r["files"][0]["content"] =
        json!("#include <complex.h>\nvoid sq(double complex *x, double *y) { *y = 1; }\n");
    let v = http::post_json(s.addr, "/api/differentiate", &r).json();
    assert_eq!(v["ok"], false, "{v}");
    let refusal = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "AD020")
        .unwrap_or_else(|| panic!("no AD020: {v}"));
    assert_eq!(
        (&refusal["line"], &refusal["column"]),
        (&json!(2), &json!(16)),
        "{v}"
    );
    assert!(
        refusal["message"].as_str().expect("m").contains("complex"),
        "{v}"
    );
}

/// Every bad request is a 400 with a JSON error that says what is wrong.
#[test]
fn bad_requests_are_400_with_a_json_error() {
    let s = default_server();
    let bad = |body: &[u8], expect: &str| {
        let a = http::request(
            s.addr,
            "POST",
            "/api/differentiate",
            "application/json",
            body,
        );
        assert_eq!(
            a.status,
            400,
            "{}: {}",
            String::from_utf8_lossy(body),
            a.text()
        );
        let v = a.json();
        assert_eq!(v["ok"], false);
        let e = v["error"].as_str().expect("error");
        assert!(e.contains(expect), "{e:?} should say {expect:?}");
    };
    bad(b"{\"files\": [", "invalid request");
    bad(b"not json", "invalid request");
    bad(&[0xff, 0xfe, 0x00], "invalid request");
    // Nesting is bounded (serde_json's recursion limit), never a stack overflow.
    bad("[".repeat(100_000).as_bytes(), "invalid request");
    let with = |k: &str, v: Value| {
        let mut r = sq_request(&["tangent"]);
        r[k] = v;
        r.to_string().into_bytes()
    };
    bad(
        &with("modes", json!(["reverse"])),
        "unknown mode \"reverse\"",
    );
    bad(&with("modes", json!([])), "no mode");
    bad(&with("modes", json!(["adjoint", "split"])), "one of them");
    bad(&with("head", json!("")), "no head");
    bad(&with("files", json!([])), "no files");
    bad(&with("bogus", json!(1)), "unknown field");
    for name in [
        "../sq.f90",
        "/etc/sq.f90",
        "a/sq.f90",
        "a\\sq.f90",
        ".sq.f90",
        "..",
        "sq\u{0}.f90",
        "",
    ] {
        bad(
            &with("files", json!([{"name": name, "content": SQ}])),
            "file name",
        );
    }
    bad(
        &with(
            "files",
            json!([{"name": "sq.f90", "content": SQ}, {"name": "sq.f90", "content": SQ}]),
        ),
        "given twice",
    );
    let many: Vec<Value> = (0..65)
        .map(|i| json!({"name": format!("f{i}.f90"), "content": "subroutine f\nend\n"}))
        .collect();
    bad(&with("files", Value::Array(many)), "at most 64");
    // Options the command line would refuse.
    let mut r = sq_request(&["adjoint"]);
    r["options"] = json!({"size": ["y"]});
    bad(r.to_string().as_bytes(), "-size `y`");
    r["options"] = json!({"nooptim": ["bogus"]});
    bad(r.to_string().as_bytes(), "unknown optimization");
}

#[test]
fn a_body_over_the_limit_is_413_and_the_server_goes_on() {
    let s = server(Config {
        max_upload: 4096,
        ..Config::default()
    });
    let mut r = sq_request(&["tangent"]);
    r["files"][0]["content"] = json!(format!("{SQ}{}", "! padding\n".repeat(1000)));
    let a = http::post_json(s.addr, "/api/differentiate", &r);
    assert_eq!(a.status, 413, "{}", a.text());
    // The API answers JSON that says the limit (issue 49: it was a line of plain text).
    let v: Value = serde_json::from_str(&a.text()).expect("a JSON answer");
    assert_eq!(v["ok"], json!(false));
    let e = v["error"].as_str().unwrap_or_default();
    assert!(e.contains("upload limit of 4 KiB (4096 bytes"), "{e}");
    // Without a Content-Length (chunked), the limit holds while reading.
    let body = r.to_string();
    let mut req = format!(
        "POST /api/differentiate HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    .into_bytes();
    for c in body.as_bytes().chunks(1000) {
        req.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
        req.extend_from_slice(c);
        req.extend_from_slice(b"\r\n");
    }
    req.extend_from_slice(b"0\r\n\r\n");
    assert_eq!(http::raw(s.addr, &req).status, 413);
    // The form too.
    let (ct, body) = http::multipart(
        &[("head", "sq")],
        &[("upload", "big.f90", &"!\n".repeat(4000))],
    );
    let a = http::request(s.addr, "POST", "/differentiate", &ct, &body);
    assert_eq!(a.status, 413);
    // The form page again, saying the limit.
    assert!(
        a.text().contains("upload limit of 4 KiB (4096 bytes") && a.text().contains("<form"),
        "{}",
        a.text()
    );
    let a = http::post_json(s.addr, "/api/differentiate", &sq_request(&["tangent"]));
    assert_eq!(a.status, 200, "{}", a.text());
}

fn slow_run(r: &Request) -> Response {
    std::thread::sleep(Duration::from_millis(1500));
    radtap::pipeline::run(r)
}

fn panicking_run(r: &Request) -> Response {
    if r.head.as_deref() == Some("boom") {
        panic!("a radtap bug");
    }
    radtap::pipeline::run(r)
}

#[test]
fn a_request_over_the_time_limit_is_503() {
    let s = server(Config {
        timeout: Duration::from_millis(300),
        run: slow_run,
        ..Config::default()
    });
    let t = Instant::now();
    let a = http::post_json(s.addr, "/api/differentiate", &sq_request(&["tangent"]));
    assert_eq!(a.status, 503, "{}", a.text());
    assert!(a.json()["error"]
        .as_str()
        .expect("error")
        .contains("time limit"));
    assert!(
        t.elapsed() < Duration::from_millis(1400),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(http::get(s.addr, "/api/health").status, 200);
}

/// A client that sends its body slowly (or never finishes it) gets a 503 at the time limit,
/// and does not hold up other clients meanwhile.
#[test]
fn a_slow_client_is_cut_off_at_the_time_limit_without_holding_up_others() {
    let limit = Duration::from_secs(3);
    let s = server(Config {
        timeout: limit,
        ..Config::default()
    });
    let mut slow = TcpStream::connect(s.addr).expect("connect");
    slow.write_all(
        b"POST /api/differentiate HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
          Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"files\":",
    )
    .expect("send");
    let t = Instant::now();
    let a = http::post_json(s.addr, "/api/differentiate", &sq_request(&["tangent"]));
    assert_eq!(a.status, 200);
    assert!(t.elapsed() < limit, "held up: {:?}", t.elapsed());
    slow.set_read_timeout(Some(Duration::from_secs(20))).ok();
    let a = http::read_answer(&mut slow);
    assert_eq!(a.status, 503, "{}", a.text());
    assert!(
        t.elapsed() >= limit - Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
}

/// A client that never finishes its headers (or never sends any) is disconnected once the
/// time limit is past: connections cannot pile up.
#[test]
fn a_client_that_never_finishes_its_headers_is_disconnected() {
    let limit = Duration::from_secs(1);
    let s = server(Config {
        timeout: limit,
        ..Config::default()
    });
    let silent = TcpStream::connect(s.addr).expect("connect");
    let mut slow = TcpStream::connect(s.addr).expect("connect");
    slow.write_all(b"POST /api/differentiate HTTP/1.1\r\nHost: x\r\nContent-")
        .expect("send");
    let t = Instant::now();
    for mut c in [silent, slow] {
        c.set_read_timeout(Some(Duration::from_secs(30))).ok();
        let mut buf = Vec::new();
        let r = c.read_to_end(&mut buf);
        assert!(
            !matches!(&r, Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)),
            "still connected after {:?}",
            t.elapsed()
        );
        assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    }
    assert_eq!(http::get(s.addr, "/api/health").status, 200);
}

#[test]
fn a_panic_is_500_and_the_server_stays_up() {
    let s = server(Config {
        run: panicking_run,
        ..Config::default()
    });
    let mut r = sq_request(&["tangent"]);
    r["head"] = json!("boom");
    for _ in 0..3 {
        let a = http::post_json(s.addr, "/api/differentiate", &r);
        assert_eq!(a.status, 500, "{}", a.text());
        assert!(a.json()["error"]
            .as_str()
            .expect("error")
            .contains("internal error"));
    }
    let a = http::post_json(s.addr, "/api/differentiate", &sq_request(&["tangent"]));
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.json()["ok"], true);
}

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

fn zip_entries(bytes: &[u8]) -> Vec<(String, String)> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).expect("entry");
            let mut s = String::new();
            f.read_to_string(&mut s).expect("text");
            (f.name().to_string(), s)
        })
        .collect()
}

#[test]
fn the_zip_holds_the_generated_files_the_runtime_and_a_readme() {
    let s = default_server();
    let r = sq_request(&["tangent", "adjoint"]);
    let a = http::post_json(s.addr, "/api/zip", &r);
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.header("content-type"), Some("application/zip"));
    let entries = zip_entries(&a.body);
    let got: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        got,
        [
            "sq.f90",
            "sq_d.f90",
            "sq_b.f90",
            "adStack.h",
            "adStack.c",
            "adBinomial.h",
            "adBinomial.c",
            "README.txt"
        ]
    );
    let api = http::post_json(s.addr, "/api/differentiate", &r).json();
    assert_eq!(
        entries[2].1,
        api["files"][1]["content"].as_str().expect("text")
    );
    assert!(
        entries[7]
            .1
            .contains("gfortran -O2 -c sq.f90 sq_d.f90 sq_b.f90"),
        "{}",
        entries[7].1
    );
    // A bad source: the JSON diagnostics, not a zip.
    let mut r = r;
    r["files"][0]["content"] = json!("subroutine sq(\n");
    let a = http::post_json(s.addr, "/api/zip", &r);
    assert_eq!((a.status, a.json()["ok"].clone()), (200, json!(false)));
}

/// The zip's README compiles as written in the unzipped directory (issue 49: the user's
/// module was not compiled first, and DIFFSIZES.f90 came after the file using it).
#[test]
fn the_zips_compile_lines_run_as_written_in_a_clean_directory() {
    let s = default_server();
    let heat = std::fs::read_to_string("examples/heat.f90").expect("example");
    let r = json!({
        "files": [{"name": "heat.f90", "content": heat}],
        "head": "heat_step", "vars": "u", "outvars": "cost",
        "modes": ["vector", "adjoint"], "options": {"nbdirsmax": 3},
    });
    let a = http::post_json(s.addr, "/api/zip", &r);
    assert_eq!(a.status, 200, "{}", a.text());
    let dir = std::env::temp_dir().join(format!("radtap-zip-compile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let entries = zip_entries(&a.body);
    for (name, text) in &entries {
        std::fs::write(dir.join(name), text).expect("unzip");
    }
    let readme = &entries.last().expect("README.txt").1;
    let lines: Vec<&str> = readme
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("gcc ") || l.starts_with("gfortran "))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("heat.f90 DIFFSIZES.f90 heat_dv.f90")),
        "{readme}"
    );
    for line in lines {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(&dir)
            .output()
            .expect("sh");
        assert!(
            out.status.success(),
            "{line}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The result page carries the form again, filled with the request, its files included (the
/// first in the paste fields, the others in hidden fields): submitting it differentiates the
/// same files with the options changed (issue 49: the result page had no form).
#[test]
fn the_result_page_resubmits_every_file_with_new_options() {
    let s = default_server();
    let module = "module m\n  implicit none\ncontains\n  real(8) function sq(v)\n    real(8), intent(in) :: v\n    sq = v*v\n  end function sq\nend module m\n";
    let user = "subroutine g(x, y)\n  use m\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  y = sq(x) + x\nend subroutine g\n";
    let (ct, body) = http::multipart(
        &[
            ("paste_name", "m.f90"),
            ("paste", module),
            ("head", "g"),
            ("mode", "tangent"),
        ],
        &[("upload", "g.f90", user)],
    );
    let a = http::request(s.addr, "POST", "/differentiate", &ct, &body);
    assert_eq!(a.status, 200, "{}", a.text());
    let page = a.text();
    assert!(page.contains("Differentiated: 1 file."), "{page}");
    let form = &page[page.find("id=\"again\"").expect("the form again")..];
    assert!(form.contains("value=\"m.f90\"") && form.contains("value=\"g\""));
    assert!(form.contains("<input type=\"hidden\" name=\"kept_name\" value=\"g.f90\">"));
    assert!(form.contains("Sent again with the pasted file: g.f90"));
    // What the browser sends back from that form, adjoint chosen instead.
    let (ct, body) = http::multipart(
        &[
            ("paste_name", "m.f90"),
            ("paste", module),
            ("head", "g"),
            ("mode", "adjoint"),
            ("kept_name", "g.f90"),
            ("kept", &user.replace('\n', "\r\n")),
        ],
        &[("upload", "", "")],
    );
    let a = http::request(s.addr, "POST", "/differentiate", &ct, &body);
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.text().contains("<h3 id=\"out-m_b.f90\">"), "{}", a.text());
    // The command line's -html page has no form (it would post nowhere).
    assert!(!radtap_web::result_page(&Default::default(), &Default::default()).contains("<form"));
}

/// The form works without JavaScript: a multipart POST answers the result page, with the
/// code coloured, the diagnostics linked to their lines, and the zip inside.
#[test]
fn the_form_answers_the_result_page() {
    let s = default_server();
    let a = http::get(s.addr, "/");
    assert_eq!(a.status, 200);
    let page = a.text();
    assert!(page.contains(
        "<form method=\"post\" action=\"/differentiate\" enctype=\"multipart/form-data\">"
    ));
    assert!(!page.contains("<script"), "no JavaScript");
    let src = READ_SQ.replace('\n', "\r\n");
    let (ct, body) = http::multipart(
        &[
            ("paste_name", "sq.f90"),
            ("paste", &src),
            ("head", "sq"),
            ("vars", "x"),
            ("outvars", "y"),
            ("mode", "adjoint"),
            ("mode", "tangent"),
        ],
        &[("upload", "", "")],
    );
    let a = http::request(s.addr, "POST", "/differentiate", &ct, &body);
    assert_eq!(a.status, 200, "{}", a.text());
    let page = a.text();
    assert!(
        page.contains("id=\"out-sq_b.f90-1\""),
        "generated lines are anchors: {}",
        page.get(page.find("<main>").unwrap_or(0)..)
            .unwrap_or("")
            .chars()
            .take(800)
            .collect::<String>()
    );
    assert!(
        page.contains("<span class=\"k\">subroutine</span> sq_b"),
        "coloured"
    );
    assert!(
        page.contains("href=\"data:application/zip;base64,"),
        "the zip"
    );
    assert!(
        page.contains("href=\"#sq.f90-5\" title=\"from sq.f90:5\""),
        "derivative lines link to their primal line"
    );
    assert!(
        page.contains("id=\"sq.f90-5\" href=\"#out-sq_"),
        "and the primal line to its derivative (issue 49: one way only)"
    );
    assert!(
        page.contains("<a class=\"diag-link\" href=\"#sq.f90-4\">sq.f90:4:3</a>"),
        "a linked diagnostic"
    );
    assert!(
        page.contains("<a class=\"l mark\" id=\"sq.f90-4\""),
        "its target, marked"
    );
    // A refused request shows the form again with the error and the fields kept.
    let (ct, body) = http::multipart(
        &[
            ("paste_name", "../sq.f90"),
            ("paste", SQ),
            ("head", "sq"),
            ("mode", "tangent"),
        ],
        &[],
    );
    let a = http::request(s.addr, "POST", "/differentiate", &ct, &body);
    assert_eq!(a.status, 400);
    assert!(a.text().contains("has a directory part"), "{}", a.text());
    assert!(a.text().contains("value=\"sq\""));
    // An uploaded file works like a pasted one.
    let (ct, body) = http::multipart(
        &[
            ("head", "sq"),
            ("mode", "tangent"),
            ("vars", "x"),
            ("outvars", "y"),
        ],
        &[("upload", "sq.f90", SQ)],
    );
    let a = http::request(s.addr, "POST", "/differentiate", &ct, &body);
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.text().contains("id=\"out-sq_d.f90-1\""));
}

/// Stopping lets a request in flight finish.
#[test]
fn stopping_finishes_the_requests_in_flight() {
    let s = server(Config {
        run: slow_run,
        ..Config::default()
    });
    let addr = s.addr;
    let inflight = std::thread::spawn(move || {
        http::post_json(addr, "/api/differentiate", &sq_request(&["tangent"]))
    });
    std::thread::sleep(Duration::from_millis(300));
    s.stop();
    let a = inflight.join().expect("client");
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(TcpStream::connect(addr).is_err(), "no longer listening");
}

/// `radtap serve` prints where it listens, serves, and exits 0 on SIGTERM.
#[test]
fn the_serve_command_listens_and_stops_on_sigterm() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--timeout",
            "5",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("radtap serve");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    let addr: std::net::SocketAddr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("{line:?}"))
        .parse()
        .expect("an address");
    let a = http::post_json(addr, "/api/differentiate", &sq_request(&["tangent"]));
    assert_eq!(a.status, 200);
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = child.wait().expect("exit");
    assert!(status.success(), "{status:?}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(["serve", "--addr", "nowhere"])
        .output()
        .expect("radtap serve");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--addr nowhere: expected HOST:PORT"));
}

fn cli(args: &[String]) -> Cli {
    let args = normalize_args(std::iter::once("radtap".to_string()).chain(args.iter().cloned()));
    <Cli as clap::Parser>::try_parse_from(args).expect("options parse")
}

fn scratch(name: &str) -> PathBuf {
    let d =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The CLI's options of one mode, as an API mode.
const MODES: &[(&str, &[&str])] = &[
    ("tangent", &["-d"]),
    ("vector", &["-d", "-vector", "-nbdirsmax", "4"]),
    ("adjoint", &["-b"]),
    ("split", &["-b", "-nocheckpoint"]),
];

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

/// `-html` writes STEM.html: the result page, self-contained (no script, no network asset).
#[test]
fn html_writes_the_self_contained_result_page() {
    let dir = scratch("html");
    let args: Vec<String> = [
        "-d",
        "-b",
        "-html",
        "-head",
        "heat_step",
        "-vars",
        "u",
        "-outvars",
        "cost",
        "-O",
    ]
    .map(String::from)
    .into_iter()
    .chain([dir.display().to_string(), "examples/heat.f90".into()])
    .collect();
    let o = execute(&cli(&args));
    assert_eq!(o.status, 0, "{}", o.stderr);
    let page = std::fs::read_to_string(dir.join("heat.html")).expect("heat.html");
    let _ = std::fs::remove_dir_all(&dir);
    let names: Vec<String> = o
        .written
        .iter()
        .map(|(p, _)| p.file_name().expect("n").to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["heat_d.f90", "heat_b.f90", "heat.html"]);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("id=\"out-heat_b.f90-2\""));
    assert!(
        page.contains("id=\"examples/heat.f90-1\""),
        "the source, under the name given"
    );
    assert!(page.contains("<span class=\"k\">subroutine</span> heat_step_d"));
    assert!(page.contains("data:application/zip;base64,"));
    // Derivative statements link to the primal lines they come from: the stencil (line 22)
    // and the cost (line 28), in both files.
    for g in ["heat_d.f90", "heat_b.f90"] {
        let part = &page[page.find(&format!("<h3 id=\"out-{g}\">")).expect(g)..];
        let part = &part[..part.find("</div>").expect("end")];
        for l in [22, 28] {
            let link =
                format!("href=\"#examples/heat.f90-{l}\" title=\"from examples/heat.f90:{l}\"");
            assert!(part.contains(&link), "{g}: no line links to line {l}");
        }
        let linked = part.matches(" title=\"from ").count();
        assert!(
            linked >= 10,
            "{g}: only {linked} lines link to a primal line"
        );
    }
    // Declarations link too (issue 49: they linked nowhere): the unit's header to the
    // primal header, each declaration to the primal one it comes from (`ub` to `u`'s), and
    // back from the source's declarations to the generated ones.
    let part = &page[page.find("<h3 id=\"out-heat_b.f90\">").expect("heat_b")..];
    for (g, l) in [
        (2, 9),
        (3, 10),
        (9, 12),
        (10, 13),
        (11, 13),
        (14, 15),
        (16, 16),
    ] {
        let link = format!("id=\"out-heat_b.f90-{g}\" href=\"#examples/heat.f90-{l}\"");
        assert!(
            part.contains(&link),
            "heat_b.f90:{g} does not link to line {l}"
        );
    }
    for l in [9, 13, 16] {
        assert!(
            page.contains(&format!(
                "id=\"examples/heat.f90-{l}\" href=\"#out-heat_d.f90-"
            )),
            "source line {l} links to no generated line"
        );
    }
    for external in ["<script", "src=\"http", "href=\"http", "@import", "url("] {
        assert!(!page.contains(external), "not self-contained: {external}");
    }
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
