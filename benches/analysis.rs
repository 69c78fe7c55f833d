//! Analysis time on generated Fortran programs of 10k, 25k and 50k lines (400, 1000 and 2000
//! procedures of 26 lines, each calling the two procedures after it, with module variables):
//! call graph, zones, summaries, activity from the first procedure, diff-liveness, TBR and
//! adjoint-out. Run with `cargo bench --bench analysis`. Target: under 1 s at 50k lines and
//! near-linear growth (the ratio column should stay near 1).

use std::fmt::Write;
use std::time::Instant;

fn source(procs: usize) -> String {
    let mut s = String::from(
        "module state\n  implicit none\n  real(8) :: g1, g2\n  integer :: ncalls\nend module state\n",
    );
    for k in 0..procs {
        let calls = match (k + 1 < procs, k + 2 < procs) {
            (true, true) => format!(
                "    call p{a}(n, x, y, a)\n    call p{b}(n, y, x, t)\n",
                a = k + 1,
                b = k + 2
            ),
            (true, false) => format!(
                "    call p{a}(n, x, y, a)\n    y(1) = y(1) + t\n",
                a = k + 1
            ),
            _ => "    y(1) = y(1) + t\n    y(2) = y(2) + a\n".to_string(),
        };
        let _ = write!(
            s,
            "subroutine p{k}(n, x, y, a)
  use state
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y(n)
  real(8), intent(in) :: a
  real(8) :: t, u
  integer :: i
  ncalls = ncalls + 1
  t = 0.0d0
  u = 0.0d0
  do i = 1, n
    u = a*x(i) + sin(y(i))
    if (u > 1.0d0) then
      y(i) = y(i) + sqrt(u)*g1
    else
      y(i) = y(i) - u*u
    end if
    t = t + y(i)*x(i)
  end do
  g2 = g2 + t
{calls}  x(1) = x(1)*g2
end subroutine p{k}
"
        );
    }
    s
}

fn main() {
    println!(
        "{:>8} {:>7} {:>10} {:>12} {:>8}",
        "lines", "procs", "seconds", "us/line", "ratio"
    );
    let mut base = None;
    for procs in [400usize, 1000, 2000] {
        let text = source(procs);
        let lines = text.lines().count();
        let (prog, diags) = radtap_frontends::parse_program(&[radtap_frontends::Input {
            path: "gen.f90".into(),
            text,
        }]);
        assert!(diags.is_empty(), "{:?}", &diags[..diags.len().min(3)]);
        let head = prog
            .units
            .iter()
            .find(|(_, u)| u.name.is_some_and(|n| prog.name(n) == "p0"))
            .map(|(id, _)| id)
            .expect("p0");
        let req = radtap_dataflow::Request {
            head,
            vars: vec!["x".into(), "a".into()],
            outvars: vec!["y".into()],
            fixinterface: false,
        };
        let mut best = f64::MAX;
        let mut visits = 0;
        for _ in 0..3 {
            let t = Instant::now();
            let (info, _) = radtap_dataflow::analyze(
                &prog,
                std::slice::from_ref(&req),
                radtap_dataflow::Mode::Adjoint,
            );
            best = best.min(t.elapsed().as_secs_f64());
            visits = info.visits;
            assert_eq!(
                info.procs.values().filter(|p| p.activity.is_some()).count(),
                procs
            );
        }
        let per_line = best * 1e6 / lines as f64;
        let ratio = per_line / *base.get_or_insert(per_line);
        println!("{lines:>8} {procs:>7} {best:>10.3} {per_line:>12.2} {ratio:>8.2}   ({visits} block visits)");
    }
}
