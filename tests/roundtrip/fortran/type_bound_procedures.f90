! Type-bound procedures: a plain binding, a renamed PASS(b) binding, calls through both.
module tbm
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
    e = f*b%energy()
  end function scaled_energy
end module tbm

program type_bound_procedures
  use tbm
  implicit none
  type(body) :: b
  b%m = 2.0d0
  b%v = 3.0d0
  write(*, '(2f10.4)') b%energy(), b%scaled(2.0d0)
end program type_bound_procedures
