//! The state of the Fortran lowering (the files, the program being built, the unit and
//! scope, pending directives) and the services every part of it uses: text and span of a
//! node, refusals, the unit and scope being built, names, symbols and types.

pub(crate) use crate::symbols::sym_data;
use crate::ts::{named_children, span, text};
use radtap_il::*;
use std::collections::HashMap;
use tree_sitter::Node;

pub(crate) use radtap_il::directives::parse_directive;

/// One parsed Fortran file.
pub(crate) struct FFile<'t> {
    pub(crate) file: u32,
    pub(crate) src: &'t str,
    pub(crate) root: Node<'t>,
    pub(crate) line_map: Option<&'t [u32]>,
}

pub(super) struct Pending<'t> {
    pub(super) unit: UnitId,
    pub(super) node: Node<'t>,
    pub(super) fidx: usize,
    /// Index of the first body child (after the spec part), filled by pass 2.
    pub(super) body_start: usize,
}

pub(crate) struct FortranLowering<'a, 't> {
    pub(super) p: &'a mut Program,
    pub(super) diags: &'a mut Vec<Diagnostic>,
    pub(super) files: &'a [FFile<'t>],
    pub(super) global: ScopeId,
    pub(super) pending: Vec<Pending<'t>>,
    pub(super) modules: HashMap<String, UnitId>,
    // Per-unit state while lowering one unit.
    pub(super) cur_unit: Option<UnitId>,
    pub(super) cur_file: usize,
    pub(super) cur_scope: Option<ScopeId>,
    pub(super) pending_dirs: Vec<Directive>,
    /// DO CONCURRENT nests of the body being lowered (outermost loop) and their index
    /// variables, checked once the body is complete (`stmts.rs`).
    pub(super) concurrent: Vec<(StmtId, Vec<SymbolId>)>,
    /// An `!$omp` directive waiting for its statement, and a directive line continued with
    /// `&` (`fortran/omp.rs`).
    pub(super) pending_omp: Option<crate::omp::Pending>,
    pub(super) omp_cont: Option<(String, Span)>,
    /// Loops under `!$omp do` inside a region, fused with it at `!$omp end parallel`.
    pub(super) omp_worksharing: Vec<StmtId>,
}

pub(super) fn key(s: &str) -> String {
    s.to_ascii_lowercase()
}

pub(super) const STATEMENT_KINDS: &[&str] = &[
    "allocate_statement",
    "arithmetic_if_statement",
    "assign_statement",
    "assignment_statement",
    "associate_statement",
    "block_construct",
    "call_expression",
    "close_statement",
    "deallocate_statement",
    "do_loop",
    "file_position_statement",
    "forall_statement",
    "if_statement",
    "inquire_statement",
    "keyword_statement",
    "nullify_statement",
    "open_statement",
    "pointer_association_statement",
    "print_statement",
    "read_statement",
    "select_case_statement",
    "select_rank_statement",
    "select_type_statement",
    "stop_statement",
    "subroutine_call",
    "where_statement",
    "write_statement",
    "coarray_critical_statement",
    "coarray_statement",
    "coarray_team_statement",
];

impl<'a, 't> FortranLowering<'a, 't> {
    pub(super) fn t(&self, n: Node) -> &'t str {
        text(n, self.files[self.cur_file].src)
    }

    pub(super) fn sp(&self, n: Node) -> Span {
        let f = &self.files[self.cur_file];
        span(n, f.file, f.line_map)
    }

    pub(super) fn unsupported(&mut self, n: Node, what: &str) {
        let sp = self.sp(n);
        let d = Diagnostic::error(
            Code::Unsupported,
            sp,
            format!("unsupported construct: {what}"),
        );
        // Inside a procedure: reported when a head reaches it (`UnitData::refusals`).
        match self.cur_unit {
            Some(u)
                if matches!(
                    self.p.units[u].kind,
                    UnitKind::Subroutine | UnitKind::Function
                ) =>
            {
                self.p.units[u].refusals.push(d)
            }
            _ => self.diags.push(d),
        }
    }

    pub(super) fn err(&mut self, code: Code, n: Node, msg: String) {
        let sp = self.sp(n);
        self.diags.push(Diagnostic::error(code, sp, msg));
    }

    pub(super) fn unit(&mut self) -> &mut UnitData {
        let u = self.cur_unit.expect("lowering outside a unit");
        &mut self.p.units[u]
    }

    pub(super) fn scope(&self) -> ScopeId {
        self.cur_scope.expect("lowering outside a scope")
    }

    pub(super) fn alloc_expr(&mut self, e: Expr, n: Node) -> ExprId {
        let sp = self.sp(n);
        let u = self.unit();
        let id = u.exprs.alloc(e);
        u.source_map.expr.insert(id, sp);
        id
    }

    pub(super) fn push_stmt(
        &mut self,
        kind: StmtKind,
        n: Node,
        label: Option<String>,
        construct: Option<String>,
    ) -> StmtId {
        let sp = self.sp(n);
        let dirs = std::mem::take(&mut self.pending_dirs);
        let u = self.unit();
        let id = u.stmts.alloc(Stmt {
            kind,
            label,
            construct_name: construct,
            directives: dirs,
            comment: None,
            omp: None,
        });
        u.source_map.stmt.insert(id, sp);
        id
    }

    pub(super) fn construct_name(&self, n: Node) -> Option<String> {
        named_children(n)
            .into_iter()
            .find(|c| c.kind() == "block_label_start_expression")
            .map(|c| self.t(c).trim_end_matches(':').trim().to_string())
    }

    pub(super) fn implicit_type(&self, scope: ScopeId, name: &str) -> Option<Type> {
        let letter = name.chars().next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let li = (letter as u8 - b'a') as usize;
        let mut sc = Some(scope);
        while let Some(s) = sc {
            let d = &self.p.scopes[s];
            if let Some(Some(ts)) = d.implicit.get(li) {
                return Some(type_of_spec(ts, &[]));
            }
            if d.implicit_none {
                return None;
            }
            sc = d.parent;
        }
        let (class, bytes) = if ('i'..='n').contains(&letter) {
            (BaseClass::Integer, 4)
        } else {
            (BaseClass::Real, 4)
        };
        Some(Type {
            base: class,
            bytes: Some(bytes),
            dims: vec![],
            pointers: 0,
        })
    }

    pub(super) fn get_or_create(&mut self, scope: ScopeId, n: Node, kind: SymbolKind) -> SymbolId {
        let spelling = self.t(n).to_string();
        let k = key(&spelling);
        if let Some(&s) = self.p.scopes[scope].names.get(&k) {
            return s;
        }
        self.p
            .add_symbol(scope, k, sym_data(&spelling, kind, scope))
    }
}

pub(super) fn is_intrinsic_module(m: &str) -> bool {
    matches!(
        m,
        "iso_fortran_env"
            | "iso_c_binding"
            | "ieee_arithmetic"
            | "ieee_exceptions"
            | "ieee_features"
            | "omp_lib"
            | "mpi"
    )
}

/// The semantic type of a declared type with dimensions.
pub(crate) fn type_of_spec(ts: &TypeSpec, dims: &[Dim]) -> Type {
    Type {
        base: ts.class,
        bytes: ts.bytes,
        dims: dims.to_vec(),
        pointers: 0,
    }
}

/// Collapses runs of white space (and removes `&` continuation joins) in a verbatim statement.
pub(crate) fn normalize_ws(s: &str) -> String {
    normalize_continuations(s)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Removes `&` + newline + optional leading `&` continuation joins from text that spans
/// lines, keeping everything else as written.
pub(crate) fn normalize_continuations(s: &str) -> String {
    if !s.contains('\n') {
        return s.to_string();
    }
    let mut out = String::new();
    let lines: Vec<&str> = s.split('\n').collect();
    for (i, l) in lines.iter().enumerate() {
        let mut l: &str = l;
        if i > 0 {
            let t = l.trim_start();
            l = t.strip_prefix('&').unwrap_or(t);
        }
        if i + 1 < lines.len() {
            let t = l.trim_end();
            // Drop a trailing comment after the continuation mark.
            let t = match t.rfind('&') {
                Some(p) => &t[..p],
                None => t,
            };
            out.push_str(t);
        } else {
            out.push_str(l);
        }
    }
    out
}

/// The lowering of a block of statements, as the constructs holding one reach it
/// (`control.rs`): `stmts.rs` implements it.
pub(super) trait Blocks<'t> {
    /// Lowers a sequence of statement nodes (with label and comment siblings).
    fn block(&mut self, nodes: &[Node<'t>]) -> Block;
}

/// The lowering of a type specification (`real(8)`, `type(t)`), as declarations, headers
/// and derived types reach it: `types.rs` implements it.
pub(super) trait TypeSpecs<'t> {
    /// A type spec as written (`real(dp)`, `character*8`, `type(pt)`).
    fn lower_type_spec(&mut self, n: Node<'t>) -> TypeSpec;
}
