//! The commands of the command line other than `validate`: [`differentiate`] (the pipeline
//! over files), [`runtime`] and [`explain`]. This is where the file system and the terminal's
//! conventions meet the pipeline: input files are read here, the output directory is created
//! and the files written here, and a [`Failure`] becomes a message and an exit status.

use crate::cli::Cli;
use crate::outcome::Outcome;
use crate::pipeline::{self, DiffOptions, Failure, Modes, Request};
use radtap_il::{Code, Diagnostic};
use std::path::{Path, PathBuf};

/// `radtap [modes] -head … FILE…`: maps the command line to a [`Request`], runs the stages
/// and writes the files. Every requested mode is generated first; files are written only when
/// all succeeded.
pub(crate) fn differentiate(cli: &Cli) -> Outcome {
    let mut out = Outcome::default();
    if cli.files.is_empty() {
        let f = Failure::Usage("no input files (try `radtap --help`)".into());
        return failed(out, &f);
    }
    // The sources are read once the request is known to make sense.
    let mut req = request(cli);
    match pipeline::check_request(&req) {
        Ok(warnings) => {
            for w in warnings {
                out.stderr.push_str(&format!("radtap: warning: {w}\n"));
            }
        }
        Err(f) => return failed(out, &f),
    }
    (req.sources, req.unreadable) = read_sources(&cli.files);
    let analysed = pipeline::front(&req);
    out.stderr.push_str(&pipeline::render_diagnostics(
        &analysed.diagnostics,
        &analysed.program,
        &req.sources,
    ));
    if let Some(f) = analysed.failure() {
        return failed(out, &f);
    }
    if req.modes.dump_il {
        out.stderr.push_str(&pipeline::dump_il(&analysed));
        return out;
    }
    if req.modes.dump_analysis {
        out.dump = pipeline::dump_analysis(&analysed, &req.sources);
        return out;
    }
    let dir = cli.outdir.clone().unwrap_or_else(|| PathBuf::from("."));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        out.stderr.push_str(&format!(
            "radtap: error[AD001]: cannot create output directory {}: {e}\n",
            dir.display()
        ));
        out.status = 1;
        return out;
    }
    let shown = analysed.diagnostics.len();
    let r = pipeline::generate(&req, analysed);
    out.stderr.push_str(&pipeline::render_diagnostics(
        &r.diagnostics[shown..],
        &r.program,
        &req.sources,
    ));
    out.tangent = r.tangent;
    out.adjoint = r.adjoint;
    match r.failure {
        Some(f) => failed(out, &f),
        None => write_files(out, &dir, r.files),
    }
}

/// The request of a command line, without its sources ([`read_sources`] reads them).
fn request(cli: &Cli) -> Request {
    Request {
        sources: Vec::new(),
        unreadable: Vec::new(),
        head: cli.head.clone(),
        vars: cli.vars.clone(),
        outvars: cli.outvars.clone(),
        modes: Modes {
            primal: cli.primal,
            tangent: cli.tangent,
            vector: cli.vector,
            adjoint: cli.reverse,
            dump_il: cli.dump_il,
            dump_analysis: cli.dump_analysis,
        },
        options: DiffOptions {
            stem: cli.stem.clone(),
            nbdirsmax: cli.nbdirsmax,
            fixinterface: cli.fixinterface,
            nocheckpoint: cli.nocheckpoint,
            nooptim: cli.nooptim.clone(),
            size: cli.size.clone(),
            tgtvarname: cli.tgtvarname.clone(),
            tgtfuncname: cli.tgtfuncname.clone(),
            adjvarname: cli.adjvarname.clone(),
            adjfuncname: cli.adjfuncname.clone(),
        },
    }
}

/// Reads the input files as (path as given, text). A missing or non-UTF-8 file is a user
/// error (AD001), reported with the others: the other files are still parsed.
fn read_sources(files: &[PathBuf]) -> (Vec<(String, String)>, Vec<Diagnostic>) {
    let mut sources = Vec::new();
    let mut unreadable = Vec::new();
    for f in files {
        let path = f.to_string_lossy().into_owned();
        match std::fs::read(f) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => sources.push((path, text)),
                Err(e) => unreadable.push(Diagnostic::global(Code::Io, not_utf8(&path, &e))),
            },
            Err(e) => unreadable.push(Diagnostic::global(
                Code::Io,
                format!("{path}: cannot read: {e}"),
            )),
        }
    }
    (sources, unreadable)
}

/// AD001's message for a file that is not UTF-8, located at the first offending byte
/// (`f.f90:3:12`, the column in characters) so that one stray Latin-1 `é` can be found.
fn not_utf8(path: &str, e: &std::string::FromUtf8Error) -> String {
    let bytes = e.as_bytes();
    let at = e.utf8_error().valid_up_to();
    let good = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
    let line = good.matches('\n').count() + 1;
    let col = good.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!(
        "{path}:{line}:{col}: not UTF-8 text (byte 0x{:02x}); save the file as UTF-8 \
         (`iconv -f latin1 -t utf-8`)",
        bytes[at]
    )
}

/// Writes the generated files into `dir`, in order, stopping at the first that fails (AD001).
fn write_files(mut out: Outcome, dir: &Path, files: Vec<(String, String)>) -> Outcome {
    for (name, text) in files {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, &text) {
            out.stderr.push_str(&format!(
                "radtap: error[AD001]: cannot write {}: {e}\n",
                path.display()
            ));
            out.status = 1;
            return out;
        }
        out.written.push((path, text));
    }
    out
}

/// Reports why the pipeline stopped, with the exit status of DESIGN.md: 2 a bad command
/// line, 1 errors in the input, 3 an internal error.
fn failed(mut out: Outcome, f: &Failure) -> Outcome {
    match f {
        Failure::Usage(m) => {
            out.stderr.push_str(&format!("radtap: error: {m}\n"));
            out.status = 2;
        }
        Failure::Errors { count, internal } => {
            out.stderr.push_str(&format!(
                "radtap: {count} error{} found; nothing written\n",
                if *count == 1 { "" } else { "s" }
            ));
            out.status = if *internal { 3 } else { 1 };
        }
    }
    out
}

/// `radtap runtime -O DIR`: writes the runtime adjoint code links against.
pub(crate) fn runtime(cli: &Cli) -> Outcome {
    let mut out = Outcome::default();
    let dir = cli.outdir.clone().unwrap_or_else(|| PathBuf::from("."));
    match radtap_runtime_stack::write_to(&dir) {
        Ok(paths) => {
            for p in paths {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                out.written.push((p, text));
            }
            out.stderr.push_str(&format!(
                "radtap: runtime written to {} (compile adStack.c with your adjoint code)\n",
                dir.display()
            ));
        }
        Err(e) => {
            out.stderr.push_str(&format!(
                "radtap: error[AD001]: cannot write the runtime to {}: {e}\n",
                dir.display()
            ));
            out.status = 1;
        }
    }
    out
}

/// `radtap --explain CODE`: what a diagnostic code means; an unknown code lists them all.
pub(crate) fn explain(code: &str) -> Outcome {
    let mut out = Outcome::default();
    match Code::ALL
        .iter()
        .find(|c| c.as_str().eq_ignore_ascii_case(code))
    {
        Some(c) => out.stderr.push_str(&format!(
            "{}: {}\n\n{}\n",
            c.as_str(),
            c.describe(),
            c.explain()
        )),
        None => {
            out.stderr.push_str(&format!(
                "radtap: unknown diagnostic code `{code}`; codes are:\n"
            ));
            for c in Code::ALL {
                out.stderr
                    .push_str(&format!("  {}  {}\n", c.as_str(), c.describe()));
            }
            out.status = 2;
        }
    }
    out
}
