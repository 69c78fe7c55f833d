//! Scopes, symbols, their attributes and types, and derived type / record definitions.

use crate::*;
use std::collections::HashMap;

/// What a scope belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// Program-wide scope of external procedures, modules, COMMON blocks, C globals' linkage.
    Global,
    /// A unit's scope.
    Unit(UnitId),
    /// Components of a derived type or struct.
    Type(TypeDefId),
    /// A C compound statement or Fortran BLOCK construct.
    Block,
}

/// A symbol table. Lookup walks `parent`, then `uses`.
#[derive(Debug, Clone)]
pub struct ScopeData {
    /// Owner.
    pub kind: ScopeKind,
    /// Enclosing scope.
    pub parent: Option<ScopeId>,
    /// Names (lower-cased for Fortran) to symbols.
    pub names: HashMap<String, SymbolId>,
    /// Symbols in order of appearance.
    pub order: Vec<SymbolId>,
    /// Modules made visible by `USE`.
    pub uses: Vec<UseImport>,
    /// `IMPLICIT NONE` in force.
    pub implicit_none: bool,
    /// Implicit typing rules: letter index 0..26 to type.
    pub implicit: Vec<Option<TypeSpec>>,
    /// A bare `PRIVATE` statement: only names marked PUBLIC are visible to `USE`.
    pub default_private: bool,
}

/// A `USE` association.
#[derive(Debug, Clone)]
pub struct UseImport {
    /// Lower-cased module name.
    pub module: String,
    /// The module unit when it is part of the program.
    pub unit: Option<UnitId>,
    /// `ONLY:` was given.
    pub only: bool,
    /// `(local, remote)` names as written; with `only` these are the only names visible.
    pub names: Vec<(String, String)>,
}

/// What a symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A variable (or dummy argument, function result, component, C object).
    Variable,
    /// A named constant (Fortran PARAMETER, C enumerator).
    Constant,
    /// A procedure defined in the program or external.
    Procedure,
    /// An intrinsic procedure (Fortran intrinsic, C library function without a body).
    Intrinsic,
    /// A statement function.
    StatementFunction,
    /// A generic interface name.
    Generic,
    /// A module.
    Module,
    /// A COMMON block.
    Common,
    /// A derived type or C struct/union/enum tag, or a C typedef name.
    Type,
    /// A construct name (named DO, IF) or C label.
    Label,
    /// Program name / unit name of a BLOCK DATA.
    UnitName,
    /// A name of which nothing is known yet (resolved later or left opaque).
    Unknown,
}

/// A symbol.
#[derive(Debug, Clone)]
pub struct SymbolData {
    /// Source spelling of the first appearance.
    pub spelling: String,
    /// What it is.
    pub kind: SymbolKind,
    /// Scope it lives in.
    pub scope: ScopeId,
    /// Its type (for variables, constants and function results).
    pub ty: Option<Type>,
    /// Attributes.
    pub attrs: SymAttrs,
    /// Unit defined by this symbol (procedures, modules).
    pub unit: Option<UnitId>,
    /// COMMON block holding this variable, if any.
    pub common: Option<SymbolId>,
    /// Whether the type came from the implicit rules.
    pub implicit_type: bool,
}

impl SymbolData {
    /// A variable named `spelling` of `scope`, with no attributes (a temporary, a new local).
    pub fn variable(spelling: &str, scope: ScopeId, ty: Option<Type>) -> Self {
        SymbolData {
            spelling: spelling.to_string(),
            kind: SymbolKind::Variable,
            scope,
            ty,
            attrs: SymAttrs::default(),
            unit: None,
            common: None,
            implicit_type: false,
        }
    }
}

/// Attributes that matter to analyses and to regenerating declarations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SymAttrs {
    /// INTENT.
    pub intent: Option<Intent>,
    /// Dummy argument of its unit.
    pub dummy: bool,
    /// OPTIONAL.
    pub optional: bool,
    /// ALLOCATABLE.
    pub allocatable: bool,
    /// POINTER (Fortran).
    pub pointer: bool,
    /// TARGET.
    pub target: bool,
    /// SAVE or C `static`.
    pub save: bool,
    /// Passed by value (C scalars, Fortran VALUE).
    pub value: bool,
    /// PARAMETER / C `const`.
    pub constant: bool,
    /// EXTERNAL.
    pub external: bool,
    /// PRIVATE.
    pub private: bool,
    /// PUBLIC (matters under a default `PRIVATE` statement).
    pub public: bool,
}

/// INTENT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// IN.
    In,
    /// OUT.
    Out,
    /// INOUT.
    InOut,
}

/// The semantic type of a symbol or expression: base, rank, pointer depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type {
    /// Base type class and size.
    pub base: BaseClass,
    /// Bytes of one element when known (integer*4 → 4, double → 8).
    pub bytes: Option<u32>,
    /// Array dimensions (Fortran) or C array extents, outermost first.
    pub dims: Vec<Dim>,
    /// C pointer levels.
    pub pointers: u32,
}

/// Semantic class of a base type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BaseClass {
    /// Any integer (C char/short/int/long, Fortran INTEGER).
    Integer,
    /// Any real (float, double, REAL, DOUBLE PRECISION).
    Real,
    /// COMPLEX.
    Complex,
    /// LOGICAL / `_Bool`.
    Logical,
    /// CHARACTER / C `char` arrays used as strings.
    Character,
    /// A derived type or struct/union.
    Record(TypeDefId),
    /// A C enum.
    Enum,
    /// `void`.
    Void,
    /// A type whose definition is not in the program (external typedef, unknown kind).
    Opaque,
}

/// One array dimension `lower:upper`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dim {
    /// Lower bound if given.
    pub lower: Option<ExprId>,
    /// Upper bound.
    pub upper: DimUpper,
}

/// The upper part of a dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DimUpper {
    /// An explicit bound (`n`, `10`).
    Expr(ExprId),
    /// `*` (assumed size).
    Assumed,
    /// `:` (assumed shape, deferred, allocatable).
    Deferred,
    /// C `[]`.
    Unsized,
}

/// A type as written in a declaration: the spelling kept for output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeSpec {
    /// Class.
    pub class: BaseClass,
    /// Keyword(s) as written, normalised to lower case for Fortran (`real`, `double precision`,
    /// `type`, `class`; C: `unsigned long`, `double`, `struct point`, `vec3_t`).
    pub keyword: String,
    /// Derived type / struct / union / enum / typedef name as written.
    pub name: Option<String>,
    /// Kind/length selector.
    pub kind: KindSel,
    /// Fortran CHARACTER length (`len=*`, `*8`, `(len=n)`).
    pub char_len: Option<CharLen>,
    /// Bytes when known.
    pub bytes: Option<u32>,
    /// C qualifiers before the type (`const`, `volatile`).
    pub qualifiers: Vec<String>,
    /// A C struct/union/enum defined inline in this declaration (`struct p { ... } x;`).
    pub inline_def: Option<TypeDefId>,
}

/// A kind selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KindSel {
    /// None given.
    Default,
    /// `real*8`.
    Star(u32),
    /// `real(8)` or `real(dp)`.
    Paren(ExprId),
    /// `real(kind=dp)`.
    Keyword(ExprId),
}

/// CHARACTER length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CharLen {
    /// `character*8`, `character*(*)`, or per-entity `c*8`.
    Star(LenValue),
    /// `character(8)`.
    Paren(LenValue),
    /// `character(len=8)`.
    Keyword(LenValue),
}

/// A length value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LenValue {
    /// An expression.
    Expr(ExprId),
    /// `*`.
    Assumed,
    /// `:`.
    Deferred,
}

/// A derived type, struct, union or enum definition.
#[derive(Debug, Clone)]
pub struct TypeDefData {
    /// What kind of record.
    pub kind: TypeDefKind,
    /// The type name (Fortran) or tag (C), original spelling; absent for anonymous C types.
    pub name: Option<String>,
    /// Components/fields as declarations in order (C enums: `Decl::Enumerators`).
    pub fields: Vec<Decl>,
    /// Scope of the components.
    pub scope: ScopeId,
    /// Unit whose arenas hold the field expressions.
    pub unit: UnitId,
    /// Fortran attributes of the type statement (`public`, `sequence` and `bind(c)` as text).
    pub attrs: Vec<String>,
    /// `SEQUENCE` present.
    pub sequence: bool,
}

/// Record kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeDefKind {
    /// Fortran derived type.
    Derived,
    /// C struct.
    Struct,
    /// C union.
    Union,
    /// C enum.
    Enum,
}

impl ScopeData {
    /// An empty scope.
    pub fn new(kind: ScopeKind, parent: Option<ScopeId>) -> Self {
        ScopeData {
            kind,
            parent,
            names: HashMap::new(),
            order: Vec::new(),
            uses: Vec::new(),
            implicit_none: false,
            implicit: Vec::new(),
            default_private: false,
        }
    }
}
