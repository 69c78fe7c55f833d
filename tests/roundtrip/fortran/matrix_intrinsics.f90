! Linear algebra intrinsics: matmul (matrix-matrix and
! matrix-vector), dot_product, transpose, and a hand-written
! power iteration for the dominant eigenvalue.
program matrix_intrinsics
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: a(2, 3), b(3, 2), c(2, 2), at(3, 2)
  real(dp) :: s(3, 3), v(3), w(3), lambda
  integer :: ia(3, 3), iv(3)
  integer :: i, it

  a = reshape([1.0_dp, 4.0_dp, 2.0_dp, 5.0_dp, 3.0_dp, 6.0_dp], [2, 3])
  b = reshape([7.0_dp, 9.0_dp, 11.0_dp, 8.0_dp, 10.0_dp, 12.0_dp], [3, 2])
  c = matmul(a, b)
  write(*,'(A)') 'a * b ='
  do i = 1, 2
    write(*,'(2F10.2)') c(i, :)
  end do
  at = transpose(a)
  write(*,'(A)') 'transpose(a) ='
  do i = 1, 3
    write(*,'(2F10.2)') at(i, :)
  end do
  write(*,'(A,L2)') 'transpose(transpose(a)) == a:', all(transpose(at) == a)

  v = [1.0_dp, 2.0_dp, 3.0_dp]
  w = [4.0_dp, -5.0_dp, 6.0_dp]
  write(*,'(A,F10.3)') 'dot_product(v, w) =', dot_product(v, w)
  write(*,'(A,2F10.3)') 'matmul(a, v)      =', matmul(a, v)
  write(*,'(A,3F10.3)') 'matmul(v(1:2), a) =', matmul(v(1:2), a)

  ia = reshape([(i, i = 1, 9)], [3, 3])
  iv = [1, 0, -1]
  write(*,'(A,3I5)') 'integer matmul    =', matmul(ia, iv)
  write(*,'(A,I5)') 'integer dot       =', dot_product(iv, [3, 2, 1])
  write(*,'(A,3I5)') 'ia^T ia diagonal  =', &
    (sum(ia(:, i) * ia(:, i)), i = 1, 3)

  ! Symmetric matrix for power iteration.
  s = reshape([4.0_dp, 1.0_dp, 0.0_dp, &
               1.0_dp, 3.0_dp, 1.0_dp, &
               0.0_dp, 1.0_dp, 2.0_dp], [3, 3])
  write(*,'(A,L2)') 's symmetric:', all(s == transpose(s))
  v = 1.0_dp
  lambda = 0.0_dp
  do it = 1, 200
    w = matmul(s, v)
    lambda = dot_product(v, w) / dot_product(v, v)
    v = w / sqrt(dot_product(w, w))
  end do
  write(*,'(A,F12.8)') 'dominant eigenvalue ~', lambda
  write(*,'(A,3F10.6)') 'eigenvector ~', v
  w = matmul(s, v) - lambda * v
  write(*,'(A,L2)') 'residual small:', sqrt(dot_product(w, w)) < 1.0e-8_dp
  write(*,'(A,F10.4)') 'trace via sum of diagonal:', &
    sum([(s(i, i), i = 1, 3)])
  write(*,'(A,L2)') 'logical dot_product:', &
    dot_product([.true., .false.], [.false., .false.])
end program matrix_intrinsics
