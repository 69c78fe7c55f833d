//! # radtap: source-to-source automatic differentiation for Fortran and C
//!
//! This crate is the command line. The pipeline it shares with the web submission service
//! (DESIGN.md, "Web submission service"; crate `radtap-web`, which `radtap serve` starts and
//! whose result page `-html` writes) is the crate `radtap-pipeline`, re-exported here as
//! [`pipeline`]: it could not stay here, as `radtap-web` cannot depend on this package
//! (docs/decisions.md). It is a chain of plain functions over in-memory data: a [`pipeline::Request`] holds the sources as
//! (name, content) pairs, the head, the variables, the modes and the differentiation options;
//! a [`pipeline::Response`] holds the generated files as (file name, content) pairs, the
//! diagnostics (rendered to text by [`render_diagnostics`]), and why a request stopped.
//! The stages:
//!
//! 1. [`pipeline::check_request`] — the request makes sense: some mode, a head where one is
//!    needed; warnings about unknown `-nooptim` names.
//! 2. [`pipeline::parse`] — the frontends (`radtap-frontends`) lower every source into one IL
//!    program (`radtap-il`), which the IL verifier checks.
//! 3. [`pipeline::check`] — the heads and `-vars`/`-outvars` name procedures and variables of
//!    the program (`-head`'s grammar is in the pipeline's `head.rs`).
//! 4. [`pipeline::analyse`] — the data-flow analyses of the heads (`radtap-dataflow`).
//!    Stages 2–4 are [`pipeline::front`], which stops a request on any error.
//! 5. [`pipeline::generate`] — each requested mode through the generators
//!    (`radtap-diff-tangent` for tangent and vector modes, `radtap-diff-adjoint` for the
//!    adjoint) and the unparsers (`radtap-unparse`): [`pipeline::tangent`],
//!    [`pipeline::adjoint`], [`pipeline::primal`]; or [`pipeline::dump_il`] and
//!    [`pipeline::dump_analysis`] instead of files.
//!
//! The web service calls [`pipeline::run`] (stages 1–5 without the dumps) with the files of
//! the submission: no argument parsing, no terminal, no file system. The command line calls
//! the same stages one by one (`commands.rs`): it reads the input files into the request,
//! creates the output directory before stage 5 (only once the input is known to be clean),
//! writes the files, and is the only place that prints to the terminal and turns diagnostics
//! into exit statuses: 0 success (warnings allowed), 1 error in the input, 2 bad command line,
//! 3 internal error (and 4, 5 for `radtap validate`, `validate.rs`).
//!
//! Files and who names whom (no cycles): this file dispatches the commands and names the
//! modules below; `commands.rs` names `cli.rs` and `outcome.rs` (and the crates
//! `radtap-pipeline` and `radtap-web`); `validate.rs` names `cli.rs` and `outcome.rs` (it is
//! handed [`execute`] to differentiate).

mod cli;
mod commands;
mod outcome;
mod validate;

pub use cli::{command_help, normalize_args, Cli};
pub use outcome::Outcome;
/// The pipeline (crate `radtap-pipeline`), under the name it had when it lived here.
pub use radtap_pipeline as pipeline;
pub use radtap_pipeline::{parse_head, parse_heads, render_diagnostics, HeadSpec};

pub use radtap_pipeline::STACK_BYTES;

/// Runs the command line; prints diagnostics; returns the exit status.
pub fn run(cli: &Cli) -> u8 {
    let o = execute(cli);
    print!("{}", o.dump);
    eprint!("{}", o.stderr);
    o.status
}

/// Runs the command line without printing: the testable core of the CLI. Dispatches to the
/// command: `runtime -O DIR`, `validate …`, `serve …` (returns when the service stops),
/// `--explain CODE`, or the differentiation.
pub fn execute(cli: &Cli) -> Outcome {
    // Tapenade's options first: a refused one stops every command (exit status 2); the
    // warnings of those without effect are said once (validate's nested runs get none).
    let mut notes = String::new();
    match cli::tapenade_options(cli) {
        Ok(warnings) => {
            for w in warnings {
                notes.push_str(&format!("radtap: warning: {w}\n"));
            }
        }
        Err(e) => {
            return Outcome {
                status: 2,
                stderr: format!("radtap: error: {e}\n"),
                ..Outcome::default()
            }
        }
    }
    let mut o = dispatch(cli);
    o.stderr.insert_str(0, &notes);
    o
}

/// The command a parsed command line names.
fn dispatch(cli: &Cli) -> Outcome {
    if cli.files.len() == 1 && cli.files[0].as_os_str() == "runtime" {
        return commands::runtime(cli);
    }
    if cli
        .files
        .first()
        .is_some_and(|f| f.as_os_str() == "validate")
    {
        // Validation differentiates through this dispatcher, as a nested command line.
        return validate::run(cli, execute);
    }
    if cli.files.first().is_some_and(|f| f.as_os_str() == "serve") {
        return commands::serve(cli);
    }
    if let Some(code) = &cli.explain {
        return commands::explain(code);
    }
    commands::differentiate(cli)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The web service's promise (DESIGN.md): the pipeline's files are byte-identical to the
    /// command line's.
    #[test]
    fn the_pipeline_gives_the_files_the_command_line_writes() {
        let dir = std::env::temp_dir().join(format!("radtap-lib-{}", std::process::id()));
        let file = "examples/heat.f90";
        let cli = Cli {
            tangent: true,
            reverse: true,
            primal: true,
            head: Some("heat_step".into()),
            vars: Some("u".into()),
            outvars: Some("cost".into()),
            outdir: Some(dir.clone()),
            files: vec![PathBuf::from(file)],
            ..Cli::default()
        };
        let o = execute(&cli);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let req = pipeline::Request {
            sources: vec![(file.into(), std::fs::read_to_string(file).expect("example"))],
            head: cli.head.clone(),
            vars: cli.vars.clone(),
            outvars: cli.outvars.clone(),
            modes: pipeline::Modes {
                primal: true,
                tangent: true,
                adjoint: true,
                ..pipeline::Modes::default()
            },
            ..pipeline::Request::default()
        };
        let r = pipeline::run(&req);
        assert_eq!(r.failure, None);
        let written: Vec<(PathBuf, String)> = r
            .files
            .into_iter()
            .map(|(name, text)| (dir.join(name), text))
            .collect();
        assert_eq!(written, o.written);
    }
}
