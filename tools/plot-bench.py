#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A roofline chart of one portacl-bench run.

usage: tools/plot-bench.py BENCH.json OUT.png [--title TEXT]

BENCH.json is `portacl-bench --json` output (add --gemm-sizes for GEMM
points). The chart shows the copy bandwidth and FMA peak measured in that
run as the roofs, one point per kernel at its largest size (arithmetic
intensity = flops / bytes it must move), portacl as filled circles and the
baseline library (CLBlast) as open squares at the same intensity (left off
where the bench marked its figure suspect). Kernels
that do no arithmetic (copy, fill) are left off: a FLOP roofline has no
place for them; their bandwidth is in the bench's table.
"""
import argparse
import json
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as missing:
    sys.exit("plot-bench.py needs matplotlib, which " + sys.executable + " cannot import (" + str(missing) +
             "): install Debian's python3-matplotlib and run it with /usr/bin/python3, or pip install matplotlib")


def points(bench):
    """(name, intensity, portacl GFLOP/s, baseline GFLOP/s or None) per kernel, largest n."""
    largest = {}
    for k in bench["kernels"]:
        if k["gflops"] > 0 and k["gbs"] > 0 and (k["kernel"] not in largest or k["n"] > largest[k["kernel"]]["n"]):
            largest[k["kernel"]] = k
    out = []
    for name, k in sorted(largest.items()):
        intensity = k["gflops"] / k["gbs"]
        base = k.get("baseline") or k.get("clblast")  # "clblast": files written before 2026-11-25
        # A baseline the bench marked suspect (below 10% of the copy ceiling:
        # almost certainly timed wrongly, not slow) is left off the chart.
        trusted = base and base.get("check") == "ok" and base.get("gbs") and not base.get("suspect")
        theirs = intensity * base["gbs"] if trusted else None
        out.append((name, intensity, k["gflops"], theirs))
    for g in bench.get("gemm", []):
        element = 8 if g["element"] == "double" else 4
        intensity = 2.0 * g["size"] / (3 * element)  # 2 n^3 flops over 3 n^2 elements moved at least
        base = g.get("baseline")
        theirs = base["gflops"] if base and base.get("check") == "ok" else None
        out.append(("%s %d^3" % ("dgemm" if element == 8 else "sgemm", g["size"]), intensity, g["gflops"], theirs))
    return out


def main():
    ap = argparse.ArgumentParser(description="roofline chart of a portacl-bench --json run")
    ap.add_argument("bench")
    ap.add_argument("out")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    with open(a.bench) as f:
        bench = json.load(f)
    c = bench["ceilings"]
    pts = points(bench)
    if not pts:
        sys.exit("%s holds no kernel with arithmetic to plot" % a.bench)
    lo = min(p[1] for p in pts) / 2
    hi = max(max(p[1] for p in pts) * 2, 2 * c["fma_gflops"] / c["copy_gbs"])
    fig, ax = plt.subplots(figsize=(8, 5.5))
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(x * c["copy_gbs"], c["fma_gflops"]) for x in xs], "k-", lw=1.5,
            label="roof: copy %.0f GB/s, FMA %.0f GFLOP/s (float)" % (c["copy_gbs"], c["fma_gflops"]))
    if c.get("fma64_gflops"):
        ax.plot(xs, [min(x * c["copy_gbs"], c["fma64_gflops"]) for x in xs], "k:", lw=1,
                label="FMA %.0f GFLOP/s (double)" % c["fma64_gflops"])
    for i, (name, x, ours, theirs) in enumerate(pts):
        colour = "C%d" % (i % 10)
        ax.loglog([x], [ours], "o", color=colour, ms=7)
        if theirs:
            ax.loglog([x], [theirs], "s", mfc="none", color=colour, ms=8)
        ax.annotate(name, (x, ours), textcoords="offset points", xytext=(6, 4), fontsize=8)
    ax.plot([], [], "ko", label="portacl")
    ax.plot([], [], "ks", mfc="none", label="CLBlast, same run")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flops per byte moved at least)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(a.title or "%s, %s (%s)" % (bench["device"], bench["date"], "portacl " + bench["portacl_version"]),
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)


if __name__ == "__main__":
    main()
