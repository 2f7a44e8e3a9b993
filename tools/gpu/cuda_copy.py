# SPDX-License-Identifier: Apache-2.0
# CUDA's copies of N floats (default 2^26) between host and device through
# PyTorch: the second figure beside tools/gpu/cuda_copy.cu (cudaMemcpy called
# directly, the baseline), from pinned (page-locked) and pageable
# host memory, each direction alone, timed as users see them: wall clock
# around the copy and a device synchronize, median of 20 after 3 warm-ups.
# The same figures portacl-bench's transfer section reports, in the same run.
# usage: python3 tools/gpu/cuda_copy.py [N]
import statistics, sys, time
try:
    import torch
except Exception as e:
    print("no torch:", e); sys.exit(0)

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 26
dev = torch.device("cuda")
print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0), "n", n)

def wall(f, reps=20, warm=3):
    for _ in range(warm): f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); f(); torch.cuda.synchronize(); ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts), min(ts), max(ts)

d = torch.empty(n, dtype=torch.float32, device=dev)
for pinned in (True, False):
    h = torch.rand(n, dtype=torch.float32).pin_memory() if pinned else torch.rand(n, dtype=torch.float32)
    back = torch.empty(n, dtype=torch.float32, pin_memory=pinned)
    kind = "pinned" if pinned else "pageable"
    m, lo, hi = wall(lambda: d.copy_(h, non_blocking=pinned))
    print(f"cuda upload {kind} wall median {m:.3f} ms ({lo:.3f}-{hi:.3f}) {4 * n / (m * 1e6):.2f} GB/s")
    m, lo, hi = wall(lambda: back.copy_(d, non_blocking=pinned))
    ok = bool(torch.equal(back, h))
    print(f"cuda download {kind} wall median {m:.3f} ms ({lo:.3f}-{hi:.3f}) {4 * n / (m * 1e6):.2f} GB/s check {'ok' if ok else 'WRONG'}")
