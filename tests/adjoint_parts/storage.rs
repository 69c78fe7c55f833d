//! What the adjoint stores and allocates: a checkpointed call's snapshot of the element or
//! section it can write (not the whole array), a local allocatable of a split procedure
//! allocated by the backward sweep, and the derivatives of single-precision complex keeping
//! their kind.

use super::*;

/// `do i = 1, n; call inner(x(i), c)` with a scalar dummy: each checkpointed call records
/// `x(i)` only, so the peak stack is O(n) (here at most 16 bytes per iteration and a little
/// more), not n whole copies of `x` (n = 40: 12,800 bytes).
#[test]
fn element_call_snapshots_record_the_element() {
    peak_at_most("f_element_call.f90", 16.0 * 40.0 + 256.0);
}

/// C: `sec_step(2, c, &s[k * 2])` in a loop of 20 calls, the callee writing `v[0 .. b)`:
/// each checkpointed call records the 2 elements of `s` it can write through the actual
/// argument's section (`pushReal8Array(&s[k * 2], 2)`), not the whole `s` (40 elements):
/// at most 16 bytes per call and a little more (the whole `s` each time: 6,400 bytes).
#[test]
fn section_call_snapshots_record_the_section() {
    peak_at_most("c_section_call.c", 16.0 * 20.0 + 256.0);
}

/// The adjoint of corpus program `name` runs with a peak stack of at most `max` bytes.
fn peak_at_most(name: &str, max: f64) {
    let path = Path::new("tests/tangent").join(name);
    let dir = std::env::temp_dir().join(format!("radtap-elem-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&path, dir.join(name)).unwrap();
    let (_, _, _, peak) =
        adjoint_run(&dir.join(name), &dir, &[], "").unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(peak <= max, "{name}: peak stack {peak} bytes");
}

/// Single-precision `complex` (default kind) has no corpus program (finite differences of
/// single-precision intermediates cannot meet the corpus tolerances); its derivatives keep the
/// kind of the variable they belong to in every mode, and `cmplx` without a kind keeps the
/// primal's default kind, also where a complex(8) value is mixed in.
#[test]
fn single_precision_complex_derivatives_keep_their_kind() {
    let dir = std::env::temp_dir().join(format!("radtap-cplx4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("s4.f90").to_string_lossy().into_owned();
    std::fs::write(
        &s,
        "subroutine f(x, y)\n  implicit none\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y(3)\n  complex :: z, w\n  complex(8) :: u\n  z = cmplx(x(1), x(2))\n  w = exp(z)*z + conjg(z)/(z + 1.0)\n  u = cmplx(x(2), x(1), 8)*w\n  y(1) = real(w)\n  y(2) = aimag(u) + abs(w)\n  y(3) = dble(u*u)\nend subroutine f\n",
    )
    .unwrap();
    let modes: [(&[&str], &str, &[&str]); 3] = [
        (
            &["-d"],
            "s4_d.f90",
            &[
                "complex :: zd, wd\n",
                "complex(8) :: ud\n",
                "zd = cmplx(xd(1), xd(2), kind=kind(cmplx(x(1), x(2))))",
                "ud = cmplx(xd(2), xd(1), 8)*w + cmplx(x(2), x(1), 8)*wd",
            ],
        ),
        (
            &["-d", "-vector", "-nbdirsmax", "4"],
            "s4_dv.f90",
            &[
                "complex :: zd(nbdirsmax), wd(nbdirsmax)\n",
                "complex(8) :: ud(nbdirsmax)\n",
                "zd(nd) = cmplx(xd(nd, 1), xd(nd, 2), kind=kind(cmplx(x(1), x(2))))",
            ],
        ),
        (
            &["-b"],
            "s4_b.f90",
            &["complex :: zb, wb\n", "complex(8) :: ub\n"],
        ),
    ];
    for (mode, out, wanted) in modes {
        let mut args: Vec<&str> = mode.to_vec();
        args.extend(["-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s]);
        let (code, _, err) = radtap(&args);
        assert_eq!(code, 0, "{mode:?}: {err}");
        let text = std::fs::read_to_string(dir.join(out)).unwrap();
        for w in wanted {
            assert!(text.contains(w), "{mode:?}: no `{w}` in\n{text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// In split mode (`-nocheckpoint`) the forward and backward sweeps of a procedure are two
/// procedures: a local ALLOCATABLE array allocated by `g_fwd` is not allocated in `g_bwd`,
/// which read it (a crash, or garbage). This was refused at the ALLOCATE; now `g_fwd` hands
/// the bounds over and `g_bwd` allocates the array and its adjoint before popping the values
/// into it (the numbers: `tests/tangent/f_split_local_allocatable.f90`, this program, and
/// `f_local_allocatable_return.f90`, split = joint). A SAVE local is still refused.
#[test]
fn local_allocatable_in_a_split_procedure_is_allocated_by_the_backward_sweep() {
    let dir = std::env::temp_dir().join(format!("radtap-splitalloc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("sa.f90");
    std::fs::write(
        &src,
        "module sa
  implicit none
contains
  subroutine g(x, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8), allocatable :: buf(:)
    allocate(buf(n))
    buf = x*x
    x = sin(buf)
    deallocate(buf)
  end subroutine g
  subroutine h(x, y, n)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8) :: w(n)
    w = x
    call g(w, n)
    y = sum(w)
  end subroutine h
end module sa
",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "h", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = run_cli(
        &src,
        &opts,
        &["-b", "-nocheckpoint", "-o", "sa"],
        &dir.join("split"),
    );
    assert_eq!(o.status, 0, "{}", o.stderr);
    let code = std::fs::read_to_string(dir.join("split/sa_b.f90")).unwrap();
    let bwd = &code[code.find("subroutine g_bwd").expect("g_bwd")..];
    let (alloc, pop) = (
        bwd.find("allocate(buf(").expect("buf allocated"),
        bwd.find("call popreal8array(buf").expect("buf popped"),
    );
    assert!(alloc < pop, "{bwd}");
    assert!(bwd.contains("allocate(bufb("), "{bwd}");
    let o = run_cli(&src, &opts, &["-b"], &dir.join("joint"));
    assert_eq!(o.status, 0, "{}", o.stderr);
    // A SAVE local would stay allocated in the forward sweep: still refused.
    let text = std::fs::read_to_string(&src).unwrap();
    std::fs::write(
        &src,
        text.replace("allocatable :: buf(:)", "allocatable, save :: buf(:)"),
    )
    .unwrap();
    let o = run_cli(&src, &opts, &["-b", "-nocheckpoint"], &dir.join("save"));
    assert!(
        o.status == 1
            && o.stderr.contains("sa.f90:8:5: error[AD020]")
            && o.stderr
                .contains("ALLOCATE of a SAVE or pointer local array"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
