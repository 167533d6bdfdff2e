#!/usr/bin/env python3
"""Figure from bench_blas3_cuda's CSV: BLAS-3 from host memory, TFLOP/s per routine and size.

    plot_blas3.py blas3_TAG.csv [more.csv ...] OUT.png

One panel per GPU count; per routine and size, bars for Tessera and
cuBLAS-XT (the better of its block sizes), both from host memory, and for
cuBLAS on device-resident data (one GPU), with a black tick at GPUs x the
device DGEMM ceiling and Tessera's share of that ceiling written above its
bar.  A case measured more than once keeps its last row.  Needs matplotlib
(apt-get install python3-matplotlib)."""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def num(row, key):
    try:
        return float(row.get(key) or "nan")
    except ValueError:
        return math.nan


def size_label(r):
    m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
    if m == n == k:
        return str(n)
    if r["routine"] in ("gemm", "syrk", "syr2k", "gemmt"):
        return f"{n}, k={k}"
    return f"{m}x{n}"


def main(srcs, dst):
    rows = {}
    for src in srcs:
        with open(src) as f:
            for r in csv.DictReader(f):
                key = (int(r["gpus"]), r["routine"], int(r["m"]), int(r["n"]), int(r["k"]))
                rows.pop(key, None)        # the last measurement, in its place
                rows[key] = r
    if not rows:
        sys.exit("plot_blas3.py: no rows")
    counts = sorted({k[0] for k in rows})
    width = max(8.0, 0.75 * max(sum(1 for k in rows if k[0] == g) for g in counts) + 2)
    fig, axes = plt.subplots(len(counts), 1, figsize=(width, 4.6 * len(counts)), squeeze=False)
    gpu_name = next(iter(rows.values())).get("gpu_name", "")
    for ax, g in zip(axes[:, 0], counts):
        rs = [r for k, r in rows.items() if k[0] == g]
        x = range(len(rs))
        series = [("Tessera, host data", "tessera_tflops", "C0"),
                  ("cuBLAS-XT, host data (best block)", "xt_tflops", "C1"),
                  ("cuBLAS, device data, 1 GPU", "device_tflops", "C2")]
        w = 0.27
        for s, (name, key, color) in enumerate(series):
            vals = [num(r, key) for r in rs]
            ax.bar([i + (s - 1) * w for i in x], [0 if math.isnan(v) else v for v in vals], w,
                   label=name, color=color)
        for i, r in enumerate(rs):
            ceil = g * num(r, "device_dgemm_tflops")
            if not math.isnan(ceil):
                ax.plot([i - 1.5 * w, i + 1.5 * w], [ceil, ceil], "k-", lw=1.5,
                        label=f"{g} x cuBLAS DGEMM n^3, device data" if i == 0 else None)
            share, tess = num(r, "tessera_over_device_dgemm"), num(r, "tessera_tflops")
            text = f"{share:.2f}" if not math.isnan(share) else ""
            if r.get("check") == "FAIL":
                text += "\nFAIL"
            if text and not math.isnan(tess):
                ax.text(i - w, tess, text, ha="center", va="bottom", fontsize=7)
        ax.set_xticks(list(x))
        ax.set_xticklabels([f"d{r['routine']}\n{size_label(r)}" for r in rs], fontsize=8)
        ax.set_ylabel("TFLOP/s")
        top = max([num(r, k) for r in rs for k in ("tessera_tflops", "xt_tflops",
                                                  "device_tflops")] +
                  [g * num(r, "device_dgemm_tflops") for r in rs] + [1e-3],
                  key=lambda v: -1 if math.isnan(v) else v)
        ax.set_ylim(0, 1.3 * top)           # room for the legend above the bars
        ax.set_title(f"BLAS-3 from host memory, {g} GPU{'s' if g > 1 else ''}"
                     f"{', ' + gpu_name if gpu_name else ''} "
                     "(number: Tessera / ceiling)")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(loc="upper center", ncol=4, fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:-1], sys.argv[-1])
