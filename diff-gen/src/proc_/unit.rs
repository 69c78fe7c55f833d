//! Building one derivative unit: the new unit and its scope, then variables, header,
//! declarations, the body from the mode's rules, and the closing declarations.

use super::*;

impl<'g, 'a> ProcGen<'g, 'a> {
    /// Generates one unit of `p`'s derivative: the whole of it, or one sweep of a split
    /// adjoint; `parent` is the derivative module or C file unit, and the body comes from
    /// `rules`.
    pub(crate) fn run_sweep(
        g: &'g mut Gen<'a>,
        p: UnitId,
        parent: Option<UnitId>,
        sweep: Sweep,
        rules: &dyn BodyRules,
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
        // The USE imports of the original, so that names renamed by `USE m, only: l => r`
        // are written under their local names.
        g.out.scopes[scope].uses = prog.scopes[src.scope].uses.clone();
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
        let f = Facts {
            p,
            src,
            pi,
            act,
            lang: src.lang,
            vector: g.opts.vector,
            adjoint: g.opts.adjoint,
            sweep,
        };
        let mut pg = ProcGen {
            f,
            g,
            u,
            dvar: HashMap::new(),
            local: HashSet::new(),
            suffixes: HashMap::new(),
            nd: None,
            nbdirs: None,
            temps: Vec::new(),
            has_complex: std::cell::OnceCell::new(),
            extern_funcs: Vec::new(),
            entry_copies: Vec::new(),
            shared: Vec::new(),
            shared_at: HashMap::new(),
            reuse: Reuse::default(),
            kinds: Default::default(),
            ranks: Default::default(),
            sizes: Default::default(),
            in_masked: false,
            in_branch: 0,
            cur_call: None,
            lost_derivative: false,
            post_call: Vec::new(),
            lost_value: None,
            no_rule: None,
            dir_loops: HashSet::new(),
            hoisted: HashMap::new(),
            cur: ZoneSet::new(n),
            result_ptr: None,
            pre: Vec::new(),
            c_local_decls: Vec::new(),
            digamma_declared: false,
            deriv_only: false,
            run_counter: None,
            run_seen: None,
            counts: false,
            refs: None,
            adj_by_ptr: Vec::new(),
        };
        // A C variadic function (`...`): its derivative would drop the variable arguments
        // that its callers pass (`f_d(x, xd, 1, &f)` did not compile).
        if src.c_variadic {
            let sp = src.source_map.header.unwrap_or_default();
            pg.g.diags.push(Diagnostic::error(
                Code::Unsupported,
                sp,
                "a variadic C function (`...`) with a derivative is not supported yet",
            ));
        }
        pg.choose_variables();
        pg.header();
        pg.declarations();
        let body = rules.body(&mut pg);
        pg.u.body = body;
        pg.finish_declarations();
        if pg.f.adjoint && pg.f.lang == Lang::C {
            pg.drop_register();
        }
        let id = pg.g.out.units.alloc(pg.u);
        pg.g.out.scopes[scope].kind = ScopeKind::Unit(id);
        id
    }
}
