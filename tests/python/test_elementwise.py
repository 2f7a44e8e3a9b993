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
    with pytest.raises(ValueError, match="map: x has 5 elements but y has 4"):
        a * np.ones(4)
    with pytest.raises(TypeError, match="unsupported operand"):
        a + "1"
    with pytest.raises(TypeError, match="map: y must be None, an operand or a real number, not object"):
        portacl.map("x + y", a, object())
    with pytest.raises(TypeError, match="map: out must be a Buffer, not ndarray"):
        portacl.map("x", a, out=np.ones(5))
    with pytest.raises(TypeError, match="map: x is float64 but out is float32"):
        portacl.map("x", a, out=portacl.Buffer(ctx, np.ones(5, np.float32)))
    with pytest.raises(ValueError, match="map: x has 5 elements but out has 6"):
        portacl.map("x", a, out=portacl.Buffer(ctx, np.ones(6)))
    with pytest.raises(TypeError, match="dtype int64 is not float32 or float64"):
        portacl.map("x", np.arange(3), context=ctx)
    with pytest.raises(portacl.Error, match="expression is empty"):
        portacl.map("  ", a)
    with pytest.raises(portacl.BuildError, match="map2.cl"):
        portacl.map("x + undefined_thing * y", a, a)
    assert np.array_equal(a.to_numpy(), np.ones(5))  # nothing written by a refused call
