! radtap: -head relax -vars "c" -outvars "e"
! sizes: n=3
! Arrays of derived types whose components are arrays (hunt 12): a local array of records
! `a(3)` with a component `x(2)`, and a record holding an allocatable array of such records
! (`mesh%nodes(:)`). The adjoint zeroed their derivatives as `ab%x = 0.0_8` and
! `meshb%nodes = 0.0_8` (no Fortran: two part references with nonzero rank, a real assigned
! to a record); they are zeroed element by element in a loop nest now.
module record_arrays
  implicit none
  type node_t
    real(8) :: x(2)
    real(8) :: w
  end type node_t
  type mesh_t
    type(node_t), allocatable :: nodes(:)
    real(8) :: scale
  end type mesh_t
contains
  subroutine relax(n, c, e)
    integer, intent(in) :: n
    real(8), intent(in) :: c(2, n)
    real(8), intent(out) :: e
    type(node_t) :: a(3)
    type(mesh_t) :: mesh
    integer :: i
    allocate(mesh%nodes(n))
    mesh%scale = 0.5d0 * c(1, 1)
    do i = 1, n
      mesh%nodes(i)%x = c(:, i)
      mesh%nodes(i)%w = c(1, i) * c(2, i)
    end do
    do i = 1, 3
      a(i)%x = mesh%nodes(1 + mod(i, n))%x * mesh%scale
      a(i)%w = sin(mesh%nodes(i)%w)
    end do
    e = 0.0d0
    do i = 1, 3
      e = e + a(i)%x(1) * a(i)%x(2) + a(i)%w * mesh%nodes(i)%x(1)
    end do
    deallocate(mesh%nodes)
  end subroutine relax
end module record_arrays
