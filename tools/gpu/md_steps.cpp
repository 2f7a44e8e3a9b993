// SPDX-License-Identifier: Apache-2.0
// The second method behind portacl-bench's MD figure: a Lennard-Jones
// liquid (fcc start, density 0.8442, rc 2.5, skin 0.3, dt 0.005, T 0.72)
// of 4 k^3 atoms run for STEPS steps after 20 warm-up steps, wall clock
// around the whole run and a wait, so every list check and rebuild is in
// it; prints atom-steps per second, the rebuilds and the energy drift.
// build: g++ -O2 -std=c++17 -I include -I build/generated/include -I src tools/gpu/md_steps.cpp \
//          -Lbuild/lib/x86_64-linux-gnu -lportacl -lOpenCL -Wl,-rpath,$PWD/build/lib/x86_64-linux-gnu
// usage: md_steps [DEVICE] [K, default 64] [STEPS, default 200] [half | double]
#define CL_TARGET_OPENCL_VERSION 120
#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "portacl/portacl.hpp"
#include "tuning/particles_lj_liquid.hpp"

// The run in T (float: full or half lists; double: full lists).
template <class T>
int run(portacl::Context& ctx, int k, std::size_t steps, bool half) {
  std::mt19937_64 draw(7);
  std::vector<float> p, v;
  portacl::PeriodicBox box;
  portacl::reference::fcc_liquid(k, 0.8442, 0.72, draw, p, v, box);
  portacl::Buffer<T> positions(ctx, std::vector<T>(p.begin(), p.end())),
      velocities(ctx, std::vector<T>(v.begin(), v.end()));
  portacl::LennardJones lj;
  lj.cutoff = 2.5f;
  portacl::MdOptions o;
  o.half_list = half;
  portacl::BasicLennardJonesMd<T> md(ctx, positions, velocities, box, lj, o);
  md.run(20);
  ctx.queue().finish();
  const double e0 = md.energy().total();
  const std::size_t rebuilt = md.rebuilds();
  const auto t0 = std::chrono::steady_clock::now();
  md.run(steps);
  ctx.queue().finish();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double e1 = md.energy().total();
  const double atoms = double(p.size() / 4);
  std::printf(
      "%s: %.0f atoms, %zu steps in %.4f s (%s, %s lists): %.4f ms a step, %.3g atom-steps/s, %zu rebuilds, "
      "energy %.6g -> %.6g (%.3g an atom)\n",
      ctx.info().name.c_str(), atoms, steps, s, sizeof(T) == 4 ? "float" : "double", half ? "half" : "full",
      1e3 * s / double(steps), atoms * double(steps) / s, md.rebuilds() - rebuilt, e0, e1, (e1 - e0) / atoms);
  return 0;
}

int main(int argc, char** argv) {
  portacl::Context ctx(argc > 1 ? argv[1] : "gpu");
  const int k = argc > 2 ? std::stoi(argv[2]) : 64;
  const std::size_t steps = argc > 3 ? std::stoul(argv[3]) : 200;
  const std::string mode = argc > 4 ? argv[4] : "";
  return mode == "double" ? run<double>(ctx, k, steps, false) : run<float>(ctx, k, steps, mode == "half");
}
