//! The data-flow analyses on the corpus in `tests/analysis/`: each file's first line gives the
//! options (`! radtap: -head f -vars "a b" -outvars "y"`). Every file's `-dump-analysis` output
//! is snapshotted for review (`tests/snapshots/analysis__*.snap`), and the effects the Tapenade
//! paper shows (Fig. 9, Fig. 12) and the interprocedural cases are asserted line by line, so a
//! regression fails here even if someone accepts a snapshot without reading it.

use radtap::{execute, normalize_args, Cli};
use std::path::PathBuf;

/// Splits the options line like a shell would (double quotes group words).
fn shell_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// Runs `-dump-analysis` with the file's own options: (status, dump, stderr).
fn analyse(path: &str) -> (u8, String, String) {
    let text = std::fs::read_to_string(path).expect("corpus file");
    let first = text.lines().next().unwrap_or("");
    let opts = first
        .split_once("radtap:")
        .map(|(_, o)| o.trim())
        .unwrap_or_else(|| panic!("{path}: first line must hold `radtap: OPTIONS`"));
    let mut args = vec!["radtap".to_string(), "-dump-analysis".to_string()];
    args.extend(shell_words(opts));
    args.push(path.to_string());
    let args = normalize_args(args.into_iter());
    let cli = <Cli as clap::Parser>::try_parse_from(args).expect("options parse");
    let o = execute(&cli);
    (o.status, o.dump, o.stderr)
}

fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/analysis")
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_file_is_analysed_and_snapshotted() {
    let files = corpus();
    assert!(files.len() >= 15, "at least 15 programs");
    let (mut fortran, mut c) = (0, 0);
    for f in &files {
        let path = f.to_string_lossy().replace('\\', "/");
        let (status, dump, stderr) = analyse(&path);
        assert_eq!(status, 0, "{path}: {stderr}");
        assert!(
            dump.starts_with("procedure "),
            "{path}: empty dump\n{stderr}"
        );
        if path.ends_with(".c") {
            c += 1;
        } else {
            fortran += 1;
        }
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("x")
            .replace('.', "_");
        insta::assert_snapshot!(name, format!("{dump}--- stderr\n{stderr}"));
    }
    assert!(fortran >= 8 && c >= 5, "Fortran and C both covered");
}

/// The facts printed under the statement on `line` (the first fact line after it).
fn facts_of<'a>(dump: &'a str, proc_name: &str, line: &str) -> &'a str {
    let start = dump
        .find(&format!("procedure {proc_name} "))
        .unwrap_or_else(|| panic!("no procedure {proc_name} in\n{dump}"));
    let body = &dump[start..];
    let mut lines = body.lines();
    while let Some(l) = lines.next() {
        if l.trim_start().starts_with(line) {
            return lines.next().unwrap_or("");
        }
    }
    panic!("no statement `{line}` in {proc_name}:\n{body}")
}

/// `{a, b}` after `label` in a fact line, as a list of names.
fn set_after(facts: &str, label: &str) -> Vec<String> {
    let i = facts
        .find(label)
        .unwrap_or_else(|| panic!("no `{label}` in `{facts}`"));
    let rest = &facts[i + label.len()..];
    let open = rest.find('{').expect("set");
    let close = rest.find('}').expect("set end");
    rest[open + 1..close]
        .split(", ")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn has(v: &[String], x: &str) -> bool {
    v.iter().any(|s| s == x)
}

#[test]
fn fig9_constant_stops_varied_and_floor_stops_useful() {
    let (_, d, stderr) = analyse("tests/analysis/fig9_activity.f90");
    // `a = 5` makes `a` not varied: `d = a*c` gets a derivative from `c` only.
    let f = facts_of(&d, "fig9", "15: d = a*c");
    let before = set_after(f, "active");
    assert!(!has(&before, "a") && has(&before, "c"), "{f}");
    // `e = a/x` is varied but not useful (floor follows): dead for derivatives, and `x = a*b`
    // too.
    assert!(facts_of(&d, "fig9", "16: e = a/x").contains("dead for derivatives"));
    assert!(facts_of(&d, "fig9", "13: x = a*b").contains("dead for derivatives"));
    // After floor `e` is not varied: its derivative is reset (a derivative, no primal need).
    let f = facts_of(&d, "fig9", "17:");
    assert!(!has(&set_after(f, "-> "), "e"), "{f}");
    // The paper's independents a, b influence nothing; we warn.
    assert!(stderr.contains("independent `a` of `fig9` has no differentiable influence"));
    assert!(stderr.contains("dependent `e` of `fig9` does not depend"));
}

#[test]
fn fig12_difflive_linear_not_tbr_and_recomputable_index() {
    let (_, d, _) = analyse("tests/analysis/fig12_trajectory.f90");
    // `c = a(n)*b(n)` and `z(n) = z(n) + c` compute nothing the derivatives need.
    assert!(facts_of(&d, "traj", "18: c = a(n)*b(n)").contains("derivative only"));
    assert!(facts_of(&d, "traj", "21: z(n) = z(n) + c").contains("derivative only"));
    // `b(n) = sin(a(n)) - b(n)` uses b linearly: its derivative reads a and n, not b.
    let f = facts_of(&d, "traj", "16: b(n)");
    let reads = set_after(f, "derivative reads");
    assert!(
        has(&reads, "a") && has(&reads, "n") && !has(&reads, "b"),
        "{f}"
    );
    // The index n overwritten by `n = ind2(i+2)` is recomputable, not recorded.
    let f = facts_of(&d, "traj", "20: n = ind2(i+2)");
    assert_eq!(set_after(f, "recompute"), vec!["n"], "{f}");
    assert!(!f.contains("record"), "{f}");
}

#[test]
fn callee_activity_is_the_envelope_of_its_calling_contexts() {
    let (_, d, _) = analyse("tests/analysis/calls_two_contexts.f90");
    // `scale(x, t, 3)` passes an active `u`; `scale(w, w2, 2)` a passive one. One version:
    // u varied on entry, v useful on exit.
    let i = d.find("procedure scale").expect("callee analysed");
    let callee = &d[i..];
    assert!(callee.contains("varied on entry: {u}"), "{callee}");
    assert!(callee.contains("useful on exit:  {v}"), "{callee}");
    // The passive call leaves `w2` inactive in the caller.
    let f = facts_of(&d, "twocalls", "22: call scale(w, w2, 2)");
    assert!(!has(&set_after(f, "-> "), "w2"), "{f}");
}

#[test]
fn common_blocks_and_module_variables_carry_activity_through_calls() {
    let (_, d, _) = analyse("tests/analysis/common_blocks.f");
    let f = facts_of(&d, "CMHEAD", "14: CALL CMSTEP");
    assert!(has(&set_after(f, "-> "), "/STATE/R"), "{f}");
    // Q (a constant) and N (an integer) never become active.
    assert!(!set_after(f, "-> ")
        .iter()
        .any(|z| z == "/STATE/Q" || z == "/STATE/N"));
    let (_, d, _) = analyse("tests/analysis/module_vars.f90");
    let i = d.find("procedure addg").expect("module procedure analysed");
    assert!(d[i..].contains("varied on entry: {g}"), "{}", &d[i..]);
    let f = facts_of(&d, "mstep", "26: call addg(y)");
    assert_eq!(set_after(f, "-> "), vec!["y"], "{f}");
}

#[test]
fn struct_and_derived_type_fields_are_distinct_zones() {
    let (_, d, _) = analyse("tests/analysis/derived_type_fields.f90");
    // `p%mass = 2.0` kills the mass field only; `p%id` is an integer, never active.
    let f = facts_of(&d, "tstep", "22: p%pos");
    let before = set_after(f, "active");
    assert!(has(&before, "p%pos") && !has(&before, "p%mass") && !has(&before, "p%id"));
    let (_, d, _) = analyse("tests/analysis/c_struct_fields.c");
    let i = d.find("procedure step").expect("callee");
    let callee = &d[i..];
    assert!(
        callee.contains("varied on entry: {h, p->x, p->y}"),
        "{callee}"
    );
    assert!(facts_of(&d, "step", "15: p->n").contains("dead for derivatives"));
}

#[test]
fn goto_loops_are_loops_for_the_analyses() {
    let (_, d, _) = analyse("tests/analysis/goto_loop.f");
    // The back edge makes S active at the loop test, and I (which addresses X) is recorded
    // where the loop overwrites it.
    let f = facts_of(&d, "GSUM", "11: 10");
    assert!(has(&set_after(f, "active"), "S"), "{f}");
    let f = facts_of(&d, "GSUM", "13: I = I + 1");
    assert_eq!(set_after(f, "record"), vec!["I"], "{f}");
    assert!(facts_of(&d, "GSUM", "9: S = 0.0D0").contains("dead for derivatives"));
    let (_, d, _) = analyse("tests/analysis/c_goto.c");
    let f = facts_of(&d, "horner", "15: acc = acc * x + c[i];");
    assert!(has(&set_after(f, "record"), "acc"), "{f}");
}

#[test]
fn control_of_a_live_statement_is_live() {
    let (_, d, _) = analyse("tests/analysis/nondiff_uses.f90");
    // The IF on t decides which derivative statement runs: t is diff-live before it.
    let f = facts_of(&d, "lookup", "18: if (t > 0.5d0) then");
    assert!(
        f.contains("live") && has(&set_after(f, "diff-live"), "t"),
        "{f}"
    );
    // `k = nint(...)` feeds only a non-differentiable use: dead for derivatives.
    assert!(facts_of(&d, "lookup", "14: k = nint").contains("dead for derivatives"));
}

#[test]
fn pointer_writes_reach_their_targets() {
    let (_, d, _) = analyse("tests/analysis/c_pointers.c");
    // `p = &a[0]; p++; *p = 2.0` overwrites part of a: recorded as a write to *a.
    let f = facts_of(&d, "wsum", "16: *p = 2.0;");
    assert!(has(&set_after(f, "record"), "*a"), "{f}");
}
