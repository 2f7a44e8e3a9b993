#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include "test_support.hpp"

int main(int argc, char** argv) {
  // Fresh random inputs every run; the seed is printed so a failure can be
  // replayed with PORTACL_TEST_SEED.
  std::printf("portacl tests: random seed %llu\n", static_cast<unsigned long long>(test::seed()));
  return Catch::Session().run(argc, argv);
}
