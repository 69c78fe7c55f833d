C radtap: -head "BLK(A)/(A)"
C sizes: N=6 LDA=8
C     Blocks of one matrix that overlap: the updated block C = A(K,K+1)
C     shares its first row with B = A(1,K+1), whose K rows the update
C     reads. The adjoint would update one through the other: refused at the
C     call (disjoint blocks, A(K+1,1) / A(1,K+1) / A(K+1,K+1), are taken).
      SUBROUTINE BLK(N, A, LDA)
      INTEGER N, LDA, K
      DOUBLE PRECISION A(LDA,N)
      IF (LDA .LT. MAX(1, N)) RETURN
      K = N / 2
      CALL MMSUB(N-K, N-K, K, A(K+1,1), LDA, A(1,K+1), LDA,
     +           A(K+1,K+1), LDA)
      CALL MMSUB(N-K, N-K, K, A(K+1,1), LDA, A(1,K+1), LDA,
     +           A(K,K+1), LDA)
      END

      SUBROUTINE MMSUB(M, N, K, A, LDA, B, LDB, C, LDC)
      INTEGER M, N, K, LDA, LDB, LDC
      DOUBLE PRECISION A(LDA,*), B(LDB,*), C(LDC,*)
      INTEGER I, J, L
      DO 30 J = 1, N
         DO 20 L = 1, K
            DO 10 I = 1, M
               C(I,J) = C(I,J) - B(L,J)*A(I,L)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
