#!/bin/bash
# The target cases of the one-GPU kernels against cuBLAS, in one short GPU
# run: the ceilings (cuBLAS DGEMM 16384, a device-to-device copy), then
# each group of targets (bench_kernels OUTDIR GROUP: trxm, gemv, symv), each
# group in its own process, with the % of ceiling added.  Run from the
# repository root, with build-gpu already built with -Dcuda=enabled (the
# tests are bench/cuda/gpu_check.sh's):
#   bench/cuda/sweep.sh OUTDIR
# OUTDIR gets sweep.txt (the table), sweep.csv, and a log and CSV per group.
# About a minute on one H200; a group that fails or hangs is marked and the
# sweep goes on.
set -u
out=${1:?usage: sweep.sh OUTDIR}
mkdir -p "$out"
exe=build-gpu/bench/cuda/bench_kernels
if [ ! -x "$exe" ]; then
  echo "sweep: $exe is missing: build build-gpu with -Dcuda=enabled first" >&2
  exit 1
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
start=$(date +%s)

timeout 60 "$exe" "$out" ceil > "$out/ceil.txt" 2> "$out/ceil.log" ||
  echo "sweep: ceilings failed (rc=$?), see $out/ceil.log"

: > "$out/status.txt"
for group in trxm gemv symv; do
  mkdir -p "$out/$group"
  timeout 90 "$exe" "$out/$group" "$group" > "$out/bench_$group.txt" 2> "$out/bench_$group.log"
  brc=$?
  echo "$group $brc" >> "$out/status.txt"
  echo "$group: bench rc=$brc ($(( $(date +%s) - start )) s)"
done

# One table and one CSV: ratio = cuBLAS time / Tessera time; rate = Tessera's
# (in a gemm or read row, the ceiling's, which bench_kernels puts in the
# cuBLAS columns); ceiling = % of cuBLAS DGEMM 16384 (TRSM/TRMM) or
# of the copy's bandwidth (GEMV/SYMV), both measured first, on an idle device;
# its own = % of the case's own ceiling, whose runs alternate with the case's:
# the DGEMM of its shape (square TRSM/TRMM in double, a "gemm" row) or a plain
# read of as many bytes (GEMV/SYMV/HEMV, a "read" row).
awk -F, -v out="$out" '
  FNR == 1 { next }
  FILENAME ~ /\/bench_kernels_ceil.csv$/ {
    if ($2 == "gemm" && $7 == 16384 && $8 == 16384) gemm = $13
    if ($2 == "copy") copy = $13
    next
  }
  {
    n = split(FILENAME, p, "/"); group = p[n - 1]
    rows[++nr] = group "," $0
  }
  END {
    while ((getline line < (out "/status.txt")) > 0) {
      split(line, f, " "); st[f[1]] = f[2] == 0 ? "ok" : "rc=" f[2]
    }
    csv = out "/sweep.csv"
    print "group,status,routine,prec,side,uplo,trans,m,n,unit,tessera_ms,cublas_ms," \
          "tessera_rate,cublas_rate,ratio,pct_of_ceiling,pct_of_own_ceiling" > csv
    printf "cuBLAS DGEMM 16384: %.2f TFLOP/s, copy %.2f TB/s\n", gemm, copy
    printf "%-6s %-6s %-10s %6s %6s | %9s %9s | %6s | %8s %-7s | %9s | %s\n", "group",
           "status", "op", "m", "n", "tess ms", "cublas ms", "ratio", "rate", "unit",
           "% ceiling", "% its own"
    for (i = 1; i <= nr; i++) {
      split(rows[i], c, ",")
      group = c[1]; unit = c[10]
      ceil = unit == "TB/s" ? copy : gemm
      rate = c[13] > 0 ? c[13] : c[14] # a ceiling row has its rate in the cuBLAS column
      pct = ceil > 0 && rate > 0 ? 100 * rate / ceil : 0
      # a case with a ceiling of its own is followed by the row of that ceiling
      here = 0
      if (i < nr && c[13] > 0) {
        split(rows[i + 1], g, ",")
        same = g[1] == c[1] && g[4] == c[4] && g[5] == c[5] && g[6] == c[6] && g[7] == c[7] &&
               g[8] == c[8] && g[9] == c[9]
        if ((g[3] == "gemm" || g[3] == "read") && same && g[14] > 0)
          here = 100 * c[13] / g[14]
      }
      printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s\n", group, st[group],
             c[3], c[4], c[5], c[6], c[7], c[8], c[9], unit, c[11], c[12], c[13], c[14],
             c[15], pct, (here > 0 ? sprintf("%.1f", here) : "") > csv
      printf "%-6s %-6s %-10s %6d %6d | %9.3f %9.3f | %5.2fx | %8.2f %-7s | %8.1f%% | %s\n",
             group, st[group], c[3] " " c[4] c[5] c[6] c[7], c[8], c[9], c[11], c[12], c[15],
             rate, unit, pct, (here > 0 ? sprintf("%.1f%%", here) : "")
    }
  }' "$out/bench_kernels_ceil.csv" "$out"/{trxm,gemv,symv}/bench_kernels_*.csv |
  tee "$out/sweep.txt"
echo "sweep: $(( $(date +%s) - start )) s"
