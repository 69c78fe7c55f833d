//! OpenMP `reduction(*|max|min: m)` of a real variable written as the reduction it is, before
//! the analyses (issue 45):
//!
//! ```c
//! #pragma omp parallel for reduction(max: m)      chunkq = n / 64; chunkr = n - chunkq * 64;
//! for (i = 0; i < n; i++)                         #pragma omp parallel for private(i)
//!     if (a[i] > m) m = a[i];                 →   for (ichunk = 0; ichunk < 64; ichunk++) {
//!                                                     int chunklo = …, chunkhi = …;
//!                                                     double m_chunk = m;
//!                                                     for (i = chunklo; i < chunkhi; i++)
//!                                                         if (a[i] > m_chunk) m_chunk = a[i];
//!                                                     m_chunks[ichunk] = m_chunk;
//!                                                 }
//!                                                 for (ichunk = 0; ichunk < 64; ichunk++)
//!                                                     if (m_chunks[ichunk] > m) m = m_chunks[ichunk];
//! ```
//!
//! What OpenMP does with the clause (a private copy per thread, combined at the end), with a
//! fixed number of contiguous chunks instead of threads: each chunk reduces its iterations
//! in order into its own copy (`m_chunk`, starting at `m` for `max`/`min`, which changes
//! nothing, and at 1 for `*`), stored in an element of its own (`m_chunks`), and the copies
//! are combined in chunk order by a sequential loop. Both modes and every analysis then see
//! ordinary code: a parallel loop whose iterations own what they write, and a sequential
//! max / product, whose derivatives are exact (the adjoint of the product records the
//! partial products, no division by a factor that may be zero; the derivative of a max
//! follows the chunk that held it). The result does not depend on the number of threads,
//! ties included: within a chunk the loop's own comparison decides, between chunks the
//! first chunk (the lowest iterations) keeps the maximum (`>`, not `>=`), and the value `m`
//! had before the loop keeps it against a chunk that only equals it.
//!
//! Rewritten: a parallel loop (`OmpKind::Loop`) without `collapse` or `lastprivate`, a C
//! `for (i = a; i < b | i <= b; i++ | ++i | i += 1)` or a Fortran `do i = a, b` (no step or
//! step 1), each real scalar of its `*`, `max`, `min` reduction clauses that has a
//! declaration to copy the type from. Anything else is left as written (and refused by the
//! differentiators where the variable is active).

use crate::ir::*;
use crate::omp::{OmpClause, OmpKind};

/// The number of chunks (fixed, so that results do not depend on the number of threads).
const CHUNKS: i64 = 64;

/// Rewrites the `*`/`max`/`min` reductions of real variables of every unit (module doc).
pub fn lower_reductions(prog: &mut Program) {
    for lang in [Lang::C, Lang::Fortran] {
        for id in prog.units_with_body(lang) {
            let has = prog.units[id].stmts.iter().any(|(_, s)| {
                s.omp.as_deref().is_some_and(|o| {
                    o.reductions().iter().any(|(op, _)| {
                        matches!(op.to_ascii_lowercase().as_str(), "*" | "max" | "min")
                    })
                })
            });
            if !has {
                continue;
            }
            let body = std::mem::take(&mut prog.units[id].body);
            let mut decls = Vec::new();
            let body = lower_block(prog, id, body, &mut decls);
            let u = &mut prog.units[id];
            u.body = body;
            // Declarations: Fortran in the specification part, C at the top of the body
            // (the chunk's locals are declared in the chunk loop).
            match lang {
                Lang::Fortran => u.decls.extend(decls),
                Lang::C => {
                    let at = u
                        .body
                        .iter()
                        .position(|&x| !matches!(u.stmts[x].kind, StmtKind::Decl(_)))
                        .unwrap_or(u.body.len());
                    let span = u
                        .body
                        .get(at)
                        .and_then(|x| u.source_map.stmt.get(*x).copied());
                    for (k, d) in decls.into_iter().enumerate() {
                        let st = u.new_stmt(StmtKind::Decl(d), span);
                        u.body.insert(at + k, st);
                    }
                }
            }
        }
    }
}

fn lower_block(
    prog: &mut Program,
    id: UnitId,
    block: Vec<StmtId>,
    decls: &mut Vec<Decl>,
) -> Vec<StmtId> {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        let mut kind = std::mem::replace(&mut prog.units[id].stmts[s].kind, StmtKind::Empty);
        crate::directives::child_blocks_mut(&mut kind, &mut |b| {
            let inner = std::mem::take(b);
            *b = lower_block(prog, id, inner, decls);
        });
        prog.units[id].stmts[s].kind = kind;
        match lower_loop(prog, id, s, decls) {
            Some(v) => out.extend(v),
            None => out.push(s),
        }
    }
    out
}

/// The reduction operator of a lowered variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Mul,
    Max,
    Min,
}

/// The loop's counter, start, end (exclusive `<` when `lt`), or `None` when its form is not
/// one this pass rewrites.
struct Shape {
    counter: SymbolId,
    start: ExprId,
    end: ExprId,
    /// C `i < b` (else `i <= b`, and Fortran).
    exclusive: bool,
    /// C: the counter is declared in the loop's initialisation.
    declared: bool,
}

fn shape(u: &UnitData, s: StmtId) -> Option<Shape> {
    match &u.stmts[s].kind {
        StmtKind::Do {
            var,
            start,
            end,
            step,
            term_label: None,
            ..
        } => {
            let Expr::Name(counter) = u.exprs[*var] else {
                return None;
            };
            if let Some(st) = step {
                if !matches!(&u.exprs[*st], Expr::Literal(l) if l.kind == LitKind::Int && l.text == "1")
                {
                    return None;
                }
            }
            Some(Shape {
                counter,
                start: *start,
                end: *end,
                exclusive: false,
                declared: false,
            })
        }
        StmtKind::CFor {
            init: Some(init),
            cond: Some(cond),
            step: Some(step),
            ..
        } => {
            let (counter, start, declared) = match &u.stmts[*init].kind {
                StmtKind::Assign { lhs, op: None, rhs } => match u.exprs[*lhs] {
                    Expr::Name(x) => (x, *rhs, false),
                    _ => return None,
                },
                StmtKind::Decl(Decl::Var(v)) => match &v.entities[..] {
                    [e] if e.dims.is_none() && e.derived.is_empty() => match e.init {
                        Some(Init::Expr(x)) => (e.sym, x, true),
                        _ => return None,
                    },
                    _ => return None,
                },
                StmtKind::Expr(e) => match &u.exprs[*e] {
                    Expr::Assign { lhs, op: None, rhs } => match u.exprs[*lhs] {
                        Expr::Name(x) => (x, *rhs, false),
                        _ => return None,
                    },
                    _ => return None,
                },
                _ => return None,
            };
            let is_counter = |e: ExprId| matches!(u.exprs[e], Expr::Name(x) if x == counter);
            let (end, exclusive) = match &u.exprs[*cond] {
                Expr::Binary {
                    op: BinOp::Lt(_),
                    lhs,
                    rhs,
                } if is_counter(*lhs) => (*rhs, true),
                Expr::Binary {
                    op: BinOp::Le(_),
                    lhs,
                    rhs,
                } if is_counter(*lhs) => (*rhs, false),
                _ => return None,
            };
            let unit_step = match &u.exprs[*step] {
                Expr::IncDec { inc: true, arg, .. } => is_counter(*arg),
                Expr::Assign {
                    lhs,
                    op: Some(BinOp::Add),
                    rhs,
                } => {
                    is_counter(*lhs)
                        && matches!(&u.exprs[*rhs], Expr::Literal(l) if l.kind == LitKind::Int && l.text == "1")
                }
                _ => false,
            };
            unit_step.then_some(Shape {
                counter,
                start,
                end,
                exclusive,
                declared,
            })
        }
        _ => None,
    }
}

/// The type as declared of variable `x` in unit `u` (its declaration in the specification
/// part, a declaration statement, or a C parameter).
fn declared_spec(u: &UnitData, x: SymbolId, cparams: &[(SymbolId, TypeSpec)]) -> Option<TypeSpec> {
    let of = |v: &VarDecl| {
        v.entities
            .iter()
            .any(|e| e.sym == x)
            .then(|| v.spec.clone())
    };
    for d in &u.decls {
        if let Decl::Var(v) = d {
            if let Some(t) = of(v) {
                return Some(t);
            }
        }
    }
    for (_, s) in u.stmts.iter() {
        if let StmtKind::Decl(Decl::Var(v)) = &s.kind {
            if let Some(t) = of(v) {
                return Some(t);
            }
        }
    }
    cparams
        .iter()
        .find(|(p, _)| *p == x)
        .map(|(_, t)| t.clone())
}

/// The statements standing for the parallel loop `s` with its `*`/`max`/`min` reductions of
/// real variables lowered, or `None` when `s` is not one (module doc).
fn lower_loop(
    prog: &mut Program,
    id: UnitId,
    s: StmtId,
    decls: &mut Vec<Decl>,
) -> Option<Vec<StmtId>> {
    let u = &prog.units[id];
    let omp = u.stmts[s].omp.as_deref()?;
    let OmpKind::Loop(clauses) = &omp.kind else {
        return None;
    };
    if clauses
        .iter()
        .any(|c| matches!(c, OmpClause::Collapse(_) | OmpClause::LastPrivate(_)))
    {
        return None;
    }
    let sh = shape(u, s)?;
    let cparams: Vec<(SymbolId, TypeSpec)> = u
        .params
        .iter()
        .zip(&u.c_params)
        .filter(|(_, p)| p.derived.is_empty() && p.dims.is_empty())
        .map(|(&x, p)| (x, p.spec.clone()))
        .collect();
    let mut vars: Vec<(SymbolId, Op, TypeSpec)> = Vec::new();
    for (op, x) in omp.reductions() {
        let op = match op.to_ascii_lowercase().as_str() {
            "*" => Op::Mul,
            "max" => Op::Max,
            "min" => Op::Min,
            _ => continue,
        };
        let real = prog.symbols[x]
            .ty
            .as_ref()
            .is_some_and(|t| t.base == BaseClass::Real && t.dims.is_empty() && t.pointers == 0);
        if !real {
            continue;
        }
        let Some(spec) = declared_spec(u, x, &cparams) else {
            continue;
        };
        vars.push((x, op, spec));
    }
    if vars.is_empty() {
        return None;
    }
    let lang = u.lang;
    let span = u.source_map.stmt.get(s).copied();
    let scope = u.scope;
    // The clauses of the chunk loop: the primal's, without the lowered variables.
    let lowered: Vec<SymbolId> = vars.iter().map(|v| v.0).collect();
    let mut clauses: Vec<OmpClause> = clauses
        .iter()
        .filter_map(|c| match c {
            OmpClause::Reduction(op, v) => {
                let v: Vec<SymbolId> = v.iter().copied().filter(|x| !lowered.contains(x)).collect();
                (!v.is_empty()).then(|| OmpClause::Reduction(op.clone(), v))
            }
            _ => Some(c.clone()),
        })
        .collect();
    let omp_span = omp.span;

    // New variables.
    let int = || Some(Type::int());
    let chunk = prog.add_fresh_variable(scope, "ichunk", int());
    let start = prog.add_fresh_variable(scope, "chunkstart", int());
    let trips = prog.add_fresh_variable(scope, "chunkn", int());
    let q = prog.add_fresh_variable(scope, "chunkq", int());
    let r = prog.add_fresh_variable(scope, "chunkr", int());
    let lo = prog.add_fresh_variable(scope, "chunklo", int());
    let hi = prog.add_fresh_variable(scope, "chunkhi", int());
    let mut copies = Vec::new();
    for (x, op, spec) in &vars {
        let base = prog.symbols[*x].spelling.clone();
        let ty = prog.symbols[*x].ty.clone();
        let own = prog.add_fresh_variable(scope, &format!("{base}_chunk"), ty.clone());
        let arr = prog.add_fresh_variable(scope, &format!("{base}_chunks"), None);
        let u = &mut prog.units[id];
        let ext = u.int_literal(CHUNKS);
        let mut aty = ty.unwrap_or_else(Type::int);
        aty.dims = vec![Dim {
            lower: None,
            upper: DimUpper::Expr(ext),
        }];
        prog.symbols[arr].ty = Some(aty);
        copies.push((*x, *op, spec.clone(), own, arr));
    }
    let u = &mut prog.units[id];
    let name = |u: &mut UnitData, x: SymbolId| u.exprs.alloc(Expr::Name(x));
    let lit = |u: &mut UnitData, v: i64| u.int_literal(v);
    let bin = |u: &mut UnitData, op: BinOp, a: ExprId, b: ExprId| {
        u.exprs.alloc(Expr::Binary { op, lhs: a, rhs: b })
    };
    let elem = |u: &mut UnitData, arr: SymbolId, c: SymbolId| {
        let base = u.exprs.alloc(Expr::Name(arr));
        let mut sub = u.exprs.alloc(Expr::Name(c));
        if lang == Lang::Fortran {
            let one = u.int_literal(1);
            sub = u.exprs.alloc(Expr::Binary {
                op: BinOp::Add,
                lhs: sub,
                rhs: one,
            });
        }
        u.exprs.alloc(Expr::Index {
            base,
            subs: vec![Subscript::Index(sub)],
        })
    };
    let mut out = Vec::new();

    // chunkstart = a; chunkn = b - chunkstart (+ 1); chunkq = chunkn / 64;
    // chunkr = chunkn - chunkq * 64
    out.push(u.assign_var(start, sh.start, span));
    let sv = name(u, start);
    let mut n = bin(u, BinOp::Sub, sh.end, sv);
    if !sh.exclusive {
        let one = lit(u, 1);
        n = bin(u, BinOp::Add, n, one);
    }
    out.push(u.assign_var(trips, n, span));
    let nv = name(u, trips);
    let k = lit(u, CHUNKS);
    let qe = bin(u, BinOp::Div, nv, k);
    out.push(u.assign_var(q, qe, span));
    let nv = name(u, trips);
    let qv = name(u, q);
    let k = lit(u, CHUNKS);
    let qk = bin(u, BinOp::Mul, qv, k);
    let re = bin(u, BinOp::Sub, nv, qk);
    out.push(u.assign_var(r, re, span));

    // The chunk's first iteration and its end: chunkstart + c*q + (c*r)/64.
    let bound = |u: &mut UnitData, next: bool| {
        let mut c = name(u, chunk);
        if next {
            let one = lit(u, 1);
            c = bin(u, BinOp::Add, c, one);
            c = u.exprs.alloc(Expr::Paren(c));
        }
        let c2 = u.deep_copy(c);
        let qv = name(u, q);
        let cq = bin(u, BinOp::Mul, c2, qv);
        let sv = name(u, start);
        let a = bin(u, BinOp::Add, sv, cq);
        let rv = name(u, r);
        let cr = bin(u, BinOp::Mul, c, rv);
        let cr = u.exprs.alloc(Expr::Paren(cr));
        let k = lit(u, CHUNKS);
        let d = bin(u, BinOp::Div, cr, k);
        bin(u, BinOp::Add, a, d)
    };
    let mut chunk_body = Vec::new();
    let lo_e = bound(u, false);
    let mut hi_e = bound(u, true);
    if lang == Lang::Fortran {
        let one = lit(u, 1);
        hi_e = bin(u, BinOp::Sub, hi_e, one);
    }
    let local = |u: &mut UnitData, spec: TypeSpec, x: SymbolId, init: ExprId| {
        let mut d = Decl::one(spec, x, Vec::new());
        if let Decl::Var(v) = &mut d {
            v.entities[0].init = Some(Init::Expr(init));
        }
        u.new_stmt(StmtKind::Decl(d), span)
    };
    match lang {
        Lang::C => {
            chunk_body.push(local(u, TypeSpec::int(lang), lo, lo_e));
            chunk_body.push(local(u, TypeSpec::int(lang), hi, hi_e));
        }
        Lang::Fortran => {
            chunk_body.push(u.assign_var(lo, lo_e, span));
            chunk_body.push(u.assign_var(hi, hi_e, span));
        }
    }
    for (x, op, spec, own, _) in &copies {
        let init = match op {
            Op::Mul => u.exprs.alloc(Expr::Literal(Literal {
                kind: LitKind::Real,
                text: "1.0".into(),
            })),
            Op::Max | Op::Min => name(u, *x),
        };
        chunk_body.push(match lang {
            Lang::C => {
                let mut spec = spec.clone();
                spec.qualifiers.retain(|q| q != "const");
                local(u, spec, *own, init)
            }
            Lang::Fortran => u.assign_var(*own, init, span),
        });
    }
    // The primal loop over the chunk's iterations, its reduction variables renamed.
    let mut below = Vec::new();
    crate::omp::stmts_below(u, &[s], &mut below);
    let mut todo: Vec<ExprId> = Vec::new();
    for &t in &below {
        crate::visit::stmt_children(&u.stmts[t].kind, &mut |e| todo.push(e), &mut |_| {});
    }
    while let Some(e) = todo.pop() {
        if let Expr::Name(x) = u.exprs[e] {
            if let Some(c) = copies.iter().find(|c| c.0 == x) {
                u.exprs[e] = Expr::Name(c.3);
            }
        }
        crate::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    let lo_v = name(u, lo);
    let hi_v = name(u, hi);
    match &mut u.stmts[s].kind {
        StmtKind::Do { start, end, .. } => {
            *start = lo_v;
            *end = hi_v;
        }
        StmtKind::CFor {
            init: Some(init),
            cond: Some(cond),
            ..
        } => {
            let (init, cond) = (*init, *cond);
            match &mut u.stmts[init].kind {
                StmtKind::Assign { rhs, .. } => *rhs = lo_v,
                StmtKind::Decl(Decl::Var(v)) => v.entities[0].init = Some(Init::Expr(lo_v)),
                StmtKind::Expr(e) => {
                    let e = *e;
                    if let Expr::Assign { rhs, .. } = &mut u.exprs[e] {
                        *rhs = lo_v;
                    }
                }
                _ => {}
            }
            if let Expr::Binary { op, rhs, .. } = &mut u.exprs[cond] {
                *op = BinOp::Lt(RelSpell::Symbol);
                *rhs = hi_v;
            }
        }
        _ => {}
    }
    u.stmts[s].omp = None;
    chunk_body.push(s);
    for (_, _, _, own, arr) in &copies {
        let lhs = elem(u, *arr, chunk);
        let rhs = name(u, *own);
        chunk_body.push(u.new_stmt(StmtKind::Assign { lhs, op: None, rhs }, span));
    }

    // The parallel loop over the chunks.
    let mut private = Vec::new();
    if !sh.declared {
        private.push(sh.counter);
    }
    if lang == Lang::Fortran {
        private.extend([lo, hi]);
        private.extend(copies.iter().map(|c| c.3));
    }
    clauses.push(OmpClause::Private(private));
    let chunk_loop = counted(u, lang, chunk, chunk_body, span);
    u.stmts[chunk_loop].omp = Some(Box::new(crate::omp::Omp {
        kind: OmpKind::Loop(clauses),
        span: omp_span,
    }));
    out.push(chunk_loop);

    // The chunks' copies combined in order.
    let mut combine = Vec::new();
    for (x, op, _, _, arr) in &copies {
        let e = elem(u, *arr, chunk);
        let st = match op {
            Op::Mul => {
                let xv = name(u, *x);
                let p = bin(u, BinOp::Mul, xv, e);
                u.assign_var(*x, p, span)
            }
            Op::Max | Op::Min => {
                let xv = name(u, *x);
                let rel = if *op == Op::Max {
                    BinOp::Gt(RelSpell::Symbol)
                } else {
                    BinOp::Lt(RelSpell::Symbol)
                };
                let c = bin(u, rel, e, xv);
                let e2 = elem(u, *arr, chunk);
                let set = u.assign_var(*x, e2, span);
                u.new_stmt(
                    StmtKind::If {
                        arms: vec![(c, vec![set])],
                        else_block: None,
                        logical: false,
                        braces: vec![false],
                    },
                    span,
                )
            }
        };
        combine.push(st);
    }
    out.push(counted(u, lang, chunk, combine, span));

    for x in [chunk, start, trips, q, r] {
        decls.push(Decl::one(TypeSpec::int(lang), x, Vec::new()));
    }
    if lang == Lang::Fortran {
        for x in [lo, hi] {
            decls.push(Decl::one(TypeSpec::int(lang), x, Vec::new()));
        }
    }
    for (_, _, spec, own, arr) in &copies {
        let mut spec = spec.clone();
        spec.qualifiers.retain(|q| q != "const");
        if lang == Lang::Fortran {
            decls.push(Decl::one(spec.clone(), *own, Vec::new()));
        }
        let mut d = Decl::one(spec, *arr, Vec::new());
        let ext = u.int_literal(CHUNKS);
        if let Decl::Var(v) = &mut d {
            match lang {
                Lang::C => v.entities[0].derived = vec![DeclOp::Array(Some(ext))],
                Lang::Fortran => {
                    v.entities[0].dims = Some(vec![Dim {
                        lower: None,
                        upper: DimUpper::Expr(ext),
                    }])
                }
            }
        }
        decls.push(d);
    }
    Some(out)
}

/// `for (c = 0; c < 64; c++) body` / `do c = 0, 63 … end do`.
fn counted(
    u: &mut UnitData,
    lang: Lang,
    c: SymbolId,
    body: Vec<StmtId>,
    span: Option<crate::diag::Span>,
) -> StmtId {
    let zero = u.int_literal(0);
    let kind = match lang {
        Lang::Fortran => {
            let var = u.exprs.alloc(Expr::Name(c));
            let end = u.int_literal(CHUNKS - 1);
            StmtKind::Do {
                var,
                start: zero,
                end,
                step: None,
                body,
                term_label: None,
            }
        }
        Lang::C => {
            let init = u.assign_var(c, zero, span);
            let cv = u.exprs.alloc(Expr::Name(c));
            let k = u.int_literal(CHUNKS);
            let cond = u.exprs.alloc(Expr::Binary {
                op: BinOp::Lt(RelSpell::Symbol),
                lhs: cv,
                rhs: k,
            });
            let cv = u.exprs.alloc(Expr::Name(c));
            let step = u.exprs.alloc(Expr::IncDec {
                inc: true,
                prefix: false,
                arg: cv,
            });
            StmtKind::CFor {
                init: Some(init),
                cond: Some(cond),
                step: Some(step),
                body,
                braced: true,
            }
        }
    };
    u.new_stmt(kind, span)
}
