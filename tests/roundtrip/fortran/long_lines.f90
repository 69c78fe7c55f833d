! Statements longer than 132 columns once regenerated: the unparser must continue them with `&`.
program long_lines
  implicit none
  real(8) :: alpha_coefficient, beta_coefficient, gamma_coefficient, delta_coefficient, result_value
  character(len=200) :: message
  alpha_coefficient = 1.25d0
  beta_coefficient = 2.5d0
  gamma_coefficient = 0.75d0
  delta_coefficient = 4.0d0
  result_value = alpha_coefficient*beta_coefficient + gamma_coefficient*delta_coefficient &
       - alpha_coefficient/delta_coefficient + beta_coefficient*gamma_coefficient*alpha_coefficient &
       - delta_coefficient*delta_coefficient/beta_coefficient + gamma_coefficient
  message = 'this is a rather long character constant that goes on and on so that the regenerated ' // &
       'statement must be continued ' // &
       'inside or next to the string'
  write (*, '(a, f14.8)') 'result = ', result_value
  write (*, '(a)') trim(message)
end program long_lines
