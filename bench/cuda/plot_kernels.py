#!/usr/bin/env python3
"""Figures from bench_kernels' CSV, or from sweep.sh's: Tessera against cuBLAS,
same device, same run.

    plot_kernels.py bench_kernels.csv|sweep.csv OUTDIR [DEVICE]

(sweep.sh's CSV names no device: give it as DEVICE)

writes OUTDIR/kernels_blas3.png (TRSM/TRMM TFLOP/s per case) and
OUTDIR/kernels_blas2.png (GEMV/SYMV TB/s, with the plain read of as many bytes
timed among the case's runs where the CSV has it), each bar pair labelled with
the speed-up.  Needs matplotlib (apt-get install python3-matplotlib)."""
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


def case_key(r):
    return tuple(r[k] for k in ("prec", "side", "uplo", "trans", "m", "n"))


def bars(rows, unit, title, path, ceilings=None):
    rows = [r for r in rows if r["unit"] == unit and float(r["tessera_ms"]) > 0]
    if not rows:
        return
    ceilings = ceilings or {}
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows)), 4.5))
    xs = range(len(rows))
    tess = [float(r["tessera_rate"]) for r in rows]
    cub = [float(r["cublas_rate"]) for r in rows]
    ax.bar([x - 0.2 for x in xs], tess, 0.4, label="Tessera")
    ax.bar([x + 0.2 for x in xs], cub, 0.4, label="cuBLAS")
    ceil = [(x, ceilings[case_key(r)]) for x, r in zip(xs, rows) if case_key(r) in ceilings]
    if ceil:
        ax.scatter([x for x, _ in ceil], [c for _, c in ceil], marker="_", s=400,
                   color="black", label="plain read, same bytes", zorder=3)
    for x, r, t in zip(xs, rows, tess):
        ax.annotate(f"{speedup(r):.2f}x", (x - 0.2, t), ha="center", va="bottom",
                    fontsize=7)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([label(r) for r in rows], fontsize=7, rotation=60, ha="right")
    ax.set_ylabel(unit)
    ax.set_ylim(0, 1.25 * max(tess + cub + [c for _, c in ceil]))  # room for the legend
    ax.set_title(f'{title} ({rows[0]["device"]})')
    ax.legend(loc="upper center", ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    with open(sys.argv[1], newline="") as f:
        every = list(csv.DictReader(f))
    reads = {case_key(r): float(r["cublas_rate"]) for r in every if r["routine"] == "read"}
    rows = [r for r in every if r["routine"] not in ("gemm", "copy", "read")]
    for r in rows:
        r.setdefault("device", sys.argv[3] if len(sys.argv) == 4 else "device not named")
    blas3 = [r for r in rows if int(r["m"]) >= 1024 and int(r["n"]) >= 64]
    bars(blas3, "TFLOP/s", "TRSM/TRMM on one GPU",
         os.path.join(sys.argv[2], "kernels_blas3.png"))
    bars(rows, "TB/s", "GEMV/SYMV on one GPU", os.path.join(sys.argv[2], "kernels_blas2.png"),
         reads)


if __name__ == "__main__":
    main()
