// SPDX-License-Identifier: Apache-2.0
// Shared helpers for the unit tests: fixtures, a scratch directory, the
// PoCL context, and the run's random generator (seed printed at start).
#pragma once

#include <cstdint>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"
#include "tooling.hpp"
#include "tuning/host_reference.hpp"
#include "tuning/operations.hpp"

namespace test {

std::string fixture_path(const std::string& file);
// Every *.clinfo file of tests/fixtures/devices, sorted.
std::vector<std::string> fixture_files();
portacl::DeviceInfo load_fixture(const std::string& file);

// A fresh, empty directory under the build tree.
std::string scratch_dir(const std::string& name);
void write_file(const std::string& path, const std::string& text);
std::string read_file(const std::string& path);
// Every regular file under `dir`, sorted.
std::vector<std::string> list_files_recursively(const std::string& dir);

// The device the tests run on, shared for speed: PoCL's CPU device, or
// PORTACL_TEST_DEVICE.
portacl::Context& cpu_context();
// A second Context on the suite's device, without a program cache: what
// the checks that refuse another context's buffers and objects need.
portacl::Context& another_context();
// Waits for the work still queued on cpu_context(), if it was made: before
// the program exits, since PoCL compiles kernels lazily on worker threads
// that must not run into the compiler's static destructors.
void finish_shared_context();

std::mt19937_64& rng();
std::uint64_t seed();

// Fresh random values with magnitudes in [lo, hi) and random signs.
template <class T>
std::vector<T> random_vector(std::size_t n, double lo = 0.5, double hi = 2.0) {
  std::uniform_real_distribution<double> mag(lo, hi);
  std::bernoulli_distribution sign(0.5);
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(sign(rng()) ? mag(rng()) : -mag(rng()));
  return v;
}

// How far a correct sum of `values`, added in T in any order (a tree of
// partial sums), may stand from the exact one: ceil(log2 n) + 1 roundings
// of the sum of magnitudes. A bound relative to the sum fails where random
// signs cancel (a correct float sum of 5003 values, 0.92225 against
// 0.9222744, missed 1e-5 relative).
template <class T>
double sum_margin(const std::vector<T>& values) {
  double magnitude = 0;
  for (T v : values) magnitude += std::fabs(double(v));
  return (std::ceil(std::log2(double(values.size()) + 1)) + 1) * double(std::numeric_limits<T>::epsilon()) * magnitude;
}

// The float bounds' units (tuning/host_reference.hpp).
using portacl::reference::kDivisionU;
using portacl::reference::kDoubleU;
using portacl::reference::kFloatU;
using portacl::reference::kSqrtU;
using portacl::reference::unit_roundoff;

// Random multiples of 1/denominator in [-limit, limit]: sums and products of
// these are exact in float for the sizes the tests use, so results can be
// compared bit for bit whatever order the device adds in.
template <class T>
std::vector<T> random_dyadic(std::size_t n, int limit, int denominator) {
  std::uniform_int_distribution<int> k(-limit * denominator, limit * denominator);
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(k(rng())) / static_cast<T>(denominator);
  return v;
}

// One entry per fixture device that can run `element`: the fixture's file and
// options that plan by its class's rules on the test device (clamped to
// the test device's limits).
struct ClassPlan {
  std::string fixture;
  portacl::PlanOptions options;
};
std::vector<ClassPlan> class_plans(portacl::ElementType element);
// The test CPU split in two sub-devices ("cpu/2"), made once: the device
// group the group tests run on (weights reset by each test that sets them).
portacl::DeviceGroup& cpu_halves();
// A context on the whole CPU that cpu_halves() splits (the test device
// itself unless PORTACL_TEST_DEVICE names another): the single-device
// run a group's results are compared with.
portacl::Context& whole_cpu_context();

// Lennard-Jones of two types: epsilon 1, 0.7 (mixed), 0.5; sigma 1, 0.9,
// 0.85 (doubles, none a float); cutoff 2.5, shifted.
portacl::LennardJones two_type_lj();

// n bodies (x, y, z, m) uniform in a cube of side 2, masses in [0.5,
// 1.5) / n: the N-body tests' systems.
std::vector<float> random_bodies(std::size_t n);

// The rules' own plan for the test device ("rules", no options) first, then
// class_plans(element).
std::vector<ClassPlan> rules_and_class_plans(portacl::ElementType element);

// "equal", or the first index where got and want differ with both values:
// a readable failure for long vectors.
template <class T>
std::string first_difference(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return "sizes differ: " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == want[i]))
      return "index " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", want " + std::to_string(want[i]);
  return "equal";
}

// A tuning record for `d`'s fingerprint, float, with plausible timings.
portacl::TuningRecord record_for(const portacl::DeviceInfo& d, const std::string& kernel, unsigned bucket,
                                 portacl::Configuration c);

// Points the library at the tuning database `path` for the scope.
struct TuningDbScope {
  explicit TuningDbScope(const std::string& path);
  ~TuningDbScope();
  std::string saved;
};

// `opt` with the number of passes of combining kernels forced (1 or 2).
portacl::PlanOptions with_passes(portacl::PlanOptions opt, int passes);
// The sizes each kernel runs at under every class's plan.
extern const std::vector<std::size_t> class_plan_sizes;

// Lengths that are 0, 1, primes and not multiples of any work-group size or
// vector width.
extern const std::vector<std::size_t> awkward_sizes;

}  // namespace test
