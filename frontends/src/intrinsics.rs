//! Names of Fortran intrinsic procedures: a name used as a function and not declared as an
//! array is an intrinsic when it is in this list and not declared EXTERNAL.

const FORTRAN_INTRINSICS: &[&str] = &[
    "abs", "achar", "acos", "acosh", "adjustl", "adjustr", "aimag", "aint", "all", "allocated", "alog", "alog10",
    "amax0", "amax1", "amin0", "amin1", "amod", "anint", "any", "asin", "asinh", "associated", "atan", "atan2",
    "atanh", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "bit_size", "btest", "cabs", "ccos", "ceiling",
    "cexp", "char", "clog", "cmplx", "command_argument_count", "conjg", "cos", "cosh", "count", "cpu_time",
    "cshift", "csin", "csqrt", "dabs", "dacos", "dasin", "datan", "datan2", "date_and_time", "dble", "dcmplx",
    "dconjg", "dcos", "dcosh", "ddim", "dexp", "digits", "dim", "dimag", "dint", "dlog", "dlog10", "dmax1",
    "dmin1", "dmod", "dnint", "dot_product", "dprod", "dreal", "dsign", "dsin", "dsinh", "dsqrt", "dtan", "dtanh",
    "eoshift", "epsilon", "erf", "erfc", "erfc_scaled", "exp", "exponent", "findloc", "float", "floor",
    "fraction", "gamma", "get_command_argument", "huge", "hypot", "iabs", "iachar", "iand", "ibclr", "ibits",
    "ibset", "ichar", "idim", "idint", "idnint", "ieor", "ifix", "index", "int", "ior", "ishft", "ishftc", "isign",
    "kind", "lbound", "len", "len_trim", "lge", "lgt", "lle", "llt", "log", "log10", "log_gamma", "logical",
    "matmul", "max", "max0", "max1", "maxexponent", "maxloc", "maxval", "merge", "min", "min0", "min1",
    "minexponent", "minloc", "minval", "mod", "modulo", "move_alloc", "mvbits", "nearest", "new_line", "nint",
    "norm2", "not", "null", "pack", "popcnt", "precision", "present", "product", "radix", "random_number",
    "random_seed", "range", "real", "repeat", "reshape", "rrspacing", "scale", "scan", "selected_int_kind",
    "selected_real_kind", "set_exponent", "shape", "sign", "sin", "sinh", "size", "sngl", "spacing", "spread",
    "sqrt", "sum", "system_clock", "tan", "tanh", "tiny", "trailz", "leadz", "transfer", "transpose", "trim",
    "ubound", "unpack", "verify", "exit", "abort", "storage_size", "c_loc", "c_f_pointer", "is_iostat_end",
    "execute_command_line", "get_environment_variable", "dfloat", "zabs", "zexp", "zsqrt", "cdabs", "cdexp",
    "cdsqrt", "cdlog", "cdsin", "cdcos",
];

/// True for the name of a Fortran intrinsic procedure (lower case).
pub fn is_fortran_intrinsic(name: &str) -> bool {
    FORTRAN_INTRINSICS.contains(&name)
}
