//! The file-scope declarations of a C output file: types, globals and their derivatives,
//! prototypes, inline definitions copied from headers.

use crate::gen::Gen;
use crate::proc_::BodyRules;
use radtap_il::copy::Copier;
use radtap_il::*;
use std::path::Path;

impl Gen<'_> {
    /// The C file's declarations, in order: preprocessor lines, types and their derivative
    /// types, globals as `extern` with their derivatives, prototypes of primal functions and
    /// copies of `static` ones, then the derivative functions.
    pub(super) fn c_file_decls(
        &mut self,
        cu: UnitId,
        fid: UnitId,
        fu: &mut UnitData,
        funcs: &mut Vec<Decl>,
        st: &mut CFiles,
        rules: &dyn BodyRules,
    ) {
        let header = st.in_header;
        let prog = self.prog;
        let src = &prog.units[cu];
        let c = Copier { src };
        if self.opts.vector && !st.diffsizes {
            fu.decls
                .push(Decl::Preproc("#include \"DIFFSIZES.h\"".into()));
            st.diffsizes = true;
        }
        // The comments right above a function go above its derivatives.
        let mut above = Vec::new();
        for d in src.decls.clone() {
            if let Decl::Comment(_) = d {
                above.push(d);
                continue;
            }
            let above = std::mem::take(&mut above);
            match &d {
                Decl::Preproc(line) => {
                    // A header's own lines stay in the header, which the output includes.
                    if !header {
                        fu.decls.push(d.clone());
                    }
                    // The derivative types of an included header's types come right after
                    // its `#include`.
                    if let Some(hf) = quoted_include(line).and_then(|n| {
                        (0..prog.files.len()).find(|&fi| {
                            prog.files[fi].header
                                && !st.headers_done.contains(&fi)
                                && Path::new(&prog.files[fi].path).ends_with(n)
                        })
                    }) {
                        st.headers_done.push(hf);
                        st.in_header = true;
                        for it in prog.files[hf].items.clone() {
                            if let FileItem::Unit(hu) = it {
                                self.c_file_decls(hu, fid, fu, funcs, st, rules);
                            }
                        }
                        st.in_header = header;
                    }
                }
                Decl::TypeDef(td) if header => {
                    if self.dtype.contains_key(td) {
                        let dd = self.type_decl(*td, fu);
                        fu.decls.push(dd);
                    }
                }
                Decl::Var(v) if header && !self.has_derivative_global(v) => {
                    if let Some(td) = v.spec.inline_def {
                        if self.dtype.contains_key(&td) {
                            let dd = self.type_decl(td, fu);
                            fu.decls.push(dd);
                        }
                    }
                }
                Decl::TypeDef(td) => {
                    // The primal type, its field bounds copied into this unit.
                    let fields: Vec<Decl> = prog.typedefs[*td]
                        .fields
                        .iter()
                        .map(|f| {
                            Copier {
                                src: &prog.units[prog.typedefs[*td].unit],
                            }
                            .decl(fu, f)
                        })
                        .collect();
                    let mut def = prog.typedefs[*td].clone();
                    def.fields = fields;
                    def.unit = fid;
                    let id = self.out.typedefs.alloc(def);
                    fu.decls.push(Decl::TypeDef(id));
                    if self.dtype.contains_key(td) {
                        let dd = self.type_decl(*td, fu);
                        fu.decls.push(dd);
                    }
                }
                Decl::Var(v) => {
                    let is_typedef = v
                        .attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "typedef"));
                    let is_proto = v
                        .entities
                        .iter()
                        .all(|e| e.derived.iter().any(|o| matches!(o, DeclOp::Function(..))));
                    if is_typedef || is_proto {
                        let mut x = c.decl(fu, &d);
                        self.copy_inline_def(&mut x, fid, fu);
                        fu.decls.push(x);
                        if let Some(td) = v.spec.inline_def {
                            if self.dtype.contains_key(&td) {
                                let dd = self.type_decl(td, fu);
                                fu.decls.push(dd);
                            }
                        }
                        continue;
                    }
                    let is_static = v
                        .attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Keyword(k) if k == "static"));
                    let mut ext = c.decl(fu, &d);
                    self.copy_inline_def(&mut ext, fid, fu);
                    if let Decl::Var(ev) = &mut ext {
                        if !is_static {
                            ev.attrs
                                .retain(|a| !matches!(a, Attr::Keyword(k) if k == "extern"));
                            ev.attrs.insert(0, Attr::Keyword("extern".into()));
                            for e in &mut ev.entities {
                                e.init = None;
                            }
                        }
                    }
                    fu.decls.push(ext);
                    // Derivative globals.
                    let dents: Vec<Entity> = v
                        .entities
                        .iter()
                        .filter_map(|e| {
                            let ds = *self.dglobal.get(&e.sym)?;
                            let mut e2 = e.clone();
                            e2.sym = ds;
                            e2.init = None;
                            Some(e2)
                        })
                        .collect();
                    if header {
                        // The primal declaration is the header's.
                        fu.decls.pop();
                    }
                    if !dents.is_empty() {
                        let mut dv = v.clone();
                        dv.entities = dents;
                        // File-scope `static` state keeps a file-local derivative: the
                        // tangent's `sd` and the vector tangent's `sd[NBDirsMax]` link together.
                        dv.attrs.retain(
                            |a| !matches!(a, Attr::Keyword(k) if k == "extern" || k == "static"),
                        );
                        if is_static {
                            dv.attrs.insert(0, Attr::Keyword("static".into()));
                        }
                        // The derivative of a `const` global is set by the caller or the
                        // adjoint: never const.
                        dv.spec.qualifiers.retain(|q| q != "const");
                        if let BaseClass::Record(td) = v.spec.class {
                            let (_, n) = self.derivative_type(td);
                            dv.spec.keyword = "struct".into();
                            dv.spec.name = Some(n);
                            dv.spec.inline_def = None;
                        }
                        let mut dd = c.decl(fu, &Decl::Var(dv));
                        if self.opts.vector {
                            if let Decl::Var(v) = &mut dd {
                                for e in &mut v.entities {
                                    let n = fu.exprs.alloc(Expr::Opaque("NBDirsMax".into()));
                                    e.derived.insert(0, DeclOp::Array(Some(n)));
                                }
                            }
                        }
                        fu.decls.push(dd);
                    }
                }
                Decl::Unit(f) => {
                    let f = *f;
                    let fdata = &prog.units[f];
                    let is_static = fdata.attrs.prefixes.iter().any(|p| p == "static");
                    if header || prog.described.contains_key(&f) {
                        // Defined in the header, which the output includes; a described
                        // routine's prototype is its library's header's.
                    } else if is_static {
                        let copy = self.copy_unit(f, Some(fid));
                        fu.decls.push(Decl::Unit(copy));
                    } else {
                        {
                            let x = self.prototype(f, fu);
                            fu.decls.push(x);
                        }
                    }
                    if self.active.contains(&f) {
                        for (i, d) in self.proc_units(f, Some(fid), rules).into_iter().enumerate() {
                            if i == 0 {
                                // Written above the function, before its header comment.
                                let texts = above.iter().filter_map(|c| match c {
                                    Decl::Comment(t) => Some(Directive::comment(t.clone())),
                                    _ => None,
                                });
                                self.out.units[d].directives.splice(0..0, texts);
                            }
                            funcs.push(Decl::Unit(d));
                        }
                    }
                }
                Decl::Comment(_)
                | Decl::TrailingComment(_)
                | Decl::Directive(_)
                | Decl::Verbatim(_) => {}
                Decl::Use(..)
                | Decl::Implicit(_)
                | Decl::Parameter(_)
                | Decl::Common(_)
                | Decl::Equivalence(_)
                | Decl::Data(_)
                | Decl::Attr(_)
                | Decl::Interface(_)
                | Decl::StmtFunction { .. }
                | Decl::Enumerators(_) => {}
            }
        }
    }

    /// Points a copied declaration's inline struct definition at a copy whose field bounds
    /// live in `fu`.
    fn copy_inline_def(&mut self, d: &mut Decl, fid: UnitId, fu: &mut UnitData) {
        let Decl::Var(v) = d else { return };
        let Some(td) = v.spec.inline_def else { return };
        let prog = self.prog;
        let src = &prog.units[prog.typedefs[td].unit];
        let fields: Vec<Decl> = prog.typedefs[td]
            .fields
            .iter()
            .map(|f| Copier { src }.decl(fu, f))
            .collect();
        let mut def = prog.typedefs[td].clone();
        def.fields = fields;
        def.unit = fid;
        v.spec.inline_def = Some(self.out.typedefs.alloc(def));
    }

    /// A prototype for a C function of the primal program.
    fn prototype(&mut self, f: UnitId, fu: &mut UnitData) -> Decl {
        prototype_of(&self.prog.units[f], fu)
    }
}

/// What the C output has taken in so far, across its input files and headers.
#[derive(Default)]
pub(super) struct CFiles {
    /// `#include "DIFFSIZES.h"` is written (vector mode).
    pub(super) diffsizes: bool,
    /// The headers (file indices) whose derivative types are written.
    pub(super) headers_done: Vec<usize>,
    /// The declarations being taken in are a header's (included, not copied).
    pub(super) in_header: bool,
}

/// A prototype of C function `src`, its types' expressions copied into unit `fu`.
pub(crate) fn prototype_of(src: &UnitData, fu: &mut UnitData) -> Decl {
    let c = Copier { src };
    let params: Vec<CParam> = src.c_params.iter().map(|p| c.cparam(fu, p)).collect();
    let mut ops = c.ops(fu, &src.ret_derived);
    ops.push(DeclOp::Function(params, src.c_variadic));
    let spec = src.header_type.clone().unwrap_or(TypeSpec {
        class: BaseClass::Void,
        keyword: "void".into(),
        name: None,
        kind: KindSel::Default,
        char_len: None,
        bytes: None,
        qualifiers: Vec::new(),
        inline_def: None,
    });
    let spec = c.spec(fu, &spec);
    Decl::var(VarDecl {
        spec,
        attrs: Vec::new(),
        entities: vec![Entity {
            sym: src.name.expect("C function has a name"),
            dims: None,
            char_len: None,
            derived: ops,
            init: None,
        }],
        double_colon: false,
    })
}

/// The name of a quoted include line (`#include "defs.h"`).
pub(super) fn quoted_include(line: &str) -> Option<&str> {
    let t = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = t.strip_prefix("include")?.trim_start().strip_prefix('"')?;
    rest.split_once('"').map(|(name, _)| name)
}
