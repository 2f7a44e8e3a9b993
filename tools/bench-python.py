#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a call costs from Python, in one run on one device:

1. the module's overhead per call against the same call from C++
   (portacl-bench's latency section and the Python calls, in alternating
   rounds): axpy and sum on Buffers, the sparse product on a CsrMatrix,
   and a whole CG solve, and
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
import sys
import time

import numpy as np
import scipy.sparse as sp

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


def host_ms(ctx, reps, call, calls):
    """As portacl-bench's host time: `calls` calls enqueued back to back
    from an idle queue, per call, the wait after them not timed (a blocking
    call includes its own); `reps` samples, after a warm-up."""
    out = []
    for _ in range(reps + 1):
        ctx.finish()
        start = time.perf_counter()
        for _ in range(calls):
            call()
        out.append((time.perf_counter() - start) * 1e3 / calls)
        ctx.finish()
    return sorted(out[1:])


def round_trip_ms(ctx, reps, call):
    """As portacl-bench's round trip: one call and the wait for it, from an
    idle queue; `reps` samples, after a warm-up."""
    out = []
    for _ in range(reps + 1):
        ctx.finish()
        start = time.perf_counter()
        call()
        ctx.finish()
        out.append((time.perf_counter() - start) * 1e3)
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


# Each Python form: (its C++ row in portacl-bench's latency section, calls per sample).
CALLS = {
    "portacl.axpy(0.0, x, y), Buffers": (("portacl::axpy", "n=1024"), 200),
    "portacl.sum(x), a Buffer": (("portacl::sum (blocking)", "n=1024"), 200),
    "portacl.spmv(D, x, out=y), D a CsrMatrix, x and y Buffers": (("portacl::spmv (rules)", "32^2 grid"), 200),
    "portacl.spmv(D, x, out=y), the same on 65536 rows": (("portacl::spmv (rules)", "256^2 grid"), 20),
    "portacl.cg(D, b), b a Buffer; x a new Buffer": (("portacl::cg (50 iterations)", "64^2 grid"), 5),
    "portacl.cg(D, b), b an array (uploaded); x comes back as an array": (("portacl::cg (50 iterations)", "64^2 grid"), 5),
}


def python_round(reps):
    """One round of the Python calls of CALLS: each form's median host and
    round-trip milliseconds, and the device's name."""
    ctx = portacl.default_context()
    rng = np.random.default_rng(1)
    x = portacl.Buffer(ctx, rng.uniform(-1, 1, 1024).astype(np.float32))
    y = portacl.Buffer(ctx, rng.uniform(-1, 1, 1024).astype(np.float32))

    # The sparse rows use the bench's matrices: the Laplacians of a 32^2 and
    # a 256^2 grid for the product, a 64^2 grid's (4096 rows) for CG, whose
    # tolerance (1e-12) is beyond float's reach: 50 iterations every call.
    def laplacian(n):
        t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
        return (sp.kron(sp.identity(n), t) + sp.kron(t, sp.identity(n))).tocsr().astype(np.float32)

    d32 = portacl.sparse.csr_matrix(laplacian(32), context=ctx)
    d64 = portacl.sparse.csr_matrix(laplacian(64), context=ctx)
    d256 = portacl.sparse.csr_matrix(laplacian(256), context=ctx)
    b64 = rng.uniform(-1, 1, 4096).astype(np.float32)
    bb64 = portacl.Buffer(ctx, b64)
    product = portacl.Buffer(ctx, np.zeros(1024, np.float32))
    x256 = portacl.Buffer(ctx, rng.uniform(-1, 1, 65536).astype(np.float32))
    y256 = portacl.Buffer(ctx, np.zeros(65536, np.float32))
    call_of = {
        "portacl.axpy(0.0, x, y), Buffers": lambda: portacl.axpy(0.0, x, y),
        "portacl.sum(x), a Buffer": lambda: portacl.sum(x),
        "portacl.spmv(D, x, out=y), D a CsrMatrix, x and y Buffers": lambda: portacl.spmv(d32, x, out=product),
        "portacl.spmv(D, x, out=y), the same on 65536 rows": lambda: portacl.spmv(d256, x256, out=y256),
        "portacl.cg(D, b), b a Buffer; x a new Buffer": lambda: portacl.cg(d64, bb64, tol=1e-12, max_iterations=50),
        "portacl.cg(D, b), b an array (uploaded); x comes back as an array":
            lambda: portacl.cg(d64, b64, tol=1e-12, max_iterations=50),
    }
    out = {"device": f"{ctx.device['name']} ({ctx.device['platform']['name']})"}
    for name, (_, calls) in CALLS.items():
        host = host_ms(ctx, reps, call_of[name], calls)
        trip = round_trip_ms(ctx, reps, call_of[name])
        out[name] = {"host": host[len(host) // 2], "round trip": trip[len(trip) // 2]}
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bench", default="build/tools/portacl-bench")
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("--rounds", type=int, default=7, help="alternating C++ and Python rounds of the small calls")
    p.add_argument("--python-round", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.python_round:
        print(json.dumps(python_round(a.reps)))
        return

    # 1. Python against C++, alternating: each round runs portacl-bench's
    # latency section, then the same calls from Python, each in a process
    # of its own (no process holds the device while the other measures:
    # some machines give a GPU to one process at a time), so that the
    # machine's drifts fall on both alike.
    names = tuple(CALLS)
    measures = ("host", "round trip")
    # per_round[measure][name] = (C++ medians, Python medians), ms, one per round
    per_round = {m: {name: ([], []) for name in names} for m in measures}
    device = ""
    for _ in range(a.rounds):
        run = subprocess.run([a.bench, "--json", "--no-transfers", "--no-baseline", "--kernels", "copy", "--sizes",
                              "1024", "--reps", str(a.reps)], capture_output=True, text=True)
        if run.returncode:
            raise SystemExit(f"{a.bench} failed ({run.returncode}): {run.stderr[-2000:]}")
        cpp = {(r["call"], r["problem"]): r for r in json.loads(run.stdout)["latency"]}
        run = subprocess.run([sys.executable, __file__, "--python-round", "--reps", str(a.reps)], capture_output=True,
                             text=True)
        if run.returncode:
            raise SystemExit(f"the Python round failed ({run.returncode}): {run.stderr[-2000:]}")
        py = json.loads(run.stdout)
        device = py.pop("device")
        for name in names:
            for m, field in zip(measures, ("host_per_call", "round_trip")):
                per_round[m][name][0].append(cpp[CALLS[name][0]][field]["median_ms"])
                per_round[m][name][1].append(py[name][m])
    print(f"device: {device}, portacl {portacl.__version__}")
    print(f"\n{a.rounds} alternating rounds (C++ latency section, then Python), each the median of {a.reps} samples;")
    print("the tables give the median over rounds and the rounds' range. Host: calls enqueued back to back, per")
    print("call, the final wait not timed (a blocking call waits for itself); round trip: one call and its wait.")
    for m in measures:
        print(f"\n| call (C++; Python), {m} | problem | C++ ms | range | Python ms | range | Python - C++ | "
              "Python / C++ | rounds Python slower |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name in names:
            c, py = (sorted(v) for v in per_round[m][name])
            cm, pm = c[len(c) // 2], py[len(py) // 2]
            slower = sum(p > q for p, q in zip(*per_round[m][name][::-1]))
            print(f"| {CALLS[name][0][0]}; {name} | {CALLS[name][0][1]} | {cm:.4f} | {c[0]:.4f} - {c[-1]:.4f} | "
                  f"{pm:.4f} | {py[0]:.4f} - {py[-1]:.4f} | {1e3 * (pm - cm):+.1f} us | {pm / cm:.3f} | "
                  f"{slower} of {a.rounds} |")
            print(f"|   (each round: C++ {', '.join(f'{v:.4f}' for v in per_round[m][name][0])}; "
                  f"Python {', '.join(f'{v:.4f}' for v in per_round[m][name][1])}) | | | | | | | | |")

    # 2. Against pyopencl.array on the same context and queue.
    ctx = portacl.default_context()
    rng = np.random.default_rng(1)
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
