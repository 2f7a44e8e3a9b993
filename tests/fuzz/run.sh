#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer harnesses with clang (in build-fuzz/) and runs each on
# top of a seed corpus drawn from the fixtures, for SECONDS each (default
# 30). Fails on any crash, leak, UndefinedBehaviorSanitizer report or
# timeout. For a longer hunt: tests/fuzz/run.sh 600 (docs/design.md).
#   tests/fuzz/run.sh [SECONDS] [HARNESS...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-30}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(json clinfo device_json tuning_db program_cache includes matrix_market)
build=$root/build-fuzz
# Only the harnesses and their library (tests/fuzz/core.cmake), not libportacl.
PORTACL_BUILD_TARGETS="${harnesses[*]/#/fuzz_}" PORTACL_EXTRA_PACKAGES="clang libclang-rt-14-dev" CC=clang \
  CXX=clang++ "$root/tools/setup.sh" "$build" -DPORTACL_FUZZ=ON -DPORTACL_BUILD_TESTS=OFF -DPORTACL_BUILD_TOOLS=OFF \
  -DPORTACL_WITH_MPI=OFF -DPORTACL_WITH_PYTHON=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

fixtures=$root/tests/fixtures/devices
seed() {  # the seed corpus of harness $1 in directory $2
  case $1 in
    clinfo) cp "$fixtures"/*.clinfo "$2"/ ;;
    device_json) cp "$fixtures"/*.json "$2"/ ;;
    json) cp "$fixtures"/*.json "$root"/src/tuning/shipped/*.json "$2"/ ;;
    tuning_db) cp "$root"/src/tuning/shipped/*.json "$2"/ ;;
    includes) cp "$root"/kernels/*.cl "$2"/ ;;
    matrix_market) cp "$root"/tests/fixtures/matrices/*.mtx "$2"/ ;;
    program_cache)  # entries of the cache's format for the harness's key
      printf 'PORTACL-PROGRAM-BINARY 1\n9\nfuzz-key\n0 cbf29ce484222325\n' > "$2/empty"
      printf 'PORTACL-PROGRAM-BINARY 1\n9\nfuzz-key\n5 %s\nhello' "$(printf hello | python3 -c '
import sys
h = 0xcbf29ce484222325
for b in sys.stdin.buffer.read():
    h = ((h ^ b) * 0x100000001b3) % (1 << 64)
print("%016x" % h)')" > "$2/hello" ;;
  esac
}
status=0
for h in "${harnesses[@]}"; do
  corpus=$(mktemp -d)
  seed "$h" "$corpus"
  log=$build/fuzz_$h.log
  echo "fuzz_$h: ${seconds}s on $(ls "$corpus" | wc -l) seed(s)"
  if ! (cd "$build" && ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$build/tests/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 "$corpus" >"$log" 2>&1); then
    echo "fuzz_$h FAILED; the end of $log:"
    tail -40 "$log"
    status=1
  else
    grep -E "^stat::number_of_executed_units|^Done" "$log" | tr '\n' ' '
    echo
  fi
  rm -rf "$corpus"
done
exit $status
