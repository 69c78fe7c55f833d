//! The driver generator shared by the numeric suites (`tests/tangent.rs`,
//! `tests/adjoint.rs`): reads a corpus file's options and sizes, describes the head from its
//! declarations, and writes Fortran or C drivers that run the primal, the tangent, the
//! vector tangent or the adjoint with deterministic inputs and print tagged values.
#![allow(dead_code, unreachable_pub)]

use radtap::{execute, normalize_args, Cli};
use radtap_il::*;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn shell_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// Options (line 1) and sizes (line 2) of a corpus file.
pub fn header(path: &Path) -> (Vec<String>, HashMap<String, String>) {
    let text = std::fs::read_to_string(path).expect("corpus file");
    let mut lines = text.lines();
    let opts = lines
        .next()
        .and_then(|l| l.split_once("radtap:"))
        .map(|(_, o)| shell_words(o.trim()))
        .expect("first line: radtap: OPTIONS");
    let mut sizes = HashMap::new();
    if let Some((_, s)) = lines.next().and_then(|l| l.split_once("sizes:")) {
        for w in s.split_whitespace() {
            if let Some((k, v)) = w.split_once('=') {
                sizes.insert(k.to_ascii_lowercase(), v.to_string());
            }
        }
    }
    (opts, sizes)
}

pub fn run_cli(path: &Path, opts: &[String], extra: &[&str], out: &Path) -> radtap::Outcome {
    let mut args = vec!["radtap".to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(opts.iter().cloned());
    args.push("-O".into());
    args.push(out.display().to_string());
    args.push(path.display().to_string());
    let args = normalize_args(args.into_iter());
    let cli = <Cli as clap::Parser>::try_parse_from(args).expect("options parse");
    execute(&cli)
}

/// A deterministic value in [0.5, 1.5].
pub fn value(seed: u64, k: usize) -> f64 {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407 ^ (k as u64).wrapping_mul(0x9E3779B97F4A7C15));
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    0.5 + (x >> 11) as f64 / (1u64 << 53) as f64
}

/// Integer value of a bound expression given the integer inputs.
pub fn eval(p: &Program, u: UnitId, e: ExprId, env: &HashMap<String, i64>) -> Option<i64> {
    match &p.units[u].exprs[e] {
        Expr::Literal(l) => l.text.parse().ok(),
        Expr::Name(s) => {
            let n = p.symbols[*s].spelling.to_ascii_lowercase();
            env.get(&n).copied().or_else(|| {
                // A PARAMETER: find its value in the declarations.
                let owner = p
                    .units
                    .iter()
                    .find(|(_, x)| x.scope == p.symbols[*s].scope)?
                    .0;
                for d in &p.units[owner].decls {
                    match d {
                        Decl::Parameter(ps) => {
                            if let Some((_, v)) = ps.iter().find(|(x, _)| x == s) {
                                return eval(p, owner, *v, env);
                            }
                        }
                        Decl::Var(v) => {
                            for en in &v.entities {
                                if en.sym == *s {
                                    if let Some(Init::Expr(x)) = en.init {
                                        return eval(p, owner, x, env);
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
                None
            })
        }
        Expr::Opaque(t) => env
            .get(&t.to_ascii_lowercase())
            .copied()
            .or_else(|| t.parse().ok()),
        Expr::Paren(a) => eval(p, u, *a, env),
        Expr::Unary { op: UnOp::Neg, arg } => Some(-eval(p, u, *arg, env)?),
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (eval(p, u, *lhs, env)?, eval(p, u, *rhs, env)?);
            Some(match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => a / b,
                _ => return None,
            })
        }
        _ => None,
    }
}

pub fn eval_text(t: &str, env: &HashMap<String, i64>) -> i64 {
    // `n*m`, `n+1`, `12`, `n`.
    if let Some((a, b)) = t.split_once('*') {
        return eval_text(a, env) * eval_text(b, env);
    }
    if let Some((a, b)) = t.split_once('+') {
        return eval_text(a, env) + eval_text(b, env);
    }
    if let Some((a, b)) = t.split_once('-') {
        return eval_text(a, env) - eval_text(b, env);
    }
    t.parse()
        .ok()
        .or_else(|| env.get(&t.to_ascii_lowercase()).copied())
        .unwrap_or_else(|| panic!("size `{t}` not known"))
}

/// One real head argument (or the function result), flattened to element accesses.
pub struct RealArg {
    pub name: String,
    pub deriv: Option<String>,
    /// Element access suffixes: `(1,2)` / `[1][2]`, `%f(3)` / `.f[2]`.
    pub elems: Vec<String>,
    /// Extents (declaration), in the language's order.
    pub extents: Vec<(i64, i64)>,
    pub record: Option<String>,
    pub c_pointer: bool,
    pub assumed_shape: bool,
    pub indep: bool,
    pub dep: bool,
}

pub fn cartesian(ext: &[(i64, i64)], c: bool) -> Vec<String> {
    let mut out = vec![String::new()];
    for &(lo, hi) in ext {
        let mut next = Vec::new();
        for o in &out {
            for i in lo..=hi {
                next.push(if o.is_empty() {
                    format!("{i}")
                } else {
                    format!("{o},{i}")
                });
            }
        }
        out = next;
    }
    if ext.is_empty() {
        return vec![String::new()];
    }
    out.into_iter()
        .map(|s| {
            if c {
                s.split(',').map(|i| format!("[{i}]")).collect()
            } else if c {
                unreachable!()
            } else {
                format!("({s})")
            }
        })
        .collect()
}

/// The real leaves of a record type: `%f`, `%v(2)` / `.f`, `.v[1]`.
pub fn record_leaves(
    p: &Program,
    td: TypeDefId,
    c: bool,
    env: &HashMap<String, i64>,
) -> Vec<String> {
    let t = &p.typedefs[td];
    let mut out = Vec::new();
    for f in &t.fields {
        let Decl::Var(v) = f else { continue };
        for en in &v.entities {
            let s = &p.symbols[en.sym];
            let Some(ty) = &s.ty else { continue };
            let sep = if c { "." } else { "%" };
            match ty.base {
                BaseClass::Real => {
                    let ext: Vec<(i64, i64)> = ty
                        .dims
                        .iter()
                        .map(|d| dim_ext(p, t.unit, d, c, env))
                        .collect();
                    for e in cartesian(&ext, c) {
                        out.push(format!("{sep}{}{e}", s.spelling));
                    }
                }
                BaseClass::Record(inner) if ty.dims.is_empty() => {
                    for l in record_leaves(p, inner, c, env) {
                        out.push(format!("{sep}{}{l}", s.spelling));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

pub fn dim_ext(p: &Program, u: UnitId, d: &Dim, c: bool, env: &HashMap<String, i64>) -> (i64, i64) {
    let lo = d
        .lower
        .and_then(|l| eval(p, u, l, env))
        .unwrap_or(if c { 0 } else { 1 });
    let hi = match d.upper {
        DimUpper::Expr(e) => eval(p, u, e, env).expect("constant or sized bound"),
        _ => panic!("assumed bound"),
    };
    if c {
        (0, hi - 1)
    } else {
        (lo, hi)
    }
}

pub struct Head {
    pub lang: Lang,
    pub name: String,
    pub module: Option<String>,
    /// Arguments in order: `Int(name, value)` or a real/record argument.
    pub args: Vec<HeadArg>,
    pub result: Option<RealArg>,
    pub iface: radtap_diff_tangent::Interface,
}

pub enum HeadArg {
    Int(String, i64),
    Real(RealArg),
}

pub fn describe(gen: &radtap_diff_tangent::Output, sizes: &HashMap<String, String>) -> Head {
    let p = &gen.program;
    let iface = gen.interfaces[0].clone();
    let hu = &p.units[iface.head];
    let lang = hu.lang;
    let c = lang == Lang::C;
    let mut env: HashMap<String, i64> = HashMap::new();
    for &s in &hu.params {
        let n = p.symbols[s].spelling.to_ascii_lowercase();
        if p.symbols[s]
            .ty
            .as_ref()
            .is_some_and(|t| t.base == BaseClass::Integer && t.dims.is_empty())
        {
            let v = sizes
                .get(&n)
                .unwrap_or_else(|| panic!("sizes: no value for integer `{n}`"));
            env.insert(n, v.parse().expect("integer size"));
        }
    }
    let in_list = |l: &[String], n: &str| {
        l.iter().any(|x| {
            let x = x.to_ascii_lowercase();
            x == n
                || x.starts_with(&format!("{n}%"))
                || x.starts_with(&format!("{n}."))
                || x.starts_with(&format!("*{n}"))
        })
    };
    let mut args = Vec::new();
    for (i, &s) in hu.params.iter().enumerate() {
        let sd = &p.symbols[s];
        let name = sd.spelling.clone();
        let ln = name.to_ascii_lowercase();
        let ty = sd.ty.clone().expect("typed argument");
        if ty.base == BaseClass::Integer && ty.dims.is_empty() {
            args.push(HeadArg::Int(name, env[&ln]));
            continue;
        }
        let deriv = iface.params[i].1.clone();
        let assumed = ty
            .dims
            .iter()
            .any(|d| !matches!(d.upper, DimUpper::Expr(_)));
        let c_pointer = c && ty.pointers > 0;
        let extents: Vec<(i64, i64)> = if assumed || (c_pointer && ty.dims.is_empty()) {
            match sizes.get(&ln) {
                Some(t) => t
                    .split(',')
                    .map(|x| {
                        let n = eval_text(x, &env);
                        if c {
                            (0, n - 1)
                        } else {
                            (1, n)
                        }
                    })
                    .collect(),
                None if c && matches!(ty.base, BaseClass::Record(_)) => Vec::new(),
                None if c => vec![(0, 0)],
                None => panic!("sizes: no extent for `{ln}`"),
            }
        } else {
            ty.dims
                .iter()
                .map(|d| dim_ext(p, iface.head, d, c, &env))
                .collect()
        };
        let (elems, record) = match ty.base {
            BaseClass::Record(td) => {
                let leaves = record_leaves(p, td, c, &env);
                (
                    leaves,
                    Some(p.typedefs[td].name.clone().unwrap_or_default()),
                )
            }
            _ => (cartesian(&extents, c), None),
        };
        args.push(HeadArg::Real(RealArg {
            indep: in_list(&iface.independents, &ln),
            dep: in_list(&iface.dependents, &ln),
            name,
            deriv,
            elems,
            extents,
            record,
            c_pointer,
            assumed_shape: assumed && !c,
        }));
    }
    let result = hu
        .result
        .filter(|_| hu.kind == UnitKind::Function)
        .map(|r| {
            let name = p.symbols[hu.name.expect("named")].spelling.clone();
            let _ = r;
            RealArg {
                dep: true,
                indep: false,
                deriv: iface.result_deriv.then(|| {
                    format!(
                        "{name}{}",
                        if iface.name.ends_with("_b") { "b" } else { "d" }
                    )
                }),
                name: format!("{name}_r"),
                elems: vec![String::new()],
                extents: Vec::new(),
                record: None,
                c_pointer: false,
                assumed_shape: false,
            }
        });
    Head {
        lang,
        name: p.symbols[hu.name.expect("named")].spelling.clone(),
        module: hu
            .parent
            .filter(|m| p.units[*m].kind == UnitKind::Module)
            .and_then(|m| p.units[m].name)
            .map(|s| p.symbols[s].spelling.clone()),
        args,
        result,
        iface,
    }
}

/// What the driver runs.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Scalar,
    Vector,
    /// The adjoint `f_b` with seeds on the dependents (tags W, B, X, S).
    Adjoint,
}

pub const NDIR: usize = 3;
pub const H: f64 = 1e-6;

pub fn real_args(h: &Head) -> impl Iterator<Item = &RealArg> {
    h.args
        .iter()
        .filter_map(|a| match a {
            HeadArg::Real(r) => Some(r),
            HeadArg::Int(..) => None,
        })
        .chain(h.result.iter())
}

/// Suffix of derivative type names.
fn dsuf(kind: Kind) -> &'static str {
    match kind {
        Kind::Adjoint => "b",
        _ => "d",
    }
}

/// The weight on dependent element `k` in the adjoint run (ȳ).
pub fn weight(k: usize) -> f64 {
    value(300, k)
}

/// The Fortran/C driver text.
pub fn driver(h: &Head, kind: Kind) -> String {
    let c = h.lang == Lang::C;
    let mut s = String::new();
    let dname = &h.iface.name;
    // Access to element `e` of argument `a`: primal, derivative (direction `d`, 1-based).
    let acc = |a: &RealArg, e: &str| format!("{}{e}", a.name);
    let dacc = |a: &RealArg, e: &str, d: usize| -> String {
        let dn = a.deriv.clone().unwrap_or_default();
        match kind {
            Kind::Scalar | Kind::Adjoint => format!("{dn}{e}"),
            Kind::Vector => {
                if c {
                    if a.record.is_some() {
                        format!("{dn}[{}]{e}", d - 1)
                    } else {
                        format!("{dn}{e}[{}]", d - 1)
                    }
                } else if a.record.is_some() {
                    format!("{dn}({d}){e}")
                } else if e.is_empty() {
                    format!("{dn}({d})")
                } else {
                    format!("{dn}({d},{}", &e[1..])
                }
            }
        }
    };
    let stmt_end = if c { ";" } else { "" };
    let lit = |v: f64| {
        if c {
            format!("{v:.17e}")
        } else {
            format!("{v:.17e}").replace('e', "d")
        }
    };
    let mut body = String::new();
    let set_inputs = |body: &mut String, delta: f64| {
        for (k, (a, e)) in real_args(h)
            .filter(|a| a.record.is_some() || a.name != format!("{}_r", h.name))
            .flat_map(|a| a.elems.iter().map(move |e| (a, e)))
            .enumerate()
        {
            let v = value(1, k) + if a.indep { delta * value(100, k) } else { 0.0 };
            let _ = writeln!(body, "  {} = {}{stmt_end}", acc(a, e), lit(v));
        }
    };
    let set_dirs = |body: &mut String, dirs: &[usize]| {
        for (k, (a, e)) in real_args(h)
            .filter(|a| a.record.is_some() || a.name != format!("{}_r", h.name))
            .flat_map(|a| a.elems.iter().map(move |e| (a, e)))
            .enumerate()
        {
            if a.deriv.is_none() {
                continue;
            }
            for (slot, &d) in dirs.iter().enumerate() {
                let v = if a.indep {
                    value(100 * d as u64, k)
                } else {
                    0.0
                };
                let _ = writeln!(body, "  {} = {}{stmt_end}", dacc(a, e, slot + 1), lit(v));
            }
        }
    };
    let print = |body: &mut String, tag: &str, deriv: Option<usize>| {
        let mut k = 0;
        for a in real_args(h) {
            if !a.dep {
                continue;
            }
            for e in &a.elems {
                let x = match deriv {
                    None => acc(a, e),
                    Some(d) => match &a.deriv {
                        Some(_) => dacc(a, e, d),
                        None => "0.0".into(),
                    },
                };
                if c {
                    let _ = writeln!(
                        body,
                        "  printf(\"{tag} {} %d %.17e\\n\", {k}, (double)({x}));",
                        a.name
                    );
                } else {
                    let _ = writeln!(
                        body,
                        "  write(*,'(a,i6,es27.17e3)') '{tag} {} ', {k}, {x}",
                        a.name
                    );
                }
                k += 1;
            }
        }
    };
    let primal_call = |body: &mut String| {
        let args: Vec<String> = h
            .args
            .iter()
            .map(|a| match a {
                HeadArg::Int(n, _) => n.clone(),
                HeadArg::Real(r) => {
                    if c && r.c_pointer && r.record.is_some() {
                        format!("&{}", r.name)
                    } else {
                        r.name.clone()
                    }
                }
            })
            .collect();
        match (&h.result, c) {
            (Some(r), _) => {
                let _ = writeln!(
                    body,
                    "  {} = {}({}){stmt_end}",
                    r.name,
                    h.name,
                    args.join(", ")
                );
            }
            (None, true) => {
                let _ = writeln!(body, "  {}({});", h.name, args.join(", "));
            }
            (None, false) => {
                let _ = writeln!(body, "  call {}({})", h.name, args.join(", "));
            }
        }
    };
    let deriv_call = |body: &mut String| {
        let mut args: Vec<String> = Vec::new();
        for a in &h.args {
            match a {
                HeadArg::Int(n, _) => args.push(n.clone()),
                HeadArg::Real(r) => {
                    let amp = if c && r.c_pointer && r.record.is_some() {
                        "&"
                    } else {
                        ""
                    };
                    args.push(format!("{amp}{}", r.name));
                    if let Some(d) = &r.deriv {
                        let by_value =
                            kind == Kind::Adjoint && !r.c_pointer && r.extents.is_empty();
                        let amp = if c && ((r.record.is_some() && r.c_pointer) || by_value) {
                            "&"
                        } else {
                            ""
                        };
                        args.push(format!("{amp}{d}"));
                    }
                }
            }
        }
        match (&h.result, kind) {
            (Some(r), Kind::Adjoint) => {
                if let Some(d) = &r.deriv {
                    args.push(d.clone());
                }
                let call = if c { "" } else { "call " };
                let _ = writeln!(body, "  {call}{dname}({}){stmt_end}", args.join(", "));
            }
            (Some(r), Kind::Scalar) => {
                args.push(if c {
                    format!("&{}", r.name)
                } else {
                    r.name.clone()
                });
                let d = r.deriv.clone().unwrap_or_else(|| "dummy_rd".into());
                let _ = writeln!(body, "  {d} = {dname}({}){stmt_end}", args.join(", "));
            }
            (Some(r), Kind::Vector) => {
                args.push(if c {
                    format!("&{}", r.name)
                } else {
                    r.name.clone()
                });
                if let Some(d) = &r.deriv {
                    args.push(d.clone());
                }
                args.push(NDIR.to_string());
                let call = if c { "" } else { "call " };
                let _ = writeln!(body, "  {call}{dname}({}){stmt_end}", args.join(", "));
            }
            (None, k) => {
                if k == Kind::Vector {
                    args.push(NDIR.to_string());
                }
                let call = if c { "" } else { "call " };
                let _ = writeln!(body, "  {call}{dname}({}){stmt_end}", args.join(", "));
            }
        }
    };
    // Body.
    for a in &h.args {
        if let HeadArg::Int(n, v) = a {
            let _ = writeln!(body, "  {n} = {v}{stmt_end}");
        }
    }
    match kind {
        Kind::Scalar => {
            set_inputs(&mut body, 0.0);
            primal_call(&mut body);
            print(&mut body, "P0", None);
            for d in 1..=NDIR {
                set_inputs(&mut body, 0.0);
                set_dirs(&mut body, &[d]);
                deriv_call(&mut body);
                if d == 1 {
                    print(&mut body, "P1", None);
                }
                print(&mut body, &format!("T{d}"), Some(1));
            }
            set_inputs(&mut body, H);
            primal_call(&mut body);
            print(&mut body, "FP", None);
            set_inputs(&mut body, -H);
            primal_call(&mut body);
            print(&mut body, "FM", None);
        }
        Kind::Adjoint => {
            set_inputs(&mut body, 0.0);
            let not_result = |a: &&RealArg| a.record.is_some() || a.name != format!("{}_r", h.name);
            for (a, e) in real_args(h)
                .filter(not_result)
                .flat_map(|a| a.elems.iter().map(move |e| (a, e)))
            {
                if a.deriv.is_some() {
                    let _ = writeln!(body, "  {} = {}{stmt_end}", dacc(a, e, 1), lit(0.0));
                }
            }
            let show = |body: &mut String, tag: &str, name: &str, k: usize, x: &str| {
                if c {
                    let _ = writeln!(
                        body,
                        "  printf(\"{tag} {name} %d %.17e\\n\", {k}, (double)({x}));"
                    );
                } else {
                    let _ = writeln!(
                        body,
                        "  write(*,'(a,i6,es27.17e3)') '{tag} {name} ', {k}, {x}"
                    );
                }
            };
            // ȳ on every dependent element, in the order the tangent driver prints them.
            let mut k = 0;
            for a in real_args(h) {
                if !a.dep {
                    continue;
                }
                for e in &a.elems {
                    let w = lit(weight(k));
                    if a.deriv.is_some() {
                        let _ = writeln!(body, "  {} = {w}{stmt_end}", dacc(a, e, 1));
                    }
                    show(&mut body, "W", &a.name, k, &w);
                    k += 1;
                }
            }
            deriv_call(&mut body);
            // x̄ and ẋ (direction 1 of the tangent driver) on every independent element.
            for (k, (a, e)) in real_args(h)
                .filter(not_result)
                .flat_map(|a| a.elems.iter().map(move |e| (a, e)))
                .enumerate()
            {
                if a.indep && a.deriv.is_some() {
                    show(&mut body, "X", &a.name, k, &lit(value(100, k)));
                    show(&mut body, "B", &a.name, k, &dacc(a, e, 1));
                }
            }
            let bytes = if c {
                "adStack_currentBytes()"
            } else {
                "real(adstack_currentbytes(), 8)"
            };
            show(&mut body, "S", "stack", 0, bytes);
        }
        Kind::Vector => {
            set_inputs(&mut body, 0.0);
            set_dirs(&mut body, &(1..=NDIR).collect::<Vec<_>>());
            deriv_call(&mut body);
            for d in 1..=NDIR {
                print(&mut body, &format!("V{d}"), Some(d));
            }
        }
    }
    // Declarations.
    if c {
        let gen = match kind {
            Kind::Scalar => "gen_d.c",
            Kind::Vector => "gen_dv.c",
            Kind::Adjoint => "gen_b.c",
        };
        let _ = writeln!(
            s,
            "#include <stdio.h>\n#include \"{gen}\"\nint main(void) {{"
        );
        for a in &h.args {
            match a {
                HeadArg::Int(n, _) => {
                    let _ = writeln!(s, "  int {n};");
                }
                HeadArg::Real(r) => {
                    let dims: String = r
                        .extents
                        .iter()
                        .map(|(lo, hi)| format!("[{}]", hi - lo + 1))
                        .collect();
                    let (ty, dty) = match &r.record {
                        Some(t) => (format!("struct {t}"), format!("struct {t}_{}", dsuf(kind))),
                        None => ("double".to_string(), "double".to_string()),
                    };
                    let _ = writeln!(s, "  {ty} {}{dims};", r.name);
                    if let Some(d) = &r.deriv {
                        let vd = if kind == Kind::Vector {
                            "[NBDirsMax]"
                        } else {
                            ""
                        };
                        let _ = writeln!(s, "  {dty} {d}{dims}{vd};");
                    }
                }
            }
        }
        if let Some(r) = &h.result {
            let _ = writeln!(s, "  double {};", r.name);
            let vd = if kind == Kind::Vector {
                "[NBDirsMax]"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "  double {}{vd};",
                r.deriv.clone().unwrap_or_else(|| "dummy_rd".into())
            );
        }
        s.push_str(&body);
        s.push_str("  return 0;\n}\n");
        return s;
    }
    let _ = writeln!(s, "program driver");
    if let Some(m) = &h.module {
        let _ = writeln!(s, "  use {m}");
    }
    for m in &h.iface.uses {
        let _ = writeln!(s, "  use {m}");
    }
    if kind == Kind::Vector {
        let _ = writeln!(s, "  use diffsizes");
    }
    let _ = writeln!(s, "  implicit none");
    if kind == Kind::Adjoint {
        let _ = writeln!(s, "  integer(8), external :: adstack_currentbytes");
    }
    if h.module.is_none() {
        s.push_str(&fortran_interfaces(h, kind));
    }
    for a in &h.args {
        match a {
            HeadArg::Int(n, _) => {
                let _ = writeln!(s, "  integer :: {n}");
            }
            HeadArg::Real(r) => {
                let dims = |vec: bool| -> String {
                    let mut d: Vec<String> = r
                        .extents
                        .iter()
                        .map(|(lo, hi)| format!("{lo}:{hi}"))
                        .collect();
                    if vec {
                        d.insert(0, "nbdirsmax".into());
                    }
                    if d.is_empty() {
                        String::new()
                    } else {
                        format!("({})", d.join(","))
                    }
                };
                let (ty, dty) = match &r.record {
                    Some(t) => (format!("type({t})"), format!("type({t}_{})", dsuf(kind))),
                    None => ("real(8)".to_string(), "real(8)".to_string()),
                };
                let _ = writeln!(s, "  {ty}, target :: {}{}", r.name, dims(false));
                if let Some(d) = &r.deriv {
                    let _ = writeln!(s, "  {dty}, target :: {d}{}", dims(kind == Kind::Vector));
                }
            }
        }
    }
    if let Some(r) = &h.result {
        let _ = writeln!(s, "  real(8) :: {}", r.name);
        let vd = if kind == Kind::Vector {
            "(nbdirsmax)"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "  real(8) :: {}{vd}",
            r.deriv.clone().unwrap_or_else(|| "dummy_rd".into())
        );
    }
    s.push_str(&body);
    s.push_str("end program driver\n");
    s
}

/// Interface blocks for an external Fortran head and its derivative.
pub fn fortran_interfaces(h: &Head, kind: Kind) -> String {
    let mut s = String::from("  interface\n");
    for deriv in [false, true] {
        let name = if deriv {
            h.iface.name.clone()
        } else {
            h.name.clone()
        };
        let mut params: Vec<String> = Vec::new();
        let mut decls: Vec<String> = Vec::new();
        for a in &h.args {
            match a {
                HeadArg::Int(n, _) => {
                    params.push(n.clone());
                    decls.push(format!("integer :: {n}"));
                }
                HeadArg::Real(r) => {
                    let shape = |vec: bool| -> String {
                        let rank = r.extents.len() + usize::from(vec);
                        if rank == 0 {
                            String::new()
                        } else if r.assumed_shape {
                            format!("({})", vec![":"; rank].join(","))
                        } else if vec && r.extents.is_empty() {
                            "(*)".into()
                        } else {
                            let mut d: Vec<String> = vec!["*".into()];
                            if rank > 1 {
                                d = vec!["1".into(); rank - 1];
                                d.push("*".into());
                            }
                            format!("({})", d.join(","))
                        }
                    };
                    let ty = match &r.record {
                        Some(t) => format!("type({t})"),
                        None => "real(8)".into(),
                    };
                    params.push(r.name.clone());
                    decls.push(format!("{ty} :: {}{}", r.name, shape(false)));
                    if deriv {
                        if let Some(d) = &r.deriv {
                            let dty = match &r.record {
                                Some(t) => format!("type({t}_{})", dsuf(kind)),
                                None => "real(8)".into(),
                            };
                            params.push(d.clone());
                            decls.push(format!("{dty} :: {d}{}", shape(kind == Kind::Vector)));
                        }
                    }
                }
            }
        }
        let mut head = String::new();
        match (&h.result, deriv, kind) {
            (Some(r), true, Kind::Adjoint) => {
                if let Some(d) = &r.deriv {
                    params.push(d.clone());
                    decls.push(format!("real(8) :: {d}"));
                }
                let _ = write!(head, "subroutine {name}({})", params.join(", "));
            }
            (Some(r), false, _) => {
                let _ = write!(head, "real(8) function {name}({})", params.join(", "));
                let _ = r;
            }
            (Some(r), true, Kind::Scalar) => {
                params.push(r.name.clone());
                decls.push(format!("real(8) :: {}", r.name));
                let _ = write!(head, "real(8) function {name}({})", params.join(", "));
            }
            (Some(r), true, Kind::Vector) => {
                params.push(r.name.clone());
                decls.push(format!("real(8) :: {}", r.name));
                if let Some(d) = &r.deriv {
                    params.push(d.clone());
                    decls.push(format!("real(8) :: {d}(*)"));
                }
                params.push("nbdirs".into());
                decls.push("integer :: nbdirs".into());
                let _ = write!(head, "subroutine {name}({})", params.join(", "));
            }
            (None, true, Kind::Vector) => {
                params.push("nbdirs".into());
                decls.push("integer :: nbdirs".into());
                let _ = write!(head, "subroutine {name}({})", params.join(", "));
            }
            (None, _, _) => {
                let _ = write!(head, "subroutine {name}({})", params.join(", "));
            }
        }
        let kw = if head.starts_with("subroutine") {
            "subroutine"
        } else {
            "function"
        };
        let _ = writeln!(s, "    {head}");
        for m in &h.iface.uses {
            let _ = writeln!(s, "      use {m}");
        }
        let _ = writeln!(s, "      implicit none");
        if deriv && kind == Kind::Vector {
            // nbdirsmax is not needed in assumed-size or assumed-shape dummies.
        }
        for d in decls {
            let _ = writeln!(s, "      {d}");
        }
        let _ = writeln!(s, "    end {kw} {name}");
    }
    s.push_str("  end interface\n");
    s
}

/// Compiles and runs; returns stdout.
pub fn build_and_run(
    dir: &Path,
    lang: Lang,
    sources: &[PathBuf],
    exe: &str,
) -> Result<String, String> {
    let mut cmd = match lang {
        Lang::Fortran => {
            let mut c = Command::new("gfortran");
            c.args(["-O0", "-g", "-ffree-line-length-none", "-fno-range-check"]);
            c
        }
        Lang::C => {
            let mut c = Command::new("gcc");
            c.args(["-O0", "-g", "-std=c99", "-D_DEFAULT_SOURCE"]);
            c
        }
    };
    cmd.current_dir(dir).arg("-o").arg(exe);
    for s in sources {
        cmd.arg(s);
    }
    if lang == Lang::C {
        cmd.arg("-lm");
    }
    let o = cmd.output().map_err(|e| format!("compiler: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "compile failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let o = Command::new(dir.join(exe))
        .output()
        .map_err(|e| format!("run: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "run failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Parsed driver output: tag → (name, index) → value.
pub fn parse_out(s: &str) -> HashMap<String, Vec<(String, f64)>> {
    let mut m: HashMap<String, Vec<(String, f64)>> = HashMap::new();
    for l in s.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() != 4 {
            continue;
        }
        let v: f64 = w[3].replace(['d', 'D'], "e").parse().unwrap_or(f64::NAN);
        m.entry(w[0].to_string())
            .or_default()
            .push((w[1].to_string(), v));
    }
    m
}

/// The corpus files, sorted.
pub fn corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("tests/tangent")
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("f90" | "f" | "c")
            )
        })
        .collect();
    v.sort();
    v
}
