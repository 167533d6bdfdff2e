#!/bin/sh
# Runs one of Debian's ScaLAPACK testers (scalapack-mpi-test, Open MPI build)
# under mpirun on this machine, every rank preloading the legacy BLAS library,
# and fails when the tester's report does.
#
#   run_tester.sh LIB NP TESTER TEMPLATE INPUT [SKIPS]
#
# TEMPLATE is an input file with @NGRIDS@, @P@ and @Q@ in place of the process
# grids, filled here with the grids of NP ranks; the tester reads it as INPUT
# (LU.dat, PDBLAS3TST.dat, ...) from its working directory.  Every test must
# pass, except SKIPS (0) per grid that the tester skips for arguments a
# routine does not take.  The TESS_*
# variables of the environment go to every rank; each rank must have run
# calls through the runtime and stopped it at exit (TESS_VERBOSE's statistics,
# one block per rank).  Exit status 77 (skipped) when mpirun or the tester is
# not installed.
set -u
lib=$1 np=$2 tester=$3 template=$4 input=$5 skips=${6:-0}
if ! command -v mpirun > /dev/null 2>&1 || [ ! -x "$tester" ]; then
    echo "run_tester.sh: mpirun or $tester is missing (openmpi-bin, scalapack-mpi-test)"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
template=$(cd "$(dirname "$template")" && pwd)/$(basename "$template")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $np in
1) grids="1 1 1" ;;
2) grids="2 1 2 2 1" ;;
4) grids="3 2 2 1 4 4 1" ;;
*) echo "run_tester.sh: no grids for $np ranks"; exit 2 ;;
esac
set -- $grids
n=$1; shift
p="" q=""
while [ $# -gt 0 ]; do p="$p $1"; q="$q $2"; shift 2; done
sed -e "s/@NGRIDS@/$n/" -e "s/@P@/$p/" -e "s/@Q@/$q/" "$template" > "$work/$input"
cd "$work" || exit 1

. "$here/mpi_env.sh"
# shellcheck disable=SC2086
mpirun -np "$np" -x LD_PRELOAD="$lib" $tess_env_args "$tester" > report.txt 2> stderr.txt
status=$?

failed=0
if [ "$status" -ne 0 ]; then
    echo "run_tester.sh: mpirun exited with status $status"
    failed=1
fi
# The drivers (xdlu, ...) end with counts of tests passed, failed and
# skipped; the PBLAS testers with a table, one row per routine.
if grep -q 'tests completed and' report.txt; then
    sum() { awk -v p="$1" '$0 ~ p { s += $1 } END { print s + 0 }' report.txt; }
    passed=$(sum 'tests completed and passed') bad=$(sum 'tests completed and failed')
    skipped=$(sum 'tests skipped')
else
    col() { awk -v c="$1" '$1 == "|" { s += $c } END { print s + 0 }' report.txt; }
    passed=$(col 4) bad=$(col 5) skipped=$(col 6)
fi
echo "run_tester.sh: $(basename "$tester") on $np ranks: $passed passed, $bad failed," \
    "$skipped skipped ($((skips * n)) expected)"
if [ "$passed" -eq 0 ] || [ "$bad" -ne 0 ] || [ "$skipped" -ne $((skips * n)) ]; then
    failed=1
fi
stopped=$(grep -c '^tessera: .* device(s), tiles up to' stderr.txt)
if [ "$stopped" -ne "$np" ]; then
    echo "run_tester.sh: $stopped of $np ranks ran the runtime and stopped it at exit"
    failed=1
fi
if [ "$failed" -ne 0 ]; then
    echo "--- input"
    cat "$input"
    echo "--- report"
    cat report.txt
    echo "--- stderr"
    cat stderr.txt
fi
exit "$failed"
