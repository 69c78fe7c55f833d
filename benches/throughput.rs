//! Throughput of the front half of radtap: parse + lower + unparse of a generated 50,000-line
//! Fortran file and a 50,000-line C file. Run with `cargo bench --bench throughput`.
//! Prints lines per second; the target is under one second per file in a release build.

use std::fmt::Write;
use std::time::Instant;

fn fortran_source(lines: usize) -> String {
    let mut s = String::from(
        "module gen_mod\n  implicit none\n  integer, parameter :: dp = kind(1.0d0)\ncontains\n",
    );
    let mut k = 0;
    while s.lines().count() < lines {
        let _ = write!(
            s,
            "  subroutine step{k}(n, x, y, a)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n), a
    real(dp), intent(inout) :: y(n)
    real(dp) :: t, s
    integer :: i
    s = 0.0_dp
    do i = 1, n
      t = a*x(i) + sin(y(i))**2
      if (t > 1.0_dp) then
        y(i) = y(i) + sqrt(t)*exp(-t)
      else if (t < -1.0_dp) then
        y(i) = y(i) - log(1.0_dp + t*t)
      else
        y(i) = 0.5_dp*(y(i) + t)
      end if
      s = s + y(i)*x(i)
    end do
    where (y > 10.0_dp) y = 10.0_dp
    y(1) = y(1) + s/real(n, dp)
  end subroutine step{k}
"
        );
        k += 1;
    }
    s.push_str("end module gen_mod\n");
    s
}

fn c_source(lines: usize) -> String {
    let mut s = String::from("#include <math.h>\n");
    let mut k = 0;
    while s.lines().count() < lines {
        let _ = write!(
            s,
            "double step{k}(int n, const double *x, double *y, double a)
{{
    double s = 0.0;
    for (int i = 0; i < n; i++) {{
        double t = a * x[i] + sin(y[i]) * sin(y[i]);
        if (t > 1.0) {{
            y[i] += sqrt(t) * exp(-t);
        }} else if (t < -1.0) {{
            y[i] -= log(1.0 + t * t);
        }} else {{
            y[i] = 0.5 * (y[i] + t);
        }}
        s += y[i] * x[i];
    }}
    return s / n;
}}

"
        );
        k += 1;
    }
    s
}

fn measure(name: &str, path: &str, text: String) {
    let lines = text.lines().count();
    let inputs = vec![radtap_frontends::Input {
        path: path.into(),
        text,
    }];
    // One warm-up, then the best of three.
    let mut best = f64::MAX;
    let mut out_len = 0;
    for _ in 0..4 {
        let t0 = Instant::now();
        let (prog, diags) = radtap_frontends::parse_program(&inputs);
        assert!(diags.iter().all(|d| !d.is_error()), "{:?}", diags.first());
        let t1 = Instant::now();
        let out = radtap_unparse::write_file(&prog, 0);
        let t2 = Instant::now();
        out_len = out.len();
        let total = (t2 - t0).as_secs_f64();
        if total < best {
            best = total;
            println!(
                "{name}: {lines} lines  parse+lower {:.3} s  unparse {:.3} s  total {:.3} s  ({:.0} lines/s)",
                (t1 - t0).as_secs_f64(),
                (t2 - t1).as_secs_f64(),
                total,
                lines as f64 / total
            );
        }
    }
    println!("{name}: best total {best:.3} s for {lines} lines ({out_len} bytes written)");
}

fn main() {
    measure("fortran", "gen.f90", fortran_source(50_000));
    measure("c", "gen.c", c_source(50_000));
}
