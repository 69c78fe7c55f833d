//! Links from a generated unit's header and declarations to the primal ones they come from
//! (issue 49: declarations linked nowhere). The unparser maps statements only (declarations
//! carry no span in the IL), so they are matched here, on the text: a generated unit is
//! paired with the primal unit its statements come from, and each declaration line of it
//! with the primal declaration of the same name, or of the primal name a derivative name is
//! made from (`ub` from `u` by the pattern `%b`; the patterns are read off the heads'
//! interfaces, so `-adjvarname` is followed). A declaration that comes from none (a
//! temporary, `tempb`) stays unlinked.

use radtap_il::Lang;

/// An origin: (source file name, 1-based line).
type Origin = Option<(String, u32)>;

/// Fills the origins of the header and declaration lines of each unit of `text` (a
/// generated file in `lang`) that have none. `sources` are the texts origins point into;
/// `pairs` (primal name, derivative name) give the naming patterns.
pub(crate) fn link(
    lang: Lang,
    text: &str,
    origins: &mut Vec<Origin>,
    sources: &[(String, String)],
    pairs: &[(String, String)],
) {
    let lines: Vec<&str> = text.lines().collect();
    origins.resize(lines.len(), None);
    let mut patterns: Vec<(String, String)> =
        vec![("".into(), "d".into()), ("".into(), "b".into())];
    for (p, d) in pairs {
        let (pl, dl) = (p.to_ascii_lowercase(), d.to_ascii_lowercase());
        if let Some(at) = dl.find(&pl).filter(|_| !pl.is_empty()) {
            let pat = (dl[..at].to_string(), dl[at + pl.len()..].to_string());
            if !patterns.contains(&pat) {
                patterns.push(pat);
            }
        }
    }
    for (start, end) in units(lang, &lines) {
        // The primal file and line the unit's statements come from, the most of them.
        let mut counts: Vec<(&str, u32, usize)> = Vec::new();
        for (f, l) in origins[start..end].iter().flatten() {
            match counts.iter_mut().find(|(g, _, _)| g == f) {
                Some(c) => {
                    c.1 = c.1.min(*l);
                    c.2 += 1;
                }
                None => counts.push((f, *l, 1)),
            }
        }
        let Some(&(file, first, _)) = counts.iter().max_by_key(|c| c.2) else {
            continue;
        };
        let file = file.to_string();
        let Some((_, src)) = sources.iter().find(|(n, _)| *n == file) else {
            continue;
        };
        let src: Vec<&str> = src.lines().collect();
        // The primal unit: the header above its first statement, to the end of the unit.
        let Some(head) = (0..(first as usize).min(src.len()))
            .rev()
            .find(|&i| header(lang, &src, i).is_some())
        else {
            continue;
        };
        let stop = units(lang, &src)
            .into_iter()
            .find(|(s, _)| *s == head)
            .map_or(src.len(), |(_, e)| e);
        let primal: Vec<(usize, Vec<String>)> = (head + 1..stop)
            .map(|i| (i, declared(lang, src[i])))
            .filter(|(_, n)| !n.is_empty())
            .collect();
        if origins[start].is_none() {
            origins[start] = Some((file.clone(), head as u32 + 1));
        }
        for i in start + 1..end {
            if origins[i].is_some() {
                continue;
            }
            for n in declared(lang, lines[i]) {
                let found = primal.iter().find(|(_, names)| {
                    names
                        .iter()
                        .any(|p| p == &n || patterns.iter().any(|(a, b)| format!("{a}{p}{b}") == n))
                });
                if let Some((k, _)) = found {
                    origins[i] = Some((file.clone(), *k as u32 + 1));
                    break;
                }
            }
            // Other Fortran specification statements copied as they stand (`use m`,
            // `implicit none`).
            let same = |l: &str| l.trim().to_ascii_lowercase();
            let own = same(lines[i]);
            let spec = lang == Lang::Fortran
                && words(&own)
                    .first()
                    .is_some_and(|w| SPECIFICATIONS.contains(&w.as_str()));
            if origins[i].is_none() && spec {
                if let Some(k) = (head + 1..stop).find(|&k| same(src[k]) == own) {
                    origins[i] = Some((file.clone(), k as u32 + 1));
                }
            }
        }
    }
}

/// The first words of the Fortran specification statements other than type declarations.
const SPECIFICATIONS: &[&str] = &[
    "use",
    "implicit",
    "import",
    "external",
    "intrinsic",
    "save",
    "common",
    "dimension",
    "parameter",
    "equivalence",
    "data",
    "public",
    "private",
];

/// The units of a text: (header line, end line exclusive), 0-based; nested units (Fortran
/// CONTAINS) are units of their own, ending where the next one starts.
fn units(lang: Lang, lines: &[&str]) -> Vec<(usize, usize)> {
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| header(lang, lines, i).is_some())
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let next = starts.get(k + 1).copied().unwrap_or(lines.len());
            let end = (s + 1..next)
                .find(|&i| unit_end(lang, lines[i]))
                .map_or(next, |e| e + 1);
            (s, end)
        })
        .collect()
}

/// Whether a line ends a unit (`end subroutine`, `end`, C's `}` in column 1).
fn unit_end(lang: Lang, line: &str) -> bool {
    match lang {
        Lang::C => line.starts_with('}'),
        Lang::Fortran => {
            let w: Vec<String> = words(line);
            w.first().is_some_and(|f| f == "end")
                && (w.len() == 1
                    || matches!(
                        w[1].as_str(),
                        "subroutine" | "function" | "module" | "program"
                    ))
        }
    }
}

/// The lower-cased words (identifiers) of a line, up to a Fortran `!` comment.
fn words(line: &str) -> Vec<String> {
    let code = line.split('!').next().unwrap_or("");
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The unit line `i` of `lines` opens, if it is a header: its name. A C function's header
/// starts in column 1, its parameter list may go on over lines, and its `{` ends the last
/// of them or stands on the next line.
fn header(lang: Lang, lines: &[&str], i: usize) -> Option<String> {
    let line = lines[i];
    match lang {
        Lang::Fortran => {
            let t = line.trim_start().to_ascii_lowercase();
            if t.starts_with('!') || t.starts_with("end") {
                return None;
            }
            let w = words(&t);
            let at = w.iter().position(|x| {
                matches!(x.as_str(), "subroutine" | "function" | "module" | "program")
            })?;
            // `module procedure f` is no header; words before the keyword are prefixes
            // (`recursive`, `real(8)`, `pure`, `elemental`).
            if w[at] == "module" && (at > 0 || w.get(1).is_some_and(|x| x == "procedure")) {
                return None;
            }
            let before = t.find(w[at].as_str())?;
            if t[..before].contains(['=', '\'', '"']) {
                return None;
            }
            w.get(at + 1).cloned()
        }
        Lang::C => {
            let first = line.chars().next()?;
            if !(first.is_alphabetic() || first == '_') || line.starts_with("typedef") {
                return None;
            }
            let open = line.find('(')?;
            // The line where the parameter list closes.
            let mut depth = 0i32;
            let mut last = None;
            'lines: for (k, l) in lines.iter().enumerate().skip(i).take(40) {
                let from = if k == i { open } else { 0 };
                for c in l[from..].chars() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                last = Some(k);
                                break 'lines;
                            }
                        }
                        _ => {}
                    }
                }
            }
            let last = last?;
            let end = lines[last].trim_end();
            let opens = end.ends_with('{')
                || (!end.ends_with(';')
                    && lines
                        .get(last + 1)
                        .is_some_and(|n| n.trim_start().starts_with('{')));
            if !opens {
                return None;
            }
            line[..open]
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .find(|w| !w.is_empty())
                .map(str::to_string)
        }
    }
}

/// The names a declaration line declares (lower-cased for Fortran), none when it is no
/// declaration.
fn declared(lang: Lang, line: &str) -> Vec<String> {
    match lang {
        Lang::Fortran => fortran_declared(line),
        Lang::C => c_declared(line),
    }
}

/// The segments of `s` between commas outside brackets.
fn top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out
}

fn fortran_declared(line: &str) -> Vec<String> {
    let t = line.trim().to_ascii_lowercase();
    let code = t
        .split('!')
        .next()
        .unwrap_or("")
        .trim_end_matches('&')
        .trim();
    let list = if let Some((spec, list)) = code.split_once("::") {
        let w = words(spec);
        let typed = w.first().is_some_and(|f| {
            matches!(
                f.as_str(),
                "integer"
                    | "real"
                    | "double"
                    | "doubleprecision"
                    | "complex"
                    | "logical"
                    | "character"
                    | "type"
                    | "class"
            )
        });
        if !typed {
            return Vec::new();
        }
        list.to_string()
    } else {
        // F77: `REAL*8 X, Y(N)`, `DOUBLE PRECISION A`, `INTEGER I`.
        let mut rest = None;
        for kw in [
            "double precision",
            "doubleprecision",
            "double complex",
            "integer",
            "real",
            "complex",
            "logical",
        ] {
            if let Some(r) = code.strip_prefix(kw) {
                if r.starts_with([' ', '*', '(']) {
                    rest = Some(r);
                    break;
                }
            }
        }
        let Some(mut r) = rest else {
            return Vec::new();
        };
        // The kind: `*8`, `(8)`, `(kind=8)`.
        r = r.trim_start();
        if let Some(x) = r.strip_prefix('*') {
            r = x
                .trim_start()
                .trim_start_matches(|c: char| c.is_ascii_digit());
        } else if r.starts_with('(') {
            let close = r.find(')').map_or(r.len(), |c| c + 1);
            r = &r[close..];
        }
        if r.trim_start().starts_with("function") {
            return Vec::new();
        }
        r.to_string()
    };
    top_level(&list)
        .into_iter()
        .filter_map(|e| {
            let e = e.trim();
            let end = e
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(e.len());
            (end > 0 && e.starts_with(|c: char| c.is_alphabetic())).then(|| e[..end].to_string())
        })
        .collect()
}

const C_STATEMENTS: &[&str] = &[
    "return", "if", "else", "for", "while", "do", "switch", "case", "default", "goto", "break",
    "continue", "sizeof",
];
const C_QUALIFIERS: &[&str] = &["const", "restrict", "volatile", "__restrict", "register"];

fn c_declared(line: &str) -> Vec<String> {
    let t = line.trim();
    let Some(body) = t.strip_suffix(';') else {
        return Vec::new();
    };
    if body.starts_with(['#', '/', '*', '(', '}']) {
        return Vec::new();
    }
    // A declaration starts with a type (one or more identifiers) followed by a declarator:
    // `real e = 0`, `struct s_d *sd`, `double (*xd)[N]`; a statement starts with one name
    // followed by an operator or a call.
    let idents = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_string)
            .collect()
    };
    let head: String = body
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || c.is_whitespace() || *c == '*')
        .collect();
    let lead = idents(&head);
    let pointer_declarator = body[head.len()..].replace(' ', "").starts_with("(*");
    if lead.is_empty()
        || (lead.len() < 2 && !pointer_declarator)
        || C_STATEMENTS.contains(&lead[0].as_str())
    {
        return Vec::new();
    }
    top_level(body)
        .into_iter()
        .filter_map(|seg| {
            let before = seg.split('=').next().unwrap_or(seg);
            // Without array extents and parameter lists after the name.
            let mut plain = String::new();
            let mut depth = 0;
            for c in before.chars() {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ if depth == 0 => plain.push(c),
                    _ => {}
                }
            }
            idents(&plain)
                .into_iter()
                .rfind(|w| !C_QUALIFIERS.contains(&w.as_str()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_names() {
        assert_eq!(
            fortran_declared("  real(dp), intent(inout) :: u(n), ub(n)"),
            ["u", "ub"]
        );
        assert_eq!(
            fortran_declared("      DOUBLE PRECISION X(N), Y"),
            ["x", "y"]
        );
        assert_eq!(fortran_declared("      REAL*8 A"), ["a"]);
        assert!(fortran_declared("  y = x*x").is_empty());
        assert!(fortran_declared("  use heat_params").is_empty());
        assert_eq!(c_declared("    real e = 0;"), ["e"]);
        assert_eq!(c_declared("    double x, *y, z[3];"), ["x", "y", "z"]);
        assert_eq!(c_declared("    const struct s_d *sd;"), ["sd"]);
        assert_eq!(c_declared("    double (*xd)[NBDirsMax];"), ["xd"]);
        assert!(c_declared("    e += 0.5 * k;").is_empty());
        assert!(c_declared("    f(x, y);").is_empty());
        assert!(c_declared("    return e;").is_empty());
    }

    #[test]
    fn headers() {
        let f = |l: &str| header(Lang::Fortran, &[l], 0);
        assert_eq!(
            f("subroutine heat_step_b(u, ub)"),
            Some("heat_step_b".into())
        );
        assert_eq!(f("  real(8) function f(x)"), Some("f".into()));
        assert_eq!(f("end subroutine f"), None);
        assert_eq!(f("  module procedure f"), None);
        let c = |l: &[&str]| header(Lang::C, l, 0);
        assert_eq!(
            c(&["real chain_energy_d(const spring_t *s, int n) {"]),
            Some("chain_energy_d".into())
        );
        assert_eq!(
            c(&["double f(int n,", "         double *x)", "{"]),
            Some("f".into())
        );
        assert_eq!(c(&["double f(int n);", "{"]), None);
        assert_eq!(c(&["struct spring_t_d {"]), None);
    }

    #[test]
    fn a_generated_units_declarations_link_to_the_primal_ones() {
        let src = "module m\n  integer, parameter :: dp = 8\nend module m\n\
                   subroutine f(u, n, c)\n  use m\n  integer, intent(in) :: n\n  \
                   real(dp), intent(inout) :: u(n)\n  real(dp) :: c\n  real(dp) :: w(n)\n  \
                   w = u\n  c = sum(w)\nend subroutine f\n";
        let gen = "subroutine f_b(u, ub, n, c, cb)\n  use m\n  integer, intent(in) :: n\n  \
                   real(dp), intent(inout) :: u(n)\n  real(dp), intent(inout) :: ub(n)\n  \
                   real(dp) :: c\n  real(dp) :: cb\n  real(dp) :: wb(n)\n  real(8) :: tempb\n  \
                   wb = cb\n  ub = ub + wb\nend subroutine f_b\n";
        let mut o: Vec<Origin> = vec![None; 12];
        o[9] = Some(("f.f90".into(), 11));
        o[10] = Some(("f.f90".into(), 10));
        let sources = vec![("f.f90".to_string(), src.to_string())];
        link(
            Lang::Fortran,
            gen,
            &mut o,
            &sources,
            &[("u".into(), "ub".into())],
        );
        let lines: Vec<Option<u32>> = o.iter().map(|x| x.as_ref().map(|y| y.1)).collect();
        assert_eq!(
            lines,
            [
                Some(4),
                Some(5),
                Some(6),
                Some(7),
                Some(7),
                Some(8),
                Some(8),
                Some(9),
                None,
                Some(11),
                Some(10),
                None
            ]
        );
    }
}
