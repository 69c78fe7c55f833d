C radtap: -head BEAMDF -vars "P" -outvars "W"
C sizes: NPT=4
C     Beam deflection by numerical quadrature in the style of a 1970s
C     engineering library: composite Simpson and a 4-point Gauss-
C     Legendre rule (nodes and weights from DATA) integrate a user
C     integrand passed as an EXTERNAL function; the load parameters
C     reach the integrand through a named COMMON block /LOAD/ set by
C     the head; the integrand is a DOUBLE PRECISION FUNCTION with
C     implicit typing of its integers.
      SUBROUTINE BEAMDF(NPT, P, W)
      INTEGER NPT
      DOUBLE PRECISION P(3), W(NPT)
      DOUBLE PRECISION EI, XL, Q0, Q1, A
      COMMON /LOAD/ EI, XL, Q0, Q1, A
      DOUBLE PRECISION MOMENT, SIMPSN, GAUSS4, X
      EXTERNAL MOMENT
      INTEGER K
      EI = 2.0D0 + P(1)
      XL = 3.0D0
      Q0 = P(2)
      Q1 = 0.5D0*P(3)
      DO 10 K = 1, NPT
         X = XL*DBLE(K)/DBLE(NPT + 1)
         A = X
         W(K) = SIMPSN(MOMENT, 0.0D0, X, 8) / EI
     +        + 0.1D0*GAUSS4(MOMENT, 0.0D0, X) / EI
   10 CONTINUE
      RETURN
      END

      DOUBLE PRECISION FUNCTION MOMENT(S)
      DOUBLE PRECISION S
      DOUBLE PRECISION EI, XL, Q0, Q1, A
      COMMON /LOAD/ EI, XL, Q0, Q1, A
      MOMENT = (A - S)*(Q0 + Q1*S/XL)*S*(XL - S)/XL**2
      RETURN
      END

      DOUBLE PRECISION FUNCTION SIMPSN(F, A, B, N)
      DOUBLE PRECISION F, A, B, H, S
      INTEGER N, I
      EXTERNAL F
      H = (B - A)/DBLE(N)
      S = F(A) + F(B)
      DO 10 I = 1, N - 1, 2
         S = S + 4.0D0*F(A + DBLE(I)*H)
   10 CONTINUE
      DO 20 I = 2, N - 2, 2
         S = S + 2.0D0*F(A + DBLE(I)*H)
   20 CONTINUE
      SIMPSN = S*H/3.0D0
      RETURN
      END

      DOUBLE PRECISION FUNCTION GAUSS4(F, A, B)
      DOUBLE PRECISION F, A, B, XM, XR, SS
      DOUBLE PRECISION XG(4), WG(4)
      INTEGER J
      EXTERNAL F
      DATA XG /-0.8611363115940526D0, -0.3399810435848563D0,
     +          0.3399810435848563D0,  0.8611363115940526D0/
      DATA WG / 0.3478548451374538D0,  0.6521451548625461D0,
     +          0.6521451548625461D0,  0.3478548451374538D0/
      XM = 0.5D0*(B + A)
      XR = 0.5D0*(B - A)
      SS = 0.0D0
      DO 10 J = 1, 4
         SS = SS + WG(J)*F(XM + XR*XG(J))
   10 CONTINUE
      GAUSS4 = XR*SS
      RETURN
      END
