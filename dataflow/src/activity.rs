//! Activity, top-down from the heads: each call contributes a calling context to its
//! callee and each procedure is analysed once with the union (envelope) of its contexts; then,
//! per reached procedure, the adjoint's analyses: `use(I')`, diff-liveness with live control,
//! TBR, recomputation and adjoint-out.

use crate::impls::*;
use crate::info::*;
use crate::solver::*;
use crate::zones::ObjKey;
use crate::zoneset::{ZoneId, ZoneSet};
use radtap_flowgraph::Point;
use radtap_il::UnitId;
use std::collections::HashMap;

/// Activity top-down from the heads with calling-context envelopes, then diff-liveness, TBR
/// and adjoint-out per reached procedure.
pub(crate) fn activity(
    infos: &mut HashMap<UnitId, ProcInfo>,
    heads: &[HeadInfo],
    mode: Mode,
) -> usize {
    let mut visits = 0;
    // Contexts: (varied at entry, useful at exit).
    let mut ctx: HashMap<UnitId, (ZoneSet, ZoneSet)> = HashMap::new();
    let mut work: Vec<UnitId> = Vec::new();
    for h in heads {
        let pz = &infos[&h.head].zones;
        let e = ctx
            .entry(h.head)
            .or_insert_with(|| (pz.empty(), pz.empty()));
        for (_, z) in &h.independents {
            e.0.union_with(z);
        }
        for (_, z) in &h.dependents {
            e.1.union_with(z);
        }
        if !work.contains(&h.head) {
            work.push(h.head);
        }
    }
    let mut rounds = 0;
    while let Some(p) = work.pop() {
        rounds += 1;
        if rounds > 100_000 {
            break;
        }
        let info = &infos[&p];
        let (vin, uout) = ctx[&p].clone();
        let effs = &info.effects;
        let n = info.zones.len();
        let g = &info.graph;
        let va = Varied {
            effects: effs,
            n,
            entry: &vin,
        };
        let vr = solve(&va, g);
        let ua = Useful {
            effects: effs,
            n,
            exit: &uout,
        };
        let ur = solve(&ua, g);
        visits += vr.visits + ur.visits;
        let np = info.point.len();
        let mut vb = vec![ZoneSet::new(n); np];
        let mut va_after = vec![ZoneSet::new(n); np];
        vr.for_each_point(&va, g, &mut |at, b, a| {
            vb[at.id] = b.clone();
            va_after[at.id] = a.clone();
        });
        let mut ub = vec![ZoneSet::new(n); np];
        let mut ua_after = vec![ZoneSet::new(n); np];
        ur.for_each_point(&ua, g, &mut |at, b, a| {
            ub[at.id] = b.clone();
            ua_after[at.id] = a.clone();
        });
        // Zones active somewhere in `p`: a call writing one of them while it is useful
        // after the call resets its derivative, though nothing the call reads varies.
        // Tangent only: an adjoint never reads the adjoint of a value no independent
        // reached (it is not varied before the call on any path).
        let mut active_any = ZoneSet::new(n);
        for i in 0..np {
            active_any.union_with(&vb[i].and(&ub[i]));
            active_any.union_with(&va_after[i].and(&ua_after[i]));
        }
        let mut resets = vec![ZoneSet::new(n); np];
        // Calling contexts of callees.
        let mut grown = Vec::new();
        for (id, e) in effs.iter().enumerate() {
            // Several calls in one statement (`smooth(x[0]) + smooth(x[1])`): what one call
            // makes varied may reach the next one's entry, what the next one reads may be
            // useful at the previous one's exit. The statement is one point of the flow
            // graph, so each call sees what is varied before or after it, and useful before
            // or after it (the first call's state change was read as passive by the second).
            let (vb_id, ua_id) = if e.call_maps.len() > 1 {
                let (mut v, mut u) = (vb[id].clone(), ua_after[id].clone());
                v.union_with(&va_after[id]);
                u.union_with(&ub[id]);
                (v, u)
            } else {
                (vb[id].clone(), ua_after[id].clone())
            };
            for m in &e.call_maps {
                let Some(cinfo) = infos.get(&m.callee) else {
                    continue;
                };
                let cz = &cinfo.zones;
                let mut cv = cz.empty();
                let mut cu = cz.empty();
                for (z, s) in m.src.iter().enumerate() {
                    if let Some(s) = s {
                        if s.intersects(&vb_id) && cz.differentiable.contains(ZoneId(z as u32)) {
                            cv.insert(ZoneId(z as u32));
                        }
                    }
                }
                for (z, t) in m.tgt.iter().enumerate() {
                    if let Some(t) = t {
                        if t.iter().any(|x| ua_id.contains(*x)) {
                            cu.insert(ZoneId(z as u32));
                        }
                        // Written, useful after, active elsewhere in `p`, varied neither
                        // before nor after the call: the derivative must be reset (what
                        // the call makes varied, its derivative sets). Taken as varied at
                        // the callee's entry (it never reads that value), its derivative
                        // writes the zero derivative of what it stores there.
                        let z = ZoneId(z as u32);
                        let reset: Vec<ZoneId> = t
                            .iter()
                            .copied()
                            .filter(|&x| {
                                ua_id.contains(x)
                                    && active_any.contains(x)
                                    && !vb_id.contains(x)
                                    && !va_after[id].contains(x)
                                    && info.zones.differentiable.contains(x)
                            })
                            .collect();
                        if !reset.is_empty()
                            && mode == Mode::Tangent
                            && cz.differentiable.contains(z)
                            && !cinfo.summary.reads.contains(z)
                        {
                            cv.insert(z);
                            for x in reset {
                                resets[id].insert(x);
                            }
                        }
                    }
                }
                if m.in_expr && e.writes.intersects(&ua_id) {
                    if let Some(o) = cz.result.and_then(|r| cz.objects.get(&ObjKey::Sym(r))) {
                        cu.union_with(&cz.obj_set(o));
                    }
                }
                cv.intersect_with(&cz.differentiable);
                cu.intersect_with(&cz.differentiable);
                grown.push((m.callee, cv, cu));
            }
        }
        let info = infos.get_mut(&p).expect("procedure");
        info.activity = Some(ActivityInfo {
            varied_in: vin,
            useful_out: uout,
            active_before: vb.iter().zip(&ub).map(|(v, u)| v.and(u)).collect(),
            active_after: va_after
                .iter()
                .zip(&ua_after)
                .map(|(v, u)| v.and(u))
                .collect(),
            varied_before: vb,
            useful_after: ua_after,
            deriv_uses: Vec::new(),
            has_derivative: Vec::new(),
            resets,
            difflive_before: Vec::new(),
            difflive_after: Vec::new(),
            live: Vec::new(),
            tbr_in: ZoneSet::new(n),
            tbr_before: Vec::new(),
            save: Vec::new(),
            recompute: Vec::new(),
            adjout_after: Vec::new(),
            adjout_before: Vec::new(),
        });
        for (c, cv, cu) in grown {
            let cz_len = infos[&c].zones.len();
            let e = ctx
                .entry(c)
                .or_insert_with(|| (ZoneSet::new(cz_len), ZoneSet::new(cz_len)));
            let mut ch = e.0.union_with(&cv);
            ch |= e.1.union_with(&cu);
            if (ch || infos[&c].activity.is_none()) && !work.contains(&c) {
                work.push(c);
            }
        }
    }
    for info in infos.values_mut() {
        if info.activity.is_some() {
            visits += adjoint_analyses(info, mode);
        }
    }
    visits
}

/// `use(I')` and diff-liveness (with live control), TBR, recomputation, adjoint-out.
pub(crate) fn adjoint_analyses(info: &mut ProcInfo, mode: Mode) -> usize {
    let mut visits = 0;
    let n = info.zones.len();
    let np = info.point.len();
    let effs = &info.effects;
    let g = &info.graph;
    let act = info.activity.as_mut().expect("activity computed");
    let mut deriv_uses = vec![ZoneSet::new(n); np];
    let mut has_derivative = vec![false; np];
    for (id, e) in effs.iter().enumerate() {
        let (vb, ua) = (&act.varied_before[id], &act.useful_after[id]);
        let mut uses = ZoneSet::new(n);
        let mut has = false;
        for t in e.writes.iter() {
            if !ua.contains(t) || !info.zones.differentiable.contains(t) {
                continue;
            }
            if let Some(ds) = e.diff_dep.get(&t) {
                for x in ds.iter().filter(|x| vb.contains(*x)) {
                    has = true;
                    if let Some(p) = e.partials.get(&x) {
                        uses.union_with(p);
                    }
                }
            }
            if vb.contains(t) || act.resets[id].contains(t) {
                has = true; // an active zone overwritten: its derivative is reset
            }
        }
        // MPI (issue 46): a message received that a dependent needs, or one sent that an
        // independent reaches, carries its derivative.
        has |= e.received.iter().any(|&t| ua.contains(t)) || e.sent.iter().any(|&z| vb.contains(z));
        if has {
            uses.union_with(&e.addr);
        }
        deriv_uses[id] = uses;
        has_derivative[id] = has;
    }
    // Diff-liveness, iterated with live control tests.
    let exit_live = match mode {
        Mode::Tangent => info.summary.writes.clone(),
        Mode::Adjoint => ZoneSet::new(n),
    };
    let mut live_tests = vec![false; np];
    let first_ids = &info.first_point;
    let id_of = |p: Point| {
        let (b, i) = g.location.get(&p)?;
        Some(first_ids[b.index()] + *i as usize)
    };
    let (mut dl_before, mut dl_after, mut live);
    loop {
        let a = DiffLive {
            effects: effs,
            n,
            deriv_uses: &deriv_uses,
            live_tests: &live_tests,
            exit: &exit_live,
        };
        let r = solve(&a, g);
        visits += r.visits;
        dl_before = vec![ZoneSet::new(n); np];
        dl_after = vec![ZoneSet::new(n); np];
        r.for_each_point(&a, g, &mut |at, b, af| {
            dl_before[at.id] = b.clone();
            dl_after[at.id] = af.clone();
        });
        live = (0..np)
            .map(|id| effs[id].writes.intersects(&dl_after[id]) || live_tests[id])
            .collect::<Vec<bool>>();
        // A live point or a point with a derivative makes its controlling tests live, and a
        // live test makes its own controlling tests live: closed here in one pass (one
        // solve per nesting level made nested IFs quadratic).
        let mut changed = false;
        let mut work: Vec<usize> = g
            .blocks
            .iter()
            .enumerate()
            .filter(|(bi, bd)| {
                let first = first_ids[*bi];
                (0..bd.points.len()).any(|i| live[first + i] || has_derivative[first + i])
            })
            .map(|(bi, _)| bi)
            .collect();
        while let Some(bi) = work.pop() {
            for c in &g.controllers[bi] {
                if let Some(tp) = g.test_of(*c) {
                    if let Some(tid) = id_of(tp) {
                        if !live_tests[tid] {
                            live_tests[tid] = true;
                            changed = true;
                            if let Some((tb, _)) = g.location.get(&tp) {
                                work.push(tb.index());
                            }
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // TBR.
    let ta = Tbr {
        effects: effs,
        n,
        entry: &act.tbr_in,
        deriv_uses: &deriv_uses,
        live: &live,
    };
    let tr = solve(&ta, g);
    visits += tr.visits;
    let mut tbr_before = vec![ZoneSet::new(n); np];
    tr.for_each_point(&ta, g, &mut |at, b, _| tbr_before[at.id] = b.clone());
    let mut save = vec![ZoneSet::new(n); np];
    for id in 0..np {
        if live[id] {
            let mut need = tbr_before[id].clone();
            need.union_with(&deriv_uses[id]);
            save[id] = effs[id].writes.and(&need);
        }
    }
    // A point whose overwritten values are recorded is restored through the zones that
    // address them (`a(k) = a_save` reads `k` in the backward sweep): they are read by the
    // adjoint of the point like its derivative's reads (TBR above added them already).
    // So is a point that is not live but runs anyway (split sweeps, statements that cannot
    // be sliced) and records what it overwrites.
    for id in 0..np {
        let w = &effs[id].writes;
        if w.intersects(&tbr_before[id]) || w.intersects(&deriv_uses[id]) {
            let addr = &effs[id].addr;
            deriv_uses[id].union_with(addr);
        }
    }
    // Recomputation: a recorded zone whose only reaching definition is a cheap assignment
    // (no call) reading only zones that nothing in the procedure writes.
    let mut written_anywhere = ZoneSet::new(n);
    for e in effs.iter() {
        written_anywhere.union_with(&e.writes);
    }
    // Only the recorded zones that are not differentiable are asked about.
    let mut slot = vec![None; n];
    let mut slots = 0u32;
    for id in 0..np {
        for z in save[id].iter() {
            if !info.zones.differentiable.contains(z) && slot[z.index()].is_none() {
                slot[z.index()] = Some(slots);
                slots += 1;
            }
        }
    }
    let rd = ReachingDefs {
        effects: effs,
        slot: &slot,
        slots: slots as usize,
    };
    let rr = solve(&rd, g);
    visits += rr.visits;
    let mut recompute = vec![ZoneSet::new(n); np];
    rr.for_each_point(&rd, g, &mut |at, before, _| {
        for z in save[at.id].iter() {
            if info.zones.differentiable.contains(z) {
                continue;
            }
            let Some(d) = slot[z.index()].and_then(|s| before.single(s)) else {
                continue;
            };
            let de = &effs[d];
            let mut inputs = de.reads.clone();
            inputs.remove(z);
            let simple = !de.calls
                && de.kills.contains(z)
                && de.writes.count() == 1
                && !inputs.intersects(&written_anywhere)
                && !de.reads.contains(z);
            if simple {
                recompute[at.id].insert(z);
            }
        }
    });
    // Adjoint-out.
    let aa = AdjointOut {
        effects: effs,
        n,
        deriv_uses: &deriv_uses,
        live: &live,
        tbr_before: &tbr_before,
    };
    let ar = solve(&aa, g);
    visits += ar.visits;
    let mut ao_before = vec![ZoneSet::new(n); np];
    let mut ao_after = vec![ZoneSet::new(n); np];
    ar.for_each_point(&aa, g, &mut |at, b, a| {
        ao_before[at.id] = b.clone();
        ao_after[at.id] = a.clone();
    });
    act.deriv_uses = deriv_uses;
    act.has_derivative = has_derivative;
    act.difflive_before = dl_before;
    act.difflive_after = dl_after;
    act.live = live;
    act.tbr_before = tbr_before;
    act.save = save;
    act.recompute = recompute;
    act.adjout_after = ao_after;
    act.adjout_before = ao_before;
    visits
}
