! radtap: -head softmax_loss -vars "wt bias" -outvars "loss probs"
! sizes: nfeat=3 ncls=4 nsamp=5
! Multinomial logistic regression as in a small Fortran ML code: logits with MATMUL of
! the transposed weight matrix, a numerically stable softmax shifted by MAXVAL (the
! shift cancels, so the result is smooth whatever the maximum), cross-entropy against
! integer labels, an elemental helper for log-sum-exp terms, and the class
! probabilities of the last sample.
module softmax_mod
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  elemental function safe_exp(z) result(e)
    real(wp), intent(in) :: z
    real(wp) :: e
    e = exp(max(z, -50.0_wp))
  end function safe_exp

  subroutine softmax(k, z, p)
    integer, intent(in) :: k
    real(wp), intent(in) :: z(k)
    real(wp), intent(out) :: p(k)
    real(wp) :: zmax
    integer :: i
    zmax = maxval(z)
    do i = 1, k
      p(i) = safe_exp(z(i) - zmax)
    end do
    p = p/sum(p)
  end subroutine softmax
end module softmax_mod

subroutine softmax_loss(nfeat, ncls, nsamp, wt, bias, loss, probs)
  use softmax_mod
  implicit none
  integer, intent(in) :: nfeat, ncls, nsamp
  real(wp), intent(in) :: wt(nfeat, ncls), bias(ncls)
  real(wp), intent(out) :: loss, probs(ncls)
  real(wp) :: x(nfeat, nsamp), logits(ncls), p(ncls)
  integer :: labels(nsamp), i, s
  do s = 1, nsamp
    do i = 1, nfeat
      x(i, s) = cos(real(i*s, wp)) + 0.5_wp
    end do
    labels(s) = mod(3*s, ncls) + 1
  end do
  loss = 0.0_wp
  do s = 1, nsamp
    logits = matmul(transpose(wt), x(:, s)) + bias
    call softmax(ncls, logits, p)
    loss = loss - log(p(labels(s)))
  end do
  loss = loss/nsamp
  probs = p
end subroutine softmax_loss
