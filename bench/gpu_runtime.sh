#!/usr/bin/env bash
# On a GPU machine (its packages from .devdeps when it has no registry:
# tools/offline-deps.sh): build with CUDA, run every runtime suite on one GPU
# and on all of them, the demo and the Cholesky example, and compute-sanitizer
# memcheck on a small composed run and on a small Cholesky.  Logs go to $OUT.
#   usage: bench/gpu_runtime.sh [demo-n]
set -uo pipefail
out=${OUT:-/tmp}
export PATH=/usr/local/cuda/bin:$PATH
[ -d .devdeps ] && . tools/offline-deps.sh use .devdeps
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$out/gpus.txt"
nvidia-smi topo -m >> "$out/gpus.txt" 2>&1
meson setup build-gpu -Dcuda=enabled --wipe >/dev/null 2>&1 || meson setup build-gpu -Dcuda=enabled >/dev/null
ninja -C build-gpu >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
status=0
for devices in cuda:0 cuda; do
    echo "== runtime suites on $devices"
    # one process at a time: each takes most of every GPU's memory for its cache
    TESS_TEST_DEVICES=$devices meson test -C build-gpu --suite runtime --suite runtime_cuda --print-errorlogs \
        --num-processes 1 \
        --logbase "runtime-${devices/:/}" >"$out/test-${devices/:/}.log" 2>&1 || status=1
    grep -E "^ *[0-9]+/[0-9]+ " "$out/test-${devices/:/}.log"
done
echo "== demo"
TESS_VERBOSE=1 ./build-gpu/examples/demo "${1:-8192}" 2>&1 | tee "$out/demo.log" || status=1
echo "== compute-sanitizer memcheck, small composed run"
compute-sanitizer --tool memcheck --error-exitcode 3 ./build-gpu/examples/demo 700 \
    >"$out/memcheck.log" 2>&1 || status=1
tail -3 "$out/memcheck.log"
echo "== cholesky example, and under compute-sanitizer memcheck"
./build-gpu/examples/cholesky "${1:-8192}" 1024 2>&1 | tee "$out/cholesky.log" || status=1
compute-sanitizer --tool memcheck --error-exitcode 3 ./build-gpu/examples/cholesky 700 32 \
    >"$out/memcheck-cholesky.log" 2>&1 || status=1
tail -3 "$out/memcheck-cholesky.log"
exit $status
