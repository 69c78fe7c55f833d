//! Function references hoisted out of a statement: `ṫ = f_d(a, ȧ, t)` before it, and `t`
//! in place of `f(a)`; the result arguments of such a call.

use crate::prelude::*;

impl<'a> Tan<'_, '_, 'a> {
    /// Hoists references to differentiated functions out of `e` (innermost first):
    /// `ṫ = f_d(a, ȧ, t)` before the statement, and `t` stands for `f(a)` afterwards.
    pub(crate) fn hoist_calls(&mut self, s: StmtId, e: ExprId, out: &mut Vec<StmtId>) {
        let node = &self.f.src.exprs[e];
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(node, &mut |k| kids.push(k));
        for k in kids {
            self.hoist_calls(s, k, out);
        }
        let Some((c, r)) = self.differentiated_function(s, e) else {
            return;
        };
        let Expr::Call { args, .. } = &self.f.src.exprs[e] else {
            return;
        };
        if let Some(msg) = self.function_reference_refusal(c, r, args) {
            self.error(s, Code::Unsupported, &msg);
            return;
        }
        let temps @ (t, td, bytes) = self.result_temps(c, r, args);
        let kws = self.result_keywords(c, r, args);
        let kw = |k: usize| kws.as_ref().map(|n| n[k].clone());
        let mut pre = Vec::new();
        let mut new_args = self.derivative_args(s, c, args, &mut pre);
        let dsym = self.g.dproc[&c];
        let callee = self.b().name(dsym);
        self.result_args(r, temps, &kws, &mut new_args);
        out.extend(pre);
        if self.f.vector {
            let nb = {
                let v = self.nbdirs.expect("vector");
                self.b().name(v)
            };
            new_args.push(Arg {
                keyword: kw(2),
                value: nb,
            });
            out.push(stmt(
                &mut self.u,
                StmtKind::Call {
                    callee,
                    args: new_args,
                    no_parens: false,
                },
            ));
        } else {
            let external = self.prog().units[c].parent.is_none() && c != self.f.p;
            if self.f.lang == Lang::Fortran
                && external
                && !self.extern_funcs.iter().any(|x| x.0 == dsym)
            {
                let t = self.result_type(r, bytes);
                self.extern_funcs.push((dsym, t));
            }
            let call = self.b().e(Expr::Call {
                callee,
                args: new_args,
            });
            let tdn = self.b().name(td);
            out.push(assign(&mut self.u, tdn, call));
        }
        out.append(&mut self.post_call);
        self.hoisted.insert(e, (t, Some(td)));
    }

    /// Pushes the arguments a derivative function `f_d` takes after the primal ones for its
    /// result `r`: the primal result (its address in C), and in vector mode the result's
    /// derivative when it is real, from the temporaries `result_temps` made. Keywords `kws`
    /// when the call passes arguments by keyword.
    pub(crate) fn result_args(
        &mut self,
        r: SymbolId,
        (t, td, bytes): (SymbolId, SymbolId, u32),
        kws: &Option<[String; 3]>,
        new_args: &mut Vec<Arg>,
    ) {
        let kw = |k: usize| kws.as_ref().map(|n| n[k].clone());
        let tn = self.b().name(t);
        let tn = if self.f.lang == Lang::C {
            self.b().e(Expr::Unary {
                op: UnOp::AddrOf,
                arg: tn,
            })
        } else {
            tn
        };
        new_args.push(Arg {
            keyword: kw(0),
            value: tn,
        });
        // A discrete result has no derivative argument.
        if self.f.vector && self.result_type(r, bytes).base == BaseClass::Real {
            let tdn = self.b().name(td);
            new_args.push(Arg {
                keyword: kw(1),
                value: tdn,
            });
        }
    }
}
