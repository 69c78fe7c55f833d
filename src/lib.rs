//! # radtap: source-to-source automatic differentiation for Fortran and C
//!
//! This crate is the command line. It reads the input files, runs the frontends
//! (`radtap-frontends`) into the IL (`radtap-il`), checks the requested head and variables,
//! and writes the requested outputs through the unparsers (`radtap-unparse`). It is the only
//! place that prints to the terminal and turns diagnostics into exit statuses:
//! 0 success (warnings allowed), 1 error in the input, 2 bad command line, 3 internal error.

use clap::Parser;
use radtap_il::{Code, Diagnostic, Program, Severity, SymbolKind, UnitKind};
use std::path::{Path, PathBuf};

mod validate;

/// Long options that Tapenade spells with one dash.
const SINGLE_DASH_LONG: &[&str] = &[
    "head",
    "vars",
    "outvars",
    "tangent",
    "reverse",
    "primal",
    "vector",
    "multi",
    "nbdirsmax",
    "fixinterface",
    "nocheckpoint",
    "nooptim",
    "tgtvarname",
    "tgtfuncname",
    "adjvarname",
    "adjfuncname",
    "html",
    "dump-analysis",
    "dump-il",
    "explain",
    "size",
    "seed",
    "keep",
    "cflags",
    "fflags",
    "derivatives",
    "timeout",
    "version",
    "help",
];

/// Turns Tapenade's `-head` into `--head` (only for known long option names, so `-O DIR` and
/// `-o stem` keep their short meaning).
pub fn normalize_args(args: impl Iterator<Item = String>) -> Vec<String> {
    args.enumerate()
        .map(|(i, a)| {
            if i > 0 && a.starts_with('-') && !a.starts_with("--") {
                let name = &a[1..];
                let base = name.split('=').next().unwrap_or(name);
                if SINGLE_DASH_LONG.contains(&base) {
                    return format!("-{a}");
                }
            }
            a
        })
        .collect()
}

/// Command line, Tapenade-compatible.
#[derive(Parser, Debug, Default, Clone)]
#[command(
    name = "radtap",
    version,
    about = "Source-to-source automatic differentiation of Fortran and C",
    long_about = "radtap reads Fortran (free form .f90, fixed form .f) and C files and writes new source code.\n\
                  Options spelled with one dash (-head, -vars) work as in Tapenade; every long option also takes two dashes.\n\n\
                  Examples:\n  radtap -p examples/heat.f90 -O out          regenerate the program as radtap understood it (out/heat_p.f90)\n  \
                  radtap -d -head f -vars x -outvars y f.f90  tangent mode (f_d in f_d.f90)\n  \
                  radtap validate -head f -vars x -outvars y -size n=50 f.f90   check the tangent and adjoint of f numerically\n  \
                  radtap runtime -O DIR                       write the runtime the adjoint code links against"
)]
pub struct Cli {
    /// Tangent (forward) mode: writes STEM_d.EXT with HEAD_d.
    #[arg(short = 'd', long = "tangent")]
    pub tangent: bool,
    /// Vector tangent mode (with -d): writes STEM_dv.EXT with HEAD_dv.
    #[arg(long = "vector", visible_alias = "multi")]
    pub vector: bool,
    /// Adjoint (reverse) mode: writes STEM_b.EXT with HEAD_b.
    #[arg(short = 'b', long = "reverse")]
    pub reverse: bool,
    /// Regenerate the original program as radtap understood it: writes STEM_p.EXT.
    #[arg(short = 'p', long = "primal")]
    pub primal: bool,
    /// Head procedure(s) to differentiate: `f`, `f(y z)/(x)`, `mod.proc`; several separated by spaces.
    #[arg(long = "head")]
    pub head: Option<String>,
    /// Independent input variables of the head (space-separated).
    #[arg(long = "vars")]
    pub vars: Option<String>,
    /// Dependent output variables of the head (space-separated).
    #[arg(long = "outvars")]
    pub outvars: Option<String>,
    /// Output file stem (default: the stem of the first input file).
    #[arg(short = 'o')]
    pub stem: Option<String>,
    /// Output directory (created if missing).
    #[arg(short = 'O')]
    pub outdir: Option<PathBuf>,
    /// Include directory for the preprocessor and INCLUDE lines.
    #[arg(short = 'I')]
    pub include: Vec<PathBuf>,
    /// Maximum number of directions in vector mode (writes DIFFSIZES).
    #[arg(long = "nbdirsmax")]
    pub nbdirsmax: Option<u32>,
    /// Keep derivative arguments for every listed variable, even inactive ones.
    #[arg(long = "fixinterface")]
    pub fixinterface: bool,
    /// Tangent derivative variable names: a pattern with `%` for the primal name (default `%d`).
    #[arg(long = "tgtvarname")]
    pub tgtvarname: Option<String>,
    /// Tangent procedure names (default `%_d`, vector `%_dv`).
    #[arg(long = "tgtfuncname")]
    pub tgtfuncname: Option<String>,
    /// Adjoint variable name pattern (`%b`: x → xb).
    #[arg(long = "adjvarname")]
    pub adjvarname: Option<String>,
    /// Adjoint procedure name pattern (`%_b`).
    #[arg(long = "adjfuncname")]
    pub adjfuncname: Option<String>,
    /// Adjoint: do not checkpoint calls (split mode).
    #[arg(long = "nocheckpoint")]
    pub nocheckpoint: bool,
    /// Turn off an optimization (activity, spareinit, splitdiff, mergediff, tbr, snapshot, diffliveness,
    /// deadcontrol, recomputeintermediates, everyoptim).
    #[arg(long = "nooptim")]
    pub nooptim: Vec<String>,
    /// Print the IL of every unit instead of writing files.
    #[arg(long = "dump-il")]
    pub dump_il: bool,
    /// Print, per statement of every procedure reached from the head, the active, diff-live
    /// and to-be-recorded variables (adjoint analyses; with -d, tangent diff-liveness).
    #[arg(long = "dump-analysis")]
    pub dump_analysis: bool,
    /// Element count of a C pointer or Fortran assumed-size array (`w=n*m`, `proc.w=n`) the
    /// adjoint must record whole; for validate also the value of an integer input (`n=50`).
    /// Repeatable.
    #[arg(long = "size", value_name = "NAME=VALUE")]
    pub size: Vec<String>,
    /// validate: seed of the pseudo-random inputs and directions (default 1).
    #[arg(long = "seed")]
    pub seed: Option<u64>,
    /// validate: build in DIR and leave the driver, the generated files and the executables there.
    #[arg(long = "keep", value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// validate: C compiler flags (default "-O0 -g").
    #[arg(long = "cflags", allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// validate: Fortran compiler flags (default "-O0 -g").
    #[arg(long = "fflags", allow_hyphen_values = true)]
    pub fflags: Option<String>,
    /// validate: check the derivative files STEM_d.EXT / STEM_b.EXT in DIR instead of generating them.
    #[arg(long = "derivatives", value_name = "DIR")]
    pub derivatives: Option<PathBuf>,
    /// validate: time limit of each run of the driver, in seconds (default 60).
    #[arg(long = "timeout")]
    pub timeout: Option<u64>,
    /// Print what a diagnostic code means, e.g. `--explain AD020`.
    #[arg(long = "explain")]
    pub explain: Option<String>,
    /// Input files (.f90 .f .c ...).
    pub files: Vec<PathBuf>,
}

/// What a run produced, for tests and the CLI.
pub struct Outcome {
    /// The generated tangent code (program and head interfaces), when `-d` ran.
    pub tangent: Option<radtap_diff_tangent::Output>,
    /// The generated adjoint code, when `-b` ran.
    pub adjoint: Option<radtap_diff_tangent::Output>,
    /// Exit status.
    pub status: u8,
    /// Everything written to stderr.
    pub stderr: String,
    /// Files written (path, contents).
    pub written: Vec<(PathBuf, String)>,
    /// What goes to stdout (`-dump-analysis`).
    pub dump: String,
}

/// Runs the command line; prints diagnostics; returns the exit status.
pub fn run(cli: &Cli) -> u8 {
    let o = execute(cli);
    print!("{}", o.dump);
    eprint!("{}", o.stderr);
    o.status
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

/// Runs the command line without printing: the testable core of the CLI.
pub fn execute(cli: &Cli) -> Outcome {
    let mut out = Outcome {
        status: 0,
        stderr: String::new(),
        written: vec![],
        dump: String::new(),
        tangent: None,
        adjoint: None,
    };
    // `radtap runtime -O DIR`: the runtime adjoint code links against.
    if cli.files.len() == 1 && cli.files[0].as_os_str() == "runtime" {
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
        return out;
    }
    if cli
        .files
        .first()
        .is_some_and(|f| f.as_os_str() == "validate")
    {
        return validate::run(cli);
    }
    if let Some(code) = &cli.explain {
        match Code::ALL
            .iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(code))
        {
            Some(c) => out
                .stderr
                .push_str(&format!("{}: {}\n", c.as_str(), c.describe())),
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
        return out;
    }
    if cli.files.is_empty() {
        out.stderr
            .push_str("radtap: error: no input files (try `radtap --help`)\n");
        out.status = 2;
        return out;
    }
    if !(cli.primal || cli.tangent || cli.reverse || cli.dump_il || cli.dump_analysis) {
        out.stderr.push_str(
            "radtap: error: nothing to do: give a mode (-d tangent, -b adjoint, -p primal)\n",
        );
        out.status = 2;
        return out;
    }
    if (cli.tangent || cli.reverse || cli.dump_analysis) && cli.head.is_none() {
        out.stderr.push_str(
            "radtap: error: -head is required to differentiate or analyse (e.g. -head f)\n",
        );
        out.status = 2;
        return out;
    }
    for n in &cli.nooptim {
        const KNOWN: &[&str] = &[
            "activity",
            "spareinit",
            "splitdiff",
            "mergediff",
            "tbr",
            "snapshot",
            "diffliveness",
            "deadcontrol",
            "recomputeintermediates",
            "everyoptim",
        ];
        const DONE: &[&str] = &["tbr", "diffliveness", "everyoptim"];
        let l = n.to_ascii_lowercase();
        if !KNOWN.contains(&l.as_str()) {
            out.stderr.push_str(&format!(
                "radtap: warning: -nooptim {n}: unknown optimization (known: {})\n",
                KNOWN.join(", ")
            ));
        } else if !DONE.contains(&l.as_str()) {
            out.stderr.push_str(&format!(
                "radtap: warning: -nooptim {n} has no effect yet (only tbr and diffliveness can be turned off)\n"
            ));
        }
    }
    // Read inputs; a missing file is a user error, reported with the others.
    let mut inputs = Vec::new();
    let mut sources = Vec::new();
    let mut pre = Vec::new();
    for f in &cli.files {
        let path = f.to_string_lossy().into_owned();
        match std::fs::read(f) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => {
                    sources.push((path.clone(), text.clone()));
                    inputs.push(radtap_frontends::Input { path, text });
                }
                Err(_) => pre.push(Diagnostic::global(
                    Code::Io,
                    format!("{path}: not UTF-8 text"),
                )),
            },
            Err(e) => pre.push(Diagnostic::global(
                Code::Io,
                format!("{path}: cannot read: {e}"),
            )),
        }
    }
    let (prog, mut diags) = radtap_frontends::parse_program(&inputs);
    diags.splice(0..0, pre);
    if let Err(errs) = radtap_il::verify(&prog) {
        for e in errs {
            diags.push(Diagnostic::global(
                Code::Internal,
                format!("IL verifier: {} (please report)", e.0),
            ));
        }
    }
    if let Some(h) = &cli.head {
        check_head(
            &prog,
            h,
            cli.vars.as_deref(),
            cli.outvars.as_deref(),
            &mut diags,
        );
    }
    // The analyses, when a head is given and the input is clean.
    let clean = !diags.iter().any(|d| d.severity == Severity::Error);
    let mut analysis = None;
    if clean && cli.head.is_some() && (cli.dump_analysis || cli.tangent || cli.reverse) {
        let requests = requests(&prog, cli);
        // With -d and -b both, this is the tangent's; -b runs the adjoint analyses itself.
        let mode = if cli.tangent {
            radtap_dataflow::Mode::Tangent
        } else {
            radtap_dataflow::Mode::Adjoint
        };
        let (info, warnings) = radtap_dataflow::analyze(&prog, &requests, mode);
        diags.extend(warnings);
        analysis = Some(info);
    }
    out.stderr
        .push_str(&render_diagnostics(&diags, &prog, &sources));
    let internal = diags.iter().any(|d| d.code == Code::Internal);
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        out.stderr.push_str(&format!(
            "radtap: {errors} error{} found; nothing written\n",
            if errors == 1 { "" } else { "s" }
        ));
        out.status = if internal { 3 } else { 1 };
        return out;
    }
    if cli.dump_il {
        out.stderr.push_str(&radtap_il::dump::structural(&prog));
        return out;
    }
    if cli.dump_analysis {
        if let Some(info) = &analysis {
            let line_text = |file: u32, line: u32| -> String {
                prog.files
                    .get(file as usize)
                    .and_then(|f| sources.iter().find(|(p, _)| *p == f.path))
                    .and_then(|(_, t)| t.lines().nth(line.saturating_sub(1) as usize))
                    .unwrap_or("")
                    .to_string()
            };
            out.dump = radtap_dataflow::dump(&prog, info, &line_text);
        }
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
    // Every requested mode is generated first; files are written only when all succeeded.
    let stem = cli.stem.clone().unwrap_or_else(|| {
        Path::new(&prog.files[0].path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into())
    });
    let off = |n: &str| {
        cli.nooptim
            .iter()
            .any(|x| x.eq_ignore_ascii_case(n) || x.eq_ignore_ascii_case("everyoptim"))
    };
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    if cli.tangent {
        let Some(info) = &analysis else {
            return out;
        };
        let mut opts = radtap_diff_tangent::Options::new(cli.vector);
        opts.nbdirsmax = cli.nbdirsmax;
        opts.slice_dead = !off("diffliveness");
        if let Some(p) = &cli.tgtvarname {
            opts.var_pattern = p.clone();
        }
        if let Some(p) = &cli.tgtfuncname {
            opts.func_pattern = p.clone();
        }
        let Some(gen) = generate(&mut out, &prog, &sources, info, &opts) else {
            return out;
        };
        let ext = radtap_unparse::output_extension(&gen.program, gen.file);
        let suffix = if cli.vector { "dv" } else { "d" };
        files.push((
            dir.join(format!("{stem}_{suffix}.{ext}")),
            radtap_unparse::write_file(&gen.program, gen.file),
        ));
        for (name, text) in &gen.extra_files {
            files.push((dir.join(name), text.clone()));
        }
        out.tangent = Some(gen);
    }
    if cli.reverse {
        // The adjoint analyses (nothing live at the exit of the forward sweep).
        let adj_info;
        let info = match &analysis {
            Some(i) if !cli.tangent => i,
            _ => {
                let requests = requests(&prog, cli);
                let (i, _) =
                    radtap_dataflow::analyze(&prog, &requests, radtap_dataflow::Mode::Adjoint);
                adj_info = i;
                &adj_info
            }
        };
        let mut opts = radtap_diff_tangent::Options::adjoint();
        opts.slice_dead = !off("diffliveness");
        opts.tbr = !off("tbr");
        opts.split = cli.nocheckpoint;
        for w in cli.size.iter().flat_map(|s| s.split_whitespace()) {
            match w.split_once('=') {
                Some((k, v)) if !k.is_empty() && !v.is_empty() => {
                    opts.sizes.push((k.to_ascii_lowercase(), v.to_string()))
                }
                _ => {
                    out.stderr.push_str(&format!(
                        "radtap: error: -size `{w}`: expected name=value (e.g. -size y=n)\n"
                    ));
                    out.status = 2;
                    return out;
                }
            }
        }
        if let Some(p) = &cli.adjvarname {
            opts.var_pattern = p.clone();
        }
        if let Some(p) = &cli.adjfuncname {
            opts.func_pattern = p.clone();
        }
        let Some(gen) = generate(&mut out, &prog, &sources, info, &opts) else {
            return out;
        };
        let ext = radtap_unparse::output_extension(&gen.program, gen.file);
        files.push((
            dir.join(format!("{stem}_b.{ext}")),
            radtap_unparse::write_file(&gen.program, gen.file),
        ));
        out.adjoint = Some(gen);
    }
    if cli.primal {
        for (i, f) in prog.files.iter().enumerate() {
            let stem = match (&cli.stem, i) {
                (Some(s), 0) => s.clone(),
                (Some(s), _) => format!("{s}{i}"),
                (None, _) => Path::new(&f.path)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "out".into()),
            };
            let ext = radtap_unparse::output_extension(&prog, i);
            files.push((
                dir.join(format!("{stem}_p.{ext}")),
                radtap_unparse::write_file(&prog, i),
            ));
        }
    }
    for (path, text) in files {
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

/// Runs a differentiation and renders its diagnostics; on error reports that nothing is
/// written and sets the exit status.
fn generate(
    out: &mut Outcome,
    prog: &Program,
    sources: &[(String, String)],
    info: &radtap_dataflow::ProgramInfo,
    opts: &radtap_diff_tangent::Options,
) -> Option<radtap_diff_tangent::Output> {
    let (gen, d) = if opts.adjoint {
        radtap_diff_adjoint::differentiate(prog, info, opts)
    } else {
        radtap_diff_tangent::differentiate(prog, info, opts)
    };
    out.stderr.push_str(&render_diagnostics(&d, prog, sources));
    if gen.is_none() {
        let errors = d.iter().filter(|x| x.is_error()).count();
        out.stderr.push_str(&format!(
            "radtap: {errors} error{} found; nothing written\n",
            if errors == 1 { "" } else { "s" }
        ));
        out.status = 1;
    }
    gen
}

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

/// The analysis requests of the command line, one per head found in the program.
fn requests(prog: &Program, cli: &Cli) -> Vec<radtap_dataflow::Request> {
    let mut out = Vec::new();
    let words = |s: &Option<String>| -> Vec<String> {
        s.as_deref()
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    for h in cli.head.as_deref().unwrap_or("").split_whitespace() {
        let (name, hv, ho) = parse_head(h);
        let proc_name = name.rsplit('.').next().unwrap_or(&name).to_string();
        let Some(head) = find_head(prog, &proc_name) else {
            continue;
        };
        let mut vars = words(&cli.vars);
        vars.extend(hv);
        let mut outvars = words(&cli.outvars);
        outvars.extend(ho);
        out.push(radtap_dataflow::Request {
            head,
            vars,
            outvars,
            fixinterface: cli.fixinterface,
        });
    }
    out
}

/// The definition of procedure `proc_name` (not an interface body).
fn find_head(prog: &Program, proc_name: &str) -> Option<radtap_il::UnitId> {
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
fn check_head(
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
