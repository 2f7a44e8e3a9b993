# SPDX-License-Identifier: Apache-2.0
"""portacl.SmallCnn against a NumPy forward pass of the same network (the
convolution, ReLU, pooling and dense layer from the packed parameters), a
loss that falls while training on a separable problem, predictions that
are the logits' argmax, and the refusals."""
import numpy as np
import pytest

import portacl


def forward_reference(params, images, filters, classes):
    """The network's logits in double, by its definition."""
    b, c, h, w = images.shape
    x = images.astype(np.float64)
    p = params.astype(np.float64)
    at = 0
    conv_w = p[at:at + filters * c * 9].reshape(filters, c, 3, 3)
    at += filters * c * 9
    conv_b = p[at:at + filters]
    at += filters
    ph, pw = h // 2, w // 2
    dense_w = p[at:at + classes * filters * ph * pw].reshape(classes, filters * ph * pw)
    at += classes * filters * ph * pw
    dense_b = p[at:at + classes]
    assert at + classes == p.size
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((b, filters, h, w))
    for dy in range(3):
        for dx in range(3):
            conv += np.einsum("bchw,fc->bfhw", padded[:, :, dy:dy + h, dx:dx + w], conv_w[:, :, dy, dx])
    relu = np.maximum(conv + conv_b[None, :, None, None], 0)
    pooled = relu[:, :, :2 * ph, :2 * pw].reshape(b, filters, ph, 2, pw, 2).max(axis=(3, 5))
    return pooled.reshape(b, -1) @ dense_w.T + dense_b


def mean_cross_entropy(logits, labels):
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -log_p[np.arange(len(labels)), labels].mean()


@pytest.mark.parametrize("c,h,w,filters,classes", [(1, 2, 2, 1, 2), (3, 8, 8, 4, 5), (2, 7, 9, 3, 3)])
def test_forward_matches_numpy(ctx, rng, c, h, w, filters, classes):
    net = portacl.SmallCnn(c, h, w, filters=filters, classes=classes, seed=int(rng.integers(1 << 30)), context=ctx)
    images = rng.uniform(-1, 1, (5, c, h, w)).astype(np.float32)
    want = forward_reference(net.parameters(), images, filters, classes)
    got = net.forward(images)
    assert got.dtype == np.float32 and got.shape == (5, classes)
    assert np.max(np.abs(got - want)) <= 1e-4 * (1 + np.abs(want).max())
    assert np.array_equal(net.predict(images), np.argmax(got, axis=1))


def test_training_lowers_the_loss(ctx, rng):
    # Two classes told apart by the sign of the image's mean brightness.
    net = portacl.SmallCnn(1, 8, 8, filters=4, classes=2, seed=7, context=ctx)
    labels = rng.integers(0, 2, 64)
    images = (rng.uniform(-0.5, 0.5, (64, 1, 8, 8)) + np.where(labels, 0.5, -0.5)[:, None, None, None])
    images = images.astype(np.float32)
    before = mean_cross_entropy(forward_reference(net.parameters(), images, 4, 2), labels)
    first = net.train_step(images, labels, learning_rate=0.05)
    assert first == pytest.approx(before, rel=1e-4)  # the loss before the step, as NumPy computes it
    losses = [net.train_step(images, labels, learning_rate=0.05) for _ in range(40)]
    assert losses[-1] < 0.5 * first
    assert np.mean(net.predict(images) == labels) >= 0.9


def test_parameters_round_trip_and_seed_repeats(ctx):
    a = portacl.SmallCnn(2, 6, 6, filters=3, classes=4, seed=11, context=ctx)
    b = portacl.SmallCnn(2, 6, 6, filters=3, classes=4, seed=11, context=ctx)
    assert np.array_equal(a.parameters(), b.parameters())
    changed = a.parameters() * 0.5
    a.set_parameters(changed)
    assert np.array_equal(a.parameters(), changed)


def test_training_refusals(ctx):
    net = portacl.SmallCnn(1, 4, 4, filters=2, classes=3, context=ctx)
    images = np.zeros((2, 1, 4, 4), np.float32)
    with pytest.raises(ValueError, match="labels from 0 to 3; the network has 3 classes"):
        net.train_step(images, [0, 3])
    with pytest.raises(TypeError, match="labels of dtype float64"):
        net.train_step(images, [0.0, 1.0])
    with pytest.raises(ValueError, match="3 labels for 2 images"):
        net.train_step(images, [0, 1, 2])
    with pytest.raises(ValueError, match=r"images are 1 x 4 x 5 \(C x H x W\) but the network takes 1 x 4 x 4"):
        net.forward(np.zeros((2, 1, 4, 5), np.float32))
    with pytest.raises(portacl.Error, match="3 values for a network of 47 parameters"):
        net.set_parameters(np.zeros(3, np.float32))
