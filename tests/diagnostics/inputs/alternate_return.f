      PROGRAM ALTRET
      REAL X
      X = 1.0
      CALL F(X, *10)
      PRINT *, 'NORMAL'
   10 CONTINUE
      END
      SUBROUTINE F(X, *)
      REAL X
      IF (X .GT. 0.0) RETURN 1
      END
