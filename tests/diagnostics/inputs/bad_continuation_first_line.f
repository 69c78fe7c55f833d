     &X = 1.0
      PRINT *, X
      END
