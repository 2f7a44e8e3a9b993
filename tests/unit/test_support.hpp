// Shared helpers for the unit tests: fixtures, a scratch directory, the
// PoCL context, and the run's random generator (seed printed at start).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"

namespace test {

std::string fixture_path(const std::string& file);
// Every *.clinfo file of tests/fixtures/devices, sorted.
std::vector<std::string> fixture_files();
portacl::DeviceInfo load_fixture(const std::string& file);

// A fresh, empty directory under the build tree.
std::string scratch_dir(const std::string& name);
void write_file(const std::string& path, const std::string& text);
std::string read_file(const std::string& path);

// The device the tests run on, shared for speed: PoCL's CPU device, or
// PORTACL_TEST_DEVICE.
portacl::Context& cpu_context();

std::mt19937_64& rng();
std::uint64_t seed();

}  // namespace test
