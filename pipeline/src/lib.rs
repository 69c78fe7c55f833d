//! # radtap-pipeline: the stages of radtap as library calls
//!
//! This crate owns the pipeline shared by the command line (the `radtap` package) and the web
//! submission service (`radtap-web`): both call these functions, neither parses the other's
//! arguments. It lives in its own crate because `radtap-web` cannot depend on the `radtap`
//! package whose binary runs `radtap serve` (cargo forbids the cycle; docs/decisions.md).
//! Invariant: nothing here reads arguments, prints, or writes files; the same [`Request`]
//! gives the same files whoever asks.
//!
//! The pipeline as library calls over in-memory data: a [`Request`] (sources as name and
//! content, the head, the variables, the modes and the options) goes through the stages below
//! and comes out as a [`Response`] (files as name and content, diagnostics, or why it stopped).
//!
//! The stages, in order:
//!
//! 1. [`check_request`]: the request makes sense (a mode, a head where one is needed); warns
//!    about `-nooptim` names it does not know.
//! 2. [`parse`]: the frontends turn the sources into one IL program, which the IL verifier
//!    checks.
//! 3. [`check`]: the heads and `-vars`/`-outvars` name procedures and variables of the program.
//! 4. [`analyse`]: the data-flow analyses of the heads (activity, diff-liveness, TBR).
//!    Stages 2–4 together are [`front`].
//! 5. [`generate`]: each requested mode — [`tangent`] (scalar or vector), [`adjoint`],
//!    [`primal`] — as output files; or, instead of files, [`dump_il`] and [`dump_analysis`].
//!
//! [`run`] chains them for a caller that wants files and diagnostics only (the web service).
//! Nothing here reads arguments, prints, or touches the file system (the frontends run `cpp`
//! on `.F`/`.F90` files and on C files with `#if`); the CLI (`commands.rs`) reads the files,
//! creates the output directory between stages 4 and 5, writes the files and turns a
//! [`Failure`] into an exit status.

mod analysis;
mod generate;
mod head;
pub mod optim;
mod parse;
mod reach;
mod request;

pub use analysis::{analyse, dump_analysis, dump_il};
pub use generate::{adjoint, generate, primal, tangent};
use head::check_head;
pub use head::{parse_head, parse_heads, var_list, HeadSpec};
use optim::Optim;
pub use parse::parse;
pub use request::{
    check_request, render_diagnostics, Analysed, DiffOptions, Failure, Modes, Request, Response,
};

/// Stack of a thread that differentiates (the `radtap` command's, the service's workers, the
/// test suites' runs): 4 GiB of address space, reserved, not committed. The passes recurse
/// over expressions and blocks down to the frontends' nesting limits; measured in
/// `tests/robustness.rs` (deep nesting at those limits, in every mode).
pub const STACK_BYTES: usize = 4 << 30;
use radtap_il::{Code, Diagnostic, Program};

/// Every stage a service needs, in order: [`check_request`], [`front`], [`generate`]. The
/// dumps are not produced; a request that fails keeps the diagnostics found so far.
pub fn run(req: &Request) -> Response {
    let warnings = match check_request(req) {
        Ok(w) => w,
        Err(f) => {
            return Response {
                failure: Some(f),
                ..Response::default()
            }
        }
    };
    let analysed = front(req);
    let mut r = match analysed.failure() {
        Some(f) => Response {
            program: analysed.program,
            diagnostics: analysed.diagnostics,
            failure: Some(f),
            ..Response::default()
        },
        None => generate(req, analysed),
    };
    r.warnings = warnings;
    r
}

/// Stages 2–4: [`parse`], [`check`] and [`analyse`].
pub fn front(req: &Request) -> Analysed {
    let (mut program, mut diagnostics) = parse(req);
    // What the frontends could not represent in a procedure, for the procedures the heads
    // reach (every one when every unit is written).
    let m = &req.modes;
    let all = m.primal || m.dump_il || !(m.tangent || m.adjoint || m.dump_analysis);
    diagnostics.extend(reach::refusals(&program, req.head.as_deref(), all));
    check(&program, req, &mut diagnostics);
    // Internal procedures receive the host variables they use as arguments (`il::lift`), so
    // the analyses and the generators see their effects at each call; C increments inside
    // statements become statements of their own (`il::incdec`). Only for the modes that
    // differentiate: `-p` alone writes the program as read.
    let m = &req.modes;
    if !diagnostics.iter().any(|d| d.is_error()) && (m.tangent || m.adjoint || m.dump_analysis) {
        // C comma expressions evaluated with their statement become statements before it
        // (`il::comma`: f2c's `d__2 = dmax__, d__3 = (d__1 = x[i__], abs(d__1));`).
        radtap_il::comma::lower_commas(&mut program);
        // C `static` locals every call writes before reading them hold no state: automatic
        // (`il::statics`: f2c declares every local `static`).
        radtap_il::statics::automatic_statics(&mut program);
        radtap_il::incdec::split_increments(&mut program);
        let reached = reach::reached(&program, req.head.as_deref(), all);
        diagnostics.extend(radtap_il::lift::lift_host_association(&mut program, |h| {
            reached.contains(&h)
        }));
    }
    // Statement functions are inlined (`il::stmtfn`), and an array expression given for an
    // array dummy becomes a temporary assigned before the statement (`il::hoist`): ordinary
    // expressions and variables to the analyses and both modes.
    if !diagnostics.iter().any(|d| d.is_error()) && (m.tangent || m.adjoint || m.dump_analysis) {
        radtap_il::stmtfn::inline_statement_functions(&mut program);
        // `sum(array=x)` is `sum(x)` (`il::intrinsic_args`): the rules read the required
        // arguments of an intrinsic by position.
        radtap_il::intrinsic_args::positional_required_args(&mut program);
        // F66 `DOUBLE PRECISION X(1)` dummies mean any length: `X(*)` (`il::any_length`).
        radtap_il::any_length::any_length_dummies(&mut program);
        // `allocate(u, source=e)` is `allocate(u(<bounds of e>))` and `u = e`
        // (`il::source_alloc`): the value and shape reach the analyses and both modes.
        diagnostics.extend(radtap_il::source_alloc::lower_source_allocations(
            &mut program,
        ));
        diagnostics.extend(radtap_il::hoist::hoist_array_actuals(&mut program));
        // Fortran BLOCK constructs are opened into their procedure (`il::blocks`: locals
        // moved, `exit name` a jump past the block), which the adjoint reverses; the tangent
        // keeps them as written.
        if m.adjoint {
            radtap_il::blocks::open_blocks(&mut program);
        }
        // A procedure whose dummy procedure receives several procedures gets a copy per
        // actual procedure (`il::specialise`), as Tapenade specialises.
        radtap_il::specialise::specialise_dummy_procedures(&mut program);
        // `IF (c) GOTO 15` over statements of one block becomes an IF construct
        // (`il::fwdgoto`): the adjoint keeps the loop around it structured.
        radtap_il::fwdgoto::structure_forward_gotos(&mut program);
        // An F77 `DO 10 … 10 CONTINUE` under BINOMIAL-CKP, II-LOOP or FP-LOOP is a DO … END
        // DO (`il::labelled_do`): the adjoint runs its body more than once.
        radtap_il::labelled_do::structure_directive_loops(&mut program);
        // C `memcpy` and `memset(p, 0, …)` of real arrays become the loops they are
        // (`il::memcpy`): the derivatives of what they copy or clear follow element by
        // element.
        radtap_il::memcpy::lower_real_copies(&mut program);
        // C `c ? a : b` with real values becomes an `if` (`il::ternary`): each branch's
        // derivative runs under its condition (both branches' partials ran: `0/0`, `u[-1]`).
        radtap_il::ternary::lower_conditionals(&mut program);
        // OpenMP `reduction(*|max|min: m)` of a real variable: a parallel loop over fixed
        // chunks, each reducing into its own copy, and the copies combined in order
        // (`il::omp_reduce`): what both modes differentiate.
        radtap_il::omp_reduce::lower_reductions(&mut program);
        // C `1[x]` is `x[1]` (`il::subscripts`): the array was taken for the subscript.
        radtap_il::subscripts::commute_reversed_subscripts(&mut program);
        // A call of a pure function whose arguments a loop does not change leaves the loop
        // (`il::invariant`): the adjoint calls it and its adjoint once, not per iteration.
        // Optimisation before differentiation (issue 47, Enzyme's lesson): small helpers
        // called in loops are inlined (`il::inline`), loop-invariant calls of pure functions
        // and loop-invariant expressions leave their loop (`il::invariant`,
        // `il::invariant_expr`), and an expression computed twice in a basic block is computed
        // once (`il::cse`): the adjoint then differentiates each once.
        let off = |o: Optim| o.off(&req.options.nooptim);
        if !off(Optim::InlineHelpers) {
            radtap_il::inline::inline_small_functions(&mut program);
        }
        let pure = if radtap_il::invariant::worth_trying(&program) {
            radtap_dataflow::pure_functions(&program)
        } else {
            Default::default()
        };
        if !off(Optim::HoistInvariant) && !pure.is_empty() {
            radtap_il::invariant::hoist_invariant_calls(&mut program, &pure);
        }
        let callees = radtap_il::invariant::pure_callees(&program, &pure);
        if !off(Optim::HoistExpressions) {
            radtap_il::invariant_expr::hoist_invariant_exprs(&mut program, &callees);
        }
        if !off(Optim::ShareCommon) {
            radtap_il::cse::share_common_subexpressions(&mut program, &callees);
        }
        // C `return e` before a function's end becomes `result = e` in structured code
        // (`il::early_return`), which the adjoint reverses; the tangent keeps it as written.
        if m.adjoint {
            radtap_il::early_return::name_returned_calls(&mut program);
            radtap_il::early_return::structure_value_returns(&mut program);
        }
    }
    let info = analyse(&program, req, &mut diagnostics);
    Analysed {
        program,
        info,
        diagnostics,
    }
}

/// Stage 3: every head names a procedure of the program (AD040), and every `-vars`/`-outvars`
/// name a variable it can see (AD041).
pub fn check(prog: &Program, req: &Request, diags: &mut Vec<Diagnostic>) {
    // After a syntax error the procedure may be missing only because it could not be read:
    // an AD040 there would be a cascade, not news.
    if diags.iter().any(|d| d.is_error()) {
        return;
    }
    if let Some(h) = &req.head {
        check_head(prog, h, req.vars.as_deref(), req.outvars.as_deref(), diags);
    }
    if req.modes.adjoint {
        directive_warnings(prog, diags);
    }
}

/// AD050 for every `$AD` directive the adjoint does not act on, at the directive's line (or
/// the statement or unit it precedes): none is ignored without a word. `NOCHECKPOINT` is
/// implemented (and its misplaced uses are reported by the adjoint itself), and so are
/// `BINOMIAL-CKP` and `II-LOOP` before a DO or `for` loop and `FP-LOOP` before any loop (the
/// adjoint reports a loop it cannot drive or iterate) and the regions `CHECKPOINT-START`/`-END` and `DO-NOT-DIFF`/`END-DO-NOT-DIFF`
/// when they match within one block ([`radtap_il::directives`]).
fn directive_warnings(prog: &Program, diags: &mut Vec<Diagnostic>) {
    use radtap_il::directives::{block_regions, for_each_block};
    use radtap_il::DirectiveKind as K;
    let say = |d: &radtap_il::Directive| -> Option<String> {
        match &d.kind {
            K::Nocheckpoint => None,
            K::BinomialCkp(_) => Some("`$AD BINOMIAL-CKP` applies to the DO or `for` loop right after it, and none follows: ignored".to_string()),
            K::IiLoop => Some("`$AD II-LOOP` applies to the DO or `for` loop right after it, and none follows: ignored".to_string()),
            K::FpLoop(_) => Some("`$AD FP-LOOP` applies to the loop right after it, and none follows: ignored".to_string()),
            _ => Some(format!(
                "unknown directive `$AD {}`: ignored (radtap knows NOCHECKPOINT, BINOMIAL-CKP, II-LOOP, FP-LOOP, CHECKPOINT-START/END and DO-NOT-DIFF/END-DO-NOT-DIFF)",
                d.kind.word()
            )),
        }
    };
    for (_, u) in prog.units.iter() {
        let header = u.source_map.header.unwrap_or_default();
        let mut at_unit: Vec<&radtap_il::Directive> = u.directives.iter().collect();
        at_unit.extend(u.decls.iter().filter_map(|d| match d {
            radtap_il::Decl::Directive(d) => Some(d),
            _ => None,
        }));
        for d in at_unit {
            let m = if d.kind.is_region() {
                Some(format!(
                    "`$AD {}` must stand among the executable statements, before the first statement of its region: ignored",
                    d.kind.word()
                ))
            } else {
                say(d)
            };
            if let Some(m) = m {
                diags.push(Diagnostic::warning(
                    Code::Directive,
                    d.span.unwrap_or(header),
                    m,
                ));
            }
        }
        for (s, st) in u.stmts.iter() {
            for d in &st.directives {
                if d.kind.is_region() {
                    continue;
                }
                let time_loop = matches!(
                    st.kind,
                    radtap_il::StmtKind::Do { .. } | radtap_il::StmtKind::CFor { .. }
                );
                let while_loop = matches!(
                    st.kind,
                    radtap_il::StmtKind::While { .. } | radtap_il::StmtKind::DoWhile { .. }
                );
                if matches!(d.kind, K::BinomialCkp(_)) && while_loop {
                    continue;
                }
                let any_loop = time_loop
                    || matches!(
                        st.kind,
                        radtap_il::StmtKind::While { .. }
                            | radtap_il::StmtKind::DoWhile { .. }
                            | radtap_il::StmtKind::Loop { .. }
                    );
                if matches!(d.kind, K::FpLoop(_)) && any_loop {
                    // Implemented; the adjoint says so itself where it tapes the loop whole.
                    continue;
                }
                if matches!(d.kind, K::IiLoop | K::BinomialCkp(_)) && time_loop {
                    // Implemented; the adjoint says so itself where it cannot drive the loop.
                    continue;
                }
                if let Some(m) = say(d) {
                    let sp = u.source_map.stmt.get(s).copied().unwrap_or(header);
                    diags.push(Diagnostic::warning(Code::Directive, sp, m));
                }
            }
        }
        let mut problems = Vec::new();
        for_each_block(u, &mut |b| problems.extend(block_regions(&u.stmts, b).1));
        for p in problems {
            let sp = u.source_map.stmt.get(p.stmt).copied().unwrap_or(header);
            diags.push(Diagnostic::warning(
                Code::Directive,
                p.span.unwrap_or(sp),
                p.message,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "subroutine sq(x, y)\n  real :: x, y\n  y = x*x\nend subroutine sq\n";

    fn request(modes: Modes) -> Request {
        Request {
            sources: vec![("sq.f90".into(), SRC.into())],
            head: Some("sq".into()),
            vars: Some("x".into()),
            outvars: Some("y".into()),
            modes,
            ..Request::default()
        }
    }

    #[test]
    fn run_turns_sources_into_named_files() {
        let r = run(&request(Modes {
            tangent: true,
            adjoint: true,
            primal: true,
            ..Modes::default()
        }));
        assert_eq!(r.failure, None, "{}", r.render_diagnostics(&[]));
        let names: Vec<&str> = r.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["sq_d.f90", "sq_b.f90", "sq_p.f90"]);
        assert!(r.files[0].1.contains("sq_d"), "{}", r.files[0].1);
        assert!(r.files[1].1.contains("sq_b"), "{}", r.files[1].1);
        assert!(r.tangent.is_some() && r.adjoint.is_some());
    }

    #[test]
    fn run_stops_on_a_bad_request_a_bad_size_or_a_bad_source() {
        let r = run(&request(Modes::default()));
        assert!(matches!(r.failure, Some(Failure::Usage(m)) if m.starts_with("nothing to do")));
        let mut req = request(Modes {
            tangent: true,
            adjoint: true,
            ..Modes::default()
        });
        req.options.size = vec!["y".into()];
        let r = run(&req);
        assert!(matches!(&r.failure, Some(Failure::Usage(m)) if m.contains("-size `y`")));
        // A malformed command line stops the request before any generation.
        assert!(r.files.is_empty() && r.tangent.is_none());
        req.options.size.clear();
        req.sources[0].1 = "subroutine sq(x\nend\n".into();
        let r = run(&req);
        assert!(matches!(r.failure, Some(Failure::Errors { count, internal: false }) if count > 0));
        let text = r.render_diagnostics(&req.sources);
        assert!(text.starts_with("sq.f90:"), "{text}");
    }

    #[test]
    fn unknown_optimizations_are_refused_and_inert_ones_warned() {
        let mut req = request(Modes {
            primal: true,
            ..Modes::default()
        });
        req.options.nooptim = vec!["tbr".into(), "mergediff".into()];
        let w = check_request(&req).expect("a valid request");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("-nooptim mergediff has no effect yet"));
        req.options.nooptim.push("bogus".into());
        let e = check_request(&req).expect_err("an unknown name is a bad command line");
        assert!(
            matches!(e, Failure::Usage(m) if m.starts_with("-nooptim bogus: unknown optimization"))
        );
    }
}
