#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device machine (not CI): where GEMM's packing starts to pay on the GPU
# (rule general.pack-large-products). portacl-bench's GEMM section at small
# orders with packing forced off, forced on (a tuning database holding only
# {"PACK": v} for each size bucket, matched by device name), and then the
# rules' own choice with the shipped tuning results, latency included.
# Logs in $OUT.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
STEPS="${GPU_STEPS:-build tests}" bash tools/gpu/gpu-run.sh
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu OCL_ICD_VENDORS=/tmp/icd PORTACL_CACHE_DIR=/tmp/portacl-cache
SIZES=${PACK_SIZES:-64,96,128,192,256,320,384,512,768,1024}
bench() { timeout 200 /tmp/build/tools/portacl-bench --device gpu --kernels copy --sizes 2^20 --reps 21 --no-transfers "$@"; }
for pack in 0 1; do
  python3 - "$pack" "$SIZES" > /tmp/pack$pack.json <<'EOF'
import json, math, sys
pack, sizes = int(sys.argv[1]), [int(s) for s in sys.argv[2].split(',')]
shipped = json.load(open('src/tuning/shipped/nvidia_h100_80gb_hbm3.json'))
template = next(r for r in shipped['records'] if r['kernel'] == 'gemm')
records = []
for bucket in sorted({round(math.log2(n * n)) for n in sizes}):
    r = dict(template, bucket=bucket, n=2 ** bucket, configuration={'PACK': pack})
    records.append(r)
print(json.dumps(dict(shipped, records=records)))
EOF
  PORTACL_TUNING_DB=/tmp/pack$pack.json bench --no-latency --gemm-sizes "$SIZES" > "$OUT/pack$pack.txt" 2>&1
  echo "PACK=$pack"; grep -E "^  float" "$OUT/pack$pack.txt"
done
PORTACL_TUNING_DB=/tmp/none.json PORTACL_TUNING_PATH=$PWD/src/tuning/shipped bench --gemm-sizes "$SIZES,4096" \
  > "$OUT/pack_rules.txt" 2>&1
echo "rules"; grep -E "^  float|portacl::|CLBlastS" "$OUT/pack_rules.txt"
