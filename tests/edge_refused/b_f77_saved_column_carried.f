C radtap: -head "COLFJ(FVEC)/(X)"
C sizes: M=4 N=6
C     A saved table whose second column IS carried between calls: each
C     call reads DT(I,2) (the last call's value) before it updates it, so
C     the adjoint of the checkpointed call would start from the state the
C     forward sweep left. Refused (columns written before they are read,
C     or only read, are accepted: tests/tangent/f77_saved_table_columns.f).
      SUBROUTINE COLFJ(M, N, X, FVEC)
      INTEGER M, N
      DOUBLE PRECISION X(N), FVEC(M)
      EXTERNAL RESFJ
      CALL RESFJ(M, N, X, FVEC)
      FVEC(1) = FVEC(1) + X(1)*X(N)
      END

      SUBROUTINE RESFJ(M, N, X, FVEC)
      INTEGER M, N
      DOUBLE PRECISION X(N), FVEC(M)
      INTEGER NTIMES
      PARAMETER (NTIMES=4)
      INTEGER I
      DOUBLE PRECISION DT(NTIMES,2)
      DATA DT/0.3D0, 1.1D0, 2.6D0, 3.4D0, 4*0.5D0/
      DO 20 I = 1, M
         FVEC(I) = DT(I,1) - X(I)*EXP(-DT(I,2)*X(I+1))
         DT(I,2) = 0.5D0*DT(I,2) + 0.1D0
   20 CONTINUE
      END
