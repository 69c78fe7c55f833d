C     radtap: -head REG -vars "X" -outvars "F"
C     sizes: N=5
C     Labelled DO loops (DO 10 ... 10 CONTINUE, two loops sharing one
C     terminal) inside CHECKPOINT-START/END and DO-NOT-DIFF regions, as
C     every loop of F77 code is written. Both regions were refused ("a
C     labelled statement inside a region"); the labels no jump names are
C     dropped, as under BINOMIAL-CKP.
      SUBROUTINE REG(N, X, F)
      INTEGER N, I, J
      DOUBLE PRECISION X(N), F, W(10), C
      F = 0.D0
C$AD CHECKPOINT-START
      DO 10 I = 1, N
         W(I) = X(I)**2
         DO 10 J = 1, I
            W(I) = W(I) + 0.1D0*SIN(X(J))
   10 CONTINUE
      DO 20 I = 1, N
         F = F + W(I)*X(I)
   20 CONTINUE
C$AD CHECKPOINT-END
C$AD DO-NOT-DIFF
      C = 0.D0
      DO 30 I = 1, N
         C = C + 1.D0/I
   30 CONTINUE
C$AD END-DO-NOT-DIFF
      F = DSQRT(F) + C
      END
