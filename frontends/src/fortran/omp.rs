//! `!$omp` directive lines among a Fortran body's statements (issue 45): `parallel do` …
//! `end parallel do` and `do` … `end do` inside `parallel` … `end parallel` become the
//! parallel-loop marker of their DO loop, `atomic` the marker of its update; everything else
//! is refused at its line when a head reaches the procedure (`crate::omp`).

use super::lower::*;
use crate::omp::{Construct, Pending};
use radtap_il::omp::{Omp, OmpKind};
use radtap_il::*;
use tree_sitter::Node;

/// The text after the `!$omp` sentinel of a comment, if it is one (any case).
pub(super) fn sentinel(comment: &str) -> Option<&str> {
    let t = comment.trim_start();
    let head = t.get(..5)?;
    head.eq_ignore_ascii_case("!$omp").then(|| &t[5..])
}

impl<'t> FortranLowering<'_, 't> {
    /// One `!$omp` line of a block: a loop directive or `atomic` waits for its statement,
    /// `parallel` opens a region, the `end` lines close what they close.
    pub(super) fn omp_comment(
        &mut self,
        n: Node<'t>,
        out: &mut Block,
        regions: &mut Vec<(Pending, usize)>,
    ) {
        let sp = self.sp(n);
        let raw = sentinel(self.t(n)).unwrap_or("").to_string();
        let mut text = raw.trim().to_string();
        let mut span = sp;
        if let Some((prev, psp)) = self.omp_cont.take() {
            text = format!("{prev} {}", text.trim_start_matches('&'));
            span = psp;
        }
        if let Some(t) = text.strip_suffix('&') {
            self.omp_cont = Some((t.to_string(), span));
            return;
        }
        let scope = self.scope();
        let p = &*self.p;
        let parsed = crate::omp::parse(&text, &mut |v| p.lookup(scope, &v.to_ascii_lowercase()));
        let parsed = match parsed {
            Ok(x) => x,
            Err(m) => {
                self.omp_refuse(span, format!("`!$omp {text}`: {m}"));
                return;
            }
        };
        let kind = crate::omp::construct(&parsed.construct);
        let mut clauses = parsed.clauses;
        if let Err(m) = crate::omp::keep_default(&mut clauses) {
            self.omp_refuse(span, m);
        }
        let words = parsed.construct;
        let in_region = regions.iter().any(|(o, _)| o.kind == Construct::Parallel);
        match kind {
            Construct::ParallelLoop | Construct::Loop | Construct::Atomic => {
                if kind == Construct::Loop && !in_region {
                    let msg = "`!$omp do` outside an `!$omp parallel` region of this procedure is not supported yet (write `!$omp parallel do`)".to_string();
                    self.omp_refuse(span, msg);
                    return;
                }
                if let Some(old) = self.pending_omp.take() {
                    self.omp_unmatched(old);
                }
                self.pending_omp = Some(Pending {
                    kind,
                    clauses,
                    span,
                    words,
                    name: parsed.name,
                });
            }
            // A section starts where its directive stands (`EndParallelSections`).
            Construct::Section
                if regions.last().is_some_and(|(o, _)| {
                    matches!(o.kind, Construct::ParallelSections | Construct::Section)
                }) =>
            {
                regions.push((
                    Pending {
                        kind,
                        clauses,
                        span,
                        words,
                        name: None,
                    },
                    out.len(),
                ))
            }
            Construct::Section => {
                let msg =
                    "`!$omp section` outside an `!$omp parallel sections` construct of this block"
                        .to_string();
                self.omp_refuse(span, msg);
            }
            Construct::EndParallelSections => {
                let mut starts = Vec::new();
                while let Some((_, at)) = regions.pop_if(|(o, _)| o.kind == Construct::Section) {
                    starts.push(at);
                }
                let Some((o, start)) =
                    regions.pop_if(|(o, _)| o.kind == Construct::ParallelSections)
                else {
                    let msg = "`!$omp end parallel sections` closes no `!$omp parallel sections`";
                    self.omp_refuse(span, msg.to_string());
                    return;
                };
                starts.push(start);
                starts.sort();
                starts.dedup();
                let mut sections = Vec::new();
                let end = out.len();
                let u = self.unit();
                for (k, &a) in starts.iter().enumerate() {
                    let b = starts.get(k + 1).copied().unwrap_or(end);
                    let mut st = Stmt::new(StmtKind::Block {
                        scope: None,
                        decls: vec![],
                        body: out[a..b].to_vec(),
                        associations: vec![],
                        construct: BlockKind::C,
                    });
                    st.omp = Some(Box::new(Omp {
                        kind: OmpKind::Section,
                        span: Some(o.span),
                    }));
                    let sid = u.stmts.alloc(st);
                    u.source_map.stmt.insert(sid, o.span);
                    sections.push(sid);
                }
                out.truncate(start);
                let mut st = Stmt::new(StmtKind::Block {
                    scope: None,
                    decls: vec![],
                    body: sections,
                    associations: vec![],
                    construct: BlockKind::C,
                });
                st.omp = Some(Box::new(Omp {
                    kind: OmpKind::Sections(o.clauses),
                    span: Some(o.span),
                }));
                let sid = u.stmts.alloc(st);
                u.source_map.stmt.insert(sid, o.span);
                out.push(sid);
            }
            Construct::Single if !in_region => {
                let msg = format!("`!$omp {words}` outside an `!$omp parallel` region of this procedure is not supported yet");
                self.omp_refuse(span, msg);
            }
            Construct::Single => {
                if let Some(m) = crate::omp::single_refusal(&words, &clauses) {
                    self.omp_refuse(span, m);
                }
                regions.push((
                    Pending {
                        kind,
                        clauses,
                        span,
                        words,
                        name: None,
                    },
                    out.len(),
                ))
            }
            // One thread runs it between the region's loops: sequential code there.
            Construct::EndSingle => {
                let Some((o, start)) = regions.pop_if(|(o, _)| o.kind == Construct::Single) else {
                    let msg = format!("`!$omp {words}` closes no `!$omp single` / `master`");
                    self.omp_refuse(span, msg);
                    return;
                };
                let body: Vec<StmtId> = out.drain(start..).collect();
                let u = self.unit();
                let st = Stmt::new(StmtKind::Block {
                    scope: None,
                    decls: vec![],
                    body,
                    associations: vec![],
                    construct: BlockKind::C,
                });
                let sid = u.stmts.alloc(st);
                u.source_map.stmt.insert(sid, o.span);
                out.push(sid);
                self.omp_worksharing.push(sid);
            }
            Construct::Parallel | Construct::Critical | Construct::ParallelSections => regions
                .push((
                    Pending {
                        kind,
                        clauses,
                        span,
                        words,
                        name: parsed.name,
                    },
                    out.len(),
                )),
            // Between the loops of the region it is directly in: the end of the parallel
            // loop before it (`EndParallel`).
            Construct::Barrier
                if regions
                    .last()
                    .is_some_and(|(o, _)| o.kind == Construct::Parallel) => {}
            Construct::Barrier => {
                let msg = "`!$omp barrier` is supported between the `!$omp do` loops of an `!$omp parallel` region only".to_string();
                self.omp_refuse(span, msg);
            }
            Construct::EndCritical => {
                let Some((o, start)) = regions.pop_if(|(o, _)| o.kind == Construct::Critical)
                else {
                    self.omp_refuse(
                        span,
                        "`!$omp end critical` closes no `!$omp critical`".to_string(),
                    );
                    return;
                };
                let body: Vec<StmtId> = out.drain(start..).collect();
                let u = self.unit();
                let mut st = Stmt::new(StmtKind::Block {
                    scope: None,
                    decls: vec![],
                    body,
                    associations: vec![],
                    construct: BlockKind::C,
                });
                st.omp = Some(Box::new(Omp {
                    kind: OmpKind::Critical(o.name),
                    span: Some(o.span),
                }));
                let sid = u.stmts.alloc(st);
                u.source_map.stmt.insert(sid, o.span);
                out.push(sid);
            }
            Construct::EndParallelLoop | Construct::EndLoop => {
                let u = &self.p.units[self.cur_unit.expect("unit")];
                let closes = out.last().is_some_and(|&l| {
                    matches!(u.stmts[l].kind, StmtKind::Do { .. }) && u.stmts[l].omp.is_some()
                });
                if !closes {
                    let msg = format!("`!$omp {words}` closes no `!$omp` loop");
                    self.omp_refuse(span, msg);
                }
            }
            Construct::EndParallel => {
                let Some((o, start)) = regions.pop_if(|(o, _)| o.kind == Construct::Parallel)
                else {
                    self.omp_refuse(span, "`!$omp end parallel` closes no region".to_string());
                    return;
                };
                let u = &self.p.units[self.cur_unit.expect("unit")];
                let mut loops = Vec::new();
                let mut singles = Vec::new();
                let mut fine = true;
                for &x in &out[start..] {
                    match &u.stmts[x].kind {
                        StmtKind::Comment(_) | StmtKind::Empty => {}
                        StmtKind::Do { .. } if self.omp_worksharing.contains(&x) => loops.push(x),
                        StmtKind::Block { .. } if self.omp_worksharing.contains(&x) => {
                            singles.push(x)
                        }
                        _ => fine = false,
                    }
                }
                let privates: Vec<SymbolId> = o
                    .clauses
                    .iter()
                    .filter(|c| {
                        matches!(
                            c,
                            radtap_il::omp::OmpClause::Private(_)
                                | radtap_il::omp::OmpClause::FirstPrivate(_)
                        )
                    })
                    .flat_map(|c| c.vars().to_vec())
                    .collect();
                for &b in &singles {
                    if let Some(x) = crate::omp::single_uses_private(u, b, &privates) {
                        let sp = u.source_map.stmt.get(b).copied().unwrap_or(o.span);
                        let msg = format!("a `single` / `master` block reading or writing `{}`, a private variable of its region, is not supported yet", self.p.name(x));
                        self.omp_refuse(sp, msg);
                        return;
                    }
                }
                // Several loops (separated by barriers, explicit or implicit): each one
                // parallel loop. A `firstprivate` variable would start each loop afresh.
                let firstprivate = o
                    .clauses
                    .iter()
                    .any(|c| matches!(c, radtap_il::omp::OmpClause::FirstPrivate(_)));
                fine &= loops.len() == 1 || !firstprivate;
                if fine && !loops.is_empty() {
                    let u = self.unit();
                    for l in loops {
                        let inner = match u.stmts[l].omp.take().map(|b| b.kind) {
                            Some(OmpKind::Loop(c)) => c,
                            _ => Vec::new(),
                        };
                        let clauses = crate::omp::fuse(o.clauses.clone(), inner, Vec::new());
                        u.stmts[l].omp = Some(Box::new(Omp {
                            kind: OmpKind::Loop(clauses),
                            span: Some(o.span),
                        }));
                    }
                    // The `single` / `master` blocks are the statements they hold, run
                    // between the parallel loops.
                    let mut flat = Vec::new();
                    for &x in &out[start..] {
                        match &u.stmts[x].kind {
                            StmtKind::Block { body, .. } if singles.contains(&x) => {
                                flat.extend(body.iter().copied())
                            }
                            _ => flat.push(x),
                        }
                    }
                    out.truncate(start);
                    out.extend(flat);
                } else {
                    let msg = "an `!$omp parallel` region is supported when its work is `!$omp do` loops (separated by barriers), `!$omp single` or `!$omp master` blocks between them".to_string();
                    self.omp_refuse(o.span, msg);
                }
            }
            Construct::Simd => {
                self.diags.push(Diagnostic::warning(
                    Code::Unsupported,
                    span,
                    format!("`!$omp {words}` is not applied to the generated code (a vectorisation hint: the loop means the same without it)"),
                ));
            }
            Construct::Other => {
                let msg = crate::omp::refusal(&words);
                self.omp_refuse(span, msg);
            }
        }
    }

    /// Gives statement `s` the directive `o` written before it (module doc).
    pub(super) fn attach_omp(&mut self, o: Pending, s: StmtId, in_region: bool) {
        let span = Some(o.span);
        let u = self.unit();
        let fits = match (&o.kind, &u.stmts[s].kind) {
            (Construct::ParallelLoop | Construct::Loop, StmtKind::Do { .. }) => true,
            (Construct::Atomic, StmtKind::Assign { lhs, rhs, .. }) => {
                matches!(&u.exprs[*rhs], Expr::Binary { lhs: l, .. }
                    if radtap_il::omp::same_ref(u, *l, *lhs))
            }
            _ => false,
        };
        if !fits {
            self.omp_unmatched(o);
            return;
        }
        let kind = match o.kind {
            Construct::Atomic => OmpKind::Atomic,
            _ => OmpKind::Loop(o.clauses.clone()),
        };
        u.stmts[s].omp = Some(Box::new(Omp { kind, span }));
        if o.kind == Construct::Loop && in_region {
            self.omp_worksharing.push(s);
        }
    }

    pub(super) fn omp_unmatched(&mut self, o: Pending) {
        let what = match o.kind {
            Construct::Atomic => "an update `x = x op e`",
            _ => "a DO loop",
        };
        let msg = format!("`!$omp {}` must be followed by {what}", o.words);
        self.omp_refuse(o.span, msg);
    }

    /// An OpenMP refusal: reported when a head reaches the procedure.
    pub(super) fn omp_refuse(&mut self, sp: Span, msg: String) {
        let d = Diagnostic::error(Code::Unsupported, sp, msg);
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
}
