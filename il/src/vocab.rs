//! The vocabulary: one record per routine radtap knows by name, read by every crate.
//!
//! A record ([`Routine`]) holds everything the pipeline needs to know about an intrinsic or a
//! C library function: its spellings (Fortran generic first, then the F77 specifics; C in
//! its `double` spelling, the `float` and `long double` ones `sinf`/`sinl` following from
//! [`MATH`]), what kind of library function it is for C ([`crate::clib`]), how derivatives
//! flow through it ([`Flow`], derived from the rule, read by the data-flow analyses), its
//! derivative rule ([`Deriv`]: partials, linear, a rule of its own in the generators, zero,
//! or none), and its properties as [`flags`](Routine::flags) (elemental, result of the first
//! argument's type, holomorphic, complex or real result, cheap to recompute, stores through a
//! pointer argument). Each question other crates used to answer with a list of their own
//! (the frontends' intrinsic names, the effects' classes, generic resolution, hoisting,
//! statement functions, complex support, masked assignments, zero derivatives) is a query on
//! these records, so an analysis and the rule that differentiates a call can no longer
//! disagree because two lists did.
//!
//! Partial derivatives are small expressions over `x0`, `x1`, … (the arguments) in a neutral
//! syntax: `**` is the power, `sgn(a)` is the sign of `a` as a real (Fortran `sign(1.0, a)`,
//! C `copysign(1.0, a)`), `trunc` is Fortran `aint`, `pi` is π in the argument's kind,
//! `nz(c, e)` is `e` where `c ≠ 0` and 0 elsewhere, `pos(c, e)` is `e` where `c > 0` and 0
//! elsewhere (guards for partials that are `0·∞` or `log(0)` at a point where the derivative
//! exists). Tangent mode emits `ẏ = Σ ∂f/∂xᵢ · ẋᵢ`; adjoint mode `x̄ᵢ += ∂f/∂xᵢ · ȳ` from the
//! same records. Every spelling of every record with a rule is checked numerically by
//! `tests/intrinsics.rs` against central finite differences.
//!
//! Adding an intrinsic is one record in `vocab/records.rs` plus its numeric cases in
//! `tests/intrinsics.rs` (ARCHITECTURE.md, "The vocabulary").

use crate::Lang;
use std::collections::HashMap;
use std::sync::OnceLock;

mod records;
pub use records::ROUTINES;

/// How derivatives flow through a call, for the data-flow analyses (activity, TBR,
/// diff-liveness read it through the effects).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Zero derivative (`int`, `floor`, `size`, `maxloc`, comparisons).
    NonDiff,
    /// Linear in its arguments (`real`, `dble`, `sum`, `transpose`, `reshape`).
    Linear,
    /// Nonlinear: each partial reads the arguments (`sin`, `exp`, `min`, `matmul`).
    Nonlinear,
    /// Differentiable in the first argument only (`sign`, `copysign`).
    FirstOnly,
}

/// A derivative rule the generators apply from the record alone.
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

/// How a routine is differentiated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deriv {
    /// By the rule given.
    Rule(Rule),
    /// Zero wherever it exists: integer, logical or piecewise-constant results, inquiries.
    /// An active argument loses nothing.
    Zero,
    /// A rule of its own in the generators (`merge`, `dim`, `cshift`, the complex parts
    /// `cmplx`, `conjg`, `aimag`); the analyses assume the flow given.
    Own(Flow),
    /// No rule: a call reached by an active value is refused at its statement (AD020); the
    /// analyses assume the flow given.
    NoRule(Flow),
}

/// Properties of a routine, as bits of [`Routine::flags`].
pub mod flags {
    /// C `math.h`, with `float` and `long double` spellings (`sinf`, `sinl`).
    pub const MATH: u32 = 1;
    /// C `math.h` (or `stdlib.h` integer `abs`), without `f`/`l` spellings.
    pub const MATH1: u32 = 1 << 1;
    /// C: never carries a derivative (I/O, strings, clocks, random numbers, process control).
    pub const PASSIVE: u32 = 1 << 2;
    /// C allocators (`malloc`, `calloc`, `realloc`, `free`).
    pub const MEMORY: u32 = 1 << 3;
    /// C copies the analyses model (`memcpy`, `memmove`, `memset`).
    pub const COPY: u32 = 1 << 4;
    /// Fortran elemental: applied element by element, an array operand gives the shape.
    pub const ELEMENTAL: u32 = 1 << 5;
    /// Fortran: the result has the type, kind and rank of the first argument (real ones).
    pub const SAME_TYPE: u32 = 1 << 6;
    /// Holomorphic on complex arguments, the partials valid there.
    pub const HOLO: u32 = 1 << 7;
    /// Complex when its first argument is (elementwise functions, array manipulations).
    pub const KEEPS: u32 = 1 << 8;
    /// Complex result whatever the arguments.
    pub const CPLX: u32 = 1 << 9;
    /// Real (or integer, logical) result whatever the arguments.
    pub const REAL: u32 = 1 << 10;
    /// Cheap enough to recompute in its partial (`abs(x)` in `sign(1, x)`).
    pub const CHEAP: u32 = 1 << 11;
    /// C: also stores through a pointer argument (`frexp`, `modf`, `remquo`).
    pub const STORES: u32 = 1 << 12;
    /// A Fortran spelling the generators know but the frontend does not resolve an
    /// undeclared name to (GNU and intrinsic-module procedures: `zlog`, `ieee_is_nan`).
    pub const NOT_INTRINSIC: u32 = 1 << 13;
}
pub use flags::*;

/// One routine radtap knows by name.
#[derive(Clone, Copy, Debug)]
pub struct Routine {
    /// Fortran spellings (lower case): the generic first, then the specifics.
    pub fortran: &'static [&'static str],
    /// C spellings in `double` (the `f` and `l` ones follow from [`MATH`]).
    pub c: &'static [&'static str],
    /// The derivative.
    pub deriv: Deriv,
    /// Properties ([`flags`]).
    pub flags: u32,
}

impl Routine {
    /// Whether the record has all the properties of `f`.
    pub fn has(&self, f: u32) -> bool {
        self.flags & f == f
    }

    /// The rule, for a routine differentiated from its record alone.
    pub fn rule(&self) -> Option<Rule> {
        match self.deriv {
            Deriv::Rule(r) => Some(r),
            Deriv::Zero | Deriv::Own(_) | Deriv::NoRule(_) => None,
        }
    }

    /// How derivatives flow through a call, derived from the rule: partials that are all
    /// constants are linear, one partial of several arguments is the first only.
    pub fn flow(&self) -> Flow {
        match self.deriv {
            Deriv::Rule(Rule::Elementwise(ps)) => {
                if ps
                    .iter()
                    .all(|p| p.chars().all(|c| c.is_ascii_digit() || c == '.'))
                {
                    Flow::Linear
                } else if ps.len() == 1 {
                    Flow::FirstOnly
                } else {
                    Flow::Nonlinear
                }
            }
            Deriv::Rule(Rule::Linear) => Flow::Linear,
            Deriv::Rule(
                Rule::Bilinear | Rule::Select { .. } | Rule::Extremum { .. } | Rule::Product,
            ) => Flow::Nonlinear,
            Deriv::Zero => Flow::NonDiff,
            Deriv::Own(f) | Deriv::NoRule(f) => f,
        }
    }

    /// Every C spelling: `sin`, `sinf`, `sinl`.
    pub fn c_spellings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for &n in self.c {
            out.push(n.to_string());
            if self.has(MATH) {
                out.push(format!("{n}f"));
                out.push(format!("{n}l"));
            }
        }
        out
    }
}

/// Spelling → record, per language, built once.
fn index() -> &'static [HashMap<String, &'static Routine>; 2] {
    static INDEX: OnceLock<[HashMap<String, &'static Routine>; 2]> = OnceLock::new();
    INDEX.get_or_init(|| {
        let (mut f, mut c) = (HashMap::new(), HashMap::new());
        for r in ROUTINES {
            for &n in r.fortran {
                f.entry(n.to_string()).or_insert(r);
            }
            for n in r.c_spellings() {
                c.entry(n).or_insert(r);
            }
        }
        [f, c]
    })
}

/// The record of `name` (lower case) in `lang`.
pub fn lookup(name: &str, lang: Lang) -> Option<&'static Routine> {
    let i = match lang {
        Lang::Fortran => 0,
        Lang::C => 1,
    };
    index()[i].get(name).copied()
}

/// The record of `name` when it has a [`Rule`] (`c`: the C spelling).
pub fn derivative(name: &str, c: bool) -> Option<&'static Routine> {
    lookup(name, if c { Lang::C } else { Lang::Fortran }).filter(|r| r.rule().is_some())
}

/// True for the name of a Fortran intrinsic procedure (lower case): a name used as a
/// function and not declared as an array is one when it is here and not EXTERNAL.
pub fn is_fortran_intrinsic(name: &str) -> bool {
    lookup(name, Lang::Fortran).is_some_and(|r| !r.has(NOT_INTRINSIC))
}

/// Whether `name` in `lang` is a known routine with all the properties of `f`.
pub fn is(name: &str, lang: Lang, f: u32) -> bool {
    lookup(name, lang).is_some_and(|r| r.has(f))
}

/// How derivatives flow through intrinsic `name` (lower case) in `lang`; an unknown name is
/// nonlinear, the conservative choice.
pub fn flow(name: &str, lang: Lang) -> Flow {
    lookup(name, lang).map_or(Flow::Nonlinear, Routine::flow)
}

/// Whether the derivative of intrinsic `name` is zero wherever it exists.
pub fn zero_derivative(name: &str, lang: Lang) -> bool {
    lookup(name, lang).is_some_and(|r| r.deriv == Deriv::Zero)
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

/// The parsed template of a partial of [`ROUTINES`], parsed once per process: the tangent and
/// adjoint instantiate a partial for every intrinsic call they differentiate, and parsing it
/// there each time was 3% of `-b` on straight-line code.
pub fn parsed(p: &'static str) -> std::borrow::Cow<'static, Tpl> {
    static PARSED: OnceLock<HashMap<&'static str, Tpl>> = OnceLock::new();
    let all = PARSED.get_or_init(|| {
        let mut m = HashMap::new();
        for r in ROUTINES {
            if let Some(Rule::Elementwise(ps)) = r.rule() {
                for &q in ps {
                    m.entry(q).or_insert_with(|| parse(q));
                }
            }
        }
        m
    });
    match all.get(p) {
        Some(t) => std::borrow::Cow::Borrowed(t),
        // Not a partial of a record: parsed here.
        None => std::borrow::Cow::Owned(parse(p)),
    }
}

/// Parses a template (the records are static and tested, so a malformed one is a bug).
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
        for r in ROUTINES {
            if let Some(Rule::Elementwise(ps)) = r.rule() {
                for p in ps {
                    let t = parse(p);
                    let mut max = 0;
                    walk(&t, &mut |x| {
                        if let Tpl::Arg(i) = x {
                            max = max.max(*i + 1);
                        }
                    });
                    assert!(max <= 3, "{p}");
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
        for r in ROUTINES {
            for n in r.fortran {
                assert!(seen.insert(("f", n.to_string())), "{n}");
            }
            for n in r.c_spellings() {
                assert!(seen.insert(("c", n.clone())), "{n}");
            }
        }
    }

    /// Every C spelling of a record with a derivative rule is a `math.h` function for
    /// `crate::clib`: one missing there would make its calls unknown routines, refused where
    /// the record has their derivative.
    #[test]
    fn every_differentiable_c_spelling_is_a_math_function() {
        use crate::clib::{c_library, CLibrary};
        for r in ROUTINES.iter().filter(|r| r.rule().is_some()) {
            for n in r.c_spellings() {
                assert_eq!(c_library(&n), Some(CLibrary::Math), "{n}");
            }
        }
    }
}
