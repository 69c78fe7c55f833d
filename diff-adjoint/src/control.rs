//! Control codes recorded in the forward sweep and popped in the backward one: integer
//! temporaries, their pushes and pops, branch variables and the tests on them, static loop
//! bounds.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    pub(crate) fn int_temp(&mut self, base: &str) -> SymbolId {
        self.pg.temp(base, TempKind::Int)
    }

    pub(crate) fn int_push(&mut self, e: ExprId) -> StmtId {
        self.rt("pushInteger4", vec![e])
    }

    pub(crate) fn int_pop(&mut self, v: SymbolId) -> StmtId {
        let n = self.pg.b().name(v);
        let a = match self.pg.f.lang {
            Lang::C => self.addr_of(n),
            Lang::Fortran => n,
        };
        self.rt("popInteger4", vec![a])
    }

    /// Whether the loop-control point of `s` reads only values nothing in the procedure
    /// writes (besides the loop variable): its bounds can be re-evaluated backwards.
    pub(crate) fn static_bounds(&self, s: StmtId, part: Part, var_zones: &ZoneSet) -> bool {
        let Some(i) = self.pg.f.pi.point_id(Point { stmt: s, part }) else {
            return false;
        };
        let mut r = self.pg.f.pi.effects[i].reads.clone();
        r.subtract(var_zones);
        r.subtract(&self.restored_vars);
        !r.intersects(&self.written_anywhere)
    }

    pub(crate) fn branch_var(&mut self) -> SymbolId {
        if let Some(b) = self.branch {
            return b;
        }
        let b = self.int_temp("branch");
        self.branch = Some(b);
        b
    }

    pub(crate) fn eq_test(&mut self, v: SymbolId, k: i64) -> ExprId {
        let n = self.pg.b().name(v);
        let c = self.pg.b().int(k);
        self.pg.b().bin(BinOp::Eq(RelSpell::Symbol), n, c)
    }

    pub(crate) fn push_control(&mut self, bits: u32, k: usize) -> StmtId {
        let c = self.pg.b().int(k as i64);
        self.rt(&format!("pushControl{bits}b"), vec![c])
    }

    pub(crate) fn pop_control(&mut self, bits: u32, v: SymbolId) -> StmtId {
        self.control_pops += 1;
        let n = self.pg.b().name(v);
        let a = match self.pg.f.lang {
            Lang::C => self.addr_of(n),
            Lang::Fortran => n,
        };
        self.rt(&format!("popControl{bits}b"), vec![a])
    }

    pub(crate) fn control_bits(n: usize) -> u32 {
        let mut b = 1;
        while (1usize << b) < n {
            b += 1;
        }
        b
    }
}
