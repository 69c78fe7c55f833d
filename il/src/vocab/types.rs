//! The types of the vocabulary's records (`super`).

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
    /// `norm2(a)`: `Σ ȧᵢ aᵢ / norm2(a)`, zero where `a = 0` (where the norm has no derivative).
    Norm2,
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
    /// A Fortran spelling the generators know but the frontend does not resolve an
    /// undeclared name to (GNU and intrinsic-module procedures: `zlog`, `ieee_is_nan`).
    pub const NOT_INTRINSIC: u32 = 1 << 13;
}
pub use flags::*;

/// What a known C library function does, for the analyses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CLibrary {
    /// `math.h`: reads its arguments only (a `frexp`/`modf`/`remquo` pointer argument gets
    /// a discrete or piecewise-constant part); differentiable where the derivative table has
    /// a row, refused with AD020 ("no derivative rule") otherwise.
    Math,
    /// Never carries a derivative: I/O on text, strings, clocks, random numbers, process
    /// control. Its results and what it writes are new values.
    Passive,
    /// `malloc`, `calloc`, `realloc`, `free`: fresh memory (the analyses' allocation sites).
    Memory,
    /// `memcpy`, `memmove`, `memset`: modelled by the analyses (`dataflow` `copy_through`)
    /// and rewritten into loops where they copy reals (`il::memcpy`).
    Copy,
}

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
    /// The argument signature, in the vocabulary's compact syntax (module documentation of
    /// `vocab`); parsed once per process by [`Routine::signature`].
    pub sig: &'static str,
}

impl Routine {
    /// What the C library function of this record does, if it is one (`clib`).
    pub fn library_kind(&self) -> Option<CLibrary> {
        if self.flags & (MATH | MATH1) != 0 {
            Some(CLibrary::Math)
        } else if self.has(PASSIVE) {
            Some(CLibrary::Passive)
        } else if self.has(MEMORY) {
            Some(CLibrary::Memory)
        } else if self.has(COPY) {
            Some(CLibrary::Copy)
        } else {
            None
        }
    }

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
                Rule::Bilinear
                | Rule::Select { .. }
                | Rule::Extremum { .. }
                | Rule::Product
                | Rule::Norm2,
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
