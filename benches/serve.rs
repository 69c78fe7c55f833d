//! Load test of `radtap serve` on loopback (`cargo bench --bench serve`): the release binary
//! serves, 100 clients send the shipped example at once (tangent and adjoint) ten times over
//! (1,000 requests), every answer must be a 200 with `"ok": true`; prints p50/p99 latency of
//! the first burst and of all requests, and the server's resident memory after start-up,
//! after the first request, and after the 1,000 (the issue asks it back to its starting level
//! ± 10%). A bench, not a timed test: the figures depend on the machine.

#[path = "../tests/http/mod.rs"]
mod http;

use serde_json::json;
use std::io::BufRead;
use std::time::{Duration, Instant};

const CLIENTS: usize = 100;
const ROUNDS: usize = 10;

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("radtap serve");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("listening line");
    let addr: std::net::SocketAddr = line
        .trim()
        .trim_start_matches("listening on http://")
        .parse()
        .expect("address");
    let pid = child.id();
    let body = json!({
        "files": [{"name": "heat.f90",
                   "content": std::fs::read_to_string("examples/heat.f90").expect("example")}],
        "head": "heat_step", "vars": "u", "outvars": "cost", "modes": ["tangent", "adjoint"],
    })
    .to_string();
    let send = |body: &str| -> (bool, Duration) {
        let t = Instant::now();
        let a = http::request(
            addr,
            "POST",
            "/api/differentiate",
            "application/json",
            body.as_bytes(),
        );
        let ok = a.status == 200
            && serde_json::from_slice::<serde_json::Value>(&a.body).is_ok_and(|v| v["ok"] == true);
        (ok, t.elapsed())
    };
    let rss_start = rss_kib(pid);
    assert!(send(&body).0, "a first request");
    let rss_first = rss_kib(pid);
    let mut all = Vec::new();
    let mut first_burst = Vec::new();
    let mut failures = 0;
    let mut rss_rounds = Vec::new();
    for round in 0..ROUNDS {
        let results: Vec<(bool, Duration)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..CLIENTS).map(|_| s.spawn(|| send(&body))).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or((false, Duration::ZERO)))
                .collect()
        });
        failures += results.iter().filter(|r| !r.0).count();
        let lat: Vec<Duration> = results.iter().map(|r| r.1).collect();
        if round == 0 {
            first_burst = lat.clone();
        }
        all.extend(lat);
        rss_rounds.push(rss_kib(pid));
    }
    std::thread::sleep(Duration::from_millis(500));
    let rss_end = rss_kib(pid);
    first_burst.sort();
    all.sort();
    println!("radtap serve, {CLIENTS} concurrent clients x {ROUNDS} rounds = {} requests (heat.f90, tangent + adjoint)", all.len());
    println!("  failures: {failures}");
    println!(
        "  first burst of {CLIENTS}: p50 {:.1} ms, p99 {:.1} ms",
        percentile(&first_burst, 0.5).as_secs_f64() * 1e3,
        percentile(&first_burst, 0.99).as_secs_f64() * 1e3
    );
    println!(
        "  all {}: p50 {:.1} ms, p99 {:.1} ms",
        all.len(),
        percentile(&all, 0.5).as_secs_f64() * 1e3,
        percentile(&all, 0.99).as_secs_f64() * 1e3
    );
    let pct = |a: u64, b: u64| (a as f64 / b.max(1) as f64 - 1.0) * 100.0;
    println!(
        "  RSS: {rss_start} KiB at start, {rss_first} KiB after one request, {rss_end} KiB after {} requests ({:+.1}% of the start, {:+.1}% of after one request)",
        all.len() + 1,
        pct(rss_end, rss_start),
        pct(rss_end, rss_first)
    );
    // The first burst sizes the allocator's arenas and the connection buffers for 100
    // clients; a leak would grow it round after round.
    println!(
        "  RSS after each round of {CLIENTS} (KiB): {rss_rounds:?}; after round 10 vs after round 1: {:+.1}%",
        pct(rss_end, rss_rounds[0])
    );
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let status = child.wait().expect("the server exits");
    println!("  exit after SIGTERM: {status}");
    assert_eq!(failures, 0, "failed requests");
    assert!(
        pct(rss_end, rss_rounds[0]).abs() <= 10.0,
        "the server's memory grows with the requests served"
    );
}
