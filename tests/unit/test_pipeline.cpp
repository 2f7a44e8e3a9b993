// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace portacl;

namespace {

template <class T>
std::vector<T> plain_axpy(Context& ctx, T a, const std::vector<T>& x, const std::vector<T>& y) {
  Buffer<T> dx(ctx, x), dy(ctx, y);
  axpy(ctx, a, dx, dy);
  return dy.download();
}

}  // namespace

TEMPLATE_TEST_CASE("the overlapped pipeline gives the plain path's bits", "[pipeline]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{1021}, std::size_t{100003}, (std::size_t{1} << 20) + 3}) {
    const std::vector<T> x = test::random_vector<T>(n), y0 = test::random_vector<T>(n);
    const T a = test::random_vector<T>(1)[0];
    const std::vector<T> want = plain_axpy(ctx, a, x, y0);
    for (unsigned queues : {1u, 2u, 3u})
      for (std::size_t chunk : {std::size_t{0}, std::size_t{7}, std::size_t{4099}, n + 5})
        for (bool pinned : {false, true}) {
          if (chunk == 7 && n > 5000) continue;  // thousands of chunks add nothing
          INFO("n " << n << ", queues " << queues << ", chunk " << chunk << ", pinned " << pinned);
          std::vector<T> y = y0;
          PipelineOptions o;
          o.queues = queues;
          o.chunk_elements = chunk;
          o.pinned_staging = pinned;
          PipelineReport r = axpy_pipelined(ctx, a, x.data(), y.data(), n, o);
          CHECK(y == want);
          if (n) CHECK(r.pinned_staging == pinned);
          if (n) CHECK(r.chunks == (n + r.chunk_elements - 1) / r.chunk_elements);
        }
    // map: y is output only; poisoned first.
    Buffer<T> dx(ctx, x), dm(ctx, n);
    map(ctx, "x * x - (T)3", dx, dm);
    std::vector<T> y(n, std::numeric_limits<T>::quiet_NaN());
    map_pipelined(ctx, "x * x - (T)3", x.data(), y.data(), n, PipelineOptions{4099, 2, true});
    CHECK(y == dm.download());
  }
}

TEST_CASE("the pipeline refuses bad input", "[pipeline]") {
  Context& ctx = test::cpu_context();
  std::vector<float> x(10), y(10);
  PipelineOptions none;
  none.queues = 0;
  CHECK_THROWS_WITH(axpy_pipelined(ctx, 1.0f, x.data(), y.data(), 10, none), Catch::Contains("at least one queue"));
  CHECK_THROWS_WITH(axpy_pipelined(ctx, 1.0f, x.data(), static_cast<float*>(nullptr), 10),
                    Catch::Contains("axpy_pipelined: a host array is null"));
  CHECK_THROWS_WITH(map_pipelined(ctx, "", x.data(), y.data(), 10), Catch::Contains("expression is empty"));
  CHECK_THROWS_AS(map_pipelined(ctx, "x +* 2", x.data(), y.data(), 10), BuildError);
}
