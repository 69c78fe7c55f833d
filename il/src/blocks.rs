//! Fortran BLOCK constructs opened into their procedure before the adjoint is built
//! (QUADPACK's `main: block … if (done) exit main … end block main`).
//!
//! `BLOCK; decls; S1; …; Sk; END BLOCK` becomes `S1; …; Sk` with the declarations moved to the
//! procedure's specification part, a local renamed when its name is taken there (`t` → `t1`);
//! an `EXIT name` leaving the block becomes `GOTO l` to a new `l CONTINUE` after `Sk` (which
//! `il::fwdgoto` then makes an IF construct where it can). The statements compute what they
//! computed: a block is no loop, so an unnamed EXIT or CYCLE in it still names the loop around
//! it, and the locals of a block are undefined on each entry, as a procedure's locals are
//! between two entries of the block. Left as written (the adjoint refuses them at the
//! BLOCK): blocks with locals whose storage or value the block's end or start changes
//! (ALLOCATABLE, SAVE, initialised), automatic arrays whose bounds are not constants or
//! INTENT(IN) dummies, USE, type definitions or other specification statements.

use crate::ir::*;

/// Opens the BLOCK constructs of every Fortran procedure (see the module doc).
pub fn open_blocks(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| {
            u.lang == Lang::Fortran && matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
        })
        .map(|(id, _)| id)
        .collect();
    for id in units {
        // One block at a time: a block inside an opened one is found in the next round.
        let mut refused: Vec<StmtId> = Vec::new();
        while let Some((owner, bi, k)) = next_block(&prog.units[id], &refused) {
            let s = block_list(&prog.units[id], owner, bi)[k];
            if !open_one(prog, id, owner, bi, k) {
                refused.push(s);
            }
        }
    }
}

/// The first BLOCK construct not `refused`: its owner statement (`None`: the body), the
/// index of the list among the owner's blocks, its position there.
fn next_block(u: &UnitData, refused: &[StmtId]) -> Option<(Option<StmtId>, usize, usize)> {
    let mut owners: Vec<Option<StmtId>> = vec![None];
    owners.extend(u.stmts.iter().map(|(id, _)| Some(id)));
    for owner in owners {
        let n = match owner {
            None => 1,
            Some(o) => crate::directives::child_blocks(&u.stmts[o].kind).len(),
        };
        for bi in 0..n {
            let b = block_list(u, owner, bi);
            if let Some(k) = b.iter().position(|&s| {
                !refused.contains(&s)
                    && matches!(
                        u.stmts[s].kind,
                        StmtKind::Block {
                            construct: BlockKind::Block,
                            ..
                        }
                    )
            }) {
                return Some((owner, bi, k));
            }
        }
    }
    None
}

fn block_list(u: &UnitData, owner: Option<StmtId>, bi: usize) -> Block {
    match owner {
        None => u.body.clone(),
        Some(o) => crate::directives::child_blocks(&u.stmts[o].kind)[bi].clone(),
    }
}

fn set_block_list(u: &mut UnitData, owner: Option<StmtId>, bi: usize, nb: Block) {
    match owner {
        None => u.body = nb,
        Some(o) => {
            let mut i = 0;
            crate::directives::child_blocks_mut(&mut u.stmts[o].kind, &mut |b| {
                if i == bi {
                    *b = nb.clone();
                }
                i += 1;
            });
        }
    }
}

/// Whether the names of `e` are constants or INTENT(IN) dummies only.
fn fixed_expr(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    let mut ok = true;
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        if let Expr::Name(s) = &u.exprs[x] {
            let sd = &prog.symbols[*s];
            let fixed = sd.kind == SymbolKind::Constant
                || sd.attrs.constant
                || sd.kind == SymbolKind::Intrinsic
                || (sd.attrs.dummy && sd.attrs.intent == Some(Intent::In));
            ok &= fixed;
        }
        crate::visit::expr_children(&u.exprs[x], &mut |c| stack.push(c));
    }
    ok
}

/// Whether the declarations of a block can move to the procedure (see the module doc).
fn movable(prog: &Program, u: &UnitData, decls: &[Decl]) -> bool {
    decls.iter().all(|d| match d {
        Decl::Comment(_) | Decl::TrailingComment(_) | Decl::Parameter(_) => true,
        Decl::Var(v) => {
            let kept = v.attrs.iter().all(|a| match a {
                Attr::Keyword(k) => !matches!(k.as_str(), "allocatable" | "save"),
                Attr::Intent(_) | Attr::Dimension(_) => true,
            });
            let constant = v
                .attrs
                .iter()
                .any(|a| matches!(a, Attr::Keyword(k) if k == "parameter"));
            let fresh = v.entities.iter().all(|e| {
                let sd = &prog.symbols[e.sym];
                (constant || e.init.is_none()) && !sd.attrs.save && !sd.attrs.allocatable
            });
            let mut exprs = Vec::new();
            crate::visit::decl_exprs(d, &mut |e| exprs.push(e));
            // A parameter's value is a constant expression anyway.
            kept && fresh && (constant || exprs.iter().all(|&e| fixed_expr(prog, u, e)))
        }
        _ => false,
    })
}

/// Opens the block at `k` of list `bi` of `owner`; whether it did.
fn open_one(prog: &mut Program, id: UnitId, owner: Option<StmtId>, bi: usize, k: usize) -> bool {
    let u = &prog.units[id];
    let list = block_list(u, owner, bi);
    let s = list[k];
    let StmtKind::Block {
        scope, decls, body, ..
    } = &u.stmts[s].kind
    else {
        return false;
    };
    let (scope, decls, body) = (*scope, decls.clone(), body.clone());
    if !movable(prog, u, &decls) {
        return false;
    }
    let uscope = u.scope;
    // The block's names go to the procedure's scope, renamed where the name is taken.
    let mut renames: Vec<(SymbolId, Option<String>)> = Vec::new();
    if let Some(bs) = scope {
        let mut declared: Vec<SymbolId> = Vec::new();
        for d in &decls {
            match d {
                Decl::Var(v) => declared.extend(v.entities.iter().map(|e| e.sym)),
                Decl::Parameter(ps) => declared.extend(ps.iter().map(|(p, _)| *p)),
                _ => {}
            }
        }
        let syms: Vec<SymbolId> = prog.scopes[bs].order.clone();
        for sym in syms {
            // Intrinsics and procedures first named in the block stay in its scope (they
            // name what the procedure's would).
            if !declared.contains(&sym)
                && matches!(
                    prog.symbols[sym].kind,
                    SymbolKind::Intrinsic | SymbolKind::Procedure
                )
            {
                continue;
            }
            let key = prog.symbols[sym].spelling.to_ascii_lowercase();
            let taken = prog.lookup(uscope, &key).is_some();
            if !taken {
                renames.push((sym, None));
                continue;
            }
            // An undeclared name of the block is the procedure's (implicit typing) and a
            // construct name keeps its spelling: a clash there is left as written.
            if !declared.contains(&sym) || prog.symbols[sym].kind == SymbolKind::Label {
                return false;
            }
            let mut n = 1;
            let fresh = loop {
                let cand = format!("{key}{n}");
                if prog.lookup(uscope, &cand).is_none()
                    && !renames
                        .iter()
                        .any(|(_, r)| r.as_deref() == Some(cand.as_str()))
                {
                    break cand;
                }
                n += 1;
            };
            renames.push((sym, Some(fresh)));
        }
        let moved: Vec<SymbolId> = renames.iter().map(|(s, _)| *s).collect();
        for (sym, new) in renames {
            if let Some(n) = new {
                let spelled_upper = prog.symbols[sym]
                    .spelling
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_uppercase());
                prog.symbols[sym].spelling = if spelled_upper {
                    n.to_ascii_uppercase()
                } else {
                    n
                };
            }
            let key = prog.symbols[sym].spelling.to_ascii_lowercase();
            prog.symbols[sym].scope = uscope;
            let sc = &mut prog.scopes[uscope];
            sc.names.insert(key, sym);
            sc.order.push(sym);
        }
        let bsc = &mut prog.scopes[bs];
        bsc.names.retain(|_, s| !moved.contains(s));
        bsc.order.retain(|s| !moved.contains(s));
    }
    let u = &mut prog.units[id];
    let name = u.stmts[s].construct_name.clone();
    let label = u.stmts[s].label.clone();
    // `EXIT name` leaving the block: a GOTO to a CONTINUE after it.
    let mut exits = Vec::new();
    if let Some(n) = &name {
        let mut stack = body.clone();
        while let Some(x) = stack.pop() {
            if matches!(&u.stmts[x].kind, StmtKind::Exit(Some(e)) if e.eq_ignore_ascii_case(n)) {
                exits.push(x);
            }
            crate::directives::child_blocks(&u.stmts[x].kind)
                .into_iter()
                .for_each(|b| stack.extend(b.iter().copied()));
        }
    }
    let mut nb: Block = list[..k].to_vec();
    let plain = |kind: StmtKind, label: Option<String>| Stmt {
        kind,
        label,
        construct_name: None,
        directives: Vec::new(),
        comment: None,
        omp: None,
    };
    let span = u.source_map.stmt.get(s).copied();
    if label.is_some() {
        let c = u.stmts.alloc(plain(StmtKind::Continue, label));
        if let Some(sp) = span {
            u.source_map.stmt.insert(c, sp);
        }
        nb.push(c);
    }
    let directives = std::mem::take(&mut u.stmts[s].directives);
    for d in &decls {
        if let Decl::Comment(t) = d {
            nb.push(u.stmts.alloc(plain(StmtKind::Comment(t.clone()), None)));
        }
    }
    let first = nb.len();
    nb.extend(body.iter().copied());
    if let Some(&f) = nb.get(first) {
        u.stmts[f].directives.splice(0..0, directives);
    }
    if !exits.is_empty() {
        let l = fresh_label(u);
        for x in exits {
            u.stmts[x].kind = StmtKind::Goto(l.clone());
        }
        let c = u.stmts.alloc(plain(StmtKind::Continue, Some(l)));
        if let Some(sp) = span {
            u.source_map.stmt.insert(c, sp);
        }
        nb.push(c);
    }
    nb.extend_from_slice(&list[k + 1..]);
    set_block_list(u, owner, bi, nb);
    u.decls.extend(
        decls
            .into_iter()
            .filter(|d| matches!(d, Decl::Var(_) | Decl::Parameter(_))),
    );
    // The BLOCK statement leaves the tree: an empty statement no walk takes for a construct.
    u.stmts[s].kind = StmtKind::Empty;
    true
}

/// A statement label no statement of `u` carries.
fn fresh_label(u: &UnitData) -> String {
    let used: Vec<String> = u
        .stmts
        .iter()
        .filter_map(|(_, st)| st.label.as_deref().map(crate::fwdgoto::key))
        .collect();
    let mut n = 90000u32;
    while used.contains(&n.to_string()) {
        n += 1;
    }
    n.to_string()
}
