//! The text of a Fortran expression: operators by precedence with the parentheses they need,
//! relational operators in both spellings, literals, references, calls, array constructors
//! and sections.

use super::writer::W;
use crate::prec::{fortran_bin, fortran_un};
use radtap_il::*;

fn rel(op: BinOp) -> Option<(&'static str, &'static str)> {
    Some(match op {
        BinOp::Eq(_) => ("==", ".eq."),
        BinOp::Ne(_) => ("/=", ".ne."),
        BinOp::Lt(_) => ("<", ".lt."),
        BinOp::Le(_) => ("<=", ".le."),
        BinOp::Gt(_) => (">", ".gt."),
        BinOp::Ge(_) => (">=", ".ge."),
        _ => return None,
    })
}

impl W<'_> {
    pub(super) fn expr(&self, uid: UnitId, e: ExprId) -> String {
        let mut s = String::new();
        self.expr_into(uid, e, &mut s);
        s
    }

    pub(super) fn prec(&self, uid: UnitId, e: ExprId) -> u8 {
        match &self.p.units[uid].exprs[e] {
            Expr::Binary { op, .. } => fortran_bin(*op),
            Expr::Unary { op, .. } => fortran_un(*op),
            _ => 20,
        }
    }

    pub(super) fn operand(&self, uid: UnitId, e: ExprId, need_parens: bool, out: &mut String) {
        if need_parens {
            out.push('(');
            self.expr_into(uid, e, out);
            out.push(')');
        } else {
            self.expr_into(uid, e, out);
        }
    }

    pub(super) fn expr_into(&self, uid: UnitId, e: ExprId, out: &mut String) {
        let u = &self.p.units[uid];
        match &u.exprs[e] {
            Expr::Literal(l) => out.push_str(&l.text),
            Expr::Name(s) => out.push_str(self.p.local_name(u.scope, *s)),
            Expr::Opaque(t) => out.push_str(t),
            Expr::Intrinsic(r) => out.push_str(r.spelling),
            Expr::Index { base, subs } => {
                self.expr_into(uid, *base, out);
                out.push('(');
                for (i, s) in subs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match s {
                        Subscript::Index(x) => self.expr_into(uid, *x, out),
                        Subscript::Range(a, b, c) => {
                            if let Some(a) = a {
                                self.expr_into(uid, *a, out);
                            }
                            out.push(':');
                            if let Some(b) = b {
                                self.expr_into(uid, *b, out);
                            }
                            if let Some(c) = c {
                                out.push(':');
                                self.expr_into(uid, *c, out);
                            }
                        }
                    }
                }
                out.push(')');
            }
            Expr::Call { callee, args } => {
                self.expr_into(uid, *callee, out);
                out.push('(');
                out.push_str(&self.args(uid, args));
                out.push(')');
            }
            Expr::Field { base, field, .. } => {
                self.expr_into(uid, *base, out);
                out.push('%');
                out.push_str(field);
            }
            Expr::Unary { op, arg } => {
                let p = fortran_un(*op);
                out.push_str(match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => ".not. ",
                    UnOp::BitNot | UnOp::Deref | UnOp::AddrOf | UnOp::Sizeof => "?",
                });
                let ap = self.prec(uid, *arg);
                self.operand(uid, *arg, ap < p || (ap == p && *op != UnOp::Not), out);
            }
            Expr::Binary { op, lhs, rhs } => {
                let p = fortran_bin(*op);
                let (lp, rp) = (self.prec(uid, *lhs), self.prec(uid, *rhs));
                let right_assoc = *op == BinOp::Pow;
                // tree-sitter reads `a // b // c` as `a // (b // c)`; concatenation is
                // associative, so neither side needs parentheses at equal precedence.
                let assoc = *op == BinOp::Concat;
                let lhs_is_unary = matches!(u.exprs[*lhs], Expr::Unary { .. });
                let l_paren = if right_assoc {
                    lp <= p
                } else {
                    lp < p && !(lhs_is_unary && lp == 7 && p == 7)
                };
                let r_paren = if right_assoc || assoc {
                    rp < p
                } else {
                    rp <= p
                };
                self.operand(uid, *lhs, l_paren, out);
                let ops = match op {
                    BinOp::Add => " + ".to_string(),
                    BinOp::Sub => " - ".into(),
                    BinOp::Mul => "*".into(),
                    BinOp::Div => "/".into(),
                    BinOp::Pow => "**".into(),
                    BinOp::Concat => "//".into(),
                    BinOp::And => " .and. ".into(),
                    BinOp::Or => " .or. ".into(),
                    BinOp::Eqv => " .eqv. ".into(),
                    BinOp::Neqv => " .neqv. ".into(),
                    BinOp::Eq(sp)
                    | BinOp::Ne(sp)
                    | BinOp::Lt(sp)
                    | BinOp::Le(sp)
                    | BinOp::Gt(sp)
                    | BinOp::Ge(sp) => {
                        let (sym, dot) = rel(*op).unwrap_or(("?", "?"));
                        format!(" {} ", if *sp == RelSpell::Dotted { dot } else { sym })
                    }
                    BinOp::Rem
                    | BinOp::BitAnd
                    | BinOp::BitOr
                    | BinOp::BitXor
                    | BinOp::Shl
                    | BinOp::Shr => " ? ".into(),
                };
                out.push_str(&ops);
                self.operand(uid, *rhs, r_paren, out);
            }
            Expr::Paren(x) => {
                out.push('(');
                self.expr_into(uid, *x, out);
                out.push(')');
            }
            Expr::ArrayCtor {
                items,
                old_style,
                type_spec,
            } => {
                out.push_str(if *old_style { "(/ " } else { "[" });
                if let Some(t) = type_spec {
                    out.push_str(t);
                    out.push_str(" :: ");
                }
                for (i, &x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.expr_into(uid, x, out);
                }
                out.push_str(if *old_style { " /)" } else { "]" });
            }
            Expr::ImpliedDo {
                items,
                var,
                lo,
                hi,
                step,
            } => {
                out.push('(');
                for &x in items {
                    self.expr_into(uid, x, out);
                    out.push_str(", ");
                }
                self.expr_into(uid, *var, out);
                out.push_str(" = ");
                self.expr_into(uid, *lo, out);
                out.push_str(", ");
                self.expr_into(uid, *hi, out);
                if let Some(s) = step {
                    out.push_str(", ");
                    self.expr_into(uid, *s, out);
                }
                out.push(')');
            }
            Expr::Cast { .. }
            | Expr::SizeofType(_)
            | Expr::Cond { .. }
            | Expr::Assign { .. }
            | Expr::IncDec { .. }
            | Expr::Comma(_)
            | Expr::CompoundLit { .. }
            | Expr::Designated { .. } => out.push_str("?c-expression?"),
        }
    }
}
