#!/bin/sh
# Blocking DGEMM, DTRSM and DPOTRF from pageable host memory through Tessera's
# legacy library (libtessera_blas), NVBLAS (which has no DPOTRF) (with the nvblas.conf written here, on the
# same GPUs: all that CUDA_VISIBLE_DEVICES shows, with and without its
# automatic pinning) and OpenBLAS, in one run, one process per library (each
# takes the GPUs for itself), timed by the same program (bench_legacy.c).
#
#   bench/bench_legacy.sh BUILD_DIR [OUT_DIR] [n ...]
#
# Writes OUT_DIR/legacy.csv (every call timed) and OUT_DIR/summary.txt: per
# routine and n, the repeated calls' median time for each library, Tessera's
# speed-up over NVBLAS (target >= 2 at n = 16384 and 32768) and over the
# fastest of the others (target >= 0.95 at every n), the same for first
# calls, and the spread of Tessera's repeats, each of which is listed.
# REPEATS (3) sets the repeated calls per size; OpenBLAS stops at
# OPENBLAS_MAX_N (16384: its DGEMM of 32768 takes minutes on the host);
# ROUTINES (dgemm,dtrsm,dpotrf) the routines timed.
set -eu
build=${1:?usage: bench/bench_legacy.sh BUILD_DIR [OUT_DIR] [n ...]}
out=${2:-legacy-bench-$(date +%Y%m%d-%H%M%S)}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
sizes=${*:-1024 2048 4096 8192 16384 32768}
repeats=${REPEATS:-3}
openblas_max=${OPENBLAS_MAX_N:-16384}
mkdir -p "$out"
out=$(cd "$out" && pwd)
bench=$build/bench/bench_legacy
tessera=$(cd "$build/legacy" && pwd)/libtessera_blas.so
cuda=${CUDA_HOME:-/usr/local/cuda}
nvblas=$(ls "$cuda"/lib64/libnvblas.so "$cuda"/targets/*/lib/libnvblas.so 2>/dev/null | head -n 1)
openblas=$(ldconfig -p | awk '/libopenblas\.so\.0 /{ print $NF; exit }')
csv=$out/legacy.csv
echo "library,routine,n,call,seconds,tflops,check" > "$csv"

for pin in off on; do
    {
        echo "NVBLAS_LOGFILE $out/nvblas_$pin.log"
        echo "NVBLAS_CPU_BLAS_LIB $openblas"
        echo "NVBLAS_GPU_LIST ALL"
        echo "NVBLAS_TILE_DIM 2048"
        [ "$pin" = on ] && echo "NVBLAS_AUTOPIN_MEM_ENABLED"
    } > "$out/nvblas_$pin.conf"
done

small_sizes=""
for n in $sizes; do
    [ "$n" -le "$openblas_max" ] && small_sizes="$small_sizes $n"
done

echo "tessera: $tessera" >&2
"$bench" "$tessera" tessera "$repeats" $sizes >> "$csv"
if [ -n "$nvblas" ]; then
    echo "nvblas: $nvblas" >&2
    NVBLAS_CONFIG_FILE=$out/nvblas_off.conf "$bench" "$nvblas" nvblas "$repeats" $sizes >> "$csv"
    NVBLAS_CONFIG_FILE=$out/nvblas_on.conf "$bench" "$nvblas" nvblas_autopin "$repeats" \
        $sizes >> "$csv"
else
    echo "bench_legacy.sh: no libnvblas.so under $cuda" >&2
fi
if [ -n "$small_sizes" ]; then
    echo "openblas: $openblas" >&2
    "$bench" "$openblas" openblas "$repeats" $small_sizes >> "$csv"
fi

{
    printf '%-6s %6s %-6s %10s %10s %10s %10s %9s %9s %7s\n' rout n call tessera nvblas \
        nv_autopin openblas x_nvblas x_best spread
    awk -F, '
    NR > 1 && ($4 == "median" || $4 == "first") {
        t[$2 "," $3 "," $4 "," $1] = $5
        key[$2 "," $3 "," $4] = 1
    }
    NR > 1 && $4 == "repeat" && $1 == "tessera" {
        k = $2 "," $3 ",median"
        if (!(k in lo) || $5 + 0 < lo[k]) lo[k] = $5 + 0
        if (!(k in hi) || $5 + 0 > hi[k]) hi[k] = $5 + 0
    }
    function get(k, lib) { return (k "," lib) in t ? t[k "," lib] : "" }
    END {
        for (k in key) {
            split(k, p, ",")
            te = get(k, "tessera"); nv = get(k, "nvblas"); np = get(k, "nvblas_autopin")
            ob = get(k, "openblas")
            nvbest = nv
            if (np != "" && (nvbest == "" || np + 0 < nvbest + 0)) nvbest = np
            best = nvbest
            if (ob != "" && (best == "" || ob + 0 < best + 0)) best = ob
            xn = (te != "" && nvbest != "") ? sprintf("%.2f", nvbest / te) : "-"
            xb = (te != "" && best != "") ? sprintf("%.2f", best / te) : "-"
            sp = (k in lo && lo[k] > 0) ? sprintf("%.2f", hi[k] / lo[k]) : "-"
            printf "%-6s %6s %-6s %10s %10s %10s %10s %9s %9s %7s\n", p[1], p[2], p[3], te, nv,
                   np, ob, xn, xb, sp
        }
    }' "$csv" | sort -k1,1 -k3,3r -k2,2n
    echo "x_nvblas: the faster NVBLAS setting over Tessera (target >= 2 at n = 16384 and 32768,"
    echo "repeated calls); x_best: the fastest of the others over Tessera (target >= 0.95);"
    echo "spread: Tessera's slowest repeat over its fastest (target <= 1.2 for DTRSM)."
    echo "dpotrf: x_best is OpenBLAS's on the host cores over Tessera (target >= 20 at n = 16384)."
    echo "Tessera's repeats, in the order run:"
    awk -F, '$1 == "tessera" && $4 == "repeat" { r[$2 " " $3] = r[$2 " " $3] " " $5 }
        END { for (k in r) print "  " k ":" r[k] }' "$csv" | sort -k1,1 -k2,2n
    if grep -q ',FAILED$' "$csv"; then
        echo "RESULT CHECK FAILED:"
        grep ',FAILED$' "$csv"
    fi
} | tee "$out/summary.txt"
