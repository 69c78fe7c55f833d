//! Running the C preprocessor, with a map from output lines back to the user's file.
//! Linemarkers (`# 12 "file" 1`) are read and removed (they would break continued Fortran
//! statements); blank lines keep the map one entry per output line.
//!
//! Two regimes. With [`Preprocessor::read_includes`] (the command line and the web service)
//! the whole translation unit goes through `cpp` (or `$CPP`) with the user's `-I`, `-D` and
//! `-U`: headers are read, their macros and conditionals take effect, and what they hold is
//! dropped from the output (C: the analyses see user headers as files of their own, system
//! headers through radtap's vocabulary) except that each `#include` the preprocessor took is
//! written back on its own line, so the generated file includes what its original included;
//! Fortran keeps the included text, located at the `#include`. Quoted includes are searched
//! beside the including file, or, with [`Preprocessor::base_dir`], in that directory, where
//! cpp then runs: the web service writes a request's files into a private directory and
//! names it there, after refusing every include that could leave it (an absolute name, a
//! `..`, a computed `#include MACRO`: `web/src/includes.rs`), so cpp reads the submission
//! and the system headers only, and names them by their submitted names. Without
//! `read_includes` (library callers that give every header in memory), C `#include` lines
//! are taken out before cpp runs and put back at the top.

use crate::Preprocessor;
use std::io::Write;
use std::process::{Command, Stdio};

/// What to do with the lines of files the source includes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Included {
    /// Dropped; each `#include` taken is written back at its line (C).
    Dropped,
    /// Kept, located at the `#include` line of the source (Fortran).
    Kept,
}

/// Preprocesses a `.F`/`.F90` file (traditional mode); returns the output and, for each
/// output line, its line in `path`.
pub(crate) fn preprocess(
    path: &str,
    text: &str,
    pp: &Preprocessor,
) -> Result<(String, Vec<u32>), String> {
    let mut flags = vec!["-traditional-cpp".to_string(), "-undef".into()];
    flags.push("-nostdinc".into());
    let run = run_cpp(path, text, &flags, pp, Included::Kept)?;
    Ok((run.text, run.map))
}

/// Preprocesses a C file. With `keep_defines` (a user's header), the `#define` lines stay
/// too (`cpp -dD`): the header's object-like macros then stay known to the analyses (`NP`
/// in `x[i * NP]`), and a header is included by the generated files, never copied, so
/// they add nothing there.
pub(crate) fn preprocess_c(
    path: &str,
    text: &str,
    keep_defines: bool,
    pp: &Preprocessor,
) -> Result<(String, Vec<u32>), String> {
    let mut flags: Vec<String> = Vec::new();
    if keep_defines {
        flags.push("-dD".into());
    }
    if pp.read_includes {
        return run_cpp(path, text, &flags, pp, Included::Dropped).map(|r| (r.text, r.map));
    }
    flags.push("-undef".into());
    let mut includes = Vec::new();
    let mut stripped = String::with_capacity(text.len());
    for (i, l) in text.lines().enumerate() {
        if is_include(l) {
            includes.push((l.to_string(), i as u32 + 1));
            stripped.push('\n');
        } else {
            stripped.push_str(l);
            stripped.push('\n');
        }
    }
    let body = run_cpp(path, &stripped, &flags, pp, Included::Dropped)?;
    let mut out = String::new();
    let mut map = Vec::new();
    for (l, n) in includes {
        out.push_str(&l);
        out.push('\n');
        map.push(n);
    }
    out.push_str(&body.text);
    map.extend(body.map);
    Ok((out, map))
}

/// The user headers a C source includes, directly or through other headers, as the
/// preprocessor finds them with the user's options (`#if` branches not taken are not
/// followed; system headers are left out): each after the headers it includes, so that
/// lowering them in this order declares what a header uses before the header.
pub(crate) fn user_headers(
    path: &str,
    text: &str,
    pp: &Preprocessor,
) -> Result<Vec<String>, String> {
    run_cpp(path, text, &[], pp, Included::Dropped).map(|r| r.headers)
}

/// The directive of a line (`if`, `ifdef`, `ifndef`, `elif`, `else`, `endif`, `include`), if
/// it is one of those.
fn directive(l: &str) -> Option<&'static str> {
    let r = l.trim_start().strip_prefix('#')?.trim_start();
    ["ifdef", "ifndef", "if", "elif", "else", "endif", "include"]
        .into_iter()
        .find(|d| {
            r.strip_prefix(d).is_some_and(|t| {
                t.is_empty() || !t.starts_with(|c: char| c.is_alphanumeric() || c == '_')
            })
        })
}

/// The lines `a..=b` of the outermost conditional (`#if` … `#endif`) around line `i` when it
/// holds nothing but includes, conditionals, blank lines and `//` comments (llama2.c's
/// `#if defined _WIN32 / #include "win.h" / #else / #include <unistd.h> / #endif`): the
/// generated file writes it back whole, so it includes on every platform what the original
/// does.
fn include_block(src: &[&str], i: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut start = 0usize;
    for (k, l) in src.iter().enumerate() {
        match directive(l) {
            Some("if" | "ifdef" | "ifndef") => {
                if depth == 0 {
                    start = k;
                }
                depth += 1;
            }
            Some("endif") if depth > 0 => {
                depth -= 1;
                if depth == 0 && start < i && i < k {
                    let plain = src[start..=k].iter().all(|l| {
                        let t = l.trim();
                        t.is_empty() || t.starts_with("//") || directive(l).is_some()
                    });
                    return plain.then_some((start, k));
                }
            }
            _ => {}
        }
        if depth == 0 && k > i {
            return None;
        }
    }
    None
}

fn is_include(l: &str) -> bool {
    let t = l.trim_start();
    t.strip_prefix('#')
        .is_some_and(|r| r.trim_start().starts_with("include"))
}

/// The preprocessor's command: `$CPP` (split at blanks: `gcc -E`), else `cpp`.
fn command() -> Command {
    let spec = std::env::var("CPP").ok().filter(|s| !s.trim().is_empty());
    let spec = spec.unwrap_or_else(|| "cpp".into());
    let mut words = spec.split_whitespace();
    let mut c = Command::new(words.next().unwrap_or("cpp"));
    c.args(words);
    c
}

struct Run {
    text: String,
    map: Vec<u32>,
    /// User (non-system) headers entered, each once, in the order they were finished.
    headers: Vec<String>,
}

fn run_cpp(
    path: &str,
    text: &str,
    flags: &[String],
    pp: &Preprocessor,
    included: Included,
) -> Result<Run, String> {
    // Quoted includes are searched from the including file's directory, or from the base
    // directory cpp then runs in (the web service's request directory).
    let dir = match &pp.base_dir {
        Some(_) => std::path::PathBuf::from("."),
        None => std::path::Path::new(path)
            .parent()
            .map(|p| p.to_path_buf())
            .unwrap_or_default(),
    };
    let dir = if dir.as_os_str().is_empty() {
        std::path::PathBuf::from(".")
    } else {
        dir
    };
    let mut cmd = command();
    if let Some(base) = &pp.base_dir {
        cmd.current_dir(base);
    }
    cmd.args(flags);
    if pp.read_includes && included == Included::Dropped {
        // Quoted includes beside the file, as for a file cpp opens itself.
        cmd.arg("-iquote").arg(&dir);
    } else {
        cmd.arg("-I").arg(&dir);
    }
    if pp.read_includes {
        for d in &pp.include_dirs {
            cmd.arg("-I").arg(d);
        }
    }
    for d in &pp.defines {
        cmd.arg(format!("-D{d}"));
    }
    for u in &pp.undefs {
        cmd.arg(format!("-U{u}"));
    }
    let out = run_with_library_stubs(&mut cmd, text, pp.base_dir.as_deref())?;
    let src_lines: Vec<&str> = text.lines().collect();
    let raw = String::from_utf8_lossy(&out.stdout);
    let mut lines = Vec::new();
    let mut map = Vec::new();
    let mut headers: Vec<String> = Vec::new();
    // The files entered, innermost last: (name, system header).
    let mut stack: Vec<(String, bool)> = Vec::new();
    let mut cur: u32 = 1;
    // The source's line where the outermost include being read stands.
    let mut at: u32 = 1;
    let mut ours = true;
    // The first lines of the include blocks already written back.
    let mut written: Vec<usize> = Vec::new();
    for l in raw.lines() {
        if let Some(rest) = l.strip_prefix("# ") {
            let mut parts = rest.split_whitespace();
            if let Some(n) = parts.next().and_then(|n| n.parse::<u32>().ok()) {
                let name = parts.next().unwrap_or("\"<stdin>\"");
                let flags: Vec<&str> = parts.collect();
                let name = name.trim_matches('"').to_string();
                let stdin = name == "<stdin>";
                if flags.contains(&"1") {
                    if stack.is_empty() {
                        at = cur;
                    }
                    stack.push((name.clone(), flags.contains(&"3")));
                } else if flags.contains(&"2") {
                    if let Some((h, system)) = stack.pop() {
                        if !system && !headers.contains(&h) {
                            headers.push(h);
                        }
                    }
                    // Back in the source after an include: write the include back, with
                    // the conditionals around it when they hold includes only.
                    if stdin && included == Included::Dropped && n > 1 {
                        let i = n as usize - 2;
                        if src_lines.get(i).is_some_and(|l| is_include(l)) {
                            match include_block(&src_lines, i) {
                                Some((a, _)) if written.contains(&a) => {}
                                Some((a, b)) => {
                                    written.push(a);
                                    for (k, l) in src_lines.iter().enumerate().take(b + 1).skip(a) {
                                        if directive(l).is_some() {
                                            lines.push(l.trim_end().to_string());
                                            map.push(k as u32 + 1);
                                        }
                                    }
                                }
                                None => {
                                    lines.push(src_lines[i].trim_end().to_string());
                                    map.push(n - 1);
                                }
                            }
                        }
                    }
                }
                cur = n;
                // The `<built-in>` and `<command-line>` prologue is not ours; an included
                // file's text is, in Fortran.
                ours = stdin || (included == Included::Kept && !stack.is_empty());
                continue;
            }
        }
        if ours {
            // `cpp -dD` writes an empty macro as `#define NAME ` (a trailing blank), which
            // tree-sitter reads on into the following lines.
            let l = if l.starts_with("#define") {
                l.trim_end()
            } else {
                l
            };
            lines.push(l.to_string());
            map.push(if stack.is_empty() { cur } else { at });
        }
        cur += 1;
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Ok(Run { text, map, headers })
}

/// Runs cpp on `text`. A library header in angle brackets that no directory holds
/// (`#include <extlib.h>`, `<mpi.h>` without its `-I`) is not the user's to give: cpp runs
/// again with an empty stand-in for it (searched last, `-idirafter`), so its functions are
/// unknown routines (refused where they touch derivatives, AD070) and its types unknown
/// (AD030) rather than the whole file refused. A quoted header missing stays an error.
/// The stand-ins go in a directory of their own under `base` when there is one (the web
/// service's request directory, removed with it), else under the system's temporary
/// directory; either way the directory is removed before returning.
fn run_with_library_stubs(
    cmd: &mut Command,
    text: &str,
    base: Option<&std::path::Path>,
) -> Result<std::process::Output, String> {
    let mut stubs: Option<std::path::PathBuf> = None;
    let mut result = Err(String::new());
    for _ in 0..32 {
        let mut c = Command::new(cmd.get_program());
        c.args(cmd.get_args());
        if let Some(d) = cmd.get_current_dir() {
            c.current_dir(d);
        }
        if let Some(d) = &stubs {
            c.arg("-idirafter").arg(d);
        }
        let mut child = match c
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(ch) => ch,
            Err(e) => {
                result = Err(format!("cannot run cpp: {e}"));
                break;
            }
        };
        // Written from a thread: a preprocessor that streams would otherwise fill the output
        // pipe while we still write its input, and both would wait forever.
        let writer = child.stdin.take().map(|mut stdin| {
            let input = text.to_string();
            std::thread::spawn(move || stdin.write_all(input.as_bytes()))
        });
        let out = match child.wait_with_output() {
            Ok(o) => o,
            Err(e) => {
                result = Err(format!("cpp: {e}"));
                break;
            }
        };
        if let Some(w) = writer {
            // A write error (cpp exited early) shows in cpp's own status and messages.
            let _ = w.join();
        }
        if out.status.success() {
            result = Ok(out);
            break;
        }
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        result = Err(format!("the C preprocessor failed:\n{}", err.trim()));
        let missing = err.lines().find_map(|l| {
            let name = l.split("fatal error: ").nth(1)?;
            name.strip_suffix(": No such file or directory")
                .map(str::to_string)
        });
        let Some(name) = missing else { break };
        let angle = format!("<{name}>");
        let bracketed = err
            .lines()
            .any(|l| l.contains("#include") && l.contains(&angle))
            || text.lines().any(|l| is_include(l) && l.contains(&angle));
        if !bracketed || name.contains("..") || name.starts_with('/') {
            break;
        }
        let dir = stubs.get_or_insert_with(|| {
            // Absolute: cpp may run in `base`.
            let area = base
                .and_then(|b| std::path::absolute(b).ok())
                .unwrap_or_else(std::env::temp_dir);
            area.join(format!(
                "radtap-cpp-{}-{:p}",
                std::process::id(),
                text.as_ptr()
            ))
        });
        let stub = dir.join(&name);
        let made = stub
            .parent()
            .is_some_and(|p| std::fs::create_dir_all(p).is_ok())
            && !stub.exists()
            && std::fs::write(&stub, "").is_ok();
        if !made {
            break;
        }
    }
    if let Some(d) = stubs {
        let _ = std::fs::remove_dir_all(d);
    }
    result
}

/// The first error in cpp's messages about its input.
pub(crate) struct CppError {
    /// The source's line: where the error is, or the `#include` of the file it is in.
    pub(crate) line: u32,
    /// The column (1 at an `#include`).
    pub(crate) col: u32,
    /// cpp's message.
    pub(crate) msg: String,
    /// `file:line:col` of the error when it is in a file the source includes.
    pub(crate) inside: Option<String>,
}

/// The location and message of the first error in cpp's messages about its input
/// (`<stdin>:3:2: error: #error boom`, the column optional; `fatal error:` for a header
/// not found): cpp reads the source from stdin, so the line is the user's (blank lines keep
/// the numbering). An error in an included file (`In file included from <stdin>:1:` /
/// `defs.h:2:2: error: …`) is placed at the source's `#include` that brings it in.
pub(crate) fn first_error(messages: &str) -> Option<CppError> {
    // The source's line of the include being reported, from the "included from" lines.
    let mut included_at: Option<u32> = None;
    for l in messages.lines() {
        let context = l
            .strip_prefix("In file included from ")
            .or_else(|| l.trim_start().strip_prefix("from "));
        if let Some(c) = context {
            let c = c.trim_end_matches([',', ':']);
            if let Some(n) = c.strip_prefix("<stdin>:") {
                let n = n.split(':').next().unwrap_or(n);
                included_at = n.parse().ok().or(included_at);
            }
            continue;
        }
        let Some((loc, msg)) = l
            .split_once(": error: ")
            .or_else(|| l.split_once(": fatal error: "))
        else {
            if !l.starts_with(' ') {
                included_at = None;
            }
            continue;
        };
        let msg = msg.trim().to_string();
        if let Some(rest) = loc.strip_prefix("<stdin>:") {
            let mut parts = rest.split(':');
            let Some(line) = parts.next().and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            let col = parts
                .next()
                .and_then(|c| c.parse::<u32>().ok())
                .unwrap_or(1);
            return Some(CppError {
                line,
                col: col.max(1),
                msg,
                inside: None,
            });
        }
        if let Some(line) = included_at {
            return Some(CppError {
                line,
                col: 1,
                msg,
                inside: Some(loc.to_string()),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    fn first(m: &str) -> Option<(u32, u32, String, Option<String>)> {
        super::first_error(m).map(|e| (e.line, e.col, e.msg, e.inside))
    }

    #[test]
    fn first_error_reads_line_and_column() {
        let m = "In file included ...\n<stdin>:3:2: error: #error boom\n<stdin>:9: error: x";
        assert_eq!(first(m), Some((3, 2, "#error boom".into(), None)));
        assert_eq!(
            first("<stdin>:9: error: unterminated"),
            Some((9, 1, "unterminated".into(), None))
        );
        assert_eq!(first("<stdin>:2:1: warning: w"), None);
        assert_eq!(
            first("<stdin>:4:10: fatal error: win.h: No such file or directory"),
            Some((4, 10, "win.h: No such file or directory".into(), None))
        );
    }

    #[test]
    fn an_error_in_an_included_file_is_placed_at_the_include() {
        let m = "In file included from defs.h:3,\n                 from <stdin>:2:\n\
                 sub.h:1:10: fatal error: x.h: No such file or directory\n";
        assert_eq!(
            first(m),
            Some((
                2,
                1,
                "x.h: No such file or directory".into(),
                Some("sub.h:1:10".into())
            ))
        );
        let m = "In file included from <stdin>:1:\ndefs.h:2:2: error: #error no\n";
        assert_eq!(
            first(m),
            Some((1, 1, "#error no".into(), Some("defs.h:2:2".into())))
        );
    }
}
