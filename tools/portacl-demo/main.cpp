// SPDX-License-Identifier: Apache-2.0
// The main job: on the default device (or the one named), a tour of the
// library, one checked and timed call per family, then how one plan was
// chosen, then where to go next.
#include <iostream>
#include <stdexcept>

#include "../common/cli.hpp"
#include "portacl/portacl.hpp"
#include "tour.hpp"

using namespace portacl;

namespace {

const char* kUsage = R"(usage: portacl-demo [--device SEL | SEL]

A tour of portacl on one device: one call from each family (streaming,
reduction, scan, compaction, matrix-vector, sparse, triangular solve, matrix
multiply), each checked against a double-precision host reference, timed,
and set against the device's copy bandwidth and FMA peak measured first.

options:
  --device SEL       device (default PORTACL_DEVICE, else the first GPU, else
                     the first device); a bare SEL too
)" PORTACL_CLI_DEVICE_SELECTORS R"(  -h, --help         this text
  --version          print the version

exit status: 0 results correct, 1 a wrong result or a runtime error, 2 usage error
)";

const char* kNext = R"(where to go next:
  portacl-query --explain          every device, and each plan's decisions with the rules that made them
  portacl-bench                    every kernel beside CLBlast, with ceilings, medians and spreads
  portacl-tune --all               tune this device's plans; every later program uses the results
  docs/mapping-rules.md            the rules, and why; README.md for the API in ten lines
)";

}  // namespace

int main(int argc, char** argv) {
  std::string device;
  try {
    for (cli::Arguments args(argc, argv); args.next();) {
      const std::string& arg = args.arg();
      if (cli::help_or_version(args, "portacl-demo", kUsage)) return 0;
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
    const bool ok = tour::run(ctx, std::cout);
    // How one of those calls was planned, rule by rule.
    Buffer<float> x(ctx, std::vector<float>(1000, 1.0f)), y(ctx, 1000);
    std::cout << "\nhow axpy was planned here:\n" << axpy(ctx, 2.0f, x, y).explain() << "\n";
    const CacheStats s = ctx.programs().stats();
    std::cout << "programs: " << s.compiles << " compiled from source, " << s.disk_hits
              << " loaded from the binary cache\n\n"
              << kNext;
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "portacl-demo: " << e.what() << "\n";
    return 1;
  }
}
