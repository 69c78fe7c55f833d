C radtap: -head EQTWO -vars "S" -outvars "R"
C sizes:
C Two EQUIVALENCE groups through one array, (PAIR(1), YL) and
C (PAIR(2), YR), share storage: the write through YR was taken as a
C total write of the merged group, so the earlier write through YL
C (primal and derivative) was deleted as dead (silently wrong).
      SUBROUTINE EQTWO(S, R)
      DOUBLE PRECISION S, R, YL, YR, PAIR(2)
      EQUIVALENCE (PAIR(1), YL), (PAIR(2), YR)
      YL = S*S
      YR = S
      R = PAIR(1) + PAIR(2)*YL
      END
