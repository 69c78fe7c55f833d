! Character handling: concatenation //, trim, adjustl/adjustr, len,
! len_trim, index, scan, verify, repeat, substrings, achar/iachar,
! deferred-length allocatable strings and internal WRITE/READ.
program character_strings
  implicit none
  character(len=20) :: first, last
  character(len=:), allocatable :: full, csv
  character(len=*), parameter :: sentence = 'the quick brown fox jumps'
  character(len=10) :: padded
  character(len=12) :: buf
  integer :: i, n, words
  real :: val

  first = 'Ada'
  last = 'Lovelace'
  full = trim(first) // ' ' // trim(last)
  write(*,'(A,A,A)') '[', full, ']'
  write(*,'(A,I0,A,I0)') 'len(first)=', len(first), ' len_trim=', len_trim(first)
  write(*,'(A,I0)') 'len(full)=', len(full)

  padded = '   right'
  write(*,'(3A)') '[', adjustl(padded), ']'
  write(*,'(3A)') '[', adjustr('left      '), ']'
  write(*,'(3A)') '[', trim(adjustl(padded)) // '!', ']'

  write(*,'(A,I0)') 'index of "brown": ', index(sentence, 'brown')
  write(*,'(A,I0)') 'last "o" (back):  ', index(sentence, 'o', back=.true.)
  write(*,'(A,I0)') 'scan for vowels:  ', scan(sentence, 'aeiou')
  write(*,'(A,I0)') 'verify letters:   ', verify(sentence, 'abcdefghijklmnopqrstuvwxyz')
  write(*,'(A)') repeat('=-', 10)

  words = 1
  do i = 1, len(sentence)
    if (sentence(i:i) == ' ') words = words + 1
  end do
  write(*,'(A,I0)') 'words: ', words
  write(*,'(A)') 'substr: ' // sentence(5:9) // '|' // sentence(21:)

  csv = ''
  do i = 1, 5
    write(buf, '(I0)') i * i
    if (i > 1) csv = csv // ','
    csv = csv // trim(buf)
  end do
  write(*,'(A)') 'csv: ' // csv

  buf = '  3.75'
  read(buf, *) val
  write(*,'(A,F8.3)') 'parsed value * 2 = ', val * 2.0

  n = 0
  do i = 1, len(sentence)
    if (iachar(sentence(i:i)) >= iachar('a') .and. &
        iachar(sentence(i:i)) <= iachar('z')) n = n + 1
  end do
  write(*,'(A,I0)') 'lowercase letters: ', n
  write(*,'(A)') 'upper: ' // to_upper(sentence)
  write(*,'(A,L2,L2)') 'lexical compare:', 'apple' < 'banana', lgt('b', 'a')
  write(*,'(A)') 'achar(70)//achar(57): ' // achar(70) // achar(57)
  write(*,'(A)') "double ""quoted"" and 'single'"
contains
  function to_upper(s) result(u)
    character(len=*), intent(in) :: s
    character(len=len(s)) :: u
    integer :: k, c
    do k = 1, len(s)
      c = iachar(s(k:k))
      if (c >= 97 .and. c <= 122) c = c - 32
      u(k:k) = achar(c)
    end do
  end function to_upper
end program character_strings
