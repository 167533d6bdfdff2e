#!/usr/bin/env bash
# ScaLAPACK's PDGEMM and PDPOTRF on a machine's GPUs, the same ScaLAPACK and the
# same program (examples/scalapack/scalapack_demo) on three BLAS in one run:
# OpenBLAS on the host's cores, NVBLAS and Tessera's legacy library (each
# preloaded into the ranks).  Run from the repository root of a GPU machine,
# with Open MPI and ScaLAPACK installed, or in .devdeps with the project's
# other packages (tools/offline-deps.sh fetch .devdeps mpi):
#
#   bench/scalapack_gpu.sh OUTDIR [BUDGET-S]
#
# BUDGET-S is the seconds for the whole script, the build included (520
# default, for a command of at most 10 minutes); a run is stopped when they
# are spent.  Of a second size, a run whose estimate (the same library's run
# at the first size: its routines' time scaled as the flops, the rest as the
# memory) exceeds what is left is not started, and the summary says so; nor
# is OpenBLAS's PDGEMM at the second size.
# NB (1024) is ScaLAPACK's block size for every run, and PBLAS's strip width
# (scalapack_demo's pilaenv_): larger blocks move the trailing matrix of
# PDPOTRF across the host link fewer times, smaller ones shorten the panels it
# factors with BLAS-2 on the host.  LIBS ("tessera nvblas openblas") picks the
# libraries, in order.
# SIZES ("32768": one size, or two) and ROUTINES ("potrf,gemm", in that
# order) cut a run down further, as BUILD (build-gpu) moves it for a trial
# elsewhere.
# RANKS (1) runs that many ranks on the machine's GPUs, in the most square
# grid, each rank's host BLAS on its share of the cores; TESS_DEVICES=cuda:local
# divides the GPUs among Tessera's ranks, bench/rank_gpus.sh among NVBLAS's by
# the same rule, and rates are compared with every GPU's DGEMM together.  On
# one GPU, N = 65536 needs 4 ranks, since ScaLAPACK's 32-bit indices stop a
# rank's part of the matrix short of 2^31 elements (scalapack_demo refuses
# more).  STRIP (NB) sets PBLAS's strip width apart from NB: on a grid of
# several ranks PDGEMM updates each rank's part of C once per strip, and the
# legacy library moves that part to the GPU and back on every call.
# BUFFERS (heap) keeps PBLAS's work buffers in glibc's heap for every library
# (MALLOC_MMAP_MAX_=0, MALLOC_TRIM_THRESHOLD_ past any size): PBLAS allocates
# one per strip and frees it, and by default glibc maps each such buffer anew
# and the kernel zeroes its pages on first touch, on one core, in every call.
# BUFFERS=default leaves glibc as it is.
#
# OUTDIR gets scalapack_TAG.txt (the summary: rate in TFLOP/s and against the
# DGEMM of every GPU, one GPU's measured here by bench_blas3_cuda at 16384,
# speed-ups, and the ranks' time inside BLAS-3, inside MPI and elsewhere),
# scalapack_TAG.csv (one row per run), scalapack_TAG.log (build, each run's
# output, Tessera's transfer statistics) and blas3_TAG-dgemm.csv (the device
# DGEMM run); TAG is the GPU model and count (h200x1).
#
# Before the runs, tests/scalapack/test_mpi_blas runs on two ranks taking the
# GPUs through TESS_DEVICES=cuda:local (its lines are in the summary).
#
# Exit status: 0, 1 when a run or that test failed, 3 when the budget ran out
# before a run could start.
#
set -uo pipefail
out=${1:?usage: bench/scalapack_gpu.sh OUTDIR [BUDGET-S]}
budget=${2:-520}
nb=${NB:-1024}
strip=${STRIP:-$nb}
read -r n1 n2 <<< "${SIZES:-32768}"
routines=${ROUTINES:-potrf,gemm}
ranks=${RANKS:-1}
buffers=${BUFFERS:-heap}
build=${BUILD:-build-gpu}
start=$(date +%s)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
export PMIX_MCA_pcompress_base_silence_warning=1 # Debian's PMIx without zlib: a warning per run
[ -d .devdeps ] && . tools/offline-deps.sh use .devdeps
. tests/scalapack/mpi_env.sh
# A virtual machine that hides the processor's model makes OpenBLAS fall back
# to its Prescott (SSE3) kernels, some 8x slower on the host; the host BLAS
# under every library (NVBLAS's and Tessera's small calls too) gets the
# kernels that the processor's flags allow.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    if grep -qw avx512f /proc/cpuinfo; then
        export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo; then
        export OPENBLAS_CORETYPE=Haswell
    fi
fi

model=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
        sed 's/^NVIDIA //' | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9.-')
count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
tag="${model:-gpu}x${count}"
txt="$out/scalapack_$tag.txt" csv="$out/scalapack_$tag.csv" log="$out/scalapack_$tag.log"
rm -f "$txt" "$csv" "$log"
elapsed() { echo $(( $(date +%s) - start )); }
{
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
    echo "host: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB," \
         "OpenBLAS kernels ${OPENBLAS_CORETYPE:-as detected}"
} > "$txt" 2>&1

# Build: the legacy library, the example and the device DGEMM benchmark.
if [ -f "$build/build.ninja" ]; then
    meson setup --reconfigure "$build" >> "$log" 2>&1
else
    meson setup "$build" -Dcuda=enabled >> "$log" 2>&1
fi || { tail -30 "$log"; exit 1; }
ninja -C "$build" legacy/libtessera_blas.so examples/scalapack/scalapack_demo >> "$log" 2>&1 ||
    { tail -30 "$log"; exit 1; }
ninja -C "$build" bench/bench_blas3_cuda tests/scalapack/test_mpi_blas >> "$log" 2>&1
echo "scalapack: built in $(elapsed) s" | tee -a "$log"
status=0
demo=$build/examples/scalapack/scalapack_demo
tessera=$(cd "$build/legacy" && pwd)/libtessera_blas.so
cuda=${CUDA_HOME:-/usr/local/cuda}
nvblas=$(ls "$cuda"/lib64/libnvblas.so* "$cuda"/targets/*/lib/libnvblas.so* 2>/dev/null | head -1)
openblas=$(ldd "$demo" | awk '/libopenblas\.so\.0/ { print $3; exit }')
{
    echo "NVBLAS_LOGFILE $out/nvblas.log"
    echo "NVBLAS_CPU_BLAS_LIB $openblas"
    echo "NVBLAS_GPU_LIST ALL"
    echo "NVBLAS_TILE_DIM 2048"
} > "$out/nvblas.conf"

# The library inside MPI programs on the GPU (tests/scalapack/test_mpi_blas.c):
# two ranks, each bound to a core, taking the GPUs through cuda:local, every
# BLAS-3 call through the runtime on tiles of 32.
echo "== two ranks on the GPUs (test_mpi_blas)" >> "$txt"
TESS_DEVICES=cuda:local TESS_THRESHOLD=0 TESS_NB=32 timeout -k 10 120 \
    tests/scalapack/run_mpi.sh 2 "$build/tests/scalapack/test_mpi_blas" >> "$txt" 2>> "$log" ||
    { echo "test_mpi_blas FAILED" >> "$txt"; status=1; }
echo "scalapack: test_mpi_blas after $(elapsed) s" | tee -a "$log"

# The device's DGEMM rate (cuBLAS on device data, n = 16384), the ceiling the
# rates are compared with.
timeout -k 10 120 "$build/bench/bench_blas3_cuda" --no-xt --tag "$tag-dgemm" "$out" 1 gemm 16384 \
    >> "$log" 2>&1
ceiling=$(awk -F, 'NR == 2 { print $16 }' "$out/blas3_$tag-dgemm.csv" 2>/dev/null)
ceilings=$(awk -v c="${ceiling:-0}" -v g="$count" 'BEGIN { print c * g }') # every GPU's
echo "scalapack: device DGEMM ${ceiling:-?} TFLOP/s after $(elapsed) s" | tee -a "$log"

echo "library,routine,n,ranks,nb,strip,buffers,seconds,tflops,of_device_dgemm,residual,blas3_share,mpi_share," \
     "rest_share,check" | tr -d ' ' > "$csv"
declare -A took                         # library,routine -> its seconds at n1; library -> the rest
# run LIBRARY N ROUTINES: RANKS ranks sharing the cores, the library preloaded.
run() {
    local lib=$1 n=$2 routines=$3 pre=() left est=0 r
    left=$(( budget - $(elapsed) - 10 ))
    if [ "$left" -lt 20 ]; then
        echo "scalapack: $lib at $n not run: $left s left" | tee -a "$log" "$txt"
        status=3
        return
    fi
    if [ "$n" -gt "$n1" ]; then
        # the routines' time at n1 scaled as the flops, the rest as the memory
        for r in ${routines//,/ }; do
            est=$(( est + ${took[$lib,$r]:-0} * n * n / n1 * n / n1 / n1 ))
        done
        est=$(( est + ${took[$lib]:-0} * n / n1 * n / n1 ))
        if [ "$est" -gt "$left" ]; then
            echo "scalapack: $lib at $n not run: estimated $est s, $left s left" |
                tee -a "$log" "$txt"
            return
        fi
    fi
    local launch=()
    case $lib in
    tessera) pre=(-x LD_PRELOAD="$tessera" -x TESS_DEVICES=cuda:local -x TESS_VERBOSE=1) ;;
    nvblas)
        pre=(-x NVBLAS_CONFIG_FILE="$out/nvblas.conf")
        launch=("$PWD/bench/rank_gpus.sh" "$count" "$nvblas")
        ;;
    esac
    echo "== $lib n=$n $routines (budget left $left s)" >> "$log"
    local t0=$(date +%s) rc
    [ "$ranks" -gt 1 ] && pre+=(-x OPENBLAS_NUM_THREADS=$(( $(nproc) / ranks )))
    [ -n "${OPENBLAS_CORETYPE:-}" ] && pre+=(-x OPENBLAS_CORETYPE)
    [ "$buffers" = heap ] && pre+=(-x MALLOC_MMAP_MAX_=0 -x MALLOC_TRIM_THRESHOLD_=$(( 1 << 50 )))
    timeout -k 10 "$left" mpirun -np "$ranks" --bind-to none "${pre[@]}" "${launch[@]}" "$demo" \
        -w -n "$n" -b "$nb" -s "$strip" -r "$routines" > "$out/run.txt" 2>> "$log"
    rc=$?
    cat "$out/run.txt" >> "$log"
    if [ "$n" -eq "$n1" ]; then
        local wall=$(( $(date +%s) - t0 )) sum=0 s
        for r in ${routines//,/ }; do
            s=$(awk -v r="pd$r" '$1 == r { printf "%d", $4 + 1 }' "$out/run.txt")
            took[$lib,$r]=${s:-$wall}
            sum=$(( sum + ${s:-$wall} ))
        done
        took[$lib]=$(( wall > sum ? wall - sum : 0 ))
    fi
    echo "scalapack: $lib n=$n rc=$rc after $(elapsed) s" | tee -a "$log"
    [ "$rc" -ne 0 ] && status=1
    awk -v lib="$lib" -v dg="$ceilings" -v ranks="$ranks" -v strip="$strip" -v buf="$buffers" '
        $1 ~ /^pd/ {
            tf = $5 / 1000
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s,%s,%s,%s,%s,%s\n", lib, $1, $2, ranks, $3,
                   strip, buf, $4, tf,
                   (dg > 0 ? sprintf("%.3f", tf / dg) : ""), $6, $7, $8, $9, $10
        }' "$out/run.txt" | tr -d '%' >> "$csv"
    rm -f "$out/run.txt"
}

if [ -z "$nvblas" ]; then
    echo "scalapack: no libnvblas.so under $cuda: NVBLAS not run" | tee -a "$log" "$txt"
fi
libs=${LIBS:-tessera nvblas openblas}
[ -z "$nvblas" ] && libs=${libs//nvblas/}
for lib in $libs; do
    run "$lib" "$n1" "$routines"
done
for lib in ${n2:+$libs}; do
    r=$routines
    [ "$lib" = openblas ] && r=$(sed 's/gemm,*//; s/,$//' <<< "$r")
    [ -n "$r" ] && run "$lib" "$n2" "$r"
done

{
    echo
    echo "ScaLAPACK 2.2.1 (Open MPI 4.1.4), NB $nb, strips of $strip, PBLAS's buffers:" \
         "$buffers; device DGEMM ${ceiling:-?} TFLOP/s, $count GPU(s)"
    printf '%-9s %-8s %6s %5s %9s %8s %9s %10s %7s %6s %6s  %s\n' library routine n ranks \
        seconds TFLOP/s of_dgemm residual blas3% mpi% rest% check
    awk -F, 'NR > 1 { printf "%-9s %-8s %6s %5s %9s %8s %9s %10s %7s %6s %6s  %s\n", $1, $2,
                      $3, $4, $8, $9, $10, $11, $12, $13, $14, $15 }' "$csv"
    echo
    echo "Tessera's speed-up over the others (time ratio):"
    awk -F, 'NR > 1 { x = $2 "," $3 "," $4 " ranks"; t[$1 "," x] = $8; k[x] = 1 }
        END {
            for (x in k) {
                te = t["tessera," x]; nv = t["nvblas," x]; ob = t["openblas," x]
                printf "  %-24s over NVBLAS %s, over OpenBLAS %s\n", x,
                       (te && nv) ? sprintf("%.2f", nv / te) : "-",
                       (te && ob) ? sprintf("%.2f", ob / te) : "-"
            }
        }' "$csv" | sort
    echo "blas3%, mpi%, rest%: the ranks' time inside BLAS-3 routines, inside MPI, and in"
    echo "ScaLAPACK's own work (PBLAS's work buffers: copies, sums, padding; panels)."
    grep '^tessera: bytes' "$log" | sed 's/^/Tessera transfers: /'
} >> "$txt"
cat "$txt"
echo "scalapack: $(elapsed) s, status $status"
exit $status
