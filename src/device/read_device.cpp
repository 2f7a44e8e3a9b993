// SPDX-License-Identifier: Apache-2.0
#include "portacl/device.hpp"

#include <CL/cl_ext.h>

#include <cstring>
#include <sstream>
#include <vector>

#include "portacl/error.hpp"

// Vendor queries by number, for headers that predate them.
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#define CL_DEVICE_INTEGRATED_MEMORY_NV 0x4006
#endif
#ifndef CL_DEVICE_BOARD_NAME_AMD
#define CL_DEVICE_BOARD_NAME_AMD 0x4038
#endif
#ifndef CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD
#define CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD 0x4040
#define CL_DEVICE_SIMD_WIDTH_AMD 0x4041
#define CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD 0x4042
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043
#endif
#ifndef CL_DEVICE_GFXIP_MAJOR_AMD
#define CL_DEVICE_GFXIP_MAJOR_AMD 0x404A
#define CL_DEVICE_GFXIP_MINOR_AMD 0x404B
#endif
#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif

#ifndef CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR 0x12A9
#define CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR 0x12AA
#endif
// OpenCL 3.0's extension versions, for a build that targets 1.2.
#ifndef CL_DEVICE_EXTENSIONS_WITH_VERSION
#define CL_DEVICE_EXTENSIONS_WITH_VERSION 0x1060
#endif

namespace portacl {
namespace {

// The version a 3.0 device gives an extension (0: not reported, or a 1.x/2.x
// device without the query).
std::uint32_t extension_version(const cl::Device& d, const std::string& extension) {
  struct NameVersion {  // cl_name_version
    cl_uint version;
    char name[64];
  };
  size_t bytes = 0;
  if (::clGetDeviceInfo(d(), CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &bytes) != CL_SUCCESS || !bytes) return 0;
  std::vector<NameVersion> all(bytes / sizeof(NameVersion));
  if (::clGetDeviceInfo(d(), CL_DEVICE_EXTENSIONS_WITH_VERSION, all.size() * sizeof(NameVersion), all.data(),
                        nullptr) != CL_SUCCESS)
    return 0;
  for (const NameVersion& e : all)
    if (std::string(e.name, strnlen(e.name, sizeof e.name)) == extension) return e.version;
  return 0;
}

std::string dev_string(const cl::Device& d, cl_device_info what, const char* name) {
  std::string v;
  check_cl(d.getInfo(what, &v), std::string("clGetDeviceInfo(") + name + ")");
  while (!v.empty() && (v.back() == '\0' || v.back() == ' ')) v.pop_back();
  return v;
}

template <class T>
T dev_value(const cl::Device& d, cl_device_info what, const char* name) {
  T v{};
  check_cl(d.getInfo(what, &v), std::string("clGetDeviceInfo(") + name + ")");
  return v;
}

// Vendor attributes are optional: a driver that advertises the extension but
// refuses one query leaves the field at 0 rather than failing the whole read.
template <class T>
T optional_value(const cl::Device& d, cl_device_info what) {
  T v{};
  if (::clGetDeviceInfo(d(), what, sizeof(T), &v, nullptr) != CL_SUCCESS) return T{};
  return v;
}

std::string platform_string(const cl::Platform& p, cl_platform_info what, const char* name) {
  std::string v;
  check_cl(p.getInfo(what, &v), std::string("clGetPlatformInfo(") + name + ")");
  while (!v.empty() && (v.back() == '\0' || v.back() == ' ')) v.pop_back();
  return v;
}

}  // namespace

DeviceInfo read_device_info(const cl::Platform& platform, const cl::Device& device) {
  DeviceInfo d;
  d.platform_name = platform_string(platform, CL_PLATFORM_NAME, "CL_PLATFORM_NAME");
  d.platform_vendor = platform_string(platform, CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR");
  d.platform_version = platform_string(platform, CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION");
  d.name = dev_string(device, CL_DEVICE_NAME, "CL_DEVICE_NAME");
  d.vendor = dev_string(device, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR");
  d.version = dev_string(device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION");
  d.driver_version = dev_string(device, CL_DRIVER_VERSION, "CL_DRIVER_VERSION");
  d.opencl_c_version = dev_string(device, CL_DEVICE_OPENCL_C_VERSION, "CL_DEVICE_OPENCL_C_VERSION");
  d.vendor_id = dev_value<cl_uint>(device, CL_DEVICE_VENDOR_ID, "CL_DEVICE_VENDOR_ID");
  auto type = dev_value<cl_device_type>(device, CL_DEVICE_TYPE, "CL_DEVICE_TYPE");
  if (type & CL_DEVICE_TYPE_CPU)
    d.type = DeviceType::cpu;
  else if (type & CL_DEVICE_TYPE_GPU)
    d.type = DeviceType::gpu;
  else if (type & CL_DEVICE_TYPE_ACCELERATOR)
    d.type = DeviceType::accelerator;
  else if (type & CL_DEVICE_TYPE_CUSTOM)
    d.type = DeviceType::custom;
  d.compute_units = dev_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS");
  d.clock_mhz = dev_value<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY, "CL_DEVICE_MAX_CLOCK_FREQUENCY");
  d.max_work_group_size = dev_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE");
  // CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE is an OpenCL 3.0 query;
  // older devices answer only per kernel, so 0 (unknown) is fine here.
  d.preferred_work_group_multiple = static_cast<std::uint32_t>(optional_value<size_t>(device, 0x1067));
  std::vector<size_t> items;
  check_cl(device.getInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES, &items), "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)");
  for (auto s : items) d.max_work_item_sizes.push_back(s);
  auto lmt = dev_value<cl_device_local_mem_type>(device, CL_DEVICE_LOCAL_MEM_TYPE, "CL_DEVICE_LOCAL_MEM_TYPE");
  d.local_mem_type =
      lmt == CL_LOCAL ? LocalMemType::local : (lmt == CL_GLOBAL ? LocalMemType::global : LocalMemType::none);
  d.local_mem_size = dev_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
  d.global_mem_size = dev_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE");
  d.max_mem_alloc_size = dev_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  d.global_cache_size = dev_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
  d.global_cache_line_size =
      dev_value<cl_uint>(device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE");
  d.max_constant_buffer_size =
      dev_value<cl_ulong>(device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE");
  d.host_unified_memory = dev_value<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY, "CL_DEVICE_HOST_UNIFIED_MEMORY");

  struct WidthQuery {
    std::uint32_t VectorWidths::*slot;
    cl_device_info preferred, native;
    const char* name;
  };
  static const WidthQuery widths[] = {
      {&VectorWidths::char_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, "CHAR"},
      {&VectorWidths::short_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, "SHORT"},
      {&VectorWidths::int_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, "INT"},
      {&VectorWidths::long_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, "LONG"},
      {&VectorWidths::half, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, "HALF"},
      {&VectorWidths::float_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, "FLOAT"},
      {&VectorWidths::double_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, "DOUBLE"},
  };
  for (const auto& w : widths) {
    d.preferred_vector_width.*w.slot =
        dev_value<cl_uint>(device, w.preferred, (std::string("CL_DEVICE_PREFERRED_VECTOR_WIDTH_") + w.name).c_str());
    d.native_vector_width.*w.slot =
        dev_value<cl_uint>(device, w.native, (std::string("CL_DEVICE_NATIVE_VECTOR_WIDTH_") + w.name).c_str());
  }

  std::istringstream ext(dev_string(device, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS"));
  std::string e;
  while (ext >> e) d.extensions.push_back(e);
  // fp64: the extension, or a non-zero double config (optional core in 1.2).
  d.fp64 =
      d.has_extension("cl_khr_fp64") || optional_value<cl_device_fp_config>(device, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  d.fp16 = d.has_extension("cl_khr_fp16");

  if (d.has_extension("cl_nv_device_attribute_query")) {
    NvidiaAttributes a;
    a.compute_capability_major = optional_value<cl_uint>(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV);
    a.compute_capability_minor = optional_value<cl_uint>(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV);
    a.warp_size = optional_value<cl_uint>(device, CL_DEVICE_WARP_SIZE_NV);
    a.registers_per_block = optional_value<cl_uint>(device, CL_DEVICE_REGISTERS_PER_BLOCK_NV);
    a.integrated_memory = optional_value<cl_bool>(device, CL_DEVICE_INTEGRATED_MEMORY_NV) != 0;
    d.nvidia = a;
  }
  if (d.has_extension("cl_amd_device_attribute_query")) {
    AmdAttributes a;
    char board[256] = {0};
    if (::clGetDeviceInfo(device(), CL_DEVICE_BOARD_NAME_AMD, sizeof board - 1, board, nullptr) == CL_SUCCESS)
      a.board_name = board;
    a.wavefront_width = optional_value<cl_uint>(device, CL_DEVICE_WAVEFRONT_WIDTH_AMD);
    a.simd_per_compute_unit = optional_value<cl_uint>(device, CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD);
    a.simd_width = optional_value<cl_uint>(device, CL_DEVICE_SIMD_WIDTH_AMD);
    a.simd_instruction_width = optional_value<cl_uint>(device, CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD);
    a.gfxip_major = optional_value<cl_uint>(device, CL_DEVICE_GFXIP_MAJOR_AMD);
    a.gfxip_minor = optional_value<cl_uint>(device, CL_DEVICE_GFXIP_MINOR_AMD);
    d.amd = a;
  }
  if (d.has_extension("cl_intel_required_subgroup_size")) {
    size_t bytes = 0;
    if (::clGetDeviceInfo(device(), CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &bytes) == CL_SUCCESS && bytes) {
      std::vector<size_t> sizes(bytes / sizeof(size_t));
      if (::clGetDeviceInfo(device(), CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes, sizes.data(), nullptr) == CL_SUCCESS)
        for (auto s : sizes) d.intel_sub_group_sizes.push_back(static_cast<std::uint32_t>(s));
    }
  }
  if (d.has_extension("cl_khr_command_buffer")) {
    CommandBufferSupport c;
    c.version = extension_version(device, "cl_khr_command_buffer");
    c.capabilities = optional_value<cl_bitfield>(device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
    c.required_queue_properties =
        optional_value<cl_bitfield>(device, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR);
    d.command_buffer = c;
  }
  d.source = "live";
  return d;
}

}  // namespace portacl
