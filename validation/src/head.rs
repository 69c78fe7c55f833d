//! What the driver must allocate and fill: the head's arguments, sized from their
//! declarations and from `-size name=value`.

use radtap_il::*;
use std::collections::HashMap;

/// One real head argument (or the function result), flattened to element accesses.
pub struct RealArg {
    /// The driver's variable (the argument's name; a fresh name for the function result).
    pub name: String,
    /// What the report calls it: the argument's name, or the function's for its result.
    pub label: String,
    /// The derivative argument that follows it, if any.
    pub deriv: Option<String>,
    /// Element access suffixes: `(1,2)` / `[1][2]`, `%f(3)` / `.f[2]`.
    pub elems: Vec<String>,
    /// Extents (declaration), in the language's order.
    pub extents: Vec<(i64, i64)>,
    /// The record type's name, for derived-type / struct arguments.
    pub record: Option<String>,
    pub c_pointer: bool,
    pub assumed_shape: bool,
    pub indep: bool,
    pub dep: bool,
}

/// The head as the driver sees it.
pub struct Head {
    pub lang: Lang,
    pub name: String,
    pub module: Option<String>,
    /// Arguments in order: `Int(name, value)` or a real/record argument.
    pub args: Vec<HeadArg>,
    pub result: Option<RealArg>,
    /// The driver's variable for the result's derivative (where the scalar tangent's
    /// returned value goes even when the result has no derivative).
    pub result_sink: String,
    pub iface: radtap_diff_tangent::Interface,
}

pub enum HeadArg {
    Int(String, i64),
    Real(RealArg),
}

impl Head {
    /// The real arguments and the function result.
    pub fn real_args(&self) -> impl Iterator<Item = &RealArg> {
        self.args
            .iter()
            .filter_map(|a| match a {
                HeadArg::Real(r) => Some(r),
                HeadArg::Int(..) => None,
            })
            .chain(self.result.iter())
    }

    /// The real arguments the driver fills (not the function result).
    pub fn inputs(&self) -> impl Iterator<Item = &RealArg> {
        self.args.iter().filter_map(|a| match a {
            HeadArg::Real(r) => Some(r),
            HeadArg::Int(..) => None,
        })
    }
}

/// `-size` values: integer inputs (`n=50`) and element counts of arguments whose size the
/// declarations do not give (`w=n*m`, or `a=n,m` per dimension of an assumed-shape array).
#[derive(Clone, Debug, Default)]
pub struct Sizes(pub Vec<(String, String)>);

impl Sizes {
    /// Parses `name=value` arguments.
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Sizes, String> {
        let mut out = Vec::new();
        for a in args {
            for w in a.as_ref().split_whitespace() {
                let (k, v) = w
                    .split_once('=')
                    .ok_or_else(|| format!("-size `{w}`: expected name=value (e.g. -size n=50)"))?;
                if k.is_empty() || v.is_empty() {
                    return Err(format!(
                        "-size `{w}`: expected name=value (e.g. -size n=50)"
                    ));
                }
                out.push((k.to_ascii_lowercase(), v.to_string()));
            }
        }
        Ok(Sizes(out))
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Evaluates an integer expression over integer inputs: literals, names, `+ - * /`,
/// parentheses.
pub fn int_expr(text: &str, env: &HashMap<String, i64>) -> Result<i64, String> {
    struct P<'a> {
        s: &'a [u8],
        i: usize,
        env: &'a HashMap<String, i64>,
    }
    impl P<'_> {
        fn ws(&mut self) {
            while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
        }
        fn sum(&mut self) -> Result<i64, String> {
            let mut v = self.product()?;
            loop {
                self.ws();
                match self.s.get(self.i) {
                    Some(b'+') => {
                        self.i += 1;
                        v = v.checked_add(self.product()?).ok_or("overflow")?;
                    }
                    Some(b'-') => {
                        self.i += 1;
                        v = v.checked_sub(self.product()?).ok_or("overflow")?;
                    }
                    _ => return Ok(v),
                }
            }
        }
        fn product(&mut self) -> Result<i64, String> {
            let mut v = self.atom()?;
            loop {
                self.ws();
                match self.s.get(self.i) {
                    Some(b'*') => {
                        self.i += 1;
                        v = v.checked_mul(self.atom()?).ok_or("overflow")?;
                    }
                    Some(b'/') => {
                        self.i += 1;
                        let d = self.atom()?;
                        if d == 0 {
                            return Err("division by zero".into());
                        }
                        v /= d;
                    }
                    _ => return Ok(v),
                }
            }
        }
        fn atom(&mut self) -> Result<i64, String> {
            self.ws();
            let start = self.i;
            match self.s.get(self.i) {
                Some(b'(') => {
                    self.i += 1;
                    let v = self.sum()?;
                    self.ws();
                    if self.s.get(self.i) != Some(&b')') {
                        return Err("missing `)`".into());
                    }
                    self.i += 1;
                    Ok(v)
                }
                Some(b'-') => {
                    self.i += 1;
                    Ok(-self.atom()?)
                }
                Some(c) if c.is_ascii_digit() => {
                    while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                        self.i += 1;
                    }
                    let t = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("0");
                    t.parse().map_err(|_| format!("`{t}` is too large"))
                }
                Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                    while self
                        .s
                        .get(self.i)
                        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                    {
                        self.i += 1;
                    }
                    let t = std::str::from_utf8(&self.s[start..self.i])
                        .unwrap_or("")
                        .to_ascii_lowercase();
                    self.env.get(&t).copied().ok_or_else(|| {
                        format!("`{t}` is not an integer input with a value (give -size {t}=…)")
                    })
                }
                _ => Err("expected a number, a name or `(`".into()),
            }
        }
    }
    let mut p = P {
        s: text.as_bytes(),
        i: 0,
        env,
    };
    let v = p.sum().map_err(|e| format!("`{text}`: {e}"))?;
    p.ws();
    if p.i != p.s.len() {
        return Err(format!("`{text}`: unexpected `{}`", &text[p.i..]));
    }
    Ok(v)
}

/// Integer value of a bound expression of the IL given the integer inputs.
fn eval(p: &Program, u: UnitId, e: ExprId, env: &HashMap<String, i64>) -> Option<i64> {
    match &p.units[u].exprs[e] {
        Expr::Literal(l) => l.text.parse().ok(),
        Expr::Name(s) => {
            let n = p.symbols[*s].spelling.to_ascii_lowercase();
            env.get(&n).copied().or_else(|| parameter_value(p, *s, env))
        }
        Expr::Opaque(t) => env
            .get(&t.to_ascii_lowercase())
            .copied()
            .or_else(|| t.parse().ok()),
        Expr::Paren(a) => eval(p, u, *a, env),
        Expr::Unary { op: UnOp::Neg, arg } => Some(-eval(p, u, *arg, env)?),
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (eval(p, u, *lhs, env)?, eval(p, u, *rhs, env)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => Some(a / b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The value of a named constant (PARAMETER, initialised `const`), from its declaration.
fn parameter_value(p: &Program, s: SymbolId, env: &HashMap<String, i64>) -> Option<i64> {
    let owner = p
        .units
        .iter()
        .find(|(_, x)| x.scope == p.symbols[s].scope)?
        .0;
    for d in &p.units[owner].decls {
        match d {
            Decl::Parameter(ps) => {
                if let Some((_, v)) = ps.iter().find(|(x, _)| *x == s) {
                    return eval(p, owner, *v, env);
                }
            }
            Decl::Var(v) => {
                for en in &v.entities {
                    if en.sym == s {
                        if let Some(Init::Expr(x)) = en.init {
                            return eval(p, owner, x, env);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Every combination of indices of `ext`, as access suffixes.
fn cartesian(ext: &[(i64, i64)], c: bool) -> Vec<String> {
    if ext.is_empty() {
        return vec![String::new()];
    }
    let mut out: Vec<Vec<i64>> = vec![Vec::new()];
    for &(lo, hi) in ext {
        out = out
            .into_iter()
            .flat_map(|o| {
                (lo..=hi).map(move |i| {
                    let mut v = o.clone();
                    v.push(i);
                    v
                })
            })
            .collect();
    }
    out.into_iter()
        .map(|ix| {
            if c {
                ix.iter().map(|i| format!("[{i}]")).collect()
            } else {
                let s: Vec<String> = ix.iter().map(i64::to_string).collect();
                format!("({})", s.join(","))
            }
        })
        .collect()
}

/// The real leaves of a record type: `%f`, `%v(2)` / `.f`, `.v[1]`.
fn record_leaves(
    p: &Program,
    td: TypeDefId,
    c: bool,
    env: &HashMap<String, i64>,
) -> Result<Vec<String>, String> {
    let t = &p.typedefs[td];
    let mut out = Vec::new();
    let sep = if c { "." } else { "%" };
    for f in &t.fields {
        let Decl::Var(v) = f else { continue };
        for en in &v.entities {
            let s = &p.symbols[en.sym];
            let Some(ty) = &s.ty else { continue };
            match ty.base {
                BaseClass::Real => {
                    let mut ext = Vec::new();
                    for (k, d) in ty.dims.iter().enumerate() {
                        ext.push(dim_ext(p, t.unit, d, c, env).ok_or_else(|| {
                            format!(
                                "the extent of dimension {} of component `{}` is not a constant",
                                k + 1,
                                s.spelling
                            )
                        })?);
                    }
                    for e in cartesian(&ext, c) {
                        out.push(format!("{sep}{}{e}", s.spelling));
                    }
                }
                BaseClass::Record(inner) if ty.dims.is_empty() => {
                    for l in record_leaves(p, inner, c, env)? {
                        out.push(format!("{sep}{}{l}", s.spelling));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// Index range of a declared dimension (C: `0..n-1`).
fn dim_ext(
    p: &Program,
    u: UnitId,
    d: &Dim,
    c: bool,
    env: &HashMap<String, i64>,
) -> Option<(i64, i64)> {
    let lo = match d.lower {
        Some(l) => eval(p, u, l, env)?,
        None => i64::from(!c),
    };
    let hi = match d.upper {
        DimUpper::Expr(e) => eval(p, u, e, env)?,
        _ => return None,
    };
    Some(if c { (0, hi - 1) } else { (lo, hi) })
}

/// Describes the head of `gen` (tangent or adjoint output) for a driver: integer inputs from
/// `sizes`, array extents from the declarations or `sizes`. Errors name what is missing.
pub fn describe(gen: &radtap_diff_tangent::Output, sizes: &Sizes) -> Result<Head, String> {
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
            match sizes.get(&n) {
                Some(v) => {
                    let x = v.trim().parse().map_err(|_| {
                        format!("-size {n}={v}: an integer input takes an integer value")
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
        match ty.base {
            BaseClass::Real | BaseClass::Record(_) => {}
            _ => {
                return Err(format!(
                    "argument `{name}` of `{head_name}` is neither real, a derived type nor an integer scalar: the driver cannot fill it"
                ))
            }
        }
        let deriv = iface.params.get(i).and_then(|x| x.1.clone());
        let assumed = ty
            .dims
            .iter()
            .any(|d| !matches!(d.upper, DimUpper::Expr(_)));
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
                    if v.len() != rank {
                        return Err(format!(
                            "-size {ln}={t}: `{name}` has rank {rank}, give {rank} extent{} separated by commas",
                            if rank > 1 { "s" } else { "" }
                        ));
                    }
                    v
                }
                // A pointer to one struct.
                None if c && matches!(ty.base, BaseClass::Record(_)) => Vec::new(),
                None => {
                    let what = if c {
                        "a C pointer"
                    } else if ty.dims.iter().any(|d| d.upper == DimUpper::Assumed) {
                        "an assumed-size array"
                    } else {
                        "an array with assumed or deferred shape"
                    };
                    return Err(format!(
                        "argument `{name}` of `{head_name}` is {what}: its size is not in the declarations; give -size {ln}=N (an expression over the integer inputs, e.g. -size {ln}=n)"
                    ));
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
        let (elems, record) = match ty.base {
            BaseClass::Record(td) => (
                record_leaves(p, td, c, &env)?,
                Some(p.typedefs[td].name.clone().unwrap_or_default()),
            ),
            _ => (cartesian(&extents, c), None),
        };
        if record.is_some() && !extents.is_empty() {
            return Err(format!(
                "argument `{name}` of `{head_name}` is an array of derived types: the driver cannot fill it yet"
            ));
        }
        args.push(HeadArg::Real(RealArg {
            indep: in_list(&iface.independents, &ln),
            dep: in_list(&iface.dependents, &ln),
            label: name.clone(),
            name,
            deriv,
            elems,
            extents,
            record,
            c_pointer,
            assumed_shape: assumed && !c,
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
            HeadArg::Real(r) => {
                taken.push(r.name.to_ascii_lowercase());
                taken.extend(r.deriv.iter().map(|d| d.to_ascii_lowercase()));
            }
        }
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
    let mut result_sink = String::from("dummy_rd");
    let result = if hu.kind == UnitKind::Function && hu.result.is_some() {
        if let Some(t) = hu.result.and_then(|r| p.symbols[r].ty.as_ref()) {
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
            dep: true,
            indep: false,
            deriv: iface.result_deriv.then(|| result_sink.clone()),
            name,
            label: head_name.clone(),
            elems: vec![String::new()],
            extents: Vec::new(),
            record: None,
            c_pointer: false,
            assumed_shape: false,
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
        result,
        result_sink,
        iface,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_expressions_follow_precedence() {
        let env: HashMap<String, i64> = [("n".to_string(), 5), ("m".to_string(), 3)].into();
        assert_eq!(int_expr("n*m+1", &env), Ok(16));
        assert_eq!(int_expr("2*(n-1)", &env), Ok(8));
        assert_eq!(int_expr("n / 2 - -1", &env), Ok(3));
        assert!(int_expr("k*2", &env).unwrap_err().contains("-size k="));
        assert!(int_expr("n+", &env).is_err());
    }

    #[test]
    fn sizes_need_name_and_value() {
        assert!(Sizes::parse(&["n"]).is_err());
        let s = Sizes::parse(&["N=4", "w=n*m"]).unwrap();
        assert_eq!(s.get("n"), Some("4"));
        assert_eq!(s.get("w"), Some("n*m"));
    }
}
