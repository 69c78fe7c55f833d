//! Expressions, actual arguments, literals and operators.

use crate::*;

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
    /// A routine of the vocabulary called by generated code: the callee of a
    /// [`Call`](Expr::Call) the generators build, typed by its record.
    Intrinsic(crate::vocab::RoutineRef),
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
