//! The vocabulary: one record per routine radtap knows by name, read by every crate.
//!
//! A record ([`Routine`]) holds everything the pipeline needs to know about an intrinsic or a
//! C library function: its spellings (Fortran generic first, then the F77 specifics; C in
//! its `double` spelling, the `float` and `long double` ones `sinf`/`sinl` following from
//! [`MATH`]), what kind of library function it is for C (read by `clib`), how derivatives
//! flow through it ([`Flow`], derived from the rule, read by the data-flow analyses), its
//! derivative rule ([`Deriv`]: partials, linear, a rule of its own in the generators, zero,
//! or none), and its properties as [`flags`](Routine::flags) (elemental, result of the first
//! argument's type, holomorphic, complex or real result, cheap to recompute), and its
//! argument signature (below: what it reads and writes, and binds keyword arguments). Each question other crates used to answer with a list of their own
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
//! Each record has its argument signature ([`Routine::signature`], a [`Signature`] parsed
//! once per process from the record's text [`Routine::sig`]): the dummy arguments with their
//! Fortran keywords (Fortran 2008 §13.7, for the generic; F77 specifics share it) or C99/POSIX
//! names (C-only records), what the routine does with each, their types and shapes, and the
//! result's. The syntax, one record's text:
//!
//! ```text
//! signature := [param {, param}] [-> result]      (no `->`: a subroutine or C `void`)
//! param     := name[?]: [out |inout ]type[rank][*][...]  |  ...
//! result    := type[rank][*]                      (type may also be `same`)
//! type      := real | integer | logical | character | complex
//!            | floating (real or complex) | numeric (integer or real)
//!            | number (integer, real or complex) | any
//! rank      := (none) scalar | (..) elemental | (*) array of any rank
//!            | (any) scalar or array of any rank | (:) rank 1 | (:,:) rank 2 | …
//! ```
//!
//! `?` marks an optional argument, `out`/`inout` one the routine writes (read only without),
//! `*` a C pointer (`out integer*`: written through it), a trailing `...` a last param that
//! repeats (`min`'s `a3?: numeric(..)...`), and a bare `...` C's variadic arguments (an
//! optional repeating `arg: any`). A result rank `(..)` is the elemental arguments' shape,
//! `(*)` a rank the arguments decide (`sum(a, dim)`); `same` is the first argument's type
//! and kind. Examples: `sin` `x: floating(..) -> same(..)`, `frexp` `value: real, exp: out
//! integer* -> real`, `printf` `format: character*, ... -> integer`, `cpu_time` `time: out
//! real`. [`Signature::bind`] binds actual arguments (positional, then keywords) to params.
//!
//! Adding an intrinsic is one record in `vocab/records.rs` (with a rule) or
//! `vocab/intrinsics.rs` / `vocab/c_library.rs` (without) plus its numeric cases in
//! `tests/intrinsics.rs` (docs/decisions.md, "The vocabulary").

use crate::Lang;
use std::collections::HashMap;
use std::sync::OnceLock;

mod c_library;
mod intrinsics;
mod make;
mod records;
mod signature;
mod types;
pub use records::ROUTINES;
pub use signature::*;
pub use types::*;

/// Spelling → index in [`ROUTINES`], per language, built once.
fn index() -> &'static [HashMap<String, usize>; 2] {
    static INDEX: OnceLock<[HashMap<String, usize>; 2]> = OnceLock::new();
    INDEX.get_or_init(|| {
        let (mut f, mut c) = (HashMap::new(), HashMap::new());
        for (i, r) in ROUTINES.iter().enumerate() {
            for &n in r.fortran {
                f.entry(n.to_string()).or_insert(i);
            }
            for n in r.c_spellings() {
                c.entry(n).or_insert(i);
            }
        }
        [f, c]
    })
}

fn lang_index(lang: Lang) -> &'static HashMap<String, usize> {
    &index()[match lang {
        Lang::Fortran => 0,
        Lang::C => 1,
    }]
}

/// The index in [`ROUTINES`] of `name` (lower case) in `lang`. In C, GCC's builtin
/// `__builtin_f` of a `math.h` function `f` (what `isnan(x)` or `NAN` expand to) is `f`.
fn position(name: &str, lang: Lang) -> Option<usize> {
    let index = lang_index(lang);
    if let Some(&i) = index.get(name) {
        return Some(i);
    }
    let f = name
        .strip_prefix("__builtin_")
        .filter(|_| lang == Lang::C)?;
    let &i = index.get(f)?;
    (ROUTINES[i].flags & (MATH | MATH1) != 0).then_some(i)
}

/// The record of `name` (lower case) in `lang`.
pub fn lookup(name: &str, lang: Lang) -> Option<&'static Routine> {
    position(name, lang).map(|i| &ROUTINES[i])
}

/// A record of [`ROUTINES`], by its index: what the IL holds for a known routine
/// ([`RoutineRef`]) and what consumers compare instead of names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoutineId(u16);

const _: () = assert!(ROUTINES.len() <= u16::MAX as usize, "a RoutineId is a u16");

impl RoutineId {
    /// The record.
    pub fn routine(self) -> &'static Routine {
        &ROUTINES[self.0 as usize]
    }

    /// The record's argument signature ([`Routine::signature`], by index).
    pub fn signature(self) -> &'static Signature {
        &signatures()[self.0 as usize]
    }

    /// Whether this is the record of one of the Fortran spellings `gs` (a record's generic
    /// name stands for all its spellings: `real` for `dble`, `float`, `sngl`, `dfloat`).
    /// Each of `gs` must be a spelling of the vocabulary. A Fortran spelling names one
    /// record (`names_are_unique_per_language`), so this is `id_of(g) == self` for some `g`,
    /// asked of the record's own few spellings rather than of the index (the adjoint asks it
    /// of every call of an expression it ranks).
    pub fn is_one_of(self, gs: &[&str]) -> bool {
        let spellings = self.routine().fortran;
        gs.iter().any(|g| {
            debug_assert!(
                id_of(g, Lang::Fortran).is_some(),
                "`{g}` is not in the vocabulary"
            );
            spellings.contains(g)
        })
    }

    /// Whether this is the record of the C function `name`, in its `double` spelling (which
    /// stands for the `float` and `long double` ones): `is_c("memcpy")`, `is_c("free")`.
    pub fn is_c(self, name: &str) -> bool {
        debug_assert!(
            id_of(name, Lang::C).is_some(),
            "`{name}` is not in the vocabulary"
        );
        self.routine().c.contains(&name)
    }
}

/// The id of the record of `name` (lower case) in `lang`.
pub fn id_of(name: &str, lang: Lang) -> Option<RoutineId> {
    position(name, lang).map(|i| RoutineId(i as u16))
}

/// A typed callee ([`Expr::Intrinsic`](crate::Expr::Intrinsic)): the record called and the
/// spelling written (one of the record's spellings in the unit's language: `dsin`, `sinf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoutineRef {
    /// The record.
    pub id: RoutineId,
    /// The spelling written.
    pub spelling: &'static str,
}

impl RoutineRef {
    /// The record.
    pub fn routine(self) -> &'static Routine {
        self.id.routine()
    }
}

/// The typed callee for `name` as spelled in `lang` (exactly a spelling of a record: lower
/// case), or `None` for a name the vocabulary does not hold.
pub fn resolve(name: &str, lang: Lang) -> Option<RoutineRef> {
    let (k, &i) = lang_index(lang).get_key_value(name)?;
    Some(RoutineRef {
        id: RoutineId(i as u16),
        spelling: k.as_str(),
    })
}

/// The record of a routine named `spelling` (as written) that the frontends took for an
/// intrinsic: a Fortran intrinsic (any case), or a C library function radtap knows the
/// effects of (C is case-sensitive). The call graph resolves an intrinsic callee by it.
pub fn library_routine(lang: Lang, spelling: &str) -> Option<RoutineId> {
    match lang {
        Lang::Fortran => id_of(&spelling.to_ascii_lowercase(), lang),
        Lang::C => id_of(spelling, lang).filter(|r| r.routine().library_kind().is_some()),
    }
}

/// The record of the routine a callee of unit `u` names, before the call graph exists (or
/// for a call it does not list): an intrinsic symbol, a C library function left opaque, or
/// a typed callee of generated code.
pub fn routine_called(
    prog: &crate::Program,
    u: &crate::UnitData,
    callee: crate::ExprId,
) -> Option<RoutineId> {
    match &u.exprs[callee] {
        crate::Expr::Intrinsic(r) => Some(r.id),
        crate::Expr::Name(s) if prog.symbols[*s].kind == crate::SymbolKind::Intrinsic => {
            library_routine(u.lang, &prog.symbols[*s].spelling)
        }
        crate::Expr::Opaque(n) => library_routine(u.lang, n),
        _ => None,
    }
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
    fn a_routine_id_has_its_record_signature() {
        let abs = id_of("abs", Lang::C).expect("abs");
        assert_eq!(abs.signature(), abs.routine().signature());
        assert_eq!(abs.signature().params[0].name, "j");
        let abs = id_of("abs", Lang::Fortran).expect("abs");
        assert_eq!(abs.signature().params[0].name, "a");
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
}
