C radtap: -head DAMPOS -vars "Y0 C" -outvars "E"
C sizes: NSTEP=8
C     A damped-oscillator integrator written as old codes did: the
C     integration parameters are kept in a SAVEd local table by a setter
C     routine SETPAR with two ENTRY points, GETDT and GETNS, that read
C     them back (passive integers and reals, never differentiated); the
C     time loop is a GOTO loop with a label counter; a DOUBLE PRECISION
C     FUNCTION for the energy.
      SUBROUTINE DAMPOS(NSTEP, Y0, C, E)
      INTEGER NSTEP
      DOUBLE PRECISION Y0(2), C, E
      DOUBLE PRECISION X, V, A, DT, ENERGY
      INTEGER K, NS
      CALL SETPAR(0.05D0, NSTEP)
      CALL GETDT(DT)
      CALL GETNS(NS)
      X = Y0(1)
      V = Y0(2)
      K = 0
   10 CONTINUE
      IF (K .GE. NS) GOTO 20
         A = -X - C*V - 0.1D0*X**3
         V = V + DT*A
         X = X + DT*V
         K = K + 1
      GOTO 10
   20 CONTINUE
      E = ENERGY(X, V)
      RETURN
      END

      DOUBLE PRECISION FUNCTION ENERGY(X, V)
      DOUBLE PRECISION X, V
      ENERGY = 0.5D0*V**2 + 0.5D0*X**2 + 0.025D0*X**4
      RETURN
      END

      SUBROUTINE SETPAR(DTIN, NIN)
      DOUBLE PRECISION DTIN, DTOUT
      INTEGER NIN, NOUT
      DOUBLE PRECISION DTS
      INTEGER NS
      SAVE DTS, NS
      DTS = DTIN
      NS = NIN
      RETURN
      ENTRY GETDT(DTOUT)
      DTOUT = DTS
      RETURN
      ENTRY GETNS(NOUT)
      NOUT = NS
      RETURN
      END
