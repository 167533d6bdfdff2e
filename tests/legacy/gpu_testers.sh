#!/bin/sh
# LAPACK's linear-equation testers (PO, TR, GE, QR, LS paths) and netlib's
# BLAS-3 testers on a GPU machine, the legacy library preloaded and every call
# through the runtime on the GPUs (TESS_THRESHOLD=0): once with the tiles the
# calls pick and once with TESS_NB=4, so that the testers' sizes (up to 50)
# take several tiles.  The meson suite runs the same testers on host devices;
# this is the path users run.  Run from the repository root:
#
#   tests/legacy/gpu_testers.sh BUILD OUTDIR
#
# BUILD is a CUDA build directory; the testers are Debian's liblapack-test and
# libblas-test, under TESTERS_ROOT (default /; tools/offline-deps.sh fetches
# them, and its "use" unpacks them under DIR/root).  OUTDIR gets a log per
# run; a line per run is printed, and the exit status is 0 only when every
# run passed with the runtime on GPUs (TESS_VERBOSE's statistics say "cuda
# device").  Runs go side by side, each with a small share of GPU memory.
set -u
build=${1:?usage: gpu_testers.sh BUILD OUTDIR}
out=${2:?usage: gpu_testers.sh BUILD OUTDIR}
lib=$(cd "$build/legacy" && pwd)/libtessera_blas.so
here=$(cd "$(dirname "$0")" && pwd)
l=${TESTERS_ROOT:-}/usr/lib/$(gcc -print-multiarch)
if ! [ -f "$lib" ] || ! [ -x "$l/lapack/xlintstd" ] || ! [ -x "$l/blas/xblat3d" ]; then
    echo "gpu_testers.sh: needs $lib, $l/lapack/xlintstd and $l/blas/xblat3d"
    exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/*.rc # a run that dies before writing its own must not find an old one
# the testers' reference LAPACK and BLAS (liblapack.so.3, libblas.so.3)
LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$l/lapack:$l/blas"
export LD_LIBRARY_PATH TESS_THRESHOLD=0 TESS_VERBOSE=1 TESS_CACHE_FRACTION=0.05
export LEGACY_EXPECT_STDERR=" cuda device"

run() { # TAG COMMAND...: in the background, its log in OUTDIR/TAG.log
    tag=$1
    shift
    (
        "$@" > "$out/$tag.log" 2>&1
        rc=$?
        echo "$tag: $([ $rc -eq 0 ] && echo passed || echo "FAILED (status $rc)")"
        echo $rc > "$out/$tag.rc"
    ) &
}

for nb in calls 4; do
    if [ "$nb" = 4 ]; then export TESS_NB=4; else unset TESS_NB; fi
    for p in s d c z; do
        P=$(echo $p | tr sdcz SDCZ)
        po="${P}PO"
        [ "$p" = s ] || po="$po ${P}TR" # STR fails on Debian's OpenBLAS alone
        # shellcheck disable=SC2086
        run "${p}po_tiles_$nb" "$here/lapack_tester.sh" "$lib" "$l/lapack/xlintst$p" \
            "$l/lapack/${p}test.in" $po
        run "${p}luqr_tiles_$nb" "$here/lapack_tester.sh" "$lib" "$l/lapack/xlintst$p" \
            "$here/lapack_luqr.in" "${P}GE" "${P}QR" "${P}LS"
    done
    run "xblat3d_tiles_$nb" "$here/netlib.sh" "$lib" preload "$l/blas/xblat3d" "$l/blas/dblat3.in"
    run "xzcblat3_tiles_$nb" "$here/netlib.sh" "$lib" preload "$l/blas/xzcblat3" "$l/blas/zin3"
    wait
done
# 20 runs, each of which wrote its status, and every one 0
[ "$(cat "$out"/*.rc 2>/dev/null | grep -c '^0$')" -eq 20 ]
