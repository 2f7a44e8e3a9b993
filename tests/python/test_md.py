# SPDX-License-Identifier: Apache-2.0
"""portacl.md (Lennard-Jones molecular dynamics in a periodic box) against
a double NumPy step by the same definition (minimum image, the potential
shifted to 0 at the cutoff, velocity Verlet), and its invariants over many
steps: total energy and momentum."""
import numpy as np
import pytest

import portacl

BOX = 6.6
CUTOFF = 2.5


def lattice(rng, dtype):
    """216 particles on a jittered 6^3 lattice of spacing 1.1 and velocities
    of zero total momentum."""
    g = (np.arange(6) + 0.5) * 1.1
    x = np.stack(np.meshgrid(g, g, g, indexing="ij"), axis=-1).reshape(-1, 3)
    x += rng.uniform(-0.05, 0.05, x.shape)
    v = rng.normal(0, 0.5, x.shape)
    v -= v.mean(axis=0)
    pad = np.zeros((len(x), 1))
    return np.hstack([x, pad]).astype(dtype), np.hstack([v, pad]).astype(dtype)


def forces_and_energy(x):
    d = x[:, None, :] - x[None, :, :]
    d -= BOX * np.round(d / BOX)
    r2 = (d * d).sum(axis=2)
    np.fill_diagonal(r2, np.inf)
    inside = r2 < CUTOFF * CUTOFF
    inv6 = np.where(inside, 1.0 / r2 ** 3, 0.0)
    shift = 4 * (CUTOFF ** -12 - CUTOFF ** -6)
    potential = 0.5 * np.where(inside, 4 * (inv6 * inv6 - inv6) - shift, 0.0).sum()
    scale = np.where(inside, 24 * (2 * inv6 * inv6 - inv6) / r2, 0.0)
    return (scale[:, :, None] * d).sum(axis=1), potential


def verlet_step(x, v, dt):
    f, _ = forces_and_energy(x)
    v = v + 0.5 * dt * f
    x = x + dt * v
    f, potential = forces_and_energy(x)
    return x, v + 0.5 * dt * f, potential


# The run's parameters (dt, cutoff, epsilon, sigma, masses) are float32 even
# in a float64 run, and so is the energy shift: float64 agrees to about 1e-7.
@pytest.mark.parametrize("dtype,tol", [(np.float32, 2e-4), (np.float64, 1e-6)])
def test_md_step_against_numpy(ctx, rng, dtype, tol):
    p, v = lattice(rng, dtype)
    x64, v64 = p[:, :3].astype(np.float64), v[:, :3].astype(np.float64)
    want_x, want_v, want_potential = verlet_step(x64, v64, float(np.float32(0.005)))
    got_p, got_v, info = portacl.md(p, v, (BOX, BOX, BOX), steps=1, dt=0.005, cutoff=CUTOFF, context=ctx)
    assert got_p.dtype == dtype and got_p.shape == p.shape
    moved = got_p[:, :3].astype(np.float64) - want_x
    moved -= BOX * np.round(moved / BOX)  # positions may have been wrapped into the box
    assert np.max(np.abs(moved)) <= tol * BOX
    assert np.max(np.abs(got_v[:, :3] - want_v)) <= tol * (1 + np.abs(want_v).max())
    assert info["potential"] == pytest.approx(want_potential, rel=10 * tol)
    assert info["kinetic"] == pytest.approx(0.5 * (want_v * want_v).sum(), rel=10 * tol)


def test_md_conserves_energy_and_momentum(ctx, rng):
    p, v = lattice(rng, np.float64)
    _, _, start = portacl.md(p, v, (BOX, BOX, BOX), steps=0, dt=0.002, cutoff=CUTOFF, context=ctx)
    _, _, potential = verlet_step(p[:, :3], v[:, :3], 0.0)
    assert start["potential"] == pytest.approx(potential, rel=1e-6)
    got_p, got_v, end = portacl.md(p, v, (BOX, BOX, BOX), steps=300, dt=0.002, cutoff=CUTOFF, context=ctx)
    assert end["rebuilds"] >= 1
    assert end["kinetic"] != pytest.approx(start["kinetic"], rel=0.05)  # energy moved between its forms ...
    assert abs(end["total"] - start["total"]) <= 1e-4 * abs(start["total"])  # ... and its total stayed
    assert np.max(np.abs(got_v[:, :3].sum(axis=0))) <= 1e-9 * len(v)


def test_md_refusals(ctx):
    with pytest.raises(ValueError, match=r"md: positions and velocities must both be \(n, 4\)"):
        portacl.md(np.zeros((4, 3)), np.zeros((4, 4)), (5, 5, 5), context=ctx)
    with pytest.raises(TypeError, match="md: dtype int64"):
        portacl.md(np.zeros((4, 4), np.int64), np.zeros((4, 4), np.int64), (5, 5, 5), context=ctx)
    with pytest.raises(portacl.Error, match="time step -1.000000 must be finite and above 0"):
        portacl.md(np.zeros((4, 4)), np.zeros((4, 4)), (5, 5, 5), dt=-1.0, context=ctx)
    with pytest.raises(ValueError, match=r"md: box needs 3 sides \(bx, by, bz\), not 2"):
        portacl.md(np.zeros((4, 4)), np.zeros((4, 4)), (5, 5), context=ctx)
