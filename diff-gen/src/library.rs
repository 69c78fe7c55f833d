//! Described routines in the generated file: their derivative units, built like any other's
//! from the stand-in (`radtap_frontends::library`), are replaced by what the file needs instead
//! — radtap's own derivative for a built-in record (BLAS calls), or, for a `-ext` routine, a
//! comment saying what the user supplies and (C) its prototype.

use crate::gen::{unit_name, Gen};
use radtap_il::*;

impl Gen<'_> {
    /// Replaces the derivative units of described routines in output file `file`.
    pub(crate) fn replace_described(&mut self, file: usize) {
        let generated = self.generated.clone();
        for (p, d) in generated {
            let Some(desc) = self.prog.described.get(&p) else {
                continue;
            };
            let name = self.out.units[d]
                .name
                .map(|s| self.out.symbols[s].spelling.clone())
                .unwrap_or_default();
            let lines: Vec<String> = if desc.builtin {
                let which = match (self.lang, self.opts.adjoint) {
                    (Lang::Fortran, false) => "f_d",
                    (Lang::Fortran, true) => "f_b",
                    (Lang::C, false) => "c_d",
                    (Lang::C, true) => "c_b",
                };
                let text = (!self.opts.vector)
                    .then(|| library::builtin_derivative(which, &name))
                    .flatten();
                let Some(text) = text else {
                    let at = self.call_site_of(p);
                    self.diags.push(Diagnostic::error(
                        Code::Unsupported,
                        at,
                        format!(
                            "the {} of `{}` (built-in {}) is not written yet; give the routine's source with the other files",
                            if self.opts.vector { "vector tangent" } else { "derivative" },
                            unit_name(self.prog, p),
                            if library::is_mpi(desc) { "MPI" } else { "BLAS" }
                        ),
                    ));
                    continue;
                };
                text.lines().map(str::to_string).collect()
            } else {
                self.supplied_comment(p, d, &name, desc)
            };
            let proto = self.lang == Lang::C && !desc.builtin;
            self.swap_unit(file, d, lines, proto);
        }
    }

    /// A statement calling `p` in a differentiated procedure, to locate a message.
    fn call_site_of(&self, p: UnitId) -> Span {
        for &q in &self.active {
            for c in self.info.callgraph.sites_of(q) {
                if matches!(&c.callee, radtap_flowgraph::Callee::Defined(l) if l.contains(&p)) {
                    if let Some(sp) = self.prog.units[q].source_map.stmt.get(c.stmt) {
                        return *sp;
                    }
                }
            }
        }
        Span::default()
    }

    /// The comment that stands for a `-ext` routine's derivative: what the user supplies.
    fn supplied_comment(
        &self,
        p: UnitId,
        d: UnitId,
        name: &str,
        desc: &library::Description,
    ) -> Vec<String> {
        let lead = match self.lang {
            Lang::Fortran => "!",
            Lang::C => "//",
        };
        let du = &self.out.units[d];
        let params: Vec<&str> = du
            .params
            .iter()
            .map(|&s| self.out.symbols[s].spelling.as_str())
            .collect();
        let what = if self.opts.vector {
            "as the tangent `NAME_d` does, for each of the first `nbdirs` directions, which every derivative argument carries as its first (Fortran) or last (C) index"
        } else if self.opts.adjoint {
            "on entry the primal arguments hold the values of the call, each adjoint argument the adjoint of that argument after the call; on return, each holds the adjoint of that argument before the call (x̄ := Jᵀ x̄ over all arguments)"
        } else {
            "each derivative argument holds the tangent of that argument on entry and, on return, the tangent of its value after the call; the primal arguments are computed as the primal does"
        };
        let mut v = vec![
            format!(
                "{lead} `{name}` is supplied by you: `{}` has no source (described in {}).",
                unit_name(self.prog, p),
                desc.origin
            ),
            format!("{lead}   {name}({})", params.join(", ")),
            format!("{lead}   {what}."),
        ];
        for dcl in &du.decls {
            if let Decl::Comment(c) = dcl {
                let c = c.trim_start_matches(lead).trim();
                if c.starts_with("derivative arguments") {
                    v.push(format!("{lead}   {c}"));
                }
            }
        }
        v
    }

    /// Puts `lines` (and, with `proto`, the C prototype of `d`, a derivative the user
    /// supplies) where unit `d` is in file `file`, and drops `d`.
    fn swap_unit(&mut self, file: usize, d: UnitId, lines: Vec<String>, proto: bool) {
        let src = proto.then(|| self.out.units[d].clone());
        let items = std::mem::take(&mut self.out.files[file].items);
        let mut out = Vec::new();
        for it in items {
            match it {
                FileItem::Unit(u) if u == d => {
                    out.extend(lines.iter().cloned().map(FileItem::Comment));
                }
                FileItem::Unit(u) => {
                    // C: before the first function, which may call it.
                    let decls = std::mem::take(&mut self.out.units[u].decls);
                    let had = decls.iter().any(|x| matches!(x, Decl::Unit(x) if *x == d));
                    let mut nd = Vec::new();
                    let mut placed = !had;
                    for dcl in decls {
                        if !placed && matches!(dcl, Decl::Unit(_)) {
                            nd.extend(lines.iter().cloned().map(Decl::Preproc));
                            if let Some(src) = &src {
                                let fu = &mut self.out.units[u];
                                nd.push(crate::assemble::c_file::prototype_of(src, fu));
                            }
                            placed = true;
                        }
                        if !matches!(dcl, Decl::Unit(x) if x == d) {
                            nd.push(dcl);
                        }
                    }
                    self.out.units[u].decls = nd;
                    self.out.units[u].contains.retain(|&x| x != d);
                    out.push(FileItem::Unit(u));
                }
                other => out.push(other),
            }
        }
        self.out.files[file].items = out;
    }
}
