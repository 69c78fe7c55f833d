C     radtap: -head "STEPS(Y)/(X)"
C     sizes: N=5
C     The F77 time loop `DO 10 K=1,N ... 10 CONTINUE` under BINOMIAL-CKP, with a labelled
C     inner loop and two loops sharing one terminal label in its body: the loop's own
C     terminal label was refused as "a labelled statement inside a region" (the schedule
C     runs the body more than once, and a label would be written twice). Labels that only
C     end DO loops, named by no GOTO, are dropped before differentiation (`il::labelled_do`).
      SUBROUTINE STEPS(X,Y,N)
      INTEGER N,K,I,J
      DOUBLE PRECISION X(3),Y,T,A(2,2)
      DATA A /0.1D0, 0.2D0, 0.3D0, 0.4D0/
C$AD BINOMIAL-CKP N 2 1
      DO 10 K=1,N
        T=X(1)
        DO 20 J=1,2
          X(J)=X(J)+0.1D0*SIN(X(J+1))
20      CONTINUE
        DO 30 I=1,2
        DO 30 J=1,2
          X(3)=X(3)+0.01D0*A(I,J)*X(I)*X(J)
30      CONTINUE
        X(3)=X(3)+0.05D0*T*X(2)
10    CONTINUE
      Y=X(1)+X(2)*X(3)
      END
