//! The README and the pages of `docs/` stay true: the commands of the README run as written
//! (the gradient example prints what the README says it prints), its test command is the one
//! CI runs, and every relative link of the documentation resolves (file and heading).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The fenced code blocks of a Markdown text: (language, content).
fn code_blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("```") {
            match open.take() {
                Some(block) => out.push(block),
                None => open = Some((rest.trim().to_string(), String::new())),
            }
        } else if let Some((_, body)) = open.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

fn readme() -> String {
    std::fs::read_to_string("README.md").expect("README.md")
}

#[test]
fn the_first_screen_has_the_two_commands_and_the_test_command_is_cis() {
    let text = readme();
    let first: String = text.lines().take(30).collect::<Vec<_>>().join("\n");
    assert!(
        first.contains("cargo build --release && target/release/radtap -b -head heat_step"),
        "{first}"
    );
    assert!(first.contains("\ncargo test --workspace\n"), "{first}");
    let ci = std::fs::read_to_string(".ci/run").expect(".ci/run");
    assert!(
        ci.lines().any(|l| l.starts_with("cargo test --workspace")),
        ".ci/run no longer runs the README's test command"
    );
    assert!(
        text.lines().count() <= 120,
        "the README is read in two minutes: reference material goes to docs/"
    );
}

/// Runs every shell line of the README, in order, as a user would in a fresh clone:
/// `cargo build --release && ` is dropped (this test's radtap stands at
/// `target/release/radtap`), `cargo test --workspace` is what runs this test.
#[test]
fn the_readme_commands_and_gradient_example_run_as_written() {
    let text = readme();
    let blocks = code_blocks(&text);
    let fortran: Vec<&String> = blocks
        .iter()
        .filter(|(lang, _)| lang == "fortran")
        .map(|(_, b)| b)
        .collect();
    assert_eq!(fortran.len(), 1, "one Fortran example in the README");
    let file = std::fs::read_to_string("examples/heat_gradient.f90").expect("example driver");
    assert_eq!(
        fortran[0], &file,
        "the README shows examples/heat_gradient.f90 as it is"
    );

    let mut script = String::from("set -e\n");
    for (_, body) in blocks.iter().filter(|(lang, _)| lang == "sh") {
        for line in body.lines() {
            let line = line.trim();
            if line.is_empty() || line == "cargo test --workspace" {
                continue;
            }
            let line = line
                .strip_prefix("cargo build --release && ")
                .unwrap_or(line);
            assert!(!line.starts_with("cargo"), "unexpected command {line}");
            script.push_str(line);
            script.push('\n');
        }
    }
    let repo = std::env::current_dir().expect("cwd");
    let dir = std::env::temp_dir().join(format!("radtap-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("target/release")).expect("temp dir");
    std::os::unix::fs::symlink(repo.join("examples"), dir.join("examples")).expect("link");
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_radtap"),
        dir.join("target/release/radtap"),
    )
    .expect("link");
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(&dir)
        .output()
        .expect("run sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{script}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(dir.join("out/heat_b.f90").exists(), "{script}");
    // The block after "prints" is the example's output, and validate's verdict closes.
    let shown = blocks
        .iter()
        .find(|(lang, b)| lang.is_empty() && b.starts_with("d cost / d u"))
        .map(|(_, b)| b.clone())
        .expect("the README shows the example's output");
    assert!(stdout.contains(&shown), "{shown}\nnot in\n{stdout}");
    assert!(stdout.trim_end().ends_with("PASS"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The relative link targets of a Markdown text, outside code blocks and code spans.
fn relative_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans, which may hold `](` of their own.
        let plain: String = line.split('`').step_by(2).collect::<Vec<_>>().join("");
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let tail = &rest[i + 2..];
            let end = tail.find(')').unwrap_or(tail.len());
            let target = &tail[..end];
            if !target.contains("://") && !target.starts_with("mailto:") {
                out.push(target.to_string());
            }
            rest = &tail[end..];
        }
    }
    out
}

fn headings(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_relative_link_of_the_documentation_resolves() {
    let mut pages: Vec<PathBuf> = vec!["README.md".into(), "ARCHITECTURE.md".into()];
    for e in std::fs::read_dir("docs").expect("docs/") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    assert!(pages.len() >= 8, "{pages:?}");
    let mut broken = Vec::new();
    let mut count = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("page");
        let base = page.parent().unwrap_or(Path::new(""));
        for link in relative_links(&text) {
            count += 1;
            let (file, anchor) = match link.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                page.clone()
            } else {
                base.join(file)
            };
            if !target.exists() {
                broken.push(format!(
                    "{}: {link} (no {})",
                    page.display(),
                    target.display()
                ));
                continue;
            }
            if let Some(a) = anchor {
                let t = std::fs::read_to_string(&target).unwrap_or_default();
                if !headings(&t).iter().any(|h| h == a) {
                    broken.push(format!("{}: {link} (no heading #{a})", page.display()));
                }
            }
        }
    }
    assert!(
        count >= 20,
        "only {count} links found: is the scanner broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_scanner_sees_links_and_skips_code() {
    let text = "see [a](docs/a.md#x-y) and `[b](no.md)`\n```\n[c](no.md)\n```\n[d](https://x.org)";
    assert_eq!(relative_links(text), vec!["docs/a.md#x-y".to_string()]);
    assert_eq!(
        slug(" What is supported, and what is not yet"),
        "what-is-supported-and-what-is-not-yet"
    );
    assert_eq!(
        slug(" Checking derivatives: `radtap validate`"),
        "checking-derivatives-radtap-validate"
    );
}
