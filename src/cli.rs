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
    "root",
    "output",
    "outputdirectory",
    "tgtmodulename",
    "adjmodulename",
    "ext",
    "modulename",
    "inputlanguage",
    "outputlanguage",
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
    "link",
    "fflags",
    "derivatives",
    "timeout",
    "np",
    "addr",
    "max-upload",
    "workers",
    "version",
    "help",
];

/// What radtap does with a Tapenade 3.16 option (`tapenade -help`) that has no field of
/// [`Cli`]: one record per option, so the parser, the warnings and the refusals agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tapenade {
    /// Accepted silently: radtap already does what the option asks.
    Default,
    /// Accepted with a warning: the option changes nothing in radtap, for this reason.
    NoEffect(&'static str),
    /// Refused (exit status 2), for this reason.
    Refused(&'static str),
}

/// Tapenade's options that radtap reads without a field of its own: (name, takes a value,
/// what radtap does). The size options `-i<n>`, `-r<n>`, `-dr<n>`, `-p<n>` are
/// [`size_option`]'s.
const TAPENADE_ONLY: &[(&str, bool, Tapenade)] = &[
    ("noisize", false, Tapenade::Default),
    (
        "msglevel",
        true,
        Tapenade::NoEffect("radtap prints every error and warning"),
    ),
    (
        "tracelevel",
        true,
        Tapenade::NoEffect("radtap prints no trace"),
    ),
    (
        "nolib",
        false,
        Tapenade::Refused(
            "radtap's descriptions of intrinsics and libraries are built in and cannot be left out",
        ),
    ),
    (
        "specializeactivity",
        true,
        Tapenade::Refused("radtap writes one derivative per procedure (generalized activity)"),
    ),
    (
        "splitoutputfiles",
        false,
        Tapenade::Refused("radtap writes one file per mode (STEM_d, STEM_b, ...)"),
    ),
    (
        "noinclude",
        false,
        Tapenade::Refused("radtap keeps INCLUDE and #include lines; it cannot inline them"),
    ),
    (
        "debugtgt",
        false,
        Tapenade::Refused(
            "no debugging instrumentation is written; `radtap validate` checks the tangent",
        ),
    ),
    (
        "debugadj",
        false,
        Tapenade::Refused(
            "no debugging instrumentation is written; `radtap validate` checks the adjoint",
        ),
    ),
    (
        "msginfile",
        false,
        Tapenade::Refused("diagnostics go to stderr only"),
    ),
    (
        "dump",
        true,
        Tapenade::Refused(
            "Tapenade's dumps have no counterpart; -dump-il and -dump-analysis print radtap's",
        ),
    ),
];

/// Tapenade's `-i<n>`, `-r<n>`, `-dr<n>`, `-p<n>` (bytes of INTEGER, REAL, DOUBLE
/// PRECISION, pointers): the defaults (`-i4`, `-r4`, `-dr8`, `-p8`) are radtap's; another
/// size would change the types the code is compiled with, which radtap does not model.
fn size_option(name: &str) -> Option<Tapenade> {
    let (kind, default) = [("dr", "8"), ("i", "4"), ("r", "4"), ("p", "8")]
        .into_iter()
        .find(|(k, _)| {
            name.strip_prefix(k)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })?;
    Some(if &name[kind.len()..] == default {
        Tapenade::Default
    } else {
        Tapenade::Refused(
            "radtap takes the sizes of the default INTEGER, REAL, DOUBLE PRECISION and pointers \
             as gfortran's defaults (4, 4, 8, 8): declare the kinds in the source \
             (real(8), integer(8)) instead of compiling with -fdefault-real-8 or -fdefault-integer-8",
        )
    })
}

/// The record of a Tapenade-only option, by its name without dashes (case-insensitive, as
/// Tapenade's `-debugTGT`).
pub(crate) fn tapenade_only(name: &str) -> Option<(bool, Tapenade)> {
    let lower = name.to_ascii_lowercase();
    TAPENADE_ONLY
        .iter()
        .find(|(n, _, _)| *n == lower)
        .map(|&(_, v, t)| (v, t))
        .or_else(|| size_option(name).map(|t| (false, t)))
}

/// Turns Tapenade's `-head` into `--head` (only for known long option names, so `-O DIR` and
/// `-o stem` keep their short meaning), and Tapenade's options without a field of [`Cli`]
/// (`-msglevel 20`, `-r8`, [`TAPENADE_ONLY`]) into `--tapenade-option=-msglevel 20`, which
/// [`tapenade_options`] judges: never misread as short options (`-r8` as `-r -8`).
pub fn normalize_args(args: impl Iterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut args = args.enumerate();
    while let Some((i, a)) = args.next() {
        if i > 0 && a.starts_with('-') && a != "-" && a != "--" {
            let name = a.trim_start_matches('-');
            let base = name.split('=').next().unwrap_or(name);
            if let Some((takes_value, _)) = tapenade_only(base) {
                let mut word = format!("-{name}");
                if takes_value && !name.contains('=') {
                    if let Some((_, v)) = args.next() {
                        word = format!("{word} {v}");
                    }
                }
                out.push(format!("--tapenade-option={word}"));
                continue;
            }
            if !a.starts_with("--") && SINGLE_DASH_LONG.contains(&base) {
                out.push(format!("-{a}"));
                continue;
            }
        }
        out.push(a);
    }
    out
}

/// Tapenade's languages for `-inputlanguage` / `-outputlanguage`: `Some(true)` Fortran (with
/// whether free form is meant), `None` not a language Tapenade knows.
fn tapenade_language(value: &str) -> Option<(radtap_il::Lang, bool)> {
    match value.to_ascii_lowercase().as_str() {
        "fortran" | "fortran77" => Some((radtap_il::Lang::Fortran, false)),
        "fortran90" | "fortran95" => Some((radtap_il::Lang::Fortran, true)),
        "c" => Some((radtap_il::Lang::C, true)),
        _ => None,
    }
}

/// The Tapenade options of a command line: the warnings of those accepted without effect,
/// or the reason the command line is refused (exit status 2), each naming its option.
pub(crate) fn tapenade_options(cli: &Cli) -> Result<Vec<String>, String> {
    let mut warnings = Vec::new();
    for word in &cli.tapenade_option {
        let name = word.trim_start_matches('-');
        let base = name.split([' ', '=']).next().unwrap_or(name);
        match tapenade_only(base).map(|(_, t)| t) {
            Some(Tapenade::Default) => {}
            Some(Tapenade::NoEffect(why)) => warnings.push(format!("{word} has no effect: {why}")),
            Some(Tapenade::Refused(why)) => return Err(format!("{word} is not supported: {why}")),
            None => return Err(format!("{word}: unknown option")),
        }
    }
    let files: Vec<String> = cli
        .files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .filter(|f| !matches!(f.as_str(), "validate" | "serve" | "runtime"))
        .collect();
    let langs: Vec<(&String, radtap_il::Lang)> = files
        .iter()
        .filter_map(|f| radtap_frontends::classify(f).map(|(l, _)| (f, l)))
        .collect();
    if let Some(v) = &cli.inputlanguage {
        let Some((lang, _)) = tapenade_language(v) else {
            return Err(format!(
                "-inputlanguage {v}: unknown language (fortran, fortran77, fortran90, fortran95, c)"
            ));
        };
        if let Some((f, _)) = langs.iter().find(|(_, l)| *l != lang) {
            return Err(format!(
                "-inputlanguage {v}: radtap takes each file's language from its name, and {f} is \
                 not {v}: rename it (.c for C; .f90, or .f for fixed form, for Fortran)"
            ));
        }
    }
    if let Some(v) = &cli.outputlanguage {
        let Some((lang, free)) = tapenade_language(v) else {
            return Err(format!(
                "-outputlanguage {v}: unknown language (fortran, fortran77, fortran90, fortran95, c)"
            ));
        };
        if let Some((f, _)) = langs.iter().find(|(_, l)| *l != lang) {
            return Err(format!(
                "-outputlanguage {v}: radtap writes derivatives in the language of their input, \
                 and {f} is not {v}"
            ));
        }
        if !free {
            return Err(format!(
                "-outputlanguage {v}: radtap writes Fortran in free form (.f90), not fixed-form \
                 Fortran 77; use -outputlanguage fortran90"
            ));
        }
    }
    Ok(warnings)
}

/// The help of `radtap validate`, `radtap serve` and `radtap runtime` (`--help` after the
/// command name), which clap, reading them as file names, would answer with the global help.
pub fn command_help(args: &[String]) -> Option<&'static str> {
    let command = args.get(1)?.as_str();
    let asks = args[2..]
        .iter()
        .any(|a| matches!(a.as_str(), "-h" | "-help" | "--help"));
    if !asks {
        return None;
    }
    Some(match command {
        "validate" => {
            "radtap validate: differentiates a head in tangent and adjoint mode, writes a driver, compiles it with\n\
             gcc/gfortran and runs it: the tangent against divided differences, the adjoint by the dot-product test.\n\n\
             Usage: radtap validate -head HEAD [-vars \"x y\"] [-outvars \"z\"] [differentiation options] FILE...\n\n\
             Options (besides those of differentiation, see radtap --help):\n  \
               -size NAME=VALUE     an integer input (n=50), or the element count of a pointer or assumed-size array (w=n*m)\n  \
               -value NAME=NUMBER   an input's value instead of the pseudo-random one (every element of an array)\n  \
               -context             validate at the arguments of the first call of the head by the main program\n  \
               -seed N              seed of the pseudo-random inputs and directions (default 1)\n  \
               -keep DIR            build in DIR and keep the driver, the generated files and the executables\n  \
               -derivatives DIR     check STEM_d.EXT / STEM_b.EXT in DIR instead of generating them\n  \
               -link FILE           compile and link FILE too (the routines -ext describes, your NAME_d/NAME_b)\n  \
               -cflags FLAGS        C compiler flags (default -O0 -g); -fflags FLAGS the Fortran ones\n  \
               -timeout SECONDS     time limit of each run of the driver (default 60)\n  \
               -np N                an MPI program: run the drivers on N ranks under mpirun (default 2 for a program calling MPI)\n\n\
             Exit status: 0 PASS, 4 FAIL, 5 INCONCLUSIVE, 1 cannot run (compile error, missing size, ...), 2 bad command line.\n\
             Example: radtap validate -head heat_step -vars u -outvars cost -size n=10 -size nsteps=20 examples/heat.f90\n"
        }
        "serve" => {
            "radtap serve: the web submission service (form at /, JSON API at /api/differentiate and /api/zip).\n\n\
             Usage: radtap serve [--addr 127.0.0.1:8080] [--max-upload BYTES] [--timeout SECONDS] [--workers N]\n\n  \
               --addr HOST:PORT     address to listen on (default 127.0.0.1:8080)\n  \
               --max-upload BYTES   largest request body (default 2 MiB; larger is answered 413)\n  \
               --timeout SECONDS    time limit of a request (default 20; answered 503)\n  \
               --workers N          requests differentiated at once (default: the number of cores)\n\n\
             Prints `listening on http://ADDR`; stops on SIGINT or SIGTERM after the requests in flight.\n"
        }
        "runtime" => {
            "radtap runtime: writes the runtime the adjoint code links against (adStack.c/.h, adBinomial.c/.h).\n\n\
             Usage: radtap runtime -O DIR\n"
        }
        _ => return None,
    })
}

/// Command line, Tapenade-compatible.
#[derive(Parser, Debug, Default, Clone)]
#[command(
    name = "radtap",
    version,
    about = "Source-to-source automatic differentiation of Fortran and C.\n\
             Commands: radtap [OPTIONS] FILE... (differentiate), radtap validate [OPTIONS] FILE... \
             (check derivatives numerically), radtap runtime -O DIR (the adjoint's runtime), \
             radtap serve (the web service). --help says more.",
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
    #[arg(long = "head", visible_alias = "root")]
    pub head: Option<String>,
    /// Independent input variables of the head (space-separated).
    #[arg(long = "vars")]
    pub vars: Option<String>,
    /// Dependent output variables of the head (space-separated).
    #[arg(long = "outvars")]
    pub outvars: Option<String>,
    /// Output file stem (default: the stem of the first input file): `-o heat_tl` writes
    /// heat_tl_d.f90, as Tapenade's `-output`.
    #[arg(short = 'o', long = "output")]
    pub stem: Option<String>,
    /// Output directory (created if missing).
    #[arg(short = 'O', long = "outputdirectory")]
    pub outdir: Option<PathBuf>,
    /// Include directory (repeatable) for the preprocessor, INCLUDE lines and C quoted
    /// `#include "..."` (searched after the including file's directory).
    #[arg(short = 'I')]
    pub include: Vec<PathBuf>,
    /// A description of routines without source, in Tapenade's library syntax (repeatable):
    /// their derivatives are called as NAME_d / NAME_b, which you supply.
    #[arg(long = "ext", value_name = "LIBFILE")]
    pub ext: Vec<PathBuf>,
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
    /// Tangent module and derived-type name pattern (default `%_d`, vector `%_dv`).
    #[arg(long = "tgtmodulename")]
    pub tgtmodulename: Option<String>,
    /// Adjoint module and derived-type name pattern (default `%_b`).
    #[arg(long = "adjmodulename")]
    pub adjmodulename: Option<String>,
    /// Module and derived-type name pattern of both modes (`-tgtmodulename` and
    /// `-adjmodulename` take precedence).
    #[arg(long = "modulename")]
    pub modulename: Option<String>,
    /// Language of the input files, as Tapenade names it (fortran, fortran77, fortran90,
    /// fortran95, c): checked against each file's extension, which decides.
    #[arg(long = "inputlanguage", value_name = "LANG")]
    pub inputlanguage: Option<String>,
    /// Language of the output files: the input's (fortran90/fortran95 for Fortran, written in
    /// free form; c for C).
    #[arg(long = "outputlanguage", value_name = "LANG")]
    pub outputlanguage: Option<String>,
    /// Tapenade options radtap reads without a field of its own (`-msglevel 20`, `-noisize`,
    /// `-r8`, ...), put here by `normalize_args`: accepted, or refused naming the option.
    #[arg(long = "tapenade-option", hide = true, allow_hyphen_values = true)]
    pub tapenade_option: Vec<String>,
    /// Adjoint: do not checkpoint calls (split mode).
    #[arg(long = "nocheckpoint")]
    pub nocheckpoint: bool,
    /// Turn off an optimization (the names of `radtap_pipeline::optim::OPTIMS`).
    #[arg(long = "nooptim", help = radtap_pipeline::optim::help())]
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
    /// validate: a source file compiled and linked with the program (repeatable): the routines
    /// `-ext` describes, and the NAME_d / NAME_b you wrote for them.
    #[arg(long = "link", value_name = "FILE")]
    pub link: Vec<PathBuf>,
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
    /// validate: run the drivers of an MPI program on N ranks under mpirun (default 2 when
    /// the program calls MPI).
    #[arg(long = "np", value_name = "N")]
    pub np: Option<u32>,
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
