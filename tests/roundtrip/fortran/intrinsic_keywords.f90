! Array intrinsics called with keyword arguments: sum/product with
! dim= and mask=, maxval/minval/maxloc, count, any/all, reshape with
! shape=/order=/pad=, spread, pack/unpack, merge, cshift/eoshift.
program intrinsic_keywords
  implicit none
  integer :: a(2, 3), b(3, 2), c(2, 4)
  integer :: v(6), packed(3), i
  real :: r(5)
  logical :: msk(6)

  a = reshape([1, 2, 3, 4, 5, 6], shape=[2, 3])
  write(*,'(A,3I4)') 'a row 1         :', a(1, :)
  write(*,'(A,3I4)') 'a row 2         :', a(2, :)
  write(*,'(A,3I4)') 'sum(a, dim=1)   :', sum(a, dim=1)
  write(*,'(A,2I4)') 'sum(a, dim=2)   :', sum(a, dim=2)
  write(*,'(A,I4)')  'sum(a, mask)    :', sum(a, mask=a > 2)
  write(*,'(A,3I4)') 'product dim=1   :', product(a, dim=1)
  write(*,'(A,2I4)') 'maxval dim=2    :', maxval(a, dim=2)
  write(*,'(A,I4)')  'maxval mask<5   :', maxval(a, mask=a < 5)
  write(*,'(A,I4)')  'minval mask>2   :', minval(a, mask=a > 2)
  write(*,'(A,2I4)') 'maxloc(a)       :', maxloc(a)
  write(*,'(A,3I4)') 'minloc dim=1    :', minloc(a, dim=1)
  write(*,'(A,I4)')  'count(a>1)      :', count(a > 1)
  write(*,'(A,2I4)') 'count dim=2     :', count(mod(a, 2) == 0, dim=2)
  write(*,'(A,2L2)') 'any/all         :', any(a > 5), all(a > 0)
  write(*,'(A,3L2)') 'any dim=1       :', any(a == 4, dim=1)

  b = reshape([1, 2, 3, 4, 5, 6], shape=[3, 2], order=[2, 1])
  write(*,'(A,6I4)') 'order=[2,1]     :', b
  c = reshape([9, 8, 7], shape=[2, 4], pad=[0, -1])
  write(*,'(A,8I4)') 'pad             :', c
  c = spread([1, 2], dim=2, ncopies=4)
  write(*,'(A,8I4)') 'spread          :', c

  v = [(i * 3, i = 1, 6)]
  msk = mod(v, 2) == 0
  packed = pack(v, mask=msk)
  write(*,'(A,3I4)') 'pack evens      :', packed
  write(*,'(A,6I4)') 'unpack          :', unpack(packed * 10, mask=msk, field=v)
  write(*,'(A,6I4)') 'merge           :', merge(v, -v, mask=msk)
  write(*,'(A,6I4)') 'cshift shift=2  :', cshift(v, shift=2)
  write(*,'(A,6I4)') 'eoshift         :', eoshift(v, shift=-2, boundary=99)

  r = [0.5, -1.5, 2.25, -3.0, 1.0]
  write(*,'(A,F8.3)') 'norm2(r)        :', norm2(r)
  write(*,'(A,I4)') 'findloc         :', findloc([3, 5, 7, 5], value=5, dim=1)
  write(*,'(A,F8.3)') 'sum(r, mask)    :', sum(r, mask=r > 0.0)
  write(*,'(A,I4)') 'size(a, dim=2)  :', size(a, dim=2)
  write(*,'(A,2I4)') 'shape(source=b) :', shape(source=b)
  write(*,'(A,I4)') 'int(kind=4)     :', int(7.9, kind=4)
  write(*,'(A,F8.3)') 'real(kind=8)    :', real(2, kind=8) / 3
end program intrinsic_keywords
