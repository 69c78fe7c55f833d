! radtap: -head mlp_loss -vars "w1 b1 w2" -outvars "loss"
! sizes: nin=3 nhid=4 nbatch=5
! A two-layer perceptron as written in small Fortran ML codes: a layer derived type
! holding allocatable weights and an activation name, forward pass with MATMUL and
! SPREAD-free bias broadcasting in a loop, activation chosen by SELECT CASE on the
! name (tanh, softplus, sigmoid), mean squared loss over a batch with L2 penalty.
module dense_layers
  use iso_fortran_env, only: rk => real64
  implicit none
  type :: dense_t
    real(rk), allocatable :: w(:, :)
    real(rk), allocatable :: b(:)
    character(len=10) :: act = 'tanh'
  end type dense_t
contains
  subroutine layer_forward(layer, x, nb, y)
    type(dense_t), intent(in) :: layer
    integer, intent(in) :: nb
    real(rk), intent(in) :: x(:, :)
    real(rk), intent(out) :: y(:, :)
    integer :: j
    y = matmul(layer%w, x)
    do j = 1, nb
      y(:, j) = y(:, j) + layer%b
    end do
    call activate(layer%act, y)
  end subroutine layer_forward

  subroutine activate(name, z)
    character(len=*), intent(in) :: name
    real(rk), intent(inout) :: z(:, :)
    select case (trim(name))
    case ('tanh')
      z = tanh(z)
    case ('softplus')
      z = log(1.0_rk + exp(z))
    case ('sigmoid')
      z = 1.0_rk/(1.0_rk + exp(-z))
    case default
      continue
    end select
  end subroutine activate
end module dense_layers

subroutine mlp_loss(nin, nhid, nbatch, w1, b1, w2, loss)
  use dense_layers
  implicit none
  integer, intent(in) :: nin, nhid, nbatch
  real(rk), intent(in) :: w1(nhid, nin), b1(nhid), w2(1, nhid)
  real(rk), intent(out) :: loss
  type(dense_t) :: l1, l2
  real(rk) :: x(nin, nbatch), h(nhid, nbatch), yhat(1, nbatch), target(nbatch)
  integer :: i, j
  do j = 1, nbatch
    do i = 1, nin
      x(i, j) = 0.1_rk*real(i + j, rk) - 0.3_rk
    end do
    target(j) = 0.5_rk + 0.1_rk*j
  end do
  allocate(l1%w(nhid, nin), l1%b(nhid), l2%w(1, nhid), l2%b(1))
  l1%w = 0.5_rk*w1
  l1%b = 0.2_rk*b1
  l1%act = 'softplus'
  l2%w = 0.3_rk*w2
  l2%b = 0.1_rk
  l2%act = 'sigmoid'
  call layer_forward(l1, x, nbatch, h)
  call layer_forward(l2, h, nbatch, yhat)
  loss = sum((yhat(1, :) - target)**2)/nbatch
  loss = loss + 1.0e-2_rk*(sum(w1**2) + sum(w2**2))
  deallocate(l1%w, l1%b, l2%w, l2%b)
end subroutine mlp_loss
