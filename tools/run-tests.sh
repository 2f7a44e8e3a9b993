#!/usr/bin/env bash
# The whole test suite: set up, build, run it on PoCL; then the same suite
# built with AddressSanitizer and UndefinedBehaviorSanitizer
# (PORTACL_SKIP_SANITIZERS=1 skips that second pass); then a 30-second run
# of each libFuzzer harness on its seed corpus (PORTACL_SKIP_FUZZ=1 skips it;
# PORTACL_FUZZ_SECONDS sets the time per harness).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
"$root/tools/setup.sh" build
(cd "$root/build" && ctest -j"$jobs" --output-on-failure)
if [ "${PORTACL_SKIP_SANITIZERS:-0}" != 1 ]; then
  if [ -f "$root/build-asan/build.ninja" ]; then
    "$root/tools/setup.sh" build-asan
  else
    "$root/tools/setup.sh" build-asan -DCMAKE_BUILD_TYPE=Debug -DPORTACL_SANITIZE=ON
  fi
  (cd "$root/build-asan" && ctest -j"$jobs" --output-on-failure)
fi
if [ "${PORTACL_SKIP_FUZZ:-0}" != 1 ]; then
  "$root/tests/fuzz/run.sh" "${PORTACL_FUZZ_SECONDS:-30}"
fi
echo "portacl: all tests passed"
