// SPDX-License-Identifier: Apache-2.0
#include "boost_compute_baseline.hpp"

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "tuning/histogram_cases.hpp"
#include "tuning/host_reference.hpp"
#include "tuning/scan_cases.hpp"
#include "tuning/sort_cases.hpp"

#ifdef PORTACL_HAVE_BOOST_COMPUTE
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/exclusive_scan.hpp>
#include <boost/compute/algorithm/fill.hpp>
#include <boost/compute/algorithm/for_each.hpp>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/closure.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#endif

namespace bench {

#ifdef PORTACL_HAVE_BOOST_COMPUTE
namespace {

namespace bc = boost::compute;

// As the scan operations' own check: each element within 1e-5 of its terms.
constexpr double scan_bound = 1e-5;

// Boost.Compute's scan of the workload's n elements of x into y, its own
// objects over portacl's queue and buffers (retained, not owned).
template <class T>
void scan_with(bool inclusive, portacl::Workload& w, const cl::Buffer& x_buffer, const cl::Buffer& y_buffer) {
  bc::command_queue queue(w.ctx.queue()(), true);
  const bc::buffer x(x_buffer(), true), y(y_buffer(), true);
  auto first = bc::make_buffer_iterator<T>(x, 0), last = bc::make_buffer_iterator<T>(x, w.n);
  auto out = bc::make_buffer_iterator<T>(y, 0);
  if (inclusive)
    bc::inclusive_scan(first, last, out, queue);
  else
    bc::exclusive_scan(first, last, out, queue);
}

// A Boost.Compute baseline of `routine`, to be given its run and check.
portacl::Baseline boost_compute(const char* routine) {
  portacl::Baseline b;
  b.routine = routine;
  b.library = "Boost.Compute";
  return b;
}

portacl::Baseline scan(bool inclusive) {
  portacl::Baseline b = boost_compute(inclusive ? "inclusive_scan" : "exclusive_scan");
  b.run = [inclusive](portacl::Workload& w) { scan_with<float>(inclusive, w, w.x.cl_buffer(), w.z.cl_buffer()); };
  b.check = [run = b.run, inclusive](portacl::Workload& w) {
    w.poison_z();
    run(w);
    return portacl::reference::compare(w.z.download(), portacl::reference::scan(w.hx, inclusive),
                                       scan_bound / std::numeric_limits<float>::epsilon());
  };
  return b;
}

// The int scans, on the same IntScanCase buffers, checked exactly.
portacl::Baseline int_scan(bool inclusive) {
  portacl::Baseline b = boost_compute(inclusive ? "inclusive_scan" : "exclusive_scan");
  b.run = [inclusive](portacl::Workload& w) {
    portacl::IntScanCase& c = portacl::int_scan_case(w);
    scan_with<int>(inclusive, w, c.x.cl_buffer(), c.y.cl_buffer());
  };
  b.check = [run = b.run, inclusive](portacl::Workload& w) {
    portacl::IntScanCase& c = portacl::int_scan_case(w);
    c.poison(w.ctx);
    run(w);
    return c.verify(inclusive);
  };
  return b;
}

// bc::sort (keys) and bc::sort_by_key (pairs): Boost.Compute's radix sort
// for 32-bit unsigned keys, in place like portacl's, from the same restored
// keys. Its programs are built on the first call and cached, as a user's
// would be.
portacl::Baseline sort(bool with_values) {
  portacl::Baseline b = boost_compute(with_values ? "sort_by_key" : "sort");
  b.run = [with_values](portacl::Workload& w) {
    portacl::SortCase& c = portacl::sort_case(w);
    c.restore(w.ctx, with_values);
    bc::command_queue queue(w.ctx.queue()(), true);
    const bc::buffer keys(c.keys.cl_buffer()(), true);
    auto first = bc::make_buffer_iterator<bc::uint_>(keys, 0), last = bc::make_buffer_iterator<bc::uint_>(keys, w.n);
    if (with_values) {
      const bc::buffer values(c.values.cl_buffer()(), true);
      bc::sort_by_key(first, last, bc::make_buffer_iterator<bc::uint_>(values, 0), queue);
    } else {
      bc::sort(first, last, queue);
    }
  };
  b.check = [run = b.run, with_values](portacl::Workload& w) {
    run(w);
    w.finish();
    return portacl::sort_case(w).verify(with_values);
  };
  return b;
}

// Boost.Compute has no histogram algorithm. What its user writes instead:
// for_each over the keys with a closure that increments the key's bin by
// an atomic, into counts the user keeps in a bc::vector (made once, zeroed
// each call by bc::fill).
portacl::Baseline histogram(std::size_t bins, unsigned shift) {
  portacl::Baseline b = boost_compute("for_each + atomic_inc");
  b.run = [bins, shift](portacl::Workload& w) {
    portacl::HistogramCase& c = portacl::histogram_case(w, bins);
    bc::command_queue queue(w.ctx.queue()(), true);
    auto& slot = w.derived["boost_compute.histogram." + std::to_string(bins)];
    if (!slot) slot = std::make_shared<bc::vector<bc::uint_>>(bins, queue.get_context());
    bc::vector<bc::uint_>& counts = *std::static_pointer_cast<bc::vector<bc::uint_>>(slot);
    bc::fill(counts.begin(), counts.end(), bc::uint_(0), queue);
    const bc::uint_ digit_shift = shift;
    BOOST_COMPUTE_CLOSURE(void, count_key, (bc::uint_ key), (counts, digit_shift),
                          { atomic_inc(&counts[key >> digit_shift]); });
    const bc::buffer keys(c.keys.cl_buffer()(), true);
    bc::for_each(bc::make_buffer_iterator<bc::uint_>(keys, 0), bc::make_buffer_iterator<bc::uint_>(keys, w.n),
                 count_key, queue);
  };
  b.check = [run = b.run, bins, shift](portacl::Workload& w) {
    run(w);
    w.finish();
    auto& counts =
        *std::static_pointer_cast<bc::vector<bc::uint_>>(w.derived["boost_compute.histogram." + std::to_string(bins)]);
    std::vector<std::uint32_t> got(bins);
    bc::command_queue queue(w.ctx.queue()(), true);
    bc::copy(counts.begin(), counts.end(), got.begin(), queue);
    return portacl::reference::compare_counts(
        got, portacl::reference::histogram(portacl::histogram_case(w, bins).host, bins, shift, false));
  };
  return b;
}

}  // namespace

std::optional<portacl::Baseline> boost_compute_baseline(const std::string& operation) {
  if (operation == "inclusive_scan") return scan(true);
  if (operation == "exclusive_scan") return scan(false);
  if (operation == "inclusive_scan int") return int_scan(true);
  if (operation == "exclusive_scan int") return int_scan(false);
  if (operation == "histogram 256 bins") return histogram(256, 24);
  if (operation == "histogram 65536 bins") return histogram(65536, 16);
  if (operation == "sort uint32") return sort(false);
  if (operation == "sort_by_key uint32") return sort(true);
  return std::nullopt;
}

bool have_boost_compute() { return true; }
#else
std::optional<portacl::Baseline> boost_compute_baseline(const std::string&) { return std::nullopt; }
bool have_boost_compute() { return false; }
#endif

}  // namespace bench
