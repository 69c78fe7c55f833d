//! The integer value of an IL expression (array bounds, loop limits) at the integer inputs:
//! literals, names of inputs (lower case) and named constants, `+ - * /`, parentheses.

use radtap_il::*;
use std::collections::HashMap;

/// Integer value of a bound expression of the IL given the integer inputs.
pub fn eval(p: &Program, u: UnitId, e: ExprId, env: &HashMap<String, i64>) -> Option<i64> {
    match &p.units[u].exprs[e] {
        Expr::Literal(l) => l.text.parse().ok(),
        Expr::Name(s) => {
            let n = p.symbols[*s].spelling.to_ascii_lowercase();
            env.get(&n).copied().or_else(|| parameter_value(p, *s, env))
        }
        Expr::Opaque(t) => env
            .get(&t.to_ascii_lowercase())
            .copied()
            .or_else(|| t.parse().ok()),
        Expr::Paren(a) => eval(p, u, *a, env),
        Expr::Unary { op: UnOp::Neg, arg } => Some(-eval(p, u, *arg, env)?),
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (eval(p, u, *lhs, env)?, eval(p, u, *rhs, env)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => Some(a / b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The value of a named constant (PARAMETER, initialised `const`), from its declaration.
fn parameter_value(p: &Program, s: SymbolId, env: &HashMap<String, i64>) -> Option<i64> {
    let owner = p
        .units
        .iter()
        .find(|(_, x)| x.scope == p.symbols[s].scope)?
        .0;
    for d in &p.units[owner].decls {
        match d {
            Decl::Parameter(ps) => {
                if let Some((_, v)) = ps.iter().find(|(x, _)| *x == s) {
                    return eval(p, owner, *v, env);
                }
            }
            Decl::Var(v) => {
                for en in &v.entities {
                    if en.sym == s {
                        if let Some(Init::Expr(x)) = en.init {
                            return eval(p, owner, x, env);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}
