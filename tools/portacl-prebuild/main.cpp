// SPDX-License-Identifier: Apache-2.0
// portacl-prebuild: compiles ahead of time every kernel the library's
// operations use on one device, into the on-disk binary cache, so that a
// later program's first call loads binaries instead of compiling.
#include <cstdio>
#include <iostream>

#include "../common/cli.hpp"
#include "portacl/portacl.hpp"
#include "tooling.hpp"
#include "portacl/tuning.hpp"

using namespace portacl;

namespace {

const char* kUsage = R"(usage: portacl-prebuild [options]

Runs each operation of the library once per size on one device, so that its
programs are compiled and stored in the binary cache (PORTACL_CACHE_DIR,
default ~/.cache/portacl/programs). Prints the time of each first call: run
it twice to see what the cache saves.

options:
  --device SEL       device (default PORTACL_DEVICE, else the first GPU, else
                     the first device)
)" PORTACL_CLI_DEVICE_SELECTORS R"(  --kernels LIST     only these operations (names as in portacl-tune --list)
  --sizes LIST       problem sizes whose plans to build (default 2^12,2^20)
  -h, --help         this text
  --version          print the version

exit status: 0 done, 1 a runtime error (a build failure, an unknown
operation), 2 usage error
)";

}  // namespace

int main(int argc, char** argv) {
  std::string device;
  PrebuildOptions options;
  try {
    std::vector<std::size_t> sizes;
    for (cli::Arguments args(argc, argv); args.next();) {
      const std::string& arg = args.arg();
      if (cli::help_or_version(args, "portacl-prebuild", kUsage))
        return 0;
      else if (arg == "--device")
        device = args.value();
      else if (arg == "--kernels")
        options.operations = cli::split(args.value());
      else if (arg == "--sizes") {
        for (const auto& s : cli::split(args.value())) sizes.push_back(cli::parse_size(s, "--sizes"));
      } else
        throw std::invalid_argument("unknown option '" + arg + "'");
    }
    if (!sizes.empty()) options.sizes = sizes;
    cli::check_names(options.operations, prebuild_operation_names(), "--kernels");
  } catch (const std::invalid_argument& e) {
    std::cerr << "portacl-prebuild: " << e.what() << "\n(try --help)\n";
    return 2;
  }
  try {
    Context ctx(device);
    std::cout << "prebuilding on " << ctx.info().name << " into "
              << (ctx.programs().directory().empty() ? std::string("(disk cache off)") : ctx.programs().directory())
              << "\n";
    double total = 0;
    for (const PrebuildStep& s : prebuild(ctx, options)) {
      std::printf("  %-16s n=%-9zu %9.1f ms\n", s.operation.c_str(), s.n, s.ms);
      total += s.ms;
    }
    std::printf("total %.1f ms\n", total);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "portacl-prebuild: " << e.what() << "\n";
    return 1;
  }
}
