#!/usr/bin/env python3
"""Figure from bench_gemm_cuda's CSV: DGEMM from host memory, TFLOP/s against n.

    plot_gemm_cuda.py gemm_cuda.csv OUT.png

One panel per GPU count: Tessera, cuBLAS-XT (the better of its two block
sizes) and the ceiling, GPUs x cuBLAS on device-resident data, all from the
same run.  Needs matplotlib (apt-get install python3-matplotlib)."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, dst):
    rows = list(csv.DictReader(open(src)))
    counts = sorted({int(r["gpus"]) for r in rows})
    fig, axes = plt.subplots(1, len(counts), figsize=(5.5 * len(counts), 4.2), squeeze=False)
    for ax, g in zip(axes[0], counts):
        rs = sorted((r for r in rows if int(r["gpus"]) == g), key=lambda r: int(r["n"]))
        n = [int(r["n"]) for r in rs]
        ceiling = [g * float(r["cublas_device_tflops"]) for r in rs]
        xt = [max(float(r["xt2048_tflops"]), float(r["xt4096_tflops"])) for r in rs]
        tess = [float(r["tessera_tflops"]) for r in rs]
        ax.plot(n, ceiling, "k--", label=f"{g} x cuBLAS, device data")
        ax.plot(n, tess, "o-", label="Tessera, host data")
        ax.plot(n, xt, "s-", label="cuBLAS-XT, host data")
        ax.set_xscale("log", base=2)
        ax.set_xticks(n)
        ax.set_xticklabels([str(v) for v in n])
        ax.set_xlabel("n (m = n = k)")
        ax.set_ylabel("TFLOP/s")
        ax.set_ylim(bottom=0)
        ax.set_title(f"DGEMM, {g} GPU{'s' if g > 1 else ''}")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
