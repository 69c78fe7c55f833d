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

use crate::ts::named_children;
use radtap_il::*;
use std::collections::HashMap;

mod control;
mod decls;
mod exprs;
mod intrinsic_modules;
mod lower;
mod names;
mod omp;
mod spec;
mod stmts;
mod types;
mod units;

use lower::*;
pub(crate) use lower::{FFile, FortranLowering};

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
}
