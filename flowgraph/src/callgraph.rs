//! The call graph: which procedure may call which, from where; SCCs bottom-up.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use radtap_il::vocab::library_routine;
use radtap_il::{
    clib::c_library, visit, Decl, Expr, ExprId, Lang, Program, StmtId, StmtKind, SymbolId,
    SymbolKind, UnOp, UnitId, UnitKind,
};
use std::collections::{HashMap, HashSet};

/// What a call site may reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// Procedures of the program that may be called (one for a direct call; several for a
    /// generic interface or a call through a pointer or dummy procedure).
    Defined(Vec<UnitId>),
    /// An intrinsic or library function (`sin`, `sqrt`, `malloc`): its record in the
    /// vocabulary. A symbol the frontends took for an intrinsic that has no record is
    /// [`External`](Callee::External): an unknown routine.
    Intrinsic(radtap_il::vocab::RoutineId),
    /// A procedure whose body is not in the input files, by name as written.
    External(String),
}

/// One call: a `CALL`/C call statement, or a function reference inside an expression.
#[derive(Clone, Debug)]
pub struct CallSite {
    /// The statement holding the call.
    pub stmt: StmtId,
    /// The call expression, for function references; `None` for a call statement.
    pub expr: Option<ExprId>,
    /// Possible callees.
    pub callee: Callee,
}

/// The program's call graph.
#[derive(Debug)]
pub struct CallGraph {
    /// Caller → callee edges between procedures with bodies.
    pub graph: DiGraph<UnitId, ()>,
    node: HashMap<UnitId, NodeIndex>,
    /// Call sites of each procedure, in statement order.
    pub sites: HashMap<UnitId, Vec<CallSite>>,
    /// Strongly connected components, callees before callers.
    pub sccs: Vec<Vec<UnitId>>,
    /// The procedures of the components with more than one procedure.
    in_cycle: HashSet<UnitId>,
    /// (procedure, call expression) → its first site in `sites`.
    expr_index: HashMap<(UnitId, ExprId), usize>,
    /// (procedure, CALL statement) → its site in `sites`.
    stmt_index: HashMap<(UnitId, StmtId), usize>,
}

impl CallGraph {
    /// Every procedure with a body (subroutines, functions, main programs), in program order.
    pub fn procedures(prog: &Program) -> Vec<UnitId> {
        let bodies = interface_bodies(prog);
        prog.units
            .iter()
            .filter(|(id, u)| {
                matches!(
                    u.kind,
                    UnitKind::Subroutine | UnitKind::Function | UnitKind::Program
                ) && !bodies.contains(id)
            })
            .map(|(id, _)| id)
            .collect()
    }

    /// Builds the call graph of `prog`.
    pub fn build(prog: &Program) -> CallGraph {
        let procs = Self::procedures(prog);
        let r = Resolver::new(prog, &procs);
        let mut graph = DiGraph::new();
        let mut node = HashMap::new();
        for &p in &procs {
            node.insert(p, graph.add_node(p));
        }
        let mut sites = HashMap::new();
        for &p in &procs {
            let u = &prog.units[p];
            let mut list = Vec::new();
            walk_stmts(prog, p, &u.body, &mut |s| {
                let k = &u.stmts[s].kind;
                if let StmtKind::Call { callee, args, .. } = k {
                    list.push(CallSite {
                        stmt: s,
                        expr: None,
                        callee: r.resolve(p, *callee, args),
                    });
                }
                visit::stmt_children(
                    k,
                    &mut |e| {
                        walk_expr(prog, p, e, &mut |ce| {
                            if let Expr::Call { callee, args } = &u.exprs[ce] {
                                list.push(CallSite {
                                    stmt: s,
                                    expr: Some(ce),
                                    callee: r.resolve(p, *callee, args),
                                });
                            }
                        })
                    },
                    &mut |_| {},
                );
            });
            for site in &list {
                if let Callee::Defined(cs) = &site.callee {
                    for c in cs {
                        if let Some(&to) = node.get(c) {
                            if !graph.contains_edge(node[&p], to) {
                                graph.add_edge(node[&p], to, ());
                            }
                        }
                    }
                }
            }
            sites.insert(p, list);
        }
        let sccs = tarjan_scc(&graph)
            .into_iter()
            .map(|c| {
                let mut v: Vec<UnitId> = c.into_iter().map(|n| graph[n]).collect();
                v.sort();
                v
            })
            .collect::<Vec<Vec<UnitId>>>();
        let in_cycle = sccs
            .iter()
            .filter(|c| c.len() > 1)
            .flatten()
            .copied()
            .collect();
        let (mut expr_index, mut stmt_index) = (HashMap::new(), HashMap::new());
        for (&p, list) in &sites {
            for (i, c) in list.iter().enumerate() {
                match c.expr {
                    Some(e) => expr_index.entry((p, e)).or_insert(i),
                    None => stmt_index.entry((p, c.stmt)).or_insert(i),
                };
            }
        }
        CallGraph {
            graph,
            node,
            sites,
            sccs,
            in_cycle,
            expr_index,
            stmt_index,
        }
    }

    /// Call sites of `p` (empty for a procedure without calls).
    pub fn sites_of(&self, p: UnitId) -> &[CallSite] {
        self.sites.get(&p).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The call site of the call expression `e` in procedure `p` (an index look-up: a search
    /// of `p`'s sites per call made differentiation quadratic in the number of calls).
    pub fn expr_site(&self, p: UnitId, e: ExprId) -> Option<&CallSite> {
        let i = *self.expr_index.get(&(p, e))?;
        self.sites.get(&p).map(|l| &l[i])
    }

    /// The call site of the CALL statement `s` in procedure `p`.
    pub fn stmt_site(&self, p: UnitId, s: StmtId) -> Option<&CallSite> {
        let i = *self.stmt_index.get(&(p, s))?;
        self.sites.get(&p).map(|l| &l[i])
    }

    /// Whether `p` is (mutually) recursive.
    pub fn is_recursive(&self, p: UnitId) -> bool {
        let Some(&n) = self.node.get(&p) else {
            return false;
        };
        self.graph.contains_edge(n, n) || self.in_cycle.contains(&p)
    }

    /// Direct callers of `p`.
    pub fn callers(&self, p: UnitId) -> Vec<UnitId> {
        let Some(&n) = self.node.get(&p) else {
            return Vec::new();
        };
        let mut v: Vec<UnitId> = self
            .graph
            .neighbors_directed(n, petgraph::Direction::Incoming)
            .map(|m| self.graph[m])
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

/// Units that are interface bodies (declarations, not definitions).
fn interface_bodies(prog: &Program) -> HashSet<UnitId> {
    let mut set = HashSet::new();
    let mut add = |decls: &[Decl]| {
        for d in decls {
            if let Decl::Interface(i) = d {
                set.extend(i.bodies.iter().copied());
            }
        }
    };
    for (_, u) in prog.units.iter() {
        add(&u.decls);
    }
    set
}

/// Walks every statement of `block`, nested ones included.
pub(crate) fn walk_stmts(
    prog: &Program,
    unit: UnitId,
    block: &[StmtId],
    f: &mut dyn FnMut(StmtId),
) {
    let u = &prog.units[unit];
    for &s in block {
        f(s);
        let mut nested = Vec::new();
        visit::stmt_children(&u.stmts[s].kind, &mut |_| {}, &mut |c| nested.push(c));
        walk_stmts(prog, unit, &nested, f);
    }
}

/// Walks `e` and its sub-expressions, outermost first.
pub(crate) fn walk_expr(prog: &Program, unit: UnitId, e: ExprId, f: &mut dyn FnMut(ExprId)) {
    f(e);
    let u = &prog.units[unit];
    visit::expr_children(&u.exprs[e], &mut |c| walk_expr(prog, unit, c, f));
}

struct Resolver<'a> {
    prog: &'a Program,
    /// Top-level definitions by lower-cased name (Fortran external procedures, C functions).
    by_name: HashMap<String, Vec<UnitId>>,
    /// Every procedure with a body.
    defined: HashSet<UnitId>,
    /// Generic interface name → specific procedure names, per scope owner unit.
    generics: HashMap<String, Vec<(UnitId, String)>>,
    /// Procedures whose name is used as a value (C `&f`, `fp = f`, Fortran actual argument),
    /// with their number of parameters.
    address_taken: Vec<(UnitId, usize)>,
    /// Whether a procedure without a body (an intrinsic, an external one) is passed as a
    /// value somewhere: a call through a dummy procedure may run it.
    bodiless_taken: bool,
}

impl<'a> Resolver<'a> {
    fn new(prog: &'a Program, procs: &[UnitId]) -> Self {
        let mut by_name: HashMap<String, Vec<UnitId>> = HashMap::new();
        for &p in procs {
            if let Some(n) = prog.units[p].name {
                by_name
                    .entry(prog.name(n).to_ascii_lowercase())
                    .or_default()
                    .push(p);
            }
        }
        let mut generics: HashMap<String, Vec<(UnitId, String)>> = HashMap::new();
        for (uid, u) in prog.units.iter() {
            for d in &u.decls {
                if let Decl::Interface(i) = d {
                    let Some(name) = &i.name else { continue };
                    let e = generics.entry(name.to_ascii_lowercase()).or_default();
                    for b in &i.bodies {
                        if let Some(n) = prog.units[*b].name {
                            e.push((uid, prog.name(n).to_ascii_lowercase()));
                        }
                    }
                    for mp in i.module_procs.iter().flatten() {
                        e.push((uid, mp.to_ascii_lowercase()));
                    }
                }
            }
        }
        let mut r = Resolver {
            prog,
            defined: procs.iter().copied().collect(),
            by_name,
            generics,
            address_taken: Vec::new(),
            bodiless_taken: false,
        };
        let mut taken = Vec::new();
        let mut bodiless = false;
        for &p in procs {
            let u = &prog.units[p];
            walk_stmts(prog, p, &u.body, &mut |s| {
                let k = &u.stmts[s].kind;
                let callee_expr = match k {
                    StmtKind::Call { callee, .. } => Some(*callee),
                    _ => None,
                };
                if let StmtKind::Call { args, .. } = k {
                    bodiless |= args.iter().any(|a| r.bodiless_name(p, a.value));
                }
                visit::stmt_children(
                    k,
                    &mut |e| {
                        if Some(e) == callee_expr {
                            return;
                        }
                        r.collect_taken(p, e, &mut taken);
                        bodiless |= r.bodiless_actual(p, e);
                    },
                    &mut |_| {},
                );
            });
            for d in &u.decls {
                visit::decl_exprs(d, &mut |e| r.collect_taken(p, e, &mut taken));
            }
        }
        taken.sort();
        taken.dedup();
        r.address_taken = taken;
        r.bodiless_taken = bodiless;
        r
    }

    /// Whether expression `e` of Fortran unit `unit` passes a procedure without a body as an
    /// actual argument (`SIMP(DSIN, A)` with `INTRINSIC DSIN`).
    fn bodiless_actual(&self, unit: UnitId, e: ExprId) -> bool {
        let u = &self.prog.units[unit];
        let mut found = false;
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if let Expr::Call { args, .. } = &u.exprs[x] {
                found |= args.iter().any(|a| self.bodiless_name(unit, a.value));
            }
            visit::expr_children(&u.exprs[x], &mut |c| todo.push(c));
        }
        found
    }

    /// Whether `e` (of a Fortran unit) names a procedure without a body: an intrinsic, or an
    /// external procedure whose source is not given.
    fn bodiless_name(&self, unit: UnitId, e: ExprId) -> bool {
        let u = &self.prog.units[unit];
        match &u.exprs[e] {
            // C `apply(sin, x)`: a library function as a value.
            Expr::Opaque(t) => u.lang == Lang::C && is_c_library(t),
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => self.bodiless_name(unit, *arg),
            Expr::Name(s) => {
                let sd = &self.prog.symbols[*s];
                sd.kind == SymbolKind::Intrinsic
                    || (sd.kind == SymbolKind::Procedure
                        && !sd.attrs.dummy
                        && self.definition_of(*s).is_none())
            }
            _ => false,
        }
    }

    /// Procedure names used other than as a callee.
    fn collect_taken(&self, unit: UnitId, e: ExprId, out: &mut Vec<(UnitId, usize)>) {
        let u = &self.prog.units[unit];
        match &u.exprs[e] {
            Expr::Call { args, .. } => {
                for a in args {
                    self.collect_taken(unit, a.value, out);
                }
            }
            Expr::Name(s) => {
                if let Some(def) = self.definition_of(*s) {
                    out.push((def, self.prog.units[def].params.len()));
                }
            }
            other => visit::expr_children(other, &mut |c| self.collect_taken(unit, c, out)),
        }
    }

    /// The definition a procedure symbol names, if it has a body in the program.
    fn definition_of(&self, s: SymbolId) -> Option<UnitId> {
        let sym = &self.prog.symbols[s];
        if !matches!(sym.kind, SymbolKind::Procedure) {
            return None;
        }
        if let Some(u) = sym.unit {
            let ud = &self.prog.units[u];
            if ud.name == Some(s) && self.defined.contains(&u) {
                return Some(u);
            }
        }
        let key = sym.spelling.to_ascii_lowercase();
        self.by_name.get(&key).and_then(|v| {
            // Prefer a top-level definition (an external procedure or C function).
            v.iter()
                .copied()
                .find(|&u| {
                    self.prog.units[u]
                        .parent
                        .is_none_or(|p| self.prog.units[p].kind == UnitKind::CFile)
                })
                .or_else(|| v.first().copied())
        })
    }

    fn resolve(&self, unit: UnitId, callee: ExprId, args: &[radtap_il::Arg]) -> Callee {
        let nargs = args.len();
        let u = &self.prog.units[unit];
        let (sym, through_pointer) = match &u.exprs[callee] {
            Expr::Name(s) => (*s, false),
            Expr::Unary { arg, .. } | Expr::Paren(arg) => match &u.exprs[*arg] {
                Expr::Name(s) => (*s, true),
                _ => return Callee::External(String::from("<expression>")),
            },
            Expr::Opaque(t) => return Callee::External(t.clone()),
            Expr::Intrinsic(r) => return Callee::Intrinsic(r.id),
            _ => return Callee::External(String::from("<expression>")),
        };
        let sd = &self.prog.symbols[sym];
        let lname = sd.spelling.to_ascii_lowercase();
        match sd.kind {
            // A C callee that no prototype or body declares is an intrinsic symbol of the
            // frontend; only the library functions radtap knows are intrinsics here. Any
            // other is an unknown routine, as if its prototype were in view (`ext_scale(&t,
            // 3)` from a header radtap does not read was taken as having no effect).
            SymbolKind::Intrinsic => match library_routine(u.lang, &sd.spelling) {
                Some(r) => Callee::Intrinsic(r),
                // Defined elsewhere in the program (a described routine's stand-in,
                // `radtap_frontends::library`), else unknown.
                None => match self.by_name.get(&lname).and_then(|v| v.first()) {
                    Some(&d) if u.lang == Lang::C && self.prog.described.contains_key(&d) => {
                        Callee::Defined(vec![d])
                    }
                    _ => Callee::External(sd.spelling.clone()),
                },
            },
            SymbolKind::Generic => {
                let mut v = Vec::new();
                for (owner, spec) in self.generics.get(&lname).into_iter().flatten() {
                    let scope = self.prog.units[*owner].scope;
                    let found = self
                        .prog
                        .lookup(scope, spec)
                        .and_then(|s| self.definition_of(s))
                        .or_else(|| self.by_name.get(spec).and_then(|v| v.first().copied()));
                    if let Some(d) = found {
                        if !v.contains(&d) {
                            v.push(d);
                        }
                    }
                }
                if v.is_empty() {
                    Callee::External(sd.spelling.clone())
                } else {
                    Callee::Defined(crate::generic::filter_specifics(self.prog, unit, args, v))
                }
            }
            SymbolKind::Procedure if !through_pointer && !sd.attrs.dummy => {
                match self.definition_of(sym) {
                    Some(d) => Callee::Defined(vec![d]),
                    None if u.lang == Lang::C && is_c_library(&sd.spelling) => {
                        match library_routine(u.lang, &sd.spelling) {
                            Some(r) => Callee::Intrinsic(r),
                            None => Callee::External(sd.spelling.clone()),
                        }
                    }
                    None => Callee::External(sd.spelling.clone()),
                }
            }
            _ => {
                // A call through a C function pointer or a Fortran dummy procedure: any
                // procedure whose address is taken with the same number of parameters.
                let v: Vec<UnitId> = self
                    .address_taken
                    .iter()
                    .filter(|(_, n)| *n == nargs)
                    .map(|(d, _)| *d)
                    .collect();
                // An intrinsic passed somewhere may be what runs: unknown (refused when
                // active, never taken for the one procedure with a body).
                if v.is_empty() || self.bodiless_taken {
                    Callee::External(sd.spelling.clone())
                } else {
                    Callee::Defined(v)
                }
            }
        }
    }
}

/// C library functions radtap knows the effects of ([`radtap_il::clib`]).
fn is_c_library(name: &str) -> bool {
    c_library(name).is_some()
}
