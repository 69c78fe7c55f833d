//! File dependencies through methods: `impl` blocks let a file call what another defines
//! without naming it (every diff-adjoint file is `use crate::*; impl Adj`), so the `use`
//! graph alone missed most of them.
//!
//! File `a` depends on file `b` when `a` names `b` (`super::use_graph`) or calls a method that
//! an inherent `impl` block of `b` defines (`.m(`, `.m::<`, `Self::m(`). A method name defined
//! in several files, or also a standard library method's name (`push`, `contains`), is left
//! out: the scan has no types to tell the calls apart. A method of a trait implementation is
//! reached through the trait, so it makes no edge to the file implementing it: a rule file
//! calling back into the statement dispatch through a trait depends on the trait, not on
//! the dispatcher.
//!
//! When the check was written (session 17) every crate with more than a few files had such
//! cycles (diff-adjoint one through 35 of its 38 files); they were removed by moving the
//! services every file uses to files that call none of the others (`base.rs`, `lower.rs`,
//! `types.rs`) and by reaching recursive dispatchers through traits.

use super::{use_graph, Graph, CRATES};
use std::collections::{BTreeMap, BTreeSet};

/// Method names of the standard library the scan cannot tell from a crate's own.
const STD: &[&str] = &[
    "all",
    "and_then",
    "any",
    "append",
    "as_ref",
    "bytes",
    "chain",
    "chars",
    "clear",
    "clone",
    "cloned",
    "cmp",
    "collect",
    "contains",
    "copied",
    "count",
    "dedup",
    "default",
    "drain",
    "ends_with",
    "entry",
    "enumerate",
    "eq",
    "err",
    "expect",
    "extend",
    "filter",
    "filter_map",
    "find",
    "find_map",
    "first",
    "flat_map",
    "fmt",
    "fold",
    "for_each",
    "from",
    "get",
    "get_mut",
    "hash",
    "insert",
    "into",
    "is_empty",
    "is_none",
    "is_some",
    "is_some_and",
    "iter",
    "iter_mut",
    "join",
    "keys",
    "last",
    "last_mut",
    "len",
    "lines",
    "map",
    "max",
    "min",
    "new",
    "next",
    "ok",
    "parse",
    "pop",
    "position",
    "push",
    "push_str",
    "remove",
    "replace",
    "reserve",
    "resize",
    "retain",
    "rev",
    "skip",
    "sort",
    "splice",
    "split",
    "starts_with",
    "step_by",
    "sum",
    "swap",
    "take",
    "then",
    "then_some",
    "to_string",
    "trim",
    "truncate",
    "unwrap",
    "unwrap_or",
    "unwrap_or_default",
    "values",
    "with_capacity",
    "zip",
];

/// The code of a file with its comments removed (line comments; strings are left alone).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The methods the inherent `impl` blocks of `code` define.
pub(super) fn defined_methods(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // (indentation, inherent) of the `impl` blocks open at this line.
    let mut open: Vec<(usize, bool)> = Vec::new();
    for line in code.lines() {
        let t = line.trim_start();
        let ind = line.len() - t.len();
        if t.starts_with("impl ") || t.starts_with("impl<") {
            let head = t.split('{').next().unwrap_or(t);
            open.push((ind, !head.contains(" for ")));
            continue;
        }
        if t.starts_with('}') && open.last().is_some_and(|&(i, _)| i == ind) {
            open.pop();
            continue;
        }
        let Some(&(i, inherent)) = open.last() else {
            continue;
        };
        if !inherent || ind != i + 4 {
            continue;
        }
        let mut rest = t;
        for q in ["pub(crate) ", "pub(super) ", "pub ", "const ", "unsafe "] {
            rest = rest.strip_prefix(q).unwrap_or(rest);
        }
        if let Some(r) = rest.strip_prefix("fn ") {
            let name: String = r
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out
}

/// The method names `code` calls: `.m(`, `.m::<`, `Self::m(`.
pub(super) fn called_methods(code: &str) -> BTreeSet<String> {
    let b: Vec<char> = code.chars().collect();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < b.len() {
        let after_dot = b[i] == '.';
        let after_self = b[i..].starts_with(&['S', 'e', 'l', 'f', ':', ':']);
        if !(after_dot || after_self) {
            i += 1;
            continue;
        }
        i += if after_dot { 1 } else { 6 };
        let start = i;
        while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
            i += 1;
        }
        let name: String = b[start..i].iter().collect();
        let called = b.get(i) == Some(&'(') || b[i..].starts_with(&[':', ':', '<']);
        if called && name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
            out.insert(name);
        }
    }
    out
}

/// `use_graph`'s edges of crate `c` plus its method edges.
fn graph(c: &str) -> (BTreeSet<Vec<String>>, Graph) {
    let (modules, mut edges) = use_graph(c);
    let codes: BTreeMap<&Vec<String>, String> = modules
        .iter()
        .map(|(m, f)| (m, code_of(&std::fs::read_to_string(f).expect("source"))))
        .collect();
    let mut owner: BTreeMap<String, Option<&Vec<String>>> = BTreeMap::new();
    for (m, code) in &codes {
        for f in defined_methods(code) {
            owner.entry(f).and_modify(|o| *o = None).or_insert(Some(*m));
        }
    }
    for (m, code) in &codes {
        if m.is_empty() {
            continue;
        }
        for f in called_methods(code) {
            if STD.contains(&f.as_str()) {
                continue;
            }
            if let Some(Some(o)) = owner.get(&f) {
                if *o != *m && !o.is_empty() {
                    edges.entry((*m).clone()).or_default().insert((*o).clone());
                }
            }
        }
    }
    (modules.into_keys().collect(), edges)
}

/// The strongly connected sets of more than one file (Tarjan), as sorted module paths.
fn cycles(nodes: &BTreeSet<Vec<String>>, edges: &Graph) -> Vec<BTreeSet<String>> {
    struct T<'e> {
        edges: &'e Graph,
        index: BTreeMap<Vec<String>, usize>,
        low: BTreeMap<Vec<String>, usize>,
        stack: Vec<Vec<String>>,
        on: BTreeSet<Vec<String>>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit(t: &mut T<'_>, v: &Vec<String>) {
        let n = t.index.len();
        t.index.insert(v.clone(), n);
        t.low.insert(v.clone(), n);
        t.stack.push(v.clone());
        t.on.insert(v.clone());
        for w in t.edges.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let l = t.low[v].min(t.low[w]);
                t.low.insert(v.clone(), l);
            } else if t.on.contains(w) {
                let l = t.low[v].min(t.index[w]);
                t.low.insert(v.clone(), l);
            }
        }
        if t.low[v] == t.index[v] {
            let mut set = BTreeSet::new();
            loop {
                let w = t.stack.pop().expect("on the stack");
                t.on.remove(&w);
                set.insert(w.join("::"));
                if &w == v {
                    break;
                }
            }
            if set.len() > 1 {
                t.out.push(set);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in nodes {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_two_files_of_a_crate_call_each_other() {
    let mut problems = Vec::new();
    for c in CRATES {
        let (nodes, edges) = graph(c);
        for set in cycles(&nodes, &edges) {
            problems.push(format!("crate {c}: files call each other: {set:?}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n(a rule calling back into a dispatcher goes through a trait the dispatcher \
         implements; a service every file uses goes to a file that calls none of them)",
        problems.join("\n")
    );
}

/// The scan sees inherent methods and their calls, not trait methods nor comments.
#[test]
fn the_method_scan_sees_inherent_methods_and_calls() {
    let code = code_of(
        "impl<'a> Adj<'_, '_, 'a> {\n    pub(crate) fn rev_loop(&mut self) {\n        \
         self.rev_block(); // self.hidden()\n        Self::helper::<u8>(1);\n    }\n}\n\
         impl BodyRules for AdjointRules {\n    fn body(&self) {}\n}\n",
    );
    let defined: Vec<String> = defined_methods(&code).into_iter().collect();
    assert_eq!(defined, ["rev_loop"]);
    let called: Vec<String> = called_methods(&code).into_iter().collect();
    assert_eq!(called, ["helper", "rev_block"]);
}

/// The cycle finder reports strongly connected sets, not single files or chains.
#[test]
fn the_cycle_finder_reports_strongly_connected_sets() {
    let v = |s: &str| vec![s.to_string()];
    let nodes: BTreeSet<Vec<String>> = ["a", "b", "c", "d"].iter().map(|s| v(s)).collect();
    let mut edges: Graph = BTreeMap::new();
    for (x, y) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        edges.entry(v(x)).or_default().insert(v(y));
    }
    let found = cycles(&nodes, &edges);
    let want: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    assert_eq!(found, vec![want]);
}
