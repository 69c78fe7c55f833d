//! The driver text: a Fortran or C main program that fills the head's inputs with a
//! deterministic pseudo-random sequence, runs the primal, the tangent, central divided
//! differences or the adjoint, and prints tagged values (`TAG name index value`).

use crate::head::{GlobalHome, Head, HeadArg, RealArg};
use crate::loops::{self, Layout};
use crate::report::ridders_steps;
use radtap_il::Lang;
use std::fmt::Write as _;

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

/// What the drivers put in derivative arguments that are not inputs of the derivative
/// (derivatives of non-independents, adjoints of non-dependents): finite, far from the
/// values of the checks, so derivative code that reads them fails the checks.
pub const POISON: f64 = 7.25e3;

/// The pseudo-random inputs, directions and weights of one seed.
#[derive(Clone, Copy, Debug)]
pub struct Values {
    pub seed: u64,
}

impl Values {
    /// Input element `k` (every real input element, in argument order).
    pub fn input(&self, k: usize) -> f64 {
        value(self.seed, k)
    }
    /// Tangent direction `d` (1-based) on input element `k`.
    pub fn dir(&self, d: usize, k: usize) -> f64 {
        value(self.seed.wrapping_add(100 * d as u64), k)
    }
    /// The adjoint seed on dependent element `k` when none is given.
    pub fn weight(&self, k: usize) -> f64 {
        value(self.seed.wrapping_add(300), k)
    }
}

/// What one driver runs.
pub struct Spec<'a> {
    pub kind: Kind,
    pub values: Values,
    /// Step of the central divided differences along direction 1 (`Kind::Scalar`): the
    /// driver prints them at `step` (FP/FM) and `2 step` (GP/GM).
    pub step: f64,
    /// ȳ on the dependent elements (`Kind::Adjoint`); `values.weight` when `None`.
    pub ybar: Option<&'a [f64]>,
    /// C: the generated file the driver includes.
    pub include: &'a str,
    /// `Kind::Adjoint`: after the run with ȳ on every dependent, one run per dependent
    /// variable with ȳ on it alone.
    pub per_dependent: bool,
    /// `Kind::Scalar`: also print the primal at ± each step of Ridders' sequence
    /// ([`crate::report::ridders_steps`], tags `R<j>P`/`R<j>M`).
    pub ridders: bool,
    /// The data file (relative to where the driver runs) holding the values of real
    /// arrays, which the driver fills and prints by loops ([`crate::loops`]; [`data`]
    /// writes it); `None`: one statement per element, no file.
    pub data: Option<&'a str>,
}

/// The data file's bytes for [`Spec::data`] ([`crate::loops`]).
pub fn data(h: &Head, spec: &Spec) -> Vec<u8> {
    let l = Layout::of(h);
    let mut v = vec![0.0f64; l.len()];
    let mut k = 0;
    for a in h.inputs() {
        for j in 0..a.elems.len() {
            v[l.input() + k] = a.given(j).unwrap_or_else(|| spec.values.input(k));
            for d in 1..=NDIR {
                v[l.dir(d) + k] = spec.values.dir(d, k);
            }
            k += 1;
        }
    }
    for k in 0..l.deps {
        v[l.ybar() + k] = spec.ybar.map_or_else(
            || spec.values.weight(k),
            |y| y.get(k).copied().unwrap_or(0.0),
        );
    }
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// What the driver runs.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Scalar,
    Vector,
    /// The adjoint `f_b` with seeds on the dependents (tags W, B, X, S).
    Adjoint,
}

pub const NDIR: usize = loops::NDIR;

/// Suffix of derivative type names.
fn dsuf(kind: Kind) -> &'static str {
    match kind {
        Kind::Adjoint => "b",
        _ => "d",
    }
}

/// The Fortran/C driver text.
pub fn driver(h: &Head, spec: &Spec) -> String {
    let kind = spec.kind;
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
                    // A record holds its directions at its real leaves (`resd[0].x[d]`), as
                    // an array does at its elements.
                    format!("{dn}{e}[{}]", d - 1)
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
    let layout = Layout::of(h);
    // A loop nest over looped argument `a` (its elements from `k0` in the data) with the
    // statements `f(element, leaf, has a derivative)` for each leaf of an element (one for
    // a real array, each real component for an array of records).
    type Leaf<'f> = &'f dyn Fn(&str, usize, bool) -> Vec<String>;
    let lnest = |body: &mut String, a: &RealArg, k0: usize, f: Leaf<'_>| {
        let e = loops::index(c, a.extents.len());
        let leaves = loops::leaves(a, c);
        let stmts: Vec<String> = leaves
            .iter()
            .enumerate()
            .flat_map(|(j, (leaf, has))| f(&format!("{e}{leaf}"), j, *has))
            .collect();
        if !stmts.is_empty() {
            body.push_str(&loops::nest(c, &a.extents, k0, leaves.len(), &stmts));
        }
    };
    // The values `x(element, leaf, has a derivative)` of looped argument `a` under `tag`:
    // a marker line, then a loop writing them to the binary output.
    let print_nest = |body: &mut String,
                      tag: &str,
                      a: &RealArg,
                      k0: usize,
                      x: &dyn Fn(&str, usize, bool) -> String| {
        body.push_str(&loops::marker(c, tag, &a.name, k0, a.elems.len()));
        lnest(body, a, k0, &|e, j, has| vec![loops::put(c, &x(e, j, has))]);
    };
    // Record arguments start every call as they started the first (`r0` copies): the head
    // may change their integer members (a counter), which no other input resets.
    let records: Vec<&String> = h
        .args
        .iter()
        .filter_map(|a| match a {
            HeadArg::Real(r) if r.record.is_some() && r.home.is_none() => Some(&r.name),
            _ => None,
        })
        .collect();
    let captured = std::cell::Cell::new(false);
    let set_inputs = |body: &mut String, delta: f64| {
        for n in &records {
            let (a, b) = if captured.get() {
                (n.to_string(), format!("{n}_r0"))
            } else {
                (format!("{n}_r0"), n.to_string())
            };
            if c {
                let _ = writeln!(body, "  memcpy(&{a}, &{b}, sizeof {a});");
            } else {
                let _ = writeln!(body, "  {a} = {b}");
            }
        }
        captured.set(true);
        let mut k0 = 0;
        for a in h.inputs() {
            if loops::looped(a, spec.data.is_some()) {
                lnest(body, a, k0, &|e, j, _| {
                    let mut rhs = loops::at(c, layout.input() + j);
                    if a.indep && delta != 0.0 {
                        let d = loops::at(c, layout.dir(1) + j);
                        rhs = format!("{rhs} + ({})*{d}", lit(delta));
                    }
                    vec![format!("{} = {rhs}", acc(a, e))]
                });
                k0 += a.elems.len();
                continue;
            }
            for (j, e) in a.elems.iter().enumerate() {
                let k = k0 + j;
                let v = a.given(j).unwrap_or_else(|| spec.values.input(k))
                    + if a.indep {
                        delta * spec.values.dir(1, k)
                    } else {
                        0.0
                    };
                let _ = writeln!(body, "  {} = {}{stmt_end}", acc(a, e), lit(v));
            }
            k0 += a.elems.len();
        }
        // Logical, character and integer-array arguments: set before every call, as the
        // head may change them.
        for a in &h.args {
            if let HeadArg::Fixed(f) = a {
                if let Some(rhs) = spec.data.and_then(|_| loops::fixed_rhs(f, c)) {
                    let e = loops::index(c, f.extents.len());
                    body.push_str(&loops::nest(
                        c,
                        &f.extents,
                        0,
                        1,
                        &[format!("{}{e} = {rhs}", f.name)],
                    ));
                    continue;
                }
                for (e, v) in f.elems.iter().zip(&f.init) {
                    let _ = writeln!(body, "  {}{e} = {v}{stmt_end}", f.name);
                }
            }
        }
    };
    let set_dirs = |body: &mut String, dirs: &[usize]| {
        let mut k0 = 0;
        for a in h.inputs() {
            let n = a.elems.len();
            if loops::looped(a, spec.data.is_some()) {
                if a.deriv.is_some() {
                    lnest(body, a, k0, &|e, j, has| {
                        if !has {
                            return Vec::new();
                        }
                        dirs.iter()
                            .enumerate()
                            .map(|(slot, &d)| {
                                let v = if a.indep {
                                    loops::at(c, layout.dir(d) + j)
                                } else if a.zero_in {
                                    lit(0.0)
                                } else {
                                    lit(POISON)
                                };
                                format!("{} = {v}", dacc(a, e, slot + 1))
                            })
                            .collect()
                    });
                }
                k0 += n;
                continue;
            }
            for (j, e) in a.elems.iter().enumerate() {
                let k = k0 + j;
                if !a.has_deriv(e) {
                    continue;
                }
                for (slot, &d) in dirs.iter().enumerate() {
                    // Only independents' derivatives are inputs: the others get a poison
                    // value the derivative code must ignore (a tangent that reads it is
                    // wrong).
                    let v = if a.indep {
                        spec.values.dir(d, k)
                    } else if a.zero_in {
                        0.0
                    } else {
                        POISON
                    };
                    let _ = writeln!(body, "  {} = {}{stmt_end}", dacc(a, e, slot + 1), lit(v));
                }
            }
            k0 += n;
        }
    };
    let print = |body: &mut String, tag: &str, deriv: Option<usize>| {
        let mut k = 0;
        for a in h.real_args() {
            if !a.dep {
                continue;
            }
            if loops::looped(a, spec.data.is_some()) {
                print_nest(body, tag, a, k, &|e, _, has| match deriv {
                    None => acc(a, e),
                    Some(d) if has => dacc(a, e, d),
                    Some(_) => "0.0".into(),
                });
                k += a.elems.len();
                continue;
            }
            for e in &a.elems {
                let x = match deriv {
                    None => acc(a, e),
                    Some(d) if a.has_deriv(e) => dacc(a, e, d),
                    Some(_) => "0.0".into(),
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
                HeadArg::Fixed(f) => f.name.clone(),
                HeadArg::Real(r) => {
                    if c && r.c_pointer && r.record.is_some() && r.extents.is_empty() {
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
                HeadArg::Fixed(f) => args.push(f.name.clone()),
                HeadArg::Real(r) => {
                    let one_record = r.record.is_some() && r.extents.is_empty();
                    let amp = if c && r.c_pointer && one_record {
                        "&"
                    } else {
                        ""
                    };
                    args.push(format!("{amp}{}", r.name));
                    if let Some(d) = &r.deriv {
                        let by_value =
                            kind == Kind::Adjoint && !r.c_pointer && r.extents.is_empty();
                        let amp = if c && ((one_record && r.c_pointer) || by_value) {
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
                let d = r.deriv.clone().unwrap_or_else(|| h.result_sink.clone());
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
    let prologue = spec.data.map(|file| loops::prologue(c, file, layout.len()));
    if let Some((_, read, _)) = &prologue {
        body.push_str(read);
    }
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
            for (tag, delta) in [
                ("FP", spec.step),
                ("FM", -spec.step),
                ("GP", 2.0 * spec.step),
                ("GM", -2.0 * spec.step),
            ] {
                set_inputs(&mut body, delta);
                primal_call(&mut body);
                print(&mut body, tag, None);
            }
            if spec.ridders {
                // The tangent at x ± h: whether the derivative itself is smooth at the scale
                // of the step (a divided difference is the mean of the derivative over it).
                for (tag, delta) in [("TP", spec.step), ("TM", -spec.step)] {
                    set_inputs(&mut body, delta);
                    set_dirs(&mut body, &[1]);
                    deriv_call(&mut body);
                    print(&mut body, tag, Some(1));
                }
                for (j, h) in ridders_steps(spec.step).into_iter().enumerate() {
                    for (sign, delta) in [("P", h), ("M", -h)] {
                        set_inputs(&mut body, delta);
                        primal_call(&mut body);
                        print(&mut body, &format!("R{j}{sign}"), None);
                    }
                }
            }
        }
        Kind::Adjoint => {
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
            let ndeps = h.real_args().filter(|a| a.dep).count();
            // Run 0 seeds every dependent; with `per_dependent`, run j seeds dependent j only
            // (tags B<j>, S<j>), so a wrong adjoint can be traced to one dependent.
            let runs = if spec.per_dependent && ndeps > 1 {
                ndeps
            } else {
                0
            };
            for run in 0..=runs {
                let suffix = if run == 0 {
                    String::new()
                } else {
                    run.to_string()
                };
                set_inputs(&mut body, 0.0);
                for a in h.inputs() {
                    // Independents' adjoints may be incremented (the caller zeroes them);
                    // dependents' are set below; the others are not inputs and get a poison
                    // value the adjoint must ignore.
                    let v = if a.indep || a.dep || a.zero_in {
                        0.0
                    } else {
                        POISON
                    };
                    if loops::looped(a, spec.data.is_some()) {
                        lnest(&mut body, a, 0, &|e, _, has| {
                            if has {
                                vec![format!("{} = {}", dacc(a, e, 1), lit(v))]
                            } else {
                                Vec::new()
                            }
                        });
                        continue;
                    }
                    for e in &a.elems {
                        if a.has_deriv(e) {
                            let _ = writeln!(body, "  {} = {}{stmt_end}", dacc(a, e, 1), lit(v));
                        }
                    }
                }
                // ȳ on the dependent elements, in the order the tangent driver prints them.
                let mut k = 0;
                for (j, a) in h.real_args().filter(|a| a.dep).enumerate() {
                    if loops::looped(a, spec.data.is_some()) {
                        let w = |leaf: usize| {
                            if run == 0 || run == j + 1 {
                                loops::at(c, layout.ybar() + leaf)
                            } else {
                                lit(0.0)
                            }
                        };
                        lnest(&mut body, a, k, &|e, leaf, has| {
                            if has {
                                vec![format!("{} = {}", dacc(a, e, 1), w(leaf))]
                            } else {
                                Vec::new()
                            }
                        });
                        if run == 0 {
                            print_nest(&mut body, "W", a, k, &|_, leaf, _| w(leaf));
                        }
                        k += a.elems.len();
                        continue;
                    }
                    for e in &a.elems {
                        let v = spec.ybar.map_or_else(
                            || spec.values.weight(k),
                            |y| y.get(k).copied().unwrap_or(0.0),
                        );
                        let w = lit(if run == 0 || run == j + 1 { v } else { 0.0 });
                        if a.has_deriv(e) {
                            let _ = writeln!(body, "  {} = {w}{stmt_end}", dacc(a, e, 1));
                        }
                        if run == 0 {
                            show(&mut body, "W", &a.name, k, &w);
                        }
                        k += 1;
                    }
                }
                deriv_call(&mut body);
                // x̄ and ẋ (direction 1 of the tangent driver) on every independent element.
                let mut k0 = 0;
                for a in h.inputs() {
                    let n = a.elems.len();
                    if !(a.indep && a.deriv.is_some()) {
                        k0 += n;
                        continue;
                    }
                    if loops::looped(a, spec.data.is_some()) {
                        if run == 0 {
                            print_nest(&mut body, "X", a, k0, &|_, leaf, _| {
                                loops::at(c, layout.dir(1) + leaf)
                            });
                        }
                        // A record member the derivative type lacks has no adjoint: zero.
                        print_nest(&mut body, &format!("B{suffix}"), a, k0, &|e, _, has| {
                            if has {
                                dacc(a, e, 1)
                            } else {
                                lit(0.0)
                            }
                        });
                        k0 += n;
                        continue;
                    }
                    for (j, e) in a.elems.iter().enumerate() {
                        let k = k0 + j;
                        if run == 0 {
                            show(&mut body, "X", &a.name, k, &lit(spec.values.dir(1, k)));
                        }
                        // A record member the derivative type lacks has no adjoint: zero.
                        let b = if a.has_deriv(e) {
                            dacc(a, e, 1)
                        } else {
                            lit(0.0)
                        };
                        show(&mut body, &format!("B{suffix}"), &a.name, k, &b);
                    }
                    k0 += n;
                }
                let bytes = if c {
                    "adStack_currentBytes()"
                } else {
                    "real(adstack_currentbytes(), 8)"
                };
                show(&mut body, &format!("S{suffix}"), "stack", 0, bytes);
                // The peak of the stack so far (the checkpointing tests compare it).
                let peak = if c {
                    "adStack_peakBytes()"
                } else {
                    "real(adstack_peakbytes(), 8)"
                };
                show(&mut body, &format!("P{suffix}"), "peak", 0, peak);
            }
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
    // Declarations. Large C arrays are static (the stack holds a few MB).
    let storage = |ext: &[(i64, i64)]| {
        let n: i64 = ext.iter().map(|(lo, hi)| hi - lo + 1).product();
        if spec.data.is_some() && !ext.is_empty() && n > 1024 {
            "static "
        } else {
            ""
        }
    };
    if c {
        let gen = spec.include;
        let _ = writeln!(
            s,
            "#include <stdio.h>\n#include <string.h>\n#include \"{gen}\"\nint main(void) {{"
        );
        if let Some((decl, _, _)) = &prologue {
            s.push_str(decl);
        }
        for a in &h.args {
            match a {
                HeadArg::Int(n, _) => {
                    let _ = writeln!(s, "  int {n};");
                }
                HeadArg::Fixed(f) => {
                    let dims: String = f
                        .extents
                        .iter()
                        .map(|(lo, hi)| format!("[{}]", hi - lo + 1))
                        .collect();
                    let st = storage(&f.extents);
                    let _ = writeln!(s, "  {st}{} {}{dims};", f.cty, f.name);
                }
                HeadArg::Real(r) => {
                    let dims: String = r
                        .extents
                        .iter()
                        .map(|(lo, hi)| format!("[{}]", hi - lo + 1))
                        .collect();
                    let (ty, dty) = match &r.record {
                        Some(t) => (
                            t.clone(),
                            format!("struct {}_{}", t.trim_start_matches("struct "), dsuf(kind)),
                        ),
                        None => ("double".to_string(), "double".to_string()),
                    };
                    // A struct's integer and other components the driver does not fill
                    // start at zero (they were uninitialised: valgrind, and values that
                    // changed from run to run).
                    let init = if r.record.is_some() { " = {0}" } else { "" };
                    let st = storage(&r.extents);
                    let _ = writeln!(s, "  {st}{ty} {}{dims}{init};", r.name);
                    if r.record.is_some() && r.home.is_none() {
                        let _ = writeln!(s, "  {st}{ty} {}_r0{dims}{init};", r.name);
                    }
                    if let Some(d) = &r.deriv {
                        // A record holds its directions at its leaves: no direction
                        // dimension on it.
                        let vd = if kind == Kind::Vector && r.record.is_none() {
                            "[NBDirsMax]"
                        } else {
                            ""
                        };
                        let _ = writeln!(s, "  {st}{dty} {d}{dims}{vd};");
                    }
                }
            }
        }
        if let Some(r) = &h.result {
            let _ = writeln!(s, "  {} {};", h.result_ctype, r.name);
            let vd = if kind == Kind::Vector {
                "[NBDirsMax]"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "  double {}{vd};",
                r.deriv.clone().unwrap_or_else(|| h.result_sink.clone())
            );
        }
        s.push_str(&body);
        if let Some((_, _, end)) = &prologue {
            s.push_str(end);
        }
        s.push_str("  return 0;\n}\n");
        return s;
    }
    let _ = writeln!(s, "program radtap_validate_driver");
    if let Some(m) = &h.module {
        let _ = writeln!(s, "  use {m}");
    }
    for m in &h.iface.uses {
        let _ = writeln!(s, "  use {m}");
    }
    if kind == Kind::Vector {
        let _ = writeln!(s, "  use diffsizes");
    }
    for g in &h.globals {
        if let Some(GlobalHome::Module {
            module,
            var,
            dmodule,
            dvar,
        }) = &g.home
        {
            let _ = writeln!(s, "  use {module}, only: {} => {var}", g.name);
            if let Some(d) = &g.deriv {
                let _ = writeln!(s, "  use {dmodule}, only: {d} => {dvar}");
            }
        }
    }
    let _ = writeln!(s, "  implicit none");
    // COMMON blocks holding global independents or dependents, declared member for member
    // (the derivative block mirrors the primal one).
    for b in &h.commons {
        for (t, dims, n, dn) in &b.members {
            let _ = writeln!(s, "  {t} :: {n}{dims}, {dn}{dims}");
        }
        let names = |d: bool| -> String {
            b.members
                .iter()
                .map(|m| if d { m.3.clone() } else { m.2.clone() })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let blk = b.block.clone().unwrap_or_default();
        let _ = writeln!(s, "  common /{blk}/ {}", names(false));
        let _ = writeln!(s, "  common /{}/ {}", b.dblock, names(true));
    }
    if kind == Kind::Adjoint {
        let _ = writeln!(
            s,
            "  integer(8), external :: adstack_currentbytes, adstack_peakbytes"
        );
    }
    if h.module.is_none() {
        s.push_str(&fortran_interfaces(h, kind));
    }
    if let Some((decl, _, _)) = &prologue {
        s.push_str(decl);
    }
    for a in &h.args {
        match a {
            HeadArg::Int(n, _) => {
                let _ = writeln!(s, "  integer :: {n}");
            }
            HeadArg::Fixed(f) => {
                let d: Vec<String> = f
                    .extents
                    .iter()
                    .map(|(lo, hi)| format!("{lo}:{hi}"))
                    .collect();
                let dims = if d.is_empty() {
                    String::new()
                } else {
                    format!("({})", d.join(","))
                };
                let _ = writeln!(s, "  {}, target :: {}{dims}", f.fty, f.name);
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
                if r.record.is_some() && r.home.is_none() {
                    let _ = writeln!(s, "  {ty} :: {}_r0{}", r.name, dims(false));
                }
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
            r.deriv.clone().unwrap_or_else(|| h.result_sink.clone())
        );
    }
    s.push_str(&body);
    if let Some((_, _, end)) = &prologue {
        s.push_str(end);
    }
    s.push_str("end program radtap_validate_driver\n");
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
                HeadArg::Fixed(f) => {
                    let rank = f.extents.len();
                    let shape = if rank == 0 {
                        String::new()
                    } else if f.assumed_shape {
                        format!("({})", vec![":"; rank].join(","))
                    } else {
                        let mut d: Vec<String> = vec!["1".into(); rank - 1];
                        d.push("*".into());
                        format!("({})", d.join(","))
                    };
                    let ty = if f.fty.starts_with("character") {
                        "character(len=*)".to_string()
                    } else {
                        f.fty.clone()
                    };
                    params.push(f.name.clone());
                    decls.push(format!("{ty} :: {}{shape}", f.name));
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
