//! What every fuzz target checks, shared with the stable regression test
//! (`tests/fuzz_corpus.rs` includes this file): radtap never panics, never reports an
//! internal error (AD900) on a program it accepted, and what it writes re-parses without an
//! error. Each input runs on a thread with the CLI's stack (`radtap::STACK_BYTES`), as the
//! command line does.
#![allow(dead_code, unreachable_pub)]

use radtap::pipeline::{self, Modes, Request};
use radtap_il::{Code, Severity};

/// Which language the bytes are read as.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    Fortran,
    C,
}

/// Runs `f` on a thread with the CLI's stack; a panic there is re-raised here.
fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .stack_size(radtap::STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("spawn");
        match h.join() {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        }
    })
}

fn request(name: &str, text: &str, head: Option<&str>, modes: Modes) -> Request {
    Request {
        sources: vec![(name.to_string(), text.to_string())],
        head: head.map(str::to_string),
        modes,
        ..Request::default()
    }
}

fn primal() -> Modes {
    Modes {
        primal: true,
        ..Modes::default()
    }
}

/// Runs the request; checks there is no internal error; returns the files written when it
/// succeeded.
fn run(req: &Request) -> Option<Vec<(String, String)>> {
    let r = pipeline::run(req);
    let internal: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::Internal)
        .collect();
    assert!(
        internal.is_empty(),
        "internal error on {:?}:\n{}",
        req.sources[0].0,
        r.render_diagnostics(&req.sources)
    );
    r.failure.is_none().then_some(r.files)
}

/// Every written source file parses again with no error: alone, or, when it uses what the
/// original file defines (`use m` of the user's module, as Tapenade's output does), together
/// with the original.
fn reparse(files: &[(String, String)], origin: &str, original: &str) {
    let errors = |sources: Vec<(String, String)>| -> Option<String> {
        let req = Request {
            sources,
            modes: primal(),
            ..Request::default()
        };
        let r = pipeline::run(&req);
        let bad =
            r.failure.is_some() || r.diagnostics.iter().any(|d| d.severity == Severity::Error);
        bad.then(|| r.render_diagnostics(&req.sources))
    };
    for (name, text) in files {
        if !(name.ends_with(".f90") || name.ends_with(".f") || name.ends_with(".c")) {
            continue;
        }
        let Some(alone) = errors(vec![(name.clone(), text.clone())]) else {
            continue;
        };
        // The original under a name of its own (the output may be named like it).
        let orig_name = format!("orig_{origin_file}", origin_file = file_part(origin));
        let with = errors(vec![
            (orig_name, original.to_string()),
            (name.clone(), text.clone()),
        ]);
        assert!(
            with.is_none(),
            "the output {name} of {origin} does not re-parse:\n{alone}\n\
             with the original:\n{}\n--- {name}\n{text}",
            with.unwrap_or_default()
        );
    }
}

/// The file name in `origin` (`fuzz.f90 -head f` → `fuzz.f90`).
fn file_part(origin: &str) -> &str {
    origin.split_whitespace().next().unwrap_or(origin)
}

/// Bytes as source text: invalid UTF-8 is replaced (radtap itself refuses it, AD001).
fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// The frontend targets: -p, then re-parse.
pub fn frontend(t: Target, data: &[u8]) {
    let text = text_of(data);
    let names: &[&str] = match t {
        Target::Fortran => &["fuzz.f90", "fuzz.f"],
        Target::C => &["fuzz.c"],
    };
    on_big_stack(|| {
        for name in names {
            if let Some(files) = run(&request(name, &text, None, primal())) {
                reparse(&files, name, &text);
            }
        }
    });
}

/// The procedures of a program, in order (at most `max`).
fn procedures(name: &str, text: &str, max: usize) -> Vec<String> {
    let (prog, _) = pipeline::parse(&request(name, text, None, primal()));
    prog.units
        .iter()
        .filter(|(_, u)| {
            matches!(
                u.kind,
                radtap_il::UnitKind::Subroutine | radtap_il::UnitKind::Function
            )
        })
        .filter_map(|(_, u)| u.name.map(|s| prog.symbols[s].spelling.clone()))
        .take(max)
        .collect()
}

/// Tangent and adjoint with each procedure (up to three) as head; the output re-parses.
fn differentiate(name: &str, text: &str) {
    for head in procedures(name, text, 3) {
        for (tangent, adjoint) in [(true, false), (false, true)] {
            let modes = Modes {
                tangent,
                adjoint,
                ..Modes::default()
            };
            if let Some(files) = run(&request(name, text, Some(&head), modes)) {
                reparse(&files, &format!("{name} -head {head}"), text);
            }
        }
    }
}

/// The whole-pipeline target: the first byte picks the language.
pub fn pipeline(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let name = ["fuzz.f90", "fuzz.f", "fuzz.c"][first as usize % 3];
    let text = text_of(rest);
    on_big_stack(|| differentiate(name, &text));
}

/// A source of choices from the fuzzer's bytes (zeros once they run out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let Some((&b, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        b as usize % n.max(1)
    }
}

/// A valid real expression over `vars`, at most `depth` deep.
fn expr(b: &mut Bytes, vars: &[&str], depth: usize, c: bool) -> String {
    let leaf = |b: &mut Bytes| match b.pick(4) {
        0 => format!("{}.5", b.pick(9) + 1),
        _ => vars[b.pick(vars.len())].to_string(),
    };
    if depth == 0 {
        return leaf(b);
    }
    match b.pick(9) {
        0 | 1 => leaf(b),
        2 => format!(
            "{} + {}",
            expr(b, vars, depth - 1, c),
            expr(b, vars, depth - 1, c)
        ),
        3 => format!(
            "{} - {}",
            expr(b, vars, depth - 1, c),
            expr(b, vars, depth - 1, c)
        ),
        4 => format!(
            "{} * {}",
            expr(b, vars, depth - 1, c),
            expr(b, vars, depth - 1, c)
        ),
        5 => format!("({}) / (2.5 + {})", expr(b, vars, depth - 1, c), vars[0]),
        6 => {
            let f = ["sin", "cos", "exp", "tanh", "atan"][b.pick(5)];
            format!("{f}({})", expr(b, vars, depth - 1, c))
        }
        7 => format!("({})", expr(b, vars, depth - 1, c)),
        _ if c => format!("sqrt(1.5 + {} * {})", vars[0], vars[0]),
        _ => format!("({})**2", expr(b, vars, depth - 1, c)),
    }
}

/// Statements of a generated body over `vars` (the first is the input, the last the output).
fn stmts(b: &mut Bytes, vars: &[&str], depth: usize, c: bool, out: &mut String, ind: usize) {
    let pad = " ".repeat(ind);
    for _ in 0..=b.pick(4) {
        let lhs = vars[1 + b.pick(vars.len() - 1)];
        match b.pick(if depth == 0 { 2 } else { 5 }) {
            0 | 1 => {
                let e = expr(b, vars, 3, c);
                out.push_str(&if c {
                    format!("{pad}{lhs} = {e};\n")
                } else {
                    format!("{pad}{lhs} = {e}\n")
                });
            }
            2 => {
                let t = vars[b.pick(vars.len())];
                if c {
                    out.push_str(&format!("{pad}if ({t} > 1.0) {{\n"));
                    stmts(b, vars, depth - 1, c, out, ind + 2);
                    out.push_str(&format!("{pad}}} else {{\n"));
                    stmts(b, vars, depth - 1, c, out, ind + 2);
                    out.push_str(&format!("{pad}}}\n"));
                } else {
                    out.push_str(&format!("{pad}if ({t} > 1.0) then\n"));
                    stmts(b, vars, depth - 1, c, out, ind + 2);
                    out.push_str(&format!("{pad}else\n"));
                    stmts(b, vars, depth - 1, c, out, ind + 2);
                    out.push_str(&format!("{pad}end if\n"));
                }
            }
            3 => {
                let n = b.pick(4) + 1;
                if c {
                    out.push_str(&format!("{pad}for (i = 0; i < {n}; i++) {{\n"));
                    stmts(b, vars, depth - 1, c, out, ind + 2);
                    out.push_str(&format!("{pad}}}\n"));
                } else {
                    out.push_str(&format!("{pad}do i = 1, {n}\n"));
                    stmts(b, vars, depth - 1, c, out, ind + 2);
                    out.push_str(&format!("{pad}end do\n"));
                }
            }
            _ => {
                let e = expr(b, vars, 2, c);
                out.push_str(&if c {
                    format!("{pad}helper({e}, &{lhs});\n")
                } else {
                    format!("{pad}call helper({e}, {lhs})\n")
                });
            }
        }
    }
}

/// A valid program from the bytes: a helper and a head calling it.
pub fn generate(data: &[u8]) -> (String, String) {
    let mut b = Bytes(data);
    let c = b.pick(2) == 1;
    let mut body = String::new();
    stmts(&mut b, &["x", "t", "u", "w"], 2, c, &mut body, 2);
    let mut hbody = String::new();
    stmts(&mut b, &["a", "q"], 0, c, &mut hbody, 2);
    if c {
        let src = format!(
            "#include <math.h>\n\
             void helper(double a, double *r) {{\n  double q = *r;\n{hbody}  *r = q + a;\n}}\n\
             void head(double x, double *y) {{\n  double t = x, u = 2.0 * x, w = x;\n  int i;\n\
             {body}  *y = w + t * u;\n}}\n"
        );
        ("fuzz.c".into(), src)
    } else {
        let src = format!(
            "subroutine helper(a, r)\n  real(8), intent(in) :: a\n  real(8), intent(inout) :: r\n\
             \x20 real(8) :: q\n  q = r\n{hbody}  r = q + a\nend subroutine helper\n\
             subroutine head(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n\
             \x20 real(8) :: t, u, w\n  integer :: i\n  t = x\n  u = 2.0 * x\n  w = x\n{body}\
             \x20 y = w + t * u\nend subroutine head\n"
        );
        ("fuzz.f90".into(), src)
    }
}

/// The structure-aware target: the generated program is accepted, and differentiated or
/// refused with AD020 (never an internal error), and the output re-parses.
pub fn valid_program(data: &[u8]) {
    let (name, text) = generate(data);
    on_big_stack(|| {
        let r = pipeline::run(&request(&name, &text, None, primal()));
        assert!(
            r.failure.is_none(),
            "a generated program is refused:\n{}\n--- {name}\n{text}",
            r.render_diagnostics(&[(name.clone(), text.clone())])
        );
        differentiate(&name, &text);
    });
}
