//! `-context`: validate at the values the user's own main program passes to the head.
//!
//! The user's sources are compiled as they are, main program included, with the head's
//! symbol made weak in their objects; a generated C wrapper defines the head's symbol
//! strongly, so every call to the head (from another file or the same one) reaches the
//! wrapper, which prints the arguments of the first call and ends the program. Two runs:
//! the first captures the integer arguments (which size the arrays), the second every
//! element of the real arguments at the extents they give. Tapenade's `-context` needs the
//! user to rebuild twice by hand; this does it in one command.

use crate::build::Toolchain;
use crate::head::{describe_with, Head, HeadArg, Sizes};
use crate::{Error, Job};
use radtap_il::*;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Tag of the wrapper's lines (the user's program prints too).
const TAG: &str = "RADTAP_CONTEXT";

/// What one argument of the head is, for the wrapper's C prototype.
enum Param {
    Int(String),
    Real(String),
    /// Real array or pointer: (name, element count once known).
    RealArray(String, Option<usize>),
}

/// The head's linker symbol: Fortran external procedures get gfortran's trailing
/// underscore, module procedures `__m_MOD_f`.
fn symbol(p: &Program, u: UnitId) -> String {
    let unit = &p.units[u];
    let name = unit
        .name
        .map(|s| p.symbols[s].spelling.clone())
        .unwrap_or_default();
    match unit.lang {
        Lang::C => name,
        Lang::Fortran => {
            let module = unit
                .parent
                .filter(|m| p.units[*m].kind == UnitKind::Module)
                .and_then(|m| p.units[m].name)
                .map(|s| p.symbols[s].spelling.to_ascii_lowercase());
            match module {
                Some(m) => format!("__{m}_MOD_{}", name.to_ascii_lowercase()),
                None => format!("{}_", name.to_ascii_lowercase()),
            }
        }
    }
}

/// The head's parameters as the wrapper sees them; anything else is refused.
fn params(p: &Program, u: UnitId) -> Result<Vec<Param>, String> {
    let unit = &p.units[u];
    let head = unit
        .name
        .map(|s| p.symbols[s].spelling.clone())
        .unwrap_or_default();
    let mut out = Vec::new();
    for &s in &unit.params {
        let sd = &p.symbols[s];
        let name = sd.spelling.clone();
        let ty = sd.ty.as_ref().ok_or(format!("`{name}` has no type"))?;
        let array = !ty.dims.is_empty() || ty.pointers > 0;
        if unit.lang == Lang::Fortran && ty.dims.iter().any(|d| d.upper == DimUpper::Deferred) {
            return Err(format!(
                "-context: argument `{name}` of `{head}` has assumed or deferred shape: capture is not supported for it yet; give -value instead"
            ));
        }
        match ty.base {
            BaseClass::Integer if !array => out.push(Param::Int(name)),
            BaseClass::Real if ty.bytes.is_none_or(|b| b == 8) => out.push(if array {
                Param::RealArray(name, None)
            } else {
                Param::Real(name)
            }),
            _ => {
                return Err(format!(
                    "-context: argument `{name}` of `{head}` is neither an integer scalar nor a real(8)/double: capture is not supported for it yet; give -value instead"
                ))
            }
        }
    }
    Ok(out)
}

/// The wrapper's C source: prints the integers, and the reals whose counts are known.
fn wrapper(p: &Program, u: UnitId, params: &[Param]) -> String {
    let unit = &p.units[u];
    let fortran = unit.lang == Lang::Fortran;
    let function = unit.kind == UnitKind::Function && unit.result.is_some();
    let mut protos = Vec::new();
    let mut body = String::new();
    for prm in params {
        match prm {
            Param::Int(n) => {
                protos.push(if fortran {
                    format!("const int *{n}")
                } else {
                    format!("long {n}")
                });
                let v = if fortran { format!("*{n}") } else { n.clone() };
                let _ = writeln!(body, "  printf(\"{TAG} I {n} 0 %ld\\n\", (long)({v}));");
            }
            Param::Real(n) => {
                protos.push(if fortran {
                    format!("const double *{n}")
                } else {
                    format!("double {n}")
                });
                let v = if fortran { format!("*{n}") } else { n.clone() };
                let _ = writeln!(body, "  printf(\"{TAG} R {n} 0 %.17e\\n\", {v});");
            }
            Param::RealArray(n, count) => {
                protos.push(format!("const double *{n}"));
                if let Some(c) = count {
                    let _ = writeln!(
                        body,
                        "  for (long k = 0; k < {c}; k++) printf(\"{TAG} R {n} %ld %.17e\\n\", k, {n}[k]);"
                    );
                }
            }
        }
    }
    let ret = if function { "double" } else { "void" };
    let sym = symbol(p, u);
    let mut s = String::from("#include <stdio.h>\n#include <stdlib.h>\n");
    // C heads keep their `int` arguments: declare them as the head does (by value `int`).
    let protos = if fortran {
        protos
    } else {
        protos
            .into_iter()
            .map(|x| x.replacen("long ", "int ", 1))
            .collect()
    };
    let _ = writeln!(s, "{ret} {sym}({}) {{", protos.join(", "));
    s.push_str(&body);
    s.push_str("  fflush(stdout);\n  exit(0);\n");
    if function {
        s.push_str("  return 0;\n");
    }
    s.push_str("}\n");
    s
}

/// Compiles the user's sources with the head weak, the wrapper, links and runs in the
/// current directory (the program may read its data files); returns the wrapper's lines.
fn run(
    job: &Job<'_>,
    tc: &Toolchain,
    lang: Lang,
    sym: &str,
    wrapper_src: &str,
    stem: &str,
) -> Result<Vec<(String, String, usize, String)>, Error> {
    let dir = job.dir.join("context");
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io(format!("{}: {e}", dir.display())))?;
    let compile = |what: &str, r: Result<PathBuf, String>| {
        r.map_err(|message| Error::Compile {
            what: what.into(),
            message,
        })
    };
    let mut objs = Vec::new();
    for s in &job.sources {
        let abs = std::path::absolute(s).unwrap_or_else(|_| s.clone());
        let o = compile("program (-context)", tc.object(&dir, lang, &abs, false))?;
        let weak = std::process::Command::new("objcopy")
            .arg(format!("--weaken-symbol={sym}"))
            .arg(&o)
            .status();
        if !weak.is_ok_and(|s| s.success()) {
            return Err(Error::Compile {
                what: "program (-context)".into(),
                message: format!("objcopy --weaken-symbol={sym} {} failed", o.display()),
            });
        }
        objs.push(o);
    }
    let w = dir.join(format!("{stem}.c"));
    std::fs::write(&w, wrapper_src).map_err(|e| Error::Io(format!("{}: {e}", w.display())))?;
    let exe = compile(
        "context wrapper",
        tc.compile(&dir, lang, &[], &[w], &objs, stem),
    )?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| dir.clone());
    let out = tc.run_in(&cwd, &dir, &exe).map_err(|message| Error::Run {
        what: "program (-context)".into(),
        message,
    })?;
    let lines: Vec<(String, String, usize, String)> = out
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() == 5 && w[0] == TAG).then(|| {
                (
                    w[1].to_string(),
                    w[2].to_ascii_lowercase(),
                    w[3].parse().unwrap_or(0),
                    w[4].to_string(),
                )
            })
        })
        .collect();
    if lines.is_empty() {
        return Err(Error::Run {
            what: "program (-context)".into(),
            message: format!(
                "the main program ended without calling the head (`{sym}`): -context needs a main program among the input files that calls it"
            ),
        });
    }
    Ok(lines)
}

/// Runs the user's main program up to its first call of the head and returns the values
/// it passes, as `-value` settings (integers, real scalars, every element of real arrays
/// in the order the driver fills them).
pub fn capture(job: &Job<'_>) -> Result<Vec<(String, String)>, Error> {
    let gen = job.tangent.output;
    let p = &gen.program;
    let iface = gen
        .interfaces
        .first()
        .ok_or_else(|| Error::Sizing("the differentiation produced no head".into()))?;
    let u = iface.head;
    let lang = p.units[u].lang;
    // Capture builds are not optimised: the head must not be inlined into its caller.
    let mut tc = job.toolchain.clone();
    tc.cflags.push("-O0".into());
    tc.fflags.push("-O0".into());
    tc.check(lang).map_err(Error::NoCompiler)?;
    let mut prms = params(p, u).map_err(Error::Usage)?;
    let sym = symbol(p, u);
    // Run 1: the integers.
    let lines = run(job, &tc, lang, &sym, &wrapper(p, u, &prms), "capture1")?;
    let mut values: Vec<(String, String)> = lines
        .iter()
        .filter(|l| l.0 == "I")
        .map(|l| (l.1.clone(), l.3.clone()))
        .collect();
    // The extents those integers give, through the same description as the driver's.
    let mut sizes = job.sizes.0.clone();
    sizes.extend(values.iter().cloned());
    let h: Head = describe_with(gen, &Sizes(sizes), &[]).map_err(Error::Sizing)?;
    let col_major = lang == Lang::Fortran;
    let mut layouts = Vec::new();
    for prm in &mut prms {
        if let Param::RealArray(n, count) = prm {
            let arg = h.args.iter().find_map(|a| match a {
                HeadArg::Real(r) if r.name.eq_ignore_ascii_case(n) => Some(r),
                _ => None,
            });
            let Some(r) = arg else { continue };
            *count = Some(r.elems.len());
            layouts.push((n.to_ascii_lowercase(), memory_order(&r.extents, col_major)));
        }
    }
    // Run 2: every real.
    let lines = run(job, &tc, lang, &sym, &wrapper(p, u, &prms), "capture2")?;
    for prm in &prms {
        let n = match prm {
            Param::Real(n) | Param::RealArray(n, _) => n.to_ascii_lowercase(),
            Param::Int(_) => continue,
        };
        let mut flat: Vec<(usize, String)> = lines
            .iter()
            .filter(|l| l.0 == "R" && l.1 == n)
            .map(|l| (l.2, l.3.clone()))
            .collect();
        flat.sort_by_key(|x| x.0);
        let texts: Vec<String> = match layouts.iter().find(|l| l.0 == n) {
            // Driver order (first index outermost) from memory order.
            Some((_, order)) => order
                .iter()
                .map(|&k| flat.get(k).map(|x| x.1.clone()).unwrap_or_default())
                .collect(),
            None => flat.into_iter().map(|x| x.1).collect(),
        };
        if !texts.is_empty() {
            values.push((n, texts.join(",")));
        }
    }
    Ok(values)
}

/// For each element in the driver's order (every index combination, first index
/// outermost), its offset in memory (column-major for Fortran, row-major for C).
fn memory_order(extents: &[(i64, i64)], col_major: bool) -> Vec<usize> {
    let mut combos: Vec<Vec<i64>> = vec![Vec::new()];
    for &(lo, hi) in extents {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                (lo..=hi).map(move |i| {
                    let mut v = c.clone();
                    v.push(i);
                    v
                })
            })
            .collect();
    }
    combos
        .iter()
        .map(|ix| {
            let mut off = 0i64;
            let mut stride = 1i64;
            let dims: Vec<usize> = if col_major {
                (0..extents.len()).collect()
            } else {
                (0..extents.len()).rev().collect()
            };
            for d in dims {
                let (lo, hi) = extents[d];
                off += (ix[d] - lo) * stride;
                stride *= hi - lo + 1;
            }
            off as usize
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_order_follows_the_language() {
        // a(1:2, 1:3): driver order a(1,1) a(1,2) a(1,3) a(2,1) …
        assert_eq!(
            memory_order(&[(1, 2), (1, 3)], true),
            vec![0, 2, 4, 1, 3, 5]
        );
        assert_eq!(
            memory_order(&[(0, 1), (0, 2)], false),
            vec![0, 1, 2, 3, 4, 5]
        );
        assert_eq!(memory_order(&[], true), vec![0]);
    }
}
