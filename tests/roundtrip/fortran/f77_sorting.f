C     Sorting and searching: insertion sort, bubble sort with an
C     exchange flag, and binary search written with GOTO.
      PROGRAM SORTS
      INTEGER N
      PARAMETER (N = 10)
      INTEGER IA(N), IB(N), I, IPOS, KEY
      DATA IA / 34, 7, 23, 32, 5, 62, 14, 7, 50, 1 /
      DO 10 I = 1, N
         IB(I) = IA(I)
   10 CONTINUE
      CALL ISORT(IA, N)
      WRITE (*,100) 'INSERTION', (IA(I), I = 1, N)
      CALL BSORT(IB, N)
      WRITE (*,100) 'BUBBLE   ', (IB(I), I = 1, N)
  100 FORMAT (1X, A9, ':', 10I4)
      DO 20 I = 1, 3
         KEY = 7 * I
         CALL BSRCH(IA, N, KEY, IPOS)
         WRITE (*,110) KEY, IPOS
   20 CONTINUE
  110 FORMAT (1X, 'SEARCH ', I3, ' -> POSITION ', I3)
      END
C
      SUBROUTINE ISORT(A, N)
      INTEGER N, A(N), I, J, T
      DO 40 I = 2, N
         T = A(I)
         J = I - 1
   30    IF (J .GE. 1) THEN
            IF (A(J) .GT. T) THEN
               A(J+1) = A(J)
               J = J - 1
               GO TO 30
            END IF
         END IF
         A(J+1) = T
   40 CONTINUE
      RETURN
      END
C
      SUBROUTINE BSORT(A, N)
      INTEGER N, A(*), I, T, LAST
      LOGICAL SWAPPD
      LAST = N
   50 SWAPPD = .FALSE.
      DO 60 I = 1, LAST - 1
         IF (A(I) .GT. A(I+1)) THEN
            T = A(I)
            A(I) = A(I+1)
            A(I+1) = T
            SWAPPD = .TRUE.
         END IF
   60 CONTINUE
      LAST = LAST - 1
      IF (SWAPPD .AND. LAST .GT. 1) GO TO 50
      RETURN
      END
C
C     Binary search; IPOS = 0 when KEY is absent.
      SUBROUTINE BSRCH(A, N, KEY, IPOS)
      INTEGER N, A(N), KEY, IPOS, LO, HI, MID
      LO = 1
      HI = N
      IPOS = 0
   70 IF (LO .GT. HI) RETURN
      MID = (LO + HI) / 2
      IF (A(MID) - KEY) 80, 90, 85
   80 LO = MID + 1
      GO TO 70
   85 HI = MID - 1
      GO TO 70
   90 IPOS = MID
      RETURN
      END
