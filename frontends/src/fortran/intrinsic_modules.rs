//! The intrinsic modules' named constants (`iso_fortran_env`, `iso_c_binding`), so that
//! `use, intrinsic :: iso_fortran_env, only: wp => real64` and then `real(wp)` resolve like a
//! user module's PARAMETERs: each module is built once, on first USE, as a module unit that
//! belongs to no input file (it is never written back; the user's USE line is).

use super::lower::*;
use radtap_il::*;

/// Kind and size constants of the intrinsic modules, as gfortran on x86-64 has them.
fn constants(module: &str) -> Option<&'static [(&'static str, i64)]> {
    Some(match module {
        "iso_fortran_env" => &[
            ("real32", 4),
            ("real64", 8),
            ("real128", 16),
            ("int8", 1),
            ("int16", 2),
            ("int32", 4),
            ("int64", 8),
            ("logical8", 1),
            ("logical16", 2),
            ("logical32", 4),
            ("logical64", 8),
            ("character_kinds", 1),
            ("character_storage_size", 8),
            ("numeric_storage_size", 32),
            ("file_storage_size", 8),
            ("input_unit", 5),
            ("output_unit", 6),
            ("error_unit", 0),
            ("iostat_end", -1),
            ("iostat_eor", -2),
        ],
        "iso_c_binding" => &[
            ("c_int", 4),
            ("c_short", 2),
            ("c_long", 8),
            ("c_long_long", 8),
            ("c_signed_char", 1),
            ("c_size_t", 8),
            ("c_int8_t", 1),
            ("c_int16_t", 2),
            ("c_int32_t", 4),
            ("c_int64_t", 8),
            ("c_intptr_t", 8),
            ("c_float", 4),
            ("c_double", 8),
            ("c_long_double", 10),
            ("c_bool", 1),
            ("c_char", 1),
        ],
        // `use mpi` (issue 46): the handles and constants MPI programs name, with OpenMPI's
        // values (only MPI_STATUS_SIZE matters to the analyses: an extent). The routines are
        // described built in (`il/src/library/mpi.lib`).
        // `use mpi_f08`: the same names (its handles are derived types whose one component
        // is the integer handle; to the analyses they are passive either way).
        "mpi" | "mpi_f08" => &[
            ("mpi_comm_world", 0),
            ("mpi_comm_self", 1),
            ("mpi_comm_null", 2),
            ("mpi_integer", 7),
            ("mpi_logical", 6),
            ("mpi_character", 5),
            ("mpi_real", 13),
            ("mpi_double_precision", 17),
            ("mpi_real4", 14),
            ("mpi_real8", 15),
            ("mpi_max", 1),
            ("mpi_min", 2),
            ("mpi_sum", 3),
            ("mpi_prod", 4),
            ("mpi_status_size", 6),
            ("mpi_status_ignore", 0),
            ("mpi_statuses_ignore", 0),
            ("mpi_any_source", -1),
            ("mpi_any_tag", -1),
            ("mpi_proc_null", -2),
            ("mpi_request_null", 0),
            ("mpi_success", 0),
            ("mpi_in_place", 0),
        ],
        _ => return None,
    })
}

impl FortranLowering<'_, '_> {
    /// The unit standing for intrinsic module `module` (built on first use), if radtap
    /// knows its constants.
    pub(super) fn intrinsic_module(&mut self, module: &str) -> Option<UnitId> {
        if let Some(&u) = self.modules.get(module) {
            return Some(u);
        }
        let consts = constants(module)?;
        let global = self.global;
        let scope = self
            .p
            .scopes
            .alloc(ScopeData::new(ScopeKind::Global, Some(global)));
        let uid = self
            .p
            .units
            .alloc(UnitData::new(UnitKind::Module, Lang::Fortran, scope));
        self.p.scopes[scope].kind = ScopeKind::Unit(uid);
        let name = self
            .p
            .symbols
            .alloc(sym_data(module, SymbolKind::Module, global));
        self.p.symbols[name].unit = Some(uid);
        self.p.units[uid].name = Some(name);
        let mut params = Vec::new();
        for &(n, v) in consts {
            let mut d = sym_data(n, SymbolKind::Variable, scope);
            d.ty = Some(Type {
                base: BaseClass::Integer,
                bytes: Some(4),
                dims: vec![],
                pointers: 0,
            });
            d.attrs.constant = true;
            let s = self.p.add_symbol(scope, key(n), d);
            let e = self.p.units[uid].exprs.alloc(Expr::Literal(Literal {
                kind: LitKind::Int,
                text: v.to_string(),
            }));
            params.push((s, e));
        }
        self.p.units[uid].decls.push(Decl::Parameter(params));
        self.modules.insert(module.to_string(), uid);
        Some(uid)
    }
}
