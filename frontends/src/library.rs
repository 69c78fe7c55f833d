//! Stand-ins for described routines: a routine without source that a description knows
//! ([`radtap_il::library`]) gets a body written from the description, parsed with the
//! program, so the analyses read its effects like any code's — it reads its inputs, writes its
//! outputs, and each output is a sum of the inputs it depends on (a linear stand-in: the
//! dependence is what activity, diff-liveness and TBR need; the values are never computed).
//! The generators never write a stand-in's derivative: they call `NAME_d` / `NAME_b`, the
//! user's (`-ext`) or radtap's own (built-in records).

use radtap_il::library::{BaseHint, Description, Library, TypeHint};
use radtap_il::{BaseClass, Decl, DeclOp, Lang, Program, SymbolKind, UnitKind};
use std::collections::{BTreeMap, HashSet};

use crate::Input;

/// The path of the stand-in file of a language.
pub fn stub_path(lang: Lang) -> &'static str {
    match lang {
        Lang::Fortran => radtap_il::library::STAND_IN_FILES[0],
        Lang::C => radtap_il::library::STAND_IN_FILES[1],
    }
}

/// Whether `prog` names a routine it does not define that is neither an intrinsic nor a C
/// library function radtap knows: only then can a description matter.
pub fn calls_undefined(prog: &Program) -> bool {
    let mut defined: HashSet<String> = HashSet::new();
    for (_, u) in prog.units.iter() {
        if matches!(u.kind, UnitKind::Subroutine | UnitKind::Function) {
            if let Some(n) = u.name {
                defined.insert(prog.symbols[n].spelling.to_ascii_lowercase());
            }
        }
    }
    prog.symbols.iter().any(|(_, s)| {
        let candidate = match s.kind {
            SymbolKind::Procedure | SymbolKind::Generic => true,
            SymbolKind::Intrinsic => radtap_il::clib::c_library(&s.spelling).is_none(),
            _ => false,
        };
        candidate && !defined.contains(&s.spelling.to_ascii_lowercase())
    })
}

/// The described routines `prog` calls without defining them, by language, with the
/// stand-in file of each language that has one.
pub fn stand_ins(prog: &Program, lib: &Library) -> Vec<(Input, Vec<String>)> {
    let mut defined: HashSet<String> = HashSet::new();
    for (_, u) in prog.units.iter() {
        if matches!(u.kind, UnitKind::Subroutine | UnitKind::Function) {
            if let Some(n) = u.name {
                defined.insert(prog.symbols[n].spelling.to_ascii_lowercase());
            }
        }
    }
    // name → (language, the first call's argument symbols' types, C prototype parameters)
    let mut wanted: BTreeMap<String, (Lang, &Description)> = BTreeMap::new();
    for (_, s) in prog.symbols.iter() {
        if !matches!(
            s.kind,
            SymbolKind::Procedure | SymbolKind::Intrinsic | SymbolKind::Generic
        ) {
            continue;
        }
        let key = s.spelling.to_ascii_lowercase();
        if defined.contains(&key) || wanted.contains_key(&key) {
            continue;
        }
        let lang = match prog.scopes[s.scope].kind {
            radtap_il::ScopeKind::Unit(u) => prog.units[u].lang,
            _ => prog.files.first().map(|f| f.lang).unwrap_or(Lang::Fortran),
        };
        // A Fortran name's record is the lower-case one when there is one (MPI has a record
        // per language: `mpi_send` takes the error code `MPI_Send` does not).
        let found = match lang {
            Lang::Fortran => lib.routines.get(&key).or_else(|| lib.get(&s.spelling)),
            Lang::C => lib.get(&s.spelling),
        };
        let Some(d) = found else {
            continue;
        };
        // A C name is exact; a Fortran name is matched without case.
        if lang == Lang::C && d.name != s.spelling {
            continue;
        }
        wanted.insert(key, (lang, d));
    }
    let mut out = Vec::new();
    for lang in [Lang::Fortran, Lang::C] {
        let mut text = String::new();
        let mut names = Vec::new();
        for (_, (l, d)) in wanted.iter().filter(|(_, (l, _))| *l == lang) {
            let body = match l {
                Lang::Fortran => fortran_stand_in(d),
                Lang::C => c_stand_in(prog, d),
            };
            text.push_str(&body);
            names.push(d.name.clone());
        }
        if !names.is_empty() {
            out.push((
                Input {
                    path: stub_path(lang).to_string(),
                    text,
                },
                names,
            ));
        }
    }
    out
}

/// Argument names of a stand-in: `a1`, `a2`, … (the result is the function's name).
fn arg(i: usize) -> String {
    format!("a{}", i + 1)
}

fn fortran_type(t: TypeHint) -> String {
    match t.base {
        BaseHint::Real | BaseHint::Unknown => format!("real({})", t.kind.unwrap_or(8)),
        BaseHint::Complex => format!("complex({})", t.kind.unwrap_or(8)),
        BaseHint::Integer => "integer".into(),
        BaseHint::Logical => "logical".into(),
        BaseHint::Character => "character(*)".into(),
    }
}

/// A reference to argument `i` as one value: `a2(radtap_k)` for an array, at a subscript
/// nothing knows, so that every element may be the one read or written (a constant
/// subscript would tell the recording rule that the routine writes that element only).
fn fortran_ref(d: &Description, i: usize) -> String {
    let array = d.param(i).is_some_and(|f| f.ty.array);
    if array {
        format!("{}(radtap_k)", arg(i))
    } else {
        arg(i)
    }
}

/// Whether argument `i` can be summed (a number).
fn numeric(d: &Description, i: usize) -> bool {
    d.param(i).is_none_or(|f| {
        matches!(
            f.ty.base,
            BaseHint::Real | BaseHint::Complex | BaseHint::Integer | BaseHint::Unknown
        )
    })
}

/// The shape element index → argument index (None: the result).
fn arg_of(d: &Description, k: usize) -> Option<usize> {
    match d.shape[k] {
        radtap_il::library::Place::Param(i) | radtap_il::library::Place::Dest(i) => Some(i),
        radtap_il::library::Place::Result => None,
    }
}

fn fortran_stand_in(d: &Description) -> String {
    // A built-in record's own stand-in, touching what the routine touches (its footprint).
    if d.builtin {
        if let Some(text) =
            radtap_il::library::builtin_derivative("f_s", &d.name.to_ascii_lowercase())
        {
            return text + "\n";
        }
    }
    let n = d.arity();
    let args: Vec<String> = (0..n).map(arg).collect();
    let mut s = String::new();
    let rty = d.result().map(|r| fortran_type(r.ty)).unwrap_or_default();
    if d.function {
        s.push_str(&format!("{rty} function {}({})\n", d.name, args.join(", ")));
    } else {
        s.push_str(&format!("subroutine {}({})\n", d.name, args.join(", ")));
    }
    s.push_str("  implicit none\n");
    for i in 0..n {
        let f = d.param(i);
        let ty = f.map(|f| f.ty).unwrap_or_default();
        let dims = if ty.array { "(*)" } else { "" };
        s.push_str(&format!("  {} :: {}{dims}\n", fortran_type(ty), arg(i)));
    }
    s.push_str("  integer :: radtap_reads, radtap_k\n");
    // Reads no dependence shows (sizes, strides, flags): counted, so checkpoints keep them.
    let mut read_only = Vec::new();
    for (k, f) in d.facts.iter().enumerate() {
        let Some(i) = arg_of(d, k) else { continue };
        if f.read && !read_only.contains(&i) {
            read_only.push(i);
        }
    }
    let reads: Vec<String> = read_only
        .iter()
        .map(|&i| match d.param(i).map(|f| f.ty.base) {
            Some(BaseHint::Character) => format!("len({})", arg(i)),
            Some(BaseHint::Logical) => format!("merge(1, 0, {})", fortran_ref(d, i)),
            Some(BaseHint::Integer) => fortran_ref(d, i),
            _ => format!("int({})", fortran_ref(d, i)),
        })
        .collect();
    if !reads.is_empty() {
        s.push_str(&format!("  radtap_reads = {}\n", reads.join(" + ")));
    }
    for (k, f) in d.facts.iter().enumerate() {
        let Some(deps) = f.deps.as_ref().filter(|_| f.written) else {
            continue;
        };
        let lhs = match arg_of(d, k) {
            Some(i) => fortran_ref(d, i),
            None => d.name.clone(),
        };
        let terms: Vec<String> = deps
            .iter()
            .filter_map(|&j| arg_of(d, j))
            .filter(|&j| numeric(d, j))
            .map(|j| fortran_ref(d, j))
            .collect();
        let rhs = if terms.is_empty() {
            "0".to_string()
        } else {
            terms.join(" + ")
        };
        s.push_str(&format!("  {lhs} = {rhs}\n"));
    }
    if d.function {
        s.push_str(&format!("end function {}\n\n", d.name));
    } else {
        s.push_str(&format!("end subroutine {}\n\n", d.name));
    }
    s
}

/// The parameter types of C function `name`'s prototype in the program.
fn c_prototype(prog: &Program, name: &str) -> Option<(String, Vec<radtap_il::CParam>)> {
    for (_, u) in prog.units.iter() {
        if u.kind != UnitKind::CFile {
            continue;
        }
        for d in &u.decls {
            let Decl::Var(v) = d else { continue };
            for e in &v.entities {
                if prog.symbols[e.sym].spelling != name {
                    continue;
                }
                if let Some(DeclOp::Function(ps, _)) = e.derived.last() {
                    let ptr = e
                        .derived
                        .iter()
                        .filter(|o| matches!(o, DeclOp::Pointer(_)))
                        .count();
                    let ret = format!("{}{}", v.spec.keyword, " *".repeat(ptr));
                    return Some((ret, ps.clone()));
                }
            }
        }
    }
    None
}

fn c_base(t: TypeHint) -> &'static str {
    match t.base {
        BaseHint::Real | BaseHint::Unknown | BaseHint::Complex if t.kind == Some(4) => "float",
        BaseHint::Real | BaseHint::Unknown | BaseHint::Complex => "double",
        BaseHint::Integer => "int",
        BaseHint::Logical => "int",
        BaseHint::Character => "char",
    }
}

fn c_stand_in(prog: &Program, d: &Description) -> String {
    let n = d.arity();
    let proto = c_prototype(prog, &d.name);
    // Parameter i: (declaration, is a pointer, is real).
    let mut params = Vec::new();
    for i in 0..n {
        let from_proto = proto.as_ref().and_then(|(_, ps)| ps.get(i)).map(|p| {
            let stars = p
                .derived
                .iter()
                .filter(|o| matches!(o, DeclOp::Pointer(_)))
                .count()
                + p.dims.len();
            let ty = match p.spec.class {
                BaseClass::Enum | BaseClass::Opaque => "int".to_string(),
                _ => p.spec.keyword.clone(),
            };
            (
                format!("{ty} {}{}", "*".repeat(stars), arg(i)),
                stars > 0,
                p.spec.class == BaseClass::Real,
            )
        });
        params.push(from_proto.unwrap_or_else(|| {
            let f = d.param(i);
            let ty = f.map(|f| f.ty).unwrap_or_default();
            let ptr = d.shape.contains(&radtap_il::library::Place::Dest(i)) || ty.array;
            (
                format!("{} {}{}", c_base(ty), if ptr { "*" } else { "" }, arg(i)),
                ptr,
                matches!(ty.base, BaseHint::Real | BaseHint::Unknown),
            )
        }));
    }
    let ret = match (&proto, d.result()) {
        (Some((r, _)), _) => r.clone(),
        (None, Some(r)) => c_base(r.ty).to_string(),
        (None, None) => "void".into(),
    };
    let decls: Vec<&str> = params.iter().map(|p| p.0.as_str()).collect();
    let mut s = format!(
        "{ret} {}({}) {{\n",
        d.name,
        if decls.is_empty() {
            "void".to_string()
        } else {
            decls.join(", ")
        }
    );
    if radtap_il::library::is_mpi(d) {
        s.push_str(&mpi_c_body(d, &params));
        return s;
    }
    // Any element (see `fortran_ref`).
    s.push_str("    int radtap_k;\n");
    let cref = |i: usize| -> String {
        if params.get(i).is_some_and(|p| p.1) {
            format!("{}[radtap_k]", arg(i))
        } else {
            arg(i)
        }
    };
    let mut reads = Vec::new();
    for (k, f) in d.facts.iter().enumerate() {
        if let Some(i) = arg_of(d, k) {
            if f.read && numeric(d, i) && !reads.contains(&cref(i)) {
                reads.push(cref(i));
            }
        }
    }
    if !reads.is_empty() {
        s.push_str(&format!(
            "    double radtap_reads = {};\n",
            reads.join(" + ")
        ));
        s.push_str("    (void)radtap_reads;\n");
    }
    let mut result = None;
    for (k, f) in d.facts.iter().enumerate() {
        let Some(deps) = f.deps.as_ref().filter(|_| f.written) else {
            continue;
        };
        let terms: Vec<String> = deps
            .iter()
            .filter_map(|&j| arg_of(d, j))
            .filter(|&j| numeric(d, j))
            .map(cref)
            .collect();
        let rhs = if terms.is_empty() {
            "0".to_string()
        } else {
            terms.join(" + ")
        };
        match arg_of(d, k) {
            Some(i) => s.push_str(&format!("    {} = {rhs};\n", cref(i))),
            None => result = Some(rhs),
        }
    }
    if let Some(r) = result {
        s.push_str(&format!("    return {r};\n"));
    }
    s.push_str("}\n\n");
    s
}

/// Whether argument `i` of the MPI routine `d` is the root's side of a gather or a scatter
/// (`count` elements from or to each rank, at displacements for the `v` forms): its stand-in
/// touches any element of it, as the number of ranks is not known before the run.
fn mpi_root_side(d: &Description, i: usize) -> bool {
    let n = d.name.to_ascii_lowercase();
    match i {
        0 => matches!(n.as_str(), "mpi_scatter" | "mpi_scatterv"),
        3 => matches!(n.as_str(), "mpi_gather" | "mpi_allgather" | "mpi_gatherv"),
        _ => false,
    }
}

/// The body of an MPI routine's C stand-in (issue 46): each message buffer is touched over
/// its `count` elements (the first integer argument after it), so the recording rule sees the
/// elements a call writes (`&u[n]`, one element) instead of any element of the array.
/// `params[i]`: (declaration, is a pointer, is real).
fn mpi_c_body(d: &Description, params: &[(String, bool, bool)]) -> String {
    let buffer =
        |i: usize| params.get(i).is_some_and(|p| p.1) && d.param(i).is_some_and(|f| f.ty.array);
    let count = |i: usize| {
        (i + 1..params.len())
            .find(|&j| !params[j].1 && d.param(j).is_some_and(|f| f.ty.base == BaseHint::Integer))
    };
    let mut s = String::from("    int radtap_k, radtap_any;\n    double radtap_reads = 0;\n");
    for (k, f) in d.facts.iter().enumerate() {
        let Some(i) = arg_of(d, k) else { continue };
        if !f.read {
            continue;
        }
        match (buffer(i), count(i)) {
            (true, _) if mpi_root_side(d, i) => {
                s.push_str(&format!("    radtap_reads += {}[radtap_any];\n", arg(i)))
            }
            (true, Some(c)) => s.push_str(&format!(
                "    for (radtap_k = 0; radtap_k < {}; radtap_k++)\n        radtap_reads += {}[radtap_k];\n",
                arg(c),
                arg(i)
            )),
            (true, None) => s.push_str(&format!("    radtap_reads += {}[0];\n", arg(i))),
            (false, _) if params.get(i).is_some_and(|p| p.1) => {
                s.push_str(&format!("    radtap_reads += {}[0];\n", arg(i)))
            }
            (false, _) => s.push_str(&format!("    radtap_reads += {};\n", arg(i))),
        }
    }
    s.push_str("    (void)radtap_reads;\n");
    for (k, f) in d.facts.iter().enumerate() {
        let (Some(i), Some(deps)) = (arg_of(d, k), f.deps.as_ref().filter(|_| f.written)) else {
            continue;
        };
        let terms: Vec<String> = deps
            .iter()
            .filter_map(|&j| arg_of(d, j))
            .filter(|&j| buffer(j))
            .map(|j| format!("{}[radtap_k]", arg(j)))
            .collect();
        let rhs = if terms.is_empty() {
            "0".to_string()
        } else {
            terms.join(" + ")
        };
        match (buffer(i), count(i)) {
            (true, _) if mpi_root_side(d, i) => s.push_str(&format!(
                "    {}[radtap_any] = {};\n",
                arg(i),
                rhs.replace("[radtap_k]", "[radtap_any]")
            )),
            (true, Some(c)) => s.push_str(&format!(
                "    for (radtap_k = 0; radtap_k < {}; radtap_k++)\n        {}[radtap_k] = {rhs};\n",
                arg(c),
                arg(i)
            )),
            // A status or request: its first element (an integer the layer never reads back).
            _ => s.push_str(&format!("    {}[0] = 0;\n", arg(i))),
        }
    }
    s.push_str("}\n\n");
    s
}
