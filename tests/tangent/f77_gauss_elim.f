C radtap: -head GEHEAD -vars "A B" -outvars "X"
C sizes: N=4
C Classic netlib-style F77: Gaussian elimination without pivoting on a
C diagonally dominant system (A is made dominant by adding 4N to its
C diagonal), back substitution, a PARAMETER bound, labelled nested DO
C loops, EQUIVALENCE of a work vector (written through both names).
      SUBROUTINE GEHEAD(N, A, B, X)
      INTEGER N, NMAX
      PARAMETER (NMAX = 12)
      DOUBLE PRECISION A(N,N), B(N), X(N)
      DOUBLE PRECISION W(NMAX,NMAX), R(NMAX), F, S
      DOUBLE PRECISION V(NMAX)
      EQUIVALENCE (R(1), V(1))
      INTEGER I, J, K
      DO 10 J = 1, N
        DO 11 I = 1, N
          W(I,J) = A(I,J)
   11   CONTINUE
   10 CONTINUE
      DO 15 I = 1, N
        W(I,I) = W(I,I) + 4.0D0*N
        R(I) = B(I)
   15 CONTINUE
      DO 30 K = 1, N-1
        DO 20 I = K+1, N
          F = W(I,K)/W(K,K)
          DO 25 J = K, N
            W(I,J) = W(I,J) - F*W(K,J)
   25     CONTINUE
          V(I) = V(I) - F*R(K)
   20   CONTINUE
   30 CONTINUE
      DO 50 I = N, 1, -1
        S = R(I)
        DO 40 J = I+1, N
          S = S - W(I,J)*X(J)
   40   CONTINUE
        X(I) = S/W(I,I)
   50 CONTINUE
      RETURN
      END
