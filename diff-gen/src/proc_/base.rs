//! The services every rule of a derivative unit uses: the program, copies of primal
//! statements and expressions into the unit, builders, names and new symbols, spans and
//! diagnostics, the kind of a primal expression, call sites.

use super::complex_types::*;
use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// Whether reference `e` is active before or after one of the points of `s`.
    pub(crate) fn active_at(&self, s: StmtId, e: ExprId) -> bool {
        let Some(z) = self.g.info.ref_zones(self.prog(), self.f.p, e) else {
            return true;
        };
        self.f.pi.point.iter().enumerate().any(|(j, p)| {
            p.stmt == s
                && (z.intersects(&self.f.act.active_before[j])
                    || z.intersects(&self.f.act.active_after[j]))
        })
    }

    pub fn name_of(&self, s: SymbolId) -> &'a str {
        &self.g.prog.symbols[s].spelling
    }

    /// A name from `base` free in this procedure and program-wide. The scan for a free
    /// suffix resumes where the last one for `base` stopped (the names before it stay taken:
    /// both sets only grow), so n temporaries cost n checks, not n²/2 (a chain of 1,600
    /// divisions spent most of its time here).
    pub fn fresh(&mut self, base: &str) -> String {
        let mut local = std::mem::take(&mut self.local);
        let from = self.suffixes.get(base).copied();
        let (n, next) = self.g.fresh_from(base, &mut local, from);
        self.suffixes.insert(base.to_string(), next);
        self.local = local;
        n
    }

    /// Takes `name` in this procedure: [`Self::fresh`] never returns it.
    pub fn reserve(&mut self, name: &str) {
        self.local.insert(key(self.f.lang, name));
    }

    pub(crate) fn new_sym(&mut self, name: &str, ty: Option<Type>) -> SymbolId {
        let scope = self.u.scope;
        let s = self.g.new_symbol(scope, name, ty);
        let k = key(self.f.lang, name);
        self.g.out.scopes[scope].names.insert(k, s);
        self.g.out.scopes[scope].order.push(s);
        s
    }

    /// A C argument passed by value (a scalar or struct, no pointer, no array): the callee
    /// writes a copy.
    pub fn c_by_value(&self, s: SymbolId) -> bool {
        self.f.lang == Lang::C
            && self.g.prog.symbols[s]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers == 0 && t.dims.is_empty())
    }

    pub(crate) fn deriv_name(&mut self, s: SymbolId) -> String {
        let base = pattern(&self.g.opts.var_pattern, self.name_of(s));
        self.fresh(&base)
    }

    pub fn prog(&self) -> &'a Program {
        self.g.prog
    }

    /// Whether two primal references are the same access path, written alike.
    pub fn same_src(&self, a: ExprId, b: ExprId) -> bool {
        radtap_il::visit::same_expr(self.f.src, a, b)
    }

    pub fn pid(&self, s: StmtId) -> Option<usize> {
        self.f.pi.point_id(Point {
            stmt: s,
            part: Part::Whole,
        })
    }

    pub fn copy_stmt(&mut self, s: StmtId) -> StmtId {
        Copier { src: self.f.src }.stmt(&mut self.u, s)
    }

    pub fn b(&mut self) -> B<'_> {
        B {
            u: &mut self.u,
            lang: self.f.lang,
        }
    }

    /// A new statement with the label, construct name, directives and end-of-line comment of
    /// `st` (the primal statement it stands for).
    pub fn new_like(&mut self, st: &Stmt, kind: StmtKind) -> StmtId {
        self.u.stmts.alloc(Stmt {
            kind,
            label: st.label.clone(),
            construct_name: st.construct_name.clone(),
            directives: st.directives.clone(),
            comment: st.comment.clone(),
            omp: None,
        })
    }

    pub fn move_label(&mut self, st: &Stmt, out: Vec<StmtId>) -> Vec<StmtId> {
        if let (Some(l), Some(&first)) = (&st.label, out.first()) {
            if self.u.stmts[first].label.is_none() {
                for &o in &out {
                    if self.u.stmts[o].label.as_ref() == Some(l) {
                        self.u.stmts[o].label = None;
                    }
                }
                self.u.stmts[first].label = Some(l.clone());
            }
        }
        out
    }

    pub fn span(&self, s: StmtId) -> Span {
        self.f
            .src
            .source_map
            .stmt
            .get(s)
            .copied()
            .unwrap_or_default()
    }

    pub fn warn(&mut self, s: StmtId, code: Code, msg: &str) {
        let sp = self.span(s);
        self.g.diags.push(Diagnostic::warning(code, sp, msg));
    }

    pub fn error(&mut self, s: StmtId, code: Code, msg: &str) {
        let sp = self.span(s);
        self.g.diags.push(Diagnostic::error(code, sp, msg));
    }

    pub fn ref_in(&self, e: ExprId, set: &ZoneSet) -> bool {
        self.g
            .info
            .ref_zones(self.prog(), self.f.p, e)
            .is_some_and(|z| z.intersects(set))
    }

    pub fn has_dvar_ref(&self, e: ExprId) -> bool {
        radtap_dataflow::zones::base_symbol(self.prog(), self.f.p, e)
            .is_some_and(|s| self.dvar.contains_key(&s))
    }

    /// Whether reference `e` is active in `set` and has a derivative variable.
    pub fn active_ref(&self, e: ExprId, set: &ZoneSet) -> bool {
        self.has_dvar_ref(e) && self.ref_in(e, set)
    }

    pub fn bytes_of_sym(&self, s: SymbolId) -> u32 {
        // A complex variable: the kind of its parts.
        self.prog().symbols[s]
            .ty
            .as_ref()
            .and_then(|t| match t.base {
                BaseClass::Complex => t.bytes.map(|b| b / 2),
                _ => t.bytes,
            })
            .filter(|&b| matches!(b, 4 | 8 | 10 | 16))
            .unwrap_or(8)
    }

    /// The real kind (bytes) of a primal expression, 8 when in doubt.
    pub(crate) fn kind_of(&self, e: ExprId) -> u32 {
        let compound = matches!(
            self.f.src.exprs[e],
            Expr::Binary { .. } | Expr::Unary { .. } | Expr::Paren(_) | Expr::Call { .. }
        );
        if !compound {
            return self.kind_of_node(e);
        }
        if let Some(&k) = self.kinds.borrow().get(&e) {
            return k;
        }
        let k = self.kind_of_node(e);
        self.kinds.borrow_mut().insert(e, k);
        k
    }

    fn kind_of_node(&self, e: ExprId) -> u32 {
        match &self.f.src.exprs[e] {
            Expr::Literal(l) => {
                let t = l.text.to_ascii_lowercase();
                match self.f.lang {
                    Lang::C => {
                        if t.starts_with("0x") {
                            8
                        } else if t.ends_with('f') {
                            4
                        } else if t.ends_with('l') && l.kind == LitKind::Real {
                            16
                        } else {
                            8
                        }
                    }
                    Lang::Fortran => {
                        if l.kind == LitKind::Int {
                            0
                        } else if t.contains('d')
                            || t.ends_with("_8")
                            || t.contains("_dp")
                            || t.contains("_wp")
                        {
                            8
                        } else {
                            4
                        }
                    }
                }
            }
            Expr::Name(_)
            | Expr::Index { .. }
            | Expr::Field { .. }
            | Expr::Unary {
                op: UnOp::Deref, ..
            } => match radtap_dataflow::zones::base_symbol(self.prog(), self.f.p, e) {
                Some(s) => match self.prog().symbols[s].ty.as_ref().map(|t| t.base) {
                    Some(BaseClass::Real) => self.bytes_of_sym(s),
                    Some(BaseClass::Complex) => self.bytes_of_sym(s),
                    Some(BaseClass::Integer) => 0,
                    _ => 8,
                },
                None => 8,
            },
            Expr::Binary { lhs, rhs, .. } => {
                let (a, b) = (self.kind_of(*lhs), self.kind_of(*rhs));
                match a.max(b) {
                    0 => 0,
                    k => k,
                }
            }
            Expr::Unary { arg, .. } | Expr::Paren(arg) => self.kind_of(*arg),
            Expr::Call { callee, args } => {
                let n = self.callee_name(*callee);
                match n.as_str() {
                    "dble" | "dfloat" => 8,
                    // `real(c)` of a complex `c` has `c`'s kind.
                    "real" if args.len() == 1 && self.complex_src(args[0].value) => {
                        self.complex_kind(args[0].value)
                    }
                    "real" | "float" | "sngl" if args.len() == 1 => 4,
                    // Mixed kinds (`min(1.0, x*10d0)`, accepted by gfortran): the widest.
                    "min" | "max" | "amin1" | "amax1" | "dmin1" | "dmax1" | "fmin" | "fmax" => args
                        .iter()
                        .map(|a| self.kind_of(a.value))
                        .max()
                        .filter(|&k| k != 0)
                        .unwrap_or(8),
                    _ => args
                        .first()
                        .map(|a| self.kind_of(a.value))
                        .filter(|&k| k != 0)
                        .unwrap_or(8),
                }
            }
            _ => 8,
        }
    }

    pub fn real_kind(&self, e: ExprId) -> u32 {
        match self.kind_of(e) {
            0 => 8,
            k => k,
        }
    }

    pub fn callee_name(&self, callee: ExprId) -> String {
        match &self.f.src.exprs[callee] {
            Expr::Name(s) => self.prog().symbols[*s].spelling.to_ascii_lowercase(),
            Expr::Opaque(s) => s.to_ascii_lowercase(),
            Expr::Intrinsic(r) => r.spelling.to_string(),
            _ => String::new(),
        }
    }

    /// The record of the routine `callee` (of the unit being built) calls: typed by the
    /// generators ([`Expr::Intrinsic`]), or a source call copied as a name (or an opaque
    /// one) resolved in the unit's language; `None` for anything else.
    pub fn callee_routine(&self, callee: ExprId) -> Option<radtap_il::vocab::RoutineId> {
        let lang = self.f.lang;
        match &self.u.exprs[callee] {
            Expr::Intrinsic(r) => Some(r.id),
            Expr::Opaque(n) => radtap_il::vocab::id_of(&n.to_ascii_lowercase(), lang),
            Expr::Name(s) => {
                radtap_il::vocab::id_of(&self.g.out.symbols[*s].spelling.to_ascii_lowercase(), lang)
            }
            _ => None,
        }
    }

    /// The record of the routine the source call `call` (of callee `callee`) calls: its
    /// call site's, as the call graph resolved it. A call the call graph does not list (in a
    /// declaration, say) is resolved the same way: an intrinsic symbol or a typed callee.
    pub fn src_routine(&self, call: ExprId, callee: ExprId) -> Option<radtap_il::vocab::RoutineId> {
        if let Some(site) = self.expr_call_site(call) {
            return match site.callee {
                Callee::Intrinsic(r) => Some(r),
                Callee::Defined(_) | Callee::External(_) => None,
            };
        }
        radtap_il::vocab::routine_called(self.prog(), self.f.src, callee)
    }

    /// Copies a primal expression, replacing hoisted function references by their result.
    pub fn cp(&mut self, e: ExprId) -> ExprId {
        if let Some(&(t, _)) = self.hoisted.get(&e) {
            return self.b().name(t);
        }
        if let Some(&i) = self.shared_at.get(&e) {
            let ph = self.b().opaque("?shared");
            self.shared[i].1.push(ph);
            return ph;
        }
        if self.hoisted.is_empty() && self.shared.is_empty() {
            return Copier { src: self.f.src }.expr(&mut self.u, e);
        }
        let mut node = self.f.src.exprs[e].clone();
        if let Expr::Cast { arg, .. } = self.f.src.exprs[e] {
            // The type is copied as is; the operand may hold a hoisted reference.
            let c = Copier { src: self.f.src }.expr(&mut self.u, e);
            let a = self.cp(arg);
            if let Expr::Cast { arg: slot, .. } = &mut self.u.exprs[c] {
                *slot = a;
            }
            return c;
        }
        if matches!(node, Expr::CompoundLit { .. } | Expr::SizeofType(_)) {
            return Copier { src: self.f.src }.expr(&mut self.u, e);
        }
        expr_slots(&mut node, &mut |slot| *slot = self.cp(*slot));
        self.u.exprs.alloc(node)
    }

    /// The call site of the function reference `e` in this procedure.
    pub fn expr_call_site(&self, e: ExprId) -> Option<&'a CallSite> {
        let info: &'a radtap_dataflow::ProgramInfo = self.g.info;
        info.callgraph.expr_site(self.f.p, e)
    }

    /// The call site of the call statement `s` in this procedure.
    pub fn stmt_call_site(&self, s: StmtId) -> Option<&'a CallSite> {
        let info: &'a radtap_dataflow::ProgramInfo = self.g.info;
        info.callgraph.stmt_site(self.f.p, s)
    }

    /// Whether the call expression `e` references a function of the program that has a
    /// derivative version.
    pub fn is_differentiated_call(&self, e: ExprId) -> bool {
        self.expr_call_site(e).is_some_and(|c| {
            matches!(&c.callee, Callee::Defined(l) if l.iter().any(|u| self.g.active.contains(u)))
        })
    }

    /// Whether primal expression `e` is complex-valued.
    pub fn complex_src(&self, e: ExprId) -> bool {
        if !self.has_complex() {
            return false;
        }
        let prog = self.g.prog;
        complex_expr(
            &self.f.src.exprs,
            e,
            &|s| sym_complex(prog, &prog.symbols, s),
            &|c| radtap_il::vocab::routine_called(prog, self.f.src, c),
        )
    }

    /// The real kind (bytes of each part) of a complex primal expression, 8 when unknown.
    pub fn complex_kind(&self, e: ExprId) -> u32 {
        let mut k = 0;
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if let Expr::Name(s) = &self.f.src.exprs[x] {
                if let Some(t) = self.prog().symbols[*s].ty.as_ref() {
                    if t.base == BaseClass::Complex {
                        k = k.max(t.bytes.map_or(8, |b| b / 2));
                    }
                }
            }
            radtap_il::visit::expr_children(&self.f.src.exprs[x], &mut |c| todo.push(c));
        }
        if k == 4 {
            4
        } else {
            8
        }
    }

    /// Wraps derivative statements in a loop over directions (vector mode), after the
    /// partials computed for them.
    pub fn dir(&mut self, stmts: Vec<StmtId>) -> Vec<StmtId> {
        let mut out = std::mem::take(&mut self.pre);
        if !self.f.vector || stmts.is_empty() || self.deriv_only {
            out.extend(stmts);
            return out;
        }
        let (nd, nb) = (self.nd.expect("vector"), self.nbdirs.expect("vector"));
        let lp = match self.f.lang {
            Lang::Fortran => {
                let start = self.b().int(1);
                let end = self.b().name(nb);
                self.f_do(nd, start, end, stmts)
            }
            Lang::C => {
                let n = self.b().name(nb);
                self.c_count_loop(nd, n, stmts, true)
            }
        };
        self.dir_loops.insert(lp);
        out.push(lp);
        out
    }

    /// Whether the primal unit names a complex variable, function or literal (the adjoint's
    /// complex rules are skipped elsewhere).
    pub fn has_complex(&self) -> bool {
        let prog = self.g.prog;
        let complex_name = |n: &str| {
            let n = n.to_ascii_lowercase();
            intrinsic_is(&n, radtap_il::vocab::CPLX)
                || matches!(n.as_str(), "aimag" | "dimag" | "imag" | "imagpart")
        };
        // A variable, or a function whose result is complex.
        let complex_sym = |s: SymbolId| {
            sym_complex(prog, &prog.symbols, s) || complex_name(&prog.symbols[s].spelling)
        };
        *self.has_complex.get_or_init(|| {
            self.f.lang == Lang::Fortran
                && self.f.src.exprs.iter().any(|(_, x)| match x {
                    Expr::Name(s) => complex_sym(*s),
                    Expr::Literal(l) => l.kind == LitKind::Complex,
                    Expr::Opaque(n) => complex_name(n),
                    Expr::Intrinsic(r) => complex_name(r.spelling),
                    _ => false,
                })
        })
    }

    /// Fortran `do v = start, end; body; end do`.
    pub fn f_do(&mut self, v: SymbolId, start: ExprId, end: ExprId, body: Vec<StmtId>) -> StmtId {
        let var = self.b().name(v);
        stmt(
            &mut self.u,
            StmtKind::Do {
                var,
                start,
                end,
                step: None,
                body,
                term_label: None,
            },
        )
    }

    /// `for (v = 0; v < bound; ++v) body` in C (`{ }` around the body when `braced`).
    pub fn c_count_loop(
        &mut self,
        v: SymbolId,
        bound: ExprId,
        body: Vec<StmtId>,
        braced: bool,
    ) -> StmtId {
        let (lhs, zero) = (self.b().name(v), self.b().int(0));
        let init_e = self.b().e(Expr::Assign {
            op: None,
            lhs,
            rhs: zero,
        });
        let init = stmt(&mut self.u, StmtKind::Expr(init_e));
        let v2 = self.b().name(v);
        let cond = self.b().bin(BinOp::Lt(RelSpell::Symbol), v2, bound);
        let v3 = self.b().name(v);
        let step = self.b().e(Expr::IncDec {
            inc: true,
            prefix: true,
            arg: v3,
        });
        stmt(
            &mut self.u,
            StmtKind::CFor {
                init: Some(init),
                cond: Some(cond),
                step: Some(step),
                body,
                braced,
            },
        )
    }

    /// The value of a primal constant expression: literals and Fortran PARAMETERs with a
    /// literal value, under signs, parentheses and arithmetic.
    pub fn const_value(&self, e: ExprId) -> Option<f64> {
        match &self.f.src.exprs[e] {
            Expr::Literal(l) if matches!(l.kind, LitKind::Int | LitKind::Real) => {
                let t = l.text.to_ascii_lowercase();
                let t = t.split('_').next().unwrap_or("");
                t.trim_end_matches(['f', 'l'])
                    .replace('d', "e")
                    .parse()
                    .ok()
            }
            Expr::Unary { op: UnOp::Neg, arg } => self.const_value(*arg).map(|v| -v),
            Expr::Paren(a) => self.const_value(*a),
            Expr::Opaque(m) => self.g.int_macros.get(m).map(|&v| v as f64),
            Expr::Binary { op, lhs, rhs } => {
                let (x, y) = (self.const_value(*lhs)?, self.const_value(*rhs)?);
                match op {
                    BinOp::Add => Some(x + y),
                    BinOp::Sub => Some(x - y),
                    BinOp::Mul => Some(x * y),
                    BinOp::Div if y != 0.0 => Some(x / y),
                    _ => None,
                }
            }
            Expr::Name(s)
                if self.f.lang == Lang::Fortran && self.prog().symbols[*s].attrs.constant =>
            {
                self.f.src.decls.iter().find_map(|d| match d {
                    Decl::Var(v) => {
                        v.entities
                            .iter()
                            .find(|x| x.sym == *s)
                            .and_then(|x| match x.init {
                                Some(Init::Expr(i)) => self.const_value(i),
                                _ => None,
                            })
                    }
                    _ => None,
                })
            }
            _ => None,
        }
    }

    /// The value of a numeric literal (possibly negated or parenthesised), and whether it is
    /// an integer.
    pub(crate) fn number(&self, e: ExprId) -> Option<(f64, bool)> {
        match &self.u.exprs[e] {
            Expr::Literal(l) if matches!(l.kind, LitKind::Int | LitKind::Real) => {
                let t = l.text.to_ascii_lowercase();
                let t = t.split('_').next().unwrap_or("");
                let t = t.trim_end_matches(['f', 'l']).replace('d', "e");
                t.parse().ok().map(|v| (v, l.kind == LitKind::Int))
            }
            Expr::Unary { op: UnOp::Neg, arg } => self.number(*arg).map(|(v, i)| (-v, i)),
            Expr::Paren(a) => self.number(*a),
            _ => None,
        }
    }

    /// A numeric constant of the template's kind.
    pub(crate) fn constant(&mut self, v: f64, int: bool, kind: u32) -> ExprId {
        let lit = if int {
            self.b().int(v.abs() as i64)
        } else {
            self.b().real(&format!("{:?}", v.abs()), kind)
        };
        if v < 0.0 {
            self.b().neg(lit)
        } else {
            lit
        }
    }

    pub fn paren_if_compound(&mut self, e: ExprId) -> ExprId {
        match &self.u.exprs[e] {
            Expr::Binary { .. } | Expr::Unary { .. } | Expr::Cond { .. } => {
                self.b().e(Expr::Paren(e))
            }
            _ => e,
        }
    }

    /// Rank of a primal expression (Fortran arrays; C is always 0).
    pub fn rank_of(&self, e: ExprId) -> usize {
        if self.f.lang == Lang::C {
            return 0;
        }
        let compound = matches!(
            self.f.src.exprs[e],
            Expr::Binary { .. } | Expr::Unary { .. } | Expr::Paren(_) | Expr::Call { .. }
        );
        if !compound {
            return self.rank_of_node(e);
        }
        if let Some(&r) = self.ranks.borrow().get(&e) {
            return r;
        }
        let r = self.rank_of_node(e);
        self.ranks.borrow_mut().insert(e, r);
        r
    }

    fn rank_of_node(&self, e: ExprId) -> usize {
        match &self.f.src.exprs[e] {
            Expr::Name(s) => self.prog().symbols[*s]
                .ty
                .as_ref()
                .map_or(0, |t| t.dims.len()),
            Expr::Index { base, subs } => {
                let r = subs
                    .iter()
                    .filter(|s| matches!(s, Subscript::Range(..)))
                    .count();
                if r > 0 {
                    r
                } else {
                    match &self.f.src.exprs[*base] {
                        // `s%v(i)`: as ranked as `s`.
                        Expr::Field { base: b, .. } => self.rank_of(*b),
                        Expr::Name(_) => 0,
                        _ => self.rank_of(*base),
                    }
                }
            }
            Expr::Field { base, field, .. } => {
                // `s%v` is as ranked as the component, `a(:)%x` as the base.
                let comp = self.record_of(*base).and_then(|td| {
                    self.prog().typedefs[td]
                        .fields
                        .iter()
                        .find_map(|f| match f {
                            Decl::Var(v) => v
                                .entities
                                .iter()
                                .find(|x| {
                                    self.prog().symbols[x.sym]
                                        .spelling
                                        .eq_ignore_ascii_case(field)
                                })
                                .map(|x| {
                                    x.dims.as_ref().map_or(0, |d| d.len()).max(
                                        self.prog().symbols[x.sym]
                                            .ty
                                            .as_ref()
                                            .map_or(0, |t| t.dims.len()),
                                    )
                                }),
                            _ => None,
                        })
                });
                self.rank_of(*base).max(comp.unwrap_or(0))
            }
            Expr::Binary { lhs, rhs, .. } => self.rank_of(*lhs).max(self.rank_of(*rhs)),
            Expr::Unary { arg, .. } | Expr::Paren(arg) => self.rank_of(*arg),
            Expr::Call { args, .. } => args
                .iter()
                .map(|a| self.rank_of(a.value))
                .max()
                .unwrap_or(0),
            // A Fortran array constructor is rank 1, whatever its items.
            Expr::ArrayCtor { .. } => 1,
            _ => 0,
        }
    }

    pub fn nd_index(&mut self) -> ExprId {
        let v = self.nd.expect("vector");
        self.b().name(v)
    }

    /// A derivative temporary as an assignment target (`td(nd)` / `td[nd]` in vector mode).
    pub fn dvec_name(&mut self, t: SymbolId) -> ExprId {
        let n = self.b().name(t);
        if !self.f.vector {
            return n;
        }
        let nd = self.nd_index();
        // An array temporary (an array-valued function's derivative): `td(nd, :, :)`.
        let rank = self.g.out.symbols[t]
            .ty
            .as_ref()
            .map_or(0, |t| t.dims.len());
        let mut subs = vec![Subscript::Index(nd)];
        subs.extend((0..rank).map(|_| Subscript::Range(None, None, None)));
        self.b().index(n, subs)
    }

    /// `d[i0][i1]… = 0` over `bounds` (none for a scalar), over the directions too in vector
    /// mode: loops, or one assignment.
    pub fn zero_c_elements(&mut self, d: SymbolId, bounds: Vec<ExprId>) -> StmtId {
        let counters: Vec<SymbolId> = bounds
            .iter()
            .map(|_| self.temp("i", TempKind::Int))
            .collect();
        let mut elem = self.b().name(d);
        for &i in &counters {
            let iv = self.b().name(i);
            elem = self.b().index(elem, vec![Subscript::Index(iv)]);
        }
        let dir = match (self.f.vector, self.nd, self.nbdirs) {
            (true, Some(nd), Some(nb)) => {
                let k = self.b().name(nd);
                elem = self.b().index(elem, vec![Subscript::Index(k)]);
                Some((nd, nb))
            }
            _ => None,
        };
        let z = self.b().zero(8);
        let mut body = assign(&mut self.u, elem, z);
        if let Some((nd, nb)) = dir {
            let bound = self.b().name(nb);
            body = self.c_count_loop(nd, bound, vec![body], false);
        }
        for (&i, &bound) in counters.iter().zip(&bounds).rev() {
            body = self.c_count_loop(i, bound, vec![body], false);
        }
        body
    }

    pub fn temp(&mut self, base: &str, kind: TempKind) -> SymbolId {
        let n = self.fresh(base);
        // Complex temporaries carry their type, so that `complex_out` sees them.
        let ty = match &kind {
            TempKind::Complex { bytes, .. } => Some(Type {
                base: BaseClass::Complex,
                bytes: Some(2 * bytes),
                dims: Vec::new(),
                pointers: 0,
            }),
            TempKind::Like { sym, .. } => self.g.prog.symbols[*sym]
                .ty
                .clone()
                .filter(|t| t.base == BaseClass::Complex),
            TempKind::Real { .. }
            | TempKind::Int
            | TempKind::Mask { .. }
            | TempKind::RealArray { .. } => None,
            TempKind::Shaped { bytes, dims, .. } => Some(Type {
                base: BaseClass::Real,
                bytes: Some(*bytes),
                dims: dims.clone(),
                pointers: 0,
            }),
        };
        let s = self.new_sym(&n, ty);
        self.temps.push((s, kind));
        s
    }

    /// Takes back temporary `s` (made by [`Self::temp`]) when the code built no longer
    /// uses it: it is not declared.
    pub fn forget_temp(&mut self, s: SymbolId) {
        self.temps.retain(|(t, _)| *t != s);
    }

    /// The record type of a primal reference (`s`, `a(i)`, `s%inner`, `p->q`), if known.
    pub fn record_of(&self, e: ExprId) -> Option<TypeDefId> {
        let ty = |s: SymbolId| match self.prog().symbols[s].ty.as_ref()?.base {
            BaseClass::Record(td) => Some(td),
            _ => None,
        };
        match &self.f.src.exprs[e] {
            Expr::Name(s) => ty(*s),
            Expr::Index { base, .. } | Expr::Paren(base) => self.record_of(*base),
            // `(parts + i)->pos`: pointer arithmetic keeps the pointee's type.
            Expr::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } => self.record_of(*lhs).or_else(|| self.record_of(*rhs)),
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => self.record_of(*arg),
            Expr::Field { base, field, .. } => {
                let td = self.record_of(*base)?;
                self.prog().typedefs[td]
                    .fields
                    .iter()
                    .find_map(|f| match f {
                        Decl::Var(v) => v
                            .entities
                            .iter()
                            .find(|x| {
                                self.prog().symbols[x.sym]
                                    .spelling
                                    .eq_ignore_ascii_case(field)
                            })
                            .and_then(|x| ty(x.sym)),
                        _ => None,
                    })
            }
            _ => None,
        }
    }

    /// `p` where `cond` holds and 0 (of kind `k`) elsewhere: Fortran `merge(p, 0.0_k, cond)`,
    /// C `(cond ? p : 0.0)`. Only partial derivatives are guarded (never tangents), so the
    /// adjoint transposes the product around it unchanged.
    pub(crate) fn guarded(&mut self, p: ExprId, cond: ExprId, k: u32) -> ExprId {
        let z = self.b().zero(k);
        match self.f.lang {
            Lang::Fortran => self.b().call("merge", vec![p, z, cond]),
            Lang::C => {
                let c = self.b().e(Expr::Cond {
                    cond,
                    then: p,
                    else_: z,
                });
                self.b().e(Expr::Paren(c))
            }
        }
    }
}
