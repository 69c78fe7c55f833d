! SELECT CASE on integers (single values, lists, ranges, open
! ranges and default), on characters and on logicals; named construct.
module classify_mod
  implicit none
contains
  function classify(n) result(s)
    integer, intent(in) :: n
    character(len=12) :: s
    select case (n)
    case (:-1)
      s = 'negative'
    case (0)
      s = 'zero'
    case (1:3)
      s = 'small'
    case (4, 6, 8)
      s = 'even 4-8'
    case (5, 7, 9:10)
      s = 'odd/ten'
    case (11:)
      s = 'large'
    case default
      s = 'impossible'
    end select
  end function classify

  integer function vowel_score(c)
    character, intent(in) :: c
    select case (c)
    case ('a', 'e', 'i', 'o', 'u')
      vowel_score = 1
    case ('A':'Z')
      vowel_score = 10
    case ('0':'9')
      vowel_score = 100
    case default
      vowel_score = 0
    end select
  end function vowel_score
end module classify_mod

program select_case
  use classify_mod
  implicit none
  integer :: i, score
  character(len=*), parameter :: text = 'Hello World 42'
  logical :: flag

  do i = -2, 12
    write(*,'(I4,2X,A)') i, classify(i)
  end do

  score = 0
  do i = 1, len(text)
    score = score + vowel_score(text(i:i))
  end do
  write(*,'(A,I0)') 'text score = ', score

  flag = mod(len(text), 2) == 0
  select case (flag)
  case (.true.)
    print *, 'text length is even'
  case (.false.)
    print *, 'text length is odd'
  end select

  outer: select case (len_trim(text))
  case (1:9) outer
    print *, 'short text'
  case (10:) outer
    select case (text(1:1))
    case ('H')
      print *, 'long text starting with H'
    case default
      print *, 'long text'
    end select
  end select outer
end program select_case
