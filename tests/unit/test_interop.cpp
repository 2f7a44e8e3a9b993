// SPDX-License-Identifier: Apache-2.0
// Interop with OpenCL code a program already has: a portacl Context on the
// program's own context and queue, portacl calls on buffers made by plain
// OpenCL and computed on by CLBlast in the same context, every result
// checked against the host reference and read back by plain OpenCL (the
// same memory, no copy).
#include <clblast.h>

#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace portacl;

namespace {

cl::Buffer device_copy(const cl::Context& c, std::vector<float>& host) {
  return cl::Buffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(float), host.data());
}

std::vector<float> read_back(cl::CommandQueue& q, const cl::Buffer& b, std::size_t n) {
  std::vector<float> out(n);
  REQUIRE(q.enqueueReadBuffer(b, CL_TRUE, 0, n * sizeof(float), out.data()) == CL_SUCCESS);
  return out;
}

}  // namespace

TEST_CASE("a Context on the program's own OpenCL context and queue, over its buffers", "[interop]") {
  const cl::Device device = test::cpu_context().device().cl_device();
  cl::Context user_context(device);
  cl::CommandQueue user_queue(user_context, device);  // in order, no profiling
  Context ctx(user_context, user_queue);
  CHECK(ctx.cl_context()() == user_context());
  CHECK(ctx.queue()() == user_queue());
  CHECK(ctx.info().name == test::cpu_context().info().name);
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{4099}}) {
    INFO("n = " << n);
    std::vector<float> hx = test::random_vector<float>(n), hy = test::random_vector<float>(n);
    cl::Buffer bx = device_copy(user_context, hx), by = device_copy(user_context, hy);
    Buffer<float> x(ctx, bx), y(ctx, by, n);
    CHECK(x.size() == n);
    CHECK(x.cl_buffer()() == bx());
    axpy(ctx, 2.5f, x, y);
    // Plain OpenCL sees portacl's result in its own buffer.
    CHECK(reference::compare(read_back(user_queue, by, n), reference::axpby(2.5, hx, 1.0, hy), 4) == "");
    const std::vector<float> y1 = read_back(user_queue, by, n);
    CHECK(reference::compare_value("dot", dot(ctx, x, y), reference::dot(hx, y1), reference::dot_bound<float>(n)) ==
          "");
    // Raw handles, as C code holds them.
    Buffer<float> raw = Buffer<float>::wrap(ctx, bx(), n);
    CHECK(reference::compare_value("sum", sum(ctx, raw), reference::sum(hx), reference::dot_bound<float>(n)) == "");
  }
  // The raw-handle Context is the same Context.
  Context from_raw(user_context(), user_queue());
  CHECK(from_raw.cl_context()() == user_context());
}

TEST_CASE("portacl and CLBlast take turns on the same buffers and queue", "[interop]") {
  const cl::Device device = test::cpu_context().device().cl_device();
  cl::Context user_context(device);
  cl::CommandQueue user_queue(user_context, device);
  Context ctx(user_context, user_queue);
  const std::size_t n = 1237;
  std::vector<float> hx = test::random_vector<float>(n), hy = test::random_vector<float>(n);
  cl::Buffer bx = device_copy(user_context, hx), by = device_copy(user_context, hy);
  // CLBlast: y = 0.5 x + y, on the program's queue.
  cl_command_queue q = user_queue();
  cl_event done = nullptr;
  REQUIRE(clblast::Axpy<float>(n, 0.5f, bx(), 0, 1, by(), 0, 1, &q, &done) == clblast::StatusCode::kSuccess);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  clReleaseEvent(done);
  // portacl on CLBlast's output: y = -2 x + y.
  Buffer<float> x(ctx, bx), y(ctx, by);
  axpy(ctx, -2.0f, x, y);
  const std::vector<float> got = read_back(user_queue, by, n);
  CHECK(reference::compare(got, reference::axpby(-1.5, hx, 1.0, hy), 8) == "");
  // CLBlast reads portacl's output: its dot equals portacl's.
  cl::Buffer result(user_context, CL_MEM_READ_WRITE, sizeof(float));
  REQUIRE(clblast::Dot<float>(n, result(), 0, bx(), 0, 1, by(), 0, 1, &q, nullptr) == clblast::StatusCode::kSuccess);
  const float clblast_dot = read_back(user_queue, result, 1)[0];
  CHECK(reference::compare_value("CLBlast dot", clblast_dot, reference::dot(hx, got), reference::dot_bound<float>(n)) ==
        "");
  CHECK(reference::compare_value("portacl dot", dot(ctx, x, y), reference::dot(hx, got),
                                 reference::dot_bound<float>(n)) == "");
}

TEST_CASE("wrapping refuses foreign, too small and null OpenCL objects", "[interop][errors]") {
  const cl::Device device = test::cpu_context().device().cl_device();
  cl::Context mine(device), other(device);
  cl::CommandQueue queue(mine, device), foreign_queue(other, device);
  CHECK_THROWS_WITH(Context(mine, foreign_queue), Catch::Contains("the queue belongs to another OpenCL context"));
  cl_int err = CL_SUCCESS;
  cl::CommandQueue unordered(mine, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (err == CL_SUCCESS)
    CHECK_THROWS_WITH(Context(mine, unordered), Catch::Contains("out of order; portacl needs an in-order queue"));
  CHECK_THROWS_WITH(Context(cl::Context(), queue), Catch::Contains("the context or the queue is null"));
  Context ctx(mine, queue);
  cl::Buffer small(mine, CL_MEM_READ_WRITE, 40), theirs(other, CL_MEM_READ_WRITE, 40);
  CHECK(Buffer<float>(ctx, small).size() == 10);
  CHECK(Buffer<double>(ctx, small).size() == 5);
  CHECK_THROWS_WITH(Buffer<float>(ctx, small, 11),
                    Catch::Contains("wrapping an OpenCL buffer as Buffer<float>: it holds 40 bytes, 44 are needed"));
  CHECK_THROWS_WITH(Buffer<float>(ctx, theirs), Catch::Contains("belongs to another OpenCL context"));
  CHECK_THROWS_WITH(Buffer<float>::wrap(ctx, nullptr), Catch::Contains("the cl_mem is null"));
  // A portacl Buffer of one Context is refused by another, as before.
  Buffer<float> a(ctx, small), b(test::cpu_context(), 10);
  CHECK_THROWS_WITH(axpy(ctx, 1.0f, a, b), Catch::Contains("belongs to another context"));
}
