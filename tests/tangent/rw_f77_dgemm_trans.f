C radtap: -head GRAMTR -vars "A B" -outvars "C"
C sizes: M=3 N=4 K=5
C     Reference-BLAS DGEMM with TRANSA/TRANSB CHARACTER*1 flags decided
C     through LSAME, the four loop orders of the netlib code (only the
C     'N','N' and 'T','N' paths run here), ALPHA/BETA scaling with the
C     BETA = 0 shortcut, and a caller forming C = A'B + 0.5 (A'A)(1:M,1:N)
C     with leading dimensions larger than the extents.
      SUBROUTINE GRAMTR(M, N, K, A, B, C)
      INTEGER M, N, K
      DOUBLE PRECISION A(K,M), B(K,N), C(M,N)
      DOUBLE PRECISION G(12,12)
      INTEGER I, J
      CALL DGEMM('T', 'N', M, N, K, 1.0D0, A, K, B, K, 0.0D0, C, M)
      CALL DGEMM('t', 'n', M, M, K, 0.5D0, A, K, A, K, 0.0D0, G, 12)
      DO 20 J = 1, N
         DO 10 I = 1, M
            IF (J .LE. M) C(I,J) = C(I,J) + G(I,J)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END

      LOGICAL FUNCTION LSAME(CA, CB)
      CHARACTER CA, CB
      INTEGER INTA, INTB
      LSAME = CA .EQ. CB
      IF (LSAME) RETURN
      INTA = ICHAR(CA)
      INTB = ICHAR(CB)
      IF (INTA .GE. 97 .AND. INTA .LE. 122) INTA = INTA - 32
      IF (INTB .GE. 97 .AND. INTB .LE. 122) INTB = INTB - 32
      LSAME = INTA .EQ. INTB
      RETURN
      END

      SUBROUTINE DGEMM(TRANSA, TRANSB, M, N, K, ALPHA, A, LDA, B, LDB,
     +                 BETA, C, LDC)
      DOUBLE PRECISION ALPHA, BETA
      INTEGER K, LDA, LDB, LDC, M, N
      CHARACTER TRANSA, TRANSB
      DOUBLE PRECISION A(LDA,*), B(LDB,*), C(LDC,*)
      LOGICAL LSAME
      DOUBLE PRECISION TEMP
      INTEGER I, J, L
      LOGICAL NOTA, NOTB
      DOUBLE PRECISION ONE, ZERO
      PARAMETER (ONE = 1.0D+0, ZERO = 0.0D+0)
      NOTA = LSAME(TRANSA, 'N')
      NOTB = LSAME(TRANSB, 'N')
      IF ((M .EQ. 0) .OR. (N .EQ. 0)) RETURN
      IF (NOTB) THEN
         IF (NOTA) THEN
            DO 90 J = 1, N
               IF (BETA .EQ. ZERO) THEN
                  DO 50 I = 1, M
                     C(I,J) = ZERO
   50             CONTINUE
               ELSE IF (BETA .NE. ONE) THEN
                  DO 60 I = 1, M
                     C(I,J) = BETA*C(I,J)
   60             CONTINUE
               END IF
               DO 80 L = 1, K
                  TEMP = ALPHA*B(L,J)
                  DO 70 I = 1, M
                     C(I,J) = C(I,J) + TEMP*A(I,L)
   70             CONTINUE
   80          CONTINUE
   90       CONTINUE
         ELSE
            DO 120 J = 1, N
               DO 110 I = 1, M
                  TEMP = ZERO
                  DO 100 L = 1, K
                     TEMP = TEMP + A(L,I)*B(L,J)
  100             CONTINUE
                  IF (BETA .EQ. ZERO) THEN
                     C(I,J) = ALPHA*TEMP
                  ELSE
                     C(I,J) = ALPHA*TEMP + BETA*C(I,J)
                  END IF
  110          CONTINUE
  120       CONTINUE
         END IF
      ELSE
         DO 150 J = 1, N
            DO 140 I = 1, M
               TEMP = ZERO
               DO 130 L = 1, K
                  TEMP = TEMP + A(L,I)*B(J,L)
  130          CONTINUE
               C(I,J) = ALPHA*TEMP + BETA*C(I,J)
  140       CONTINUE
  150    CONTINUE
      END IF
      RETURN
      END
