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
  LaunchPlan p = ctx.plan(particle_pass_traits("particle_position_check", 16), ProblemSize(n), options);
  p.work_groups = kernel_call::ceil_div(n, p.local[0]);
  p.global = {{p.work_groups * p.local[0], 1, 1}};
  p.items_per_work_item = 1;
  p.macros["HALF"] = "0";  // the file's search kernels need it defined; the check ignores it
  Buffer<std::uint32_t> first_bad(ctx, std::vector<std::uint32_t>{0xffffffffu});
  const cl_float4 box4{{float(box.x), float(box.y), float(box.z), 0.0f}};
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"neighbours.cl", "check_positions", ""}, p), static_cast<cl_uint>(n),
                      box4, positions, first_bad);
  const std::uint32_t i = first_bad.download()[0];
  if (i == 0xffffffffu) return;
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
