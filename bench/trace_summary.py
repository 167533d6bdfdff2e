#!/usr/bin/env python3
"""Busy fractions per device from a Tessera Chrome trace (TESS_TRACE).

For each device: the share of the traced span during which its compute
streams ran a kernel, during which each copy stream moved data, and how much
of the copy time ran under a kernel (overlap).  The span runs from the first
slice to the last one of any device.

With --calls, the trace is cut into calls where no device does anything for
50 ms, and each call gets its span, when its last kernel and its last copy to
the host end (the write-back tail), its kernel time per task name (LU's
panel getrf against its updates, say), and its workers' time issuing tasks
and waiting for their oldest flight with the window full.

    usage: trace_summary.py [--calls] trace.json[.gz]
"""
import gzip
import json
import re
import sys


def union(intervals):
    """Total length of a set of [start, end) intervals, and the merged list."""
    merged = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return sum(e - s for s, e in merged), merged


def covered(intervals, merged):
    """Length of the intervals that lies inside the merged (disjoint) list."""
    total = 0.0
    for s, e in intervals:
        for ms, me in merged:
            lo, hi = max(s, ms), min(e, me)
            if hi > lo:
                total += hi - lo
    return total


def calls(slices, names, gap_us=50000):
    """Per call: span, last kernel and last d2h end, kernel ms per task name."""
    slices = sorted(slices, key=lambda e: e["ts"])
    groups, end = [], None
    for e in slices:
        if end is None or e["ts"] - end > gap_us:
            groups.append([])
        groups[-1].append(e)
        end = max(end or 0, e["ts"] + e["dur"])
    for i, g in enumerate(groups):
        t0 = g[0]["ts"]
        ends = lambda kind: max((e["ts"] + e["dur"] - t0 for e in g if kind in names[e["tid"]]),
                                default=0)
        per = {}
        for e in g:
            if " compute" in names[e["tid"]]:
                ms, n = per.get(e["name"], (0.0, 0))
                per[e["name"]] = (ms + e["dur"] / 1e3, n + 1)
        span = max(e["ts"] + e["dur"] for e in g) - t0
        kern, d2h = ends(" compute"), ends(" d2h")
        print(f"call {i}: span {span / 1e3:.1f} ms, last kernel ends {kern / 1e3:.1f}, "
              f"last d2h {d2h / 1e3:.1f} (tail {max(d2h - kern, 0) / 1e3:.1f})")
        for name, (ms, n) in sorted(per.items(), key=lambda kv: -kv[1][0]):
            print(f"    {name:14} {ms:9.1f} ms in {n} kernels")
        worker = [e for e in g if names[e["tid"]].endswith(" worker")]
        waits = sum(e["dur"] for e in worker if e["name"] == "wait")
        issues = sum(e["dur"] for e in worker if e["name"] == "issue")
        if worker:
            print(f"    workers: {issues / 1e3:.1f} ms issuing {len(worker)} tasks, "
                  f"{waits / 1e3:.1f} ms waiting for a flight")


def main(path, by_call=False):
    opener = gzip.open if path.endswith(".gz") else open
    events = json.load(opener(path, "rt"))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M"}
    slices = [e for e in events if e.get("ph") == "X"]
    if not slices:
        sys.exit("no slices in " + path)
    t0 = min(e["ts"] for e in slices)
    t1 = max(e["ts"] + e["dur"] for e in slices)
    span = t1 - t0
    tracks = {}
    for e in slices:
        tracks.setdefault(names[e["tid"]], []).append((e["ts"], e["ts"] + e["dur"]))
    devices = sorted({re.match(r"(\S+?\d+) ", n).group(1) for n in names.values()})
    print(f"span {span / 1e3:.1f} ms")
    print(f"{'device':8} {'compute':>8} {'h2d':>6} {'d2h':>6} {'peer':>6} {'copy under kernel':>18}")
    for dev in devices:
        kern = [iv for n, ivs in tracks.items() if n.startswith(dev + " compute") for iv in ivs]
        busy, merged = union(kern)
        row, copy_total, copy_hidden = [], 0.0, 0.0
        for stream in ("h2d", "d2h", "peer"):
            ivs = tracks.get(f"{dev} {stream}", [])
            row.append(union(ivs)[0] / span)
            copy_total += sum(e - s for s, e in ivs)
            copy_hidden += covered(ivs, merged)
        hidden = copy_hidden / copy_total if copy_total else 0.0
        print(f"{dev:8} {busy / span:8.2f} {row[0]:6.2f} {row[1]:6.2f} {row[2]:6.2f} {hidden:18.2f}")
    if by_call:
        calls(slices, names)


if __name__ == "__main__":
    args = sys.argv[1:]
    by_call = "--calls" in args
    args = [a for a in args if a != "--calls"]
    if len(args) != 1:
        sys.exit(__doc__)
    main(args[0], by_call)
