//! Running the C preprocessor on `.F`/`.F90` files, with a map from output lines back to the
//! user's file. Linemarkers (`# 12 "file"`) are removed (they would break continued
//! statements) and blank lines keep the map one entry per output line.

use std::io::Write;
use std::process::{Command, Stdio};

/// Preprocesses `text`; returns the output and, for each output line, its line in `path`.
pub(crate) fn preprocess(path: &str, text: &str) -> Result<(String, Vec<u32>), String> {
    let dir = std::path::Path::new(path).parent().map(|p| p.to_path_buf()).unwrap_or_default();
    let mut child = Command::new("cpp")
        .args(["-traditional-cpp", "-undef", "-nostdinc"])
        .arg("-I")
        .arg(if dir.as_os_str().is_empty() { std::path::Path::new(".") } else { dir.as_path() })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run cpp: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(text.as_bytes()).map_err(|e| format!("cpp: {e}"))?;
    }
    let out = child.wait_with_output().map_err(|e| format!("cpp: {e}"))?;
    if !out.status.success() {
        return Err(format!("the C preprocessor failed:\n{}", String::from_utf8_lossy(&out.stderr).trim()));
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
            lines.push(l.to_string());
            map.push(cur);
        }
        cur += 1;
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Ok((text, map))
}
