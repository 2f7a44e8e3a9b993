// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cstdlib>

#include "test_support.hpp"
#include "kernels/stream_tunables.hpp"

using namespace portacl;

namespace {

struct EnvGuard {
  std::string name, saved;
  bool had;
  explicit EnvGuard(const char* n) : name(n) {
    const char* v = std::getenv(n);
    had = v != nullptr;
    if (v) saved = v;
  }
  ~EnvGuard() {
    if (had)
      ::setenv(name.c_str(), saved.c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

bool contains_lower(std::string haystack, const std::string& needle) {
  for (auto& c : haystack) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("the library reports the version the headers carry", "[runtime]") {
  // A program built against these headers and run with this build's
  // library: the two agree, and the version is major.minor.patch.
  const std::string v = version();
  CHECK(v == PORTACL_VERSION_STRING);
  CHECK(v == std::to_string(PORTACL_VERSION_MAJOR) + "." + std::to_string(PORTACL_VERSION_MINOR) + "." +
                 std::to_string(PORTACL_VERSION_PATCH));
}

TEST_CASE("devices are selected by index, type, name and PORTACL_DEVICE", "[runtime]") {
  EnvGuard guard("PORTACL_DEVICE");
  ::unsetenv("PORTACL_DEVICE");
  std::vector<Device> all = all_devices();
  REQUIRE(!all.empty());
  const Device& first = all.front();
  CHECK(select_device("0").info().name == first.info().name);
  CHECK(select_device("0:0").info().name == first.info().name);
  CHECK(select_device("cpu").info().type == DeviceType::cpu);
  CHECK(select_device("cpu:0").info().type == DeviceType::cpu);
  std::string part = select_device("cpu").info().name.substr(0, 5);
  for (auto& c : part) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(select_device(part).info().type == DeviceType::cpu);  // case-insensitive substring
  ::setenv("PORTACL_DEVICE", "cpu", 1);
  CHECK(select_device("").info().type == DeviceType::cpu);
  ::setenv("PORTACL_DEVICE", "no-such-device-xyz", 1);
  CHECK_THROWS_WITH(select_device(""), Catch::Contains("PORTACL_DEVICE 'no-such-device-xyz'"));
  ::unsetenv("PORTACL_DEVICE");
  CHECK(first.describe().find(first.info().name) != std::string::npos);
}

TEST_CASE("bad device selectors are clear errors", "[runtime]") {
  EnvGuard guard("PORTACL_DEVICE");
  ::unsetenv("PORTACL_DEVICE");
  CHECK_THROWS_WITH(
      select_device("no-such-device-xyz"),
      Catch::Contains("no device or platform name or vendor contains it") && Catch::Contains("available devices"));
  CHECK_THROWS_WITH(select_device("999"), Catch::Contains("index 999 is out of range"));
  CHECK_THROWS_WITH(select_device("7:3"), Catch::Contains("no device 3 on platform 7"));
  CHECK_THROWS_WITH(select_device("cpu:42"), Catch::Contains("only"));
  CHECK_THROWS_WITH(select_device("cpu:x"), Catch::Contains("not a number"));
  bool has_gpu = false, has_acc = false;
  for (const auto& d : all_devices()) {
    has_gpu |= d.info().type == DeviceType::gpu;
    has_acc |= d.info().type == DeviceType::accelerator;
  }
  if (!has_acc) CHECK_THROWS_WITH(select_device("accelerator"), Catch::Contains("no device of type accelerator"));
  if (!has_gpu) CHECK_THROWS_WITH(Context("gpu"), Catch::Contains("no device of type gpu"));
}

TEST_CASE("selectors combine conditions, match vendors, and read VexCL's variables", "[runtime]") {
  EnvGuard guard("PORTACL_DEVICE"), ocl_device("OCL_DEVICE"), ocl_platform("OCL_PLATFORM"), ocl_type("OCL_TYPE");
  for (const char* v : {"PORTACL_DEVICE", "OCL_DEVICE", "OCL_PLATFORM", "OCL_TYPE"}) ::unsetenv(v);
  const Device cpu = select_device("cpu");
  const std::string part = cpu.info().name.substr(0, 6);
  // The README's example: PoCL is found by its vendor and platform names.
  if (contains_lower(cpu.info().platform_vendor + cpu.info().platform_name, "pocl") ||
      cpu.info().platform_name == "Portable Computing Language")
    CHECK(select_device("pocl").info().name == cpu.info().name);
  CHECK(select_device("cpu,name=" + part).info().name == cpu.info().name);
  CHECK(select_device(" type=cpu , vendor=" + cpu.info().vendor.substr(0, 3)).info().name == cpu.info().name);
  if (cpu.info().fp64) {
    CHECK(select_device("cpu,fp64").info().fp64);
    CHECK(select_device("cpu,ext=cl_khr_fp64").info().name == cpu.info().name);
  }
  CHECK_THROWS_WITH(select_device("cpu,ext=cl_no_such_extension"), Catch::Contains("no device meets every condition"));
  CHECK_THROWS_WITH(select_device("cpu,,fp64"), Catch::Contains("an empty condition"));
  CHECK_THROWS_WITH(select_device("colour=red"),
                    Catch::Contains("'colour' in 'colour=red' is not a condition (name=, platform=, vendor=, ext="));
  CHECK_THROWS_WITH(select_device("type=tpu"), Catch::Contains("type 'tpu' is not gpu, cpu or accelerator"));
  CHECK_THROWS_WITH(select_device("name="), Catch::Contains("has no value after '='"));
  // VexCL's variables when PORTACL_DEVICE is unset; PORTACL_DEVICE wins.
  ::setenv("OCL_TYPE", "CPU", 1);
  ::setenv("OCL_DEVICE", part.c_str(), 1);
  CHECK(select_device("").info().name == cpu.info().name);
  ::setenv("OCL_DEVICE", "no-such-device-xyz", 1);
  CHECK_THROWS_WITH(select_device(""),
                    Catch::Contains("OCL_DEVICE/OCL_PLATFORM/OCL_TYPE 'name=no-such-device-xyz,type=CPU'"));
  ::setenv("PORTACL_DEVICE", "cpu", 1);
  CHECK(select_device("").info().type == DeviceType::cpu);
  // A predicate of the program's own.
  CHECK(select_device([](const Device& d) { return d.info().type == DeviceType::cpu; }).info().type == DeviceType::cpu);
  CHECK_THROWS_WITH(select_device([](const Device&) { return false; }),
                    Catch::Contains("no OpenCL device is accepted by the program's predicate") &&
                        Catch::Contains("available devices"));
}

TEST_CASE("buffers move data with every memory strategy", "[runtime]") {
  Context& ctx = test::cpu_context();
  std::uniform_real_distribution<float> dist(-1e3f, 1e3f);
  for (auto strategy : {MemoryStrategy::map_host_memory, MemoryStrategy::pinned_staging, MemoryStrategy::direct_copy}) {
    INFO(to_string(strategy));
    for (std::size_t n : {std::size_t{1}, std::size_t{17}, std::size_t{4099}}) {
      std::vector<float> host(n);
      for (auto& v : host) v = dist(test::rng());
      Buffer<float> b(ctx, n, strategy);
      CHECK(b.strategy() == strategy);
      b.upload(host);
      CHECK(b.download() == host);
      {
        Mapped<float> m = b.map();
        REQUIRE(m.size() == n);
        CHECK(std::equal(m.begin(), m.end(), host.begin()));
        m[0] = 42.0f;
      }
      CHECK(b.download()[0] == 42.0f);
    }
  }
  CHECK(Buffer<float>(ctx, 8).strategy() == preferred_memory_strategy(ctx.info()));
  if (ctx.info().type == DeviceType::cpu)
    CHECK(preferred_memory_strategy(ctx.info()) == MemoryStrategy::map_host_memory);
}

TEST_CASE("buffer misuse is a clear error", "[runtime]") {
  Context& ctx = test::cpu_context();
  Buffer<float> b(ctx, 10);
  std::vector<float> wrong(12);
  CHECK_THROWS_WITH(b.upload(wrong), Catch::Contains("Buffer<float>::upload: 12 elements given for a buffer of 10"));
  CHECK_THROWS_WITH(b.download(wrong.data(), 12), Catch::Contains("download: 12 elements"));
  std::size_t too_big = static_cast<std::size_t>(ctx.info().max_mem_alloc_size / sizeof(double)) + 1;
  CHECK_THROWS_WITH(Buffer<double>(ctx, too_big), Catch::Contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
  Buffer<double> empty(ctx, 0);
  CHECK(empty.size() == 0);
  CHECK(empty.download().empty());
  CHECK_NOTHROW(empty.upload(std::vector<double>{}));
  CHECK(empty.map().size() == 0);
}

TEST_CASE("a zero-size launch is refused with a clear message", "[runtime]") {
  Context& ctx = test::cpu_context();
  PreparedKernel k = ctx.prepare(axpy_kernel, axpy_traits(ElementType::f32), ProblemSize(0));
  CHECK(k.plan.empty());
  CHECK_THROWS_WITH(ctx.launch(k), Catch::Contains("zero-size launch of 'axpy'"));
}

TEST_CASE("a plan beyond the device's limits is refused before launch", "[runtime]") {
  Context& ctx = test::cpu_context();
  LaunchPlan p = ctx.plan(axpy_traits(ElementType::f32), ProblemSize(1000));
  p.local[0] = static_cast<std::size_t>(ctx.info().max_work_group_size) * 2;
  p.global[0] = p.local[0];
  CHECK_THROWS_WITH(ctx.prepare(axpy_kernel, p), Catch::Contains("CL_KERNEL_WORK_GROUP_SIZE"));
}

TEST_CASE("OpenCL failures surface with the call and the error's name", "[runtime]") {
  Context& ctx = test::cpu_context();
  PreparedKernel k = ctx.prepare(axpy_kernel, axpy_traits(ElementType::f32), ProblemSize(100));
  // Argument 2 is a buffer: a scalar of the wrong size must be rejected by OpenCL.
  int not_a_buffer = 3;
  CHECK_THROWS_WITH(detail::set_arg(k.kernel, k.name, 2, sizeof not_a_buffer, &not_a_buffer),
                    Catch::Contains("clSetKernelArg(axpy, argument 2) failed: CL_INVALID_"));
}

TEST_CASE("scratch epochs restart on a zeroed buffer once they run out", "[runtime]") {
  Context& ctx = test::cpu_context();
  const std::string purpose = "test.epochs";
  const cl::Buffer& b = ctx.scratch(purpose, 16, true);
  CHECK(ctx.scratch_epoch(purpose, 3) == 1);
  CHECK(ctx.scratch_epoch(purpose, 3) == 2);
  // Stale tags from earlier launches must not survive a restart.
  const cl_uint stale = 0xFFFFFFFFu;
  REQUIRE(ctx.queue().enqueueWriteBuffer(b, CL_TRUE, 0, sizeof stale, &stale) == CL_SUCCESS);
  CHECK(ctx.scratch_epoch(purpose, 3) == 1);
  cl_uint got = 1;
  REQUIRE(ctx.queue().enqueueReadBuffer(b, CL_TRUE, 0, sizeof got, &got) == CL_SUCCESS);
  CHECK(got == 0);
  // A larger request makes a new zeroed buffer: its epochs start again.
  ctx.scratch(purpose, 1 << 20, true);
  CHECK(ctx.scratch_epoch(purpose, 3) == 1);
  CHECK_THROWS_WITH(ctx.scratch_epoch("test.no-such-scratch", 3),
                    Catch::Contains("no scratch buffer 'test.no-such-scratch'"));
}
