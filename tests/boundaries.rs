//! Crate and file boundaries (STYLE.md §1) as tests: each crate's normal dependencies are the
//! ones the pipeline allows (read from the manifests, so no network and no `cargo tree`); no
//! source file is over 1,000 lines; no crate but the IL's directive parser spells a `$AD`
//! directive's word; and no two files of a crate name each other, directly or
//! through others (a crate root only declares and re-exports, so edges to it do not count),
//! nor through the methods their `impl` blocks define (`methods.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "boundaries/methods.rs"]
mod methods;

fn deps(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("manifest");
    let mut in_deps = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_deps = l == "[dependencies]";
            continue;
        }
        if in_deps && !l.is_empty() && !l.starts_with('#') {
            let name = l.split(['=', '.']).next().unwrap_or("").trim().to_string();
            out.push(name);
        }
    }
    out
}

#[test]
fn pipeline_crates_depend_only_on_what_they_may() {
    let allowed: &[(&str, &[&str])] = &[
        ("il/Cargo.toml", &[]),
        ("runtime-stack/Cargo.toml", &[]),
        (
            "frontends/Cargo.toml",
            &[
                "radtap-il",
                "tree-sitter",
                "tree-sitter-c",
                "tree-sitter-fortran",
                "thiserror",
            ],
        ),
        ("unparse/Cargo.toml", &["radtap-il"]),
        ("flowgraph/Cargo.toml", &["radtap-il", "petgraph"]),
        (
            "dataflow/Cargo.toml",
            &["radtap-il", "radtap-flowgraph", "fixedbitset"],
        ),
        (
            "diff-gen/Cargo.toml",
            &["radtap-il", "radtap-flowgraph", "radtap-dataflow"],
        ),
        // The two modes sit beside each other on the shared generator, never on each other.
        (
            "diff-tangent/Cargo.toml",
            &[
                "radtap-il",
                "radtap-flowgraph",
                "radtap-dataflow",
                "radtap-diff-gen",
            ],
        ),
        (
            "diff-adjoint/Cargo.toml",
            &[
                "radtap-il",
                "radtap-flowgraph",
                "radtap-dataflow",
                "radtap-diff-gen",
            ],
        ),
        (
            "validation/Cargo.toml",
            &["radtap-il", "radtap-diff-tangent", "radtap-runtime-stack"],
        ),
        (
            "pipeline/Cargo.toml",
            &[
                "radtap-il",
                "radtap-frontends",
                "radtap-unparse",
                "radtap-dataflow",
                "radtap-diff-tangent",
                "radtap-diff-adjoint",
            ],
        ),
        // The service: the pipeline, the runtime it zips, `frontends` only for which files
        // the C preprocessor reads; and its HTTP stack. Never `radtap` (the CLI).
        (
            "web/Cargo.toml",
            &[
                "radtap-il",
                "radtap-pipeline",
                "radtap-frontends",
                "radtap-runtime-stack",
                "axum",
                "hyper",
                "hyper-util",
                "tokio",
                "serde",
                "serde_json",
                "zip",
            ],
        ),
    ];
    for (manifest, ok) in allowed {
        for d in deps(manifest) {
            assert!(
                ok.contains(&d.as_str()),
                "{manifest} depends on `{d}`, outside its boundary"
            );
        }
    }
}

/// The crates of the workspace (directories holding a `src/`).
const CRATES: &[&str] = &[
    ".",
    "il",
    "frontends",
    "unparse",
    "flowgraph",
    "dataflow",
    "diff-gen",
    "diff-tangent",
    "diff-adjoint",
    "runtime-stack",
    "validation",
    "pipeline",
    "web",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_source_file_is_over_1000_lines() {
    let mut files = Vec::new();
    for c in CRATES {
        rust_files(&Path::new(c).join("src"), &mut files);
    }
    rust_files(Path::new("tests"), &mut files);
    rust_files(Path::new("benches"), &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    for f in files {
        let n = std::fs::read_to_string(&f).expect("source").lines().count();
        assert!(n <= 1000, "{} has {n} lines (at most 1,000)", f.display());
    }
}

/// `$AD` directives are parsed once, into `radtap_il::DirectiveKind`: a directive's word as a
/// string of its own (`"II-LOOP"`) appears only in the parser, `il/src/directives.rs`, so
/// no crate compares a directive's name as a string.
#[test]
fn directive_words_are_spelled_only_by_their_parser() {
    let words = [
        "NOCHECKPOINT",
        "CHECKPOINT-START",
        "CHECKPOINT-END",
        "DO-NOT-DIFF",
        "END-DO-NOT-DIFF",
        "II-LOOP",
        "BINOMIAL-CKP",
        "FP-LOOP",
    ];
    let mut files = Vec::new();
    for c in CRATES {
        rust_files(&Path::new(c).join("src"), &mut files);
    }
    let parser = Path::new("il/src/directives.rs");
    assert!(files.iter().any(|f| f == parser), "the parser moved");
    for f in files.iter().filter(|f| *f != parser) {
        let text = std::fs::read_to_string(f).expect("source");
        for w in words {
            assert!(
                !text.contains(&format!("\"{w}\"")),
                "{} spells the directive word \"{w}\": match on radtap_il::DirectiveKind",
                f.display()
            );
        }
    }
}

/// Module path of a source file relative to its crate's `src/` (`proc_/stmts.rs` and
/// `proc_/stmts/mod.rs` → `["proc_", "stmts"]`; `lib.rs`, `main.rs` → the root `[]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    }
    parts
}

/// The paths a file names: `crate::a::b`, `super::x`, `self::y`, and `child::z` for its own
/// child modules, in `use` trees (braces expanded) and inline. Comments are skipped.
fn named_paths(text: &str, here: &[String], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let bytes: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let boundary = i == 0
            || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_' || bytes[i - 1] == ':');
        if boundary && (c.is_alphabetic() || c == '_') {
            let start = i;
            while i < bytes.len() && (bytes[i].is_alphanumeric() || bytes[i] == '_') {
                i += 1;
            }
            let word: String = bytes[start..i].iter().collect();
            let base: Option<Vec<String>> = match word.as_str() {
                "crate" => Some(Vec::new()),
                "super" if !here.is_empty() => Some(here[..here.len() - 1].to_vec()),
                "self" => Some(here.to_vec()),
                w if children.contains(w) => {
                    let mut p = here.to_vec();
                    p.push(w.to_string());
                    Some(p)
                }
                _ => None,
            };
            if let Some(base) = base {
                if bytes.get(i) == Some(&':') && bytes.get(i + 1) == Some(&':') {
                    i += 2;
                    expand(&bytes, &mut i, base, &mut out);
                }
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Reads a path tail after `::` (segments, `{...}` groups) and pushes every full path.
fn expand(b: &[char], i: &mut usize, mut base: Vec<String>, out: &mut Vec<Vec<String>>) {
    loop {
        while *i < b.len() && b[*i].is_whitespace() {
            *i += 1;
        }
        if b.get(*i) == Some(&'{') {
            *i += 1;
            loop {
                expand(b, i, base.clone(), out);
                while *i < b.len() && b[*i].is_whitespace() {
                    *i += 1;
                }
                match b.get(*i) {
                    Some(',') => *i += 1,
                    Some('}') => {
                        *i += 1;
                        return;
                    }
                    _ => return,
                }
                while *i < b.len() && b[*i].is_whitespace() {
                    *i += 1;
                }
                if b.get(*i) == Some(&'}') {
                    *i += 1;
                    return;
                }
            }
        }
        let start = *i;
        while *i < b.len() && (b[*i].is_alphanumeric() || b[*i] == '_') {
            *i += 1;
        }
        if start == *i {
            out.push(base);
            return;
        }
        base.push(b[start..*i].iter().collect());
        if b.get(*i) == Some(&':') && b.get(*i + 1) == Some(&':') {
            *i += 2;
        } else {
            out.push(base);
            return;
        }
    }
}

/// The files of crate `c` by module path, and the edges between them that `use` trees and
/// paths make (`crate::a::b`, `super::x`, a child's `k::f`), the crate root left out.
type Graph = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

fn use_graph(c: &str) -> (BTreeMap<Vec<String>, PathBuf>, Graph) {
    let src = Path::new(c).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_path(&src, f), f.clone()))
        .collect();
    let mut edges: Graph = BTreeMap::new();
    for (m, f) in &modules {
        if m.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("source");
        let children: BTreeSet<String> = modules
            .keys()
            .filter(|k| k.len() == m.len() + 1 && k.starts_with(m))
            .map(|k| k[m.len()].clone())
            .collect();
        for p in named_paths(&text, m, &children) {
            // The longest prefix of the path that is a file of the crate.
            let target = (0..=p.len())
                .rev()
                .map(|n| p[..n].to_vec())
                .find(|q| modules.contains_key(q))
                .unwrap_or_default();
            if !target.is_empty() && &target != m {
                edges.entry(m.clone()).or_default().insert(target);
            }
        }
    }
    (modules, edges)
}

/// A cycle of `edges`, if any.
fn find_cycle(modules: &BTreeMap<Vec<String>, PathBuf>, edges: &Graph) -> Option<Vec<String>> {
    fn visit(
        m: &Vec<String>,
        edges: &Graph,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let at = stack.iter().position(|x| x == m).unwrap_or(0);
                let mut cyc = stack[at..].to_vec();
                cyc.push(m.clone());
                return Some(cyc);
            }
            _ => {}
        }
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for n in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(n, edges, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    modules.keys().find_map(|m| {
        visit(m, edges, &mut state, &mut Vec::new())
            .map(|cycle| cycle.iter().map(|m| m.join("::")).collect())
    })
}

#[test]
fn no_two_files_of_a_crate_name_each_other() {
    for c in CRATES {
        let (modules, edges) = use_graph(c);
        if let Some(names) = find_cycle(&modules, &edges) {
            panic!("crate {c}: files name each other: {}", names.join(" -> "));
        }
    }
}

/// The checker itself finds a cycle, through braces and `super::`.
#[test]
fn the_cycle_finder_sees_use_trees() {
    let here = vec!["a".to_string()];
    let kids: BTreeSet<String> = ["k".to_string()].into();
    let paths = named_paths(
        "use crate::{b::{X, y::Z}, c}; // crate::d::no\nfn f() { super::g(); k::h(); }",
        &here,
        &kids,
    );
    let want: Vec<Vec<String>> = vec![
        vec!["b".into(), "X".into()],
        vec!["b".into(), "y".into(), "Z".into()],
        vec!["c".into()],
        vec!["g".into()],
        vec!["a".into(), "k".into(), "h".into()],
    ];
    assert_eq!(paths, want);
}
