# SPDX-License-Identifier: Apache-2.0
"""pyopencl interop, where pyopencl is installed (Debian's python3-pyopencl):
portacl on pyopencl's own context, queue and buffers, and pyopencl on
portacl's, the same memory seen by both without copies."""
import numpy as np
import pytest

import portacl

cl = pytest.importorskip("pyopencl")
cl_array = pytest.importorskip("pyopencl.array")


def pyopencl_device_of(ctx):
    """The pyopencl device that is portacl's context's device (same name and platform)."""
    want = ctx.device
    for platform in cl.get_platforms():
        for device in platform.get_devices():
            if device.name.strip() == want["name"].strip() and platform.name == want["platform"]["name"]:
                return device
    pytest.skip(f"pyopencl does not list portacl's device {want['name']}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_portacl_on_pyopencls_context_queue_and_buffers(ctx, rng, dtype):
    device = pyopencl_device_of(ctx)
    cl_ctx = cl.Context([device])
    queue = cl.CommandQueue(cl_ctx)
    pctx = portacl.context_from_pyopencl(queue)
    x = rng.uniform(-1, 1, 10007).astype(dtype)
    y = rng.uniform(-1, 1, 10007).astype(dtype)
    dx, dy = cl_array.to_device(queue, x), cl_array.to_device(queue, y)
    bx, by = portacl.buffer_from_pyopencl(pctx, dx), portacl.buffer_from_pyopencl(pctx, dy)
    assert len(bx) == x.size and bx.dtype == np.dtype(dtype).name
    eps = np.finfo(dtype).eps
    assert abs(portacl.dot(bx, by) - x.astype(np.float64) @ y) <= 4 * eps * x.size * np.abs(x) @ np.abs(y)
    # portacl writes pyopencl's memory in the queue's order; pyopencl reads it.
    portacl.axpy(2.0, bx, by)
    np.testing.assert_allclose(dy.get(queue), 2 * x.astype(np.float64) + y, rtol=0, atol=4 * eps)
    # A pyopencl.Buffer needs its dtype; the whole buffer is taken.
    raw = cl.Buffer(cl_ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=x)
    assert len(portacl.buffer_from_pyopencl(pctx, raw, dtype)) == x.size
    with pytest.raises(TypeError, match="needs dtype="):
        portacl.buffer_from_pyopencl(pctx, raw)


def test_pyopencl_on_portacls_context_and_buffers(ctx, rng):
    cl_ctx, queue = portacl.to_pyopencl(ctx)
    x = rng.uniform(-1, 1, 4099).astype(np.float32)
    b = portacl.Buffer(ctx, x)
    memory = portacl.to_pyopencl(b)
    assert memory.size >= x.nbytes
    back = np.empty_like(x)
    cl.enqueue_copy(queue, back, memory)
    np.testing.assert_array_equal(back, x)
    # pyopencl's own kernels on portacl's memory, then portacl reads the result.
    doubled = cl_array.Array(queue, x.shape, x.dtype, data=memory)
    doubled *= 2
    np.testing.assert_array_equal(b.to_numpy(), 2 * x)
    assert abs(portacl.sum(b) - 2 * x.astype(np.float64).sum()) <= 1e-4 * np.abs(x).sum()


def test_interop_refuses_what_is_not_pyopencl(ctx):
    with pytest.raises(TypeError, match="a pyopencl object with int_ptr is needed"):
        portacl.context_from_pyopencl(object())
    with pytest.raises(TypeError, match="to_pyopencl: a portacl Context or Buffer is needed, not ndarray"):
        portacl.to_pyopencl(np.zeros(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pyopencl_arrays_are_taken_wherever_a_buffer_is(ctx, rng, dtype):
    """Reductions, dot, axpy, spmv and the solvers take pyopencl arrays as
    they are (no copy, on their own memory and queue), and give pyopencl
    arrays back where they would give a Buffer."""
    import scipy.sparse as sp
    _, queue = portacl.to_pyopencl(ctx)
    n = 4099
    x = rng.uniform(-1, 1, n).astype(dtype)
    y = rng.uniform(-1, 1, n).astype(dtype)
    dx, dy = cl_array.to_device(queue, x), cl_array.to_device(queue, y)
    u = np.finfo(dtype).eps / 2
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    assert abs(portacl.sum(dx) - x64.sum()) <= n * u * np.abs(x64).sum()
    assert abs(portacl.dot(dx, dy) - x64 @ y64) <= 2 * n * u * np.abs(x64) @ np.abs(y64)
    assert portacl.max(dx) == x.max() and portacl.min(dx) == x.min()
    # axpy updates a pyopencl y in place and returns it.
    assert portacl.axpy(2.0, dx, dy) is dy
    np.testing.assert_array_less(np.abs(dy.get() - (2 * x64 + y64)), 2 * u * (2 * np.abs(x64) + np.abs(y64)) + 1e-300)
    # spmv and cg on a CsrMatrix of the same context: pyopencl arrays back.
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr").astype(dtype) + sp.identity(n, dtype)
    m = portacl.sparse.csr_matrix(t, context=ctx)
    p = portacl.spmv(m, dx)
    assert isinstance(p, cl_array.Array) and p.dtype == dtype and p.shape == (n,)
    k = np.diff(t.indptr).max() + 1
    np.testing.assert_array_less(np.abs(p.get() - t.astype(np.float64) @ x64),
                                 k * u * (abs(t).astype(np.float64) @ np.abs(x64)) + 1e-300)
    out = cl_array.empty(queue, n, dtype)
    assert portacl.spmv(m, dx, out=out) is out
    np.testing.assert_array_equal(out.get(), p.get())
    with pytest.raises(ValueError, match="spmv: out is x"):
        portacl.spmv(m, dx, out=dx)
    tol = 1e-5 if dtype == np.float32 else 1e-10
    sol, info = portacl.cg(m, dx, tol=tol)
    assert isinstance(sol, cl_array.Array) and info["converged"], info["stop_reason"]
    s64, t64 = sol.get().astype(np.float64), t.astype(np.float64)
    # The device met tol on b - A x in dtype: (k + 1) roundings of |A| |x| + |b| from the exact residual.
    slack = (k + 1) * u * np.linalg.norm(abs(t64) @ np.abs(s64) + np.abs(x64))
    assert np.linalg.norm(x64 - t64 @ s64) <= tol * np.linalg.norm(x64) + slack


def test_pyopencl_arrays_are_checked_by_name(ctx, rng):
    _, queue = portacl.to_pyopencl(ctx)
    with pytest.raises(TypeError, match="sum: dtype int16 is not float32, float64, int32, int64, uint32 or uint64"):
        portacl.sum(cl_array.to_device(queue, np.arange(5, dtype=np.int16)))
    with pytest.raises(TypeError, match="nrm2: dtype int32 is not float32 or float64"):
        portacl.nrm2(cl_array.to_device(queue, np.arange(5, dtype=np.int32)))
    with pytest.raises(ValueError, match="dot: a 1-D array is needed, not 2-D"):
        portacl.dot(cl_array.to_device(queue, np.ones((2, 2))), cl_array.to_device(queue, np.ones((2, 2))))
    with pytest.raises(ValueError, match="sum: a pyopencl array contiguous from the start of its memory"):
        portacl.sum(cl_array.to_device(queue, np.ones(8))[2:])
    # An array of another OpenCL context than the call's.
    device = pyopencl_device_of(ctx)
    other = cl_array.to_device(cl.CommandQueue(cl.Context([device])), np.ones(4))
    with pytest.raises(ValueError, match="sum: the pyopencl array belongs to another OpenCL context"):
        portacl.sum(other, context=ctx)
    # Without a context, the array's own queue gives one: the same memory, read as it is.
    assert portacl.sum(other) == 4.0


def test_asarray_takes_a_pyopencl_array_on_its_own_memory(ctx, rng):
    _, queue = portacl.to_pyopencl(ctx)
    x = rng.uniform(-1, 1, 1031)
    a = cl_array.to_device(queue, x)
    b = portacl.asarray(a)
    assert isinstance(b, portacl.Buffer) and len(b) == x.size
    np.testing.assert_array_equal(b.to_numpy(), x)
    a *= 2  # pyopencl writes; the Buffer sees it: the same memory
    queue.finish()
    np.testing.assert_array_equal(b.to_numpy(), 2 * x)
