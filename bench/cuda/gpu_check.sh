#!/bin/bash
# Build, test, sanitize and benchmark the one-GPU kernels on a GPU machine,
# in one go (device time is scarce).  Run from the repository root:
#   bench/cuda/gpu_check.sh OUTDIR [tests] [bench] [sanitize]   (default: all three)
# OUTDIR gets build.log, tests.log, sanitize.log, bench.txt, bench_kernels.csv.
set -u
out=${1:?usage: gpu_check.sh OUTDIR [tests] [bench] [sanitize]}
shift
steps=${*:-tests bench sanitize}
export PATH=/usr/local/cuda/bin:$PATH
if [ ! -f build-gpu/build.ninja ]; then
  meson setup build-gpu -Dcuda=enabled > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
fi
ninja -C build-gpu >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader

for step in $steps; do
  case $step in
  tests)
    for t in args trxm blas2; do
      start=$(date +%s)
      build-gpu/tests/cuda/test_cuda_$t >> "$out/tests.log" 2>&1
      echo "test_cuda_$t: rc=$? in $(( $(date +%s) - start )) s"
    done
    grep -E "^\[  (FAILED|PASSED|SKIPPED) |ratio|Error|error" "$out/tests.log" | head -40 ;;
  bench)
    build-gpu/bench/cuda/bench_kernels "$out" | tee "$out/bench.txt" ;;
  sanitize)
    # small cases only: the tools slow kernels down by orders of magnitude
    for tool in memcheck racecheck; do
      for spec in "trxm:dtrsm: 8 side*" "trxm:ztrmm: 8 side*" "trxm:dtrmm: k=40*" \
                  "blas2:dsymv/hemv: lower*" "blas2:dgemv: N/T/C*"; do
        exe=${spec%%:*}; filter=${spec#*:}
        TCU_FILTER="$filter" timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 \
          build-gpu/tests/cuda/test_cuda_$exe >> "$out/sanitize.log" 2>&1
        echo "compute-sanitizer $tool [$filter]: rc=$?"
      done
    done
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitize.log" ;;
  esac
done
