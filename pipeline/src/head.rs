//! The `-head` option against the program: [`parse_head`] splits one head word into the
//! procedure and the variables it carries, [`find_head`] finds the procedure, [`check_head`]
//! reports unknown procedures and variables (AD040, AD041).

use radtap_il::{Code, Diagnostic, Program, SymbolKind, UnitKind};

/// One head of `-head`: the procedure (`f`, or `mod.f` for a module procedure) and the
/// variables its string names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeadSpec {
    /// The procedure as written (`mod.f` kept whole).
    pub name: String,
    /// Independents named inside the head string.
    pub independents: Vec<String>,
    /// Dependents named inside the head string.
    pub dependents: Vec<String>,
}

impl HeadSpec {
    /// The procedure name without its module qualifier.
    pub fn proc_name(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }
}

/// Parses a `-head` string (DESIGN.md, "Command line"): heads are separated by spaces
/// *outside* parentheses; a head is a name followed by Tapenade's forms
/// `f(deps)/(indeps)`, `f(indeps)>(deps)`, `f(indeps)\(deps)`, with either group optional
/// around the separator (`f/(x)`, `f(y)/`), or a lone group `f(y)`: the dependents, as
/// Tapenade 3.16 reads it (`f(y)` is `f(y)/`; the independents are then the defaults). Inside a
/// group, names are separated by spaces or commas; a name may carry its own parentheses
/// (`x(1:3)`). Spaces around the separator are allowed (`f(y) / (x)`).
pub fn parse_heads(text: &str) -> Result<Vec<HeadSpec>, String> {
    let c: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut heads = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < c.len() && c[*i].is_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_ws(&mut i);
        if i >= c.len() {
            break;
        }
        let start = i;
        while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '.' || c[i] == '$') {
            i += 1;
        }
        if i == start {
            return Err(format!(
                "-head `{text}`: expected a procedure name at `{}`",
                c[i..].iter().collect::<String>()
            ));
        }
        let name: String = c[start..i].iter().collect();
        // Groups and at most one separator, in order.
        let mut groups: Vec<(usize, Vec<String>)> = Vec::new();
        let mut sep: Option<(char, usize)> = None;
        loop {
            let save = i;
            skip_ws(&mut i);
            match c.get(i) {
                Some('(') => {
                    let items = group(&c, &mut i).map_err(|e| format!("-head `{text}`: {e}"))?;
                    if groups.len() == 2
                        || groups.last().is_some_and(|g| sep.is_none_or(|s| g.0 > s.1))
                    {
                        return Err(format!(
                            "-head `{text}`: `{name}` has too many variable lists"
                        ));
                    }
                    groups.push((i, items));
                }
                Some(&s @ ('/' | '>' | '\\')) => {
                    if sep.is_some() {
                        return Err(format!("-head `{text}`: `{name}` has two separators"));
                    }
                    i += 1;
                    sep = Some((s, i));
                }
                _ => {
                    i = save;
                    break;
                }
            }
        }
        let mut h = HeadSpec {
            name,
            ..HeadSpec::default()
        };
        match sep {
            None => {
                if let Some((_, g)) = groups.pop() {
                    h.dependents = g;
                }
            }
            Some((s, at)) => {
                let (mut before, mut after) = (Vec::new(), Vec::new());
                for (end, g) in groups {
                    if end <= at {
                        before = g;
                    } else {
                        after = g;
                    }
                }
                if s == '/' {
                    h.dependents = before;
                    h.independents = after;
                } else {
                    h.independents = before;
                    h.dependents = after;
                }
            }
        }
        heads.push(h);
    }
    Ok(heads)
}

/// Reads `( item item, item )` at `c[*i] == '('`; items may hold balanced parentheses.
fn group(c: &[char], i: &mut usize) -> Result<Vec<String>, String> {
    *i += 1;
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut depth = 0;
    while *i < c.len() {
        let ch = c[*i];
        *i += 1;
        match ch {
            '(' => {
                depth += 1;
                cur.push(ch);
            }
            ')' if depth == 0 => {
                if !cur.is_empty() {
                    items.push(cur);
                }
                return Ok(items);
            }
            ')' => {
                depth -= 1;
                cur.push(ch);
            }
            ' ' | '\t' | ',' if depth == 0 => {
                if !cur.is_empty() {
                    items.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(ch),
        }
    }
    Err("unbalanced parenthesis".into())
}

/// The first head of a `-head` string as (procedure, independents, dependents); an
/// unparsable string gives its text as the name (the check then reports it).
pub fn parse_head(h: &str) -> (String, Vec<String>, Vec<String>) {
    match parse_heads(h).ok().and_then(|v| v.into_iter().next()) {
        Some(x) => (x.name, x.independents, x.dependents),
        None => (h.to_string(), Vec::new(), Vec::new()),
    }
}

/// The definition of procedure `proc_name` (not an interface body).
pub(crate) fn find_head(prog: &Program, proc_name: &str) -> Option<radtap_il::UnitId> {
    prog.units
        .iter()
        .find(|(uid, u)| {
            matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
                && u.name.is_some_and(|n| {
                    prog.name(n).eq_ignore_ascii_case(proc_name)
                        && prog.symbols[n].unit == Some(*uid)
                })
        })
        .map(|(id, _)| id)
}

/// The names of a `-vars`/`-outvars` list: separated by spaces or commas outside
/// parentheses and brackets, as in `-head` (`"u, dt"`, `"x(1,2) y"`).
pub fn var_list(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && (c.is_whitespace() || c == ',') {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Checks `-head` and `-vars`/`-outvars` against the program.
pub(crate) fn check_head(
    prog: &Program,
    head: &str,
    vars: Option<&str>,
    outvars: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) {
    // A malformed string was refused by `check_request`.
    for spec in parse_heads(head).unwrap_or_default() {
        let proc_name = spec.proc_name();
        let found = find_head(prog, proc_name).map(|id| (id, &prog.units[id]));
        let Some((_, u)) = found else {
            let known: Vec<String> = prog
                .units
                .iter()
                .filter(|(_, u)| matches!(u.kind, UnitKind::Subroutine | UnitKind::Function))
                .filter_map(|(_, u)| u.name.map(|n| prog.name(n).to_string()))
                .collect();
            diags.push(
                Diagnostic::global(
                    Code::UnknownHead,
                    format!("-head `{proc_name}`: no such procedure in the input files"),
                )
                .with_note(format!(
                    "procedures defined: {}",
                    if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    }
                )),
            );
            continue;
        };
        let scope = u.scope;
        let named = vars
            .into_iter()
            .chain(outvars)
            .flat_map(var_list)
            .chain(spec.independents.iter().cloned())
            .chain(spec.dependents.iter().cloned());
        for v in named {
            let v = v.as_str();
            let base = v.split(['(', '%', '[', '.']).next().unwrap_or(v);
            let key = if u.lang == radtap_il::Lang::Fortran {
                base.to_ascii_lowercase()
            } else {
                base.to_string()
            };
            let ok = prog.lookup(scope, &key).is_some_and(|s| {
                matches!(
                    prog.symbols[s].kind,
                    SymbolKind::Variable | SymbolKind::Unknown
                )
            }) || u
                .result
                .is_some_and(|r| prog.name(r).eq_ignore_ascii_case(base))
                // A function's name stands for its result, with or without `result(r)`.
                || (u.result.is_some() && proc_name.eq_ignore_ascii_case(base));
            if !ok {
                let args: Vec<&str> = u
                    .params
                    .iter()
                    .chain(u.result.iter())
                    .map(|&s| prog.name(s))
                    .collect();
                diags.push(
                    Diagnostic::global(
                        Code::UnknownVar,
                        format!("variable `{base}` is not an argument, result or global variable of `{proc_name}`"),
                    )
                    .with_note(format!(
                        "the arguments{} of `{proc_name}`: {}",
                        if u.result.is_some() { " and result" } else { "" },
                        if args.is_empty() { "none".into() } else { args.join(", ") }
                    )),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(name: &str, ind: &[&str], dep: &[&str]) -> HeadSpec {
        HeadSpec {
            name: name.into(),
            independents: ind.iter().map(|s| s.to_string()).collect(),
            dependents: dep.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn variable_lists_split_on_spaces_and_commas_outside_parentheses() {
        assert_eq!(var_list("u, dt"), vec!["u", "dt"]);
        assert_eq!(var_list(" u  dt "), vec!["u", "dt"]);
        assert_eq!(var_list("u,dt"), vec!["u", "dt"]);
        assert_eq!(var_list("x(1,2) y[3]"), vec!["x(1,2)", "y[3]"]);
        assert!(var_list(" , ").is_empty());
    }

    /// Head strings in the forms of Tapenade's documentation and of published benchmark
    /// scripts.
    #[test]
    fn head_strings_parse_as_tapenade_reads_them() {
        let cases: Vec<(&str, Vec<HeadSpec>)> = vec![
            ("f", vec![h("f", &[], &[])]),
            ("f(y)/(x)", vec![h("f", &["x"], &["y"])]),
            ("f(y z)/(x)", vec![h("f", &["x"], &["y", "z"])]),
            ("f(y,z)/(x,w)", vec![h("f", &["x", "w"], &["y", "z"])]),
            ("f(y, z) / (x, w)", vec![h("f", &["x", "w"], &["y", "z"])]),
            ("f(x)>(y z)", vec![h("f", &["x"], &["y", "z"])]),
            ("f(x)\\(y z)", vec![h("f", &["x"], &["y", "z"])]),
            ("f/(x)", vec![h("f", &["x"], &[])]),
            ("f(y)/", vec![h("f", &[], &["y"])]),
            // Tapenade 3.16 reads a lone group as the dependents (`f(y)/`).
            ("f(y)", vec![h("f", &[], &["y"])]),
            ("m.f(y)/(x)", vec![h("m.f", &["x"], &["y"])]),
            (
                "f(err)/(cam X w) g(err)/(w)",
                vec![
                    h("f", &["cam", "X", "w"], &["err"]),
                    h("g", &["w"], &["err"]),
                ],
            ),
            ("f g", vec![h("f", &[], &[]), h("g", &[], &[])]),
            (
                "  gmm_objective(err)/(alphas means icf)  ",
                vec![h("gmm_objective", &["alphas", "means", "icf"], &["err"])],
            ),
            (
                "lstm_objective(loss)/(main_params extra_params)",
                vec![h(
                    "lstm_objective",
                    &["main_params", "extra_params"],
                    &["loss"],
                )],
            ),
            ("f(y(1:3))/(x(2))", vec![h("f", &["x(2)"], &["y(1:3)"])]),
            ("f(s%a)/(s%b)", vec![h("f", &["s%b"], &["s%a"])]),
            ("f(y)/(x) g", vec![h("f", &["x"], &["y"]), h("g", &[], &[])]),
        ];
        for (text, want) in cases {
            assert_eq!(parse_heads(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn malformed_head_strings_are_refused_with_what_is_wrong() {
        for (text, what) in [
            ("f(y", "unbalanced"),
            ("f(y)/(x", "unbalanced"),
            ("f(y)//(x)", "two separators"),
            ("f(a)(b)(c)", "too many"),
            ("(x)", "expected a procedure name"),
        ] {
            let e = parse_heads(text).expect_err(text);
            assert!(e.contains(what), "{text}: {e}");
        }
    }
}
