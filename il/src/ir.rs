//! The IL data types: program, files, units, scopes, symbols, declarations, statements and
//! expressions.

use crate::arena::{Arena, ArenaMap, Idx};
use crate::diag::Span;
use crate::Directive;
use std::collections::HashMap;

/// A unit: program, module, procedure, BLOCK DATA, or a C translation unit.
pub type UnitId = Idx<UnitData>;
/// A scope (symbol table).
pub type ScopeId = Idx<ScopeData>;
/// A symbol.
pub type SymbolId = Idx<SymbolData>;
/// A derived type, C struct, union or enum definition.
pub type TypeDefId = Idx<TypeDefData>;
/// A statement, in its unit's body.
pub type StmtId = Idx<Stmt>;
/// An expression, in its unit's body.
pub type ExprId = Idx<Expr>;

/// Source language of a file or unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Fortran, free or fixed form.
    Fortran,
    /// C99.
    C,
}

/// Source form of a Fortran file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceForm {
    /// Free form (`.f90` and later).
    Free,
    /// Fixed form (`.f`, `.for`, `.F`): converted before parsing, written back as free form.
    Fixed,
    /// C source.
    C,
}

/// A whole program: every input file, with one arena for units, scopes, symbols and types.
#[derive(Default, Debug, Clone)]
pub struct Program {
    /// Input files in command-line order.
    pub files: Vec<SourceFile>,
    /// All units; a unit's children are listed in `UnitData::contains`.
    pub units: Arena<UnitData>,
    /// All scopes.
    pub scopes: Arena<ScopeData>,
    /// All symbols.
    pub symbols: Arena<SymbolData>,
    /// All derived types, structs, unions and enums.
    pub typedefs: Arena<TypeDefData>,
    /// Routines without source, known from a description (`-ext`, built-in BLAS): their
    /// units are stand-ins the analyses read (`radtap_frontends::library`), which no
    /// generator differentiates or prints.
    pub described: std::collections::HashMap<UnitId, crate::library::Description>,
}

/// One input file and what it holds, in source order.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as given by the user.
    pub path: String,
    /// The language.
    pub lang: Lang,
    /// The source form.
    pub form: SourceForm,
    /// Top-level items in order.
    pub items: Vec<FileItem>,
    /// A C header read for an `#include "..."` of an input, not an input itself: its
    /// declarations are visible to the files that include it, and the generated files
    /// include it instead of copying it.
    pub header: bool,
}

/// A top-level item of a file.
#[derive(Debug, Clone)]
pub enum FileItem {
    /// A program unit (Fortran) or the translation unit (C).
    Unit(UnitId),
    /// A comment between units.
    Comment(String),
}

/// What kind of unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// Fortran main program.
    Program,
    /// Fortran module.
    Module,
    /// Fortran subroutine or C void function.
    Subroutine,
    /// Fortran function or C function returning a value.
    Function,
    /// Fortran BLOCK DATA.
    BlockData,
    /// A C translation unit: file-level declarations, with functions as children.
    CFile,
}

/// Fortran procedure prefixes and C function specifiers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProcAttrs {
    /// Prefix keywords in source spelling and order (`pure`, `elemental`, `recursive`,
    /// `static`, `inline`).
    pub prefixes: Vec<String>,
}

/// A program unit with its own symbol table and statement/expression arenas.
#[derive(Debug, Clone)]
pub struct UnitData {
    /// Unit kind.
    pub kind: UnitKind,
    /// Language.
    pub lang: Lang,
    /// The symbol naming the unit (absent for an unnamed main program or C file).
    pub name: Option<SymbolId>,
    /// Enclosing unit (module of a module procedure, host of an internal procedure).
    pub parent: Option<UnitId>,
    /// The unit's own scope.
    pub scope: ScopeId,
    /// Dummy arguments in order (`None` for an alternate-return `*`).
    pub params: Vec<SymbolId>,
    /// Function result variable (Fortran `RESULT(r)` or the function name itself).
    pub result: Option<SymbolId>,
    /// Whether the Fortran function spelled `result(r)` explicitly.
    pub explicit_result: bool,
    /// Fortran function type given in the header (`real(8) function f`), or the C return type.
    pub header_type: Option<TypeSpec>,
    /// C declarator derivations of the return type (pointer return).
    pub ret_derived: Vec<DeclOp>,
    /// Prefixes (`pure`, `recursive`, `static`).
    pub attrs: ProcAttrs,
    /// Specification part in source order (C: file-level items, with functions as `Decl::Unit`).
    pub decls: Vec<Decl>,
    /// Executable part.
    pub body: Block,
    /// Contained procedures (after `CONTAINS`), in order. Not used for C.
    pub contains: Vec<UnitId>,
    /// Comments after CONTAINS before the first procedure, and trailing comments.
    pub trailing_comments: Vec<String>,
    /// `$AD` directives on the unit header.
    pub directives: Vec<Directive>,
    /// Statements.
    pub stmts: Arena<Stmt>,
    /// Expressions.
    pub exprs: Arena<Expr>,
    /// Source spans of statements and expressions, and of the unit header.
    pub source_map: SourceMap,
    /// A Fortran subroutine/function whose header parameter list was written `()`.
    pub empty_parens: bool,
    /// Whether this C function has a prototype-only `(void)` parameter list.
    pub c_void_params: bool,
    /// C parameter declarations as written (types of `params`, in order).
    pub c_params: Vec<CParam>,
    /// C variadic `...`.
    pub c_variadic: bool,
    /// Constructs of this procedure the frontend could not represent (the statement was left
    /// out): reported only when a head reaches the procedure, or when every unit is written
    /// (`-p`), so a file is not refused for a routine the head never calls (ODEPACK's
    /// `DNRM2` with its assigned GOTO).
    pub refusals: Vec<crate::diag::Diagnostic>,
}

/// Spans on the side: `il` nodes carry none.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    /// Statement spans.
    pub stmt: ArenaMap<Stmt, Span>,
    /// Expression spans.
    pub expr: ArenaMap<Expr, Span>,
    /// The unit header.
    pub header: Option<Span>,
}

/// A sequence of statements.
pub type Block = Vec<StmtId>;

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

/// A statement with its label and attached comments/directives.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Fortran statement label or C label(s).
    pub label: Option<String>,
    /// Fortran construct name (`outer:` on DO/IF/SELECT).
    pub construct_name: Option<String>,
    /// `$AD` directives governing this statement.
    pub directives: Vec<Directive>,
    /// The comment that ends the statement's (last) source line, written back at the end of
    /// the same line wherever the statement is copied.
    pub comment: Option<String>,
    /// The OpenMP directive governing it (a parallel loop, an atomic update).
    pub omp: Option<Box<crate::omp_types::OmpOf<SymbolId>>>,
}

/// Statement kinds. Structured control is kept; jumps are explicit.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `lhs = rhs` / C `lhs op= rhs`.
    Assign {
        /// Target.
        lhs: ExprId,
        /// C compound operator (`+=` is `Some(Add)`).
        op: Option<BinOp>,
        /// Value.
        rhs: ExprId,
    },
    /// Fortran `p => t`.
    PointerAssign {
        /// Pointer.
        lhs: ExprId,
        /// Target.
        rhs: ExprId,
    },
    /// `CALL s(args)` or a C call used as a statement.
    Call {
        /// The callee expression (a name, or a component for type-bound calls).
        callee: ExprId,
        /// Arguments.
        args: Vec<Arg>,
        /// Fortran `call s` without parentheses.
        no_parens: bool,
    },
    /// A C expression statement that is not an assignment or plain call (`i++`, `a = b = c`).
    Expr(ExprId),
    /// IF / ELSE IF / ELSE (C `if`/`else if`/`else`).
    If {
        /// Condition and block of each arm, in order.
        arms: Vec<(ExprId, Block)>,
        /// ELSE block.
        else_block: Option<Block>,
        /// Fortran logical IF (`if (c) stmt`): one arm, one statement, no else.
        logical: bool,
        /// C: whether each arm body was a braced compound statement.
        braces: Vec<bool>,
    },
    /// Counted DO loop `do i = start, end [, step]`.
    Do {
        /// Loop variable.
        var: ExprId,
        /// Start.
        start: ExprId,
        /// End.
        end: ExprId,
        /// Step.
        step: Option<ExprId>,
        /// Body.
        body: Block,
        /// F77 labelled DO: the terminal label (`do 10 i=1,n` ... `10 continue`).
        term_label: Option<String>,
    },
    /// Fortran DO WHILE / C `while`.
    While {
        /// Condition.
        cond: ExprId,
        /// Body.
        body: Block,
        /// F77 labelled DO WHILE terminal.
        term_label: Option<String>,
    },
    /// Fortran `do` without control / C `for(;;)`.
    Loop {
        /// Body.
        body: Block,
    },
    /// C `for (init; cond; step) body`.
    CFor {
        /// Init: a declaration or expression statement, or empty.
        init: Option<StmtId>,
        /// Condition.
        cond: Option<ExprId>,
        /// Step expression.
        step: Option<ExprId>,
        /// Body.
        body: Block,
        /// Body was braced.
        braced: bool,
    },
    /// C `do body while (cond);`.
    DoWhile {
        /// Body.
        body: Block,
        /// Condition.
        cond: ExprId,
    },
    /// Fortran SELECT CASE.
    Select {
        /// Selector.
        selector: ExprId,
        /// Cases.
        cases: Vec<Case>,
    },
    /// C switch: body with `CaseLabel` statements.
    Switch {
        /// Scrutinee.
        expr: ExprId,
        /// Body.
        body: Block,
    },
    /// C `case v:` / `default:` inside a switch body.
    CaseLabel(Option<ExprId>),
    /// WHERE / ELSEWHERE.
    Where {
        /// Mask and block per arm (ELSEWHERE with mask is an arm).
        arms: Vec<(ExprId, Block)>,
        /// Final ELSEWHERE.
        else_block: Option<Block>,
        /// Single-statement WHERE.
        single: bool,
    },
    /// FORALL.
    Forall {
        /// `i = lo:hi[:step]` triplets.
        specs: Vec<ForallSpec>,
        /// Mask.
        mask: Option<ExprId>,
        /// Body.
        body: Block,
        /// Single-statement FORALL.
        single: bool,
    },
    /// A C compound statement, Fortran BLOCK construct, or ASSOCIATE body.
    Block {
        /// Scope introduced by the block.
        scope: Option<ScopeId>,
        /// Local declarations (Fortran BLOCK).
        decls: Vec<Decl>,
        /// Statements.
        body: Block,
        /// ASSOCIATE (name => selector) pairs.
        associations: Vec<(SymbolId, ExprId)>,
        /// Which Fortran construct (`block`, `associate`) or C `{}`.
        construct: BlockKind,
    },
    /// A C declaration statement inside a body.
    Decl(Decl),
    /// EXIT [name] (Fortran).
    Exit(Option<String>),
    /// CYCLE [name] (Fortran).
    Cycle(Option<String>),
    /// C break.
    Break,
    /// C continue.
    CContinue,
    /// GOTO label.
    Goto(String),
    /// Computed GOTO `go to (10, 20) k`.
    ComputedGoto {
        /// Labels.
        labels: Vec<String>,
        /// Selector.
        expr: ExprId,
    },
    /// Arithmetic IF `if (e) l1, l2, l3`.
    ArithIf {
        /// Tested expression.
        expr: ExprId,
        /// Labels for negative, zero, positive.
        labels: [String; 3],
    },
    /// RETURN / C `return [e]`.
    Return(Option<ExprId>),
    /// STOP [code] / ERROR STOP.
    Stop {
        /// Code.
        code: Option<ExprId>,
        /// `error stop`.
        error: bool,
    },
    /// Fortran CONTINUE (no-op, often a label target).
    Continue,
    /// C `;`.
    Empty,
    /// ALLOCATE/DEALLOCATE/NULLIFY.
    Memory {
        /// Which.
        op: MemOp,
        /// Objects (ALLOCATE: with shapes as `Index` subscripts).
        items: Vec<ExprId>,
        /// `stat=`, `source=`, `errmsg=` keyword arguments.
        options: Vec<Arg>,
    },
    /// An I/O statement: keyword, control list as written, items as expressions.
    Io {
        /// Which statement.
        kind: IoKind,
        /// Control list as written, without the parentheses (`*,'(a)'`), or the format of
        /// PRINT/READ fmt.
        control: String,
        /// Data transfer items.
        items: Vec<ExprId>,
    },
    /// FORMAT statement, kept verbatim (`(a, f10.4)`).
    Format(String),
    /// ENTRY name(args).
    Entry {
        /// The entry symbol.
        name: SymbolId,
        /// Dummies.
        params: Vec<SymbolId>,
    },
    /// A comment between statements.
    Comment(String),
}

impl StmtKind {
    /// Whether the statement's body may run more than once per run of the statement: a
    /// loop, or a FORALL or WHERE (element by element).
    pub fn repeats_body(&self) -> bool {
        matches!(
            self,
            StmtKind::Do { .. }
                | StmtKind::While { .. }
                | StmtKind::Loop { .. }
                | StmtKind::CFor { .. }
                | StmtKind::DoWhile { .. }
                | StmtKind::Forall { .. }
                | StmtKind::Where { .. }
        )
    }
}

/// ALLOCATE and friends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemOp {
    /// ALLOCATE.
    Allocate,
    /// DEALLOCATE.
    Deallocate,
    /// NULLIFY.
    Nullify,
}

/// Fortran I/O statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IoKind {
    /// WRITE.
    Write,
    /// READ.
    Read,
    /// PRINT.
    Print,
    /// OPEN.
    Open,
    /// CLOSE.
    Close,
    /// INQUIRE.
    Inquire,
    /// REWIND.
    Rewind,
    /// BACKSPACE.
    Backspace,
    /// ENDFILE.
    Endfile,
    /// FLUSH.
    Flush,
}

/// Block constructs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// C `{ ... }`.
    C,
    /// Fortran BLOCK.
    Block,
    /// Fortran ASSOCIATE.
    Associate,
}

/// A CASE of SELECT CASE.
#[derive(Debug, Clone)]
pub struct Case {
    /// Values/ranges; empty means DEFAULT.
    pub values: Vec<CaseValue>,
    /// Body.
    pub body: Block,
}

/// A case selector item.
#[derive(Debug, Clone)]
pub enum CaseValue {
    /// A single value.
    Value(ExprId),
    /// `lo:hi`, `lo:`, `:hi`.
    Range(Option<ExprId>, Option<ExprId>),
}

/// A FORALL triplet.
#[derive(Debug, Clone)]
pub struct ForallSpec {
    /// Index variable.
    pub var: ExprId,
    /// Lower.
    pub lo: ExprId,
    /// Upper.
    pub hi: ExprId,
    /// Stride.
    pub stride: Option<ExprId>,
}

/// An actual argument.
#[derive(Debug, Clone)]
pub struct Arg {
    /// Keyword (`dim=`), spelled as written.
    pub keyword: Option<String>,
    /// Value.
    pub value: ExprId,
}

/// Expressions. Fortran calls and array references are told apart by the symbol table.
#[derive(Debug, Clone)]
pub enum Expr {
    /// A literal as written (`1.0d0`, `2.5_dp`, `'abc'`, `.true.`, `0x1F`, `1e-3f`).
    Literal(Literal),
    /// A named object.
    Name(SymbolId),
    /// An unresolved name (C macros, members of external modules), as written.
    Opaque(String),
    /// Array element, section or substring: `a(i, 1:n)` / C `a[i]`.
    Index {
        /// The array.
        base: ExprId,
        /// Subscripts.
        subs: Vec<Subscript>,
    },
    /// Function call (Fortran function, intrinsic, C call).
    Call {
        /// Callee expression.
        callee: ExprId,
        /// Arguments.
        args: Vec<Arg>,
    },
    /// `a%b` / C `a.b` / C `a->b` (`arrow`).
    Field {
        /// Record.
        base: ExprId,
        /// Field name as written.
        field: String,
        /// C `->`.
        arrow: bool,
    },
    /// Unary operation.
    Unary {
        /// Operator.
        op: UnOp,
        /// Operand.
        arg: ExprId,
    },
    /// Binary operation.
    Binary {
        /// Operator.
        op: BinOp,
        /// Left operand.
        lhs: ExprId,
        /// Right operand.
        rhs: ExprId,
    },
    /// Parenthesised expression, kept because Fortran requires the order it imposes.
    Paren(ExprId),
    /// Array constructor `[a, b]` / `(/ a, b /)`; C brace initializer `{1, 2}`.
    ArrayCtor {
        /// Items.
        items: Vec<ExprId>,
        /// Fortran `(/ /)` spelling.
        old_style: bool,
        /// Type spec prefix `[real(8) :: ...]` as written.
        type_spec: Option<String>,
    },
    /// Implied DO `(items, i = lo, hi[, step])`.
    ImpliedDo {
        /// Items.
        items: Vec<ExprId>,
        /// Loop variable.
        var: ExprId,
        /// Lower.
        lo: ExprId,
        /// Upper.
        hi: ExprId,
        /// Step.
        step: Option<ExprId>,
    },
    /// C `(type) e`.
    Cast {
        /// Target type (boxed: a `CParam` inline made every expression node 200 bytes).
        ty: Box<CParam>,
        /// Operand.
        arg: ExprId,
    },
    /// C `sizeof(type)`.
    SizeofType(Box<CParam>),
    /// C `c ? a : b`.
    Cond {
        /// Condition.
        cond: ExprId,
        /// Then.
        then: ExprId,
        /// Else.
        else_: ExprId,
    },
    /// C assignment used as an expression (`a = b = c`, `x += 1` in a `for` step).
    Assign {
        /// Compound operator.
        op: Option<BinOp>,
        /// Target.
        lhs: ExprId,
        /// Value.
        rhs: ExprId,
    },
    /// C `++`/`--`.
    IncDec {
        /// `++` when true.
        inc: bool,
        /// Prefix form.
        prefix: bool,
        /// Operand.
        arg: ExprId,
    },
    /// C comma operator.
    Comma(Vec<ExprId>),
    /// C compound literal `(T){...}`.
    CompoundLit {
        /// Type.
        ty: Box<CParam>,
        /// Brace initializer.
        init: ExprId,
    },
    /// C designated initializer item `.x = 1` / `[2] = 3`.
    Designated {
        /// Designators as written (`.x`, `[2]`).
        designators: Vec<String>,
        /// Value.
        value: ExprId,
    },
}

/// A subscript.
#[derive(Debug, Clone)]
pub enum Subscript {
    /// `i`.
    Index(ExprId),
    /// `lo:hi:stride`, each optional.
    Range(Option<ExprId>, Option<ExprId>, Option<ExprId>),
}

/// A literal as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Literal {
    /// Class.
    pub kind: LitKind,
    /// Source text.
    pub text: String,
}

/// Literal classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LitKind {
    /// Integer.
    Int,
    /// Real.
    Real,
    /// Logical.
    Logical,
    /// Character string.
    Str,
    /// Complex `(1.0, 2.0)` (text holds the whole literal).
    Complex,
    /// C character constant.
    Char,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-`.
    Neg,
    /// `+`.
    Plus,
    /// `.not.` / `!`.
    Not,
    /// C `~`.
    BitNot,
    /// C `*p`.
    Deref,
    /// C `&x`.
    AddrOf,
    /// C `sizeof e`.
    Sizeof,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `**`.
    Pow,
    /// C `%`.
    Rem,
    /// `//`.
    Concat,
    /// `==` with spelling.
    Eq(RelSpell),
    /// `/=`, `!=`.
    Ne(RelSpell),
    /// `<`.
    Lt(RelSpell),
    /// `<=`.
    Le(RelSpell),
    /// `>`.
    Gt(RelSpell),
    /// `>=`.
    Ge(RelSpell),
    /// `.and.` / `&&`.
    And,
    /// `.or.` / `||`.
    Or,
    /// `.eqv.`.
    Eqv,
    /// `.neqv.`.
    Neqv,
    /// C `&`.
    BitAnd,
    /// C `|`.
    BitOr,
    /// C `^`.
    BitXor,
    /// C `<<`.
    Shl,
    /// C `>>`.
    Shr,
}

/// Spelling of a Fortran relational operator (`.lt.` vs `<`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RelSpell {
    /// `<`, `==`, `/=`...
    Symbol,
    /// `.lt.`, `.eq.`...
    Dotted,
}

impl UnitData {
    /// A fresh unit with empty arenas.
    pub fn new(kind: UnitKind, lang: Lang, scope: ScopeId) -> Self {
        UnitData {
            kind,
            lang,
            name: None,
            parent: None,
            scope,
            params: Vec::new(),
            result: None,
            explicit_result: false,
            header_type: None,
            ret_derived: Vec::new(),
            attrs: ProcAttrs::default(),
            decls: Vec::new(),
            body: Vec::new(),
            contains: Vec::new(),
            trailing_comments: Vec::new(),
            directives: Vec::new(),
            stmts: Arena::new(),
            exprs: Arena::new(),
            source_map: SourceMap::default(),
            empty_parens: false,
            c_void_params: false,
            c_params: Vec::new(),
            c_variadic: false,
            refusals: Vec::new(),
        }
    }
}

impl Stmt {
    /// A statement with no label or directives.
    pub fn new(kind: StmtKind) -> Self {
        Stmt {
            kind,
            label: None,
            construct_name: None,
            directives: Vec::new(),
            comment: None,
            omp: None,
        }
    }
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

/// The spelling through USE `u` of a name its module sees as `inner`, if `u` imports it.
fn use_spelling<'a>(u: &'a UseImport, inner: &'a str) -> Option<&'a str> {
    match u.names.iter().find(|(_, r)| r.eq_ignore_ascii_case(inner)) {
        Some((l, _)) => Some(l.as_str()),
        None => (!u.only).then_some(inner),
    }
}

impl Program {
    /// The unit owning scope `s` (walking out of BLOCK scopes); `None` for global and type
    /// scopes.
    pub fn unit_of_scope(&self, mut s: ScopeId) -> Option<UnitId> {
        loop {
            match self.scopes[s].kind {
                ScopeKind::Unit(u) => return Some(u),
                ScopeKind::Type(_) | ScopeKind::Global => return None,
                ScopeKind::Block => s = self.scopes[s].parent?,
            }
        }
    }

    /// The name under which `sym` is visible in `scope`: its own spelling, or the local name
    /// of a `USE m, only: local => remote` rename.
    pub fn local_name(&self, scope: ScopeId, sym: SymbolId) -> &str {
        self.name_through(scope, sym, 0)
            .unwrap_or(&self.symbols[sym].spelling)
    }

    /// The name `sym` has in `scope`, through USE renames of USE renames (`module kinds;
    /// use iso_fortran_env, only: dp => real64` then `use kinds` sees `real64` as `dp`), or
    /// `None` when `scope` does not see it. Re-exports are followed four modules deep.
    pub fn name_through(&self, mut scope: ScopeId, sym: SymbolId, depth: u32) -> Option<&str> {
        let target = &self.symbols[sym];
        loop {
            let sc = &self.scopes[scope];
            // Declared here (a symbol is in its own scope's `order`): a comparison, where
            // `order.contains` scanned the scope, the global one holding every generated
            // symbol, for every name printed.
            if target.scope == scope {
                return Some(&target.spelling);
            }
            // USEs of the module declaring it first (the common case, no recursion); then
            // re-exports, each module searched in turn.
            for u in &sc.uses {
                if u.unit
                    .is_some_and(|mu| self.units[mu].scope == target.scope)
                {
                    if let Some(n) = use_spelling(u, &target.spelling) {
                        return Some(n);
                    }
                }
            }
            if depth < 4 {
                for u in &sc.uses {
                    let Some(mu) = u.unit else { continue };
                    let ms = self.units[mu].scope;
                    if ms == target.scope {
                        continue;
                    }
                    if let Some(n) = self
                        .name_through(ms, sym, depth + 1)
                        .and_then(|inner| use_spelling(u, inner))
                    {
                        return Some(n);
                    }
                }
            }
            scope = sc.parent?;
        }
    }

    /// The name of a symbol as written.
    pub fn name(&self, s: SymbolId) -> &str {
        &self.symbols[s].spelling
    }

    /// Adds a symbol to `scope` under `key` (lower-cased for Fortran by the caller).
    pub fn add_symbol(&mut self, scope: ScopeId, key: String, data: SymbolData) -> SymbolId {
        // `local_name` relies on it: a symbol is in the `order` of its own scope only.
        debug_assert_eq!(
            data.scope, scope,
            "a symbol added to a scope other than its own"
        );
        let id = self.symbols.alloc(data);
        let sc = &mut self.scopes[scope];
        sc.names.insert(key, id);
        sc.order.push(id);
        id
    }

    /// Looks `key` up in `scope` and its parents (no USE association).
    pub fn lookup_local_chain(&self, mut scope: ScopeId, key: &str) -> Option<SymbolId> {
        loop {
            let sc = &self.scopes[scope];
            if let Some(&s) = sc.names.get(key) {
                return Some(s);
            }
            scope = sc.parent?;
        }
    }

    /// The name of a C type name for a record: its tag, or for an anonymous struct the
    /// typedef name that names it (`typedef struct { ... } Wishart;`).
    pub fn record_type_name(&self, td: TypeDefId) -> Option<String> {
        if let Some(n) = &self.typedefs[td].name {
            return Some(n.clone());
        }
        self.symbols.iter().find_map(|(_, s)| {
            let t = s.ty.as_ref()?;
            (s.kind == SymbolKind::Type
                && t.base == BaseClass::Record(td)
                && t.pointers == 0
                && t.dims.is_empty())
            .then(|| s.spelling.clone())
        })
    }

    /// Full lookup: each scope, then its USE imports, then the parent.
    pub fn lookup(&self, mut scope: ScopeId, key: &str) -> Option<SymbolId> {
        let mut guard = 0;
        loop {
            let sc = &self.scopes[scope];
            if let Some(&s) = sc.names.get(key) {
                return Some(s);
            }
            for u in &sc.uses {
                if let Some(s) = self.lookup_use(u, key, &mut guard) {
                    return Some(s);
                }
            }
            scope = sc.parent?;
        }
    }

    fn lookup_use(&self, u: &UseImport, key: &str, guard: &mut u32) -> Option<SymbolId> {
        *guard += 1;
        if *guard > 64 {
            return None; // circular USE: the frontend reports it
        }
        let remote_owned;
        let remote = if u.only {
            remote_owned = u
                .names
                .iter()
                .find(|(l, _)| l.eq_ignore_ascii_case(key))
                .map(|(_, r)| r.to_ascii_lowercase())?;
            remote_owned.as_str()
        } else if let Some((_, r)) = u.names.iter().find(|(l, _)| l.eq_ignore_ascii_case(key)) {
            remote_owned = r.to_ascii_lowercase();
            remote_owned.as_str()
        } else if u.names.iter().any(|(_, r)| r.eq_ignore_ascii_case(key)) {
            return None; // renamed away
        } else {
            key
        };
        let unit = u.unit?;
        let msc = &self.scopes[self.units[unit].scope];
        if let Some(&s) = msc.names.get(remote) {
            let a = &self.symbols[s].attrs;
            let hidden = a.private || (msc.default_private && !a.public);
            return if hidden { None } else { Some(s) };
        }
        for inner in &msc.uses {
            if let Some(s) = self.lookup_use(inner, remote, guard) {
                return Some(s);
            }
        }
        None
    }
}
