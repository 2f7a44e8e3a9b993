# SPDX-License-Identifier: Apache-2.0
"""portacl.spmv, portacl.cg and portacl.bicgstab on scipy.sparse CSR matrices
against SciPy."""
import numpy as np
import pytest
import scipy.sparse as sp

import portacl


def poisson2d(n):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    return (sp.kron(sp.identity(n), t) + sp.kron(t, sp.identity(n))).tocsr()


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-5), (np.float64, 1e-13)])
@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (101, 257), (1000, 999)])
def test_spmv_against_scipy(ctx, rng, dtype, tol, shape):
    a = sp.random(*shape, density=0.05, format="csr", random_state=rng, dtype=np.float64).astype(dtype)
    x = rng.uniform(-1, 1, shape[1]).astype(dtype)
    want = a.astype(np.float64) @ x.astype(np.float64)
    got = portacl.spmv(a, x)
    assert got.dtype == dtype and got.shape == (shape[0],)
    scale = abs(a).astype(np.float64) @ np.abs(x).astype(np.float64) + 1e-30
    assert np.all(np.abs(got - want) <= tol * 10 * scale)


def test_cg_solves_poisson(ctx, rng):
    a = poisson2d(23)
    b = rng.uniform(-1, 1, a.shape[0])
    x, info = portacl.cg(a, b, tol=1e-10)
    assert info["converged"], info["stop_reason"]
    assert np.linalg.norm(b - a @ x) <= 1e-9 * np.linalg.norm(b)


def badly_scaled_poisson(n):
    d = sp.diags(10.0 ** (0.75 * (np.arange(n * n) % 3)))
    return (d @ poisson2d(n) @ d).tocsr()


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-4), (np.float64, 1e-10)])
def test_cg_with_jacobi_on_a_badly_scaled_matrix(ctx, rng, dtype, tol):
    a = badly_scaled_poisson(17).astype(dtype)
    b = rng.uniform(-1, 1, a.shape[0]).astype(dtype)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    iterations = {}
    for jacobi in (False, True):
        x, info = portacl.cg(a, b, tol=tol, max_iterations=5000, jacobi=jacobi, context=ctx)
        assert info["converged"], info["stop_reason"]
        assert x.dtype == dtype and len(info["history"]) == info["iterations"]
        assert np.linalg.norm(b64 - a64 @ x) <= 10 * tol * np.linalg.norm(b64)
        iterations[jacobi] = info["iterations"]
    assert iterations[True] < iterations[False]


@pytest.mark.parametrize("jacobi", [False, True])
def test_bicgstab_solves_a_nonsymmetric_matrix(ctx, rng, jacobi):
    n = 19  # convection-diffusion: the Laplacian plus an upwind first difference
    a = (poisson2d(n) + sp.kron(sp.identity(n), sp.diags([-1.0, 1.0], [-1, 0], shape=(n, n)))).tocsr()
    assert abs(a - a.T).max() > 0
    b = rng.uniform(-1, 1, a.shape[0])
    x, info = portacl.bicgstab(a, b, tol=1e-10, jacobi=jacobi, context=ctx)
    assert info["converged"], info["stop_reason"]
    assert np.linalg.norm(b - a @ x) <= 1e-9 * np.linalg.norm(b)


def test_sparse_refusals(ctx):
    with pytest.raises(TypeError, match="not csc .* pass A.tocsr"):
        portacl.spmv(sp.identity(3, format="csc"), np.ones(3))
    with pytest.raises(TypeError, match="no indptr"):
        portacl.spmv(np.eye(3), np.ones(3))
    with pytest.raises(ValueError, match="x has 2 elements but A has 3 columns"):
        portacl.spmv(sp.identity(3, format="csr"), np.ones(2))
    with pytest.raises(ValueError, match="b has 4 elements but A has 3 rows"):
        portacl.cg(sp.identity(3, format="csr"), np.ones(4))
    with pytest.raises(ValueError, match="bicgstab: b has 2 elements but A has 3 rows"):
        portacl.bicgstab(sp.identity(3, format="csr"), np.ones(2))
    tall = sp.csr_matrix(np.ones((4, 3)))
    for solve in (portacl.cg, portacl.bicgstab):
        with pytest.raises(ValueError, match=f"{solve.__name__}: A is 4 x 3; a square matrix is needed"):
            solve(tall, np.ones(4), context=ctx)


def _row_bound(a, x, dtype):
    """The rounding bound of a product's rows: (entries in the row + 1)
    roundings of the row's sum of |a_ij x_j|."""
    a64 = abs(a).astype(np.float64)
    k = np.diff(a.indptr).max(initial=0) + 1
    return k * np.finfo(dtype).eps * (a64 @ np.abs(x).astype(np.float64))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (101, 257), (1000, 999)])
def test_device_csr_matrix_products_stay_on_the_device(ctx, rng, dtype, shape):
    a = sp.random(*shape, density=0.05, format="csr", random_state=rng, dtype=np.float64).astype(dtype)
    m = portacl.sparse.csr_matrix(a, context=ctx)
    assert m.shape == shape and m.nnz == a.nnz and m.dtype == np.dtype(dtype).name
    assert f"{shape[0]} x {shape[1]}" in repr(m) and m.context is ctx
    back = m.get()  # the device copy is the matrix, exactly
    assert back.shape == a.shape and (back != a).nnz == 0 and back.dtype == dtype
    x = rng.uniform(-1, 1, shape[1]).astype(dtype)
    want = a.astype(np.float64) @ x.astype(np.float64)
    for _ in range(2):  # the second call reuses the upload, the analysis and the plan
        got = portacl.spmv(m, x)
        assert got.dtype == dtype and got.shape == (shape[0],)
        assert np.all(np.abs(got - want) <= _row_bound(a, x, dtype))
    # A Buffer in, a Buffer out: nothing read back until asked.
    bx = portacl.Buffer(ctx, x)
    y, plan = portacl.spmv(m, bx, return_plan=True)
    assert isinstance(y, portacl.Buffer) and len(y) == shape[0] and y.dtype == m.dtype and plan.kernel
    assert np.all(np.abs(y.to_numpy() - want) <= _row_bound(a, x, dtype))
    assert np.all(np.abs((m @ x) - want) <= _row_bound(a, x, dtype))
    # out=: the product written into a Buffer given, poisoned first, and returned.
    out = portacl.Buffer(ctx, np.full(shape[0], np.nan, dtype))
    y, plan = portacl.spmv(m, bx, out=out, return_plan=True)
    assert y is out and plan.kernel
    assert np.all(np.abs(out.to_numpy() - want) <= _row_bound(a, x, dtype))


def test_device_csr_matrix_chains_products_and_solves(ctx, rng):
    a = poisson2d(31)
    m = portacl.sparse.csr_matrix(a, context=ctx)
    x = rng.uniform(-1, 1, a.shape[0])
    # A (A x) on the device, against the double reference of the same chain.
    twice = (m @ (m @ portacl.Buffer(ctx, x))).to_numpy()
    want = a @ (a @ x)
    bound = 2 * 6 * np.finfo(np.float64).eps * (abs(a) @ (abs(a) @ np.abs(x)))
    assert np.all(np.abs(twice - want) <= bound)
    b = rng.uniform(-1, 1, a.shape[0])
    for solve in (portacl.cg, portacl.bicgstab):
        x_dev, info = solve(m, b, tol=1e-10)
        x_host, info_host = solve(a, b, tol=1e-10, context=ctx)
        assert info["converged"], info["stop_reason"]
        assert np.linalg.norm(b - a @ x_dev) <= 1e-9 * np.linalg.norm(b)
        assert info["iterations"] == info_host["iterations"]  # the same solve, the matrix uploaded once
    # csr_matrix takes any scipy format (converted to CSR once).
    assert (portacl.sparse.csr_matrix(a.tocsc(), context=ctx).get() != a).nnz == 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_solvers_keep_buffers_on_the_device(ctx, rng, dtype):
    a = poisson2d(19).astype(dtype)
    m = portacl.sparse.csr_matrix(a, context=ctx)
    b = rng.uniform(-1, 1, a.shape[0]).astype(dtype)
    x0 = rng.uniform(-1, 1, a.shape[0]).astype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-10
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    for solve in (portacl.cg, portacl.bicgstab):
        bx0 = portacl.Buffer(ctx, x0)
        x, info = solve(m, portacl.Buffer(ctx, b), tol=tol, x0=bx0)
        assert isinstance(x, portacl.Buffer) and len(x) == a.shape[0] and x.dtype == m.dtype
        assert info["converged"], info["stop_reason"]
        xh = x.to_numpy().astype(np.float64)
        # The device met tol on b - A x computed in dtype: (entries in a row
        # + 1) roundings of |A| |x| + |b| apart from the exact residual.
        slack = 6 * np.finfo(dtype).eps / 2 * np.linalg.norm(abs(a64) @ np.abs(xh) + np.abs(b64))
        assert np.linalg.norm(b64 - a64 @ xh) <= tol * np.linalg.norm(b64) + slack
        assert np.array_equal(bx0.to_numpy(), x0)  # x0 copied, never overwritten
        # The same solve from arrays: the same iterations (the same start, the same arithmetic).
        xa, info_a = solve(m, b, tol=tol, x0=x0)
        assert isinstance(xa, np.ndarray) and info_a["iterations"] == info["iterations"]
    # SciPy's signature: a Buffer b gives a Buffer x, stopped by ||b|| measured on the device.
    x, code = portacl.sparse.cg(m, portacl.Buffer(ctx, b), rtol=tol)
    assert code == 0 and isinstance(x, portacl.Buffer)
    xh = x.to_numpy().astype(np.float64)
    slack = 6 * np.finfo(dtype).eps / 2 * np.linalg.norm(abs(a64) @ np.abs(xh) + np.abs(b64))
    assert np.linalg.norm(b64 - a64 @ xh) <= tol * np.linalg.norm(b64) + slack


def test_device_csr_matrix_refusals(ctx, rng):
    m = portacl.sparse.csr_matrix(sp.identity(3, format="csr"), context=ctx)
    with pytest.raises(ValueError, match="spmv: x has 2 elements but A has 3 columns"):
        portacl.spmv(m, np.ones(2))
    with pytest.raises(ValueError, match="spmv: x has 4 elements but A has 3 columns"):
        portacl.spmv(m, portacl.Buffer(ctx, np.ones(4)))
    with pytest.raises(TypeError, match="spmv: x is float32 but A is float64"):
        portacl.spmv(m, portacl.Buffer(ctx, np.ones(3, np.float32)))
    with pytest.raises(TypeError, match="spmv: x: dtype float32 where float64 is needed"):
        portacl.spmv(m, np.ones(3, np.float32))
    other = portacl.Context()
    with pytest.raises(ValueError, match="spmv: x and A belong to different contexts"):
        portacl.spmv(m, portacl.Buffer(other, np.ones(3)))
    with pytest.raises(ValueError, match="spmv: the CsrMatrix belongs to another context"):
        portacl.spmv(m, np.ones(3), context=other)
    bx = portacl.Buffer(ctx, np.ones(3))
    with pytest.raises(ValueError, match="spmv: out has 2 elements but A has 3 rows"):
        portacl.spmv(m, bx, out=portacl.Buffer(ctx, np.ones(2)))
    with pytest.raises(TypeError, match="spmv: out is float32 but A is float64"):
        portacl.spmv(m, bx, out=portacl.Buffer(ctx, np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="spmv: out is x; the product cannot overwrite its input"):
        portacl.spmv(m, bx, out=bx)
    with pytest.raises(ValueError, match="spmv: out and A belong to different contexts"):
        portacl.spmv(m, bx, out=portacl.Buffer(other, np.ones(3)))
    with pytest.raises(TypeError, match="spmv: out must be a portacl.Buffer"):
        portacl.spmv(m, bx, out=np.ones(3))
    with pytest.raises(TypeError, match="spmv: out is taken only when x is a Buffer"):
        portacl.spmv(m, np.ones(3), out=portacl.Buffer(ctx, np.ones(3)))
    with pytest.raises(TypeError, match="spmv: out is taken only for a CsrMatrix times a Buffer"):
        portacl.spmv(sp.identity(3, format="csr"), np.ones(3), out=bx)
    for solve in (portacl.cg, portacl.bicgstab):
        name = solve.__name__
        with pytest.raises(ValueError, match=f"{name}: b has 4 elements but A has 3 rows"):
            solve(m, portacl.Buffer(ctx, np.ones(4)))
        with pytest.raises(TypeError, match=f"{name}: b is float32 but A is float64"):
            solve(m, portacl.Buffer(ctx, np.ones(3, np.float32)))
        with pytest.raises(ValueError, match=f"{name}: b and A belong to different contexts"):
            solve(m, portacl.Buffer(other, np.ones(3)))
        with pytest.raises(ValueError, match=f"{name}: x0 has 2 elements but A has 3 columns"):
            solve(m, bx, x0=portacl.Buffer(ctx, np.ones(2)))
    for solve in (portacl.cg, portacl.bicgstab):
        for tol in (-1.0, float("nan")):
            with pytest.raises(ValueError, match=f"{solve.__name__}: the tolerance must be a finite number >= 0"):
                solve(m, np.ones(3), tol=tol)
    tall = portacl.sparse.csr_matrix(sp.csr_matrix(np.ones((4, 3))), context=ctx)
    for solve in (portacl.cg, portacl.bicgstab):
        with pytest.raises(ValueError, match=f"{solve.__name__}: A is 4 x 3; a square matrix is needed"):
            solve(tall, np.ones(4))
    with pytest.raises(TypeError, match="no indptr"):
        portacl.sparse.csr_matrix(np.eye(3), context=ctx)


def _nonsymmetric(n):
    """Convection-diffusion on n^2 cells: the Laplacian plus an upwind first difference."""
    t = sp.diags([-1.4, 2.4, -1], [-1, 0, 1], shape=(n, n))
    return (sp.kron(sp.identity(n), t) + sp.kron(t, sp.identity(n))).tocsr()


@pytest.mark.parametrize("on_device", [False, True])
def test_scipy_signatures_solve_as_scipy_does(ctx, rng, on_device):
    import scipy.sparse.linalg as spla

    for method, a in (("cg", poisson2d(29)), ("bicgstab", _nonsymmetric(23))):
        ours, theirs = getattr(portacl.sparse, method), getattr(spla, method)
        A = portacl.sparse.csr_matrix(a, context=ctx) if on_device else a
        b = rng.uniform(-1, 1, a.shape[0])
        b_norm = np.linalg.norm(b)
        cond = np.linalg.cond(a.toarray())
        for M in (None, "jacobi"):
            x, info = ours(A, b, rtol=1e-8, M=M)
            try:
                x_s, info_s = theirs(a, b, rtol=1e-8)
            except TypeError:  # SciPy before 1.12 (Debian 12's 1.10) calls rtol tol
                x_s, info_s = theirs(a, b, tol=1e-8, atol=0.0)
            assert info == 0 and info_s == 0, method
            assert np.linalg.norm(b - a @ x) <= 1e-8 * b_norm * (1 + 1e-9), method
            # Both within rtol of b: they differ by at most 2 cond(A) rtol.
            assert np.linalg.norm(x - x_s) <= 2 * cond * 1e-8 * (1 + 1e-6) * np.linalg.norm(x_s), method
        # atol: stops as soon as ||b - A x|| <= atol, here at x0 = 0 at once.
        x, info = ours(A, b, atol=2 * b_norm)
        assert info == 0 and not x.any()
        # x0: from the solution itself, nothing to do; from near it, fewer
        # iterations than from 0.
        x_star, _ = ours(A, b, rtol=1e-12)
        x, info = ours(A, b, x0=x_star, rtol=1e-8)
        assert info == 0 and np.array_equal(x, x_star)
        near = x_star + 1e-6 * rng.uniform(-1, 1, len(b))
        _, from_zero = getattr(portacl, method)(A, b, tol=1e-10, context=ctx)
        _, from_near = getattr(portacl, method)(A, b, tol=1e-10, context=ctx, x0=near)
        assert from_zero["converged"] and from_near["converged"]
        assert from_near["iterations"] < from_zero["iterations"]
        # Not converged within maxiter: info is the iterations done.
        x, info = ours(A, b, rtol=1e-14, maxiter=2)
        assert info == 2


def measured_residual_bound(a, b, x, rtol):
    """The most ||b - A x|| (exact) can be when the solver measured
    ||b - A x|| < rtol ||b|| in the arrays' precision: each residual entry
    carries up to k + 1 roundings of |b_i| + (|A| |x|)_i (k the most
    entries of a row), each norm up to n of its value, the ratio one."""
    u = np.finfo(a.dtype).eps / 2
    gamma = lambda m: m * u / (1 - m * u)
    k = int(np.diff(a.indptr).max())
    magnitudes = np.abs(b.astype(np.float64)) + abs(a.astype(np.float64)) @ np.abs(x.astype(np.float64))
    return rtol * np.linalg.norm(b.astype(np.float64)) * (1 + gamma(len(b) + 1)) ** 2 + \
        gamma(k + 1) * np.linalg.norm(magnitudes)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("on_device", [False, True])
def test_scipy_preconditioner_and_callback_as_scipy(ctx, rng, dtype, on_device):
    """M as a callable, a LinearOperator or a matrix, and callback, as
    scipy.sparse.linalg takes them: the same solution as SciPy's with the
    same M, a callback per iteration with that iterate, and a badly scaled
    matrix solved in fewer iterations with Jacobi than without."""
    import scipy.sparse.linalg as spla

    n = 23
    scale = sp.diags(10.0 ** (0.75 * (np.arange(n * n) % 3)))
    for method, base in (("cg", poisson2d(n)), ("bicgstab", _nonsymmetric(n))):
        ours, theirs = getattr(portacl.sparse, method), getattr(spla, method)
        a = (scale @ base @ scale).tocsr().astype(dtype)
        A = portacl.sparse.csr_matrix(a, context=ctx) if on_device else a
        b = rng.uniform(-1, 1, a.shape[0]).astype(dtype)
        inv_diag = 1.0 / a.diagonal().astype(np.float64)
        rtol = 1e-4 if dtype == np.float32 else 1e-9
        cond = np.linalg.cond(a.toarray().astype(np.float64))
        iterations = {}
        for kind, M in (("none", None), ("callable", lambda r: r * inv_diag),
                        ("operator", spla.LinearOperator(a.shape, matvec=lambda r: r * inv_diag)),
                        ("matrix", sp.diags(inv_diag))):
            seen = []
            x, info = ours(A, b, rtol=rtol, M=M, maxiter=5000, callback=lambda xk: seen.append(xk.copy()))
            assert info == 0, (method, kind)
            assert x.dtype == dtype
            r = b.astype(np.float64) - a.astype(np.float64) @ x.astype(np.float64)
            assert np.linalg.norm(r) <= measured_residual_bound(a, b, x, rtol), (method, kind)
            iterations[kind] = len(seen)
            assert np.array_equal(seen[-1], x)  # the last call sees the x returned
            assert all(s.dtype == dtype and s.shape == x.shape for s in seen)
            if dtype == np.float64:
                # SciPy takes a LinearOperator where portacl also takes the bare function.
                M_s = spla.LinearOperator(a.shape, matvec=M) if kind == "callable" else M
                try:
                    x_s, info_s = theirs(a, b, rtol=rtol, M=M_s, maxiter=5000)
                except TypeError:  # SciPy before 1.12 calls rtol tol
                    x_s, info_s = theirs(a, b, tol=rtol, atol=0.0, M=M_s, maxiter=5000)
                assert info_s == 0
                # Both within rtol of b: they differ by at most 2 cond(A) rtol.
                assert np.linalg.norm(x - x_s) <= 2 * cond * rtol * (1 + 1e-6) * np.linalg.norm(x_s), (method, kind)
        # The scaling is what Jacobi undoes; each form of M is the same M.
        assert iterations["callable"] < iterations["none"], (method, iterations)
        assert iterations["callable"] == iterations["operator"] == iterations["matrix"], (method, iterations)


def test_scipy_signature_refusals(ctx):
    a = poisson2d(4)
    b = np.ones(16)
    for solve in (portacl.sparse.cg, portacl.sparse.bicgstab):
        name = solve.__name__
        with pytest.raises(TypeError, match=f"{name}: callback must be callable, not int"):
            solve(a, b, callback=3)
        with pytest.raises(TypeError, match=f"{name}: M must be None, 'jacobi', a callable"):
            solve(a, b, M=3)
        with pytest.raises(ValueError, match=f"{name}: M as a string must be 'jacobi', not 'ilu'"):
            solve(a, b, M="ilu")
        with pytest.raises(ValueError, match=f"{name}: M gave 15 elements for an r of 16"):
            solve(a, b, M=lambda r: r[1:])
        with pytest.raises(ZeroDivisionError):  # the caller's own error comes back as it was raised
            solve(a, b, M=lambda r: 1 / 0)
        with pytest.raises(RuntimeError, match="stop here"):
            solve(a, b, callback=lambda xk: (_ for _ in ()).throw(RuntimeError("stop here")))
        with pytest.raises(ValueError, match=f"{name}: rtol and atol must be finite and non-negative"):
            solve(a, b, rtol=-1)
        with pytest.raises(ValueError, match=f"{name}: maxiter must be at least 1"):
            solve(a, b, maxiter=0)
        with pytest.raises(ValueError, match=f"{name}: x0 has 3 elements but A has 16 columns"):
            solve(a, b, x0=np.ones(3))
    # b = 0: x = 0 at once, as SciPy.
    x, info = portacl.sparse.cg(a, np.zeros(16))
    assert info == 0 and not x.any()
