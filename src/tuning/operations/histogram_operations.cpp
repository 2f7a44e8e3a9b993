// SPDX-License-Identifier: Apache-2.0
// The histogram family's operations: 32-bit keys made from the workload's
// values (uniform over all 2^32), counted into 256 bins (the top byte: a
// radix sort's digit) and 65536 bins (the top 16 bits: 256 KiB of counts,
// past the local memory of every GPU, so global atomics there).
// CLBlast has no histogram, nor has Boost.Compute: portacl-bench sets
// beside it what a Boost.Compute user writes instead (for_each with an
// atomic increment a key).
#include <cstdint>

#include "../histogram_cases.hpp"
#include "../host_reference.hpp"
#include "../family.hpp"
#include "kernels/histogram_tunables.hpp"
#include "portacl/vectors.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

Operation histogram_operation(std::size_t bins, unsigned shift) {
  auto run = [bins, shift](Workload& w, Options o) {
    HistogramCase& c = histogram_case(w, bins);
    HistogramOptions h;
    h.shift = shift;
    h.plan = o;
    return histogram(w.ctx, c.keys, c.counts, h);
  };
  return Operation{"histogram " + std::to_string(bins) + " bins",
                   4,
                   0,
                   &histogram_tunables(),
                   run,
                   [bins, shift, run](Workload& w, Options o) {
                     HistogramCase& c = histogram_case(w, bins);
                     c.counts.upload(std::vector<std::uint32_t>(bins, 0xdeadbeefu));  // poisoned
                     run(w, o);
                     return reference::compare_counts(c.counts.download(),
                                                      reference::histogram(c.host, bins, shift, false));
                   }};
}

std::vector<Operation> histogram_operations() { return {histogram_operation(256, 24), histogram_operation(65536, 16)}; }

const FamilyRegistration histograms({"histogram", 35, histogram_operations});

}  // namespace
}  // namespace portacl
