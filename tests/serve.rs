//! The web submission service (`radtap serve`, crate `radtap-web`) against its contract
//! (DESIGN.md, "Web submission service"): the JSON API, every error status, the limits, the
//! form and the result page, the zip, graceful shutdown, and the files byte-identical to the
//! command line's on the shipped example and the whole numeric corpus (Fortran and C, every
//! mode). Servers run in-process on a free loopback port; one test runs the binary.

mod common;
mod http;
#[path = "serve_parts/limits.rs"]
mod limits;
#[path = "serve_parts/pages.rs"]
mod pages;
#[path = "serve_parts/submissions.rs"]
mod submissions;

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
