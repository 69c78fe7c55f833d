! radtap: -head "campaign_m.campaign(total)/(state)"
! External effects see the values the original sees (issue 50): the strings a command, a
! file name and the lines written are built from are computed in the derivatives too.
module campaign_m
  implicit none
  integer, parameter :: nc = 4
  real(8) :: state(nc), total
  character(len=32) :: run_name = 'calib'
  character(len=32) :: snap_file = 'snap_1.txt'
contains
  ! Prints one line of the log.
  subroutine report(msg)
    character(len=*), intent(in) :: msg
    print '(a)', 'log: '//msg
  end subroutine report

  ! Makes the output directory with a command assembled piece by piece, and writes a
  ! summary of the initial state there; then scales the state.
  subroutine setup(scale)
    real(8), intent(in) :: scale
    character(len=200) :: shell_cmd
    character(len=64) :: outdir
    integer :: i, npos, u
    npos = 0
    do i = 1, nc
      if (state(i) > 1.0d0) npos = npos + 1
    end do
    outdir = 'campaign_'//trim(run_name)
    shell_cmd = 'mkdir'
    shell_cmd = trim(shell_cmd)//' -p'
    shell_cmd = trim(shell_cmd)//' '//trim(outdir)
    call execute_command_line(trim(shell_cmd))
    open (newunit=u, file=trim(outdir)//'/setup.txt', status='replace', action='write')
    write (u, '(a,1x,i0,1x,i0)') trim(run_name), nc, npos
    close (u)
    state = scale*state
  end subroutine setup

  ! One explicit step of a small nonlinear diffusion.
  subroutine advance(dt)
    real(8), intent(in) :: dt
    real(8) :: old(nc)
    integer :: i
    old = state
    do i = 2, nc - 1
      state(i) = old(i) + dt*(old(i - 1) - 2*old(i) + old(i + 1))*old(i)
    end do
  end subroutine advance

  ! Writes the state to the current snapshot file and names the next one (an internal
  ! WRITE), then relaxes the right boundary. The adjoint runs it again: the file name must
  ! be the one this call started with.
  subroutine snapshot_and_relax(k)
    integer, intent(in) :: k
    integer :: u
    open (newunit=u, file='campaign_'//trim(run_name)//'/'//trim(snap_file), &
          status='replace', action='write')
    write (u, '(i0,4f12.6)') k, state
    close (u)
    write (snap_file, '(a,i0,a)') 'snap_', k + 1, '.txt'
    state(nc) = 0.5d0*(state(nc) + state(nc - 1))
  end subroutine snapshot_and_relax

  subroutine campaign(nsteps)
    integer, intent(in) :: nsteps
    character(len=48) :: buf
    integer :: k, nlines
    real(8) :: dt
    call setup(1.5d0)
    dt = 0.1d0
    nlines = 0
    do k = 1, nsteps
      call advance(dt)
      call snapshot_and_relax(k)
      nlines = nlines + 1
    end do
    total = sum(state**2)
    run_name = trim(run_name)//'_done'
    write (buf, '(i0,a,f12.6)') nlines, ' steps, total ', total
    call report('campaign '//trim(run_name)//': '//trim(buf))
  end subroutine campaign
end module campaign_m
