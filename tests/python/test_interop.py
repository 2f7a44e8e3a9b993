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
