#!/usr/bin/env python3
"""Figures from bench_kernels' CSV, or from sweep.sh's: Tessera against cuBLAS,
same device, same run.

    plot_kernels.py bench_kernels.csv|sweep.csv OUTDIR [DEVICE]

(sweep.sh's CSV names no device: give it as DEVICE)

writes OUTDIR/kernels_blas3.png (TRSM/TRMM TFLOP/s per case) and
OUTDIR/kernels_blas2.png (GEMV/SYMV TB/s), each bar pair labelled with the
speed-up.  Needs matplotlib (apt-get install python3-matplotlib)."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def label(r):
    case = "".join(c for c in (r["side"], r["uplo"], r["trans"]) if c != "-")
    return f'{r["prec"]}{r["routine"]} {case}\n{r["m"]}x{r["n"]}'


def speedup(r):
    return float(r["speedup"] if "speedup" in r else r["ratio"])


def bars(rows, unit, title, path):
    rows = [r for r in rows if r["unit"] == unit and float(r["tessera_ms"]) > 0]
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows)), 4.5))
    xs = range(len(rows))
    tess = [float(r["tessera_rate"]) for r in rows]
    cub = [float(r["cublas_rate"]) for r in rows]
    ax.bar([x - 0.2 for x in xs], tess, 0.4, label="Tessera")
    ax.bar([x + 0.2 for x in xs], cub, 0.4, label="cuBLAS")
    for x, r, t in zip(xs, rows, tess):
        ax.annotate(f"{speedup(r):.2f}x", (x - 0.2, t), ha="center", va="bottom",
                    fontsize=7)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([label(r) for r in rows], fontsize=7, rotation=60, ha="right")
    ax.set_ylabel(unit)
    ax.set_ylim(0, 1.25 * max(tess + cub))  # room for the legend above the bars
    ax.set_title(f'{title} ({rows[0]["device"]})')
    ax.legend(loc="upper center", ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    with open(sys.argv[1], newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["routine"] not in ("gemm", "copy", "read")]
    for r in rows:
        r.setdefault("device", sys.argv[3] if len(sys.argv) == 4 else "device not named")
    blas3 = [r for r in rows if int(r["m"]) >= 1024 and int(r["n"]) >= 64]
    bars(blas3, "TFLOP/s", "TRSM/TRMM on one GPU",
         os.path.join(sys.argv[2], "kernels_blas3.png"))
    bars(rows, "TB/s", "GEMV/SYMV on one GPU", os.path.join(sys.argv[2], "kernels_blas2.png"))


if __name__ == "__main__":
    main()
