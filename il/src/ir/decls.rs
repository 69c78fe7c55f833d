//! Declarations: the specification items of a unit, kept in source order.

use crate::*;

/// A specification item, kept in source order.
#[derive(Debug, Clone)]
pub enum Decl {
    /// A type declaration: `real(8), intent(in) :: a(n), b` / `const double *x, y[3];`.
    Var(Box<VarDecl>),
    /// `USE m, only: a, b => c`.
    Use(UseImport, String),
    /// `IMPLICIT NONE` or `IMPLICIT DOUBLE PRECISION (A-H,O-Z)` (kept as written).
    Implicit(String),
    /// `PARAMETER (n = 10, ...)`.
    Parameter(Vec<(SymbolId, ExprId)>),
    /// A derived type / struct definition.
    TypeDef(TypeDefId),
    /// `COMMON /blk/ a, b(10)`: list of blocks (None = blank common) and their members.
    Common(Vec<(Option<SymbolId>, Vec<Entity>)>),
    /// `EQUIVALENCE (a, b(2)), (c, d)`.
    Equivalence(Vec<Vec<ExprId>>),
    /// `DATA a, b /1.0, 2.0/, c /3*0.0/`.
    Data(Vec<DataSet>),
    /// Attribute statements: `SAVE a`, `EXTERNAL f`, `INTRINSIC sin`, `PUBLIC`, `PRIVATE x`,
    /// `DIMENSION a(10)`, `INTENT(IN) x`, `ALLOCATABLE`, `POINTER`, `TARGET`, `OPTIONAL`.
    Attr(AttrStmt),
    /// An INTERFACE block: `name` for generic ones; bodies are units of their own; `module
    /// procedure` lists.
    Interface(Interface),
    /// A statement function `f(x, y) = expr`.
    StmtFunction {
        /// The function.
        name: SymbolId,
        /// Its dummies.
        params: Vec<SymbolId>,
        /// The defining expression.
        body: ExprId,
    },
    /// A comment line.
    Comment(String),
    /// A comment at the end of the previous declaration's line: written back on that line,
    /// and after the copy of that declaration only (dropped with it).
    TrailingComment(String),
    /// A `$AD` directive in the specification part.
    Directive(Directive),
    /// A C function definition or Fortran procedure inside a C file/unit.
    Unit(UnitId),
    /// A C preprocessor line kept for output (`#include`, `#define`).
    Preproc(String),
    /// A Fortran statement kept verbatim (FORMAT in a spec part, NAMELIST, INCLUDE).
    Verbatim(String),
    /// C enum constants (inside an enum definition).
    Enumerators(Vec<(SymbolId, Option<ExprId>)>),
}

impl Decl {
    /// A type declaration (boxed: a declaration inline made every statement node 272 bytes).
    pub fn var(v: VarDecl) -> Decl {
        Decl::Var(Box::new(v))
    }
}

/// A type declaration statement.
#[derive(Debug, Clone)]
pub struct VarDecl {
    /// The type as written.
    pub spec: TypeSpec,
    /// Attributes as written (`intent(in)`, `dimension(3)`, `allocatable`, C `static`).
    pub attrs: Vec<Attr>,
    /// Declared entities.
    pub entities: Vec<Entity>,
    /// Fortran: whether `::` was written.
    pub double_colon: bool,
}

/// An attribute in a type declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attr {
    /// `intent(in)`.
    Intent(Intent),
    /// `dimension(...)`.
    Dimension(Vec<Dim>),
    /// Any other keyword attribute, lower-cased (`parameter`, `allocatable`, `pointer`,
    /// `target`, `optional`, `save`, `value`, `public`, `private`, `external`, `intrinsic`,
    /// `contiguous`; C storage classes `static`, `extern`, `typedef`, `register`, `inline`).
    Keyword(String),
}

/// One declared name.
#[derive(Debug, Clone)]
pub struct Entity {
    /// The symbol.
    pub sym: SymbolId,
    /// Dimensions written on the entity (`a(10)`, C `a[3][4]`).
    pub dims: Option<Vec<Dim>>,
    /// Per-entity character length (`c*8`).
    pub char_len: Option<LenValue>,
    /// C pointer/function derivations, outermost first (`*const p`, `(*f)(double)`).
    pub derived: Vec<DeclOp>,
    /// Initializer.
    pub init: Option<Init>,
}

/// An initializer.
#[derive(Debug, Clone)]
pub enum Init {
    /// `= expr`.
    Expr(ExprId),
    /// `=> null()`.
    Pointer(ExprId),
    /// F77-style `/1.0/` data in a declaration (kept as data values).
    Data(Vec<DataValue>),
}

/// A C declarator derivation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclOp {
    /// `*` with qualifiers (`const`, `restrict`).
    Pointer(Vec<String>),
    /// A function declarator: parameter declarations.
    Function(Vec<CParam>, bool),
    /// A C array dimension applied inside parentheses (`(*p)[4]`): extent.
    Array(Option<ExprId>),
}

/// A C parameter in a function declarator (prototypes and function pointers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CParam {
    /// Type.
    pub spec: TypeSpec,
    /// Name if given.
    pub name: Option<String>,
    /// Derivations.
    pub derived: Vec<DeclOp>,
    /// Array extents written on the parameter.
    pub dims: Vec<Option<ExprId>>,
}

/// A set of a DATA statement.
#[derive(Debug, Clone)]
pub struct DataSet {
    /// Objects (variables, elements, implied-DO).
    pub objects: Vec<ExprId>,
    /// Values.
    pub values: Vec<DataValue>,
}

/// A DATA value, possibly repeated (`3*0.0`).
#[derive(Debug, Clone)]
pub struct DataValue {
    /// Repeat count.
    pub repeat: Option<ExprId>,
    /// Value.
    pub value: ExprId,
}

/// An attribute statement.
#[derive(Debug, Clone)]
pub struct AttrStmt {
    /// The keyword, lower-cased (`save`, `external`, `intrinsic`, `public`, `private`,
    /// `dimension`, `allocatable`, `pointer`, `target`, `optional`, `intent(in)`...).
    pub keyword: String,
    /// Whether `::` was written.
    pub double_colon: bool,
    /// Names (with dims for DIMENSION/ALLOCATABLE); `/blk/` common names flagged.
    pub items: Vec<AttrItem>,
}

/// One item of an attribute statement.
#[derive(Debug, Clone)]
pub struct AttrItem {
    /// The symbol.
    pub sym: SymbolId,
    /// Dimensions for DIMENSION-like statements.
    pub dims: Option<Vec<Dim>>,
    /// A COMMON block name written `/blk/`.
    pub common: bool,
}

/// An interface block.
#[derive(Debug, Clone)]
pub struct Interface {
    /// Generic name (spelling), or `None` for a plain interface block.
    pub name: Option<String>,
    /// `abstract interface`.
    pub is_abstract: bool,
    /// Procedure bodies declared in the block.
    pub bodies: Vec<UnitId>,
    /// `module procedure a, b` entries (spellings).
    pub module_procs: Vec<Vec<String>>,
}
