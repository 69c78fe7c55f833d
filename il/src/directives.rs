//! `$AD` directives (DESIGN.md "Directives"): what a directive comment says, parsed once
//! into a [`DirectiveKind`] when the frontends read it ([`parse_directive`]), and the regions
//! `CHECKPOINT-START` … `CHECKPOINT-END` and `DO-NOT-DIFF` … `END-DO-NOT-DIFF`.
//!
//! The words of the directives are spelled here only: every other crate matches on
//! [`DirectiveKind`]. A directive's arguments are checked here too; what is wrong with them
//! is kept in the kind, for the adjoint to report (AD050) where it would act on the
//! directive.
//!
//! A region is a run of statements of one block: it starts at the statement that carries the
//! opening directive (the frontends attach a directive to the statement after it) and ends
//! before the statement that carries the closing one (an empty statement when the closing
//! directive is the last thing in its block). Regions nest; they never cross a block
//! boundary. What does not match is a [`Problem`], which the pipeline reports as AD050.

use crate::*;

/// A `$AD` directive: what it says, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Directive {
    /// The directive, its arguments parsed.
    pub kind: DirectiveKind,
    /// The whole comment text, for output.
    pub text: String,
    /// Where the comment is, when the frontend knows it (directives among statements), for
    /// the diagnostics of a misplaced or unmatched directive.
    pub span: Option<Span>,
}

impl Directive {
    /// A comment written where directives are (above a generated procedure), not a `$AD`
    /// directive.
    pub fn comment(text: String) -> Directive {
        Directive {
            kind: DirectiveKind::Comment,
            text,
            span: None,
        }
    }
}

/// What a directive says (keywords case-insensitive in the source).
#[derive(Debug, Clone, PartialEq)]
pub enum DirectiveKind {
    /// `NOCHECKPOINT`: the next call (on a procedure header: all its calls) is split.
    Nocheckpoint,
    /// `CHECKPOINT-START`.
    CheckpointStart,
    /// `CHECKPOINT-END`.
    CheckpointEnd,
    /// `DO-NOT-DIFF`.
    DoNotDiff,
    /// `END-DO-NOT-DIFF`.
    EndDoNotDiff,
    /// `II-LOOP`: each iteration of the next loop checkpointed.
    IiLoop,
    /// `BINOMIAL-CKP nsteps snaps first`, or why its arguments are not that.
    BinomialCkp(Result<BinomialArgs, String>),
    /// `FP-LOOP "vars" adj_reduction=eps`, or why its arguments are not that.
    FpLoop(Result<FpLoopArgs, String>),
    /// Any other word after `$AD`, upper-cased.
    Unknown(String),
    /// Not a directive: a comment generated code writes where directives are written.
    Comment,
}

/// The arguments of `BINOMIAL-CKP`, as written (expressions over the variables the loop
/// sees).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinomialArgs {
    /// The largest trip count.
    pub nsteps: String,
    /// The number of snapshots.
    pub snaps: String,
    /// The first step.
    pub first: String,
}

/// The arguments of `FP-LOOP`.
#[derive(Debug, Clone, PartialEq)]
pub struct FpLoopArgs {
    /// The state variables named (quotes removed).
    pub names: Vec<String>,
    /// `adj_reduction=eps`, in (0, 1), when given.
    pub eps: Option<f64>,
}

impl DirectiveKind {
    /// The kind of the directive `name` (upper-cased) with arguments `args`.
    fn parse(name: String, args: &str) -> DirectiveKind {
        match name.as_str() {
            "NOCHECKPOINT" => DirectiveKind::Nocheckpoint,
            "CHECKPOINT-START" => DirectiveKind::CheckpointStart,
            "CHECKPOINT-END" => DirectiveKind::CheckpointEnd,
            "DO-NOT-DIFF" => DirectiveKind::DoNotDiff,
            "END-DO-NOT-DIFF" => DirectiveKind::EndDoNotDiff,
            "II-LOOP" => DirectiveKind::IiLoop,
            "BINOMIAL-CKP" => DirectiveKind::BinomialCkp(binomial_args(args)),
            "FP-LOOP" => DirectiveKind::FpLoop(fp_loop_args(args)),
            _ => DirectiveKind::Unknown(name),
        }
    }

    /// The directive's word as messages spell it (`BINOMIAL-CKP`; an unknown one as
    /// written, upper-cased).
    pub fn word(&self) -> &str {
        match self {
            DirectiveKind::Nocheckpoint => "NOCHECKPOINT",
            DirectiveKind::CheckpointStart => "CHECKPOINT-START",
            DirectiveKind::CheckpointEnd => "CHECKPOINT-END",
            DirectiveKind::DoNotDiff => "DO-NOT-DIFF",
            DirectiveKind::EndDoNotDiff => "END-DO-NOT-DIFF",
            DirectiveKind::IiLoop => "II-LOOP",
            DirectiveKind::BinomialCkp(_) => "BINOMIAL-CKP",
            DirectiveKind::FpLoop(_) => "FP-LOOP",
            DirectiveKind::Unknown(w) => w,
            DirectiveKind::Comment => "",
        }
    }

    /// Whether it opens or closes a region.
    pub fn is_region(&self) -> bool {
        self.opens().is_some() || self.closes().is_some()
    }

    /// Whether it is one of the directives that run a loop's body more than once in the
    /// adjoint (`BINOMIAL-CKP`, `II-LOOP`, `FP-LOOP`).
    pub fn is_loop(&self) -> bool {
        matches!(
            self,
            DirectiveKind::BinomialCkp(_) | DirectiveKind::IiLoop | DirectiveKind::FpLoop(_)
        )
    }

    /// The region it opens.
    fn opens(&self) -> Option<RegionKind> {
        match self {
            DirectiveKind::CheckpointStart => Some(RegionKind::Checkpoint),
            DirectiveKind::DoNotDiff => Some(RegionKind::DoNotDiff),
            _ => None,
        }
    }

    /// The region it closes.
    fn closes(&self) -> Option<RegionKind> {
        match self {
            DirectiveKind::CheckpointEnd => Some(RegionKind::Checkpoint),
            DirectiveKind::EndDoNotDiff => Some(RegionKind::DoNotDiff),
            _ => None,
        }
    }
}

/// Parses `!$AD NAME args` (Fortran, fixed form `C$AD`) or `/* $AD NAME args */`, `// $AD
/// NAME args` (C) out of a comment; `None` when the comment is no directive.
pub fn parse_directive(comment: &str) -> Option<Directive> {
    let body = comment
        .trim_start_matches(['!', '/', '*', 'c', 'C'])
        .trim_start();
    let body = body.strip_prefix('$')?;
    let rest = body
        .strip_prefix("AD")
        .or_else(|| body.strip_prefix("ad"))?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim().trim_end_matches("*/").trim();
    let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    Some(Directive {
        kind: DirectiveKind::parse(name.to_ascii_uppercase(), args.trim()),
        text: comment.trim().to_string(),
        span: None,
    })
}

/// `nsteps snaps first`, or what the adjoint says of other arguments.
fn binomial_args(args: &str) -> Result<BinomialArgs, String> {
    match args.split_whitespace().collect::<Vec<_>>()[..] {
        [nsteps, snaps, first] => Ok(BinomialArgs {
            nsteps: nsteps.to_string(),
            snaps: snaps.to_string(),
            first: first.to_string(),
        }),
        _ => Err("needs three arguments: nsteps snaps first".to_string()),
    }
}

/// `"a b" adj_reduction=eps` (names and the keyword separated by blanks or commas, quotes
/// optional), or what the adjoint says of other arguments.
fn fp_loop_args(args: &str) -> Result<FpLoopArgs, String> {
    let mut names = Vec::new();
    let mut eps = None;
    for w in args
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
    {
        if let Some((k, v)) = w.split_once('=') {
            if !k.trim_matches('"').eq_ignore_ascii_case("adj_reduction") {
                return Err(format!("has an unknown argument `{w}`"));
            }
            let t = v.trim_matches('"').to_ascii_lowercase().replace('d', "e");
            match t.parse::<f64>() {
                Ok(e) if e > 0.0 && e < 1.0 => eps = Some(e),
                _ => return Err(format!("needs adj_reduction between 0 and 1, not `{v}`")),
            }
            continue;
        }
        let n = w.trim_matches('"');
        if n.is_empty() {
            continue;
        }
        if !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("needs variable names, not `{n}`"));
        }
        names.push(n.to_string());
    }
    Ok(FpLoopArgs { names, eps })
}

/// The kind of a directive region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// `CHECKPOINT-START` … `CHECKPOINT-END`.
    Checkpoint,
    /// `DO-NOT-DIFF` … `END-DO-NOT-DIFF`.
    DoNotDiff,
}

impl RegionKind {
    /// The opening and closing directive names.
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            RegionKind::Checkpoint => ("CHECKPOINT-START", "CHECKPOINT-END"),
            RegionKind::DoNotDiff => ("DO-NOT-DIFF", "END-DO-NOT-DIFF"),
        }
    }
}

/// A matched region: the statements `block[start..end]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// What the region asks for.
    pub kind: RegionKind,
    /// Index in the block of the first statement (the one carrying the opening directive).
    pub start: usize,
    /// Index in the block of the statement carrying the closing directive.
    pub end: usize,
    /// The innermost enclosing region of the same block, as an index in the returned list.
    pub parent: Option<usize>,
}

/// A directive that opens or closes no region: the statement it is attached to (or the
/// directive's own span) and what is wrong.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The statement the directive precedes.
    pub stmt: StmtId,
    /// The directive's own location, when the frontend recorded it.
    pub span: Option<Span>,
    /// The message (for AD050).
    pub message: String,
}

/// The regions of one block, in the order they open (an enclosing region before the ones it
/// contains), and the directives that match nothing.
pub fn block_regions(stmts: &Arena<Stmt>, block: &[StmtId]) -> (Vec<Region>, Vec<Problem>) {
    let mut regions: Vec<Region> = Vec::new();
    let mut problems = Vec::new();
    // Open regions: index in `regions`, and the directive that opened it.
    let mut open: Vec<(usize, StmtId, Option<Span>)> = Vec::new();
    for (k, &s) in block.iter().enumerate() {
        for d in &stmts[s].directives {
            if let Some(kind) = d.kind.closes() {
                match open.last() {
                    Some(&(r, _, _)) if regions[r].kind == kind => {
                        open.pop();
                        if regions[r].start == k {
                            problems.push(Problem {
                                stmt: s,
                                span: d.span,
                                message: format!(
                                    "`$AD {}` closes an empty region: ignored",
                                    d.kind.word()
                                ),
                            });
                            regions[r].end = usize::MAX;
                        } else {
                            regions[r].end = k;
                        }
                    }
                    _ => problems.push(Problem {
                        stmt: s,
                        span: d.span,
                        message: format!(
                            "`$AD {}` closes no `$AD {}` of the same block: ignored",
                            d.kind.word(),
                            kind.words().0
                        ),
                    }),
                }
            } else if let Some(kind) = d.kind.opens() {
                let parent = open.last().map(|o| o.0);
                regions.push(Region {
                    kind,
                    start: k,
                    end: usize::MAX,
                    parent,
                });
                open.push((regions.len() - 1, s, d.span));
            }
        }
    }
    for (r, s, span) in open {
        let (a, b) = regions[r].kind.words();
        problems.push(Problem {
            stmt: s,
            span,
            message: format!(
                "`$AD {a}` has no matching `$AD {b}` in the same block (a region cannot cross the end of a loop or branch): ignored"
            ),
        });
    }
    // Drop the unmatched ones, renumbering parents.
    let keep: Vec<bool> = regions.iter().map(|r| r.end != usize::MAX).collect();
    let mut new_index = vec![None; regions.len()];
    let mut out = Vec::new();
    for (i, r) in regions.iter().enumerate() {
        if keep[i] {
            new_index[i] = Some(out.len());
            let mut p = r.parent;
            while let Some(q) = p {
                if keep[q] {
                    break;
                }
                p = regions[q].parent;
            }
            out.push(Region {
                parent: p.and_then(|q| new_index[q]),
                ..r.clone()
            });
        }
    }
    (out, problems)
}

/// Calls `f` on each block directly inside a statement, mutably, in the order of
/// [`child_blocks`].
pub fn child_blocks_mut(k: &mut StmtKind, f: &mut dyn FnMut(&mut Block)) {
    match k {
        StmtKind::If {
            arms, else_block, ..
        }
        | StmtKind::Where {
            arms, else_block, ..
        } => {
            arms.iter_mut().for_each(|(_, b)| f(b));
            else_block.iter_mut().for_each(f);
        }
        StmtKind::Do { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Loop { body }
        | StmtKind::CFor { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Forall { body, .. }
        | StmtKind::Block { body, .. } => f(body),
        StmtKind::Select { cases, .. } => cases.iter_mut().for_each(|c| f(&mut c.body)),
        _ => {}
    }
}

/// The blocks directly inside a statement (arms, bodies), in source order.
pub fn child_blocks(s: &StmtKind) -> Vec<&Block> {
    match s {
        StmtKind::If {
            arms, else_block, ..
        }
        | StmtKind::Where {
            arms, else_block, ..
        } => arms
            .iter()
            .map(|(_, b)| b)
            .chain(else_block.iter())
            .collect(),
        StmtKind::Do { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Loop { body }
        | StmtKind::CFor { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Forall { body, .. }
        | StmtKind::Block { body, .. } => vec![body],
        StmtKind::Select { cases, .. } => cases.iter().map(|c| &c.body).collect(),
        StmtKind::Assign { .. }
        | StmtKind::PointerAssign { .. }
        | StmtKind::Call { .. }
        | StmtKind::Expr(_)
        | StmtKind::CaseLabel(_)
        | StmtKind::Decl(_)
        | StmtKind::ComputedGoto { .. }
        | StmtKind::ArithIf { .. }
        | StmtKind::Return(_)
        | StmtKind::Stop { .. }
        | StmtKind::Memory { .. }
        | StmtKind::Io { .. }
        | StmtKind::Exit(_)
        | StmtKind::Cycle(_)
        | StmtKind::Break
        | StmtKind::CContinue
        | StmtKind::Goto(_)
        | StmtKind::Continue
        | StmtKind::Empty
        | StmtKind::Format(_)
        | StmtKind::Entry { .. }
        | StmtKind::Comment(_) => Vec::new(),
    }
}

/// Calls `f` on every block of a unit's body, outermost first.
pub fn for_each_block<'u>(u: &'u UnitData, f: &mut dyn FnMut(&'u [StmtId])) {
    fn walk<'u>(u: &'u UnitData, b: &'u [StmtId], f: &mut dyn FnMut(&'u [StmtId])) {
        f(b);
        for &s in b {
            for c in child_blocks(&u.stmts[s].kind) {
                walk(u, c, f);
            }
        }
    }
    walk(u, &u.body, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(c: &str) -> DirectiveKind {
        parse_directive(c).expect("a directive").kind
    }

    #[test]
    fn both_languages_parse_to_one_kind() {
        assert_eq!(kind("!$AD NOCHECKPOINT"), DirectiveKind::Nocheckpoint);
        assert_eq!(kind("C$AD nocheckpoint"), DirectiveKind::Nocheckpoint);
        assert_eq!(kind("/* $AD II-LOOP */"), DirectiveKind::IiLoop);
        assert_eq!(
            kind("// $ad checkpoint-start"),
            DirectiveKind::CheckpointStart
        );
        assert_eq!(kind("!$AD FOO bar"), DirectiveKind::Unknown("FOO".into()));
        assert!(parse_directive("! $ADX").is_none());
        assert!(parse_directive("! plain").is_none());
        let d = parse_directive("!$AD END-DO-NOT-DIFF  ").unwrap();
        assert_eq!(
            (d.kind, d.text.as_str()),
            (DirectiveKind::EndDoNotDiff, "!$AD END-DO-NOT-DIFF")
        );
    }

    #[test]
    fn arguments_are_parsed_once_with_what_is_wrong() {
        let ok = BinomialArgs {
            nsteps: "n+1".into(),
            snaps: "4".into(),
            first: "1".into(),
        };
        assert_eq!(
            kind("!$AD BINOMIAL-CKP n+1 4 1"),
            DirectiveKind::BinomialCkp(Ok(ok))
        );
        assert_eq!(
            kind("/* $AD BINOMIAL-CKP n 4 */"),
            DirectiveKind::BinomialCkp(Err("needs three arguments: nsteps snaps first".into()))
        );
        let fp = FpLoopArgs {
            names: vec!["x".into(), "y".into()],
            eps: Some(1e-6),
        };
        assert_eq!(
            kind("!$AD FP-LOOP \"x, y\" adj_reduction=1.d-6"),
            DirectiveKind::FpLoop(Ok(fp))
        );
        assert_eq!(
            kind("!$AD FP-LOOP x tol=3"),
            DirectiveKind::FpLoop(Err("has an unknown argument `tol=3`".into()))
        );
        assert_eq!(
            kind("!$AD FP-LOOP x adj_reduction=2"),
            DirectiveKind::FpLoop(Err("needs adj_reduction between 0 and 1, not `2`".into()))
        );
        assert_eq!(
            kind("!$AD FP-LOOP a(1)"),
            DirectiveKind::FpLoop(Err("needs variable names, not `a(1)`".into()))
        );
    }
}
