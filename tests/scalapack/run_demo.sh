#!/bin/sh
# Runs the ScaLAPACK example (examples/scalapack/scalapack_demo) on NP ranks
# of this machine, every rank preloading the legacy BLAS library, and fails
# unless the program exits 0, every routine it names prints a passing
# residual, its dgemm_ is the library's, and every rank ran the runtime and
# stopped it at exit (TESS_VERBOSE's statistics).  The TESS_* variables of
# the environment go to every rank.  Exit status 77 (skipped) when mpirun or
# the example is missing (no Open MPI or ScaLAPACK at build time).
#
#   run_demo.sh LIB NP DEMO ROUTINES [ARG...]
set -u
lib=$1 np=$2 demo=$3 routines=$4
shift 4
if ! command -v mpirun > /dev/null 2>&1 || [ ! -x "$demo" ]; then
    echo "run_demo.sh: mpirun or $demo is missing (openmpi-bin, libscalapack-openmpi-dev)"
    exit 77
fi
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/mpi_env.sh"
# shellcheck disable=SC2086
mpirun -np "$np" --bind-to core:overload-allowed -x LD_PRELOAD="$lib" $tess_env_args "$demo" \
    -r "$routines" "$@" > "$work/out" 2> "$work/err"
status=$?

failed=0
[ "$status" -eq 0 ] || { echo "run_demo.sh: exit status $status"; failed=1; }
grep -q "dgemm_ from $lib\$" "$work/out" ||
    { echo "run_demo.sh: dgemm_ is not $lib's"; failed=1; }
for r in $(echo "$routines" | tr , ' '); do
    grep -Eq "^ +pd$r .* ok\$" "$work/out" || { echo "run_demo.sh: pd$r did not pass"; failed=1; }
done
stopped=$(grep -c '^tessera: .* device(s), tiles up to' "$work/err")
[ "$stopped" -eq "$np" ] ||
    { echo "run_demo.sh: $stopped of $np ranks ran the runtime and stopped it"; failed=1; }
cat "$work/out"
[ "$failed" -eq 0 ] || { echo "--- stderr"; cat "$work/err"; }
exit "$failed"
