! radtap: -head run_model -vars "p" -outvars "y"
! sizes: n=5
! Numeric code steered by strings, as configuration-driven models are: a method name
! normalised with TRIM/ADJUSTL and an upper-casing loop over ACHAR/IACHAR, a SELECT CASE
! on it, INDEX to find an option suffix (`:clip`), a CHARACTER(len=*) dummy, a label
! built by concatenation (// and an internal WRITE of an integer) that never touches
! the numbers, and LEN_TRIM deciding a branch.
module str_opts
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  pure function upper(s) result(r)
    character(len=*), intent(in) :: s
    character(len=len(s)) :: r
    integer :: i, c
    r = s
    do i = 1, len(s)
      c = iachar(s(i:i))
      if (c >= iachar('a') .and. c <= iachar('z')) r(i:i) = achar(c - 32)
    end do
  end function upper

  subroutine apply_model(method, n, p, y)
    character(len=*), intent(in) :: method
    integer, intent(in) :: n
    real(wp), intent(in) :: p(3)
    real(wp), intent(out) :: y(n)
    character(len=32) :: m
    integer :: i, colon
    real(wp) :: t
    m = upper(adjustl(method))
    colon = index(m, ':')
    do i = 1, n
      t = 0.3_wp*real(i, wp)
      select case (m(1:max(colon - 1, len_trim(m))))
      case ('LOGISTIC')
        y(i) = p(1)/(1.0_wp + exp(-p(2)*(t - p(3))))
      case ('GOMPERTZ')
        y(i) = p(1)*exp(-p(2)*exp(-p(3)*t))
      case default
        y(i) = p(1)*t + p(2)
      end select
      if (colon > 0) then
        if (m(colon+1:colon+4) == 'CLIP') y(i) = min(y(i), 10.0_wp)
      end if
    end do
  end subroutine apply_model
end module str_opts

subroutine run_model(n, p, y)
  use iso_fortran_env, only: wp => real64
  use str_opts, only: apply_model
  implicit none
  integer, intent(in) :: n
  real(wp), intent(in) :: p(3)
  real(wp), intent(out) :: y(n)
  character(len=40) :: label
  character(len=8) :: num
  real(wp) :: y2(n)
  write (num, '(i0)') n
  label = 'run-' // trim(num) // '-points'
  call apply_model('  logistic', n, p, y)
  if (len_trim(label) > 5) then
    call apply_model('Gompertz:clip', n, p, y2)
    y = y + 0.5_wp*y2
  end if
end subroutine run_model
