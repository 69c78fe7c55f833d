//! The HTML pages: the form ([`form_page`]) and the result ([`result_page`]), both complete
//! documents with an embedded stylesheet and no script, no network asset: the form posts, the
//! answer is the result page, and the zip is a `data:` link inside it. The command line's
//! `-html` writes the same result page.
//!
//! Anchors: source line `L` of file `F` is `#F-L` (`heat.f90-12`), line `L` of a generated
//! file `G` is `#out-G-L`; each diagnostic links to its source line, which is marked, and
//! each generated line written for a primal statement links to that statement's line, and
//! each such source line to the first generated line written for it.

use crate::api::{ApiRequest, Outcome};
use crate::archive;
use crate::highlight::{escape, lines};

const STYLE: &str = "
body{font-family:system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{background:#243b53;color:#fff;padding:.6em 1em}header a{color:#fff}
main{padding:1em}h1{font-size:1.3em;margin:0}h2{font-size:1.1em}h3{font-size:1em;margin:.4em 0}
.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1em;align-items:start}
.grid>section{min-width:0;max-height:92vh;overflow:auto}
.code{background:#fff;border:1px solid #ccd;overflow-x:auto;font:13px/1.35 ui-monospace,monospace}
.code a.l{display:block;white-space:pre;color:inherit;text-decoration:none;padding:0 .5em;scroll-margin:2em 0}
.code a.l:before{content:attr(data-n);display:inline-block;width:3.5em;color:#99a;text-align:right;margin-right:1em}
.code a.l.mark{background:#fff3bf}.code a.l:target{background:#ffd43b}
.c{color:#5c7a5c;font-style:italic}.s{color:#a33}.n{color:#1c6e8c}.k{color:#7a3e9d;font-weight:600}.p{color:#946200}
ul.diag{padding-left:1.2em}ul.diag li{margin:.2em 0}.error{color:#b00020}.warning{color:#8a5a00}
.ok{color:#17693a}form label{display:block;margin:.5em 0 .2em}input[type=text]{width:30em;max-width:100%}
textarea{width:100%;height:16em;font-family:monospace}fieldset{margin:.7em 0}
.download{display:inline-block;padding:.4em .8em;background:#243b53;color:#fff;border-radius:4px;text-decoration:none}
dl.legend dt{font-weight:600}dl.legend dd{margin:0 0 .3em 1em}
";

fn document(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>{}</title><style>{STYLE}</style></head><body>\
         <header><h1><a href=\"/\">radtap</a>: automatic differentiation of Fortran and C</h1>\
         </header><main>{body}</main></body></html>\n",
        escape(title)
    )
}

/// The form: files (uploaded or pasted), head, variables, modes, options. `error` is shown
/// above it (a refused request); `req` fills the fields again.
pub fn form_page(error: Option<&str>, req: Option<&ApiRequest>) -> String {
    let mut b = String::new();
    if let Some(e) = error {
        b.push_str(&format!(
            "<p class=\"error\" id=\"error\">{}</p>",
            escape(e)
        ));
    }
    b.push_str(&form(req));
    document("radtap", &b)
}

/// The form itself, filled from `req`: its first file in the paste fields, the others kept
/// in hidden fields (`kept_name`, `kept`) so that a resubmission sends them again.
fn form(req: Option<&ApiRequest>) -> String {
    let mut b = String::new();
    let empty = ApiRequest::default();
    let r = req.unwrap_or(&empty);
    let pasted = r.files.first();
    let checked = |m: &str| {
        if r.modes.iter().any(|x| x == m) || (req.is_none() && m == "tangent") {
            " checked"
        } else {
            ""
        }
    };
    b.push_str(&format!(
        "<form method=\"post\" action=\"/differentiate\" enctype=\"multipart/form-data\">\
         <fieldset><legend>Source files</legend>\
         <label for=\"upload\">Upload files (.f90 .f .F90 .c .h; several allowed)</label>\
         <input type=\"file\" id=\"upload\" name=\"upload\" multiple>\
         <label for=\"paste_name\">or paste a file: its name (the extension gives the language)</label>\
         <input type=\"text\" id=\"paste_name\" name=\"paste_name\" value=\"{}\" placeholder=\"heat.f90\">\
         <label for=\"paste\">and its text</label>\
         <textarea id=\"paste\" name=\"paste\" spellcheck=\"false\">{}</textarea></fieldset>\
         <fieldset><legend>What to differentiate</legend>\
         <label for=\"head\">Head procedure (Tapenade's -head: <code>f</code>, <code>f(y)/(x)</code>)</label>\
         <input type=\"text\" id=\"head\" name=\"head\" value=\"{}\">\
         <label for=\"vars\">Independent inputs (-vars, space-separated)</label>\
         <input type=\"text\" id=\"vars\" name=\"vars\" value=\"{}\">\
         <label for=\"outvars\">Dependent outputs (-outvars)</label>\
         <input type=\"text\" id=\"outvars\" name=\"outvars\" value=\"{}\"></fieldset>\
         <fieldset><legend>Modes</legend>\
         <label><input type=\"checkbox\" name=\"mode\" value=\"tangent\"{}> tangent (-d)</label>\
         <label><input type=\"checkbox\" name=\"mode\" value=\"vector\"{}> vector tangent (-d -vector), \
         directions at most <input type=\"number\" name=\"nbdirsmax\" min=\"1\" value=\"{}\" style=\"width:5em\"></label>\
         <label><input type=\"checkbox\" name=\"mode\" value=\"adjoint\" id=\"mode-adjoint\"{}> adjoint (-b)</label>\
         <label><input type=\"checkbox\" name=\"mode\" value=\"split\"{}> split adjoint (-b -nocheckpoint)</label>\
         </fieldset><fieldset><legend>Options</legend>\
         <label for=\"nooptim\">-nooptim (space-separated: {})</label>\
         <input type=\"text\" id=\"nooptim\" name=\"nooptim\" value=\"{}\">\
         <label for=\"size\">-size (space-separated: <code>n=10 w=n*m</code>)</label>\
         <input type=\"text\" id=\"size\" name=\"size\" value=\"{}\"></fieldset>\
         {}<button type=\"submit\" id=\"submit\">Differentiate</button></form>\
         <p>The same service answers JSON at <code>POST /api/differentiate</code> and \
         <code>POST /api/zip</code> (see docs/serve.md).</p>",
        escape(pasted.map_or("", |f| f.name.as_str())),
        escape(pasted.map_or("", |f| f.content.as_str())),
        escape(&r.head),
        escape(&r.vars),
        escape(&r.outvars),
        checked("tangent"),
        checked("vector"),
        r.options.nbdirsmax.map_or(String::new(), |n| n.to_string()),
        checked("adjoint"),
        checked("split"),
        radtap_pipeline::optim::effective()
            .collect::<Vec<_>>()
            .join(" "),
        escape(&r.options.nooptim.join(" ")),
        escape(&r.options.size.join(" ")),
        kept_files(r),
    ));
    b
}

/// The files after the first, as hidden fields the form sends again, each named beside
/// the form.
fn kept_files(r: &ApiRequest) -> String {
    let mut s = String::new();
    let rest = r.files.iter().skip(1);
    if rest.len() > 0 {
        let names: Vec<String> = rest.clone().map(|f| escape(&f.name)).collect();
        s.push_str(&format!(
            "<p id=\"kept\">Sent again with the pasted file: {}</p>",
            names.join(", ")
        ));
    }
    for f in rest {
        s.push_str(&format!(
            "<input type=\"hidden\" name=\"kept_name\" value=\"{}\">\
             <input type=\"hidden\" name=\"kept\" value=\"{}\">",
            escape(&f.name),
            escape(&f.content)
        ));
    }
    s
}

/// One file as coloured lines, each an anchor `#PREFIXNAME-LINE`; `marked` lines get a
/// highlight (the lines diagnostics point at); a line with an origin (a generated line and
/// the source line it comes from) links to that line instead of itself.
fn code_block(
    prefix: &str,
    name: &str,
    text: &str,
    marked: &[u32],
    origins: &[Option<(String, u32)>],
    verb: &str,
) -> String {
    let mut s = format!(
        "<h3 id=\"{p}{n}\">{n}</h3><div class=\"code\">",
        p = escape(prefix),
        n = escape(name)
    );
    for (i, l) in lines(name, text).iter().enumerate() {
        let n = i as u32 + 1;
        let id = escape(&format!("{prefix}{name}-{n}"));
        let mark = if marked.contains(&n) { " mark" } else { "" };
        let (href, title) = match origins.get(i).cloned().flatten() {
            Some((f, line)) => (
                escape(&format!("{f}-{line}")),
                format!(
                    " title=\"{verb} {}:{line}\"",
                    escape(f.strip_prefix("out-").unwrap_or(&f))
                ),
            ),
            None => (id.clone(), String::new()),
        };
        s.push_str(&format!(
            "<a class=\"l{mark}\" id=\"{id}\" href=\"#{href}\"{title} data-n=\"{n}\">{l}\n</a>"
        ));
    }
    s.push_str("</div>");
    s
}

const LEGEND: &str = "<details><summary>The header comment of each derivative</summary>\
<dl class=\"legend\"><dt>dependents / independents</dt><dd>the outputs differentiated and the \
inputs they are differentiated with respect to (-outvars, -vars).</dd>\
<dt>derivative arguments: NAME:STATUS</dt><dd><b>in</b>: read on entry (give the direction); \
<b>out</b>: written (the result); <b>in-out</b>: both; <b>in-zero</b>: an adjoint read on entry \
and reset to zero; <b>incremented</b>: an adjoint the call adds to (set it to zero first); \
<b>zero</b>: set to zero; <b>unused</b>: neither read nor written.</dd>\
<dt>_d, _dv, _b</dt><dd>tangent, vector tangent (several directions at once, up to nbdirsmax), \
adjoint procedures; <b>xd</b>, <b>xb</b> are the derivatives of <b>x</b>.</dd></dl></details>";

/// The result page: the diagnostics (linked to the source lines), the zip download, and each
/// generated file beside the sources, coloured (the command line's `-html`).
pub fn result_page(req: &ApiRequest, out: &Outcome) -> String {
    result(req, out, false)
}

/// The result page the service answers: [`result_page`] followed by the form, filled with the
/// request (its files included), to change the options and differentiate again.
pub fn served_result_page(req: &ApiRequest, out: &Outcome) -> String {
    result(req, out, true)
}

fn result(req: &ApiRequest, out: &Outcome, with_form: bool) -> String {
    let mut b = String::new();
    if out.ok {
        b.push_str(&format!(
            "<p class=\"ok\" id=\"status\">Differentiated: {} file{}.</p>",
            out.files.len(),
            if out.files.len() == 1 { "" } else { "s" }
        ));
        let files: Vec<(String, String)> = out
            .files
            .iter()
            .map(|f| (f.name.clone(), f.content.clone()))
            .collect();
        let sources: Vec<(String, String)> = req
            .files
            .iter()
            .map(|f| (f.name.clone(), f.content.clone()))
            .collect();
        let stem = req
            .files
            .first()
            .and_then(|f| f.name.rsplit_once('.').map(|(s, _)| s.to_string()))
            .unwrap_or_else(|| "radtap".into());
        b.push_str(&format!(
            "<p><a class=\"download\" id=\"download\" download=\"{}_radtap.zip\" \
             href=\"data:application/zip;base64,{}\">Download the .zip</a> \
             (the generated files, the runtime, a README with the compile line)</p>",
            escape(&stem),
            archive::base64(&archive::zip(&sources, &files))
        ));
    } else {
        b.push_str(
            "<p class=\"error\" id=\"status\">Not differentiated: see the errors below.</p>",
        );
    }
    if !out.diagnostics.is_empty() {
        b.push_str("<h2>Diagnostics</h2><ul class=\"diag\" id=\"diagnostics\">");
        for d in &out.diagnostics {
            let place = if d.file.is_empty() {
                String::new()
            } else if d.line == 0 {
                format!("{}: ", escape(&d.file))
            } else {
                let id = escape(&format!("{}-{}", d.file, d.line));
                format!(
                    "<a class=\"diag-link\" href=\"#{id}\">{}:{}:{}</a>: ",
                    escape(&d.file),
                    d.line,
                    d.column
                )
            };
            b.push_str(&format!(
                "<li class=\"{sev}\">{place}<b>{sev}[{}]</b> {}</li>",
                escape(&d.code),
                escape(&d.message),
                sev = escape(&d.severity),
            ));
        }
        b.push_str("</ul>");
    }
    if out.ok {
        b.push_str(LEGEND);
    }
    b.push_str("<div class=\"grid\"><section><h2>Sources</h2>");
    for f in &req.files {
        let marked: Vec<u32> = out
            .diagnostics
            .iter()
            .filter(|d| d.file == f.name)
            .map(|d| d.line)
            .collect();
        // Each source line links to the first generated line written for it (issue 49:
        // links went one way only).
        let mut derived: Vec<Option<(String, u32)>> = vec![None; f.content.lines().count()];
        for (g, o) in out.files.iter().zip(&out.origins) {
            for (j, origin) in o.iter().enumerate() {
                if let Some((src, l)) = origin {
                    let slot = derived.get_mut((*l as usize).wrapping_sub(1));
                    if let Some(slot @ None) = slot.filter(|_| *src == f.name) {
                        *slot = Some((format!("out-{}", g.name), j as u32 + 1));
                    }
                }
            }
        }
        b.push_str(&code_block(
            "",
            &f.name,
            &f.content,
            &marked,
            &derived,
            "derivative at",
        ));
    }
    b.push_str("</section><section><h2>Generated</h2>");
    for (i, f) in out.files.iter().enumerate() {
        let origins = out.origins.get(i).map_or(&[][..], |o| &o[..]);
        b.push_str(&code_block(
            "out-",
            &f.name,
            &f.content,
            &[],
            origins,
            "from",
        ));
    }
    if out.files.is_empty() {
        b.push_str("<p>Nothing was generated.</p>");
    }
    b.push_str("</section></div>");
    if with_form {
        // Change the options and differentiate again, with the same files.
        b.push_str("<h2 id=\"again\">Change the options and differentiate again</h2>");
        b.push_str(&form(Some(req)));
    }
    document("radtap: result", &b)
}
