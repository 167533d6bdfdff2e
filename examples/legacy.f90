! A Fortran 77-style program on the BLAS, built against libtessera_blas:
! it runs unchanged against any BLAS (-lblas), and with Tessera the two
! BLAS-3 calls run on the GPUs when they are large enough (TESS_THRESHOLD).
!
! C = A B with DGEMM, then B is recovered from C by DTRSM (A is lower
! triangular), and the largest difference from B is printed.
      PROGRAM LEGACY
      IMPLICIT NONE
      INTEGER N
      PARAMETER (N = 700)
      DOUBLE PRECISION A(N, N), B(N, N), C(N, N), ERR, SEED
      INTEGER I, J
      SEED = 1.0D0
      DO 20 J = 1, N
         DO 10 I = 1, N
            SEED = MOD(SEED * 16807.0D0, 2147483647.0D0)
            B(I, J) = SEED / 2147483647.0D0 - 0.5D0
            IF (I .GT. J) THEN
               A(I, J) = B(I, J)
            ELSE IF (I .EQ. J) THEN
               A(I, J) = DBLE(N)
            ELSE
               A(I, J) = 0.0D0
            END IF
   10    CONTINUE
   20 CONTINUE
      CALL DGEMM('No transpose', 'N', N, N, N, 1.0D0, A, N, B, N, &
     &           0.0D0, C, N)
      CALL DTRSM('left', 'Lower', 'N', 'Non-unit', N, N, 1.0D0, A, N, &
     &           C, N)
      ERR = 0.0D0
      DO 40 J = 1, N
         DO 30 I = 1, N
            ERR = MAX(ERR, ABS(C(I, J) - B(I, J)))
   30    CONTINUE
   40 CONTINUE
      PRINT '(A, ES10.3)', ' largest difference from B:', ERR
      IF (ERR .GT. 1.0D-10) STOP 1
      END
