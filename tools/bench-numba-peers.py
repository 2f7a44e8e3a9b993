#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a Python user of the same cores writes instead of portacl for the
families the BLAS does not cover, timed as an expert would call it: Numba's
parallel loops (`@njit(parallel=True, fastmath=True)`, `prange`, compiled
and warmed up outside the timing, structure-of-arrays inputs) for the
all-pairs N-body force sum and a 2D heat step, and scikit-learn's KMeans
for one Lloyd step. Wall clock around each call; median and spread of the
timed runs; one line a case, so that docs/bench holds the raw output beside
portacl-bench's run of the same sizes. The inputs are made with the same
sizes and kinds as portacl-bench's operations, not the same numbers.

  bench-numba-peers.py [--reps N] [--warmup N] CASE...

CASE: nbody:BODIES (accelerations and potentials, softening 0.01, float32;
portacl-bench's nbody at 2^18 has 16384 bodies), heat:N (one explicit
5-point step on an N x N float32 grid, the boundary held), kmeans:N:D:K
(one Lloyd step of N points in D dimensions from K given centres, float32;
portacl-bench's kmeans at 2^23 is 300000:35:10).
Run it alternated with portacl-bench on a quiet machine and say the load."""
import argparse
import os
import statistics
import sys
import time


def _sizes(spec: str, count: int):
    kind, _, rest = spec.partition(":")
    try:
        values = [int(v) for v in rest.split(":")] if rest else []
    except ValueError:
        raise SystemExit(f"bench-numba-peers: {spec}: sizes are integers") from None
    if len(values) != count or min(values) < 1:
        raise SystemExit(f"bench-numba-peers: {spec}: {kind} takes {count} positive size(s)")
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    try:
        import numba
        import numpy as np
        import sklearn
        from numba import njit, prange
        from sklearn.cluster import KMeans
    except ImportError as e:
        raise SystemExit(f"bench-numba-peers: {e} (pip install numba scikit-learn)") from None

    @njit(parallel=True, fastmath=True, cache=False)
    def nbody(x, y, z, m, ax, ay, az, pot, eps2):
        n = x.shape[0]
        for i in prange(n):
            xi, yi, zi = x[i], y[i], z[i]
            sx = np.float32(0)
            sy = np.float32(0)
            sz = np.float32(0)
            sp = np.float32(0)
            for j in range(n):
                dx = x[j] - xi
                dy = y[j] - yi
                dz = z[j] - zi
                r2 = dx * dx + dy * dy + dz * dz + eps2
                inv = np.float32(1) / np.sqrt(r2)
                mi = m[j] * inv
                mi3 = mi * inv * inv
                sx += mi3 * dx
                sy += mi3 * dy
                sz += mi3 * dz
                sp -= mi
            ax[i], ay[i], az[i], pot[i] = sx, sy, sz, sp

    @njit(parallel=True, fastmath=True, cache=False)
    def heat(u, v, c):
        n0, n1 = u.shape
        for i in prange(1, n0 - 1):
            for j in range(1, n1 - 1):
                v[i, j] = u[i, j] + c * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4 * u[i, j])

    rng = np.random.default_rng(12345)
    print(f"bench-numba-peers: numba {numba.__version__} ({numba.config.NUMBA_NUM_THREADS} threads), "
          f"scikit-learn {sklearn.__version__}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.2f}; {args.warmup} warm-up + {args.reps} timed calls each, wall clock")
    for spec in args.cases:
        kind = spec.partition(":")[0]
        if kind == "nbody":
            (n,) = _sizes(spec, 1)
            x, y, z = (rng.uniform(-1, 1, n).astype(np.float32) for _ in range(3))
            m = np.full(n, 1.0 / n, np.float32)
            out = [np.empty(n, np.float32) for _ in range(4)]
            call = lambda: nbody(x, y, z, m, *out, np.float32(0.01 * 0.01))
            label, work = f"nbody {n} bodies (Numba prange, SoA)", f"{20.0 * n * n / 1e9:.3f} GFLOP a call (20 a pair)"
        elif kind == "heat":
            (n,) = _sizes(spec, 1)
            u = rng.uniform(0, 1, (n, n)).astype(np.float32)
            v = u.copy()
            call = lambda: heat(u, v, np.float32(0.2))
            label, work = f"heat {n}^2 one step (Numba prange)", f"{8.0 * n * n / 1e9:.3f} GB a call (read + write)"
        elif kind == "kmeans":
            n, d, k = _sizes(spec, 3)
            centres = rng.normal(0, 4, (k, d)).astype(np.float32)
            points = (centres[rng.integers(0, k, n)] + rng.normal(0, 1, (n, d))).astype(np.float32)
            model = KMeans(n_clusters=k, init=centres, n_init=1, max_iter=1, tol=0.0, algorithm="lloyd")
            call = lambda: model.fit(points)
            label, work = f"kmeans {n} x {d}, k {k}, one Lloyd step (scikit-learn KMeans)", f"{3.0 * n * d * k / 1e9:.3f} GFLOP a call"
        else:
            raise SystemExit(f"bench-numba-peers: {spec}: unknown case (nbody, heat, kmeans)")
        for _ in range(max(1, args.warmup)):  # the first call compiles
            call()
        times = []
        for _ in range(args.reps):
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1e3)
        print(f"{label}: median {statistics.median(times):.4f} ms, {min(times):.4f}-{max(times):.4f}; {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
