// SPDX-License-Identifier: Apache-2.0
// The main job: pick the default device (or argv[1] / PORTACL_DEVICE), run
// SAXPY and DAXPY under the runtime's plan, check against a double-precision
// host reference, and show what the runtime chose and why.
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>

#include "portacl/portacl.hpp"

using namespace portacl;

namespace {

template <class T>
bool run_axpy(Context& ctx, std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<T> x(n), y(n);
  for (auto& v : x) v = static_cast<T>(dist(rng));
  for (auto& v : y) v = static_cast<T>(dist(rng));
  const T a = static_cast<T>(dist(rng));

  Buffer<T> dx(ctx, x), dy(ctx, y);
  auto t0 = std::chrono::steady_clock::now();
  LaunchPlan plan = axpy(ctx, a, dx, dy);
  std::vector<T> out = dy.download();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double ref = static_cast<double>(a) * static_cast<double>(x[i]) + static_cast<double>(y[i]);
    // Scaled by the operands' magnitudes: a*x + y may cancel, so error
    // relative to the result itself would be meaningless.
    double scale = std::fabs(static_cast<double>(a) * static_cast<double>(x[i])) + std::fabs(static_cast<double>(y[i]));
    double err = std::fabs(static_cast<double>(out[i]) - ref) / (scale + 1e-300);
    if (std::isnan(err) || err > worst) worst = std::isnan(err) ? INFINITY : err;
  }
  // Two roundings (or one with FMA) of the unit round-off.
  const double tol = sizeof(T) == 4 ? 2.5e-7 : 5e-16;
  bool ok = worst <= tol;
  std::cout << (sizeof(T) == 4 ? "SAXPY" : "DAXPY") << " n=" << n << ": max error relative to |a*x|+|y| " << worst
            << (worst <= tol ? " (ok)" : " (FAILED)") << ", " << ms << " ms including compile/transfer\n";
  std::cout << plan.explain() << "\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Context ctx(argc > 1 ? argv[1] : "");
    const Classification& c = ctx.device().classification();
    std::cout << "portacl " << PORTACL_VERSION_STRING << " on " << ctx.device().describe() << "\n"
              << "  class " << to_string(c.device_class) << " (" << c.architecture << "): " << c.reason << "\n"
              << "  program cache: " << (ctx.programs().directory().empty() ? "(disabled)" : ctx.programs().directory())
              << "\n\n";
    std::mt19937_64 rng(std::random_device{}());
    const std::size_t n = (std::size_t{1} << 20) + 3;  // not a multiple of any vector width
    bool ok = run_axpy<float>(ctx, n, rng);
    if (ctx.info().fp64)
      ok = run_axpy<double>(ctx, n, rng) && ok;
    else
      std::cout << "DAXPY skipped: the device has no fp64\n";
    CacheStats s = ctx.programs().stats();
    std::cout << "programs: " << s.compiles << " compiled from source, " << s.disk_hits
              << " loaded from the binary cache\n";
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "portacl-demo: " << e.what() << "\n";
    return 1;
  }
}
