//! MPI calls in the generators (issue 46; docs/decisions.md, "MPI"). MPI routines are
//! described built in (`il/src/library/mpi.lib`); their derivatives are radtap's MPI layer
//! (`adMPI.c`), which the generated file includes (`library::builtin_derivative`). Two
//! things are particular to them:
//! - a routine that moves real data (a `Sent:` or `Received:` argument) gets a derivative
//!   version whatever is active inside its stand-in: its activity is the caller's (the
//!   message buffers are useful when sent and varied when received), not its body's;
//! - every message of real data must carry its derivative message, or its partner on
//!   another rank waits for one that never comes: a point-to-point call found passive in a
//!   differentiated procedure is refused at its line (collectives run at one point of the
//!   program on every rank, whose activity is the same everywhere: passive everywhere).

use crate::gen::Gen;
use radtap_flowgraph::Callee;
use radtap_il::{Arg, Expr, Program, StmtId, StmtKind, UnitData, UnitId};
use std::collections::BTreeSet;

/// Whether `p` is a described MPI routine that moves real data.
pub(crate) fn moves_data(prog: &Program, p: UnitId) -> bool {
    prog.described.get(&p).is_some_and(|d| {
        radtap_il::library::is_mpi(d) && d.facts.iter().any(|f| f.sent || f.received)
    })
}

/// Whether `p` is MPI's `Wait` or `Waitall`: it completes requests that may carry derivative
/// messages, so every call is differentiated, active or not (tangent: `NAME_d` completes the
/// derivative requests too; adjoint: `NAME_fwd` records what completed, `NAME_b` starts the
/// reversed messages).
pub fn completes_requests(prog: &Program, p: UnitId) -> bool {
    prog.described.get(&p).is_some_and(|d| {
        radtap_il::library::is_mpi(d)
            && ["MPI_Wait", "MPI_Waitall"]
                .iter()
                .any(|n| d.name.eq_ignore_ascii_case(n))
    })
}

/// Whether `p` is one of the MPI routines whose adjoint's forward sweep calls `NAME_fwd`
/// with the arguments of `NAME_b` (the non-blocking ones and their completions: the
/// backward sweep needs what was started, and the adjoint buffers' addresses).
pub fn recorded_forward(prog: &Program, p: UnitId) -> bool {
    prog.described.get(&p).is_some_and(|d| {
        radtap_il::library::is_mpi(d)
            && ["MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Waitall"]
                .iter()
                .any(|n| d.name.eq_ignore_ascii_case(n))
    })
}

/// The point-to-point routines: a send and its receive are different points of the program.
const POINT_TO_POINT: &[&str] = &["MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv"];

/// The MPI datatypes of integer and other data that carry no derivative.
const PASSIVE_TYPES: &[&str] = &[
    "MPI_INT",
    "MPI_LONG",
    "MPI_LONG_LONG",
    "MPI_UNSIGNED",
    "MPI_UNSIGNED_LONG",
    "MPI_SHORT",
    "MPI_CHAR",
    "MPI_BYTE",
    "MPI_INTEGER",
    "MPI_LOGICAL",
    "MPI_CHARACTER",
    "MPI_C_BOOL",
];

/// Why a call to `c` (an MPI routine) at a passive point cannot stay a plain call: it is a
/// point-to-point message whose datatype (argument 3) is not one of integer data, so its
/// partner, where the data is active, sends or waits for a derivative message.
pub fn passive_message(prog: &Program, u: &UnitData, c: UnitId, args: &[Arg]) -> Option<String> {
    let d = prog.described.get(&c)?;
    if !radtap_il::library::is_mpi(d)
        || !POINT_TO_POINT
            .iter()
            .any(|n| d.name.eq_ignore_ascii_case(n))
    {
        return None;
    }
    let datatype = args.get(2).map(|a| &u.exprs[a.value]);
    let passive = match datatype {
        Some(Expr::Opaque(t)) => PASSIVE_TYPES.iter().any(|p| t.eq_ignore_ascii_case(p)),
        Some(Expr::Name(s)) => PASSIVE_TYPES
            .iter()
            .any(|p| prog.symbols[*s].spelling.eq_ignore_ascii_case(p)),
        _ => false,
    };
    (!passive).then(|| {
        format!(
            "this `{}` moves real data that carries no derivative here (nothing active is sent, or what is received is not used by a dependent): radtap pairs every message of real data with its derivative message, so the partner of this call on another rank would wait for one that never comes; make the data active here, or send it as integer data",
            d.name
        )
    })
}

/// Why statement `s` of `u` cannot be differentiated: it uses the result of an MPI routine
/// that moves real data (`err = MPI_Allreduce(…)`): the generators differentiate such a
/// routine as a call statement only (its derivative would be lost in an expression).
pub(crate) fn unsupported_use(prog: &Program, u: &UnitData, s: StmtId) -> Option<String> {
    // `MPI_IN_PLACE` (C's sentinel address, Fortran's sentinel variable): the layer would
    // take it for a buffer.
    if let StmtKind::Call { callee, args, .. } = &u.stmts[s].kind {
        let in_place = args.iter().any(|a| match &u.exprs[a.value] {
            Expr::Opaque(t) => t == "MPI_IN_PLACE",
            Expr::Name(n) => prog.symbols[*n]
                .spelling
                .eq_ignore_ascii_case("MPI_IN_PLACE"),
            _ => false,
        });
        if in_place {
            if let Expr::Name(n) = &u.exprs[*callee] {
                let name = &prog.symbols[*n].spelling;
                return Some(format!(
                    "`MPI_IN_PLACE` in a call to `{name}` whose data carry derivatives is not supported: give the call a separate send buffer"
                ));
            }
        }
    }
    // Keyword arguments (`ierror=ierr`): the layer's entry points have no explicit
    // interface.
    if let StmtKind::Call { callee, args, .. } = &u.stmts[s].kind {
        if let (Expr::Name(n), true) = (&u.exprs[*callee], args.iter().any(|a| a.keyword.is_some()))
        {
            let name = &prog.symbols[*n].spelling;
            let differentiated = prog.described.iter().any(|(&p, d)| {
                d.name.eq_ignore_ascii_case(name)
                    && (moves_data(prog, p) || completes_requests(prog, p))
            });
            if differentiated {
                return Some(format!(
                    "keyword arguments in a call to `{name}` are not supported: radtap's MPI layer takes the arguments in order; write them without keywords"
                ));
            }
        }
    }
    let mut todo = Vec::new();
    radtap_il::visit::stmt_children(&u.stmts[s].kind, &mut |e| todo.push(e), &mut |_| {});
    if let StmtKind::Call { callee, .. } = &u.stmts[s].kind {
        todo.retain(|e| e != callee);
    }
    while let Some(e) = todo.pop() {
        if let Expr::Call { callee, .. } = &u.exprs[e] {
            if let Expr::Name(n) = &u.exprs[*callee] {
                let name = &prog.symbols[*n].spelling;
                let moving = prog
                    .described
                    .iter()
                    .any(|(&p, d)| d.name.eq_ignore_ascii_case(name) && moves_data(prog, p));
                if moving {
                    return Some(format!(
                        "the result of `{name}` used in an expression: radtap differentiates an MPI call that moves real data as a statement only; call it as a statement (`{name}(…);`) and test its error code apart"
                    ));
                }
            }
        }
        radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    None
}

/// Whether `p` is a described MPI routine that communicates (every one but `Comm_rank` and
/// `Comm_size`): run twice by one rank, its partners would not match.
fn communicates(prog: &Program, p: UnitId) -> bool {
    prog.described.get(&p).is_some_and(|d| {
        radtap_il::library::is_mpi(d)
            && !["MPI_Comm_rank", "MPI_Comm_size"]
                .iter()
                .any(|n| d.name.eq_ignore_ascii_case(n))
    })
}

/// The procedures of the program that communicate through MPI, themselves or through their
/// callees. The adjoint never runs them twice (docs/decisions.md, "MPI", checkpoints): a
/// checkpointed call would repeat its messages in the backward sweep, where its partners on
/// other ranks may not repeat theirs (a receive in a helper whose sender is in the head
/// waits forever), so their calls are split (`_fwd` / `_bwd`, as NOCHECKPOINT), and a
/// checkpointed region or a binomial loop reaching one is refused. Procedures that post
/// non-blocking messages themselves stay checkpointed ([`posts_nonblocking`]).
pub(crate) fn communicating(
    prog: &Program,
    info: &radtap_dataflow::ProgramInfo,
) -> BTreeSet<UnitId> {
    let mut out = BTreeSet::new();
    loop {
        let before = out.len();
        for (q, _) in prog.units.iter() {
            if out.contains(&q) || prog.described.contains_key(&q) {
                continue;
            }
            let calls =
                (info.callgraph.sites_of(q).iter()).any(|c| calls_mpi(prog, &out, &c.callee));
            if calls {
                out.insert(q);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// Whether a call to `callee` communicates through MPI: an MPI routine, or a procedure of
/// `communicating`.
pub(crate) fn calls_mpi(prog: &Program, communicating: &BTreeSet<UnitId>, callee: &Callee) -> bool {
    match callee {
        Callee::Defined(l) => l
            .iter()
            .any(|&c| communicates(prog, c) || communicating.contains(&c)),
        // An MPI routine radtap does not describe (`MPI_Alltoall` of integers).
        Callee::External(n) => {
            let n = n.to_ascii_lowercase();
            n.starts_with("mpi_")
                && !["mpi_comm_rank", "mpi_comm_size", "mpi_wtime"].contains(&n.as_str())
        }
        Callee::Intrinsic(_) => false,
    }
}

/// Whether `q` posts non-blocking MPI messages or waits for them itself: it stays
/// checkpointed (its requests and adjoint buffers live in one frame: `NAME_fwd` records them
/// for `NAME_b`, which a split `_fwd` cannot give), so its messages are repeated in the
/// backward sweep, right when every rank repeats them (a halo exchange every rank calls).
pub(crate) fn posts_nonblocking(
    prog: &Program,
    info: &radtap_dataflow::ProgramInfo,
    q: UnitId,
) -> bool {
    info.callgraph.sites_of(q).iter().any(
        |c| matches!(&c.callee, Callee::Defined(l) if l.iter().any(|&c| recorded_forward(prog, c))),
    )
}

impl Gen<'_> {
    /// Adjoint mode: sets `communicating` ([`communicating`]) and `mpi_split` (those of
    /// them that do not post non-blocking messages themselves, [`posts_nonblocking`]).
    pub(crate) fn find_communicating(&mut self) {
        self.communicating = communicating(self.prog, self.info);
        self.mpi_split = (self.communicating.iter().copied())
            .filter(|&q| !posts_nonblocking(self.prog, self.info, q))
            .collect();
    }

    /// The described MPI routines that move real data or complete requests, among the procedures the analyses
    /// saw (called from a head): each gets a derivative version.
    pub(crate) fn message_routines(&self) -> Vec<UnitId> {
        self.prog
            .described
            .keys()
            .copied()
            .filter(|&p| {
                self.info.procs.contains_key(&p)
                    && (moves_data(self.prog, p) || completes_requests(self.prog, p))
            })
            .collect()
    }
}
