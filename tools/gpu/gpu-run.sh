#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on the GPU machine lent through the device tool (not part of CI):
# builds portacl there, runs the unit tests on the GPU and on PoCL, and
# portacl-bench on the GPU. Logs go to $OUT.
# Needs the Debian .debs of CLBlast, Catch2 and clinfo in .debs/ (git-ignored).
# STEPS (default "build tests bench") picks what runs ("suite": the whole suite in parallel processes, "conv-fft", "conv-layer-fft", "fft-group", "fft-launches", "tune", "sparse", "stencil", "stencil-tuned", "registers", "cg-launches", "transfers", "gemm-shapes", "cublas", "scan-shapes", "spmv-shapes", "sort", "sort-shapes", "binary-gemm", "nbody", "md", "ml", "group" too); TESTS the
# Catch2 tags; TUNE_ARGS and BENCH_ARGS are passed to portacl-tune / -bench.
set -u
STEPS=${STEPS:-build tests bench}
source tools/gpu/gpu-env.sh
export PORTACL_TUNING_DB="$OUT/tuning_h100.json"
# tools/gpu/cudnn_direct.cu through cuDNN's C API into /tmp/cudnn_direct: the system's cuDNN
# (Debian/Ubuntu's multiarch paths), else the wheel's. Logs to $1; fails where there is no cudnn.h.
build_cudnn_direct() {
  local cudnn_inc=/usr/include/x86_64-linux-gnu cudnn_lib=/usr/lib/x86_64-linux-gnu wheel
  if [ ! -f "$cudnn_inc/cudnn.h" ]; then
    wheel=$(python3 -c "import nvidia.cudnn, os; print(os.path.dirname(list(nvidia.cudnn.__path__)[0] + '/x'))" 2>/dev/null)
    cudnn_inc="$wheel/include" cudnn_lib="$wheel/lib"
  fi
  if [ ! -f "$cudnn_inc/cudnn.h" ]; then
    echo "cuDNN direct: no cudnn.h found" >> "$1"
    return 1
  fi
  nvcc -O3 -arch=sm_90 -I"$cudnn_inc" -o /tmp/cudnn_direct tools/gpu/cudnn_direct.cu -L"$cudnn_lib" -l:libcudnn.so.9 \
    -Xlinker -rpath="$cudnn_lib" >> "$1" 2>&1
}
if has build; then
  build_portacl
  nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
  /tmp/build/tools/portacl-query --device gpu --explain > "$OUT/query_explain.txt" 2>&1
fi
if has tests; then
  PORTACL_TEST_DEVICE=gpu timeout ${TEST_TIMEOUT:-540} /tmp/build/tests/portacl_tests ${TESTS:-} > "$OUT/tests_gpu.log" 2>&1
  echo "gpu tests exit $?" >> "$OUT/tests_gpu.log"
  tail -n 30 "$OUT/tests_gpu.log"
fi
if has suite; then
  # The whole suite on the GPU, every case in its own process, SUITE_JOBS at a time, longest first by
  # the committed durations of the last run (tests/gpu-durations.tsv); the new durations and every
  # case's log come back in $OUT. The last lines are the summary (counts and time).
  cp tests/gpu-durations.tsv "$OUT/gpu-durations.tsv" 2>/dev/null || : > "$OUT/gpu-durations.tsv"
  PORTACL_TEST_DEVICE=gpu timeout ${TEST_TIMEOUT:-540} python3 tools/run-suite-parallel.py /tmp/build/tests/portacl_tests \
    --jobs ${SUITE_JOBS:-16} --durations "$OUT/gpu-durations.tsv" --log /tmp/suite --timeout 300 > "$OUT/suite_gpu.log" 2>&1
  echo "gpu suite exit $?" >> "$OUT/suite_gpu.log"
  tar czf "$OUT/suite_cases.tgz" -C /tmp/suite . 2>/dev/null
  tail -c 9000 "$OUT/suite_gpu.log"
fi
if has pocl; then
  (cd /tmp/build && timeout 300 ctest -j8 --output-on-failure) > "$OUT/ctest_pocl.log" 2>&1
  tail -n 4 "$OUT/ctest_pocl.log"
fi
if has tune; then
  timeout 540 /tmp/build/tools/portacl-tune --device gpu --all ${TUNE_ARGS:-} > "$OUT/tune_h100.txt" 2> "$OUT/tune_h100.log"
  echo "tune exit $?" >> "$OUT/tune_h100.txt"
  cat "$OUT/tune_h100.txt"
fi
if has untuned; then
  # The same benchmark with the rules' plans only, for comparison.
  PORTACL_TUNING=off timeout 400 /tmp/build/tools/portacl-bench --device gpu ${BENCH_ARGS:-} > "$OUT/bench_h100_rules.txt" 2>&1
  echo "untuned bench exit $?"
  grep -E "copy|axpy|sum|dot" "$OUT/bench_h100_rules.txt" | head -20
fi
if has sparse; then
  # The sparse section alone, as a table, writing its matrices; then
  # cuSPARSE called directly (the baseline) and through CuPy, with CuPy's CG,
  # on the very same matrices (SPARSE: the matrix list; SPARSE_SEEDS: one
  # run per seed, for matrices drawn at random).
  SPARSE=${SPARSE:-poisson2d:1024,poisson2d:2048,poisson3d27:128,powerlaw:2000000:8,web:1000000,circuit:1000000,permuted2d:1024,tall:1000000:200000:6,block3d:32}
  nvcc -O3 -arch=sm_90 -o /tmp/cusparse_direct tools/gpu/cusparse_direct.cu -lcusparse > "$OUT/cusparse_direct.txt" 2>&1
  : > "$OUT/sparse_h100.txt"
  : > "$OUT/cusparse_h100.txt"
  for seed in ${SPARSE_SEEDS:-1}; do
    rm -rf /tmp/mats && mkdir -p /tmp/mats
    timeout 500 /tmp/build/tools/portacl-bench --device gpu --seed "$seed" --sizes 2^20 --kernels axpy --no-transfers \
      --no-latency --sparse "$SPARSE" --save-matrices /tmp/mats ${SPARSE_ARGS:-} >> "$OUT/sparse_h100.txt" 2> "$OUT/sparse_h100.err"
    echo "sparse bench seed $seed exit $?" >> "$OUT/sparse_h100.txt"
    echo "== seed $seed" >> "$OUT/cusparse_direct.txt"
    timeout 300 /tmp/cusparse_direct /tmp/mats/*.bin >> "$OUT/cusparse_direct.txt" 2>&1
    [ -n "${SPARSE_CUPY:-1}" ] && timeout 300 python3 tools/gpu/cusparse.py /tmp/mats/*.bin >> "$OUT/cusparse_h100.txt" 2>&1
  done
  cat "$OUT/sparse_h100.txt" "$OUT/cusparse_direct.txt" "$OUT/cusparse_h100.txt"
fi
if has transfers; then
  # Host memory and back at 2^26 floats (pageable and pinned, each direction, SAXPY end to end, the
  # pipelines), beside CUDA's pinned and pageable copies in the same run.
  timeout 300 /tmp/build/tools/portacl-bench --device gpu --sizes 2^26 --kernels axpy --no-latency --reps 20 \
    > "$OUT/transfers_h100.txt" 2>&1
  # CUDA's cudaMemcpy called directly (the baseline), then PyTorch's copies (a second figure).
  nvcc -O2 -o /tmp/cuda_copy tools/gpu/cuda_copy.cu > "$OUT/cuda_copy_h100.txt" 2>&1 && /tmp/cuda_copy >> "$OUT/cuda_copy_h100.txt" 2>&1
  timeout 120 python3 tools/gpu/cuda_copy.py >> "$OUT/cuda_copy_h100.txt" 2>&1
  grep -A20 "host memory and back" "$OUT/transfers_h100.txt"; cat "$OUT/cuda_copy_h100.txt"
fi
if has cg-launches; then
  # Each launch of a CG iteration on the GPU, by its profiling events (tools/gpu/cg_launches.cpp).
  g++ -O2 -std=c++17 -I include -I src -I /tmp/build/generated/include tools/gpu/cg_launches.cpp -o /tmp/cg_launches \
    -L$libdir -lportacl -lOpenCL -Wl,-rpath,$libdir > "$OUT/cg_launches.txt" 2>&1
  /tmp/cg_launches gpu >> "$OUT/cg_launches.txt" 2>&1
  cat "$OUT/cg_launches.txt"
fi
GEMM_SIZES=${GEMM_SIZES:-2048,4096,8192}
if has gemm-shapes; then
  # gemm_tiled's shapes timed alone on packed panels, with their registers (tools/gpu/gemm_shapes.cpp);
  # GEMM_SHAPES: WG_X:WG_Y:WPT_M:WPT_N:TS_K:VEC:UNROLL:PREFETCH each.
  g++ -O2 -std=c++17 tools/gpu/gemm_shapes.cpp -o /tmp/gemm_shapes -lOpenCL > "$OUT/gemm_shapes.txt" 2>&1
  timeout 400 /tmp/gemm_shapes "$GEMM_SIZES" ${GEMM_SHAPES:-16:16:8:8:8:4:8:1} >> "$OUT/gemm_shapes.txt" 2>&1
  cat "$OUT/gemm_shapes.txt"
fi
if has cublas; then
  # cuBLAS SGEMM and DGEMM called directly (the baseline), then through PyTorch (a second figure).
  nvcc -O2 -o /tmp/cublas_direct tools/gpu/cublas_direct.cu -lcublas > "$OUT/cublas_h100.txt" 2>&1 &&
    timeout 200 /tmp/cublas_direct ${GEMM_SIZES//,/ } >> "$OUT/cublas_h100.txt" 2>&1
  timeout 120 python3 tools/gpu/cublas.py >> "$OUT/cublas_h100.txt" 2>&1
  cat "$OUT/cublas_h100.txt"
fi
if has scan-shapes; then
  # The single-pass scan's shapes on 2^26 floats beside copy (tools/gpu/scan_shapes.cpp).
  g++ -O2 -std=c++17 -I include -I src -I /tmp/build/generated/include tools/gpu/scan_shapes.cpp -o /tmp/scan_shapes \
    -L$libdir -lportacl -lOpenCL -Wl,-rpath,$libdir > "$OUT/scan_shapes.txt" 2>&1
  timeout 400 /tmp/scan_shapes gpu >> "$OUT/scan_shapes.txt" 2>&1
  cat "$OUT/scan_shapes.txt"
fi
if has spmv-shapes; then
  # csr-merge's shapes beside csr-block on the irregular matrices (tools/gpu/spmv_shapes.cpp).
  g++ -O2 -std=c++17 -I include -I src -I /tmp/build/generated/include tools/gpu/spmv_shapes.cpp -o /tmp/spmv_shapes \
    -L$libdir -lportacl -lOpenCL -Wl,-rpath,$libdir > "$OUT/spmv_shapes.txt" 2>&1
  timeout 400 /tmp/spmv_shapes gpu >> "$OUT/spmv_shapes.txt" 2>&1
  cat "$OUT/spmv_shapes.txt"
fi
if has registers; then
  # Registers and spills of the star's plane queue (NVIDIA's -cl-nv-verbose), per case
  # WG_X:WG_Y:OUTPUTS_Y:PREFETCH_PLANES.
  g++ -O1 -o /tmp/cl_build_log tools/gpu/cl_build_log.cpp -lOpenCL
  for case in ${REG_CASES:-32:8:1:1 32:8:2:1 32:8:4:1 32:8:8:1}; do
    IFS=: read -r wx wy oy pf <<< "$case"
    echo "== star_queue WG ${wx}x${wy} OUTPUTS_Y=$oy PREFETCH_PLANES=$pf" >> "$OUT/registers.txt"
    /tmp/cl_build_log kernels/stencil3d.cl "-I kernels -cl-nv-verbose -DT=float -DVW=1 -DR=4 -DOFF=0 -DCLAMP=0 \
-DREACH=4 -DWG_X=$wx -DWG_Y=$wy -DOUTPUTS_Y=$oy -DPREFETCH_PLANES=$pf -DSTAR_QUEUE=1 -DPLANE_OFFSET=int \
-DPOINTS=X(0,0,0,0)" 2>&1 | grep -E "ptxas|registers|spill|Compiling|error" >> "$OUT/registers.txt"
  done
  cat "$OUT/registers.txt"
fi
STENCILS=${STENCILS:-heat2d:4096:1000,star3d:512:4,conv2d:4096:5,conv1d:67108864:7,ncc:2048:16,ncc:2048:52}
if has stencil; then
  timeout 500 /tmp/build/tools/portacl-bench --device gpu --sizes 2^26 --kernels axpy --no-transfers --no-latency \
    --reps 10 --stencils "$STENCILS" > "$OUT/stencil_h100.txt" 2> "$OUT/stencil_h100.err"
  echo "stencil bench exit $?" >> "$OUT/stencil_h100.txt"
  cat "$OUT/stencil_h100.txt"
  timeout 120 python3 tools/gpu/cudnn_conv.py > "$OUT/cudnn_h100.txt" 2>&1
  cat "$OUT/cudnn_h100.txt"
fi
if has stencil-tuned; then
  # The stencil family tuned on this device, then the same stencil table
  # with the tuning database in force.
  # Each at the size of its benchmark case (4096^2, 4096^2, 2048^2), the
  # star at 256^3 (its host check at 512^3 takes seconds per candidate).
  # STENCIL_TUNE ("op:size;op:size") picks others.
  IFS=';' read -ra tune_ops <<< "${STENCIL_TUNE:-heat2d step:2^24;conv2d 5x5:2^24;star3d r4:2^24;ncc 16x16:2^22}"
  for op in "${tune_ops[@]}"; do
    timeout 300 /tmp/build/tools/portacl-tune --device gpu --kernel "${op%%:*}" --size "${op##*:}" --budget "${TUNE_BUDGET:-24}" \
      >> "$OUT/tune_stencil_h100.txt" 2>> "$OUT/tune_stencil_h100.log"
    echo "stencil tune ${op%%:*} exit $?" >> "$OUT/tune_stencil_h100.txt"
  done
  grep -E "^(heat2d|conv2d|star3d|ncc) .*x |exit" "$OUT/tune_stencil_h100.txt"
  timeout 300 /tmp/build/tools/portacl-bench --device gpu --sizes 2^26 --kernels axpy --no-transfers --no-latency \
    --reps 10 --stencils "$STENCILS" > "$OUT/stencil_h100_tuned.txt" 2> "$OUT/stencil_h100_tuned.err"
  echo "tuned stencil bench exit $?" >> "$OUT/stencil_h100_tuned.txt"
  cat "$OUT/stencil_h100_tuned.txt"
fi
if has bench; then
  timeout 400 /tmp/build/tools/portacl-bench --device gpu ${BENCH_ARGS:-} --json > "$OUT/bench_h100.json" 2> "$OUT/bench_h100.err"
  echo "bench exit $?"
  python3 - "$OUT/bench_h100.json" > "$OUT/bench_h100.txt" <<'PY' || tail -20 "$OUT/bench_h100.err"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["ceilings"]
print(f'{r["device"]} | {r["platform"]} | driver {r["driver"]} | {r["started"]}')
print(f'copy {c["copy_gbs"]:.1f} GB/s  fma {c["fma_gflops"]:.0f} GFLOP/s')
for k in r["kernels"]:
    b = k.get("baseline")
    t = k.get("time")
    if not t:  # skipped (does not fit the device) or failed: no times
        print(f'{k["kernel"]:16s} {k["n"]:>10.0f}  {k["check"]}')
        continue
    line = f'{k["kernel"]:16s} {k["n"]:>10.0f} {t["median_ms"]:9.4f} ({t["min_ms"]:.4f}-{t["max_ms"]:.4f}) {k["gbs"]:8.1f} GB/s {100*k["fraction_of_copy"]:5.1f}% {k.get("memory", ""):6s}'
    if b and b.get("wall"): line += f' | {b["routine"]:6s} {b["wall"]["median_ms"]:9.4f} wall {b["gbs"]:8.1f} GB/s {b["speedup"]:5.2f}x {b["check"]}'
    print(line + f'  {k["check"]}  [{k["plan"]}]')
for t in r["transfers"]:
    print(f'{t["path"]:30s} {t["n"]:>10.0f} {t["wall"]["median_ms"]:9.2f} ms {t["gbs"]:6.2f} GB/s {t["check"]}')
PY
  cat "$OUT/bench_h100.txt"
fi
if has sort; then
  # The radix sort beside CUB called directly (the floor), Boost.Compute in
  # portacl-bench and in a program of its own (the second method), and
  # torch.sort (what a Python user gets).
  nvcc -O3 -arch=sm_90 -o /tmp/cub_sort tools/gpu/cub_sort.cu > "$OUT/sort_h100.txt" 2>&1 &&
    timeout 120 /tmp/cub_sort ${SORT_LOGS:-24,26} >> "$OUT/sort_h100.txt" 2>&1
  timeout 120 python3 tools/gpu/torch_sort.py ${SORT_LOGS:-24,26} >> "$OUT/sort_h100.txt" 2>&1
  timeout 300 /tmp/build/tools/portacl-bench --device gpu --sizes ${SORT_SIZES:-2^24,2^26} \
    --kernels "copy,sort uint32,sort_by_key uint32,sort uint64,sort_by_key uint64" --no-transfers --no-latency >> "$OUT/sort_h100.txt" 2>&1
  g++ -O2 -std=c++17 -I include -I /tmp/build/generated/include tools/gpu/boost_compute_sort.cpp -L$libdir \
    -lportacl -lOpenCL -Wl,-rpath,$libdir -o /tmp/bc_sort >> "$OUT/sort_h100.txt" 2>&1 &&
    timeout 200 /tmp/bc_sort gpu ${SORT_LOGS:-24,26} >> "$OUT/sort_h100.txt" 2>&1
  cat "$OUT/sort_h100.txt"
fi
if has sort-shapes; then
  # The sort's tile shapes, in one sweep and as count + scan + scatter (tools/gpu/sort_shapes.cpp).
  g++ -O2 -std=c++17 -I include -I /tmp/build/generated/include tools/gpu/sort_shapes.cpp -L$libdir -lportacl \
    -lOpenCL -Wl,-rpath,$libdir -o /tmp/sort_shapes > "$OUT/sort_shapes_h100.txt" 2>&1 &&
    timeout 300 /tmp/sort_shapes gpu >> "$OUT/sort_shapes_h100.txt" 2>&1
  cat "$OUT/sort_shapes_h100.txt"
fi
if has ml; then
  # The machine-learning section (ML_KERNELS, comma-separated), its tuner
  # on the book's sizes, and the PyTorch peers of k-means and KNN on the
  # same shapes.
  ML_KERNELS=${ML_KERNELS:-kmeans,knn d=3,knn d=64,conv direct,conv im2col,conv winograd,conv backward,pool,train step}
  timeout 240 /tmp/build/tools/portacl-bench --device gpu --kernels "$ML_KERNELS" --sizes ${ML_SIZES:-2^23,2^24} \
    --no-transfers --no-latency --reps 20 > "$OUT/ml_h100.txt" 2>&1
  IFS=',' read -ra ml_kernels <<< "$ML_KERNELS"
  for kernel in "${ml_kernels[@]}"; do
    [ "${ML_BUDGET:-40}" -gt 0 ] || break  # ML_BUDGET=0: no tuning
    timeout 200 /tmp/build/tools/portacl-tune --device gpu --kernel "$kernel" --size 2^24 --budget ${ML_BUDGET:-40} \
      --dry-run >> "$OUT/ml_h100.txt" 2>&1
  done
  timeout 120 python3 tools/gpu/torch_ml.py >> "$OUT/ml_h100.txt" 2>&1
  build_cudnn_direct "$OUT/ml_h100.txt" && timeout 120 /tmp/cudnn_direct >> "$OUT/ml_h100.txt" 2>&1
  grep -E "^  (kmeans|knn|conv|pool|train)|torch|cuDNN|operation|^(kmeans|knn|conv|pool|train)( d=[0-9]+| direct| im2col| winograd| backward| step)? +[0-9]|copy bandwidth|FP32" "$OUT/ml_h100.txt" | head -60
fi
if has binary-gemm; then
  # Binary GEMM at 4096^3 and 8192^3 (workloads 2^24 and 2^27: order 16 cbrt(n)) beside portacl's SGEMM of
  # the same orders in the same run, then 40 tile shapes at 4096^3, measured and not stored.
  timeout 240 /tmp/build/tools/portacl-bench --device gpu --kernels binary_gemm --sizes 2^24,2^27 \
    --gemm-sizes 4096,8192 --no-transfers --no-latency --reps 10 > "$OUT/binary_gemm_h100.txt" 2>&1
  timeout 200 /tmp/build/tools/portacl-tune --device gpu --kernel binary_gemm --size 2^24 --budget 40 --dry-run \
    >> "$OUT/binary_gemm_h100.txt" 2>&1
  grep -E "binary_gemm|gemm (4096|8192)|FP32|copy bandwidth|operation|rules" "$OUT/binary_gemm_h100.txt" | head -40
fi
if has group; then
  # Device groups (issue 28): the GPU with the CPU through PoCL, and the CPU split into 2 and 4
  # sub-devices; weights measured and stored first (portacl-tune --group), then the scaling tables.
  for g in gpu+cpu cpu/2 cpu/4; do
    /tmp/build/tools/portacl-tune --group "$g" >> "$OUT/group_calibration.txt" 2>&1
    /tmp/build/tools/portacl-query --group "$g" >> "$OUT/group_calibration.txt" 2>&1
  done
  timeout 300 /tmp/build/tools/portacl-bench --group gpu+cpu --group-reference gpu --group-only \
    --group-cases ${GROUP_GPU_CASES:-cg:2048,heat:8192,nbody:65536} > "$OUT/group_gpu_cpu.txt" 2>&1
  for g in cpu/2 cpu/4; do
    timeout 200 /tmp/build/tools/portacl-bench --group "$g" --group-reference cpu --group-only \
      --group-cases ${GROUP_CPU_CASES:-cg:1024,heat:4096,nbody:32768} > "$OUT/group_${g/\//}.txt" 2>&1
  done
  cat "$OUT"/group_*.txt | grep -E "^\||device group"
fi
if has nbody; then
  # N-body at 2^14, 2^16 and 2^18 bodies (workloads 2^18, 2^22, 2^26: 32 sqrt(n) bodies) under the
  # rules' plan, then 40 tuning candidates at 2^16 bodies, measured and not stored (--dry-run).
  timeout 200 /tmp/build/tools/portacl-bench --device gpu --sizes ${NBODY_SIZES:-2^18,2^22,2^26} --kernels nbody \
    --no-transfers --no-latency > "$OUT/nbody_h100.txt" 2>&1
  timeout 240 /tmp/build/tools/portacl-tune --device gpu --kernel nbody --size 2^22 --budget 40 --dry-run \
    >> "$OUT/nbody_h100.txt" 2>&1
  grep -E "nbody|copy bandwidth|FP32" "$OUT/nbody_h100.txt" | head -40
fi
if has md; then
  # A Lennard-Jones MD step (list check, rebuild when due, forces, both halves) at 32000 and 1048576 atoms,
  # its parts alone (the list's build, the forces over a built list), and the RDF of 2^16 particles
  # (workload 2^20) in 1000 shells.
  timeout 240 /tmp/build/tools/portacl-bench --device gpu --sizes ${MD_SIZES:-2^15,2^20} \
    --kernels "md step lj,neighbour list lj,lj forces,rdf 1000 shells" --no-transfers --no-latency \
    > "$OUT/md_h100.txt" 2>&1
  grep -E "md step|neighbour list|lj forces|rdf|copy bandwidth" "$OUT/md_h100.txt"
fi
if has fft-group; then
  # The 3D FFT over groups of 1 and 2 GPUs against one GPU (needs a machine of two GPUs for the second group).
  g++ -O2 -std=c++17 -I include -I /tmp/build/generated/include tools/gpu/fft_group_scaling.cpp \
    -o /tmp/fft_group_scaling -L "$libdir" -lportacl -lOpenCL -Wl,-rpath,"$libdir" > "$OUT/fft_group_gpu.txt" 2>&1
  timeout 240 /tmp/fft_group_scaling ${FFT_GROUP_SIDES:-128 256} >> "$OUT/fft_group_gpu.txt" 2>&1
  cat "$OUT/fft_group_gpu.txt"
fi
if has fft-launches; then
  # Each launch of the FFT on its own: device ms, GB/s and the plan's stage, slots and access order.
  g++ -O2 -std=c++17 -I include -I /tmp/build/generated/include tools/gpu/fft_launch_times.cpp \
    -o /tmp/fft_launch_times -L "$libdir" -lportacl -lOpenCL -Wl,-rpath,"$libdir" > "$OUT/fft_launches_gpu.txt" 2>&1
  timeout 240 /tmp/fft_launch_times gpu ${FFT_LAUNCH_CASES:-} >> "$OUT/fft_launches_gpu.txt" 2>&1
  cat "$OUT/fft_launches_gpu.txt"
fi
if has conv-layer-fft; then
  # Convolution layers by each algorithm against the FFT (the crossover that sets rule conv.fft's GPU constant).
  g++ -O2 -std=c++17 -I include -I /tmp/build/generated/include tools/gpu/conv_layer_fft_crossover.cpp \
    -o /tmp/conv_layer_fft_crossover -L "$libdir" -lportacl -lOpenCL -Wl,-rpath,"$libdir" \
    > "$OUT/conv_layer_fft_gpu.txt" 2>&1
  timeout 240 /tmp/conv_layer_fft_crossover gpu ${CONV_LAYER_IMAGES:-32} >> "$OUT/conv_layer_fft_gpu.txt" 2>&1
  cat "$OUT/conv_layer_fft_gpu.txt"
  # cuDNN's forward pass of some of the same layers (its fastest algorithm, FFT ones among those it tries).
  if build_cudnn_direct "$OUT/cudnn_layers_gpu.txt"; then
    # N,C,H,K,R a layer (images, channels, side, filters, filter side).
    for layer in ${CUDNN_LAYERS:-32,64,32,64,5 32,64,32,64,11 32,32,64,32,9 32,384,13,256,5 32,16,128,16,9 32,64,32,64,3}; do
      timeout 60 /tmp/cudnn_direct ${layer//,/ } >> "$OUT/cudnn_layers_gpu.txt" 2>&1
    done
  fi
  cat "$OUT/cudnn_layers_gpu.txt"
fi
if has conv-fft; then
  # Convolution directly against by FFT, by mask size (the crossover that sets rule convolution.fft's GPU
  # constant), then the bench's conv2d cases with every variant, "by FFT" among them.
  g++ -O2 -std=c++17 -I include -I /tmp/build/generated/include tools/gpu/conv_fft_crossover.cpp \
    -o /tmp/conv_fft_crossover -L "$libdir" -lportacl -lOpenCL -Wl,-rpath,"$libdir" > "$OUT/conv_fft_gpu.txt" 2>&1
  for n in ${CONV_FFT_SIZES:-2048 4096}; do
    timeout 200 /tmp/conv_fft_crossover gpu "$n" >> "$OUT/conv_fft_gpu.txt" 2>&1
  done
  timeout 240 /tmp/build/tools/portacl-bench --device gpu --sizes 2^20 --kernels axpy --no-transfers --no-latency \
    --stencils ${CONV_FFT_CASES:-conv2d:4096:5,conv2d:4096:17,conv2d:4096:33} > "$OUT/conv_fft_bench_gpu.txt" 2>&1
  cat "$OUT/conv_fft_gpu.txt"
  grep -E "conv2d|copy bandwidth" "$OUT/conv_fft_bench_gpu.txt"
fi
