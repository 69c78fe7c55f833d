! The ASSOCIATE construct: aliasing expressions, derived-type
! components and array sections; writing through an associated
! variable; nested and named ASSOCIATE.
module particle_mod
  implicit none
  type :: vector3
    real :: x, y, z
  end type vector3

  type :: particle
    character(len=8) :: name
    real :: mass
    type(vector3) :: pos, vel
  end type particle
end module particle_mod

program associate_construct
  use particle_mod
  implicit none
  type(particle) :: p(2)
  real :: grid(4, 4), dt, ke
  integer :: i, j

  p(1) = particle('alpha', 2.0, vector3(0.0, 0.0, 0.0), vector3(1.0, 2.0, 2.0))
  p(2) = particle('beta', 0.5, vector3(1.0, 1.0, 1.0), vector3(-3.0, 0.0, 4.0))
  dt = 0.5

  do i = 1, 2
    associate (pos => p(i)%pos, vel => p(i)%vel, m => p(i)%mass)
      pos%x = pos%x + vel%x * dt
      pos%y = pos%y + vel%y * dt
      pos%z = pos%z + vel%z * dt
      associate (speed2 => vel%x**2 + vel%y**2 + vel%z**2)
        ke = 0.5 * m * speed2
        write(*,'(A8,A,3F7.2,A,F8.3)') p(i)%name, ' pos', pos, ' ke', ke
      end associate
    end associate
  end do

  grid = reshape([(real(i), i = 1, 16)], [4, 4])
  interior: associate (inner => grid(2:3, 2:3), corner => grid(1, 1))
    write(*,'(A,4F6.1)') 'inner block:', inner
    inner = 0.0
    write(*,'(A,F6.1)') 'corner:', corner
  end associate interior
  do i = 1, 4
    write(*,'(4F6.1)') (grid(i, j), j = 1, 4)
  end do

  associate (n => size(grid, 1), total => sum(grid), &
             diag => [(grid(j, j), j = 1, 4)])
    write(*,'(A,I0,A,F8.1)') 'n = ', n, ' total = ', total
    write(*,'(A,4F6.1)') 'diag:', diag
    write(*,'(A,F8.3)') 'mean of diag:', sum(diag) / n
  end associate

  associate (a => p(1)%name, b => p(2)%name)
    write(*,'(A)') 'names: ' // trim(a) // ' & ' // trim(b)
  end associate
end program associate_construct
