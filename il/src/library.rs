//! Routines without source: what radtap knows of them from a description.
//!
//! A description says, per argument (and the result), whether the routine reads it, writes it,
//! and which arguments' input values its output value depends on — Tapenade's library syntax
//! (`../shared/peers/tapenade-3.16/resources/lib/*GeneralLib`), read from `-ext FILE` or from
//! radtap's built-in records (reference BLAS, [`BUILTIN`]):
//!
//! ```text
//! subroutine g:
//!   external:
//!   shape: (param 1, param 2, param 3)
//!   type: (modifiedType(modifiers(ident double), float()), integer(), arrayType(...))
//!   ReadNotWritten:     (1, 1, 0)
//!   NotReadThenWritten: (0, 0, 1)
//!   ReadThenWritten:    (0, 0, 0)
//!   deps: (id,
//!          id,
//!          1, 1, 0)
//! ```
//!
//! `deps` has one row per shape element: `id` (the output value is the input value), or one
//! 0/1 per shape element (the output depends on those inputs). `destofparam N` is what the C
//! pointer argument N points to. Records marked `intrinsic:` describe intrinsics radtap
//! already knows (its derivative table): they are skipped, so Tapenade's own files can be
//! given as they are.
//!
//! The frontends turn a description into a stand-in body the analyses read like any code
//! (`radtap_frontends::library`); the generators call `NAME_d` / `NAME_b` for it, which the
//! user supplies (`-ext`) or radtap writes (built-in records, from [`BUILTIN_DERIVATIVES`]).

use crate::{BaseClass, Program, SymbolId};
use std::collections::HashMap;

/// Whether symbol `s` holds real or complex values: a described routine's argument that gets
/// a derivative argument (every such one does, whatever is active where it is called).
pub fn real_valued(prog: &Program, s: SymbolId) -> bool {
    prog.symbols[s]
        .ty
        .as_ref()
        .is_some_and(|t| matches!(t.base, BaseClass::Real | BaseClass::Complex))
}

/// What a routine does with one of its arguments (or its result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgFacts {
    /// Its value on entry is read.
    pub read: bool,
    /// It is written.
    pub written: bool,
    /// The shape elements whose input values its output value depends on; `None` for `id`
    /// (unchanged, or no row given).
    pub deps: Option<Vec<usize>>,
    /// The type the description gives, if it gives one.
    pub ty: TypeHint,
    /// Its value goes to other processes (MPI: `Sent:`); the analyses take it as useful.
    pub sent: bool,
    /// Its new value comes from other processes (MPI: `Received:`); the analyses take it as
    /// varied.
    pub received: bool,
}

/// A described argument's type, as far as the stand-in needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TypeHint {
    /// The base type.
    pub base: BaseHint,
    /// `arrayType(...)`.
    pub array: bool,
    /// Real or complex kind in bytes (4 single, 8 double) when the type says.
    pub kind: Option<u8>,
}

/// Base type of a [`TypeHint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BaseHint {
    /// `metavar …`, `none()`, or a type radtap does not model: taken from the call.
    #[default]
    Unknown,
    /// `float()`, `metavar real`, `modifiedType(modifiers(ident double), float())`.
    Real,
    /// `complex()`.
    Complex,
    /// `integer()`.
    Integer,
    /// `boolean()`.
    Logical,
    /// `character()`.
    Character,
}

/// Where a shape element lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `param N` (1-based as written; stored 0-based).
    Param(usize),
    /// `destofparam N`: what the C pointer argument N points to.
    Dest(usize),
    /// `result`.
    Result,
}

/// One routine without source.
#[derive(Clone, Debug)]
pub struct Description {
    /// The name as written (a Fortran name is matched without case).
    pub name: String,
    /// `function` (has a result) or `subroutine`.
    pub function: bool,
    /// The shape: which argument each fact describes.
    pub shape: Vec<Place>,
    /// Facts per shape element, in shape order.
    pub facts: Vec<ArgFacts>,
    /// `file:line` of the record, for messages.
    pub origin: String,
    /// A built-in record: radtap writes its derivatives.
    pub builtin: bool,
}

impl Description {
    /// The facts of argument `i` (0-based): `param i+1`, merged with `destofparam i+1`.
    pub fn param(&self, i: usize) -> Option<&ArgFacts> {
        let at = |p: Place| self.shape.iter().position(|&q| q == p);
        at(Place::Dest(i))
            .or_else(|| at(Place::Param(i)))
            .map(|k| &self.facts[k])
    }

    /// The facts of the result.
    pub fn result(&self) -> Option<&ArgFacts> {
        let k = self.shape.iter().position(|&q| q == Place::Result)?;
        Some(&self.facts[k])
    }

    /// Number of arguments the shape names.
    pub fn arity(&self) -> usize {
        self.shape
            .iter()
            .filter_map(|p| match p {
                Place::Param(i) | Place::Dest(i) => Some(i + 1),
                Place::Result => None,
            })
            .max()
            .unwrap_or(0)
    }
}

/// A malformed description: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

/// Every described routine, by key (Fortran names lower-cased by the caller).
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// Descriptions by name as written.
    pub routines: HashMap<String, Description>,
}

impl Library {
    /// The built-in records (reference BLAS in Fortran and CBLAS forms), parsed once.
    pub fn builtin() -> Library {
        static BUILTIN_LIBRARY: std::sync::OnceLock<Library> = std::sync::OnceLock::new();
        BUILTIN_LIBRARY.get_or_init(Library::parse_builtin).clone()
    }

    fn parse_builtin() -> Library {
        let mut lib = Library::default();
        for d in parse("<radtap BLAS>", BUILTIN).expect("the built-in records parse") {
            // The single-precision twin: `sdot` of `ddot`, `cblas_sdot` of `cblas_ddot`.
            let single = match (d.name.strip_prefix("cblas_"), d.name.as_str()) {
                (Some("idamax"), _) => "cblas_isamax".to_string(),
                (Some(rest), _) => format!("cblas_s{}", &rest[1..]),
                (None, "idamax") => "isamax".to_string(),
                (None, n) => format!("s{}", &n[1..]),
            };
            let mut s = Description {
                name: single,
                builtin: true,
                ..d.clone()
            };
            for f in &mut s.facts {
                if f.ty.kind == Some(8) {
                    f.ty.kind = Some(4);
                }
            }
            lib.routines.insert(s.name.clone(), s);
            lib.routines
                .insert(d.name.clone(), Description { builtin: true, ..d });
        }
        for d in parse("<radtap MPI>", MPI).expect("the built-in MPI records parse") {
            lib.routines
                .insert(d.name.clone(), Description { builtin: true, ..d });
        }
        lib
    }

    /// Adds the records of a `-ext` file; they replace built-in ones of the same name.
    pub fn add(&mut self, file: &str, text: &str) -> Result<(), SyntaxError> {
        for d in parse(file, text)? {
            self.routines.insert(d.name.clone(), d);
        }
        Ok(())
    }

    /// The description of `name` (exact, else without case: Fortran).
    pub fn get(&self, name: &str) -> Option<&Description> {
        self.routines.get(name).or_else(|| {
            self.routines
                .values()
                .find(|d| d.name.eq_ignore_ascii_case(name))
        })
    }
}

/// The stand-in file of each language (`radtap_frontends::library`): not an input of the
/// user's, never named in output.
pub const STAND_IN_FILES: [&str; 2] = ["radtap_library.f90", "radtap_library.c"];

/// The built-in records: reference BLAS (Fortran, and CBLAS with `destofparam`).
pub const BUILTIN: &str = include_str!("library/blas.lib");

/// The built-in records of MPI's C bindings (`Sent:` / `Received:` mark message buffers).
pub const MPI: &str = include_str!("library/mpi.lib");

/// Whether `d` is one of MPI's built-in records: its derivatives are radtap's MPI layer
/// (`adMPI.c`, written by `radtap runtime`), which the generated file includes.
pub fn is_mpi(d: &Description) -> bool {
    d.builtin && d.name.len() > 4 && d.name[..4].eq_ignore_ascii_case("mpi_")
}

/// The derivatives radtap writes for the built-in records, per language and mode: sections
/// headed by a line `!> NAME` (Fortran) or `//> NAME` (C).
pub const BUILTIN_DERIVATIVES: &[(&str, &str)] = &[
    ("f_d", include_str!("library/blas_d.f90")),
    ("f_b", include_str!("library/blas_b.f90")),
    ("c_d", include_str!("library/cblas_d.c")),
    ("c_b", include_str!("library/cblas_b.c")),
    // Not derivatives: the stand-in bodies the analyses read (`radtap_frontends::library`).
    ("f_s", include_str!("library/blas_stand_in.f90")),
];

/// The text of the built-in derivative routine `name` (`ddot_d`, `cblas_dgemm_b`) in file
/// `which` of [`BUILTIN_DERIVATIVES`], without its heading line. A single-precision routine
/// (`sdot_d`, `cblas_sgemm_b`) is its double-precision text with the types and names changed.
pub fn builtin_derivative(which: &str, name: &str) -> Option<String> {
    if let Some(text) = mpi_derivative(which, name) {
        return Some(text);
    }
    if let Some(t) = section(which, name) {
        return Some(t.to_string());
    }
    let c = which.starts_with('c');
    let double = match name.strip_prefix("cblas_s") {
        Some(rest) => format!("cblas_d{rest}"),
        None => format!("d{}", name.strip_prefix('s')?),
    };
    let text = section(which, &double)?;
    Some(single_precision(text, c))
}

/// The MPI routines whose tangent (`NAME_d`) radtap's MPI layer `adMPI.c` defines.
pub const MPI_TANGENTS: &[&str] = &[
    "MPI_Send",
    "MPI_Recv",
    "MPI_Sendrecv",
    "MPI_Isend",
    "MPI_Irecv",
    "MPI_Wait",
    "MPI_Waitall",
    "MPI_Bcast",
    "MPI_Reduce",
    "MPI_Allreduce",
    "MPI_Gather",
    "MPI_Scatter",
    "MPI_Allgather",
    "MPI_Gatherv",
    "MPI_Scatterv",
];

/// The MPI routines whose adjoint (`NAME_b`) `adMPI.c` defines (the same as its tangents);
/// for the non-blocking ones and their completions also `NAME_fwd`, which the adjoint's
/// forward sweep calls with the arguments of `NAME_b` to record what the backward sweep
/// reverses (docs/decisions.md, "MPI").
pub const MPI_ADJOINTS: &[&str] = MPI_TANGENTS;

/// What stands for the derivative `name` (`MPI_Send_d`) of an MPI routine in a generated C
/// file: the include of radtap's MPI layer, which defines it.
fn mpi_derivative(which: &str, name: &str) -> Option<String> {
    let (base, list) = match which {
        "c_d" | "f_d" => (name.strip_suffix("_d")?, MPI_TANGENTS),
        "c_b" | "f_b" => (name.strip_suffix("_b")?, MPI_ADJOINTS),
        _ => return None,
    };
    if !list.iter().any(|n| n.eq_ignore_ascii_case(base)) {
        return None;
    }
    Some(if which.starts_with('c') {
        format!("// {name}: radtap's MPI layer (adMPI.c, written by `radtap runtime`)\n#include \"adMPI.h\"\n")
    } else {
        // Fortran calls the layer's C entry points (`mpi_send_d_`) as external subroutines.
        format!("! {name}: radtap's MPI layer (adMPI.c, written by `radtap runtime`; compile it with mpicc)\n")
    })
}

/// The single-precision form of a double-precision derivative text.
fn single_precision(text: &str, c: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let mut l = line.to_string();
        if c {
            l = l.replace("double", "float").replace("cblas_d", "cblas_s");
        } else {
            l = l.replace("real(8)", "real(4)").replace("_8", "_4");
            for n in SINGLE_RENAMED {
                l = rename_word(&l, n, &format!("s{}", &n[1..]));
            }
        }
        out.push_str(&l);
    }
    out
}

/// The double-precision Fortran BLAS names the built-in texts use.
const SINGLE_RENAMED: &[&str] = &[
    "ddot", "dnrm2", "daxpy", "dscal", "dcopy", "dgemv", "dgemm", "dger", "dswap", "dtrsv",
    "dtrsm", "dtrmv", "dtrmm",
];

/// `line` with every whole word `from` (any case) replaced by `to`, keeping suffixes such as
/// `ddot_d` (a word boundary is anything but a letter or digit before, a letter/digit after).
fn rename_word(line: &str, from: &str, to: &str) -> String {
    let lower = line.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < line.len() {
        if lower[i..].starts_with(from)
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && !b
                .get(i + from.len())
                .is_some_and(|c| c.is_ascii_alphanumeric())
        {
            out.push_str(to);
            i += from.len();
        } else {
            let ch = line[i..].chars().next().expect("in bounds");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn section(which: &str, name: &str) -> Option<&'static str> {
    let text = BUILTIN_DERIVATIVES.iter().find(|(w, _)| *w == which)?.1;
    let mark = if which.starts_with('c') {
        "//> "
    } else {
        "!> "
    };
    let mut start = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let next = offset + line.len();
        if let Some(n) = line.trim_end().strip_prefix(mark) {
            if let Some(s) = start {
                return Some(&text[s..offset]);
            }
            if n.trim().eq_ignore_ascii_case(name) {
                start = Some(next);
            }
        }
        offset = next;
    }
    start.map(|s| &text[s..])
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Open,
    Close,
    Comma,
    Colon,
}

/// A term of the syntax: `name`, `name(args)`, `metavar x`, a number.
#[derive(Clone, Debug, PartialEq)]
enum Term {
    Atom(String),
    App(String, Vec<Term>),
}

struct Lexer {
    toks: Vec<(Tok, u32, u32)>,
    pos: usize,
}

fn lex(text: &str, first_line: u32) -> Vec<(Tok, u32, u32)> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let ln = first_line + k as u32;
        // Bytes: a delimiter or blank is ASCII, never part of a multi-byte character, so a
        // word always ends on a character boundary (`à`'s second byte is not a blank).
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let col = i as u32 + 1;
            match b[i] {
                b'(' => out.push((Tok::Open, ln, col)),
                b')' => out.push((Tok::Close, ln, col)),
                b',' => out.push((Tok::Comma, ln, col)),
                b':' => out.push((Tok::Colon, ln, col)),
                c if c.is_ascii_whitespace() => {}
                _ => {
                    let s = i;
                    while i < b.len()
                        && !matches!(b[i], b'(' | b')' | b',' | b':')
                        && !b[i].is_ascii_whitespace()
                    {
                        i += 1;
                    }
                    out.push((Tok::Word(line[s..i].to_string()), ln, col));
                    continue;
                }
            }
            i += 1;
        }
    }
    out
}

impl Lexer {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn here(&self) -> (u32, u32) {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map(|t| (t.1, t.2))
            .unwrap_or((1, 1))
    }

    fn error(&self, message: impl Into<String>) -> SyntaxError {
        let (line, col) = self.here();
        SyntaxError {
            line,
            col,
            message: message.into(),
        }
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.0.clone());
        self.pos += 1;
        t
    }

    /// `( term, term, … )`
    fn list(&mut self) -> Result<Vec<Term>, SyntaxError> {
        if self.next() != Some(Tok::Open) {
            self.pos -= 1;
            return Err(self.error("expected `(`"));
        }
        let mut items = Vec::new();
        if self.peek() == Some(&Tok::Close) {
            self.pos += 1;
            return Ok(items);
        }
        loop {
            items.push(self.term()?);
            match self.next() {
                Some(Tok::Comma) => continue,
                Some(Tok::Close) => return Ok(items),
                _ => {
                    self.pos -= 1;
                    return Err(self.error("expected `,` or `)`"));
                }
            }
        }
    }

    /// `word`, `word word` (`metavar x`, `param 1`), `word(…)`, `word word(…)`.
    fn term(&mut self) -> Result<Term, SyntaxError> {
        let Some(Tok::Word(w)) = self.next() else {
            self.pos -= 1;
            return Err(self.error("expected a name or a number"));
        };
        match self.peek() {
            Some(Tok::Open) => Ok(Term::App(w, self.list()?)),
            Some(Tok::Word(_)) => {
                // `metavar x`, `param 1`, `ident double`: the word qualifies the next term.
                let inner = self.term()?;
                Ok(Term::App(w, vec![inner]))
            }
            _ => Ok(Term::Atom(w)),
        }
    }
}

/// Parses a description file; records marked `intrinsic:` are skipped.
pub fn parse(file: &str, text: &str) -> Result<Vec<Description>, SyntaxError> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let header = |l: &str| -> Option<(bool, String)> {
        let l = l.trim_end();
        let (kw, rest) = l.split_once(char::is_whitespace)?;
        let name = rest.trim().strip_suffix(':')?.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return None;
        }
        match kw {
            "function" => Some((true, name.to_string())),
            "subroutine" => Some((false, name.to_string())),
            "constant" => Some((false, String::new())),
            _ => None,
        }
    };
    let mut k = 0;
    while k < lines.len() {
        // Lines before the first record (comments) are skipped.
        let Some((function, name)) = header(lines[k]) else {
            k += 1;
            continue;
        };
        let start = k;
        k += 1;
        while k < lines.len() && header(lines[k]).is_none() {
            k += 1;
        }
        if name.is_empty() {
            continue;
        }
        let body = lines[start + 1..k].join("\n");
        if let Some(d) = record(file, &name, function, &body, start as u32 + 2)? {
            out.push(d);
        }
    }
    Ok(out)
}

/// One record; `None` for an intrinsic (radtap's derivative table knows those).
fn record(
    file: &str,
    name: &str,
    function: bool,
    body: &str,
    first_line: u32,
) -> Result<Option<Description>, SyntaxError> {
    // An `inline :` section is a token-per-line tree: only the fields before it matter.
    let cut = body.find("inline").unwrap_or(body.len());
    let mut lx = Lexer {
        toks: lex(&body[..cut], first_line),
        pos: 0,
    };
    let mut intrinsic = false;
    let mut shape: Option<Vec<Place>> = None;
    let mut fields: HashMap<String, (Vec<Term>, SyntaxError)> = HashMap::new();
    while let Some(t) = lx.next() {
        let Tok::Word(w) = t else {
            lx.pos -= 1;
            return Err(lx.error("expected a field name (`shape:`, `ReadNotWritten:`, …)"));
        };
        if lx.next() != Some(Tok::Colon) {
            lx.pos -= 1;
            return Err(lx.error(format!("expected `:` after `{w}`")));
        }
        match w.as_str() {
            "external" => {}
            "intrinsic" => intrinsic = true,
            "derivative" | "inline" => {
                // A derivative formula for an intrinsic: radtap has its own.
                while lx.peek().is_some() && lx.peek() != Some(&Tok::Open) {
                    lx.pos += 1;
                }
                lx.term().ok();
                if lx.peek().is_some() {
                    lx.list().ok();
                }
            }
            "shape" => {
                let at = lx.error("");
                let items = lx.list()?;
                let mut v = Vec::new();
                for it in items {
                    v.push(place(&it).ok_or_else(|| SyntaxError {
                        message: format!(
                            "`{}`: a shape element is `param N`, `destofparam N` or `result` (COMMON and globals are not described yet)",
                            show(&it)
                        ),
                        ..at.clone()
                    })?);
                }
                shape = Some(v);
            }
            _ => {
                let at = lx.error("");
                let items = lx.list()?;
                fields.insert(w.to_ascii_lowercase(), (items, at));
            }
        }
    }
    if intrinsic {
        return Ok(None);
    }
    let Some(shape) = shape else {
        return Err(SyntaxError {
            line: first_line.saturating_sub(1),
            col: 1,
            message: format!("{name}: the record has no `shape:`"),
        });
    };
    let n = shape.len();
    let flags = |key: &str| -> Result<Vec<bool>, SyntaxError> {
        let Some((items, at)) = fields.get(key) else {
            return Ok(vec![false; n]);
        };
        if items.len() != n {
            return Err(SyntaxError {
                message: format!(
                    "{name}: `{key}` has {} entries for {n} shape elements",
                    items.len()
                ),
                ..at.clone()
            });
        }
        Ok(items.iter().map(|t| *t == Term::Atom("1".into())).collect())
    };
    let rnw = flags("readnotwritten")?;
    let nrtw = flags("notreadthenwritten")?;
    let rtw = flags("readthenwritten")?;
    let sent = flags("sent")?;
    let received = flags("received")?;
    let types = match fields.get("type") {
        Some((items, _)) if items.len() == n => items.iter().map(type_hint).collect(),
        _ => vec![TypeHint::default(); n],
    };
    let mut deps: Vec<Option<Vec<usize>>> = vec![None; n];
    if let Some((items, at)) = fields.get("deps") {
        let mut it = items.iter();
        for row in deps.iter_mut() {
            match it.next() {
                Some(Term::Atom(a)) if a == "id" => {}
                Some(first) => {
                    let mut v = Vec::new();
                    let mut cells = vec![first];
                    for _ in 1..n {
                        cells.push(it.next().ok_or_else(|| SyntaxError {
                            message: format!(
                                "{name}: a `deps` row is `id` or {n} numbers, one per shape element"
                            ),
                            ..at.clone()
                        })?);
                    }
                    for (j, c) in cells.into_iter().enumerate() {
                        match c {
                            Term::Atom(a) if a == "0" => {}
                            Term::Atom(a) if a == "1" => v.push(j),
                            other => {
                                return Err(SyntaxError {
                                    message: format!(
                                        "{name}: a `deps` cell is 0 or 1, not `{}`",
                                        show(other)
                                    ),
                                    ..at.clone()
                                })
                            }
                        }
                    }
                    *row = Some(v);
                }
                None => {
                    return Err(SyntaxError {
                        message: format!("{name}: `deps` has fewer rows than shape elements"),
                        ..at.clone()
                    })
                }
            }
        }
        if it.next().is_some() {
            return Err(SyntaxError {
                message: format!("{name}: `deps` has more rows than shape elements"),
                ..at.clone()
            });
        }
    }
    let facts = (0..n)
        .map(|i| {
            let written = nrtw[i] || rtw[i];
            ArgFacts {
                read: rnw[i] || rtw[i],
                written,
                // Written without a row: depends on nothing (a constant); not written: id.
                deps: match (&deps[i], written) {
                    (Some(d), _) => Some(d.clone()),
                    (None, true) if !fields.contains_key("deps") => Some(Vec::new()),
                    (None, _) => None,
                },
                ty: types[i],
                sent: sent[i],
                received: received[i],
            }
        })
        .collect();
    Ok(Some(Description {
        name: name.to_string(),
        function,
        shape,
        facts,
        origin: format!("{file}:{}", first_line.saturating_sub(1)),
        builtin: false,
    }))
}

fn place(t: &Term) -> Option<Place> {
    match t {
        Term::Atom(a) if a == "result" => Some(Place::Result),
        Term::App(f, a) if a.len() == 1 => {
            let Term::Atom(n) = &a[0] else { return None };
            let n: usize = n.parse().ok().filter(|&n| n > 0)?;
            match f.as_str() {
                "param" => Some(Place::Param(n - 1)),
                "destofparam" => Some(Place::Dest(n - 1)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn show(t: &Term) -> String {
    match t {
        Term::Atom(a) => a.clone(),
        Term::App(f, a) => {
            let inner: Vec<String> = a.iter().map(show).collect();
            format!("{f}({})", inner.join(", "))
        }
    }
}

fn type_hint(t: &Term) -> TypeHint {
    let s = show(t).to_ascii_lowercase();
    let array = s.starts_with("arraytype");
    let base = if s.contains("complex") {
        BaseHint::Complex
    } else if s.contains("float") || s.contains("metavar(real") {
        BaseHint::Real
    } else if s.contains("integer") {
        BaseHint::Integer
    } else if s.contains("boolean") {
        BaseHint::Logical
    } else if s.contains("character") {
        BaseHint::Character
    } else {
        BaseHint::Unknown
    };
    let kind = match base {
        BaseHint::Real | BaseHint::Complex if s.contains("ident(double)") => Some(8),
        BaseHint::Real | BaseHint::Complex if s.contains("float()") => Some(4),
        _ => None,
    };
    TypeHint { base, array, kind }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tapenade_record_reads_into_facts() {
        let text = "subroutine g:\n  external:\n  shape: (param 1, param 2, param 3)\n  type: (arrayType(modifiedType(modifiers(ident double), float()), dimColons()), integer(), metavar real)\n  ReadNotWritten: (1, 1, 0)\n  NotReadThenWritten: (0, 0, 1)\n  deps: (id,\n         id,\n         1, 0, 0)\n";
        let d = parse("g.lib", text).unwrap();
        assert_eq!(d.len(), 1);
        let g = &d[0];
        assert_eq!(g.arity(), 3);
        assert!(!g.function);
        let x = g.param(0).unwrap();
        assert!(x.read && !x.written && x.deps.is_none());
        assert_eq!(
            x.ty,
            TypeHint {
                base: BaseHint::Real,
                array: true,
                kind: Some(8)
            }
        );
        let y = g.param(2).unwrap();
        assert!(y.written && !y.read);
        assert_eq!(y.deps, Some(vec![0]));
        assert_eq!(g.param(1).unwrap().ty.base, BaseHint::Integer);
    }

    #[test]
    fn a_malformed_record_is_located() {
        let text =
            "\nfunction f:\n  external:\n  shape: (param 1, result)\n  ReadNotWritten: (1, 0, 0)\n";
        let e = parse("f.lib", text).unwrap_err();
        assert_eq!(e.line, 5);
        assert!(e.message.contains("3 entries for 2"), "{}", e.message);
        let e = parse("f.lib", "function f:\n  shape: (common /c/[0,8])\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("shape element"), "{}", e.message);
    }

    #[test]
    fn non_ascii_text_is_an_error_or_a_word_never_a_panic() {
        // `à` ends in byte 0xA0, which is a blank as a Latin-1 character.
        let text = "subroutine g:\n  external:\n  shape: (param 1)\n  deps: (à)\n";
        let e = parse("g.lib", text).unwrap_err();
        assert_eq!(e.line, 4);
        let text = "function h:\n  external:\n  shape: (param 1, result)\n  type: (réel\u{a0}x, float())\n";
        assert!(parse("h.lib", text).is_ok());
    }

    #[test]
    fn tapenades_own_files_read_with_intrinsics_skipped() {
        let text = "function sin:\n  intrinsic:\n  shape: (param 1, result)\n  type: (metavar float, metavar float)\n  derivative : binary(call(none(), ident sin, expressions(metavar X)),\n      none(), expressions(metavar X))\n\nfunction min:\n  intrinsic:\n  shape: (param 1, param 2, result)\n  inline :\nfunction\nmodifiers\nendOfList\n\nsubroutine mpi_init:\n  external:\n  shape: (param 1)\n  type:  (integer())\n  ReadNotWritten:     (0)\n  NotReadThenWritten: (1)\n";
        let d = parse("F77GeneralLib", text).unwrap();
        let names: Vec<&str> = d.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["mpi_init"]);
    }

    #[test]
    fn every_builtin_record_has_its_derivatives() {
        let lib = Library::builtin();
        assert!(lib.get("DDOT").is_some());
        for d in lib.routines.values() {
            // An integer function (`idamax`) has no derivative to write.
            if d.facts
                .iter()
                .all(|f| !f.written || f.ty.base != BaseHint::Real)
            {
                continue;
            }
            let c = d.name.starts_with("cblas_");
            for mode in ["d", "b"] {
                let which = format!("{}_{mode}", if c { "c" } else { "f" });
                let name = format!("{}_{mode}", d.name);
                assert!(
                    builtin_derivative(&which, &name).is_some(),
                    "{name} is not in {which}"
                );
            }
        }
    }
}
