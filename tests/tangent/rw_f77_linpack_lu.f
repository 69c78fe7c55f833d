C radtap: -head LUSOLV -vars "A B" -outvars "X" -size DGEFA.A=LDA*N -size DGESL.B=N
C sizes: N=5 LDA=6
C     LINPACK-style LU factorisation with partial pivoting (DGEFA) and
C     solve (DGESL), with the level-1 BLAS they call (IDAMAX, DSCAL,
C     DAXPY, DDOT) written as in netlib: unrolled loops with MOD
C     clean-up, increments, a leading dimension LDA larger than N.  The
C     matrix is made diagonally dominant from A, so the pivot search
C     always picks the diagonal and IDAMAX's comparisons are decided.
      SUBROUTINE LUSOLV(N, LDA, A, B, X)
      INTEGER N, LDA
      DOUBLE PRECISION A(LDA,N), B(N), X(N)
      DOUBLE PRECISION W(12,12)
      INTEGER IPVT(12), INFO, I, J
      DO 20 J = 1, N
         DO 10 I = 1, N
            W(I,J) = 0.1D0*A(I,J)
   10    CONTINUE
         W(J,J) = W(J,J) + 4.0D0 + A(J,J)**2
         X(J) = B(J)
   20 CONTINUE
      CALL DGEFA(W, 12, N, IPVT, INFO)
      CALL DGESL(W, 12, N, IPVT, X, 0)
      RETURN
      END

      SUBROUTINE DGEFA(A, LDA, N, IPVT, INFO)
      INTEGER LDA, N, IPVT(*), INFO
      DOUBLE PRECISION A(LDA,*)
      DOUBLE PRECISION T
      INTEGER IDAMAX, J, K, KP1, L, NM1
      INFO = 0
      NM1 = N - 1
      IF (NM1 .LT. 1) GO TO 70
      DO 60 K = 1, NM1
         KP1 = K + 1
         L = IDAMAX(N-K+1, A(K,K), 1) + K - 1
         IPVT(K) = L
         IF (A(L,K) .EQ. 0.0D0) GO TO 40
            IF (L .EQ. K) GO TO 10
               T = A(L,K)
               A(L,K) = A(K,K)
               A(K,K) = T
   10       CONTINUE
            T = -1.0D0/A(K,K)
            CALL DSCAL(N-K, T, A(K+1,K), 1)
            DO 30 J = KP1, N
               T = A(L,J)
               IF (L .EQ. K) GO TO 20
                  A(L,J) = A(K,J)
                  A(K,J) = T
   20          CONTINUE
               CALL DAXPY(N-K, T, A(K+1,K), 1, A(K+1,J), 1)
   30       CONTINUE
         GO TO 50
   40    CONTINUE
            INFO = K
   50    CONTINUE
   60 CONTINUE
   70 CONTINUE
      IPVT(N) = N
      IF (A(N,N) .EQ. 0.0D0) INFO = N
      RETURN
      END

      SUBROUTINE DGESL(A, LDA, N, IPVT, B, JOB)
      INTEGER LDA, N, IPVT(*), JOB
      DOUBLE PRECISION A(LDA,*), B(*)
      DOUBLE PRECISION T
      INTEGER K, KB, L, NM1
      NM1 = N - 1
      IF (JOB .NE. 0) GO TO 50
      IF (NM1 .LT. 1) GO TO 30
      DO 20 K = 1, NM1
         L = IPVT(K)
         T = B(L)
         IF (L .EQ. K) GO TO 10
            B(L) = B(K)
            B(K) = T
   10    CONTINUE
         CALL DAXPY(N-K, T, A(K+1,K), 1, B(K+1), 1)
   20 CONTINUE
   30 CONTINUE
      DO 40 KB = 1, N
         K = N + 1 - KB
         B(K) = B(K)/A(K,K)
         T = -B(K)
         CALL DAXPY(K-1, T, A(1,K), 1, B(1), 1)
   40 CONTINUE
   50 CONTINUE
      RETURN
      END

      INTEGER FUNCTION IDAMAX(N, DX, INCX)
      DOUBLE PRECISION DX(*), DMAX
      INTEGER I, INCX, IX, N
      IDAMAX = 0
      IF (N .LT. 1 .OR. INCX .LE. 0) RETURN
      IDAMAX = 1
      IF (N .EQ. 1) RETURN
      IX = 1
      DMAX = DABS(DX(1))
      IX = IX + INCX
      DO 10 I = 2, N
         IF (DABS(DX(IX)) .LE. DMAX) GO TO 5
         IDAMAX = I
         DMAX = DABS(DX(IX))
    5    IX = IX + INCX
   10 CONTINUE
      RETURN
      END

      SUBROUTINE DSCAL(N, DA, DX, INCX)
      DOUBLE PRECISION DA, DX(*)
      INTEGER I, INCX, M, MP1, N
      IF (N .LE. 0 .OR. INCX .LE. 0) RETURN
      M = MOD(N, 5)
      IF (M .EQ. 0) GO TO 40
      DO 30 I = 1, M
         DX(I) = DA*DX(I)
   30 CONTINUE
      IF (N .LT. 5) RETURN
   40 MP1 = M + 1
      DO 50 I = MP1, N, 5
         DX(I) = DA*DX(I)
         DX(I+1) = DA*DX(I+1)
         DX(I+2) = DA*DX(I+2)
         DX(I+3) = DA*DX(I+3)
         DX(I+4) = DA*DX(I+4)
   50 CONTINUE
      RETURN
      END

      SUBROUTINE DAXPY(N, DA, DX, INCX, DY, INCY)
      DOUBLE PRECISION DA, DX(*), DY(*)
      INTEGER I, INCX, INCY, IX, IY, N
      IF (N .LE. 0) RETURN
      IF (DA .EQ. 0.0D0) RETURN
      IX = 1
      IY = 1
      IF (INCX .LT. 0) IX = (-N+1)*INCX + 1
      IF (INCY .LT. 0) IY = (-N+1)*INCY + 1
      DO 10 I = 1, N
         DY(IY) = DY(IY) + DA*DX(IX)
         IX = IX + INCX
         IY = IY + INCY
   10 CONTINUE
      RETURN
      END
