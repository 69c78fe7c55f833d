C radtap: -head "COLFJ(FVEC)/(X)"
C sizes: M=4 N=6
C     MINPACK-2 diacfj/diarfj shape: a residual routine keeps a table
C     DT(NTIMES,2) saved by its DATA statement; column 1 holds the
C     observation times (DATA, only read), column 2 is computed from
C     column 1 at every call before it is read, and the residuals use it
C     as coefficients. Called by a routine whose adjoint checkpoints the
C     call: no column carries a value from one call to the next *(fixed:
C     the adjoint refused DT as state the checkpointed call needs)*.
      SUBROUTINE COLFJ(M, N, X, FVEC)
      INTEGER M, N
      DOUBLE PRECISION X(N), FVEC(M)
      EXTERNAL RESFJ
      CALL RESFJ(M, N, X, FVEC, 3)
      FVEC(1) = FVEC(1) + X(1)*X(N)
      END

      SUBROUTINE RESFJ(M, N, X, FVEC, NINT)
      INTEGER M, N, NINT
      DOUBLE PRECISION X(N), FVEC(M)
      INTEGER NTIMES
      PARAMETER (NTIMES=4)
      INTEGER I, K
      DOUBLE PRECISION H, DT(NTIMES,2), OBS(NTIMES)
      DATA (DT(I,1),I=1,NTIMES)/0.3D0, 1.1D0, 2.6D0, 3.4D0/
      DATA OBS/1.0D0, 0.5D0, 0.25D0, 0.1D0/
      H = 4.0D0/DBLE(NINT)
      DO 10 I = 1, NTIMES
         K = INT(DT(I,1)/H)
         DT(I,2) = (DT(I,1) - DBLE(K)*H)/H
   10 CONTINUE
      DO 20 I = 1, M
         FVEC(I) = OBS(I) - X(I)*EXP(-DT(I,2)*X(I+1))
   20 CONTINUE
      END
