// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <map>

#include "test_support.hpp"

using namespace portacl;

namespace {

struct Expected {
  DeviceClass cls;
  const char* architecture;  // substring of Classification::architecture
  std::uint32_t execution_width;
};

// Every fixture must be listed: a new dump comes with its expected class.
const std::map<std::string, Expected>& expectations() {
  static const std::map<std::string, Expected> e = {
      {"amd_gfx902_vega.clinfo", {DeviceClass::amd_gcn_gpu, "gfx IP 9.2 (GCN 5", 64}},
      {"intel_cpu_i7-6700.clinfo", {DeviceClass::cpu, "AVX/AVX2 256-bit (8 floats)", 8}},
      {"intel_xeon_phi_knc.clinfo", {DeviceClass::intel_mic, "512-bit VPU", 16}},
      {"nvidia_gtx1080.clinfo", {DeviceClass::nvidia_gpu, "compute capability 6.1 (sm_61)", 32}},
      {"nvidia_h100.clinfo", {DeviceClass::nvidia_gpu, "compute capability 9.0 (sm_90)", 32}},
      {"pocl_epyc_avx2.clinfo", {DeviceClass::cpu, "AVX/AVX2 256-bit (8 floats)", 8}},
      {"pocl_epyc_avx2.raw.clinfo", {DeviceClass::cpu, "AVX/AVX2 256-bit (8 floats)", 8}},
      {"pocl_epyc_avx2.json.clinfo", {DeviceClass::cpu, "AVX/AVX2 256-bit (8 floats)", 8}},
  };
  return e;
}

}  // namespace

TEST_CASE("there are at least six fixtures, each naming its source", "[device]") {
  auto files = test::fixture_files();
  REQUIRE(files.size() >= 6);
  for (const auto& f : files) {
    INFO(f);
    std::string text = test::read_file(test::fixture_path(f));
    CHECK(text.rfind("#", 0) == 0);  // provenance header first
    CHECK_THAT(text, Catch::Contains("Source:"));
  }
}

TEST_CASE("clinfo --json reads like the text forms", "[device]") {
  // Values as that capture's JSON gives them (numbers, booleans, lists, flag
  // sets), read through the same field table as the text forms.
  const std::vector<DeviceInfo> devs = parse_clinfo_file(test::fixture_path("pocl_epyc_avx2.json.clinfo"));
  REQUIRE(devs.size() == 1);
  const DeviceInfo& d = devs[0];
  CHECK(d.name == "pthread-haswell-AMD EPYC");
  CHECK(d.platform_name == "Portable Computing Language");
  CHECK(d.platform_vendor == "The pocl project");
  CHECK(d.type == DeviceType::cpu);
  CHECK(d.compute_units == 2);
  CHECK(d.clock_mhz == 2445);
  CHECK(d.global_mem_size == 5506424832ull);
  CHECK(d.max_mem_alloc_size == 2147483648ull);
  CHECK(d.max_work_item_sizes == std::vector<std::size_t>{4096, 4096, 4096});
  CHECK(d.local_mem_type == LocalMemType::global);
  CHECK(d.preferred_vector_width.float_ == 8);
  CHECK(d.fp64);
  CHECK(d.host_unified_memory);
  CHECK(d.has_extension("cl_khr_fp64"));
  CHECK(d.missing_fields.empty());
  CHECK_THROWS_WITH(parse_clinfo("{\"platforms\": []}", "x.json"),
                    Catch::Contains("x.json is not clinfo --json output: it lacks the \"platforms\" and \"devices\""));
  CHECK_THROWS_WITH(parse_clinfo("# header\n{ not json", "y.json"),
                    Catch::Contains("y.json is not clinfo --json output"));
  CHECK_THROWS_WITH(parse_clinfo(R"({"platforms": [{}], "devices": []})", "z.json"),
                    Catch::Contains("lists 1 platforms but 0 device sections"));
}

TEST_CASE("every fixture parses and classifies as expected", "[device]") {
  for (const auto& f : test::fixture_files()) {
    INFO(f);
    auto it = expectations().find(f);
    REQUIRE(it != expectations().end());
    std::vector<DeviceInfo> devs = parse_clinfo_file(test::fixture_path(f));
    REQUIRE(devs.size() == 1);
    const DeviceInfo& d = devs[0];
    CHECK(!d.name.empty());
    CHECK(d.compute_units > 0);
    CHECK(d.max_work_group_size > 0);
    CHECK(d.max_work_item_sizes.size() == 3);
    Classification c = classify(d);
    CHECK(c.device_class == it->second.cls);
    CHECK_THAT(c.architecture, Catch::Contains(it->second.architecture));
    CHECK(c.execution_width == it->second.execution_width);
    CHECK(!c.reason.empty());
  }
}

TEST_CASE("clinfo fields land in the right places", "[device]") {
  DeviceInfo nv = test::load_fixture("nvidia_gtx1080.clinfo");
  CHECK(nv.platform_name == "NVIDIA CUDA");
  CHECK(nv.platform_version == "OpenCL 1.2 CUDA 10.2.95");
  CHECK(nv.vendor_id == 0x10de);
  CHECK(nv.type == DeviceType::gpu);
  CHECK(nv.compute_units == 20);
  CHECK(nv.clock_mhz == 1733);
  CHECK(nv.max_work_item_sizes == std::vector<std::uint64_t>{1024, 1024, 64});
  CHECK(nv.local_mem_type == LocalMemType::local);
  CHECK(nv.local_mem_size == 49152);
  CHECK(nv.global_mem_size == 8510701568ull);
  CHECK(nv.global_cache_line_size == 128);
  CHECK(nv.fp64);
  CHECK(!nv.fp16);
  REQUIRE(nv.nvidia);
  CHECK(nv.nvidia->compute_capability_major == 6);
  CHECK(nv.nvidia->compute_capability_minor == 1);
  CHECK(nv.nvidia->warp_size == 32);
  CHECK(nv.nvidia->registers_per_block == 65536);
  CHECK(nv.has_extension("cl_nv_device_attribute_query"));

  DeviceInfo amd = test::load_fixture("amd_gfx902_vega.clinfo");
  REQUIRE(amd.amd);
  CHECK(amd.amd->wavefront_width == 64);
  CHECK(amd.amd->simd_per_compute_unit == 4);
  CHECK(amd.amd->simd_width == 16);
  CHECK(amd.amd->gfxip_major == 9);
  CHECK(amd.amd->gfxip_minor == 2);
  CHECK(amd.amd->board_name == "Unknown AMD GPU");
  CHECK(amd.max_work_group_size == 256);
  CHECK(amd.fp16);

  DeviceInfo cpu = test::load_fixture("intel_cpu_i7-6700.clinfo");
  CHECK(cpu.preferred_vector_width.float_ == 1);  // Intel's runtime reports 1 preferred ...
  CHECK(cpu.native_vector_width.float_ == 8);     // ... and the real SIMD width as native
  CHECK(cpu.native_vector_width.char_ == 32);
  CHECK(cpu.local_mem_type == LocalMemType::global);
  CHECK(cpu.host_unified_memory);
}

TEST_CASE("clinfo and clinfo --raw of the same device agree", "[device]") {
  DeviceInfo human = test::load_fixture("pocl_epyc_avx2.clinfo");
  DeviceInfo raw = test::load_fixture("pocl_epyc_avx2.raw.clinfo");
  human.source = raw.source = "";
  CHECK(human.to_json().dump() == raw.to_json().dump());
  CHECK(human == raw);
}

TEST_CASE("device descriptions round-trip through JSON", "[device]") {
  for (const auto& f : test::fixture_files()) {
    INFO(f);
    DeviceInfo d = test::load_fixture(f);
    DeviceInfo back = DeviceInfo::from_json(Json::parse(d.to_json().dump()));
    CHECK(back == d);
    CHECK(classify(back).device_class == classify(d).device_class);
  }
  DeviceInfo live = test::cpu_context().info();
  CHECK(DeviceInfo::from_json(Json::parse(live.to_json().dump(0))) == live);
}

TEST_CASE("the live PoCL device reads like its clinfo dump", "[device]") {
  DeviceInfo live = select_device("cpu").info();
  DeviceInfo dump = test::load_fixture("pocl_epyc_avx2.clinfo");
  CHECK(classify(live).device_class == DeviceClass::cpu);
  CHECK(live.type == dump.type);
  CHECK(live.max_work_group_size > 0);
  CHECK(live.native_vector_width.float_ >= 4);
  CHECK(live.source == "live");
}

TEST_CASE("malformed descriptions are rejected with the field named", "[device]") {
  Json j = test::load_fixture("nvidia_gtx1080.clinfo").to_json();
  Json bad = j;
  bad["compute_units"] = "twenty";
  CHECK_THROWS_WITH(DeviceInfo::from_json(bad), Catch::Contains("device.compute_units"));
  bad = j;
  bad["type"] = "quantum";
  CHECK_THROWS_WITH(DeviceInfo::from_json(bad), Catch::Contains("unknown device type 'quantum'"));
  bad = j;
  bad["format"] = "portacl-device-99";
  CHECK_THROWS_WITH(DeviceInfo::from_json(bad), Catch::Contains("portacl-device-99"));
  CHECK_THROWS_WITH(DeviceInfo::from_json(Json::parse("{\"type\":\"gpu\"}")), Catch::Contains("no 'name'"));
  CHECK_THROWS_WITH(DeviceInfo::from_json(Json::parse("[1]")), Catch::Contains("must be a object"));
  CHECK_THROWS_WITH(parse_clinfo("Number of platforms 0\n", "empty"), Catch::Contains("no OpenCL device"));
  CHECK_THROWS_WITH(parse_clinfo_file("/nonexistent/x.clinfo"), Catch::Contains("cannot read"));
}

TEST_CASE("classification of descriptions without vendor attributes", "[device]") {
  DeviceInfo d;
  d.type = DeviceType::gpu;
  d.vendor = "Advanced Micro Devices, Inc.";
  d.name = "Tahiti";
  CHECK(classify(d).device_class == DeviceClass::amd_gcn_gpu);
  d.name = "Cypress";
  CHECK(classify(d).device_class == DeviceClass::amd_gpu_other);
  d.name = "gfx1032";
  CHECK(classify(d).device_class == DeviceClass::amd_gpu_other);
  CHECK_THAT(classify(d).architecture, Catch::Contains("RDNA"));
  d.name = "gfx90a";
  CHECK(classify(d).device_class == DeviceClass::amd_gcn_gpu);
  d.vendor = "Intel(R) Corporation";
  d.name = "Intel(R) UHD Graphics 630";
  CHECK(classify(d).device_class == DeviceClass::intel_gpu);
  d.vendor = "ARM";
  d.name = "Mali-G78";
  CHECK(classify(d).device_class == DeviceClass::other_gpu);
  d.type = DeviceType::accelerator;
  d.vendor = "Xilinx";
  d.name = "xilinx_u250";
  CHECK(classify(d).device_class == DeviceClass::other_accelerator);
  d.type = DeviceType::cpu;
  d.vendor = "ARM";
  d.name = "Cortex-A72";
  d.native_vector_width.float_ = 4;
  Classification c = classify(d);
  CHECK(c.device_class == DeviceClass::cpu);
  CHECK(c.simd_width_float == 4);
  d.native_vector_width.float_ = 16;
  CHECK_THAT(classify(d).architecture, Catch::Contains("AVX-512"));
  // "Micro" in a name must not read as MIC.
  d.type = DeviceType::accelerator;
  d.vendor = "Intel(R) Corporation";
  d.name = "Microcontroller accelerator";
  CHECK(classify(d).device_class == DeviceClass::other_accelerator);
}

TEST_CASE("the H100's clinfo dump reads exactly like the live device did", "[device]") {
  // nvidia_h100.live.json is what read_device_info() returned on the H100
  // (portacl-query --json through the device tool), captured with the dump.
  DeviceInfo live = DeviceInfo::from_json(Json::parse(test::read_file(test::fixture_path("nvidia_h100.live.json"))));
  DeviceInfo dump = test::load_fixture("nvidia_h100.clinfo");
  live.source = dump.source = "";
  CHECK(live == dump);
  CHECK(dump.nvidia->compute_capability_major == 9);
  CHECK(dump.compute_units == 132);
}
