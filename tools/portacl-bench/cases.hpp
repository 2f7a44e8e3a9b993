// What portacl-bench runs: every kernel of the streaming/reduction/scan
// family, each with its bytes and flops per element, a check against a
// double-precision host reference, and the CLBlast routine with the same
// semantics where there is one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"

namespace bench {

// The data of one problem size, fresh random floats.
struct Workload {
  Workload(portacl::Context& ctx, std::size_t n, unsigned long long seed);
  portacl::Context& ctx;
  std::size_t n;
  std::vector<float> hx, hy;
  portacl::Buffer<float> x, y, z;  // z: output of out-of-place kernels
  cl::Buffer scalar;               // CLBlast's result slot
  void reset_y() { y.upload(hy); }
};

struct Case {
  std::string name;
  double bytes_per_element;  // the minimum traffic the operation needs
  double flops_per_element;
  std::function<portacl::LaunchPlan(Workload&)> run;  // returns the plan it ran under
  // Checks one run's output; returns "" or what is wrong.
  std::function<std::string(Workload&)> check;
  std::string baseline;  // CLBlast routine, "" when it has none
  std::function<cl_event(Workload&)> run_baseline;
  std::function<std::string(Workload&)> check_baseline;
};

std::vector<Case> all_cases(bool with_baseline);

}  // namespace bench
