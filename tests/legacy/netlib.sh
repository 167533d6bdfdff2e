#!/bin/sh
# Runs one of the netlib BLAS testers (Debian's libblas-test) against the
# legacy BLAS library and fails when the tester's report does.
#
#   netlib.sh LIB MODE TESTER [INPUT]
#
# MODE link:    the tester's libblas.so.3 is LIB (through LD_LIBRARY_PATH),
#               as when a program is linked with it in place of -lblas;
# MODE preload: LD_PRELOAD=LIB over the system's libblas.so.3, the tester
#               unchanged.
# When LEGACY_EXPECT_STDERR is set, the tester's stderr must contain it
# (TESS_VERBOSE's statistics at exit, which say the runtime ran).
set -u
lib=$1 mode=$2 tester=$3 input=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
case $mode in
link)
    ln -s "$lib" libblas.so.3
    LD_LIBRARY_PATH="$work${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH
    ;;
preload)
    LD_PRELOAD="$lib"
    export LD_PRELOAD
    ;;
*)
    echo "netlib.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
if [ -n "$input" ]; then
    "$tester" < "$input" > stdout.txt 2> stderr.txt
else
    "$tester" > stdout.txt 2> stderr.txt
fi
status=$?
unset LD_PRELOAD
# The Fortran testers of levels 2 and 3 write their report to the file their
# input names (?blat?.out), the others to standard output.
cat stdout.txt ./*.out > report.txt 2> /dev/null
failed=0
if [ "$status" -ne 0 ]; then
    echo "netlib.sh: $tester exited with status $status"
    failed=1
fi
if grep -E 'FAIL|SUSPECT|\*\*\*\*\*|NOT DETECTED' report.txt; then
    failed=1
fi
if ! grep -q 'PASS' report.txt; then
    echo "netlib.sh: no test passed"
    failed=1
fi
if [ -n "${LEGACY_EXPECT_STDERR:-}" ] && ! grep -q "$LEGACY_EXPECT_STDERR" stderr.txt; then
    echo "netlib.sh: stderr lacks '$LEGACY_EXPECT_STDERR'"
    failed=1
fi
if [ "$failed" -ne 0 ]; then
    echo "--- report"
    cat report.txt
    echo "--- stderr"
    cat stderr.txt
fi
exit "$failed"
