C     Array dummy arguments: explicit shape A(N), assumed size A(*)
C     and two-dimensional adjustable arrays A(LDA,N).
      PROGRAM ARRARG
      INTEGER NMAX
      PARAMETER (NMAX = 8)
      REAL V(NMAX), W(NMAX), DOTP, VSUM
      REAL AMAT(4, 4)
      INTEGER I, J, N, IMAX, ILOC
      N = 5
      DO 10 I = 1, N
         V(I) = REAL(I)
         W(I) = REAL(N - I + 1)
   10 CONTINUE
      WRITE (*,100) DOTP(V, W, N)
  100 FORMAT (1X, 'DOT PRODUCT = ', F8.2)
      WRITE (*,110) VSUM(V, N), VSUM(W(2), N - 1)
  110 FORMAT (1X, 'SUM V = ', F8.2, '  SUM W(2:N) = ', F8.2)
      CALL AXPY(N, 2.0, V, W)
      WRITE (*,120) (W(I), I = 1, N)
  120 FORMAT (1X, 'AXPY RESULT: ', 5F7.2)
      IMAX = ILOC(W, N)
      WRITE (*,*) 'INDEX OF MAXIMUM =', IMAX
      DO 30 J = 1, 4
         DO 20 I = 1, 4
            AMAT(I, J) = REAL(10 * I + J)
   20    CONTINUE
   30 CONTINUE
      CALL TRANSP(AMAT, 4, 3)
      DO 40 I = 1, 3
         WRITE (*,130) (AMAT(I, J), J = 1, 3)
   40 CONTINUE
  130 FORMAT (1X, 3F8.1)
      END
C
      REAL FUNCTION DOTP(A, B, N)
      INTEGER N, I
      REAL A(N), B(N)
      DOTP = 0.0
      DO 50 I = 1, N
         DOTP = DOTP + A(I) * B(I)
   50 CONTINUE
      RETURN
      END
C
      REAL FUNCTION VSUM(A, N)
      INTEGER N, I
      REAL A(*)
      VSUM = 0.0
      DO 60 I = 1, N
         VSUM = VSUM + A(I)
   60 CONTINUE
      RETURN
      END
C
      SUBROUTINE AXPY(N, ALPHA, X, Y)
      INTEGER N, I
      REAL ALPHA, X(*), Y(*)
      DO 70 I = 1, N
         Y(I) = Y(I) + ALPHA * X(I)
   70 CONTINUE
      RETURN
      END
C
      INTEGER FUNCTION ILOC(A, N)
      INTEGER N, I
      REAL A(N)
      ILOC = 1
      DO 80 I = 2, N
         IF (A(I) .GT. A(ILOC)) ILOC = I
   80 CONTINUE
      RETURN
      END
C
C     Transpose the leading N by N block of A in place.
      SUBROUTINE TRANSP(A, LDA, N)
      INTEGER LDA, N, I, J
      REAL A(LDA, *), T
      DO 90 I = 1, N - 1
      DO 90 J = I + 1, N
         T = A(I, J)
         A(I, J) = A(J, I)
         A(J, I) = T
   90 CONTINUE
      RETURN
      END
