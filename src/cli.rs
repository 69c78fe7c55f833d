//! The command line as data: [`Cli`] (clap), and [`normalize_args`], which lets Tapenade's
//! single-dash long options (`-head`, `-vars`) through to clap as `--head`, `--vars`.
//!
//! Nothing here runs anything: the commands (`commands.rs`, `validate.rs`) read a parsed
//! [`Cli`]; the pipeline itself (`radtap-pipeline`) never sees it.

use clap::Parser;
use std::path::PathBuf;

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
    "value",
    "context",
    "seed",
    "keep",
    "cflags",
    "fflags",
    "derivatives",
    "timeout",
    "addr",
    "max-upload",
    "workers",
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
                  radtap runtime -O DIR                       write the runtime the adjoint code links against\n  \
                  radtap serve --addr 127.0.0.1:8080          the web submission service (form at /, JSON API at /api/differentiate)"
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
    /// Include directory (repeatable) for the preprocessor, INCLUDE lines and C quoted
    /// `#include "..."` (searched after the including file's directory).
    #[arg(short = 'I')]
    pub include: Vec<PathBuf>,
    /// Define a macro for the C preprocessor (repeatable): `-D NAME` or `-D NAME=VALUE`, as
    /// the compiler takes it.
    #[arg(short = 'D', value_name = "NAME[=VAL]")]
    pub define: Vec<String>,
    /// Undefine a macro for the C preprocessor (repeatable).
    #[arg(short = 'U', value_name = "NAME")]
    pub undef: Vec<String>,
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
    /// deadcontrol, recomputeintermediates, induction, sharepartials, structuredjumps,
    /// localrecords, everyoptim); all but activity, spareinit, splitdiff and mergediff have an effect.
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
    /// validate: the value of an input, `NAME=NUMBER`: a real or integer scalar, every
    /// element of an array, a global independent; `true`/`false` for a logical, text for a
    /// character argument. Repeatable.
    #[arg(long = "value", value_name = "NAME=NUMBER", allow_hyphen_values = true)]
    pub value: Vec<String>,
    /// validate: run the main program of the input files until its first call of the head
    /// and validate at the arguments it passes (`-value` still overrides them).
    #[arg(long = "context")]
    pub context: bool,
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
    /// validate: time limit of each run of the driver, in seconds (default 60); serve: time
    /// limit of each request (default 20).
    #[arg(long = "timeout")]
    pub timeout: Option<u64>,
    /// Also write STEM.html: the generated files coloured beside the sources, self-contained.
    #[arg(long = "html")]
    pub html: bool,
    /// serve: address to listen on (default 127.0.0.1:8080).
    #[arg(long = "addr", value_name = "HOST:PORT")]
    pub addr: Option<String>,
    /// serve: largest request body in bytes (default 2 MiB).
    #[arg(long = "max-upload", value_name = "BYTES")]
    pub max_upload: Option<usize>,
    /// serve: requests differentiated at once (default: the number of cores).
    #[arg(long = "workers")]
    pub workers: Option<usize>,
    /// Print what a diagnostic code means, e.g. `--explain AD020`.
    #[arg(long = "explain")]
    pub explain: Option<String>,
    /// Input files (.f90 .f .c ...).
    pub files: Vec<PathBuf>,
}
