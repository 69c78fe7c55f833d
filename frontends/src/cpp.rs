//! Running the C preprocessor on `.F`/`.F90` files, with a map from output lines back to the
//! user's file. Linemarkers (`# 12 "file"`) are removed (they would break continued
//! statements) and blank lines keep the map one entry per output line.

use std::io::Write;
use std::process::{Command, Stdio};

/// Preprocesses `text`; returns the output and, for each output line, its line in `path`.
pub(crate) fn preprocess(path: &str, text: &str) -> Result<(String, Vec<u32>), String> {
    run_cpp(path, text, &["-traditional-cpp", "-undef", "-nostdinc"])
}

/// Preprocesses a C file that uses conditional compilation. `#include` lines are taken out
/// before (system headers would flood the program with their declarations) and put back at
/// the top of the result; macros are expanded. With `keep_defines` (a user's header, whose
/// include guard is such a conditional), the `#define` lines stay too (`cpp -dD`): the
/// header's object-like macros then stay known to the analyses (`NP` in `x[i * NP]`), and a
/// header is included by the generated files, never copied, so they add nothing there.
pub(crate) fn preprocess_c(
    path: &str,
    text: &str,
    keep_defines: bool,
) -> Result<(String, Vec<u32>), String> {
    let mut includes = Vec::new();
    let mut stripped = String::with_capacity(text.len());
    for (i, l) in text.lines().enumerate() {
        if l.trim_start().starts_with("#include") || l.trim_start().starts_with("# include") {
            includes.push((l.to_string(), i as u32 + 1));
            stripped.push('\n');
        } else {
            stripped.push_str(l);
            stripped.push('\n');
        }
    }
    let flags: &[&str] = if keep_defines {
        &["-undef", "-dD"]
    } else {
        &["-undef"]
    };
    let (body, body_map) = run_cpp(path, &stripped, flags)?;
    let mut out = String::new();
    let mut map = Vec::new();
    for (l, n) in includes {
        out.push_str(&l);
        out.push('\n');
        map.push(n);
    }
    out.push_str(&body);
    map.extend(body_map);
    Ok((out, map))
}

fn run_cpp(path: &str, text: &str, flags: &[&str]) -> Result<(String, Vec<u32>), String> {
    let dir = std::path::Path::new(path)
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or_default();
    let mut child = Command::new("cpp")
        .args(flags)
        .arg("-I")
        .arg(if dir.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            dir.as_path()
        })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run cpp: {e}"))?;
    // Written from a thread: a preprocessor that streams would otherwise fill the output
    // pipe while we still write its input, and both would wait forever.
    let writer = child.stdin.take().map(|mut stdin| {
        let input = text.to_string();
        std::thread::spawn(move || stdin.write_all(input.as_bytes()))
    });
    let out = child.wait_with_output().map_err(|e| format!("cpp: {e}"))?;
    if let Some(w) = writer {
        // A write error (cpp exited early) shows in cpp's own status and messages.
        let _ = w.join();
    }
    if !out.status.success() {
        return Err(format!(
            "the C preprocessor failed:\n{}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let raw = String::from_utf8_lossy(&out.stdout);
    let mut lines = Vec::new();
    let mut map = Vec::new();
    let mut cur: u32 = 1;
    let mut ours = true;
    for l in raw.lines() {
        if let Some(rest) = l.strip_prefix("# ") {
            let mut parts = rest.split_whitespace();
            if let Some(n) = parts.next().and_then(|n| n.parse::<u32>().ok()) {
                cur = n;
                ours = parts.next().is_none_or(|f| f == "\"<stdin>\"");
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
            map.push(cur);
        }
        cur += 1;
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Ok((text, map))
}

/// The location and message of the first error in cpp's messages about its input
/// (`<stdin>:3:2: error: #error boom`, the column optional): cpp reads the source from stdin,
/// so the line is the user's (blank lines keep the numbering).
pub(crate) fn first_error(messages: &str) -> Option<(u32, u32, String)> {
    messages.lines().find_map(|l| {
        let rest = l.strip_prefix("<stdin>:")?;
        let (line, rest) = rest.split_once(':')?;
        let line = line.parse::<u32>().ok()?;
        let (col, rest) = match rest.split_once(':') {
            Some((c, r)) if c.parse::<u32>().is_ok() => (c.parse::<u32>().ok()?, r),
            _ => (1, rest),
        };
        let msg = rest.trim_start().strip_prefix("error:")?.trim();
        Some((line, col.max(1), msg.to_string()))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn first_error_reads_line_and_column() {
        let m = "In file included ...\n<stdin>:3:2: error: #error boom\n<stdin>:9: error: x";
        assert_eq!(super::first_error(m), Some((3, 2, "#error boom".into())));
        assert_eq!(
            super::first_error("<stdin>:9: error: unterminated"),
            Some((9, 1, "unterminated".into()))
        );
        assert_eq!(super::first_error("<stdin>:2:1: warning: w"), None);
    }
}
