// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "test_support.hpp"
#include "kernels/stream_tunables.hpp"
#include "programs/source_text.hpp"

using namespace portacl;

namespace {

// Compiles axpy through a fresh Context on the CPU device with `cache_dir`;
// returns that context's cache statistics and the entry's path.
CacheStats load_axpy(const std::string& cache_dir, std::string* entry = nullptr) {
  ContextOptions opt;
  opt.cache_directory = cache_dir;
  Context ctx(test::cpu_context().device(), opt);
  PreparedKernel k = ctx.prepare(axpy_kernel, axpy_traits(ElementType::f32), ProblemSize(1000));
  if (entry)
    *entry = ctx.programs().entry_path(ctx.info(), ctx.kernel_library().load(axpy_kernel.file), k.plan.build_options());
  // The kernel still works, whichever way it was obtained.
  std::vector<float> x(1000, 1.5f), y(1000, 2.0f);
  Buffer<float> dx(ctx, x), dy(ctx, y);
  axpy(ctx, 2.0f, dx, dy, k.plan);
  for (float v : dy.download()) REQUIRE(v == 5.0f);
  return ctx.programs().stats();
}

}  // namespace

TEST_CASE("a second load comes from the disk cache without compiling", "[cache]") {
  std::string dir = test::scratch_dir("cache-hit");
  std::string entry;
  CacheStats first = load_axpy(dir, &entry);
  CHECK(first.compiles == 1);
  CHECK(first.disk_writes == 1);
  CHECK(first.disk_hits == 0);
  std::ifstream f(entry, std::ios::binary);
  CHECK(f.good());
  CacheStats second = load_axpy(dir);
  CHECK(second.compiles == 0);
  CHECK(second.disk_hits == 1);
}

TEST_CASE("repeated launches in one context compile once and reuse the kernel object", "[cache]") {
  ContextOptions opt;
  opt.cache_directory = "";
  Context ctx(test::cpu_context().device(), opt);
  std::vector<PreparedKernel> k;
  for (int i = 0; i < 3; ++i)
    k.push_back(ctx.prepare(axpy_kernel, axpy_traits(ElementType::f32), ProblemSize(1000 + i)));
  REQUIRE(k[0].plan.build_options() == k[2].plan.build_options());
  CHECK(ctx.programs().stats().compiles == 1);
  // The context's kernel objects answer before the program cache is asked.
  CHECK(ctx.programs().stats().memory_hits == 0);
  CHECK(k[0].kernel() == k[1].kernel());
  CHECK(k[0].kernel() == k[2].kernel());
  // The same call shape again returns the cached plan.
  PreparedKernel again = ctx.prepare(axpy_kernel, axpy_traits(ElementType::f32), ProblemSize(1001));
  CHECK(again.plan.summary() == k[1].plan.summary());
}

TEST_CASE("corrupt, truncated and foreign cache entries are detected and rebuilt", "[cache]") {
  std::string dir = test::scratch_dir("cache-corrupt");
  std::string entry;
  load_axpy(dir, &entry);
  const std::string good = test::read_file(entry);
  REQUIRE(good.size() > 100);

  SECTION("truncated") { test::write_file(entry, good.substr(0, good.size() / 2)); }
  SECTION("flipped byte in the binary") {
    std::string bad = good;
    bad[bad.size() - 10] ^= 0x5a;
    test::write_file(entry, bad);
  }
  SECTION("empty file") { test::write_file(entry, ""); }
  SECTION("not a portacl file") { test::write_file(entry, "garbage\n"); }
  // Issue 12: the payload length is checked against the file before any
  // allocation, and a valid binary of another program is refused.
  SECTION("a header claiming a 4 GiB payload in a short file") {
    const std::size_t header_end = good.find('\n', good.find("options=") + 8) + 1;
    const std::size_t line_end = good.find('\n', header_end);
    const std::string checksum = good.substr(good.find(' ', header_end) + 1, line_end - good.find(' ', header_end) - 1);
    test::write_file(entry, good.substr(0, header_end) + "4294967296 " + checksum + "\n" + std::string(300, 'x'));
  }
  SECTION("a forged entry: another program's binary with a valid checksum") {
    Context& ctx = test::cpu_context();
    cl::Program other(ctx.cl_context(), std::string("kernel void other(global float* x) { x[0] = 1.0f; }"));
    REQUIRE(other.build() == CL_SUCCESS);
    std::vector<std::vector<unsigned char>> bins;
    REQUIRE(other.getInfo(CL_PROGRAM_BINARIES, &bins) == CL_SUCCESS);
    const std::string payload(bins.at(0).begin(), bins.at(0).end());
    char checksum[17];
    std::snprintf(checksum, sizeof checksum, "%016llx", static_cast<unsigned long long>(fnv1a64(payload)));
    const std::size_t header_end = good.find('\n', good.find("options=") + 8) + 1;
    test::write_file(entry,
                     good.substr(0, header_end) + std::to_string(payload.size()) + " " + checksum + "\n" + payload);
  }
  SECTION("stale key (another driver version)") {
    std::string bad = good;
    size_t p = bad.find("driver=");
    REQUIRE(p != std::string::npos);
    bad[p + 7] = bad[p + 7] == 'x' ? 'y' : 'x';
    test::write_file(entry, bad);
  }
  CacheStats s = load_axpy(dir);
  CHECK(s.disk_rejects == 1);
  CHECK(s.compiles == 1);
  CHECK(s.disk_writes == 1);
  // The rebuilt entry is whole again and serves the next process.
  CacheStats again = load_axpy(dir);
  CHECK(again.disk_hits == 1);
  CHECK(again.compiles == 0);
}

TEST_CASE("an unusable cache directory is a clear error", "[cache]") {
  std::string dir = test::scratch_dir("cache-bad");
  const char* saved_env = std::getenv("PORTACL_CACHE_DIR");
  std::string saved = saved_env ? saved_env : "";
  test::write_file(dir + "/a-file", "x");
  // A path under a regular file cannot be a directory, even for root.
  CHECK_THROWS_WITH(ProgramCache(dir + "/a-file/cache"),
                    Catch::Contains("cannot be created") && Catch::Contains("PORTACL_CACHE_DIR"));
  ::setenv("PORTACL_CACHE_DIR", (dir + "/a-file/cache").c_str(), 1);
  CHECK_THROWS_WITH(Context(test::cpu_context().device()), Catch::Contains(dir + "/a-file/cache"));
  ::setenv("PORTACL_CACHE_DIR", "off", 1);
  CHECK(ProgramCache::default_directory().empty());
  ::unsetenv("PORTACL_CACHE_DIR");
  const char* saved_xdg_env = std::getenv("XDG_CACHE_HOME");
  std::string saved_xdg = saved_xdg_env ? saved_xdg_env : "";
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  CHECK(ProgramCache::default_directory() == "/tmp/xdg-test/portacl/programs");
  if (saved_xdg.empty())
    ::unsetenv("XDG_CACHE_HOME");
  else
    ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  if (!saved.empty()) ::setenv("PORTACL_CACHE_DIR", saved.c_str(), 1);
}

TEST_CASE("no temporary files are left behind", "[cache]") {
  std::string dir = test::scratch_dir("cache-tmp");
  load_axpy(dir);
  std::string listing;
  std::string cmd = "ls -A '" + dir + "'";
  FILE* p = popen(cmd.c_str(), "r");
  char buf[512];
  while (p && fgets(buf, sizeof buf, p)) listing += buf;
  if (p) pclose(p);
  CHECK_THAT(listing, !Catch::Contains(".tmp."));
  CHECK_THAT(listing, Catch::Contains(".bin"));
}
