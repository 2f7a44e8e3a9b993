#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a call costs from Python, in one run on one device:

1. the module's overhead per small call against the same call from C++
   (portacl-bench's latency section and the Python calls, in alternating
   rounds), and
2. portacl's reductions and dot against pyopencl.array's on the same device
   and the same queue (wall clock around the call and its result read back,
   as a pyopencl user writes it: pyopencl.array.sum(a).get()), and the sums
   again by a second method: the device's span between profiled markers.

Medians of --reps samples with their min-max spread.

    PYTHONPATH=build/python tools/bench-python.py [--bench build/tools/portacl-bench] [--reps 9] [--rounds 7]
"""
import argparse
import json
import subprocess
import time

import numpy as np

import portacl


def samples(reps, once, calls):
    """Per-call milliseconds: `calls` calls of once(), `reps` times."""
    out = []
    for _ in range(reps + 1):  # the first is a warm-up
        start = time.perf_counter()
        for _ in range(calls):
            once()
        out.append((time.perf_counter() - start) * 1e3 / calls)
    return sorted(out[1:])


def span(queue, reps, once):
    """Median milliseconds between the ends of profiled markers enqueued
    before and after once() on `queue` (the device's clock)."""
    import pyopencl as cl

    out = []
    for _ in range(reps + 1):
        queue.finish()
        before = cl.enqueue_marker(queue)
        once()
        after = cl.enqueue_marker(queue)
        after.wait()
        out.append((after.profile.end - before.profile.end) * 1e-6)
    out = sorted(out[1:])
    return out[len(out) // 2]


def row(name, problem, ms):
    med = ms[len(ms) // 2]
    print(f"| {name} | {problem} | {med:.4f} | {ms[0]:.4f} - {ms[-1]:.4f} |")
    return med


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bench", default="build/tools/portacl-bench")
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("--rounds", type=int, default=7, help="alternating C++ and Python rounds of the small calls")
    a = p.parse_args()
    ctx = portacl.default_context()
    print(f"device: {ctx.device['name']} ({ctx.device['platform']['name']}), portacl {portacl.__version__}")

    # 1. Python against C++ on small calls (n = 1024 floats), alternating:
    # each round runs portacl-bench's latency section, then the same calls
    # from Python, so that the machine's drifts fall on both alike.
    rng = np.random.default_rng(1)
    x = portacl.Buffer(ctx, rng.uniform(-1, 1, 1024).astype(np.float32))
    y = portacl.Buffer(ctx, rng.uniform(-1, 1, 1024).astype(np.float32))

    def axpy_batch():  # as portacl-bench's host time: 200 calls enqueued, then one wait
        for _ in range(200):
            portacl.axpy(0.0, x, y)
        ctx.finish()

    names = ("portacl::axpy", "portacl::sum (blocking)")
    per_round = {name: ([], []) for name in names}  # (C++ medians, Python medians), ms
    for _ in range(a.rounds):
        bench = json.loads(subprocess.run([a.bench, "--json", "--no-transfers", "--no-baseline", "--kernels", "copy",
                                           "--sizes", "1024", "--reps", str(a.reps)], check=True,
                                          capture_output=True, text=True).stdout)
        cpp = {r["call"]: r for r in bench["latency"]}
        py_axpy = [v / 200 for v in samples(a.reps, axpy_batch, 1)]
        py_sum = samples(a.reps, lambda: portacl.sum(x), 200)
        for name, py in zip(names, (py_axpy, py_sum)):
            per_round[name][0].append(cpp[name]["host_per_call"]["median_ms"])
            per_round[name][1].append(py[len(py) // 2])
    print(f"\n{a.rounds} alternating rounds (C++ latency section, then Python), each the median of {a.reps} samples;")
    print("the table gives the median over rounds and the rounds' range")
    print("\n| call, n = 1024 float | C++ ms | range | Python ms | range | Python - C++ | rounds Python slower |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        c, py = (sorted(v) for v in per_round[name])
        cm, pm = c[len(c) // 2], py[len(py) // 2]
        slower = sum(p > q for p, q in zip(*per_round[name][::-1]))
        print(f"| {name} | {cm:.4f} | {c[0]:.4f} - {c[-1]:.4f} | {pm:.4f} | {py[0]:.4f} - {py[-1]:.4f} | "
              f"{1e3 * (pm - cm):+.1f} us | {slower} of {a.rounds} |")
        print(f"|   (each round: C++ {', '.join(f'{v:.4f}' for v in per_round[name][0])}; "
              f"Python {', '.join(f'{v:.4f}' for v in per_round[name][1])}) | | | | | | |")

    # 2. Against pyopencl.array on the same context and queue.
    try:
        import pyopencl.array as cl_array
    except ImportError:
        print("\npyopencl is not installed: no pyopencl.array figures")
        return
    _, queue = portacl.to_pyopencl(ctx)
    print("\n| call | n | median ms | min - max |")
    print("|---|---|---|---|")
    for n in (1 << 10, 1 << 16, 1 << 22):
        h = rng.uniform(-1, 1, n).astype(np.float32)
        h2 = rng.uniform(-1, 1, n).astype(np.float32)
        bx, by = portacl.Buffer(ctx, h), portacl.Buffer(ctx, h2)
        ax, ay = cl_array.to_device(queue, h), cl_array.to_device(queue, h2)
        calls = 50 if n <= 1 << 16 else 5
        pm = row("portacl.sum", n, samples(a.reps, lambda: portacl.sum(bx), calls))
        cm = row("pyopencl.array.sum(a).get()", n, samples(a.reps, lambda: cl_array.sum(ax).get(), calls))
        pd = row("portacl.dot", n, samples(a.reps, lambda: portacl.dot(bx, by), calls))
        cd = row("pyopencl.array.dot(a, b).get()", n, samples(a.reps, lambda: cl_array.dot(ax, ay).get(), calls))
        print(f"| (pyopencl / portacl) | {n} | sum {cm / pm:.2f}x, dot {cd / pd:.2f}x | |")
        # A second method: the device's own span between profiled markers
        # enqueued before and after each call on the shared queue.
        ps = span(queue, a.reps, lambda: portacl.sum(bx))
        cs = span(queue, a.reps, lambda: cl_array.sum(ax).get())
        print(f"| (device span, markers) | {n} | portacl.sum {ps:.4f}, pyopencl sum {cs:.4f}: {cs / ps:.2f}x | |")


if __name__ == "__main__":
    main()
