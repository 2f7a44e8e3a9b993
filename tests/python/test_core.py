# SPDX-License-Identifier: Apache-2.0
"""The portacl module against NumPy on random data (the seed is printed; set
PORTACL_TEST_SEED to repeat it), awkward sizes, wrong dtypes and shapes."""
import ctypes

import numpy as np
import pytest

import portacl

SIZES = [1, 2, 7, 31, 1000003 % 4099, 65537]


def test_query_lists_the_devices():
    devices = portacl.query()
    assert devices, "no OpenCL device"
    for d in devices:
        assert d["name"] and d["type"] in ("cpu", "gpu", "accelerator", "custom", "unknown")
        assert d["compute_units"] >= 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_buffers_round_trip(ctx, rng, dtype, n):
    a = rng.uniform(-1, 1, n).astype(dtype)
    b = portacl.Buffer(ctx, a)
    assert len(b) == n and b.dtype == np.dtype(dtype).name
    np.testing.assert_array_equal(b.to_numpy(), a)
    np.testing.assert_array_equal(np.asarray(b), a)  # the NumPy array protocol
    np.testing.assert_array_equal(np.asarray(b, dtype=np.float64), a.astype(np.float64))
    # NumPy 2 passes copy=: a device buffer cannot be had without a copy.
    np.testing.assert_array_equal(b.__array__(copy=True), a)
    with pytest.raises(ValueError, match="copy=False"):
        b.__array__(copy=False)


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-5), (np.float64, 1e-12)])
@pytest.mark.parametrize("n", SIZES)
def test_dot_sum_axpy_against_numpy(ctx, rng, dtype, tol, n):
    x = rng.uniform(-1, 1, n).astype(dtype)
    y = rng.uniform(-1, 1, n).astype(dtype)
    bx, by = portacl.Buffer(ctx, x), portacl.Buffer(ctx, y)
    scale = np.abs(x).sum() + 1
    assert abs(portacl.dot(bx, by) - np.dot(x.astype(np.float64), y)) <= tol * scale * 10
    assert abs(portacl.sum(bx) - x.astype(np.float64).sum()) <= tol * scale * 10
    portacl.axpy(2.5, bx, by)
    np.testing.assert_allclose(by.to_numpy(), 2.5 * x.astype(np.float64) + y, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("n", [0, 1, 7, 4099, 65537])
def test_integer_sums_are_exact_as_numpy_sums_them(ctx, rng, n):
    """numpy.sum adds integers in 64 bits: int32 elements near the top of
    their range, whose sum leaves 32 bits at once, come back exact, as do
    int64, the narrow types, bool and uint32."""
    top = np.iinfo(np.int32).max
    cases = [rng.integers(top - 1000, top, n, endpoint=True, dtype=np.int32),
             rng.integers(-2**45, 2**45, n, dtype=np.int64),
             rng.integers(-128, 127, n, dtype=np.int8), rng.integers(0, 2**32 - 1, n, dtype=np.uint32),
             rng.integers(0, 2, n).astype(bool)]
    for x in cases:
        got, plan = portacl.sum(x, context=ctx, return_plan=True)
        assert type(got) is int
        assert got == int(np.sum(x, dtype=np.int64)), x.dtype
        assert plan.kernel


def test_buffer_reductions_return_their_plan_only_when_asked(ctx, rng):
    """The calls on Buffers make the plan's object only for return_plan=True;
    the value is the same either way."""
    h = rng.uniform(-1, 1, 1031)
    x, y = portacl.Buffer(ctx, h), portacl.Buffer(ctx, h[::-1].copy())
    for call in (lambda **k: portacl.sum(x, **k), lambda **k: portacl.nrm2(x, **k), lambda **k: portacl.min(x, **k),
                 lambda **k: portacl.max(x, **k), lambda **k: portacl.dot(x, y, **k)):
        value = call()
        assert type(value) is float
        again, plan = call(return_plan=True)
        assert again == value and isinstance(plan, portacl.Plan) and plan.kernel


def test_non_contiguous_arrays_are_copied(ctx, rng):
    a = rng.uniform(-1, 1, 101)
    np.testing.assert_array_equal(portacl.Buffer(ctx, a[::3]).to_numpy(), a[::3])


def test_wrong_input_is_refused_by_name(ctx):
    with pytest.raises(TypeError, match="int8 is not float32, float64, int32, int64, uint32 or uint64"):
        portacl.Buffer(ctx, np.arange(5, dtype=np.int8))
    with pytest.raises(ValueError, match="1-D array is needed, not 2-D"):
        portacl.Buffer(ctx, np.zeros((2, 2)))
    x32 = portacl.Buffer(ctx, np.ones(4, np.float32))
    x64 = portacl.Buffer(ctx, np.ones(4))
    with pytest.raises(TypeError, match="x is float32 but y is float64"):
        portacl.dot(x32, x64)
    with pytest.raises(ValueError, match="dot: x has 4 elements but y has 5"):
        portacl.dot(x64, portacl.Buffer(ctx, np.ones(5)))
    # Arrays are refused by the call's name before anything is uploaded.
    with pytest.raises(ValueError, match="dot: x has 4 elements but y has 5"):
        portacl.dot(np.ones(4), np.ones(5), context=ctx)
    with pytest.raises(ValueError, match="axpy: x has 3 elements but y has 2"):
        portacl.axpy(1.0, np.ones(3), np.ones(2), context=ctx)
    with pytest.raises(ValueError, match="dot: x has 4 elements but y has 5"):
        portacl._portacl.dot_async(ctx, x64, portacl.Buffer(ctx, np.ones(5)))
    with pytest.raises(TypeError, match="sum: dtype complex64 is not float32, float64, int32, int64, uint32 or uint64"):
        portacl.sum(np.ones(5, np.complex64), context=ctx)
    with pytest.raises(TypeError, match="sum: dtype uint64 is refused"):
        portacl.sum(np.ones(5, np.uint64), context=ctx)
    with pytest.raises(ValueError, match="sum: a 1-D array is needed, not 2-D"):
        portacl.sum(np.ones((2, 2), np.int32), context=ctx)
    with pytest.raises(ValueError, match="nrm2: a 1-D array is needed, not 2-D"):
        portacl.nrm2(np.zeros((2, 2)), context=ctx)
    with pytest.raises(portacl.Error, match="no OpenCL device matches"):
        portacl.Context("no-such-device-xyz")


def test_numpy_arrays_in_numpy_arrays_out(rng):
    x = rng.uniform(-1, 1, 513)
    y = rng.uniform(-1, 1, 513)
    assert abs(portacl.dot(x, y) - np.dot(x, y)) <= 1e-12 * np.abs(x).sum()
    assert abs(portacl.sum(x) - x.sum()) <= 1e-12 * np.abs(x).sum()
    before = y.copy()
    out = portacl.axpy(-0.5, x, y)
    np.testing.assert_array_equal(y, before)  # an array operand is not changed
    np.testing.assert_allclose(out, -0.5 * x + y, rtol=1e-14, atol=1e-14)
    assert portacl.default_context() is portacl.default_context()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_map_reads_and_writes_the_buffer_in_place(ctx, rng, dtype):
    x = rng.uniform(-1, 1, 1031).astype(dtype)
    b = portacl.Buffer(ctx, x)
    assert b.strategy in ("map", "pinned-staging", "copy")  # map: zero copy (CPU devices)
    view = b.map()
    np.testing.assert_array_equal(view, x)
    view[:] = 2 * x  # written through the mapping
    # While the array lives the buffer is refused, by name.
    with pytest.raises(portacl.Error, match="sum: the buffer is mapped"):
        portacl.sum(b)
    del view
    np.testing.assert_array_equal(b.to_numpy(), 2 * x)
    assert abs(portacl.sum(b) - 2 * x.astype(np.float64).sum()) <= 1e-4 * np.abs(x).sum()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dlpack_hands_host_memory_over_without_a_copy(ctx, rng, dtype):
    x = rng.uniform(-1, 1, 1031).astype(dtype)
    b = portacl.Buffer(ctx, x)
    if b.strategy != "map":  # device memory: the protocol's refusal, by name
        with pytest.raises(BufferError, match="lives in device memory"):
            b.__dlpack_device__()
        with pytest.raises(BufferError, match="lives in device memory"):
            np.from_dlpack(b)
        return
    assert b.__dlpack_device__() == (1, 0)
    view = np.from_dlpack(b)
    assert view.dtype == dtype and view.shape == x.shape
    np.testing.assert_array_equal(view, x)
    # Written in place, through the buffer's own memory (NumPy before 2.1
    # marks DLPack imports read-only, so the bytes go in by address).
    source = -3 * x
    ctypes.memmove(view.ctypes.data, source.ctypes.data, x.nbytes)
    with pytest.raises(portacl.Error, match="sum: the buffer is mapped"):
        portacl.sum(b)
    with pytest.raises(BufferError, match="mapped already"):
        np.from_dlpack(b)
    with pytest.raises(BufferError, match="stream must be None"):
        b.__dlpack__(stream=1)
    del view
    np.testing.assert_array_equal(b.to_numpy(), -3 * x)
    # A capsule never consumed lets the buffer go too.
    capsule = b.__dlpack__()
    del capsule
    # n roundings of the sum and one of each -3 x_i, u = eps / 2 each, of magnitude 3 sum |x|.
    bound = len(x) * np.finfo(dtype).eps * 3 * np.abs(x).astype(np.float64).sum()
    assert abs(portacl.sum(b) + 3 * x.astype(np.float64).sum()) <= bound


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint64])
def test_dlpack_hands_an_array_over_with_its_shape(ctx, rng, dtype):
    x = (rng.uniform(-100, 100, (3, 5, 7)) if dtype == np.float32 else rng.integers(0, 1000, (3, 5, 7))).astype(dtype)
    a = portacl.asarray(x, context=ctx)
    if a.ravel().strategy != "map":  # device memory: refused by name
        with pytest.raises(BufferError, match="lives in device memory"):
            np.from_dlpack(a)
        return
    assert a.__dlpack_device__() == (1, 0)
    view = np.from_dlpack(a)
    assert view.dtype == dtype and view.shape == (3, 5, 7)
    np.testing.assert_array_equal(view, x)
    # The array's own memory: a write through it shows on the device.
    source = np.ascontiguousarray(x[::-1])
    ctypes.memmove(view.ctypes.data, source.ctypes.data, x.nbytes)
    with pytest.raises(portacl.Error, match="the buffer is mapped"):
        a + 1
    with pytest.raises(BufferError, match="copy=True"):
        a.__dlpack__(copy=True)
    del view
    np.testing.assert_array_equal(a.get(), source)


def test_a_mapping_keeps_its_buffer_alive(ctx, rng):
    x = rng.uniform(-1, 1, 257)
    b = portacl.Buffer(ctx, x)
    view = b.map()
    del b  # the array still holds the buffer: reading it is safe
    np.testing.assert_array_equal(view, x)
    del view


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_async_forms_return_device_values(ctx, rng, dtype):
    x = rng.uniform(-1, 1, 4099).astype(dtype)
    y = rng.uniform(-1, 1, 4099).astype(dtype)
    bx, by = portacl.Buffer(ctx, x), portacl.Buffer(ctx, y)
    s = portacl.sum(bx, asynchronous=True)
    d = portacl.dot(bx, by, asynchronous=True)
    assert isinstance(s, portacl.DeviceValue) and isinstance(d, portacl.DeviceValue)
    bound = 8 * np.finfo(dtype).eps * x.size
    assert abs(s.get() - x.astype(np.float64).sum()) <= bound * np.abs(x).sum()
    assert abs(float(d) - x.astype(np.float64) @ y) <= bound * (np.abs(x) @ np.abs(y))
    assert d.get() == portacl.dot(bx, by)  # the same kernel and order as the blocking form


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_buffer_indexing_reads_only_what_is_asked(ctx, rng, dtype):
    x = rng.uniform(-1, 1, 1031).astype(dtype)
    b = portacl.Buffer(ctx, x)
    assert b.shape == (1031,) and b.ndim == 1 and b.nbytes == x.nbytes and len(b) == 1031
    assert f"1031 {np.dtype(dtype).name}" in repr(b)
    for i in (0, 1, 500, 1030, -1, -1031):
        assert b[i] == x[i] and isinstance(b[i], float)
    for s in (slice(None), slice(3, 17), slice(None, None, 7), slice(1030, 0, -3), slice(None, None, -1),
              slice(-5, None), slice(10, 3), slice(2000, 3000), slice(5, 6, 100)):
        got = b[s]
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, x[s])
    with pytest.raises(IndexError, match="Buffer index 1031 is out of range for 1031 elements"):
        b[1031]
    with pytest.raises(IndexError, match="Buffer index -1032"):
        b[-1032]
    with pytest.raises(TypeError, match="integers or slices"):
        b[1.5]
    view = b.map()
    with pytest.raises(portacl.Error, match="Buffer\\[...\\]: the buffer is mapped"):
        b[0]
    del view
    empty = portacl.Buffer(ctx, np.zeros(0, dtype))
    assert empty[:].shape == (0,)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 7, 4099])
def test_asarray_and_from_dlpack_upload_once(ctx, rng, dtype, n):
    h = rng.uniform(-1, 1, n).astype(dtype)
    b = portacl.asarray(h, context=ctx)
    assert isinstance(b, portacl.Buffer) and b.context is ctx and len(b) == n and b.dtype == np.dtype(dtype).name
    np.testing.assert_array_equal(b.to_numpy(), h)
    assert portacl.asarray(b) is b and portacl.asarray(b, context=ctx) is b  # a Buffer as it is
    d = portacl.from_dlpack(h, context=ctx)  # NumPy's DLPack: a copy made from its memory
    np.testing.assert_array_equal(d.to_numpy(), h)
    h[:] = 0  # the copies do not follow the source
    np.testing.assert_array_equal(d.to_numpy(), b.to_numpy())
    if b.strategy == "map":  # a Buffer in host memory is a DLPack producer too
        np.testing.assert_array_equal(portacl.from_dlpack(b, context=ctx).to_numpy(), b.to_numpy())
    else:
        with pytest.raises(BufferError):
            portacl.from_dlpack(b, context=ctx)


def test_asarray_and_from_dlpack_refuse_by_name(ctx):
    with pytest.raises(TypeError, match="asarray: dtype float16 is not float32, float64, int32, int64, uint32 or uint64"):
        portacl.asarray(np.arange(3, dtype=np.float16), context=ctx)
    with pytest.raises(ValueError, match="asarray: a 0-D value is not an array on the device"):
        portacl.asarray(np.float32(2), context=ctx)
    assert isinstance(portacl.asarray(np.ones((2, 2)), context=ctx), portacl.Array)  # (2-D: an Array)
    with pytest.raises(ValueError, match="asarray: the Buffer belongs to another context"):
        portacl.asarray(portacl.Buffer(ctx, np.ones(3)), context=portacl.Context())
    with pytest.raises(TypeError, match="from_dlpack: list has no __dlpack__"):
        portacl.from_dlpack([1.0, 2.0], context=ctx)
    with pytest.raises(TypeError, match="from_dlpack: dtype int16 is not float32, float64, int32, int64, uint32 or uint64"):
        portacl.from_dlpack(np.arange(3, dtype=np.int16), context=ctx)
    with pytest.raises(ValueError, match="from_dlpack: a 1-D array is needed, not 2-D"):
        portacl.from_dlpack(np.ones((2, 2)), context=ctx)


@pytest.mark.parametrize("numpy_version", ["2.1.0", "1.26.4"])
def test_the_module_refuses_a_numpy_its_pybind11_reads_wrongly(tmp_path, numpy_version):
    """pybind11 before 2.12 reads NumPy 2's dtype records at NumPy 1's
    offsets: such a build must refuse to import beside NumPy 2, naming both
    versions, and import beside NumPy 1. A stand-in numpy package that only
    states its version is put first on the path of a fresh interpreter."""
    import os
    import subprocess
    import sys

    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text(f'__version__ = "{numpy_version}"\n')
    module_dir = os.path.dirname(portacl._portacl.__file__)
    code = "import _portacl; print('imported')"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), module_dir]))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    old_pybind11 = portacl._portacl._pybind11_version < (2, 12)
    if old_pybind11 and numpy_version.startswith("2."):
        assert run.returncode != 0
        assert "ImportError" in run.stderr and f"NumPy {numpy_version} is loaded" in run.stderr
        major, minor = portacl._portacl._pybind11_version
        assert f"pybind11 {major}.{minor}" in run.stderr
    else:
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == "imported"
