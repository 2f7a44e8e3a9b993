// Every tunable operation of the kernel library, float, as one list the
// tuner, portacl-bench and the tests share: how to run it on a workload
// under given plan options, how much memory traffic and arithmetic it needs,
// how to check its output against a double-precision host reference, and
// which tuning space its kernel declares.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"
#include "portacl/rules/tuning_space.hpp"

namespace portacl {

// The inputs of one problem size: fresh random floats in [-1, 1).
struct Workload {
  Workload(Context& ctx, std::size_t n, unsigned long long seed);
  Context& ctx;
  std::size_t n;
  std::vector<float> hx, hy;
  Buffer<float> x, y, z;  // z: the output of out-of-place operations
  void reset_y() { y.upload(hy); }
  // A well-conditioned (diagonally dominant) lower-triangular row-major
  // matrix of order square_order(n) made from hx, for TRSV; built on first
  // use, with its host copy.
  const Buffer<float>& lower_triangular();
  std::vector<float> host_lower;

 private:
  std::optional<Buffer<float>> lower_;
};

// Matrix operations take the workload's first elements as a matrix: a
// square one of order floor(sqrt(n)) (GEMM, GEMV, TRSV) or a packed
// triangle of the largest order s with s (s + 1) / 2 <= n (SPMV).
std::size_t square_order(std::size_t n);
std::size_t packed_order(std::size_t n);

// The scalars the operations use (axpy's a, axpby's a and b), so that
// baselines compute the same thing.
constexpr float operation_a = 0.75f, operation_b = -1.25f;

struct Operation {
  std::string name;          // as shown to users: "axpy", "count_if x>0.5"
  double bytes_per_element;  // the least traffic the operation needs
  double flops_per_element;
  const TuningSpace* space;  // its kernel family's declaration
  // Runs once; returns the plan it ran under (plan.traits.name is the key
  // a tuned plan is stored under).
  std::function<LaunchPlan(Workload&, const PlanOptions&)> run;
  // Runs once and checks the output: "" or what is wrong.
  std::function<std::string(Workload&, const PlanOptions&)> check;
  // Judged by bandwidth, bytes_per_element * n per run (portacl-bench's
  // streaming table; matrix-vector operations count their matrix's bytes);
  // false for GEMM, which has a benchmark section of its own.
  bool streaming = true;
};

const std::vector<Operation>& operations();

// The first index of the largest value (|value| when `absolute`): the
// reference for argmax and iamax, shared with baselines' checks.
std::size_t first_extreme(const std::vector<float>& v, bool absolute);
// The operation called `name`; throws portacl::Error listing the names.
const Operation& operation(const std::string& name);

}  // namespace portacl
