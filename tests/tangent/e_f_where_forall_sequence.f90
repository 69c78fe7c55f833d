! radtap: -head seqmask -vars "x" -outvars "a b c"
! sizes: n=7
! WHERE and FORALL constructs of several assignments where a later one reads what an earlier
! one wrote (physics blocks: `a = x**2; b = a*x` under a mask), an ELSEWHERE chain, a nested
! WHERE, an ELSEWHERE reading one element an earlier arm wrote (`a(2)`), and a FORALL whose partials are costly
! intrinsics. Vector mode ran every derivative of a construct in one direction loop before
! the primal construct (b's derivative read the old a: silently wrong), hoisted a FORALL's
! partial into one scalar for all indices (silently wrong), and put a direction loop inside a
! WHERE (did not compile). It now cuts the construct into one piece per assignment.
subroutine seqmask(n, x, a, b, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: a(n), b(n), c(n)
  real(8) :: s(n), t(n)
  integer :: i
  do i = 1, n
    s(i) = real(mod(i, 3) - 1, 8)
  end do
  a = 1.0d0
  b = x
  where (s > 0.0d0)
    a = x**2
    b = a*x + sin(a)
  elsewhere (s < 0.0d0)
    a = exp(0.5d0*x)
    b = b*a
  elsewhere
    b = sqrt(x)*b + 0.1d0*a(2)
  end where
  t = x
  where (s >= 0.0d0)
    t = t*a
    where (s + 0.1d0*x > 0.5d0)
      t = sqrt(t)*x + t
    elsewhere
      t = t - b*0.1d0
    end where
  end where
  forall (i = 1:n)
    c(i) = sqrt(1.0d0 + x(i)**2)
    c(i) = c(i)*log(1.0d0 + t(i)) + cos(a(i))
  end forall
end subroutine seqmask
