// SPDX-License-Identifier: Apache-2.0
// The asynchronous forms: values left on the device equal the blocking
// forms' and the double reference; done() and after() order work against
// events from elsewhere.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace portacl;

TEMPLATE_TEST_CASE("scalar results stay on the device and equal the blocking forms", "[async]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{4099}, std::size_t{100003}}) {
    INFO("n = " << n);
    const std::vector<T> hx = test::random_vector<T>(n), hy = test::random_vector<T>(n);
    Buffer<T> x(ctx, hx), y(ctx, hy);
    // Enqueue everything first, read afterwards: nothing waits in between.
    auto s = sum_async(ctx, x);
    auto d = dot_async(ctx, x, y);
    auto r = nrm2_async(ctx, x);
    auto lo = min_async(ctx, x);
    auto hi = max_async(ctx, x);
    auto c = count_if_async(ctx, "x > (T)0.75", x);
    Buffer<T> kept(ctx, n);
    auto k = compact_async(ctx, "x > (T)0.75", x, kept);
    CHECK(s.get() == sum(ctx, x));
    CHECK(d.get() == dot(ctx, x, y));
    CHECK(r.get() == nrm2(ctx, x));
    CHECK(lo.get() == min(ctx, x));
    CHECK(hi.get() == max(ctx, x));
    const std::size_t want_count = reference::count_if(hx, [](T v) { return v > T(0.75); });
    CHECK(c.get() == want_count);
    CHECK(k.get() == want_count);
    CHECK(reference::compare_value("sum", double(s.get()), reference::sum(hx), reference::dot_bound<T>(n)) == "");
    CHECK(reference::compare_value("nrm2", double(r.get()), reference::nrm2(hx), reference::dot_bound<T>(n)) == "");
    // The value sits in a buffer of its own, as wide as it says.
    CHECK(s.stored_bytes() == sizeof(T));
    CHECK(s.ready().template getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
  }
  Buffer<T> empty(ctx, 0), none(ctx, 0);
  CHECK(sum_async(ctx, empty).get() == T(0));
  CHECK(count_if_async(ctx, "x > 0", empty).get() == 0);
  CHECK(compact_async(ctx, "x > 0", empty, none).get() == 0);
  CHECK_THROWS_WITH(min_async(ctx, empty), Catch::Contains("min_async: the buffer is empty"));
}

TEST_CASE("after() holds the Context's work behind a user event; done() says when it finished", "[async]") {
  Context& ctx = test::cpu_context();
  const std::size_t n = 1031;
  const std::vector<float> hx = test::random_vector<float>(n), hy = test::random_vector<float>(n);
  Buffer<float> x(ctx, hx), y(ctx, hy);
  cl::UserEvent gate(ctx.cl_context());
  ctx.after({gate});
  axpy(ctx, 2.0f, x, y);  // enqueued, not run: the queue waits on the gate
  cl::Event finished = ctx.done();
  CHECK(finished.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
  REQUIRE(gate.setStatus(CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(finished.wait() == CL_SUCCESS);
  CHECK(reference::compare(y.download(), reference::axpby(2.0, hx, 1.0, hy), 4) == "");
  ctx.after({});  // nothing to wait for: no barrier
  CHECK(ctx.done().wait() == CL_SUCCESS);
}
