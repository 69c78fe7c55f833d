! radtap: -head tb_head -vars "x" -outvars "y"
! sizes:
! A derived type with type-bound procedures (a plain binding and a renamed PASS(b) one), as
! modern codes declare them: the module is read and written back with its bindings (refused
! before), and procedures that call the bound procedures by name are differentiated (the
! derivative type holds components only). A call through a binding (`b%energy()`) is
! refused with AD020 (tests/fortran_refusals.rs).
module tb_mod
  implicit none
  type :: body
    real(8) :: m, v
  contains
    procedure :: energy
    procedure, pass(b) :: scaled => scaled_energy
  end type body
contains
  function energy(b) result(e)
    class(body), intent(in) :: b
    real(8) :: e
    e = 0.5d0*b%m*b%v**2
  end function energy

  function scaled_energy(f, b) result(e)
    real(8), intent(in) :: f
    class(body), intent(in) :: b
    real(8) :: e
    e = f*energy(b)
  end function scaled_energy

  subroutine tb_head(x, y)
    real(8), intent(in) :: x(3)
    real(8), intent(out) :: y(2)
    type(body) :: b
    b%m = x(1)
    b%v = x(2)*x(3)
    y(1) = energy(b) + 0.5d0*b%m
    y(2) = scaled_energy(x(3), b)
  end subroutine tb_head
end module tb_mod
