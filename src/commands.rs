//! The commands of the command line other than `validate`: [`differentiate`] (the pipeline
//! over files, and `-html`), [`runtime`], [`explain`] and [`serve`] (the web service). This is where the file system and the terminal's
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
    let (ext, unreadable_ext) = read_sources(&cli.ext);
    req.options.ext = ext;
    req.unreadable.extend(unreadable_ext);
    let (headers, missing) = read_headers(&req.sources, &req.options.preprocessor);
    req.headers = headers;
    req.unreadable.extend(missing);
    let analysed = pipeline::front(&req);
    out.stderr.push_str(&pipeline::render_diagnostics(
        &analysed.diagnostics,
        &analysed.program,
        &req.texts(),
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
        &req.texts(),
    ));
    let html = (cli.html && r.failure.is_none()).then(|| html_page(cli, &req, &r));
    out.tangent = r.tangent;
    out.adjoint = r.adjoint;
    match r.failure {
        Some(f) => failed(out, &f),
        None => write_files(out, &dir, r.files.into_iter().chain(html).collect()),
    }
}

/// `-html`: `STEM.html`, the service's result page for this run (the generated files beside
/// the sources, coloured, the diagnostics linked to their lines, the zip inside).
fn html_page(cli: &Cli, req: &Request, r: &pipeline::Response) -> (String, String) {
    let mut outcome = radtap_web::Outcome {
        ok: true,
        ..Default::default()
    };
    radtap_web::add(&mut outcome, r, &req.sources);
    let page_req = radtap_web::ApiRequest {
        files: req
            .sources
            .iter()
            .map(|(name, content)| radtap_web::File {
                name: name.clone(),
                content: content.clone(),
            })
            .collect(),
        head: cli.head.clone().unwrap_or_default(),
        vars: cli.vars.clone().unwrap_or_default(),
        outvars: cli.outvars.clone().unwrap_or_default(),
        ..Default::default()
    };
    let stem = cli.stem.clone().unwrap_or_else(|| {
        cli.files[0]
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into())
    });
    (
        format!("{stem}.html"),
        radtap_web::result_page(&page_req, &outcome),
    )
}

/// `radtap serve [--addr] [--max-upload] [--timeout] [--workers]`: the web submission
/// service (`radtap-web`), until SIGINT or SIGTERM.
pub(crate) fn serve(cli: &Cli) -> Outcome {
    let mut out = Outcome::default();
    if cli.files.len() > 1 {
        return failed(
            out,
            &Failure::Usage("serve takes no input files (they are uploaded)".into()),
        );
    }
    let mut cfg = radtap_web::Config::default();
    if let Some(a) = &cli.addr {
        match a.parse() {
            Ok(addr) => cfg.addr = addr,
            Err(_) => {
                let m = format!("--addr {a}: expected HOST:PORT (e.g. 127.0.0.1:8080)");
                return failed(out, &Failure::Usage(m));
            }
        }
    }
    if let Some(n) = cli.max_upload {
        cfg.max_upload = n;
    }
    if let Some(t) = cli.timeout {
        cfg.timeout = std::time::Duration::from_secs(t);
    }
    if let Some(w) = cli.workers {
        cfg.workers = w.max(1);
    }
    if let Err(e) = radtap_web::serve(cfg) {
        out.stderr.push_str(&format!(
            "radtap: error: cannot serve on {}: {e}\n",
            cli.addr.as_deref().unwrap_or("127.0.0.1:8080")
        ));
        out.status = 1;
    }
    out
}

/// The request of a command line, without its sources ([`read_sources`] reads them).
fn request(cli: &Cli) -> Request {
    Request {
        sources: Vec::new(),
        headers: Vec::new(),
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
            preprocessor: preprocessor(cli),
            tgtmodulename: cli.tgtmodulename.clone().or(cli.modulename.clone()),
            adjmodulename: cli.adjmodulename.clone().or(cli.modulename.clone()),
            ext: Vec::new(),
        },
    }
}

/// The preprocessor of a command line: its `-I`, `-D`, `-U`; the files are the user's own,
/// so cpp reads what they include.
pub(crate) fn preprocessor(cli: &Cli) -> radtap_frontends::Preprocessor {
    radtap_frontends::Preprocessor {
        include_dirs: cli
            .include
            .iter()
            .map(|d| d.to_string_lossy().into_owned())
            .collect(),
        defines: cli.define.clone(),
        undefs: cli.undef.clone(),
        read_includes: true,
        base_dir: None,
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
    let written = radtap_runtime_stack::write_to(&dir).and_then(|mut v| {
        v.extend(radtap_runtime_stack::write_mpi_to(&dir)?);
        Ok(v)
    });
    match written {
        Ok(paths) => {
            for p in paths {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                out.written.push((p, text));
            }
            out.stderr.push_str(&format!(
                "radtap: runtime written to {} (compile adStack.c with your adjoint code; adMPI.c, with mpicc, with the derivatives of an MPI program)\n",
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

/// Where a quoted include of `includer` is: beside the including file, then in the `-I`
/// directories in order (the search of `cpp` and of Tapenade).
pub(crate) fn find_header(includer: &str, name: &str, dirs: &[PathBuf]) -> Option<PathBuf> {
    let beside = Path::new(includer)
        .parent()
        .map(|d| d.join(name))
        .unwrap_or_else(|| PathBuf::from(name));
    std::iter::once(beside)
        .chain(dirs.iter().map(|d| d.join(name)))
        .find(|p| p.is_file())
}

/// Reads the headers the sources include, and the ones those include, each once, as
/// (path, text). C: the headers the real preprocessor reads with the user's options
/// (`radtap_frontends::c_user_headers`: only taken `#if` branches, quoted and angle-bracket
/// includes through `-I`), system headers left out (radtap knows the C library), each after
/// the headers it includes. Fortran: the files INCLUDE lines name, beside the including file
/// then in the `-I` directories. A header that cannot be found or read is an AD001 error
/// (its declarations would be unknown).
fn read_headers(
    sources: &[(String, String)],
    pp: &radtap_frontends::Preprocessor,
) -> (Vec<(String, String)>, Vec<Diagnostic>) {
    let dirs: Vec<PathBuf> = pp.include_dirs.iter().map(PathBuf::from).collect();
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut missing = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    let is_source = |key: &PathBuf| {
        sources
            .iter()
            .any(|(p, _)| Path::new(p).canonicalize().ok().as_ref() == Some(key))
    };
    for (k, (path, text)) in sources.iter().enumerate() {
        if !(path.ends_with(".c") || path.ends_with(".h")) {
            continue;
        }
        let found = match radtap_frontends::c_user_headers(path, text, k as u32, pp) {
            Ok(found) => found,
            Err(d) => {
                missing.push(d);
                continue;
            }
        };
        for hpath in found {
            let p = PathBuf::from(&hpath);
            let key = p.canonicalize().unwrap_or_else(|_| p.clone());
            if seen.contains(&key) || is_source(&key) {
                continue;
            }
            seen.push(key);
            match std::fs::read(&p).map(String::from_utf8) {
                Ok(Ok(t)) => headers.push((hpath, t)),
                _ => missing.push(Diagnostic::global(
                    Code::Io,
                    format!("{hpath}: cannot read the header included by {path}"),
                )),
            }
        }
    }
    // (path, text): Fortran sources name their files by INCLUDE lines.
    let mut todo: Vec<(String, String)> = sources
        .iter()
        .filter(|(p, _)| radtap_frontends::is_fortran(p))
        .cloned()
        .collect();
    while let Some((path, text)) = todo.pop() {
        for (i, line) in text.lines().enumerate() {
            let Some(name) = radtap_frontends::fortran_include(line) else {
                continue;
            };
            // MPI's header: radtap knows its names (the `mpi` module's, issue 46).
            if name.eq_ignore_ascii_case("mpif.h") {
                continue;
            }
            let Some(found) = find_header(&path, name, &dirs) else {
                missing.push(Diagnostic::global(
                    Code::Io,
                    format!(
                        "{path}:{}: cannot find the INCLUDE file \"{name}\" (looked beside {path} and in the -I directories)",
                        i + 1
                    ),
                ));
                continue;
            };
            let key = found.canonicalize().unwrap_or_else(|_| found.clone());
            if seen.contains(&key) || is_source(&key) {
                continue;
            }
            seen.push(key);
            let hpath = found.to_string_lossy().into_owned();
            match std::fs::read(&found).map(String::from_utf8) {
                Ok(Ok(t)) => {
                    headers.push((hpath.clone(), t.clone()));
                    todo.push((hpath, t));
                }
                _ => missing.push(Diagnostic::global(
                    Code::Io,
                    format!(
                        "{hpath}: cannot read the header included at {path}:{}",
                        i + 1
                    ),
                )),
            }
        }
    }
    (headers, missing)
}
