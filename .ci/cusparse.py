# SPDX-License-Identifier: Apache-2.0
# cuSPARSE reference for portacl-bench's sparse table (run by .ci/gpu-run.sh,
# step "sparse"): CSR SpMV y = A x in float through CuPy (cusparseSpMV) and
# CuPy's CG, on the same generated matrices (the power-law one has the same
# distribution, drawn by NumPy). Timed as its users see it: wall clock
# around the call and a device synchronize, median of 20 after 3 warm-ups.
# Effective GB/s counts values, column indices, row pointers, x and y once.
import statistics, sys, time
try:
    import cupy as cp
    import cupyx.scipy.sparse as csp
    import cupyx.scipy.sparse.linalg as cspl
    import numpy as np
    import scipy.sparse as sp
except Exception as e:
    print("no cupy/scipy:", e); sys.exit(0)

def poisson2d(n):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    i = sp.identity(n)
    return (sp.kron(i, t) + sp.kron(t, i)).tocsr().astype(np.float32)

def poisson3d27(n):
    o = sp.diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(n, n))
    a = sp.kron(sp.kron(o, o), o).tocsr().astype(np.float32)
    a.data[:] = -1
    a.setdiag(26)
    return a.tocsr()

def powerlaw(rows, mean, seed=1):
    rng = np.random.default_rng(seed)
    k0 = max(0.5, mean / 2)
    u = np.maximum(rng.random(rows), 1e-12)
    lengths = np.minimum(rows, np.ceil(k0 / np.sqrt(u))).astype(np.int64)
    ptr = np.concatenate([[0], np.cumsum(lengths)])
    cols = rng.integers(0, rows, ptr[-1]).astype(np.int32)
    a = sp.csr_matrix((rng.random(ptr[-1]).astype(np.float32) * 2 - 1, cols, ptr), shape=(rows, rows))
    a.sum_duplicates()
    return a

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
specs = sys.argv[1].split(",") if len(sys.argv) > 1 else ["poisson2d:2048", "poisson3d27:128", "powerlaw:2000000:8"]
for spec in specs:
    f = spec.split(":")
    host = poisson2d(int(f[1])) if f[0] == "poisson2d" else poisson3d27(int(f[1])) if f[0] == "poisson3d27" else powerlaw(int(f[1]), float(f[2]))
    a = csp.csr_matrix(host)
    x = cp.asarray(np.random.default_rng(2).random(host.shape[1]).astype(np.float32) * 2 - 1)
    y = a @ x
    ref = host @ cp.asnumpy(x)
    ok = np.allclose(cp.asnumpy(y), ref, rtol=1e-4, atol=1e-4)
    m, lo, hi = wall(lambda: a @ x)
    nnz, rows = host.nnz, host.shape[0]
    gbs = (nnz * 8 + (rows + 1) * 4 + host.shape[1] * 4 + rows * 4) / (m * 1e6)
    print(f"cusparse spmv {spec} rows={rows} nnz={nnz} wall median {m:.4f} ms ({lo:.4f}-{hi:.4f}) {gbs:.1f} GB/s check {'ok' if ok else 'WRONG'}")
    m, lo, hi = events(lambda: a @ x)
    print(f"cusparse spmv {spec} cuda events median {m:.4f} ms ({lo:.4f}-{hi:.4f}) {gbs * 0 + (nnz * 8 + (rows + 1) * 4 + host.shape[1] * 4 + rows * 4) / (m * 1e6):.1f} GB/s")
    if f[0] == "poisson2d":
        its = 200
        m, lo, hi = wall(lambda: cg_fixed(a, x, its), reps=5, warm=1)
        print(f"cupy cg {spec} rows={rows} {its} iterations median {m:.3f} ms ({lo:.3f}-{hi:.3f}) {1e3 * m / its:.1f} us/iteration")
