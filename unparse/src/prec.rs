//! Operator precedence tables used to place parentheses.

use radtap_il::{BinOp, UnOp};

/// Fortran binding strength of a binary operator (higher binds tighter).
pub(crate) fn fortran_bin(op: BinOp) -> u8 {
    match op {
        BinOp::Eqv | BinOp::Neqv => 1,
        BinOp::Or => 2,
        BinOp::And => 3,
        BinOp::Eq(_) | BinOp::Ne(_) | BinOp::Lt(_) | BinOp::Le(_) | BinOp::Gt(_) | BinOp::Ge(_) => {
            5
        }
        BinOp::Concat => 6,
        BinOp::Add | BinOp::Sub => 7,
        BinOp::Mul | BinOp::Div => 8,
        BinOp::Pow => 10,
        // C-only operators never reach the Fortran writer; give them a safe level.
        BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => 8,
    }
}

/// Fortran binding strength of a unary operator.
pub(crate) fn fortran_un(op: UnOp) -> u8 {
    match op {
        UnOp::Not => 4,
        UnOp::Neg | UnOp::Plus => 7,
        UnOp::BitNot | UnOp::Deref | UnOp::AddrOf | UnOp::Sizeof => 11,
    }
}

/// C binding strength of a binary operator (higher binds tighter).
pub(crate) fn c_bin(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 4,
        BinOp::And => 5,
        BinOp::BitOr => 6,
        BinOp::BitXor => 7,
        BinOp::BitAnd => 8,
        BinOp::Eq(_) | BinOp::Ne(_) => 9,
        BinOp::Lt(_) | BinOp::Le(_) | BinOp::Gt(_) | BinOp::Ge(_) => 10,
        BinOp::Shl | BinOp::Shr => 11,
        BinOp::Add | BinOp::Sub => 12,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 13,
        // Fortran-only operators; not produced for C.
        BinOp::Pow | BinOp::Concat | BinOp::Eqv | BinOp::Neqv => 13,
    }
}

/// C precedence levels of non-binary forms.
pub(crate) const C_COMMA: u8 = 1;
pub(crate) const C_ASSIGN: u8 = 2;
pub(crate) const C_COND: u8 = 3;
pub(crate) const C_UNARY: u8 = 14;
pub(crate) const C_POSTFIX: u8 = 15;
pub(crate) const C_PRIMARY: u8 = 16;
