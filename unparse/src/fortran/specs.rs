//! The text of a Fortran declaration's pieces: a type spec with its kind and length
//! (`real(8)`, `character(len=*)`), dimensions, an entity with its initial value, DATA values,
//! attributes, and a whole variable declaration line.

use super::writer::W;
use radtap_il::*;

impl W<'_> {
    pub(super) fn type_spec(&self, uid: UnitId, t: &TypeSpec) -> String {
        let mut s = t.keyword.clone();
        if let Some(n) = &t.name {
            s.push_str(&format!("({n})"));
        }
        match &t.kind {
            KindSel::Default => {}
            KindSel::Star(n) => s.push_str(&format!("*{n}")),
            KindSel::Paren(e) => s.push_str(&format!("({})", self.expr(uid, *e))),
            KindSel::Keyword(e) => s.push_str(&format!("(kind={})", self.expr(uid, *e))),
        }
        match &t.char_len {
            None => {}
            Some(CharLen::Star(l)) => match l {
                LenValue::Expr(e) => {
                    let es = self.expr(uid, *e);
                    if es.chars().all(|c| c.is_ascii_digit()) {
                        s.push_str(&format!("*{es}"))
                    } else {
                        s.push_str(&format!("*({es})"))
                    }
                }
                LenValue::Assumed => s.push_str("*(*)"),
                LenValue::Deferred => s.push_str("*(:)"),
            },
            Some(CharLen::Paren(l)) => s.push_str(&format!("({})", self.len_value(uid, l))),
            Some(CharLen::Keyword(l)) => s.push_str(&format!("(len={})", self.len_value(uid, l))),
        }
        s
    }

    pub(super) fn len_value(&self, uid: UnitId, l: &LenValue) -> String {
        match l {
            LenValue::Expr(e) => self.expr(uid, *e),
            LenValue::Assumed => "*".into(),
            LenValue::Deferred => ":".into(),
        }
    }

    pub(super) fn dims(&self, uid: UnitId, ds: &[Dim]) -> String {
        let parts: Vec<String> = ds
            .iter()
            .map(|d| {
                let up = match &d.upper {
                    DimUpper::Expr(e) => self.expr(uid, *e),
                    DimUpper::Assumed => "*".into(),
                    DimUpper::Deferred | DimUpper::Unsized => String::new(),
                };
                match (d.lower, &d.upper) {
                    (Some(l), _) => format!("{}:{}", self.expr(uid, l), up),
                    (None, DimUpper::Deferred | DimUpper::Unsized) => ":".into(),
                    (None, _) => up,
                }
            })
            .collect();
        format!("({})", parts.join(", "))
    }

    pub(super) fn entity(&self, uid: UnitId, en: &Entity) -> String {
        let mut s = self.name(en.sym).to_string();
        if let Some(d) = &en.dims {
            s.push_str(&self.dims(uid, d));
        }
        match &en.char_len {
            None => {}
            Some(LenValue::Expr(e)) => {
                let es = self.expr(uid, *e);
                if es.chars().all(|c| c.is_ascii_digit()) {
                    s.push_str(&format!("*{es}"))
                } else {
                    s.push_str(&format!("*({es})"))
                }
            }
            Some(LenValue::Assumed) => s.push_str("*(*)"),
            Some(LenValue::Deferred) => s.push_str("*(:)"),
        }
        match &en.init {
            None => {}
            Some(Init::Expr(e)) => s.push_str(&format!(" = {}", self.expr(uid, *e))),
            Some(Init::Pointer(e)) => s.push_str(&format!(" => {}", self.expr(uid, *e))),
            Some(Init::Data(vs)) => s.push_str(&format!(" /{}/", self.data_values(uid, vs))),
        }
        s
    }

    pub(super) fn data_values(&self, uid: UnitId, vs: &[DataValue]) -> String {
        vs.iter()
            .map(|v| match v.repeat {
                Some(r) => format!("{}*{}", self.expr(uid, r), self.expr(uid, v.value)),
                None => self.expr(uid, v.value),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub(super) fn attr(&self, uid: UnitId, a: &Attr) -> String {
        match a {
            Attr::Intent(Intent::In) => "intent(in)".into(),
            Attr::Intent(Intent::Out) => "intent(out)".into(),
            Attr::Intent(Intent::InOut) => "intent(inout)".into(),
            Attr::Dimension(d) => format!("dimension{}", self.dims(uid, d)),
            Attr::Keyword(k) => k.clone(),
        }
    }

    pub(super) fn var_decl(&self, uid: UnitId, v: &VarDecl) -> String {
        let mut s = self.type_spec(uid, &v.spec);
        for a in &v.attrs {
            s.push_str(", ");
            s.push_str(&self.attr(uid, a));
        }
        let ents: Vec<String> = v.entities.iter().map(|e| self.entity(uid, e)).collect();
        if v.double_colon {
            s.push_str(" :: ");
        } else {
            s.push(' ');
        }
        s.push_str(&ents.join(", "));
        s
    }
}
