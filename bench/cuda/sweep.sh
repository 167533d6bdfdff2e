#!/bin/bash
# Kernel variants side by side in one GPU session: for each TESS_KVARIANT_*
# design (kernels/cuda/kvariant.cuh), the tests of the routines it changes,
# then the issue-4 targets it may move, timed against cuBLAS in the same
# process (bench_kernels OUTDIR GROUP).  Run from the repository root, with
# build-gpu already built with -Dcuda=enabled:
#   bench/cuda/sweep.sh OUTDIR
# OUTDIR gets sweep.txt (the table), sweep.csv, and a log and CSV per step.
# About 3 minutes on one H200; a variant that fails or hangs is marked and
# the sweep goes on.
set -u
out=${1:?usage: sweep.sh OUTDIR}
mkdir -p "$out"
exe=build-gpu/bench/cuda/bench_kernels
tests=build-gpu/tests/cuda
if [ ! -x "$exe" ]; then
  echo "sweep: $exe is missing: build build-gpu with -Dcuda=enabled first" >&2
  exit 1
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
start=$(date +%s)

# group, variable, test executable, test filter, variants (the first is the
# default, already covered by gpu_check.sh, so its tests are not rerun)
specs=(
  "trxm TESS_KVARIANT_TRXM trxm * warp thread"
  "gemvt TESS_KVARIANT_GEMVT blas2 *gemv* c8 c8b4 c4s2b4 c2s4b5 c8x4k c2s4b5x4k"
  "symv TESS_KVARIANT_SYMV blas2 *symv* t8 t16 t16b2 r32 r4 t16r32"
)

# ceilings once: DGEMM 16384 and a device-to-device copy
timeout 60 "$exe" "$out" ceil > "$out/ceil.txt" 2> "$out/ceil.log" ||
  echo "sweep: ceilings failed (rc=$?), see $out/ceil.log"

: > "$out/status.txt"
for spec in "${specs[@]}"; do
  read -r group var texe filter default others <<< "$spec"
  for v in $default $others; do
    tag=$group-$v
    tstat=default
    if [ "$v" != "$default" ]; then
      env "$var=$v" TCU_FILTER="$filter" timeout 150 "$tests/test_cuda_$texe" \
        > "$out/test_$tag.log" 2>&1
      rc=$?
      case $rc in
      0) tstat=pass ;;
      124) tstat=TIMEOUT ;;
      *) tstat=FAIL ;;
      esac
      grep -qE "^\[  SKIPPED \]" "$out/test_$tag.log" && tstat=SKIPPED
    fi
    mkdir -p "$out/$tag"
    env "$var=$v" timeout 90 "$exe" "$out/$tag" "$group" > "$out/bench_$tag.txt" \
      2> "$out/bench_$tag.log"
    brc=$?
    echo "$group $v $tstat $brc" >> "$out/status.txt"
    echo "$tag: tests $tstat, bench rc=$brc ($(( $(date +%s) - start )) s)"
  done
done

# One table and one CSV: ratio = cuBLAS time / Tessera time; ceiling = % of
# cuBLAS DGEMM 16384 (TRSM/TRMM) or of the copy's bandwidth (GEMV/SYMV).
awk -F, -v out="$out" '
  FNR == 1 { next }
  FILENAME ~ /status.txt$/ { next }
  FILENAME ~ /\/bench_kernels_ceil.csv$/ {
    if ($2 == "gemm" && $7 == 16384 && $8 == 16384) gemm = $13
    if ($2 == "copy") copy = $13
    next
  }
  {
    n = split(FILENAME, p, "/"); tag = p[n - 1]
    rows[++nr] = tag "," $0
  }
  END {
    while ((getline line < (out "/status.txt")) > 0) {
      split(line, f, " "); st[f[1] "-" f[2]] = f[3] (f[4] == 0 ? "" : " bench-rc=" f[4])
    }
    csv = out "/sweep.csv"
    print "variant,tests,routine,prec,side,uplo,trans,m,n,unit,tessera_ms,cublas_ms," \
          "tessera_rate,cublas_rate,ratio,pct_of_ceiling" > csv
    printf "cuBLAS DGEMM 16384: %.2f TFLOP/s, copy %.2f TB/s\n", gemm, copy
    printf "%-16s %-8s %-10s %6s %6s | %9s %9s | %6s | %8s %-7s | %s\n", "variant", "tests",
           "op", "m", "n", "tess ms", "cublas ms", "ratio", "rate", "unit", "% ceiling"
    for (i = 1; i <= nr; i++) {
      split(rows[i], c, ",")
      tag = c[1]; unit = c[10]
      ceil = unit == "TB/s" ? copy : gemm
      pct = ceil > 0 && c[13] > 0 ? 100 * c[13] / ceil : 0
      printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.1f\n", tag, st[tag], c[3], c[4],
             c[5], c[6], c[7], c[8], c[9], unit, c[11], c[12], c[13], c[14], c[15], pct > csv
      printf "%-16s %-8s %-10s %6d %6d | %9.3f %9.3f | %5.2fx | %8.2f %-7s | %5.1f%%\n", tag,
             st[tag], c[3] " " c[4] c[5] c[6] c[7], c[8], c[9], c[11], c[12], c[15], c[13],
             unit, pct
    }
  }' "$out/status.txt" "$out/bench_kernels_ceil.csv" "$out"/*-*/bench_kernels_*.csv |
  tee "$out/sweep.txt"
echo "sweep: $(( $(date +%s) - start )) s"
