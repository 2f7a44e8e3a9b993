// SPDX-License-Identifier: Apache-2.0
// Each launch of portacl's FFT on its own: device ms (median of 20 after
// 3 warm-ups, OpenCL events), the GB/s of one read and one write of the
// values it passes through, and the plan's choices (stage length, slots,
// access order, work-group). Where a multi-stage transform loses time.
//   fft_launch_times [DEVICE] [CASE ...]   CASE: c2c:N:BATCH, r2c:N:BATCH, c2c2d:N0:N1, r2c2d:N0:N1, c2c3d:N:N:N
#include <portacl/portacl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace portacl;

namespace {

std::string decision(const LaunchPlan& p, const std::string& what) {
  for (auto it = p.decisions.rbegin(); it != p.decisions.rend(); ++it)
    if (it->what == what) return it->value;
  return "-";
}

std::string macro(const LaunchPlan& p, const std::string& name) {
  const auto it = p.macros.find(name);
  return it == p.macros.end() ? "-" : it->second;
}

void run_case(Context& ctx, const std::string& spec) {
  std::vector<std::string> parts;
  std::stringstream ss(spec);
  for (std::string t; std::getline(ss, t, ':');) parts.push_back(t);
  const std::string kind = parts.at(0);
  std::vector<std::size_t> shape;
  std::size_t batch = 1;
  for (std::size_t k = 1; k < parts.size(); ++k) shape.push_back(std::stoul(parts[k]));
  if (kind == "c2c" || kind == "r2c") {
    batch = shape.size() > 1 ? shape[1] : 1;
    shape.resize(1);
  }
  const bool real = kind.rfind("r2c", 0) == 0;
  FftOptions o;
  o.kind = real ? FftKind::r2c : FftKind::c2c;
  o.batch = batch;
  const Fft f(ctx, shape, o);
  std::vector<float> host(f.elements().input);
  std::mt19937 g(1);
  std::uniform_real_distribution<float> d(-1, 1);
  for (float& v : host) v = d(g);
  Buffer<float> in(ctx, host), out(ctx, f.elements().output);
  for (int w = 0; w < 3; ++w) f.forward(in, out);
  ctx.finish();
  const std::vector<LaunchPlan> plans = f.plans();
  std::size_t launches = 0;
  std::vector<std::vector<double>> ms;
  std::vector<double> whole;
  for (int r = 0; r < 20; ++r) {
    ctx.finish();
    LaunchRecorder rec(ctx);
    f.forward(in, out);
    whole.push_back(rec.span_ms());
    launches = rec.events().size();
    ms.resize(launches);
    for (std::size_t k = 0; k < launches; ++k) {
      const cl_ulong a = rec.events()[k].getProfilingInfo<CL_PROFILING_COMMAND_START>();
      const cl_ulong b = rec.events()[k].getProfilingInfo<CL_PROFILING_COMMAND_END>();
      ms[k].push_back((b - a) * 1e-6);
    }
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::size_t values = batch;
  for (std::size_t n : shape) values *= n;
  std::printf("%s  whole %.4f ms, %zu launches\n", spec.c_str(), median(whole), launches);
  for (std::size_t k = 0; k < launches && k < plans.size(); ++k) {
    const LaunchPlan& p = plans[k];
    const double t = median(ms[k]);
    std::printf(
        "  #%zu %-16s %.4f ms %7.1f GB/s  R=%s NS=%s slots=%s wg=%zu groups=%zu access=[%s] sincos=%s vmax=%s\n", k,
        p.traits.name.c_str(), t, 16.0 * double(values) / (t * 1e6), macro(p, "FFT_R").c_str(),
        macro(p, "FFT_NS").c_str(), macro(p, "FFT_SLOTS").c_str(), p.work_group_size(), p.work_groups,
        decision(p, "fft_access").c_str(), macro(p, "FFT_STAGE_SINCOS").c_str(), macro(p, "FFT_VMAX").c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string device = argc > 1 ? argv[1] : "gpu";
  std::vector<std::string> cases;
  for (int a = 2; a < argc; ++a) cases.push_back(argv[a]);
  if (cases.empty())
    cases = {"c2c:4096:16384",  "c2c:8192:8192",   "c2c:16384:4096",   "c2c:1048576:1",
             "c2c:16777216:1",  "c2c2d:4096:4096", "r2c2d:4096:4096",  "r2c:16777216:1",
             "c2c2d:1000:1000", "c2c:1594323:1",   "c2c3d:256:256:256"};
  Context ctx(device);
  std::printf("%s\n", ctx.device().info().name.c_str());
  for (const std::string& c : cases) run_case(ctx, c);
}
