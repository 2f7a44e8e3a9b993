// SPDX-License-Identifier: Apache-2.0
// The radial distribution function (kernels/particles_rdf.cl): validate, count the
// pair distances into shells the way the histogram's rules say
// (rules/histogram_rules), normalise on the host.
#include "portacl/particles.hpp"

#include <cmath>
#include <string>

#include "../kernel_call.hpp"
#include "kernels/planner.hpp"
#include "particle_traits.hpp"
#include "position_check.hpp"
#include "portacl/error.hpp"
#include "rules/histogram_rules.hpp"

namespace portacl {

RdfLaunches plan_rdf(const Planner& planner, std::size_t n, std::size_t shells) {
  return plan_rdf_launches(planner.plan(particle_pass_traits("rdf", 16), ProblemSize(std::max<std::size_t>(n, 1))),
                           planner.device, n, shells);
}

RadialDistribution radial_distribution(Context& ctx, const Buffer<float>& positions, const PeriodicBox& box,
                                       const RdfOptions& o) {
  const char* op = "radial_distribution";
  kernel_call::same_context(ctx, positions, op, "positions");
  if (!(o.r_max > 0) || !std::isfinite(o.r_max))
    throw Error(std::string(op) + ": r_max " + std::to_string(o.r_max) + " must be finite and above 0");
  if (o.shells == 0 || o.shells > (std::size_t{1} << 20))
    throw Error(std::string(op) + ": " + std::to_string(o.shells) + " shells; between 1 and 2^20");
  if (positions.size() % 4)
    throw Error(std::string(op) + ": positions has " + std::to_string(positions.size()) +
                " floats, not 4 a particle (x, y, z, w)");
  for (double length : {box.x, box.y, box.z})
    if (!(length > 0) || !std::isfinite(length))
      throw Error(std::string(op) + ": box length " + std::to_string(length) + " must be finite and above 0");
  const std::size_t n = positions.size() / 4;
  if (n > kRdfMostParticles)
    throw Error(std::string(op) + ": " + std::to_string(n) + " particles; at most " +
                std::to_string(kRdfMostParticles) + " (N (N - 1) / 2 pairs are counted in 32 bits)");
  RadialDistribution out;
  out.counts.assign(o.shells, 0);
  const double width = double(o.r_max) / double(o.shells);
  for (std::size_t s = 0; s < o.shells; ++s) out.r.push_back((s + 0.5) * width);
  out.g.assign(o.shells, 0.0);
  const std::uint64_t pairs = std::uint64_t(n) * (n ? n - 1 : 0) / 2;
  const RdfLaunches l = plan_rdf(live_planner(ctx, o.plan), n, o.shells);
  out.plan = l.count;
  if (n < 2) return out;
  refuse_positions_outside(ctx, positions, box, o.plan, op);
  Buffer<std::uint32_t> counts(ctx, o.shells);
  const cl_uint count = static_cast<cl_uint>(n);
  const cl_float4 box4{{float(box.x), float(box.y), float(box.z), 0.0f}};
  const cl_float r_max = o.r_max, shell = static_cast<cl_float>(width);
  const PreparedKernel count_k = ctx.prepare(KernelRef{"particles_rdf.cl", l.count_entry, ""}, l.count);
  if (l.choice.variant == HistogramVariant::rows) {
    auto held = ctx.hold_scratch();
    const cl::Buffer& partial = ctx.scratch("rdf.rows", checked_product(l.rows, o.shells * 4, "rdf rows"));
    kernel_call::launch(ctx, count_k, count, box4, r_max, shell, static_cast<cl_uint>(l.rows),
                        static_cast<cl_uint>(l.chunk), positions, partial);
    kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_rdf.cl", "rdf_merge", ""}, l.merge),
                        static_cast<cl_uint>(l.rows), partial, counts);
  } else {
    check_cl(ctx.queue().enqueueFillBuffer(counts.cl_buffer(), cl_uint{0}, 0, o.shells * 4),
             "clEnqueueFillBuffer(rdf)");
    kernel_call::launch(ctx, count_k, count, box4, r_max, shell, positions, counts);
  }
  out.counts = counts.download();
  const double volume = double(box.x) * box.y * box.z, pi = std::acos(-1.0);
  for (std::size_t s = 0; s < o.shells; ++s) {
    const double inner = s * width, outer = (s + 1) * width;
    const double shell_volume = 4.0 / 3.0 * pi * (outer * outer * outer - inner * inner * inner);
    out.g[s] = double(out.counts[s]) / (double(pairs) * shell_volume / volume);
  }
  return out;
}

}  // namespace portacl
