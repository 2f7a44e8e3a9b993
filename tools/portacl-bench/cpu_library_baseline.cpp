// SPDX-License-Identifier: Apache-2.0
#include "cpu_library_baseline.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#ifdef PORTACL_HAVE_TBB
#include <execution>
#endif

#include "cblas_library.hpp"
#include "tuning/host_reference.hpp"
#include "tuning/sort_cases.hpp"
#include "tuning/sort_reference.hpp"

namespace bench {

namespace {

using portacl::Baseline;
using portacl::Workload;
namespace reference = portacl::reference;

// The CPU calls' outputs, kept in the workload beside its device buffers
// (made on first use, outside any timing).
struct HostOutputs {
  explicit HostOutputs(const Workload& w) : y(w.hy), z(w.n) {}
  std::vector<float> y, z;
  double scalar = 0;
  std::vector<std::uint32_t> keys;
};
HostOutputs& outputs(Workload& w) {
  auto& slot = w.derived["cpu library outputs"];
  if (!slot) slot = std::make_shared<HostOutputs>(w);
  return *static_cast<HostOutputs*>(slot.get());
}

int blas_int(std::size_t n) {
  if (n > std::size_t(std::numeric_limits<int>::max()))
    throw std::out_of_range("CBLAS takes at most 2^31 - 1 elements (int), not " + std::to_string(n));
  return int(n);
}

// The bounds the operations' own checks use (src/tuning/operations/).
constexpr double kSumBound = 1e-5, kScanBound = 1e-5;
double ulps(double bound) { return bound / std::numeric_limits<float>::epsilon(); }

// A scalar result's check: the call's value against the host's.
std::function<std::string(Workload&)> scalar_is(const char* what, std::function<reference::Exact(Workload&)> want,
                                                double bound) {
  return [what, want, bound](Workload& w) { return reference::compare_value(what, outputs(w).scalar, want(w), bound); };
}

// A baseline whose `run` leaves its output where `verify` reads it; the
// check runs it once from fresh inputs (`fresh`) and verifies.
Baseline cpu_call(
    std::string routine, std::string library, std::function<void(Workload&)> run,
    std::function<std::string(Workload&)> verify, std::function<void(Workload&)> fresh = [](Workload&) {}) {
  Baseline b;
  b.routine = std::move(routine);
  b.library = std::move(library);
  b.run = run;
  b.check = [run, verify, fresh](Workload& w) {
    HostOutputs& out = outputs(w);
    std::fill(out.z.begin(), out.z.end(), std::numeric_limits<float>::quiet_NaN());
    out.scalar = std::numeric_limits<double>::quiet_NaN();
    fresh(w);
    run(w);
    return verify(w);
  };
  return b;
}

std::optional<Baseline> blas_baseline(const std::string& op) {
  const Cblas* blas = cblas();
  if (!blas) return std::nullopt;
  const Cblas& b = *blas;
  const std::string lib = b.library;
  auto z = [](Workload& w) { return outputs(w).z.data(); };
  if (op == "copy")
    return cpu_call(
        "cblas_scopy", lib, [b, z](Workload& w) { b.scopy(blas_int(w.n), w.hx.data(), 1, z(w), 1); },
        [](Workload& w) {
          return outputs(w).z == w.hx ? std::string() : std::string("cblas_scopy: z differs from x");
        });
  if (op == "axpy")
    return cpu_call(
        "cblas_saxpy", lib,
        [b](Workload& w) { b.saxpy(blas_int(w.n), portacl::operation_a, w.hx.data(), 1, outputs(w).y.data(), 1); },
        [](Workload& w) {
          return reference::compare(outputs(w).y, reference::axpby(portacl::operation_a, w.hx, 1.0, w.hy), 2);
        },
        [](Workload& w) { outputs(w).y = w.hy; });
  if (op == "dot")
    return cpu_call(
        "cblas_sdot", lib,
        [b](Workload& w) { outputs(w).scalar = b.sdot(blas_int(w.n), w.hx.data(), 1, w.hy.data(), 1); },
        scalar_is(
            "cblas_sdot", [](Workload& w) { return reference::dot(w.hx, w.hy); }, kSumBound));
  if (op == "nrm2")
    return cpu_call(
        "cblas_snrm2", lib, [b](Workload& w) { outputs(w).scalar = b.snrm2(blas_int(w.n), w.hx.data(), 1); },
        scalar_is(
            "cblas_snrm2", [](Workload& w) { return reference::nrm2(w.hx); }, kSumBound));
  if (op == "iamax")
    return cpu_call(
        "cblas_isamax", lib, [b](Workload& w) { outputs(w).scalar = double(b.isamax(blas_int(w.n), w.hx.data(), 1)); },
        scalar_is(
            "cblas_isamax",
            [](Workload& w) {
              return reference::Exact{double(reference::extremum(w.hx, std::greater<double>(), true).index), 0};
            },
            0));
  if (op == "gemv" || op == "gemv_t") {
    const bool t = op == "gemv_t";
    return cpu_call(
        "cblas_sgemv", lib,
        [b, t, z](Workload& w) {
          const int s = blas_int(portacl::square_order(w.n));
          b.sgemv(Cblas::row_major, t ? Cblas::trans : Cblas::no_trans, s, s, 1.0f, w.hx.data(), s, w.hy.data(), 1,
                  0.0f, z(w), 1);
        },
        [t](Workload& w) {
          const std::size_t s = portacl::square_order(w.n);
          const auto want = reference::matvec(
              s, s, [&](std::size_t i, std::size_t j) { return t ? w.hx[j * s + i] : w.hx[i * s + j]; },
              [&](std::size_t j) { return w.hy[j]; });
          return reference::compare(outputs(w).z, want, ulps(reference::dot_bound<float>(s)));
        });
  }
  if (op == "packed_symv")
    return cpu_call(
        "cblas_sspmv", lib,
        [b, z](Workload& w) {
          const int s = blas_int(portacl::packed_order(w.n));
          b.sspmv(Cblas::row_major, Cblas::lower, s, 1.0f, w.hx.data(), w.hy.data(), 1, 0.0f, z(w), 1);
        },
        [](Workload& w) {
          const std::size_t s = portacl::packed_order(w.n);
          const auto want = reference::matvec(
              s, s,
              [&](std::size_t i, std::size_t j) {
                return i >= j ? w.hx[i * (i + 1) / 2 + j] : w.hx[j * (j + 1) / 2 + i];
              },
              [&](std::size_t j) { return w.hy[j]; });
          return reference::compare(outputs(w).z, want, ulps(reference::dot_bound<float>(s)));
        });
  if (op == "trsv")
    // b copied into z's first s elements in every call, as portacl's run
    // copies it on the device: the solve overwrites it.
    return cpu_call(
        "cblas_strsv", lib,
        [b](Workload& w) {
          const std::size_t s = portacl::square_order(w.n);
          if (w.host_lower.empty()) w.lower_triangular();
          float* x = outputs(w).z.data();
          std::copy(w.hy.begin(), w.hy.begin() + std::ptrdiff_t(s), x);
          b.strsv(Cblas::row_major, Cblas::lower, Cblas::no_trans, Cblas::non_unit, blas_int(s), w.host_lower.data(),
                  int(s), x, 1);
        },
        [](Workload& w) {
          const std::size_t s = portacl::square_order(w.n);
          const std::vector<float>& x = outputs(w).z;
          const auto lx = reference::matvec(
              s, s, [&](std::size_t i, std::size_t j) { return j <= i ? w.host_lower[i * s + j] : 0.0f; },
              [&](std::size_t j) { return x[j]; });
          return reference::compare(std::vector<float>(w.hy.begin(), w.hy.begin() + std::ptrdiff_t(s)), lx,
                                    4 * ulps(reference::dot_bound<float>(s)));
        },
        [](Workload& w) { w.lower_triangular(); });
  return std::nullopt;
}

#ifdef PORTACL_HAVE_TBB
constexpr const char* kParallel = "C++17 parallel algorithms (libstdc++ over TBB)";
// Each call takes the policy that ran it fastest here (2^24 floats, built
// with -fopenmp-simd, as par_unseq needs): par_unseq everywhere but
// count_if, whose par_unseq form took 21.5 ms against par's 3.2-4.5 ms; max
// as a reduction (1.7 ms) rather than max_element (4.6 ms).
const auto par_unseq = std::execution::par_unseq;
const auto par = std::execution::par;

std::optional<Baseline> parallel_baseline(const std::string& op) {
  if (op == "sum")
    return cpu_call(
        "std::reduce(par_unseq)", kParallel,
        [](Workload& w) { outputs(w).scalar = std::reduce(par_unseq, w.hx.begin(), w.hx.end(), 0.0f); },
        scalar_is(
            "std::reduce", [](Workload& w) { return reference::sum(w.hx); }, kSumBound));
  if (op == "max")
    return cpu_call(
        "std::reduce(par_unseq, max)", kParallel,
        [](Workload& w) {
          outputs(w).scalar = std::reduce(par_unseq, w.hx.begin(), w.hx.end(), -std::numeric_limits<float>::infinity(),
                                          [](float a, float b) { return std::max(a, b); });
        },
        scalar_is(
            "std::reduce(max)",
            [](Workload& w) {
              return reference::Exact{reference::extremum(w.hx, std::greater<double>(), false).value, 0};
            },
            0));
  if (op == "count_if x>0.5")
    return cpu_call(
        "std::count_if(par)", kParallel,
        [](Workload& w) {
          outputs(w).scalar = double(std::count_if(par, w.hx.begin(), w.hx.end(), [](float v) { return v > 0.5f; }));
        },
        scalar_is(
            "std::count_if",
            [](Workload& w) {
              return reference::Exact{double(reference::count_if(w.hx, [](float v) { return v > 0.5f; })), 0};
            },
            0));
  if (op == "inclusive_scan" || op == "exclusive_scan") {
    const bool inclusive = op == "inclusive_scan";
    return cpu_call(
        inclusive ? "std::inclusive_scan(par_unseq)" : "std::exclusive_scan(par_unseq)", kParallel,
        [inclusive](Workload& w) {
          float* z = outputs(w).z.data();
          if (inclusive)
            std::inclusive_scan(par_unseq, w.hx.begin(), w.hx.end(), z);
          else
            std::exclusive_scan(par_unseq, w.hx.begin(), w.hx.end(), z, 0.0f);
        },
        [inclusive](Workload& w) {
          return reference::compare(outputs(w).z, reference::scan(w.hx, inclusive), ulps(kScanBound));
        });
  }
  if (op == "compact x>0.5")
    return cpu_call(
        "std::copy_if(par_unseq)", kParallel,
        [](Workload& w) {
          HostOutputs& out = outputs(w);
          const auto end =
              std::copy_if(par_unseq, w.hx.begin(), w.hx.end(), out.z.begin(), [](float v) { return v > 0.5f; });
          out.scalar = double(end - out.z.begin());
        },
        [](Workload& w) {
          std::vector<float> want;
          for (float v : w.hx)
            if (v > 0.5f) want.push_back(v);
          const HostOutputs& out = outputs(w);
          return out.scalar == double(want.size()) && std::equal(want.begin(), want.end(), out.z.begin())
                     ? std::string()
                     : std::string("std::copy_if differs from the host");
        });
  if (op == "sort uint32")
    // The unsorted keys copied back before each sort, as portacl's run
    // restores them on the device.
    return cpu_call(
        "std::sort(par)", kParallel,
        [](Workload& w) {
          const std::vector<std::uint32_t>& keys = portacl::sort_case<std::uint32_t>(w).host_keys;
          std::vector<std::uint32_t>& out = outputs(w).keys;
          out.resize(keys.size());
          std::copy(par, keys.begin(), keys.end(), out.begin());
          std::sort(par, out.begin(), out.end());
        },
        [](Workload& w) {
          const std::vector<std::uint32_t>& keys = portacl::sort_case<std::uint32_t>(w).host_keys;
          return reference::compare_bits(outputs(w).keys, reference::gathered(keys, reference::stable_order(keys)),
                                         "std::sort keys");
        },
        [](Workload& w) { outputs(w).keys.clear(); });
  return std::nullopt;
}
#endif

}  // namespace

std::optional<Baseline> cpu_library_baseline(const std::string& operation) {
  if (auto b = blas_baseline(operation)) return b;
#ifdef PORTACL_HAVE_TBB
  if (auto b = parallel_baseline(operation)) return b;
#endif
  return std::nullopt;
}

std::string cpu_libraries_description() {
  std::string why;
  const Cblas* blas = cblas(&why);
  std::string text = blas ? blas->name : why;
#ifdef PORTACL_HAVE_TBB
  text += "; " + std::string(kParallel) + ", " + std::to_string(std::thread::hardware_concurrency()) + " threads";
#else
  text += "; no C++17 parallel algorithms (portacl-bench was built without TBB, libtbb-dev)";
#endif
  return text;
}

}  // namespace bench
