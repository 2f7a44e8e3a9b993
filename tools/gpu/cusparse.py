# SPDX-License-Identifier: Apache-2.0
# cuSPARSE through CuPy, the second figure beside cuSPARSE called directly
# (tools/gpu/cusparse_direct.cu, the baseline): CSR SpMV y = A x in float by
# CuPy's `A @ x` (which queries the buffer size, allocates and builds
# descriptors on every call) and CuPy's CG, a Python-driven solve (the CUDA
# toolkit has no C-level CG), on the very matrices portacl-bench measured
# (its --save-matrices files, SPEC.bin). Timed as its users see it: wall
# clock around the call and a device synchronize, median of 20 after 3
# warm-ups; CUDA events as the second method. Effective GB/s counts values,
# column indices, row pointers, x and y once.
# usage: python3 tools/gpu/cusparse.py FILE.bin...
import statistics, sys, time
try:
    import cupy as cp
    import cupyx.scipy.sparse as csp
    import cupyx.scipy.sparse.linalg as cspl
    import numpy as np
    import scipy.sparse as sp
except Exception as e:
    print("no cupy/scipy:", e); sys.exit(0)

def read_bin(path):
    with open(path, "rb") as f:
        rows, cols, nnz = (int(v) for v in np.fromfile(f, np.int64, 3))
        ptr = np.fromfile(f, np.int32, rows + 1)
        col = np.fromfile(f, np.int32, nnz)
        val = np.fromfile(f, np.float32, nnz)
    return sp.csr_matrix((val, col, ptr), shape=(rows, cols))

def events(f, reps=20, warm=3):
    # The second method: CUDA events around the call on the stream (device
    # time of what the call enqueues, without the host's share).
    for _ in range(warm): f()
    ts = []
    for _ in range(reps):
        s = cp.cuda.Event(); e = cp.cuda.Event()
        s.record(); f(); e.record(); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e))
    return statistics.median(ts), min(ts), max(ts)

def cg_fixed(a, b, its):
    try:
        return cspl.cg(a, b, rtol=0, atol=0, maxiter=its)
    except TypeError:
        return cspl.cg(a, b, tol=0, atol=0, maxiter=its)

def wall(f, reps=20, warm=3):
    for _ in range(warm): f()
    cp.cuda.Device().synchronize()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); f(); cp.cuda.Device().synchronize(); ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts), min(ts), max(ts)

print("cupy", cp.__version__, "cuda", cp.cuda.runtime.runtimeGetVersion(), cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
for path in sys.argv[1:]:
    spec = path.rsplit("/", 1)[-1][:-len(".bin")]
    host = read_bin(path)
    a = csp.csr_matrix(host)
    x = cp.asarray(np.random.default_rng(2).random(host.shape[1]).astype(np.float32) * 2 - 1)
    y = a @ x
    ref = host.astype(np.float64) @ cp.asnumpy(x).astype(np.float64)
    # Each row within a few float roundings of its terms' magnitudes (a row
    # of 10^5 terms is not within a fixed 1e-4).
    bound = 1e-5 * (abs(host) @ np.abs(cp.asnumpy(x)).astype(np.float64)) + 1e-30
    ok = bool(np.all(np.abs(cp.asnumpy(y).astype(np.float64) - ref) <= bound))
    m, lo, hi = wall(lambda: a @ x)
    nnz, rows = host.nnz, host.shape[0]
    gbs = (nnz * 8 + (rows + 1) * 4 + host.shape[1] * 4 + rows * 4) / (m * 1e6)
    print(f"cupy-cusparse spmv {spec} rows={rows} nnz={nnz} wall median {m:.4f} ms ({lo:.4f}-{hi:.4f}) {gbs:.1f} GB/s check {'ok' if ok else 'WRONG'}")
    m, lo, hi = events(lambda: a @ x)
    print(f"cupy-cusparse spmv {spec} cuda events median {m:.4f} ms ({lo:.4f}-{hi:.4f}) {gbs * 0 + (nnz * 8 + (rows + 1) * 4 + host.shape[1] * 4 + rows * 4) / (m * 1e6):.1f} GB/s")
    if spec.split("_")[0] in ("poisson2d", "poisson3d27", "permuted2d", "block3d"):
        its = 200
        m, lo, hi = wall(lambda: cg_fixed(a, x, its), reps=5, warm=1)
        print(f"cupy cg {spec} rows={rows} {its} iterations median {m:.3f} ms ({lo:.3f}-{hi:.3f}) {1e3 * m / its:.1f} us/iteration")
