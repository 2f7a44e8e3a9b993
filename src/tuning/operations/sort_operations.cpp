// SPDX-License-Identifier: Apache-2.0
// The sort family's operations: a radix sort of uniform 32-bit keys, alone
// and with 32-bit values. A sort works in place, so every call starts with
// a device copy of the unsorted keys (and values): timed with it, 8 (16)
// bytes a key against the sort's own 8 (16) per pass or more. CLBlast has
// no sort; portacl-bench adds Boost.Compute's.
#include <random>

#include "../family.hpp"
#include "../sort_cases.hpp"
#include "../sort_reference.hpp"
#include "kernels/sort_tunables.hpp"
#include "portacl/error.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

SortCase::SortCase(Context& ctx, std::size_t n)
    : pristine(ctx, n), keys(ctx, n), pristine_values(ctx, n), values(ctx, n) {
  std::mt19937_64 draw(0x5027ull ^ n);
  host_keys.resize(n);
  for (auto& k : host_keys) k = static_cast<std::uint32_t>(draw() >> 32);
  std::vector<std::uint32_t> index(n);
  for (std::size_t i = 0; i < n; ++i) index[i] = static_cast<std::uint32_t>(i);
  pristine.upload(host_keys);
  pristine_values.upload(index);
}

void SortCase::restore(Context& ctx, bool with_values) {
  const std::size_t bytes = host_keys.size() * 4;
  if (bytes == 0) return;
  check_cl(ctx.queue().enqueueCopyBuffer(pristine.cl_buffer(), keys.cl_buffer(), 0, 0, bytes),
           "clEnqueueCopyBuffer(sort case keys)");
  if (with_values)
    check_cl(ctx.queue().enqueueCopyBuffer(pristine_values.cl_buffer(), values.cl_buffer(), 0, 0, bytes),
             "clEnqueueCopyBuffer(sort case values)");
}

std::string SortCase::verify(bool with_values) {
  if (want_keys_.size() != host_keys.size()) {
    const std::vector<std::size_t> order = reference::stable_order(host_keys);
    want_keys_ = reference::gathered(host_keys, order);
    want_values_.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) want_values_[i] = static_cast<std::uint32_t>(order[i]);
  }
  std::string wrong = reference::compare_bits(keys.download(), want_keys_, "key");
  if (wrong.empty() && with_values) wrong = reference::compare_bits(values.download(), want_values_, "value");
  return wrong;
}

SortCase& sort_case(Workload& w) {
  auto& slot = w.derived["sort"];
  if (!slot) slot = std::make_shared<SortCase>(w.ctx, w.n);
  return *std::static_pointer_cast<SortCase>(slot);
}

namespace {

Operation sort_operation(bool with_values) {
  auto run = [with_values](Workload& w, const PlanOptions& o) {
    SortCase& c = sort_case(w);
    c.restore(w.ctx, with_values);
    SortOptions s;
    s.plan = o;
    return with_values ? sort_by_key(w.ctx, c.keys, c.values, s) : sort(w.ctx, c.keys, s);
  };
  return Operation{with_values ? "sort_by_key uint32" : "sort uint32",
                   with_values ? 16.0 : 8.0,
                   0,
                   &sort_tunables(),
                   run,
                   [run, with_values](Workload& w, const PlanOptions& o) {
                     run(w, o);  // from the restored unsorted keys: a sort that did nothing fails
                     return sort_case(w).verify(with_values);
                   }};
}

std::vector<Operation> sort_operations() { return {sort_operation(false), sort_operation(true)}; }

const FamilyRegistration sorts({"sort", 36, sort_operations});

}  // namespace
}  // namespace portacl
