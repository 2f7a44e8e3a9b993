// What portacl-bench runs: every operation of the library's list
// (portacl/tuning/operations.hpp), each beside the CLBlast routine with the
// same semantics where there is one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"
#include "portacl/tuning/operations.hpp"

namespace bench {

// One problem size's data, plus the slot CLBlast writes scalar results to.
struct Workload : portacl::Workload {
  Workload(portacl::Context& ctx, std::size_t n, unsigned long long seed);
  cl::Buffer scalar;
};

struct Case {
  const portacl::Operation* op;
  std::string baseline;  // CLBlast routine, "" when it has none
  std::function<cl_event(Workload&)> run_baseline;
  // Checks the baseline's output after one run: "" or what is wrong.
  std::function<std::string(Workload&)> check_baseline;
  bool baseline_waits = false;  // it waits on its own commands: time it with marked_ms, not gated_ms
};

std::vector<Case> all_cases(bool with_baseline);

}  // namespace bench
