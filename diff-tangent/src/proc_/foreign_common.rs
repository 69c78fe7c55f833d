//! COMMON blocks a callee uses that this procedure does not declare: the adjoint must record
//! their members around a call that overwrites them (the values its backward sweep needs),
//! so the derivative unit declares the block as the callee does (Tapenade does the same).

use super::*;
use radtap_il::visit::{decl_exprs, expr_children};

impl ProcGen<'_, '_> {
    /// Declares in this derivative unit the COMMON block of `x`, a member declared by another
    /// procedure, with every member of the block as that procedure declares them. Returns
    /// whether `x` can be named here: false where a member's name is taken in this procedure
    /// or its declaration needs a name that does not mean the same here.
    pub fn declare_foreign_common(&mut self, x: SymbolId) -> bool {
        let prog = self.g.prog;
        if self.lang != Lang::Fortran {
            return false;
        }
        let Some(blk) = prog.symbols[x].common else {
            return false;
        };
        // Declared here already (by the procedure or by an earlier copy): `x` is named here
        // when it is one of those members; another procedure's name for the same memory is
        // covered by them.
        let mut declared = self
            .u
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Common(bs) => Some(bs),
                _ => None,
            })
            .flatten()
            .filter(|(b, _)| *b == Some(blk))
            .peekable();
        if declared.peek().is_some() {
            return declared.any(|(_, es)| es.iter().any(|e| e.sym == x));
        }
        let Some(owner) = radtap_dataflow::zones::unit_of_scope(prog, prog.symbols[x].scope) else {
            return false;
        };
        if owner == self.p {
            return false;
        }
        let src = &prog.units[owner];
        if !matches!(
            src.kind,
            UnitKind::Subroutine | UnitKind::Function | UnitKind::Program
        ) {
            return false;
        }
        let members: Vec<Entity> = src
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Common(bs) => Some(bs),
                _ => None,
            })
            .flatten()
            .filter(|(b, _)| *b == Some(blk))
            .flat_map(|(_, es)| es.iter().cloned())
            .collect();
        if !members.iter().any(|e| e.sym == x) {
            return false;
        }
        let here = self.src.scope;
        let means_the_same = |s: SymbolId| {
            prog.lookup(here, &key(Lang::Fortran, &prog.symbols[s].spelling)) == Some(s)
        };
        let mut decls = Vec::new();
        for m in &members {
            if prog
                .lookup(here, &key(Lang::Fortran, &prog.symbols[m.sym].spelling))
                .is_some()
            {
                return false;
            }
            let explicit = src.decls.iter().find_map(|d| match d {
                Decl::Var(v) if v.entities.iter().any(|e| e.sym == m.sym) => Some(v),
                _ => None,
            });
            let v = match explicit {
                Some(v) => {
                    let mut v = VarDecl::clone(v);
                    v.entities.retain(|e| e.sym == m.sym);
                    v.attrs
                        .retain(|a| !matches!(a, Attr::Keyword(k) if k == "save"));
                    v
                }
                None => {
                    let Some(t) = &prog.symbols[m.sym].ty else {
                        return false;
                    };
                    let mut t = t.clone();
                    t.dims.clear(); // given by the COMMON statement
                    VarDecl {
                        spec: spec_of_type(Lang::Fortran, &t),
                        attrs: Vec::new(),
                        entities: vec![plain_entity(m.sym)],
                        double_colon: true,
                    }
                }
            };
            decls.push(Decl::var(v));
        }
        decls.push(Decl::Common(vec![(Some(blk), members)]));
        // Every name the copied declarations use (kinds, bounds) must mean the same here.
        let mut names = Vec::new();
        for d in &decls {
            let mut todo = Vec::new();
            decl_exprs(d, &mut |e| todo.push(e));
            while let Some(e) = todo.pop() {
                if let Expr::Name(s) = &src.exprs[e] {
                    names.push(*s);
                }
                expr_children(&src.exprs[e], &mut |c| todo.push(c));
            }
        }
        if !names.into_iter().all(means_the_same) {
            return false;
        }
        let c = Copier { src };
        for d in decls {
            let d = c.decl(&mut self.u, &d);
            self.u.decls.push(d);
        }
        true
    }
}
