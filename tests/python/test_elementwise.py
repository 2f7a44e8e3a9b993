# SPDX-License-Identifier: Apache-2.0
"""portacl.map and Buffer's arithmetic operators against NumPy: one
operation IEEE rounds once (+, -, *, and / in double) is NumPy's result to
the bit; the rest within the roundings OpenCL allows, scaled by the terms'
magnitudes."""
import numpy as np
import pytest

import portacl

SIZES = [0, 1, 7, 1001, 4099]
EPS = {np.float32: np.finfo(np.float32).eps, np.float64: np.finfo(np.float64).eps}


def _poisoned(ctx, n, dtype):
    return portacl.Buffer(ctx, np.full(n, np.nan, dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_map_against_numpy(ctx, rng, dtype, n):
    x = rng.uniform(-2, 2, n).astype(dtype)
    y = rng.uniform(0.5, 2, n).astype(dtype)
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    eps = EPS[dtype]
    # One operand: x x + 1, two roundings over x x + 1.
    got = portacl.map("x * x + 1", portacl.Buffer(ctx, x), out=_poisoned(ctx, n, dtype)).to_numpy()
    assert np.all(np.abs(got - (xd * xd + 1)) <= 2 * eps * (xd * xd + 1))
    # Two arrays in, an array out (uploaded for the call).
    got = portacl.map("x * y - y", x, y, context=ctx)
    assert isinstance(got, np.ndarray) and got.dtype == dtype and got.shape == (n,)
    assert np.all(np.abs(got - (xd * yd - yd)) <= 2 * eps * (np.abs(xd * yd) + yd))
    # One value for every element, in place on a Buffer y.
    by = portacl.Buffer(ctx, y)
    assert portacl.map("fmax(x, y)", by, 1.25, out=by) is by
    assert np.array_equal(by.to_numpy(), np.maximum(y, dtype(1.25)))
    z, plan = portacl.map("x - y", by, 1.25, return_plan=True)
    assert isinstance(z, portacl.Buffer) and plan.kernel == "map2"
    assert np.array_equal(z.to_numpy(), np.maximum(y, dtype(1.25)) - dtype(1.25))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_buffer_operators_against_numpy(ctx, rng, dtype):
    n = 1031
    x = rng.uniform(-2, 2, n).astype(dtype)
    y = rng.uniform(0.5, 2, n).astype(dtype)
    bx, by = portacl.Buffer(ctx, x), portacl.Buffer(ctx, y)
    s = 0.3  # cast to the Buffer's dtype, as NumPy casts it for an array of that dtype
    exact = {
        "x + y": (bx + by, x + y), "x - y": (bx - by, x - y), "x * y": (bx * by, x * y),
        "x + s": (bx + s, x + dtype(s)), "s - x": (s - bx, dtype(s) - x), "s * x": (s * bx, dtype(s) * x),
        "x + array": (bx + y, x + y), "-x": (-bx, -x), "abs": (abs(bx), np.abs(x)), "+x": (+bx, x),
    }
    for name, (got, want) in exact.items():
        assert isinstance(got, portacl.Buffer), name
        assert np.array_equal(got.to_numpy(), want), name
    # Division: one rounding in double; OpenCL allows 2.5 ulp in float.
    ulps = 0 if dtype == np.float64 else 2.5
    for name, got, want in (("x / y", bx / by, x / y), ("x / s", bx / s, x / dtype(s)),
                            ("s / y", s / by, dtype(s) / y)):
        assert np.all(np.abs(got.to_numpy() - want) <= ulps * EPS[dtype] * np.abs(want)), name
    # pow: OpenCL allows 16 ulp.
    for name, got, want in (("y ** x", by ** bx, y.astype(np.float64) ** x), ("y ** 2", by ** 2, y.astype(np.float64) ** 2),
                            ("2 ** x", 2 ** bx, 2.0 ** x.astype(np.float64))):
        assert np.all(np.abs(got.to_numpy() - want) <= 16 * EPS[dtype] * np.abs(want)), name
    # In place: the same object, its memory written.
    before = by
    by += bx
    assert by is before and np.array_equal(by.to_numpy(), y + x)
    by *= 2
    assert by is before and np.array_equal(by.to_numpy(), (y + x) * dtype(2))
    # An array on the left is NumPy's: it reads the Buffer back and adds on the host.
    on_host = y + bx
    assert isinstance(on_host, np.ndarray) and np.array_equal(on_host, y + x)


def test_elementwise_refusals(ctx):
    a = portacl.Buffer(ctx, np.ones(5))
    with pytest.raises(TypeError, match="map: x is float64 but y is float32"):
        a + portacl.Buffer(ctx, np.ones(5, np.float32))
    with pytest.raises(ValueError, match=r"map: x is \(5,\) but y is \(4,\)"):
        a * np.ones(4)
    with pytest.raises(TypeError, match="unsupported operand"):
        a + "1"
    with pytest.raises(TypeError, match="map: y must be None, an operand or a real number, not object"):
        portacl.map("x + y", a, object())
    with pytest.raises(TypeError, match="map: out must be a Buffer or an Array, not ndarray"):
        portacl.map("x", a, out=np.ones(5))
    with pytest.raises(TypeError, match="map: x is float64 but out is float32"):
        portacl.map("x", a, out=portacl.Buffer(ctx, np.ones(5, np.float32)))
    with pytest.raises(ValueError, match=r"map: x is \(5,\) but out is \(6,\)"):
        portacl.map("x", a, out=portacl.Buffer(ctx, np.ones(6)))
    with pytest.raises(TypeError, match="dtype int8 is not float32, float64, int32, int64, uint32 or uint64"):
        portacl.map("x", np.arange(3, dtype=np.int8), context=ctx)
    with pytest.raises(portacl.Error, match="expression is empty"):
        portacl.map("  ", a)
    with pytest.raises(portacl.BuildError, match="map2.cl"):
        portacl.map("x + undefined_thing * y", a, a)
    assert np.array_equal(a.to_numpy(), np.ones(5))  # nothing written by a refused call


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_array_keeps_its_shape_on_the_device(ctx, rng, dtype):
    host = rng.uniform(-2, 2, (3, 5, 7)).astype(dtype)
    other = rng.uniform(0.5, 2, (3, 5, 7)).astype(dtype)
    a = portacl.asarray(host, context=ctx)
    assert isinstance(a, portacl.Array)
    assert (a.shape, a.ndim, a.size, len(a), a.dtype) == ((3, 5, 7), 3, 105, 3, np.dtype(dtype).name)
    assert repr(a) == f"<portacl.Array (3, 5, 7) {np.dtype(dtype).name}>"
    assert portacl.asarray(a) is a
    assert np.array_equal(a.get(), host) and np.array_equal(np.asarray(a), host)
    # Indexing: a whole index reads one element; others index the read-back array.
    assert a[2, 4, 6] == host[2, 4, 6] and a[-1, 0, -2] == host[-1, 0, -2]
    assert np.array_equal(a[1], host[1]) and np.array_equal(a[:, 2, ::3], host[:, 2, ::3])
    with pytest.raises(IndexError, match=r"Array index \(3, 0, 0\) is out of range for shape \(3, 5, 7\)"):
        a[3, 0, 0]
    # Arithmetic of one shape, bit for bit as NumPy (each operation rounds once).
    b = portacl.asarray(other, context=ctx)
    c = a * 2 + b
    assert isinstance(c, portacl.Array) and c.shape == (3, 5, 7)
    assert np.array_equal(c.get(), host * dtype(2) + other)
    assert np.array_equal((1 - a).get(), dtype(1) - host)
    assert np.array_equal(portacl.map("fmax(x, y)", a, other).get(), np.maximum(host, other))
    # reshape and ravel: the same memory, no copy.
    r = a.reshape(7, -1)
    assert r.shape == (7, 15) and np.array_equal(r.get(), host.reshape(7, 15))
    flat = a.ravel()
    assert isinstance(flat, portacl.Buffer) and len(flat) == 105
    r += 1  # written through the reshaped view: a sees it
    assert np.array_equal(a.get(), host + dtype(1)) and np.array_equal(flat.to_numpy(), (host + dtype(1)).ravel())
    # Reductions over every element, as NumPy's without an axis.
    e = host + dtype(1)
    ed = e.astype(np.float64)
    eps = np.finfo(dtype).eps
    assert abs(portacl.sum(a) - ed.sum()) <= 105 * eps * np.abs(ed).sum()
    assert portacl.min(a) == e.min() and portacl.max(a) == e.max()
    assert abs(portacl.nrm2(a) - np.linalg.norm(ed)) <= 106 * eps * np.linalg.norm(ed)


def test_array_refusals(ctx):
    a = portacl.asarray(np.ones((2, 3)), context=ctx)
    with pytest.raises(ValueError, match=r"dot: a 1-D operand is needed, not an Array of shape \(2, 3\)"):
        portacl.dot(a, a)
    with pytest.raises(ValueError, match=r"axpy: a 1-D operand is needed"):
        portacl.axpy(2.0, a, np.ones(6))
    with pytest.raises(ValueError, match=r"map: x is \(2, 3\) but y is \(3, 2\)"):
        a + np.ones((3, 2))
    with pytest.raises(ValueError, match=r"reshape: \(4, 4\) holds 16 elements, not 6"):
        a.reshape(4, 4)
    with pytest.raises(ValueError, match=r"reshape: \(-1, -1\) is not a shape"):
        a.reshape(-1, -1)
    with pytest.raises(ValueError, match=r"reshape: 6 elements do not fill \(4, -1\)"):
        a.reshape(4, -1)
    with pytest.raises(TypeError, match="reshape: a shape is integers"):
        a.reshape(2.5, 2)
    with pytest.raises(ValueError, match="copy=False"):
        a.__array__(copy=False)
    with pytest.raises(TypeError, match="Array: a Buffer holds the elements, not ndarray"):
        portacl.Array(np.ones(6), (2, 3))
    with pytest.raises(ValueError, match="asarray: a 0-D value"):
        portacl.asarray(np.float64(1.0), context=ctx)


INTEGERS = [np.int32, np.int64, np.uint32, np.uint64]


def _integers(rng, dtype, shape):
    """Fresh integers over dtype's whole range, its two ends among them."""
    info = np.iinfo(dtype)
    v = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    if v.size >= 2:
        v.flat[0], v.flat[-1] = info.min, info.max
    return v


@pytest.mark.parametrize("dtype", INTEGERS)
@pytest.mark.parametrize("n", SIZES)
def test_integer_operators_wrap_as_numpy(ctx, rng, dtype, n):
    x, y = _integers(rng, dtype, n), _integers(rng, dtype, n)
    bx, by = portacl.Buffer(ctx, x), portacl.Buffer(ctx, y)
    s = int(_integers(rng, dtype, 1)[0])  # a Python int inside dtype's range, as NumPy 2 takes it
    with np.errstate(over="ignore"):  # NumPy warns where a Python scalar overflows; the wrap is the result
        cases = {
            "x + y": (bx + by, x + y), "x - y": (bx - by, x - y), "x * y": (bx * by, x * y),
            "x + s": (bx + s, x + dtype(s)), "s - x": (s - bx, dtype(s) - x), "x * s": (bx * s, x * dtype(s)),
            "-x": (-bx, -x), "abs": (abs(bx), np.abs(x)), "x + array": (bx + y, x + y),
        }
    for name, (got, want) in cases.items():
        assert isinstance(got, portacl.Buffer) and got.dtype == np.dtype(dtype).name, name
        assert np.array_equal(got.to_numpy(), want), name
    # In place, through the same object.
    before = bx
    bx *= by
    assert bx is before and np.array_equal(bx.to_numpy(), x * y)
    # A user's expression on unsigned integers wraps by OpenCL C's rules
    # (signed overflow is undefined there: only the operators wrap it).
    if np.dtype(dtype).kind == "u":
        out = portacl.Buffer(ctx, np.full(n, 0x5A, dtype))
        portacl.map("x * y + (T)7", by, portacl.Buffer(ctx, x), out=out)
        assert np.array_equal(out.to_numpy(), y * x + dtype(7))
    # Reductions: min and max exact; sums in 64 bits, exactly (uint64 refused).
    if n:
        assert portacl.min(by) == int(y.min()) and portacl.max(by) == int(y.max())
        assert type(portacl.min(by)) is int
    if dtype != np.uint64:
        exact = int(np.sum(y.astype(object))) if n else 0
        wrapped = (exact + 2**63) % 2**64 - 2**63  # int64 sums wrap, as numpy.sum's of int64
        assert portacl.sum(by) == wrapped
        assert portacl.sum(by, asynchronous=True).get() == wrapped


@pytest.mark.parametrize("dtype", INTEGERS)
def test_integer_array_keeps_its_shape_and_dtype(ctx, rng, dtype):
    host, other = _integers(rng, dtype, (3, 5, 7)), _integers(rng, dtype, (3, 5, 7))
    a = portacl.asarray(host, context=ctx)
    assert isinstance(a, portacl.Array) and a.dtype == np.dtype(dtype).name
    assert repr(a) == f"<portacl.Array (3, 5, 7) {np.dtype(dtype).name}>"
    assert a[2, 4, 6] == host[2, 4, 6] and type(a[0, 0, 0]) is int
    assert np.array_equal(a.get(), host) and a.get().dtype == dtype
    with np.errstate(over="ignore"):
        assert np.array_equal((a * 3 - portacl.asarray(other, context=ctx)).get(), host * dtype(3) - other)
    assert portacl.min(a) == int(host.min()) and portacl.max(a) == int(host.max())
    # The most negative value: -x and abs(x) are x itself, as in NumPy.
    if np.dtype(dtype).kind == "i":
        lowest = portacl.asarray(np.full((2, 2), np.iinfo(dtype).min, dtype), context=ctx)
        assert np.array_equal((-lowest).get(), lowest.get()) and np.array_equal(abs(lowest).get(), lowest.get())


def test_integer_refusals(ctx):
    a = portacl.asarray(np.arange(6, dtype=np.int32).reshape(2, 3), context=ctx)
    before = a.get()
    with pytest.raises(TypeError, match="/ of int32 operands: true division gives floats"):
        a / a
    with pytest.raises(TypeError, match=r"\*\* of int32 operands: portacl raises to powers in floating point only"):
        a ** 2
    with pytest.raises(TypeError, match="map: the value 2.5 is not an integer, and x is int32"):
        a + 2.5
    with pytest.raises(OverflowError, match="map: the value 4294967296 is out of range for int32"):
        a += 2**32
    with pytest.raises(OverflowError, match="map: the value -1 is out of range for uint64"):
        portacl.asarray(np.arange(3, dtype=np.uint64), context=ctx) - (-1)
    with pytest.raises(TypeError, match="map: x is int32 but y is int64"):
        a + np.ones((2, 3), np.int64)
    with pytest.raises(TypeError, match="map: x is int32 but y is float32"):
        a * portacl.asarray(np.ones((2, 3), np.float32), context=ctx)
    with pytest.raises(TypeError, match="nrm2: dtype int32 is not float32 or float64"):
        portacl.nrm2(a)
    with pytest.raises(TypeError, match="dot: dtype int32 is not float32 or float64"):
        portacl.dot(a.ravel(), a.ravel())
    with pytest.raises(TypeError, match="sum: dtype uint64 is not float32, float64, int32, int64 or uint32"):
        portacl.sum(portacl.asarray(np.arange(3, dtype=np.uint64), context=ctx))
    assert np.array_equal(a.get(), before)  # nothing written by a refused call
