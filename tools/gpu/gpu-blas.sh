#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Dense linear algebra on the GPU machine (device tool; not part of CI): build, the matrix
# tests on the GPU, cuBLAS through PyTorch for reference, optional tuning (TB=budget, 0 = none),
# then portacl-bench with the rules and with the shipped database. Needs .debs/ as gpu-run.sh.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
STEPS="build tests" TESTS="[gemm],[gemv],[spmv],[trsv]" bash tools/gpu/gpu-run.sh
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu OCL_ICD_VENDORS=/tmp/icd PORTACL_CACHE_DIR=/tmp/portacl-cache
DB=$OUT/tuning_h100.json
timeout 120 python3 tools/gpu/cublas.py > $OUT/cublas.txt 2>&1; cat $OUT/cublas.txt
[ "${TB:-30s}" = "0" ] || timeout 200 /tmp/build/tools/portacl-tune --device gpu --kernel gemv --kernel gemv_t --kernel packed_symv --kernel trsv --size 2^26 --budget ${TB:-30s} --db $DB > $OUT/tune.txt 2>$OUT/tune.log; echo "tune rc $?"; cat $OUT/tune.txt | head -12
B="--device gpu --kernels copy,gemv,gemv_t,spmv,trsv --sizes 2^24,2^26 --reps 7 --warmup 2 --no-transfers --gemm-sizes 1024,4096,8192 --gemm-types float,double"
PORTACL_TUNING=off timeout 170 /tmp/build/tools/portacl-bench $B > $OUT/bench_rules.txt 2>&1; echo "rules rc $?"; grep -vE "^  (copy|gemv|spmv|trsv|gemm) n=|measuring" $OUT/bench_rules.txt | tail -22
PORTACL_TUNING_DB=$DB PORTACL_TUNING_PATH=$PWD/src/tuning/shipped timeout 170 /tmp/build/tools/portacl-bench $B > $OUT/bench_tuned.txt 2>&1; echo "tuned rc $?"; grep -vE "^  (copy|gemv|spmv|trsv|gemm) n=|measuring" $OUT/bench_tuned.txt | tail -22
cd $OUT && tar czf /tmp/blas_out.tgz . && find . -type f -delete && mv /tmp/blas_out.tgz .
