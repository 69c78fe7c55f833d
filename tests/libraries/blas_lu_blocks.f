C A blocked LU in LAPACK's dgetrf shape with no BLAS source: DTRSM and DGEMM on blocks of one
C matrix (A(1,J+JB) beside A(J,J), A(J+JB,J+JB) below A(J,J+JB)), DSCAL down a column,
C IDAMAX for the pivot (rows swapped by hand, as DLASWP does), the argument checks that give LDA >= M; then the solve with the
C factors (DTRSM twice). The built-in stand-ins touch what the routines touch, so the blocks
C are proven disjoint and the adjoint is not refused.
      SUBROUTINE LUSOLV(M, A, LDA, B, INFO)
      INTEGER M, LDA, INFO, J, JB, NB, P, I, K
      DOUBLE PRECISION A(LDA, *), B(*), T
      INTEGER IDAMAX
      EXTERNAL IDAMAX
      INFO = 0
      IF (M .LT. 0) THEN
         INFO = -1
      ELSE IF (LDA .LT. MAX(1, M)) THEN
         INFO = -3
      END IF
      IF (INFO .NE. 0) RETURN
      NB = 2
      DO 20 J = 1, M, NB
         JB = MIN(M - J + 1, NB)
         DO 10 I = J, J + JB - 1
            P = I - 1 + IDAMAX(M - I + 1, A(I, I), 1)
            IF (P .NE. I) THEN
               T = B(I)
               B(I) = B(P)
               B(P) = T
               DO 5 K = 1, M
                  T = A(I, K)
                  A(I, K) = A(P, K)
                  A(P, K) = T
    5          CONTINUE
            END IF
            CALL DSCAL(M - I, 1.0D0 / A(I, I), A(I + 1, I), 1)
            IF (I .LT. J + JB - 1) THEN
               CALL DGEMM('No transpose', 'No transpose', M - I,
     $              J + JB - 1 - I, 1, -1.0D0, A(I + 1, I), LDA,
     $              A(I, I + 1), LDA, 1.0D0, A(I + 1, I + 1), LDA)
            END IF
   10    CONTINUE
         IF (J + JB .LE. M) THEN
            CALL DTRSM('Left', 'Lower', 'No transpose', 'Unit', JB,
     $           M - J - JB + 1, 1.0D0, A(J, J), LDA, A(J, J + JB), LDA)
            CALL DGEMM('No transpose', 'No transpose', M - J - JB + 1,
     $           M - J - JB + 1, JB, -1.0D0, A(J + JB, J), LDA,
     $           A(J, J + JB), LDA, 1.0D0, A(J + JB, J + JB), LDA)
         END IF
   20 CONTINUE
      CALL DTRSM('Left', 'Lower', 'No transpose', 'Unit', M, 1, 1.0D0,
     $     A, LDA, B, M)
      CALL DTRSM('Left', 'Upper', 'No transpose', 'Non-unit', M, 1,
     $     1.0D0, A, LDA, B, M)
      END
