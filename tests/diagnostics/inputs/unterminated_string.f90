program unterminated_string
  implicit none
  print *, 'this string never ends
end program unterminated_string
