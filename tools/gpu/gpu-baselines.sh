#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device machine (not CI): build and test on the GPU (gpu-run.sh), time
# CLBlast by a second, independent method (tools/gpu/clblast_direct.cpp), then
# ahead-of-time compilation cold and warm, then portacl-bench with every baseline timed by wall clock, GEMM and latency
# included, with the shipped tuning results. Logs in $OUT.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
STEPS="${GPU_STEPS:-build tests}" bash tools/gpu/gpu-run.sh
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu OCL_ICD_VENDORS=/tmp/icd PORTACL_CACHE_DIR=/tmp/portacl-cache
g++ -O2 -std=c++17 -I/tmp/deps/usr/include tools/gpu/clblast_direct.cpp -L/tmp/deps/usr/lib/x86_64-linux-gnu -lclblast \
  -lOpenCL -o /tmp/clblast_direct && timeout 120 /tmp/clblast_direct > "$OUT/clblast_direct.txt" 2>&1
cat "$OUT/clblast_direct.txt"
# Ahead-of-time compilation: a cold process (empty binary cache, NVIDIA's own
# cache off), then a second process reading the binary cache.
for run in cold warm; do
  [ $run = cold ] && rm -rf /tmp/prebuild-cache
  PORTACL_CACHE_DIR=/tmp/prebuild-cache CUDA_CACHE_DISABLE=1 timeout 300 /tmp/build/tools/portacl-prebuild --device gpu \
    > "$OUT/prebuild_$run.txt" 2>&1
  tail -1 "$OUT/prebuild_$run.txt"
done
export PORTACL_TUNING_PATH=$PWD/src/tuning/shipped
timeout 420 /tmp/build/tools/portacl-bench --device gpu --sizes ${BENCH_SIZES:-2^20,2^24,2^26} --reps 15 \
  --gemm-sizes ${GEMM_SIZES:-1024,2048,4096,8192} ${BENCH_ARGS:-} > "$OUT/bench_h100.txt" 2> "$OUT/bench_h100.err"
echo "bench exit $?"
grep -vE "^  [a-z_]+ n=" "$OUT/bench_h100.txt" | tail -75
