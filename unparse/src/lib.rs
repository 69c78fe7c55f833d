//! # radtap-unparse: the IL back to readable Fortran and C
//!
//! [`write_file`] writes one [`radtap_il::SourceFile`] of a program back as source text in its
//! language: free-form Fortran (fixed-form input is written as free form, `.f90`) or C. Output
//! keeps declaration order, comments, directives and the original spelling of names and
//! literals, and is deterministic: it depends only on the IL, never on hash order or arena
//! indices. Fortran lines are at most 132 columns, continued with `&`.
//!
//! Expressions are written with the fewest parentheses that keep the tree's meaning, plus every
//! parenthesis the source had ([`radtap_il::Expr::Paren`]), so `parse(unparse(il)) == il`.

mod c;
mod fortran;
mod prec;

use radtap_il::{Lang, Program, SourceForm, Span};

/// Writes file `file` of `prog` as source text.
pub fn write_file(prog: &Program, file: usize) -> String {
    write_file_mapped(prog, file).0
}

/// [`write_file`], and for each line of the text the span of the statement that wrote it
/// (the innermost statement with a span: a generated statement carries the span of the
/// primal statement it comes from); `None` for declarations, headers and comments.
pub fn write_file_mapped(prog: &Program, file: usize) -> (String, Vec<Option<Span>>) {
    let f = &prog.files[file];
    match f.lang {
        Lang::Fortran => fortran::write_file(prog, file),
        Lang::C => c::write_file(prog, file),
    }
}

/// The statement span of each line a writer has written (`write_file_mapped`).
#[derive(Default)]
struct LineSpans {
    /// The span of the statement being written (the innermost that has one).
    cur: Option<Span>,
    /// For each line of the output up to `synced` bytes, the span of the statement that
    /// wrote it.
    spans: Vec<Option<Span>>,
    synced: usize,
}

impl LineSpans {
    /// Gives the lines of `out` written since the last call the current span.
    fn sync(&mut self, out: &str) {
        let n = out[self.synced..].matches('\n').count();
        self.spans.extend(std::iter::repeat_n(self.cur, n));
        self.synced = out.len();
    }

    /// Syncs, then makes `sp` (when there is one) the current span; returns the span to
    /// restore with [`LineSpans::leave`].
    fn enter(&mut self, out: &str, sp: Option<Span>) -> Option<Span> {
        self.sync(out);
        let outer = self.cur;
        if sp.is_some() {
            self.cur = sp;
        }
        outer
    }

    /// Syncs, then restores the span `outer` that [`LineSpans::enter`] returned.
    fn leave(&mut self, out: &str, outer: Option<Span>) {
        self.sync(out);
        self.cur = outer;
    }
}

/// Extension for the regenerated file (`f90` for any Fortran, `c` for C).
pub fn output_extension(prog: &Program, file: usize) -> &'static str {
    match prog.files[file].form {
        SourceForm::Free | SourceForm::Fixed => "f90",
        SourceForm::C => "c",
    }
}

pub use fortran::write_unit as write_fortran_unit;

/// An empty statement that only holds the `$AD` directives written after the last statement
/// of a block (the frontends make it): the directives are printed, not the statement.
pub(crate) fn is_directive_holder(st: &radtap_il::Stmt) -> bool {
    matches!(st.kind, radtap_il::StmtKind::Empty) && st.label.is_none() && !st.directives.is_empty()
}
