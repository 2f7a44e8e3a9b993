# SPDX-License-Identifier: Apache-2.0
# %% [markdown]
# # portacl from Python, a notebook-style tour
# Each cell runs on the default device (PORTACL_DEVICE picks another) and
# checks itself against NumPy or SciPy. Run it as a script, or open it in an
# editor that reads "# %%" cells.

# %%
import numpy as np
import scipy.sparse as sp

import portacl

ctx = portacl.default_context()
print("device:", ctx.device["name"], "-", ctx.device["class"])
rng = np.random.default_rng(0)

# %% Reductions return Python numbers; a Buffer keeps data on the device.
x = rng.uniform(-1, 1, 1_000_003)
x_on_device = portacl.Buffer(ctx, x)
print("sum", portacl.sum(x_on_device), "norm", portacl.nrm2(x_on_device))
assert np.isclose(portacl.sum(x_on_device), x.sum())

# %% Every call can say what it chose and why.
total, plan = portacl.dot(x, x, return_plan=True)
print(plan.explain())

# %% Dense and sparse linear algebra.
a = rng.standard_normal((300, 200)).astype(np.float32)
b = rng.standard_normal((200, 100)).astype(np.float32)
assert np.allclose(portacl.matmul(a, b), a @ b, atol=1e-3)
n = 64
t = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(n, n))
poisson = (sp.kron(sp.identity(n), t) + sp.kron(t, sp.identity(n))).tocsr()
u, info = portacl.cg(poisson, np.ones(n * n), tol=1e-10)
print("CG:", info["stop_reason"], "after", info["iterations"], "iterations")
assert np.linalg.norm(poisson @ u - 1) < 1e-8 * n

# %% A matrix kept on the device: uploaded and analysed once, then every
# product and solve reuses it; a Buffer in gives a Buffer out.
m = portacl.sparse.csr_matrix(poisson, context=ctx)
twice = m @ (m @ portacl.Buffer(ctx, np.ones(n * n)))  # never leaves the device
assert np.allclose(twice.to_numpy(), poisson @ (poisson @ np.ones(n * n)))
# scipy.sparse.linalg's signature and (x, info): a SciPy program changes its import.
u, info = portacl.sparse.cg(m, np.ones(n * n), rtol=1e-10, M="jacobi")
assert info == 0 and np.linalg.norm(poisson @ u - 1) < 1e-8 * n

# %% Stencils: a plate warming from its north edge.
plate = portacl.heat2d(np.zeros((65, 65)), steps=2000, r=0.25, sides=(1.0, 0.0, 0.0, 0.0))
print("plate mean after 2000 steps: %.4f" % plate.mean())
assert 0 < plate.mean() < 1 and plate.min() >= 0

# %% Sorting and clustering.
keys = rng.integers(0, 2**31, 100_000).astype(np.uint32)
assert np.array_equal(portacl.sort(keys), np.sort(keys))
blobs = np.concatenate([c + rng.normal(0, 0.3, (500, 2)) for c in ([0, 0], [5, 5], [0, 5])]).astype(np.float32)
centroids, labels, info = portacl.kmeans(blobs, 3, seed=1)
print("k-means centroids:\n", np.round(centroids[np.argsort(centroids[:, 0] + 10 * centroids[:, 1])], 2))
assert sorted(info["cluster_sizes"]) == [500, 500, 500]
# %% A small network learns the sign of an image's mean brightness.
net = portacl.SmallCnn(1, 8, 8, filters=4, classes=2, seed=3)
labels = rng.integers(0, 2, 64)
images = (rng.uniform(-0.5, 0.5, (64, 1, 8, 8)) + np.where(labels, 0.5, -0.5)[:, None, None, None]).astype(np.float32)
losses = [net.train_step(images, labels, learning_rate=0.05) for _ in range(30)]
print("training loss %.3f -> %.3f" % (losses[0], losses[-1]))
assert losses[-1] < losses[0] and np.mean(net.predict(images) == labels) > 0.9
print("tour ok")
