//! Compiling the driver with the system gcc/gfortran and running it under a time limit.

use radtap_il::Lang;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The compilers and flags of one validation.
#[derive(Clone, Debug)]
pub struct Toolchain {
    pub cc: String,
    pub fc: String,
    /// Flags for the user's code, the generated code and the driver (`-cflags`).
    pub cflags: Vec<String>,
    /// Fortran flags (`-fflags`).
    pub fflags: Vec<String>,
    /// Time limit of each run.
    pub timeout: Duration,
    /// Include directories of C compiles (`-I`, absolute): the directories of the user's
    /// sources and radtap's `-I`, where the headers the generated code includes are.
    pub include: Vec<PathBuf>,
    /// Whether the compilers build and run AddressSanitizer programs (probed once, at the
    /// first compile): the user's code, the derivatives and the driver are then built with
    /// it, so a head reading memory the driver did not allocate stops with an error instead
    /// of computing a verdict from whatever lies there.
    sanitize: std::sync::OnceLock<bool>,
    /// Libraries linked after the objects (`-lblas` for a program calling the BLAS radtap
    /// describes built in).
    pub libs: Vec<String>,
    /// The user's objects already compiled (with their main programs renamed) by this
    /// toolchain: each driver of one validation links the same ones.
    user_objects: std::sync::Arc<std::sync::Mutex<Vec<PathBuf>>>,
    /// The code has OpenMP directives (issue 45): everything compiles and links with
    /// `-fopenmp`, and each program runs with 1 and with 2 threads (`lib.rs`).
    pub openmp: bool,
    /// An MPI program run on this many ranks (`-np N`, issue 46; [`crate::mpi`]).
    pub mpi: Option<u32>,
}

/// The AddressSanitizer flags of compiles and links.
const SANITIZE: [&str; 2] = ["-fsanitize=address", "-fno-omit-frame-pointer"];

impl Toolchain {
    /// `$CC`/`$FC` or gcc/gfortran, with `-O0 -g` unless flags are given.
    pub fn new(cflags: Option<&str>, fflags: Option<&str>, timeout: Duration) -> Toolchain {
        let words = |s: Option<&str>| -> Vec<String> {
            s.unwrap_or("-O0 -g")
                .split_whitespace()
                .map(str::to_string)
                .collect()
        };
        Toolchain {
            cc: std::env::var("CC").unwrap_or_else(|_| "gcc".into()),
            fc: std::env::var("FC").unwrap_or_else(|_| "gfortran".into()),
            cflags: words(cflags),
            fflags: words(fflags),
            timeout,
            include: Vec::new(),
            sanitize: std::sync::OnceLock::new(),
            libs: Vec::new(),
            user_objects: Default::default(),
            openmp: false,
            mpi: None,
        }
    }

    /// An MPI program's toolchain: `mpicc`/`mpif90`, no AddressSanitizer (OpenMPI's
    /// libraries are not built with it), runs on `np` ranks.
    pub fn with_mpi(mut self, np: u32) -> Toolchain {
        self.cc = "mpicc".into();
        self.fc = "mpif90".into();
        self.mpi = Some(np);
        self.without_sanitizer()
    }

    /// Builds without AddressSanitizer (for programs run under valgrind, which cannot run
    /// sanitized code).
    pub fn without_sanitizer(mut self) -> Toolchain {
        self.sanitize = std::sync::OnceLock::from(false);
        self
    }

    /// Whether AddressSanitizer works here (a tiny C program built with it runs), probed in
    /// `dir` once. `RADTAP_NO_SANITIZE` set turns it off.
    fn sanitizer(&self, dir: &Path) -> bool {
        *self.sanitize.get_or_init(|| {
            if std::env::var_os("RADTAP_NO_SANITIZE").is_some() {
                return false;
            }
            // One probe per process and C compiler: a test suite builds hundreds of
            // programs with toolchains of its own.
            static PROBED: std::sync::Mutex<Vec<(String, bool)>> =
                std::sync::Mutex::new(Vec::new());
            let mut probed = PROBED.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, ok)) = probed.iter().find(|(cc, _)| *cc == self.cc) {
                return *ok;
            }
            let src = dir.join("radtap_asan_probe.c");
            let exe = dir.join("radtap_asan_probe");
            let ok = std::fs::write(&src, "int main(void) { return 0; }\n").is_ok()
                && Command::new(&self.cc)
                    .args(SANITIZE)
                    .arg(&src)
                    .arg("-o")
                    .arg(&exe)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
                && Command::new(&exe)
                    .env("ASAN_OPTIONS", "detect_leaks=0")
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success());
            let _ = std::fs::remove_file(&src);
            let _ = std::fs::remove_file(&exe);
            probed.push((self.cc.clone(), ok));
            ok
        })
    }

    /// Checks that the compiler for `lang` (and gcc for the runtime) runs.
    pub fn check(&self, lang: Lang) -> Result<(), String> {
        let mut need = vec![(self.cc.as_str(), "C", "CC", "gcc")];
        if lang == Lang::Fortran {
            need.push((self.fc.as_str(), "Fortran", "FC", "gfortran"));
        }
        for (cmd, what, var, pkg) in need {
            let ok = Command::new(cmd)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                return Err(format!(
                    "no {what} compiler found: `{cmd} --version` does not run; install {pkg} (e.g. `apt-get install {pkg}`) or set {var}"
                ));
            }
        }
        Ok(())
    }

    /// Compiles the runtime (`adStack.c`, `adBinomial.c`) to one object `adRuntime.o` in
    /// `dir` (once).
    pub fn runtime(&self, dir: &Path) -> Result<PathBuf, String> {
        // With OpenMP, the stack is thread-local (`adStack.c`).
        let (name, omp): (&str, &[&str]) = if self.openmp {
            ("adRuntimeOmp.o", &["-fopenmp"])
        } else {
            ("adRuntime.o", &[])
        };
        let obj = dir.join(name);
        if obj.exists() {
            return Ok(obj);
        }
        radtap_runtime_stack::write_to(dir).map_err(|e| format!("writing the runtime: {e}"))?;
        // Compiled once per process, C compiler and OpenMP setting (a test suite or `radtap
        // serve` validates many programs), written again into each directory.
        static COMPILED: std::sync::Mutex<Vec<(String, bool, Vec<u8>)>> =
            std::sync::Mutex::new(Vec::new());
        let mut compiled = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, bytes)) = compiled
            .iter()
            .find(|(cc, omp, _)| *cc == self.cc && *omp == self.openmp)
        {
            std::fs::write(&obj, bytes).map_err(|e| format!("writing the runtime: {e}"))?;
            return Ok(obj);
        }
        let steps: [&[&str]; 3] = [
            &["-O2", "-c", "adStack.c", "-o", "adStack.o"],
            &["-O2", "-c", "adBinomial.c", "-o", "adBinomial.o"],
            // One relocatable object of both (a partial link).
            &["-r", "-nostdlib", "-o", name, "adStack.o", "adBinomial.o"],
        ];
        // mpicc would link OpenMPI into the partial link: the runtime needs no MPI.
        let cc = if self.mpi.is_some() {
            "gcc"
        } else {
            self.cc.as_str()
        };
        for args in steps {
            let o = Command::new(cc)
                .current_dir(dir)
                .args(omp)
                .args(args)
                .output()
                .map_err(|e| format!("{}: {e}", self.cc))?;
            if !o.status.success() {
                return Err(format!(
                    "the runtime does not compile:\n{}",
                    String::from_utf8_lossy(&o.stderr)
                ));
            }
        }
        if let Ok(bytes) = std::fs::read(&obj) {
            compiled.push((self.cc.clone(), self.openmp, bytes));
        }
        Ok(obj)
    }

    fn command(&self, lang: Lang, dir: &Path) -> Command {
        let mut c = self.command_plain(lang);
        if self.sanitizer(dir) {
            c.args(SANITIZE);
        }
        c
    }

    fn command_plain(&self, lang: Lang) -> Command {
        let mut c = self.command_lang(lang);
        if self.openmp {
            c.arg("-fopenmp");
        }
        c
    }

    fn command_lang(&self, lang: Lang) -> Command {
        match lang {
            Lang::Fortran => {
                let mut c = Command::new(&self.fc);
                c.args(&self.fflags)
                    .args(["-ffree-line-length-none", "-fno-range-check"]);
                // The INCLUDE files of the user's sources.
                for d in &self.include {
                    c.arg("-I").arg(d);
                }
                c
            }
            Lang::C => {
                let mut c = Command::new(&self.cc);
                c.args(&self.cflags).arg("-D_DEFAULT_SOURCE");
                for d in &self.include {
                    c.arg("-I").arg(d);
                }
                c
            }
        }
    }

    /// Runs a compiler command in `dir`; the error is the command and the compiler's message.
    fn invoke(mut cmd: Command, dir: &Path) -> Result<(), String> {
        cmd.current_dir(dir);
        let shown = format!("{cmd:?}").replace('"', "");
        let o = cmd.output().map_err(|e| format!("{shown}: {e}"))?;
        if !o.status.success() {
            let msg = String::from_utf8_lossy(&o.stderr);
            let lines: Vec<&str> = msg.lines().collect();
            let mut shown_msg = lines
                .iter()
                .take(40)
                .copied()
                .collect::<Vec<_>>()
                .join("\n");
            if lines.len() > 40 {
                shown_msg.push_str(&format!("\n… ({} more lines)", lines.len() - 40));
            }
            return Err(format!("{shown}\n{shown_msg}"));
        }
        Ok(())
    }

    /// Compiles one source to an object in `dir`. With `user`, the object's main program
    /// (`main`, and Fortran's `MAIN__`) is renamed so the driver's can take its place.
    pub fn object(
        &self,
        dir: &Path,
        lang: Lang,
        source: &Path,
        user: bool,
    ) -> Result<PathBuf, String> {
        let obj = object_path(dir, source);
        let src_lang = match source.extension().and_then(|e| e.to_str()) {
            Some("c" | "h") => Lang::C,
            Some(_) => Lang::Fortran,
            None => lang,
        };
        let mut cmd = self.command(src_lang, dir);
        cmd.arg("-c").arg(source).arg("-o").arg(&obj);
        Self::invoke(cmd, dir)?;
        if user {
            let mut cmd = Command::new("objcopy");
            cmd.args([
                "--redefine-sym",
                "main=radtap_user_main",
                "--redefine-sym",
                "MAIN__=radtap_user_MAIN__",
            ])
            .arg(&obj);
            Self::invoke(cmd, dir)?;
        }
        Ok(obj)
    }

    /// Compiles `sources` (the user's first, whose main programs step aside) and links them
    /// with `objects` into `exe` in `dir`.
    pub fn compile(
        &self,
        dir: &Path,
        lang: Lang,
        user: &[PathBuf],
        sources: &[PathBuf],
        objects: &[PathBuf],
        exe: &str,
    ) -> Result<PathBuf, String> {
        let mut objs = Vec::new();
        for s in user {
            let obj = object_path(dir, s);
            let done = self.user_objects.lock().unwrap_or_else(|e| e.into_inner());
            if done.contains(&obj) && obj.exists() {
                objs.push(obj);
                continue;
            }
            drop(done);
            let obj = self.object(dir, lang, s, true)?;
            self.user_objects
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(obj.clone());
            objs.push(obj);
        }
        for s in sources {
            objs.push(self.object(dir, lang, s, false)?);
        }
        objs.extend(objects.iter().cloned());
        let mut cmd = self.command(lang, dir);
        cmd.arg("-o")
            .arg(exe)
            .args(&objs)
            .args(&self.libs)
            .arg("-lm");
        Self::invoke(cmd, dir)?;
        Ok(dir.join(exe))
    }

    /// Runs `exe` in `dir` with the time limit; stdout goes through a file so a large output
    /// cannot block the child.
    pub fn run(&self, dir: &Path, exe: &Path) -> Result<String, String> {
        self.run_in(dir, dir, exe)
    }

    /// [`run`](Self::run) in the working directory `cwd`, its output files in `dir`.
    pub fn run_in(&self, cwd: &Path, dir: &Path, exe: &Path) -> Result<String, String> {
        self.run_threads(cwd, dir, exe, None)
    }

    /// [`run_in`](Self::run_in) with `OMP_NUM_THREADS` set to `threads` when given.
    pub fn run_threads(
        &self,
        cwd: &Path,
        dir: &Path,
        exe: &Path,
        threads: Option<u32>,
    ) -> Result<String, String> {
        let out_path = dir.join(format!(
            "{}.out",
            exe.file_name()
                .map_or("run".into(), |f| f.to_string_lossy())
        ));
        let out = std::fs::File::create(&out_path).map_err(|e| format!("{e}"))?;
        let err_path = out_path.with_extension("err");
        let err = std::fs::File::create(&err_path).map_err(|e| format!("{e}"))?;
        let mut cmd = Command::new(exe);
        if let Some(n) = threads {
            cmd.env("OMP_NUM_THREADS", n.to_string());
        }
        let mut child = cmd
            .current_dir(cwd)
            // Leaks of the user's code are no fault of its derivatives.
            .env("ASAN_OPTIONS", "detect_leaks=0")
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if start.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "{} did not finish within {} s (the time limit; raise it with -timeout)",
                        exe.display(),
                        self.timeout.as_secs()
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(format!("waiting for {}: {e}", exe.display())),
            }
        };
        let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
        if !status.success() {
            let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
            let how = match status.code() {
                Some(c) => format!("exit status {c}"),
                None => "a signal (a crash: out-of-bounds access, stack overflow, …)".into(),
            };
            if let Some(report) = sanitizer_report(&stderr) {
                return Err(format!(
                    "{} stopped with an access to memory the driver did not allocate ({report}): an extent the driver used is too small; give the sizes the head uses with -size",
                    exe.display()
                ));
            }
            let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(format!(
                "{} stopped with {how}\n{}",
                exe.display(),
                tail.join("\n")
            ));
        }
        Ok(stdout)
    }
}

/// Where [`Toolchain::object`] puts the object of `source`.
fn object_path(dir: &Path, source: &Path) -> PathBuf {
    let stem = source
        .file_name()
        .map_or("src".into(), |f| f.to_string_lossy().replace('.', "_"));
    dir.join(format!("{stem}.o"))
}

/// Parsed driver output: tag → (name, value) in print order.
pub fn parse_out(s: &str) -> std::collections::HashMap<String, Vec<(String, f64)>> {
    parse_out_with(s, &[])
}

/// [`parse_out`] with the driver's binary output `bin` (native `f64`s): a line `TAG name k0
/// @n` stands for its next `n` values ([`crate::loops`]). Values missing from `bin` are NaN.
pub fn parse_out_with(
    s: &str,
    bin: &[u8],
) -> std::collections::HashMap<String, Vec<(String, f64)>> {
    let mut m: std::collections::HashMap<String, Vec<(String, f64)>> = Default::default();
    let mut at = 0usize;
    for l in s.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() != 4 {
            continue;
        }
        let list = m.entry(w[0].to_string()).or_default();
        if let Some(n) = w[3].strip_prefix('@').and_then(|n| n.parse::<usize>().ok()) {
            for _ in 0..n {
                let v = bin.get(at..at + 8).map_or(f64::NAN, |b| {
                    f64::from_ne_bytes(b.try_into().unwrap_or([0; 8]))
                });
                at += 8;
                list.push((w[1].to_string(), v));
            }
            continue;
        }
        let v: f64 = w[3].replace(['d', 'D'], "e").parse().unwrap_or(f64::NAN);
        list.push((w[1].to_string(), v));
    }
    m
}

/// The gist of an AddressSanitizer report: its error line and the first frames of the
/// faulting access.
fn sanitizer_report(stderr: &str) -> Option<String> {
    let err = stderr
        .lines()
        .find(|l| l.contains("ERROR: AddressSanitizer"))?;
    let what = err.split("AddressSanitizer: ").nth(1).unwrap_or(err);
    let what = what.split(" on address").next().unwrap_or(what);
    // Out of bounds of what was allocated; a SEGV or anything else is reported as a crash.
    if !["overflow", "underflow", "use-after"]
        .iter()
        .any(|k| what.contains(k))
    {
        return None;
    }
    let frames: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('#'))
        .take(3)
        .filter_map(|l| l.split(" in ").nth(1))
        .collect();
    Some(format!(
        "AddressSanitizer: {what}, at {}",
        frames.join(" < ")
    ))
}
