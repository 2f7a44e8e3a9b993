# SPDX-License-Identifier: Apache-2.0
"""The kernel families from Python against NumPy and SciPy references on
random data: reductions, scans, compaction, sort, histograms, GEMM, GEMV,
TRSV, heat 2D, convolution, 3D stencils, template matching (NCC), N-body,
k-nearest neighbours and k-means; awkward sizes (0, 1, primes,
non-multiples of tiles and vector widths), strided input, wrong dtypes and
shapes; plans that explain themselves."""
import numpy as np
import pytest
import scipy.ndimage as ndi
import scipy.signal as sig

import portacl

SIZES = [1, 2, 7, 31, 997, 65537]
EPS = {np.float32: np.finfo(np.float32).eps, np.float64: np.finfo(np.float64).eps}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_reductions_against_numpy(ctx, rng, dtype, n):
    x = rng.uniform(-1, 1, n).astype(dtype)
    x64 = x.astype(np.float64)
    bound = 4 * EPS[dtype] * n
    assert abs(portacl.nrm2(x, context=ctx) - np.linalg.norm(x64)) <= bound * np.linalg.norm(x64)
    assert portacl.min(x, context=ctx) == x.min()
    assert portacl.max(x, context=ctx) == x.max()
    assert abs(portacl.sum(x, context=ctx) - x64.sum()) <= bound * np.abs(x64).sum()


def test_min_of_nothing_is_refused(ctx):
    with pytest.raises(ValueError, match="min: the array is empty"):
        portacl.min(np.zeros(0, np.float32), context=ctx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("n", [0] + SIZES)
def test_cumsum_against_numpy(ctx, rng, dtype, n):
    x = (rng.integers(-50, 50, n) if dtype == np.int32 else rng.uniform(-1, 1, n)).astype(dtype)
    for exclusive in (False, True):
        got = portacl.cumsum(x, exclusive=exclusive, context=ctx)
        want = np.cumsum(x.astype(np.float64))
        if exclusive:
            want = np.concatenate(([0.0], want[:-1])) if n else want
        assert got.dtype == dtype and got.shape == (n,)
        if dtype == np.int32:
            np.testing.assert_array_equal(got, want.astype(np.int32))
        else:
            scale = np.cumsum(np.abs(x.astype(np.float64)))
            assert np.all(np.abs(got - want) <= 8 * EPS[dtype] * (np.arange(n) + 2) * (scale + 1e-30))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint32, np.float64, np.int64, np.uint64])
@pytest.mark.parametrize("n", [0] + SIZES)
def test_sort_and_argsort_against_numpy(ctx, rng, dtype, n):
    if dtype in (np.float32, np.float64):
        x = rng.standard_normal(n).astype(dtype)
        x[1::7] = np.nan  # NaNs last, in their order
        x[2::11] = -0.0
    else:
        x = rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, n, dtype=dtype, endpoint=True)
    x[: n // 3] = x[n // 3: 2 * (n // 3)]  # equal keys: argsort must be stable
    np.testing.assert_array_equal(portacl.sort(x, context=ctx), np.sort(x))
    order = portacl.argsort(x, context=ctx)
    assert order.dtype == np.uint32
    np.testing.assert_array_equal(order, np.argsort(x, kind="stable"))


def test_sort_refuses_other_keys(ctx):
    with pytest.raises(TypeError, match="sort: dtype int16 is not float32, float64, int32, int64, uint32 or uint64"):
        portacl.sort(np.zeros(3, np.int16), context=ctx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (7, 5, 3), (67, 45, 37), (130, 129, 131)])
def test_matmul_against_numpy(ctx, rng, dtype, m, n, k):
    a = rng.uniform(-1, 1, (m, k)).astype(dtype)
    b = rng.uniform(-1, 1, (k, n)).astype(dtype)
    want = a.astype(np.float64) @ b.astype(np.float64)
    bound = 4 * EPS[dtype] * k * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
    got = portacl.matmul(a, b, context=ctx)
    assert got.dtype == dtype and got.shape == (m, n)
    assert np.all(np.abs(got - want) <= bound)
    # out= with beta: filled in place, as NumPy's out=; a strided a is copied.
    c = rng.uniform(-1, 1, (m, n)).astype(dtype)
    c0 = c.astype(np.float64)
    wide = np.zeros((m, 2 * k), dtype)
    wide[:, ::2] = a
    same = portacl.matmul(wide[:, ::2], b, out=c, alpha=2.0, beta=-0.5, context=ctx)
    assert same is c
    assert np.all(np.abs(c - (2 * want - 0.5 * c0)) <= 2 * bound + 4 * EPS[dtype] * np.abs(c0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,n", [(1, 1), (7, 3), (3, 7), (67, 1031), (1031, 67)])
def test_gemv_against_numpy(ctx, rng, dtype, m, n):
    a = rng.uniform(-1, 1, (m, n)).astype(dtype)
    for transpose in (False, True):
        x = rng.uniform(-1, 1, m if transpose else n).astype(dtype)
        op = a.T if transpose else a
        want = -1.5 * (op.astype(np.float64) @ x.astype(np.float64))
        bound = 4 * EPS[dtype] * len(x) * 1.5 * (np.abs(op).astype(np.float64) @ np.abs(x).astype(np.float64))
        got = portacl.gemv(a, x, alpha=-1.5, transpose=transpose, context=ctx)
        assert got.dtype == dtype and got.shape == (op.shape[0],)
        assert np.all(np.abs(got - want) <= bound)


def test_gemv_refuses_bad_shapes(ctx):
    with pytest.raises(ValueError, match="gemv: x has 2 elements but a has 3 columns"):
        portacl.gemv(np.ones((4, 3)), np.ones(2), context=ctx)
    with pytest.raises(ValueError, match="gemv: x has 3 elements but a.T has 4 columns"):
        portacl.gemv(np.ones((4, 3)), np.ones(3), transpose=True, context=ctx)
    with pytest.raises(TypeError, match="gemv: dtype int64"):
        portacl.gemv(np.ones((2, 2), np.int64), np.ones(2), context=ctx)


@pytest.mark.parametrize("n", [0] + SIZES)
@pytest.mark.parametrize("bins", [1, 3, 256, 4099])
def test_bincount_against_numpy(ctx, rng, n, bins):
    keys = rng.integers(0, 2 * bins + 5, n).astype(np.uint32)  # some past the last bin
    want = np.bincount(keys, minlength=2 * bins + 5)[:bins]
    got = portacl.bincount(keys, bins, context=ctx)
    assert got.dtype == np.uint32 and got.shape == (bins,)
    assert np.array_equal(got, want)
    # int64 keys in range are taken; shift drops low bits first.
    wide = rng.integers(0, 1 << 20, n)
    assert np.array_equal(portacl.bincount(wide, bins, shift=12, context=ctx),
                          np.bincount(wide >> 12, minlength=(1 << 8) + bins)[:bins])
    if bins & (bins - 1) == 0:  # wrap: the digit a radix sort counts
        assert np.array_equal(portacl.bincount(wide, bins, shift=3, wrap=True, context=ctx),
                              np.bincount((wide >> 3) % bins, minlength=bins))


def test_bincount_refuses_bad_keys(ctx):
    with pytest.raises(TypeError, match="bincount: keys of dtype float64"):
        portacl.bincount(np.ones(3), 4, context=ctx)
    with pytest.raises(ValueError, match="keys from -1 to 2"):
        portacl.bincount(np.array([-1, 0, 2]), 4, context=ctx)
    with pytest.raises(portacl.Error, match="counts has no bins"):
        portacl.bincount(np.array([0, 1], np.uint32), 0, context=ctx)
    with pytest.raises(portacl.Error, match="power-of-two bin count"):
        portacl.bincount(np.array([0, 1], np.uint32), 3, wrap=True, context=ctx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 2, 31, 33, 97, 257])
def test_trsv_against_scipy(ctx, rng, dtype, n):
    import scipy.linalg as la
    # A well-conditioned lower triangle: a dominant diagonal; the upper part
    # holds garbage that must never be read.
    l = rng.uniform(-1, 1, (n, n)) / max(n, 1) + np.diag(rng.uniform(1, 2, n))
    l[np.triu_indices(n, 1)] = np.nan
    l = l.astype(dtype)
    b = rng.uniform(-1, 1, n).astype(dtype)
    for unit in (False, True):
        lower = np.tril(np.nan_to_num(l.astype(np.float64)), -1) + (np.eye(n) if unit else np.diag(np.diag(l)))
        want = la.solve_triangular(lower, b.astype(np.float64), lower=True) if n else np.zeros(0)
        got = portacl.trsv(l, b, unit_diagonal=unit, context=ctx)
        assert got.dtype == dtype and got.shape == (n,)
        assert np.all(np.abs(got - want) <= 64 * EPS[dtype] * max(n, 1) * (1 + np.abs(want)))


def test_trsv_refuses_bad_shapes(ctx):
    with pytest.raises(ValueError, match="trsv: l is 3 x 2; a square matrix is needed"):
        portacl.trsv(np.ones((3, 2)), np.ones(3), context=ctx)
    with pytest.raises(ValueError, match="trsv: b has 2 elements but l has 3 rows"):
        portacl.trsv(np.eye(3), np.ones(2), context=ctx)


@pytest.mark.parametrize("dtype,predicate", [(np.float32, "x > 0.25f"), (np.float64, "x < -0.5 || x > 0.5"),
                                             (np.int32, "(x & 1) == 0")])
@pytest.mark.parametrize("n", [0] + SIZES)
def test_compact_against_numpy(ctx, rng, dtype, predicate, n):
    x = (rng.integers(-1000, 1000, n) if dtype == np.int32 else rng.uniform(-1, 1, n)).astype(dtype)
    mask = {np.float32: x > 0.25, np.float64: (x < -0.5) | (x > 0.5), np.int32: x % 2 == 0}[dtype]
    got = portacl.compact(x, predicate, context=ctx)
    assert got.dtype == dtype
    assert np.array_equal(got, x[mask])


def test_compact_names_a_bad_predicate(ctx):
    with pytest.raises(portacl.Error, match="the predicate is empty"):
        portacl.compact(np.ones(4, np.float32), "", context=ctx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("measure", ["cosine", "squared_distance"])
@pytest.mark.parametrize("n,q,d,k", [(1, 1, 1, 1), (37, 5, 3, 4), (1000, 17, 8, 10), (300, 3, 33, 300)])
def test_knn_against_numpy(ctx, rng, measure, n, q, d, k, dtype):
    train = rng.uniform(-1, 1, (n, d)).astype(dtype)
    queries = rng.uniform(-1, 1, (q, d)).astype(dtype)
    t64, q64 = train.astype(np.float64), queries.astype(np.float64)
    if measure == "cosine":
        score = (q64 @ t64.T) / np.outer(np.linalg.norm(q64, axis=1), np.linalg.norm(t64, axis=1))
        order = np.argsort(-score, axis=1, kind="stable")
    else:
        score = ((q64[:, None, :] - t64[None, :, :]) ** 2).sum(axis=2)
        order = np.argsort(score, axis=1, kind="stable")
    indices, scores = portacl.knn(train, queries, k, measure=measure, context=ctx)
    assert indices.shape == (q, k) and scores.shape == (q, k) and scores.dtype == dtype
    want = np.take_along_axis(score, order[:, :k], axis=1)
    # 1e-4 and 1e-5 in float32: 840 and 84 units of the dtype's eps (d <= 33
    # products and the norms' roundings, with room for the cosine's division).
    eps = float(np.finfo(dtype).eps)
    assert np.allclose(scores, want, rtol=840 * eps, atol=84 * eps)
    # The indices name points of those scores (near-ties may swap places).
    assert np.allclose(np.take_along_axis(score, indices.astype(np.int64), axis=1), want, rtol=840 * eps,
                       atol=84 * eps)


def test_knn_refusals(ctx):
    with pytest.raises(ValueError, match="knn: the training points have 3 coordinates but the queries 2"):
        portacl.knn(np.ones((4, 3), np.float32), np.ones((2, 2), np.float32), 1, context=ctx)
    with pytest.raises(ValueError, match="measure 'manhattan'"):
        portacl.knn(np.ones((4, 3), np.float32), np.ones((2, 3), np.float32), 1, measure="manhattan", context=ctx)
    with pytest.raises(ValueError, match="knn: k 5 is more than the 4 training points"):
        portacl.knn(np.ones((4, 3), np.float32), np.ones((2, 3), np.float32), 5, context=ctx)
    with pytest.raises(TypeError, match="knn: the queries are float32 but the training points float64"):
        portacl.knn(np.ones((4, 3)), np.ones((2, 3), np.float32), 1, context=ctx)
    with pytest.raises(TypeError, match="knn: dtype int64 is not float32 or float64"):
        portacl.knn(np.ones((4, 3), np.int64), np.ones((2, 3), np.int64), 1, context=ctx)


def test_kmeans_refusals(ctx):
    points = np.ones((4, 2), np.float32)
    with pytest.raises(ValueError, match="kmeans: k 5 clusters for 4 points"):
        portacl.kmeans(points, 5, context=ctx)
    with pytest.raises(ValueError, match="kmeans: k 0 clusters"):
        portacl.kmeans(points, 0, context=ctx)
    with pytest.raises(TypeError, match="kmeans: dtype int64 is not float32 or float64"):
        portacl.kmeans(np.ones((4, 2), np.int64), 2, context=ctx)


def test_matmul_refuses_bad_shapes_and_dtypes(ctx):
    with pytest.raises(ValueError, match="matmul: a is 2 x 3 but b is 4 x 2"):
        portacl.matmul(np.ones((2, 3)), np.ones((4, 2)), context=ctx)
    with pytest.raises(TypeError, match="matmul: dtype int64"):
        portacl.matmul(np.ones((2, 2), np.int64), np.ones((2, 2), np.int64), context=ctx)
    with pytest.raises(TypeError, match="matmul: b: dtype float32 where float64 is needed"):
        portacl.matmul(np.ones((2, 2)), np.ones((2, 2), np.float32), context=ctx)
    with pytest.raises(ValueError, match="a 2-D array is needed, not 1-D"):
        portacl.matmul(np.ones(4), np.ones((4, 1)), context=ctx)


def heat_reference(u, steps, r, sides):
    u = u.astype(np.float64).copy()
    if sides is not None:
        north, south, west, east = sides  # the first row is north's, also when it is the last
        u[:, 0], u[:, -1] = west, east
        u[-1, :] = south
        u[0, :] = north
    for _ in range(steps):
        nxt = u.copy()
        nxt[1:-1, 1:-1] = u[1:-1, 1:-1] + r * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] -
                                              4 * u[1:-1, 1:-1])
        u = nxt
    return u


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rows,cols", [(1, 1), (3, 3), (17, 31), (64, 129)])
@pytest.mark.parametrize("sides", [None, (1.0, 0.0, 0.5, -0.5)])
def test_heat2d_against_numpy(ctx, rng, dtype, rows, cols, sides):
    u = rng.uniform(0, 1, (rows, cols)).astype(dtype)
    got = portacl.heat2d(u, steps=9, r=0.2, sides=sides, context=ctx)
    want = heat_reference(u, 9, 0.2, sides)
    assert got.dtype == dtype and got.shape == (rows, cols)
    assert np.max(np.abs(got - want)) <= 64 * EPS[dtype]


def test_heat2d_conserves_heat_away_from_the_edges(ctx):
    # A spike far from the edges spreads but keeps its total.
    u = np.zeros((65, 65))
    u[32, 32] = 1.0
    got = portacl.heat2d(u, steps=20, r=0.25, context=ctx)
    assert abs(got.sum() - 1.0) < 1e-12 and got.max() < 0.2


def test_heat2d_refuses_an_unstable_r_and_bad_sides(ctx):
    for r in (0.3, -0.1, float("nan")):
        with pytest.raises(ValueError, match=f"heat2d: r = {r} is outside 0 to 1/4 .*stability limit"):
            portacl.heat2d(np.zeros((4, 4)), r=r, context=ctx)
    with pytest.raises(ValueError, match=r"heat2d: sides needs 4 values \(north, south, west, east\), not 3"):
        portacl.heat2d(np.zeros((4, 4)), sides=(1.0, 2.0, 3.0), context=ctx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (9, 13), (61, 67)])
@pytest.mark.parametrize("mask_shape", [(1, 1), (3, 3), (5, 3)])
def test_convolve2d_against_scipy(ctx, rng, dtype, shape, mask_shape):
    image = rng.uniform(-1, 1, shape).astype(dtype)
    mask = rng.uniform(-1, 1, mask_shape).astype(dtype)
    bound = 8 * EPS[dtype] * mask.size * np.abs(mask.astype(np.float64)).max()
    for boundary, want in scipy_correlations(image, mask).items():
        got = portacl.convolve2d(image, mask, boundary, context=ctx)
        assert got.dtype == dtype
        assert np.max(np.abs(got - want)) <= bound, boundary


def scipy_correlations(image, mask):
    """SciPy's correlation of the image with the mask in double for each
    boundary ("valid" where the mask fits)."""
    image64, mask64 = image.astype(np.float64), mask.astype(np.float64)
    want = {"zero": sig.correlate2d(image64, mask64, mode="same"),
            "clamp": ndi.correlate(image64, mask64, mode="nearest")}
    if all(i >= m for i, m in zip(image.shape, mask.shape)):
        want["valid"] = sig.correlate2d(image64, mask64, mode="valid")
    return want


def star_kernel(weights):
    r = len(weights) - 1
    k = np.zeros((2 * r + 1,) * 3)
    k[r, r, r] = weights[0]
    for d in range(1, r + 1):
        for axis in range(3):
            for sign in (-1, 1):
                at = [r, r, r]
                at[axis] += sign * d
                k[tuple(at)] = weights[d]
    return k


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1, 1), (5, 7, 3), (13, 11, 37)])
@pytest.mark.parametrize("radius", [1, 2, 4])
def test_star_stencil3d_against_scipy(ctx, rng, dtype, shape, radius):
    u = rng.uniform(-1, 1, shape).astype(dtype)
    weights = list(rng.uniform(-1, 1, radius + 1))
    k = star_kernel(weights)
    u64 = u.astype(np.float64)
    bound = 8 * EPS[dtype] * (6 * radius + 1)
    for boundary, mode in (("zero", "constant"), ("clamp", "nearest")):
        got = portacl.stencil3d(u, weights=weights, boundary=boundary, context=ctx)
        assert got.dtype == dtype and got.shape == shape
        assert np.max(np.abs(got - ndi.correlate(u64, k, mode=mode))) <= bound
    if min(shape) > 2 * radius:
        got = portacl.stencil3d(u, weights=weights, boundary="valid", context=ctx)
        inner = tuple(slice(radius, n - radius) for n in shape)
        assert got.shape == tuple(n - 2 * radius for n in shape)
        assert np.max(np.abs(got - ndi.correlate(u64, k, mode="constant")[inner])) <= bound


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_general_stencil3d_against_scipy(ctx, rng, dtype):
    u = rng.uniform(-1, 1, (9, 10, 17)).astype(dtype)
    # An asymmetric set: the centre, a corner, a far point along x.
    points = [(0, 0, 0, 0.5), (1, -1, 1, -0.25), (-3, 0, 0, 2.0), (0, 2, -1, 1.5)]
    k = np.zeros((7, 7, 7))
    for dx, dy, dz, w in points:
        k[3 + dz, 3 + dy, 3 + dx] = w
    want = ndi.correlate(u.astype(np.float64), k, mode="constant")
    got = portacl.stencil3d(u, points=points, context=ctx)
    assert np.max(np.abs(got - want)) <= 16 * EPS[dtype] * 4


def test_stencil3d_refusals(ctx):
    u = np.ones((4, 4, 4))
    with pytest.raises(ValueError, match="either the star's weights or the points"):
        portacl.stencil3d(u, context=ctx)
    with pytest.raises(ValueError, match="stencil3d: boundary must be 'zero', 'clamp' or 'valid', not 'wrap'"):
        portacl.stencil3d(u, weights=[1.0, 0.5], boundary="wrap", context=ctx)
    for weights in ([1.0], [1.0] * 6):
        with pytest.raises(ValueError, match=f"stencil3d: {len(weights)} weights; the star of radius R takes R \\+ 1"):
            portacl.stencil3d(u, weights=weights, context=ctx)
    with pytest.raises(ValueError, match="a 3-D array is needed, not 2-D"):
        portacl.stencil3d(np.ones((4, 4)), weights=[1.0, 0.5], context=ctx)


def ncc_reference(image, template):
    """The coefficient at every offset, in double, by its definition."""
    img, t = image.astype(np.float64), template.astype(np.float64)
    tr, tc = t.shape
    tc0 = t - t.mean()
    out = np.zeros((img.shape[0] - tr + 1, img.shape[1] - tc + 1))
    for y in range(out.shape[0]):
        for x in range(out.shape[1]):
            w = img[y:y + tr, x:x + tc]
            wc = w - w.mean()
            den = np.sqrt((wc * wc).sum() * (tc0 * tc0).sum())
            out[y, x] = (wc * tc0).sum() / den if den > 0 else 0.0
    return out


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("shape,tshape", [((1, 1), (1, 1)), ((17, 23), (3, 5)), ((40, 37), (7, 7)), ((9, 9), (9, 9))])
def test_ncc_against_numpy(ctx, rng, dtype, shape, tshape):
    if dtype == np.uint8:
        image = rng.integers(0, 256, shape).astype(np.uint8)
    else:
        image = rng.uniform(-1, 1, shape).astype(dtype)
    # The template cut from the image: a perfect match where it came from.
    y0, x0 = (shape[0] - tshape[0]) // 2, (shape[1] - tshape[1]) // 2
    template = image[y0:y0 + tshape[0], x0:x0 + tshape[1]].copy()
    want = ncc_reference(image, template)
    got, (row, col), score = portacl.ncc(image, template, context=ctx)
    assert got.dtype == np.float32 and got.shape == want.shape
    assert np.max(np.abs(got - want)) <= 1e-4
    if dtype == np.float64 and ctx.device["fp64"]:
        # Double sums (a few roundings per template pixel, of coefficients
        # at most 1), then one rounding to the float map.
        n = template.size
        bound = np.finfo(np.float32).eps / 2 * np.abs(want) + (4 * n + 16) * np.finfo(np.float64).eps
        assert np.all(np.abs(got - want) <= bound)
    assert np.all(np.abs(got) <= 1 + 1e-6)
    if template.size > 1:  # a one-pixel template is flat: every coefficient 0
        best = np.unravel_index(np.argmax(want), want.shape)
        assert (row, col) == best and score == pytest.approx(want[best], abs=1e-5)
        assert want[y0, x0] == pytest.approx(1.0)


def test_ncc_refusals(ctx):
    with pytest.raises(ValueError, match="ncc: a 4 x 1 template does not fit a 3 x 3 image"):
        portacl.ncc(np.ones((3, 3), np.uint8), np.ones((4, 1), np.uint8), context=ctx)
    with pytest.raises(ValueError, match="ncc: a 2 x 5 template does not fit a 4 x 4 image"):
        portacl.ncc(np.ones((4, 4), np.float32), np.ones((2, 5), np.float32), context=ctx)
    with pytest.raises(TypeError, match="ncc: template: dtype float32 where uint8 is needed"):
        portacl.ncc(np.ones((3, 3), np.uint8), np.ones((2, 2), np.float32), context=ctx)
    with pytest.raises(TypeError, match="ncc: dtype int32 is not uint8, float32 or float64"):
        portacl.ncc(np.ones((3, 3), np.int32), np.ones((2, 2), np.int32), context=ctx)
    with pytest.raises(TypeError, match="ncc: template: dtype float32 where float64 is needed"):
        portacl.ncc(np.ones((3, 3)), np.ones((2, 2), np.float32), context=ctx)


def test_convolve2d_refuses_a_bad_boundary(ctx):
    with pytest.raises(ValueError, match="boundary must be 'zero', 'clamp' or 'valid', not 'wrap'"):
        portacl.convolve2d(np.ones((3, 3)), np.ones((3, 3)), "wrap", context=ctx)
    with pytest.raises(ValueError, match="method must be 'auto', 'direct' or 'fft', not 'overlap'"):
        portacl.convolve2d(np.ones((3, 3)), np.ones((3, 3)), method="overlap", context=ctx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (9, 13), (61, 67)])
@pytest.mark.parametrize("mask_shape", [(1, 1), (5, 3), (15, 17)])
def test_convolve2d_by_fft_against_scipy(ctx, rng, dtype, shape, mask_shape):
    # The FFT's error spreads over the outputs: its 2-norm is at most three
    # transforms' bounds (under 10 EPS a factor of 2 of the grid, the grid
    # under 5/4 of the image extended by the mask) times |e|_2 |mask|_1, e
    # the image as the boundary extends it (docs/stencils.md).
    image = rng.uniform(-1, 1, shape).astype(dtype)
    mask = rng.uniform(-1, 1, mask_shape).astype(dtype)
    image64, mask64 = image.astype(np.float64), mask.astype(np.float64)
    grid = [1.25 * (shape[k] + mask_shape[k]) for k in (0, 1)]
    eps = 10 * EPS[dtype] * sum(np.log2(max(g, 2)) for g in grid)
    edges = [((m - 1) // 2, m - 1 - (m - 1) // 2) for m in mask_shape]
    bound = {b: 3 * eps * np.linalg.norm(e) * np.abs(mask64).sum()
             for b, e in (("zero", image64), ("clamp", np.pad(image64, edges, mode="edge")))}
    bound["valid"] = bound["zero"]
    for boundary, want in scipy_correlations(image, mask).items():
        got, plan = portacl.convolve2d(image, mask, boundary, context=ctx, method="fft", return_plan=True)
        assert {"what": "algorithm", "value": "fft", "rule": "caller.choice", "why": "ConvolutionOptions::fft"} in \
            plan.to_dict()["decisions"]
        assert got.dtype == dtype
        assert np.linalg.norm(got - want) <= bound[boundary], boundary
    _, plan = portacl.convolve2d(image, mask, "zero", context=ctx, method="direct", return_plan=True)
    assert any(d["what"] == "algorithm" and d["value"] == "direct" for d in plan.to_dict()["decisions"])


def nbody_accelerations(bodies, softening):
    """Every body's acceleration in double, and the sum of its terms'
    magnitudes (what the device's rounding scales with)."""
    p, m = bodies[:, :3].astype(np.float64), bodies[:, 3].astype(np.float64)
    d = p[None, :, :] - p[:, None, :]
    r2 = (d ** 2).sum(-1) + softening ** 2
    inv3 = r2 ** -1.5
    terms = d * (m[None, :, None] * inv3[:, :, None])
    return terms.sum(1), np.abs(terms).sum(1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 2, 3, 67, 257])
def test_nbody_against_numpy_and_momentum(ctx, rng, n, dtype):
    bodies = np.concatenate([rng.uniform(-1, 1, (n, 3)), rng.uniform(0.5, 1.5, (n, 1)) / n], 1).astype(dtype)
    velocities = np.zeros((n, 4), dtype)
    velocities[:, :3] = rng.uniform(-0.1, 0.1, (n, 3))
    eps, dt = 0.05, 1e-3
    u = np.finfo(dtype).eps / 2
    b1, v1, a1 = portacl.nbody(bodies, velocities, dt, steps=1, softening=eps, context=ctx)
    assert b1.dtype == v1.dtype == a1.dtype == dtype
    # The leapfrog step on the host, in double.
    a0, _ = nbody_accelerations(bodies, eps)
    half = velocities[:, :3] + 0.5 * dt * a0
    x1 = bodies[:, :3] + dt * half
    # The accelerations are checked at the positions the step produced (b1,
    # checked against x1 below): a rounding of a position moves a pair's
    # d by u |x|, which near-cancelling d turn into far more than the
    # terms' own roundings (seed 37: d_x's share 2x the bound at x1).
    want_a, magnitude = nbody_accelerations(b1.astype(np.float64), eps)
    # Bounds from the arithmetic: each pair's term carries a few tens of
    # roundings (d, r^2, 1/sqrt and its cube, the product: 40 allowed) and
    # the running sum one rounding per add (n), of the terms' magnitudes;
    # a position two roundings of |x| <= 1 (the kick, the drift) and the
    # drift's share of the velocity's error; a velocity two of |v| and dt/2
    # of each acceleration's bound.
    a_bound = (n + 40) * u * magnitude
    np.testing.assert_array_less(np.abs(a1[:, :3] - want_a), a_bound + 1e-300)
    np.testing.assert_array_less(np.abs(v1[:, :3] - (half + 0.5 * dt * want_a)),
                                 4 * u * np.abs(velocities[:, :3]).max() + dt * a_bound + 1e-300)
    np.testing.assert_array_less(np.abs(b1[:, :3] - x1), 4 * u + dt * dt * a_bound + 1e-300)
    # Momentum is kept over many steps (pairwise forces cancel): to each
    # step's roundings of every m v (the kicks), 50 steps.
    b, v, _ = portacl.nbody(bodies, velocities, dt, steps=50, softening=eps, context=ctx)
    p0 = (bodies[:, 3:4].astype(np.float64) * velocities[:, :3]).sum(0)
    p1 = (b[:, 3:4].astype(np.float64) * v[:, :3]).sum(0)
    mv = (bodies[:, 3:4].astype(np.float64) * (np.abs(velocities[:, :3]) + 0.1)).sum(0)
    assert np.all(np.abs(p1 - p0) <= 50 * (4 * u * mv + dt * (bodies[:, 3:4] * a_bound).sum(0)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kmeans_finds_separated_clusters(ctx, rng, dtype):
    centres = np.array([[0, 0], [10, 0], [0, 10], [10, 10]], np.float64)
    points = np.concatenate([c + rng.normal(0, 0.5, (101, 2)) for c in centres]).astype(dtype)
    centroids, labels, info = portacl.kmeans(points, 4, seed=7, context=ctx)
    assert centroids.shape == (4, 2) and labels.shape == (404,) and centroids.dtype == dtype
    # Each point is labelled with its nearest centroid (up to a near-tie: two
    # squared distances of 2 coordinates, each within (d + 2) u of the
    # squared magnitudes), each centroid is its cluster's mean (m additions
    # and a division in the dtype, each within eps of the largest |x|), and
    # the four clusters are the four blobs.
    eps = float(np.finfo(dtype).eps)
    p64, c64 = points.astype(np.float64), centroids.astype(np.float64)
    d = ((p64[:, None, :] - c64[None, :, :]) ** 2).sum(-1)
    scale = ((np.abs(p64[:, None, :]) + np.abs(c64[None, :, :])) ** 2).sum(-1).max()
    assert np.all(d[np.arange(404), labels] <= d.min(1) + 4 * eps * scale)
    for c in range(4):
        members = p64[labels == c]
        bound = (len(members) + 2) * eps * np.abs(members).max()
        np.testing.assert_allclose(c64[c], members.mean(0), rtol=0, atol=bound)
        # The bound sees a planted error of 10^-3 of the points' spread (float) or 10^-11 (double).
        planted = (1e-3 if dtype == np.float32 else 1e-11) * np.abs(members).max()
        assert not np.allclose(c64[c] + planted, members.mean(0), rtol=0, atol=bound)
    assert sorted(info["cluster_sizes"]) == [101] * 4
    assert info["converged"]
    # The inertia never rises, up to its rounding on each side (relative:
    # d + 2 per distance, at most 8 a work-item and a tree of at most 2^10
    # work-items, in units u = eps / 2; the work-groups' sums in double).
    rise = 2 * (2 + 2 + 8 + 10) * eps / 2
    assert all(b <= a * (1 + rise) for a, b in zip(info["inertia"], info["inertia"][1:]))
    assert rise < (1e-5 if dtype == np.float32 else 1e-14)  # a rise of that much would be seen


def test_plans_explain_themselves(ctx, rng):
    x = rng.uniform(-1, 1, 4099).astype(np.float32)
    value, plan = portacl.sum(x, context=ctx, return_plan=True)
    assert isinstance(plan, portacl.Plan) and plan.kernel
    text = plan.explain()
    assert "work_group_size" in text and "[" in text  # decisions name their rules
    assert plan.to_dict()["decisions"]
    _, plan = portacl.matmul(np.ones((5, 5)), np.ones((5, 5)), context=ctx, return_plan=True)
    assert "gemm" in plan.kernel and plan.summary()
