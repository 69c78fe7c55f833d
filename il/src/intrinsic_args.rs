//! Required arguments of an intrinsic given by keyword become positional, in the order of the
//! routine's signature: `sum(array=x)` is `sum(x)`, `dot_product(vector_b=v, vector_a=u)` is
//! `dot_product(u, v)`, `cmplx(y=b, x=a)` is `cmplx(a, y=b)`.
//!
//! The analyses and the derivative rules read an intrinsic's arguments by position (`x0`,
//! `x1` of a partial, the first argument of a linear routine); a keyword they took for
//! `dim=`/`kind=`. A required argument given by keyword was then a value with no derivative:
//! `y = sum(array=x)` had none. Optional arguments keep their keywords as written (`sum(x,
//! mask=m)` skips `dim`); their readers bind them to the signature ([`crate::vocab`]). A call
//! whose arguments do not bind (an unknown keyword, too many arguments) is left as written:
//! its keyword arguments are taken as differentiable by the analyses and refused by the rules
//! where they are active.

use crate::vocab::routine_called;
use crate::{Arg, Expr, ExprId, Lang, Program, UnitId};

/// Rewrites every Fortran intrinsic call of `prog` whose required arguments are not all
/// positional.
pub fn positional_required_args(prog: &mut Program) {
    let mut edits: Vec<(UnitId, ExprId, Vec<Arg>)> = Vec::new();
    for (uid, u) in prog.units.iter() {
        if u.lang != Lang::Fortran {
            continue;
        }
        for (e, x) in u.exprs.iter() {
            let Expr::Call { callee, args } = x else {
                continue;
            };
            if args.iter().all(|a| a.keyword.is_none()) {
                continue;
            }
            let Some(r) = routine_called(prog, u, *callee) else {
                continue;
            };
            if let Some(new) = reordered(r.signature(), args) {
                edits.push((uid, e, new));
            }
        }
    }
    for (uid, e, new) in edits {
        if let Expr::Call { args, .. } = &mut prog.units[uid].exprs[e] {
            *args = new;
        }
    }
}

/// The actuals with the required ones positional in the signature's order, then the others
/// as written; `None` when nothing changes or the actuals do not bind.
fn reordered(sig: &crate::vocab::Signature, args: &[Arg]) -> Option<Vec<Arg>> {
    let bound: Vec<usize> = sig.bind_args(args).into_iter().collect::<Option<_>>()?;
    let required = sig.required();
    let mut lead: Vec<(usize, Arg)> = Vec::new();
    let mut rest = Vec::new();
    for (a, &p) in args.iter().zip(&bound) {
        if p < required {
            lead.push((
                p,
                Arg {
                    keyword: None,
                    value: a.value,
                },
            ));
        } else {
            rest.push(a.clone());
        }
    }
    lead.sort_by_key(|(p, _)| *p);
    let new: Vec<Arg> = lead.into_iter().map(|(_, a)| a).chain(rest).collect();
    let same = new
        .iter()
        .zip(args)
        .all(|(n, a)| n.keyword == a.keyword && n.value == a.value);
    (!same).then_some(new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::{id_of, RoutineId};

    fn sig(name: &str) -> &'static crate::vocab::Signature {
        let r: RoutineId = id_of(name, Lang::Fortran).expect("a record");
        r.signature()
    }

    fn args(kws: &[Option<&str>]) -> Vec<Arg> {
        kws.iter()
            .enumerate()
            .map(|(i, k)| Arg {
                keyword: k.map(str::to_string),
                value: ExprId::from_raw(i as u32),
            })
            .collect()
    }

    fn shape(v: &[Arg]) -> Vec<(Option<String>, usize)> {
        v.iter()
            .map(|a| (a.keyword.clone(), a.value.index()))
            .collect()
    }

    #[test]
    fn required_keywords_become_positional_in_order() {
        let got = reordered(sig("sum"), &args(&[Some("array")])).expect("changed");
        assert_eq!(shape(&got), [(None, 0)]);
        let got = reordered(
            sig("dot_product"),
            &args(&[Some("vector_b"), Some("vector_a")]),
        )
        .expect("changed");
        assert_eq!(shape(&got), [(None, 1), (None, 0)]);
        // `cmplx(y=b, x=a)`: `x` is required, `y` optional keeps its keyword.
        let got = reordered(sig("cmplx"), &args(&[Some("y"), Some("x")])).expect("changed");
        assert_eq!(shape(&got), [(None, 1), (Some("y".into()), 0)]);
    }

    #[test]
    fn optional_keywords_and_unbound_calls_are_left_as_written() {
        assert!(reordered(sig("sum"), &args(&[None, Some("dim")])).is_none());
        assert!(reordered(sig("sum"), &args(&[None, Some("mask")])).is_none());
        assert!(reordered(sig("sin"), &args(&[Some("y")])).is_none());
        assert!(reordered(sig("sin"), &args(&[None, None])).is_none());
    }
}
