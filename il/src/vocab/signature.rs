//! Argument signatures of the vocabulary's records (`super`): the compact text of
//! [`Routine::sig`] parsed once per process into a typed [`Signature`] (the syntax is in the
//! vocabulary's module documentation).

use super::records::ROUTINES;
use super::types::Routine;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// What a routine does with an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read only.
    In,
    /// Written only (its value on entry is not read).
    Out,
    /// Read and written.
    InOut,
}

/// The type an argument may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgType {
    /// Real (C `double`, `float`, `long double`).
    Real,
    /// Integer (C `int`, `long`, `size_t`, `clock_t`, …).
    Integer,
    /// Logical.
    Logical,
    /// Character (C `char`; with [`Param::pointer`] a C string).
    Character,
    /// Complex.
    Complex,
    /// Real or complex (Fortran `sin`, `exp`, `sqrt`, `precision`).
    Floating,
    /// Integer or real.
    Numeric,
    /// Integer, real or complex.
    Number,
    /// Any type (derived types, `FILE`, `va_list`, `type(c_ptr)`, `void`).
    Any,
}

impl ArgType {
    /// Whether a value of this type may carry a derivative: anything but an integer, a
    /// logical or a character (`sum`'s `dim` and `mask`, `real`'s `kind`, never `reshape`'s
    /// `pad`).
    pub fn differentiable(self) -> bool {
        !matches!(
            self,
            ArgType::Integer | ArgType::Logical | ArgType::Character
        )
    }
}

/// The shape an argument may have (for a result: the shape it has).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgRank {
    /// A scalar.
    Scalar,
    /// A scalar, or an array conformable with the other elemental arguments (a result:
    /// the shape of the elemental arguments).
    Elemental,
    /// An array of any rank (a result: a rank given by the arguments, scalar included, as
    /// `sum(a, dim)`).
    Array,
    /// Exactly that rank (`transpose`'s matrix: 2).
    Rank(u8),
    /// A scalar or an array of any rank, not elemental (inquiries such as `kind(x)`,
    /// `present(a)`, `transfer`'s source).
    Any,
}

/// One dummy argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its keyword (Fortran) or its name in C99/POSIX (C-only records).
    pub name: &'static str,
    /// What the routine does with it.
    pub access: Access,
    /// Its type.
    pub ty: ArgType,
    /// Its shape.
    pub rank: ArgRank,
    /// May be absent.
    pub optional: bool,
    /// C: passed as a pointer (`int*`): `Out`/`InOut` means written through it.
    pub pointer: bool,
}

/// The type of a function's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultType {
    /// The first argument's type and kind (with the [`REAL`](super::REAL) flag, a complex
    /// first argument gives a real of its kind: `abs`).
    Same,
    /// Real.
    Real,
    /// Integer.
    Integer,
    /// Logical.
    Logical,
    /// Character.
    Character,
    /// Complex.
    Complex,
    /// Depends on the arguments otherwise, or is a derived type (`type(c_ptr)`).
    Any,
}

/// The parsed signature of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The dummy arguments, in order.
    pub params: Vec<Param>,
    /// The last param repeats (`min`/`max`'s `a3`, `a4`, …; C `...`).
    pub variadic: bool,
    /// The result's type and shape; `None` for a Fortran intrinsic subroutine or a C `void`
    /// function.
    pub result: Option<(ResultType, ArgRank)>,
    /// C: the result is a pointer (`malloc`, `strcpy`, `fopen`).
    pub pointer_result: bool,
}

impl Signature {
    /// For each actual argument (keyword as written, or `None` for positional), the index of
    /// the param it binds to (positional in order, then keywords matched case-insensitively);
    /// `None` for an actual that binds to nothing (too many, unknown keyword, a positional
    /// after a keyword, a second actual for the same param). Actuals past the last param of
    /// a variadic signature bind to it, and so do keywords continuing its numbering (`a4` for
    /// `min`'s `a3`). Where the standard gives two forms told apart by type (`sum(array,
    /// mask)` and `sum(array, dim, mask)`), the signature is the one with `dim`: a positional
    /// logical second actual is the mask, which the caller decides from its type.
    pub fn bind(&self, keywords: &[Option<&str>]) -> Vec<Option<usize>> {
        let n = self.params.len();
        let mut bound = vec![false; n];
        let mut seen_keyword = false;
        let mut next = 0;
        let mut out = Vec::with_capacity(keywords.len());
        for k in keywords {
            let at = match k {
                None if seen_keyword => None,
                None => {
                    let i = if next < n {
                        Some(next)
                    } else if self.variadic && n > 0 {
                        Some(n - 1)
                    } else {
                        None
                    };
                    next += 1;
                    i
                }
                Some(k) => {
                    seen_keyword = true;
                    self.keyword(k)
                }
            };
            let at = at.filter(|&i| {
                let repeats = self.variadic && i + 1 == n;
                let free = !bound[i] || repeats;
                bound[i] = true;
                free
            });
            out.push(at);
        }
        out
    }

    /// The param keyword `k` names, case-insensitively.
    fn keyword(&self, k: &str) -> Option<usize> {
        if let Some(i) = self
            .params
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(k))
        {
            return Some(i);
        }
        // `a5` continues the numbering of a variadic `a3`.
        let last = self.params.len().checked_sub(1).filter(|_| self.variadic)?;
        let (stem, first) = numbered(self.params[last].name)?;
        let (kstem, kn) = numbered(k)?;
        (kstem.eq_ignore_ascii_case(stem) && kn >= first).then_some(last)
    }

    /// How many params lead the list without being optional (the standard puts every
    /// required argument before the optional ones).
    pub fn required(&self) -> usize {
        self.params.iter().take_while(|p| !p.optional).count()
    }

    /// Fortran elemental: applied element by element, an array operand gives the shape.
    /// Every param is elemental (but `kind`, a scalar constant: `int(a, kind)`), and the
    /// result, if any (`mvbits` is an elemental subroutine).
    pub fn elemental(&self) -> bool {
        let kind = |p: &Param| p.name == "kind" && p.rank == ArgRank::Scalar;
        self.params.iter().any(|p| p.rank == ArgRank::Elemental)
            && self
                .params
                .iter()
                .all(|p| p.rank == ArgRank::Elemental || kind(p))
            && self.result.is_none_or(|(_, r)| r == ArgRank::Elemental)
    }

    /// C: whether the routine stores through a pointer argument (`frexp`'s `exp`, `modf`'s
    /// `iptr`, `strtod`'s `endptr`): not a pure function.
    pub fn stores_through_pointer(&self) -> bool {
        self.params
            .iter()
            .any(|p| p.pointer && p.access != Access::In)
    }

    /// [`bind`](Signature::bind) for the actual arguments of a call of the IL.
    pub fn bind_args(&self, args: &[crate::Arg]) -> Vec<Option<usize>> {
        let keywords: Vec<Option<&str>> = args.iter().map(|a| a.keyword.as_deref()).collect();
        self.bind(&keywords)
    }

    /// Indices of params written (`Out`/`InOut`).
    pub fn written(&self) -> impl Iterator<Item = usize> + '_ {
        self.params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.access != Access::In)
            .map(|(i, _)| i)
    }
}

/// `a3` → (`a`, 3).
fn numbered(s: &str) -> Option<(&str, u32)> {
    let d = s.find(|c: char| c.is_ascii_digit())?;
    Some((&s[..d], s[d..].parse().ok()?))
}

/// Every record's signature, indexed like [`ROUTINES`], and by its text.
struct Sigs {
    by_index: Vec<Signature>,
    by_text: HashMap<&'static str, usize>,
}

fn sigs() -> &'static Sigs {
    static SIGS: OnceLock<Sigs> = OnceLock::new();
    SIGS.get_or_init(|| {
        let mut by_text = HashMap::new();
        let by_index = ROUTINES
            .iter()
            .enumerate()
            .map(|(i, r)| {
                by_text.entry(r.sig).or_insert(i);
                parse_record(r)
            })
            .collect();
        Sigs { by_index, by_text }
    })
}

/// The signature of every record, indexed like [`ROUTINES`] (parsed once per process).
pub fn signatures() -> &'static [Signature] {
    &sigs().by_index
}

/// The parsed signature of record `r`; a malformed one panics with the record's name (the
/// records are static and tested, so it is a bug).
pub fn parse_record(r: &Routine) -> Signature {
    parse_signature(r.sig).unwrap_or_else(|e| {
        let name = r.fortran.first().or(r.c.first()).unwrap_or(&"?");
        panic!("vocabulary record `{name}`: signature `{}`: {e}", r.sig)
    })
}

impl Routine {
    /// Whether the routine is elemental (its signature says: [`Signature::elemental`]).
    pub fn elemental(&self) -> bool {
        self.signature().elemental()
    }

    /// The record's argument signature, parsed once per process.
    pub fn signature(&self) -> &'static Signature {
        let s = sigs();
        if let Some(&i) = s.by_text.get(self.sig) {
            return &s.by_index[i];
        }
        // A record built elsewhere than `ROUTINES`: parsed once, kept for the process.
        static OTHERS: OnceLock<Mutex<HashMap<&'static str, &'static Signature>>> = OnceLock::new();
        let mut m = OTHERS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        m.entry(self.sig)
            .or_insert_with(|| Box::leak(Box::new(parse_record(self))))
    }
}

/// Parses a signature (syntax in the vocabulary's module documentation).
pub fn parse_signature(s: &'static str) -> Result<Signature, String> {
    let (params_text, result_text) = match s.split_once("->") {
        Some((p, r)) => (p, Some(r)),
        None => (s, None),
    };
    let mut params: Vec<Param> = Vec::new();
    let mut variadic = false;
    if !params_text.trim().is_empty() {
        for p in top_level(params_text) {
            if variadic {
                return Err("only the last param may repeat (`...`)".into());
            }
            let p = p.trim();
            if p == "..." {
                // C `...`: any number of arguments of any type.
                variadic = true;
                params.push(Param {
                    name: "arg",
                    access: Access::In,
                    ty: ArgType::Any,
                    rank: ArgRank::Scalar,
                    optional: true,
                    pointer: false,
                });
                continue;
            }
            let (p, repeats) = match p.strip_suffix("...") {
                Some(q) => (q.trim_end(), true),
                None => (p, false),
            };
            variadic = repeats;
            params.push(param(p)?);
        }
    }
    for (i, p) in params.iter().enumerate() {
        if params[..i]
            .iter()
            .any(|q| q.name.eq_ignore_ascii_case(p.name))
        {
            return Err(format!("param `{}` twice", p.name));
        }
    }
    let (result, pointer_result) = match result_text {
        None => (None, false),
        Some(r) => {
            let (ty, rank, pointer) = typed(r.trim())?;
            (Some((result_type(ty)?, rank)), pointer)
        }
    };
    Ok(Signature {
        params,
        variadic,
        result,
        pointer_result,
    })
}

/// `s` split at its commas outside parentheses (a rank `(:,:)` has commas).
fn top_level(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// `name[?]: [out |inout ]type[rank][*]`.
fn param(p: &'static str) -> Result<Param, String> {
    let (name, rest) = p
        .split_once(':')
        .ok_or_else(|| format!("`{p}`: `name: type` expected"))?;
    let name = name.trim();
    let (name, optional) = match name.strip_suffix('?') {
        Some(n) => (n, true),
        None => (name, false),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{p}`: bad name `{name}`"));
    }
    let rest = rest.trim();
    let (access, rest) = if let Some(r) = rest.strip_prefix("inout ") {
        (Access::InOut, r)
    } else if let Some(r) = rest.strip_prefix("out ") {
        (Access::Out, r)
    } else {
        (Access::In, rest)
    };
    let (ty, rank, pointer) = typed(rest.trim())?;
    let ty = arg_type(ty).ok_or_else(|| format!("`{p}`: unknown type `{ty}`"))?;
    Ok(Param {
        name,
        access,
        ty,
        rank,
        optional,
        pointer,
    })
}

/// `type[rank][*]` → (type word, rank, pointer).
fn typed(t: &str) -> Result<(&str, ArgRank, bool), String> {
    let (t, pointer) = match t.strip_suffix('*') {
        Some(u) => (u.trim_end(), true),
        None => (t, false),
    };
    let (word, rank) = match t.split_once('(') {
        None => (t, ArgRank::Scalar),
        Some((w, r)) => {
            let r = r
                .strip_suffix(')')
                .ok_or_else(|| format!("`{t}`: `)` expected"))?;
            let rank = match r.trim() {
                ".." => ArgRank::Elemental,
                "*" => ArgRank::Array,
                "any" => ArgRank::Any,
                colons => {
                    let dims: Vec<&str> = colons.split(',').map(str::trim).collect();
                    if !dims.iter().all(|d| *d == ":") || dims.len() > 15 {
                        return Err(format!("`{t}`: unknown rank `({r})`"));
                    }
                    ArgRank::Rank(dims.len() as u8)
                }
            };
            (w.trim(), rank)
        }
    };
    Ok((word, rank, pointer))
}

fn arg_type(w: &str) -> Option<ArgType> {
    Some(match w {
        "real" => ArgType::Real,
        "integer" => ArgType::Integer,
        "logical" => ArgType::Logical,
        "character" => ArgType::Character,
        "complex" => ArgType::Complex,
        "floating" => ArgType::Floating,
        "numeric" => ArgType::Numeric,
        "number" => ArgType::Number,
        "any" => ArgType::Any,
        _ => return None,
    })
}

fn result_type(w: &str) -> Result<ResultType, String> {
    Ok(match w {
        "same" => ResultType::Same,
        "real" => ResultType::Real,
        "integer" => ResultType::Integer,
        "logical" => ResultType::Logical,
        "character" => ResultType::Character,
        "complex" => ResultType::Complex,
        "any" => ResultType::Any,
        _ => return Err(format!("unknown result type `{w}`")),
    })
}

#[cfg(test)]
mod tests;
