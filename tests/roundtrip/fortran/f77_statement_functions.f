C     Statement functions plus EXTERNAL and INTRINSIC declarations
C     for passing procedures as arguments.
      PROGRAM STMFUN
      REAL F, G, H, X, Y, TABLE
      INTEGER IDBL, I
      EXTERNAL CUBE
      INTRINSIC SQRT, ABS
      F(X) = X*X + 1.0
      G(X, Y) = 2.0*X - Y/2.0
      H(X) = F(X) + G(X, 1.0)
      IDBL(I) = I + I
      DO 10 I = 1, 4
         X = REAL(I)
         WRITE (*,100) X, F(X), G(X, X), H(X), IDBL(I)
   10 CONTINUE
  100 FORMAT (1X, 'X=', F5.1, ' F=', F7.2, ' G=', F7.2,
     &        ' H=', F7.2, ' IDBL=', I3)
      WRITE (*,110) TABLE(CUBE, 2.0)
      WRITE (*,110) TABLE(SQRT, 16.0)
      WRITE (*,110) TABLE(ABS, -3.0)
  110 FORMAT (1X, 'TABLE RESULT = ', F10.4)
      CALL APPLY(CUBE, 3)
      END
C
C     Sum FUN(X) + FUN(2X) for an arbitrary procedure argument.
      REAL FUNCTION TABLE(FUN, X)
      REAL FUN, X
      EXTERNAL FUN
      TABLE = FUN(X) + FUN(2.0 * X)
      RETURN
      END
C
      REAL FUNCTION CUBE(X)
      REAL X
      CUBE = X * X * X
      RETURN
      END
C
      SUBROUTINE APPLY(FUN, N)
      REAL FUN
      INTEGER N, K
      EXTERNAL FUN
      REAL SQ, T
      SQ(T) = T * T
      DO 20 K = 1, N
         WRITE (*,200) K, FUN(REAL(K)), SQ(FUN(REAL(K)))
   20 CONTINUE
  200 FORMAT (1X, 'K=', I2, ' FUN=', F8.2, ' SQ=', F10.2)
      RETURN
      END
