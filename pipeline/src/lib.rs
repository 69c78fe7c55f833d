//! # radtap-pipeline: the stages of radtap as library calls
//!
//! This crate owns the pipeline shared by the command line (the `radtap` package) and the web
//! submission service (`radtap-web`): both call these functions, neither parses the other's
//! arguments. It lives in its own crate because `radtap-web` cannot depend on the `radtap`
//! package whose binary runs `radtap serve` (cargo forbids the cycle; docs/decisions.md).
//! Invariant: nothing here reads arguments, prints, or writes files; the same [`Request`]
//! gives the same files whoever asks.
//!
//! The pipeline as library calls over in-memory data: a [`Request`] (sources as name and
//! content, the head, the variables, the modes and the options) goes through the stages below
//! and comes out as a [`Response`] (files as name and content, diagnostics, or why it stopped).
//!
//! The stages, in order:
//!
//! 1. [`check_request`]: the request makes sense (a mode, a head where one is needed); warns
//!    about `-nooptim` names it does not know.
//! 2. [`parse`]: the frontends turn the sources into one IL program, which the IL verifier
//!    checks.
//! 3. [`check`]: the heads and `-vars`/`-outvars` name procedures and variables of the program.
//! 4. [`analyse`]: the data-flow analyses of the heads (activity, diff-liveness, TBR).
//!    Stages 2–4 together are [`front`].
//! 5. [`generate`]: each requested mode — [`tangent`] (scalar or vector), [`adjoint`],
//!    [`primal`] — as output files; or, instead of files, [`dump_il`] and [`dump_analysis`].
//!
//! [`run`] chains them for a caller that wants files and diagnostics only (the web service).
//! Nothing here reads arguments, prints, or touches the file system (the frontends run `cpp`
//! on `.F`/`.F90` files and on C files with `#if`); the CLI (`commands.rs`) reads the files,
//! creates the output directory between stages 4 and 5, writes the files and turns a
//! [`Failure`] into an exit status.

mod head;
pub mod optim;
mod reach;

use head::{check_head, find_head};
pub use head::{parse_head, parse_heads, var_list, HeadSpec};
use optim::Optim;

/// Stack of a thread that differentiates (the `radtap` command's, the service's workers, the
/// test suites' runs): 4 GiB of address space, reserved, not committed. The passes recurse
/// over expressions and blocks down to the frontends' nesting limits; measured in
/// `tests/robustness.rs` (deep nesting at those limits, in every mode).
pub const STACK_BYTES: usize = 4 << 30;
use radtap_dataflow::{Mode, ProgramInfo};
use radtap_diff_tangent::Output;
use radtap_il::{Code, Diagnostic, Program, Severity};
use std::path::Path;

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
fn origins(prog: &Program, spans: &[Option<radtap_il::Span>]) -> Vec<Option<(String, u32)>> {
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
    fn push(&mut self, file: (String, String), origins: Vec<Option<(String, u32)>>) {
        self.files.push(file);
        self.origins.push(origins);
    }

    /// The diagnostics as text, each with its file, line, column and source line.
    pub fn render_diagnostics(&self, sources: &[(String, String)]) -> String {
        render_diagnostics(&self.diagnostics, &self.program, sources)
    }
}

/// Every stage a service needs, in order: [`check_request`], [`front`], [`generate`]. The
/// dumps are not produced; a request that fails keeps the diagnostics found so far.
pub fn run(req: &Request) -> Response {
    let warnings = match check_request(req) {
        Ok(w) => w,
        Err(f) => {
            return Response {
                failure: Some(f),
                ..Response::default()
            }
        }
    };
    let analysed = front(req);
    let mut r = match analysed.failure() {
        Some(f) => Response {
            program: analysed.program,
            diagnostics: analysed.diagnostics,
            failure: Some(f),
            ..Response::default()
        },
        None => generate(req, analysed),
    };
    r.warnings = warnings;
    r
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

/// Stages 2–4: [`parse`], [`check`] and [`analyse`].
pub fn front(req: &Request) -> Analysed {
    let (mut program, mut diagnostics) = parse(req);
    // What the frontends could not represent in a procedure, for the procedures the heads
    // reach (every one when every unit is written).
    let m = &req.modes;
    let all = m.primal || m.dump_il || !(m.tangent || m.adjoint || m.dump_analysis);
    diagnostics.extend(reach::refusals(&program, req.head.as_deref(), all));
    check(&program, req, &mut diagnostics);
    // Internal procedures receive the host variables they use as arguments (`il::lift`), so
    // the analyses and the generators see their effects at each call; C increments inside
    // statements become statements of their own (`il::incdec`). Only for the modes that
    // differentiate: `-p` alone writes the program as read.
    let m = &req.modes;
    if !diagnostics.iter().any(|d| d.is_error()) && (m.tangent || m.adjoint || m.dump_analysis) {
        // C comma expressions evaluated with their statement become statements before it
        // (`il::comma`: f2c's `d__2 = dmax__, d__3 = (d__1 = x[i__], abs(d__1));`).
        radtap_il::comma::lower_commas(&mut program);
        // C `static` locals every call writes before reading them hold no state: automatic
        // (`il::statics`: f2c declares every local `static`).
        radtap_il::statics::automatic_statics(&mut program);
        radtap_il::incdec::split_increments(&mut program);
        let reached = reach::reached(&program, req.head.as_deref(), all);
        diagnostics.extend(radtap_il::lift::lift_host_association(&mut program, |h| {
            reached.contains(&h)
        }));
    }
    // Statement functions are inlined (`il::stmtfn`), and an array expression given for an
    // array dummy becomes a temporary assigned before the statement (`il::hoist`): ordinary
    // expressions and variables to the analyses and both modes.
    if !diagnostics.iter().any(|d| d.is_error()) && (m.tangent || m.adjoint || m.dump_analysis) {
        radtap_il::stmtfn::inline_statement_functions(&mut program);
        // F66 `DOUBLE PRECISION X(1)` dummies mean any length: `X(*)` (`il::any_length`).
        radtap_il::any_length::any_length_dummies(&mut program);
        // `allocate(u, source=e)` is `allocate(u(<bounds of e>))` and `u = e`
        // (`il::source_alloc`): the value and shape reach the analyses and both modes.
        diagnostics.extend(radtap_il::source_alloc::lower_source_allocations(
            &mut program,
        ));
        diagnostics.extend(radtap_il::hoist::hoist_array_actuals(&mut program));
        // Fortran BLOCK constructs are opened into their procedure (`il::blocks`: locals
        // moved, `exit name` a jump past the block), which the adjoint reverses; the tangent
        // keeps them as written.
        if m.adjoint {
            radtap_il::blocks::open_blocks(&mut program);
        }
        // A procedure whose dummy procedure receives several procedures gets a copy per
        // actual procedure (`il::specialise`), as Tapenade specialises.
        radtap_il::specialise::specialise_dummy_procedures(&mut program);
        // `IF (c) GOTO 15` over statements of one block becomes an IF construct
        // (`il::fwdgoto`): the adjoint keeps the loop around it structured.
        radtap_il::fwdgoto::structure_forward_gotos(&mut program);
        // An F77 `DO 10 … 10 CONTINUE` under BINOMIAL-CKP, II-LOOP or FP-LOOP is a DO … END
        // DO (`il::labelled_do`): the adjoint runs its body more than once.
        radtap_il::labelled_do::structure_directive_loops(&mut program);
        // C `memcpy` and `memset(p, 0, …)` of real arrays become the loops they are
        // (`il::memcpy`): the derivatives of what they copy or clear follow element by
        // element.
        radtap_il::memcpy::lower_real_copies(&mut program);
        // C `c ? a : b` with real values becomes an `if` (`il::ternary`): each branch's
        // derivative runs under its condition (both branches' partials ran: `0/0`, `u[-1]`).
        radtap_il::ternary::lower_conditionals(&mut program);
        // OpenMP `reduction(*|max|min: m)` of a real variable: a parallel loop over fixed
        // chunks, each reducing into its own copy, and the copies combined in order
        // (`il::omp_reduce`): what both modes differentiate.
        radtap_il::omp_reduce::lower_reductions(&mut program);
        // C `1[x]` is `x[1]` (`il::subscripts`): the array was taken for the subscript.
        radtap_il::subscripts::commute_reversed_subscripts(&mut program);
        // A call of a pure function whose arguments a loop does not change leaves the loop
        // (`il::invariant`): the adjoint calls it and its adjoint once, not per iteration.
        // Optimisation before differentiation (issue 47, Enzyme's lesson): small helpers
        // called in loops are inlined (`il::inline`), loop-invariant calls of pure functions
        // and loop-invariant expressions leave their loop (`il::invariant`,
        // `il::invariant_expr`), and an expression computed twice in a basic block is computed
        // once (`il::cse`): the adjoint then differentiates each once.
        let off = |o: Optim| o.off(&req.options.nooptim);
        if !off(Optim::InlineHelpers) {
            radtap_il::inline::inline_small_functions(&mut program);
        }
        let pure = if radtap_il::invariant::worth_trying(&program) {
            radtap_dataflow::pure_functions(&program)
        } else {
            Default::default()
        };
        if !off(Optim::HoistInvariant) && !pure.is_empty() {
            radtap_il::invariant::hoist_invariant_calls(&mut program, &pure);
        }
        let callees = radtap_il::invariant::pure_callees(&program, &pure);
        if !off(Optim::HoistExpressions) {
            radtap_il::invariant_expr::hoist_invariant_exprs(&mut program, &callees);
        }
        if !off(Optim::ShareCommon) {
            radtap_il::cse::share_common_subexpressions(&mut program, &callees);
        }
        // C `return e` before a function's end becomes `result = e` in structured code
        // (`il::early_return`), which the adjoint reverses; the tangent keeps it as written.
        if m.adjoint {
            radtap_il::early_return::name_returned_calls(&mut program);
            radtap_il::early_return::structure_value_returns(&mut program);
        }
    }
    let info = analyse(&program, req, &mut diagnostics);
    Analysed {
        program,
        info,
        diagnostics,
    }
}

/// Stage 2: the frontends lower every source into one program, and the IL verifier checks
/// it. The diagnostics start with the request's unreadable inputs.
pub fn parse(req: &Request) -> (Program, Vec<Diagnostic>) {
    let inputs: Vec<radtap_frontends::Input> = req
        .sources
        .iter()
        .map(|(path, text)| radtap_frontends::Input {
            path: path.clone(),
            text: text.clone(),
        })
        .collect();
    let headers: Vec<radtap_frontends::Input> = req
        .headers
        .iter()
        .map(|(path, text)| radtap_frontends::Input {
            path: path.clone(),
            text: text.clone(),
        })
        .collect();
    let (mut prog, mut diags) =
        radtap_frontends::parse_program_with(&inputs, &headers, &req.options.preprocessor);
    // Routines without source that a description knows get stand-ins (`frontends::library`):
    // parsed with the program, marked so no generator writes them.
    if req.options.ext.is_empty() && !radtap_frontends::library::calls_undefined(&prog) {
        return finish_parse(prog, diags, req);
    }
    let mut lib = radtap_il::library::Library::builtin();
    for (path, text) in &req.options.ext {
        if let Err(e) = lib.add(path, text) {
            diags.push(Diagnostic::global(
                Code::Syntax,
                format!("{path}:{}:{}: {}", e.line, e.col, e.message),
            ));
        }
    }
    let stand_ins = radtap_frontends::library::stand_ins(&prog, &lib);
    if !stand_ins.is_empty() && !diags.iter().any(|d| d.is_error()) {
        let mut all = inputs.clone();
        all.extend(stand_ins.iter().map(|(i, _)| i.clone()));
        let (p, d) =
            radtap_frontends::parse_program_with(&all, &headers, &req.options.preprocessor);
        prog = p;
        diags = d;
        for (k, f) in prog.files.iter().enumerate().skip(inputs.len()) {
            let Some((_, names)) = stand_ins.iter().find(|(i, _)| i.path == f.path) else {
                continue;
            };
            let _ = k;
            let mut units = Vec::new();
            for item in &f.items {
                if let radtap_il::FileItem::Unit(u) = item {
                    units.push(*u);
                    units.extend(prog.units[*u].decls.iter().filter_map(|d| match d {
                        radtap_il::Decl::Unit(c) => Some(*c),
                        _ => None,
                    }));
                }
            }
            for u in units {
                let Some(n) = prog.units[u].name else {
                    continue;
                };
                let sp = &prog.symbols[n].spelling;
                if let Some(d) = names
                    .iter()
                    .find(|x| x.eq_ignore_ascii_case(sp))
                    .and_then(|x| lib.get(x))
                {
                    prog.described.insert(u, d.clone());
                }
            }
        }
    }
    finish_parse(prog, diags, req)
}

/// The end of [`parse`]: the diagnostics of unreadable inputs first, wrong extensions noted,
/// the IL verified.
fn finish_parse(
    prog: Program,
    mut diags: Vec<Diagnostic>,
    req: &Request,
) -> (Program, Vec<Diagnostic>) {
    // A header cpp could not find is reported once, by the reader of the headers.
    diags.retain(|d| !req.unreadable.contains(d));
    note_wrong_extensions(&prog, req, &mut diags);
    diags.splice(0..0, req.unreadable.iter().cloned());
    if let Err(errs) = radtap_il::verify(&prog) {
        for e in errs {
            diags.push(Diagnostic::global(
                Code::Internal,
                format!("IL verifier: {} (please report)", e.0),
            ));
        }
    }
    (prog, diags)
}

/// The language a text looks written in, whatever its name says: C when most of its code
/// lines end in `;`, `{` or `}` or are `#include`s, Fortran when most start with a Fortran
/// keyword; `None` when it is not clear.
fn apparent_language(text: &str) -> Option<radtap_il::Lang> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('!') && !l.starts_with("//"))
        .collect();
    if lines.len() < 2 {
        return None;
    }
    let c = lines
        .iter()
        .filter(|l| {
            l.ends_with(';') || l.ends_with('{') || l.ends_with('}') || l.starts_with("#include")
        })
        .count();
    const FORTRAN: &[&str] = &[
        "subroutine",
        "end",
        "program",
        "module",
        "use ",
        "implicit",
        "real",
        "integer",
        "double precision",
        "do ",
        "if ",
        "call ",
        "function",
        "contains",
        "logical",
    ];
    let fortran = lines
        .iter()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            FORTRAN.iter().any(|k| l.starts_with(k)) && !l.ends_with(';') && !l.ends_with('{')
        })
        .count();
    if 2 * c > lines.len() {
        Some(radtap_il::Lang::C)
    } else if 2 * fortran > lines.len() {
        Some(radtap_il::Lang::Fortran)
    } else {
        None
    }
}

/// A file with syntax errors that looks written in the other language than its extension
/// says (a C file named `.f90`): its first syntax error says so, and the others, which only
/// repeat that the file is not what its name says, are left out (issue 49: 16 syntax
/// errors and no hint before).
fn note_wrong_extensions(prog: &Program, req: &Request, diags: &mut Vec<Diagnostic>) {
    for (i, file) in prog.files.iter().enumerate() {
        let Some((_, text)) = req.sources.iter().find(|(p, _)| *p == file.path) else {
            continue;
        };
        let in_file = |d: &Diagnostic| {
            matches!(d.code, Code::Syntax | Code::MissingToken)
                && d.span.is_some_and(|s| s.file as usize == i)
        };
        let Some(first) = diags
            .iter()
            .position(|d| d.code == Code::Syntax && in_file(d))
        else {
            continue;
        };
        if !apparent_language(text).is_some_and(|l| l != file.lang) {
            continue;
        }
        let (named, other, ext) = match file.lang {
            radtap_il::Lang::Fortran => ("Fortran", "C", ".c"),
            radtap_il::Lang::C => ("C", "Fortran", ".f90 (or .f for fixed form)"),
        };
        let more = diags.iter().filter(|d| in_file(d)).count() - 1;
        let mut note = format!(
            "{} is read as {named} because of its extension, but it looks like {other}: \
             rename it to end in {ext}",
            file.path
        );
        if more > 0 {
            note.push_str(&format!(
                " ({more} further syntax error{} of this file not shown)",
                if more == 1 { "" } else { "s" }
            ));
        }
        diags[first].notes.push(note);
        let mut k = 0;
        diags.retain(|d| {
            let keep = !in_file(d) || k == first;
            k += 1;
            keep
        });
    }
}

/// Stage 3: every head names a procedure of the program (AD040), and every `-vars`/`-outvars`
/// name a variable it can see (AD041).
pub fn check(prog: &Program, req: &Request, diags: &mut Vec<Diagnostic>) {
    // After a syntax error the procedure may be missing only because it could not be read:
    // an AD040 there would be a cascade, not news.
    if diags.iter().any(|d| d.is_error()) {
        return;
    }
    if let Some(h) = &req.head {
        check_head(prog, h, req.vars.as_deref(), req.outvars.as_deref(), diags);
    }
    if req.modes.adjoint {
        directive_warnings(prog, diags);
    }
}

/// AD050 for every `$AD` directive the adjoint does not act on, at the directive's line (or
/// the statement or unit it precedes): none is ignored without a word. `NOCHECKPOINT` is
/// implemented (and its misplaced uses are reported by the adjoint itself), and so are
/// `BINOMIAL-CKP` and `II-LOOP` before a DO or `for` loop and `FP-LOOP` before any loop (the
/// adjoint reports a loop it cannot drive or iterate) and the regions `CHECKPOINT-START`/`-END` and `DO-NOT-DIFF`/`END-DO-NOT-DIFF`
/// when they match within one block ([`radtap_il::directives`]).
fn directive_warnings(prog: &Program, diags: &mut Vec<Diagnostic>) {
    use radtap_il::directives::{block_regions, for_each_block};
    use radtap_il::DirectiveKind as K;
    let say = |d: &radtap_il::Directive| -> Option<String> {
        match &d.kind {
            K::Nocheckpoint => None,
            K::BinomialCkp(_) => Some("`$AD BINOMIAL-CKP` applies to the DO or `for` loop right after it, and none follows: ignored".to_string()),
            K::IiLoop => Some("`$AD II-LOOP` applies to the DO or `for` loop right after it, and none follows: ignored".to_string()),
            K::FpLoop(_) => Some("`$AD FP-LOOP` applies to the loop right after it, and none follows: ignored".to_string()),
            _ => Some(format!(
                "unknown directive `$AD {}`: ignored (radtap knows NOCHECKPOINT, BINOMIAL-CKP, II-LOOP, FP-LOOP, CHECKPOINT-START/END and DO-NOT-DIFF/END-DO-NOT-DIFF)",
                d.kind.word()
            )),
        }
    };
    for (_, u) in prog.units.iter() {
        let header = u.source_map.header.unwrap_or_default();
        let mut at_unit: Vec<&radtap_il::Directive> = u.directives.iter().collect();
        at_unit.extend(u.decls.iter().filter_map(|d| match d {
            radtap_il::Decl::Directive(d) => Some(d),
            _ => None,
        }));
        for d in at_unit {
            let m = if d.kind.is_region() {
                Some(format!(
                    "`$AD {}` must stand among the executable statements, before the first statement of its region: ignored",
                    d.kind.word()
                ))
            } else {
                say(d)
            };
            if let Some(m) = m {
                diags.push(Diagnostic::warning(
                    Code::Directive,
                    d.span.unwrap_or(header),
                    m,
                ));
            }
        }
        for (s, st) in u.stmts.iter() {
            for d in &st.directives {
                if d.kind.is_region() {
                    continue;
                }
                let time_loop = matches!(
                    st.kind,
                    radtap_il::StmtKind::Do { .. } | radtap_il::StmtKind::CFor { .. }
                );
                let while_loop = matches!(
                    st.kind,
                    radtap_il::StmtKind::While { .. } | radtap_il::StmtKind::DoWhile { .. }
                );
                if matches!(d.kind, K::BinomialCkp(_)) && while_loop {
                    continue;
                }
                let any_loop = time_loop
                    || matches!(
                        st.kind,
                        radtap_il::StmtKind::While { .. }
                            | radtap_il::StmtKind::DoWhile { .. }
                            | radtap_il::StmtKind::Loop { .. }
                    );
                if matches!(d.kind, K::FpLoop(_)) && any_loop {
                    // Implemented; the adjoint says so itself where it tapes the loop whole.
                    continue;
                }
                if matches!(d.kind, K::IiLoop | K::BinomialCkp(_)) && time_loop {
                    // Implemented; the adjoint says so itself where it cannot drive the loop.
                    continue;
                }
                if let Some(m) = say(d) {
                    let sp = u.source_map.stmt.get(s).copied().unwrap_or(header);
                    diags.push(Diagnostic::warning(Code::Directive, sp, m));
                }
            }
        }
        let mut problems = Vec::new();
        for_each_block(u, &mut |b| problems.extend(block_regions(&u.stmts, b).1));
        for p in problems {
            let sp = u.source_map.stmt.get(p.stmt).copied().unwrap_or(header);
            diags.push(Diagnostic::warning(
                Code::Directive,
                p.span.unwrap_or(sp),
                p.message,
            ));
        }
    }
}

/// Stage 4: the analyses of the heads, when a mode needs them and `diags` has no error; their
/// warnings are added to `diags`. With a tangent they are the tangent's (`-d -b` runs the
/// adjoint's again in [`adjoint`]).
pub fn analyse(prog: &Program, req: &Request, diags: &mut Vec<Diagnostic>) -> Option<ProgramInfo> {
    let clean = !diags.iter().any(|d| d.severity == Severity::Error);
    let m = &req.modes;
    if !(clean && req.head.is_some() && (m.dump_analysis || m.tangent || m.adjoint)) {
        return None;
    }
    let mode = if m.tangent {
        Mode::Tangent
    } else {
        Mode::Adjoint
    };
    let (mut info, warnings) = radtap_dataflow::analyze(prog, &analysis_requests(prog, req), mode);
    if mode == Mode::Adjoint {
        radtap_dataflow::split_contexts(prog, &mut info, req.options.nocheckpoint);
    }
    diags.extend(warnings);
    Some(info)
}

/// The analysis requests, one per head found in the program (unknown heads were reported by
/// [`check`]).
fn analysis_requests(prog: &Program, req: &Request) -> Vec<radtap_dataflow::Request> {
    let mut out = Vec::new();
    let words = |s: &Option<String>| -> Vec<String> { head::var_list(s.as_deref().unwrap_or("")) };
    for spec in parse_heads(req.head.as_deref().unwrap_or("")).unwrap_or_default() {
        let Some(head) = find_head(prog, spec.proc_name()) else {
            continue;
        };
        let mut vars = words(&req.vars);
        vars.extend(spec.independents);
        let mut outvars = words(&req.outvars);
        outvars.extend(spec.dependents);
        out.push(radtap_dataflow::Request {
            head,
            vars,
            outvars,
            fixinterface: req.options.fixinterface,
        });
    }
    out
}

/// Stage 5, `-dump-il`: the IL of every unit.
pub fn dump_il(a: &Analysed) -> String {
    radtap_il::dump::structural(&a.program)
}

/// Stage 5, `-dump-analysis`: per statement of every procedure reached from the heads, the
/// active, diff-live and to-be-recorded variables, beside the source line. Empty when the
/// analyses did not run.
pub fn dump_analysis(a: &Analysed, sources: &[(String, String)]) -> String {
    let Some(info) = &a.info else {
        return String::new();
    };
    let prog = &a.program;
    let line_text = |file: u32, line: u32| -> String {
        prog.files
            .get(file as usize)
            .and_then(|f| sources.iter().find(|(p, _)| *p == f.path))
            .and_then(|(_, t)| t.lines().nth(line.saturating_sub(1) as usize))
            .unwrap_or("")
            .to_string()
    };
    radtap_dataflow::dump(prog, info, &line_text)
}

/// Stage 5: every requested mode, in the order tangent, adjoint, primal. A mode that fails
/// stops the others; its diagnostics and the [`Failure`] are in the response, and no file.
pub fn generate(req: &Request, a: Analysed) -> Response {
    let Analysed {
        program,
        info,
        diagnostics,
    } = a;
    let mut r = Response {
        diagnostics,
        ..Response::default()
    };
    generate_modes(req, &program, info.as_ref(), &mut r);
    if r.failure.is_some() {
        r.files.clear();
        r.origins.clear();
    }
    r.program = program;
    r
}

/// The modes of [`generate`], each stopping the ones after it when it fails.
fn generate_modes(req: &Request, prog: &Program, info: Option<&ProgramInfo>, r: &mut Response) {
    let stem = req.options.stem.clone().unwrap_or_else(|| {
        prog.files
            .first()
            .and_then(|f| Path::new(&f.path).file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into())
    });
    if req.modes.tangent && !tangent(req, prog, info, &stem, r) {
        return;
    }
    if req.modes.adjoint && !adjoint(req, prog, info, &stem, r) {
        return;
    }
    if req.modes.primal {
        for (i, f) in primal(prog, req.options.stem.as_deref())
            .into_iter()
            .enumerate()
        {
            let spans = radtap_unparse::write_file_mapped(prog, i).1;
            r.push(f, origins(prog, &spans));
        }
    }
}

/// Stage 5, `-d`: the tangent or vector tangent of the heads into `r` (`STEM_d.EXT` or
/// `STEM_dv.EXT`, and DIFFSIZES with `-nbdirsmax`). False when the request stops here: the
/// generator failed, or there are no analyses (then quietly, with nothing written).
pub fn tangent(
    req: &Request,
    prog: &Program,
    info: Option<&ProgramInfo>,
    stem: &str,
    r: &mut Response,
) -> bool {
    let Some(info) = info else {
        return false;
    };
    let o = &req.options;
    let mut opts = radtap_diff_tangent::Options::new(req.modes.vector);
    opts.nbdirsmax = o.nbdirsmax;
    opts.slice_dead = !Optim::DiffLiveness.off(&o.nooptim);
    opts.sizes = match sizes(o) {
        Ok(s) => s,
        Err(f) => {
            r.failure = Some(f);
            return false;
        }
    };
    if let Some(p) = &o.tgtvarname {
        opts.var_pattern = p.clone();
    }
    if let Some(p) = &o.tgtfuncname {
        opts.func_pattern = p.clone();
    }
    if let Some(p) = &o.tgtmodulename {
        opts.module_pattern = p.clone();
        opts.type_pattern = p.clone();
    }
    let Some(gen) = run_generator(prog, info, &opts, r) else {
        return false;
    };
    let ext = radtap_unparse::output_extension(&gen.program, gen.file);
    let suffix = if req.modes.vector { "dv" } else { "d" };
    let (text, spans) = radtap_unparse::write_file_mapped(&gen.program, gen.file);
    r.push(
        (format!("{stem}_{suffix}.{ext}"), text),
        origins(&gen.program, &spans),
    );
    for f in &gen.extra_files {
        r.push(f.clone(), Vec::new());
    }
    r.tangent = Some(gen);
    true
}

/// Stage 5, `-b`: the adjoint of the heads into `r` (`STEM_b.EXT`), from the adjoint
/// analyses (run again when `info` is the tangent's). False when the request stops here: a
/// malformed `-size`, or the generator failed.
pub fn adjoint(
    req: &Request,
    prog: &Program,
    info: Option<&ProgramInfo>,
    stem: &str,
    r: &mut Response,
) -> bool {
    // The adjoint analyses: nothing is live at the exit of the forward sweep.
    let adj_info;
    let info = match info {
        Some(i) if !req.modes.tangent => i,
        _ => {
            let requests = analysis_requests(prog, req);
            let mut i = radtap_dataflow::analyze(prog, &requests, Mode::Adjoint).0;
            radtap_dataflow::split_contexts(prog, &mut i, req.options.nocheckpoint);
            adj_info = i;
            &adj_info
        }
    };
    let opts = match adjoint_options(&req.options) {
        Ok(o) => o,
        Err(f) => {
            r.failure = Some(f);
            return false;
        }
    };
    let Some(gen) = run_generator(prog, info, &opts, r) else {
        return false;
    };
    let ext = radtap_unparse::output_extension(&gen.program, gen.file);
    let (text, spans) = radtap_unparse::write_file_mapped(&gen.program, gen.file);
    r.push(
        (format!("{stem}_b.{ext}"), text),
        origins(&gen.program, &spans),
    );
    r.adjoint = Some(gen);
    true
}

/// The `-size name=value` words (name lower-cased); a word that is not `name=value` is a
/// [`Failure::Usage`].
fn sizes(o: &DiffOptions) -> Result<Vec<(String, String)>, Failure> {
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

/// The adjoint generator's options; a `-size` word that is not `name=value` is a
/// [`Failure::Usage`].
fn adjoint_options(o: &DiffOptions) -> Result<radtap_diff_tangent::Options, Failure> {
    let mut opts = radtap_diff_tangent::Options::adjoint();
    opts.slice_dead = !Optim::DiffLiveness.off(&o.nooptim);
    opts.tbr = !Optim::Tbr.off(&o.nooptim);
    opts.induction = !Optim::Induction.off(&o.nooptim);
    opts.share_partials = !Optim::SharePartials.off(&o.nooptim);
    opts.joint_branches = !Optim::DeadControl.off(&o.nooptim);
    opts.snapshot_needs = !Optim::Snapshot.off(&o.nooptim);
    opts.structured_jumps = !Optim::StructuredJumps.off(&o.nooptim);
    opts.recompute = !Optim::RecomputeIntermediates.off(&o.nooptim);
    opts.local_records = !Optim::LocalRecords.off(&o.nooptim);
    opts.split = o.nocheckpoint;
    opts.sizes = sizes(o)?;
    if let Some(p) = &o.adjvarname {
        opts.var_pattern = p.clone();
    }
    if let Some(p) = &o.adjfuncname {
        opts.func_pattern = p.clone();
    }
    if let Some(p) = &o.adjmodulename {
        opts.module_pattern = p.clone();
        opts.type_pattern = p.clone();
    }
    Ok(opts)
}

/// A derivative generator: `radtap_diff_tangent::differentiate`'s signature.
type Generator =
    fn(&Program, &ProgramInfo, &radtap_diff_tangent::Options) -> (Option<Output>, Vec<Diagnostic>);

/// The generator for `opts`' mode (`opts.adjoint`): the one place that names them.
fn generator(opts: &radtap_diff_tangent::Options) -> Generator {
    match opts.adjoint {
        false => radtap_diff_tangent::differentiate,
        true => radtap_diff_adjoint::differentiate,
    }
}

/// Runs the generator of `opts`' mode; adds its diagnostics to `r`, and on error records the
/// failure.
fn run_generator(
    prog: &Program,
    info: &ProgramInfo,
    opts: &radtap_diff_tangent::Options,
    r: &mut Response,
) -> Option<Output> {
    let (gen, d) = generator(opts)(prog, info, opts);
    if gen.is_none() {
        let count = d.iter().filter(|x| x.is_error()).count();
        // A refusal of the generator is an input error, even when one of its diagnostics is
        // an internal error (the command line exits 1 for it, as it always has).
        r.failure = Some(Failure::Errors {
            count,
            internal: false,
        });
    }
    r.diagnostics.extend(d);
    gen
}

/// Stage 5, `-p`: every input file as radtap understood it, `STEM_p.EXT` (the first file
/// takes the `-o` stem as it is, the next ones with their index appended).
pub fn primal(prog: &Program, stem: Option<&str>) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (i, f) in prog.files.iter().enumerate() {
        if f.header {
            // Not an input: the user's own header, included as it is.
            continue;
        }
        let stem = match (stem, i) {
            (Some(s), 0) => s.to_string(),
            (Some(s), _) => format!("{s}{i}"),
            (None, _) => Path::new(&f.path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "out".into()),
        };
        let ext = radtap_unparse::output_extension(prog, i);
        files.push((
            format!("{stem}_p.{ext}"),
            radtap_unparse::write_file(prog, i),
        ));
    }
    files
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

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "subroutine sq(x, y)\n  real :: x, y\n  y = x*x\nend subroutine sq\n";

    fn request(modes: Modes) -> Request {
        Request {
            sources: vec![("sq.f90".into(), SRC.into())],
            head: Some("sq".into()),
            vars: Some("x".into()),
            outvars: Some("y".into()),
            modes,
            ..Request::default()
        }
    }

    #[test]
    fn run_turns_sources_into_named_files() {
        let r = run(&request(Modes {
            tangent: true,
            adjoint: true,
            primal: true,
            ..Modes::default()
        }));
        assert_eq!(r.failure, None, "{}", r.render_diagnostics(&[]));
        let names: Vec<&str> = r.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["sq_d.f90", "sq_b.f90", "sq_p.f90"]);
        assert!(r.files[0].1.contains("sq_d"), "{}", r.files[0].1);
        assert!(r.files[1].1.contains("sq_b"), "{}", r.files[1].1);
        assert!(r.tangent.is_some() && r.adjoint.is_some());
    }

    #[test]
    fn run_stops_on_a_bad_request_a_bad_size_or_a_bad_source() {
        let r = run(&request(Modes::default()));
        assert!(matches!(r.failure, Some(Failure::Usage(m)) if m.starts_with("nothing to do")));
        let mut req = request(Modes {
            tangent: true,
            adjoint: true,
            ..Modes::default()
        });
        req.options.size = vec!["y".into()];
        let r = run(&req);
        assert!(matches!(&r.failure, Some(Failure::Usage(m)) if m.contains("-size `y`")));
        // A malformed command line stops the request before any generation.
        assert!(r.files.is_empty() && r.tangent.is_none());
        req.options.size.clear();
        req.sources[0].1 = "subroutine sq(x\nend\n".into();
        let r = run(&req);
        assert!(matches!(r.failure, Some(Failure::Errors { count, internal: false }) if count > 0));
        let text = r.render_diagnostics(&req.sources);
        assert!(text.starts_with("sq.f90:"), "{text}");
    }

    #[test]
    fn unknown_optimizations_are_refused_and_inert_ones_warned() {
        let mut req = request(Modes {
            primal: true,
            ..Modes::default()
        });
        req.options.nooptim = vec!["tbr".into(), "mergediff".into()];
        let w = check_request(&req).expect("a valid request");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("-nooptim mergediff has no effect yet"));
        req.options.nooptim.push("bogus".into());
        let e = check_request(&req).expect_err("an unknown name is a bad command line");
        assert!(
            matches!(e, Failure::Usage(m) if m.starts_with("-nooptim bogus: unknown optimization"))
        );
    }
}
