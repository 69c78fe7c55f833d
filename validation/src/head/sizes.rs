//! The values the user gives, as text: `-size` words ([`Sizes`]) and the integer
//! expressions over integer inputs they hold ([`int_expr`]), and `-value` numbers, lists and
//! logicals.

use std::collections::HashMap;

/// A `-value` list: one number, or one per element separated by commas.
pub fn parse_numbers(text: &str) -> Option<Vec<f64>> {
    text.split(',').map(parse_number).collect()
}

/// Checks a `-value` list against the element count of `name`.
pub(super) fn value_list(name: &str, text: &str, count: usize) -> Result<Vec<f64>, String> {
    let v = parse_numbers(text).ok_or_else(|| format!("-value {name}={text}: not a number"))?;
    if v.len() != 1 && v.len() != count {
        return Err(format!(
            "-value {name}=…: `{name}` has {count} elements: give one value for all, or {count} separated by commas (got {})",
            v.len()
        ));
    }
    Ok(v)
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

    pub(super) fn get(&self, name: &str) -> Option<&str> {
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

/// A `-value` number: Rust or Fortran spelling (`1e-3`, `1d-3`), finite.
pub fn parse_number(text: &str) -> Option<f64> {
    text.trim()
        .replace(['d', 'D'], "e")
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
}

/// A `-value` logical: `true`/`.true.`/`t`/`1` or `false`/`.false.`/`f`/`0`.
pub(super) fn parse_logical(text: &str) -> Option<bool> {
    match text.trim().trim_matches('.').to_ascii_lowercase().as_str() {
        "true" | "t" | "1" => Some(true),
        "false" | "f" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    // The absolute path: `super::` here is `head::sizes`, which tests/boundaries.rs would read
    // as `head` (it sees files, not inline modules).
    use crate::head::sizes::{int_expr, Sizes};
    use std::collections::HashMap;

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
