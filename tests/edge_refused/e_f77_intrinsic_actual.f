C     radtap: -head AREAS -vars "A" -outvars "R2"
C     An intrinsic passed as an actual procedure (INTRINSIC DSIN;
C     SIMP(DSIN, A)) beside a function of the program (SIMP(SQR, A)):
C     the call through the dummy F was taken for a call of SQR, the one
C     procedure with a body passed, so SIMP(DSIN, A) got SQR's
C     derivative (silently wrong in every mode). Refused at the call
C     through F, which may run the intrinsic.
      DOUBLE PRECISION FUNCTION SIMP(F, A)
      DOUBLE PRECISION F, A
      EXTERNAL F
      SIMP = F(A)
      END
      DOUBLE PRECISION FUNCTION SQR(T)
      DOUBLE PRECISION T
      SQR = T*T
      END
      SUBROUTINE AREAS(A, R2)
      DOUBLE PRECISION A, R2, SIMP, SQR
      EXTERNAL SQR
      INTRINSIC DSIN
      R2 = SIMP(DSIN, A) + SIMP(SQR, A)
      END
