//! What the backward sweep rebuilds or reads back instead of pushing it or evaluating it
//! again: integer counters and loop bounds, stored intrinsic and function results, a seed
//! flowing into two references; what the forward sweep leaves out (dead calls, results no
//! adjoint reads); and the structure kept (an IF at the turn, Fortran locals zeroed after a
//! jump). Loops with jumps, whose snapshots are named after this test binary, are in
//! `adjoint_speed.rs`.

use super::*;

/// Item 1: counters stepped by a constant are undone backwards (`k = k - 1`), loop
/// variables read only inside their loops are not recorded on entry; `-nooptim induction`
/// records them all again. The numbers of both programs are proven by the corpus suites.
#[test]
fn integer_counters_are_rebuilt_backwards_not_pushed() {
    let c = adjoint_text("tests/tangent/c_induction_counters.c", &[], "c");
    for absent in [
        "pushInteger4(k)",
        "pushInteger4(m)",
        "pushInteger4(c)",
        "pushInteger4(j)",
    ] {
        assert!(!c.contains(absent), "`{absent}` in\n{c}");
    }
    for present in ["k = k - 1;", "m = m - 2;", "m = m + 1;", "c = c - 1;"] {
        assert!(c.contains(present), "`{present}` missing in\n{c}");
    }
    // `i` is read after its last loop (`w * i`): its entry values stay recorded (in locals:
    // the loops are at the top level, `locals.rs`).
    assert!(
        c.contains("i_save = i;") && c.contains("i = i_save;"),
        "{c}"
    );
    let c0 = adjoint_text(
        "tests/tangent/c_induction_counters.c",
        &["-nooptim", "induction"],
        "c0",
    );
    for present in [
        "pushInteger4(k)",
        "pushInteger4(m)",
        "pushInteger4(c)",
        "pushInteger4(j)",
    ] {
        assert!(c0.contains(present), "`{present}` missing in\n{c0}");
    }
    let f = adjoint_text("tests/tangent/f_induction_counters.f90", &[], "f");
    assert!(
        !f.contains("pushinteger4(k)") && !f.contains("pushinteger4(m)"),
        "{f}"
    );
    assert!(f.contains("k = k - 1") && f.contains("m = m - 2"), "{f}");
    let f0 = adjoint_text(
        "tests/tangent/f_induction_counters.f90",
        &["-nooptim", "induction"],
        "f0",
    );
    assert!(
        f0.contains("pushinteger4(k)") && f0.contains("pushinteger4(m)"),
        "{f0}"
    );
}

/// Item 2: a function result that no adjoint reads is not recomputed backwards
/// (`-nooptim diffliveness` recomputes every one). Numbers: the corpus suites.
#[test]
fn function_results_no_adjoint_reads_are_not_recomputed() {
    let count = |t: &str, s: &str| t.matches(s).count();
    let t = adjoint_text("tests/tangent/c_function_results_backward.c", &[], "r");
    let body = &t[t.find("void fres_b(").unwrap()..];
    // Forward: none (the primal `y` is no output of the adjoint, and `sq`, `lse`, `sq2` have
    // no side effects: their references go with the statements); backward: `sq(x) * x[0]`
    // and the inner value of the nested `sq2(sq(x))` only.
    assert_eq!(count(body, "sq_nodiff("), 2, "{body}");
    assert_eq!(count(body, "lse_nodiff("), 0, "{body}");
    assert_eq!(count(body, "sq2_nodiff("), 0, "{body}");
    let t0 = adjoint_text(
        "tests/tangent/c_function_results_backward.c",
        &["-nooptim", "diffliveness"],
        "r0",
    );
    let body0 = &t0[t0.find("void fres_b(").unwrap()..];
    assert_eq!(count(body0, "sq_nodiff("), 8, "{body0}");
    assert_eq!(count(body0, "sq2_nodiff("), 2, "{body0}");
    assert_eq!(count(body0, "lse_nodiff("), 2, "{body0}");
}

/// Item 2, calls: a statement whose value no derivative needs goes from the forward sweep
/// with the references it makes to functions without side effects (`lse`, `norm2`: the loop
/// summing them goes whole), while references to functions that change a static counter, a
/// global or an argument stay. Numbers: c_dead_calls.c in the corpus suites (dropping
/// `counted(1.5)` would make the second call return a different weight: the dot-product test
/// against the tangent, which keeps every call, would fail).
#[test]
fn dead_calls_without_side_effects_leave_the_forward_sweep() {
    let count = |t: &str, s: &str| t.matches(s).count();
    let t = adjoint_text("tests/tangent/c_dead_calls.c", &[], "dc");
    let body = &t[t.find("void dead_calls_b(").unwrap()..];
    // `lse` once, recomputed backwards where `y[0]`'s adjoint reads it; `norm2` never.
    assert_eq!(count(body, "lse_nodiff("), 1, "{body}");
    assert_eq!(count(body, "norm2_nodiff("), 0, "{body}");
    assert!(!body.contains("for (i = 0; i < 3; i++)"), "{body}");
    assert_eq!(count(body, "counted("), 2, "{body}");
    assert_eq!(count(body, "remember("), 1, "{body}");
    assert_eq!(count(body, "bump("), 1, "{body}");
    let t0 = adjoint_text(
        "tests/tangent/c_dead_calls.c",
        &["-nooptim", "diffliveness"],
        "dc0",
    );
    let body0 = &t0[t0.find("void dead_calls_b(").unwrap()..];
    assert_eq!(count(body0, "norm2_nodiff("), 3, "{body0}");
}

/// Item 3: a seed flowing into both operands of a sum is computed once into a temporary:
/// `xb[i] += exp(x[i]-m)*sb; mb -= exp(x[i]-m)*sb` called `exp` twice backwards
/// (`-nooptim sharepartials` writes it out twice again). Numbers: every corpus program goes
/// through this (e_c_math_mix.c, c_math_a.c, the Fortran reductions, ...).
#[test]
fn a_seed_flowing_into_two_references_is_computed_once() {
    let dir = std::env::temp_dir().join(format!("radtap-share-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("lse.c");
    std::fs::write(
        &src,
        "#include <math.h>\n\ndouble lse(int n, const double *x, double m)\n{\n    int i;\n    double s = 0.0;\n    for (i = 0; i < n; i++)\n        s = s + exp(x[i] - m);\n    return log(s) + m;\n}\n",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "lse", "-vars", "x m", "-size", "x=n"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let backward = |extra: &[&str], tag: &str| -> String {
        let out = dir.join(tag);
        let mut args = vec!["-b", "-o", "gen"];
        args.extend_from_slice(extra);
        let o = run_cli(&src, &opts, &args, &out);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let text = std::fs::read_to_string(out.join("gen_b.c")).unwrap();
        let body = &text[text.find("void lse_b(").unwrap()..];
        body[body.find("--i)").expect("a backward loop")..].to_string()
    };
    let shared = backward(&[], "on");
    assert_eq!(shared.matches("exp(").count(), 1, "{shared}");
    assert!(shared.contains("tempb = exp(x[i] - m) * sb;"), "{shared}");
    let twice = backward(&["-nooptim", "sharepartials"], "off");
    assert_eq!(twice.matches("exp(").count(), 2, "{twice}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Triangular loops: the bounds of an inner loop that read only the variables of the counted
/// loops around it (`for (j = i + 1; j < n; j++)`, `j <= i`, three deep, counting down) are
/// evaluated again backwards from the restored outer variables, as Tapenade does, instead of
/// pushing `j - 1` and the start once per outer iteration. A bound reading a counter the
/// body of a `while` steps stays recorded; `-nooptim induction` records them all again.
/// Numbers: both programs go through the corpus suites.
#[test]
fn bounds_reading_outer_loop_variables_are_evaluated_again_backwards() {
    let c = adjoint_text("tests/tangent/c_triangular_bounds.c", &[], "tri");
    assert_eq!(c.matches("pushInteger4(ad_from)").count(), 1, "{c}");
    let lower = &c[c.find("void lower_mul_b(").unwrap()..c.find("void tri_b(").unwrap()];
    assert!(!lower.contains("pushInteger4"), "{lower}");
    assert!(
        lower.contains("for (j = n - 1; j >= (i + 1); --j)"),
        "{lower}"
    );
    let body = &c[c.find("void tri_b(").unwrap()..];
    for bwd in [
        "for (j = i; j >= 0; --j)",
        "for (k = n - 1; k >= (j + 1); --k)",
        "for (j = i - 1; j >= 0; --j)",
    ] {
        assert!(body.contains(bwd), "`{bwd}` missing in\n{body}");
    }
    let c0 = adjoint_text(
        "tests/tangent/c_triangular_bounds.c",
        &["-nooptim", "induction"],
        "tri0",
    );
    assert!(c0.matches("pushInteger4(ad_from").count() >= 6, "{c0}");
    let f = adjoint_text("tests/tangent/f_triangular_bounds.f90", &[], "ftri");
    // Left: the outer loop counting down by a step of -1 and the loop with a step of 2
    // (recorded bounds, as before).
    assert_eq!(f.matches("call pushinteger4(ad_from").count(), 2, "{f}");
    for bwd in [
        "do j = n, i + 1, -1",
        "do j = i, 1, -1",
        "do k = n, j + 1, -1",
    ] {
        assert!(f.contains(bwd), "`{bwd}` missing in\n{f}");
    }
    let f0 = adjoint_text(
        "tests/tangent/f_triangular_bounds.f90",
        &["-nooptim", "induction"],
        "ftri0",
    );
    assert!(f0.matches("call pushinteger4(ad_from").count() >= 6, "{f0}");
}

/// Item 6: the void helpers the differentiated code calls (`shift`, `lower_mul`, and
/// `shift` from `lower_mul`) get `static inline` primal copies in the adjoint's file, which
/// every generated call uses, so gcc can inline the forward sweep of checkpointed calls (the
/// originals are in another object file). Numbers: the corpus suites.
#[test]
fn void_helpers_get_inline_primal_copies() {
    let c = adjoint_text("tests/tangent/c_triangular_bounds.c", &[], "copies");
    assert!(
        c.contains(
            "static inline void shift_nodiff(int n, const double *a, const double *b, double *out) {"
        ),
        "{c}"
    );
    assert!(c.contains("static inline void lower_mul_nodiff("), "{c}");
    let copy = &c[c.find("void lower_mul_nodiff(").unwrap()..c.find("void lower_mul_b(").unwrap()];
    assert!(copy.contains("shift_nodiff(n, x, l, t);"), "{copy}");
    let body = &c[c.find("void tri_b(").unwrap()..];
    assert!(body.contains("shift_nodiff(n, w, x, v);"), "{body}");
    assert!(body.contains("lower_mul_nodiff(n, l, v, w);"), "{body}");
    assert!(
        !c.contains(" shift(n,") && !c.contains(" lower_mul(n,"),
        "{c}"
    );
}

/// Item 5: an IF at the turn of a joint-mode adjoint (forward sweep last, backward sweep
/// first) is kept whole, each branch running its forward then its backward statements, with
/// no control code pushed and popped at once; nested IFs at the end of a branch too, and the
/// IF of a helper. The IF inside a loop keeps its codes; `-nooptim deadcontrol` keeps them
/// all. Numbers: both programs go through the corpus suites.
#[test]
fn an_if_at_the_turn_is_kept_whole() {
    let c = adjoint_text("tests/tangent/c_branch_at_turn.c", &[], "turn");
    let rot = &c[c.find("void rot_b(").unwrap()..c.find("void turn_b(").unwrap()];
    assert!(!rot.contains("Control") && !rot.contains("branch"), "{rot}");
    let body = &c[c.find("void turn_b(").unwrap()..];
    assert_eq!(body.matches("pushControl1b(").count(), 2, "{body}");
    assert_eq!(body.matches("popControl1b(").count(), 1, "{body}");
    assert!(body.contains("rot_nodiff(u, v);"), "{body}");
    let c0 = adjoint_text(
        "tests/tangent/c_branch_at_turn.c",
        &["-nooptim", "deadcontrol"],
        "turn0",
    );
    let body0 = &c0[c0.find("void turn_b(").unwrap()..];
    assert_eq!(body0.matches("popControl").count(), 3, "{body0}");
    let f = adjoint_text("tests/tangent/f_branch_at_turn.f90", &[], "fturn");
    let f = &f[f.find("subroutine fturn_b(").unwrap()..];
    assert!(!f.contains("control") && !f.contains("branch"), "{f}");
    let f0 = adjoint_text(
        "tests/tangent/f_branch_at_turn.f90",
        &["-nooptim", "deadcontrol"],
        "fturn0",
    );
    assert_eq!(f0.matches("call popcontrol1b(branch)").count(), 2, "{f0}");
}

/// Intrinsic values stored in scalars are read back by the partials (`siblings.rs`):
/// `sqrt`'s own value, `cos`/`sin` of the same argument each other's, a quotient its own;
/// never a value whose argument was assigned in between, nor one computed in a loop.
/// `-nooptim sharepartials` calls the intrinsics again. Numbers: the corpus suites
/// (c_sibling_intrinsics.c).
#[test]
fn stored_scalar_intrinsics_are_read_back_by_their_siblings_partials() {
    let c = adjoint_text("tests/tangent/c_sibling_intrinsics.c", &[], "sib");
    let bwd = &c[c.find("yb[3] = 0.0;").unwrap()..];
    for read in [
        "(1 / (2 * theta))",
        "(-sintheta) * costhetab",
        "costheta * sinthetab",
        "temp = inv;",
        // phi is assigned between sphi = sin(phi) and cphi = cos(phi).
        "(-sin(phi)) * cphib",
        "cos(phi) * sphib",
        // c = cos(x[i] * theta) in a loop.
        "cos(x[i] * theta) * (c * accb)",
    ] {
        assert!(bwd.contains(read), "`{read}` in\n{bwd}");
    }
    for absent in ["sqrt(sq)", "cos(theta)", "sin(theta)", "1.0 / theta"] {
        assert!(!bwd.contains(absent), "`{absent}` in\n{bwd}");
    }
    let c0 = adjoint_text(
        "tests/tangent/c_sibling_intrinsics.c",
        &["-nooptim", "sharepartials"],
        "sib0",
    );
    let bwd0 = &c0[c0.find("yb[3] = 0.0;").unwrap()..];
    assert!(bwd0.contains("cos(theta) * sinthetab"), "{bwd0}");
}

/// The second item of the speed6 round: a Fortran procedure reversed on basic blocks (here an
/// early RETURN) zeroes its plain locals the derivatives read before the forward sweep
/// (`advance` in rw_f_particle_records.f90: `re`, `tau`), so gfortran's -Wall no longer warns
/// (`no_adjoint_of_the_corpus_reads_an_uninitialised_value`, whose list of known false
/// positives is now empty). A SAVE with no list keeps every local's value from the previous
/// call: such a unit gets no zeroing, which would change what it computes.
#[test]
fn fortran_locals_read_after_a_jump_are_zeroed_unless_saved() {
    let f = "tests/tangent/rw_f_particle_records.f90";
    let b = adjoint_text(f, &[], "zero");
    let adv = &b[b.find("subroutine advance_b(").unwrap()..];
    let adv = &adv[..adv.find("end subroutine advance_b").unwrap()];
    assert!(
        adv.contains("re = 0.0_8\n    tau = 0.0_8\n    if (.not. p%active)"),
        "{adv}"
    );
    assert!(!adv.contains("mass_ratio = 0"), "{adv}");
    let text = std::fs::read_to_string(f).unwrap();
    let decl = "    real(wp) :: re, tau, mass_ratio\n";
    assert!(text.contains(decl));
    let saved = text.replace(decl, &format!("{decl}    save\n"));
    let dir = std::env::temp_dir().join(format!("radtap-speed-{}-savedsrc", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = dir.join("saved.f90");
    std::fs::write(&g, saved).unwrap();
    let b = adjoint_text(g.to_str().unwrap(), &[], "save");
    let _ = std::fs::remove_dir_all(&dir);
    let adv = &b[b.find("subroutine advance_b(").unwrap()..];
    let adv = &adv[..adv.find("end subroutine advance_b").unwrap()];
    assert!(!adv.contains("re = 0.0_8"), "{adv}");
    assert!(!adv.contains("tau = 0.0_8"), "{adv}");
}

/// Item 1 in split mode (the speed7 round): a callee's counter stepped by a constant is
/// undone backwards in `tri_mul_bwd` (its final value goes over with the locals `exit_record`
/// pushes), not pushed at each step by `tri_mul_fwd`, and its loop variables' final values do
/// not go over; `-nooptim induction` pushes them all again.
/// Numbers: the corpus suites run this program split and joint.
#[test]
fn split_sweeps_rebuild_counters_backwards_too() {
    let c = adjoint_text(
        "tests/tangent/c_split_counters.c",
        &["-nocheckpoint"],
        "splitk",
    );
    let fwd = &c[c.find("void tri_mul_fwd(").unwrap()..];
    let fwd = &fwd[..fwd.find("\n}\n").unwrap()];
    assert_eq!(fwd.matches("pushInteger4(k)").count(), 1, "{fwd}");
    assert!(fwd.ends_with("pushInteger4(k);"), "{fwd}");
    // The loop variables `i`, `j`: read only inside their loops, which `tri_mul_bwd` runs
    // backwards setting them; their final values do not go over.
    assert!(
        !fwd.contains("pushInteger4(i)") && !fwd.contains("pushInteger4(j)"),
        "{fwd}"
    );
    let bwd = &c[c.find("void tri_mul_bwd(").unwrap()..];
    assert!(bwd.contains("k = k - 1;"), "{bwd}");
    let c0 = adjoint_text(
        "tests/tangent/c_split_counters.c",
        &["-nocheckpoint", "-nooptim", "induction"],
        "splitk0",
    );
    let fwd0 = &c0[c0.find("void tri_mul_fwd(").unwrap()..];
    let fwd0 = &fwd0[..fwd0.find("\n}\n").unwrap()];
    assert!(fwd0.matches("pushInteger4(k)").count() >= 2, "{fwd0}");
}

/// The speed8 round: an intrinsic result the primal stored and nothing overwrites is read
/// back by the adjoint instead of being computed again (`extent::stored_until_adjoint`; LSTM's
/// `tanh` gate, whose partial is `1 - t*t`): `g[i]` (`exp`), `g[n + i]` (`tanh`) and
/// `g[2 * n + i]` (`sqrt`), stored apart in one loop. The arrays that break one condition
/// each (`a` overwritten by a later loop, `b` by the same loop at another iteration, `c`
/// through another pointer, `d` by a call) are evaluated again; reading any of them back
/// fails the corpus suites' dot-product test of this program (verified by mutation).
/// `-nooptim sharepartials` evaluates them all again.
#[test]
fn stored_intrinsic_results_are_read_back_not_evaluated_again() {
    let c = adjoint_text("tests/tangent/c_stored_result.c", &[], "stored");
    let body = &c[c.find("void gated_b(").unwrap()..];
    let (fwd, bwd) = body.split_at(body.find("--i)").unwrap());
    assert!(
        fwd.contains("g[n + i] = tanh(w[n + i] * x[i] + 0.1);"),
        "{fwd}"
    );
    assert!(bwd.contains("temp = g[n + i];"), "{bwd}");
    assert!(bwd.contains("= g[i] * gb[i];"), "{bwd}");
    assert!(bwd.contains("(1 / (2 * g[2 * n + i]))"), "{bwd}");
    for call in [
        "exp(w[3 * n + i] - x[i])",
        "tanh(w[4 * n + i] * x[i])",
        "exp(0.3 * w[5 * n + i] * x[i])",
        "tanh(x[i] * w[i])",
    ] {
        assert!(bwd.contains(call), "{call}\n{bwd}");
    }
    let c0 = adjoint_text(
        "tests/tangent/c_stored_result.c",
        &["-nooptim", "sharepartials"],
        "stored0",
    );
    let bwd0 = &c0[c0.find("void gated_b(").unwrap()..];
    let bwd0 = &bwd0[bwd0.find("--i)").unwrap()..];
    assert!(bwd0.contains("tanh(w[n + i] * x[i] + 0.1)"), "{bwd0}");
    assert!(!bwd0.contains("temp = g[n + i];"), "{bwd0}");
}

/// The speed10 round (`results.rs`): a user function's partial is written with the result
/// the forward sweep stored, when that value survives until the adjoint (LSTM's sigmoid
/// gates: `y * y * (1.0 / y - 1.0)` read from `g[i]`, not `exp` again in `sigmoid_b`);
/// the adjoint call stays where the stored value is overwritten (`h[i]` doubled), where a
/// step cannot be inverted cheaply (`exp(exp(x))`) and for a body that is no chain
/// (`softplus`); `-nooptim sharepartials` keeps every call. Numbers: the corpus suites
/// (removing the stored-value check fails this program's dot-product test).
#[test]
fn function_partials_are_written_with_their_stored_results() {
    let c = adjoint_text("tests/tangent/c_function_result_partials.c", &[], "results");
    let body = &c[c.find("void activations_b(").unwrap()..];
    for gone in [
        "sigmoid_b(x[i] * w[i]",
        "squash_b(",
        "half_tanh_b(",
        "root_b(",
    ] {
        assert!(!body.contains(gone), "{gone}\n{body}");
    }
    assert!(
        body.contains("argb = argb + sigmoid_resb * (g[i] * g[i] * ((1.0 / g[i]) - 1.0));"),
        "{body}"
    );
    assert!(body.contains("root_resb * (3.0 / (2.0 * r))"), "{body}");
    for kept in ["sigmoid_b(x[i] + w[i]", "expexp_b(", "softplus_b("] {
        assert!(body.contains(kept), "{kept}\n{body}");
    }
    let c0 = adjoint_text(
        "tests/tangent/c_function_result_partials.c",
        &["-nooptim", "sharepartials"],
        "results0",
    );
    let body0 = &c0[c0.find("void activations_b(").unwrap()..];
    for call in [
        "sigmoid_b(x[i] * w[i]",
        "squash_b(",
        "half_tanh_b(",
        "root_b(",
    ] {
        assert!(body0.contains(call), "{call}\n{body0}");
    }
}
