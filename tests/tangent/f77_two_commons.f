C radtap: -head TCHEAD -vars "U" -outvars "V"
C sizes:
C Two COMMON blocks: /CTRL/ holds only integers (passive), /FIELD/ holds
C the active field W and ALPHA. The callee TCRELX names the same storage
C differently (NS, MD and Z, A), so activity must follow storage.
      SUBROUTINE TCHEAD(U, V)
      DOUBLE PRECISION U(4), V(4)
      INTEGER NSTEP, MODE
      COMMON /CTRL/ NSTEP, MODE
      DOUBLE PRECISION W(4), ALPHA
      COMMON /FIELD/ W, ALPHA
      INTEGER I, K
      NSTEP = 5
      MODE = 2
      ALPHA = 0.1D0*U(1)
      DO 10 I = 1, 4
         W(I) = U(I)
   10 CONTINUE
      DO 20 K = 1, NSTEP
         CALL TCRELX
   20 CONTINUE
      DO 30 I = 1, 4
         V(I) = W(I) + ALPHA
   30 CONTINUE
      END

      SUBROUTINE TCRELX
      INTEGER NS, MD
      COMMON /CTRL/ NS, MD
      DOUBLE PRECISION Z(4), A
      COMMON /FIELD/ Z, A
      DOUBLE PRECISION T(4)
      INTEGER I
      DO 10 I = 1, 4
         IF (MD .EQ. 2) THEN
            T(I) = Z(I) + A*(Z(MOD(I,4)+1) - Z(I))*Z(I)
         ELSE
            T(I) = Z(I)
         END IF
   10 CONTINUE
      DO 20 I = 1, 4
         Z(I) = T(I) + 0.01D0*DBLE(NS)*SIN(T(I))
   20 CONTINUE
      END
