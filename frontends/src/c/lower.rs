//! The state of the C lowering (the program being built, the unit and scope, macros,
//! pending directives, where nodes are) and the services every part of it uses: text and
//! span of a node, refusals, the unit being built, symbols, operators and literals.

use crate::ts::{span, text};
use radtap_il::*;
use std::collections::HashMap;
use tree_sitter::Node;

pub(super) struct CLower<'a, 's> {
    pub(super) p: &'a mut Program,
    pub(super) diags: &'a mut Vec<Diagnostic>,
    pub(super) file: u32,
    pub(super) src: &'s str,
    pub(super) global: ScopeId,
    pub(super) file_unit: UnitId,
    pub(super) unit: UnitId,
    pub(super) scope: ScopeId,
    pub(super) macros: Macros,
    pub(super) pending_dirs: Vec<Directive>,
    /// An OpenMP directive waiting for its statement (`omp.rs`).
    pub(super) pending_omp: Option<crate::omp::Pending>,
    /// Inside how many `#pragma omp parallel` regions the statements being lowered are.
    pub(super) omp_regions: u32,
    /// Loops under an `omp for` inside a region, fused with their region afterwards.
    pub(super) omp_worksharing: Vec<StmtId>,
    /// Names of the parameters read so far in a prototype's parameter list: a VLA bound
    /// there (`double f(int n, double x[n]);`) names one of them, kept as written.
    pub(super) proto_params: Vec<String>,
    pub(super) line_map: Option<&'s [u32]>,
    /// Where every node lowered is located, when lowering a macro's expansion (the use).
    pub(super) span_at: Option<Span>,
    /// How many macro expansions enclose the one being lowered.
    pub(super) macro_depth: u32,
    /// Macros defined more than once or `#undef`ined in the file: expanded at every use
    /// (their name in the generated file would have the last definition).
    pub(super) redefined: std::rc::Rc<Vec<String>>,
}

/// A `#define`: the parameters of a function-like macro, and the body.
#[derive(Clone, Debug)]
pub(crate) struct MacroDef {
    pub(crate) params: Option<Vec<String>>,
    pub(crate) body: String,
}

/// The macros known, by name.
pub(crate) type Macros = HashMap<String, MacroDef>;

/// Names from the C library headers that may be used without a declaration in the file.
pub(super) const HEADER_NAMES: &[&str] = &[
    "stdout",
    "stderr",
    "stdin",
    "errno",
    "size_t",
    "FILE",
    // `<stdarg.h>` (SUNDIALS' error handlers in its headers declare `va_list values;`).
    "va_list",
    // CBLAS (`cblas.h`), whose routines radtap describes built in.
    "CBLAS_LAYOUT",
    "CBLAS_ORDER",
    "CBLAS_TRANSPOSE",
    "CBLAS_UPLO",
    "CBLAS_DIAG",
    "CBLAS_SIDE",
    "CblasRowMajor",
    "CblasColMajor",
    "CblasNoTrans",
    "CblasTrans",
    "CblasConjTrans",
    "CblasUpper",
    "CblasLower",
    "CblasNonUnit",
    "CblasUnit",
    "CblasLeft",
    "CblasRight",
    // MPI (`mpi.h`), whose routines radtap describes built in (issue 46).
    "MPI_Comm",
    "MPI_Datatype",
    "MPI_Op",
    "MPI_Request",
    "MPI_Status",
];

/// Placeholder for `(T)` with a typedef `T`, until the operand it casts is known.
pub(super) const CAST_MARK: &str = "\u{1}cast";
/// Placeholder for a bare typedef name in expression position; only `(T1)(T2)(x)` (the name
/// as the single argument of a cast read as a call) turns it into a cast.
pub(super) const BARE_TYPE_MARK: &str = "\u{1}type";

impl<'a, 's> CLower<'a, 's> {
    pub(super) fn t(&self, n: Node) -> &'s str {
        text(n, self.src)
    }
    pub(crate) fn sp(&self, n: Node) -> Span {
        if let Some(at) = self.span_at {
            return at;
        }
        span(n, self.file, self.line_map)
    }
    pub(super) fn unsupported(&mut self, n: Node, what: &str) {
        let sp = self.sp(n);
        self.diags.push(Diagnostic::error(
            Code::Unsupported,
            sp,
            format!("unsupported construct: {what}"),
        ));
    }
    pub(super) fn u(&mut self) -> &mut UnitData {
        &mut self.p.units[self.unit]
    }

    pub(super) fn alloc(&mut self, e: Expr, n: Node) -> ExprId {
        let sp = self.sp(n);
        let u = self.u();
        let id = u.exprs.alloc(e);
        u.source_map.expr.insert(id, sp);
        id
    }
}

pub(super) fn compound_op(op: &str) -> Option<BinOp> {
    Some(match op {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "%=" => BinOp::Rem,
        "&=" => BinOp::BitAnd,
        "|=" => BinOp::BitOr,
        "^=" => BinOp::BitXor,
        "<<=" => BinOp::Shl,
        ">>=" => BinOp::Shr,
        _ => return None,
    })
}

pub(super) fn sym_c(name: &str, kind: SymbolKind, scope: ScopeId) -> SymbolData {
    crate::symbols::sym_data(name, kind, scope)
}

/// Integer or real, from a C number's spelling (`0x1F`, `1e-3f`, `2.`).
pub(super) fn c_number_kind(text: &str) -> LitKind {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    if !is_hex && (lower.contains('.') || lower.contains('e') || lower.ends_with('f')) {
        LitKind::Real
    } else {
        LitKind::Int
    }
}

/// The lowering of a statement, as the parts that meet one reach it (a statement macro's
/// expansion): `stmts.rs` implements it.
pub(super) trait Statements {
    fn stmt_into(&mut self, n: Node, label: Option<String>, out: &mut Block);
}

/// The lowering of a name and of an assignment's target, as operators, declarations and
/// statements reach it: `exprs.rs` implements it.
pub(super) trait Names {
    fn name(&mut self, n: Node, as_callee: bool) -> ExprId;

    /// An assignment or `++`/`--` target. Parentheses around it mean nothing (`(c) = p + 1`)
    /// and are dropped, so that every pass recognises the variable assigned.
    fn lvalue(&mut self, n: Node) -> ExprId;
}

/// Which names are types and what a type name describes, as expressions and operators
/// reach them: `decls.rs` implements it.
pub(super) trait Types {
    fn is_typedef_name(&self, name: &str) -> bool;

    fn type_descriptor(&mut self, td: Node) -> CParam;
}
