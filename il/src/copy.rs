//! Deep copies of statements, expressions and declarations from one unit's arenas into
//! another's. The differentiators build new units this way: they never edit the primal IL.
//!
//! Symbols are shared (they live in the program-wide arena), so a copied expression names the
//! same variables as the original; only expression and statement ids are renumbered.

use crate::ir::*;

/// Copies expressions and statements of `src` into `dst`.
pub struct Copier<'a> {
    /// The unit copied from.
    pub src: &'a UnitData,
}

impl Copier<'_> {
    /// Copies expression `e` (and everything below it) into `dst`.
    pub fn expr(&self, dst: &mut UnitData, e: ExprId) -> ExprId {
        let mut node = self.src.exprs[e].clone();
        expr_slots(&mut node, &mut |slot| *slot = self.expr(dst, *slot));
        match &mut node {
            Expr::Cast { ty, .. } | Expr::CompoundLit { ty, .. } => self.cparam_in_place(dst, ty),
            Expr::SizeofType(ty) => self.cparam_in_place(dst, ty),
            _ => {}
        }
        dst.exprs.alloc(node)
    }

    /// Copies statement `s` with its nested statements into `dst`.
    pub fn stmt(&self, dst: &mut UnitData, s: StmtId) -> StmtId {
        let mut node = self.src.stmts[s].clone();
        stmt_slots(&mut node.kind, &mut Cx { c: self, dst });
        dst.stmts.alloc(node)
    }

    /// Copies a block of statements.
    pub fn block(&self, dst: &mut UnitData, b: &[StmtId]) -> Block {
        b.iter().map(|&s| self.stmt(dst, s)).collect()
    }

    /// Copies a declaration (its bounds, kinds and initializers) into `dst`.
    pub fn decl(&self, dst: &mut UnitData, d: &Decl) -> Decl {
        let mut d = d.clone();
        self.decl_in_place(dst, &mut d);
        d
    }

    /// Copies a type spec's kind and length expressions.
    pub fn spec(&self, dst: &mut UnitData, t: &TypeSpec) -> TypeSpec {
        let mut t = t.clone();
        spec_slots(&mut t, &mut |slot| *slot = self.expr(dst, *slot));
        t
    }

    /// Copies array dimensions.
    pub fn dims(&self, dst: &mut UnitData, dims: &[Dim]) -> Vec<Dim> {
        let mut v = dims.to_vec();
        dims_slots(&mut v, &mut |slot| *slot = self.expr(dst, *slot));
        v
    }

    /// Copies a C parameter declaration.
    pub fn cparam(&self, dst: &mut UnitData, p: &CParam) -> CParam {
        let mut p = p.clone();
        self.cparam_in_place(dst, &mut p);
        p
    }

    /// Copies C declarator derivations.
    pub fn ops(&self, dst: &mut UnitData, ops: &[DeclOp]) -> Vec<DeclOp> {
        let mut v = ops.to_vec();
        ops_slots(&mut v, &mut |slot| *slot = self.expr(dst, *slot));
        v
    }

    fn cparam_in_place(&self, dst: &mut UnitData, p: &mut CParam) {
        cparam_slots(p, &mut |slot| *slot = self.expr(dst, *slot));
    }

    fn decl_in_place(&self, dst: &mut UnitData, d: &mut Decl) {
        decl_slots(d, &mut |slot| *slot = self.expr(dst, *slot));
    }
}

/// The three kinds of slot a statement owns.
trait Slots {
    fn expr(&mut self, e: &mut ExprId);
    fn stmt(&mut self, s: &mut StmtId);
    fn decl(&mut self, d: &mut Decl);
}

struct Cx<'c, 'a, 'd> {
    c: &'c Copier<'a>,
    dst: &'d mut UnitData,
}

impl Slots for Cx<'_, '_, '_> {
    fn expr(&mut self, e: &mut ExprId) {
        *e = self.c.expr(self.dst, *e);
    }
    fn stmt(&mut self, s: &mut StmtId) {
        *s = self.c.stmt(self.dst, *s);
    }
    fn decl(&mut self, d: &mut Decl) {
        self.c.decl_in_place(self.dst, d);
    }
}

/// Calls `f` on every expression slot directly inside `e` (mutable: for rewriting copies).
pub fn expr_slots(e: &mut Expr, f: &mut dyn FnMut(&mut ExprId)) {
    match e {
        Expr::Literal(_)
        | Expr::Name(_)
        | Expr::Opaque(_)
        | Expr::Intrinsic(_)
        | Expr::SizeofType(_) => {}
        Expr::Index { base, subs } => {
            f(base);
            subs.iter_mut().for_each(|s| subscript_slots(s, f));
        }
        Expr::Call { callee, args } => {
            f(callee);
            args.iter_mut().for_each(|a| f(&mut a.value));
        }
        Expr::Field { base, .. } => f(base),
        Expr::Unary { arg, .. } | Expr::Paren(arg) | Expr::Cast { arg, .. } => f(arg),
        Expr::IncDec { arg, .. } => f(arg),
        Expr::Binary { lhs, rhs, .. } | Expr::Assign { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        Expr::ArrayCtor { items, .. } | Expr::Comma(items) => items.iter_mut().for_each(f),
        Expr::ImpliedDo {
            items,
            var,
            lo,
            hi,
            step,
        } => {
            items.iter_mut().for_each(&mut *f);
            f(var);
            f(lo);
            f(hi);
            step.iter_mut().for_each(f);
        }
        Expr::Cond { cond, then, else_ } => {
            f(cond);
            f(then);
            f(else_);
        }
        Expr::CompoundLit { init, .. } => f(init),
        Expr::Designated { value, .. } => f(value),
    }
}

fn subscript_slots(s: &mut Subscript, f: &mut dyn FnMut(&mut ExprId)) {
    match s {
        Subscript::Index(e) => f(e),
        Subscript::Range(a, b, c) => [a, b, c].into_iter().flatten().for_each(f),
    }
}

fn stmt_slots(s: &mut StmtKind, v: &mut dyn Slots) {
    let block = |b: &mut Block, v: &mut dyn Slots| b.iter_mut().for_each(|s| v.stmt(s));
    match s {
        StmtKind::Assign { lhs, rhs, .. } | StmtKind::PointerAssign { lhs, rhs } => {
            v.expr(lhs);
            v.expr(rhs);
        }
        StmtKind::Call { callee, args, .. } => {
            v.expr(callee);
            args.iter_mut().for_each(|a| v.expr(&mut a.value));
        }
        StmtKind::Expr(e) => v.expr(e),
        StmtKind::If {
            arms, else_block, ..
        }
        | StmtKind::Where {
            arms, else_block, ..
        } => {
            for (c, b) in arms {
                v.expr(c);
                block(b, v);
            }
            if let Some(b) = else_block {
                block(b, v);
            }
        }
        StmtKind::Do {
            var,
            start,
            end,
            step,
            body,
            ..
        } => {
            v.expr(var);
            v.expr(start);
            v.expr(end);
            step.iter_mut().for_each(|e| v.expr(e));
            block(body, v);
        }
        StmtKind::While { cond, body, .. } | StmtKind::DoWhile { body, cond } => {
            v.expr(cond);
            block(body, v);
        }
        StmtKind::Loop { body } => block(body, v),
        StmtKind::CFor {
            init,
            cond,
            step,
            body,
            ..
        } => {
            init.iter_mut().for_each(|s| v.stmt(s));
            cond.iter_mut().for_each(|e| v.expr(e));
            step.iter_mut().for_each(|e| v.expr(e));
            block(body, v);
        }
        StmtKind::Select { selector, cases } => {
            v.expr(selector);
            for c in cases {
                for cv in &mut c.values {
                    match cv {
                        CaseValue::Value(e) => v.expr(e),
                        CaseValue::Range(a, b) => {
                            [a, b].into_iter().flatten().for_each(|e| v.expr(e))
                        }
                    }
                }
                block(&mut c.body, v);
            }
        }
        StmtKind::Switch { expr, body } => {
            v.expr(expr);
            block(body, v);
        }
        StmtKind::CaseLabel(e) => e.iter_mut().for_each(|e| v.expr(e)),
        StmtKind::Forall {
            specs, mask, body, ..
        } => {
            for sp in specs {
                v.expr(&mut sp.var);
                v.expr(&mut sp.lo);
                v.expr(&mut sp.hi);
                sp.stride.iter_mut().for_each(|e| v.expr(e));
            }
            mask.iter_mut().for_each(|e| v.expr(e));
            block(body, v);
        }
        StmtKind::Block {
            decls,
            body,
            associations,
            ..
        } => {
            decls.iter_mut().for_each(|d| v.decl(d));
            associations.iter_mut().for_each(|(_, e)| v.expr(e));
            block(body, v);
        }
        StmtKind::Decl(d) => v.decl(d),
        StmtKind::ComputedGoto { expr, .. } | StmtKind::ArithIf { expr, .. } => v.expr(expr),
        StmtKind::Return(e) => e.iter_mut().for_each(|e| v.expr(e)),
        StmtKind::Stop { code, .. } => code.iter_mut().for_each(|e| v.expr(e)),
        StmtKind::Memory { items, options, .. } => {
            items.iter_mut().for_each(|e| v.expr(e));
            options.iter_mut().for_each(|a| v.expr(&mut a.value));
        }
        StmtKind::Io { items, .. } => items.iter_mut().for_each(|e| v.expr(e)),
        StmtKind::Exit(_)
        | StmtKind::Cycle(_)
        | StmtKind::Break
        | StmtKind::CContinue
        | StmtKind::Goto(_)
        | StmtKind::Continue
        | StmtKind::Empty
        | StmtKind::Format(_)
        | StmtKind::Entry { .. }
        | StmtKind::Comment(_) => {}
    }
}

fn dims_slots(dims: &mut [Dim], fe: &mut dyn FnMut(&mut ExprId)) {
    for d in dims {
        d.lower.iter_mut().for_each(&mut *fe);
        if let DimUpper::Expr(e) = &mut d.upper {
            fe(e);
        }
    }
}

fn spec_slots(t: &mut TypeSpec, fe: &mut dyn FnMut(&mut ExprId)) {
    match &mut t.kind {
        KindSel::Paren(e) | KindSel::Keyword(e) => fe(e),
        KindSel::Default | KindSel::Star(_) => {}
    }
    if let Some(
        CharLen::Star(LenValue::Expr(e))
        | CharLen::Paren(LenValue::Expr(e))
        | CharLen::Keyword(LenValue::Expr(e)),
    ) = &mut t.char_len
    {
        fe(e);
    }
}

fn cparam_slots(p: &mut CParam, fe: &mut dyn FnMut(&mut ExprId)) {
    spec_slots(&mut p.spec, fe);
    ops_slots(&mut p.derived, fe);
    p.dims.iter_mut().flatten().for_each(fe);
}

fn ops_slots(ops: &mut [DeclOp], fe: &mut dyn FnMut(&mut ExprId)) {
    for op in ops {
        match op {
            DeclOp::Pointer(_) => {}
            DeclOp::Array(e) => e.iter_mut().for_each(&mut *fe),
            DeclOp::Function(ps, _) => ps.iter_mut().for_each(|p| cparam_slots(p, fe)),
        }
    }
}

fn decl_slots(d: &mut Decl, fe: &mut dyn FnMut(&mut ExprId)) {
    match d {
        Decl::Var(v) => {
            spec_slots(&mut v.spec, fe);
            for a in &mut v.attrs {
                if let Attr::Dimension(ds) = a {
                    dims_slots(ds, fe);
                }
            }
            v.entities.iter_mut().for_each(|en| entity_slots(en, fe));
        }
        Decl::Parameter(ps) => ps.iter_mut().for_each(|(_, e)| fe(e)),
        Decl::Common(blocks) => blocks
            .iter_mut()
            .flat_map(|(_, es)| es)
            .for_each(|en| entity_slots(en, fe)),
        Decl::Equivalence(sets) => sets.iter_mut().flatten().for_each(fe),
        Decl::Data(sets) => {
            for s in sets {
                s.objects.iter_mut().for_each(&mut *fe);
                s.values.iter_mut().for_each(|v| data_value_slots(v, fe));
            }
        }
        Decl::Attr(a) => a
            .items
            .iter_mut()
            .filter_map(|i| i.dims.as_mut())
            .for_each(|d| dims_slots(d, fe)),
        Decl::StmtFunction { body, .. } => fe(body),
        Decl::Enumerators(es) => es.iter_mut().filter_map(|(_, e)| e.as_mut()).for_each(fe),
        Decl::Use(..)
        | Decl::Implicit(_)
        | Decl::TypeDef(_)
        | Decl::Interface(_)
        | Decl::Comment(_)
        | Decl::TrailingComment(_)
        | Decl::Directive(_)
        | Decl::Unit(_)
        | Decl::Preproc(_)
        | Decl::Verbatim(_) => {}
    }
}

fn data_value_slots(v: &mut DataValue, fe: &mut dyn FnMut(&mut ExprId)) {
    v.repeat.iter_mut().for_each(&mut *fe);
    fe(&mut v.value);
}

fn entity_slots(en: &mut Entity, fe: &mut dyn FnMut(&mut ExprId)) {
    if let Some(d) = &mut en.dims {
        dims_slots(d, fe);
    }
    if let Some(LenValue::Expr(e)) = &mut en.char_len {
        fe(e);
    }
    ops_slots(&mut en.derived, fe);
    match &mut en.init {
        Some(Init::Expr(e) | Init::Pointer(e)) => fe(e),
        Some(Init::Data(vs)) => vs.iter_mut().for_each(|v| data_value_slots(v, fe)),
        None => {}
    }
}

/// A deep copy of expression `e` inside its own unit (for an expression used twice when a
/// statement is rewritten).
pub fn dup_expr(u: &mut UnitData, e: ExprId) -> ExprId {
    let mut node = u.exprs[e].clone();
    expr_slots(&mut node, &mut |slot| *slot = dup_expr(u, *slot));
    u.exprs.alloc(node)
}
