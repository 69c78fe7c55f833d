//! The `-head` option against the program: [`parse_head`] splits one head word into the
//! procedure and the variables it carries, [`find_head`] finds the procedure, [`check_head`]
//! reports unknown procedures and variables (AD040, AD041).

use radtap_il::{Code, Diagnostic, Program, SymbolKind, UnitKind};

/// Splits a `-head` word into the procedure name and the variables it carries:
/// `f(y z)/(x)` (dependents / independents), `f(x)>(y z)` and `f(x)\\(y)` (independents then
/// dependents).
pub fn parse_head(h: &str) -> (String, Vec<String>, Vec<String>) {
    let name = h
        .split(['(', '/', '>', '\\'])
        .next()
        .unwrap_or(h)
        .to_string();
    let groups: Vec<Vec<String>> = h
        .split('(')
        .skip(1)
        .map(|g| {
            g.split(')')
                .next()
                .unwrap_or("")
                .split([' ', ','])
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect();
    let (mut vars, mut outvars) = (Vec::new(), Vec::new());
    if groups.len() == 2 {
        if h.contains('/') {
            outvars = groups[0].clone();
            vars = groups[1].clone();
        } else {
            vars = groups[0].clone();
            outvars = groups[1].clone();
        }
    } else if groups.len() == 1 {
        vars = groups[0].clone();
    }
    (name, vars, outvars)
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

/// Checks `-head` and `-vars`/`-outvars` against the program.
pub(crate) fn check_head(
    prog: &Program,
    head: &str,
    vars: Option<&str>,
    outvars: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) {
    for h in head.split_whitespace() {
        // `f(y z)/(x)` and `f(x)>(y)` carry variables; the name is what precedes `(`.
        let name = h.split(['(', '/', '>', '\\']).next().unwrap_or(h);
        let proc_name = name.rsplit('.').next().unwrap_or(name);
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
        for v in vars
            .into_iter()
            .chain(outvars)
            .flat_map(|s| s.split_whitespace())
        {
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
                .is_some_and(|r| prog.name(r).eq_ignore_ascii_case(base));
            if !ok {
                diags.push(Diagnostic::global(
                    Code::UnknownVar,
                    format!("variable `{base}` is not an argument, result or global variable of `{proc_name}`"),
                ));
            }
        }
    }
}
