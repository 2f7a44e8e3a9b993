// SPDX-License-Identifier: Apache-2.0
// The scan family's operations: inclusive and exclusive prefix sums of
// floats and of ints, and stream compaction. CLBlast has no scan;
// portacl-bench sets Boost.Compute's scans beside them where it is built.
#include "../host_reference.hpp"
#include "../family.hpp"
#include "../scan_cases.hpp"
#include "portacl/vectors.hpp"
#include "kernels/scan_tunables.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

// A prefix sum of n floats: each element within 1e-5 of its terms.
constexpr double kScanBound = 1e-5;

bool kept(float v) { return v > 0.5f; }

std::vector<Operation> scan_operations() {
  std::vector<Operation> out;
  for (bool inclusive : {true, false})
    out.push_back(make_operation({inclusive ? "inclusive_scan" : "exclusive_scan", 8, 1, &scan_tunables(),
                                  [inclusive](Workload& w, Options o) {
                                    return inclusive ? inclusive_scan(w.ctx, w.x, w.z, o)
                                                     : exclusive_scan(w.ctx, w.x, w.z, o);
                                  },
                                  [](Workload& w) { w.poison_z(); },
                                  [inclusive](Workload& w) {
                                    return reference::compare(w.z.download(), reference::scan(w.hx, inclusive),
                                                              kScanBound / std::numeric_limits<float>::epsilon());
                                  }}));
  // The same in int, exact (scan_cases.hpp), beside Boost.Compute's int
  // scans: CPUs scan ints without the float path's rounding concerns, and
  // the target is set for both.
  for (bool inclusive : {true, false}) {
    Operation op{inclusive ? "inclusive_scan int" : "exclusive_scan int",
                 8,
                 1,
                 &scan_tunables(),
                 [inclusive](Workload& w, Options o) {
                   IntScanCase& c = int_scan_case(w);
                   return inclusive ? inclusive_scan(w.ctx, c.x, c.y, o) : exclusive_scan(w.ctx, c.x, c.y, o);
                 },
                 [inclusive](Workload& w, Options o) {
                   IntScanCase& c = int_scan_case(w);
                   c.poison(w.ctx);
                   if (inclusive)
                     inclusive_scan(w.ctx, c.x, c.y, o);
                   else
                     exclusive_scan(w.ctx, c.x, c.y, o);
                   return c.verify(inclusive);
                 }};
    out.push_back(std::move(op));
  }
  // Compaction reads n and writes what it keeps (a quarter here); its check
  // needs the count the call returns, so it is not a buffer operation.
  Operation compaction{"compact x>0.5",
                       5,
                       1,
                       &scan_tunables(),
                       [](Workload& w, Options o) {
                         LaunchPlan p;
                         compact(w.ctx, "x > 0.5f", w.x, w.z, o, &p);
                         return p;
                       },
                       [](Workload& w, Options o) {
                         w.poison_z();
                         const std::size_t k = compact(w.ctx, "x > 0.5f", w.x, w.z, o);
                         std::vector<float> want, got = w.z.download();
                         for (float v : w.hx)
                           if (kept(v)) want.push_back(v);
                         got.resize(k);
                         return got == want ? std::string() : std::string("compaction differs from the host");
                       }};
  out.push_back(std::move(compaction));
  return out;
}

const FamilyRegistration scans({"scan", 30, scan_operations});

}  // namespace
}  // namespace portacl
