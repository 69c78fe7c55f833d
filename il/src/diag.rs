//! Source spans and diagnostics.
//!
//! Every diagnostic has a stable code from [`Code`]; the table in [`Code::describe`] is the one
//! place where codes are documented (`radtap --explain CODE` prints it).

use std::fmt;

/// A byte range in one input file, with the 1-based line/column of its start in the user's
/// original file (after mapping back through fixed-form conversion or `cpp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// Index of the file in `Program::files`.
    pub file: u32,
    /// 1-based line in the original file.
    pub line: u32,
    /// 1-based column in the original file.
    pub col: u32,
    /// Length in characters on that line (for the caret), at least 1.
    pub len: u32,
}

/// Severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Information attached to another diagnostic.
    Note,
    /// Output is still produced.
    Warning,
    /// The input is rejected.
    Error,
}

macro_rules! codes {
    ($($name:ident = $code:literal : $desc:literal,)*) => {
        /// Diagnostic codes. Stable: users grep for them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Code { $(#[doc = $desc] $name,)* }
        impl Code {
            /// The code as printed (`AD001`).
            pub fn as_str(self) -> &'static str { match self { $(Code::$name => $code,)* } }
            /// One-line description.
            pub fn describe(self) -> &'static str { match self { $(Code::$name => $desc,)* } }
            /// Every code, for `--explain` and documentation.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];
        }
    };
}

codes! {
    Io = "AD001": "an input file cannot be read (missing, unreadable, or not UTF-8 text)",
    UnknownExtension = "AD002": "the file extension does not name a supported language (.f .for .f77 .F .f90 .f95 .f03 .f08 .F90 .c .h)",
    Syntax = "AD010": "syntax error: the parser could not recognise this part of the source",
    MissingToken = "AD011": "syntax error: something required is missing here (closing parenthesis, END statement, semicolon)",
    FixedForm = "AD012": "malformed fixed-form line (continuation mark on a first line, label field not numeric)",
    Preprocessor = "AD013": "the C preprocessor failed on this file",
    Nesting = "AD014": "expressions or statements nested deeper than radtap can process (10,000 levels of expressions and statements, 1,000 nested blocks, chains such as a flat sum of 250,000 terms): split them into smaller parts",
    Unsupported = "AD020": "a construct radtap does not support yet; the message says what to do instead",
    Undeclared = "AD030": "a name is used but never declared (IMPLICIT NONE in Fortran, or C)",
    Redeclared = "AD031": "a name is declared twice in the same scope",
    EndNameMismatch = "AD032": "the name on an END statement differs from the unit's name",
    UnknownModule = "AD033": "USE of a module that is not among the input files",
    LabelUndefined = "AD034": "a GOTO or DO refers to a statement label that does not exist in the unit",
    UnknownHead = "AD040": "-head names a procedure that is not defined in the input files",
    UnknownVar = "AD041": "-vars/-outvars names a variable that is not an argument or global of the head",
    NoInfluence = "AD060": "an independent has no differentiable influence on any dependent, or a dependent depends on no independent",
    EntryDerivative = "AD061": "a derivative argument that is no input of the derivative (the derivative of a non-independent, the adjoint of a non-dependent output) cannot be cleared on entry because its extent is unknown: give -size NAME=N, or pass zeros there",
    NoDerivative = "AD070": "an active value goes through a procedure or intrinsic that has no body and no derivative (external, unknown intrinsic)",
    ActiveIo = "AD071": "an I/O statement reads into an active variable: its derivative is lost (reset to zero)",
    Aliasing = "AD072": "two actual arguments of a call may share memory the callee writes (Tapenade DF02): the tangent follows the primal, the adjoint refuses the call",
    Directive = "AD050": "a misplaced or unknown $AD directive",
    Internal = "AD900": "internal error: the IL verifier found an inconsistency (please report with the input)",
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A diagnostic message about the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// Code.
    pub code: Code,
    /// Where; `None` for whole-run problems (no file).
    pub span: Option<Span>,
    /// The message, one sentence.
    pub message: String,
    /// Extra notes (`help: ...`).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            span: Some(span),
            message: message.into(),
            notes: vec![],
        }
    }
    /// A warning at `span`.
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            code,
            span: Some(span),
            message: message.into(),
            notes: vec![],
        }
    }
    /// An error without location.
    pub fn global(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            span: None,
            message: message.into(),
            notes: vec![],
        }
    }
    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Renders `file:line:col: error[CODE]: message`, the source line and a caret.
    /// `file_name` and `source` give the original file of `span`.
    pub fn render(&self, file_name: &str, source: Option<&str>) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        let mut out = String::new();
        match self.span {
            Some(sp) => {
                out.push_str(&format!(
                    "{file_name}:{}:{}: {sev}[{}]: {}\n",
                    sp.line, sp.col, self.code, self.message
                ));
                if let Some(line) =
                    source.and_then(|s| s.lines().nth(sp.line.saturating_sub(1) as usize))
                {
                    let line = line.replace('\t', " ");
                    let num = sp.line.to_string();
                    let pad = " ".repeat(num.len());
                    let col = (sp.col.max(1) - 1) as usize;
                    let width = line.chars().count();
                    let len = (sp.len.max(1) as usize).min(width.saturating_sub(col).max(1));
                    out.push_str(&format!(
                        "{pad} |\n{num} | {line}\n{pad} | {}{}\n",
                        " ".repeat(col),
                        "^".repeat(len)
                    ));
                }
            }
            None => out.push_str(&format!("radtap: {sev}[{}]: {}\n", self.code, self.message)),
        }
        for n in &self.notes {
            out.push_str(&format!("  = {n}\n"));
        }
        out
    }
}
