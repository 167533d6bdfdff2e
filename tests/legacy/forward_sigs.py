#!/usr/bin/env python3
"""Checks the argument classes that legacy/forward_list.h gives each forwarded
routine against the host BLAS's own prototypes (OpenBLAS's f77blas.h and
cblas.h): the 64-bit entry points check the integer arguments named there
before a 32-bit host reads their low halves, so a wrong letter would let a
size past 32 bits through, or refuse a valid call.

usage: forward_sigs.py forward_list.h INCLUDEDIR
Exit 0 when every routine matches, 1 otherwise, 77 (skip) without headers."""
import os
import re
import sys


def prototypes(text):
    """name -> list of argument texts, the first declaration of each name"""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    found = {}
    pat = r"(?:BLASFUNC\((\w+)\)|\b(cblas_\w+))\s*\(([^;{]*?)\)\s*;"
    for m in re.finditer(pat, text):
        name = m.group(1) or m.group(2)
        args = [a.strip() for a in m.group(3).split(",")] if m.group(3).strip() else []
        found.setdefault(name, args)
    return found


def f77_class(arg):
    """'i' an INTEGER (passed by address, as every Fortran argument), '.' any other"""
    return "i" if re.fullmatch(r"(const\s+)?(blasint|int)\s*\*", arg) else "."


def cblas_class(arg):
    """'i' an integer by value, 'f' a real by value, '.' an address or an enum"""
    words = re.sub(r"\b(OPENBLAS_CONST|const)\b", " ", arg)
    if "*" in words or re.search(r"\benum\b|CBLAS_", words):
        return "."
    if re.search(r"\b(blasint|int|CBLAS_INT)\b", words):
        return "i"
    if re.search(r"\b(float|double)\b", words):
        return "f"
    raise ValueError("unknown argument type: " + arg)


# Reference BLAS functions that OpenBLAS's f77blas.h does not declare: one
# COMPLEX argument each.
UNDECLARED = {"dcabs1": ".", "scabs1": "."}


def main():
    lst, inc = sys.argv[1], sys.argv[2]
    f77h, cblash = os.path.join(inc, "f77blas.h"), os.path.join(inc, "cblas.h")
    if not (os.path.isfile(f77h) and os.path.isfile(cblash)):
        print("no f77blas.h and cblas.h under", inc)
        return 77
    with open(f77h) as f:
        f77 = prototypes(f.read())
    with open(cblash) as f:
        cblas = prototypes(f.read())
    with open(lst) as f:
        entries = re.findall(r"X\((\w+),\s*\"([.if]*)\"\)", f.read())
    bad = 0
    for name, sig in entries:
        if name.startswith("cblas_"):
            args, cls = cblas.get(name), cblas_class
        else:
            args, cls = f77.get(name), f77_class
        if args is None and name in UNDECLARED:
            args, cls = list(UNDECLARED[name]), lambda c: c
        if args is None:
            print(f"{name}: no prototype in the headers")
            bad += 1
            continue
        want = "".join(cls(a) for a in args)
        if want != sig:
            print(f"{name}: forward_list.h says \"{sig}\", the headers \"{want}\"")
            bad += 1
    print(f"{len(entries)} routines, {bad} mismatched")
    return 1 if bad or not entries else 0


if __name__ == "__main__":
    sys.exit(main())
