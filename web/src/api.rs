//! The API's data: the JSON request ([`ApiRequest`]), its checks ([`ApiRequest::check`]), the
//! pipeline runs it stands for ([`runs`]), and the result ([`Outcome`]) the JSON answer, the
//! result page and the zip are made from.
//!
//! One API request may ask for several modes; the CLI writes each of them from its own
//! invocation (`-d`, `-d -vector`, `-b [-nocheckpoint]`), so the request becomes one pipeline
//! [`Request`] per mode and the files are exactly the CLI's for that invocation.

use crate::decls;
use crate::includes;
use crate::scratch::Area;
use radtap_pipeline::{DiffOptions, Failure, Modes, Request, Response};
use serde::{Deserialize, Serialize};
use std::path::Path;

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
/// vector, adjoint (or split): each is what `radtap -I . -d`, `radtap -I . -d -vector` or
/// `radtap -I . -b` would run with the same options in a directory holding the submitted
/// files. `dir` is that directory (the request's, where [`differentiate`] wrote them): the
/// preprocessor runs there, reads the submitted files and the system headers, and names the
/// files by their submitted names. The includes were checked before ([`includes::scan`]).
pub fn runs(req: &ApiRequest, dir: &Path) -> Vec<Request> {
    let words = |s: &str| (!s.trim().is_empty()).then(|| s.to_string());
    let preprocessor = radtap_frontends::Preprocessor {
        // `<defs.h>` finds a submitted header too, as `-I .` does on the command line.
        include_dirs: vec![".".into()],
        read_includes: true,
        base_dir: Some(dir.to_path_buf()),
        ..radtap_frontends::Preprocessor::default()
    };
    // A submitted file that another includes (`#include "defs.h"`, a Fortran `INCLUDE`) is a
    // header, as the CLI reads one from disk, not a source.
    let named = includes::scan(
        req.files
            .iter()
            .map(|f| (f.name.as_str(), f.content.as_str())),
    )
    .named;
    let mut included: Vec<String> = named
        .iter()
        .map(|n| n.strip_prefix("./").unwrap_or(n))
        .filter(|n| req.files.iter().any(|f| f.name == *n))
        .map(str::to_string)
        .collect();
    // Fortran INCLUDE files the service finds among the submitted ones (never on the
    // server); one missing is reported at its line.
    let mut fincluded = Vec::new();
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
        for (i, l) in f.content.lines().enumerate() {
            let Some(n) = radtap_frontends::fortran_include(l) else {
                continue;
            };
            match req.files.iter().find(|g| g.name == n) {
                Some(g) => {
                    if !fortran.contains(&g.name.as_str()) {
                        fortran.push(g.name.as_str());
                    }
                    if !fincluded.contains(&g.name) {
                        fincluded.push(g.name.clone());
                    }
                }
                // Located by `diagnostics` from the `NAME:LINE: ` prefix (the pipeline
                // numbers no file yet): the result page links it to the INCLUDE line.
                None => unreadable.push(radtap_il::Diagnostic::global(
                    radtap_il::Code::Io,
                    format!(
                        "{}:{}: the INCLUDE file \"{n}\" is not among the submitted files: add it",
                        f.name,
                        i + 1
                    ),
                )),
            }
        }
    }
    included.extend(fincluded.iter().cloned());
    let sources: Vec<&File> = req
        .files
        .iter()
        .filter(|f| !included.contains(&f.name))
        .collect();
    // The C headers the preprocessor enters from each C source (taken `#if` branches only),
    // each after the headers it includes, as the CLI reads them; then the INCLUDE files.
    let mut headers: Vec<&File> = Vec::new();
    for (k, f) in sources.iter().enumerate() {
        if radtap_frontends::classify(&f.name).is_none_or(|(l, _)| l != radtap_il::Lang::C) {
            continue;
        }
        match radtap_frontends::c_user_headers(&f.name, &f.content, k as u32, &preprocessor) {
            Ok(found) => {
                for h in found {
                    let h = h.strip_prefix("./").unwrap_or(&h);
                    if let Some(g) = req.files.iter().find(|g| g.name == h) {
                        if !headers.iter().any(|x| x.name == g.name)
                            && !sources.iter().any(|x| x.name == g.name)
                        {
                            headers.push(g);
                        }
                    }
                }
            }
            Err(d) => unreadable.push(d),
        }
    }
    for n in &fincluded {
        if let Some(g) = req.files.iter().find(|g| g.name == *n) {
            if !headers.iter().any(|x| x.name == g.name) {
                headers.push(g);
            }
        }
    }
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
            preprocessor,
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
/// `-size`, an unknown `-nooptim` name) is the `Err` sentence of a 400 answer. The includes
/// are checked first ([`includes::scan`]): one that could read a file outside the submission
/// refuses the request, located at its line. Then the submitted files are written into a
/// directory of their own in `area`, removed when the request is done, where the
/// preprocessor runs ([`runs`]).
pub fn differentiate(req: &ApiRequest, run: RunFn, area: &Area) -> Result<Outcome, String> {
    let mut out = Outcome {
        ok: true,
        ..Outcome::default()
    };
    let scan = includes::scan(
        req.files
            .iter()
            .map(|f| (f.name.as_str(), f.content.as_str())),
    );
    if !scan.refused.is_empty() {
        out.ok = false;
        out.diagnostics = scan
            .refused
            .into_iter()
            .map(|r| ApiDiagnostic {
                file: r.file,
                line: r.line,
                column: r.column,
                code: radtap_il::Code::Unsupported.as_str().into(),
                severity: "error".into(),
                message: r.message,
                source: r.source,
            })
            .collect();
        return Ok(out);
    }
    let dir = match area.request_dir(req.files.iter().map(|f| (&f.name, &f.content))) {
        Ok(d) => d,
        Err(e) => {
            out.ok = false;
            out.diagnostics.push(ApiDiagnostic {
                file: String::new(),
                line: 0,
                column: 0,
                code: radtap_il::Code::Io.as_str().into(),
                severity: "error".into(),
                message: format!("the service cannot write the files of the request: {e}"),
                source: String::new(),
            });
            return Ok(out);
        }
    };
    for r in runs(req, dir.path()) {
        let resp = run(&r);
        if let Some(Failure::Usage(m)) = resp.failure {
            return Err(m);
        }
        add(&mut out, &resp, &r.texts());
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
    // (primal, derivative) argument names of the heads: the naming patterns.
    let pairs: Vec<(String, String)> = [&resp.tangent, &resp.adjoint]
        .into_iter()
        .flatten()
        .flat_map(|o| {
            o.interfaces.iter().flat_map(|i| {
                i.params.iter().filter_map(|(s, d)| {
                    let p = o.program.symbols.contains(*s).then(|| o.program.name(*s))?;
                    let p = p.to_string();
                    Some((p, d.clone()?))
                })
            })
        })
        .collect();
    for (i, (name, content)) in resp.files.iter().enumerate() {
        out.files.push(File {
            name: name.clone(),
            content: content.clone(),
        });
        let mut origins = resp.origins.get(i).cloned().unwrap_or_default();
        if let Some((lang, _)) = radtap_frontends::classify(name) {
            if origins.iter().any(Option::is_some) {
                decls::link(lang, content, &mut origins, sources, &pairs);
            }
        }
        out.origins.push(origins);
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
                message.push('\n');
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
