//! `radtap validate`: differentiate in tangent and adjoint mode (or take the user's files with
//! `-derivatives DIR`), then let `radtap-validation` build a driver and check the numbers.
//! When a check fails on generated files, each optimization that `-nooptim` can turn off is
//! turned off in turn, to say which one makes the difference.
//!
//! Exit status: 0 every check passes, 4 a check failed, 5 inconclusive (divided differences
//! that do not converge, or a tangent that is zero everywhere, and no failed check), 1
//! validation could not run (input error, values that are not finite, no compiler, a head
//! that cannot be sized, a compile failure, a crash or time-out), 2 bad command line.
//!
//! The differentiation goes through the command line's dispatcher, which is handed in
//! ([`Execute`]) rather than named: the dispatcher names this module.

use crate::cli::Cli;
use crate::outcome::Outcome;
use radtap_validation::{Derivative, Error, Job, Report, Sizes, Status, Toolchain};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Exit status of a validation whose checks ran and failed.
pub(crate) const CHECK_FAILED: u8 = 4;
/// Exit status of a validation whose divided differences prove nothing (they do not
/// converge, or the tangent is zero everywhere) while no check failed.
pub(crate) const INCONCLUSIVE: u8 = 5;

/// The command line's entry point (`execute` in lib.rs), which runs a nested command line.
pub(crate) type Execute = fn(&Cli) -> Outcome;

/// A fresh build directory under the system's temporary directory.
fn temp_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "radtap-validate-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Generated (or user) derivative files and radtap's description of them.
struct Generated {
    outcome: Outcome,
    tangent: PathBuf,
    adjoint: PathBuf,
}

/// Runs radtap -d -b (-d alone without `adjoint`) into `dir` with the differentiation options
/// of `cli`.
fn generate(
    execute: Execute,
    cli: &Cli,
    files: &[PathBuf],
    dir: &Path,
    nooptim: &[String],
    adjoint: bool,
) -> Generated {
    let mut sub = cli.clone();
    sub.files = files.to_vec();
    sub.tangent = true;
    sub.reverse = adjoint;
    sub.vector = false;
    sub.primal = false;
    sub.dump_il = false;
    sub.dump_analysis = false;
    sub.outdir = Some(dir.to_path_buf());
    sub.nooptim = nooptim.to_vec();
    sub.tapenade_option.clear();
    let o = execute(&sub);
    // The output names of DESIGN.md: STEM_d.EXT and STEM_b.EXT.
    let stem = cli.stem.clone().unwrap_or_else(|| {
        files[0]
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned())
    });
    let find = |suffix: &str| {
        let want = format!("{stem}{suffix}");
        o.written
            .iter()
            .map(|(p, _)| p.clone())
            .find(|p| p.file_stem().is_some_and(|s| s.to_string_lossy() == want))
            .unwrap_or_default()
    };
    let (tangent, adjoint) = (find("_d"), find("_b"));
    Generated {
        outcome: o,
        tangent,
        adjoint,
    }
}

/// `radtap validate …`; `execute` runs the differentiation.
pub(crate) fn run(cli: &Cli, execute: Execute) -> Outcome {
    let mut out = Outcome::default();
    let files: Vec<PathBuf> = cli.files[1..].to_vec();
    let usage = |out: &mut Outcome, m: &str| {
        out.stderr
            .push_str(&format!("radtap validate: error: {m}\n"));
        out.status = 2;
    };
    if files.is_empty() {
        usage(
            &mut out,
            "no input files (radtap validate -head f -vars x -outvars y -size n=10 f.f90)",
        );
        return out;
    }
    if cli.head.is_none() {
        usage(&mut out, "-head is required (e.g. -head f)");
        return out;
    }
    if cli.tangent || cli.reverse || cli.primal || cli.vector {
        usage(
            &mut out,
            "validate checks both the tangent and the adjoint: leave out -d, -b, -p and -vector",
        );
        return out;
    }
    let sizes = match Sizes::parse(&cli.size) {
        Ok(s) => s,
        Err(e) => {
            usage(&mut out, &e);
            return out;
        }
    };
    let mut values = Vec::new();
    for v in &cli.value {
        match v.split_once('=') {
            Some((k, x)) if !k.trim().is_empty() && !x.trim().is_empty() => {
                values.push((k.trim().to_ascii_lowercase(), x.trim().to_string()))
            }
            _ => {
                usage(
                    &mut out,
                    &format!("-value `{v}`: expected NAME=NUMBER (e.g. -value alpha=0.2)"),
                );
                return out;
            }
        }
    }
    // The build runs its compilers inside `dir` on paths under `dir`: a relative `-keep kk`
    // would name `kk/kk/…` there.
    let dir = match cli.keep.clone().map(std::path::absolute) {
        Some(Ok(d)) => d,
        Some(Err(e)) => {
            usage(&mut out, &format!("-keep: {e}"));
            return out;
        }
        None => temp_dir(),
    };
    let generated_dir = dir.join("generated");
    let mut g = generate(execute, cli, &files, &generated_dir, &cli.nooptim, true);
    out.stderr.push_str(&g.outcome.stderr);
    // An adjoint refused still leaves the tangent to check (NLopt's heads, LAPACK's dgesv).
    let mut adjoint_refused = false;
    // Why the adjoint is refused: the first error of its differentiation, without the
    // source excerpt (`file:line:col: error[CODE]: message`).
    let mut refusal = String::new();
    if g.outcome.status != 0 {
        refusal = g
            .outcome
            .stderr
            .lines()
            .find(|l| l.contains(": error[") || l.contains("error:"))
            .unwrap_or("")
            .trim()
            .to_string();
        let _ = std::fs::remove_dir_all(&generated_dir);
        let t = generate(execute, cli, &files, &generated_dir, &cli.nooptim, false);
        if t.outcome.status != 0 {
            out.stderr
                .push_str("radtap validate: the differentiation failed; nothing to validate\n");
            out.status = g.outcome.status;
            let _ = std::fs::remove_dir_all(&dir);
            return out;
        }
        out.stderr.push_str(
            "radtap validate: the adjoint is refused (above): the tangent alone is checked\n",
        );
        adjoint_refused = true;
        g = t;
    }
    let adj = g.outcome.adjoint.as_ref();
    let Some(tan) = &g.outcome.tangent else {
        out.stderr
            .push_str("radtap validate: error: the differentiation produced no output\n");
        out.status = 3;
        if cli.keep.is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        return out;
    };
    // The files to check: generated, or the user's.
    let (tfile, afile, note) = match &cli.derivatives {
        None if adjoint_refused => (
            g.tangent.clone(),
            None,
            Some(format!(
                "adjoint refused: {}\nnote: the dot-product test is not run\n",
                if refusal.is_empty() {
                    "(see the errors above)"
                } else {
                    &refusal
                }
            )),
        ),
        None => (g.tangent.clone(), Some(g.adjoint.clone()), None),
        Some(d) => {
            let name = |p: &Path| d.join(p.file_name().unwrap_or_default());
            let (t, a) = (name(&g.tangent), name(&g.adjoint));
            if !t.exists() {
                out.stderr.push_str(&format!(
                    "radtap validate: error: -derivatives {}: no tangent file {} (the names follow -o STEM: STEM_d.EXT, STEM_b.EXT)\n",
                    d.display(),
                    t.display()
                ));
                out.status = 1;
                if cli.keep.is_none() {
                    let _ = std::fs::remove_dir_all(&dir);
                }
                return out;
            }
            let note = (!a.exists()).then(|| {
                format!(
                    "note: no adjoint file {} in {}: the dot-product test is not run\n",
                    a.file_name().unwrap_or_default().to_string_lossy(),
                    d.display()
                )
            });
            let a = a.exists().then_some(a);
            (t, a, note)
        }
    };
    let mut toolchain = Toolchain::new(
        cli.cflags.as_deref(),
        cli.fflags.as_deref(),
        Duration::from_secs(cli.timeout.unwrap_or(60)),
    );
    // The user's headers, which the generated files include: beside the sources, then in
    // the `-I` directories, as radtap read them.
    for d in cli
        .files
        .iter()
        .map(|f| f.parent().unwrap_or(Path::new("")).to_path_buf())
        .chain(cli.include.iter().cloned())
    {
        let d = if d.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            d
        };
        let abs = d.canonicalize().unwrap_or(d);
        if !toolchain.include.contains(&abs) {
            toolchain.include.push(abs);
        }
    }
    // The sources compile as radtap preprocessed them.
    toolchain
        .cflags
        .extend(cli.define.iter().map(|d| format!("-D{d}")));
    toolchain
        .cflags
        .extend(cli.undef.iter().map(|u| format!("-U{u}")));
    // OpenMP code compiles with `-fopenmp` and runs with 1 and 2 threads (issue 45).
    toolchain.openmp = tan
        .program
        .units
        .iter()
        .any(|(_, u)| u.stmts.iter().any(|(_, st)| st.omp.is_some()));
    // A program calling BLAS that radtap describes built in links the system's.
    let mpi = |d: &radtap_il::library::Description| radtap_il::library::is_mpi(d);
    if tan.program.described.values().any(|d| d.builtin && !mpi(d)) {
        toolchain.libs.push("-lblas".into());
    }
    // An MPI program (issue 46) builds with mpicc and runs its drivers under mpirun.
    if cli.np.is_some() || tan.program.described.values().any(mpi) {
        toolchain = toolchain.with_mpi(cli.np.unwrap_or(2).max(1));
    }
    let seed = cli.seed.unwrap_or(1);
    let mut sources = files.clone();
    sources.extend(cli.link.iter().cloned());
    let mut job = Job {
        sources,
        tangent: Derivative {
            output: tan,
            file: tfile,
        },
        adjoint: afile
            .zip(adj)
            .map(|(file, output)| Derivative { output, file }),
        sizes: sizes.clone(),
        values: values.clone(),
        seed,
        toolchain: toolchain.clone(),
        dir: dir.clone(),
    };
    // -context: the values of the main program's first call, under the user's -value.
    let mut context_note = None;
    // -context: rank-1 assumed-size dummies (`X(*)`, F66 `X(1)`) sized from the calls of
    // the head (the declared size of the actual arrays), under the user's -size.
    let mut called = Vec::new();
    if cli.context {
        if let Some(i) = tan.interfaces.first() {
            called = radtap_validation::calls::extents_from_calls(&tan.program, i.head)
                .into_iter()
                .filter(|(k, _)| !sizes.0.iter().any(|(n, _)| n == k))
                .collect();
            let mut all = called.clone();
            all.extend(sizes.0.iter().cloned());
            job.sizes = Sizes(all);
        }
    }
    let result = match cli.context {
        true => radtap_validation::context::capture(&job).map(|captured| {
            let shown: Vec<String> = captured
                .iter()
                .map(|(k, v)| match v.matches(',').count() {
                    0 => format!("{k}={v}"),
                    n => format!("{k}=({} values)", n + 1),
                })
                .collect();
            let sized: Vec<String> = called
                .iter()
                .map(|(k, v)| format!(" -size {k}={v}"))
                .collect();
            let sized = if sized.is_empty() {
                String::new()
            } else {
                format!(
                    "\nsizes from the arrays the calls pass (-context):{}",
                    sized.concat()
                )
            };
            context_note = Some(format!(
                "inputs from the main program's first call (-context): {}{sized}\n",
                shown.join(" ")
            ));
            let mut all = captured;
            all.extend(values.iter().cloned());
            job.values = all;
        }),
        false => Ok(()),
    };
    let report = match result.and_then(|()| radtap_validation::validate(&job)) {
        Ok(r) => r,
        Err(e) => {
            out.stderr
                .push_str(&format!("radtap validate: error: {e}\n"));
            if matches!(e, Error::Compile { .. } | Error::Run { .. }) {
                out.stderr.push_str(&format!(
                    "radtap validate: the driver, the generated files and the build are in {}\n",
                    dir.display()
                ));
            } else if cli.keep.is_none() {
                let _ = std::fs::remove_dir_all(&dir);
            }
            out.status = if matches!(e, Error::Usage(_)) { 2 } else { 1 };
            return out;
        }
    };
    let shown = |p: &Path| match &cli.derivatives {
        Some(_) => p.display().to_string(),
        None => p
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into_owned()),
    };
    out.dump.push_str(&format!(
        "radtap validate: {}, tangent {}, adjoint {}\n",
        report.head,
        shown(&job.tangent.file),
        job.adjoint
            .as_ref()
            .map_or("none".into(), |a| shown(&a.file))
    ));
    for w in &report.warnings {
        out.stderr
            .push_str(&format!("radtap validate: warning: {w}\n"));
    }
    if let Some(n) = &context_note {
        out.dump.push_str(n);
    }
    out.dump.push_str(&report.render());
    if adjoint_refused && out.dump.ends_with("PASS\n") {
        out.dump.truncate(out.dump.len() - "PASS\n".len());
        out.dump
            .push_str("PASS (the tangent only: the adjoint is refused)\n");
    }
    if let Some(n) = note {
        out.dump.push_str(&n);
    }
    let quoted = |v: &[&str]| {
        v.iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let inputs = tan
        .interfaces
        .first()
        .map(|i| i.independents.join(" "))
        .unwrap_or_default();
    let suggest = format!(
        "give realistic inputs with -value NAME=NUMBER (on the independents {inputs}, or on any other input: e.g. a stable time step or coefficient)"
    );
    let verdict = report.verdict();
    if verdict == Status::NonFinite {
        out.status = 1;
        let bad = report.with_status(Status::NonFinite);
        let what = if bad.is_empty() {
            "the dot-product test's sums are".to_string()
        } else {
            format!(
                "{} {}",
                quoted(&bad),
                if bad.len() > 1 { "are" } else { "is" }
            )
        };
        out.stderr.push_str(&format!(
            "radtap validate: error: {what} not finite (inf or NaN) at the inputs the driver drew: the computation overflows there, which says nothing about the derivative; {suggest}\n",
        ));
    } else if verdict == Status::Inconclusive {
        out.status = INCONCLUSIVE;
        let inc = report.with_status(Status::Inconclusive);
        if !inc.is_empty() {
            out.stderr.push_str(&format!(
                "radtap validate: the tangent of {} could not be checked at these inputs: its divided differences do not converge (Ridders' extrapolation over decreasing steps), or the tangent itself varies inside the step; the function is not smooth there at any step the arithmetic allows (overflowing growth, oscillation, a kink): this is not a failure of the derivative; {suggest}\n",
                quoted(&inc)
            ));
        }
        if report.zero_tangent() {
            out.stderr.push_str(&format!(
                "radtap validate: the tangent is zero on every dependent: they do not depend on the independents at these inputs, so nothing is proven; {suggest}\n"
            ));
        }
        if report.dot.as_ref().is_some_and(|d| d.pass()) {
            out.stderr.push_str(
                "radtap validate: the adjoint passes the dot-product test (it needs no step)\n",
            );
        }
    }
    if verdict == Status::Fail {
        out.status = CHECK_FAILED;
        let failing = report.failing_dependents();
        if !failing.is_empty() {
            out.stderr.push_str(&format!(
                "radtap validate: the tangent of {} differs from divided differences\n",
                failing
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(d) = report.dot.as_ref().filter(|d| !d.pass()) {
            let failing = d.failing();
            if failing.is_empty() {
                out.stderr
                    .push_str("radtap validate: the adjoint fails the dot-product test\n");
            } else {
                out.stderr.push_str(&format!(
                    "radtap validate: the adjoint fails the dot-product test for {}\n",
                    failing
                        .iter()
                        .map(|f| format!("`{f}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if d.stack_after != 0.0 {
                out.stderr.push_str(&format!(
                    "radtap validate: {} bytes are left on the runtime stack after the adjoint returns: a push without its pop\n",
                    d.stack_after
                ));
            }
        }
        if cli.derivatives.is_none() {
            out.dump
                .push_str(&bisect(execute, cli, &files, &dir, &job, &report));
        }
    }
    // The tangent's verdict stands; a refused adjoint is still an input error.
    if adjoint_refused && out.status == 0 {
        out.status = 1;
    }
    if cli.keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        out.stderr.push_str(&format!(
            "radtap validate: the driver and the build are kept in {}\n",
            dir.display()
        ));
    }
    out
}

/// What a rerun with one more optimization turned off gave.
#[derive(Clone, Debug, PartialEq)]
enum Trial {
    Pass,
    /// Still failing; `true` when the same dependents fail.
    Fail(bool),
    /// The differentiation or the validation could not run.
    Broken(String),
}

/// Turns off each candidate optimization in turn (skipping those already off) until `trial`
/// passes; returns the log and the optimization that makes the difference, if any.
fn bisect_with(
    candidates: impl IntoIterator<Item = &'static str>,
    already_off: &[String],
    mut trial: impl FnMut(&str) -> Trial,
) -> (String, Option<&'static str>) {
    let mut s = String::from("bisecting through -nooptim:\n");
    let mut culprit = None;
    for opt in candidates {
        if radtap_pipeline::optim::lookup(opt).is_some_and(|r| r.optim.off(already_off)) {
            continue;
        }
        match trial(opt) {
            Trial::Pass => {
                s.push_str(&format!("  -nooptim {opt}: PASS\n"));
                culprit = Some(opt);
                break;
            }
            Trial::Fail(same) => s.push_str(&format!(
                "  -nooptim {opt}: {}\n",
                if same {
                    "still FAIL"
                } else {
                    "FAIL differently"
                }
            )),
            Trial::Broken(e) => s.push_str(&format!("  -nooptim {opt}: could not run ({e})\n")),
        }
    }
    match culprit {
        Some(o) => s.push_str(&format!(
            "the {o} optimization makes the difference: use -nooptim {o} until it is fixed, and please report this program\n"
        )),
        None => s.push_str(
            "no single optimization makes the difference: the fault is in the differentiation itself\n",
        ),
    }
    (s, culprit)
}

/// Reruns the checks with each optimization of [`BISECT`] turned off in turn.
fn bisect(
    execute: Execute,
    cli: &Cli,
    files: &[PathBuf],
    dir: &Path,
    job: &Job<'_>,
    failed: &Report,
) -> String {
    bisect_with(radtap_pipeline::optim::bisected(), &cli.nooptim, |opt| {
        let mut no = cli.nooptim.clone();
        no.push(opt.to_string());
        let sub = dir.join(format!("nooptim-{opt}"));
        let g = generate(
            execute,
            cli,
            files,
            &sub.join("generated"),
            &no,
            job.adjoint.is_some(),
        );
        let Some(tan) = &g.outcome.tangent else {
            return Trial::Broken("the differentiation fails".into());
        };
        let adj = g.outcome.adjoint.as_ref();
        if g.outcome.status != 0 || (job.adjoint.is_some() && adj.is_none()) {
            return Trial::Broken("the differentiation fails".into());
        }
        let j = Job {
            sources: job.sources.clone(),
            tangent: Derivative {
                output: tan,
                file: g.tangent.clone(),
            },
            adjoint: adj.map(|output| Derivative {
                output,
                file: g.adjoint.clone(),
            }),
            sizes: job.sizes.clone(),
            values: job.values.clone(),
            seed: job.seed,
            toolchain: job.toolchain.clone(),
            dir: sub,
        };
        match radtap_validation::validate(&j) {
            Ok(r) if r.pass() => Trial::Pass,
            Ok(r) => Trial::Fail(r.failing_dependents() == failed.failing_dependents()),
            Err(e) => Trial::Broken(e.to_string()),
        }
    })
    .0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bisection_names_the_first_optimization_whose_removal_passes() {
        let mut tried = Vec::new();
        let (log, c) = bisect_with(["tbr", "diffliveness"], &[], |o| {
            tried.push(o.to_string());
            if o == "diffliveness" {
                Trial::Pass
            } else {
                Trial::Fail(true)
            }
        });
        assert_eq!(c, Some("diffliveness"));
        assert_eq!(tried, ["tbr", "diffliveness"]);
        assert!(log.contains("-nooptim tbr: still FAIL"), "{log}");
        assert!(
            log.contains("the diffliveness optimization makes the difference"),
            "{log}"
        );
    }

    #[test]
    fn bisection_skips_what_is_off_and_reports_no_culprit() {
        let mut tried = Vec::new();
        let (log, c) = bisect_with(["tbr", "diffliveness"], &["TBR".into()], |o| {
            tried.push(o.to_string());
            Trial::Broken("x".into())
        });
        assert_eq!(c, None);
        assert_eq!(tried, ["diffliveness"]);
        assert!(log.contains("no single optimization"), "{log}");
        let (_, c) = bisect_with(["tbr"], &["everyoptim".into()], |_| Trial::Pass);
        assert_eq!(c, None);
    }
}
