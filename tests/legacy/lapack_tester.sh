#!/bin/sh
# Runs one of LAPACK's linear-equation testers (Debian's liblapack-test,
# xlintst{s,d,c,z}) on the given paths, once on its own and
# once with LIB preloaded, and fails unless every test passes under LIB and
# LIB's run reports as many tests, path by path, as the plain one.
#
#   lapack_tester.sh LIB TESTER TEMPLATE PATHS...
#
# TEMPLATE is the tester's own input (?test.in, or lapack_luqr.in's smaller
# sizes): its parameters are kept and its list of paths cut down to PATHS (DPO,
# DTR: POTRF, POTRS, POSV, POTRI and with it LAUUM; TRTRI; DGE: GETRF, GETRS,
# GESV, LASWP; DQR: GEQRF, ORMQR; DLS: GELS).  When LEGACY_EXPECT_STDERR is set, the preloaded
# run's stderr must contain it (TESS_VERBOSE's statistics at exit, which say
# the runtime ran).
set -u
lib=$1 tester=$2 template=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# the parameters end with the line of the error exits' switch
sed -n '1,/error exits/p' "$template" > input.txt
for p in "$@"; do
    grep "^$p " "$template" >> input.txt
done

# The report's lines that count tests, in order; "tests run" once per path
# and kind of test.
counts() {
    grep -E 'tests run|error exits' "$1" | sed 's/^ *//'
}

env -u LD_PRELOAD "$tester" < input.txt > plain.txt 2> plain_err.txt
plain=$?
LD_PRELOAD="$lib" "$tester" < input.txt > report.txt 2> stderr.txt
status=$?
failed=0
if [ "$plain" -ne 0 ] || ! grep -q 'tests run' plain.txt; then
    echo "lapack_tester.sh: $tester on its own exited with status $plain"
    failed=1
fi
if [ "$status" -ne 0 ]; then
    echo "lapack_tester.sh: $tester exited with status $status"
    failed=1
fi
if grep -iE 'fail|\*\*\*|illegal' report.txt; then
    failed=1
fi
counts plain.txt > plain_counts.txt
counts report.txt > counts.txt
if [ ! -s counts.txt ] || ! cmp -s plain_counts.txt counts.txt; then
    echo "lapack_tester.sh: the tests run differ from the tester's on its own:"
    diff plain_counts.txt counts.txt
    failed=1
fi
if [ -n "${LEGACY_EXPECT_STDERR:-}" ] && ! grep -q "$LEGACY_EXPECT_STDERR" stderr.txt; then
    echo "lapack_tester.sh: stderr lacks '$LEGACY_EXPECT_STDERR'"
    failed=1
fi
if [ "$failed" -ne 0 ]; then
    echo "--- input"
    cat input.txt
    echo "--- report"
    cat report.txt
    echo "--- stderr"
    cat stderr.txt
else
    cat counts.txt
fi
exit "$failed"
