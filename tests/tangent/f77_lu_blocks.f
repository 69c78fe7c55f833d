C radtap: -head "BLU(A)/(A)"
C sizes: N=7 NB=3 LDA=9
C     LAPACK DGETRF shape: a blocked LU (no pivoting, the matrix made
C     diagonally dominant) of A(LDA,N), LDA > N, in panels of NB columns:
C     the panel factored in place, A(J,J+JB) solved by TRSOL on the unit
C     lower triangle A(J,J), the trailing block A(J+JB,J+JB) updated by
C     MMSUB from A(J+JB,J) and A(J,J+JB). The callees take A(LDA,*) with
C     CHARACTER flags tested through a case-folding SAMECH (LSAME's
C     shape), the side not taken reaching another corner; the checks at
C     the top (INFO = -4 when LDA < MAX(1,N)) prove that the updated
C     block stays in its columns. Every pair of blocks is disjoint
C     *(fixed: the adjoint refused both calls as arguments that may share
C     memory)*.
      SUBROUTINE BLU(N, NB, A, LDA, INFO)
      INTEGER N, NB, LDA, INFO
      DOUBLE PRECISION A(LDA,N)
      INTEGER I, J, JB
      INFO = 0
      IF (N .LT. 0) THEN
         INFO = -1
      ELSE IF (NB .LT. 1) THEN
         INFO = -2
      ELSE IF (LDA .LT. MAX(1, N)) THEN
         INFO = -4
      END IF
      IF (INFO .NE. 0) THEN
         RETURN
      END IF
      IF (N .EQ. 0) RETURN
      DO 10 I = 1, N
         A(I,I) = A(I,I) + DBLE(N)
   10 CONTINUE
      DO 20 J = 1, N, NB
         JB = MIN(N-J+1, NB)
         CALL PANEL(N-J+1, JB, A(J,J), LDA)
         IF (J+JB .LE. N) THEN
            CALL TRSOL('Left', JB, N-J-JB+1, A(J,J), LDA, A(J,J+JB),
     +                 LDA)
            CALL MMSUB('n', N-J-JB+1, N-J-JB+1, JB, A(J+JB,J), LDA,
     +                 A(J,J+JB), LDA, A(J+JB,J+JB), LDA)
         END IF
   20 CONTINUE
      END

      LOGICAL FUNCTION SAMECH(CA, CB)
      CHARACTER CA, CB
      INTEGER IA, IB
      IA = ICHAR(CA)
      IB = ICHAR(CB)
      IF (IA .GE. 97 .AND. IA .LE. 122) IA = IA - 32
      IF (IB .GE. 97 .AND. IB .LE. 122) IB = IB - 32
      SAMECH = IA .EQ. IB
      END

      SUBROUTINE PANEL(M, N, A, LDA)
      INTEGER M, N, LDA
      DOUBLE PRECISION A(LDA,*)
      INTEGER I, J, K
      DO 30 K = 1, N
         DO 10 I = K + 1, M
            A(I,K) = A(I,K) / A(K,K)
   10    CONTINUE
         DO 25 J = K + 1, N
            DO 20 I = K + 1, M
               A(I,J) = A(I,J) - A(I,K)*A(K,J)
   20       CONTINUE
   25    CONTINUE
   30 CONTINUE
      END

C     B := inv(L) B, L the unit lower M by M triangle of A (SIDE 'L'), or
C     B := B inv(U), U the upper N by N triangle of A.
      SUBROUTINE TRSOL(SIDE, M, N, A, LDA, B, LDB)
      CHARACTER SIDE
      INTEGER M, N, LDA, LDB
      DOUBLE PRECISION A(LDA,*), B(LDB,*)
      LOGICAL SAMECH, LEFT
      EXTERNAL SAMECH
      INTEGER I, J, K, NA
      LEFT = SAMECH(SIDE, 'L')
      IF (LEFT) THEN
         NA = M
      ELSE
         NA = N
      END IF
      IF (M .LE. 0 .OR. N .LE. 0 .OR. LDA .LT. NA) RETURN
      IF (LEFT) THEN
         DO 30 J = 1, N
            DO 20 K = 1, M
               DO 10 I = K + 1, M
                  B(I,J) = B(I,J) - B(K,J)*A(I,K)
   10          CONTINUE
   20       CONTINUE
   30    CONTINUE
      ELSE
         DO 60 J = 1, N
            DO 40 K = 1, J - 1
               DO 35 I = 1, M
                  B(I,J) = B(I,J) - A(K,J)*B(I,K)
   35          CONTINUE
   40       CONTINUE
            DO 50 I = 1, M
               B(I,J) = B(I,J) / A(J,J)
   50       CONTINUE
   60    CONTINUE
      END IF
      END

C     C := C - op(A) B, op(A) M by K: A itself ('N') or its transpose.
      SUBROUTINE MMSUB(TRANSA, M, N, K, A, LDA, B, LDB, C, LDC)
      CHARACTER TRANSA
      INTEGER M, N, K, LDA, LDB, LDC
      DOUBLE PRECISION A(LDA,*), B(LDB,*), C(LDC,*)
      LOGICAL SAMECH
      EXTERNAL SAMECH
      INTEGER I, J, L
      DOUBLE PRECISION T
      IF (M .EQ. 0 .OR. N .EQ. 0) RETURN
      IF (SAMECH(TRANSA, 'N')) THEN
         DO 30 J = 1, N
            DO 20 L = 1, K
               T = B(L,J)
               DO 10 I = 1, M
                  C(I,J) = C(I,J) - T*A(I,L)
   10          CONTINUE
   20       CONTINUE
   30    CONTINUE
      ELSE
         DO 60 J = 1, N
            DO 50 I = 1, M
               T = 0.0D0
               DO 40 L = 1, K
                  T = T + A(L,I)*B(L,J)
   40          CONTINUE
               C(I,J) = C(I,J) - T
   50       CONTINUE
   60    CONTINUE
      END IF
      END
