# SPDX-License-Identifier: Apache-2.0
# The PyTorch peers of portacl's k-means and KNN on the same shapes (no
# CUDA library has either; this is how a PyTorch user writes them), TF32
# off, float32 on the GPU. CUDA events around each call, median of 20
# after 3 warm-ups, with the spread.
#   k-means: one Lloyd iteration on 300,000 points of 35, k = 10: the
#     squared distances by the matrix-product expansion, argmin, the
#     cluster sums by index_add_, counts by bincount, the means (empty
#     clusters kept).
#   KNN: 4096 queries against 4096 training points, d = 3 and 64, k = 64,
#     16 classes: cosine similarities by a matrix product of the normalised
#     rows, topk, a vote by scatter_add_ and argmax.
import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
gen = torch.Generator(device="cuda").manual_seed(7)


def timed(fn, reps=23):
    times = []
    for rep in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        torch.cuda.synchronize()
        if rep >= 3:
            times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2], times[0], times[-1]


n, d, k = 300000, 35, 10
x = torch.randn(n, d, device="cuda", generator=gen)
centroids = x[:k].clone()


def lloyd():
    global centroids
    dist = (x * x).sum(1, keepdim=True) - 2 * x @ centroids.T + (centroids * centroids).sum(1)
    labels = dist.argmin(1)
    sums = torch.zeros_like(centroids).index_add_(0, labels, x)
    counts = torch.bincount(labels, minlength=k)
    means = sums / counts.clamp(min=1).unsqueeze(1).to(sums.dtype)
    centroids = torch.where(counts.unsqueeze(1) > 0, means, centroids)


ms, lo, hi = timed(lloyd)
print(f"torch k-means iteration n={n} d={d} k={k}: {ms:.4f} ms ({lo:.4f}-{hi:.4f})")

queries, train, neighbours, classes = 4096, 4096, 64, 16
for dim in (3, 64):
    t = torch.randn(train, dim, device="cuda", generator=gen)
    q = torch.randn(queries, dim, device="cuda", generator=gen)
    labels = torch.randint(0, classes, (train,), device="cuda", generator=gen)
    ones = torch.ones(queries, neighbours, device="cuda")

    def knn():
        sim = torch.nn.functional.normalize(q, dim=1) @ torch.nn.functional.normalize(t, dim=1).T
        scores, index = sim.topk(neighbours, dim=1)
        votes = torch.zeros(queries, classes, device="cuda").scatter_add_(1, labels[index], ones)
        return votes.argmax(1)

    ms, lo, hi = timed(knn)
    print(f"torch KNN {queries} x {train} d={dim} k={neighbours} classes={classes}: {ms:.4f} ms ({lo:.4f}-{hi:.4f})")

# The book's convolution layer through cuDNN (torch.nn.functional.conv2d,
# NCHW, padding 1), cuDNN choosing its fastest algorithm as its users let
# it (benchmark mode), TF32 off: effective TFLOP/s count every padded tap.
torch.backends.cudnn.benchmark = True
images = torch.randn(128, 384, 13, 13, device="cuda", generator=gen)
weights = torch.randn(256, 384, 3, 3, device="cuda", generator=gen)
ms, lo, hi = timed(lambda: torch.nn.functional.conv2d(images, weights, padding=1))
flops = 2 * 128 * 256 * 13 * 13 * 384 * 9
print(f"cuDNN conv 128x384x13x13 * 256x384x3x3 pad 1: {ms:.4f} ms ({lo:.4f}-{hi:.4f}), {flops / ms / 1e9:.1f} TFLOP/s")

# Its backward pass (the input's and the weights' gradients, cuDNN's
# backward-data and backward-filter) through autograd.
images.requires_grad_(True)
weights.requires_grad_(True)
out = torch.nn.functional.conv2d(images, weights, padding=1)
grad = torch.randn_like(out)
ms, lo, hi = timed(lambda: torch.autograd.grad(out, (images, weights), grad, retain_graph=True))
print(f"cuDNN conv backward (data + filter) same layer: {ms:.4f} ms ({lo:.4f}-{hi:.4f}), "
      f"{2 * flops / ms / 1e9:.1f} TFLOP/s")
