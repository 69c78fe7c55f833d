C radtap: -head EQVIEW -vars "S" -outvars "R"
C sizes:
C A 1-D local view of a 2-D COMMON array starting at its second column,
C written in a loop and read through the COMMON name (was refused with
C a message blaming "members of different types"), and a chain of
C local groups (A, B), (C, D), (B, C) that is one storage of four names.
      SUBROUTINE EQVIEW(S, R)
      DOUBLE PRECISION S(2), R(2), U(3,3), UL(6), A, B, C, D
      COMMON /GRD/ U
      EQUIVALENCE (U(1,2), UL(1))
      EQUIVALENCE (A, B), (C, D), (B, C)
      INTEGER K
      DO 10 K = 1, 3
         U(K,1) = S(1)
   10 CONTINUE
      DO 20 K = 1, 6
         UL(K) = S(1)*DBLE(K) + S(2)**2
   20 CONTINUE
      A = S(2)*S(1)
      D = D*U(2,3)
      R(1) = U(3,2)*U(1,1) + C
      R(2) = B*U(2,3) - UL(4)
      END
