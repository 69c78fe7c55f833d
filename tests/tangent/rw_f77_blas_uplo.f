C radtap: -head QFORM -vars "A X" -outvars "Q Y"
C sizes: N=5
C     Reference-BLAS style symmetric matrix-vector product DSYMV with a
C     CHARACTER*1 UPLO flag tested by LSAME (case-insensitive compare of
C     characters), used once with the upper and once with the lower
C     triangle; DDOT with unrolled loop.  The head forms the quadratic
C     form Q = x'Ax and y = alpha*A*x + beta*y from both triangles.
      SUBROUTINE QFORM(N, A, X, Q, Y)
      INTEGER N
      DOUBLE PRECISION A(N,N), X(N), Q, Y(N)
      DOUBLE PRECISION Y2(12), DDOT
      INTEGER I
      CHARACTER*1 UPLO
      DO 10 I = 1, N
         Y(I) = 1.0D0
         Y2(I) = 0.5D0
   10 CONTINUE
      UPLO = 'U'
      CALL DSYMV(UPLO, N, 1.0D0, A, N, X, 1, 0.5D0, Y, 1)
      CALL DSYMV('l', N, 2.0D0, A, N, X, 1, 0.0D0, Y2, 1)
      Q = DDOT(N, X, 1, Y2, 1)
      RETURN
      END

      LOGICAL FUNCTION LSAME(CA, CB)
      CHARACTER CA, CB
      INTEGER INTA, INTB, ZCODE
      LSAME = CA .EQ. CB
      IF (LSAME) RETURN
      ZCODE = ICHAR('Z')
      INTA = ICHAR(CA)
      INTB = ICHAR(CB)
      IF (INTA .GE. 97 .AND. INTA .LE. 122) INTA = INTA - 32
      IF (INTB .GE. 97 .AND. INTB .LE. 122) INTB = INTB - 32
      LSAME = INTA .EQ. INTB
      RETURN
      END

      SUBROUTINE DSYMV(UPLO, N, ALPHA, A, LDA, X, INCX, BETA, Y, INCY)
      DOUBLE PRECISION ALPHA, BETA
      INTEGER INCX, INCY, LDA, N
      CHARACTER UPLO
      DOUBLE PRECISION A(LDA,*), X(*), Y(*)
      DOUBLE PRECISION ONE, ZERO
      PARAMETER (ONE = 1.0D+0, ZERO = 0.0D+0)
      DOUBLE PRECISION TEMP1, TEMP2
      INTEGER I, J
      LOGICAL LSAME
      IF (N .EQ. 0) RETURN
      IF (BETA .NE. ONE) THEN
         IF (BETA .EQ. ZERO) THEN
            DO 10 I = 1, N
               Y(I) = ZERO
   10       CONTINUE
         ELSE
            DO 20 I = 1, N
               Y(I) = BETA*Y(I)
   20       CONTINUE
         END IF
      END IF
      IF (ALPHA .EQ. ZERO) RETURN
      IF (LSAME(UPLO, 'U')) THEN
         DO 60 J = 1, N
            TEMP1 = ALPHA*X(J)
            TEMP2 = ZERO
            DO 50 I = 1, J - 1
               Y(I) = Y(I) + TEMP1*A(I,J)
               TEMP2 = TEMP2 + A(I,J)*X(I)
   50       CONTINUE
            Y(J) = Y(J) + TEMP1*A(J,J) + ALPHA*TEMP2
   60    CONTINUE
      ELSE
         DO 100 J = 1, N
            TEMP1 = ALPHA*X(J)
            TEMP2 = ZERO
            Y(J) = Y(J) + TEMP1*A(J,J)
            DO 90 I = J + 1, N
               Y(I) = Y(I) + TEMP1*A(I,J)
               TEMP2 = TEMP2 + A(I,J)*X(I)
   90       CONTINUE
            Y(J) = Y(J) + ALPHA*TEMP2
  100    CONTINUE
      END IF
      RETURN
      END

      DOUBLE PRECISION FUNCTION DDOT(N, DX, INCX, DY, INCY)
      DOUBLE PRECISION DX(*), DY(*), DTEMP
      INTEGER I, INCX, INCY, M, MP1, N
      DDOT = 0.0D0
      DTEMP = 0.0D0
      IF (N .LE. 0) RETURN
      M = MOD(N, 5)
      IF (M .EQ. 0) GO TO 40
      DO 30 I = 1, M
         DTEMP = DTEMP + DX(I)*DY(I)
   30 CONTINUE
      IF (N .LT. 5) GO TO 60
   40 MP1 = M + 1
      DO 50 I = MP1, N, 5
         DTEMP = DTEMP + DX(I)*DY(I) + DX(I+1)*DY(I+1) +
     +           DX(I+2)*DY(I+2) + DX(I+3)*DY(I+3) + DX(I+4)*DY(I+4)
   50 CONTINUE
   60 DDOT = DTEMP
      RETURN
      END
