# SPDX-License-Identifier: Apache-2.0
# cuBLAS SGEMM/DGEMM reference for portacl-bench's GEMM table (run by tools/gpu/gpu-blas.sh).
# cuBLAS SGEMM/DGEMM through PyTorch (TF32 off), medians of CUDA-event timings.
import statistics, sys
try:
    import torch
except Exception as e:
    print("no torch:", e); sys.exit(0)
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))
for dt in (torch.float32, torch.float64):
    for n in (1024, 4096, 8192):
        a = torch.rand(n, n, device="cuda", dtype=dt); b = torch.rand(n, n, device="cuda", dtype=dt)
        for _ in range(3): c = a @ b
        ts = []
        for _ in range(10):
            s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
            s.record(); c = a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
        m = statistics.median(ts)
        print(f"cublas {str(dt).split('.')[-1]} n={n} median {m:.4f} ms ({min(ts):.4f}-{max(ts):.4f}) {2*n**3/m/1e9:.1f} TFLOP/s")
