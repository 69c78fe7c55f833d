//! Fortran lowering: tree-sitter-fortran trees into the IL.
//!
//! Three passes over all Fortran files of the program, so that order of units and files does
//! not matter: (1) create units and scopes and register procedure and module names; (2) lower
//! specification parts, modules first in USE order; (3) lower executable parts, hosts before
//! their internal procedures. Names are resolved while lowering: a `call_expression` is an array
//! reference when its name is a variable with dimensions (or a character substring), otherwise
//! a function call.
//!
//! This file holds the lowering state, the driver of the three passes and the helpers they
//! share; the passes and the constructs they lower are in the submodules.

use crate::ts::{named_children, span, text};
use radtap_il::*;
use std::collections::HashMap;
use tree_sitter::Node;

mod control;
mod decls;
mod exprs;
mod intrinsic_modules;
mod names;
mod omp;
mod spec;
mod stmts;
mod types;
mod units;

/// One parsed Fortran file.
pub(crate) struct FFile<'t> {
    pub(crate) file: u32,
    pub(crate) src: &'t str,
    pub(crate) root: Node<'t>,
    pub(crate) line_map: Option<&'t [u32]>,
}

struct Pending<'t> {
    unit: UnitId,
    node: Node<'t>,
    fidx: usize,
    /// Index of the first body child (after the spec part), filled by pass 2.
    body_start: usize,
}

pub(crate) struct FortranLowering<'a, 't> {
    p: &'a mut Program,
    diags: &'a mut Vec<Diagnostic>,
    files: &'a [FFile<'t>],
    global: ScopeId,
    pending: Vec<Pending<'t>>,
    modules: HashMap<String, UnitId>,
    // Per-unit state while lowering one unit.
    cur_unit: Option<UnitId>,
    cur_file: usize,
    cur_scope: Option<ScopeId>,
    pending_dirs: Vec<Directive>,
    /// DO CONCURRENT nests of the body being lowered (outermost loop) and their index
    /// variables, checked once the body is complete (`stmts.rs`).
    concurrent: Vec<(StmtId, Vec<SymbolId>)>,
    /// An `!$omp` directive waiting for its statement, and a directive line continued with
    /// `&` (`fortran/omp.rs`).
    pending_omp: Option<crate::omp::Pending>,
    omp_cont: Option<(String, Span)>,
    /// Loops under `!$omp do` inside a region, fused with it at `!$omp end parallel`.
    omp_worksharing: Vec<StmtId>,
}

fn key(s: &str) -> String {
    s.to_ascii_lowercase()
}

const STATEMENT_KINDS: &[&str] = &[
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

/// `$AD` directives are parsed by the IL (one parser for both languages).
pub(crate) use radtap_il::directives::parse_directive;

impl<'a, 't> FortranLowering<'a, 't> {
    pub(crate) fn new(
        p: &'a mut Program,
        diags: &'a mut Vec<Diagnostic>,
        files: &'a [FFile<'t>],
        global: ScopeId,
    ) -> Self {
        FortranLowering {
            p,
            diags,
            files,
            global,
            pending: Vec::new(),
            modules: HashMap::new(),
            cur_unit: None,
            cur_file: 0,
            cur_scope: None,
            pending_dirs: Vec::new(),
            concurrent: Vec::new(),
            pending_omp: None,
            omp_cont: None,
            omp_worksharing: Vec::new(),
        }
    }

    /// Runs the three passes; returns the file items of each file.
    pub(crate) fn run(mut self) -> Vec<Vec<FileItem>> {
        let mut items = Vec::new();
        for fidx in 0..self.files.len() {
            let root = self.files[fidx].root;
            self.cur_file = fidx;
            let mut its = Vec::new();
            let mut dirs = Vec::new();
            for ch in named_children(root) {
                match ch.kind() {
                    "program" | "module" | "subroutine" | "function" | "block_data" => {
                        let u = self.declare_unit(ch, fidx, None, self.global);
                        self.p.units[u].directives = std::mem::take(&mut dirs);
                        its.push(FileItem::Unit(u));
                    }
                    "comment" => {
                        let t = self.t(ch).to_string();
                        match parse_directive(&t) {
                            Some(mut d) => {
                                d.span = Some(self.sp(ch));
                                dirs.push(d)
                            }
                            None => its.push(FileItem::Comment(t)),
                        }
                    }
                    "ERROR" => {}
                    other => self.unsupported(ch, &format!("`{other}` at file level")),
                }
            }
            for d in dirs {
                its.push(FileItem::Comment(d.text));
            }
            items.push(its);
        }
        // Pass 2: specification parts, modules first (repeatedly, so a module can USE a module
        // defined later in the input).
        let order = self.spec_order();
        for i in order {
            self.lower_spec(i);
        }
        // Pass 3: bodies, in creation order (hosts before contained procedures).
        for i in 0..self.pending.len() {
            self.lower_body(i);
        }
        items
    }

    fn t(&self, n: Node) -> &'t str {
        text(n, self.files[self.cur_file].src)
    }

    fn sp(&self, n: Node) -> Span {
        let f = &self.files[self.cur_file];
        span(n, f.file, f.line_map)
    }

    fn unsupported(&mut self, n: Node, what: &str) {
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

    fn err(&mut self, code: Code, n: Node, msg: String) {
        let sp = self.sp(n);
        self.diags.push(Diagnostic::error(code, sp, msg));
    }

    fn unit(&mut self) -> &mut UnitData {
        let u = self.cur_unit.expect("lowering outside a unit");
        &mut self.p.units[u]
    }

    fn scope(&self) -> ScopeId {
        self.cur_scope.expect("lowering outside a scope")
    }
}

fn is_intrinsic_module(m: &str) -> bool {
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

pub(crate) fn sym_data(spelling: &str, kind: SymbolKind, scope: ScopeId) -> SymbolData {
    SymbolData {
        spelling: spelling.to_string(),
        kind,
        scope,
        ty: None,
        attrs: SymAttrs::default(),
        unit: None,
        common: None,
        implicit_type: false,
    }
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
