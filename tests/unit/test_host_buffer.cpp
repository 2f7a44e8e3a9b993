// SPDX-License-Identifier: Apache-2.0
// Pinned host memory (HostBuffer): uploads and downloads through it, the
// pipeline over it, and what is refused.
#include <catch2/catch.hpp>

#include <limits>

#include "test_support.hpp"

using namespace portacl;

TEMPLATE_TEST_CASE("a HostBuffer uploads and downloads like a vector, under every memory strategy", "[host_buffer]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{100003}}) {
    const std::vector<T> values = test::random_vector<T>(n);
    HostBuffer<T> host(ctx, n);
    REQUIRE(host.size() == n);
    std::copy(values.begin(), values.end(), host.begin());
    for (MemoryStrategy s :
         {MemoryStrategy::direct_copy, MemoryStrategy::pinned_staging, MemoryStrategy::map_host_memory}) {
      INFO("n " << n << ", " << to_string(s));
      Buffer<T> device(ctx, n, s);
      device.upload(host);
      CHECK(device.download() == values);
      // Back into a poisoned HostBuffer.
      HostBuffer<T> back(ctx, n);
      std::fill(back.begin(), back.end(), std::numeric_limits<T>::quiet_NaN());
      device.download(back);
      CHECK(std::equal(back.begin(), back.end(), values.begin(), values.end()));
    }
  }
}

TEST_CASE("a HostBuffer is refused by a buffer of another size or another Context", "[host_buffer]") {
  Context& ctx = test::cpu_context();
  HostBuffer<float> host(ctx, 10);
  Buffer<float> shorter(ctx, 9);
  CHECK_THROWS_WITH(shorter.upload(host), Catch::Contains("upload: 10 elements given for a buffer of 9"));
  CHECK_THROWS_WITH(shorter.download(host), Catch::Contains("download: 10 elements given for a buffer of 9"));
  Context other(ctx.device());
  Buffer<float> elsewhere(other, 10);
  CHECK_THROWS_WITH(elsewhere.upload(host), Catch::Contains("the HostBuffer belongs to another Context"));
  CHECK_THROWS_WITH(elsewhere.download(host), Catch::Contains("the HostBuffer belongs to another Context"));
  HostBuffer<float> y(ctx, 11);
  CHECK_THROWS_WITH(axpy_pipelined(ctx, 1.0f, host, y), Catch::Contains("x has 10 elements but y has 11"));
  // A moved-from HostBuffer is empty, its memory now the other's.
  HostBuffer<float> moved(std::move(y));
  CHECK(y.size() == 0);
  CHECK(moved.size() == 11);
}

TEMPLATE_TEST_CASE("the pipeline over HostBuffers gives the plain path's bits on odd chunk counts", "[host_buffer]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1021}, std::size_t{100003}}) {
    const std::vector<T> x = test::random_vector<T>(n), y0 = test::random_vector<T>(n);
    const T a = T(-0.75);
    Buffer<T> dx(ctx, x), dy(ctx, y0);
    axpy(ctx, a, dx, dy);
    const std::vector<T> want = dy.download();
    HostBuffer<T> hx(ctx, n), hy(ctx, n);
    std::copy(x.begin(), x.end(), hx.begin());
    for (unsigned queues : {1u, 2u, 3u})
      for (std::size_t chunk : {std::size_t{0}, std::size_t{7}, std::size_t{4099}}) {
        if (chunk == 7 && n > 5000) continue;
        INFO("n " << n << ", queues " << queues << ", chunk " << chunk);
        std::copy(y0.begin(), y0.end(), hy.begin());
        PipelineOptions o;
        o.queues = queues;
        o.chunk_elements = chunk;
        o.pinned_staging = true;  // not used: the memory is pinned already
        const PipelineReport r = axpy_pipelined(ctx, a, hx, hy, o);
        CHECK(std::equal(hy.begin(), hy.end(), want.begin(), want.end()));
        if (n) CHECK_FALSE(r.pinned_staging);
      }
  }
}

TEST_CASE("pinned-staging transfers of several chunks arrive whole, and back", "[host_buffer]") {
  Context& ctx = test::cpu_context();
  // 2.5 chunks of 4 MiB and a remainder of odd length: both halves reused.
  const std::size_t n = (std::size_t{10} << 20) / sizeof(float) + 3;
  const std::vector<float> values = test::random_vector<float>(n);
  Buffer<float> device(ctx, n, MemoryStrategy::pinned_staging);
  device.upload(values);
  std::vector<float> back(n, std::numeric_limits<float>::quiet_NaN());
  device.download(back.data(), n);
  CHECK(back == values);
  // A kernel right after the upload sees all of it.
  Buffer<float> y(ctx, std::vector<float>(n, 1.0f), MemoryStrategy::pinned_staging);
  axpy(ctx, 2.0f, device, y);
  const std::vector<float> got = y.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += got[i] != 2.0f * values[i] + 1.0f;
  CHECK(wrong == 0);
}
