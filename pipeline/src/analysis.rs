//! Stage 4: the data-flow analyses of the heads ([`analyse`]) and the requests they are
//! given, and the dumps that replace the output files (`-dump-il`, `-dump-analysis`).

use crate::head::{self, find_head, parse_heads};
use crate::request::{Analysed, Request};
use radtap_dataflow::{Mode, ProgramInfo};
use radtap_il::{Diagnostic, Program, Severity};

/// Stage 4: the analyses of the heads, when a mode needs them and `diags` has no error; their
/// warnings are added to `diags`. With a tangent they are the tangent's (`-d -b` runs the
/// adjoint's again in [`adjoint`]).
pub fn analyse(prog: &Program, req: &Request, diags: &mut Vec<Diagnostic>) -> Option<ProgramInfo> {
    let clean = !diags.iter().any(|d| d.severity == Severity::Error);
    let m = &req.modes;
    if !(clean && req.head.is_some() && (m.dump_analysis || m.tangent || m.adjoint)) {
        return None;
    }
    let mode = if m.tangent {
        Mode::Tangent
    } else {
        Mode::Adjoint
    };
    let (mut info, warnings) = radtap_dataflow::analyze(prog, &analysis_requests(prog, req), mode);
    if mode == Mode::Adjoint {
        radtap_dataflow::split_contexts(prog, &mut info, req.options.nocheckpoint);
    }
    diags.extend(warnings);
    Some(info)
}

/// The analysis requests, one per head found in the program (unknown heads were reported by
/// [`check`]).
pub(crate) fn analysis_requests(prog: &Program, req: &Request) -> Vec<radtap_dataflow::Request> {
    let mut out = Vec::new();
    let words = |s: &Option<String>| -> Vec<String> { head::var_list(s.as_deref().unwrap_or("")) };
    for spec in parse_heads(req.head.as_deref().unwrap_or("")).unwrap_or_default() {
        let Some(head) = find_head(prog, spec.proc_name()) else {
            continue;
        };
        let mut vars = words(&req.vars);
        vars.extend(spec.independents);
        let mut outvars = words(&req.outvars);
        outvars.extend(spec.dependents);
        out.push(radtap_dataflow::Request {
            head,
            vars,
            outvars,
            fixinterface: req.options.fixinterface,
        });
    }
    out
}

/// Stage 5, `-dump-il`: the IL of every unit.
pub fn dump_il(a: &Analysed) -> String {
    radtap_il::dump::structural(&a.program)
}

/// Stage 5, `-dump-analysis`: per statement of every procedure reached from the heads, the
/// active, diff-live and to-be-recorded variables, beside the source line. Empty when the
/// analyses did not run.
pub fn dump_analysis(a: &Analysed, sources: &[(String, String)]) -> String {
    let Some(info) = &a.info else {
        return String::new();
    };
    let prog = &a.program;
    let line_text = |file: u32, line: u32| -> String {
        prog.files
            .get(file as usize)
            .and_then(|f| sources.iter().find(|(p, _)| *p == f.path))
            .and_then(|(_, t)| t.lines().nth(line.saturating_sub(1) as usize))
            .unwrap_or("")
            .to_string()
    };
    radtap_dataflow::dump(prog, info, &line_text)
}
