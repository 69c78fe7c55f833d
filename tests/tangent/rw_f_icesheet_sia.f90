! radtap: -head ice_model -vars "ctrl" -outvars "cost"
! sizes:
!=======================================================================
!  SIALITE -- a small shallow-ice-approximation ice-sheet model
!
!  A stand-in for a production glaciology code (SICOPOLIS, GRISLI,
!  the shallow-ice core of ISSM), written the way those codes are:
!
!    * a parameters module with iso_fortran_env kinds (real(dp)),
!    * module variables shared by module-level USE (host association),
!    * a derived-type run-options variable with logical and character
!      components, set in an init routine and read everywhere later,
!    * allocatable module arrays allocated in the init routine and
!      deallocated in the finalisation routine,
!    * generic field filters on assumed-shape arrays with a local
!      allocatable work array (allocated after an early RETURN), array
!      sections and a WHERE relaxation towards a computed mean,
!    * a time loop calling climate forcing (surface mass balance with
!      branches and a SELECT CASE on the scheme name), an Arrhenius
!      rate factor with two temperature regimes, the SIA diffusivity
!      on the staggered grid, an explicit thickness update, boundary
!      conditions with WHERE / MAX / MIN, an implicit vertical heat
!      equation solved by the Thomas algorithm, passive diagnostics,
!    * legacy FORTRAN 77 parts with COMMON blocks,
!    * internal procedures, OPTIONAL arguments, SAVE variables and
!      integer index arithmetic.
!
!  The adjoint inversion this file stands for: the control is a 2-D
!  field of basal sliding factors `ctrl(nx,ny)`, the cost the misfit of
!  the final thickness to an observed thickness plus a penalty on the
!  time-integrated ice volume.
!
!  Units: metres, years, kelvin, pascals.  Grid: nx x ny columns of
!  nz layers in the terrain-following coordinate zeta = (z - b)/H.
!=======================================================================

!-----------------------------------------------------------------------
!  ice_params: kinds, grid sizes and physical parameters
!-----------------------------------------------------------------------
module ice_params
  use, intrinsic :: iso_fortran_env, only: dp => real64, i4 => int32
  implicit none

  ! --- grid ----------------------------------------------------------
  integer(i4), parameter :: nx = 8          ! columns in x
  integer(i4), parameter :: ny = 6          ! columns in y
  integer(i4), parameter :: nz = 6          ! vertical levels (base..surface)
  integer(i4), parameter :: nt = 20         ! time steps of one run
  integer(i4), parameter :: nhist = nt + 1  ! length of the diagnostic history

  real(dp), parameter :: dx = 25.0e3_dp     ! grid spacing in x [m]
  real(dp), parameter :: dy = 25.0e3_dp     ! grid spacing in y [m]
  real(dp), parameter :: dtime = 5.0_dp     ! time step [a]

  ! --- physics ---------------------------------------------------------
  real(dp), parameter :: pi = 3.14159265358979323846_dp
  real(dp), parameter :: sec_per_year = 31556926.0_dp
  real(dp), parameter :: t0_kelvin = 273.15_dp
  real(dp), parameter :: r_gas = 8.314_dp             ! [J mol^-1 K^-1]
  real(dp), parameter :: beta_clausius = 8.7e-4_dp    ! pressure melting [K m^-1]
  real(dp), parameter :: kappa_ice = 2.1_dp           ! conductivity [W m^-1 K^-1]
  real(dp), parameter :: c_ice = 2009.0_dp            ! heat capacity [J kg^-1 K^-1]
  integer(i4), parameter :: n_glen = 3                ! Glen exponent

  ! Paterson & Budd (1982) rate factor, cold and warm regimes
  real(dp), parameter :: a0_cold = 3.985e-13_dp       ! [s^-1 Pa^-3]
  real(dp), parameter :: a0_warm = 1.916e3_dp
  real(dp), parameter :: q_cold = 60.0e3_dp           ! [J mol^-1]
  real(dp), parameter :: q_warm = 139.0e3_dp
  real(dp), parameter :: t_switch = 263.15_dp         ! regime switch [K]

  ! numerical safeguards
  real(dp), parameter :: h_min = 1.0_dp               ! thinnest ice kept [m]
  real(dp), parameter :: h_max = 6000.0_dp            ! thickest ice allowed [m]
  real(dp), parameter :: eps_grad = 1.0e-12_dp
end module ice_params

!-----------------------------------------------------------------------
!  ice_types: run options and grid descriptors
!-----------------------------------------------------------------------
module ice_types
  use ice_params, only: dp, i4
  implicit none

  type ice_options
    logical :: first_call = .true.       ! first time step of the run
    logical :: thermo_coupled = .true.   ! temperature feeds the rate factor
    logical :: sliding = .true.          ! basal sliding switched on
    logical :: verbose = .false.         ! print diagnostics
    character(len=8) :: smb_scheme = 'linear'
    character(len=8) :: flow_law = 'paterson'
    character(len=4) :: bc_type = 'dirc'
    character(len=4) :: isostasy = 'elra'
    character(len=8) :: thk_solver = 'semi'
    logical :: hydrology = .true.
    integer(i4) :: n_out = 5             ! diagnostics every n_out steps
    real(dp) :: enhancement = 1.0_dp     ! flow enhancement factor
  end type ice_options

  type grid_info
    integer(i4) :: imax
    integer(i4) :: jmax
    integer(i4) :: kmax
    real(dp) :: cell_area
  end type grid_info
end module ice_types

!-----------------------------------------------------------------------
!  ice_vars: the model state, shared by host association
!-----------------------------------------------------------------------
module ice_vars
  use ice_params
  use ice_types
  implicit none

  type(ice_options) :: opts
  type(grid_info) :: grid

  ! --- state and forcing (allocated in ice_init) -----------------------
  real(dp), allocatable :: thk(:,:)        ! ice thickness H [m]
  real(dp), allocatable :: thk_old(:,:)    ! thickness at the previous step
  real(dp), allocatable :: zbed(:,:)       ! bedrock elevation b [m]
  real(dp), allocatable :: zsurf(:,:)      ! surface elevation s = b + H [m]
  real(dp), allocatable :: smb(:,:)        ! surface mass balance [m a^-1]
  real(dp), allocatable :: temp_surf(:,:)  ! surface temperature [K]
  real(dp), allocatable :: geo_flux(:,:)   ! geothermal heat flux [W m^-2]
  real(dp), allocatable :: temp(:,:,:)     ! ice temperature (k,i,j) [K]
  real(dp), allocatable :: rate_fac(:,:)   ! column-averaged rate factor [Pa^-3 a^-1]
  real(dp), allocatable :: c_slide(:,:)    ! sliding coefficient [m a^-1 Pa^-1]
  real(dp), allocatable :: diff_x(:,:)     ! diffusivity on x-faces (i+1/2, j)
  real(dp), allocatable :: diff_y(:,:)     ! diffusivity on y-faces (i, j+1/2)
  real(dp), allocatable :: flux_x(:,:)
  real(dp), allocatable :: flux_y(:,:)
  real(dp), allocatable :: vel_x(:,:)      ! diagnostic depth-averaged speed
  real(dp), allocatable :: vel_y(:,:)
  real(dp), allocatable :: thk_obs(:,:)    ! observed thickness for the cost
  real(dp), allocatable :: zeta(:)         ! terrain-following levels, 0..1
  integer(i4), allocatable :: mask(:,:)    ! 0 boundary, 1 interior ice, 2 ice divide
  real(dp), allocatable :: zbed_ref(:,:)   ! relaxed bedrock without ice load [m]
  real(dp), allocatable :: thk_ref(:,:)    ! ice load of the relaxed bed [m]
  real(dp), allocatable :: bwat(:,:)       ! basal water layer [m]
  real(dp), allocatable :: c_eff(:,:)      ! sliding coefficient with basal water
  real(dp), allocatable :: melt_rate(:,:)  ! basal melt [m a^-1]
  real(dp), allocatable :: vel_prof(:,:,:) ! diagnostic horizontal speed (k,i,j)

  ! --- scalars ---------------------------------------------------------
  real(dp) :: time = 0.0_dp
  real(dp) :: ela = 1350.0_dp              ! equilibrium-line altitude [m]
  real(dp) :: smb_grad = 0.004_dp          ! mass-balance gradient [a^-1]
  real(dp) :: smb_max = 2.0_dp             ! accumulation cap [m a^-1]
  real(dp) :: t_sea_level = 265.0_dp       ! sea-level air temperature [K]
  real(dp) :: lapse_rate = 0.0065_dp       ! [K m^-1]
  real(dp) :: c_slide0 = 3.0e-5_dp         ! reference sliding coefficient
  integer(i4) :: istep = 0
  integer(i4) :: i_centre, j_centre

  ! --- passive diagnostics ---------------------------------------------
  real(dp) :: vol_hist(nhist) = 0.0_dp
  real(dp) :: area_hist(nhist) = 0.0_dp
  real(dp) :: vmax_hist(nhist) = 0.0_dp
  integer(i4) :: nhist_used = 0
end module ice_vars

!-----------------------------------------------------------------------
!  ice_utils: small numerical helpers
!-----------------------------------------------------------------------
module ice_utils
  use ice_params
  implicit none
contains

  !> Harmonic-free arithmetic mean of two cell values, with an optional
  !> weight on the first one (upwinding in some schemes).
  function stag_mean(a, b, weight) result(m)
    real(dp), intent(in) :: a, b
    real(dp), intent(in), optional :: weight
    real(dp) :: m
    real(dp) :: w
    w = 0.5_dp
    if (present(weight)) w = weight
    m = w*a + (1.0_dp - w)*b
  end function stag_mean

  !> Four-point mean on a cell corner.
  function corner_mean(a, b, c, d) result(m)
    real(dp), intent(in) :: a, b, c, d
    real(dp) :: m
    m = 0.25_dp*(a + b + c + d)
  end function corner_mean

  !> Clamp an integer index into [lo, hi].
  function iclamp(i, lo, hi) result(k)
    integer(i4), intent(in) :: i, lo, hi
    integer(i4) :: k
    k = max(lo, min(i, hi))
  end function iclamp

  !> Linear index of column (i, j) in a packed nx*ny vector.
  function packed_index(i, j) result(ij)
    integer(i4), intent(in) :: i, j
    integer(i4) :: ij
    ij = (j - 1)*nx + i
  end function packed_index

  !> Smooth ramp 0 -> 1 over [x0 - w, x0 + w] (tanh).
  function smooth_step(x, x0, w) result(r)
    real(dp), intent(in) :: x, x0, w
    real(dp) :: r
    r = 0.5_dp*(1.0_dp + tanh((x - x0)/w))
  end function smooth_step

  !> Pressure-melting point of ice under a column of thickness h.
  function pmp(h) result(tm)
    real(dp), intent(in) :: h
    real(dp) :: tm
    tm = t0_kelvin - beta_clausius*h
  end function pmp
end module ice_utils

!-----------------------------------------------------------------------
!  ice_filters: field smoothing on whole 2-D arrays of any extent
!  (assumed shape, a work array allocated per call, array sections)
!-----------------------------------------------------------------------
module ice_filters
  use ice_params, only: dp, i4
  implicit none
contains

  !> Five-point smoothing of the interior of a 2-D field, npass passes;
  !> the centre keeps the weight `centre` (0.5 unless given), the four
  !> neighbours share the rest.  The boundary rows are left as they are.
  subroutine smooth_field(f, npass, centre)
    real(dp), intent(inout) :: f(:, :)
    integer(i4), intent(in) :: npass
    real(dp), intent(in), optional :: centre
    real(dp), allocatable :: work(:, :)
    real(dp) :: wc, wn
    integer(i4) :: n1, n2, ipass

    n1 = size(f, 1)
    n2 = size(f, 2)
    if (n1 < 3 .or. n2 < 3) return
    wc = 0.5_dp
    if (present(centre)) wc = centre
    wn = 0.25_dp*(1.0_dp - wc)
    allocate(work(n1, n2))
    do ipass = 1, npass
      work = f
      work(2:n1 - 1, 2:n2 - 1) = wc*f(2:n1 - 1, 2:n2 - 1) &
          + wn*(f(1:n1 - 2, 2:n2 - 1) + f(3:n1, 2:n2 - 1) &
          + f(2:n1 - 1, 1:n2 - 2) + f(2:n1 - 1, 3:n2))
      f = work
    end do
    deallocate(work)
  end subroutine smooth_field

  !> Mean of a 2-D field over its interior cells.
  function interior_mean(f) result(m)
    real(dp), intent(in) :: f(:, :)
    real(dp) :: m
    integer(i4) :: n1, n2
    n1 = size(f, 1)
    n2 = size(f, 2)
    m = sum(f(2:n1 - 1, 2:n2 - 1))/real((n1 - 2)*(n2 - 2), dp)
  end function interior_mean

  !> Relaxes the field towards its interior mean where the mask is off
  !> (the margin cells, where the control is not constrained by data).
  subroutine relax_to_mean(f, msk, rate)
    real(dp), intent(inout) :: f(:, :)
    integer(i4), intent(in) :: msk(:, :)
    real(dp), intent(in) :: rate
    real(dp) :: fm
    fm = interior_mean(f)
    where (msk == 0) f = f + rate*(fm - f)
  end subroutine relax_to_mean
end module ice_filters

!=======================================================================
!  Legacy FORTRAN 77 parts (kept as they were when imported from the
!  old flowline code): physical constants and a cost accumulator in
!  COMMON blocks, a tridiagonal solver with explicit-shape arrays.
!=======================================================================

      SUBROUTINE PHYCON
!     Physical constants of the old code, in COMMON /PHYS/.
      DOUBLE PRECISION RHOI, RHOW, GRAV, RHOG
      COMMON /PHYS/ RHOI, RHOW, GRAV, RHOG
      RHOI = 910.0D0
      RHOW = 1028.0D0
      GRAV = 9.81D0
      RHOG = RHOI*GRAV
      RETURN
      END

      SUBROUTINE VACCUM(H, NI, NJ, AREA, MODE)
!     Accumulates the ice volume into COMMON /VACC/ (MODE = 0 resets).
!     The caller does not declare /VACC/; the cost routine reads it.
      INTEGER NI, NJ, MODE, I, J
      DOUBLE PRECISION H(NI, NJ), AREA, VSUM
      DOUBLE PRECISION VACC, VNORM
      INTEGER NACC
      COMMON /VACC/ VACC, VNORM, NACC
      IF (MODE .EQ. 0) THEN
         VACC = 0.0D0
         NACC = 0
         VNORM = 1.0D0/(DBLE(NI*NJ)*AREA*1.0D3)
         RETURN
      END IF
      VSUM = 0.0D0
      DO 20 J = 1, NJ
         DO 10 I = 1, NI
            VSUM = VSUM + H(I, J)*AREA
   10    CONTINUE
   20 CONTINUE
      VACC = VACC + VSUM*VNORM
      NACC = NACC + 1
      RETURN
      END

      SUBROUTINE ISOPAR
!     Parameters of the elastic-lithosphere relaxing-asthenosphere
!     (ELRA) bedrock model, in COMMON /ISOS/.
      DOUBLE PRECISION TAUISO, RHOM, FLEXL
      INTEGER NSMOOT
      COMMON /ISOS/ TAUISO, RHOM, FLEXL, NSMOOT
      TAUISO = 3000.0D0
      RHOM = 3300.0D0
      FLEXL = 0.25D0
      NSMOOT = 1
      RETURN
      END

      SUBROUTINE TRIDAG(A, B, C, R, U, N)
!     Thomas algorithm for A(K) U(K-1) + B(K) U(K) + C(K) U(K+1) = R(K).
!     A(1) and C(N) are not used.  No pivoting: the systems of the heat
!     equation are diagonally dominant.
      INTEGER N, K
      DOUBLE PRECISION A(N), B(N), C(N), R(N), U(N)
      DOUBLE PRECISION GAM(50), BET
      BET = B(1)
      U(1) = R(1)/BET
      DO 11 K = 2, N
         GAM(K) = C(K-1)/BET
         BET = B(K) - A(K)*GAM(K)
         U(K) = (R(K) - A(K)*U(K-1))/BET
   11 CONTINUE
      DO 12 K = N - 1, 1, -1
         U(K) = U(K) - GAM(K+1)*U(K+1)
   12 CONTINUE
      RETURN
      END

!-----------------------------------------------------------------------
!  ice_setup: reading the (built-in) configuration and allocating
!-----------------------------------------------------------------------
module ice_setup
  use ice_params
  use ice_types
  use ice_vars
  use ice_utils, only: pmp, packed_index
  implicit none
contains

  subroutine ice_init(scheme)
    character(len=*), intent(in), optional :: scheme
    integer(i4) :: i, j, k
    real(dp) :: xc, yc, r2, xx, yy
    double precision :: rhoi, rhow, grav, rhog
    common /phys/ rhoi, rhow, grav, rhog

    ! --- options ------------------------------------------------------
    opts%first_call = .true.
    opts%thermo_coupled = .true.
    opts%sliding = .true.
    opts%verbose = .false.
    opts%smb_scheme = 'linear'
    if (present(scheme)) opts%smb_scheme = scheme
    opts%flow_law = 'paterson'
    opts%bc_type = 'dirc'
    opts%isostasy = 'elra'
    opts%thk_solver = 'semi'
    opts%hydrology = .true.
    opts%n_out = 5
    opts%enhancement = 3.0_dp

    grid%imax = nx
    grid%jmax = ny
    grid%kmax = nz
    grid%cell_area = dx*dy

    call phycon()

    ! --- allocation -----------------------------------------------------
    allocate(thk(nx, ny), thk_old(nx, ny), zbed(nx, ny), zsurf(nx, ny))
    allocate(smb(nx, ny), temp_surf(nx, ny), geo_flux(nx, ny))
    allocate(temp(nz, nx, ny), rate_fac(nx, ny), c_slide(nx, ny))
    allocate(diff_x(0:nx, ny), diff_y(nx, 0:ny))
    allocate(flux_x(0:nx, ny), flux_y(nx, 0:ny))
    allocate(vel_x(0:nx, ny), vel_y(nx, 0:ny))
    allocate(thk_obs(nx, ny), zeta(nz), mask(nx, ny))
    allocate(zbed_ref(nx, ny), thk_ref(nx, ny), bwat(nx, ny), c_eff(nx, ny))
    allocate(melt_rate(nx, ny), vel_prof(nz, nx, ny))

    ! --- vertical grid: levels refined towards the base ---------------------
    do k = 1, nz
      zeta(k) = (real(k - 1, dp)/real(nz - 1, dp))**1.5_dp
    end do

    ! --- geometry: a dome on a gently tilted bed --------------------------
    i_centre = nx/2
    j_centre = ny/2
    xc = 0.5_dp*real(nx + 1, dp)
    yc = 0.5_dp*real(ny + 1, dp)
    do j = 1, ny
      do i = 1, nx
        xx = (real(i, dp) - xc)/(0.5_dp*real(nx, dp))
        yy = (real(j, dp) - yc)/(0.5_dp*real(ny, dp))
        r2 = xx*xx + yy*yy
        zbed(i, j) = 200.0_dp + 40.0_dp*xx - 25.0_dp*yy*yy
        thk(i, j) = 700.0_dp + 1300.0_dp*(1.0_dp - 0.45_dp*r2)
        thk_obs(i, j) = thk(i, j) + 30.0_dp*cos(0.7_dp*real(i, dp)) &
                        - 20.0_dp*sin(0.9_dp*real(j, dp))
        geo_flux(i, j) = 0.042_dp + 0.004_dp*yy
      end do
    end do
    zsurf = zbed + thk
    thk_old = thk
    zbed_ref = zbed
    thk_ref = thk
    bwat = 0.002_dp
    melt_rate = 0.0_dp
    vel_prof = 0.0_dp
    call isopar()

    ! --- mask: boundary ring 0, interior 1, the divide cells 2 ------------------
    mask = 1
    mask(1, :) = 0
    mask(nx, :) = 0
    mask(:, 1) = 0
    mask(:, ny) = 0
    mask(i_centre:i_centre + 1, j_centre:j_centre + 1) = 2

    ! --- initial temperature: linear between surface and a cold base ------------
    call init_surface_temperature()
    do j = 1, ny
      do i = 1, nx
        do k = 1, nz
          temp(k, i, j) = temp_surf(i, j) + 6.0_dp*(1.0_dp - zeta(k))
          temp(k, i, j) = min(temp(k, i, j), pmp(thk(i, j)*(1.0_dp - zeta(k))))
        end do
      end do
    end do

    c_slide = c_slide0
    c_eff = c_slide0
    rate_fac = 0.0_dp
    diff_x = 0.0_dp
    diff_y = 0.0_dp
    flux_x = 0.0_dp
    flux_y = 0.0_dp
    vel_x = 0.0_dp
    vel_y = 0.0_dp
    smb = 0.0_dp

    time = 0.0_dp
    istep = 0
    nhist_used = 0
    vol_hist = 0.0_dp
    area_hist = 0.0_dp
    vmax_hist = 0.0_dp
    if (packed_index(nx, ny) /= nx*ny) opts%verbose = .true.
  end subroutine ice_init

  subroutine init_surface_temperature()
    integer(i4) :: i, j
    do j = 1, ny
      do i = 1, nx
        temp_surf(i, j) = t_sea_level - lapse_rate*(zbed(i, j) + thk(i, j))
      end do
    end do
  end subroutine init_surface_temperature

  subroutine ice_finalize()
    deallocate(thk, thk_old, zbed, zsurf)
    deallocate(smb, temp_surf, geo_flux)
    deallocate(temp, rate_fac, c_slide)
    deallocate(diff_x, diff_y, flux_x, flux_y, vel_x, vel_y)
    deallocate(thk_obs, zeta, mask)
    deallocate(zbed_ref, thk_ref, bwat, c_eff, melt_rate, vel_prof)
  end subroutine ice_finalize
end module ice_setup

!-----------------------------------------------------------------------
!  ice_climate: surface temperature and surface mass balance
!-----------------------------------------------------------------------
module ice_climate
  use ice_params
  use ice_vars
  use ice_utils, only: smooth_step
  use ice_filters, only: smooth_field
  implicit none
contains

  subroutine surface_temperature()
    integer(i4) :: i, j
    real(dp) :: seasonal
    ! a weak warming trend over the run (passive forcing)
    seasonal = 0.01_dp*time
    do j = 1, ny
      do i = 1, nx
        temp_surf(i, j) = t_sea_level + seasonal - lapse_rate*zsurf(i, j)
      end do
    end do
  end subroutine surface_temperature

  !> Surface mass balance from the current surface elevation.
  subroutine surface_mass_balance()
    integer(i4) :: i, j
    real(dp) :: b, dz_ela

    select case (trim(opts%smb_scheme))
    case ('linear')
      do j = 1, ny
        do i = 1, nx
          dz_ela = zsurf(i, j) - ela
          if (dz_ela > 0.0_dp) then
            ! accumulation area: gradient halves above the ELA
            b = 0.5_dp*smb_grad*dz_ela
          else
            ! ablation area
            b = smb_grad*dz_ela
          end if
          smb(i, j) = min(b, smb_max)
        end do
      end do
    case ('pdd')
      call smb_pdd()
    case ('const')
      smb = 0.1_dp
    case default
      smb = 0.0_dp
    end select

    ! a smooth extra accumulation towards the divide (orographic)
    do j = 2, ny - 1
      do i = 2, nx - 1
        smb(i, j) = smb(i, j) + 0.05_dp*smooth_step(zsurf(i, j), 2000.0_dp, 400.0_dp)
      end do
    end do
    call smooth_field(smb, 1, centre=0.6_dp)
  end subroutine surface_mass_balance

  !> Degree-day scheme (not the default): melt from positive degree days.
  subroutine smb_pdd()
    integer(i4) :: i, j
    real(dp) :: pdd, accum
    real(dp), parameter :: ddf = 0.008_dp
    do j = 1, ny
      do i = 1, nx
        pdd = max(0.0_dp, temp_surf(i, j) + 10.0_dp - t0_kelvin)*120.0_dp
        accum = 0.3_dp*exp(0.05_dp*(temp_surf(i, j) - t0_kelvin))
        smb(i, j) = accum - ddf*pdd
      end do
    end do
  end subroutine smb_pdd
end module ice_climate

!-----------------------------------------------------------------------
!  ice_rheology: rate factor of Glen's flow law
!-----------------------------------------------------------------------
module ice_rheology
  use ice_params
  use ice_vars
  use ice_utils, only: pmp
  implicit none
contains

  !> Rate factor A(T') of one temperature, T' relative to pressure melting.
  function rate_factor(t_hom) result(a)
    real(dp), intent(in) :: t_hom
    real(dp) :: a
    select case (trim(opts%flow_law))
    case ('paterson')
      if (t_hom < t_switch) then
        a = a0_cold*exp(-q_cold/(r_gas*t_hom))
      else
        a = a0_warm*exp(-q_warm/(r_gas*t_hom))
      end if
    case ('const')
      a = 1.0e-24_dp
    case default
      a = 1.0e-24_dp
    end select
    a = a*sec_per_year
  end function rate_factor

  !> Column-averaged rate factor, weighted towards the base where the
  !> shear is concentrated (weight (1 - zeta)**n).
  subroutine compute_rate_factor()
    integer(i4) :: i, j, k
    real(dp) :: wsum, asum, w, t_hom, dzeta

    if (.not. opts%thermo_coupled) then
      rate_fac = opts%enhancement*rate_factor(t_switch - 10.0_dp)
      return
    end if

    do j = 1, ny
      do i = 1, nx
        wsum = 0.0_dp
        asum = 0.0_dp
        do k = 1, nz - 1
          dzeta = zeta(k + 1) - zeta(k)
          w = (1.0_dp - 0.5_dp*(zeta(k) + zeta(k + 1)))**n_glen*dzeta
          t_hom = 0.5_dp*(temp(k, i, j) + temp(k + 1, i, j)) &
                  - pmp(thk(i, j)*(1.0_dp - 0.5_dp*(zeta(k) + zeta(k + 1)))) + t0_kelvin
          asum = asum + w*rate_factor(t_hom)
          wsum = wsum + w
        end do
        rate_fac(i, j) = opts%enhancement*asum/wsum
      end do
    end do
  end subroutine compute_rate_factor
end module ice_rheology

!-----------------------------------------------------------------------
!  ice_dynamics: SIA diffusivity, sliding, velocities and fluxes
!-----------------------------------------------------------------------
module ice_dynamics
  use ice_params
  use ice_vars
  use ice_utils
  use ice_filters
  implicit none
contains

  !> Sliding coefficient from the control field (the inverted parameter).
  subroutine set_sliding(ctrl)
    real(dp), intent(in) :: ctrl(nx, ny)
    integer(i4) :: i, j
    if (.not. opts%sliding) then
      c_slide = 0.0_dp
      return
    end if
    do j = 1, ny
      do i = 1, nx
        c_slide(i, j) = c_slide0*ctrl(i, j)**2
      end do
    end do
    ! regularise the inverted field: smooth it, and tie the margin to the mean
    call smooth_field(c_slide, 2)
    call relax_to_mean(c_slide, mask, 0.5_dp)
  end subroutine set_sliding

  !> Diffusivity D = 2 A (rho g)^n H^(n+2) |grad s|^(n-1) / (n+2)
  !>                 + C_b rho g H^2      (linear sliding)
  !> on the staggered faces, with the face values of A, H and C_b the
  !> means of the two cells and |grad s|^2 from the face-normal difference
  !> and the four-cell corner mean of the tangential one.
  subroutine sia_diffusivity()
    integer(i4) :: i, j, ip, jp, jm, im
    real(dp) :: h_face, a_face, c_face, dsdx, dsdy, grad2, rhog
    double precision :: rhoi, rhow, grav, rhog_c
    common /phys/ rhoi, rhow, grav, rhog_c

    rhog = rhog_c
    ! --- x-faces (i+1/2, j) --------------------------------------------
    do j = 1, ny
      jp = iclamp(j + 1, 1, ny)
      jm = iclamp(j - 1, 1, ny)
      do i = 1, nx - 1
        ip = i + 1
        h_face = stag_mean(thk(i, j), thk(ip, j))
        a_face = stag_mean(rate_fac(i, j), rate_fac(ip, j))
        c_face = stag_mean(c_eff(i, j), c_eff(ip, j))
        dsdx = (zsurf(ip, j) - zsurf(i, j))/dx
        dsdy = tangential(zsurf(i, jp), zsurf(ip, jp), zsurf(i, jm), zsurf(ip, jm), &
                          real(jp - jm, dp)*dy)
        grad2 = dsdx**2 + dsdy**2 + eps_grad
        diff_x(i, j) = sia_coef(a_face, h_face, grad2, rhog) + c_face*rhog*h_face**2
      end do
      diff_x(0, j) = 0.0_dp
      diff_x(nx, j) = 0.0_dp
    end do

    ! --- y-faces (i, j+1/2) --------------------------------------------
    do j = 1, ny - 1
      jp = j + 1
      do i = 1, nx
        ip = iclamp(i + 1, 1, nx)
        im = iclamp(i - 1, 1, nx)
        h_face = stag_mean(thk(i, j), thk(i, jp))
        a_face = stag_mean(rate_fac(i, j), rate_fac(i, jp))
        c_face = stag_mean(c_eff(i, j), c_eff(i, jp))
        dsdy = (zsurf(i, jp) - zsurf(i, j))/dy
        dsdx = tangential(zsurf(ip, j), zsurf(ip, jp), zsurf(im, j), zsurf(im, jp), &
                          real(ip - im, dp)*dx)
        grad2 = dsdx**2 + dsdy**2 + eps_grad
        diff_y(i, j) = sia_coef(a_face, h_face, grad2, rhog) + c_face*rhog*h_face**2
      end do
    end do
    diff_y(:, 0) = 0.0_dp
    diff_y(:, ny) = 0.0_dp

  contains

    !> The tangential slope on a face: difference of the means of the
    !> two cells on either side, over the distance between them.
    function tangential(s1, s2, s3, s4, dist) result(g)
      real(dp), intent(in) :: s1, s2, s3, s4, dist
      real(dp) :: g
      g = (0.5_dp*(s1 + s2) - 0.5_dp*(s3 + s4))/dist
    end function tangential

    !> The SIA deformation part of the diffusivity.
    function sia_coef(a, h, g2, rg) result(d)
      real(dp), intent(in) :: a, h, g2, rg
      real(dp) :: d
      d = 2.0_dp*a/real(n_glen + 2, dp)*rg**n_glen*h**(n_glen + 2) &
          *g2**((n_glen - 1)/2)
    end function sia_coef
  end subroutine sia_diffusivity

  !> Fluxes q = -D grad s on the faces, and the depth-averaged speeds
  !> (diagnostic only).
  subroutine compute_fluxes()
    integer(i4) :: i, j
    real(dp) :: h_face
    flux_x = 0.0_dp
    flux_y = 0.0_dp
    do j = 1, ny
      do i = 1, nx - 1
        flux_x(i, j) = -diff_x(i, j)*(zsurf(i + 1, j) - zsurf(i, j))/dx
        h_face = stag_mean(thk(i, j), thk(i + 1, j))
        vel_x(i, j) = flux_x(i, j)/max(h_face, h_min)
      end do
    end do
    do j = 1, ny - 1
      do i = 1, nx
        flux_y(i, j) = -diff_y(i, j)*(zsurf(i, j + 1) - zsurf(i, j))/dy
        h_face = stag_mean(thk(i, j), thk(i, j + 1))
        vel_y(i, j) = flux_y(i, j)/max(h_face, h_min)
      end do
    end do
  end subroutine compute_fluxes
end module ice_dynamics

!-----------------------------------------------------------------------
!  ice_thickness: mass conservation and boundary conditions
!-----------------------------------------------------------------------
module ice_thickness
  use ice_params
  use ice_vars
  implicit none
contains

  !> Explicit update  H <- H + dt (smb - div q).
  subroutine update_thickness(dt)
    real(dp), intent(in) :: dt
    integer(i4) :: i, j
    real(dp) :: divq
    thk_old = thk
    do j = 2, ny - 1
      do i = 2, nx - 1
        divq = (flux_x(i, j) - flux_x(i - 1, j))/dx &
               + (flux_y(i, j) - flux_y(i, j - 1))/dy
        thk(i, j) = thk_old(i, j) + dt*(smb(i, j) - divq)
      end do
    end do
  end subroutine update_thickness

  !> Semi-implicit update: implicit along x (one tridiagonal system per
  !> row j, solved by the legacy TRIDAG on the interior cells through
  !> sequence association), explicit along y:
  !>   H* - dt d/dx(Dx dH*/dx) = H + dt (smb + d/dx(Dx db/dx) - d/dy q_y)
  subroutine update_thickness_semi(dt)
    real(dp), intent(in) :: dt
    integer(i4) :: i, j, nint
    real(dp) :: ta(nx), tb(nx), tc(nx), tr(nx), tu(nx)
    real(dp) :: cw, ce, divqy, bedx
    real(dp), parameter :: rdx2 = 1.0_dp/(dx*dx)

    thk_old = thk
    nint = nx - 2
    do j = 2, ny - 1
      ta = 0.0_dp
      tb = 1.0_dp
      tc = 0.0_dp
      tr = 0.0_dp
      tu = 0.0_dp
      do i = 2, nx - 1
        cw = dt*diff_x(i - 1, j)*rdx2
        ce = dt*diff_x(i, j)*rdx2
        divqy = (flux_y(i, j) - flux_y(i, j - 1))/dy
        ! the bed slope part of the x-flux stays explicit
        bedx = (diff_x(i, j)*(zbed(i + 1, j) - zbed(i, j)) &
                - diff_x(i - 1, j)*(zbed(i, j) - zbed(i - 1, j)))*rdx2
        ta(i) = -cw
        tc(i) = -ce
        tb(i) = 1.0_dp + cw + ce
        tr(i) = thk_old(i, j) + dt*(smb(i, j) + bedx - divqy)
      end do
      ! Dirichlet values of the boundary columns moved to the right-hand side
      tr(2) = tr(2) - ta(2)*thk_old(1, j)
      tr(nx - 1) = tr(nx - 1) - tc(nx - 1)*thk_old(nx, j)
      call tridag(ta(2), tb(2), tc(2), tr(2), tu(2), nint)
      do i = 2, nx - 1
        thk(i, j) = tu(i)
      end do
    end do
  end subroutine update_thickness_semi

  !> Boundary conditions and thickness limits.  The outer ring keeps
  !> its thickness ('dirc') or copies its inner neighbour ('neum');
  !> optional bounds clip the thickness.
  subroutine apply_boundary(hlo, hhi)
    real(dp), intent(in), optional :: hlo, hhi
    real(dp) :: lo, hi
    logical, save :: warned = .false.
    integer(i4) :: i, j

    lo = h_min
    hi = h_max
    if (present(hlo)) lo = hlo
    if (present(hhi)) hi = hhi

    select case (opts%bc_type)
    case ('dirc')
      where (mask == 0) thk = thk_old
    case ('neum')
      do j = 1, ny
        thk(1, j) = thk(2, j)
        thk(nx, j) = thk(nx - 1, j)
      end do
      do i = 1, nx
        thk(i, 1) = thk(i, 2)
        thk(i, ny) = thk(i, ny - 1)
      end do
    case default
      if (.not. warned) then
        warned = .true.
        if (opts%verbose) write (*, '(a)') ' apply_boundary: unknown bc_type'
      end if
    end select

    where (thk < lo)
      thk = lo
    elsewhere (thk > hi)
      thk = hi
    end where
    thk = max(thk, lo)
    thk = min(thk, hi)
    zsurf = zbed + thk
  end subroutine apply_boundary
end module ice_thickness

!-----------------------------------------------------------------------
!  ice_thermo: vertical heat conduction in each column (implicit)
!-----------------------------------------------------------------------
module ice_thermo
  use ice_params
  use ice_vars
  use ice_utils, only: pmp
  implicit none

  ! work arrays of one column
  real(dp) :: col_a(nz), col_b(nz), col_c(nz), col_r(nz), col_t(nz)
contains

  !> One implicit Euler step of  dT/dt = kappa/(rho c) d2T/dz2 - w dT/dz
  !> with T = T_s at the surface and -k dT/dz = G at the base, the
  !> vertical velocity w = -smb*zeta (a simple kinematic profile).
  subroutine temperature_step(dt)
    real(dp), intent(in) :: dt
    integer(i4) :: i, j, k
    real(dp) :: diffus, h
    double precision :: rhoi, rhow, grav, rhog
    common /phys/ rhoi, rhow, grav, rhog

    diffus = kappa_ice/(rhoi*c_ice)*sec_per_year
    do j = 1, ny
      do i = 1, nx
        if (mask(i, j) == 0) cycle
        h = thk(i, j)
        call build_column(i, j, h)
        call tridag(col_a, col_b, col_c, col_r, col_t, nz)
        do k = 1, nz
          temp(k, i, j) = min(col_t(k), pmp(h*(1.0_dp - zeta(k))))
        end do
      end do
    end do

  contains

    !> The tridiagonal system of column (i, j).
    subroutine build_column(ic, jc, hc)
      integer(i4), intent(in) :: ic, jc
      real(dp), intent(in) :: hc
      integer(i4) :: kk
      real(dp) :: dzm, dzp, w_vert, adv
      ! base: flux condition, one-sided
      dzp = (zeta(2) - zeta(1))*hc
      col_a(1) = 0.0_dp
      col_b(1) = 1.0_dp
      col_c(1) = -1.0_dp
      col_r(1) = geo_flux(ic, jc)/kappa_ice*dzp
      ! interior levels
      do kk = 2, nz - 1
        dzm = (zeta(kk) - zeta(kk - 1))*hc
        dzp = (zeta(kk + 1) - zeta(kk))*hc
        w_vert = -smb(ic, jc)*zeta(kk)
        adv = dt*w_vert/(dzm + dzp)
        col_a(kk) = -2.0_dp*dt*diffus/(dzm*(dzm + dzp)) - adv
        col_c(kk) = -2.0_dp*dt*diffus/(dzp*(dzm + dzp)) + adv
        col_b(kk) = 1.0_dp - col_a(kk) - col_c(kk)
        col_r(kk) = temp(kk, ic, jc)
      end do
      ! surface: air temperature
      col_a(nz) = 0.0_dp
      col_b(nz) = 1.0_dp
      col_c(nz) = 0.0_dp
      col_r(nz) = min(temp_surf(ic, jc), t0_kelvin)
    end subroutine build_column
  end subroutine temperature_step
end module ice_thermo

!-----------------------------------------------------------------------
!  ice_bedrock: glacial isostasy (ELRA: elastic lithosphere, relaxing
!  asthenosphere) with a local smoothing of the load
!-----------------------------------------------------------------------
module ice_bedrock
  use ice_params
  use ice_vars
  implicit none
contains

  !> The load anomaly of column (i, j) smoothed over its neighbours, a
  !> cheap stand-in for the flexural response of the lithosphere.
  function smoothed_load(i, j, flex) result(q)
    integer(i4), intent(in) :: i, j
    real(dp), intent(in) :: flex
    real(dp) :: q
    integer(i4) :: ii, jj, di, dj, nsum
    real(dp) :: qsum
    qsum = 0.0_dp
    nsum = 0
    do dj = -1, 1
      do di = -1, 1
        if (di /= 0 .and. dj /= 0) cycle
        ii = max(1, min(nx, i + di))
        jj = max(1, min(ny, j + dj))
        qsum = qsum + (thk(ii, jj) - thk_ref(ii, jj))
        nsum = nsum + 1
      end do
    end do
    q = (1.0_dp - flex)*(thk(i, j) - thk_ref(i, j)) + flex*qsum/real(nsum, dp)
  end function smoothed_load

  subroutine bedrock_step(dt)
    real(dp), intent(in) :: dt
    integer(i4) :: i, j
    real(dp) :: b_eq, load
    double precision :: rhoi, rhow, grav, rhog
    common /phys/ rhoi, rhow, grav, rhog
    double precision :: tauiso, rhom, flexl
    integer :: nsmoot
    common /isos/ tauiso, rhom, flexl, nsmoot

    select case (opts%isostasy)
    case ('elra')
      do j = 1, ny
        do i = 1, nx
          load = smoothed_load(i, j, flexl)
          b_eq = zbed_ref(i, j) - rhoi/rhom*load
          zbed(i, j) = zbed(i, j) + dt/tauiso*(b_eq - zbed(i, j))
        end do
      end do
    case ('llra')
      do j = 1, ny
        do i = 1, nx
          b_eq = zbed_ref(i, j) - rhoi/rhom*(thk(i, j) - thk_ref(i, j))
          zbed(i, j) = zbed(i, j) + dt/tauiso*(b_eq - zbed(i, j))
        end do
      end do
    case default
      continue
    end select
    zsurf = zbed + thk
  end subroutine bedrock_step
end module ice_bedrock

!-----------------------------------------------------------------------
!  ice_basal: basal melting, a local basal water budget, and the sliding
!  coefficient it enhances
!-----------------------------------------------------------------------
module ice_basal
  use ice_params
  use ice_vars
  use ice_utils, only: pmp
  implicit none

  real(dp), parameter :: latent_heat = 3.35e5_dp    ! [J kg^-1]
  real(dp), parameter :: tau_drain = 50.0_dp         ! drainage time scale [a]
  real(dp), parameter :: bwat_scale = 0.005_dp       ! water depth of half enhancement [m]
  real(dp), parameter :: bwat_max = 2.0_dp           ! till saturation [m]
contains

  !> Basal shear stress of column (i, j) from the centred surface slope.
  function basal_stress(i, j, rg) result(tau)
    integer(i4), intent(in) :: i, j
    real(dp), intent(in) :: rg
    real(dp) :: tau
    integer(i4) :: ip, im, jp, jm
    real(dp) :: sx, sy
    ip = min(i + 1, nx)
    im = max(i - 1, 1)
    jp = min(j + 1, ny)
    jm = max(j - 1, 1)
    sx = (zsurf(ip, j) - zsurf(im, j))/(real(ip - im, dp)*dx)
    sy = (zsurf(i, jp) - zsurf(i, jm))/(real(jp - jm, dp)*dy)
    tau = rg*thk(i, j)*sqrt(sx*sx + sy*sy + eps_grad)
  end function basal_stress

  subroutine basal_hydrology(dt)
    real(dp), intent(in) :: dt
    integer(i4) :: i, j
    real(dp) :: t_base, t_melt, taub, ub, heat, rhog_l
    double precision :: rhoi, rhow, grav, rhog
    common /phys/ rhoi, rhow, grav, rhog

    if (.not. opts%hydrology) then
      c_eff = c_slide
      return
    end if
    rhog_l = rhog
    do j = 1, ny
      do i = 1, nx
        if (mask(i, j) == 0) then
          melt_rate(i, j) = 0.0_dp
          cycle
        end if
        t_base = temp(1, i, j)
        t_melt = pmp(thk(i, j))
        taub = basal_stress(i, j, rhog_l)
        ub = c_slide(i, j)*taub
        ! geothermal plus frictional heating [W m^-2]
        heat = geo_flux(i, j) + taub*ub/sec_per_year
        if (t_base >= t_melt - 0.5_dp) then
          ! temperate base: all the heat melts ice
          melt_rate(i, j) = heat/(rhoi*latent_heat)*sec_per_year
        else
          ! cold base: a little melt from the warm spots of the cell
          melt_rate(i, j) = 0.2_dp*heat/(rhoi*latent_heat)*sec_per_year &
                            *exp((t_base - t_melt)/4.0_dp)
        end if
        bwat(i, j) = bwat(i, j) + dt*(melt_rate(i, j) - bwat(i, j)/tau_drain)
        bwat(i, j) = min(bwat(i, j), bwat_max)
      end do
    end do
    call water_to_sliding()

  contains

    !> Sliding enhanced by basal water, saturating at twice the dry value.
    subroutine water_to_sliding()
      integer(i4) :: ii, jj
      do jj = 1, ny
        do ii = 1, nx
          c_eff(ii, jj) = c_slide(ii, jj)*(1.0_dp + bwat(ii, jj)/(bwat(ii, jj) + bwat_scale))
        end do
      end do
    end subroutine water_to_sliding
  end subroutine basal_hydrology
end module ice_basal

!-----------------------------------------------------------------------
!  ice_output: passive diagnostics (volume, area, maximum speed)
!-----------------------------------------------------------------------
module ice_output
  use ice_params
  use ice_vars
  use ice_utils, only: packed_index
  implicit none

  integer(i4), save :: n_written = 0
  real(dp) :: thk_packed(nx*ny)
contains

  subroutine diagnostics(force)
    logical, intent(in), optional :: force
    integer(i4) :: i, j, ij
    real(dp) :: vol, area, vmax
    logical :: do_print
    double precision :: dvol, darea
    integer :: ndiag
    common /diagn/ dvol, darea, ndiag

    do_print = mod(istep, opts%n_out) == 0
    if (present(force)) do_print = do_print .or. force

    vol = 0.0_dp
    area = 0.0_dp
    do j = 1, ny
      do i = 1, nx
        ij = packed_index(i, j)
        thk_packed(ij) = thk(i, j)
        if (thk(i, j) > 10.0_dp) then
          vol = vol + thk(i, j)*grid%cell_area
          area = area + grid%cell_area
        end if
      end do
    end do
    vmax = max(maxval(abs(vel_x)), maxval(abs(vel_y)))
    call velocity_profile()

    nhist_used = min(nhist_used + 1, nhist)
    vol_hist(nhist_used) = vol
    area_hist(nhist_used) = area
    vmax_hist(nhist_used) = vmax
    dvol = vol
    darea = area
    ndiag = nhist_used

    if (do_print) then
      n_written = n_written + 1
      if (opts%verbose) then
        write (*, '(a,i5,a,f10.2,a,es12.4,a,f10.3)') ' step', istep, ' t=', time, &
          ' V=', vol, ' vmax=', vmax
        write (*, '(a,es12.4,a,es12.4)') '   surface speed max', maxval(vel_prof(nz, :, :)), &
          ' basal water max', maxval(bwat)
      end if
    end if

  contains

    !> Horizontal speed at each level from the depth-averaged speed and
    !> the SIA shape function (n = 3), plus the sliding speed.
    subroutine velocity_profile()
      integer(i4) :: ii, jj, k
      real(dp) :: ubar, ub
      do jj = 1, ny
        do ii = 1, nx
          ubar = 0.5_dp*(abs(vel_x(ii - 1, jj)) + abs(vel_x(ii, jj))) &
                 + 0.5_dp*(abs(vel_y(ii, jj - 1)) + abs(vel_y(ii, jj)))
          ub = min(ubar, c_eff(ii, jj)*1.0e4_dp)
          do k = 1, nz
            vel_prof(k, ii, jj) = ub + (ubar - ub)*shape_fn(zeta(k))
          end do
        end do
      end do
    end subroutine velocity_profile

    pure function shape_fn(z) result(f)
      real(dp), intent(in) :: z
      real(dp) :: f
      f = 1.25_dp*(1.0_dp - (1.0_dp - z)**(n_glen + 1))
    end function shape_fn
  end subroutine diagnostics
end module ice_output

!-----------------------------------------------------------------------
!  ice_driver: the time loop
!-----------------------------------------------------------------------
module ice_driver
  use ice_params
  use ice_vars
  use ice_climate
  use ice_rheology
  use ice_dynamics
  use ice_thickness
  use ice_thermo
  use ice_bedrock
  use ice_basal
  use ice_output
  implicit none
contains

  !> One time step of the coupled model.
  subroutine ice_step(dt)
    real(dp), intent(in) :: dt
    integer(i4), save :: ncalls = 0

    ncalls = ncalls + 1
    istep = istep + 1

    if (opts%first_call) then
      ! the thermodynamics needs a rate factor before the first step
      call surface_temperature()
      call compute_rate_factor()
      opts%first_call = .false.
    end if

    call surface_temperature()
    call surface_mass_balance()
    call basal_hydrology(dt)
    call sia_diffusivity()
    call compute_fluxes()
    select case (trim(opts%thk_solver))
    case ('explicit')
      call update_thickness(dt)
    case ('semi')
      call update_thickness_semi(dt)
    case default
      call update_thickness(dt)
    end select
    call apply_boundary(hhi=h_max)
    call bedrock_step(dt)
    call vaccum(thk, nx, ny, grid%cell_area, 1)
    if (opts%thermo_coupled) then
      call temperature_step(dt)
      call compute_rate_factor()
    end if
    time = time + dt
    call diagnostics()
  end subroutine ice_step

  !> Misfit of the thickness to the observations, plus the volume penalty
  !> accumulated by the legacy VACCUM in COMMON /VACC/.
  subroutine compute_cost(cost)
    real(dp), intent(out) :: cost
    integer(i4) :: i, j, nmis
    real(dp) :: misfit, sigma
    double precision :: vacc, vnorm
    integer :: nacc
    common /vacc/ vacc, vnorm, nacc

    sigma = 10.0_dp
    misfit = 0.0_dp
    nmis = 0
    do j = 2, ny - 1
      do i = 2, nx - 1
        if (mask(i, j) > 0) then
          misfit = misfit + ((thk(i, j) - thk_obs(i, j))/sigma)**2
          nmis = nmis + 1
        end if
      end do
    end do
    cost = 0.5_dp*misfit/real(max(nmis, 1), dp) + 0.1_dp*vacc/real(max(nacc, 1), dp)
  end subroutine compute_cost
end module ice_driver

!=======================================================================
!  The head: one forward run from the control field to the cost.
!=======================================================================
subroutine ice_model(ctrl, cost)
  use ice_params
  use ice_vars
  use ice_setup
  use ice_dynamics, only: set_sliding
  use ice_driver
  implicit none
  real(dp), intent(in) :: ctrl(nx, ny)
  real(dp), intent(out) :: cost
  integer(i4) :: it

  call ice_init()
  call vaccum(thk, nx, ny, grid%cell_area, 0)
  call set_sliding(ctrl)
  call diagnostics(force=.true.)
  do it = 1, nt
    call ice_step(dtime)
  end do
  call compute_cost(cost)
  call ice_finalize()
end subroutine ice_model
