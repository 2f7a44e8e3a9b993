// SPDX-License-Identifier: Apache-2.0
// Every tunable operation of the kernel library, float, as one list the
// tuner, portacl-bench and the tests share: how to run it on a workload
// under given plan options, how much memory traffic and arithmetic it needs,
// how to check its output against the host reference (host_reference.hpp),
// which tuning space its kernel declares, and the other library's routine
// it is measured against. Each family's operations live in one file under
// operations/ and join the list by registering themselves.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

// Thrown by an operation's case that the operation cannot take at this
// size (past a limit of the call it measures): the bench and the tuner
// report the case as skipped, with this reason, and go on.
struct CaseOutOfRange : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The inputs of one problem size: fresh random floats in [-1, 1).
struct Workload {
  Workload(Context& ctx, std::size_t n, unsigned long long seed);
  Context& ctx;
  std::size_t n;
  // Device buffers first: a size the device cannot hold fails there, with
  // the buffer's error, before any host memory is taken.
  Buffer<float> x, y, z;  // z: the output of out-of-place operations
  cl::Buffer scalar;      // where a baseline leaves a scalar result
  std::vector<float> hx, hy;
  void reset_y() { y.upload(hy); }
  void poison_z();  // z all NaN, so an unwritten output cannot pass
  void zero_z();
  void finish();  // waits for the queue
  // The value a baseline left in `scalar` (float, or an index as unsigned).
  template <class S>
  S read_scalar() {
    S v{};
    check_cl(ctx.queue().enqueueReadBuffer(scalar, CL_TRUE, 0, sizeof v, &v), "clEnqueueReadBuffer(workload scalar)");
    return v;
  }
  // A well-conditioned (diagonally dominant) lower-triangular row-major
  // matrix of order square_order(n) made from hx, for TRSV; built on first
  // use, with its host copy.
  const Buffer<float>& lower_triangular();
  std::vector<float> host_lower;
  // Inputs a family builds from the workload on first use and keeps for
  // its lifetime (the sparse family's matrices), by name.
  std::map<std::string, std::shared_ptr<void>> derived;

 private:
  std::optional<Buffer<float>> lower_;
};

// The workload's x and y read as uint32 bit patterns (integers over the
// whole range), on the host and the device, with an output z; made on
// first use and kept in `derived`.
struct Uint32Case {
  Uint32Case(Workload& w);
  std::vector<std::uint32_t> hx, hy;
  Buffer<std::uint32_t> x, y, z;
  void poison_z();  // z all 0x5a5a5a5a
};
Uint32Case& uint32_case(Workload& w);

// Matrix operations take the workload's first elements as a matrix: a
// square one of order floor(sqrt(n)) (GEMM, GEMV, TRSV) or a packed
// triangle of the largest order s with s (s + 1) / 2 <= n (SPMV).
std::size_t square_order(std::size_t n);
std::size_t packed_order(std::size_t n);

// The scalars the operations use (axpy's a, axpby's a and b), so that
// baselines compute the same thing.
constexpr float operation_a = 0.75f, operation_b = -1.25f;

// The same computation in another library (CLBlast; the bench adds
// Boost.Compute's scans), called as its users call it.
struct Baseline {
  std::string routine;  // "Saxpy"
  // Enqueues one call; it may return before the device is done.
  std::function<void(Workload&)> run;
  // Runs once on fresh data and checks the output like the operation's
  // check: "" or what is wrong.
  std::function<std::string(Workload&)> check;
  std::string library = "CLBlast";  // whose routine
};

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
  std::optional<Baseline> baseline = std::nullopt;
};

// Every family's operations (family.hpp), by the families' order.
const std::vector<Operation>& operations();

// An operation whose result stays in the workload's buffers: `prepare`
// resets its inputs and poisons its outputs, `verify` compares them with
// the host reference. Its check, and its baseline's, run prepare, the call
// and verify, so both are judged alike.
struct BufferOperation {
  std::string name;
  double bytes_per_element, flops_per_element;
  const TuningSpace* space;
  std::function<LaunchPlan(Workload&, const PlanOptions&)> run;
  std::function<void(Workload&)> prepare;  // empty: nothing beyond the fresh y every check starts from
  std::function<std::string(Workload&)> verify;
  std::string baseline_routine = "";                 // "" when there is none
  std::function<void(Workload&)> baseline_run = {};  // enqueues it once
  // Replaces `prepare` before the baseline's check where the baseline
  // cannot take poisoned outputs (a quirk).
  std::function<void(Workload&)> baseline_prepare = {};
};
Operation make_operation(BufferOperation b);

// The operation called `name`; throws portacl::Error listing the names.
const Operation& operation(const std::string& name);

}  // namespace portacl
