// What portacl-bench runs: every operation of the library's list
// (portacl/tuning/operations.hpp), each beside the CLBlast routine with the
// same semantics where there is one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"
#include "tuning/operations.hpp"

namespace bench {

// One problem size's data, plus the slot CLBlast writes scalar results to.
struct Workload : portacl::Workload {
  Workload(portacl::Context& ctx, std::size_t n, unsigned long long seed);
  cl::Buffer scalar;
};

struct Case {
  const portacl::Operation* op;
  std::string baseline;  // CLBlast routine, "" when it has none
  // Calls the routine once; it may return before the device is done.
  std::function<void(Workload&)> run_baseline;
  // Checks the baseline's output after one run: "" or what is wrong.
  std::function<std::string(Workload&)> check_baseline;
};

std::vector<Case> all_cases(bool with_baseline);

}  // namespace bench
