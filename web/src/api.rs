//! The API's data: the JSON request ([`ApiRequest`]), its checks ([`ApiRequest::check`]), the
//! pipeline runs it stands for ([`runs`]), and the result ([`Outcome`]) the JSON answer, the
//! result page and the zip are made from.
//!
//! One API request may ask for several modes; the CLI writes each of them from its own
//! invocation (`-d`, `-d -vector`, `-b [-nocheckpoint]`), so the request becomes one pipeline
//! [`Request`] per mode and the files are exactly the CLI's for that invocation.

use radtap_il::Lang;
use radtap_pipeline::{DiffOptions, Failure, Modes, Request, Response};
use serde::{Deserialize, Serialize};

/// At most this many files per request.
pub const MAX_FILES: usize = 64;

/// A function that runs the pipeline: [`radtap_pipeline::run`] in the service; tests hand in
/// one that panics or sleeps.
pub type RunFn = fn(&Request) -> Response;

/// One source file of a request or one generated file of a result.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// A plain file name (no directory); its extension picks the language.
    pub name: String,
    /// The text.
    pub content: String,
}

/// `options` of a request: the command-line options of the same names.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct ApiOptions {
    /// `-nbdirsmax` (vector mode).
    pub nbdirsmax: Option<u32>,
    /// `-nooptim` names.
    pub nooptim: Vec<String>,
    /// `-size` words (`n=10`).
    pub size: Vec<String>,
    /// `-nocheckpoint` for the adjoint (the `split` mode is the same).
    pub nocheckpoint: bool,
}

/// `POST /api/differentiate` and `POST /api/zip`: the body.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ApiRequest {
    /// The sources.
    pub files: Vec<File>,
    /// `-head`.
    #[serde(default)]
    pub head: String,
    /// `-vars`.
    #[serde(default)]
    pub vars: String,
    /// `-outvars`.
    #[serde(default)]
    pub outvars: String,
    /// `tangent`, `vector`, `adjoint`, `split`.
    pub modes: Vec<String>,
    /// The options.
    #[serde(default)]
    pub options: ApiOptions,
}

/// The modes a request may name.
pub const MODES: &[&str] = &["tangent", "vector", "adjoint", "split"];

/// Why a file name is refused, if it is: empty, too long, a directory part (`/`, `\`), `..`,
/// a leading dot, or a control character.
pub fn bad_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("is empty")
    } else if name.len() > 255 {
        Some("is longer than 255 bytes")
    } else if name.contains('/') || name.contains('\\') {
        Some("has a directory part (`/` or `\\`)")
    } else if name.contains("..") {
        Some("contains `..`")
    } else if name.starts_with('.') {
        Some("starts with a dot")
    } else if name.chars().any(|c| c.is_control()) {
        Some("contains a control character")
    } else {
        None
    }
}

impl ApiRequest {
    /// Checks what the pipeline does not: the number of files, their names, the modes. The
    /// error is the sentence of the 400 answer.
    pub fn check(&self) -> Result<(), String> {
        if self.files.is_empty() {
            return Err("no files: give at least one source file".into());
        }
        if self.files.len() > MAX_FILES {
            return Err(format!(
                "{} files: at most {MAX_FILES} per request",
                self.files.len()
            ));
        }
        for (i, f) in self.files.iter().enumerate() {
            if let Some(why) = bad_name(&f.name) {
                return Err(format!("file name {:?} {why}", f.name));
            }
            if self.files[..i].iter().any(|g| g.name == f.name) {
                return Err(format!("file name {:?} is given twice", f.name));
            }
        }
        if self.modes.is_empty() {
            return Err(format!("no mode: give some of {}", MODES.join(", ")));
        }
        for m in &self.modes {
            if !MODES.contains(&m.as_str()) {
                return Err(format!("unknown mode {m:?} (modes: {})", MODES.join(", ")));
            }
        }
        if self.has("adjoint") && self.has("split") {
            return Err(
                "adjoint and split both write STEM_b: ask for one of them per request".into(),
            );
        }
        if self.head.trim().is_empty() {
            return Err("no head: name the procedure to differentiate".into());
        }
        Ok(())
    }

    fn has(&self, mode: &str) -> bool {
        self.modes.iter().any(|m| m == mode)
    }
}

/// The pipeline requests of an API request, one per CLI invocation, in the order tangent,
/// vector, adjoint (or split): each is what `radtap -d`, `radtap -d -vector` or `radtap -b`
/// would run with the same options.
pub fn runs(req: &ApiRequest) -> Vec<Request> {
    let words = |s: &str| (!s.trim().is_empty()).then(|| s.to_string());
    // A submitted file that another includes (`#include "defs.h"`) is a header, as the CLI
    // reads one from disk; an include naming no submitted file is reported, never looked
    // for on the server.
    let mut included = Vec::new();
    let mut unreadable = Vec::new();
    // Fortran sources name their files by INCLUDE lines, and so do the files they include.
    let mut fortran: Vec<&str> = req
        .files
        .iter()
        .filter(|f| radtap_frontends::is_fortran(&f.name))
        .map(|f| f.name.as_str())
        .collect();
    let mut k = 0;
    while k < fortran.len() {
        let name = fortran[k];
        k += 1;
        let Some(f) = req.files.iter().find(|f| f.name == name) else {
            continue;
        };
        for l in f.content.lines() {
            if let Some(g) = radtap_frontends::fortran_include(l)
                .and_then(|n| req.files.iter().find(|g| g.name == n))
            {
                if !fortran.contains(&g.name.as_str()) {
                    fortran.push(g.name.as_str());
                }
            }
        }
    }
    for f in &req.files {
        let fortran = fortran.contains(&f.name.as_str());
        for (i, l) in f.content.lines().enumerate() {
            let n = if fortran {
                radtap_frontends::fortran_include(l)
            } else {
                radtap_frontends::quoted_include(l)
            };
            let Some(n) = n else {
                continue;
            };
            if req.files.iter().any(|g| g.name == n) {
                included.push(n.to_string());
            } else {
                // Located by `diagnostics` from the `NAME:LINE: ` prefix (the pipeline numbers
                // no file yet): the result page links it to the INCLUDE line.
                let what = if fortran { "INCLUDE file" } else { "header" };
                unreadable.push(radtap_il::Diagnostic::global(
                    radtap_il::Code::Io,
                    format!(
                        "{}:{}: the {what} \"{n}\" is not among the submitted files: add it",
                        f.name,
                        i + 1
                    ),
                ));
            }
        }
    }
    let (headers, sources): (Vec<&File>, Vec<&File>) =
        req.files.iter().partition(|f| included.contains(&f.name));
    let base = Request {
        sources: sources
            .iter()
            .map(|f| (f.name.clone(), f.content.clone()))
            .collect(),
        headers: headers
            .iter()
            .map(|f| (f.name.clone(), f.content.clone()))
            .collect(),
        unreadable,
        head: words(&req.head),
        vars: words(&req.vars),
        outvars: words(&req.outvars),
        options: DiffOptions {
            nbdirsmax: req.options.nbdirsmax,
            nooptim: req.options.nooptim.clone(),
            size: req.options.size.clone(),
            nocheckpoint: req.options.nocheckpoint,
            ..DiffOptions::default()
        },
        ..Request::default()
    };
    let mut out = Vec::new();
    let with = |modes: Modes, split: bool| {
        let mut r = base.clone();
        r.modes = modes;
        r.options.nocheckpoint |= split;
        r
    };
    if req.has("tangent") {
        out.push(with(
            Modes {
                tangent: true,
                ..Modes::default()
            },
            false,
        ));
    }
    if req.has("vector") {
        out.push(with(
            Modes {
                tangent: true,
                vector: true,
                ..Modes::default()
            },
            false,
        ));
    }
    if req.has("adjoint") || req.has("split") {
        out.push(with(
            Modes {
                adjoint: true,
                ..Modes::default()
            },
            req.has("split"),
        ));
    }
    out
}

/// One diagnostic, located in a source file when it can be.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct ApiDiagnostic {
    /// The source file's name (empty for a whole-run problem).
    pub file: String,
    /// 1-based line (0 when not located).
    pub line: u32,
    /// 1-based column (0 when not located).
    pub column: u32,
    /// `AD020`, …
    pub code: String,
    /// `error`, `warning` or `note`.
    pub severity: String,
    /// The message (with its notes).
    pub message: String,
    /// The source line it points at.
    pub source: String,
}

/// What a request produced: the JSON answer of `/api/differentiate`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct Outcome {
    /// No error: every file was generated.
    pub ok: bool,
    /// The generated files (none when `ok` is false).
    pub files: Vec<File>,
    /// Every diagnostic of every run, each once.
    pub diagnostics: Vec<ApiDiagnostic>,
    /// For each of `files`, for each line, the source line it comes from (file, line): the
    /// result page links them. Not part of the JSON answer.
    #[serde(skip)]
    pub origins: Vec<Vec<Option<(String, u32)>>>,
}

/// Runs every pipeline request of `req` through `run`; a bad command line (a malformed
/// `-size`, an unknown `-nooptim` name) is the `Err` sentence of a 400 answer.
pub fn differentiate(req: &ApiRequest, run: RunFn) -> Result<Outcome, String> {
    let mut out = Outcome {
        ok: true,
        ..Outcome::default()
    };
    if let Some(d) = includes_a_file(&req.files) {
        out.ok = false;
        out.diagnostics.push(d);
        return Ok(out);
    }
    for r in runs(req) {
        let resp = run(&r);
        if let Some(Failure::Usage(m)) = resp.failure {
            return Err(m);
        }
        add(&mut out, &resp, &r.sources);
    }
    if !out.ok {
        out.files.clear();
        out.origins.clear();
    }
    Ok(out)
}

/// Adds one pipeline response to `out`: its diagnostics not already there, its files, and
/// `ok` false when it failed.
pub fn add(out: &mut Outcome, resp: &Response, sources: &[(String, String)]) {
    for d in diagnostics(resp, sources) {
        if !out.diagnostics.contains(&d) {
            out.diagnostics.push(d);
        }
    }
    if resp.failure.is_some() {
        out.ok = false;
    }
    for (i, (name, content)) in resp.files.iter().enumerate() {
        out.files.push(File {
            name: name.clone(),
            content: content.clone(),
        });
        out.origins
            .push(resp.origins.get(i).cloned().unwrap_or_default());
    }
}

/// A message `NAME:LINE: rest` about line LINE of the submitted file NAME: (NAME, LINE, the
/// column of its `include`, rest).
fn located(message: &str, sources: &[(String, String)]) -> Option<(String, u32, u32, String)> {
    let (name, text) = sources
        .iter()
        .find(|(n, _)| message.starts_with(&format!("{n}:")))?;
    let after = &message[name.len() + 1..];
    let (num, rest) = after.split_once(": ")?;
    let line: u32 = num.parse().ok()?;
    let src = text.lines().nth(line.checked_sub(1)? as usize)?;
    let column = src
        .to_ascii_lowercase()
        .find("include")
        .map_or(1, |c| c as u32 + 1);
    Some((name.clone(), line, column, rest.to_string()))
}

/// The diagnostics of one pipeline response, located against its sources.
fn diagnostics(resp: &Response, sources: &[(String, String)]) -> Vec<ApiDiagnostic> {
    let severity = |s: radtap_il::Severity| match s {
        radtap_il::Severity::Error => "error",
        radtap_il::Severity::Warning => "warning",
        radtap_il::Severity::Note => "note",
    };
    resp.diagnostics
        .iter()
        .map(|d| {
            let (file, line, column) = match d.span {
                Some(sp) => (
                    resp.program
                        .files
                        .get(sp.file as usize)
                        .map(|f| f.path.clone())
                        .unwrap_or_default(),
                    sp.line,
                    sp.col,
                ),
                None => (String::new(), 0, 0),
            };
            // A missing header or INCLUDE file (`request`): `NAME:LINE: ` starts its message.
            let mut message = d.message.clone();
            let (file, line, column) = match (d.span, located(&d.message, sources)) {
                (None, Some((f, l, c, rest))) => {
                    message = rest;
                    (f, l, c)
                }
                _ => (file, line, column),
            };
            let source = sources
                .iter()
                .find(|(n, _)| *n == file)
                .and_then(|(_, t)| t.lines().nth(line.saturating_sub(1) as usize))
                .filter(|_| line > 0)
                .unwrap_or("")
                .to_string();
            for n in &d.notes {
                message.push_str("\n");
                message.push_str(n);
            }
            ApiDiagnostic {
                file,
                line,
                column,
                code: d.code.as_str().to_string(),
                severity: severity(d.severity).into(),
                message,
                source,
            }
        })
        .collect()
}

/// The service reads no file but the request's: the C preprocessor, which the frontends run
/// on `.F`/`.F90` files and on C files with `#if` ([`radtap_frontends::preprocessed`]), would
/// read any file an `#include`, `#import`, `#embed` or `__has_include` names (the command line
/// may: the files are the user's own). So a source the preprocessor sees is refused, with a
/// located error, when a directive line (`#` first, once backslash-newline splices and `/* */`
/// comments are taken out: traditional cpp pastes `#inc/**/lude` into a directive) mentions
/// one of those words: the check is on the words, not on the directive, which can be spelled
/// in too many ways; the other lines (Fortran comments, C strings) cannot read a file. C
/// lines that start with `#include`/`# include` are not looked at: the frontends take them out
/// before the preprocessor runs.
fn includes_a_file(files: &[File]) -> Option<ApiDiagnostic> {
    for f in files {
        if !radtap_frontends::preprocessed(&f.name, &f.content) {
            continue;
        }
        let c = radtap_frontends::classify(&f.name).is_some_and(|(l, _)| l == Lang::C);
        // What cpp reads, each character with its line.
        let mut seen: Vec<(char, usize)> = Vec::new();
        for (i, l) in f.content.lines().enumerate() {
            let t = l.trim_start();
            if !(c && (t.starts_with("#include") || t.starts_with("# include"))) {
                seen.extend(l.chars().map(|ch| (ch, i + 1)));
            }
            seen.push(('\n', i + 1));
        }
        let mut text = String::new();
        let mut line_of = Vec::new();
        let mut k = 0;
        while k < seen.len() {
            let (ch, line) = seen[k];
            let next = seen.get(k + 1).map(|x| x.0);
            if ch == '\\' && next == Some('\n') {
                k += 2;
            } else if ch == '/' && next == Some('*') {
                k += 2;
                while k < seen.len()
                    && !(seen[k].0 == '*' && seen.get(k + 1).map(|x| x.0) == Some('/'))
                {
                    k += 1;
                }
                k += 2;
            } else {
                text.push(ch);
                line_of.push(line);
                k += 1;
            }
        }
        // Only directive lines (`#` first) make cpp read a file: a Fortran comment or a C
        // string that says "include" is refused no more (issue 49).
        let mut hit = None;
        let mut off = 0;
        for l in text.split_inclusive('\n') {
            let t = l.trim_start();
            // `%:` is a digraph of `#`, `??=` a trigraph.
            if t.starts_with('#') || t.starts_with("%:") || t.starts_with("??=") {
                hit = ["include", "import", "embed"]
                    .into_iter()
                    .filter_map(|w| l.find(w).map(|at| (off + at, w)))
                    .min();
                if hit.is_some() {
                    break;
                }
            }
            off += l.len();
        }
        if let Some((at, w)) = hit {
            let chars_before = text[..at].chars().count();
            let line = line_of[chars_before];
            let source = f.content.lines().nth(line - 1).unwrap_or("").to_string();
            return Some(ApiDiagnostic {
                file: f.name.clone(),
                line: line as u32,
                column: source.find(w).map_or(1, |c| c as u32 + 1),
                code: radtap_il::Code::Unsupported.as_str().into(),
                severity: "error".into(),
                message: format!(
                    "`{w}` in a file the C preprocessor reads: the service does not let the \
                     preprocessor read other files; put the included text in the file, or \
                     run radtap on your machine"
                ),
                source,
            });
        }
    }
    None
}
