//! OpenMP directives (issue 45), for both languages: the text after `#pragma omp` / `!$omp`
//! split into its construct and its clauses, the clause variables resolved to symbols.
//! The frontends attach a loop construct to the loop after it ([`radtap_il::omp::Omp`]) and
//! refuse, at the directive's line, every construct radtap gives no meaning yet.

use radtap_il::omp::{OmpClause, OmpLen};
use radtap_il::SymbolId;

/// A directive as written: its construct words (`parallel for`, `end parallel do`) and its
/// clauses.
pub(crate) struct Parsed {
    /// The construct, lower case, words separated by one blank.
    pub(crate) construct: String,
    /// The clauses, variables resolved.
    pub(crate) clauses: Vec<OmpClause>,
    /// The name of a `critical (name)` / `end critical (name)`.
    pub(crate) name: Option<String>,
}

/// What a construct is for the frontends.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Construct {
    /// `parallel for` / `parallel do`: a parallel loop.
    ParallelLoop,
    /// `for` / `do` (inside a `parallel` region).
    Loop,
    /// `parallel`: a region.
    Parallel,
    /// `end parallel do`, `end do`, `end parallel` (Fortran).
    EndParallelLoop,
    EndLoop,
    EndParallel,
    /// `simd` and `end simd`: vectorisation hints whose serial semantics are the loop's.
    Simd,
    /// `atomic` (an update).
    Atomic,
    /// `critical [(name)]`: a block (C: the statement after it; Fortran: up to its `end
    /// critical`).
    Critical,
    /// `end critical [(name)]` (Fortran).
    EndCritical,
    /// `barrier`: between the worksharing loops of a `parallel` region.
    Barrier,
    /// `parallel sections`: a block of sections.
    ParallelSections,
    /// `section`: one block of a `parallel sections`.
    Section,
    /// `end parallel sections` (Fortran).
    EndParallelSections,
    /// `single` / `master` inside a `parallel` region: a block one thread runs, between
    /// its worksharing loops (C: the statement after it; Fortran: up to its `end`).
    Single,
    /// `end single` / `end master` (Fortran).
    EndSingle,
    /// Anything else.
    Other,
}

/// The construct of a parsed directive.
pub(crate) fn construct(words: &str) -> Construct {
    match words {
        "parallel for" | "parallel do" | "parallel for simd" | "parallel do simd" => {
            Construct::ParallelLoop
        }
        "for" | "do" | "for simd" | "do simd" => Construct::Loop,
        "parallel" => Construct::Parallel,
        "end parallel do" | "end parallel do simd" => Construct::EndParallelLoop,
        "end do" | "end do simd" => Construct::EndLoop,
        "end parallel" => Construct::EndParallel,
        "simd" | "end simd" => Construct::Simd,
        "atomic" | "atomic update" => Construct::Atomic,
        "critical" => Construct::Critical,
        "end critical" => Construct::EndCritical,
        "barrier" => Construct::Barrier,
        "parallel sections" => Construct::ParallelSections,
        "section" => Construct::Section,
        "end parallel sections" => Construct::EndParallelSections,
        "single" | "master" => Construct::Single,
        "end single" | "end master" => Construct::EndSingle,
        _ => Construct::Other,
    }
}

/// Parses the text after the `omp` sentinel. `lookup` resolves a variable name; a name it
/// does not know is an error message.
pub(crate) fn parse(
    text: &str,
    lookup: &mut dyn FnMut(&str) -> Option<SymbolId>,
) -> Result<Parsed, String> {
    let t = text.trim();
    // Construct words: up to the first word followed by `(` or a clause keyword.
    let mut construct = Vec::new();
    let mut name = None;
    let mut rest = t;
    loop {
        let r = rest.trim_start();
        let end = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        let w = &r[..end];
        if w.is_empty() {
            rest = r;
            break;
        }
        let after = r[end..].trim_start();
        let lw = w.to_ascii_lowercase();
        // `critical (name)`: the parenthesis is the construct's name, not a clause.
        if lw == "critical" && matches!(construct.as_slice(), [] | [_]) {
            construct.push(lw);
            rest = after;
            if let Some(a) = rest.strip_prefix('(') {
                let Some((n, r)) = a.split_once(')') else {
                    return Err("unbalanced parentheses after `critical`".into());
                };
                name = Some(n.trim().to_string());
                rest = r;
            }
            continue;
        }
        let clause_word = after.starts_with('(')
            || matches!(lw.as_str(), "nowait" | "untied" | "mergeable" | "ordered");
        if clause_word {
            rest = r;
            break;
        }
        construct.push(lw);
        rest = after;
        // `atomic`'s clause words (`update`) are part of its construct.
        if rest.is_empty() {
            break;
        }
        // Commas may separate clauses.
        rest = rest.trim_start_matches(',');
    }
    let mut clauses = Vec::new();
    let mut r = rest.trim_start();
    while !r.is_empty() {
        r = r.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
        if r.is_empty() {
            break;
        }
        let end = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        let name = r[..end].to_ascii_lowercase();
        if name.is_empty() {
            return Err(format!("cannot read the clauses `{r}`"));
        }
        let after = r[end..].trim_start();
        let (arg, next) = if let Some(a) = after.strip_prefix('(') {
            let mut depth = 1;
            let mut close = None;
            for (i, c) in a.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(i) = close else {
                return Err(format!("unbalanced parentheses in clause `{name}`"));
            };
            (Some(a[..i].trim().to_string()), &a[i + 1..])
        } else {
            (None, after)
        };
        let mut vars = |list: &str| -> Result<Vec<SymbolId>, String> {
            list.split(',')
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())
                .map(|v| {
                    lookup(v).ok_or_else(|| format!("`{v}` in `{name}(…)` is not a variable here"))
                })
                .collect()
        };
        let c = match (name.as_str(), &arg) {
            ("private", Some(a)) => OmpClause::Private(vars(a)?),
            ("firstprivate", Some(a)) => OmpClause::FirstPrivate(vars(a)?),
            ("lastprivate", Some(a)) => OmpClause::LastPrivate(vars(a)?),
            ("shared", Some(a)) => OmpClause::Shared(vars(a)?),
            ("reduction", Some(a)) => {
                let Some((op, list)) = a.split_once(':') else {
                    return Err(format!("`reduction({a})` names no operator"));
                };
                let op = op.trim().to_ascii_lowercase();
                // C array sections (`xb[:n]`, what radtap's own adjoints write) are
                // reductions of their own; the other items one clause.
                let mut plain = Vec::new();
                for item in list.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                    let Some((base, sec)) = item.split_once('[') else {
                        plain.push(item);
                        continue;
                    };
                    let len = sec
                        .trim_end()
                        .strip_suffix(']')
                        .and_then(|x| x.trim().strip_prefix(':'))
                        .map(str::trim)
                        .ok_or_else(|| {
                            format!(
                                "`{item}` in `reduction(…)`: only sections `x[:n]` are supported"
                            )
                        })?;
                    let x = match vars(base)?.as_slice() {
                        [x] => *x,
                        _ => return Err(format!("`{item}` in `reduction(…)` names no variable")),
                    };
                    let len = match len.parse::<u64>() {
                        Ok(n) => OmpLen::Const(n),
                        Err(_) => match vars(len)?.as_slice() {
                            [n] => OmpLen::Var(*n),
                            _ => return Err(format!("`{item}` in `reduction(…)`: the length is one integer variable or constant")),
                        },
                    };
                    clauses.push(OmpClause::ArrayReduction(op.clone(), x, Some(len)));
                }
                if plain.is_empty() {
                    r = next.trim_start();
                    continue;
                }
                OmpClause::Reduction(op, vars(&plain.join(","))?)
            }
            ("collapse", Some(a)) => match a.trim().parse::<u32>() {
                Ok(n) if n >= 1 => OmpClause::Collapse(n),
                _ => return Err(format!("`collapse({a})` needs a constant")),
            },
            ("default", Some(a)) => OmpClause::Default(a.trim().to_ascii_lowercase()),
            ("schedule" | "num_threads" | "if" | "proc_bind", Some(a)) => {
                OmpClause::Other(format!("{name}({a})"))
            }
            ("nowait", None) => OmpClause::Other(name.clone()),
            (_, Some(a)) => return Err(format!("the clause `{name}({a})` is not supported yet")),
            (_, None) => return Err(format!("the clause `{name}` is not supported yet")),
        };
        clauses.push(c);
        r = next.trim_start();
    }
    Ok(Parsed {
        construct: construct.join(" "),
        clauses,
        name,
    })
}

/// Why a construct is refused, for the message at its line.
pub(crate) fn refusal(words: &str) -> String {
    format!(
        "OpenMP `{words}` is not supported yet (radtap differentiates `parallel for` / \
         `parallel do` loops, `parallel` regions whose work is `omp for` / `!$omp do` \
         loops separated by barriers, `single` or `master` blocks between them, `parallel \
         sections`, `atomic` updates and `critical` sections): run it sequentially by removing the \
         directive, or move the parallel work into such a loop"
    )
}

/// A directive waiting for the statement it governs.
pub(crate) struct Pending {
    /// [`Construct::ParallelLoop`], [`Construct::Loop`], [`Construct::Parallel`] or
    /// [`Construct::Atomic`].
    pub(crate) kind: Construct,
    /// Its clauses.
    pub(crate) clauses: Vec<OmpClause>,
    /// Where it is.
    pub(crate) span: radtap_il::Span,
    /// The construct as written, for messages.
    pub(crate) words: String,
    /// The name of a `critical (name)`.
    pub(crate) name: Option<String>,
}

/// The clauses of a region and of its one loop, as one parallel loop's: `nowait` dropped
/// (the region ends with the loop), the region's private declarations added.
pub(crate) fn fuse(
    region: Vec<OmpClause>,
    inner: Vec<OmpClause>,
    declared: Vec<SymbolId>,
) -> Vec<OmpClause> {
    let mut out: Vec<OmpClause> = region
        .into_iter()
        .chain(inner)
        .filter(|c| !matches!(c, OmpClause::Other(t) if t == "nowait"))
        .collect();
    if !declared.is_empty() {
        out.push(OmpClause::Private(declared));
    }
    out
}

/// Whether a `default(…)` clause keeps the serial meaning of the names it does not list
/// (`shared`, `none`): it is then dropped (the derivatives' clauses list what they need).
pub(crate) fn keep_default(clauses: &mut Vec<OmpClause>) -> Result<(), String> {
    for c in clauses.iter() {
        if let OmpClause::Default(d) = c {
            if d != "shared" && d != "none" {
                return Err(format!(
                    "`default({d})` is not supported yet (list the private variables)"
                ));
            }
        }
    }
    clauses.retain(|c| !matches!(c, OmpClause::Default(_)));
    Ok(())
}

/// Why a `single` / `master` block with clauses `clauses` inside a `parallel` region is
/// refused, if it is: it becomes sequential code between the region's parallel loops, which
/// is what it computes when no clause but `nowait` changes that (a race-free program reads
/// nothing of it in the other threads before a barrier).
pub(crate) fn single_refusal(words: &str, clauses: &[OmpClause]) -> Option<String> {
    let other = clauses
        .iter()
        .any(|c| !matches!(c, OmpClause::Other(t) if t == "nowait"));
    other.then(|| {
        format!("`{words}` with clauses other than `nowait` (`copyprivate`, `private`, `firstprivate`) is not supported yet")
    })
}

/// Why the `single` / `master` block `b` of a `parallel` region is refused, if it is: it
/// names a private variable of the region (`privates`), whose copy on the thread that runs
/// the block means nothing once the block is sequential code.
pub(crate) fn single_uses_private(
    u: &radtap_il::UnitData,
    b: radtap_il::StmtId,
    privates: &[SymbolId],
) -> Option<SymbolId> {
    let mut all = Vec::new();
    radtap_il::omp::stmts_below(u, &[b], &mut all);
    let mut todo = Vec::new();
    for s in all {
        radtap_il::visit::stmt_children(&u.stmts[s].kind, &mut |e| todo.push(e), &mut |_| {});
    }
    while let Some(e) = todo.pop() {
        if let radtap_il::Expr::Name(x) = u.exprs[e] {
            if privates.contains(&x) {
                return Some(x);
            }
        }
        radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    None
}
