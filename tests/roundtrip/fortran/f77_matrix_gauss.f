C     Gaussian elimination with partial pivoting in DOUBLE PRECISION
C     and a residual check using a matrix-vector product.
      PROGRAM GAUSS
      INTEGER N
      PARAMETER (N = 4)
      DOUBLE PRECISION A(N, N), A0(N, N), B(N), B0(N), X(N), R(N)
      DOUBLE PRECISION RNORM
      INTEGER I, J, IERR
      DATA ((A(I, J), J = 1, N), I = 1, N) /
     &     4.0D0, -2.0D0,  1.0D0,  3.0D0,
     &     3.0D0,  6.0D0, -4.0D0,  2.0D0,
     &     2.0D0,  1.0D0,  8.0D0, -5.0D0,
     &     1.0D0,  3.0D0, -2.0D0,  7.0D0 /
      DATA B / 20.0D0, 9.0D0, -3.0D0, 31.0D0 /
      DO 20 J = 1, N
         B0(J) = B(J)
         DO 10 I = 1, N
            A0(I, J) = A(I, J)
   10    CONTINUE
   20 CONTINUE
      CALL SOLVE(A, B, X, N, IERR)
      IF (IERR .NE. 0) THEN
         WRITE (*,*) 'SINGULAR MATRIX'
         STOP
      END IF
      WRITE (*,100) (I, X(I), I = 1, N)
  100 FORMAT (1X, 'X(', I1, ') = ', F12.8)
      CALL MATVEC(A0, X, R, N)
      RNORM = 0.0D0
      DO 30 I = 1, N
         RNORM = MAX(RNORM, ABS(R(I) - B0(I)))
   30 CONTINUE
      IF (RNORM .LT. 1.0D-10) WRITE (*,*) 'RESIDUAL IS SMALL'
      END
C
      SUBROUTINE SOLVE(A, B, X, N, IERR)
      INTEGER N, IERR, I, J, K, IP
      DOUBLE PRECISION A(N, N), B(N), X(N), T, FAC, S
      IERR = 0
      DO 60 K = 1, N - 1
         IP = K
         DO 40 I = K + 1, N
            IF (ABS(A(I, K)) .GT. ABS(A(IP, K))) IP = I
   40    CONTINUE
         IF (A(IP, K) .EQ. 0.0D0) THEN
            IERR = 1
            RETURN
         END IF
         IF (IP .NE. K) THEN
            DO 45 J = 1, N
               T = A(K, J)
               A(K, J) = A(IP, J)
               A(IP, J) = T
   45       CONTINUE
            T = B(K)
            B(K) = B(IP)
            B(IP) = T
         END IF
         DO 55 I = K + 1, N
            FAC = A(I, K) / A(K, K)
            DO 50 J = K, N
               A(I, J) = A(I, J) - FAC * A(K, J)
   50       CONTINUE
            B(I) = B(I) - FAC * B(K)
   55    CONTINUE
   60 CONTINUE
      DO 80 I = N, 1, -1
         S = B(I)
         DO 70 J = I + 1, N
            S = S - A(I, J) * X(J)
   70    CONTINUE
         X(I) = S / A(I, I)
   80 CONTINUE
      RETURN
      END
C
      SUBROUTINE MATVEC(A, X, Y, N)
      INTEGER N, I, J
      DOUBLE PRECISION A(N, N), X(N), Y(N)
      DO 90 I = 1, N
         Y(I) = 0.0D0
         DO 90 J = 1, N
            Y(I) = Y(I) + A(I, J) * X(J)
   90 CONTINUE
      RETURN
      END
