C     radtap: -head "KINET(YOUT)/(PIN)" -size y=NEQ -size savf=NEQ -size acor=NEQ -size ftem=NEQ -size wm=11 -size iwork=1 -size iwm=1 -size x=3
C     sizes:
C     ODEPACK's layout (DLSODE -> DSTODE(..., F, JAC, PJAC, SLVS) -> DPREPJ(..., F, JAC)),
C     all external F77 procedures: two drivers (DRVSTF, DRVDIA, as DLSODE and DLSODES) pass
C     the user's F and JAC and their own Jacobian and solver routines to one stepper STEPR,
C     whose four dummy procedures each receive two procedures. STEPR, the drivers and the
C     Jacobian routines are specialised per set of actual procedures (issue 44 item 3; every
C     call through F, PJAC and SLVS was refused, AD020). The drivers' Y(*) is assumed-size,
C     and not varied at their first call of F: its derivative is cleared over the three
C     elements F declares (`Yd = 0` did not compile).
      SUBROUTINE FKIN (NEQ, T, Y, YDOT)
      INTEGER NEQ
      DOUBLE PRECISION T, Y(3), YDOT(3), P(3)
      COMMON /KPARS/ P
      YDOT(1) = -P(1)*Y(1) + P(2)*Y(2)*Y(3)
      YDOT(3) = P(3)*Y(2)*Y(2)
      YDOT(2) = -YDOT(1) - YDOT(3)
      RETURN
      END
      SUBROUTINE JKIN (NEQ, T, Y, ML, MU, PD, NRPD)
      INTEGER NEQ, ML, MU, NRPD
      DOUBLE PRECISION T, Y(3), PD(NRPD,3), P(3)
      COMMON /KPARS/ P
      PD(1,1) = -P(1)
      PD(1,2) = P(2)*Y(3)
      PD(1,3) = P(2)*Y(2)
      PD(2,1) = P(1)
      PD(2,3) = -P(2)*Y(2)
      PD(3,1) = 0.0D0
      PD(3,3) = 0.0D0
      PD(3,2) = 2.0D0*P(3)*Y(2)
      PD(2,2) = -PD(1,2) - PD(3,2)
      RETURN
      END
      SUBROUTINE FDCY (NEQ, T, Y, YDOT)
      INTEGER NEQ
      DOUBLE PRECISION T, Y(3), YDOT(3), P(3)
      COMMON /KPARS/ P
      YDOT(1) = -P(1)*Y(1)
      YDOT(2) = P(1)*Y(1) - P(2)*Y(2)
      YDOT(3) = P(2)*Y(2) - 0.05D0*P(3)*Y(3)*Y(3)
      RETURN
      END
      SUBROUTINE JDCY (NEQ, T, Y, ML, MU, PD, NRPD)
      INTEGER NEQ, ML, MU, NRPD
      DOUBLE PRECISION T, Y(3), PD(NRPD,3), P(3)
      COMMON /KPARS/ P
      PD(1,1) = -P(1)
      PD(2,2) = -P(2)
      PD(3,3) = -0.1D0*P(3)*Y(3)
      RETURN
      END
      SUBROUTINE KINET (PIN, YOUT)
      DOUBLE PRECISION PIN(3), YOUT(6), P(3)
      COMMON /KPARS/ P
      EXTERNAL FKIN, JKIN, FDCY, JDCY
      INTEGER IWORK(3), NEQ
      DOUBLE PRECISION RWORK(40), T, TOUT, Y(3)
      P(1) = 0.04D0*PIN(1)
      P(2) = 1.0D1*PIN(2)
      P(3) = 3.0D1*PIN(3)
      NEQ = 3
      Y(1) = 1.0D0
      Y(2) = 0.0D0
      Y(3) = 0.0D0
      T = 0.0D0
      TOUT = 0.4D0
      CALL DRVSTF (FKIN, NEQ, Y, T, TOUT, 8, RWORK, IWORK, JKIN, 22)
      YOUT(1) = Y(1)
      YOUT(2) = 1.0D2*Y(2)
      YOUT(3) = Y(3)
      Y(1) = 1.0D0
      Y(2) = 0.5D0
      Y(3) = 0.2D0
      T = 0.0D0
      CALL DRVDIA (FDCY, NEQ, Y, T, TOUT, 6, RWORK, IWORK, JDCY, 21)
      YOUT(4) = Y(1)
      YOUT(5) = Y(2)
      YOUT(6) = Y(3)
      RETURN
      END
C     The drivers: work arrays partitioned as in DLSODE (YH, SAVF, ACOR, WM) but passed as
C     separate arrays, an initial call of F, then NSTEP backward Euler steps.
      SUBROUTINE DRVSTF (F, NEQ, Y, T, TOUT, NSTEP, RWORK, IWORK, JAC,
     1   MF)
      EXTERNAL F, JAC, PREPJ, SOLSY
      INTEGER NEQ, NSTEP, IWORK(*), MF, I, K
      DOUBLE PRECISION Y(*), T, TOUT, RWORK(*), H, YH(3), SAVF(3),
     1   ACOR(3), WM(11)
      INTEGER MITER
      COMMON /KSTEP/ MITER
      MITER = MF - 20
      CALL F (NEQ, T, Y, SAVF)
      H = (TOUT - T)/DBLE(NSTEP)
      DO 10 I = 1, NEQ
        YH(I) = Y(I) + 0.5D0*H*SAVF(I)
   10 CONTINUE
      DO 20 K = 1, NSTEP
        CALL STEPR (NEQ, Y, YH, SAVF, ACOR, WM, IWORK, H, T, F, JAC,
     1     PREPJ, SOLSY)
   20 CONTINUE
      RWORK(1) = H
      RETURN
      END
      SUBROUTINE DRVDIA (F, NEQ, Y, T, TOUT, NSTEP, RWORK, IWORK, JAC,
     1   MF)
      EXTERNAL F, JAC, PREPJD, SOLSD
      INTEGER NEQ, NSTEP, IWORK(*), MF, I, K
      DOUBLE PRECISION Y(*), T, TOUT, RWORK(*), H, YH(3), SAVF(3),
     1   ACOR(3), WM(11)
      INTEGER MITER
      COMMON /KSTEP/ MITER
      MITER = MF - 20
      CALL F (NEQ, T, Y, SAVF)
      H = (TOUT - T)/DBLE(NSTEP)
      DO 10 I = 1, NEQ
        YH(I) = Y(I) + 0.5D0*H*SAVF(I)
   10 CONTINUE
      DO 20 K = 1, NSTEP
        CALL STEPR (NEQ, Y, YH, SAVF, ACOR, WM, IWORK, H, T, F, JAC,
     1     PREPJD, SOLSD)
   20 CONTINUE
      RWORK(1) = H
      RETURN
      END
C     One backward Euler step: the iteration matrix from PJAC, two chord iterations solved
C     by SLVS (as DSTODE's corrector).
      SUBROUTINE STEPR (NEQ, Y, YH, SAVF, ACOR, WM, IWM, H, T, F, JAC,
     1   PJAC, SLVS)
      EXTERNAL F, JAC, PJAC, SLVS
      INTEGER NEQ, IWM(*), I, M
      DOUBLE PRECISION Y(*), YH(*), SAVF(*), ACOR(*), WM(*), H, T
      DO 10 I = 1, NEQ
        YH(I) = Y(I)
   10 CONTINUE
      CALL PJAC (NEQ, Y, SAVF, WM, IWM, H, T, F, JAC)
      T = T + H
      DO 40 M = 1, 2
        CALL F (NEQ, T, Y, SAVF)
        DO 20 I = 1, NEQ
          ACOR(I) = H*SAVF(I) - (Y(I) - YH(I))
   20   CONTINUE
        CALL SLVS (WM, IWM, ACOR, SAVF)
        DO 30 I = 1, NEQ
          Y(I) = Y(I) + ACOR(I)
   30   CONTINUE
   40 CONTINUE
      RETURN
      END
C     P = I - H*J, J from JAC (MITER = 1) or by differences of F (MITER = 2), factored in
C     place (no pivoting: P is diagonally dominant here), as DPREPJ with DGEFA.
      SUBROUTINE PREPJ (NEQ, Y, FTEM, WM, IWM, H, T, F, JAC)
      EXTERNAL F, JAC
      INTEGER NEQ, IWM(*), I, J, K, MITER
      DOUBLE PRECISION Y(*), FTEM(*), WM(*), H, T, R, YJ, F0(3)
      COMMON /KSTEP/ MITER
      IF (MITER .EQ. 1) THEN
        DO 10 I = 1, 9
          WM(I+2) = 0.0D0
   10   CONTINUE
        CALL JAC (NEQ, T, Y, 0, 0, WM(3), NEQ)
      ELSE
        CALL F (NEQ, T, Y, F0)
        DO 30 J = 1, NEQ
          YJ = Y(J)
          R = 1.0D-3*(1.0D0 + YJ)
          Y(J) = YJ + R
          CALL F (NEQ, T, Y, FTEM)
          DO 20 I = 1, NEQ
            WM(I + (J-1)*NEQ + 2) = (FTEM(I) - F0(I))/R
   20     CONTINUE
          Y(J) = YJ
   30   CONTINUE
      ENDIF
      DO 40 I = 1, NEQ*NEQ
        WM(I+2) = -H*WM(I+2)
   40 CONTINUE
      DO 50 I = 1, NEQ
        WM(I + (I-1)*NEQ + 2) = WM(I + (I-1)*NEQ + 2) + 1.0D0
   50 CONTINUE
      CALL LUDEC (NEQ, WM(3))
      IWM(1) = NEQ
      RETURN
      END
      SUBROUTINE LUDEC (N, A)
      INTEGER N, I, J, K
      DOUBLE PRECISION A(N,N)
      DO 30 K = 1, N - 1
        DO 10 I = K + 1, N
          A(I,K) = A(I,K)/A(K,K)
   10   CONTINUE
        DO 25 J = K + 1, N
          DO 20 I = K + 1, N
            A(I,J) = A(I,J) - A(I,K)*A(K,J)
   20     CONTINUE
   25   CONTINUE
   30 CONTINUE
      RETURN
      END
      SUBROUTINE SOLSY (WM, IWM, X, TEM)
      INTEGER IWM(*)
      DOUBLE PRECISION WM(*), X(*), TEM(*)
      CALL LUSOL (IWM(1), WM(3), X)
      RETURN
      END
      SUBROUTINE LUSOL (N, A, B)
      INTEGER N, I, K
      DOUBLE PRECISION A(N,N), B(N)
      DO 20 K = 1, N - 1
        DO 10 I = K + 1, N
          B(I) = B(I) - A(I,K)*B(K)
   10   CONTINUE
   20 CONTINUE
      DO 40 K = N, 1, -1
        B(K) = B(K)/A(K,K)
        DO 30 I = 1, K - 1
          B(I) = B(I) - A(I,K)*B(K)
   30   CONTINUE
   40 CONTINUE
      RETURN
      END
C     The diagonal variant (as DLSODES' own PJAC and SLVS): P = I - H*diag(J), J from JAC
C     (MITER = 1) or a difference of F along all components at once (MITER = 2).
      SUBROUTINE PREPJD (NEQ, Y, FTEM, WM, IWM, H, T, F, JAC)
      EXTERNAL F, JAC
      INTEGER NEQ, IWM(*), I, MITER
      DOUBLE PRECISION Y(*), FTEM(*), WM(*), H, T, R, F0(3), PD(3,3),
     1   YS(3)
      COMMON /KSTEP/ MITER
      IF (MITER .EQ. 1) THEN
        CALL JAC (NEQ, T, Y, 0, 0, PD, 3)
        DO 10 I = 1, NEQ
          WM(I+2) = 1.0D0 - H*PD(I,I)
   10   CONTINUE
      ELSE
        CALL F (NEQ, T, Y, F0)
        DO 20 I = 1, NEQ
          YS(I) = Y(I)
          Y(I) = Y(I) + 1.0D-3*(1.0D0 + YS(I))
   20   CONTINUE
        CALL F (NEQ, T, Y, FTEM)
        DO 30 I = 1, NEQ
          R = 1.0D-3*(1.0D0 + YS(I))
          WM(I+2) = 1.0D0 - H*(FTEM(I) - F0(I))/R
          Y(I) = YS(I)
   30   CONTINUE
      ENDIF
      IWM(1) = NEQ
      RETURN
      END
      SUBROUTINE SOLSD (WM, IWM, X, TEM)
      INTEGER IWM(*), I
      DOUBLE PRECISION WM(*), X(*), TEM(*)
      DO 10 I = 1, IWM(1)
        X(I) = X(I)/WM(I+2)
   10 CONTINUE
      RETURN
      END
