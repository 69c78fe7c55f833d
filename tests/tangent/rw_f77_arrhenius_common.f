C radtap: -head IGNITE -vars "A0 EACT Y0" -outvars "TFIN YFIN"
C sizes: NSTEP=10
C     Adiabatic ignition of a premixed gas, one-step Arrhenius
C     chemistry, integrated by backward Euler with a fixed number of
C     Newton corrections per step, as in a 1980s combustion code:
C     kinetic parameters in a named COMMON block, the reaction rate a
C     DOUBLE PRECISION FUNCTION, the Jacobian by hand, implicit typing
C     of the integers (I-N default), and an inner DO loop ending on a
C     shared labelled CONTINUE.
      DOUBLE PRECISION FUNCTION RATE(T, Y)
      DOUBLE PRECISION T, Y
      DOUBLE PRECISION A, E, Q
      COMMON /KINET/ A, E, Q
      RATE = A*Y*DEXP(-E/T)
      RETURN
      END

      SUBROUTINE IGNITE(NSTEP, A0, EACT, Y0, TFIN, YFIN)
      DOUBLE PRECISION A0, EACT, Y0, TFIN, YFIN
      DOUBLE PRECISION A, E, Q
      COMMON /KINET/ A, E, Q
      DOUBLE PRECISION T, Y, TOLD, YOLD, DT, W, DWDT, DWDY
      DOUBLE PRECISION F1, F2, J11, J12, J21, J22, DET, DTT, DY
      DOUBLE PRECISION RATE
      EXTERNAL RATE
      A = 2.0D0*A0
      E = 3.0D0*EACT
      Q = 0.8D0
      T = 1.0D0
      Y = 0.5D0*Y0
      DT = 0.05D0
      DO 30 N = 1, NSTEP
         TOLD = T
         YOLD = Y
         DO 20 K = 1, 3
            W = RATE(T, Y)
            DWDT = W*E/T**2
            DWDY = W/Y
            F1 = T - TOLD - DT*Q*W
            F2 = Y - YOLD + DT*W
            J11 = 1.0D0 - DT*Q*DWDT
            J12 = -DT*Q*DWDY
            J21 = DT*DWDT
            J22 = 1.0D0 + DT*DWDY
            DET = J11*J22 - J12*J21
            DTT = (J22*F1 - J12*F2)/DET
            DY = (J11*F2 - J21*F1)/DET
            T = T - DTT
            Y = Y - DY
   20    CONTINUE
   30 CONTINUE
      TFIN = T
      YFIN = 10.0D0*Y
      RETURN
      END
