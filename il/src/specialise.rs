//! Procedures with dummy procedures are specialised per set of actual procedures, as
//! Tapenade does.
//!
//! `call heun(one_compartment, …)` and `call heun(two_compartment, …)`: the dummy `f` of
//! `heun` receives two procedures, and the derivative of `heun` cannot call both `f_d`s by
//! one name. Before the analyses, `heun` gets one copy per actual procedure (in the order the
//! calls name them), in which every call through `f` calls that procedure by name; each call
//! site calls its copy. The analyses and both modes then see ordinary calls, and each copy
//! gets its own derivative (`heun_d`, then a fresh name for the next copy). A procedure with
//! several dummy procedures (ODEPACK's `DSTODE(…, F, JAC, PJAC, SLVS)`) gets one copy per
//! set of actuals its call sites pass, each dummy replaced by its actual. One set of actuals
//! is specialised too when a call through a dummy would not resolve to its actual alone (the
//! call graph takes any procedure passed somewhere with as many arguments, and ODEPACK's `F`
//! and `SLVS` both take four), or when an actual's module is out of reach of the procedure's
//! module (a library calling the user's function): the copy USEs the actual's module, so its
//! derivative uses the actual's derivative module. A module procedure's copy goes in its
//! module, with `use` of the actual's module when that comes before it; when the actual's
//! module comes after it (a user module using the library, the common layout), in the
//! actual's module, with `use` of the procedure's module: every derivative module then uses
//! only modules written before it. An external procedure's copy (F77 `SUBROUTINE DSTODE`)
//! follows it in its file; an external procedure it passes on is declared EXTERNAL there.
//!
//! A copy keeps the spelling of the original (a call the derivative keeps as it is still
//! calls the user's procedure, with the same actuals), with a scope and symbols of its own.
//! A dummy passed on to another procedure is passed as the actual procedure in the copy, so
//! that procedure is specialised in turn (`DLSODE` first, then `DSTODE`, then `DPREPJ`). A
//! call passing the caller's own dummy procedure on keeps calling the original (until that
//! caller is specialised in turn). Left as they are (the generators refuse what they cannot
//! differentiate, with a located AD020): internal procedures, procedures with internal
//! procedures, a result named like the function, local types or ENTRY, or SAVE locals they
//! may write (each copy would keep its own state); calls passing anything but a procedure
//! with a body (an intrinsic, an external one); a copy to be placed in the actual's module
//! when the procedure names PRIVATE variables of its module, or PRIVATE procedures keeping
//! state (its PRIVATE constants, abstract interfaces and other procedures are copied into
//! the derivative module beside it: QUADPACK's `epmach`, `func`, `dqpsrt`). The scopes of BLOCK constructs are
//! copied with the procedure.

use crate::ir::*;
use std::collections::HashMap;

/// A call of the procedure being specialised: unit, callee node, and the procedure it
/// passes for each called dummy procedure (in the order of [`called_dummies`]).
struct Site {
    unit: UnitId,
    callee: ExprId,
    actuals: Vec<UnitId>,
}

/// The procedures passed as actual arguments anywhere, which a call through a dummy
/// procedure is resolved to by its number of arguments (`flowgraph`'s call graph).
struct Taken {
    /// Procedures with a body passed somewhere, with their number of dummies.
    bodies: Vec<(UnitId, usize)>,
    /// Whether an intrinsic or a procedure without a body is passed somewhere: then a
    /// call through a dummy procedure is unknown.
    bodiless: bool,
}

impl Taken {
    fn of(prog: &Program) -> Taken {
        let mut t = Taken {
            bodies: Vec::new(),
            bodiless: false,
        };
        for (_, u) in prog.units.iter() {
            if u.lang != Lang::Fortran {
                continue;
            }
            for (callee, args) in calls_of(u) {
                if matches!(&u.exprs[callee],
                    Expr::Name(s) if prog.symbols[*s].kind == SymbolKind::Intrinsic)
                {
                    continue;
                }
                for a in args {
                    let Expr::Name(s) = &u.exprs[a.value] else {
                        continue;
                    };
                    let sd = &prog.symbols[*s];
                    match sd.kind {
                        SymbolKind::Intrinsic => t.bodiless = true,
                        SymbolKind::Procedure if !sd.attrs.dummy => match definition(prog, *s) {
                            Some(d) => {
                                let n = prog.units[d].params.len();
                                if !t.bodies.contains(&(d, n)) {
                                    t.bodies.push((d, n));
                                }
                            }
                            None => t.bodiless = true,
                        },
                        _ => {}
                    }
                }
            }
        }
        t
    }

    /// Whether a call through a dummy procedure receiving `a` would be resolved to more than
    /// `a` (another procedure with as many dummies is passed somewhere, or one without a
    /// body is).
    fn ambiguous(&self, prog: &Program, a: UnitId) -> bool {
        let n = prog.units[a].params.len();
        self.bodiless || self.bodies.iter().any(|&(d, k)| d != a && k == n)
    }
}

/// The calls of `u` (statements and expressions): callee node and arguments.
fn calls_of(u: &UnitData) -> Vec<(ExprId, &[Arg])> {
    let mut calls: Vec<(ExprId, &[Arg])> = Vec::new();
    for (_, st) in u.stmts.iter() {
        if let StmtKind::Call { callee, args, .. } = &st.kind {
            calls.push((*callee, args));
        }
    }
    for (_, e) in u.exprs.iter() {
        if let Expr::Call { callee, args } = e {
            calls.push((*callee, args));
        }
    }
    calls
}

/// Specialises every Fortran procedure whose dummy procedure receives several procedures, or
/// one its module cannot reach.
pub fn specialise_dummy_procedures(prog: &mut Program) {
    let procs: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| {
            u.lang == Lang::Fortran && matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
        })
        .map(|(id, _)| id)
        .collect();
    // A copy passing `a` on to another procedure's dummy makes that one specialisable in
    // turn: a few rounds (each round's copies are called by name only).
    let mut procs = procs;
    let mut replaced: Vec<UnitId> = Vec::new();
    for _ in 0..4 {
        let before = prog.units.len();
        let taken = Taken::of(prog);
        for p in procs {
            if specialise(prog, p, &replaced, &taken) {
                replaced.push(p);
            }
        }
        if prog.units.len() == before {
            break;
        }
        procs = prog
            .units
            .iter()
            .filter(|(_, u)| {
                u.lang == Lang::Fortran
                    && matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
            })
            .map(|(id, _)| id)
            .collect();
    }
}

/// The nodes of `u` naming a procedure: callees of calls, and the actual arguments of
/// calls to non-intrinsic procedures that are bare names (a dummy procedure passed on).
fn procedure_slots(prog: &Program, u: &UnitData) -> Vec<ExprId> {
    let mut out = Vec::new();
    let call = |callee: ExprId, args: &[Arg], out: &mut Vec<ExprId>| {
        out.push(callee);
        let intrinsic = matches!(&u.exprs[callee],
            Expr::Name(s) if prog.symbols[*s].kind == SymbolKind::Intrinsic);
        if !intrinsic {
            out.extend(
                args.iter()
                    .filter(|a| matches!(u.exprs[a.value], Expr::Name(_)))
                    .map(|a| a.value),
            );
        }
    };
    for (_, st) in u.stmts.iter() {
        if let StmtKind::Call { callee, args, .. } = &st.kind {
            call(*callee, args, &mut out);
        }
    }
    for (_, e) in u.exprs.iter() {
        if let Expr::Call { callee, args } = e {
            call(*callee, args, &mut out);
        }
    }
    out
}

/// The callee nodes of `u`'s calls.
fn callee_slots(u: &UnitData) -> Vec<ExprId> {
    calls_of(u).into_iter().map(|(c, _)| c).collect()
}

/// The dummies of `p` it calls or passes on to another procedure.
fn called_dummies(prog: &Program, p: UnitId) -> Vec<usize> {
    let u = &prog.units[p];
    let mut out = Vec::new();
    for e in procedure_slots(prog, u) {
        if let Expr::Name(s) = &u.exprs[e] {
            if let Some(i) = u.params.iter().position(|x| x == s) {
                if matches!(
                    prog.symbols[*s].kind,
                    SymbolKind::Procedure | SymbolKind::Unknown
                ) && !out.contains(&i)
                {
                    out.push(i);
                }
            }
        }
    }
    out
}

/// The procedure with a body that symbol `s` names.
fn definition(prog: &Program, s: SymbolId) -> Option<UnitId> {
    let sd = &prog.symbols[s];
    if sd.kind != SymbolKind::Procedure || sd.attrs.dummy {
        return None;
    }
    if let Some(u) = sd.unit.filter(|&u| prog.units[u].name == Some(s)) {
        return Some(u);
    }
    let key = sd.spelling.to_ascii_lowercase();
    let mut found = prog.units.iter().filter(|(_, u)| {
        matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
            && u.name
                .is_some_and(|n| prog.symbols[n].spelling.eq_ignore_ascii_case(&key))
    });
    match (found.next(), found.next()) {
        (Some((id, _)), None) => Some(id),
        _ => None,
    }
}

/// The module holding `u` (through its hosts).
fn module_of(prog: &Program, u: UnitId) -> Option<UnitId> {
    let mut at = prog.units[u].parent;
    while let Some(q) = at {
        if prog.units[q].kind == UnitKind::Module {
            return Some(q);
        }
        at = prog.units[q].parent;
    }
    None
}

/// Whether unit `p` (or a host of it) is module `m` or uses it.
fn sees(prog: &Program, p: UnitId, m: UnitId) -> bool {
    let mut at = Some(p);
    while let Some(q) = at {
        if q == m
            || prog.units[q]
                .decls
                .iter()
                .any(|d| matches!(d, Decl::Use(ui, _) if ui.unit == Some(m)))
        {
            return true;
        }
        at = prog.units[q].parent;
    }
    false
}

/// The calls of `p` in the program (but in the procedures `replaced` by their copies) and
/// the procedure each passes for each dummy of `ks`; `None` when one passes something else.
fn sites_of(prog: &Program, p: UnitId, ks: &[usize], replaced: &[UnitId]) -> Option<Vec<Site>> {
    let pname = prog.units[p].name?;
    let pspell = prog.symbols[pname].spelling.to_ascii_lowercase();
    let knames: Vec<String> = ks
        .iter()
        .map(|&k| {
            prog.symbols[prog.units[p].params[k]]
                .spelling
                .to_ascii_lowercase()
        })
        .collect();
    let mut out = Vec::new();
    for (uid, u) in prog.units.iter() {
        // A procedure replaced by its copies is called no more.
        if u.lang != Lang::Fortran || replaced.contains(&uid) {
            continue;
        }
        'calls: for (callee, args) in calls_of(u) {
            let Expr::Name(s) = &u.exprs[callee] else {
                continue;
            };
            let sd = &prog.symbols[*s];
            if !sd.spelling.eq_ignore_ascii_case(&pspell) || definition(prog, *s) != Some(p) {
                continue;
            }
            let mut actuals = Vec::new();
            for (&k, kname) in ks.iter().zip(&knames) {
                let actual = args
                    .iter()
                    .find(|a| {
                        a.keyword
                            .as_ref()
                            .is_some_and(|w| w.eq_ignore_ascii_case(kname))
                    })
                    .or_else(|| args.get(k).filter(|a| a.keyword.is_none()))?;
                let Expr::Name(a) = &u.exprs[actual.value] else {
                    return None;
                };
                // A caller passing its own dummy procedure on keeps calling `p` itself
                // (QUADPACK's `dqagpe` passing `f` to `dqk21`, while the specialised `dqage`
                // passes the user's function; ODEPACK's `DLSODE` passing `F` to `DSTODE`
                // until `DLSODE` is specialised in turn): that site is left as it is.
                if prog.symbols[*a].attrs.dummy && u.params.contains(a) {
                    continue 'calls;
                }
                actuals.push(definition(prog, *a)?);
            }
            out.push(Site {
                unit: uid,
                callee,
                actuals,
            });
        }
    }
    // A name passed along elsewhere (`call other(heun)`) would keep calling the original.
    Some(out)
}

/// Whether `p` keeps state from call to call in a local (SAVE) that it may write: each copy
/// would keep its own.
fn keeps_state(prog: &Program, p: UnitId) -> bool {
    let u = &prog.units[p];
    let saved = |s: SymbolId| {
        let sd = &prog.symbols[s];
        sd.scope == u.scope && sd.attrs.save && !sd.attrs.constant && !sd.attrs.dummy
    };
    let mut written: Vec<ExprId> = Vec::new();
    for (_, st) in u.stmts.iter() {
        match &st.kind {
            StmtKind::Assign { lhs, .. } => written.push(*lhs),
            StmtKind::Do { var, .. } => written.push(*var),
            _ => {}
        }
    }
    for (callee, args) in calls_of(u) {
        // Intrinsics write none of their arguments that matter here.
        if !matches!(&u.exprs[callee],
            Expr::Name(s) if prog.symbols[*s].kind == SymbolKind::Intrinsic)
        {
            written.extend(args.iter().map(|a| a.value));
        }
    }
    // What is written is the variable a designator names (`x`, `a(i)`, `r%f`), never what
    // its subscripts or an expression read (`f(c - h*xg(j))` writes no `xg`: QUADPACK's
    // rules, whose DATA constants are saved, were left unspecialised).
    written.iter().any(|&e| {
        let mut e = e;
        loop {
            match &u.exprs[e] {
                Expr::Name(s) => return saved(*s),
                Expr::Index { base, .. } | Expr::Field { base, .. } => e = *base,
                _ => return false,
            }
        }
    })
}

/// Specialises `p`; whether it did (its calls now call the copies).
fn specialise(prog: &mut Program, p: UnitId, replaced: &[UnitId], taken: &Taken) -> bool {
    let u = &prog.units[p];
    // A module procedure, or an external procedure (F77 `SUBROUTINE DSTODE`).
    let m = match u.parent {
        Some(m) if prog.units[m].kind == UnitKind::Module => Some(m),
        Some(_) => return false,
        None => None,
    };
    if !u.contains.is_empty() || (u.kind == UnitKind::Function && u.result == u.name) {
        return false;
    }
    // Local types and ENTRY names would be shared with the copy (BLOCK scopes are copied).
    if u.decls.iter().any(|d| matches!(d, Decl::TypeDef(_)))
        || u.stmts.iter().any(|(_, st)| {
            matches!(st.kind, StmtKind::Entry { .. } | StmtKind::Decl(_))
                || matches!(&st.kind, StmtKind::Block { decls, .. }
                if decls.iter().any(|d| matches!(d, Decl::TypeDef(_) | Decl::Use(..))))
        })
    {
        return false;
    }
    let ks = called_dummies(prog, p);
    if ks.is_empty() || keeps_state(prog, p) {
        return false;
    }
    let Some(sites) = sites_of(prog, p, &ks, replaced) else {
        return false;
    };

    let mut tuples: Vec<Vec<UnitId>> = Vec::new();
    for s in &sites {
        if !tuples.contains(&s.actuals) {
            tuples.push(s.actuals.clone());
        }
    }
    let reachable = |a: UnitId| module_of(prog, a).is_none_or(|am| sees(prog, p, am));
    // One set of actuals, each reachable and the one procedure a call through its dummy
    // would be resolved to: the calls through the dummies are known as they are.
    match tuples.as_slice() {
        [] => return false,
        [t] if t.iter().all(|&a| reachable(a) && !taken.ambiguous(prog, a)) => return false,
        _ => {}
    }
    // A copy placed in the actual's module reaches `p`'s module through USE: only its
    // public names. Its PRIVATE constants, abstract interfaces and procedures are copied
    // beside the derivatives (the derivative module's `private_copy`); its PRIVATE module
    // variables and procedures keeping state cannot be (a copy is another state).
    let hosts: Vec<Option<UnitId>> = tuples
        .iter()
        .map(|t| m.map(|m| host_of(prog, p, m, t)))
        .collect();
    if let Some(m) = m {
        if hosts.iter().any(|&h| h != Some(m)) && names_private_state_of(prog, p, m) {
            return false;
        }
    }
    let dummies: Vec<SymbolId> = ks.iter().map(|&k| prog.units[p].params[k]).collect();
    let pname = prog.units[p].name.expect("named");
    for (n, (t, host)) in tuples.into_iter().zip(hosts).enumerate() {
        let (mut cu, map) = copy_unit(prog, p);
        // Calls through each dummy call its actual by name; passed on, it passes the actual.
        let slots = procedure_slots(prog, &cu);
        let callees = callee_slots(&cu);
        let mut externals: Vec<AttrItem> = Vec::new();
        let mut typed: Vec<(SymbolId, SymbolId)> = Vec::new();
        for (&dummy, &a) in dummies.iter().zip(&t) {
            let dummy = map.get(&dummy).copied().unwrap_or(dummy);
            let asym = prog.units[a].name.expect("named");
            for &c in &slots {
                if matches!(cu.exprs[c], Expr::Name(s) if s == dummy) {
                    cu.exprs[c] = Expr::Name(asym);
                    // An external function called or passed on in place of a typed dummy
                    // (`double precision f`; `f(a)` is now `h1(a)`) has the dummy's type
                    // declared (else it is implicitly typed where the copy is written out:
                    // `h1` a default real, and FMM's ZEROIN never converged; passed on to
                    // QUADPACK's DQK21, gfortran refused the mismatch).
                    if module_of(prog, a).is_none() && !typed.iter().any(|&(s, _)| s == asym) {
                        typed.push((asym, dummy));
                    }
                    // An external procedure passed on is declared EXTERNAL (else it is
                    // an implicitly typed variable where the copy is written out).
                    let passed = !callees.contains(&c);
                    if passed
                        && module_of(prog, a).is_none()
                        && !externals.iter().any(|i| i.sym == asym)
                    {
                        externals.push(AttrItem {
                            sym: asym,
                            dims: None,
                            common: false,
                        });
                    }
                }
            }
        }
        for (asym, dummy) in typed {
            let spec = crate::hoist::type_spec_of(&cu, dummy).cloned();
            let declared = cu.decls.iter().any(|d| match d {
                Decl::Var(v) => v.entities.iter().any(|e| e.sym == asym),
                _ => false,
            });
            if let (Some(spec), false) = (spec, declared) {
                externals.retain(|i| i.sym != asym);
                let at = cu
                    .decls
                    .iter()
                    .position(|d| {
                        !matches!(d, Decl::Use(..) | Decl::Implicit(_) | Decl::Comment(_))
                    })
                    .unwrap_or(cu.decls.len());
                cu.decls.insert(
                    at,
                    Decl::var(VarDecl {
                        spec,
                        attrs: vec![Attr::Keyword("external".into())],
                        entities: vec![Entity {
                            sym: asym,
                            dims: None,
                            char_len: None,
                            derived: Vec::new(),
                            init: None,
                        }],
                        double_colon: true,
                    }),
                );
            }
        }
        if !externals.is_empty() {
            let at = cu
                .decls
                .iter()
                .position(|d| !matches!(d, Decl::Use(..) | Decl::Implicit(_) | Decl::Comment(_)))
                .unwrap_or(cu.decls.len());
            cu.decls.insert(
                at,
                Decl::Attr(AttrStmt {
                    keyword: "external".into(),
                    double_colon: false,
                    items: externals,
                }),
            );
        }
        match (host, m) {
            (Some(h), Some(m)) if h != m => {
                // In the actual's module, which comes after `p`'s: the copy uses `p`'s module
                // (its scope too, so that names print as `p` spells them: `wp`, renamed
                // from `real64`).
                let d = use_decl(prog, m, None);
                if let Decl::Use(ui, _) = &d {
                    prog.scopes[cu.scope].uses.push(ui.clone());
                }
                cu.decls.insert(0, d);
                cu.parent = Some(h);
                let hs = prog.units[h].scope;
                prog.scopes[cu.scope].parent = Some(hs);
            }
            _ => {
                // Beside `p`: it uses the modules of the actuals it cannot reach.
                for &a in t.iter().rev() {
                    if let Some(am) = module_of(prog, a).filter(|&am| !sees(prog, p, am)) {
                        let aname = prog.symbols[prog.units[a].name.expect("named")]
                            .spelling
                            .clone();
                        cu.decls.insert(0, use_decl(prog, am, Some(&aname)));
                    }
                }
            }
        }
        let csym = prog.symbols.alloc(prog.symbols[pname].clone());
        cu.name = Some(csym);
        let scope = cu.scope;
        let cid = prog.units.alloc(cu);
        prog.symbols[csym].unit = Some(cid);
        prog.scopes[scope].kind = ScopeKind::Unit(cid);
        for &new in map.values() {
            if prog.symbols[new].unit == Some(p) {
                prog.symbols[new].unit = Some(cid);
            }
        }
        match (host, m) {
            (Some(h), Some(m)) => {
                let at = if h == m {
                    prog.units[m]
                        .contains
                        .iter()
                        .position(|&x| x == p)
                        .map_or(prog.units[m].contains.len(), |i| i + 1 + n)
                } else {
                    prog.units[h].contains.len()
                };
                prog.units[h].contains.insert(at, cid);
            }
            _ => {
                // An external procedure: the copy follows `p` (and the earlier copies) in
                // its file.
                let file = prog.files.iter_mut().find(|f| {
                    f.items
                        .iter()
                        .any(|i| matches!(i, FileItem::Unit(x) if *x == p))
                });
                if let Some(f) = file {
                    let i = f
                        .items
                        .iter()
                        .position(|i| matches!(i, FileItem::Unit(x) if *x == p))
                        .expect("found");
                    f.items.insert(i + 1 + n, FileItem::Unit(cid));
                }
            }
        }
        for s in sites.iter().filter(|s| s.actuals == t) {
            prog.units[s.unit].exprs[s.callee] = Expr::Name(csym);
        }
    }
    true
}

/// A copy of unit `p` with a scope and symbols of its own (the copy's scope still names `p`
/// as owner: the caller sets it): every name of `p`'s scope is a new symbol, and the copy's
/// expressions, declarations, dummies and result name the new ones.
fn copy_unit(prog: &mut Program, p: UnitId) -> (UnitData, HashMap<SymbolId, SymbolId>) {
    let mut cu = prog.units[p].clone();
    let old_scope = cu.scope;
    let mut map: HashMap<SymbolId, SymbolId> = HashMap::new();
    // The unit's scope, then the scopes of its BLOCK constructs (outer ones first: a scope
    // is allocated before those lowered inside it), each copied with its symbols.
    let mut scopes: Vec<ScopeId> = vec![old_scope];
    let mut blocks: Vec<ScopeId> = cu
        .stmts
        .iter()
        .filter_map(|(_, st)| match &st.kind {
            StmtKind::Block { scope, .. } => *scope,
            _ => None,
        })
        .collect();
    blocks.sort_by_key(|s| s.index());
    blocks.dedup();
    scopes.extend(blocks);
    let mut new_scope: HashMap<ScopeId, ScopeId> = HashMap::new();
    for &os in &scopes {
        let sc = prog.scopes[os].clone();
        let parent = sc.parent.map(|q| new_scope.get(&q).copied().unwrap_or(q));
        let ns = prog.scopes.alloc(ScopeData::new(sc.kind, parent));
        new_scope.insert(os, ns);
        let mut syms: Vec<SymbolId> = sc.order.clone();
        syms.extend(sc.names.values().copied());
        for s in syms {
            if prog.symbols[s].scope != os || map.contains_key(&s) {
                continue;
            }
            let mut d = prog.symbols[s].clone();
            d.scope = ns;
            map.insert(s, prog.symbols.alloc(d));
        }
    }
    let m = |s: &mut SymbolId| {
        if let Some(n) = map.get(s) {
            *s = *n;
        }
    };
    for &os in &scopes {
        let mut sc = prog.scopes[os].clone();
        sc.parent = sc.parent.map(|q| new_scope.get(&q).copied().unwrap_or(q));
        for v in sc.names.values_mut() {
            m(v);
        }
        sc.order.iter_mut().for_each(m);
        prog.scopes[new_scope[&os]] = sc;
    }
    let scope = new_scope[&old_scope];
    cu.scope = scope;
    let sids: Vec<StmtId> = cu.stmts.ids().collect();
    for st in sids {
        if let StmtKind::Block {
            scope: Some(bs),
            decls,
            associations,
            ..
        } = &mut cu.stmts[st].kind
        {
            if let Some(n) = new_scope.get(bs) {
                *bs = *n;
            }
            decls.iter_mut().for_each(|d| map_decl(d, &m));
            associations.iter_mut().for_each(|(s, _)| m(s));
        }
    }
    cu.params.iter_mut().for_each(m);
    if let Some(r) = cu.result.as_mut() {
        m(r);
    }
    let ids: Vec<ExprId> = cu.exprs.ids().collect();
    for e in ids {
        if let Expr::Name(s) = &mut cu.exprs[e] {
            m(s);
        }
    }
    for d in cu.decls.iter_mut() {
        map_decl(d, &m);
    }
    (cu, map)
}

/// Renames the symbols declaration `d` declares through `m`.
fn map_decl(d: &mut Decl, m: &dyn Fn(&mut SymbolId)) {
    match d {
        Decl::Var(v) => v.entities.iter_mut().for_each(|e| m(&mut e.sym)),
        Decl::Parameter(ps) => ps.iter_mut().for_each(|(s, _)| m(s)),
        Decl::Attr(a) => a.items.iter_mut().for_each(|i| m(&mut i.sym)),
        Decl::Common(bs) => bs
            .iter_mut()
            .for_each(|(_, es)| es.iter_mut().for_each(|e| m(&mut e.sym))),
        Decl::StmtFunction { name, params, .. } => {
            m(name);
            params.iter_mut().for_each(m);
        }
        _ => {}
    }
}

/// Where the copy of `p` (in module `m`) for actuals `t` goes: `m`, unless the module of an
/// actual is out of `p`'s reach and comes after `m` in the program (its derivative module is
/// written after `m`'s, which could then not use it): then the last such module.
fn host_of(prog: &Program, p: UnitId, m: UnitId, t: &[UnitId]) -> UnitId {
    t.iter()
        .filter_map(|&a| module_of(prog, a))
        .filter(|&am| am != m && !sees(prog, p, am) && am.index() > m.index())
        .max_by_key(|am| am.index())
        .unwrap_or(m)
}

/// Whether `p` names an entity of module `m` that `USE m` does not give and that cannot be
/// copied: a module variable (state), or a procedure keeping state between calls (SAVE,
/// DATA, an initialised local) or itself naming such an entity.
fn names_private_state_of(prog: &Program, p: UnitId, m: UnitId) -> bool {
    let ms = prog.units[m].scope;
    let default_private = prog.scopes[ms].default_private;
    let mut seen: Vec<UnitId> = vec![p];
    let mut todo: Vec<UnitId> = vec![p];
    while let Some(q) = todo.pop() {
        for (_, e) in prog.units[q].exprs.iter() {
            let Expr::Name(s) = e else { continue };
            let sd = &prog.symbols[*s];
            if sd.scope != ms || !(sd.attrs.private || (default_private && !sd.attrs.public)) {
                continue;
            }
            match sd.kind {
                SymbolKind::Variable if !sd.attrs.constant => return true,
                SymbolKind::Procedure => {
                    let Some(r) = sd.unit.filter(|&r| prog.units[r].name == Some(*s)) else {
                        continue;
                    };
                    if keeps_any_state(prog, r) {
                        return true;
                    }
                    if !seen.contains(&r) {
                        seen.push(r);
                        todo.push(r);
                    }
                }
                _ => {}
            }
        }
    }
    false
}

/// Whether procedure `q` keeps state between calls: SAVE, DATA, an initialised local.
fn keeps_any_state(prog: &Program, q: UnitId) -> bool {
    let u = &prog.units[q];
    u.decls.iter().any(|d| match d {
        Decl::Data(_) => true,
        Decl::Var(v) => v.entities.iter().any(|e| {
            let sd = &prog.symbols[e.sym];
            !sd.attrs.constant && (e.init.is_some() || sd.attrs.save)
        }),
        Decl::Verbatim(t) => t.to_ascii_lowercase().starts_with("save"),
        _ => false,
    }) || u.contains.iter().any(|&c| keeps_any_state(prog, c))
}

/// `use m` or `use m, only: name`.
fn use_decl(prog: &Program, m: UnitId, only: Option<&str>) -> Decl {
    let mname = prog.symbols[prog.units[m].name.expect("module name")]
        .spelling
        .clone();
    let (names, text) = match only {
        Some(a) => (
            vec![(a.to_string(), a.to_string())],
            format!("use {mname}, only: {a}"),
        ),
        None => (Vec::new(), format!("use {mname}")),
    };
    Decl::Use(
        UseImport {
            module: mname.to_ascii_lowercase(),
            unit: Some(m),
            only: only.is_some(),
            names,
        },
        text,
    )
}
