C     Standard intrinsic functions in FORTRAN 77, both generic and
C     specific names, with integer, real and double precision data.
      PROGRAM INTRIN
      REAL X, Y, PI
      DOUBLE PRECISION DX, DY
      INTEGER I, J, K
      PARAMETER (PI = 3.1415926)
      X = 2.0
      Y = -0.75
      DX = 0.5D0
      DY = 1.5D0
      WRITE (*,100) 'SQRT ', SQRT(X), DSQRT(DY)
      WRITE (*,100) 'EXP  ', EXP(1.0), DEXP(DX)
      WRITE (*,100) 'LOG  ', LOG(X), DLOG(DY)
      WRITE (*,100) 'LOG10', LOG10(100.0), ALOG10(1000.0)
      WRITE (*,100) 'SIN  ', SIN(PI / 6.0), DSIN(DX)
      WRITE (*,100) 'COS  ', COS(PI / 3.0), DCOS(DX)
      WRITE (*,100) 'TAN  ', TAN(PI / 4.0), ATAN(1.0)
      WRITE (*,100) 'ASIN ', ASIN(0.5), ACOS(0.5)
      WRITE (*,100) 'ATAN2', ATAN2(1.0, -1.0), DATAN2(-1.0D0, -1.0D0)
      WRITE (*,100) 'ABS  ', ABS(Y), DABS(-DY)
      WRITE (*,100) 'SINH ', SINH(DX), TANH(DX)
      WRITE (*,100) 'SIGN ', SIGN(3.0, Y), SIGN(-4.0, X)
      WRITE (*,100) 'DBLE ', REAL(DBLE(X) / 3.0D0), SNGL(DY)
      WRITE (*,100) 'MAXMN', MAX(X, Y, 1.0), MIN(X, Y, 1.0)
      WRITE (*,100) 'AMOD ', AMOD(7.5, 2.0), MOD(-7.5, 2.0)
      WRITE (*,100) 'AINT ', AINT(-2.7), ANINT(-2.5)
      WRITE (*,100) 'DIM  ', DIM(5.0, 3.0), DIM(3.0, 5.0)
  100 FORMAT (1X, A5, 2F12.5)
      I = 17
      J = 5
      K = -17
      WRITE (*,110) 'MOD  ', MOD(I, J), MOD(K, J)
      WRITE (*,110) 'ISIGN', ISIGN(I, K), ISIGN(K, J)
      WRITE (*,110) 'IABS ', IABS(K), ABS(K)
      WRITE (*,110) 'MAX  ', MAX(I, J, K), MAX0(I, J)
      WRITE (*,110) 'MIN  ', MIN(I, J, K), MIN0(I, J)
      WRITE (*,110) 'INT  ', INT(3.99), INT(-3.99)
      WRITE (*,110) 'NINT ', NINT(3.5), NINT(-3.5)
      WRITE (*,110) 'IFIX ', IFIX(7.9), IDNINT(2.5D0)
      WRITE (*,110) 'IDIM ', IDIM(I, J), IDIM(J, I)
      WRITE (*,110) 'ICHAR', ICHAR('A'), LEN('HELLO')
  110 FORMAT (1X, A5, 2I8)
      WRITE (*,120) FLOAT(I) / FLOAT(J), REAL(I / J)
  120 FORMAT (1X, 'FLOAT DIVISION ', F8.4, ' INTEGER DIVISION ', F6.1)
      WRITE (*,130) CMPLX(1.0, 2.0) * CMPLX(3.0, -1.0)
  130 FORMAT (1X, 'COMPLEX PRODUCT (', F6.2, ',', F6.2, ')')
      END
