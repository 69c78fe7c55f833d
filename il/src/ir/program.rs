//! The whole program: ids, languages, files, units and their source map, and the symbol
//! lookups through scopes and USE imports.

use crate::*;

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
