//! The service's page in a real browser: headless Chromium driven through chromedriver with
//! the W3C WebDriver protocol (JSON over HTTP, spoken by `tests/http`; no client crate).
//! A person's path: open the form, paste a program, choose adjoint, submit; see the coloured
//! result, follow a diagnostic to its source line, download the zip, check its entries and
//! run its README's compile lines as written; then, at 1280 px, change the program and the
//! modes in the result page's form, submit again, and see no column clipped; last, submit a
//! `.F90` whose `#include` leaves the submission and follow the refusal to its line.
//! A screenshot of the result is left under CARGO_TARGET_TMPDIR (never in git).
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`.ci/run` installs them).
//! Without them the test says so loudly and passes on a developer's machine, and fails in CI
//! (`CI` set), where it must run.

mod http;

use serde_json::{json, Value};
use std::io::Read;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn find_program(names: &[&str]) -> Option<PathBuf> {
    names
        .iter()
        .map(|n| Path::new("/usr/bin").join(n))
        .find(|p| p.exists())
}

struct Driver {
    child: Child,
    addr: SocketAddr,
    session: String,
}

impl Driver {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        wd(self.addr, method, &path, body)
    }

    fn find(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let v = wd_raw(
                self.addr,
                "POST",
                &format!("/session/{}/element", self.session),
                Some(json!({"using": "css selector", "value": css})),
            );
            if let Some(id) = v["value"][ELEMENT].as_str() {
                return id.to_string();
            }
            assert!(Instant::now() < deadline, "no element {css}: {v}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn click(&self, el: &str) {
        self.call("POST", &format!("/element/{el}/click"), Some(json!({})));
    }

    fn css(&self, el: &str, prop: &str) -> String {
        self.call("GET", &format!("/element/{el}/css/{prop}"), None)["value"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = wd_raw(
            self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wd_raw(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> Value {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let a = http::request(addr, method, path, "application/json", body.as_bytes());
    serde_json::from_slice(&a.body).unwrap_or(Value::Null)
}

fn wd(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> Value {
    let v = wd_raw(addr, method, path, body);
    assert!(
        v["value"]["error"].is_null(),
        "WebDriver {method} {path}: {v}"
    );
    v
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn start_driver(chromium: &Path, chromedriver: &Path, downloads: &Path, profile: &Path) -> Driver {
    let port = free_port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
        "binary": chromium.display().to_string(),
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000", "--disable-extensions",
                 format!("--user-data-dir={}", profile.display())],
        "prefs": {"download.default_directory": downloads.display().to_string(),
                  "download.prompt_for_download": false},
    }}}});
    let v = wd(addr, "POST", "/session", Some(caps));
    let session = v["value"]["sessionId"]
        .as_str()
        .unwrap_or_else(|| panic!("no session: {v}"))
        .to_string();
    Driver {
        child,
        addr,
        session,
    }
}

/// A program whose adjoint comes with a located warning (AD071 on line 4).
const PROGRAM: &str =
    "subroutine sq(x, y)\n  real :: x, y, t\n  t = x\n  read(5,*) t\n  y = x*t\nend subroutine sq\n";

/// A program whose derivatives have long lines.
const WIDE: &str =
    "subroutine wide(x, y)\n  real(8), intent(in) :: x(3)\n  real(8), intent(out) :: y\n  \
y = sin(x(1))*cos(x(2))*exp(x(3)) + x(1)*x(2)*x(3)*sqrt(x(1)**2 + x(2)**2 + x(3)**2) + \
log(1 + x(1)**2)*tanh(x(2) - x(3)) + atan(x(1)*x(2) + x(3))*cosh(x(1) - x(2))\n\
end subroutine wide\n";

/// A `.F90` whose `#include` leaves the submission (refused on the service, line 3).
const LEAVES: &str = "subroutine sq(x, y)\n  real :: x, y\n#include \"../secret.inc\"\n  \
y = x*x\nend subroutine sq\n";

#[test]
fn a_person_pastes_a_program_gets_the_adjoint_follows_a_diagnostic_and_downloads_the_zip() {
    let (Some(chromium), Some(chromedriver)) = (
        find_program(&["chromium", "chromium-browser", "google-chrome"]),
        find_program(&["chromedriver"]),
    ) else {
        let m = "\n\n!!! BROWSER TEST NOT RUN: chromium and chromedriver are missing \
                 (apt-get install chromium chromium-driver) !!!\n\n";
        assert!(std::env::var_os("CI").is_none(), "{m}");
        eprintln!("{m}");
        return;
    };
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let downloads = tmp.join(format!("downloads-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&downloads);
    std::fs::create_dir_all(&downloads).expect("download dir");
    let server = radtap_web::start(radtap_web::Config {
        addr: "127.0.0.1:0".parse().expect("addr"),
        ..radtap_web::Config::default()
    })
    .expect("server");
    let profile = tmp.join(format!("profile-{}", std::process::id()));
    let d = start_driver(&chromium, &chromedriver, &downloads, &profile);
    d.call(
        "POST",
        "/url",
        Some(json!({"url": format!("http://{}/", server.addr)})),
    );

    // The form: paste, name, head, variables; adjoint only.
    let type_in = |css: &str, text: &str| {
        let el = d.find(css);
        d.call(
            "POST",
            &format!("/element/{el}/value"),
            Some(json!({ "text": text })),
        );
    };
    type_in("#paste_name", "sq.f90");
    type_in("#paste", PROGRAM);
    type_in("#head", "sq");
    type_in("#vars", "x");
    type_in("#outvars", "y");
    let tangent = d.find("input[value=tangent]");
    d.click(&tangent);
    let adjoint = d.find("#mode-adjoint");
    d.click(&adjoint);
    let submit = d.find("#submit");
    d.click(&submit);

    // The result: the adjoint, coloured.
    let status = d.find("#status");
    let text = d.call("GET", &format!("/element/{status}/text"), None)["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert_eq!(text, "Differentiated: 1 file.");
    let header = d.find("#out-sq_b\\.f90-2 .k");
    assert_eq!(
        d.css(&header, "color"),
        "rgba(122, 62, 157, 1)",
        "keywords coloured"
    );
    let comment = d.find("#out-sq_b\\.f90-1 .c");
    assert_eq!(d.css(&comment, "font-style"), "italic");

    // The diagnostic links to its source line, which the browser then marks.
    let link = d.find("a.diag-link");
    d.click(&link);
    let url = d.call("GET", "/url", None)["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(url.ends_with("#sq.f90-4"), "{url}");
    let line = d.find("#sq\\.f90-4");
    assert_eq!(
        d.css(&line, "background-color"),
        "rgba(255, 212, 59, 1)",
        "the target line is highlighted"
    );

    let shot = d.call("GET", "/screenshot", None)["value"]
        .as_str()
        .map(base64_decode)
        .expect("a screenshot");
    assert!(shot.starts_with(b"\x89PNG"));
    std::fs::write(tmp.join("result.png"), shot).expect("screenshot written");

    // The download.
    let download = d.find("#download");
    d.click(&download);
    let zip_path = downloads.join("sq_radtap.zip");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !zip_path.exists() {
        assert!(
            Instant::now() < deadline,
            "no download in {}",
            downloads.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(300));
    let bytes = std::fs::read(&zip_path).expect("the zip");
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    let names: Vec<String> = (0..z.len())
        .map(|i| z.by_index(i).expect("entry").name().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "sq.f90",
            "sq_b.f90",
            "adStack.h",
            "adStack.c",
            "adBinomial.h",
            "adBinomial.c",
            "README.txt"
        ]
    );
    let mut adjoint = String::new();
    z.by_index(1)
        .expect("sq_b.f90")
        .read_to_string(&mut adjoint)
        .expect("text");
    assert!(
        adjoint.contains("subroutine sq_b(x, xb, y, yb)"),
        "{adjoint}"
    );
    // The compile lines of the zip's README, run as written in the unpacked zip.
    let unpacked = tmp.join(format!("unpacked-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&unpacked);
    z.extract(&unpacked).expect("unpack the zip");
    let readme = std::fs::read_to_string(unpacked.join("README.txt")).expect("README.txt");
    let lines: Vec<&str> = readme
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("gcc ") || l.starts_with("gfortran "))
        .collect();
    assert!(lines.len() >= 2, "{readme}");
    for l in &lines {
        let o = Command::new("sh")
            .args(["-c", l])
            .current_dir(&unpacked)
            .output()
            .expect("sh");
        assert!(
            o.status.success(),
            "`{l}` failed in the unpacked zip:\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(unpacked.join("sq_b.o").exists() && unpacked.join("adStack.o").exists());
    let _ = std::fs::remove_dir_all(&unpacked);

    // At 1280 px, change the options on the result page and submit again: a program with
    // long lines, tangent added to adjoint. Neither column is clipped: the page is no wider
    // than the window, and long lines scroll inside their column (issue 49: the generated
    // column ran to 1447 px).
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 1280, "height": 900})),
    );
    let retype = |css: &str, text: &str| {
        let el = d.find(css);
        d.call("POST", &format!("/element/{el}/clear"), Some(json!({})));
        d.call(
            "POST",
            &format!("/element/{el}/value"),
            Some(json!({ "text": text })),
        );
    };
    let head = d.find("#head");
    assert_eq!(
        d.call("GET", &format!("/element/{head}/property/value"), None)["value"],
        "sq",
        "the result page's form holds the request"
    );
    retype("#paste_name", "wide.f90");
    retype("#paste", WIDE);
    retype("#head", "wide");
    let tangent = d.find("input[value=tangent]");
    d.click(&tangent);
    let submit = d.find("#submit");
    d.click(&submit);
    let deadline = Instant::now() + Duration::from_secs(20);
    // Until the new page is there (the old one's element goes stale meanwhile).
    let text = loop {
        let status = d.find("#status");
        let path = format!("/session/{}/element/{status}/text", d.session);
        let t = wd_raw(d.addr, "GET", &path, None)["value"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if (!t.is_empty() && t != "Differentiated: 1 file.") || Instant::now() > deadline {
            break t;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(text, "Differentiated: 2 files.");
    d.find("#out-wide_d\\.f90-1");
    let v = d.call(
        "POST",
        "/execute/sync",
        Some(
            json!({"script": "const g = document.querySelector('.grid>section:last-child');\
            return [document.documentElement.scrollWidth, document.documentElement.clientWidth,\
            g.getBoundingClientRect().right, g.querySelector('.code').scrollWidth,\
            g.querySelector('.code').clientWidth];", "args": []}),
        ),
    )["value"]
        .clone();
    let n = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
    assert!(
        n(0) <= n(1) && n(2) <= n(1),
        "clipped at 1280 px: page {} px wide in {} px, generated column ends at {} px",
        n(0),
        n(1),
        n(2)
    );
    assert!(
        n(3) > n(4),
        "the long lines scroll inside their column: {v}"
    );
    // Clicking a derivative line shows its source line and keeps the clicked line in view
    // (issue 49: the page scrolled it away).
    let line = d.find("#out-wide_b\\.f90-1 ~ a.l[title]");
    d.click(&line);
    let v = d.call(
        "POST",
        "/execute/sync",
        Some(
            json!({"script": "const r = arguments[0].getBoundingClientRect();\
            const t = document.getElementById(decodeURIComponent(location.hash.slice(1)))\
            .getBoundingClientRect();\
            return [r.top, r.bottom, t.top, t.bottom, window.innerHeight, location.hash];",
            "args": [{ELEMENT: line}]}),
        ),
    )["value"]
        .clone();
    let n = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
    assert!(
        v[5].as_str().is_some_and(|h| h.starts_with("#wide.f90-")),
        "{v}"
    );
    assert!(
        n(0) >= 0.0 && n(1) <= n(4) && n(2) >= 0.0 && n(3) <= n(4),
        "the clicked line and its source line in view: {v}"
    );

    // An include that leaves the submission is refused at its line (issue 43), and the
    // diagnostic is located and linked on the page (issue 49: it was neither).
    retype("#paste_name", "sq.F90");
    retype("#paste", LEAVES);
    retype("#head", "sq");
    let submit = d.find("#submit");
    d.click(&submit);
    let deadline = Instant::now() + Duration::from_secs(20);
    let text = loop {
        let status = d.find("#status");
        let path = format!("/session/{}/element/{status}/text", d.session);
        let t = wd_raw(d.addr, "GET", &path, None)["value"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if t.starts_with("Not") || Instant::now() > deadline {
            break t;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(text, "Not differentiated: see the errors below.");
    let link = d.find("a.diag-link");
    let text = d.call("GET", &format!("/element/{link}/text"), None)["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert_eq!(text, "sq.F90:3:2", "located at the include");
    let item = d.find("#diagnostics li");
    let message = d.call("GET", &format!("/element/{item}/text"), None)["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        message.contains("error[AD020]")
            && message.contains("the service reads only the submitted files"),
        "{message}"
    );
    d.click(&link);
    let url = d.call("GET", "/url", None)["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(url.ends_with("#sq.F90-3"), "{url}");
    let line = d.find("#sq\\.F90-3");
    assert_eq!(
        d.css(&line, "background-color"),
        "rgba(255, 212, 59, 1)",
        "the include's line is highlighted"
    );
    let shown = d.call("GET", &format!("/element/{line}/text"), None)["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert_eq!(shown.trim_end(), "#include \"../secret.inc\"");
    drop(d);
    server.stop();
    let _ = std::fs::remove_dir_all(&downloads);
    let _ = std::fs::remove_dir_all(&profile);
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter_map(val) {
        acc = (acc << 6) | c;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
