//! What the driver allocates and fills, as [`describe_with`](super::describe_with) gives it:
//! the [`Head`] (its language, arguments in order, integer inputs, globals, warnings), each
//! real argument flattened to element accesses ([`RealArg`]), each argument set to fixed
//! values ([`FixedArg`]), where a global lives ([`GlobalHome`], [`CommonBlock`]).

use radtap_il::*;

/// One real head argument (or the function result), flattened to element accesses.
pub struct RealArg {
    /// The driver's variable (the argument's name; a fresh name for the function result).
    pub name: String,
    /// What the report calls it: the argument's name, or the function's for its result.
    pub label: String,
    /// The derivative argument that follows it, if any.
    pub deriv: Option<String>,
    /// Element access suffixes: `(1,2)` / `[1][2]`, `%f(3)` / `.f[2]`.
    pub elems: Vec<String>,
    /// Extents (declaration), in the language's order.
    pub extents: Vec<(i64, i64)>,
    /// The record type's name, for derived-type / struct arguments.
    pub record: Option<String>,
    pub c_pointer: bool,
    pub assumed_shape: bool,
    pub indep: bool,
    pub dep: bool,
    /// A global independent or dependent: how the driver reaches it (`None` for arguments
    /// and the result).
    pub home: Option<GlobalHome>,
    /// The values from `-value` (or `-context`): one for every element, or one per element
    /// (else the pseudo-random sequence).
    pub value: Option<Vec<f64>>,
    /// Elements of a record argument whose member the derivative type does not have (a
    /// member no derivative flows through).
    pub passive: Vec<String>,
    /// The derivative cannot clear this argument's derivative on entry, its extent unknown
    /// (AD061): the driver passes zeros there, as the warning asks, not the poison value.
    pub zero_in: bool,
}

impl RealArg {
    /// Whether element `e` (an `elems` suffix) has a derivative to set or read.
    pub fn has_deriv(&self, e: &str) -> bool {
        self.deriv.is_some() && !self.passive.iter().any(|p| p == e)
    }

    /// The `-value` of element `j` (in `elems` order), if given.
    pub fn given(&self, j: usize) -> Option<f64> {
        match self.value.as_deref() {
            Some([v]) => Some(*v),
            Some(vs) => vs.get(j).copied(),
            None => None,
        }
    }
}

/// An argument the driver sets to fixed values and never differentiates: logical,
/// character, integer array (or C pointer to integers).
pub struct FixedArg {
    pub name: String,
    /// Fortran type (`logical`, `integer`, `character(len=8)`).
    pub fty: String,
    /// C type of one element (`int`, `char`, `_Bool`).
    pub cty: String,
    pub extents: Vec<(i64, i64)>,
    pub elems: Vec<String>,
    /// The literal assigned to each element.
    pub init: Vec<String>,
    pub c_pointer: bool,
    pub assumed_shape: bool,
}

/// How the driver reaches a global independent or dependent.
#[derive(Clone, Debug, PartialEq)]
pub enum GlobalHome {
    /// A C global: the driver includes the generated file, which declares it and its
    /// derivative.
    C,
    /// A module variable and its derivative (in the derivative module), imported under the
    /// driver's names (`use m, only: name => var`).
    Module {
        module: String,
        var: String,
        dmodule: String,
        dvar: String,
    },
    /// A COMMON member: the driver declares the block ([`Head::commons`]).
    Common,
}

/// A COMMON block the driver declares to reach global independents or dependents in it,
/// and its derivative block (which mirrors it member for member).
pub struct CommonBlock {
    /// `None` for blank COMMON.
    pub block: Option<String>,
    pub dblock: String,
    /// Each member: (Fortran type, dimensions such as `(1:3)` or empty, the driver's name
    /// for it, the driver's name for its derivative).
    pub members: Vec<(String, String, String, String)>,
}

/// The head as the driver sees it.
pub struct Head {
    pub lang: Lang,
    pub name: String,
    pub module: Option<String>,
    /// Arguments in order: `Int(name, value)` or a real/record argument.
    pub args: Vec<HeadArg>,
    pub result: Option<RealArg>,
    /// Global independents and dependents (COMMON, module variables, C globals), filled and
    /// printed like arguments after them.
    pub globals: Vec<RealArg>,
    /// The COMMON blocks (and derivative blocks) the driver declares for `globals`.
    pub commons: Vec<CommonBlock>,
    /// What the driver was told that it took differently (`-size` on a real scalar).
    pub warnings: Vec<String>,
    /// The driver's variable for the result's derivative (where the scalar tangent's
    /// returned value goes even when the result has no derivative).
    pub result_sink: String,
    /// The C type of the driver's variable for the result: `double`, or the integer type of
    /// a C function returning a status (`int`), whose result is no dependent.
    pub result_ctype: String,
    pub iface: radtap_diff_tangent::Interface,
}

pub enum HeadArg {
    Int(String, i64),
    Real(RealArg),
    Fixed(FixedArg),
}

impl Head {
    /// The real arguments, the globals and the function result.
    pub fn real_args(&self) -> impl Iterator<Item = &RealArg> {
        self.inputs().chain(self.result.iter())
    }

    /// The real arguments and globals the driver fills (not the function result).
    pub fn inputs(&self) -> impl Iterator<Item = &RealArg> {
        self.args
            .iter()
            .filter_map(|a| match a {
                HeadArg::Real(r) => Some(r),
                HeadArg::Int(..) | HeadArg::Fixed(_) => None,
            })
            .chain(self.globals.iter())
    }
}

impl Head {
    /// Rejects `-value` names that are neither an argument nor a global independent or
    /// dependent of the head (a bad command line).
    pub fn check_values(&self, values: &[(String, String)]) -> Result<(), String> {
        for (n, v) in values {
            let known = self.args.iter().any(|a| match a {
                HeadArg::Int(x, _) => x.eq_ignore_ascii_case(n),
                HeadArg::Real(r) => r.name.eq_ignore_ascii_case(n),
                HeadArg::Fixed(f) => f.name.eq_ignore_ascii_case(n),
            }) || self.globals.iter().any(|g| g.label.eq_ignore_ascii_case(n));
            if !known {
                return Err(format!(
                    "-value {n}={v}: `{n}` is neither an argument of `{}` nor one of its global independents or dependents",
                    self.name
                ));
            }
        }
        Ok(())
    }
}
