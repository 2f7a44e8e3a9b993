// SPDX-License-Identifier: Apache-2.0
// The sort family's operations: a radix sort of uniform 32-bit or 64-bit
// keys, alone and with 32-bit values. A sort works in place, so every call starts with
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

template <class K>
BasicSortCase<K>::BasicSortCase(Context& ctx, std::size_t n)
    : pristine(ctx, n), keys(ctx, n), pristine_values(ctx, n), values(ctx, n) {
  std::mt19937_64 draw(0x5027ull ^ n);
  host_keys.resize(n);
  for (auto& k : host_keys) k = static_cast<K>(sizeof(K) == 8 ? draw() : draw() >> 32);
  std::vector<std::uint32_t> index(n);
  for (std::size_t i = 0; i < n; ++i) index[i] = static_cast<std::uint32_t>(i);
  pristine.upload(host_keys);
  pristine_values.upload(index);
}

template <class K>
void BasicSortCase<K>::restore(Context& ctx, bool with_values) {
  const std::size_t n = host_keys.size();
  if (n == 0) return;
  check_cl(ctx.queue().enqueueCopyBuffer(pristine.cl_buffer(), keys.cl_buffer(), 0, 0, n * sizeof(K)),
           "clEnqueueCopyBuffer(sort case keys)");
  if (with_values)
    check_cl(ctx.queue().enqueueCopyBuffer(pristine_values.cl_buffer(), values.cl_buffer(), 0, 0, n * 4),
             "clEnqueueCopyBuffer(sort case values)");
}

template <class K>
std::string BasicSortCase<K>::verify(bool with_values) {
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

template <class K>
BasicSortCase<K>& sort_case(Workload& w) {
  auto& slot = w.derived[sizeof(K) == 8 ? "sort uint64" : "sort"];
  if (!slot) slot = std::make_shared<BasicSortCase<K>>(w.ctx, w.n);
  return *std::static_pointer_cast<BasicSortCase<K>>(slot);
}

template struct BasicSortCase<std::uint32_t>;
template struct BasicSortCase<std::uint64_t>;
template BasicSortCase<std::uint32_t>& sort_case<std::uint32_t>(Workload&);
template BasicSortCase<std::uint64_t>& sort_case<std::uint64_t>(Workload&);

namespace {

template <class K>
Operation sort_operation(bool with_values) {
  auto run = [with_values](Workload& w, const PlanOptions& o) {
    BasicSortCase<K>& c = sort_case<K>(w);
    c.restore(w.ctx, with_values);
    SortOptions s;
    s.plan = o;
    return with_values ? sort_by_key(w.ctx, c.keys, c.values, s) : sort(w.ctx, c.keys, s);
  };
  const std::string keys = sizeof(K) == 8 ? " uint64" : " uint32";
  return Operation{(with_values ? "sort_by_key" : "sort") + keys,
                   2.0 * double(sizeof(K) + (with_values ? 4 : 0)),
                   0,
                   &sort_tunables(),
                   run,
                   [run, with_values](Workload& w, const PlanOptions& o) {
                     run(w, o);  // from the restored unsorted keys: a sort that did nothing fails
                     return sort_case<K>(w).verify(with_values);
                   }};
}

std::vector<Operation> sort_operations() {
  return {sort_operation<std::uint32_t>(false), sort_operation<std::uint32_t>(true),
          sort_operation<std::uint64_t>(false), sort_operation<std::uint64_t>(true)};
}

const FamilyRegistration sorts({"sort", 36, sort_operations});

}  // namespace
}  // namespace portacl
