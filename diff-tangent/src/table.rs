//! The derivative table: every differentiable intrinsic once, Fortran and C together.
//!
//! A row gives the spellings in each language and how the derivative is formed. Elementwise
//! rows give one partial derivative per differentiable argument as a small expression over
//! `x0`, `x1` (the arguments) in a neutral syntax: `**` is the power, `sgn(a)` is the sign of
//! `a` as a real (Fortran `sign(1.0, a)`, C `copysign(1.0, a)`), `trunc` is Fortran `aint`,
//! `pi` is π in the argument's kind, `nz(c, e)` is `e` where `c ≠ 0` and 0 elsewhere, `pos(c, e)`
//! is `e` where `c > 0` and 0 elsewhere (guards for partials that are `0·∞` or `log(0)` at a point
//! where the derivative exists). Tangent mode emits `ẏ = Σ ∂f/∂xᵢ · ẋᵢ`; adjoint mode
//! will emit `x̄ᵢ += ∂f/∂xᵢ · ȳ` from the same rows. Every row is checked numerically by
//! `tests/intrinsics.rs` against central finite differences.

/// How an intrinsic's derivative is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `ẏ = Σ ∂f/∂xᵢ ẋᵢ` with the partials given; arguments past the partials are not
    /// differentiable (`real(x, 8)`'s kind).
    Elementwise(&'static [&'static str]),
    /// Linear in its first argument: `ẏ = f(ẋ₀, x₁, …)` (`sum`, `transpose`, `spread`).
    Linear,
    /// Linear in each of two arguments: `ẏ = f(ẋ₀, x₁) + f(x₀, ẋ₁)` (`matmul`,
    /// `dot_product`).
    Bilinear,
    /// `min`/`max` of any arity: the derivative of the argument selected.
    Select {
        /// Selects the larger argument.
        max: bool,
    },
    /// `maxval`/`minval` of an array: the derivative at `maxloc`/`minloc`.
    Extremum {
        /// Maximum.
        max: bool,
    },
    /// `product(a)`: `Σ ȧᵢ Π_{j≠i} aⱼ`, written `sum(ȧ * product(a) / a)`.
    Product,
}

/// One intrinsic.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Fortran spellings (lower case), generic and specific.
    pub fortran: &'static [&'static str],
    /// C spellings (`math.h`).
    pub c: &'static [&'static str],
    /// The rule.
    pub rule: Rule,
}

use Rule::*;

/// The table. Order is irrelevant; a name appears once per language.
pub const TABLE: &[Row] = &[
    row(
        &["sin", "dsin"],
        &["sin", "sinf"],
        Elementwise(&["cos(x0)"]),
    ),
    row(
        &["cos", "dcos"],
        &["cos", "cosf"],
        Elementwise(&["-sin(x0)"]),
    ),
    row(
        &["tan", "dtan"],
        &["tan", "tanf"],
        Elementwise(&["1/(cos(x0)*cos(x0))"]),
    ),
    row(
        &["asin", "dasin"],
        &["asin", "asinf"],
        Elementwise(&["1/sqrt(1-x0*x0)"]),
    ),
    row(
        &["acos", "dacos"],
        &["acos", "acosf"],
        Elementwise(&["-(1/sqrt(1-x0*x0))"]),
    ),
    row(
        &["atan", "datan"],
        &["atan", "atanf"],
        Elementwise(&["1/(1+x0*x0)"]),
    ),
    row(
        &["atan2", "datan2"],
        &["atan2", "atan2f"],
        Elementwise(&["x1/(x0*x0+x1*x1)", "-(x0/(x0*x0+x1*x1))"]),
    ),
    row(
        &["sinh", "dsinh"],
        &["sinh", "sinhf"],
        Elementwise(&["cosh(x0)"]),
    ),
    row(
        &["cosh", "dcosh"],
        &["cosh", "coshf"],
        Elementwise(&["sinh(x0)"]),
    ),
    row(
        &["tanh", "dtanh"],
        &["tanh", "tanhf"],
        Elementwise(&["1-tanh(x0)*tanh(x0)"]),
    ),
    row(
        &["asinh", "dasinh"],
        &["asinh", "asinhf"],
        Elementwise(&["1/sqrt(x0*x0+1)"]),
    ),
    row(
        &["acosh", "dacosh"],
        &["acosh", "acoshf"],
        Elementwise(&["1/sqrt(x0*x0-1)"]),
    ),
    row(
        &["atanh", "datanh"],
        &["atanh", "atanhf"],
        Elementwise(&["1/(1-x0*x0)"]),
    ),
    row(
        &["exp", "dexp"],
        &["exp", "expf"],
        Elementwise(&["exp(x0)"]),
    ),
    row(&[], &["exp2", "exp2f"], Elementwise(&["log(2.0)*exp2(x0)"])),
    row(&[], &["expm1", "expm1f"], Elementwise(&["exp(x0)"])),
    row(
        &["log", "alog", "dlog"],
        &["log", "logf"],
        Elementwise(&["1/x0"]),
    ),
    row(
        &["log10", "alog10", "dlog10"],
        &["log10", "log10f"],
        Elementwise(&["1/(x0*log(10.0))"]),
    ),
    row(&[], &["log2", "log2f"], Elementwise(&["1/(x0*log(2.0))"])),
    row(&[], &["log1p", "log1pf"], Elementwise(&["1/(1+x0)"])),
    row(
        &["sqrt", "dsqrt"],
        &["sqrt", "sqrtf"],
        Elementwise(&["1/(2*sqrt(x0))"]),
    ),
    row(
        &[],
        &["cbrt", "cbrtf"],
        Elementwise(&["1/(3*cbrt(x0)*cbrt(x0))"]),
    ),
    row(
        &[],
        &["pow", "powf"],
        Elementwise(&["nz(x1, x1*x0**(x1-1))", "pos(x0, x0**x1*log(x0))"]),
    ),
    row(
        &["abs", "dabs"],
        &["fabs", "fabsf"],
        Elementwise(&["sgn(x0)"]),
    ),
    row(
        &["sign", "dsign"],
        &["copysign", "copysignf"],
        Elementwise(&["sgn(x0)*sgn(x1)"]),
    ),
    row(
        &["min", "amin1", "dmin1"],
        &["fmin", "fminf"],
        Select { max: false },
    ),
    row(
        &["max", "amax1", "dmax1"],
        &["fmax", "fmaxf"],
        Select { max: true },
    ),
    row(
        &["mod", "amod", "dmod"],
        &["fmod", "fmodf"],
        Elementwise(&["1", "-trunc(x0/x1)"]),
    ),
    row(
        &["hypot"],
        &["hypot", "hypotf"],
        Elementwise(&["x0/hypot(x0,x1)", "x1/hypot(x0,x1)"]),
    ),
    row(
        &["erf", "derf"],
        &["erf", "erff"],
        Elementwise(&["2*exp(-(x0*x0))/sqrt(pi)"]),
    ),
    row(
        &["erfc", "derfc"],
        &["erfc", "erfcf"],
        Elementwise(&["-(2*exp(-(x0*x0))/sqrt(pi))"]),
    ),
    row(
        &["gamma", "dgamma"],
        &["tgamma", "tgammaf"],
        Elementwise(&["gamma(x0)*psi(x0)"]),
    ),
    row(
        &["log_gamma", "lgamma", "algama", "dlgama"],
        &["lgamma", "lgammaf"],
        Elementwise(&["psi(x0)"]),
    ),
    row(
        &["dble", "real", "float", "sngl", "dfloat"],
        &[],
        Elementwise(&["1"]),
    ),
    // F77 `dprod(a, b)`: the double-precision product of two default reals.
    row(&["dprod"], &[], Elementwise(&["dble(x1)", "dble(x0)"])),
    row(&["sum"], &[], Linear),
    row(&["transpose"], &[], Linear),
    row(&["spread"], &[], Linear),
    row(&["reshape"], &[], Linear),
    row(&["dot_product"], &[], Bilinear),
    row(&["matmul"], &[], Bilinear),
    row(&["maxval"], &[], Extremum { max: true }),
    row(&["minval"], &[], Extremum { max: false }),
    row(&["product"], &[], Product),
];

const fn row(fortran: &'static [&'static str], c: &'static [&'static str], rule: Rule) -> Row {
    Row { fortran, c, rule }
}

/// The row for an intrinsic name (lower-cased) in a language.
pub fn lookup(name: &str, c: bool) -> Option<&'static Row> {
    let found = TABLE.iter().find(|r| {
        let names = if c { r.c } else { r.fortran };
        names.contains(&name)
    });
    // C's `long double` spellings (`sqrtl`, `powl`): the row of the `double` one, whose
    // partials are written in `long double` (`instantiate` at kind 16).
    match (found, c, name.strip_suffix('l')) {
        (None, true, Some(base)) if TABLE.iter().any(|r| r.c.first() == Some(&base)) => {
            lookup(base, true)
        }
        _ => found,
    }
}

/// A parsed partial-derivative template.
#[derive(Clone, Debug, PartialEq)]
pub enum Tpl {
    /// Argument `xᵢ`.
    Arg(usize),
    /// An integer or real constant as written.
    Num(String),
    /// π in the argument's kind.
    Pi,
    /// A function of the neutral syntax (`cos`, `sgn`, `trunc`, `psi`).
    Call(String, Vec<Tpl>),
    /// Unary minus.
    Neg(Box<Tpl>),
    /// Binary operation: one of `+ - * / **`.
    Bin(char, Box<Tpl>, Box<Tpl>),
}

/// The parsed template of a partial of [`TABLE`], parsed once per process: the tangent and
/// adjoint instantiate a partial for every intrinsic call they differentiate, and parsing it
/// there each time was 3% of `-b` on straight-line code.
pub fn parsed(p: &'static str) -> std::borrow::Cow<'static, Tpl> {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    static PARSED: OnceLock<HashMap<&'static str, Tpl>> = OnceLock::new();
    let all = PARSED.get_or_init(|| {
        let mut m = HashMap::new();
        for r in TABLE {
            if let Rule::Elementwise(ps) = r.rule {
                for &q in ps {
                    m.entry(q).or_insert_with(|| parse(q));
                }
            }
        }
        m
    });
    match all.get(p) {
        Some(t) => std::borrow::Cow::Borrowed(t),
        // Not a partial of the table: parsed here.
        None => std::borrow::Cow::Owned(parse(p)),
    }
}

/// Parses a template (the table is static and tested, so a malformed one is a bug).
pub fn parse(s: &str) -> Tpl {
    let toks = lex(s);
    let mut p = Parser { toks, pos: 0 };
    let t = p.sum();
    assert!(p.pos == p.toks.len(), "trailing input in template `{s}`");
    t
}

fn lex(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let cs: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
            let st = i;
            while i < cs.len() && (cs[i].is_ascii_alphanumeric() || cs[i] == '.' || cs[i] == '_') {
                i += 1;
            }
            out.push(cs[st..i].iter().collect());
        } else if c == '*' && cs.get(i + 1) == Some(&'*') {
            out.push("**".into());
            i += 2;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

struct Parser {
    toks: Vec<String>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|s| s.as_str())
    }
    fn next(&mut self) -> String {
        self.pos += 1;
        self.toks[self.pos - 1].clone()
    }
    fn sum(&mut self) -> Tpl {
        let mut l = self.product();
        while let Some(op @ ("+" | "-")) = self.peek() {
            let op = op.chars().next().unwrap_or('+');
            self.pos += 1;
            let r = self.product();
            l = Tpl::Bin(op, Box::new(l), Box::new(r));
        }
        l
    }
    fn product(&mut self) -> Tpl {
        let mut l = self.unary();
        while let Some(op @ ("*" | "/")) = self.peek() {
            let op = op.chars().next().unwrap_or('*');
            self.pos += 1;
            let r = self.unary();
            l = Tpl::Bin(op, Box::new(l), Box::new(r));
        }
        l
    }
    fn unary(&mut self) -> Tpl {
        if self.peek() == Some("-") {
            self.pos += 1;
            return Tpl::Neg(Box::new(self.unary()));
        }
        let b = self.atom();
        if self.peek() == Some("**") {
            self.pos += 1;
            let e = self.unary();
            return Tpl::Bin('^', Box::new(b), Box::new(e));
        }
        b
    }
    fn atom(&mut self) -> Tpl {
        let t = self.next();
        if t == "(" {
            let e = self.sum();
            let close = self.next();
            assert_eq!(close, ")");
            return e;
        }
        if let Some(i) = t.strip_prefix('x').and_then(|d| d.parse::<usize>().ok()) {
            return Tpl::Arg(i);
        }
        if t == "pi" {
            return Tpl::Pi;
        }
        if t.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return Tpl::Num(t);
        }
        assert_eq!(self.next(), "(", "call expected in template");
        let mut args = vec![self.sum()];
        while self.peek() == Some(",") {
            self.pos += 1;
            args.push(self.sum());
        }
        assert_eq!(self.next(), ")");
        Tpl::Call(t, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses_and_uses_only_its_arguments() {
        for r in TABLE {
            if let Rule::Elementwise(ps) = r.rule {
                for p in ps {
                    let t = parse(p);
                    let mut max = 0;
                    walk(&t, &mut |x| {
                        if let Tpl::Arg(i) = x {
                            max = max.max(*i + 1);
                        }
                    });
                    assert!(max <= 2, "{p}");
                }
            }
        }
        assert_eq!(
            parse("-(x0/(x0*x0+x1*x1))"),
            Tpl::Neg(Box::new(Tpl::Bin(
                '/',
                Box::new(Tpl::Arg(0)),
                Box::new(Tpl::Bin(
                    '+',
                    Box::new(Tpl::Bin('*', Box::new(Tpl::Arg(0)), Box::new(Tpl::Arg(0)))),
                    Box::new(Tpl::Bin('*', Box::new(Tpl::Arg(1)), Box::new(Tpl::Arg(1))))
                ))
            )))
        );
    }

    fn walk(t: &Tpl, f: &mut dyn FnMut(&Tpl)) {
        f(t);
        match t {
            Tpl::Call(_, a) => a.iter().for_each(|x| walk(x, f)),
            Tpl::Neg(a) => walk(a, f),
            Tpl::Bin(_, a, b) => {
                walk(a, f);
                walk(b, f)
            }
            Tpl::Arg(_) | Tpl::Num(_) | Tpl::Pi => {}
        }
    }

    #[test]
    fn names_are_unique_per_language() {
        let mut seen = std::collections::HashSet::new();
        for r in TABLE {
            for n in r.fortran {
                assert!(seen.insert(("f", *n)), "{n}");
            }
            for n in r.c {
                assert!(seen.insert(("c", *n)), "{n}");
            }
        }
    }

    /// Every C spelling of the table is a `math.h` function of the one list of known C
    /// library functions (`radtap_il::clib`): a spelling missing there would make its calls
    /// unknown routines, refused where the table has their derivative.
    #[test]
    fn every_c_spelling_is_a_known_library_function() {
        use radtap_il::clib::{c_library, CLibrary};
        for r in TABLE {
            for n in r.c {
                assert_eq!(c_library(n), Some(CLibrary::Math), "{n}");
            }
        }
    }
}
