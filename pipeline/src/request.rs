//! What the pipeline is asked and what it answers: a [`Request`] (sources, head, variables,
//! [`Modes`], [`DiffOptions`]) and its stage-1 check ([`check_request`]), the program and
//! facts between the stages ([`Analysed`]), the [`Response`] (files, diagnostics, the
//! originating source line of each output line), why a request stopped ([`Failure`]), and the
//! diagnostics rendered against the input files.

use crate::head::parse_heads;
use crate::optim;
use radtap_dataflow::ProgramInfo;
use radtap_diff_tangent::Output;
use radtap_il::{Code, Diagnostic, Program, Severity};

/// The outputs asked for. Several modes may be given at once.
#[derive(Clone, Debug, Default)]
pub struct Modes {
    /// The regenerated original program (`-p`): `STEM_p.EXT`, one per input file.
    pub primal: bool,
    /// Tangent mode (`-d`): `STEM_d.EXT`.
    pub tangent: bool,
    /// With `tangent`, the vector tangent instead (`-vector`): `STEM_dv.EXT`.
    pub vector: bool,
    /// Adjoint mode (`-b`): `STEM_b.EXT`.
    pub adjoint: bool,
    /// The IL of every unit, as text, instead of files (`-dump-il`).
    pub dump_il: bool,
    /// The analyses of the heads, as text, instead of files (`-dump-analysis`).
    pub dump_analysis: bool,
}

/// How to differentiate and name the outputs; each field is the command-line option of the
/// same name.
#[derive(Clone, Debug, Default)]
pub struct DiffOptions {
    /// Output stem (`-o`); by default the stem of the first input file.
    pub stem: Option<String>,
    /// Maximum number of directions in vector mode (writes DIFFSIZES).
    pub nbdirsmax: Option<u32>,
    /// Keep derivative arguments for every listed variable, even inactive ones.
    pub fixinterface: bool,
    /// Adjoint: do not checkpoint calls (split mode).
    pub nocheckpoint: bool,
    /// Optimizations turned off (`tbr`, `diffliveness`, `everyoptim`, …), as given.
    pub nooptim: Vec<String>,
    /// `-size` words (`y=n`, several per string allowed): element counts the adjoint records.
    pub size: Vec<String>,
    /// Tangent derivative variable name pattern (`%d`).
    pub tgtvarname: Option<String>,
    /// Tangent procedure name pattern (`%_d`).
    pub tgtfuncname: Option<String>,
    /// Adjoint variable name pattern (`%b`).
    pub adjvarname: Option<String>,
    /// Adjoint procedure name pattern (`%_b`).
    pub adjfuncname: Option<String>,
    /// The C preprocessor's `-I`, `-D`, `-U`, whether it may read the files sources include
    /// (the command line and the web service), and where from (the web service's request
    /// directory).
    pub preprocessor: radtap_frontends::Preprocessor,
    /// Tangent module and derived-type name pattern (`%_d`; Tapenade's `-tgtmodulename`).
    pub tgtmodulename: Option<String>,
    /// Adjoint module and derived-type name pattern (`%_b`; Tapenade's `-adjmodulename`).
    pub adjmodulename: Option<String>,
    /// `-ext`: descriptions of routines without source, as (path, content), in Tapenade's
    /// library syntax (`radtap_il::library`).
    pub ext: Vec<(String, String)>,
}

/// One differentiation request: everything the stages need, nothing from a terminal.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The input files as (name, content); the name's extension picks the language, and
    /// diagnostics and output stems use the name.
    pub sources: Vec<(String, String)>,
    /// The user headers the sources include (C headers the preprocessor enters, Fortran
    /// INCLUDE files), as (path, content): read by the CLI (beside the including file, then
    /// in the `-I` directories); the web service gives the submitted files the preprocessor
    /// found in the request's directory ([`radtap_frontends::Preprocessor::base_dir`]).
    pub headers: Vec<(String, String)>,
    /// Inputs that could not be read (AD001), reported before every other diagnostic.
    pub unreadable: Vec<Diagnostic>,
    /// `-head`: the head procedure(s), as the grammar of `head.rs` reads them.
    pub head: Option<String>,
    /// `-vars`: independent variables of the heads (space-separated).
    pub vars: Option<String>,
    /// `-outvars`: dependent variables of the heads (space-separated).
    pub outvars: Option<String>,
    /// What to produce.
    pub modes: Modes,
    /// How.
    pub options: DiffOptions,
}

/// Why a request produced no (more) output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The request cannot run as given (no mode, no head, a malformed `-size`): the message.
    Usage(String),
    /// Errors in the input or refusals of a generator, reported as diagnostics.
    Errors {
        /// How many of the diagnostics are errors.
        count: usize,
        /// The front stages found an internal error (an IL verifier failure: a radtap bug).
        internal: bool,
    },
}

/// The program after the front stages: what the generators work from.
pub struct Analysed {
    /// The input as one IL program; diagnostic spans point into its files.
    pub program: Program,
    /// The analyses of the heads, when the request differentiates or dumps them and the input
    /// has no error.
    pub info: Option<ProgramInfo>,
    /// Diagnostics so far, in order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Request {
    /// The sources and the headers: every text a diagnostic may point into.
    pub fn texts(&self) -> Vec<(String, String)> {
        self.sources.iter().chain(&self.headers).cloned().collect()
    }
}

impl Analysed {
    /// Errors in the diagnostics stop the request here.
    pub fn failure(&self) -> Option<Failure> {
        let internal = self.diagnostics.iter().any(|d| d.code == Code::Internal);
        let count = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        (count > 0).then_some(Failure::Errors { count, internal })
    }
}

/// What a request produced.
#[derive(Default)]
pub struct Response {
    /// The input as one IL program; diagnostic spans point into its files.
    pub program: Program,
    /// Warnings about the request itself (unknown `-nooptim` names), as sentences.
    pub warnings: Vec<String>,
    /// Every diagnostic, in order: the front stages' then each generator's.
    pub diagnostics: Vec<Diagnostic>,
    /// The output files as (file name, content), in the order the CLI writes them: tangent
    /// (and DIFFSIZES), adjoint, primal. Empty when `failure` is set.
    pub files: Vec<(String, String)>,
    /// For each of `files`, for each of its lines, the primal source line it comes from (file
    /// name as given, 1-based line), when the line was written for a primal statement.
    pub origins: Vec<Vec<Option<(String, u32)>>>,
    /// The tangent generator's output (program and head interfaces), when it ran.
    pub tangent: Option<Output>,
    /// The adjoint generator's output, when it ran.
    pub adjoint: Option<Output>,
    /// Why the request stopped, if it did.
    pub failure: Option<Failure>,
}

/// The primal line of each written line, from the unparser's spans.
pub(crate) fn origins(
    prog: &Program,
    spans: &[Option<radtap_il::Span>],
) -> Vec<Option<(String, u32)>> {
    spans
        .iter()
        .map(|sp| {
            let sp = (*sp)?;
            let f = prog.files.get(sp.file as usize)?;
            (sp.line > 0).then(|| (f.path.clone(), sp.line))
        })
        .collect()
}

impl Response {
    /// Adds a generated file and the origins of its lines.
    pub(crate) fn push(&mut self, file: (String, String), origins: Vec<Option<(String, u32)>>) {
        self.files.push(file);
        self.origins.push(origins);
    }

    /// The diagnostics as text, each with its file, line, column and source line.
    pub fn render_diagnostics(&self, sources: &[(String, String)]) -> String {
        render_diagnostics(&self.diagnostics, &self.program, sources)
    }
}

/// Stage 1: checks that the request can run — some mode is asked for, and a head is given
/// where one is needed — and returns warnings about `-nooptim` names (unknown, or without
/// effect yet). The sources are not looked at.
pub fn check_request(req: &Request) -> Result<Vec<String>, Failure> {
    let m = &req.modes;
    if !(m.primal || m.tangent || m.adjoint || m.dump_il || m.dump_analysis) {
        return Err(Failure::Usage(
            "nothing to do: give a mode (-d tangent, -b adjoint, -p primal)".into(),
        ));
    }
    if (m.tangent || m.adjoint || m.dump_analysis) && req.head.is_none() {
        return Err(Failure::Usage(
            "-head is required to differentiate or analyse (e.g. -head f)".into(),
        ));
    }
    if let Some(h) = &req.head {
        if parse_heads(h).map_err(Failure::Usage)?.is_empty() {
            return Err(Failure::Usage(
                "-head names no procedure (e.g. -head f, -head \"f(y)/(x)\")".into(),
            ));
        }
    }
    if let Some(s) = &req.options.stem {
        // The stem names files inside the output directory (-O): a path would write
        // elsewhere (`-o /` wrote `/_d.c` at the file system's root).
        if s.is_empty() || s.contains(['/', '\\']) || s == "." || s == ".." {
            return Err(Failure::Usage(format!(
                "-o {s:?}: an output stem is a file name without directories \
                 (use -O DIR for the directory)"
            )));
        }
    }
    if req.options.nbdirsmax == Some(0) {
        return Err(Failure::Usage(
            "-nbdirsmax 0: vector mode needs at least one direction".into(),
        ));
    }
    sizes(&req.options)?;
    optim::check(&req.options.nooptim).map_err(Failure::Usage)
}

/// The `-size name=value` words (name lower-cased); a word that is not `name=value` is a
/// [`Failure::Usage`].
pub(crate) fn sizes(o: &DiffOptions) -> Result<Vec<(String, String)>, Failure> {
    let mut out = Vec::new();
    for w in o.size.iter().flat_map(|s| s.split_whitespace()) {
        match w.split_once('=') {
            Some((k, v)) if !k.is_empty() && !v.is_empty() => {
                out.push((k.to_ascii_lowercase(), v.to_string()))
            }
            _ => {
                return Err(Failure::Usage(format!(
                    "-size `{w}`: expected name=value (e.g. -size y=n)"
                )))
            }
        }
    }
    Ok(out)
}

/// Renders diagnostics against the input files.
pub fn render_diagnostics(
    diags: &[Diagnostic],
    prog: &Program,
    sources: &[(String, String)],
) -> String {
    let mut out = String::new();
    for d in diags {
        let (name, src) = match d.span {
            Some(sp) => {
                let f = prog.files.get(sp.file as usize);
                let name = f.map(|f| f.path.clone()).unwrap_or_default();
                let src = sources
                    .iter()
                    .find(|(p, _)| *p == name)
                    .map(|(_, s)| s.as_str());
                (name, src)
            }
            None => (String::new(), None),
        };
        out.push_str(&d.render(&name, src));
    }
    out
}
