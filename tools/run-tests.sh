#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite: set up, build, run it on PoCL; then the same suite
# built with AddressSanitizer and UndefinedBehaviorSanitizer
# (PORTACL_SKIP_SANITIZERS=1 skips that second pass; it leaves out the
# longest end-to-end tool runs and the [long] test cases, mostly device work
# at large sizes, which the first pass runs); then the tests that
# share one Context between threads under ThreadSanitizer (PORTACL_SKIP_TSAN=1
# skips them; only the library and those tests' two files are built for it); then a 12-second run
# of each libFuzzer harness on its seed corpus (PORTACL_SKIP_FUZZ=1 skips it;
# PORTACL_FUZZ_SECONDS sets the time per harness).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
phase() { echo "portacl: $1 done at ${SECONDS} s"; }  # where CI's time goes
"$root/tools/setup.sh" build
phase "release build"
(cd "$root/build" && ctest -j"$jobs" --output-on-failure)
phase "release tests"
if [ "${PORTACL_SKIP_SANITIZERS:-0}" != 1 ]; then
  if [ -f "$root/build-asan/build.ninja" ]; then
    "$root/tools/setup.sh" build-asan
  else
    # -g1: line tables (what a sanitizer's report prints), a third less
    # compile time than full debug information.
    "$root/tools/setup.sh" build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DPORTACL_SANITIZE=ON \
      -DPORTACL_WITH_MPI=OFF -DPORTACL_WITH_PYTHON=OFF
  fi
  # Less the longest end-to-end tool runs (label long_end_to_end, see tests/CMakeLists.txt)
  # and the MPI jobs (label mpi: Open MPI's own allocations are not ours to
  # sanitise; the sanitizer build leaves libportacl_mpi out, and the Python
  # module, which an uninstrumented python3 could not load).
  phase "sanitizer build"
  (cd "$root/build-asan" && ctest -j"$jobs" --output-on-failure -LE "long_end_to_end|mpi")
  phase "sanitizer tests"
fi
if [ "${PORTACL_SKIP_TSAN:-0}" != 1 ]; then
  if [ ! -f "$root/build-tsan/build.ninja" ]; then
    # -O1 -g1: what ThreadSanitizer asks for, at half the compile time of -O2 -g.
    cmake -S "$root" -B "$root/build-tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DPORTACL_TSAN=ON -DPORTACL_WITH_MPI=OFF \
      -DPORTACL_WITH_PYTHON=OFF >/dev/null
  fi
  cmake --build "$root/build-tsan" --target portacl_thread_tests
  (cd "$root/build-tsan" && ctest -L threads --output-on-failure)
  phase "thread sanitizer build and tests"
fi
if [ "${PORTACL_SKIP_FUZZ:-0}" != 1 ]; then
  "$root/tests/fuzz/run.sh" "${PORTACL_FUZZ_SECONDS:-12}"
  phase "fuzzers"
fi
echo "portacl: all tests passed"
