#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The before and after tables of bench-before-after.sh: every case's
device time (the median of its repetitions) in each round, the median over
rounds, and after / before. Reads DIR/bench_{before,after}_R.json.

  compare-bench.py DIR
"""
import glob
import json
import statistics
import sys


def rows(path):
    d = json.load(open(path))
    out = {}
    for section in ("kernels", "gemm", "sparse", "stencils"):
        for r in d.get(section) or []:
            if not isinstance(r, dict) or not isinstance(r.get("time"), dict):
                continue
            variant = str(r.get("variant", ""))
            if section == "gemm":  # its variant is the plan's summary: the case names it
                variant = ""
            name = " ".join(str(r[k]) for k in ("kernel", "case", "label", "element") if r.get(k))
            size = r.get("n") if section == "kernels" else ""
            key = f"{section}: {name} {size} {variant}".split()
            out[" ".join(key)] = r["time"]["median_ms"]
    return d.get("device", "?"), out


def main(folder):
    runs = {}
    device = "?"
    for which in ("before", "after"):
        for path in sorted(glob.glob(f"{folder}/bench_{which}_*.json")):
            try:
                device, r = rows(path)
            except (OSError, ValueError) as e:
                print(f"{path}: unreadable ({e})")
                continue
            runs.setdefault(which, []).append(r)
    if len(runs) != 2:
        sys.exit("need bench_before_*.json and bench_after_*.json")
    print(f"device: {device}; rounds: {len(runs['before'])} before, {len(runs['after'])} after")
    print(f"{'case':90} {'before ms (rounds)':>22} {'after ms (rounds)':>22} {'after/before':>12}")
    for key in runs["before"][0]:
        b = [r[key] for r in runs["before"] if key in r]
        a = [r[key] for r in runs["after"] if key in r]
        if not b or not a:
            continue
        fmt = lambda v: " ".join(f"{x:.4g}" for x in v)
        ratio = statistics.median(a) / statistics.median(b) if statistics.median(b) else float("nan")
        print(f"{key[:90]:90} {fmt(b):>22} {fmt(a):>22} {ratio:12.3f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
