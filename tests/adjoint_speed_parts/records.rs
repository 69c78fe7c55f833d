//! What the adjoint records, and only that: a value the backward sweep reads, a section of an
//! array rather than the whole, nothing of a local a call gives its first value, what a rerun
//! callee reads on entry and no more, a cheap call run again instead of its work array
//! recorded, records outside loops kept in locals.

use super::*;

/// Item 4: a checkpoint's snapshot of one value is read again with `look`, not through a
/// repeat mark; a snapshot of several values keeps the mark. Numbers: the corpus suites run
/// checkpointed calls of both kinds (`c_helpers_compound.c`, `f_calls.f90`, ...); the
/// runtime's marks are tested in runtime-stack.
#[test]
fn a_snapshot_of_one_value_is_read_again_with_look() {
    let dir = std::env::temp_dir().join(format!("radtap-look-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("snap.c");
    std::fs::write(
        &src,
        "void scale(int n, double *a, double *b, double s)\n{\n    int i;\n    for (i = 0; i < n; i++) {\n        a[i] = a[i] * a[i] * s;\n        b[i] = b[i] * a[i];\n    }\n}\n\n\
         void sq(int n, double *a, double s)\n{\n    int i;\n    for (i = 0; i < n; i++)\n        a[i] = a[i] * a[i] * s;\n}\n\n\
         void one(int n, double *a, double *b, double *y)\n{\n    sq(n, a, 0.5);\n    *y = a[0] * a[1] * b[0];\n}\n\n\
         void two(int n, double *a, double *b, double *y)\n{\n    scale(n, a, b, 0.5);\n    *y = a[0] * b[1];\n}\n",
    )
    .unwrap();
    for (head, vars, look, mark) in [("one", "a", true, false), ("two", "a b", false, true)] {
        let opts: Vec<String> = [
            "-head", head, "-vars", vars, "-outvars", "y", "-size", "a=n", "-size", "b=n",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let out = dir.join(head);
        let o = run_cli(&src, &opts, &["-b", "-o", "gen"], &out);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let text = std::fs::read_to_string(out.join("gen_b.c")).unwrap();
        let body = &text[text.find(&format!("void {head}_b(")).unwrap()..];
        assert_eq!(body.contains("lookReal8Array("), look, "{head}:\n{body}");
        assert_eq!(
            body.contains("adStack_startRepeat();"),
            mark,
            "{head}:\n{body}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bytes pushed: a checkpointed call at the top level that gives a local its first value
/// records nothing of it (`double p[2]; project(n, x, a, p);` pushed and popped the
/// uninitialised `p`), and like terms of an increment are merged (`x[i] * rb + x[i] * rb`
/// into `2 * (x[i] * rb)`; `-nooptim sharepartials` writes them out again). Numbers: the
/// corpus suites.
#[test]
fn a_call_giving_a_local_its_first_value_records_nothing_of_it() {
    let c = adjoint_text("tests/tangent/c_call_fills_local.c", &[], "fills");
    let body = &c[c.find("void fills_b(").unwrap()..];
    assert!(!body.contains("push") && !body.contains("pop"), "{body}");
    assert!(c.contains("xb[i] = xb[i] + 2 * (x[i] * rb);"), "{c}");
    let c0 = adjoint_text(
        "tests/tangent/c_call_fills_local.c",
        &["-nooptim", "sharepartials"],
        "fills0",
    );
    assert!(
        c0.contains("xb[i] = xb[i] + x[i] * rb + x[i] * rb;"),
        "{c0}"
    );
}

/// Item 7 (C): a pointer into an array passed to a callee whose code reaches exactly
/// `q[0..k)` is recorded as that slice, not the whole array: the layers of
/// `c_lstm_objective.c` push `2 * b` elements of `s` each, not `l * 2 * b`. Numbers: the
/// corpus suites (c_lstm_objective.c, c_ii_loop_neighbours.c).
#[test]
fn a_callee_reaching_a_slice_of_an_array_records_the_slice() {
    let c = adjoint_text("tests/tangent/c_lstm_objective.c", &[], "lstm");
    assert!(c.contains("pushReal8Array(s + 2 * i * b, 2 * b);"), "{c}");
    assert!(c.contains("popReal8Array(s + 2 * i * b, 2 * b);"), "{c}");
    assert!(!c.contains("pushReal8Array(s, "), "{c}");
}

/// Item 7 with two sections of one array (ADBench's LSTM cell takes `&s[j*2*b]` and
/// `&s[j*2*b + b]`): the snapshot records both sections, not the whole of `s`, and the cell's
/// last loop (writing the hidden state, which no adjoint statement reads) is not run in
/// `lstm_model_b`. Numbers: the corpus suites (c_lstm_two_states.c).
#[test]
fn two_sections_of_one_array_are_recorded_as_sections() {
    let c = adjoint_text("tests/tangent/c_lstm_two_states.c", &[], "lstm2");
    assert!(c.contains("pushReal8Array(&s[j * 2 * b], b);"), "{c}");
    assert!(c.contains("pushReal8Array(&s[j * 2 * b + b], b);"), "{c}");
    assert!(!c.contains("pushReal8Array(s, "), "{c}");
    let model = &c[c.find("void lstm_model_b(").unwrap()..];
    let model = &model[..model.find("\n}\n").unwrap()];
    assert!(!model.contains("hidden[i] = "), "{model}");
}

/// A Fortran local initialised in its declaration (implicitly SAVE: its value comes from the
/// previous call, not from a statement) holds a value before the first statement that
/// writes it: a checkpointed call or an assignment there records it (it was taken for a
/// local with no value yet, and the adjoint read the value left by the forward sweep).
#[test]
fn a_local_initialised_in_its_declaration_is_recorded() {
    let dir = std::env::temp_dir().join(format!("radtap-initsave-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("initsave.f90");
    std::fs::write(
        &src,
        "subroutine scl(x, t)\n  real(8), intent(in) :: x(2)\n  real(8), intent(inout) :: t(2)\n  t = t * x\nend subroutine scl\n\n\
         subroutine head(x, y)\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y\n  real(8) :: t(2) = (/ 1d0, 2d0 /)\n  real(8) :: u = 3d0\n  call scl(x, t)\n  u = u * x(1)\n  y = t(1) * t(2) * u\nend subroutine head\n",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "head", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = run_cli(&src, &opts, &["-b", "-o", "gen"], &dir);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let text = std::fs::read_to_string(dir.join("gen_b.f90")).unwrap();
    let body = &text[text.find("subroutine head_b(").unwrap()..];
    assert!(body.contains("call pushreal8array(t, size(t))"), "{body}");
    assert!(body.contains("call pushreal8(u)"), "{body}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Candidate 1 of the speed3 round: a checkpointed call re-run backwards restores only the
/// snapshot values it reads on entry. `centre` overwrites `t` without reading it, `scale`
/// overwrites `v` (and `e(k)`) but reads `u`, `acc` reads `s`: only `u` and `s` are read
/// again (`look`) before the adjoint calls; the unread part is recorded below the read part
/// and still popped after the call. `-nooptim snapshot` restores the whole snapshot again.
/// Numbers: both programs go through the corpus suites.
#[test]
fn a_rerun_restores_only_what_the_callee_reads_on_entry() {
    let c = adjoint_text("tests/tangent/c_rerun_entry_reads.c", &[], "rerun");
    let body = &c[c.find("void chain_b(").unwrap()..];
    assert!(
        !body.contains("Repeat") && !body.contains("lookReal8Array(t"),
        "{body}"
    );
    assert!(
        body.contains(
            "lookReal8Array(u, n);\n        scale_b(n, t, tb, u, ub, v, vb);\n        popReal8Array(u, n);\n        popReal8Array(v, n);\n        centre_b("
        ),
        "{body}"
    );
    assert!(body.contains("lookReal8(&s);\n        acc_b("), "{body}");
    // `centre` is also run again instead of recording `t` (`recompute.rs`): off here.
    let c0 = adjoint_text(
        "tests/tangent/c_rerun_entry_reads.c",
        &["-nooptim", "snapshot", "-nooptim", "recomputeintermediates"],
        "rerun0",
    );
    let body0 = &c0[c0.find("void chain_b(").unwrap()..];
    assert!(
        body0.contains("lookReal8Array(t, n);\n        centre_b("),
        "{body0}"
    );
    assert_eq!(body0.matches("adStack_startRepeat()").count(), 1, "{body0}");
    let f = adjoint_text("tests/tangent/f_rerun_entry_reads.f90", &[], "frerun");
    let f = &f[f.find("subroutine fchain_b(").unwrap()..];
    assert_eq!(f.matches("call look").count(), 2, "{f}");
    assert!(f.contains("call lookreal8array(u, size(u))\n"), "{f}");
    assert!(f.contains("call lookreal8(s)\n"), "{f}");
    let f0 = adjoint_text(
        "tests/tangent/f_rerun_entry_reads.f90",
        &["-nooptim", "snapshot"],
        "frerun0",
    );
    assert!(f0.contains("call lookreal8array(t, size(t))"), "{f0}");
}

/// Main lead of the speed6 round: an array a callee overwrites entirely before reading it
/// (`fill_then_scan` sets `out[0 .. n)` in a first loop, then reads and updates `out[j]`,
/// `j` in `[1, n)`) is not restored before the call's re-run, and not recorded at all where
/// nothing else needs its old values (`t`, used linearly after the call); `w`, read by a
/// product after the call, is still recorded (pushed, popped after the adjoint call) but not
/// looked at before it. The callees that keep some of the caller's values still record and
/// restore them: `fill_part` (writes `out[0 .. n-1)`, reads `out[n-1]`), `read_first` (reads
/// `out[0]` first), `fill_if` (writes under a condition). `-nooptim snapshot` records and
/// restores `t` and `w` again. Numbers: both corpus programs go through the corpus suites
/// (a wrong kill fails their dot-product test).
#[test]
fn an_array_the_callee_overwrites_before_reading_is_not_restored() {
    let c = adjoint_text("tests/tangent/c_callee_overwrites.c", &[], "kill");
    let body = &c[c.find("void overwrite_calls_b(").unwrap()..];
    assert!(!body.contains("Real8Array(t,"), "{body}");
    assert!(!body.contains("lookReal8Array(w,"), "{body}");
    assert_eq!(body.matches("pushReal8Array(w, n);").count(), 1, "{body}");
    assert!(
        body.contains("fill_then_scan_b(n, x, xb, w, wb);\n        popReal8Array(w, n);"),
        "{body}"
    );
    for (arr, n, callee) in [
        ("u", "n", "fill_part"),
        ("v", "8", "read_first"),
        ("z", "8", "fill_if"),
    ] {
        let restore = format!("lookReal8Array({arr}, {n});\n        {callee}_b(");
        assert!(body.contains(&restore), "{restore}\n{body}");
        assert!(
            body.contains(&format!("pushReal8Array({arr}, {n});")),
            "{body}"
        );
    }
    let c0 = adjoint_text(
        "tests/tangent/c_callee_overwrites.c",
        &["-nooptim", "snapshot"],
        "kill0",
    );
    let body0 = &c0[c0.find("void overwrite_calls_b(").unwrap()..];
    assert!(body0.contains("pushReal8Array(t, n);"), "{body0}");
    assert!(
        body0.contains("lookReal8Array(w, n);\n        fill_then_scan_b("),
        "{body0}"
    );
}

/// The speed7 round: a cheap call filling a work array (`center(n, &x[k*n], m, xc)`, GMM's
/// `subtract`) runs again in the backward sweep before the adjoint of the statement reading
/// the array, instead of the array being pushed and popped (`recompute.rs`). The arrays of
/// the same loop that break one condition each stay recorded: `xp` (another statement
/// writes it between the call and its reader), `xr` (read before the call, at the next
/// iteration), `xs` (the call reads `a`, which changes before `xs` is read), `xe` (the callee
/// calls `exp`), `xv` (the count of elements written changes with `k`). Each of those
/// conditions, removed, fails the corpus suites' dot-product test of this program. `xa`,
/// passed as `&xa[0]` (ADBench's GMM), is run again like `xc`.
/// `-nooptim recomputeintermediates` records `xc` again.
#[test]
fn a_cheap_call_filling_a_work_array_is_run_again_instead_of_recorded() {
    let c = adjoint_text("tests/tangent/c_recompute_work.c", &[], "recompute");
    let body = &c[c.find("void work_arrays_b(").unwrap()..];
    assert!(!body.contains("Real8Array(xc,"), "{body}");
    assert_eq!(
        body.matches("center_nodiff(n, &x[k * n], m, xc);").count(),
        2,
        "{body}"
    );
    assert!(
        body.contains(
            "center_nodiff(n, &x[k * n], m, xc);\n        weigh_res = weigh_nodiff(n, xc);"
        ),
        "{body}"
    );
    // `&xa[0]`, the whole array too.
    assert!(!body.contains("Real8Array(xa,"), "{body}");
    assert_eq!(
        body.matches("center_nodiff(n, &x[k * n], &m[0], &xa[0]);")
            .count(),
        2,
        "{body}"
    );
    for arr in ["xp, n", "xr, n", "xs, n", "xe, n", "xv, "] {
        assert!(
            body.contains(&format!("pushReal8Array({arr}")),
            "{arr}\n{body}"
        );
        assert!(
            body.contains(&format!("popReal8Array({arr}")),
            "{arr}\n{body}"
        );
    }
    let c0 = adjoint_text(
        "tests/tangent/c_recompute_work.c",
        &["-nooptim", "recomputeintermediates"],
        "recompute0",
    );
    let body0 = &c0[c0.find("void work_arrays_b(").unwrap()..];
    assert!(body0.contains("pushReal8Array(xc, n);"), "{body0}");
    assert!(body0.contains("popReal8Array(xc, n);"), "{body0}");
    assert_eq!(
        body0.matches("center_nodiff(n, &x[k * n], m, xc);").count(),
        1,
        "{body0}"
    );
}

/// Split mode (the speed7 round): a work block a procedure allocates and frees keeps its
/// values until its backward sweep frees it, so its forward sweep pushes only the pointers
/// (`pushPointer8`), not the block's values (LSTM's `gates`: 4 b values per cell); and the
/// caller does not record what the split callee restores itself. Numbers: the corpus suites
/// compare this program's split and joint gradients with finite differences (every corpus
/// program runs split too: counting a zone as restored that is not fails ten of them).
#[test]
fn a_split_procedure_does_not_record_the_work_block_it_keeps() {
    let c = adjoint_text("tests/tangent/c_split_work_block.c", &[], "splitblock");
    let fwd = &c[c.find("void cell_fwd(").unwrap()..];
    let fwd = &fwd[..fwd.find("\n}\n").unwrap()];
    assert!(fwd.contains("pushPointer8((void *)g);"), "{fwd}");
    assert!(!fwd.contains("Array(g,"), "{fwd}");
    let bwd = &c[c.find("void cell_bwd(").unwrap()..];
    assert!(!bwd.contains("Array(g,"), "{bwd}");
    // `cell_fwd` pushes each `h[i]` it overwrites and `cell_bwd` pops it: the caller does
    // not record `h` around the call as well (`restored_by_callee`; it did before).
    let cells = &c[c.find("void cells_b(").unwrap()..];
    assert!(!cells.contains("Array(h,"), "{cells}");
    assert!(cells.contains("cell_fwd(n, w, h, x);"), "{cells}");
}

/// The speed10 round (`locals.rs`): what a joint adjoint records outside every loop is kept
/// in local variables, not on the stack (bundle adjustment's `project_b` and
/// `radial_distort_b` push nothing now). A snapshot's repeat mark goes when every value it
/// re-read is a local, and stays around the pop of a block still on the stack; what a loop
/// records, and blocks of a size only known at run time, stay on the stack; `-nooptim
/// localrecords` pushes everything again. Numbers: the corpus suites run both programs
/// (tangent against finite differences, the adjoint's dot-product test, split mode), and
/// `validate` bisects through `localrecords`.
#[test]
fn records_outside_loops_are_kept_in_locals() {
    let c = adjoint_text("tests/tangent/c_local_records.c", &[], "locals");
    let body = &c[c.find("void local_records_b(").unwrap()..];
    for kept in [
        "a_save = a;",
        "a = a_save;",
        "q_save = q[0];",
        "q[0] = q_save;",
        "m_save = m;",
        "m = m_save;",
        "t_save[2] = t[2];",
        "double q_save0[2] = {0};",
    ] {
        assert!(body.contains(kept), "{kept}\n{body}");
    }
    // The look before `distort_b` and the mark before `rotate_b` are gone; the mark before
    // `smear_b` re-reads the block `w` only.
    assert!(!body.contains("look"), "{body}");
    assert_eq!(body.matches("adStack_startRepeat();").count(), 1, "{body}");
    assert!(
        body.contains("adStack_startRepeat();\n    popReal8Array(w, n);\n    q[0] = q_save"),
        "{body}"
    );
    assert_eq!(body.matches("pushReal8(").count(), 1, "{body}");
    assert!(body.contains("        pushReal8(a);"), "{body}");
    let c0 = adjoint_text(
        "tests/tangent/c_local_records.c",
        &["-nooptim", "localrecords"],
        "locals0",
    );
    let body0 = &c0[c0.find("void local_records_b(").unwrap()..];
    assert!(!body0.contains("_save"), "{body0}");
    assert!(body0.contains("pushInteger4(m);"), "{body0}");
    assert_eq!(
        body0.matches("adStack_startRepeat();").count(),
        2,
        "{body0}"
    );
    let f = adjoint_text("tests/tangent/f_local_records.f90", &[], "flocals");
    let body = &f[f.find("subroutine local_records_b(").unwrap()..];
    for kept in [
        "a_save = a",
        "m = m_save",
        "q(1) = q_save",
        "integer :: m_save",
    ] {
        assert!(body.contains(kept), "{kept}\n{body}");
    }
    assert!(body.contains("call pushreal8array(w, size(w))"), "{body}");
    assert!(body.contains("    call pushreal8(a)"), "{body}");
}
