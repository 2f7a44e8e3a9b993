# SPDX-License-Identifier: Apache-2.0
"""portacl.fft against numpy.fft: every function, lengths that are powers
of two, smooth and prime, batches over the other axes, norms, n and s that
cut or pad, axes in any order, single and double precision, and the
errors. Fresh random inputs each run (seed printed by conftest)."""
import numpy as np
import pytest

import portacl
import portacl.fft as pfft


def _factors(n):
    f, p = [], 2
    while n > 1:
        while n % p == 0:
            f.append(p)
            n //= p
        p += 1
    return f


def _bound(n, u):
    """The normwise bound of a transform of n points whose arithmetic rounds
    to u: the C++ tests' (src/tuning/fft_reference.hpp), per pass of radix p
    9u + sqrt2 gamma_4 and for p > 2 sqrt2 sqrt(p) gamma_(p + 2); a prime
    factor above 13 by Bluestein's two transforms and spectrum of at most
    log2(m) radix-7 passes times sqrt((2n - 1) / n), and two chirp products."""
    def gamma(k):
        return k * u / (1 - k * u)

    def per_pass(p):
        return 9 * u + np.sqrt(2) * gamma(4) + (np.sqrt(2) * np.sqrt(p) * gamma(p + 2) if p > 2 else 0)

    f = _factors(n)
    if not f or max(f) <= 13:
        return sum(per_pass(p) for p in f)
    m = 1
    while m < 2 * n - 1:
        m *= 2
    em = np.log2(m) * per_pass(7)
    return np.sqrt((2 * n - 1) / n) * (3 * em + 2 * u) + 2 * (9 * u + np.sqrt(2) * gamma(4))


def _close(got, want, lengths):
    """got within the bound of its precision's transform over `lengths` (and
    one rounding for a norm's scale) of NumPy's double result."""
    single = got.dtype in (np.float32, np.complex64)
    u = np.finfo(np.float32 if single else np.float64).eps / 2
    lengths = [lengths] if np.isscalar(lengths) else lengths
    bound = sum(_bound(int(n), u) for n in lengths) + u + sum(_bound(int(n), 2.0 ** -53) for n in lengths)
    err = np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-300)
    assert err <= bound, f"relative error {err}, bound {bound}"


def _signal(r, shape, dtype):
    x = r.uniform(-1, 1, shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * r.uniform(-1, 1, shape)
    return x.astype(dtype)


@pytest.mark.parametrize("n", [1, 2, 3, 8, 12, 17, 60, 97, 128, 1000, 1009, 4096])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft_and_ifft_match_numpy_over_a_batch(n, dtype, rng):
    x = _signal(rng, (3, n), dtype)
    got = pfft.fft(x)
    assert got.dtype == dtype and got.shape == x.shape
    _close(got, np.fft.fft(x.astype(np.complex128)), n)
    _close(pfft.ifft(x), np.fft.ifft(x.astype(np.complex128)), n)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_norms_as_numpy(norm, rng):
    x = _signal(rng, (5, 24), np.complex128)
    _close(pfft.fft(x, norm=norm), np.fft.fft(x, norm=norm), 24)
    _close(pfft.ifft(x, norm=norm), np.fft.ifft(x, norm=norm), 24)
    _close(pfft.fftn(x, norm=norm), np.fft.fftn(x, norm=norm), [5, 24])


def test_n_cuts_or_pads_and_axis_picks_the_axis(rng):
    x = _signal(rng, (6, 10, 4), np.complex128)
    for n in (3, 10, 16):
        for axis in (0, 1, -1):
            _close(pfft.fft(x, n=n, axis=axis), np.fft.fft(x, n=n, axis=axis), n)


@pytest.mark.parametrize("shape,axes", [((8, 6), None), ((5, 7, 9), None), ((4, 6, 5), (0, 2)), ((3, 4, 5, 6), None),
                                        ((6, 17), (1, 0))])
def test_fftn_fft2_and_their_inverses_match_numpy(shape, axes, rng):
    x = _signal(rng, shape, np.complex128)
    lengths = [shape[a] for a in (axes or range(len(shape)))]
    _close(pfft.fftn(x, axes=axes), np.fft.fftn(x, axes=axes), lengths)
    _close(pfft.ifftn(x, axes=axes), np.fft.ifftn(x, axes=axes), lengths)
    _close(pfft.fft2(x), np.fft.fft2(x), shape[-2:])
    _close(pfft.ifft2(x, s=(4, 9)), np.fft.ifft2(x, s=(4, 9)), [4, 9])


@pytest.mark.parametrize("n", [1, 2, 7, 16, 31, 100, 1009])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rfft_and_irfft_match_numpy(n, dtype, rng):
    x = _signal(rng, (4, n), dtype)
    got = pfft.rfft(x)
    assert got.shape == (4, n // 2 + 1)
    assert got.dtype == (np.complex64 if dtype == np.float32 else np.complex128)
    _close(got, np.fft.rfft(x.astype(np.float64)), n)
    back = pfft.irfft(got.astype(np.complex128), n=n)
    assert back.shape == x.shape and back.dtype == np.float64
    _close(back, np.fft.irfft(got.astype(np.complex128), n=n), n)
    _close(pfft.irfft(np.fft.rfft(x.astype(np.float64)), n=n, axis=-1), x.astype(np.float64), n)


def test_a_prime_length_runs_by_bluestein(rng):
    x = _signal(rng, (2, 65537), np.complex64)
    _close(pfft.fft(x), np.fft.fft(x.astype(np.complex128)), 65537)


def test_refusals_name_the_problem():
    with pytest.raises(ValueError, match="invalid number of data points"):
        pfft.fft(np.ones(4), n=0)
    with pytest.raises(ValueError, match="norm must be"):
        pfft.fft(np.ones(4), norm="both")
    with pytest.raises(ValueError, match="axis given twice"):
        pfft.fftn(np.ones((2, 2)), axes=(0, 0))
    with pytest.raises(TypeError, match="complex input"):
        pfft.rfft(np.ones(4, complex))
    with pytest.raises(ValueError, match="0-D"):
        pfft.fft(np.float64(1.0))
    with pytest.raises(ValueError, match="irfft: the last axis holds"):
        portacl._portacl.fft_transform(portacl.default_context(), np.ones((2, 4), np.complex128), 1, "c2r", True, 16)


def test_plans_are_kept_and_reused_right(rng):
    """A repeated transform reuses its kept plan; the results stay right as
    plans are reused, evicted (more than 16 shapes) and made again, and
    clear_plan_cache() empties the cache."""
    pfft.clear_plan_cache()
    assert pfft.plan_cache_size() == 0
    x = _signal(rng, (3, 64), np.complex64)
    for _ in range(3):
        _close(pfft.fft(x), np.fft.fft(x.astype(np.complex128)), 64)
    assert pfft.plan_cache_size() == 1
    shapes = [(2, n) for n in range(5, 25)]  # 20 lengths: more than the cache holds
    for shape in shapes + shapes[:3]:
        y = _signal(rng, shape, np.complex128)
        _close(pfft.ifft(y), np.fft.ifft(y), shape[1])
    assert 1 < pfft.plan_cache_size() <= 2 * 16
    _close(pfft.fft(x), np.fft.fft(x.astype(np.complex128)), 64)
    pfft.clear_plan_cache()
    assert pfft.plan_cache_size() == 0
