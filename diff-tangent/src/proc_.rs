//! One procedure: its derivative header and declarations, and the statement rules.

use crate::build::{assign, stmt, B};
use crate::gen::{diffsizes_use, key, pattern, Gen};
use crate::table::{self, Rule, Tpl};
use radtap_dataflow::{ActivityInfo, ObjKey, ProcInfo, ZoneSet};
use radtap_flowgraph::{Callee, Part, Point};
use radtap_il::copy::{expr_slots, Copier};
use radtap_il::*;
use std::collections::{HashMap, HashSet};

mod adjoint;

/// Builds the derivative version of one procedure.
pub(crate) struct ProcGen<'g, 'a> {
    g: &'g mut Gen<'a>,
    p: UnitId,
    src: &'a UnitData,
    pi: &'a ProcInfo,
    act: &'a ActivityInfo,
    u: UnitData,
    lang: Lang,
    vector: bool,
    /// Primal variable → its derivative.
    dvar: HashMap<SymbolId, SymbolId>,
    /// Names used in this unit.
    local: HashSet<String>,
    /// Direction index and count (vector mode).
    nd: Option<SymbolId>,
    nbdirs: Option<SymbolId>,
    /// Temporaries to declare.
    temps: Vec<(SymbolId, TempKind)>,
    /// Fortran derivative functions of external procedures referenced here, with the bytes
    /// of their result: they need an `external` declaration.
    extern_funcs: Vec<(SymbolId, u32)>,
    /// C vector mode: derivatives of by-value arguments the procedure writes, with the
    /// argument they are copied from on entry (the caller's directions stay untouched).
    entry_copies: Vec<(SymbolId, SymbolId)>,
    /// Costly intrinsic calls of the statement being differentiated (outermost first), with
    /// the placeholder nodes standing for their copies: a call used twice (by the primal and
    /// by its partial) is computed once into a temporary.
    shared: Vec<(ExprId, Vec<ExprId>)>,
    /// The intrinsic call whose partials are being built, with its table row.
    cur_call: Option<(ExprId, &'static table::Row)>,
    /// Set when an active real reference had no derivative to read (reported at the
    /// statement).
    lost_derivative: bool,
    /// Direction loops built, which may be merged with their neighbours.
    dir_loops: HashSet<StmtId>,
    /// Function references hoisted out of the current statement: primal and derivative temp.
    hoisted: HashMap<ExprId, (SymbolId, Option<SymbolId>)>,
    /// Active zones before the current point.
    cur: ZoneSet,
    /// C scalar mode: the pointer receiving the primal result.
    result_ptr: Option<SymbolId>,
    /// Vector-mode partials computed before the direction loop.
    pre: Vec<StmtId>,
    /// C: declarations to put at the top of the body.
    c_local_decls: Vec<Decl>,
    /// The digamma helper is declared in this unit.
    digamma_declared: bool,
    /// Inside a vector-mode WHERE/FORALL copy: derivative statements only, not wrapped.
    deriv_only: bool,
    /// Adjoint mode: `f_b` with a forward and a backward sweep.
    adjoint: bool,
    /// Adjoint mode: while a tangent is built for transposition, the derivative references
    /// it contains (output expression, primal reference).
    markers: Option<Vec<(ExprId, ExprId)>>,
    /// Adjoint mode: zones some point of the procedure writes.
    written_anywhere: ZoneSet,
    /// Adjoint mode: the variable receiving popped control codes.
    branch: Option<SymbolId>,
    /// Adjoint mode, C: by-value arguments' adjoint pointer parameters and the local adjoint
    /// accumulating in the body.
    adj_by_ptr: Vec<(SymbolId, SymbolId)>,
    /// Adjoint mode: which sweeps this unit holds.
    sweep: Sweep,
    /// C split forward sweep: the value the function returns.
    c_return_value: Option<ExprId>,
    /// Adjoint mode: the statements inside a loop.
    in_loop: HashSet<StmtId>,
    /// Adjoint mode: the last label made up for reversed jumps.
    next_label: u32,
    /// Adjoint mode, C: names of the declarations hoisted to the top of the body.
    c_hoisted_names: HashSet<String>,
    /// Adjoint: local pointers freed at the top level of the body (their frees move to
    /// where the backward sweep passes their allocation).
    freed_locals: HashSet<SymbolId>,
}

/// Which sweeps an adjoint unit holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sweep {
    /// Both (`f_b`), or not adjoint mode.
    Joint,
    /// Split mode `f_fwd`: the forward sweep, then the values its backward sweep reads.
    Fwd,
    /// Split mode `f_bwd`: those values, then the backward sweep.
    Bwd,
}

/// How a temporary is declared.
#[derive(Clone, Debug)]
enum TempKind {
    /// A real scalar of this many bytes (a derivative when `deriv`, with the direction
    /// dimension in vector mode).
    Real { bytes: u32, deriv: bool },
    /// Like a primal variable (same type and shape); a derivative when `deriv`.
    Like { sym: SymbolId, deriv: bool },
    /// A default integer (adjoint mode: control codes, loop bounds, iteration counts).
    Int,
    /// A default logical array shaped like a primal array (adjoint mode: WHERE masks).
    Mask { sym: SymbolId },
}

impl<'g, 'a> ProcGen<'g, 'a> {
    /// Generates the derivative of `p`; `parent` is the derivative module or C file unit.
    pub(crate) fn run(g: &'g mut Gen<'a>, p: UnitId, parent: Option<UnitId>) -> UnitId {
        Self::run_sweep(g, p, parent, Sweep::Joint)
    }

    /// Generates one unit of `p`'s derivative: the whole of it, or one sweep of a split
    /// adjoint.
    pub(crate) fn run_sweep(
        g: &'g mut Gen<'a>,
        p: UnitId,
        parent: Option<UnitId>,
        sweep: Sweep,
    ) -> UnitId {
        let prog: &'a Program = g.prog;
        let info: &'a radtap_dataflow::ProgramInfo = g.info;
        let src = &prog.units[p];
        let pi = &info.procs[&p];
        let act = pi
            .activity
            .as_ref()
            .expect("active procedures have activity");
        let scope = g.out.scopes.alloc(ScopeData::new(
            ScopeKind::Global,
            prog.scopes[src.scope].parent,
        ));
        let kind = match (
            src.kind,
            g.opts.vector || (g.opts.adjoint && sweep != Sweep::Fwd),
        ) {
            (UnitKind::Function, false) => UnitKind::Function,
            _ => UnitKind::Subroutine,
        };
        let mut u = UnitData::new(kind, src.lang, scope);
        u.parent = parent;
        let n = pi.zones.len();
        let mut pg = ProcGen {
            g,
            p,
            src,
            pi,
            act,
            u,
            lang: src.lang,
            vector: false,
            dvar: HashMap::new(),
            local: HashSet::new(),
            nd: None,
            nbdirs: None,
            temps: Vec::new(),
            extern_funcs: Vec::new(),
            entry_copies: Vec::new(),
            shared: Vec::new(),
            cur_call: None,
            lost_derivative: false,
            dir_loops: HashSet::new(),
            hoisted: HashMap::new(),
            cur: ZoneSet::new(n),
            result_ptr: None,
            pre: Vec::new(),
            c_local_decls: Vec::new(),
            digamma_declared: false,
            deriv_only: false,
            adjoint: false,
            markers: None,
            written_anywhere: ZoneSet::new(n),
            branch: None,
            adj_by_ptr: Vec::new(),
            sweep,
            c_return_value: None,
            in_loop: HashSet::new(),
            next_label: 0,
            c_hoisted_names: HashSet::new(),
            freed_locals: HashSet::new(),
        };
        pg.vector = pg.g.opts.vector;
        pg.adjoint = pg.g.opts.adjoint;
        pg.choose_variables();
        pg.header();
        pg.declarations();
        let body = if pg.adjoint {
            pg.adjoint_body()
        } else {
            pg.block(&src.body)
        };
        pg.u.body = body;
        pg.finish_declarations();
        let id = pg.g.out.units.alloc(pg.u);
        pg.g.out.scopes[scope].kind = ScopeKind::Unit(id);
        id
    }

    // ------------------------------------------------------------------ variables

    fn name_of(&self, s: SymbolId) -> &'a str {
        &self.g.prog.symbols[s].spelling
    }

    fn fresh(&mut self, base: &str) -> String {
        let mut local = std::mem::take(&mut self.local);
        let n = self.g.fresh(base, &mut local);
        self.local = local;
        n
    }

    fn new_sym(&mut self, name: &str, ty: Option<Type>) -> SymbolId {
        let scope = self.u.scope;
        let s = self.g.new_symbol(scope, name, ty);
        let k = key(self.lang, name);
        self.g.out.scopes[scope].names.insert(k, s);
        self.g.out.scopes[scope].order.push(s);
        s
    }

    /// A C argument passed by value (a scalar or struct, no pointer, no array): the callee
    /// writes a copy.
    fn c_by_value(&self, s: SymbolId) -> bool {
        self.lang == Lang::C
            && self.g.prog.symbols[s]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers == 0 && t.dims.is_empty())
    }

    fn deriv_name(&mut self, s: SymbolId) -> String {
        let base = pattern(&self.g.opts.var_pattern, self.name_of(s));
        self.fresh(&base)
    }

    /// Which variables of the procedure carry a derivative.
    fn choose_variables(&mut self) {
        let d = self.g.deriv_zones(self.p);
        // Every name of the primal unit is taken inside it.
        for &s in &self.g.prog.scopes[self.src.scope].order {
            self.local.insert(key(self.lang, self.name_of(s)));
        }
        let mut syms: Vec<SymbolId> = Vec::new();
        for (k, o) in &self.pi.zones.objects {
            let s = match k {
                ObjKey::Sym(s) | ObjKey::Pointee(s) => *s,
                ObjKey::Heap(..) => continue,
            };
            if self.pi.zones.obj_set(o).intersects(&d) && !syms.contains(&s) {
                syms.push(s);
            }
        }
        // Local pointers whose targets carry derivatives.
        for (s, targets) in &self.pi.zones.pts {
            let reaches = targets.iter().any(|t| {
                self.pi
                    .zones
                    .objects
                    .get(t)
                    .is_some_and(|o| self.pi.zones.obj_set(o).intersects(&d))
            });
            if reaches && !syms.contains(s) && self.pi.zones.objects.contains_key(&ObjKey::Sym(*s))
            {
                syms.push(*s);
            }
        }
        // The head's -fixinterface and unused-but-listed parameters.
        let flags = self.g.dparams[&self.p].clone();
        for (&s, &f) in self.src.params.iter().zip(&flags) {
            if f && !syms.contains(&s) {
                syms.push(s);
            }
        }
        syms.sort();
        for s in syms {
            if let Some(&gd) = self.g.dglobal.get(&s) {
                self.dvar.insert(s, gd);
                continue;
            }
            let sd = &self.g.prog.symbols[s];
            let owner = radtap_dataflow::zones::unit_of_scope(self.g.prog, sd.scope);
            if owner != Some(self.p) && !self.src.params.contains(&s) {
                // A global without a derivative global (SAVE of another unit) is not visible;
                // another unit's COMMON member is reached through this unit's own members.
                continue;
            }
            if let Some(BaseClass::Record(td)) = sd.ty.as_ref().map(|t| t.base) {
                self.g.derivative_type(td);
            }
            let n = self.deriv_name(s);
            let ty = sd.ty.clone();
            let ds = self.new_sym(&n, ty);
            self.dvar.insert(s, ds);
        }
        if let Some(r) = self.src.result {
            if self.g.dresult[&self.p] && !self.dvar.contains_key(&r) {
                let n = self.deriv_name(r);
                let ty = self.g.prog.symbols[r].ty.clone();
                let ds = self.new_sym(&n, ty);
                self.dvar.insert(r, ds);
            }
        }
    }

    // ------------------------------------------------------------------ header

    fn header(&mut self) {
        let src = self.src;
        let ds = match (self.sweep, self.g.split_procs.get(&self.p)) {
            (Sweep::Fwd, Some(&(f, _))) => f,
            (Sweep::Bwd, Some(&(_, b))) => b,
            _ => self.g.dproc[&self.p],
        };
        self.u.name = Some(ds);
        if self.sweep == Sweep::Fwd {
            // The forward sweep keeps the primal interface.
            let c = Copier { src };
            for (i, &s) in src.params.iter().enumerate() {
                self.u.params.push(s);
                if self.lang == Lang::C {
                    let cp = c.cparam(&mut self.u, &src.c_params[i]);
                    self.u.c_params.push(cp);
                }
            }
            self.u.header_type = src.header_type.clone();
            self.u.ret_derived = src.ret_derived.clone();
            self.u.result = src.result;
            self.u.explicit_result = src.explicit_result || src.kind == UnitKind::Function;
            self.u.c_void_params = src.c_void_params;
            return;
        }
        self.g.out.symbols[ds].unit = None;
        let flags = self.g.dparams[&self.p].clone();
        let c = Copier { src };
        for (i, &s) in src.params.iter().enumerate() {
            self.u.params.push(s);
            if self.lang == Lang::C {
                let cp = c.cparam(&mut self.u, &src.c_params[i]);
                self.u.c_params.push(cp);
            }
            if flags[i] {
                let mut d = self.dvar[&s];
                let by_value_written = self.vector
                    && self.c_by_value(s)
                    && self
                        .pi
                        .zones
                        .sym_zones(s)
                        .is_some_and(|z| z.intersects(&self.pi.summary.writes));
                if by_value_written {
                    let n = self.fresh(&format!("{}0", self.g.out.symbols[d].spelling));
                    let din = self.new_sym(&n, None);
                    self.entry_copies.push((d, din));
                    self.temps.push((
                        d,
                        TempKind::Like {
                            sym: s,
                            deriv: true,
                        },
                    ));
                    d = din;
                }
                let adj_by_ptr = self.adjoint && self.c_by_value(s);
                if adj_by_ptr {
                    // The adjoint of a by-value argument goes back through a pointer; the
                    // body accumulates it in a local.
                    let local = d;
                    let pname = self.g.out.symbols[local].spelling.clone();
                    let lname = self.fresh(&format!("{pname}0"));
                    self.g.out.symbols[local].spelling = lname.clone();
                    let ptr = self.new_sym(&pname, None);
                    self.adj_by_ptr.push((ptr, local));
                    let mut spec = c.spec(&mut self.u, &src.c_params[i].spec);
                    spec.qualifiers.retain(|q| q != "const");
                    let is_rec = matches!(spec.class, BaseClass::Record(_));
                    if let BaseClass::Record(td) = spec.class {
                        let (_, n) = self.g.derivative_type(td);
                        spec.keyword = "struct".into();
                        spec.name = Some(n);
                    }
                    let init = if is_rec {
                        let z = self.b().int(0);
                        Init::Expr(self.b().e(Expr::ArrayCtor {
                            items: vec![z],
                            old_style: false,
                            type_spec: None,
                        }))
                    } else {
                        let z = self.b().zero(8);
                        Init::Expr(z)
                    };
                    let mut ent = plain_entity(local);
                    ent.init = Some(init);
                    self.c_local_decls.push(Decl::Var(VarDecl {
                        spec,
                        attrs: Vec::new(),
                        entities: vec![ent],
                        double_colon: false,
                    }));
                    d = ptr;
                }
                self.u.params.push(d);
                if self.lang == Lang::C {
                    let mut cp = c.cparam(&mut self.u, &src.c_params[i]);
                    cp.name = Some(self.g.out.symbols[d].spelling.clone());
                    if self.adjoint {
                        cp.spec.qualifiers.retain(|q| q != "const");
                        if adj_by_ptr {
                            cp.derived.insert(0, DeclOp::Pointer(Vec::new()));
                        }
                    }
                    if by_value_written && !cp.spec.qualifiers.iter().any(|q| q == "const") {
                        cp.spec.qualifiers.insert(0, "const".into());
                    }
                    if let BaseClass::Record(td) = cp.spec.class {
                        let (_, n) = self.g.derivative_type(td);
                        cp.spec.keyword = "struct".into();
                        cp.spec.name = Some(n);
                    }
                    if self.vector {
                        self.c_vector_param(&mut cp);
                    }
                    self.u.c_params.push(cp);
                }
            }
        }
        if self.lang == Lang::C && (src.kind == UnitKind::Subroutine || self.vector || self.adjoint)
        {
            let mut void = src.header_type.clone().unwrap_or_else(|| int_spec(Lang::C));
            void.keyword = "void".into();
            void.class = BaseClass::Void;
            void.name = None;
            void.qualifiers.clear();
            void.inline_def = None;
            self.u.header_type = Some(void);
        }
        let is_function = src.kind == UnitKind::Function;
        if is_function && self.adjoint {
            // The result's adjoint is the extra last argument (by value in C).
            let r = src.result.expect("functions have a result");
            if let Some(&rd) = self.dvar.get(&r) {
                self.u.params.push(rd);
                if self.lang == Lang::C {
                    let spec = src.header_type.clone().expect("C function type");
                    let spec_c = c.spec(&mut self.u, &spec);
                    self.u.c_params.push(CParam {
                        spec: spec_c,
                        name: Some(self.g.out.symbols[rd].spelling.clone()),
                        derived: Vec::new(),
                        dims: Vec::new(),
                    });
                }
            }
        } else if is_function {
            let r = src.result.expect("functions have a result");
            let rd = self.dvar.get(&r).copied();
            match self.lang {
                Lang::Fortran => {
                    self.u.params.push(r);
                    if self.vector {
                        if let Some(rd) = rd {
                            self.u.params.push(rd);
                        }
                    } else {
                        // The derivative function returns the result's derivative.
                        let res = match rd {
                            Some(rd) => rd,
                            None => {
                                let n =
                                    self.fresh(&pattern(&self.g.opts.var_pattern, self.name_of(r)));
                                let ty = self.g.prog.symbols[r].ty.clone();
                                let s = self.new_sym(&n, ty);
                                self.dvar.insert(r, s);
                                s
                            }
                        };
                        self.u.result = Some(res);
                        self.u.explicit_result = true;
                    }
                }
                Lang::C => {
                    let spec = src.header_type.clone().expect("C function type");
                    let base = self.name_of(src.name.expect("named"));
                    let rname = if self.g.info.callgraph.is_recursive(self.p) {
                        self.fresh(&format!("{base}0"))
                    } else {
                        base.to_string()
                    };
                    let ty = self.g.prog.symbols[r].ty.clone().map(|mut t| {
                        t.pointers += 1;
                        t
                    });
                    let rp = self.new_sym(&rname, ty);
                    self.u.params.push(rp);
                    let spec_c = c.spec(&mut self.u, &spec);
                    let mut ops = c.ops(&mut self.u, &src.ret_derived);
                    ops.insert(0, DeclOp::Pointer(Vec::new()));
                    self.u.c_params.push(CParam {
                        spec: spec_c.clone(),
                        name: Some(rname),
                        derived: ops,
                        dims: Vec::new(),
                    });
                    self.result_ptr = Some(rp);
                    if self.vector {
                        if let Some(rd) = rd {
                            self.u.params.push(rd);
                            let mut cp = CParam {
                                spec: spec_c,
                                name: Some(self.g.out.symbols[rd].spelling.clone()),
                                derived: Vec::new(),
                                dims: Vec::new(),
                            };
                            self.c_vector_param(&mut cp);
                            self.u.c_params.push(cp);
                        }
                    } else {
                        self.u.header_type = Some(spec);
                        self.u.ret_derived = src.ret_derived.clone();
                    }
                }
            }
        }
        if self.vector {
            let n = self.fresh("nbdirs");
            let ty = Type {
                base: BaseClass::Integer,
                bytes: Some(4),
                dims: Vec::new(),
                pointers: 0,
            };
            let s = self.new_sym(&n, Some(ty.clone()));
            self.u.params.push(s);
            if self.lang == Lang::C {
                self.u.c_params.push(CParam {
                    spec: int_spec(Lang::C),
                    name: Some(n),
                    derived: Vec::new(),
                    dims: Vec::new(),
                });
            }
            self.nbdirs = Some(s);
            let n = self.fresh("nd");
            self.nd = Some(self.new_sym(&n, Some(ty)));
        }
        if self.lang == Lang::C && self.u.c_params.is_empty() {
            self.u.c_void_params = true;
        }
    }

    /// A C derivative parameter gets the direction as its last dimension.
    fn c_vector_param(&mut self, cp: &mut CParam) {
        // Declarator operations are applied innermost-last: `double *x` → `double (*xd)[N]`,
        // `double a[3]` → `double ad[3][N]`, `double s` → `double sd[N]`.
        let n = self.u.exprs.alloc(Expr::Opaque("NBDirsMax".into()));
        cp.derived.insert(0, DeclOp::Array(Some(n)));
    }

    // ------------------------------------------------------------------ declarations

    fn declarations(&mut self) {
        let src = self.src;
        let c = Copier { src };
        let mut decls = Vec::new();
        if self.lang == Lang::Fortran {
            // USE of the derivative modules of the modules used (and of the host module).
            let mut uses: Vec<UnitId> = Vec::new();
            for d in &src.decls {
                if let Decl::Use(ui, _) = d {
                    if let Some(m) = ui.unit {
                        uses.push(m);
                    }
                }
            }
            for d in &src.decls {
                if let Decl::Use(..) = d {
                    decls.push(c.decl(&mut self.u, d));
                }
            }
            for m in uses {
                if let Some(&dm) = self.g.dmodule.get(&m) {
                    if Some(dm) != self.u.parent {
                        let n = crate::gen::unit_name(&self.g.out, dm);
                        decls.push(Decl::Use(
                            UseImport {
                                module: n.to_ascii_lowercase(),
                                unit: Some(dm),
                                only: false,
                                names: Vec::new(),
                            },
                            format!("use {n}"),
                        ));
                    }
                }
            }
            if self.vector
                && self
                    .u
                    .parent
                    .is_none_or(|m| self.g.out.units[m].kind != UnitKind::Module)
            {
                decls.push(diffsizes_use());
            }
        }
        decls.push(Decl::Comment(self.header_comment()));
        let mut declared: HashSet<SymbolId> = HashSet::new();
        for d in &src.decls {
            match d {
                Decl::Use(..) => {}
                Decl::Var(v) => {
                    decls.push(c.decl(&mut self.u, d));
                    for e in &v.entities {
                        declared.insert(e.sym);
                    }
                    if let Some(dv) = self.derivative_decl(v, &c) {
                        decls.push(Decl::Var(dv));
                    }
                }
                Decl::Common(blocks) => {
                    decls.push(c.decl(&mut self.u, d));
                    for (blk, ents) in blocks {
                        for e in ents {
                            declared.insert(e.sym);
                        }
                        if ents.iter().any(|e| self.dvar.contains_key(&e.sym)) {
                            self.derivative_common(*blk, ents, &c, &mut decls);
                        }
                    }
                }
                Decl::Attr(a) => {
                    decls.push(c.decl(&mut self.u, d));
                    if a.keyword == "dimension" {
                        for it in &a.items {
                            declared.insert(it.sym);
                        }
                    }
                }
                _ => decls.push(c.decl(&mut self.u, d)),
            }
        }
        // The primal function result, now a dummy argument of the derivative procedure.
        let mut header_result = None;
        if self.src.kind == UnitKind::Function
            && self.lang == Lang::Fortran
            && self.sweep != Sweep::Fwd
        {
            let r = self.src.result.expect("function result");
            if !declared.contains(&r) {
                if let Some(t) = &self.src.header_type {
                    let spec = c.spec(&mut self.u, t);
                    decls.push(Decl::Var(VarDecl {
                        spec,
                        attrs: if self.adjoint {
                            Vec::new()
                        } else {
                            vec![Attr::Intent(Intent::Out)]
                        },
                        entities: vec![plain_entity(r)],
                        double_colon: true,
                    }));
                    declared.insert(r);
                    header_result = Some(r);
                }
            }
        }
        // Derivatives of implicitly typed variables, and of a result typed in the header.
        let mut missing: Vec<SymbolId> = self
            .dvar
            .keys()
            .copied()
            .filter(|s| {
                (!declared.contains(s) || Some(*s) == header_result)
                    && !self.g.dglobal.contains_key(s)
                    && !(self.sweep == Sweep::Fwd
                        && (self.src.params.contains(s) || Some(*s) == self.src.result))
            })
            .collect();
        missing.sort();
        if self.lang == Lang::C {
            missing.clear(); // C declarations are statements of the body
        }
        for s in missing {
            if self.lang == Lang::C && Some(s) == self.src.result {
                continue;
            }
            let ds = self.dvar[&s];
            let spec = match (&self.g.prog.symbols[s].ty, &self.src.header_type) {
                (_, Some(t)) if Some(s) == self.src.result => c.spec(&mut self.u, t),
                (Some(t), _) => spec_of_type(self.lang, t),
                (None, _) => continue,
            };
            let mut v = VarDecl {
                spec,
                attrs: Vec::new(),
                entities: vec![plain_entity(ds)],
                double_colon: true,
            };
            if let Some(t) = &self.g.prog.symbols[s].ty {
                if !t.dims.is_empty() {
                    let dims = c.dims(&mut self.u, &t.dims);
                    v.entities[0].dims = Some(dims);
                }
            }
            if self.vector && Some(s) != self.src.result.filter(|_| !self.vector) {
                add_direction_dim(&mut self.u, &mut v);
            }
            if self.src.params.contains(&s) || (self.adjoint && Some(s) == self.src.result) {
                v.attrs.push(Attr::Intent(Intent::InOut));
            }
            decls.push(Decl::Var(v));
        }
        if let Some(nb) = self.nbdirs {
            if self.lang == Lang::Fortran {
                decls.push(Decl::Var(VarDecl {
                    spec: int_spec(Lang::Fortran),
                    attrs: vec![Attr::Intent(Intent::In)],
                    entities: vec![plain_entity(nb)],
                    double_colon: true,
                }));
            }
        }
        if let Some(nd) = self.nd {
            let v = VarDecl {
                spec: int_spec(self.lang),
                attrs: Vec::new(),
                entities: vec![plain_entity(nd)],
                double_colon: true,
            };
            match self.lang {
                Lang::Fortran => decls.push(Decl::Var(v)),
                Lang::C => self.c_local_decls.push(Decl::Var(v)),
            }
        }
        // C functions keep their declarations in the body.
        match self.lang {
            Lang::Fortran => self.u.decls = decls,
            Lang::C => {
                for d in decls {
                    if let Decl::Comment(text) = d {
                        // The header comment goes above the function.
                        self.u.directives.push(Directive {
                            name: String::new(),
                            args: String::new(),
                            text,
                        });
                    }
                }
            }
        }
    }
}

/// `integer` / `int`.
fn int_spec(lang: Lang) -> TypeSpec {
    TypeSpec {
        class: BaseClass::Integer,
        keyword: match lang {
            Lang::Fortran => "integer",
            Lang::C => "int",
        }
        .into(),
        name: None,
        kind: KindSel::Default,
        char_len: None,
        bytes: Some(4),
        qualifiers: Vec::new(),
        inline_def: None,
    }
}

/// A type spec for a semantic type (implicitly typed Fortran variables, temporaries).
fn spec_of_type(lang: Lang, t: &Type) -> TypeSpec {
    let bytes = t.bytes.unwrap_or(8);
    let keyword = match (lang, t.base, bytes) {
        (Lang::Fortran, BaseClass::Real, 8) => "real(8)",
        (Lang::Fortran, BaseClass::Real, _) => "real",
        (Lang::Fortran, BaseClass::Complex, 16) => "complex(8)",
        (Lang::Fortran, BaseClass::Complex, _) => "complex",
        (Lang::Fortran, BaseClass::Integer, _) => "integer",
        (Lang::Fortran, BaseClass::Logical, _) => "logical",
        (Lang::C, BaseClass::Real, 4) => "float",
        (Lang::C, BaseClass::Real, _) => "double",
        (Lang::C, BaseClass::Integer, _) => "int",
        (Lang::Fortran, _, _) => "real(8)",
        (Lang::C, _, _) => "double",
    };
    TypeSpec {
        class: t.base,
        keyword: keyword.into(),
        name: None,
        kind: KindSel::Default,
        char_len: None,
        bytes: Some(bytes),
        qualifiers: Vec::new(),
        inline_def: None,
    }
}

fn plain_entity(sym: SymbolId) -> Entity {
    Entity {
        sym,
        dims: None,
        char_len: None,
        derived: Vec::new(),
        init: None,
    }
}

/// Vector mode: the direction becomes the first dimension of a Fortran declaration
/// (`xd(nbdirsmax, n)`) or the last of a C one (`xd[n][NBDirsMax]`).
pub(crate) fn add_direction_dim(u: &mut UnitData, v: &mut VarDecl) {
    let deferred = v
        .attrs
        .iter()
        .any(|a| matches!(a, Attr::Keyword(k) if k == "allocatable" || k == "pointer"));
    match u.lang {
        Lang::Fortran => {
            // Deferred and assumed shapes (`:`) take a `:` direction dimension too.
            let mut dim_for = |shape: Option<&Vec<Dim>>| {
                if deferred
                    || shape.is_some_and(|ds| ds.iter().any(|d| d.upper == DimUpper::Deferred))
                {
                    Dim {
                        lower: None,
                        upper: DimUpper::Deferred,
                    }
                } else {
                    Dim {
                        lower: None,
                        upper: DimUpper::Expr(u.exprs.alloc(Expr::Opaque("nbdirsmax".into()))),
                    }
                }
            };
            let mut attr_shape = None;
            for a in &mut v.attrs {
                if let Attr::Dimension(ds) = a {
                    let d = dim_for(Some(ds));
                    ds.insert(0, d);
                    attr_shape = Some(ds.clone());
                }
            }
            for e in &mut v.entities {
                match &mut e.dims {
                    Some(ds) => {
                        let d = dim_for(Some(ds));
                        ds.insert(0, d)
                    }
                    None if attr_shape.is_none() => e.dims = Some(vec![dim_for(None)]),
                    None => {}
                }
            }
        }
        Lang::C => {
            for e in &mut v.entities {
                let n = u.exprs.alloc(Expr::Opaque("NBDirsMax".into()));
                e.derived.insert(0, DeclOp::Array(Some(n)));
            }
        }
    }
}

impl<'a> ProcGen<'_, 'a> {
    /// The derivative declaration of the entities of `v` that carry derivatives.
    fn derivative_decl(&mut self, v: &VarDecl, c: &Copier<'a>) -> Option<VarDecl> {
        let ents: Vec<Entity> = v
            .entities
            .iter()
            .filter_map(|e| {
                let ds = *self.dvar.get(&e.sym)?;
                if self.sweep == Sweep::Fwd && self.src.params.contains(&e.sym) {
                    return None;
                }
                if self.g.dglobal.contains_key(&e.sym)
                    || self.g.prog.symbols[e.sym].common.is_some()
                {
                    return None;
                }
                let mut e2 = e.clone();
                e2.sym = ds;
                e2.init = None;
                Some(e2)
            })
            .collect();
        if ents.is_empty() {
            return None;
        }
        let mut dv = v.clone();
        dv.entities = ents;
        if self.adjoint {
            // Adjoints of inputs are written, of outputs read.
            for a in dv.attrs.iter_mut() {
                if let Attr::Intent(i) = a {
                    *i = Intent::InOut;
                }
            }
        }
        dv.attrs.retain(|a| match a {
            Attr::Keyword(k) => !matches!(
                k.as_str(),
                "parameter" | "external" | "intrinsic" | "protected" | "bind(c)"
            ),
            Attr::Intent(_) | Attr::Dimension(_) => true,
        });
        if let BaseClass::Record(td) = v.spec.class {
            let (_, n) = self.g.derivative_type(td);
            dv.spec.name = Some(n.clone());
            dv.spec.inline_def = None;
            if self.lang == Lang::C {
                dv.spec.keyword = "struct".into();
            }
        }
        let Decl::Var(mut dv) = c.decl(&mut self.u, &Decl::Var(dv)) else {
            unreachable!("a variable declaration copies to one")
        };
        if self.vector {
            add_direction_dim(&mut self.u, &mut dv);
        }
        Some(dv)
    }

    /// `common /blk_d/ ad, bd`: a derivative COMMON mirroring the primal one member for
    /// member, so every procedure lays it out alike.
    fn derivative_common(
        &mut self,
        blk: Option<SymbolId>,
        ents: &[Entity],
        c: &Copier<'a>,
        decls: &mut Vec<Decl>,
    ) {
        let bname = blk
            .map(|b| self.name_of(b).to_string())
            .unwrap_or_else(|| "blank".into());
        let dname = pattern(&self.g.opts.type_pattern, &bname);
        let bsym = self.g.new_symbol(self.u.scope, &dname, None);
        self.g.out.symbols[bsym].kind = SymbolKind::Common;
        let mut members = Vec::new();
        for e in ents {
            let ds = match self.dvar.get(&e.sym) {
                Some(&d) => d,
                None => {
                    let n = self.deriv_name(e.sym);
                    let ty = self.g.prog.symbols[e.sym].ty.clone();
                    let d = self.new_sym(&n, ty);
                    self.dvar.insert(e.sym, d);
                    d
                }
            };
            // Declare the member's derivative like the member.
            let t = self.g.prog.symbols[e.sym].ty.clone();
            if let Some(t) = t {
                let mut v = VarDecl {
                    spec: spec_of_type(Lang::Fortran, &t),
                    attrs: Vec::new(),
                    entities: vec![plain_entity(ds)],
                    double_colon: true,
                };
                let src_dims = e
                    .dims
                    .clone()
                    .or_else(|| (!t.dims.is_empty()).then(|| t.dims.clone()));
                if let Some(d) = src_dims {
                    v.entities[0].dims = Some(c.dims(&mut self.u, &d));
                }
                if self.vector {
                    add_direction_dim(&mut self.u, &mut v);
                }
                decls.push(Decl::Var(v));
            }
            members.push(plain_entity(ds));
        }
        decls.push(Decl::Common(vec![(Some(bsym), members)]));
    }

    /// `! f_d: tangent of f. Dependents: y. Independents: x. x:in xd:in y:out yd:out`.
    fn header_comment(&self) -> String {
        let lead = match self.lang {
            Lang::Fortran => "!",
            Lang::C => "//",
        };
        let mode = if self.adjoint && self.sweep == Sweep::Fwd {
            "reverse (adjoint) split mode: forward sweep of"
        } else if self.adjoint && self.sweep == Sweep::Bwd {
            "reverse (adjoint) split mode: backward sweep of"
        } else if self.adjoint {
            "reverse (adjoint)"
        } else if self.vector {
            "vector tangent (forward)"
        } else {
            "tangent (forward)"
        };
        let fname = crate::gen::unit_name(self.g.prog, self.p);
        let mut s = if self.sweep == Sweep::Joint {
            format!("{lead} Differentiation of {fname} in {mode} mode.")
        } else {
            format!("{lead} Differentiation of {fname}: {mode} {fname}_b.")
        };
        if let Some(h) = self.g.info.heads.iter().find(|h| h.head == self.p) {
            let deps: Vec<&str> = h.dependents.iter().map(|(n, _)| n.as_str()).collect();
            let inds: Vec<&str> = h.independents.iter().map(|(n, _)| n.as_str()).collect();
            s.push_str(&format!(
                "\n{lead}   dependents:   {}\n{lead}   independents: {}",
                deps.join(" "),
                inds.join(" ")
            ));
        }
        // Read/write status of each derivative argument.
        let mut st = Vec::new();
        let dz = self.g.deriv_zones(self.p);
        for (&p, &f) in self.src.params.iter().zip(&self.g.dparams[&self.p]) {
            if !f {
                continue;
            }
            let d = self.dvar[&p];
            let z = self
                .pi
                .zones
                .objects
                .get(&ObjKey::Pointee(p))
                .map(|o| self.pi.zones.obj_set(o))
                .or_else(|| self.pi.zones.sym_zones(p));
            let Some(mut z) = z else { continue };
            // Only the parts that carry derivatives (a record's active components).
            if z.intersects(&dz) {
                z.intersect_with(&dz);
            }
            // INTENT(OUT) arguments are undefined on entry, whatever the calling contexts say.
            let read = z.intersects(&self.act.varied_in)
                && self.g.prog.symbols[p].attrs.intent != Some(Intent::Out);
            let written =
                !self.c_by_value(p) && z.iter().any(|zz| self.pi.summary.writes.contains(zz));
            let status = match (read, written, self.adjoint) {
                (true, true, _) => "in-out",
                (true, false, false) => "in",
                (false, true, false) => "out",
                // Adjoints flow backwards: inputs' adjoints are results, outputs' are
                // read and reset to zero.
                (true, false, true) if self.input_adjoint_overwritten(p) => "out",
                (true, false, true) => "incremented",
                (false, true, true) => "in-zero",
                (false, false, _) => "unused",
            };
            st.push(format!("{}:{status}", self.g.out.symbols[d].spelling));
        }
        if !st.is_empty() && self.sweep != Sweep::Fwd {
            s.push_str(&format!(
                "\n{lead}   derivative arguments: {}",
                st.join(" ")
            ));
        }
        s
    }

    /// Declares the temporaries made while generating statements.
    fn finish_declarations(&mut self) {
        let temps = std::mem::take(&mut self.temps);
        let mut decls = Vec::new();
        for (f, bytes) in std::mem::take(&mut self.extern_funcs) {
            let t = Type {
                base: BaseClass::Real,
                bytes: Some(bytes),
                dims: Vec::new(),
                pointers: 0,
            };
            decls.push(Decl::Var(VarDecl {
                spec: spec_of_type(self.lang, &t),
                attrs: vec![Attr::Keyword("external".into())],
                entities: vec![plain_entity(f)],
                double_colon: true,
            }));
        }
        for (s, k) in temps {
            let mut v = match k {
                TempKind::Int => VarDecl {
                    spec: int_spec(self.lang),
                    attrs: Vec::new(),
                    entities: vec![plain_entity(s)],
                    double_colon: true,
                },
                TempKind::Real { bytes, deriv } => {
                    let t = Type {
                        base: BaseClass::Real,
                        bytes: Some(bytes),
                        dims: Vec::new(),
                        pointers: 0,
                    };
                    let mut v = VarDecl {
                        spec: spec_of_type(self.lang, &t),
                        attrs: Vec::new(),
                        entities: vec![plain_entity(s)],
                        double_colon: true,
                    };
                    if deriv && self.vector {
                        add_direction_dim(&mut self.u, &mut v);
                    }
                    v
                }
                TempKind::Like { .. } | TempKind::Mask { .. } => {
                    let (sym, deriv, mask) = match k {
                        TempKind::Like { sym, deriv } => (sym, deriv, false),
                        TempKind::Mask { sym } => (sym, false, true),
                        _ => unreachable!("matched above"),
                    };
                    let t = self.g.prog.symbols[sym].ty.clone().unwrap_or(Type {
                        base: BaseClass::Real,
                        bytes: Some(8),
                        dims: Vec::new(),
                        pointers: 0,
                    });
                    let mut t2 = t.clone();
                    t2.dims.clear();
                    t2.pointers = 0;
                    if mask {
                        t2.base = BaseClass::Logical;
                        t2.bytes = None;
                    }
                    let mut spec = spec_of_type(self.lang, &t2);
                    if let BaseClass::Record(td) = t.base {
                        let td = if deriv {
                            self.g.derivative_type(td).1
                        } else {
                            self.g.prog.typedefs[td].name.clone().unwrap_or_default()
                        };
                        spec.keyword = match self.lang {
                            Lang::C => "struct",
                            Lang::Fortran => "type",
                        }
                        .into();
                        spec.name = Some(td);
                    }
                    let mut v = VarDecl {
                        spec,
                        attrs: Vec::new(),
                        entities: vec![plain_entity(s)],
                        double_colon: true,
                    };
                    if !t.dims.is_empty() {
                        let owner = radtap_dataflow::zones::unit_of_scope(
                            self.g.prog,
                            self.g.prog.symbols[sym].scope,
                        )
                        .unwrap_or(self.p);
                        let c = Copier {
                            src: &self.g.prog.units[owner],
                        };
                        let dims = c.dims(&mut self.u, &t.dims);
                        match self.lang {
                            Lang::Fortran => v.entities[0].dims = Some(dims),
                            Lang::C => {
                                for d in dims.iter().rev() {
                                    if let DimUpper::Expr(e) = d.upper {
                                        v.entities[0].derived.push(DeclOp::Array(Some(e)));
                                    }
                                }
                            }
                        }
                    }
                    if deriv && self.vector {
                        add_direction_dim(&mut self.u, &mut v);
                    }
                    v
                }
            };
            if self.lang == Lang::C {
                // Zero-initialised so a dummy derivative needs no statement.
                if v.entities[0].derived.is_empty() && !matches!(v.spec.class, BaseClass::Record(_))
                {
                    let mut b = B {
                        u: &mut self.u,
                        lang: Lang::C,
                    };
                    let z = if v.spec.class == BaseClass::Integer {
                        b.int(0)
                    } else {
                        b.zero(8)
                    };
                    v.entities[0].init = Some(Init::Expr(z));
                }
            }
            v.double_colon = true;
            decls.push(Decl::Var(v));
        }
        match self.lang {
            Lang::Fortran => self.u.decls.extend(decls),
            Lang::C => {
                let mut all = std::mem::take(&mut self.c_local_decls);
                all.extend(decls);
                let mut body: Vec<StmtId> = all
                    .into_iter()
                    .map(|d| stmt(&mut self.u, StmtKind::Decl(d)))
                    .collect();
                let mut copies = Vec::new();
                for (d, din) in std::mem::take(&mut self.entry_copies) {
                    let nd = self.nd.expect("vector");
                    let (l, r) = (self.b().name(d), self.b().name(din));
                    let (i1, i2) = (self.b().name(nd), self.b().name(nd));
                    let l = self.b().index(l, vec![Subscript::Index(i1)]);
                    let r = self.b().index(r, vec![Subscript::Index(i2)]);
                    copies.push(assign(&mut self.u, l, r));
                }
                body.extend(self.dir(copies));
                body.append(&mut self.u.body);
                self.u.body = body;
            }
        }
    }

    fn temp(&mut self, base: &str, kind: TempKind) -> SymbolId {
        let n = self.fresh(base);
        let s = self.new_sym(&n, None);
        self.temps.push((s, kind));
        s
    }
}

/// Where the direction index goes in a derivative reference (vector mode).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    /// `xd(nd, i)`: inside a direction loop.
    Nd,
    /// `xd(:, i)`: an element passed to a scalar dummy.
    All,
    /// `xd(1, i)`: an element passed by sequence association to an array dummy.
    First,
    /// `xd`: no direction index (pointers, whole arrays passed on).
    Omit,
}

// ---------------------------------------------------------------------- statements

impl<'a> ProcGen<'_, 'a> {
    fn prog(&self) -> &'a Program {
        self.g.prog
    }

    fn pid(&self, s: StmtId) -> Option<usize> {
        self.pi.point_id(Point {
            stmt: s,
            part: Part::Whole,
        })
    }

    fn copy_stmt(&mut self, s: StmtId) -> StmtId {
        Copier { src: self.src }.stmt(&mut self.u, s)
    }

    fn b(&mut self) -> B<'_> {
        B {
            u: &mut self.u,
            lang: self.lang,
        }
    }

    /// The derivative of a block, with adjacent direction loops merged.
    fn block(&mut self, b: &[StmtId]) -> Block {
        let mut out = Vec::new();
        for &s in b {
            let v = self.stmt(s);
            out.extend(v);
        }
        self.merge_dir_loops(out)
    }

    fn merge_dir_loops(&mut self, b: Block) -> Block {
        let mut out: Block = Vec::new();
        for s in b {
            if let Some(&last) = out.last() {
                if self.dir_loops.contains(&last) && self.dir_loops.contains(&s) {
                    let body = match &self.u.stmts[s].kind {
                        StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } => body.clone(),
                        _ => Vec::new(),
                    };
                    match &mut self.u.stmts[last].kind {
                        StmtKind::Do { body: lb, .. } | StmtKind::CFor { body: lb, .. } => {
                            lb.extend(body)
                        }
                        _ => {}
                    }
                    continue;
                }
            }
            out.push(s);
        }
        out
    }

    /// Wraps derivative statements in a loop over directions (vector mode), after the
    /// partials computed for them.
    fn dir(&mut self, stmts: Vec<StmtId>) -> Vec<StmtId> {
        let mut out = std::mem::take(&mut self.pre);
        if !self.vector || stmts.is_empty() || self.deriv_only {
            out.extend(stmts);
            return out;
        }
        let (nd, nb) = (self.nd.expect("vector"), self.nbdirs.expect("vector"));
        let lp = match self.lang {
            Lang::Fortran => {
                let var = self.b().name(nd);
                let start = self.b().int(1);
                let end = self.b().name(nb);
                stmt(
                    &mut self.u,
                    StmtKind::Do {
                        var,
                        start,
                        end,
                        step: None,
                        body: stmts,
                        term_label: None,
                    },
                )
            }
            Lang::C => {
                let v = self.b().name(nd);
                let z = self.b().int(0);
                let init_e = self.b().e(Expr::Assign {
                    op: None,
                    lhs: v,
                    rhs: z,
                });
                let init = stmt(&mut self.u, StmtKind::Expr(init_e));
                let v2 = self.b().name(nd);
                let n = self.b().name(nb);
                let cond = self.b().bin(BinOp::Lt(RelSpell::Symbol), v2, n);
                let v3 = self.b().name(nd);
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
                        body: stmts,
                        braced: true,
                    },
                )
            }
        };
        self.dir_loops.insert(lp);
        out.push(lp);
        out
    }

    /// The rule of each statement kind. Returns the statements replacing `s`: derivative
    /// statements first, then the primal one; a label moves to the first.
    fn stmt(&mut self, s: StmtId) -> Vec<StmtId> {
        let st: &'a Stmt = &self.src.stmts[s];
        let out = match &st.kind {
            StmtKind::Assign { lhs, op, rhs } => self.assign_rule(s, *lhs, *op, *rhs),
            StmtKind::PointerAssign { lhs, rhs } => {
                let mut out = vec![self.copy_stmt(s)];
                if let (Some(dl), Some(dr)) =
                    (self.dref(*lhs, Dir::Omit), self.dref(*rhs, Dir::All))
                {
                    out.push(stmt(
                        &mut self.u,
                        StmtKind::PointerAssign { lhs: dl, rhs: dr },
                    ));
                }
                out
            }
            StmtKind::Call { callee, args, .. } => self.call_rule(s, *callee, args),
            StmtKind::Expr(e) => {
                self.check_side_effects(s);
                let mut out = vec![self.copy_stmt(s)];
                if let Some(m) = self.pointer_mirror(*e) {
                    out.push(stmt(&mut self.u, StmtKind::Expr(m)));
                }
                out
            }
            StmtKind::If {
                arms,
                else_block,
                logical,
                braces,
            } => {
                let mut new_arms = Vec::new();
                let mut single = true;
                for (c, b) in arms {
                    let c2 = self.cp(*c);
                    let b2 = self.block(b);
                    single &= b2.len() == 1;
                    new_arms.push((c2, b2));
                }
                let else2 = else_block.as_ref().map(|b| self.block(b));
                vec![self.new_like(
                    st,
                    StmtKind::If {
                        arms: new_arms,
                        else_block: else2,
                        logical: *logical && single,
                        braces: braces.clone(),
                    },
                )]
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                term_label: _,
            } => {
                let (var, start, end) = (self.cp(*var), self.cp(*start), self.cp(*end));
                let step = step.map(|x| self.cp(x));
                let body = self.block(body);
                // Labelled DOs become DO … END DO: derivative statements may follow the
                // terminal statement.
                vec![self.new_like(
                    st,
                    StmtKind::Do {
                        var,
                        start,
                        end,
                        step,
                        body,
                        term_label: None,
                    },
                )]
            }
            StmtKind::While { cond, body, .. } => {
                let cond = self.cp(*cond);
                let body = self.block(body);
                vec![self.new_like(
                    st,
                    StmtKind::While {
                        cond,
                        body,
                        term_label: None,
                    },
                )]
            }
            StmtKind::Loop { body } => {
                let body = self.block(body);
                vec![self.new_like(st, StmtKind::Loop { body })]
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                braced,
            } => {
                // An initialisation with derivative statements runs before the loop.
                let mut before = init.map(|i| self.stmt(i)).unwrap_or_default();
                let init = if before.len() == 1 {
                    before.pop()
                } else {
                    None
                };
                let cond = cond.map(|c| self.cp(c));
                let step = step.map(|c| {
                    let c2 = self.cp(c);
                    match self.pointer_mirror(c) {
                        Some(m) => self.b().e(Expr::Comma(vec![c2, m])),
                        None => c2,
                    }
                });
                let body = self.block(body);
                before.push(self.new_like(
                    st,
                    StmtKind::CFor {
                        init,
                        cond,
                        step,
                        body,
                        braced: *braced,
                    },
                ));
                before
            }
            StmtKind::DoWhile { body, cond } => {
                let body = self.block(body);
                let cond = self.cp(*cond);
                vec![self.new_like(st, StmtKind::DoWhile { body, cond })]
            }
            StmtKind::Select { selector, cases } => {
                let selector = self.cp(*selector);
                let mut cs = Vec::new();
                for c in cases {
                    let values = c
                        .values
                        .iter()
                        .map(|v| match v {
                            CaseValue::Value(e) => CaseValue::Value(self.cp(*e)),
                            CaseValue::Range(a, b) => {
                                CaseValue::Range(a.map(|x| self.cp(x)), b.map(|x| self.cp(x)))
                            }
                        })
                        .collect();
                    let body = self.block(&c.body);
                    cs.push(Case { values, body });
                }
                vec![self.new_like(
                    st,
                    StmtKind::Select {
                        selector,
                        cases: cs,
                    },
                )]
            }
            StmtKind::Switch { expr, body } => {
                let expr = self.cp(*expr);
                let body = self.block(body);
                vec![self.new_like(st, StmtKind::Switch { expr, body })]
            }
            StmtKind::Where {
                arms,
                else_block,
                single,
            } => self.where_rule(st, arms, else_block.as_ref(), *single),
            StmtKind::Forall {
                specs,
                mask,
                body,
                single,
            } => self.forall_rule(st, specs, *mask, body, *single),
            StmtKind::Block {
                scope,
                decls,
                body,
                associations,
                construct,
            } => {
                let c = Copier { src: self.src };
                let decls = decls.iter().map(|d| c.decl(&mut self.u, d)).collect();
                let associations = associations
                    .iter()
                    .map(|(s, e)| (*s, self.cp(*e)))
                    .collect();
                let body = self.block(body);
                vec![self.new_like(
                    st,
                    StmtKind::Block {
                        scope: *scope,
                        decls,
                        body,
                        associations,
                        construct: *construct,
                    },
                )]
            }
            StmtKind::Decl(d) => self.decl_rule(s, d),
            StmtKind::Return(Some(e)) if self.result_ptr.is_some() => self.c_return(s, *e),
            StmtKind::Memory { op, items, options } => {
                let mut out = vec![self.copy_stmt(s)];
                let mut ditems = Vec::new();
                for &it in items {
                    if let Some(d) = self.alloc_item(it, *op) {
                        ditems.push(d);
                    }
                }
                if !ditems.is_empty() {
                    let _ = options;
                    out.push(stmt(
                        &mut self.u,
                        StmtKind::Memory {
                            op: *op,
                            items: ditems,
                            options: Vec::new(),
                        },
                    ));
                }
                out
            }
            StmtKind::Io { kind, items, .. } => {
                let mut out = vec![self.copy_stmt(s)];
                let Some(i) = self.pid(s).filter(|_| *kind == IoKind::Read) else {
                    return out;
                };
                // A value read is a constant: the derivative of each item still useful is
                // reset after the READ.
                let mut unhandled = false;
                for &it in items {
                    if !(self.has_dvar_ref(it) && self.ref_in(it, &self.act.useful_after[i])) {
                        continue;
                    }
                    let k = self.real_kind(it);
                    match self.dref(it, Dir::Nd) {
                        Some(dl) => {
                            let z = self.b().zero(k);
                            let st = assign(&mut self.u, dl, z);
                            let v = self.dir(vec![st]);
                            out.extend(v);
                        }
                        None => unhandled = true,
                    }
                }
                let was_active = items
                    .iter()
                    .any(|&it| self.ref_in(it, &self.act.active_before[i]));
                if was_active || unhandled {
                    self.warn(s, Code::ActiveIo, "this READ overwrites an active variable: the value read is taken as a constant and the derivative it had is lost");
                }
                out
            }
            StmtKind::Entry { .. } => {
                self.error(s, Code::Unsupported, "ENTRY in a procedure that is differentiated is not supported; split the entry into its own procedure");
                vec![self.copy_stmt(s)]
            }
            StmtKind::Return(_)
            | StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::Break
            | StmtKind::CContinue
            | StmtKind::Goto(_)
            | StmtKind::ComputedGoto { .. }
            | StmtKind::ArithIf { .. }
            | StmtKind::Stop { .. }
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Format(_)
            | StmtKind::CaseLabel(_)
            | StmtKind::Comment(_) => vec![self.copy_stmt(s)],
        };
        self.report_lost_derivative(s);
        self.move_label(st, out)
    }

    /// A new statement with the label, construct name and directives of `st`.
    fn new_like(&mut self, st: &Stmt, kind: StmtKind) -> StmtId {
        self.u.stmts.alloc(Stmt {
            kind,
            label: st.label.clone(),
            construct_name: st.construct_name.clone(),
            directives: st.directives.clone(),
        })
    }

    fn move_label(&mut self, st: &Stmt, out: Vec<StmtId>) -> Vec<StmtId> {
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

    fn span(&self, s: StmtId) -> Span {
        self.src.source_map.stmt.get(s).copied().unwrap_or_default()
    }

    fn warn(&mut self, s: StmtId, code: Code, msg: &str) {
        let sp = self.span(s);
        self.g.diags.push(Diagnostic::warning(code, sp, msg));
    }

    fn error(&mut self, s: StmtId, code: Code, msg: &str) {
        let sp = self.span(s);
        self.g.diags.push(Diagnostic::error(code, sp, msg));
    }

    /// C expression statements with side effects on active values (`a = b = c`) are not
    /// differentiated: report them.
    /// C pointer arithmetic in an expression statement or a `for` step (`p++`, `p += k`,
    /// `p = p + k`) on a pointer that has a derivative pointer: the same on the derivative.
    fn pointer_mirror(&mut self, e: ExprId) -> Option<ExprId> {
        if self.lang != Lang::C {
            return None;
        }
        let src = self.src;
        let dptr_of = |pg: &Self, x: ExprId| match src.exprs[x] {
            Expr::Name(p)
                if pg.prog().symbols[p]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0) =>
            {
                pg.dvar.get(&p).copied()
            }
            _ => None,
        };
        match &src.exprs[e] {
            Expr::IncDec { inc, prefix, arg } => {
                let pd = dptr_of(self, *arg)?;
                let n = self.b().name(pd);
                Some(self.b().e(Expr::IncDec {
                    inc: *inc,
                    prefix: *prefix,
                    arg: n,
                }))
            }
            Expr::Assign { op, lhs, rhs } => {
                let pd = dptr_of(self, *lhs)?;
                let r = self.pointer_step(*op, *rhs)?;
                let n = self.b().name(pd);
                Some(self.b().e(Expr::Assign {
                    op: *op,
                    lhs: n,
                    rhs: r,
                }))
            }
            Expr::Comma(items) => {
                let ms: Vec<ExprId> = items
                    .iter()
                    .filter_map(|&x| self.pointer_mirror(x))
                    .collect();
                (!ms.is_empty()).then(|| self.b().e(Expr::Comma(ms)))
            }
            _ => None,
        }
    }

    /// The right-hand side of the derivative pointer's assignment: the derivative address
    /// for `p = q`, the same offset for `p += k`.
    fn pointer_step(&mut self, op: Option<BinOp>, rhs: ExprId) -> Option<ExprId> {
        match op {
            None => self.dptr(rhs),
            Some(_) => Some(self.cp(rhs)),
        }
    }

    fn check_side_effects(&mut self, s: StmtId) {
        let Some(i) = self.pid(s) else { return };
        if self.pi.effects[i]
            .writes
            .intersects(&self.act.active_after[i])
            && self.pi.effects[i]
                .writes
                .intersects(&self.pi.zones.differentiable)
        {
            self.error(
                s,
                Code::Unsupported,
                "this expression statement assigns an active variable inside an expression; write the assignment as a statement of its own",
            );
        }
    }

    fn ref_in(&self, e: ExprId, set: &ZoneSet) -> bool {
        self.g
            .info
            .ref_zones(self.prog(), self.p, e)
            .is_some_and(|z| z.intersects(set))
    }

    fn has_dvar_ref(&self, e: ExprId) -> bool {
        radtap_dataflow::zones::base_symbol(self.prog(), self.p, e)
            .is_some_and(|s| self.dvar.contains_key(&s))
    }

    /// Whether reference `e` is active in `set` and has a derivative variable.
    fn active_ref(&self, e: ExprId, set: &ZoneSet) -> bool {
        self.has_dvar_ref(e) && self.ref_in(e, set)
    }

    fn bytes_of_sym(&self, s: SymbolId) -> u32 {
        self.prog().symbols[s]
            .ty
            .as_ref()
            .and_then(|t| t.bytes)
            .filter(|&b| b == 4 || b == 8)
            .unwrap_or(8)
    }

    /// The real kind (bytes) of a primal expression, 8 when in doubt.
    fn kind_of(&self, e: ExprId) -> u32 {
        match &self.src.exprs[e] {
            Expr::Literal(l) => {
                let t = l.text.to_ascii_lowercase();
                match self.lang {
                    Lang::C => {
                        if t.ends_with('f') && !t.starts_with("0x") {
                            4
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
            } => match radtap_dataflow::zones::base_symbol(self.prog(), self.p, e) {
                Some(s) => match self.prog().symbols[s].ty.as_ref().map(|t| t.base) {
                    Some(BaseClass::Real) => self.bytes_of_sym(s),
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
                    "real" | "float" | "sngl" if args.len() == 1 => 4,
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

    fn real_kind(&self, e: ExprId) -> u32 {
        match self.kind_of(e) {
            0 => 8,
            k => k,
        }
    }

    fn callee_name(&self, callee: ExprId) -> String {
        match &self.src.exprs[callee] {
            Expr::Name(s) => self.prog().symbols[*s].spelling.to_ascii_lowercase(),
            Expr::Opaque(s) => s.to_ascii_lowercase(),
            _ => String::new(),
        }
    }

    /// `lhs = rhs` (`lhs op= rhs` in C).
    ///
    /// With `A⁻`/`A⁺` the active zones before/after the point and `U⁺` the useful ones:
    /// `v ∈ A⁺  ⟹  v̇ := Σᵢ ∂rhs/∂xᵢ · ẋᵢ (xᵢ ∈ A⁻);  v = rhs`;
    /// `v ∉ A⁺, v ∈ U⁺, v has a derivative  ⟹  v̇ := 0;  v = rhs`.
    fn assign_rule(
        &mut self,
        s: StmtId,
        lhs: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
    ) -> Vec<StmtId> {
        let Some(i) = self.pid(s) else {
            return vec![self.copy_stmt(s)];
        };
        self.cur = self.act.active_before[i].clone();
        self.hoisted.clear();
        let mut out = Vec::new();
        self.hoist_calls(s, rhs, &mut out);
        let n_hoisted = out.len();
        let src = self.src;
        // C pointer assignment: the derivative pointer follows.
        if let Expr::Name(q) = src.exprs[lhs] {
            let is_ptr = self.prog().symbols[q]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers > 0 && t.dims.is_empty());
            if is_ptr && self.lang == Lang::C {
                let primal = self.primal_assign(s, lhs, op, rhs);
                out.push(primal);
                if let Some(&qd) = self.dvar.get(&q) {
                    let d = self.pointer_step(op, rhs);
                    self.lost_derivative |= d.is_none();
                    if let Some(d) = d {
                        let l = self.b().name(qd);
                        let st = stmt(&mut self.u, StmtKind::Assign { lhs: l, op, rhs: d });
                        out.push(st);
                    }
                }
                self.hoisted.clear();
                return out;
            }
        }
        // C chained assignment `a = b = e`: each target receives the derivative of `e`,
        // innermost first.
        let mut targets = vec![lhs];
        let mut value = rhs;
        if op.is_none() {
            while let Expr::Assign {
                op: None,
                lhs: l2,
                rhs: r2,
            } = src.exprs[value]
            {
                targets.push(l2);
                value = r2;
            }
        }
        if self.active_ref(lhs, &self.act.active_after[i]) {
            self.collect_shared(value);
        }
        for &t in targets.iter().rev() {
            self.assign_derivative(i, t, op, value, &mut out);
        }
        self.pre.clear();
        // Diff-liveness: a primal assignment nothing needs (neither a derivative nor an
        // output of the procedure) is sliced away.
        let dead = self.g.opts.slice_dead && !self.act.live[i] && self.pi.effects[i].sliceable;
        if !self.deriv_only && !dead {
            let primal = self.primal_assign(s, lhs, op, rhs);
            out.push(primal);
        }
        let defs = self.resolve_shared();
        out.splice(n_hoisted..n_hoisted, defs);
        self.hoisted.clear();
        out
    }

    fn report_lost_derivative(&mut self, s: StmtId) {
        if std::mem::take(&mut self.lost_derivative) {
            self.error(s, Code::Unsupported, "an active value here has no derivative radtap can reach (a pointer whose targets it cannot follow?); the derivative would be wrong");
        }
    }

    /// Registers the costly scalar intrinsic calls of `e` (outermost first) for sharing
    /// between the primal statement and the partials.
    fn collect_shared(&mut self, e: ExprId) {
        let node = &self.src.exprs[e];
        if let Expr::Binary {
            op: BinOp::Div,
            rhs,
            ..
        } = node
        {
            // A quotient is reused by its own derivative (when its denominator varies).
            if self.rank_of(e) == 0
                && matches!(self.kind_of(e), 4 | 8)
                && self.const_value(*rhs).is_none()
            {
                self.shared.push((e, Vec::new()));
            }
        }
        if let Expr::Call { callee, .. } = node {
            let name = self.callee_name(*callee);
            let intrinsic = match &self.src.exprs[*callee] {
                Expr::Opaque(_) => true,
                Expr::Name(s) => self.prog().symbols[*s].unit.is_none(),
                _ => false,
            };
            let costly = intrinsic
                && !self.hoisted.contains_key(&e)
                && table::lookup(&name, self.lang == Lang::C)
                    .is_some_and(|r| matches!(r.rule, Rule::Elementwise(_)))
                && !matches!(
                    name.as_str(),
                    "abs"
                        | "dabs"
                        | "fabs"
                        | "fabsf"
                        | "sign"
                        | "dsign"
                        | "copysign"
                        | "dble"
                        | "real"
                        | "float"
                        | "sngl"
                        | "dfloat"
                        | "mod"
                        | "amod"
                        | "dmod"
                        | "min"
                        | "max"
                        | "amin1"
                        | "amax1"
                        | "dmin1"
                        | "dmax1"
                        | "fmin"
                        | "fmax"
                )
                && self.rank_of(e) == 0
                && matches!(self.kind_of(e), 4 | 8);
            if costly {
                self.shared.push((e, Vec::new()));
            }
        }
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(node, &mut |k| kids.push(k));
        for k in kids {
            self.collect_shared(k);
        }
    }

    /// Decides each registered call, outermost first: used twice or more, it is computed
    /// once into a temporary (returned definitions, innermost first); used once, its copy
    /// goes back in place.
    fn resolve_shared(&mut self) -> Vec<StmtId> {
        let mut defs = Vec::new();
        while !self.shared.is_empty() {
            let (e, uses) = self.shared.remove(0);
            let call = self.cp(e);
            if uses.len() >= 2 {
                let bytes = self.real_kind(e);
                let t = self.temp(
                    "temp",
                    TempKind::Real {
                        bytes,
                        deriv: false,
                    },
                );
                for u in uses {
                    self.u.exprs[u] = Expr::Name(t);
                }
                let l = self.b().name(t);
                defs.insert(0, assign(&mut self.u, l, call));
            } else {
                let node = self.u.exprs[call].clone();
                for u in uses {
                    self.u.exprs[u] = node.clone();
                }
            }
        }
        defs
    }

    /// The derivative statement of `lhs (op)= rhs` at point `i`: the tangent when `lhs` is
    /// active after it, an explicit zero when `lhs` has a derivative that is still useful.
    fn assign_derivative(
        &mut self,
        i: usize,
        lhs: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
        out: &mut Vec<StmtId>,
    ) {
        let after = &self.act.active_after[i];
        let val = if self.active_ref(lhs, after) {
            let d = match op {
                None => self.tan(rhs),
                Some(o) => self.tan_binary(o, lhs, rhs, None),
            };
            let k = self.real_kind(lhs);
            match d {
                Some(d) => d,
                None => self.b().zero(k),
            }
        } else if self.has_dvar_ref(lhs) && {
            let mut u = self.act.useful_after[i].clone();
            u.intersect_with(&self.pi.zones.differentiable);
            self.ref_in(lhs, &u)
        } {
            let k = self.real_kind(lhs);
            self.b().zero(k)
        } else {
            return;
        };
        if let Some(dl) = self.dref(lhs, Dir::Nd) {
            let st = assign(&mut self.u, dl, val);
            let v = self.dir(vec![st]);
            out.extend(v);
        }
    }

    fn primal_assign(&mut self, s: StmtId, lhs: ExprId, op: Option<BinOp>, rhs: ExprId) -> StmtId {
        let l = self.cp(lhs);
        let r = self.cp(rhs);
        let st = &self.src.stmts[s];
        self.new_like(st, StmtKind::Assign { lhs: l, op, rhs: r })
    }

    /// Copies a primal expression, replacing hoisted function references by their result.
    fn cp(&mut self, e: ExprId) -> ExprId {
        if let Some(&(t, _)) = self.hoisted.get(&e) {
            return self.b().name(t);
        }
        if let Some(i) = self.shared.iter().position(|x| x.0 == e) {
            let ph = self.b().opaque("?shared");
            self.shared[i].1.push(ph);
            return ph;
        }
        if self.hoisted.is_empty() && self.shared.is_empty() {
            return Copier { src: self.src }.expr(&mut self.u, e);
        }
        let mut node = self.src.exprs[e].clone();
        if matches!(
            node,
            Expr::Cast { .. } | Expr::CompoundLit { .. } | Expr::SizeofType(_)
        ) {
            return Copier { src: self.src }.expr(&mut self.u, e);
        }
        expr_slots(&mut node, &mut |slot| *slot = self.cp(*slot));
        self.u.exprs.alloc(node)
    }

    /// The differentiated function that call expression `e` of statement `s` references, with
    /// its result variable; an external function with active arguments is reported.
    pub(super) fn differentiated_function(
        &mut self,
        s: StmtId,
        e: ExprId,
    ) -> Option<(UnitId, SymbolId)> {
        let Expr::Call { args, .. } = &self.src.exprs[e] else {
            return None;
        };
        let site = self
            .g
            .info
            .callgraph
            .sites_of(self.p)
            .iter()
            .find(|c| c.expr == Some(e))?;
        let c = match &site.callee {
            Callee::Defined(list) if list.len() == 1 && self.g.active.contains(&list[0]) => list[0],
            Callee::External(name) => {
                if args.iter().any(|a| self.active_ref_or_expr(a.value)) {
                    let msg = format!("`{name}` has no body in the input files and no derivative: the derivative through this call would be wrong; add its source file");
                    self.error(s, Code::NoDerivative, &msg);
                }
                return None;
            }
            _ => return None,
        };
        // A subroutine used as a value has no result: the frontend reports it.
        let r = self.prog().units[c].result?;
        Some((c, r))
    }

    /// The temporaries holding a hoisted reference to function `c` (result `r`): its value
    /// `f_res`, its derivative `f_resd`/`f_resb`, and their size in bytes.
    pub(super) fn result_temps(&mut self, c: UnitId, r: SymbolId) -> (SymbolId, SymbolId, u32) {
        let bytes = self.bytes_of_sym(r);
        let fname = crate::gen::unit_name(self.prog(), c);
        let t = self.temp(
            &format!("{fname}_res"),
            TempKind::Real {
                bytes,
                deriv: false,
            },
        );
        let td = self.temp(
            &pattern(&self.g.opts.var_pattern, &format!("{fname}_res")),
            TempKind::Real { bytes, deriv: true },
        );
        (t, td, bytes)
    }

    /// Hoists references to differentiated functions out of `e` (innermost first):
    /// `ṫ = f_d(a, ȧ, t)` before the statement, and `t` stands for `f(a)` afterwards.
    fn hoist_calls(&mut self, s: StmtId, e: ExprId, out: &mut Vec<StmtId>) {
        let node = &self.src.exprs[e];
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(node, &mut |k| kids.push(k));
        for k in kids {
            self.hoist_calls(s, k, out);
        }
        let Some((c, r)) = self.differentiated_function(s, e) else {
            return;
        };
        let Expr::Call { args, .. } = &self.src.exprs[e] else {
            return;
        };
        let (t, td, bytes) = self.result_temps(c, r);
        let mut pre = Vec::new();
        let mut new_args = self.derivative_args(s, c, args, &mut pre);
        let dsym = self.g.dproc[&c];
        let callee = self.b().name(dsym);
        let tn = self.b().name(t);
        let tn = if self.lang == Lang::C {
            self.b().e(Expr::Unary {
                op: UnOp::AddrOf,
                arg: tn,
            })
        } else {
            tn
        };
        new_args.push(Arg {
            keyword: None,
            value: tn,
        });
        out.extend(pre);
        if self.vector {
            let tdn = self.b().name(td);
            new_args.push(Arg {
                keyword: None,
                value: tdn,
            });
            let nb = {
                let v = self.nbdirs.expect("vector");
                self.b().name(v)
            };
            new_args.push(Arg {
                keyword: None,
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
            let external = self.prog().units[c].parent.is_none() && c != self.p;
            if self.lang == Lang::Fortran
                && external
                && !self.extern_funcs.iter().any(|x| x.0 == dsym)
            {
                self.extern_funcs.push((dsym, bytes));
            }
            let call = self.b().e(Expr::Call {
                callee,
                args: new_args,
            });
            let tdn = self.b().name(td);
            out.push(assign(&mut self.u, tdn, call));
        }
        self.hoisted.insert(e, (t, Some(td)));
    }

    fn active_ref_or_expr(&mut self, e: ExprId) -> bool {
        let cur = self.cur.clone();
        if self.ref_in(e, &cur) {
            return true;
        }
        let mut any = false;
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(&self.src.exprs[e], &mut |k| kids.push(k));
        for k in kids {
            any |= self.active_ref_or_expr(k);
        }
        any
    }
}

// ---------------------------------------------------------------------- calls, data

impl<'a> ProcGen<'_, 'a> {
    /// `call g(a…)`: `call g_d(a, ȧ, …)` when the call point is active and `g` has a
    /// derivative version; otherwise the primal call.
    fn call_rule(&mut self, s: StmtId, _callee: ExprId, args: &'a [Arg]) -> Vec<StmtId> {
        let Some(i) = self.pid(s) else {
            return vec![self.copy_stmt(s)];
        };
        self.cur = self.act.active_before[i].clone();
        let site = self
            .g
            .info
            .callgraph
            .sites_of(self.p)
            .iter()
            .find(|c| c.stmt == s && c.expr.is_none());
        let mut out = Vec::new();
        self.hoisted.clear();
        for a in args {
            self.hoist_calls(s, a.value, &mut out);
        }
        let active_point = self.act.has_derivative[i];
        match site.map(|x| &x.callee) {
            Some(Callee::Defined(list))
                if active_point && list.iter().any(|c| self.g.active.contains(c)) =>
            {
                if list.len() != 1 {
                    self.error(s, Code::Unsupported, "a generic call that resolves to several specific procedures is not differentiated yet; call the specific procedure");
                    return vec![self.copy_stmt(s)];
                }
                let c = list[0];
                let mut pre = Vec::new();
                let mut new_args = self.derivative_args(s, c, args, &mut pre);
                out.extend(pre);
                if self.vector {
                    let nb = {
                        let v = self.nbdirs.expect("vector");
                        self.b().name(v)
                    };
                    new_args.push(Arg {
                        keyword: None,
                        value: nb,
                    });
                }
                let callee = {
                    let v = self.g.dproc[&c];
                    self.b().name(v)
                };
                let st = &self.src.stmts[s];
                let call = self.new_like(
                    st,
                    StmtKind::Call {
                        callee,
                        args: new_args,
                        no_parens: false,
                    },
                );
                out.push(call);
            }
            Some(Callee::External(name)) if active_point => {
                let msg = format!("`{name}` has no body in the input files and no derivative: the derivative through this call would be wrong; add its source file");
                self.error(s, Code::NoDerivative, &msg);
                out.push(self.copy_stmt(s));
            }
            _ => {
                let c = self.copy_stmt(s);
                out.push(c);
            }
        }
        self.hoisted.clear();
        out
    }

    /// The argument list of a call to `c`'s derivative: each actual, followed by its
    /// derivative when the formal has one (a zero temporary for an inactive actual, a
    /// temporary holding the tangent of an active expression).
    fn derivative_args(
        &mut self,
        s: StmtId,
        c: UnitId,
        args: &'a [Arg],
        pre: &mut Vec<StmtId>,
    ) -> Vec<Arg> {
        let cu = &self.prog().units[c];
        let flags = self.g.dparams[&c].clone();
        let cinfo = &self.g.info.procs[&c];
        let cvaried = cinfo.activity.as_ref().map(|a| a.varied_in.clone());
        let mut out = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let fi = match &a.keyword {
                Some(kw) => cu
                    .params
                    .iter()
                    .position(|&p| self.prog().symbols[p].spelling.eq_ignore_ascii_case(kw))
                    .unwrap_or(k),
                None => k,
            };
            let v = self.cp(a.value);
            out.push(Arg {
                keyword: a.keyword.clone(),
                value: v,
            });
            if !flags.get(fi).copied().unwrap_or(false) {
                continue;
            }
            let formal = cu.params[fi];
            let formal_read = cvaried
                .as_ref()
                .zip(cinfo.zones.sym_zones(formal))
                .is_some_and(|(v, z)| v.intersects(&z))
                || cinfo
                    .zones
                    .objects
                    .get(&ObjKey::Pointee(formal))
                    .zip(cvaried.as_ref())
                    .is_some_and(|(o, v)| cinfo.zones.obj_set(o).intersects(v));
            let formal_ty = self.prog().symbols[formal].ty.clone();
            let formal_array = formal_ty.as_ref().is_some_and(|t| !t.dims.is_empty());
            let by_pointer = self.lang == Lang::C
                && formal_ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0 || !t.dims.is_empty());
            let kw = a
                .keyword
                .as_ref()
                .map(|k| pattern(&self.g.opts.var_pattern, k));
            let d = self.derivative_actual(s, a.value, formal_array, by_pointer, formal_read, pre);
            out.push(Arg {
                keyword: kw,
                value: d,
            });
        }
        out
    }

    fn derivative_actual(
        &mut self,
        s: StmtId,
        a: ExprId,
        formal_array: bool,
        by_pointer: bool,
        formal_read: bool,
        pre: &mut Vec<StmtId>,
    ) -> ExprId {
        let src = self.src;
        let is_ref = self.g.info.ref_zones(self.prog(), self.p, a).is_some();
        let base = radtap_dataflow::zones::base_symbol(self.prog(), self.p, a);
        let has = base.is_some_and(|b| self.dvar.contains_key(&b));
        let cur = self.cur.clone();
        // C: an address (`x`, `&v`, `a + i`) passes the derivative address.
        if self.lang == Lang::C && by_pointer {
            if let Some(d) = self.dptr(a) {
                return d;
            }
            // An inactive array or scalar: a zero temporary like it.
            let Some(like) = base else {
                self.error(s, Code::Unsupported, "this pointer argument designates no variable (a null or computed address) but the callee's derivative needs one; pass a variable");
                return self.b().zero(8);
            };
            let t = self.temp(
                "dummyzero",
                TempKind::Like {
                    sym: like,
                    deriv: true,
                },
            );
            let tn = self.b().name(t);
            let is_scalar = self.prog().symbols[like]
                .ty
                .as_ref()
                .is_some_and(|t| t.dims.is_empty() && t.pointers == 0);
            return if is_scalar && !self.vector {
                self.b().e(Expr::Unary {
                    op: UnOp::AddrOf,
                    arg: tn,
                })
            } else {
                tn
            };
        }
        if is_ref && has {
            let dir = if !self.vector {
                Dir::Nd
            } else {
                match &src.exprs[a] {
                    Expr::Name(_) => Dir::Omit,
                    Expr::Index { subs, .. }
                        if subs.iter().all(|x| matches!(x, Subscript::Index(_))) =>
                    {
                        if formal_array {
                            Dir::First
                        } else {
                            Dir::All
                        }
                    }
                    _ => Dir::All,
                }
            };
            if formal_read && !self.ref_in(a, &cur) {
                // Implicit zero: the derivative variable may hold a stale value.
                let k = self.real_kind(a);
                if let Some(dl) = self.dref(a, if self.vector { Dir::All } else { Dir::Nd }) {
                    let z = self.b().zero(k);
                    pre.push(assign(&mut self.u, dl, z));
                }
            }
            let d = self.dref(a, dir);
            if let Some(d) = d {
                return d;
            }
        }
        // An expression or an inactive variable: a temporary.
        let k = self.real_kind(a);
        let tan = if formal_array { None } else { self.tan(a) };
        match tan {
            Some(d) => {
                let t = self.temp(
                    "argd",
                    TempKind::Real {
                        bytes: k,
                        deriv: true,
                    },
                );
                let l = self.dvec_name(t);
                let st = assign(&mut self.u, l, d);
                let v = self.dir(vec![st]);
                pre.extend(v);
                self.b().name(t)
            }
            None => {
                if self.lang == Lang::C && !self.vector {
                    return self.b().zero(k);
                }
                let kind = match base {
                    Some(b) if formal_array && is_ref => TempKind::Like {
                        sym: b,
                        deriv: true,
                    },
                    _ => TempKind::Real {
                        bytes: k,
                        deriv: true,
                    },
                };
                if formal_array && !matches!(src.exprs[a], Expr::Name(_)) {
                    self.error(s, Code::Unsupported, "an inactive array element or section passed to an array dummy that has a derivative is not supported yet; pass a whole array");
                }
                let t = self.temp("dummyzerod", kind);
                if self.lang == Lang::Fortran {
                    let l = self.b().name(t);
                    let z = self.b().zero(k);
                    pre.push(assign(&mut self.u, l, z));
                }
                self.b().name(t)
            }
        }
    }

    /// A derivative temporary as an assignment target (`td(nd)` / `td[nd]` in vector mode).
    fn dvec_name(&mut self, t: SymbolId) -> ExprId {
        let n = self.b().name(t);
        if !self.vector {
            return n;
        }
        let nd = {
            let v = self.nd.expect("vector");
            self.b().name(v)
        };
        self.b().index(n, vec![Subscript::Index(nd)])
    }

    /// C `return e` of a function: `*f = e; return ė;` (vector: `ḟ[nd] = ė` per direction,
    /// `*f = e; return;`).
    fn c_return(&mut self, s: StmtId, e: ExprId) -> Vec<StmtId> {
        let Some(i) = self.pid(s) else {
            return vec![self.copy_stmt(s)];
        };
        self.cur = self.act.active_before[i].clone();
        self.hoisted.clear();
        let mut out = Vec::new();
        self.hoist_calls(s, e, &mut out);
        let n_hoisted = out.len();
        let rp = self.result_ptr.expect("C function");
        let k = self.real_kind(e);
        self.collect_shared(e);
        let d = self.tan(e);
        let d = match d {
            Some(d) => d,
            None => self.b().zero(k),
        };
        if self.vector {
            let r = self.src.result.expect("function");
            if let Some(&rd) = self.dvar.get(&r) {
                let l = self.dvec_name(rd);
                let st = assign(&mut self.u, l, d);
                let v = self.dir(vec![st]);
                out.extend(v);
            }
        }
        self.pre.clear();
        let pv = self.cp(e);
        let rpn = self.b().name(rp);
        let deref = self.b().e(Expr::Unary {
            op: UnOp::Deref,
            arg: rpn,
        });
        out.push(assign(&mut self.u, deref, pv));
        let ret = if self.vector { None } else { Some(d) };
        out.push(stmt(&mut self.u, StmtKind::Return(ret)));
        let defs = self.resolve_shared();
        out.splice(n_hoisted..n_hoisted, defs);
        self.hoisted.clear();
        out
    }

    /// The derivative item of an ALLOCATE/DEALLOCATE/NULLIFY item.
    fn alloc_item(&mut self, it: ExprId, op: MemOp) -> Option<ExprId> {
        let src = self.src;
        match (&src.exprs[it], op) {
            (Expr::Index { base, subs }, MemOp::Allocate) => {
                let Expr::Name(s) = src.exprs[*base] else {
                    return None;
                };
                let ds = *self.dvar.get(&s)?;
                let mut subs2: Vec<Subscript> = Vec::new();
                if self.vector {
                    let n = self.b().opaque("nbdirsmax");
                    subs2.push(Subscript::Index(n));
                }
                let c = Copier { src };
                for sub in subs {
                    subs2.push(match sub {
                        Subscript::Index(e) => Subscript::Index(c.expr(&mut self.u, *e)),
                        Subscript::Range(a, b, x) => Subscript::Range(
                            a.map(|e| c.expr(&mut self.u, e)),
                            b.map(|e| c.expr(&mut self.u, e)),
                            x.map(|e| c.expr(&mut self.u, e)),
                        ),
                    });
                }
                let n = self.b().name(ds);
                Some(self.b().index(n, subs2))
            }
            (Expr::Name(s), _) => {
                let ds = *self.dvar.get(s)?;
                Some(self.b().name(ds))
            }
            _ => None,
        }
    }

    /// A C declaration statement: the primal declaration, then the derivatives of its
    /// entities (initialised with the tangent of the initialiser).
    fn decl_rule(&mut self, s: StmtId, d: &'a Decl) -> Vec<StmtId> {
        let mut out = vec![self.copy_stmt(s)];
        let Decl::Var(v) = d else { return out };
        let pid = self.pid(s);
        if let Some(i) = pid {
            self.cur = self.act.active_before[i].clone();
        }
        let c = Copier { src: self.src };
        let Some(mut dv) = self.derivative_decl(v, &c) else {
            return out;
        };
        let mut after = Vec::new();
        for e in dv.entities.iter_mut() {
            // The primal entity this derivative belongs to.
            let Some(prim) = v
                .entities
                .iter()
                .find(|pe| self.dvar.get(&pe.sym) == Some(&e.sym))
            else {
                continue;
            };
            let Some(Init::Expr(init)) = prim.init else {
                e.init = None;
                continue;
            };
            let is_ptr = self.prog().symbols[prim.sym]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers > 0);
            let val = if is_ptr {
                let d = self.dptr(init);
                // A derivative pointer that cannot follow its primal would be read unset.
                self.lost_derivative |= d.is_none();
                d
            } else {
                let active = pid.is_some_and(|i| {
                    self.act.active_after[i].intersects(
                        &self
                            .pi
                            .zones
                            .sym_zones(prim.sym)
                            .unwrap_or_else(|| self.pi.zones.empty()),
                    )
                });
                let t = if active { self.tan(init) } else { None };
                Some(match t {
                    Some(t) => t,
                    None => {
                        let k = self.bytes_of_sym(prim.sym);
                        self.b().zero(k)
                    }
                })
            };
            if self.vector && !is_ptr {
                e.init = None;
                if let Some(val) = val {
                    let n = self.b().name(e.sym);
                    let nd = {
                        let v = self.nd.expect("vector");
                        self.b().name(v)
                    };
                    let l = self.b().index(n, vec![Subscript::Index(nd)]);
                    let st = assign(&mut self.u, l, val);
                    let w = self.dir(vec![st]);
                    after.extend(w);
                }
            } else {
                e.init = val.map(Init::Expr);
            }
        }
        self.pre.clear();
        if !after.is_empty() {
            // Vector derivatives are filled by direction loops after the declaration.
            dv.spec.qualifiers.retain(|q| q != "const");
        }
        out.push(stmt(&mut self.u, StmtKind::Decl(Decl::Var(dv))));
        out.extend(after);
        out
    }

    /// WHERE: the derivative assignments stay under the same masks. In vector mode each
    /// masked assignment gets its own direction loop around a copy of the WHERE (Fortran
    /// allows no DO inside WHERE).
    fn where_rule(
        &mut self,
        st: &'a Stmt,
        arms: &'a [(ExprId, Block)],
        else_block: Option<&'a Block>,
        single: bool,
    ) -> Vec<StmtId> {
        if self.vector {
            // Derivatives under the same masks inside one direction loop, then the primal
            // WHERE (Fortran allows no DO inside WHERE).
            self.deriv_only = true;
            let mut arms2 = Vec::new();
            for (m, b) in arms {
                let m2 = self.cp(*m);
                let b2 = self.block(b);
                arms2.push((m2, b2));
            }
            let else2 = else_block.map(|b| self.block(b));
            self.deriv_only = false;
            let mut out = Vec::new();
            if arms2.iter().any(|(_, b)| !b.is_empty())
                || else2.as_ref().is_some_and(|b| !b.is_empty())
            {
                let w = stmt(
                    &mut self.u,
                    StmtKind::Where {
                        arms: arms2,
                        else_block: else2,
                        single: false,
                    },
                );
                out.extend(self.dir(vec![w]));
            }
            let sid = self.stmt_id_of(st);
            let st2 = self.copy_stmt(sid);
            out.push(st2);
            return out;
        }
        let mut new_arms = Vec::new();
        for (m, b) in arms {
            let m2 = self.cp(*m);
            let b2 = self.block(b);
            new_arms.push((m2, b2));
        }
        let else2 = else_block.map(|b| self.block(b));
        vec![self.new_like(
            st,
            StmtKind::Where {
                single: single && new_arms.iter().all(|(_, b)| b.len() == 1) && else2.is_none(),
                arms: new_arms,
                else_block: else2,
            },
        )]
    }

    fn forall_rule(
        &mut self,
        st: &'a Stmt,
        specs: &'a [ForallSpec],
        mask: Option<ExprId>,
        body: &'a [StmtId],
        single: bool,
    ) -> Vec<StmtId> {
        let specs2: Vec<ForallSpec> = specs
            .iter()
            .map(|sp| ForallSpec {
                var: self.cp(sp.var),
                lo: self.cp(sp.lo),
                hi: self.cp(sp.hi),
                stride: sp.stride.map(|x| self.cp(x)),
            })
            .collect();
        let mask2 = mask.map(|m| self.cp(m));
        if self.vector {
            self.deriv_only = true;
            let body2 = self.block(body);
            self.deriv_only = false;
            let mut out = Vec::new();
            if !body2.is_empty() {
                let f = stmt(
                    &mut self.u,
                    StmtKind::Forall {
                        specs: specs2,
                        mask: mask2,
                        single: body2.len() == 1,
                        body: body2,
                    },
                );
                out.extend(self.dir(vec![f]));
            }
            let sid = self.stmt_id_of(st);
            let st2 = self.copy_stmt(sid);
            out.push(st2);
            return out;
        }
        let body2 = self.block(body);
        vec![self.new_like(
            st,
            StmtKind::Forall {
                specs: specs2,
                mask: mask2,
                single: single && body2.len() == 1,
                body: body2,
            },
        )]
    }

    /// The id of a statement of the primal unit, from its node.
    fn stmt_id_of(&self, st: &Stmt) -> StmtId {
        self.src
            .stmts
            .iter()
            .find(|(_, x)| std::ptr::eq(*x, st))
            .map(|(id, _)| id)
            .expect("statement of the primal unit")
    }
}

// ---------------------------------------------------------------------- expressions

impl<'a> ProcGen<'_, 'a> {
    /// The tangent of primal expression `e` given the active zones `self.cur`: `None` when it
    /// is zero.
    fn tan(&mut self, e: ExprId) -> Option<ExprId> {
        let src = self.src;
        if let Some(&(_, Some(td))) = self.hoisted.get(&e) {
            let d = if self.vector {
                self.dvec_name(td)
            } else {
                self.b().name(td)
            };
            if let Some(m) = self.markers.as_mut() {
                m.push((d, e));
            }
            return Some(d);
        }
        match &src.exprs[e] {
            Expr::Literal(_) | Expr::Opaque(_) | Expr::SizeofType(_) => None,
            Expr::Name(_)
            | Expr::Index { .. }
            | Expr::Field { .. }
            | Expr::Unary {
                op: UnOp::Deref, ..
            } => {
                let cur = self.cur.clone();
                if !self.ref_in(e, &cur) {
                    return None;
                }
                let d = if self.has_dvar_ref(e) {
                    self.dref(e, Dir::Nd)
                } else {
                    None
                };
                if d.is_none() && matches!(self.kind_of(e), 4 | 8) {
                    // Active, real, and yet no derivative to read: never a silent zero.
                    self.lost_derivative = true;
                }
                if let (Some(m), Some(d)) = (self.markers.as_mut(), d) {
                    m.push((d, e));
                }
                d
            }
            Expr::Call { callee, args } => self.tan_call(e, *callee, args),
            Expr::Unary { op, arg } => match op {
                UnOp::Neg => self.tan(*arg).map(|d| {
                    let d = self.b().factor(d);
                    self.b().neg(d)
                }),
                UnOp::Plus => self.tan(*arg),
                UnOp::Not | UnOp::BitNot | UnOp::AddrOf | UnOp::Sizeof | UnOp::Deref => None,
            },
            Expr::Binary { op, lhs, rhs } => self.tan_binary(*op, *lhs, *rhs, Some(e)),
            Expr::Paren(a) => self.tan(*a).map(|d| self.paren_if_compound(d)),
            Expr::Cast { ty, arg } => {
                if matches!(ty.spec.class, BaseClass::Real) && ty.derived.is_empty() {
                    self.tan(*arg)
                } else {
                    None
                }
            }
            Expr::Cond { cond, then, else_ } => {
                let (a, b) = (self.tan(*then), self.tan(*else_));
                if a.is_none() && b.is_none() {
                    return None;
                }
                let k = self.real_kind(e);
                let a = a.unwrap_or_else(|| self.b().zero(k));
                let b = b.unwrap_or_else(|| self.b().zero(k));
                let c = self.cp(*cond);
                Some(self.b().e(Expr::Cond {
                    cond: c,
                    then: a,
                    else_: b,
                }))
            }
            Expr::ArrayCtor {
                items,
                old_style,
                type_spec,
            } => {
                let ds: Vec<Option<ExprId>> = items.iter().map(|&i| self.tan(i)).collect();
                if ds.iter().all(|d| d.is_none()) {
                    return None;
                }
                let k = self.real_kind(e);
                let items = ds
                    .into_iter()
                    .map(|d| d.unwrap_or_else(|| self.b().zero(k)))
                    .collect();
                Some(self.b().e(Expr::ArrayCtor {
                    items,
                    old_style: *old_style,
                    type_spec: type_spec.clone(),
                }))
            }
            Expr::ImpliedDo { .. }
            | Expr::Assign { .. }
            | Expr::IncDec { .. }
            | Expr::Comma(_)
            | Expr::CompoundLit { .. }
            | Expr::Designated { .. } => None,
        }
    }

    /// Tangent of `a op b`:
    /// `(a±b)˙ = ȧ ± ḃ`, `(ab)˙ = ȧb + aḃ`, `(a/b)˙ = (ȧ − (a/b)ḃ)/b`,
    /// `(aᵇ)˙ = b·aᵇ⁻¹·ȧ + aᵇ·log(a)·ḃ`.
    /// The tangent of `a op b`; `e` is that expression when it exists in the primal (not for
    /// a C compound assignment), so its value can be shared.
    fn tan_binary(&mut self, op: BinOp, a: ExprId, b: ExprId, e: Option<ExprId>) -> Option<ExprId> {
        match op {
            BinOp::Add => {
                let (da, db) = (self.tan(a), self.tan(b));
                self.b().add_opt(da, db)
            }
            BinOp::Sub => {
                let (da, db) = (self.tan(a), self.tan(b));
                let db = db.map(|d| self.b().factor(d));
                self.b().sub_opt(da, db)
            }
            BinOp::Mul => {
                let (da, db) = (self.tan(a), self.tan(b));
                let t1 = da.map(|d| {
                    let d = self.b().factor(d);
                    let bb = self.cp(b);
                    let bb = self.b().factor(bb);
                    self.b().mul(d, bb)
                });
                let t2 = db.map(|d| {
                    let d = self.b().factor(d);
                    let aa = self.cp(a);
                    let aa = self.b().factor(aa);
                    self.b().mul(aa, d)
                });
                self.b().add_opt(t1, t2)
            }
            BinOp::Div => {
                let (da, db) = (self.tan(a), self.tan(b));
                match (da, db) {
                    (None, None) => None,
                    (Some(da), None) => {
                        let da = self.b().factor(da);
                        let bb = self.cp(b);
                        let bb = self.paren_if_compound(bb);
                        Some(self.b().div(da, bb))
                    }
                    (None, Some(db))
                        if e.is_some() && self.const_value(a).is_some_and(|v| v != 0.0) =>
                    {
                        // c/b with a non-zero constant c: −(c/b)²·(1/c)·ḃ, no run-time division
                        // (the compiler folds 1/c).
                        let q = self.cp(e.expect("checked"));
                        let q = self.paren_if_compound(q);
                        let q2 = self.cp(e.expect("checked"));
                        let q2 = self.paren_if_compound(q2);
                        let qq = self.b().mul(q, q2);
                        let t = if self.const_value(a) == Some(1.0) {
                            qq
                        } else {
                            let k = self.real_kind(a);
                            let one = self.b().real("1.0", k);
                            let c = self.cp(a);
                            let c = self.paren_if_compound(c);
                            let inv = self.b().div(one, c);
                            let inv = self.b().e(Expr::Paren(inv));
                            self.b().mul(qq, inv)
                        };
                        let db = self.b().factor(db);
                        let t = self.b().mul(t, db);
                        Some(self.b().neg(t))
                    }
                    (da, Some(db)) => {
                        // (ȧ − (a/b)·ḃ)/b, the quotient shared with the primal.
                        let q = match e {
                            Some(e) => self.cp(e),
                            None => {
                                let aa = self.cp(a);
                                let aa = self.paren_if_compound(aa);
                                let bb = self.cp(b);
                                let bb = self.paren_if_compound(bb);
                                self.b().div(aa, bb)
                            }
                        };
                        let q = self.paren_if_compound(q);
                        let db = self.b().factor(db);
                        let t = self.b().mul(q, db);
                        let num = self.b().sub_opt(da, Some(t)).expect("non-zero");
                        let num = self.b().e(Expr::Paren(num));
                        let b2 = self.cp(b);
                        let b2 = self.paren_if_compound(b2);
                        Some(self.b().div(num, b2))
                    }
                }
            }
            BinOp::Pow => {
                let (da, db) = (self.tan(a), self.tan(b));
                let t1 = da.map(|da| {
                    let da = self.b().factor(da);
                    let int_exp = match &self.src.exprs[b] {
                        Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse::<i64>().ok(),
                        _ => None,
                    };
                    let aa = self.cp(a);
                    let aa = self.paren_if_compound(aa);
                    let partial = match int_exp {
                        Some(2) => {
                            let two = self.b().int(2);
                            self.b().mul(two, aa)
                        }
                        Some(1) => self.b().int(1),
                        Some(n) => {
                            let nn = self.b().int(n);
                            let m = self.b().int(n - 1);
                            let p = self.b().bin(BinOp::Pow, aa, m);
                            self.b().mul(nn, p)
                        }
                        None => {
                            let bb = self.cp(b);
                            let bb = self.paren_if_compound(bb);
                            let b2 = self.cp(b);
                            let b2 = self.paren_if_compound(b2);
                            let one = self.b().int(1);
                            let m = self.b().bin(BinOp::Sub, b2, one);
                            let m = self.b().e(Expr::Paren(m));
                            let p = self.b().bin(BinOp::Pow, aa, m);
                            self.b().mul(bb, p)
                        }
                    };
                    self.b().mul(partial, da)
                });
                let t2 = db.map(|db| {
                    let db = self.b().factor(db);
                    let aa = self.cp(a);
                    let aa = self.paren_if_compound(aa);
                    let bb = self.cp(b);
                    let bb = self.paren_if_compound(bb);
                    let p = self.b().bin(BinOp::Pow, aa, bb);
                    let a2 = self.cp(a);
                    let l = self.b().call("log", vec![a2]);
                    let pl = self.b().mul(p, l);
                    self.b().mul(pl, db)
                });
                self.b().add_opt(t1, t2)
            }
            BinOp::Rem
            | BinOp::Concat
            | BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
            | BinOp::And
            | BinOp::Or
            | BinOp::Eqv
            | BinOp::Neqv
            | BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::BitXor
            | BinOp::Shl
            | BinOp::Shr => None,
        }
    }

    /// The value of a primal constant expression: literals and Fortran PARAMETERs with a
    /// literal value, under signs, parentheses and arithmetic.
    fn const_value(&self, e: ExprId) -> Option<f64> {
        match &self.src.exprs[e] {
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
                if self.lang == Lang::Fortran && self.prog().symbols[*s].attrs.constant =>
            {
                self.src.decls.iter().find_map(|d| match d {
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

    /// Whether the template call `f(a…)` is the intrinsic call being differentiated (its
    /// value, `exp(x0)` in the row of `exp`), so the partial can reuse the primal's value.
    /// An empty `a` matches on the name only.
    fn is_current_call(&self, f: &str, a: &[Tpl]) -> bool {
        let Some((e, row)) = self.cur_call else {
            return false;
        };
        let Expr::Call { args, .. } = &self.src.exprs[e] else {
            return false;
        };
        let same_args = a.is_empty()
            || (a.len() == args.len()
                && a.iter()
                    .enumerate()
                    .all(|(i, t)| matches!(t, Tpl::Arg(j) if *j == i)));
        same_args && (row.fortran.contains(&f) || row.c.contains(&f))
    }

    /// The value of a numeric literal (possibly negated or parenthesised), and whether it is
    /// an integer.
    fn number(&self, e: ExprId) -> Option<(f64, bool)> {
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
    fn constant(&mut self, v: f64, int: bool, kind: u32) -> ExprId {
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

    fn paren_if_compound(&mut self, e: ExprId) -> ExprId {
        match &self.u.exprs[e] {
            Expr::Binary { .. } | Expr::Unary { .. } | Expr::Cond { .. } => {
                self.b().e(Expr::Paren(e))
            }
            _ => e,
        }
    }

    /// Tangent of an intrinsic call from the derivative table.
    fn tan_call(&mut self, e: ExprId, callee: ExprId, args: &'a [Arg]) -> Option<ExprId> {
        let name = self.callee_name(callee);
        let is_c = self.lang == Lang::C;
        let row = table::lookup(&name, is_c);
        let Some(row) = row else {
            // A function of the program with no derivative version here, or a
            // non-differentiable intrinsic: zero. Anything else was reported when hoisting.
            return None;
        };
        let pos: Vec<ExprId> = args
            .iter()
            .filter(|a| a.keyword.is_none())
            .map(|a| a.value)
            .collect();
        let k = self.real_kind(e);
        match row.rule {
            Rule::Elementwise(partials) => {
                let mut sum = None;
                for (i, p) in partials.iter().enumerate() {
                    let Some(&x) = pos.get(i) else { break };
                    let Some(dx) = self.tan(x) else { continue };
                    let tpl = table::parse(p);
                    let kx = self.real_kind(x);
                    let outer = self.cur_call.replace((e, row));
                    let mut partial = self.instantiate(&tpl, &pos, kx);
                    self.cur_call = outer;
                    if self.vector && !self.is_trivial(partial) && self.rank_of(x) == 0 {
                        // Computed once, before the direction loop.
                        let t = self.temp(
                            "temp",
                            TempKind::Real {
                                bytes: kx,
                                deriv: false,
                            },
                        );
                        let l = self.b().name(t);
                        let st = assign(&mut self.u, l, partial);
                        self.pre.push(st);
                        partial = self.b().name(t);
                    }
                    let partial = self.b().factor(partial);
                    let dx = self.b().factor(dx);
                    let term = self.b().mul(partial, dx);
                    sum = self.b().add_opt(sum, Some(term));
                }
                sum
            }
            Rule::Linear => {
                let first = args.first()?;
                let d = self.tan(first.value)?;
                let mut new_args = vec![Arg {
                    keyword: first.keyword.clone(),
                    value: d,
                }];
                for a in &args[1..] {
                    let v = self.cp(a.value);
                    new_args.push(Arg {
                        keyword: a.keyword.clone(),
                        value: v,
                    });
                }
                let c = self.b().opaque(&name);
                Some(self.b().e(Expr::Call {
                    callee: c,
                    args: new_args,
                }))
            }
            Rule::Bilinear => {
                let (x, y) = (*pos.first()?, *pos.get(1)?);
                let (dx, dy) = (self.tan(x), self.tan(y));
                let t1 = dx.map(|dx| {
                    let yy = self.cp(y);
                    self.b().call(&name, vec![dx, yy])
                });
                let t2 = dy.map(|dy| {
                    let xx = self.cp(x);
                    self.b().call(&name, vec![xx, dy])
                });
                self.b().add_opt(t1, t2)
            }
            Rule::Select { max } => {
                // Fold left: d(max(a, b, c)) = d(max(max(a, b), c)).
                let mut acc_val = self.cp(*pos.first()?);
                let mut acc_d = self.tan(pos[0]);
                for &x in &pos[1..] {
                    let dx = self.tan(x);
                    if acc_d.is_some() || dx.is_some() {
                        let a = acc_d.unwrap_or_else(|| self.b().zero(k));
                        let b = dx.unwrap_or_else(|| self.b().zero(k));
                        let xv = self.cp(x);
                        let cmp = if max {
                            BinOp::Ge(RelSpell::Symbol)
                        } else {
                            BinOp::Le(RelSpell::Symbol)
                        };
                        let cond = self.b().bin(cmp, acc_val, xv);
                        acc_d = Some(match self.lang {
                            Lang::Fortran => self.b().call("merge", vec![a, b, cond]),
                            Lang::C => {
                                let c = self.b().e(Expr::Cond {
                                    cond,
                                    then: a,
                                    else_: b,
                                });
                                self.b().e(Expr::Paren(c))
                            }
                        });
                    }
                    let xv2 = self.cp(x);
                    // The running extremum as a primal expression.
                    let fname = match (self.lang, max) {
                        (Lang::Fortran, true) => "max",
                        (Lang::Fortran, false) => "min",
                        (Lang::C, true) => "fmax",
                        (Lang::C, false) => "fmin",
                    };
                    acc_val = self.b().call(fname, vec![acc_val, xv2]);
                }
                acc_d
            }
            Rule::Extremum { .. } => {
                // Any rank, section or expression: the derivatives where the extremum is
                // reached, averaged over ties: sum(ẋ, mask=m)/count(m), m = (x == maxval(x)).
                let x = *pos.first()?;
                let dx = self.tan(x)?;
                let mut mask = || {
                    let xv = self.cp(x);
                    let xv = self.paren_if_compound(xv);
                    let x2 = self.cp(x);
                    let ext = self.b().call(&name, vec![x2]);
                    self.b().bin(BinOp::Eq(RelSpell::Symbol), xv, ext)
                };
                let (m1, m2) = (mask(), mask());
                let callee = self.b().opaque("sum");
                let s = self.b().e(Expr::Call {
                    callee,
                    args: vec![
                        Arg {
                            keyword: None,
                            value: dx,
                        },
                        Arg {
                            keyword: Some("mask".into()),
                            value: m1,
                        },
                    ],
                });
                let n = self.b().call("count", vec![m2]);
                Some(self.b().div(s, n))
            }
            Rule::Product => {
                let x = *pos.first()?;
                let dx = self.tan(x)?;
                let xx = self.cp(x);
                let p = self.b().call("product", vec![xx]);
                let dxp = self.b().factor(dx);
                let m = self.b().mul(dxp, p);
                let x2 = self.cp(x);
                let q = self.b().div(m, x2);
                Some(self.b().call("sum", vec![q]))
            }
        }
    }

    fn is_trivial(&self, e: ExprId) -> bool {
        matches!(self.u.exprs[e], Expr::Literal(_) | Expr::Name(_))
    }

    /// Rank of a primal expression (Fortran arrays; C is always 0).
    fn rank_of(&self, e: ExprId) -> usize {
        if self.lang == Lang::C {
            return 0;
        }
        match &self.src.exprs[e] {
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
                    match &self.src.exprs[*base] {
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
            _ => 0,
        }
    }

    /// Builds a partial-derivative template with the primal arguments.
    fn instantiate(&mut self, t: &Tpl, args: &[ExprId], kind: u32) -> ExprId {
        match t {
            Tpl::Arg(i) => self.cp(args[*i]),
            Tpl::Num(n) => {
                if n.contains('.') {
                    self.b().real(n, kind)
                } else {
                    self.b().int(n.parse().unwrap_or(1))
                }
            }
            Tpl::Pi => {
                let m1 = self.b().real("-1.0", kind);
                self.b().call("acos", vec![m1])
            }
            Tpl::Neg(a) => {
                let x = self.instantiate(a, args, kind);
                let x = self.b().factor(x);
                self.b().neg(x)
            }
            Tpl::Bin('^', a, b)
                if matches!((&**a, &**b), (Tpl::Arg(0), Tpl::Arg(1)))
                    && self.is_current_call("pow", &[]) =>
            {
                // `x0**x1` in the row of `pow`: the call itself.
                self.cp(self.cur_call.expect("set").0)
            }
            Tpl::Bin(op, a, b) => {
                let x = self.instantiate(a, args, kind);
                let y = self.instantiate(b, args, kind);
                let op = match op {
                    '+' => BinOp::Add,
                    '-' => BinOp::Sub,
                    '*' => BinOp::Mul,
                    '/' => BinOp::Div,
                    _ => BinOp::Pow,
                };
                if let (Some(a), Some(b)) = (self.number(x), self.number(y)) {
                    // Fold constants: `x1 - 1` with `x1 = 2` is `1`.
                    let v = match op {
                        BinOp::Add => Some(a.0 + b.0),
                        BinOp::Sub => Some(a.0 - b.0),
                        BinOp::Mul => Some(a.0 * b.0),
                        _ => None,
                    };
                    if let Some(v) = v {
                        return self.constant(v, a.1 && b.1, kind);
                    }
                }
                // C's power is the call `pow(x, y)`: its arguments need no parentheses.
                let c_pow = op == BinOp::Pow && self.lang == Lang::C;
                let x = match op {
                    BinOp::Mul | BinOp::Div => self.b().factor(x),
                    BinOp::Pow if !c_pow => self.paren_if_compound(x),
                    _ => x,
                };
                let y = if !c_pow && matches!(op, BinOp::Mul | BinOp::Div | BinOp::Pow | BinOp::Sub)
                {
                    self.paren_if_compound(y)
                } else {
                    y
                };
                match op {
                    BinOp::Mul => self.b().mul(x, y),
                    BinOp::Div => self.b().div(x, y),
                    BinOp::Pow if self.number(y) == Some((1.0, true)) => x,
                    _ => self.b().bin(op, x, y),
                }
            }
            Tpl::Call(f, a) if self.is_current_call(f, a) => self.cp(self.cur_call.expect("set").0),
            Tpl::Call(f, a) => {
                let xs: Vec<ExprId> = a.iter().map(|x| self.instantiate(x, args, kind)).collect();
                match (f.as_str(), self.lang) {
                    ("sgn", Lang::Fortran) => {
                        let one = self.b().real("1.0", kind);
                        self.b().call("sign", vec![one, xs[0]])
                    }
                    ("sgn", Lang::C) => {
                        let one = self.b().real("1.0", kind);
                        self.b().call("copysign", vec![one, xs[0]])
                    }
                    ("trunc", Lang::Fortran) => self.b().call("aint", xs),
                    ("gamma", Lang::C) => self.b().call("tgamma", xs),
                    ("psi", _) => {
                        self.need_digamma();
                        // The helper is double precision.
                        let xs = if self.lang == Lang::Fortran && kind != 8 {
                            xs.into_iter()
                                .map(|x| self.b().call("dble", vec![x]))
                                .collect()
                        } else {
                            xs
                        };
                        self.b().call("radtap_digamma", xs)
                    }
                    (f, _) => self.b().call(f, xs),
                }
            }
        }
    }

    fn need_digamma(&mut self) {
        if self.g.needs_digamma && self.digamma_declared {
            return;
        }
        self.g.needs_digamma = true;
        if self.lang == Lang::Fortran && !self.digamma_declared {
            let s = self.g.new_symbol(self.u.scope, "radtap_digamma", None);
            let t = Type {
                base: BaseClass::Real,
                bytes: Some(8),
                dims: Vec::new(),
                pointers: 0,
            };
            self.u.decls.push(Decl::Var(VarDecl {
                spec: spec_of_type(Lang::Fortran, &t),
                attrs: vec![Attr::Keyword("external".into())],
                entities: vec![plain_entity(s)],
                double_colon: true,
            }));
        }
        self.digamma_declared = true;
    }

    /// The derivative of a reference: the same access path on the derivative variable, with
    /// the direction index in vector mode.
    fn dref(&mut self, e: ExprId, dir: Dir) -> Option<ExprId> {
        // C: the row of all directions is the derivative object itself (`xd[i]`).
        let dir = if self.lang == Lang::C && dir == Dir::All {
            Dir::Omit
        } else {
            dir
        };
        let src = self.src;
        match &src.exprs[e] {
            Expr::Name(s) => {
                let ds = *self.dvar.get(s)?;
                let n = self.b().name(ds);
                if !self.vector || dir == Dir::Omit {
                    return Some(n);
                }
                let ty = self.prog().symbols[*s].ty.clone();
                let rank = ty.as_ref().map_or(0, |t| t.dims.len());
                let ptrs = ty.as_ref().map_or(0, |t| t.pointers);
                match self.lang {
                    Lang::Fortran => {
                        let mut subs = vec![self.dir_sub(dir)];
                        for _ in 0..rank {
                            subs.push(Subscript::Range(None, None, None));
                        }
                        Some(self.b().index(n, subs))
                    }
                    Lang::C => {
                        if rank + ptrs as usize == 0 {
                            let d = self.dir_sub(dir);
                            Some(self.b().index(n, vec![d]))
                        } else {
                            Some(n)
                        }
                    }
                }
            }
            Expr::Index { base, subs } => {
                match self.lang {
                    Lang::Fortran => {
                        if let Expr::Name(s) = src.exprs[*base] {
                            let ds = *self.dvar.get(&s)?;
                            let n = self.b().name(ds);
                            let mut subs2 = Vec::new();
                            if self.vector && dir != Dir::Omit {
                                subs2.push(self.dir_sub(dir));
                            }
                            for sub in subs {
                                subs2.push(self.cp_sub(sub));
                            }
                            Some(self.b().index(n, subs2))
                        } else {
                            let b = self.dref(*base, dir)?;
                            let subs2 = subs.iter().map(|x| self.cp_sub(x)).collect();
                            Some(self.b().index(b, subs2))
                        }
                    }
                    Lang::C => {
                        // Peel the subscripts down to the variable.
                        let mut chain = Vec::new();
                        let mut cur = e;
                        while let Expr::Index { base, subs } = &src.exprs[cur] {
                            chain.push(subs.clone());
                            cur = *base;
                        }
                        let inner = match &src.exprs[cur] {
                            Expr::Name(s) => {
                                let ds = *self.dvar.get(s)?;
                                let ty = self.prog().symbols[*s].ty.clone();
                                let er = ty
                                    .as_ref()
                                    .map_or(0, |t| t.dims.len() + t.pointers as usize);
                                (self.b().name(ds), er)
                            }
                            // `s.f[i]`, `(*p)[i]`: the direction goes with the inner object.
                            _ => (self.dref(cur, dir)?, usize::MAX),
                        };
                        let (mut x, er) = inner;
                        for subs in chain.iter().rev() {
                            let subs2 = subs.iter().map(|s| self.cp_sub(s)).collect();
                            x = self.b().index(x, subs2);
                        }
                        if self.vector && dir != Dir::Omit && chain.len() == er {
                            let d = self.dir_sub(dir);
                            x = self.b().index(x, vec![d]);
                        }
                        Some(x)
                    }
                }
            }
            Expr::Field { base, field, arrow } => {
                // Components never active have no place in the derivative type.
                if let Some(td) = self.record_of(*base) {
                    let active = self.g.active_fields.get(&td).is_some_and(|a| {
                        a.iter().any(|f| match self.lang {
                            Lang::C => f == field,
                            Lang::Fortran => f.eq_ignore_ascii_case(field),
                        })
                    });
                    if !active {
                        return None;
                    }
                }
                if *arrow && self.vector && dir != Dir::Omit {
                    // `p->x` is `(*p).x`: `(*pd)[nd].x`.
                    let p = self.dptr(*base)?;
                    let d = self.b().e(Expr::Unary {
                        op: UnOp::Deref,
                        arg: p,
                    });
                    let d = self.b().e(Expr::Paren(d));
                    let ds = self.dir_sub(dir);
                    let x = self.b().index(d, vec![ds]);
                    return Some(self.b().e(Expr::Field {
                        base: x,
                        field: field.clone(),
                        arrow: false,
                    }));
                }
                let b = if *arrow {
                    self.dptr(*base)?
                } else {
                    self.dref(*base, dir)?
                };
                Some(self.b().e(Expr::Field {
                    base: b,
                    field: field.clone(),
                    arrow: *arrow,
                }))
            }
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => {
                let p = self.dptr(*arg)?;
                let d = self.b().e(Expr::Unary {
                    op: UnOp::Deref,
                    arg: p,
                });
                if self.vector && dir != Dir::Omit {
                    let d = self.b().e(Expr::Paren(d));
                    let ds = self.dir_sub(dir);
                    Some(self.b().index(d, vec![ds]))
                } else {
                    Some(d)
                }
            }
            Expr::Paren(a) => {
                let d = self.dref(*a, dir)?;
                Some(self.b().e(Expr::Paren(d)))
            }
            _ => None,
        }
    }

    /// The record type of a primal reference (`s`, `a(i)`, `s%inner`, `p->q`), if known.
    fn record_of(&self, e: ExprId) -> Option<TypeDefId> {
        let ty = |s: SymbolId| match self.prog().symbols[s].ty.as_ref()?.base {
            BaseClass::Record(td) => Some(td),
            _ => None,
        };
        match &self.src.exprs[e] {
            Expr::Name(s) => ty(*s),
            Expr::Index { base, .. } | Expr::Paren(base) => self.record_of(*base),
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

    fn dir_sub(&mut self, dir: Dir) -> Subscript {
        match dir {
            Dir::Nd | Dir::Omit => {
                let nd = {
                    let v = self.nd.expect("vector");
                    self.b().name(v)
                };
                Subscript::Index(nd)
            }
            Dir::All => Subscript::Range(None, None, None),
            Dir::First => {
                let one = {
                    let v = if self.lang == Lang::C { 0 } else { 1 };
                    self.b().int(v)
                };
                Subscript::Index(one)
            }
        }
    }

    fn cp_sub(&mut self, s: &Subscript) -> Subscript {
        match s {
            Subscript::Index(e) => Subscript::Index(self.cp(*e)),
            Subscript::Range(a, b, c) => Subscript::Range(
                a.map(|x| self.cp(x)),
                b.map(|x| self.cp(x)),
                c.map(|x| self.cp(x)),
            ),
        }
    }

    /// The derivative of a C address expression: the same address in the derivative
    /// variables (`x + i` → `xd + i`, `&a[i]` → `&ad[i]`), or `None` when it designates
    /// memory without derivatives.
    fn dptr(&mut self, e: ExprId) -> Option<ExprId> {
        let src = self.src;
        match &src.exprs[e] {
            Expr::Name(s) => {
                let ds = *self.dvar.get(s)?;
                Some(self.b().name(ds))
            }
            Expr::Binary {
                op: op @ (BinOp::Add | BinOp::Sub),
                lhs,
                rhs,
            } => {
                if let Some(d) = self.dptr(*lhs) {
                    let r = self.cp(*rhs);
                    Some(self.b().bin(*op, d, r))
                } else if *op == BinOp::Add {
                    let d = self.dptr(*rhs)?;
                    let l = self.cp(*lhs);
                    Some(self.b().bin(BinOp::Add, l, d))
                } else {
                    None
                }
            }
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let d = self.dref(*arg, Dir::Omit)?;
                Some(self.b().e(Expr::Unary {
                    op: UnOp::AddrOf,
                    arg: d,
                }))
            }
            Expr::Paren(a) => {
                let d = self.dptr(*a)?;
                Some(self.b().e(Expr::Paren(d)))
            }
            Expr::Cast { ty, arg } if !self.vector => {
                let d = self.dptr(*arg)?;
                let ty = Copier { src }.cparam(&mut self.u, ty);
                Some(self.b().e(Expr::Cast { ty, arg: d }))
            }
            Expr::Cast { arg, .. } => self.dptr(*arg),
            Expr::Call { callee, args } => {
                let n = self.callee_name(*callee);
                if !matches!(n.as_str(), "malloc" | "calloc") {
                    return None;
                }
                let mut c = Copier { src }.expr(&mut self.u, e);
                if self.vector {
                    // Room for every direction.
                    if let Expr::Call { args: a2, .. } = &self.u.exprs[c] {
                        let last = a2.last().map(|a| a.value);
                        if let Some(l) = last {
                            let nb = self.b().opaque("NBDirsMax");
                            let l2 = self.paren_if_compound(l);
                            let m = self.b().bin(BinOp::Mul, l2, nb);
                            if let Expr::Call { args: a3, .. } = &mut self.u.exprs[c] {
                                if let Some(x) = a3.last_mut() {
                                    x.value = m;
                                }
                            }
                        }
                    }
                    c = self.b().e(Expr::Paren(c));
                }
                let _ = args;
                Some(c)
            }
            Expr::Index { .. }
            | Expr::Field { .. }
            | Expr::Unary {
                op: UnOp::Deref, ..
            } => {
                // A pointer stored in memory (`p->next`, `ptrs[i]`): its derivative twin.
                self.dref(e, Dir::Omit)
            }
            _ => None,
        }
    }
}
