#!/usr/bin/env bash
# BLAS-3 from host memory on a GPU machine: builds bench_blas3_cuda, runs the
# default set within a time budget, and draws the figure.  Run from the
# repository root (a machine without the packages takes them from .devdeps:
# tools/offline-deps.sh):
#   bench/blas3.sh OUTDIR [NGPUS] [BUDGET-S]
# NGPUS as bench_blas3_cuda's (default: every count the machine has, 1, 2, 4,
# ... and all of its GPUs); BUDGET-S the seconds for the whole
# script, the build included (default 520, for a command of at most 10 minutes).
# OUTDIR gets four files, TAG being the GPU model and count (h200x1):
# blas3_TAG.csv (bench_blas3_cuda's columns), blas3_TAG.txt (the tables),
# blas3_TAG.log (build and progress lines) and blas3_TAG.png (plot_blas3.py).
#
# The default set runs in three passes, so that a budget cut short still has
# every routine at the smaller sizes: all routines at 8192, at 16384, then all
# at 32768 with trsm and trmm also at 32768x512 and 32768x4096.  Each pass is two processes, the
# routines that existed first and the triangular ones, so that an error or a
# hang costs one group only; each process fills and pins its own operands and
# measures its own device DGEMM ceiling.  A process starts no case once the
# budget is nearly spent (--time-limit) and is killed at the budget's end; its
# rows so far are in the CSV either way.
#
# Estimated on one H200 from device DGEMM at 55 TFLOP/s, cuBLAS-XT at 9 to 23
# (block 2048, 4096; 4 to 10 for TRSM and TRMM) and Tessera at 20 to 34: about
# 90 s for the 16384 pass and 240 s for the 32768 pass (one run per case
# there), with a fresh build of about 75 s on 16 cores: some 7 minutes;
# cuBLAS-XT 1.5 times slower than that adds about 80 s.
set -uo pipefail
out=${1:?usage: bench/blas3.sh OUTDIR [NGPUS] [BUDGET-S]}
gpus=${2:-}
budget=${3:-520}
start=$(date +%s)
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
if [ -d .devdeps ]; then
    . tools/offline-deps.sh use .devdeps
fi

# "NVIDIA H200" -> h200: letters, digits, '.' and '-' only, as file names that come back need
model=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
        sed 's/^NVIDIA //' | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9.-')
count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
tag="${model:-gpu}x${count}"
if [ -z "$gpus" ]; then
    gpus=1
    for (( g = 2; g < count; g *= 2 )); do gpus="$gpus,$g"; done
    [ "$count" -gt 1 ] && gpus="$gpus,$count"
fi
csv="$out/blas3_$tag.csv" txt="$out/blas3_$tag.txt" log="$out/blas3_$tag.log"
rm -f "$csv" "$txt" "$log"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,temperature.gpu --format=csv,noheader \
    >> "$txt" 2>&1

if [ ! -f build-gpu/build.ninja ]; then
    meson setup build-gpu -Dcuda=enabled >> "$log" 2>&1 || { tail -30 "$log"; exit 1; }
fi
ninja -C build-gpu bench/bench_blas3_cuda >> "$log" 2>&1 || { tail -30 "$log"; exit 1; }
echo "blas3: built in $(( $(date +%s) - start )) s" | tee -a "$log"

exe=build-gpu/bench/bench_blas3_cuda
status=0
run() {
    local left=$(( budget - ($(date +%s) - start) - 15 ))   # 15 s kept for the figure
    if [ "$left" -lt 30 ]; then
        echo "blas3: no time left for: $*" | tee -a "$txt" "$log"
        status=3
        return
    fi
    # a 32768 case takes up to about 40 s: none starts in the last 45
    local limit=$(( left > 90 ? left - 45 : 45 ))
    echo "== $* (budget left $left s)" | tee -a "$txt" >> "$log"
    timeout -k 10 "$left" "$exe" --append --tag "$tag" --time-limit "$limit" \
        "$out" "$gpus" "$@" >> "$txt" 2>> "$log"
    local rc=$?
    echo "blas3: rc=$rc after $(( $(date +%s) - start )) s: $*" | tee -a "$log"
    if [ "$rc" -ne 0 ] && [ "$status" -ne 1 ]; then
        [ "$rc" -eq 3 ] && status=3 || status=1
    fi
}
run gemm,symm,syrk,syr2k,gemmt 8192
run trsm,trmm,trsm_gemm 8192
run gemm,symm,syrk,syr2k,gemmt 16384
run trsm,trmm,trsm_gemm 16384
run gemm,symm,syrk,syr2k,gemmt 32768
# the cheap tall cases first: a budget cut short then loses only trsm_gemm
run trsm,trmm 32768x512 32768x4096 32768 trsm_gemm 32768

cat "$txt"
if [ -s "$csv" ]; then
    python3 bench/plot_blas3.py "$csv" "$out/blas3_$tag.png" >> "$log" 2>&1 ||
        echo "blas3: the figure failed, see $log"
fi
echo "blas3: $(( $(date +%s) - start )) s, status $status"
exit $status
