//! `radtap -dump-analysis`: the facts of every analysed procedure, one statement at a time,
//! by variable name. For users debugging a derivative, and for snapshot tests.

use crate::{InOut, Mode, ProcInfo, ProgramInfo, ZoneSet};
use radtap_flowgraph::{Part, Point};
use radtap_il::{visit, Program, StmtId, StmtKind, UnitId};
use std::fmt::Write;

fn set(info: &ProcInfo, s: &ZoneSet) -> String {
    let names: Vec<&str> = s
        .iter()
        .map(|z| info.zones.zones[z.index()].name.as_str())
        .collect();
    format!("{{{}}}", names.join(", "))
}

/// Prints the analyses of every procedure reached from a head, heads first then in program
/// order. `line_text(file, line)` returns a source line for display.
pub fn dump(prog: &Program, pi: &ProgramInfo, line_text: &dyn Fn(u32, u32) -> String) -> String {
    let mut out = String::new();
    let mode = match pi.mode {
        Mode::Tangent => "tangent",
        Mode::Adjoint => "adjoint",
    };
    let mut order: Vec<UnitId> = pi.heads.iter().map(|h| h.head).collect();
    let mut rest: Vec<UnitId> = pi
        .procs
        .iter()
        .filter(|(id, p)| p.activity.is_some() && !order.contains(id))
        .map(|(id, _)| *id)
        .collect();
    rest.sort();
    order.extend(rest);
    for uid in order {
        let info = &pi.procs[&uid];
        let Some(act) = &info.activity else { continue };
        let u = &prog.units[uid];
        let name = u.name.map(|n| prog.name(n)).unwrap_or("(main)");
        let _ = writeln!(out, "procedure {name} ({mode} mode)");
        if let Some(h) = pi.heads.iter().find(|h| h.head == uid) {
            let names = |v: &[(String, ZoneSet)]| {
                v.iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let _ = writeln!(out, "  independents: {}", names(&h.independents));
            let _ = writeln!(out, "  dependents:   {}", names(&h.dependents));
        }
        // In-out of the interface, and the calling-context envelope.
        let mut io = Vec::new();
        for (i, z) in info.zones.zones.iter().enumerate() {
            let id = crate::ZoneId(i as u32);
            let st = match info.in_out(id) {
                InOut::InOut => "in-out",
                InOut::In => "in",
                InOut::Out => "out",
                InOut::Unused => continue,
            };
            let kill = if info.summary.kills.contains(id) {
                "!"
            } else {
                ""
            };
            io.push(format!("{}:{st}{kill}", z.name));
        }
        let _ = writeln!(out, "  in-out: {}", io.join(" "));
        let _ = writeln!(out, "  varied on entry: {}", set(info, &act.varied_in));
        let _ = writeln!(out, "  useful on exit:  {}", set(info, &act.useful_out));
        walk(prog, info, uid, &u.body, 1, &mut out, line_text);
        out.push('\n');
    }
    out
}

fn walk(
    prog: &Program,
    info: &ProcInfo,
    uid: UnitId,
    block: &[StmtId],
    depth: usize,
    out: &mut String,
    line_text: &dyn Fn(u32, u32) -> String,
) {
    let u = &prog.units[uid];
    for &s in block {
        let st = &u.stmts[s];
        if matches!(st.kind, StmtKind::Comment(_) | StmtKind::Format(_)) {
            continue;
        }
        let span = u.source_map.stmt.get(s).copied();
        let (line, text) = match span {
            Some(sp) => (sp.line, line_text(sp.file, sp.line).trim().to_string()),
            None => (0, String::new()),
        };
        let parts: &[Part] = match &st.kind {
            // Later ELSE IF conditions are printed below as `(else if #k)`.
            StmtKind::If { .. } | StmtKind::Where { .. } => &[Part::Cond(0)],
            StmtKind::Do { .. } => &[Part::LoopInit, Part::LoopHead],
            StmtKind::Forall { .. } => &[Part::LoopHead],
            StmtKind::CFor { .. } => &[Part::Cond(0), Part::LoopStep],
            StmtKind::While { .. } | StmtKind::DoWhile { .. } => &[Part::Cond(0)],
            StmtKind::Select { .. } | StmtKind::Switch { .. } => &[Part::Cond(0)],
            StmtKind::Block { .. } => &[Part::LoopInit],
            _ => &[Part::Whole],
        };
        let pad = "  ".repeat(depth);
        let _ = writeln!(out, "{pad}{line:>4}: {text}");
        for &part in parts {
            let Some(id) = info.point_id(Point { stmt: s, part }) else {
                continue;
            };
            facts(info, id, &pad, part, out);
        }
        if let StmtKind::If { arms, .. } = &st.kind {
            for i in 1..arms.len() {
                if let Some(id) = info.point_id(Point {
                    stmt: s,
                    part: Part::Cond(i as u32),
                }) {
                    let _ = writeln!(out, "{pad}      (else if #{i})");
                    facts(info, id, &pad, Part::Cond(i as u32), out);
                }
            }
        }
        let mut nested = Vec::new();
        visit::stmt_children(&st.kind, &mut |_| {}, &mut |c| nested.push(c));
        if let StmtKind::CFor { init: Some(i), .. } = &st.kind {
            nested.retain(|c| c != i);
            walk(prog, info, uid, &[*i], depth + 1, out, line_text);
        }
        walk(prog, info, uid, &nested, depth + 1, out, line_text);
    }
}

fn facts(info: &ProcInfo, id: usize, pad: &str, part: Part, out: &mut String) {
    let act = info.activity.as_ref().expect("analysed");
    let e = &info.effects[id];
    let label = match part {
        Part::LoopInit => "init ",
        Part::LoopHead => "test ",
        Part::LoopStep => "step ",
        Part::Cond(_) | Part::Whole => "",
    };
    let mut line = format!(
        "{pad}      {label}active {} -> {}",
        set(info, &act.active_before[id]),
        set(info, &act.active_after[id])
    );
    if !e.writes.is_empty() || act.live[id] {
        let status = if act.live[id] {
            "live"
        } else if act.has_derivative[id] {
            "derivative only"
        } else {
            "dead for derivatives"
        };
        let _ = write!(line, " | {status}");
    } else if act.has_derivative[id] {
        line.push_str(" | derivative only");
    }
    let _ = write!(line, " | diff-live {}", set(info, &act.difflive_before[id]));
    if !act.deriv_uses[id].is_empty() {
        let _ = write!(
            line,
            " | derivative reads {}",
            set(info, &act.deriv_uses[id])
        );
    }
    let _ = write!(line, " | tbr {}", set(info, &act.tbr_before[id]));
    if !act.save[id].is_empty() {
        let mut push = act.save[id].clone();
        push.subtract(&act.recompute[id]);
        if !push.is_empty() {
            let _ = write!(line, " | record {}", set(info, &push));
        }
        if !act.recompute[id].is_empty() {
            let _ = write!(line, " | recompute {}", set(info, &act.recompute[id]));
        }
    }
    if !e.call_maps.is_empty() {
        // A checkpointed call: its snapshot must restore what it overwrites and the rest of
        // the adjoint may need (DESIGN: out ∩ (TBR⁻ ∪ Diff-live⁻)), and adjoint-out shows
        // what the sequel modifies.
        let mut need = act.tbr_before[id].clone();
        need.union_with(&act.difflive_before[id]);
        let snp = e.writes.and(&need);
        let _ = write!(
            line,
            " | snapshot {} | adj-out {}",
            set(info, &snp),
            set(info, &act.adjout_after[id])
        );
    }
    out.push_str(&line);
    out.push('\n');
}
