! radtap: -head wmr -vars "x t" -outvars "t"
! Vector mode cuts a WHERE construct whose assignments read what earlier ones wrote into one
! WHERE per assignment, each evaluating its masks again. Here the second arm's mask would be
! evaluated after the first arm changed `t`, which it reads: refused in vector mode (the scalar
! tangent keeps the construct whole).
subroutine wmr(n, x, t)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: t(n)
  where (t > 0.5d0)
    t = t*x
    t = sqrt(t)
  elsewhere
    t = x - t
  end where
end subroutine wmr
