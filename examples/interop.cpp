// SPDX-License-Identifier: Apache-2.0
// portacl inside an existing OpenCL program: its context, queue and
// buffers, shared with CLBlast, without copies.
#include <clblast.h>

#include <cstdio>
#include <vector>

#include <portacl/portacl.hpp>

int main() {
  // What the program already has.
  cl::Device device = portacl::select_device("").cl_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  std::vector<float> hx(4096, 1.5f), hy(4096, 2.0f);
  cl::Buffer x(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, hx.size() * sizeof(float), hx.data());
  cl::Buffer y(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, hy.size() * sizeof(float), hy.data());

  // CLBlast on the program's queue: y = 2 x + y = 5.
  cl_command_queue q = queue();
  if (clblast::Axpy<float>(hx.size(), 2.0f, x(), 0, 1, y(), 0, 1, &q) != clblast::StatusCode::kSuccess) return 1;

  // portacl joins: the same context and queue, the same memory.
  portacl::Context ctx(context, queue);
  portacl::Buffer<float> px(ctx, x), py(ctx, y);
  portacl::axpy(ctx, -1.0f, px, py);  // y = y - x = 3.5, after CLBlast's (the queue is in order)
  const float total = portacl::sum(ctx, py);

  std::vector<float> back(hy.size());
  queue.enqueueReadBuffer(y, CL_TRUE, 0, back.size() * sizeof(float), back.data());  // plain OpenCL reads it
  std::printf("y[0] = %g, sum = %g\n", back[0], total);
  return back[0] == 3.5f && total == 3.5f * back.size() ? 0 : 1;
}
