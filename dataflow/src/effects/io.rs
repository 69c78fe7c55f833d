//! I/O control lists kept as text (`unit=iu, iostat=ios`, an internal file): the variables
//! they name, what they read and what they store.

use super::types::*;
use crate::zones::{Obj, ObjKey};
use crate::zoneset::ZoneSet;
use radtap_il::{BaseClass, IoKind};

impl Eval<'_> {
    /// The zones of the variables named in an I/O control list kept as text (`buf, *`,
    /// `unit=iu, fmt=*`): identifiers outside quotes that are not keywords (`fmt=`) and name
    /// variables of the unit, or variables it sees through USE.
    pub(super) fn control_reads(&self, control: &str) -> ZoneSet {
        let mut out = self.empty();
        for name in control_names(control) {
            if let Some((_, o)) = self.named_obj(&name) {
                out.union_with(&self.pz.obj_set(&o));
            }
        }
        out
    }

    /// The object of the variable `name` visible in this unit.
    pub(super) fn named_obj(&self, name: &str) -> Option<(radtap_il::SymbolId, Obj)> {
        let sym = self.prog.lookup(self.u.scope, &name.to_ascii_lowercase())?;
        self.pz.objects.get(&ObjKey::Sym(sym)).map(|o| (sym, *o))
    }

    /// The variables an I/O statement's control list (kept as text) stores into: the
    /// specifiers that return a value (`iostat=`, `iomsg=`, `newunit=`, `size=`, and every
    /// INQUIRE specifier but `unit=`, `file=`, `id=`), and the internal file of a WRITE
    /// (`write (fname, '(a,i0)') ...`, a CHARACTER variable as unit). Each with whether the
    /// statement defines the whole variable (a plain scalar name). They were reads only: a
    /// checkpointed call that renames its output file in an internal WRITE was run again by
    /// the adjoint with the name the call had left, not the one it started with.
    pub(super) fn control_writes(&self, kind: IoKind, control: &str) -> Vec<(Obj, bool)> {
        if kind == IoKind::Print {
            return Vec::new();
        }
        // The list inside its parentheses (`(fname, '(a,i0)')`), split at the commas
        // outside quotes and inner parentheses.
        let control = control.trim();
        let control = control
            .strip_prefix('(')
            .and_then(|c| c.strip_suffix(')'))
            .unwrap_or(control);
        let mut pieces = Vec::new();
        let (mut depth, mut quote, mut cur) = (0i32, None, String::new());
        for c in control.chars() {
            match (quote, c) {
                (Some(q), _) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, '(') => depth += 1,
                (None, ')') => depth -= 1,
                (None, ',') if depth == 0 => {
                    pieces.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            cur.push(c);
        }
        pieces.push(cur);
        let mut out = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            let (key, value) = match piece.split_once('=') {
                Some((k, v))
                    if !k.trim().is_empty()
                        && k.trim()
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_')
                        && !v.starts_with('=') =>
                {
                    (Some(k.trim().to_ascii_lowercase()), v.trim())
                }
                _ => (None, piece.trim()),
            };
            let stores = match key.as_deref() {
                Some("iostat" | "iomsg" | "newunit" | "size") => true,
                Some("unit") => kind == IoKind::Write,
                Some("file" | "id") => false,
                Some(_) => kind == IoKind::Inquire,
                None => kind == IoKind::Write && i == 0,
            };
            if !stores {
                continue;
            }
            let ident: String = value
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if ident.is_empty()
                || !ident
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
            {
                continue;
            }
            let Some((sym, o)) = self.named_obj(&ident) else {
                continue;
            };
            let internal_unit = key.is_none() || key.as_deref() == Some("unit");
            if internal_unit
                && !self.prog.symbols[sym]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.base == BaseClass::Character)
            {
                // A unit number, not an internal file.
                continue;
            }
            out.push((o, ident.len() == value.len() && o.scalar));
        }
        out
    }
}

/// The identifiers of an I/O control list kept as text that are no specifier keywords:
/// outside quotes, not followed by `=` (`fname, '(a,i0)'` → `fname`; `unit=iu, iostat=ios`
/// → `iu`, `ios`), lower-cased.
pub(crate) fn control_names(control: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = control.chars().collect();
    let (mut i, mut quote) = (0, None);
    while i < chars.len() {
        let c = chars[i];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        if c == '\'' || c == '"' {
            quote = Some(c);
            i += 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let st = i;
        while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        let mut rest = chars[i..].iter().skip_while(|c| c.is_whitespace());
        let keyword = rest.next() == Some(&'=') && rest.next() != Some(&'=');
        if !keyword {
            out.push(chars[st..i].iter().collect::<String>().to_ascii_lowercase());
        }
    }
    out
}
