//! Stage 5: each requested mode as output files ([`generate`]): the tangent (scalar or
//! vector), the adjoint with its options and `-size`s, the primal; and the one place that
//! names each mode's generator.

use crate::analysis::analysis_requests;
use crate::optim::Optim;
use crate::request::{origins, sizes, Analysed, DiffOptions, Failure, Request, Response};
use radtap_dataflow::{Mode, ProgramInfo};
use radtap_diff_tangent::Output;
use radtap_il::{Diagnostic, Program};
use std::path::Path;

/// Stage 5: every requested mode, in the order tangent, adjoint, primal. A mode that fails
/// stops the others; its diagnostics and the [`Failure`] are in the response, and no file.
pub fn generate(req: &Request, a: Analysed) -> Response {
    let Analysed {
        program,
        info,
        diagnostics,
    } = a;
    let mut r = Response {
        diagnostics,
        ..Response::default()
    };
    generate_modes(req, &program, info.as_ref(), &mut r);
    if r.failure.is_some() {
        r.files.clear();
        r.origins.clear();
    }
    r.program = program;
    r
}

/// The modes of [`generate`], each stopping the ones after it when it fails.
fn generate_modes(req: &Request, prog: &Program, info: Option<&ProgramInfo>, r: &mut Response) {
    let stem = req.options.stem.clone().unwrap_or_else(|| {
        prog.files
            .first()
            .and_then(|f| Path::new(&f.path).file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into())
    });
    if req.modes.tangent && !tangent(req, prog, info, &stem, r) {
        return;
    }
    if req.modes.adjoint && !adjoint(req, prog, info, &stem, r) {
        return;
    }
    if req.modes.primal {
        for (i, f) in primal(prog, req.options.stem.as_deref())
            .into_iter()
            .enumerate()
        {
            let spans = radtap_unparse::write_file_mapped(prog, i).1;
            r.push(f, origins(prog, &spans));
        }
    }
}

/// Stage 5, `-d`: the tangent or vector tangent of the heads into `r` (`STEM_d.EXT` or
/// `STEM_dv.EXT`, and DIFFSIZES with `-nbdirsmax`). False when the request stops here: the
/// generator failed, or there are no analyses (then quietly, with nothing written).
pub fn tangent(
    req: &Request,
    prog: &Program,
    info: Option<&ProgramInfo>,
    stem: &str,
    r: &mut Response,
) -> bool {
    let Some(info) = info else {
        return false;
    };
    let o = &req.options;
    let mut opts = radtap_diff_tangent::Options::new(req.modes.vector);
    opts.nbdirsmax = o.nbdirsmax;
    opts.slice_dead = !Optim::DiffLiveness.off(&o.nooptim);
    opts.sizes = match sizes(o) {
        Ok(s) => s,
        Err(f) => {
            r.failure = Some(f);
            return false;
        }
    };
    if let Some(p) = &o.tgtvarname {
        opts.var_pattern = p.clone();
    }
    if let Some(p) = &o.tgtfuncname {
        opts.func_pattern = p.clone();
    }
    if let Some(p) = &o.tgtmodulename {
        opts.module_pattern = p.clone();
        opts.type_pattern = p.clone();
    }
    let Some(gen) = run_generator(prog, info, &opts, r) else {
        return false;
    };
    let ext = radtap_unparse::output_extension(&gen.program, gen.file);
    let suffix = if req.modes.vector { "dv" } else { "d" };
    let (text, spans) = radtap_unparse::write_file_mapped(&gen.program, gen.file);
    r.push(
        (format!("{stem}_{suffix}.{ext}"), text),
        origins(&gen.program, &spans),
    );
    for f in &gen.extra_files {
        r.push(f.clone(), Vec::new());
    }
    r.tangent = Some(gen);
    true
}

/// Stage 5, `-b`: the adjoint of the heads into `r` (`STEM_b.EXT`), from the adjoint
/// analyses (run again when `info` is the tangent's). False when the request stops here: a
/// malformed `-size`, or the generator failed.
pub fn adjoint(
    req: &Request,
    prog: &Program,
    info: Option<&ProgramInfo>,
    stem: &str,
    r: &mut Response,
) -> bool {
    // The adjoint analyses: nothing is live at the exit of the forward sweep.
    let adj_info;
    let info = match info {
        Some(i) if !req.modes.tangent => i,
        _ => {
            let requests = analysis_requests(prog, req);
            let mut i = radtap_dataflow::analyze(prog, &requests, Mode::Adjoint).0;
            radtap_dataflow::split_contexts(prog, &mut i, req.options.nocheckpoint);
            adj_info = i;
            &adj_info
        }
    };
    let opts = match adjoint_options(&req.options) {
        Ok(o) => o,
        Err(f) => {
            r.failure = Some(f);
            return false;
        }
    };
    let Some(gen) = run_generator(prog, info, &opts, r) else {
        return false;
    };
    let ext = radtap_unparse::output_extension(&gen.program, gen.file);
    let (text, spans) = radtap_unparse::write_file_mapped(&gen.program, gen.file);
    r.push(
        (format!("{stem}_b.{ext}"), text),
        origins(&gen.program, &spans),
    );
    r.adjoint = Some(gen);
    true
}

/// The adjoint generator's options; a `-size` word that is not `name=value` is a
/// [`Failure::Usage`].
fn adjoint_options(o: &DiffOptions) -> Result<radtap_diff_tangent::Options, Failure> {
    let mut opts = radtap_diff_tangent::Options::adjoint();
    opts.slice_dead = !Optim::DiffLiveness.off(&o.nooptim);
    opts.tbr = !Optim::Tbr.off(&o.nooptim);
    opts.induction = !Optim::Induction.off(&o.nooptim);
    opts.share_partials = !Optim::SharePartials.off(&o.nooptim);
    opts.joint_branches = !Optim::DeadControl.off(&o.nooptim);
    opts.snapshot_needs = !Optim::Snapshot.off(&o.nooptim);
    opts.structured_jumps = !Optim::StructuredJumps.off(&o.nooptim);
    opts.recompute = !Optim::RecomputeIntermediates.off(&o.nooptim);
    opts.local_records = !Optim::LocalRecords.off(&o.nooptim);
    opts.split = o.nocheckpoint;
    opts.sizes = sizes(o)?;
    if let Some(p) = &o.adjvarname {
        opts.var_pattern = p.clone();
    }
    if let Some(p) = &o.adjfuncname {
        opts.func_pattern = p.clone();
    }
    if let Some(p) = &o.adjmodulename {
        opts.module_pattern = p.clone();
        opts.type_pattern = p.clone();
    }
    Ok(opts)
}

/// A derivative generator: `radtap_diff_tangent::differentiate`'s signature.
type Generator =
    fn(&Program, &ProgramInfo, &radtap_diff_tangent::Options) -> (Option<Output>, Vec<Diagnostic>);

/// The generator for `opts`' mode (`opts.adjoint`): the one place that names them.
fn generator(opts: &radtap_diff_tangent::Options) -> Generator {
    match opts.adjoint {
        false => radtap_diff_tangent::differentiate,
        true => radtap_diff_adjoint::differentiate,
    }
}

/// Runs the generator of `opts`' mode; adds its diagnostics to `r`, and on error records the
/// failure.
fn run_generator(
    prog: &Program,
    info: &ProgramInfo,
    opts: &radtap_diff_tangent::Options,
    r: &mut Response,
) -> Option<Output> {
    let (gen, d) = generator(opts)(prog, info, opts);
    if gen.is_none() {
        let count = d.iter().filter(|x| x.is_error()).count();
        // A refusal of the generator is an input error, even when one of its diagnostics is
        // an internal error (the command line exits 1 for it, as it always has).
        r.failure = Some(Failure::Errors {
            count,
            internal: false,
        });
    }
    r.diagnostics.extend(d);
    gen
}

/// Stage 5, `-p`: every input file as radtap understood it, `STEM_p.EXT` (the first file
/// takes the `-o` stem as it is, the next ones with their index appended).
pub fn primal(prog: &Program, stem: Option<&str>) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (i, f) in prog.files.iter().enumerate() {
        if f.header {
            // Not an input: the user's own header, included as it is.
            continue;
        }
        let stem = match (stem, i) {
            (Some(s), 0) => s.to_string(),
            (Some(s), _) => format!("{s}{i}"),
            (None, _) => Path::new(&f.path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "out".into()),
        };
        let ext = radtap_unparse::output_extension(prog, i);
        files.push((
            format!("{stem}_p.{ext}"),
            radtap_unparse::write_file(prog, i),
        ));
    }
    files
}
