//! The driver generator shared by the numeric suites (`tests/tangent.rs`,
//! `tests/adjoint.rs`): reads a corpus file's options and sizes, describes the head from its
//! declarations, and writes Fortran or C drivers that run the primal, the tangent, the
//! vector tangent or the adjoint with deterministic inputs and print tagged values.
#![allow(dead_code, unreachable_pub, unused_imports)]

use radtap::{execute, normalize_args, Cli};
use radtap_il::Lang;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub fn shell_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// Options (line 1) and sizes (line 2) of a corpus file.
pub fn header(path: &Path) -> (Vec<String>, HashMap<String, String>) {
    let text = std::fs::read_to_string(path).expect("corpus file");
    let mut lines = text.lines();
    let opts = lines
        .next()
        .and_then(|l| l.split_once("radtap:"))
        .map(|(_, o)| shell_words(o.trim()))
        .expect("first line: radtap: OPTIONS");
    let mut sizes = HashMap::new();
    if let Some((_, s)) = lines.next().and_then(|l| l.split_once("sizes:")) {
        for w in s.split_whitespace() {
            if let Some((k, v)) = w.split_once('=') {
                sizes.insert(k.to_ascii_lowercase(), v.to_string());
            }
        }
    }
    (opts, sizes)
}

pub fn run_cli(path: &Path, opts: &[String], extra: &[&str], out: &Path) -> radtap::Outcome {
    let mut args = vec!["radtap".to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(opts.iter().cloned());
    args.push("-O".into());
    args.push(out.display().to_string());
    args.push(path.display().to_string());
    let args = normalize_args(args.into_iter());
    let cli = <Cli as clap::Parser>::try_parse_from(args).expect("options parse");
    execute_on_big_stack(&cli)
}

/// `radtap::execute` on a stack as large as the command's (a test thread has 2 MiB: the
/// adjoint of a 240-operand expression overflowed it).
pub fn execute_on_big_stack(cli: &Cli) -> radtap::Outcome {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(radtap::STACK_BYTES)
            .spawn_scoped(s, || execute(cli))
            .expect("a thread")
            .join()
            .expect("radtap panicked")
    })
}

pub use radtap_validation::build::parse_out;
pub use radtap_validation::{Head, Kind};

/// Directions of the vector-mode driver.
pub const NDIR: usize = radtap_validation::driver::NDIR;
/// Divided-difference step of the suites' tangent driver.
pub const H: f64 = 1e-6;

/// The head of `gen` sized from a corpus file's `sizes:` line.
pub fn describe(gen: &radtap_diff_tangent::Output, sizes: &HashMap<String, String>) -> Head {
    let s = radtap_validation::Sizes(sizes.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
    radtap_validation::describe(gen, &s).unwrap_or_else(|e| panic!("sizing the head: {e}"))
}

/// The suites' driver: seed 1, step `H`, the default adjoint weights, the generated file
/// `gen_*.c` included in C.
pub fn driver(h: &Head, kind: Kind) -> String {
    let include = match kind {
        Kind::Scalar => "gen_d.c",
        Kind::Vector => "gen_dv.c",
        Kind::Adjoint => "gen_b.c",
    };
    radtap_validation::driver::driver(
        h,
        &radtap_validation::Spec {
            kind,
            values: radtap_validation::Values { seed: 1 },
            step: H,
            ybar: None,
            include,
            per_dependent: false,
            ridders: false,
            data: None,
        },
    )
}

/// Compiles (gcc/gfortran, `-O0 -g -ftrivial-auto-var-init=pattern`) and runs; returns stdout.
pub fn build_and_run(
    dir: &Path,
    lang: Lang,
    sources: &[PathBuf],
    exe: &str,
) -> Result<String, String> {
    let mut tc = toolchain();
    let (objects, sources): (Vec<PathBuf>, Vec<PathBuf>) = sources
        .iter()
        .cloned()
        .partition(|s| s.extension().is_some_and(|e| e == "o"));
    // OpenMP programs (issue 45) build with `-fopenmp` and run with 2 threads (`radtap
    // validate`, on the same corpus, runs them with 1 and 2).
    tc.openmp = uses_openmp(&sources) || uses_openmp(&objects);
    let exe = tc.compile(dir, lang, &[], &sources, &objects, exe)?;
    let threads = tc.openmp.then_some(2);
    tc.run_threads(dir, dir, &exe, threads)
}

/// Compiles one source to an object in `dir` with the suites' flags (a program's original,
/// compiled once and linked into each of its drivers).
#[allow(dead_code)]
pub fn object(dir: &Path, lang: Lang, source: &Path) -> Result<PathBuf, String> {
    let mut tc = toolchain();
    tc.openmp = uses_openmp(&[source.to_path_buf()]);
    tc.object(dir, lang, source, false)
}

/// The object of a program's original (copied into its directory), compiled at the first
/// build of the program and linked into each of its drivers.
#[allow(dead_code)]
pub fn original_object(orig: &Path, lang: Lang) -> Result<PathBuf, String> {
    let dir = orig.parent().unwrap();
    let obj = dir.join(format!(
        "{}.o",
        orig.file_name()
            .unwrap()
            .to_string_lossy()
            .replace('.', "_")
    ));
    if obj.exists() {
        return Ok(obj);
    }
    object(dir, lang, orig)
}

/// The suites' toolchain: the validation crate's, with stricter flags.
fn toolchain() -> radtap_validation::Toolchain {
    let mut tc = radtap_validation::Toolchain::new(None, None, std::time::Duration::from_secs(120));
    // Uninitialised locals hold a pattern (NaN for reals), not whatever the stack held: a
    // derivative read before it is set shows in the numbers (a split adjoint's VLA).
    tc.cflags.push("-ftrivial-auto-var-init=pattern".into());
    tc.fflags.push("-ftrivial-auto-var-init=pattern".into());
    // gcc 14 refuses a pointer of another type where gcc 12 only warns (a C `long *` passed
    // to the runtime's `long long *`): the generated code must compile on both.
    tc.cflags.push("-Werror=incompatible-pointer-types".into());
    // The corpus's headers (`c_xxx.h`), which the generated files include.
    tc.include
        .push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tangent"));
    tc
}

/// Whether any of `sources` holds an OpenMP directive (`#pragma omp`, `!$omp`), or, for an
/// object (a program's original compiled once with `-fopenmp` by [`object`]), calls libgomp.
pub fn uses_openmp(sources: &[PathBuf]) -> bool {
    sources.iter().any(|s| {
        if s.extension().is_some_and(|e| e == "o") {
            return std::fs::read(s).is_ok_and(|b| b.windows(5).any(|w| w == b"GOMP_"));
        }
        std::fs::read_to_string(s).is_ok_and(|t| {
            let t = t.to_ascii_lowercase();
            t.contains("#pragma omp") || t.contains("!$omp")
        })
    })
}

/// Programs whose constructs vector tangent mode does not support yet, with a fragment of
/// the refusal it must give instead (never code that does not compile): the tangent suites
/// check the refusal and skip the vector run.
pub const VECTOR_UNSUPPORTED: &[(&str, &str)] = &[];

/// The refusal vector mode must give for `path`, when it is listed in `VECTOR_UNSUPPORTED`.
pub fn vector_refusal(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_string_lossy();
    VECTOR_UNSUPPORTED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, m)| *m)
}

/// Programs whose constructs adjoint mode does not support yet, with the reason. Each must
/// still be *refused* with a diagnostic (never wrong code): the suites check that too.
/// Their located AD020 is asserted in `tests/edge_refusals.rs`.
pub const ADJOINT_UNSUPPORTED: &[(&str, &str)] = &[
    (
        "e_c_brace_init.c",
        "a C brace initialiser with active values",
    ),
    (
        "e_c_chain_reads_target.c",
        "a chained C assignment whose value reads one of its targets",
    ),
    (
        "f_two_calls_one_statement.f90",
        "a function writing a module variable, in an expression",
    ),
    (
        "c_static_recurrence.c",
        "a function writing a static local, in an expression",
    ),
    (
        "e_f_array_ctor.f90",
        "an array constructor with an implied DO, `reshape`",
    ),
    (
        "e_f_reshape_active_pad.f90",
        "`reshape` with a PAD that carries a derivative",
    ),
    ("e_c_nr_one_based.c", "free(v + 1) of a 1-based work vector"),
    (
        "e_f_where_forall_sequence.f90",
        "a WHERE assignment reading what an earlier one wrote",
    ),
    (
        "e_f_implied_do.f90",
        "an array constructor made of implied DOs",
    ),
    (
        "e_f_func_side_effect_arg.f90",
        "a function writing its argument, in an expression",
    ),
    (
        "rw_f77_linpack_lu.f",
        "DAXPY on two columns of one array (arguments that may share memory)",
    ),
    (
        "rw_f_heat_ftcs_state.f90",
        "recording a record with an allocatable component (the rod state) around a call",
    ),
    (
        "rw_f_nn_dense.f90",
        "`matmul` of a record's allocatable component (the layer weights)",
    ),
];

/// The corpus files, sorted.
pub fn corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("tests/tangent")
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("f90" | "f" | "c")
            )
        })
        .collect();
    v.sort();
    v
}

/// Runs `check(file, scratch_root)` on every corpus file, two files at a time, in one scratch
/// root under the target's temporary directory (removed afterwards); panics listing every
/// file whose check failed, with its message.
pub fn check_corpus_two_at_a_time(
    tag: &str,
    check: impl Fn(&Path, &Path) -> Result<(), String> + Sync,
) {
    let files = corpus();
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{tag}-{}", std::process::id()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(path) = files.get(i) else { break };
                if let Err(e) = check(path, &root) {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{}: {e}", path.display()));
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&root);
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
