//! Edge-case programs (issue 16) that radtap refuses: each construct is refused with
//! AD020 at its line, in the modes listed, never differentiated silently wrong. The
//! programs are `tests/edge_refused/*` (refused in tangent mode too) and corpus programs
//! `tests/tangent/e_*` whose tangent is proven by the numeric suites but whose adjoint is
//! refused (they are listed in `ADJOINT_UNSUPPORTED` as well).

mod common;

use common::*;
use std::path::Path;

/// (file under tests/, modes, expected location, expected message)
type Case = (
    &'static str,
    &'static [&'static [&'static str]],
    &'static str,
    &'static str,
);

const D_B: &[&[&str]] = &[&["-d"], &["-d", "-vector"], &["-b"]];
const B: &[&[&str]] = &[&["-b"]];
const SPLIT: &[&[&str]] = &[&["-b", "-nocheckpoint"]];
const D: &[&[&str]] = &[&["-d"], &["-d", "-vector"]];
const VECTOR: &[&[&str]] = &[&["-d", "-vector"]];
const EVERY: &[&[&str]] = &[
    &["-d"],
    &["-d", "-vector"],
    &["-b"],
    &["-b", "-nocheckpoint"],
];

const REFUSED: &[Case] = &[
    (
        "edge_refused/e_c_void_content.c",
        EVERY,
        "e_c_void_content.c:16:17: error[AD020]",
        "`y` reaches real data through an untyped pointer (`void *`) cast here",
    ),
    (
        "edge_refused/d_c_reset_reads.c",
        D,
        "d_c_reset_reads.c:16:5: error[AD020]",
        "`halve` reads what it overwrites",
    ),
    (
        "edge_refused/d_c_reset_external.c",
        D,
        "d_c_reset_external.c:10:5: error[AD020]",
        "`zero_out` has no source to differentiate",
    ),
    (
        "edge_refused/e_c_variadic_active.c",
        EVERY,
        "e_c_variadic_active.c:9:1: error[AD020]",
        "a variadic C function (`...`) with a derivative is not supported yet",
    ),
    (
        "edge_refused/e_c_omp_critical.c",
        &[&["-b"], &["-b", "-nocheckpoint"]],
        "e_c_omp_critical.c:11:1: error[AD020]",
        "a critical section that sets a shared variable other than by increments",
    ),
    (
        "edge_refused/b_f_omp_critical_max.f90",
        &[&["-b"], &["-b", "-nocheckpoint"]],
        "b_f_omp_critical_max.f90:15:5: error[AD020]",
        "a critical section that sets a shared variable other than by increments",
    ),
    (
        "edge_refused/e_c_omp_barrier_in_loop.c",
        EVERY,
        "e_c_omp_barrier_in_loop.c:13:1: error[AD020]",
        "`#pragma omp barrier` is supported between the `omp for` loops of a `#pragma omp parallel` region only",
    ),
    (
        "edge_refused/e_f_omp_sections.f90",
        EVERY,
        "e_f_omp_sections.f90:9:3: error[AD020]",
        "OpenMP `sections` is not supported yet",
    ),
    (
        "edge_refused/e_c_omp_orphan_for.c",
        EVERY,
        "e_c_omp_orphan_for.c:8:1: error[AD020]",
        "`#pragma omp for` outside a `#pragma omp parallel` region",
    ),
    (
        "edge_refused/b_c_omp_in_place.c",
        B,
        "b_c_omp_in_place.c:11:5: error[AD020]",
        "a parallel loop that overwrites what its iterations read",
    ),
    (
        "edge_refused/b_c_omp_product_reduction.c",
        D_B,
        "b_c_omp_product_reduction.c:9:5: error[AD020]",
        "`reduction(*: …)` of an active variable",
    ),
    (
        "edge_refused/b_c_omp_lastprivate.c",
        B,
        "b_c_omp_lastprivate.c:10:5: error[AD020]",
        "`lastprivate` of an active array or pointer in a parallel loop",
    ),
    (
        "edge_refused/e_c_omp_single_private.c",
        D_B,
        "e_c_omp_single_private.c:15:1: error[AD020]",
        "a `single` / `master` block reading or writing `t`, a private variable of its region",
    ),
    (
        "edge_refused/e_f_omp_single_private.f90",
        D_B,
        "e_f_omp_single_private.f90:12:3: error[AD020]",
        "`single` with clauses other than `nowait`",
    ),
    (
        "edge_refused/e_c_undeclared_library_call.c",
        EVERY,
        "e_c_undeclared_library_call.c:12:5: error[AD070]",
        "`ext_scale` has no body in the input files and no derivative",
    ),
    (
        "edge_refused/e_c_mpi_alltoall.c",
        EVERY,
        "e_c_mpi_alltoall.c:12:5: error[AD070]",
        "`MPI_Alltoall` is an MPI call radtap does not differentiate yet",
    ),
    (
        "edge_refused/e_c_unknown_call_writes_global.c",
        EVERY,
        "e_c_unknown_call_writes_global.c:13:5: error[AD070]",
        "`ext_touch` has no body in the input files and no derivative",
    ),
    (
        "edge_refused/e_f_unread_module_assigned.f90",
        EVERY,
        "e_f_unread_module_assigned.f90:8:3: error[AD020]",
        "an assignment to `g`, a name of a module that is not among the input files",
    ),
    (
        "edge_refused/e_f_external_writes_common.f90",
        EVERY,
        "e_f_external_writes_common.f90:10:3: error[AD070]",
        "`ext_touch` has no body in the input files and no derivative",
    ),
    (
        "edge_refused/e_f77_dummy_several_state.f",
        D_B,
        "e_f77_dummy_several_state.f:25:7: error[AD020]",
        "a call through the dummy procedure `F`, which receives several different procedures",
    ),
    (
        "edge_refused/e_f_move_alloc.f90",
        D_B,
        "e_f_move_alloc.f90:13:3: error[AD020]",
        "`move_alloc` of active real data is not differentiated yet",
    ),
    (
        "edge_refused/b_c_split_value_call.c",
        SPLIT,
        "b_c_split_value_call.c:16:9: error[AD020]",
        "a reference to the function `step`",
    ),
    (
        "edge_refused/e_c_pointer_to_rows_filled.c",
        D_B,
        "e_c_pointer_to_rows_filled.c:18:5: error[AD020]",
        "a pointer to an array or an array of pointers (`a`) of reals",
    ),
    (
        "edge_refused/b_c_binomial_rotated_buffers.c",
        B,
        "b_c_binomial_rotated_buffers.c:23:9: error[AD020]",
        "a pointer assignment inside a `$AD BINOMIAL-CKP` region",
    ),
    (
        "edge_refused/b_f_growing_array.f90",
        B,
        "b_f_growing_array.f90:14:5: error[AD020]",
        "an assignment changing the shape of the allocatable `acc`",
    ),
    (
        "edge_refused/b_f_allocation_on_assignment.f90",
        B,
        "b_f_allocation_on_assignment.f90:10:3: error[AD020]",
        "allocation on assignment of the local allocatable `t`",
    ),
    (
        "edge_refused/b_f_allocated_twice.f90",
        B,
        "b_f_allocated_twice.f90:15:3: error[AD020]",
        "a second ALLOCATE of the local `w`",
    ),
    (
        "edge_refused/b_f_binomial_save_state.f90",
        B,
        "b_f_binomial_save_state.f90:27:5: error[AD020]",
        "the BINOMIAL-CKP loop runs its steps again in the backward sweep",
    ),
    (
        "edge_refused/d_f_forall_pure_call.f90",
        D,
        "d_f_forall_pure_call.f90:17:5: error[AD020]",
        "a reference to the procedure `g` inside FORALL, with derivatives",
    ),
    (
        "edge_refused/v_f_where_mask_rewritten.f90",
        VECTOR,
        "v_f_where_mask_rewritten.f90:10:3: error[AD020]",
        "a WHERE whose masks read what its assignments write is not supported in vector mode",
    ),
    (
        "edge_refused/e_c_store_through_call.c",
        D_B,
        "e_c_store_through_call.c:10:5: error[AD020]",
        "a store through an address radtap cannot follow",
    ),
    (
        "edge_refused/e_c_store_conditional_address.c",
        D_B,
        "e_c_store_conditional_address.c:8:5: error[AD020]",
        "a store through an address radtap cannot follow",
    ),
    (
        "edge_refused/v_c_float_param_actual.c",
        VECTOR,
        "v_c_float_param_actual.c:23:5: error[AD020]",
        "in vector mode, a real argument of another precision than its parameter",
    ),
    (
        "edge_refused/v_f_array_component_actual.f90",
        VECTOR,
        "v_f_array_component_actual.f90:20:5: error[AD020]",
        "in vector mode, passing an array component of a record with a derivative (`m%p`)",
    ),
    (
        "edge_refused/v_c_value_changed_by_call.c",
        VECTOR,
        "v_c_value_changed_by_call.c:16:5: error[AD020]",
        "in vector mode, passing by value what the call changes",
    ),
    (
        "edge_refused/b_c_split_value_changed.c",
        SPLIT,
        "b_c_split_value_changed.c:11:5: error[AD020]",
        "passing by value what the call changes (`sq(z, &z)`)",
    ),
    (
        "edge_refused/e_c_function_pointer_call.c",
        D_B,
        "e_c_function_pointer_call.c:13:5: error[AD070]",
        "a call through a function pointer carries derivatives",
    ),
    (
        "edge_refused/e_c_union_members.c",
        D_B,
        "e_c_union_members.c:11:1: error[AD020]",
        "the union `(anonymous)` holds values that carry derivatives",
    ),
    (
        "edge_refused/e_f_saved_table_filled_by_original.f90",
        D_B,
        "e_f_saved_table_filled_by_original.f90:21:5: error[AD020]",
        "`setk` keeps `memory` from one call to the next, and this call runs the original `setk`",
    ),
    (
        "edge_refused/b_f_saved_state_needed_by_adjoint.f90",
        B,
        "b_f_saved_state_needed_by_adjoint.f90:10:3: error[AD020]",
        "a checkpointed call runs the original `source` forwards and `source_b` backwards",
    ),
    (
        "edge_refused/b_f_saved_state_in_checkpoint.f90",
        B,
        "b_f_saved_state_in_checkpoint.f90:24:5: error[AD020]",
        "are in `s` (saved in `step`), which `mid` cannot record",
    ),
    (
        "edge_refused/b_f77_saved_column_carried.f",
        B,
        "b_f77_saved_column_carried.f:12:7: error[AD020]",
        "are in `DT` (saved in `RESFJ`), which `COLFJ` cannot record",
    ),
    (
        "edge_refused/b_f_saved_allocatable.f90",
        B,
        "b_f_saved_allocatable.f90:10:3: error[AD020]",
        "the saved allocatable or pointer array `s` carries a derivative",
    ),
    (
        "edge_refused/b_c_countdown_condition.c",
        B,
        "b_c_countdown_condition.c:10:5: error[AD020]",
        "a condition that changes a variable the derivatives read",
    ),
    (
        "edge_refused/e_c_row_pointers.c",
        D_B,
        "e_c_row_pointers.c:17:13: error[AD020]",
        "real data reached through a pointer loaded from memory",
    ),
    (
        "edge_refused/b_c_rotated_buffer_twice.c",
        B,
        "b_c_rotated_buffer_twice.c:26:9: error[AD020]",
        "a call to `relax` whose arguments 2 and 3 may share memory it writes",
    ),
    (
        "edge_refused/b_c_overlapping_sections.c",
        B,
        "b_c_overlapping_sections.c:20:5: error[AD020]",
        "a call to `smooth` whose arguments 2 and 3 may share memory it writes",
    ),
    (
        "edge_refused/b_f77_work_pieces_overlap.f",
        B,
        "b_f77_work_pieces_overlap.f:13:7: error[AD020]",
        "a call to `FCN` whose arguments 2 and 3 may share memory it writes",
    ),
    (
        "edge_refused/b_f77_one_array_two_names.f",
        B,
        "b_f77_one_array_two_names.f:18:7: error[AD020]",
        "a call to `STEP` passing the same memory as arguments 2 and 4 (`W(LYH)` both), one array that `STEP` writes and reaches under two names, `YH` and `YH1`",
    ),
    (
        "edge_refused/b_f77_blocks_overlap.f",
        B,
        "b_f77_blocks_overlap.f:14:7: error[AD020]",
        "a call to `MMSUB` whose arguments 6 and 8 may share memory it writes",
    ),
    (
        "edge_refused/b_c_member_count_unproven.c",
        B,
        "b_c_member_count_unproven.c:123:9: error[AD020]",
        "recording the blocks `R` points to through its member `data` (their element count is not a product of the record's integer members",
    ),
    (
        "edge_refused/b_c_head_records_alias.c",
        B,
        "b_c_head_records_alias.c:147:9: error[AD020]",
        "a call to `mat_mult` whose arguments 1 and 3 may share memory it writes",
    ),
    (
        "edge_refused/b_c_carried_pointer_overlap.c",
        B,
        "b_c_carried_pointer_overlap.c:21:9: error[AD020]",
        "a call to `layer` whose arguments 3 and 4 may share memory it writes",
    ),
    (
        "edge_refused/e_f_library_private_state.f90",
        D_B,
        "e_f_library_private_state.f90:26:5: error[AD020]",
        "`ncalls` is PRIVATE to module `quad_lib`, out of reach of the derivative module",
    ),
    (
        "edge_refused/e_f_private_type.f90",
        D_B,
        "e_f_private_type.f90:14:3: error[AD020]",
        "the derived type `pair_t` is PRIVATE to module `pairs`",
    ),
    (
        "edge_refused/e_c_split_row_pointer.c",
        SPLIT,
        "e_c_split_row_pointer.c:8:9: error[AD020]",
        "the local pointer `row` set from the argument `X`, both with derivative pointers",
    ),
    (
        "edge_refused/b_f_dummy_component_alloc.f90",
        B,
        "b_f_dummy_component_alloc.f90:16:5: error[AD020]",
        "an ALLOCATE of the dummy argument `g` (or of its component) with a derivative",
    ),
    (
        "edge_refused/e_f_pointer_component.f90",
        D_B,
        "e_f_pointer_component.f90:21:5: error[AD020]",
        "the address of `y`, which may carry a derivative, is stored in a record member",
    ),
    (
        "edge_refused/e_c_stored_address.c",
        D_B,
        "e_c_stored_address.c:38:5: error[AD020]",
        "is stored in a record member or an array element here",
    ),
    (
        "edge_refused/e_c_stored_address.c",
        D_B,
        "e_c_stored_address.c:30:5: error[AD020]",
        "is stored in a record member or an array element here",
    ),
    (
        "edge_refused/e_c_stored_address.c",
        D_B,
        "e_c_stored_address.c:43:5: error[AD020]",
        "is stored in a record member or an array element here",
    ),
    (
        "edge_refused/e_c_stored_address.c",
        D_B,
        "e_c_stored_address.c:47:9: error[AD020]",
        "is stored in a record member or an array element here",
    ),
    (
        "edge_refused/e_f77_intrinsic_actual.f",
        D_B,
        "e_f77_intrinsic_actual.f:11:7: error[AD070]",
        "a call through the dummy procedure (or function pointer) `F`, where an intrinsic",
    ),
    (
        "edge_refused/e_c_macro_dangling_else.c",
        D_B,
        "e_c_macro_dangling_else.c:12:9: error[AD070]",
        "the macro `ADD_POS` has a body that is not an expression",
    ),
    (
        "edge_refused/e_c_fnptr_library.c",
        D_B,
        "e_c_fnptr_library.c:15:5: error[AD070]",
        "a call through the dummy procedure (or function pointer) `fn`",
    ),
    (
        "edge_refused/e_c_macro_operand.c",
        D_B,
        "e_c_macro_operand.c:15:16: error[AD070]",
        "the macro `NP1` has a body that is not parenthesised (`NPTS+1`), used as an operand",
    ),
    (
        "edge_refused/e_c_macro_statement.c",
        D_B,
        "e_c_macro_statement.c:13:9: error[AD070]",
        "the macro `ACC` has a body that is not an expression",
    ),
    (
        "edge_refused/e_f77_equiv_extends_common.f",
        D_B,
        "e_f77_equiv_extends_common.f:10:20: error[AD020]",
        "EQUIVALENCE of `FL` extends COMMON /H/ beyond the block as declared here",
    ),
    (
        "edge_refused/e_c_ternary_call.c",
        D_B,
        "e_c_ternary_call.c:18:5: error[AD020]",
        "a call to the differentiated function `cube` in an operand evaluated only on a condition",
    ),
    (
        "edge_refused/e_f_associate.f90",
        D_B,
        "e_f_associate.f90:8:3: error[AD020]",
        "ASSOCIATE with a selector that may carry derivatives",
    ),
    (
        "edge_refused/rw_f_vec3_operators.f90",
        D_B,
        "rw_f_vec3_operators.f90:15:13: error[AD020]",
        "unsupported construct: operator/assignment interfaces",
    ),
    (
        "edge_refused/e_f_elemental.f90",
        D_B,
        "e_f_elemental.f90:23:5: error[AD020]",
        "the elemental procedure `sq` is applied to arrays here",
    ),
    (
        "edge_refused/e_f_internal_proc.f90",
        D_B,
        "e_f_internal_proc.f90:10:14: error[AD020]",
        "the internal procedure `step` uses variables of its host and is passed as an argument here",
    ),
    (
        "edge_refused/e_f_value.f90",
        &[&["-d", "-vector"]],
        "e_f_value.f90:7:3: error[AD020]",
        "the VALUE dummy argument with derivative `td` is not supported in vector mode",
    ),
    (
        "edge_refused/e_f_value.f90",
        B,
        "e_f_value.f90:26:5: error[AD020]",
        "`twice` also writes `t`",
    ),
    (
        "edge_refused/i_bessel.f90",
        D_B,
        "i_bessel.f90:6:3: error[AD020]",
        "the intrinsic `bessel_j0` has an active argument but no derivative rule",
    ),
    (
        "edge_refused/i_norm2.f90",
        D_B,
        "i_norm2.f90:6:3: error[AD020]",
        "`norm2` with a DIM or MASK argument has an active argument but no derivative rule",
    ),
    (
        "edge_refused/i_pack.f90",
        D_B,
        "i_pack.f90:6:3: error[AD020]",
        "the intrinsic `pack` has an active argument but no derivative rule",
    ),
    (
        "edge_refused/i_modulo.f90",
        D_B,
        "i_modulo.f90:6:3: error[AD020]",
        "the intrinsic `modulo` has an active argument but no derivative rule",
    ),
    (
        "edge_refused/i_eoshift.f90",
        D_B,
        "i_eoshift.f90:6:3: error[AD020]",
        "the intrinsic `eoshift` has an active argument but no derivative rule",
    ),
    (
        "edge_refused/i_erfc_scaled.f90",
        D_B,
        "i_erfc_scaled.f90:6:3: error[AD020]",
        "the intrinsic `erfc_scaled` has an active argument but no derivative rule",
    ),
    (
        "edge_refused/i_product_mask.f90",
        D_B,
        "i_product_mask.f90:7:3: error[AD020]",
        "`product` with a DIM or MASK argument has an active argument but no derivative rule",
    ),
    (
        "edge_refused/i_maxval_dim.f90",
        D_B,
        "i_maxval_dim.f90:6:3: error[AD020]",
        "`maxval` with a DIM or MASK argument has an active argument but no derivative rule",
    ),
    (
        "edge_refused/i_c_j0.c",
        D_B,
        "i_c_j0.c:7:5: error[AD020]",
        "the intrinsic `j0` has an active argument but no derivative rule",
    ),
    (
        "edge_refused/b_c_dealloc_branch.c",
        B,
        "b_c_dealloc_branch.c:32:9: error[AD020]",
        "a call freeing memory with a derivative that is not a local pointer's allocated in this procedure, at its top level",
    ),
    (
        "edge_refused/b_c_brace_active.c",
        B,
        "b_c_brace_active.c:7:5: error[AD020]",
        "a C brace initialiser with non-constant values",
    ),
    (
        "edge_refused/e_f_array_function.f90",
        D_B,
        "e_f_array_function.f90:17:5: error[AD020]",
        "a reference to the array-valued function `twice`, whose result's shape cannot be written",
    ),
    (
        "edge_refused/e_c_file_static_shared.c",
        D_B,
        "e_c_file_static_shared.c:16:5: error[AD020]",
        "`remember` uses the file-scope `static` variable `last`",
    ),
    (
        "edge_refused/e_c_struct_array_member_copy.c",
        B,
        "e_c_struct_array_member_copy.c:8:5: error[AD020]",
        "the assignment of a whole struct with the array member `s`",
    ),
    (
        "edge_refused/e_f_structure_constructor.f90",
        D,
        "e_f_structure_constructor.f90:14:5: error[AD020]",
        "the structure constructor `pt(...)` with active values",
    ),
    (
        "edge_refused/e_c_struct_result.c",
        D_B,
        "e_c_struct_result.c:21:5: error[AD020]",
        "a reference to the function `moments`, which returns a struct by value, is not differentiated yet",
    ),
    (
        "edge_refused/e_f_record_function.f90",
        D_B,
        "e_f_record_function.f90:21:5: error[AD020]",
        "a reference to the function `mk`, whose result is of derived type, is not differentiated yet",
    ),
    (
        "edge_refused/e_c_split_pointer_walk.c",
        SPLIT,
        "e_c_split_pointer_walk.c:10:9: error[AD020]",
        "moving a pointer argument that has a derivative pointer in a procedure split into f_fwd and f_bwd",
    ),
    (
        "edge_refused/e_c_struct_brace_active.c",
        D,
        "e_c_struct_brace_active.c:13:5: error[AD020]",
        "a brace initializer of a struct with values that carry derivatives is not supported",
    ),
    (
        "edge_refused/e_c_struct_brace_active.c",
        B,
        "e_c_struct_brace_active.c:13:5: error[AD020]",
        "a C brace initialiser with non-constant values",
    ),
    (
        "edge_refused/e_c_pointer_to_array.c",
        D_B,
        "e_c_pointer_to_array.c:5:5: error[AD020]",
        "a pointer to an array or an array of pointers (`r`)",
    ),
    (
        "edge_refused/b_f_vector_subscript.f90",
        B,
        "b_f_vector_subscript.f90:8:3: error[AD020]",
        "a read through a vector subscript (its indices may repeat)",
    ),
    (
        // Tangent mode differentiates `alloc_matrix` (its derivative allocates the twin:
        // the allocated block is reset before the loop that fills it) and refuses only
        // `free_matrix`.
        "edge_refused/e_c_matrix_init.c",
        B,
        "e_c_matrix_init.c:37:5: error[AD020]",
        "`alloc_matrix` has no derivative but sets or frees the pointer member `data` (line 18)",
    ),
    (
        "edge_refused/e_c_matrix_init.c",
        D_B,
        "e_c_matrix_init.c:42:5: error[AD020]",
        "`free_matrix` has no derivative but sets or frees the pointer member `data` (line 23)",
    ),
    (
        "edge_refused/e_c_passive_pointer_arg.c",
        D_B,
        "e_c_passive_pointer_arg.c:27:5: error[AD020]",
        "the pointer argument `m` carries no derivative here, but the callee's derivative takes one for it",
    ),
    // Corpus programs: tangent proven, adjoint refused.
    (
        "tangent/e_c_brace_init.c",
        B,
        "e_c_brace_init.c:8:5: error[AD020]",
        "a C brace initialiser with non-constant values",
    ),
    (
        "tangent/e_f_array_ctor.f90",
        B,
        "e_f_array_ctor.f90:9:3: error[AD020]",
        "the adjoint of this expression",
    ),
    (
        "tangent/e_f_reshape_active_pad.f90",
        B,
        "e_f_reshape_active_pad.f90:10:3: error[AD020]",
        "the adjoint of `reshape` with an active PAD, or with ORDER",
    ),
    (
        "tangent/e_f_implied_do.f90",
        B,
        "e_f_implied_do.f90:9:3: error[AD020]",
        "the adjoint of this expression",
    ),
    (
        "tangent/e_f_where_forall_sequence.f90",
        B,
        "e_f_where_forall_sequence.f90:24:5: error[AD020]",
        "a WHERE assignment reading or writing what an earlier one wrote",
    ),
    (
        "tangent/e_c_nr_one_based.c",
        B,
        "e_c_nr_one_based.c:22:5: error[AD020]",
        "free() of memory that is not a local pointer's",
    ),
    (
        "edge_refused/e_f77_assumed_size_cleared.f",
        D,
        "e_f77_assumed_size_cleared.f:21:7: error[AD020]",
        "clearing the derivative of the assumed-size array `W` before this call needs its extent",
    ),
    (
        "edge_refused/e_f77_assumed_size_inactive.f",
        D,
        "e_f77_assumed_size_inactive.f:20:7: error[AD020]",
        "the assumed-size array `W`, inactive here, is passed to a dummy that has a derivative",
    ),
    (
        "edge_refused/e_f77_assign_goto_reached.f",
        EVERY,
        "e_f77_assign_goto_reached.f:24:7: error[AD020]",
        "unsupported construct: ASSIGN and assigned GOTO",
    ),
    (
        "edge_refused/b_f_block_allocatable.f90",
        B,
        "b_f_block_allocatable.f90:13:5: error[AD020]",
        "a BLOCK construct with ALLOCATABLE, SAVE or initialised locals",
    ),
    (
        "tangent/e_f_func_side_effect_arg.f90",
        B,
        "e_f_func_side_effect_arg.f90:20:5: error[AD020]",
        "a reference to the function `bump`, which writes real data through its arguments or globals, inside an expression",
    ),
    (
        "tangent/rw_f77_linpack_lu.f",
        B,
        "rw_f77_linpack_lu.f:52:16: error[AD020]",
        "a call to `DAXPY` whose arguments 3 and 5 may share memory it writes",
    ),
    (
        "tangent/rw_f_heat_ftcs_state.f90",
        B,
        "rw_f_heat_ftcs_state.f90:65:5: error[AD020]",
        "recording a pointer or allocatable component of the derived-type variable `rod` is not supported in adjoint mode yet",
    ),
    (
        "tangent/rw_f_nn_dense.f90",
        B,
        "rw_f_nn_dense.f90:22:5: error[AD020]",
        "the adjoint of this `matmul` is not supported in adjoint mode yet",
    ),
];

/// Every case is refused at its line with nothing written.
#[test]
fn edge_cases_are_refused_at_their_line() {
    let mut failures = Vec::new();
    for (file, modes, at, needle) in REFUSED {
        let path = Path::new("tests").join(file);
        let (opts, _) = header(&path);
        for mode in *modes {
            let dir = std::env::temp_dir().join(format!(
                "radtap-edge-{}-{}",
                file.replace('/', "_"),
                std::process::id()
            ));
            let o = run_cli(&path, &opts, mode, &dir);
            let written = dir.exists() && std::fs::read_dir(&dir).unwrap().next().is_some();
            let _ = std::fs::remove_dir_all(&dir);
            if o.status != 1 || written || !(o.stderr.contains(at) && o.stderr.contains(needle)) {
                failures.push(format!(
                    "{file} {mode:?}: status {}, written {written}; expected `{at}` … `{needle}`:\n{}",
                    o.status, o.stderr
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The corpus programs whose adjoint is refused here are exactly those listed as
/// unsupported for the adjoint suite.
#[test]
fn adjoint_refusals_of_corpus_programs_are_listed() {
    for (file, modes, ..) in REFUSED {
        if let Some(name) = file.strip_prefix("tangent/") {
            if *modes == B {
                assert!(
                    ADJOINT_UNSUPPORTED.iter().any(|(n, _)| *n == name),
                    "{name} missing from ADJOINT_UNSUPPORTED"
                );
            }
        }
    }
}
