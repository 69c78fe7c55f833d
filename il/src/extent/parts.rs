//! C: whether two actual arguments of one call designate parts of one array that the
//! callee's accesses keep apart (ADBench's LSTM cell on `&(s[i])` and `&(s[i + b])`, and the
//! previous layer's output through a pointer the loop moves along the same array).

use super::carried::loop_carried;
use super::*;

/// The array and the element offset a C address argument designates: `&s[i]`, `&(s[i])`,
/// `s + i`, `i + s`, `s - i`, `s`.
fn array_offset(
    prog: &Program,
    macros: &HashMap<String, i64>,
    u: &UnitData,
    mut e: ExprId,
) -> Option<(SymbolId, Poly)> {
    let strip = |mut x: ExprId| {
        while let Expr::Paren(a) | Expr::Cast { arg: a, .. } = u.exprs[x] {
            x = a;
        }
        x
    };
    e = strip(e);
    let array = |x: ExprId| match u.exprs[strip(x)] {
        Expr::Name(s) => prog.symbols[s]
            .ty
            .as_ref()
            .is_some_and(|t| {
                (t.pointers == 1 && t.dims.is_empty()) || (t.pointers == 0 && t.dims.len() == 1)
            })
            .then_some(s),
        _ => None,
    };
    match &u.exprs[e] {
        Expr::Name(_) => Some((array(e)?, Poly::default())),
        Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } => match &u.exprs[strip(*arg)] {
            Expr::Index { base, subs } => match &subs[..] {
                [Subscript::Index(x)] => Some((array(*base)?, loose_poly(prog, macros, u, *x)?)),
                _ => None,
            },
            _ => None,
        },
        Expr::Binary { op, lhs, rhs } => match (op, array(*lhs), array(*rhs)) {
            (BinOp::Add, Some(s), None) => Some((s, loose_poly(prog, macros, u, *rhs)?)),
            (BinOp::Add, None, Some(s)) => Some((s, loose_poly(prog, macros, u, *lhs)?)),
            (BinOp::Sub, Some(s), None) => Some((
                s,
                Poly::default().add(&loose_poly(prog, macros, u, *rhs)?, -1)?,
            )),
            _ => None,
        },
        _ => None,
    }
}

/// Whether actual arguments `k` and `l` of the C call statement `s` in `unit` to `callee`
/// designate parts of one array that the callee's accesses keep apart: `cell(b, &s[i], &s[i +
/// b])` where `cell` touches `b` elements of each (ADBench's LSTM). Each argument is the
/// array plus an offset, the callee touches `[0, E)` of its formal, `E` its extent in
/// [`Mode::Exact`] (every access certain) with the callee's parameters replaced by the call's
/// arguments; the parts are disjoint when the offsets differ by at least the lower one's
/// extent, by a margin over integer parameters the caller never changes (sizes, taken as
/// non-negative). An argument that is a local pointer moved along the array by the loop
/// around the call (`xp = &(s[i])` last in the body: [`loop_carried`]) stands for
/// each value it may hold there (`&(s[i - 2 * b])`, or `x2` before the first iteration).
///
/// `None` whenever anything is unknown; else the pairs of different variables two of the
/// values designate (`(s, x2)`), which the caller must know apart.
pub fn disjoint_parts(
    prog: &Program,
    unit: UnitId,
    s: StmtId,
    callee: UnitId,
    args: &[Arg],
    (k, l): (usize, usize),
) -> Option<Vec<(SymbolId, SymbolId)>> {
    let u = &prog.units[unit];
    let cu = &prog.units[callee];
    if u.lang != Lang::C || cu.lang != Lang::C || cu.params.len() != args.len() {
        return None;
    }
    let macros = int_macros(prog);
    let fixed = fixed_params(u);
    // The values of an argument: (array, offset), each offset over loop counters and fixed
    // parameters.
    let values = |i: usize| -> Option<Vec<(SymbolId, Poly)>> {
        let e = args[i].value;
        let direct = array_offset(prog, &macros, u, e);
        let local = match u.exprs[e] {
            Expr::Name(p) if !u.params.contains(&p) => Some(p),
            _ => None,
        };
        let Some(p) = local else {
            return Some(vec![direct?]);
        };
        let mut out = Vec::new();
        for (v, shift) in loop_carried(prog, u, s, p)? {
            let (a, mut off) = array_offset(prog, &macros, u, v)?;
            let counter = shift.as_ref().map(|(i, _)| *i);
            if !off
                .0
                .keys()
                .flatten()
                .all(|x| fixed.contains(x) || Some(*x) == counter)
            {
                return None;
            }
            if let Some((i, by)) = shift {
                off = off.subst(i, &Poly::var(i).add(&by, -1)?)?;
            }
            out.push((a, off));
        }
        Some(out)
    };
    let (vk, vl) = (values(k)?, values(l)?);
    // The extent of a formal, over the caller's variables.
    let extent = |i: usize| -> Option<Vec<Poly>> {
        let mut busy = HashSet::new();
        let ext = infer(prog, &macros, callee, cu.params[i], Mode::Exact, &mut busy)?;
        let mut out = Vec::new();
        for count in ext.0 {
            let mut c = count;
            for (&fp, ap) in cu.params.iter().zip(args) {
                if c.mentions(fp) {
                    c = c.subst(fp, &loose_poly(prog, &macros, u, ap.value)?)?;
                }
            }
            out.push(c);
        }
        Some(out)
    };
    let (ek, el) = (extent(k), extent(l));
    // `hi - lo - E` non-negative over fixed parameters for every count `E` of the lower part.
    let apart = |lo: &Poly, hi: &Poly, ext: &Option<Vec<Poly>>| {
        ext.as_ref().is_some_and(|ext| {
            ext.iter().all(|e| {
                Poly::gap(hi, lo, e)
                    .is_some_and(|m| m.nonneg() && m.0.keys().flatten().all(|x| fixed.contains(x)))
            })
        })
    };
    let mut others = Vec::new();
    for (sk, ok) in &vk {
        for (sl, ol) in &vl {
            if sk != sl {
                if local_pair(u, args, k, l) {
                    others.push((*sk, *sl));
                    continue;
                }
                return None;
            }
            if !(apart(ok, ol, &ek) || apart(ol, ok, &el)) {
                return None;
            }
        }
    }
    Some(others)
}

/// Whether one of arguments `k`, `l` is a local pointer name (whose values may designate
/// other variables than the other argument's).
fn local_pair(u: &UnitData, args: &[Arg], k: usize, l: usize) -> bool {
    [k, l]
        .iter()
        .any(|&i| matches!(u.exprs[args[i].value], Expr::Name(p) if !u.params.contains(&p)))
}
