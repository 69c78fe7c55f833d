//! Statements: structured control kept as trees, jumps explicit.

use crate::*;

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
