// SPDX-License-Identifier: Apache-2.0
// The reduction family's operations (sum, dot, nrm2, max, argmax, iamax,
// count_if, the int sum and the uint32 max), with CLBlast's Ssum, Sdot, Snrm2, iSmax and iSamax as
// baselines. Each returns a scalar; a baseline leaves it in the workload's
// scalar slot.
#include <algorithm>
#include <functional>

#include "../clblast_call.hpp"
#include "../host_reference.hpp"
#include "../family.hpp"
#include "../scan_cases.hpp"
#include "portacl/vectors.hpp"
#include "kernels/reduce_tunables.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

cl_command_queue* queue_of(Workload& w) { return &w.ctx.queue()(); }

// A reduction: `call` runs it and returns its value (the plan through its
// last argument when not null); `want` is the host reference and `bound`
// the relative tolerance on its magnitude (0: exact). A baseline reads its
// value back as a float or, for index routines, an index.
struct Reduction {
  const char* name;
  double bytes, flops;
  std::function<double(Workload&, Options, LaunchPlan*)> call;
  std::function<reference::Exact(Workload&)> want;
  double bound;
  const char* routine = nullptr;
  std::function<CLBlastStatusCode(Workload&, cl_event*)> baseline = nullptr;
  bool index_result = false;
};

Operation make_reduction(const Reduction& r) {
  Operation op{r.name,
               r.bytes,
               r.flops,
               &reduce_tunables(),
               [call = r.call](Workload& w, Options o) {
                 LaunchPlan p;
                 call(w, o, &p);
                 return p;
               },
               [r](Workload& w, Options o) {
                 w.reset_y();  // checks stand alone: earlier runs may have changed y
                 return reference::compare_value(r.name, r.call(w, o, nullptr), r.want(w), r.bound);
               }};
  if (r.routine) {
    auto enqueue = [r](Workload& w) { clblast_call(r.routine, [&](cl_event* e) { return r.baseline(w, e); }); };
    op.baseline = Baseline{
        r.routine, enqueue, [r, enqueue](Workload& w) {
          w.reset_y();
          enqueue(w);
          const double got = r.index_result ? double(w.read_scalar<unsigned>()) : double(w.read_scalar<float>());
          return reference::compare_value(std::string("CLBlast ") + r.routine, got, r.want(w), r.bound);
        }};
  }
  return op;
}

// Exact results (an index, a count, a value chosen from the input).
reference::Exact exact(double v) { return {v, 0}; }
// Sums of n float terms: well within 1e-5 of their magnitude for the
// workload sizes, whatever order the device adds in.
constexpr double kSumBound = 1e-5;

// An integer reduction checked exactly: `call` runs it (the plan through
// its last argument when not null) and returns its value, `want` is the
// host's, in 128 bits.
template <class Call, class Want>
Operation exact_integer(const std::string& name, Call call, Want want) {
  return Operation{name,
                   4,
                   1,
                   &reduce_tunables(),
                   [call](Workload& w, Options o) {
                     LaunchPlan p;
                     call(w, o, &p);
                     return p;
                   },
                   [name, call, want](Workload& w, Options o) {
                     const __int128 expected = want(w);
                     const auto got = call(w, o, nullptr);
                     return __int128(got) == expected ? std::string()
                                                      : name + ": " + std::to_string(got) + ", want " +
                                                            std::to_string(static_cast<long long>(expected));
                   }};
}

std::vector<Operation> reduce_operations() {
  auto x = [](Workload& w) { return w.x.cl_buffer()(); };
  auto largest = [](const Workload& w, bool absolute) {
    if (w.hx.empty()) return reference::Extremum{};
    return reference::extremum(w.hx, std::greater<double>(), absolute);
  };
  std::vector<Reduction> rs = {
      {"sum", 4, 1, [](Workload& w, Options o, LaunchPlan* p) { return double(sum(w.ctx, w.x, o, p)); },
       [](Workload& w) { return reference::sum(w.hx); }, kSumBound, "Ssum",
       [x](Workload& w, cl_event* e) { return CLBlastSsum(w.n, w.scalar(), 0, x(w), 0, 1, queue_of(w), e); }},
      {"dot", 8, 2, [](Workload& w, Options o, LaunchPlan* p) { return double(dot(w.ctx, w.x, w.y, o, p)); },
       [](Workload& w) { return reference::dot(w.hx, w.hy); }, kSumBound, "Sdot",
       [x](Workload& w, cl_event* e) {
         return CLBlastSdot(w.n, w.scalar(), 0, x(w), 0, 1, w.y.cl_buffer()(), 0, 1, queue_of(w), e);
       }},
      {"nrm2", 4, 2, [](Workload& w, Options o, LaunchPlan* p) { return double(nrm2(w.ctx, w.x, o, p)); },
       [](Workload& w) { return reference::nrm2(w.hx); }, kSumBound, "Snrm2",
       [x](Workload& w, cl_event* e) { return CLBlastSnrm2(w.n, w.scalar(), 0, x(w), 0, 1, queue_of(w), e); }},
      {"max", 4, 1, [](Workload& w, Options o, LaunchPlan* p) { return double(max(w.ctx, w.x, o, p)); },
       [largest](Workload& w) { return exact(largest(w, false).value); }, 0},
      // CLBlast's indices are checked: quirk clblast.ixamax-large-n.
      {"argmax", 4, 1, [](Workload& w, Options o, LaunchPlan* p) { return double(argmax(w.ctx, w.x, o, p).index); },
       [largest](Workload& w) { return exact(double(largest(w, false).index)); }, 0, "iSmax",
       [x](Workload& w, cl_event* e) { return CLBlastiSmax(w.n, w.scalar(), 0, x(w), 0, 1, queue_of(w), e); }, true},
      {"iamax", 4, 1, [](Workload& w, Options o, LaunchPlan* p) { return double(iamax(w.ctx, w.x, o, p).index); },
       [largest](Workload& w) { return exact(double(largest(w, true).index)); }, 0, "iSamax",
       [x](Workload& w, cl_event* e) { return CLBlastiSamax(w.n, w.scalar(), 0, x(w), 0, 1, queue_of(w), e); }, true},
      {"count_if x>0.5", 4, 1,
       [](Workload& w, Options o, LaunchPlan* p) { return double(count_if(w.ctx, "x > 0.5f", w.x, o, p)); },
       [](Workload& w) { return exact(double(reference::count_if(w.hx, [](float v) { return v > 0.5f; }))); }, 0},
  };
  std::vector<Operation> out;
  for (const Reduction& r : rs) out.push_back(make_reduction(r));
  // The int sum (a 64-bit total of ints widened as they are read) on the
  // int scans' problem (scan_cases.hpp: ints 0 to 15), exact. No library
  // baseline: CLBlast sums floats only.
  out.push_back(exact_integer(
      "sum int", [](Workload& w, Options o, LaunchPlan* p) { return sum(w.ctx, int_scan_case(w).x, o, p); },
      [](Workload& w) { return reference::integer_sum(int_scan_case(w).host); }));
  // max over uint32 (the workload's bit patterns: the whole range), exact:
  // the integer identity and OpenCL's max.
  out.push_back(exact_integer(
      "max uint32", [](Workload& w, Options o, LaunchPlan* p) { return max(w.ctx, uint32_case(w).x, o, p); },
      [](Workload& w) {
        const std::vector<std::uint32_t>& h = uint32_case(w).hx;
        return __int128(h.empty() ? 0 : *std::max_element(h.begin(), h.end()));
      }));
  return out;
}

const FamilyRegistration reductions({"reduce", 20, reduce_operations});

}  // namespace
}  // namespace portacl
