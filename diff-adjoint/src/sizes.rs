//! Element counts of what the adjoint records whole: `-size` expressions (the user's, or
//! counted from the callers' allocations), parsed into expressions of the unit being built
//! over variables visible there.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// The `-size` text given for variable `s` of this procedure (`y` or `proc.y`), else the
    /// element count the code shows for a pointer parameter (`ProcGen::inferred_size`).
    pub(crate) fn user_size_text(&self, s: SymbolId) -> Option<String> {
        let name = self.pg.prog().symbols[s].spelling.to_ascii_lowercase();
        let qual = format!(
            "{}.{name}",
            unit_name(self.pg.prog(), self.pg.f.p).to_ascii_lowercase()
        );
        self.pg
            .g
            .opts
            .sizes
            .iter()
            .rev()
            .find(|(k, _)| *k == qual)
            .or_else(|| self.pg.g.opts.sizes.iter().rev().find(|(k, _)| *k == name))
            .map(|(_, v)| v.clone())
            .or_else(|| self.pg.inferred_size(s))
            .or_else(|| self.callers_count(s))
    }

    /// The count of the records a pointer parameter designates, from the allocations its
    /// callers pass (`radtap_il::member_count::count_from_callers`: `absolutes` of
    /// `relatives_to_absolutes(bone_count, relatives, parents, absolutes)`, which its one
    /// caller allocated by `get_matrix_array(bone_count)`); not for a head, whose callers
    /// are not in the program.
    pub(crate) fn callers_count(&self, s: SymbolId) -> Option<String> {
        let prog = self.pg.prog();
        let t = prog.symbols[s].ty.as_ref()?;
        if self.pg.f.lang != Lang::C
            || !matches!(t.base, BaseClass::Record(_))
            || self.pg.g.info.heads.iter().any(|h| h.head == self.pg.f.p)
        {
            return None;
        }
        radtap_il::member_count::count_from_callers(prog, self.pg.f.p, s)
    }

    /// The element count given by `-size` for `s`, built in the output unit.
    pub(crate) fn user_size(&mut self, s: SymbolId) -> Option<Result<ExprId, String>> {
        let given = self.user_size_text(s)?;
        // Extents (`-size a=lda,n`, validate's spelling of a rank-2 array): their product.
        let text = if given.contains(',') {
            given
                .split(',')
                .map(|x| format!("({})", x.trim()))
                .collect::<Vec<_>>()
                .join("*")
        } else {
            given.clone()
        };
        let name = self.pg.name_of(s).to_string();
        Some(
            self.size_expr(&text)
                .map_err(|e| format!("-size {name}={given}: {e}; recording `{name}`")),
        )
    }

    /// Parses an integer expression (names, integers, `+ - * /`, parentheses) with names
    /// resolved in this procedure.
    pub(crate) fn size_expr(&mut self, text: &str) -> Result<ExprId, String> {
        let toks: Vec<String> = {
            let mut v = Vec::new();
            let cs: Vec<char> = text.chars().collect();
            let mut i = 0;
            while i < cs.len() {
                let c = cs[i];
                if c.is_whitespace() {
                    i += 1;
                } else if c.is_ascii_alphanumeric() || c == '_' {
                    let st = i;
                    while i < cs.len() && (cs[i].is_ascii_alphanumeric() || cs[i] == '_') {
                        i += 1;
                    }
                    v.push(cs[st..i].iter().collect());
                } else if "+-*/()".contains(c) {
                    v.push(c.to_string());
                    i += 1;
                } else {
                    return Err(format!("unexpected `{c}`"));
                }
            }
            v
        };
        let mut pos = 0;
        let e = self.size_sum(&toks, &mut pos)?;
        if pos != toks.len() {
            return Err(format!("unexpected `{}`", toks[pos]));
        }
        Ok(e)
    }

    fn size_sum(&mut self, t: &[String], pos: &mut usize) -> Result<ExprId, String> {
        let mut e = self.size_product(t, pos)?;
        while let Some(op) = t.get(*pos).filter(|x| *x == "+" || *x == "-") {
            let op = if op == "+" { BinOp::Add } else { BinOp::Sub };
            *pos += 1;
            let r = self.size_product(t, pos)?;
            e = self.pg.b().bin(op, e, r);
        }
        Ok(e)
    }

    fn size_product(&mut self, t: &[String], pos: &mut usize) -> Result<ExprId, String> {
        let mut e = self.size_atom(t, pos)?;
        while let Some(op) = t.get(*pos).filter(|x| *x == "*" || *x == "/") {
            let op = if op == "*" { BinOp::Mul } else { BinOp::Div };
            *pos += 1;
            let r = self.size_atom(t, pos)?;
            e = self.pg.b().bin(op, e, r);
        }
        Ok(e)
    }

    fn size_atom(&mut self, t: &[String], pos: &mut usize) -> Result<ExprId, String> {
        let tok = t.get(*pos).cloned().ok_or("incomplete expression")?;
        *pos += 1;
        if tok == "(" {
            let e = self.size_sum(t, pos)?;
            if t.get(*pos).map(String::as_str) != Some(")") {
                return Err("missing `)`".into());
            }
            *pos += 1;
            return Ok(self.pg.b().e(Expr::Paren(e)));
        }
        if let Ok(v) = tok.parse::<i64>() {
            return Ok(self.pg.b().int(v));
        }
        if tok
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            let key = key(self.pg.f.lang, &tok);
            let sym = self
                .pg
                .prog()
                .lookup(self.pg.f.src.scope, &key)
                .filter(|s| {
                    self.pg.prog().symbols[*s]
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.base == BaseClass::Integer && t.dims.is_empty())
                })
                .ok_or_else(|| format!("`{tok}` is not an integer variable visible here"))?;
            return Ok(self.pg.b().name(sym));
        }
        Err(format!("unexpected `{tok}`"))
    }

    /// Whether a variable can be named in this procedure: its own, a parameter, a variable
    /// of a module it uses or lives in, a C global.
    pub(crate) fn visible(&self, x: SymbolId) -> bool {
        if self.pg.f.src.params.contains(&x) {
            return true;
        }
        let Some(owner) =
            radtap_dataflow::zones::unit_of_scope(self.pg.prog(), self.pg.prog().symbols[x].scope)
        else {
            return false;
        };
        if owner == self.pg.f.p {
            return true;
        }
        match self.pg.prog().units[owner].kind {
            UnitKind::CFile => true,
            // Through a USE of the procedure, of its host module, or of a module either
            // uses (re-exports), as the name lookup sees it.
            UnitKind::Module => {
                self.pg.f.src.parent == Some(owner)
                    || self
                        .pg
                        .prog()
                        .name_through(self.pg.f.src.scope, x, 0)
                        .is_some()
            }
            _ => false,
        }
    }
}
