C radtap: -head BCHEAD -vars "X" -outvars "Y"
C sizes:
C Blank COMMON carries activity between the head and a callee: the derivative
C of A and B was declared twice (output that did not compile) and the adjoint
C zeroed the callee's incoming adjoints (silently wrong), because blank
C COMMON members were not known as COMMON members.
      SUBROUTINE BCHEAD(X, Y)
      DOUBLE PRECISION X, Y, A, B
      COMMON A, B
      A = X*X + 0.5D0
      CALL BCSUB
      Y = B + A*X
      END
      SUBROUTINE BCSUB
      DOUBLE PRECISION A, B
      COMMON A, B
      B = SIN(A)*A
      END
