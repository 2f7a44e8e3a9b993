// SPDX-License-Identifier: Apache-2.0
// portacl-bench's latency section: the host time small calls cost, where
// launch overhead (planning, kernel lookup, argument setting, enqueue)
// rather than the device decides. CLBlast's equivalents run beside them.
#pragma once

#include <string>
#include <vector>

#include "../common/measure.hpp"

namespace bench {

struct LatencyRow {
  std::string call;     // "portacl::sum", "CLBlastSsum"
  std::string problem;  // "n=1024", "64^3"
  // Host time per call in a loop of back-to-back calls with no clFinish
  // between them (blocking calls such as sum include their round trip).
  Stats host;
  // One call plus clFinish, from an idle queue.
  Stats round_trip;
};

std::vector<LatencyRow> run_latency(portacl::Context& ctx, int warmup, int reps, bool baseline,
                                    unsigned long long seed);

}  // namespace bench
