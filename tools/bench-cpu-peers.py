#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a CPU user calls instead of portacl, timed on the same cores: the
BLAS routines of SciPy's OpenBLAS (scipy.linalg.blas, PyPI's wheels), each
called as an expert would (inputs made and converted once, outside the
timed call; wall clock around the call). Prints one line per case with the
median and the spread of the timed runs, the bytes or flops counted, and
the library and its configuration, so that docs/bench can hold the raw
output beside portacl-bench's run of the same sizes.

  bench-cpu-peers.py [--reps N] [--warmup N] [--seed N] CASE...

CASE: sspmv:P (packed symmetric y = A x, P stored elements, as
portacl-bench's packed_symv size), strsv:N (lower triangular solve of order
N), sgemm:N (N^3 single precision), sdot:N (N-element dot product),
csr:FILE (scipy.sparse's y = A @ x on a matrix portacl-bench wrote with
--save-matrices, float32), cg:FILE (scipy.sparse.linalg.cg, 100 iterations
with no stopping test on the same; the line gives its time per iteration).
Run it alternated with portacl-bench on a quiet machine and say the load."""
import argparse
import math
import os
import statistics
import sys
import time


def _packed_order(stored: int) -> int:
    """The largest order n whose triangle n (n + 1) / 2 fits in `stored`
    (portacl-bench's packed_symv takes the same n)."""
    n = int((math.isqrt(8 * stored + 1) - 1) // 2)
    return max(n, 1)


def _csr_file(path: str, np):
    """A matrix portacl-bench wrote with --save-matrices: int64 rows, cols
    and nnz, then int32 row pointers and column indices, float32 values."""
    import scipy.sparse

    rows, cols, nnz = (int(v) for v in np.fromfile(path, np.int64, 3))
    words = np.fromfile(path, np.int32, rows + 1 + 2 * nnz, offset=24)
    if words.size != rows + 1 + 2 * nnz:
        raise SystemExit(f"bench-cpu-peers: {path}: shorter than its {rows} rows and {nnz} entries")
    starts, columns = words[: rows + 1], words[rows + 1 : rows + 1 + nnz]
    return scipy.sparse.csr_matrix((words[rows + 1 + nnz :].view(np.float32), columns, starts), shape=(rows, cols))


CG_ITERATIONS = 100


def _sparse_case(kind: str, path: str, rng, np):
    """(label, the timed call, bytes moved, flops) for csr:FILE and cg:FILE."""
    import scipy.sparse.linalg

    a = _csr_file(path, np)
    x = rng.uniform(-1, 1, a.shape[1]).astype(np.float32)
    rows, nnz = a.shape[0], a.nnz
    moved = 8 * nnz + 4 * (rows + 1) + 4 * a.shape[1] + 4 * rows  # values and columns, pointers, x, y once
    name = os.path.basename(path)
    if kind == "csr":
        return (f"csr {name} rows={rows} nnz={nnz}", lambda: a @ x, moved, 2.0 * nnz)

    def solve():
        try:
            return scipy.sparse.linalg.cg(a, x, rtol=0.0, atol=0.0, maxiter=CG_ITERATIONS)
        except TypeError:  # SciPy before 1.12 calls rtol tol
            return scipy.sparse.linalg.cg(a, x, tol=0.0, atol=0.0, maxiter=CG_ITERATIONS)

    return (f"cg {name} rows={rows}, {CG_ITERATIONS} iterations", solve, CG_ITERATIONS * moved,
            CG_ITERATIONS * (2.0 * nnz + 10.0 * rows))


def _case(spec: str, rng, np, blas):
    """(label, the timed call, bytes moved, flops) for one CASE."""
    kind, _, size = spec.partition(":")
    if kind in ("csr", "cg"):
        return _sparse_case(kind, size, rng, np)
    base, caret, power = size.partition("^")
    try:
        value = int(base) ** int(power) if caret else int(size)  # 2^22 or 4194304
    except ValueError:
        raise SystemExit(f"bench-cpu-peers: {spec}: the size is an integer or B^E") from None
    if value < 1:
        raise SystemExit(f"bench-cpu-peers: {spec}: the size must be at least 1")
    if kind == "sspmv":
        n = _packed_order(value)
        ap = rng.uniform(-1, 1, n * (n + 1) // 2).astype(np.float32)
        x = rng.uniform(-1, 1, n).astype(np.float32)
        # SciPy's sspmv takes the upper triangle column by column (Fortran's
        # 'U'), which is portacl's lower triangle row by row: the same array.
        return (f"sspmv n={n} ({n * (n + 1) // 2} stored)", lambda: blas.sspmv(n, 1.0, ap, x),
                4 * (n * (n + 1) // 2 + 2 * n), 2.0 * n * n)
    if kind == "strsv":
        n = value
        a = np.tril(rng.uniform(-1, 1, (n, n))).astype(np.float32)
        a[np.diag_indices(n)] = rng.uniform(n / 2, n, n)  # well conditioned
        a = np.asfortranarray(a)
        b = rng.uniform(-1, 1, n).astype(np.float32)
        return (f"strsv n={n}", lambda: blas.strsv(a, b, lower=1), 4 * (n * (n + 1) // 2 + 2 * n), 1.0 * n * n)
    if kind == "sgemm":
        n = value
        a = np.asfortranarray(rng.uniform(-1, 1, (n, n)).astype(np.float32))
        b = np.asfortranarray(rng.uniform(-1, 1, (n, n)).astype(np.float32))
        return (f"sgemm n={n}", lambda: blas.sgemm(1.0, a, b), 4 * 3 * n * n, 2.0 * n ** 3)
    if kind == "sdot":
        n = value
        x = rng.uniform(-1, 1, n).astype(np.float32)
        y = rng.uniform(-1, 1, n).astype(np.float32)
        return (f"sdot n={n}", lambda: blas.sdot(x, y), 8 * n, 2.0 * n)
    raise SystemExit(f"bench-cpu-peers: unknown case '{spec}' (sspmv:P, strsv:N, sgemm:N, sdot:N, csr:FILE, cg:FILE)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="+")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if args.reps < 1 or args.warmup < 0:
        raise SystemExit("bench-cpu-peers: --reps must be at least 1 and --warmup at least 0")
    import numpy as np
    import scipy
    from scipy.linalg import blas

    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    rng = np.random.default_rng(seed)
    config = {}
    try:
        from threadpoolctl import threadpool_info  # type: ignore[import]
        config = {i.get("internal_api"): (i.get("version"), i.get("num_threads")) for i in threadpool_info()}
    except ImportError:
        config = {"threadpoolctl": "not installed: the BLAS threads are not shown"}
    print(f"bench-cpu-peers: numpy {np.__version__}, scipy {scipy.__version__}, BLAS {config}; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; seed {seed}; {args.warmup} warm-up + "
          f"{args.reps} timed runs each (wall clock around the call)")
    for spec in args.cases:
        label, call, moved, flops = _case(spec, rng, np, blas)
        for _ in range(args.warmup):
            call()
        times = []
        for _ in range(args.reps):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(f"  {label:32s} median {median * 1e3:10.4f} ms  min-max {min(times) * 1e3:.4f}-{max(times) * 1e3:.4f} ms"
              f"  {moved / median / 1e9:7.1f} GB/s  {flops / median / 1e9:8.1f} GFLOP/s"
              + (f"  {median * 1e3 / CG_ITERATIONS:.4f} ms an iteration" if spec.startswith("cg:") else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
