// SPDX-License-Identifier: Apache-2.0
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

#include "test_support.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

int main(int argc, char** argv) {
  // Fresh random inputs every run; the seed is printed so a failure can be
  // replayed with PORTACL_TEST_SEED.
  // Plans come from the rules unless a test asks for a tuning database.
  ::setenv("PORTACL_TUNING_DB", PORTACL_TEST_TMP "/no-tuning.json", 0);
  ::setenv("PORTACL_TUNING_PATH", "", 0);
  std::printf("portacl tests: random seed %llu\n", static_cast<unsigned long long>(test::seed()));
  const int failed = Catch::Session().run(argc, argv);
  test::finish_shared_context();
#if defined(__SANITIZE_ADDRESS__)
  // The leak check now, with the shared context finished and PoCL's worker
  // threads idle; the exit-time check does not run again. (The tracer's
  // crash with signal 11 came from dynamic TLS, not from the threads'
  // wind-down: ASAN_OPTIONS intercept_tls_get_addr=0, tests/CMakeLists.txt.)
  __lsan_do_leak_check();
#endif
  return failed;
}
