#!/usr/bin/env bash
# Runs on the GPU machine lent through the device tool (not part of CI):
# builds portacl there, captures the GPU's clinfo, runs the test suite on
# PoCL and on the GPU, portacl-query and the demo. Logs go to $OUT.
# Needs the Debian .debs of CLBlast, Catch2 and clinfo in .debs/ (git-ignored).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/icd
cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
deps=/tmp/deps
for f in .debs/*.deb; do dpkg -x "$f" "$deps"; done
export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
if [ "${CAPTURE_CLINFO:-0}" = 1 ]; then
{
  echo "# NVIDIA H100 80GB HBM3 (Hopper, compute capability 9.0), NVIDIA OpenCL."
  echo "# Source: 'clinfo' (Debian 12's clinfo 3.0.23) captured through the project's device tool, $(date -u +%F)."
  "$deps/usr/bin/clinfo"
} > "$OUT/h100_full.clinfo" 2>&1
"$deps/usr/bin/clinfo" --raw > "$OUT/h100_raw.clinfo" 2>&1
fi
export PORTACL_CACHE_DIR=/tmp/portacl-cache
( cmake -S . -B /tmp/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$deps/usr" \
    -DCMAKE_INCLUDE_PATH="$deps/usr/include" && ninja -C /tmp/build ) > "$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
/tmp/build/tools/portacl-query > "$OUT/query.txt" 2>&1; echo "query exit $?" >> "$OUT/query.txt"
/tmp/build/tools/portacl-query --device gpu --explain > "$OUT/query_explain.txt" 2>&1
# Cold vs warm program cache; the driver's own cache is off so "cold" compiles.
{
  for i in 1 2 3; do
    rm -rf /tmp/demo-cache
    echo "== cold (empty portacl cache, CUDA_CACHE_DISABLE=1)"
    CUDA_CACHE_DISABLE=1 PORTACL_CACHE_DIR=/tmp/demo-cache /usr/bin/time -f "wall %e s" /tmp/build/tools/portacl-demo gpu
    echo "== warm (portacl binary cache, CUDA_CACHE_DISABLE=1)"
    CUDA_CACHE_DISABLE=1 PORTACL_CACHE_DIR=/tmp/demo-cache /usr/bin/time -f "wall %e s" /tmp/build/tools/portacl-demo gpu
  done
} > "$OUT/demo.txt" 2>&1
(cd /tmp/build && ctest -j8 --output-on-failure) > "$OUT/ctest_pocl.log" 2>&1
PORTACL_TEST_DEVICE=gpu /tmp/build/tests/portacl_tests "[axpy],[runtime],[cache],[loading],[device]" > "$OUT/tests_gpu.log" 2>&1
echo "gpu tests exit $?" >> "$OUT/tests_gpu.log"
for f in "$OUT/ctest_pocl.log" "$OUT/tests_gpu.log"; do tail -n 4 "$f"; done
head -30 "$OUT/query_explain.txt"
grep -E "AXPY|wall|programs" "$OUT/demo.txt"
