//! Drivers that do not grow with the data: a real array argument is filled, seeded and
//! printed by a loop nest over its indices, its values read from a binary data file the
//! driver opens at start (`Spec::data`) rather than written as one statement per element
//! (SPEEDY's 96×48×8 arrays made a 521 MB driver).
//!
//! The data file holds native `f64`s: the K input elements (the `-value` given or the
//! pseudo-random sequence), the NDIR tangent directions on them, then ȳ on the M dependent
//! elements, each block in the order of [`Head::inputs`] / the dependents and, inside an
//! argument, of its `elems` (first index outermost).

use crate::head::{FixedArg, Head, RealArg};
use std::fmt::Write as _;

/// The directions of the tangent drivers (`driver::NDIR`).
pub const NDIR: usize = 3;

/// The deepest loop nest (Fortran's rank limit).
pub const MAX_RANK: usize = 15;

/// The driver's counter of the element in its block.
pub const K: &str = "radtap_k";
/// The data array.
pub const V: &str = "radtap_v";

/// Whether a driver with a data file (`data`) handles `a` by loops (an array of reals or
/// of records).
pub fn looped(a: &RealArg, data: bool) -> bool {
    data && !a.extents.is_empty()
}

/// The leaves of each element of looped argument `a`, in `elems` order: the access suffix
/// after the index (`.x[1]`, `%v(2)`; empty for a real array) and whether it has a
/// derivative.
pub fn leaves(a: &RealArg, c: bool) -> Vec<(String, bool)> {
    let n: i64 = a.extents.iter().map(|(lo, hi)| hi - lo + 1).product();
    let per = a.elems.len() / (n.max(1) as usize);
    let first = if c {
        a.extents
            .iter()
            .map(|(lo, _)| format!("[{lo}]"))
            .collect::<String>()
    } else {
        let lo: Vec<String> = a.extents.iter().map(|(lo, _)| lo.to_string()).collect();
        format!("({})", lo.join(","))
    };
    a.elems[..per]
        .iter()
        .map(|e| {
            (
                e.get(first.len()..).unwrap_or("").to_string(),
                a.has_deriv(e),
            )
        })
        .collect()
}

/// Offsets of the data file's blocks (in elements).
pub struct Layout {
    /// Input elements (K).
    pub inputs: usize,
    /// Dependent elements (M).
    pub deps: usize,
}

impl Layout {
    pub fn of(h: &Head) -> Layout {
        Layout {
            inputs: h.inputs().map(|a| a.elems.len()).sum(),
            deps: h.real_args().filter(|a| a.dep).map(|a| a.elems.len()).sum(),
        }
    }
    /// The inputs' values.
    pub fn input(&self) -> usize {
        0
    }
    /// Direction `d` (1-based).
    pub fn dir(&self, d: usize) -> usize {
        d * self.inputs
    }
    /// ȳ.
    pub fn ybar(&self) -> usize {
        (NDIR + 1) * self.inputs
    }
    pub fn len(&self) -> usize {
        self.ybar() + self.deps
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An element of the data array: `radtap_v(1+off+radtap_k)` / `radtap_v[off+radtap_k]`.
pub fn at(c: bool, off: usize) -> String {
    if c {
        format!("{V}[{off} + {K}]")
    } else {
        format!("{V}({} + {K})", off + 1)
    }
}

/// The element suffix inside a nest of `rank` loops: `(radtap_i1,radtap_i2)` /
/// `[radtap_i1][radtap_i2]`.
pub fn index(c: bool, rank: usize) -> String {
    let ix: Vec<String> = (1..=rank).map(|j| format!("radtap_i{j}")).collect();
    if c {
        ix.iter().map(|i| format!("[{i}]")).collect()
    } else {
        format!("({})", ix.join(","))
    }
}

/// A loop nest over `ext` (first index outermost, as `elems`) setting `radtap_k` to `k0`
/// plus `per` times the element's place in that order (`per` values per element: the
/// leaves of a record), around `stmts`.
pub fn nest(c: bool, ext: &[(i64, i64)], k0: usize, per: usize, stmts: &[String]) -> String {
    let rank = ext.len();
    let mut stride = vec![per as i64; rank];
    for j in (0..rank.saturating_sub(1)).rev() {
        stride[j] = stride[j + 1] * (ext[j + 1].1 - ext[j + 1].0 + 1);
    }
    let mut k = k0.to_string();
    for (j, &(lo, _)) in ext.iter().enumerate() {
        let _ = write!(k, " + (radtap_i{} - ({lo}))*{}", j + 1, stride[j]);
    }
    let mut s = String::new();
    // The first index outermost in both languages: the lines print in the order of `elems`,
    // which is the order the report reads them in.
    for (j, &(lo, hi)) in ext.iter().enumerate() {
        if c {
            let _ = writeln!(
                s,
                "  for (radtap_i{0} = {lo}; radtap_i{0} <= {hi}; radtap_i{0}++) {{",
                j + 1
            );
        } else {
            let _ = writeln!(s, "  do radtap_i{} = {lo}, {hi}", j + 1);
        }
    }
    let end = if c { ";" } else { "" };
    let _ = writeln!(s, "    {K} = {k}{end}");
    for st in stmts {
        let _ = writeln!(s, "    {st}{end}");
    }
    for _ in 0..rank {
        s.push_str(if c { "  }\n" } else { "  end do\n" });
    }
    s
}

/// Whether a fixed argument's values are one value for all elements, or the default
/// integer sequence (1, 2, 3, 1, … / 0, 1, 2, 0, …): the loop's right-hand side, if so.
pub fn fixed_rhs(f: &FixedArg, c: bool) -> Option<String> {
    if f.extents.is_empty() || f.init.len() < 2 {
        return None;
    }
    if f.init.iter().all(|v| v == &f.init[0]) {
        return Some(f.init[0].clone());
    }
    let pattern =
        (0..f.init.len()).all(|k| f.init[k] == (k as i64 % 3 + i64::from(!c)).to_string());
    pattern.then(|| {
        if c {
            format!("{K} % 3")
        } else {
            format!("mod({K}, 3) + 1")
        }
    })
}

/// The binary output file of a driver whose data file is `data`: the values of the loops'
/// prints, in print order, as native `f64`s.
pub fn output_name(data: &str) -> String {
    format!("{}.bin", data.strip_suffix(".dat").unwrap_or(data))
}

/// The driver's binary output unit / stream.
pub const O: &str = "radtap_o";

/// The text line standing for `n` values of tag `tag` that follow in the binary output
/// (`TAG name k0 @n`; [`crate::build::parse_out_with`] reads them), a full statement.
pub fn marker(c: bool, tag: &str, name: &str, k0: usize, n: usize) -> String {
    if c {
        format!("  printf(\"{tag} {name} {k0} @{n}\\n\");\n")
    } else {
        format!("  write(*,'(a)') '{tag} {name} {k0} @{n}'\n")
    }
}

/// The statement writing `x` to the binary output (without its `;`).
pub fn put(c: bool, x: &str) -> String {
    if c {
        format!(
            "{{ double radtap_t = (double)({x}); fwrite(&radtap_t, sizeof radtap_t, 1, {O}); }}"
        )
    } else {
        format!("write({O}) real({x}, 8)")
    }
}

/// The declarations, the reading of the data file `file` of `n` values and the opening of
/// the binary output (at the start of the driver's body), and the closing (at its end).
pub fn prologue(c: bool, file: &str, n: usize) -> (String, String, String) {
    let idx: Vec<String> = (1..=MAX_RANK).map(|j| format!("radtap_i{j}")).collect();
    let n = n.max(1);
    let out = output_name(file);
    if c {
        (
            format!(
                "  static double {V}[{n}];\n  long {K}, {};\n  FILE *{O};\n",
                idx.join(", ")
            ),
            format!(
                "  {{\n    FILE *radtap_f = fopen(\"{file}\", \"rb\");\n    if (!radtap_f || fread({V}, sizeof(double), {n}, radtap_f) != {n}) {{\n      fprintf(stderr, \"radtap: cannot read {file}\\n\");\n      return 1;\n    }}\n    fclose(radtap_f);\n  }}\n  {O} = fopen(\"{out}\", \"wb\");\n  if (!{O}) {{\n    fprintf(stderr, \"radtap: cannot write {out}\\n\");\n    return 1;\n  }}\n  (void){K};\n"
            ),
            format!("  fclose({O});\n"),
        )
    } else {
        (
            format!(
                "  integer :: {K}, radtap_u, {O}, {}\n  real(8), allocatable :: {V}(:)\n",
                idx.join(", ")
            ),
            format!(
                "  allocate({V}({n}))\n  open(newunit=radtap_u, file='{file}', access='stream', form='unformatted', status='old', action='read')\n  read(radtap_u) {V}\n  close(radtap_u)\n  open(newunit={O}, file='{out}', access='stream', form='unformatted', status='replace', action='write')\n"
            ),
            format!("  close({O})\n  deallocate({V})\n"),
        )
    }
}
