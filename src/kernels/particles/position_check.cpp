// SPDX-License-Identifier: Apache-2.0
#include "position_check.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "../kernel_call.hpp"
#include "particle_traits.hpp"
#include "portacl/error.hpp"

namespace portacl {

void refuse_positions_outside(Context& ctx, const Buffer<float>& positions, const PeriodicBox& box,
                              const PlanOptions& options, const char* op) {
  const std::size_t n = positions.size() / 4;
  if (n == 0) return;
  const LaunchPlan p = neighbours_cl_pass_plan(ctx, particle_pass_traits("particle_position_check", 16), n, options);
  // The first bad index, in a scratch word set to "none" before the pass.
  auto held = ctx.hold_scratch();
  const cl::Buffer& first_bad = ctx.scratch("positions.first_bad", sizeof(cl_uint));
  const cl_uint none = 0xffffffffu;
  check_cl(ctx.queue().enqueueFillBuffer(first_bad, none, 0, sizeof(cl_uint)), std::string(op) + ": clearing a word");
  const cl_float4 box4{{float(box.x), float(box.y), float(box.z), 0.0f}};
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_neighbours.cl", "check_positions", ""}, p),
                      static_cast<cl_uint>(n), box4, positions, first_bad);
  cl_uint i = none;
  check_cl(ctx.queue().enqueueReadBuffer(first_bad, CL_TRUE, 0, sizeof(cl_uint), &i),
           std::string(op) + ": reading the position check");
  if (i == none) return;
  float at[4] = {0, 0, 0, 0};
  check_cl(ctx.queue().enqueueReadBuffer(positions.cl_buffer(), CL_TRUE, 16 * std::size_t(i), 16, at),
           std::string(op) + ": reading particle " + std::to_string(i));
  std::ostringstream msg;
  msg << op << ": particle " << i << " at (" << at[0] << ", " << at[1] << ", " << at[2] << ") ";
  if (!(std::isfinite(at[0]) && std::isfinite(at[1]) && std::isfinite(at[2])))
    msg << "is not finite";
  else
    msg << "lies more than two box lengths outside the box (" << box.x << " x " << box.y << " x " << box.z
        << "); each coordinate must lie in [-2L, 3L): wrap the positions into the box first";
  throw Error(msg.str());
}

}  // namespace portacl
