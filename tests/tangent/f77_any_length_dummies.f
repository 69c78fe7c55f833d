C     radtap: -head DRV -vars "X A" -outvars "S X" -size x=n -size a=lda*n
C     sizes: N=4 LDA=5
C     F66 "any length" dummies, DOUBLE PRECISION X(1) and A(LDA,1), as
C     EISPACK, old LINPACK and FFTPACK declare them: helpers overwrite
C     them in place under checkpointed calls. The adjoint took them as
C     one-element arrays: the snapshot of CALL SMOOTH saved and restored
C     X(1) only (dot-product test 2e-2 off, no warning). They are
C     assumed-size arrays now (recorded with the -size given).
      SUBROUTINE SMOOTH(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(1)
      DO 10 I = 1, N
         X(I) = SIN(X(I))*X(I) + 0.1D0
   10 CONTINUE
      END
      SUBROUTINE COLSCL(LDA, N, A, X)
      INTEGER LDA, N, I, J
      DOUBLE PRECISION A(LDA,1), X(1)
      DO 30 J = 1, N
         DO 20 I = 1, N
            A(I,J) = A(I,J)*X(J) + A(J,I)*0.25D0
   20    CONTINUE
   30 CONTINUE
      END
      SUBROUTINE OUTER(LDA, N, X, A, S)
      INTEGER LDA, N, I
      DOUBLE PRECISION X(1), A(LDA,1), S
      CALL SMOOTH(N, X)
      CALL COLSCL(LDA, N, A, X)
      S = 0.D0
      DO 40 I = 1, N
         S = S + X(I)**2 + A(I,I)*A(1,I)
   40 CONTINUE
      END
      SUBROUTINE DRV(LDA, N, X, A, S)
      INTEGER LDA, N
      DOUBLE PRECISION X(N), A(LDA,N), S
      CALL OUTER(LDA, N, X, A, S)
      CALL SMOOTH(N, X)
      END
