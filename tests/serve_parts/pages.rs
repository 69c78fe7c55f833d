//! What a user downloads and sees: the zip (generated files, the runtime, a README whose
//! compile lines run as written in a clean directory), the form, the result page that
//! resubmits every file with new options, and `-html`'s self-contained page.

use super::*;

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
