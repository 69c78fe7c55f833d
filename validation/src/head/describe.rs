//! The description of a head for a driver ([`describe`], [`describe_with`]): each argument
//! sized from its declaration, `-size`, the subscripts that read it or a walk through a
//! copy, and set from `-value`; integer, logical and character arguments given fixed values;
//! an output nothing reads on entry left unfilled.

use super::args::*;
use super::globals::describe_globals;
use super::shapes::*;
use super::sizes::*;
use crate::extent;
use crate::ilvalue::eval;
use radtap_il::*;
use std::collections::HashMap;

/// Describes the head of `gen` (tangent or adjoint output) for a driver: integer inputs from
/// `sizes`, array extents from the declarations or `sizes`. Errors name what is missing.
pub fn describe(gen: &radtap_diff_tangent::Output, sizes: &Sizes) -> Result<Head, String> {
    describe_with(gen, sizes, &[])
}

/// [`describe`] with `-value name=text` settings: real arguments and globals (every
/// element), integer inputs (as `-size`), logical, character and integer-array arguments.
/// A `-size` on a real scalar is taken as its value, with a warning in
/// [`Head::warnings`]. Use [`Head::check_values`] to reject names the head does not have.
pub fn describe_with(
    gen: &radtap_diff_tangent::Output,
    sizes: &Sizes,
    values: &[(String, String)],
) -> Result<Head, String> {
    let value_of = |n: &str| {
        values
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.clone())
    };
    let mut warnings = Vec::new();
    let p = &gen.program;
    let iface = gen
        .interfaces
        .first()
        .ok_or("the differentiation produced no head")?
        .clone();
    let hu = &p.units[iface.head];
    let lang = hu.lang;
    let c = lang == Lang::C;
    let head_name = hu
        .name
        .map(|s| p.symbols[s].spelling.clone())
        .unwrap_or_default();
    let is_int = |t: &Type| t.base == BaseClass::Integer && t.dims.is_empty() && t.pointers == 0;
    let mut env: HashMap<String, i64> = HashMap::new();
    let mut missing = Vec::new();
    for &s in &hu.params {
        let n = p.symbols[s].spelling.to_ascii_lowercase();
        if p.symbols[s].ty.as_ref().is_some_and(is_int) {
            let given = value_of(&n).or_else(|| sizes.get(&n).map(str::to_string));
            // An output the head sets before reading it (LAPACK's `INFO = 0`): any value.
            let given = given.or_else(|| written_first(hu, s).then(|| "0".to_string()));
            match given.as_deref() {
                Some(v) => {
                    let x = v.trim().parse().map_err(|_| {
                        format!("-size/-value {n}={v}: an integer input takes an integer value")
                    })?;
                    env.insert(n, x);
                }
                None => missing.push(n),
            }
        }
    }
    if !missing.is_empty() {
        let give: Vec<String> = missing.iter().map(|n| format!("-size {n}=…")).collect();
        return Err(format!(
            "the integer input{} {} of `{head_name}` need{} a value: give {}",
            if missing.len() > 1 { "s" } else { "" },
            missing
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if missing.len() > 1 { "" } else { "s" },
            give.join(" ")
        ));
    }
    let in_list = |l: &[String], n: &str| {
        l.iter().any(|x| {
            let x = x.to_ascii_lowercase();
            x == n
                || x.starts_with(&format!("{n}%"))
                || x.starts_with(&format!("{n}."))
                || x.starts_with(&format!("*{n}"))
        })
    };
    let mut args = Vec::new();
    for (i, &s) in hu.params.iter().enumerate() {
        let sd = &p.symbols[s];
        let name = sd.spelling.clone();
        let ln = name.to_ascii_lowercase();
        let ty = sd
            .ty
            .clone()
            .ok_or_else(|| format!("argument `{name}` of `{head_name}` has no type"))?;
        if is_int(&ty) {
            args.push(HeadArg::Int(name, env[&ln]));
            continue;
        }
        // C `void *` user data (NLopt's `double f(unsigned n, const double *x, double
        // *grad, void *data)`): the driver has nothing to point it at, so it passes NULL; a
        // head that reads through it stops with the access named (AddressSanitizer).
        if c && ty.base == BaseClass::Void && ty.pointers > 0 && ty.dims.is_empty() {
            args.push(HeadArg::Fixed(FixedArg {
                name,
                fty: String::new(),
                cty: "void *".into(),
                extents: Vec::new(),
                elems: vec![String::new()],
                init: vec!["NULL".into()],
                c_pointer: true,
                assumed_shape: false,
            }));
            continue;
        }
        let fixed = match ty.base {
            BaseClass::Real | BaseClass::Record(_) => false,
            BaseClass::Integer | BaseClass::Logical | BaseClass::Character => true,
            _ => {
                return Err(format!(
                    "argument `{name}` of `{head_name}` is neither real, integer, logical, character nor a derived type: the driver cannot fill it"
                ))
            }
        };
        if ty.base == BaseClass::Real && ty.bytes.is_some_and(|b| b != 8) {
            return Err(format!(
                "argument `{name}` of `{head_name}` is {}: the driver fills real(8)/double only, so validate cannot check this head yet",
                precision_name(ty.bytes)
            ));
        }
        let deriv = iface.params.get(i).and_then(|x| x.1.clone());
        let assumed = ty
            .dims
            .iter()
            .any(|d| !matches!(d.upper, DimUpper::Expr(_)));
        // Only `:` dims need an interface with an assumed shape; an assumed-size `x(*)`
        // declared `x(:)` there received a descriptor for its data (NaN, or zeros).
        let shape = ty.dims.iter().any(|d| d.upper == DimUpper::Deferred);
        let c_pointer = c && ty.pointers > 0;
        let extents: Vec<(i64, i64)> = if assumed || (c_pointer && ty.dims.is_empty()) {
            match sizes.get(&ln) {
                Some(t) => {
                    let mut v = Vec::new();
                    for x in t.split(',') {
                        let n = int_expr(x, &env).map_err(|e| format!("-size {ln}={t}: {e}"))?;
                        if n < 1 {
                            return Err(format!("-size {ln}={t}: the extent must be at least 1"));
                        }
                        v.push(if c { (0, n - 1) } else { (1, n) });
                    }
                    let rank = if c { 1 } else { ty.dims.len().max(1) };
                    // `A(LDA,*)` given as its element count (`-size a=lda*n`, the spelling
                    // the adjoint's recording takes too): the leading extents from the
                    // declaration, the last one what the count leaves.
                    if v.len() == 1 && rank > 1 {
                        let lead: Option<Vec<(i64, i64)>> = ty.dims[..rank - 1]
                            .iter()
                            .map(|d| dim_ext(p, iface.head, d, c, &env))
                            .collect();
                        let count = v[0].1;
                        if let Some(lead) = lead {
                            let per: i64 = lead.iter().map(|(lo, hi)| hi - lo + 1).product();
                            if per > 0 && count % per == 0 && count / per >= 1 {
                                v = lead;
                                v.push((1, count / per));
                            }
                        }
                    }
                    if v.len() != rank {
                        return Err(format!(
                            "-size {ln}={t}: `{name}` has rank {rank}, give {rank} extent{} separated by commas",
                            if rank > 1 { "s" } else { "" }
                        ));
                    }
                    v
                }
                // A pointer to several structs (`p[i].m`, or walked: `a = p; … a++`): an
                // array of them, as long as the code shows how many.
                None if c
                    && matches!(ty.base, BaseClass::Record(_))
                    && (counted(p, iface.head, s, &env).is_some_and(|n| n > 1)
                        || indexed_beyond_first(p, iface.head, s)) =>
                {
                    match counted(p, iface.head, s, &env) {
                        Some(n) if n > 1 => vec![(0, n - 1)],
                        _ => return Err(format!(
                            "argument `{name}` of `{head_name}` points to several structs (an array of them) and the code does not show how many; give -size {ln}=N (an expression over the integer inputs, e.g. -size {ln}=n)"
                        )),
                    }
                }
                // A pointer to one struct.
                None if c && matches!(ty.base, BaseClass::Record(_)) => Vec::new(),
                // A C string: the -value text and its terminating NUL.
                None if c && ty.base == BaseClass::Character => {
                    let len = value_of(&ln).map_or(0, |v| v.len()) as i64;
                    vec![(0, len)]
                }
                None if c && c_pointer && ty.dims.is_empty() => {
                    match counted(p, iface.head, s, &env) {
                        Some(n) => vec![(0, n - 1)],
                        None => return Err(no_size(&name, &head_name, &ln, "a C pointer")),
                    }
                }
                None => {
                    let assumed_size = ty.dims.iter().any(|d| d.upper == DimUpper::Assumed);
                    let what = if c {
                        "a C pointer".to_string()
                    } else if assumed_size && crate::calls::declared_one(p, iface.head, s) {
                        let dims = if ty.dims.len() > 1 { "…, 1" } else { "1" };
                        format!("declared `{name}({dims})`, which fixed-form Fortran (F66) uses for an array of any length (read as `{name}({})`)", dims.replace('1', "*"))
                    } else if assumed_size {
                        "an assumed-size array".to_string()
                    } else {
                        "an array with assumed or deferred shape".to_string()
                    };
                    let mut e = no_size(&name, &head_name, &ln, &what);
                    if assumed_size && !c {
                        e.push_str(", or -context to take it from the call of your main program");
                    }
                    return Err(e);
                }
            }
        } else {
            let mut v = Vec::new();
            for (k, d) in ty.dims.iter().enumerate() {
                v.push(dim_ext(p, iface.head, d, c, &env).ok_or_else(|| {
                    format!(
                        "the extent of dimension {} of argument `{name}` of `{head_name}` is neither a constant nor an integer input",
                        k + 1
                    )
                })?);
            }
            v
        };
        if extents.iter().any(|(lo, hi)| hi < lo) {
            return Err(format!(
                "argument `{name}` of `{head_name}` would be empty with these sizes"
            ));
        }
        if fixed {
            let len = declared_char_len(p, iface.head, s, &env);
            args.push(HeadArg::Fixed(fixed_arg(
                name,
                &ty,
                len,
                extents,
                c,
                c_pointer,
                shape && !c,
                value_of(&ln),
            )?));
            continue;
        }
        let mut value = match value_of(&ln) {
            Some(v) => {
                Some(parse_numbers(&v).ok_or_else(|| format!("-value {ln}={v}: not a number"))?)
            }
            None => None,
        };
        if value.is_none() && extents.is_empty() && !c_pointer && ty.base == BaseClass::Real {
            // `-size dt=0.001` on a real scalar: what the user meant is its value.
            if let Some(v) = sizes.get(&ln) {
                let x = parse_number(v)
                    .ok_or_else(|| format!("-size {ln}={v}: `{name}` is a real scalar; give its value with -value {ln}=NUMBER"))?;
                warnings.push(format!(
                    "-size {ln}={v}: `{name}` is a real scalar, not a size: taken as -value {ln}={v}"
                ));
                value = Some(vec![x]);
            }
        }
        let mut passive = Vec::new();
        let (elems, record) = match ty.base {
            BaseClass::Record(td) => (
                {
                    // An array of records: each element's leaves, element by element.
                    let leaves = record_leaves(p, td, c, &env, &iface.active_fields)?;
                    let at = cartesian(&extents, c);
                    let every = |passive: bool| -> Vec<String> {
                        at.iter()
                            .flat_map(|i| {
                                leaves
                                    .iter()
                                    .filter(move |l| !passive || !l.1)
                                    .map(move |l| format!("{i}{}", l.0))
                            })
                            .collect()
                    };
                    passive = every(true);
                    every(false)
                },
                Some(match &p.typedefs[td].name {
                    Some(n) if c => format!("struct {n}"),
                    Some(n) => n.clone(),
                    // An anonymous struct is known by its typedef name only.
                    None => p.record_type_name(td).unwrap_or_default(),
                }),
            ),
            _ => (cartesian(&extents, c), None),
        };
        if let (Some(v), Some(t)) = (&value, value_of(&ln)) {
            if v.len() != 1 && v.len() != elems.len() {
                return Err(value_list(&ln, &t, elems.len()).err().unwrap_or_default());
            }
        }
        let zero_in = deriv
            .as_ref()
            .is_some_and(|d| iface.zero_on_entry.contains(d));
        args.push(HeadArg::Real(RealArg {
            zero_in,
            indep: in_list(&iface.independents, &ln),
            dep: in_list(&iface.dependents, &ln),
            label: name.clone(),
            name,
            deriv,
            elems,
            extents,
            record,
            c_pointer,
            assumed_shape: shape && !c,
            home: None,
            value,
            passive,
        }));
    }
    // The driver's own variables (the function result and its derivative) get names no
    // argument or derivative argument of the generated interface uses (an argument `gd` of
    // a function `g` must not meet the driver's `gd`).
    let mut taken: Vec<String> = vec![
        head_name.to_ascii_lowercase(),
        iface.name.to_ascii_lowercase(),
    ];
    for a in &args {
        match a {
            HeadArg::Int(n, _) => taken.push(n.to_ascii_lowercase()),
            HeadArg::Fixed(f) => taken.push(f.name.to_ascii_lowercase()),
            HeadArg::Real(r) => {
                taken.push(r.name.to_ascii_lowercase());
                taken.extend(r.deriv.iter().map(|d| d.to_ascii_lowercase()));
            }
        }
    }
    for r in &iface.globals {
        taken.push(p.symbols[r.0].spelling.to_ascii_lowercase());
        taken.push(p.symbols[r.1].spelling.to_ascii_lowercase());
    }
    let mut fresh = |base: String| {
        let mut n = base.clone();
        let mut k = 0;
        while taken.contains(&n.to_ascii_lowercase()) {
            n = format!("{base}{k}");
            k += 1;
        }
        taken.push(n.to_ascii_lowercase());
        n
    };
    let (globals, commons) = describe_globals(
        p,
        &iface,
        &head_name,
        &env,
        &mut fresh,
        &|l: &[String], n: &str| in_list(l, n),
        &value_of,
    )?;
    let mut result_sink = String::from("dummy_rd");
    let mut result_ctype = String::from("double");
    // A C function returning an integer (GSL's and SUNDIALS' status codes): its result is
    // no dependent, and the tangent still takes a pointer for it (`int *f`), so the driver
    // declares it with its type (it refused every such head).
    let status = hu
        .result
        .and_then(|r| p.symbols[r].ty.as_ref())
        .filter(|t| {
            lang == Lang::C
                && t.base == BaseClass::Integer
                && t.dims.is_empty()
                && t.pointers == 0
                && !iface.result_deriv
        });
    if let Some(t) = status {
        result_ctype = match t.bytes {
            Some(1) => "signed char",
            Some(2) => "short",
            Some(8) => "long",
            _ => "int",
        }
        .to_string();
    }
    let result = if hu.kind == UnitKind::Function && hu.result.is_some() {
        if let Some(t) = hu
            .result
            .and_then(|r| p.symbols[r].ty.as_ref())
            .filter(|_| status.is_none())
        {
            if t.base == BaseClass::Real && t.bytes.is_some_and(|b| b != 8) {
                return Err(format!(
                    "the result of `{head_name}` is {}: the driver checks real(8)/double only, so validate cannot check this head yet",
                    precision_name(t.bytes)
                ));
            }
            if t.base != BaseClass::Real || !t.dims.is_empty() {
                return Err(format!(
                    "the result of `{head_name}` is not a real scalar: the driver cannot check it"
                ));
            }
        }
        let name = fresh(format!("{head_name}_r"));
        let suffix = if iface.name.ends_with("_b") { "b" } else { "d" };
        result_sink = fresh(format!("{head_name}{suffix}"));
        Some(RealArg {
            zero_in: false,
            dep: status.is_none(),
            indep: false,
            deriv: iface.result_deriv.then(|| result_sink.clone()),
            name,
            label: head_name.clone(),
            elems: vec![String::new()],
            extents: Vec::new(),
            record: None,
            c_pointer: false,
            assumed_shape: false,
            home: None,
            value: None,
            passive: Vec::new(),
        })
    } else {
        None
    };
    Ok(Head {
        lang,
        name: head_name,
        module: hu
            .parent
            .filter(|m| p.units[*m].kind == UnitKind::Module)
            .and_then(|m| p.units[m].name)
            .map(|s| p.symbols[s].spelling.clone()),
        args,
        globals,
        commons,
        result,
        result_sink,
        result_ctype,
        warnings,
        iface,
    })
}

/// A logical, character or integer-array argument: its declaration and values. Logicals
/// take `-value` (default false), integers `-value` (default 1, 2, 3, 1, … in Fortran, 0, 1,
/// 2, 0, … in C: valid indices of any array of 3 or more), characters the `-value` text
/// (default blanks).
/// The length the driver gives an assumed-length CHARACTER dummy, when the `-value` text
/// is shorter: MINPACK-2's callers declare `character*60 task`.
const ASSUMED_CHAR_LEN: usize = 60;

/// The declared length of a Fortran CHARACTER variable, when it is a known constant.
fn declared_char_len(
    p: &Program,
    u: UnitId,
    s: SymbolId,
    env: &HashMap<String, i64>,
) -> Option<i64> {
    for d in &p.units[u].decls {
        let Decl::Var(v) = d else { continue };
        let Some(en) = v.entities.iter().find(|e| e.sym == s) else {
            continue;
        };
        let from_spec = v.spec.char_len.as_ref().map(|c| match c {
            CharLen::Star(l) | CharLen::Paren(l) | CharLen::Keyword(l) => l.clone(),
        });
        return match en.char_len.clone().or(from_spec)? {
            LenValue::Expr(e) => eval(p, u, e, env),
            _ => None,
        };
    }
    None
}

fn fixed_arg(
    name: String,
    ty: &Type,
    char_len: Option<i64>,
    extents: Vec<(i64, i64)>,
    c: bool,
    c_pointer: bool,
    assumed_shape: bool,
    value: Option<String>,
) -> Result<FixedArg, String> {
    let elems = cartesian(&extents, c);
    let n = elems.len();
    let (fty, cty, init): (String, String, Vec<String>) = match ty.base {
        BaseClass::Logical => {
            let v = match &value {
                Some(t) => parse_logical(t).ok_or_else(|| {
                    format!("-value {name}={t}: `{name}` is logical: give true or false")
                })?,
                None => false,
            };
            let lit = match (c, v) {
                (true, v) => i32::from(v).to_string(),
                (false, true) => ".true.".into(),
                (false, false) => ".false.".into(),
            };
            let fk = ty
                .bytes
                .map_or("logical".into(), |b| format!("logical({b})"));
            (
                fk,
                if ty.bytes == Some(1) {
                    "_Bool".into()
                } else {
                    "int".into()
                },
                vec![lit; n],
            )
        }
        BaseClass::Integer => {
            let init = match &value {
                Some(t) => {
                    let v: i64 = t.trim().parse().map_err(|_| {
                        format!("-value {name}={t}: `{name}` is an integer array: give an integer")
                    })?;
                    vec![v.to_string(); n]
                }
                None => (0..n)
                    .map(|k| (k as i64 % 3 + i64::from(!c)).to_string())
                    .collect(),
            };
            let fk = ty
                .bytes
                .map_or("integer".into(), |b| format!("integer({b})"));
            let ck = match ty.bytes {
                Some(8) => "long",
                Some(2) => "short",
                Some(1) => "signed char",
                _ => "int",
            };
            (fk, ck.into(), init)
        }
        _ => {
            let text = value.unwrap_or_default();
            if c {
                let mut init: Vec<String> = text.bytes().map(|b| b.to_string()).collect();
                init.resize(n, "0".into());
                if !extents.is_empty() && text.len() >= n {
                    return Err(format!(
                        "-value {name}={text}: `{name}` holds {n} characters with its NUL"
                    ));
                }
                ("character".into(), "char".into(), init)
            } else {
                // An assumed-length dummy (`character*(*) task`) gets room for what such
                // routines write back or look at by substring (`task = 'ERROR: …'`,
                // `task(1:5)` in MINPACK-2): blanks pad the text, so comparisons with it
                // read the same.
                let len = match char_len {
                    Some(l) if l > 0 => l as usize,
                    _ => text.len().max(ASSUMED_CHAR_LEN),
                };
                if text.len() > len {
                    return Err(format!(
                        "-value {name}={text}: `{name}` is character(len={len})"
                    ));
                }
                let lit = format!("'{}'", text.replace('\'', "''"));
                (format!("character(len={len})"), "char".into(), vec![lit; n])
            }
        }
    };
    Ok(FixedArg {
        name,
        fty,
        cty,
        elems,
        extents,
        init,
        c_pointer,
        assumed_shape,
    })
}

/// Whether the first top-level statement of unit `u` that names `v` assigns it a value that
/// does not read it (`INFO = 0`), with no declaration naming it before: `v` is an output
/// whose value on entry nothing reads.
fn written_first(u: &UnitData, v: SymbolId) -> bool {
    fn names_expr(u: &UnitData, e: ExprId, v: SymbolId) -> bool {
        if matches!(u.exprs[e], Expr::Name(x) if x == v) {
            return true;
        }
        let mut found = false;
        visit::expr_children(&u.exprs[e], &mut |c| found |= names_expr(u, c, v));
        found
    }
    fn names_stmt(u: &UnitData, s: StmtId, v: SymbolId) -> bool {
        let mut found = false;
        let mut inner = Vec::new();
        visit::stmt_children(
            &u.stmts[s].kind,
            &mut |e| found |= names_expr(u, e, v),
            &mut |c| inner.push(c),
        );
        found || inner.into_iter().any(|c| names_stmt(u, c, v))
    }
    let mut in_decls = false;
    for d in &u.decls {
        visit::decl_exprs(d, &mut |e| in_decls |= names_expr(u, e, v));
    }
    if in_decls {
        return false;
    }
    for &st in &u.body {
        if let StmtKind::Assign {
            lhs, op: None, rhs, ..
        } = &u.stmts[st].kind
        {
            if matches!(u.exprs[*lhs], Expr::Name(x) if x == v) {
                return !names_expr(u, *rhs, v);
            }
        }
        if names_stmt(u, st, v) {
            return false;
        }
    }
    false
}

/// Whether unit `u` reaches past the first element of what pointer `ptr` designates:
/// `ptr[i]` with a subscript other than `0`, `ptr + i`, `ptr++`, `ptr += k`, or the same on
/// a pointer `ptr` is copied into (a walk: `for (a = bodies; …; a++)`; the driver allocated
/// one struct and the head read five, with a PASS).
fn indexed_beyond_first(p: &Program, u: UnitId, ptr: SymbolId) -> bool {
    let ud = &p.units[u];
    // Where the pointer goes: itself, and the pointers it is copied into (`a = bodies`,
    // `struct planet *a = bodies`), which may walk it (`a++`, n-body's `energy`).
    let mut copies = vec![ptr];
    let copied =
        |lhs: ExprId, rhs: ExprId, copies: &[SymbolId]| match (&ud.exprs[lhs], &ud.exprs[rhs]) {
            (Expr::Name(q), Expr::Name(x)) if copies.contains(x) && !copies.contains(q) => Some(*q),
            _ => None,
        };
    loop {
        let mut found = None;
        for (_, e) in ud.exprs.iter() {
            if let Expr::Assign { op: None, lhs, rhs } = e {
                found = found.or(copied(*lhs, *rhs, &copies));
            }
        }
        for (_, st) in ud.stmts.iter() {
            match &st.kind {
                StmtKind::Assign { lhs, op: None, rhs } => {
                    found = found.or(copied(*lhs, *rhs, &copies));
                }
                StmtKind::Decl(Decl::Var(v)) => {
                    for en in &v.entities {
                        if let Some(Init::Expr(i)) = &en.init {
                            if matches!(ud.exprs[*i], Expr::Name(x) if copies.contains(&x))
                                && !copies.contains(&en.sym)
                            {
                                found = found.or(Some(en.sym));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        match found {
            Some(q) => copies.push(q),
            None => break,
        }
    }
    let names = |e: ExprId| matches!(ud.exprs[e], Expr::Name(x) if copies.contains(&x));
    let moved_by_statement = ud.stmts.iter().any(|(_, st)| {
        matches!(&st.kind, StmtKind::Assign { lhs, op: Some(BinOp::Add | BinOp::Sub), .. } if names(*lhs))
    });
    moved_by_statement
        || ud.exprs.iter().any(|(_, e)| match e {
            Expr::Index { base, subs } => {
                names(*base)
                    && !subs.iter().all(|x| {
                        matches!(x, Subscript::Index(i)
                        if matches!(&ud.exprs[*i], Expr::Literal(l) if l.text == "0"))
                    })
            }
            Expr::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } => names(*lhs) || names(*rhs),
            Expr::IncDec { arg, .. } => names(*arg),
            Expr::Assign {
                op: Some(BinOp::Add | BinOp::Sub),
                lhs,
                ..
            } => names(*lhs),
            _ => false,
        })
}

/// The element count of C pointer parameter `s`: from its subscripts ([`extent::infer`])
/// or from a walk through a copy ([`crate::walk`]).
fn counted(p: &Program, u: UnitId, s: SymbolId, env: &HashMap<String, i64>) -> Option<i64> {
    extent::infer(p, u, s, env)
        .or_else(|| crate::walk::walked_extent(p, u, s, &crate::walk::int_env(p, u, env)))
}

/// The refusal of an argument whose size nothing shows.
fn no_size(name: &str, head: &str, ln: &str, what: &str) -> String {
    format!(
        "argument `{name}` of `{head}` is {what}: the driver allocates and fills as many elements as the head reads, and neither the declarations nor subscripts over loop counters and integer inputs say how many; give -size {ln}=N (an expression over the integer inputs, e.g. -size {ln}=n: too few and the run stops with the access named, more costs nothing)"
    )
}
