//! Tapenade 3.16's interface rule (issue 49): which arguments of a head get a derivative
//! argument, in tangent and adjoint mode, compared argument for argument with Tapenade's own
//! output on a table of small cases (DESIGN.md and docs/calling-conventions.md state the rule):
//! INTENT(OUT), INTENT(INOUT), INTENT(IN) or no intent; scalars, explicit-shape and
//! assumed-shape arrays; active, passive, only read, only written; independent, dependent,
//! neither, or left to the defaults (`-head f`, and `-head "f(y)"`, which Tapenade reads as
//! the dependents alone); C pointers and scalars passed by value.
//!
//! Tapenade's argument lists are recorded in `tests/tapenade_interfaces/expected.txt`, so the
//! comparison runs everywhere; where Java and Tapenade 3.16 are installed
//! (`../shared/peers/tapenade-3.16/bin/tapenade` beside the repository, or `$RADTAP_TAPENADE`)
//! the test runs Tapenade on the same table once (all heads in one run, both modes) and checks
//! the recording against it.
//!
//! Numerically: two corpus programs (`tests/tangent/f_tapenade_scratch_array.f90`,
//! `c_tapenade_byvalue_scalar.c`, also run by the tangent and adjoint suites with generated
//! drivers) are called here by drivers written for Tapenade's argument lists, their scratch
//! derivative arguments filled with junk: the tangent against central differences, the adjoint
//! against the tangent by the dot-product test.

mod common;

use common::{build_and_run, header, run_cli};
use radtap_il::Lang;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How the head's `x` is declared.
const SHAPES: &[(&str, &str)] = &[("s", ""), ("e", "(n)"), ("a", "(:)")];
const INTENTS: &[&str] = &["out", "inout", "in", ""];
/// What the body does with `x`: (write, read into `obj`), `{x}` an element or the scalar.
const BODIES: &[(&str, &str, &str)] = &[
    // Written from p, then read into obj: active inside.
    ("act", "{x} = p({i})**2", "obj = obj + sin({x})"),
    // Its old value read too.
    ("acr", "{x} = {x} + p({i})**2", "obj = obj + sin({x})"),
    // Written with a passive value, read into obj.
    ("pas", "{x} = n*1.5d0", "obj = obj + sin(p({i}))*{x}"),
    // Only read.
    ("rd", "", "obj = obj + sin(p({i}))*{x}"),
    // Written from p, never read.
    ("out", "{x} = p({i})**2", "obj = obj + sin(p({i}))"),
];
/// Head forms: (tag, variables after the name; "" for the defaults).
const HEADS: &[(&str, &str)] = &[
    ("p", "(obj)/(p)"),
    ("px", "(obj)/(p x)"),
    ("xp", "(obj x)/(p)"),
    // A lone group: the dependents, the independents left to the defaults.
    ("y", "(obj x)"),
    ("dflt", ""),
];

/// The Fortran table: one subroutine per case, and the `-head` string naming them all.
fn fortran_table() -> (String, String) {
    let mut src = String::new();
    let mut heads = Vec::new();
    for &(sh, dims) in SHAPES {
        for &intent in INTENTS {
            for &(body, w, r) in BODIES {
                // INTENT(IN) arguments are only read; INTENT(OUT) ones have no old value.
                let allowed = match intent {
                    "in" => body == "rd",
                    "out" => body != "rd" && body != "acr",
                    _ => true,
                };
                if !allowed {
                    continue;
                }
                for &(ht, vars) in HEADS {
                    let name = format!(
                        "f_{sh}_{}_{body}_{ht}",
                        if intent.is_empty() { "no" } else { intent }
                    );
                    heads.push(format!("{name}{vars}"));
                    let attr = if intent.is_empty() {
                        String::new()
                    } else {
                        format!(", intent({intent})")
                    };
                    src.push_str(&format!(
                        "subroutine {name}(n, p, x, obj)\n  integer, intent(in) :: n\n  \
                         real(8), intent(in) :: p(n)\n  real(8){attr} :: x{dims}\n  \
                         real(8), intent(out) :: obj\n  integer :: i\n  obj = 0\n"
                    ));
                    if sh == "s" {
                        if !w.is_empty() {
                            src.push_str(&format!(
                                "  {}\n",
                                w.replace("{x}", "x").replace("{i}", "1")
                            ));
                        }
                        src.push_str(&format!(
                            "  do i = 1, n\n    {}\n  end do\n",
                            r.replace("{x}", "x").replace("{i}", "i")
                        ));
                    } else {
                        src.push_str("  do i = 1, n\n");
                        if !w.is_empty() {
                            src.push_str(&format!(
                                "    {}\n",
                                w.replace("{x}", "x(i)").replace("{i}", "i")
                            ));
                        }
                        src.push_str(&format!(
                            "    {}\n  end do\n",
                            r.replace("{x}", "x(i)").replace("{i}", "i")
                        ));
                    }
                    src.push_str(&format!("end subroutine {name}\n"));
                }
            }
        }
    }
    (src, heads.join(" "))
}

/// The C cases: a pointer work array, a by-value scalar written inside, a scalar through a
/// pointer, a function's result; with named and default variables.
const C_SOURCE: &str = "#include <math.h>
void c_work(int n, const double *p, double *x, double *obj) {
  *obj = 0;
  for (int i = 0; i < n; i++) {
    x[i] = p[i] * p[i];
    *obj += sin(x[i]);
  }
}
void c_byval(int n, const double *p, double t, double *obj) {
  t = p[0] * 2;
  *obj = sin(t) + p[1];
}
void c_byval_read(int n, const double *p, double t, double *obj) {
  *obj = sin(t) * p[1];
}
void c_ptr_scalar(int n, const double *p, double *s, double *obj) {
  *s = p[0] * 2;
  *obj = sin(*s) + p[1];
}
double c_result(int n, const double *p, double *x) {
  double obj = 0;
  for (int i = 0; i < n; i++) {
    x[i] = p[i] * p[i];
    obj += sin(x[i]);
  }
  return obj;
}
";
const C_HEADS: &str = "c_work(obj)/(p) c_byval(obj)/(p) c_byval_read(obj)/(p t) \
                       c_ptr_scalar(obj)/(p) c_result(c_result)/(p)";

/// Derivative procedures' argument lists in `text`: lower-case name → arguments.
fn signatures(text: &str, lang_c: bool) -> BTreeMap<String, String> {
    let flat = text.replace("&\n", " ").replace('\n', " ");
    let lower = flat.to_ascii_lowercase();
    let mut out = BTreeMap::new();
    let mut at = 0;
    while let Some(k) = lower[at..].find('(') {
        let open = at + k;
        at = open + 1;
        // The word before the parenthesis, and the word before that.
        let head = lower[..open].trim_end();
        let name_start = head
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &head[name_start..];
        let before = head[..name_start].trim_end();
        let is_def = if lang_c {
            before.ends_with("void") || before.ends_with("double")
        } else {
            before.ends_with("subroutine") || before.ends_with("function")
        };
        if !is_def || !(name.ends_with("_d") || name.ends_with("_b")) {
            continue;
        }
        let Some(close) = lower[open..].find(')') else {
            break;
        };
        let args: Vec<String> = lower[open + 1..open + close]
            .split(',')
            .map(|a| {
                // C: the parameter's name is its declarator's last word.
                let a = a.trim();
                a.rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or(a)
                    .to_string()
            })
            .collect();
        out.insert(name.to_string(), args.join(" "));
    }
    out
}

fn radtap_signatures(dir: &Path, file: &str, src: &str, heads: &str) -> BTreeMap<String, String> {
    std::fs::create_dir_all(dir).expect("temp dir");
    std::fs::write(dir.join(file), src).expect("source");
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(["-d", "-b", "-head", heads, file, "-O", "rad"])
        .current_dir(dir)
        .output()
        .expect("run radtap");
    assert!(
        out.status.success(),
        "radtap failed on the table:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (stem, ext) = file.split_once('.').expect("extension");
    let mut sigs = BTreeMap::new();
    for m in ["d", "b"] {
        let text = std::fs::read_to_string(dir.join("rad").join(format!("{stem}_{m}.{ext}")))
            .expect("radtap output");
        sigs.extend(signatures(&text, ext == "c"));
    }
    sigs
}

/// Tapenade 3.16 and Java, when both are here.
fn tapenade() -> Option<PathBuf> {
    let t = std::env::var_os("RADTAP_TAPENADE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peers/tapenade-3.16/bin/tapenade")
        });
    let java = Command::new("java")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    (t.is_file() && java).then_some(t)
}

fn tapenade_signatures(
    tap: &Path,
    dir: &Path,
    file: &str,
    heads: &str,
) -> BTreeMap<String, String> {
    std::fs::create_dir_all(dir.join("tap")).expect("temp dir");
    let out = Command::new(tap)
        .args(["-d", "-b", "-head", heads, file, "-O", "tap"])
        .current_dir(dir)
        .output()
        .expect("run tapenade");
    let (stem, ext) = file.split_once('.').expect("extension");
    let path = dir.join("tap").join(format!("{stem}_db.{ext}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "Tapenade wrote no {}:\n{}",
            path.display(),
            String::from_utf8_lossy(&out.stdout)
        )
    });
    signatures(&text, ext == "c")
}

fn expected_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tapenade_interfaces/expected.txt")
}

fn read_expected() -> BTreeMap<String, String> {
    let text =
        std::fs::read_to_string(expected_path()).expect("tests/tapenade_interfaces/expected.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn differences(
    want: &BTreeMap<String, String>,
    got: &BTreeMap<String, String>,
    who: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for (k, w) in want {
        match got.get(k) {
            Some(g) if g == w => {}
            Some(g) => out.push(format!("{k}: Tapenade ({w}), {who} ({g})")),
            None => out.push(format!("{k}: Tapenade ({w}), {who} wrote none")),
        }
    }
    for k in got.keys().filter(|k| !want.contains_key(*k)) {
        out.push(format!("{k}: {who} wrote it, Tapenade did not"));
    }
    out
}

#[test]
fn argument_lists_match_tapenade_3_16() {
    let root = std::env::temp_dir().join(format!("radtap-tap-iface-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (fsrc, fheads) = fortran_table();
    let mut got = radtap_signatures(&root.join("f"), "t.f90", &fsrc, &fheads);
    got.extend(radtap_signatures(&root.join("c"), "t.c", C_SOURCE, C_HEADS));
    let expected = read_expected();
    let mut bad = differences(&expected, &got, "radtap");
    if let Some(tap) = tapenade() {
        let mut live = tapenade_signatures(&tap, &root.join("f"), "t.f90", &fheads);
        live.extend(tapenade_signatures(&tap, &root.join("c"), "t.c", C_HEADS));
        if std::env::var_os("RADTAP_RECORD").is_some() {
            let mut text = String::from(
                "# Tapenade 3.16's derivative argument lists on tests/tapenade_interfaces.rs's table\n\
                 # (regenerate: RADTAP_RECORD=1 cargo test --test tapenade_interfaces)\n",
            );
            for (k, v) in &live {
                text.push_str(&format!("{k}: {v}\n"));
            }
            std::fs::write(expected_path(), text).expect("write the recording");
        } else {
            bad.extend(
                differences(&live, &expected, "the recording")
                    .into_iter()
                    .map(|d| format!("recording out of date: {d}")),
            );
        }
    } else {
        eprintln!(
            "tapenade_interfaces: Java or Tapenade 3.16 absent; compared with the recording only"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(
        expected.len() > 300,
        "the recording holds {} argument lists",
        expected.len()
    );
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Drivers written for Tapenade 3.16's argument lists (checked against Tapenade's own output
/// when it is installed: `fit_cost_b(n, m, p, pb, t, pred, predb, w, wb, peak, cost, costb)`,
/// `fit_cost_c_b(n, m, p, pb, t, pred, predb, scale, cost, costb)`). Each prints ẏ, ⟨ẋ, x̄⟩
/// with ȳ = ẏ, and the central difference along ẋ. Before issue 49 radtap dropped `predd`/
/// `predb` and `wd`/`wb` of the Fortran head and added `scaled`/`scaleb` to the C one, so these
/// drivers passed the wrong arguments.
#[test]
fn drivers_written_for_tapenades_interface_get_the_derivatives() {
    let root = std::env::temp_dir().join(format!("radtap-tap-drivers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tangent");
    let cases = [
        ("f_tapenade_scratch_array.f90", Lang::Fortran, F_DRIVER),
        ("c_tapenade_byvalue_scalar.c", Lang::C, C_DRIVER),
    ];
    for (file, lang, drv) in cases {
        let dir = root.join(file.replace('.', "_"));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let src = dir.join(file);
        std::fs::copy(corpus.join(file), &src).expect("corpus file");
        let (opts, _) = header(&src);
        let o = run_cli(&src, &opts, &["-d", "-b", "-o", "gen"], &dir);
        assert_eq!(o.status, 0, "{file}: {}", o.stderr);
        radtap_runtime_stack::write_to(&dir).expect("runtime");
        let ext = if lang == Lang::C { "c" } else { "f90" };
        std::fs::write(dir.join(format!("drv.{ext}")), drv).expect("driver");
        let srcs = [
            src.clone(),
            dir.join(format!("gen_d.{ext}")),
            dir.join(format!("gen_b.{ext}")),
            dir.join(format!("drv.{ext}")),
            dir.join("adStack.c"),
        ];
        let out = build_and_run(&dir, lang, &srcs, "drv").unwrap_or_else(|e| panic!("{file}: {e}"));
        let v: Vec<f64> = out
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            .collect();
        let [yd, dot, fd] = v[..] else {
            panic!("{file}: driver printed {out}")
        };
        assert!(yd.abs() > 1e-3, "{file}: ẏ = {yd}");
        assert!(
            (dot - yd * yd).abs() <= 1e-12 * (yd * yd).abs(),
            "{file}: dot product ⟨ẋ, x̄⟩ = {dot}, ⟨ẏ, ẏ⟩ = {}",
            yd * yd
        );
        assert!(
            (fd - yd).abs() <= 1e-6 * yd.abs(),
            "{file}: tangent {yd}, central difference {fd}"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The Fortran driver: scratch derivatives (`predd`, `wd`, `predb`, `wb`) and the adjoint of
/// the pure input `pb` hold junk on entry, which the derivatives must ignore.
const F_DRIVER: &str = "program drv
  implicit none
  integer, parameter :: n = 4, m = 6
  real(8) :: p(n), pd(n), pb(n), t(m), pred(m), predd(m), predb(m), w(m), wd(m), wb(m)
  real(8) :: peak, cost, costd, costb, cp, cm, h
  integer :: i
  do i = 1, n
    p(i) = 0.3d0 + 0.1d0*i
    pd(i) = 1.0d0 - 0.15d0*i
  end do
  do i = 1, m
    t(i) = 0.2d0*i
  end do
  predd = 7.0d0
  wd = 7.0d0
  call fit_cost_d(n, m, p, pd, t, pred, predd, w, wd, peak, cost, costd)
  pb = 7.0d0
  predb = 7.0d0
  wb = 7.0d0
  costb = costd
  call fit_cost_b(n, m, p, pb, t, pred, predb, w, wb, peak, cost, costb)
  h = 1.0d-6
  call fit_cost(n, m, p + h*pd, t, pred, w, peak, cp)
  call fit_cost(n, m, p - h*pd, t, pred, w, peak, cm)
  print '(3es25.16)', costd, sum(pd*pb), (cp - cm)/(2*h)
end program drv
";

/// The C driver, with Tapenade's prototypes.
const C_DRIVER: &str = "#include <stdio.h>
void fit_cost_c(int n, int m, const double *p, const double *t, double *pred, double scale,
                double *cost);
void fit_cost_c_d(int n, int m, const double *p, const double *pd, const double *t,
                  double *pred, double *predd, double scale, double *cost, double *costd);
void fit_cost_c_b(int n, int m, const double *p, double *pb, const double *t, double *pred,
                  double *predb, double scale, double *cost, double *costb);
int main(void) {
    enum { n = 4, m = 6 };
    double p[n], pd[n], pb[n], pp[n], pm[n], t[m], pred[m], predd[m], predb[m];
    double cost, costd, costb, cp, cm, h = 1e-6, dot = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        p[i] = 0.4 + 0.1 * i;
        pd[i] = 0.85 - 0.15 * i;
        pb[i] = 0.0; /* radtap increments a C pointer's adjoint whose extent it cannot tell */
        pp[i] = p[i] + h * pd[i];
        pm[i] = p[i] - h * pd[i];
    }
    for (i = 0; i < m; i++) {
        t[i] = 0.2 * (i + 1);
        predd[i] = 7.0;
        predb[i] = 7.0;
    }
    fit_cost_c_d(n, m, p, pd, t, pred, predd, 2.0, &cost, &costd);
    costb = costd;
    fit_cost_c_b(n, m, p, pb, t, pred, predb, 2.0, &cost, &costb);
    for (i = 0; i < n; i++)
        dot += pd[i] * pb[i];
    fit_cost_c(n, m, pp, t, pred, 2.0, &cp);
    fit_cost_c(n, m, pm, t, pred, 2.0, &cm);
    printf(\"%.16e %.16e %.16e\\n\", costd, dot, (cp - cm) / (2 * h));
    return 0;
}
";
