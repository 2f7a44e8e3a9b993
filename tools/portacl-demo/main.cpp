// SPDX-License-Identifier: Apache-2.0
// The main job: pick the default device (or argv[1] / PORTACL_DEVICE), run
// SAXPY and DAXPY under the runtime's plan, check against a double-precision
// host reference, and show what the runtime chose and why.
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>
#include <stdexcept>

#include "../common/cli.hpp"
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

const char* kUsage = R"(usage: portacl-demo [--device SEL | SEL]

Runs SAXPY and DAXPY on one device under the runtime's plan, checks them
against a double-precision host reference, and shows what was chosen and why.

options:
  --device SEL       device (see portacl-query; default PORTACL_DEVICE, else
                     the first GPU, else the first device); a bare SEL too
  -h, --help         this text
  --version          print the version

exit status: 0 results correct, 1 a wrong result or a runtime error, 2 usage error
)";

}  // namespace

int main(int argc, char** argv) {
  std::string device;
  try {
    for (cli::Arguments args(argc, argv); args.next();) {
      const std::string& arg = args.arg();
      if (cli::help_or_version(arg, "portacl-demo", kUsage)) return 0;
      if (arg == "--device")
        device = args.value();
      else if (arg.rfind("-", 0) == 0 || !device.empty())
        throw std::invalid_argument(arg.rfind("-", 0) == 0 ? "unknown option '" + arg + "'"
                                                           : "one device only, not also '" + arg + "'");
      else
        device = arg;
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "portacl-demo: " << e.what() << "\n(try --help)\n";
    return 2;
  }
  try {
    Context ctx(device);
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
