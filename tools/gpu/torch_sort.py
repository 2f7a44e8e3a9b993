# SPDX-License-Identifier: Apache-2.0
# What a Python user gets for the sort (a second figure, never the
# baseline): torch.sort of uniform int32 keys, values and indices returned,
# and torch.sort(stable=True); CUDA events around each call, median of 20
# after 3 warm-ups. usage: python3 torch_sort.py [LOG2_SIZES, default 24,26]
import sys

import torch

logs = [int(v) for v in sys.argv[1].split(",")] if len(sys.argv) > 1 else [24, 26]
for log in logs:
    n = 1 << log
    keys = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
    for stable in (False, True):
        times = []
        for rep in range(23):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            values, index = torch.sort(keys, stable=stable)
            stop.record()
            torch.cuda.synchronize()
            if rep >= 3:
                times.append(start.elapsed_time(stop))
        times.sort()
        ms = times[len(times) // 2]
        ok = bool((values[1:] >= values[:-1]).all())
        print(f"torch.sort int32{' stable' if stable else ''} n={n} device {ms:.4f} ms ({times[0]:.4f}-{times[-1]:.4f}) "
              f"{n / ms / 1e6:.2f} G keys/s  {'ok' if ok else 'WRONG'}")
