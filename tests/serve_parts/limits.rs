//! The service's limits and lifecycle: a body over the limit (413), a run over the time limit
//! (503), a slow client or one that never finishes its headers cut off without holding up the
//! others, a panic answered 500 with the server staying up; stopping with requests in flight,
//! and `radtap serve` stopping on SIGTERM.

use super::*;

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
