//! Compiles the embedded C runtime with gcc and runs its C unit tests (`c/test_runtime.c`),
//! once with the default 16 MiB blocks and once with 4 KiB blocks so that block boundaries
//! are crossed constantly; then checks the Fortran aliases from a gfortran program.
//!
//! These tests need `gcc` and `gfortran` on the PATH; a missing compiler is a failure, not a
//! skip (CI installs both).

mod common;

use common::{fresh_dir, run, run_fortran_with_runtime};
use std::process::Command;

/// The C unit-test program (not part of `FILES`: users do not compile it).
const TEST_PROGRAM: &str = include_str!("../c/test_runtime.c");

/// A Fortran program exercising the gfortran aliases: mixed pushes, then pops in reverse.
const FORTRAN_PROGRAM: &str = r#"
program roundtrip
  implicit none
  real(8) :: x, y, a(5), b(5)
  real(4) :: r, s
  integer :: i, j, c, nerr, action, step, nturn
  integer(8) :: big, big2, bytes
  logical :: l, l2
  integer(8), external :: adstack_currentbytes, adstack_peakbytes, adstack_totaltraffic
  integer, external :: adbinomial_next

  nerr = 0
  x = -1.0d-300
  a = (/ (dble(i) * 1.5d0 - 4.0d0, i = 1, 5) /)
  big = -9000000000_8
  r = 3.25
  l = .true.

  call pushreal8(x)
  call pushcontrol1b(1)
  call pushinteger4(-123456789)
  call pushreal8array(a, 5)
  call pushcontrol3b(7)
  call pushinteger8(big)
  call pushreal4(r)
  call pushboolean(l)
  call pushcontrol8b(255)
  ! 8 + 4 + 5*8 + 8 + 4 + 4 value bytes, 12 control bits = one 8-byte word
  bytes = adstack_currentbytes()
  if (bytes /= 76_8) call fail('currentbytes after pushes', nerr)

  call popcontrol8b(c)
  if (c /= 255) call fail('popcontrol8b', nerr)
  call popboolean(l2)
  if (.not. l2) call fail('popboolean', nerr)
  call popreal4(s)
  if (s /= r) call fail('popreal4', nerr)
  call popinteger8(big2)
  if (big2 /= big) call fail('popinteger8', nerr)
  call popcontrol3b(c)
  if (c /= 7) call fail('popcontrol3b', nerr)
  b = 0
  call lookreal8array(b, 5)
  if (any(b /= a)) call fail('lookreal8array', nerr)
  b = 0
  call popreal8array(b, 5)
  if (any(b /= a)) call fail('popreal8array', nerr)
  call popinteger4(j)
  if (j /= -123456789) call fail('popinteger4', nerr)
  call popcontrol1b(c)
  if (c /= 1) call fail('popcontrol1b', nerr)
  call lookreal8(y)
  if (y /= x) call fail('lookreal8', nerr)
  call popreal8(y)
  if (y /= x) call fail('popreal8', nerr)
  bytes = adstack_currentbytes()
  if (bytes /= 0_8) call fail('currentbytes after pops', nerr)

  ! a snapshot read twice
  call pushreal8(x)
  call adstack_startrepeat()
  call popreal8(y)
  call adstack_resetrepeat()
  call adstack_endrepeat()
  y = 0
  call popreal8(y)
  if (y /= x) call fail('repeat', nerr)

  ! every step of a binomial schedule is turned once
  nturn = 0
  call adbinomial_init(10, 3, 1)
  do while (adbinomial_next(action, step) /= 0)
    if (action == 5 .or. action == 6) nturn = nturn + 1
  end do
  if (nturn /= 10) call fail('binomial turns', nerr)

  if (adstack_peakbytes() /= 76_8) call fail('peakbytes', nerr)
  if (adstack_totaltraffic() /= 84_8) call fail('totaltraffic', nerr)
  call adstack_showpeaksize()
  call adstack_showtotaltraffic()
  if (nerr /= 0) stop 1
  print '(a)', 'fortran round trip ok'
contains
  subroutine fail(what, nerr)
    character(*), intent(in) :: what
    integer, intent(inout) :: nerr
    print '(2a)', 'FAILED: ', what
    nerr = nerr + 1
  end subroutine fail
end program roundtrip
"#;

/// Writes the runtime and the C test program into a fresh dir, compiles with `flags`, runs.
fn compile_and_run_c_tests(tag: &str, flags: &[&str]) {
    let dir = fresh_dir(tag);
    let written = radtap_runtime_stack::write_to(&dir).expect("write runtime");
    assert_eq!(written.len(), radtap_runtime_stack::FILES.len());
    std::fs::write(dir.join("test_runtime.c"), TEST_PROGRAM).expect("write test program");

    let mut args: Vec<&str> = flags.to_vec();
    args.extend(["-o", "t", "test_runtime.c", "adStack.c", "adBinomial.c"]);
    run(&dir, "gcc", &args);
    let exe = dir.join("t");
    let stdout = run(&dir, exe.to_str().expect("utf-8 temp path"), &[]);
    assert!(
        stdout.contains(" 0 failed"),
        "unexpected test output:\n{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn c_unit_tests_pass_with_default_blocks() {
    compile_and_run_c_tests("default", &["-O2", "-Wall", "-Werror"]);
}

#[test]
fn c_unit_tests_pass_with_small_blocks() {
    compile_and_run_c_tests(
        "small",
        &[
            "-std=c99",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-DADSTACK_BLOCK_BYTES=4096",
        ],
    );
}

#[test]
fn fortran_aliases_round_trip() {
    match Command::new("gfortran").arg("--version").output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!(
            "`gfortran --version` failed ({}); this test needs gfortran",
            out.status
        ),
        Err(e) => panic!(
            "gfortran not found on PATH ({e}): this test needs it to check the Fortran aliases \
             of the runtime (CI installs it; locally: apt-get install gfortran)"
        ),
    }
    let stdout = run_fortran_with_runtime("fortran", "roundtrip.f90", FORTRAN_PROGRAM);
    assert!(
        stdout.contains("fortran round trip ok"),
        "unexpected output:\n{stdout}"
    );
}

/// Compiled with OpenMP (issue 45), each thread has its own stack: 4 threads push and pop
/// interleaved values (values, control bits, repeat marks) at once, each gets its own back,
/// and the main thread's stack, holding values across the parallel region, is untouched.
const OPENMP_PROGRAM: &str = r#"
#include <stdio.h>
#include <omp.h>
#include "adStack.h"
int main(void)
{
    int errors = 0;
    pushReal8(42.5);
    pushControl1b(1);
#pragma omp parallel num_threads(4) reduction(+: errors)
    {
        int t = omp_get_thread_num(), k, c;
        double v;
        /* All threads at work at once. */
#pragma omp barrier
        for (int round = 0; round < 2000; round++) {
            for (k = 0; k < 1000; k++) {
                pushReal8(t * 1e6 + round * 1e3 + k);
                pushControl2b((t + k) & 3);
            }
            for (k = 999; k >= 0; k--) {
                popControl2b(&c);
                popReal8(&v);
                errors += c != ((t + k) & 3) || v != t * 1e6 + round * 1e3 + k;
            }
        }
    }
    int c;
    double v;
    popControl1b(&c);
    popReal8(&v);
    errors += c != 1 || v != 42.5;
    printf("errors %d\n", errors);
    return errors != 0;
}
"#;

#[test]
fn openmp_threads_have_their_own_stacks() {
    let dir = fresh_dir("openmp");
    radtap_runtime_stack::write_to(&dir).expect("write runtime");
    std::fs::write(dir.join("omp.c"), OPENMP_PROGRAM).expect("write program");
    run(
        &dir,
        "gcc",
        &[
            "-O2",
            "-Wall",
            "-Werror",
            "-fopenmp",
            "-o",
            "omp",
            "omp.c",
            "adStack.c",
            "adBinomial.c",
        ],
    );
    let out = run(&dir, dir.join("omp").to_str().expect("utf-8"), &[]);
    assert!(out.contains("errors 0"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
