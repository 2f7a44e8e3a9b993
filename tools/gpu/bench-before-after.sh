#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The same bench cases on an earlier tree and on this one, on the same GPU,
# alternating (before, after, before, after, ...) so that the machine's
# drift falls on both: for a change that must not move speed. BEFORE: the
# earlier tree's sources (e.g. `git archive COMMIT | tar -x -C DIR`, carried
# in a git-ignored folder). The /tmp/build of this tree must have
# portacl-bench (gpu-run.sh's build step with BUILD_TARGETS naming it).
# Writes $OUT/bench_{before,after}_R.json, one per round (TIMEOUT seconds
# each at most, default 300).
set -u
source tools/gpu/gpu-env.sh
BEFORE=${BEFORE:?BEFORE must name the earlier tree}
ROUNDS=${ROUNDS:-2}
KERNELS=${KERNELS:-copy,axpy,sum,sort uint32,nbody,conv direct,conv winograd}
ARGS=${ARGS:---sizes 2^24 --gemm-sizes 4096 --sparse poisson2d:2048,powerlaw:2000000:8 --stencils heat2d:4096:10 --no-transfers --no-latency --no-baseline}
if [ ! -f /tmp/build-before/tools/portacl-bench ]; then
  cmake -S "$BEFORE" -B /tmp/build-before -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$deps/usr" \
    -DCMAKE_INCLUDE_PATH="$deps/usr/include" > "$OUT/build_before.log" 2>&1 &&
    ninja -C /tmp/build-before portacl-bench >> "$OUT/build_before.log" 2>&1 || { tail -30 "$OUT/build_before.log"; exit 1; }
fi
for r in $(seq 1 "$ROUNDS"); do
  for which in before after; do
    bench=/tmp/build/tools/portacl-bench
    [ "$which" = before ] && bench=/tmp/build-before/tools/portacl-bench
    # Each tree reads its own kernels and keeps its own program cache.
    PORTACL_CACHE_DIR=/tmp/portacl-cache-$which timeout "${TIMEOUT:-300}" "$bench" --device gpu --seed "$r" --kernels "$KERNELS" \
      $ARGS --json > "$OUT/bench_${which}_$r.json" 2> "$OUT/bench_${which}_$r.err"
    echo "$which round $r exit $?"
  done
done
