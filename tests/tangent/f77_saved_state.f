C     radtap: -head "TOP(Y)/(X)"
C     sizes: N=5
C     Filters whose state is kept from one call to the next, as legacy F77 codes keep it:
C     named in a SAVE statement, saved by a DATA statement, saved by a SAVE without a list
C     (every local), and a linear recurrence reset on the first call. The derivative of the
C     state is saved with it (it was a plain local: the recurrence lost its derivative).
C     SCALE clobbers the stack between the calls. (An output nonlinear in a saved state is
C     refused by the adjoint: the snapshot of the call cannot reach the callee's local.)
      SUBROUTINE TOP(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y(N), A, B
      DO 10 I = 1, N
         CALL FILT1(X(I), A, I .EQ. 1)
         CALL FILT2(X(I), B, I .EQ. 1)
         CALL SCALE(A)
         CALL FILT3(A, B, Y(I), I .EQ. 1)
   10 CONTINUE
      END

      SUBROUTINE FILT1(XIN, YOUT, RESET)
      DOUBLE PRECISION XIN, YOUT
      LOGICAL RESET
      DOUBLE PRECISION S
      SAVE S
      IF (RESET) S = 0.0D0
      S = 0.5D0*S + XIN
      YOUT = S
      END

      SUBROUTINE FILT2(XIN, YOUT, RESET)
      DOUBLE PRECISION XIN, YOUT, S, W(2)
      LOGICAL RESET
      DATA S /0.0D0/, W /0.3D0, 0.6D0/
      IF (RESET) S = 0.0D0
      S = W(1)*S + W(2)*XIN
      YOUT = S
      END

      SUBROUTINE FILT3(P, Q, YOUT, RESET)
      DOUBLE PRECISION P, Q, YOUT, S1, S2
      LOGICAL RESET
      SAVE
      IF (RESET) THEN
         S1 = 0.0D0
         S2 = 1.0D0
      END IF
      S1 = 0.25D0*S1 + P*Q
      S2 = 0.75D0*S2 + 0.1D0*P
      YOUT = S1 + 0.5D0*S2
      END

      SUBROUTINE SCALE(V)
      DOUBLE PRECISION V, T(4)
      INTEGER K
      DO 20 K = 1, 4
         T(K) = V*K
   20 CONTINUE
      V = T(2)*0.5D0
      END
