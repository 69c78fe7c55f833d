C radtap: -head "GL2FG(F)/(X)"
C sizes: NX=3 NY=2
C     MINPACK-2 dgl2fg shape: a work array of 2*(NX+1)*(NY+1) elements
C     packed from X, its two halves W(1) and W(ITEMP+1), ITEMP a local set
C     once to (NX+1)*(NY+1), passed to 2-D explicit-shape dummies
C     U(NX+1,NY+1) and V(NX+1,NY+1) of a routine that writes both (the
C     boundary rows and columns) and reads both (the energy): disjoint
C     pieces once ITEMP is replaced by its value *(fixed: the adjoint
C     refused the call as arguments that may share memory)*.
      SUBROUTINE GL2FG(NX, NY, X, F, W)
      INTEGER NX, NY
      DOUBLE PRECISION X(2*NX*NY), F, W(2*(NX+1)*(NY+1))
      INTEGER CTR, I, ITEMP, J, K
      ITEMP = (NX+1)*(NY+1)
      CTR = 1
      DO 20 J = 1, NY
         DO 10 I = 1, NX
            K = (J-1)*NX + I
            W(CTR) = X(K)
            W(ITEMP+CTR) = X(NX*NY+K)
            CTR = CTR + 1
   10    CONTINUE
         CTR = CTR + 1
   20 CONTINUE
      CALL GL2FC(NX, NY, W(1), W(ITEMP+1), F)
      END

      SUBROUTINE GL2FC(NX, NY, U, V, F)
      INTEGER NX, NY
      DOUBLE PRECISION U(NX+1,NY+1), V(NX+1,NY+1), F
      INTEGER I, J
      DO 10 J = 1, NY + 1
         U(NX+1,J) = U(1,J)*0.8D0 - V(1,J)*0.6D0
         V(NX+1,J) = U(1,J)*0.6D0 + V(1,J)*0.8D0
   10 CONTINUE
      DO 20 I = 1, NX + 1
         U(I,NY+1) = U(I,1)
         V(I,NY+1) = V(I,1)
   20 CONTINUE
      F = 0.0D0
      DO 40 J = 1, NY
         DO 30 I = 1, NX
            F = F + (U(I+1,J) - U(I,J)*COS(V(I,J)))**2
     +            + (V(I,J+1) - V(I,J)*SIN(U(I,J)))**2
   30    CONTINUE
   40 CONTINUE
      END
