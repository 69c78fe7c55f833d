//! Crate boundaries (STYLE.md §1) as a test: each crate's normal dependencies are the ones the
//! pipeline allows. Read from the manifests, so it needs no network and no `cargo tree`.

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
            "diff-tangent/Cargo.toml",
            &["radtap-il", "radtap-flowgraph", "radtap-dataflow"],
        ),
        (
            "diff-adjoint/Cargo.toml",
            &[
                "radtap-il",
                "radtap-flowgraph",
                "radtap-dataflow",
                "radtap-diff-tangent",
            ],
        ),
        (
            "validation/Cargo.toml",
            &["radtap-il", "radtap-diff-tangent", "radtap-runtime-stack"],
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
