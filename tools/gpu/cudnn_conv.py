# SPDX-License-Identifier: Apache-2.0
# cuDNN reference for portacl-bench's stencil table (run by tools/gpu/gpu-run.sh,
# step "stencil"): single-channel float convolutions through PyTorch
# (torch.nn.functional.conv2d/conv1d, which call cuDNN), zero padding so the
# output has the input's size, as portacl's `zero` boundary. Timed as its
# users see it: wall clock around the call and a device synchronize, and
# by CUDA events as a second method; median of 50 after 10 warm-ups.
# GB/s counts the input read once and the output written once.
import statistics, sys, time
try:
    import torch
    import torch.nn.functional as F
except Exception as e:
    print("no torch:", e); sys.exit(0)
if not torch.cuda.is_available():
    print("no CUDA device"); sys.exit(0)
torch.backends.cudnn.benchmark = True  # let cuDNN pick its fastest algorithm, as its users would

def timed(call, reps=50, warmup=10):
    for _ in range(warmup): call()
    torch.cuda.synchronize()
    wall, events = [], []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        start.record(); call(); stop.record()
        torch.cuda.synchronize()
        wall.append((time.perf_counter() - t0) * 1e3)
        events.append(start.elapsed_time(stop))
    return statistics.median(wall), min(wall), max(wall), statistics.median(events)

print(torch.cuda.get_device_name(0), "| torch", torch.__version__, "| cuDNN", torch.backends.cudnn.version())
for spec in (sys.argv[1] if len(sys.argv) > 1 else "conv2d:4096:5,conv1d:67108864:7").split(","):
    kind, n, m = spec.split(":"); n, m = int(n), int(m)
    if kind == "conv2d":
        x = torch.randn(1, 1, n, n, device="cuda"); w = torch.randn(1, 1, m, m, device="cuda")
        call = lambda: F.conv2d(x, w, padding=m // 2)
        outputs = n * n
    elif kind == "conv1d":
        x = torch.randn(1, 1, n, device="cuda"); w = torch.randn(1, 1, m, device="cuda")
        call = lambda: F.conv1d(x, w, padding=m // 2)
        outputs = n
    else:
        continue
    wall, lo, hi, ev = timed(call)
    print(f"cudnn {spec:24s} wall {wall:.4f} ms ({lo:.4f}-{hi:.4f})  events {ev:.4f} ms  "
          f"{8 * outputs / wall / 1e6:.0f} GB/s wall  {2 * m ** (2 if kind == 'conv2d' else 1) * outputs / wall / 1e6:.0f} GFLOP/s wall  "
          f"{8 * outputs / ev / 1e6:.0f} GB/s events")
