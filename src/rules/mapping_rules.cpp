// SPDX-License-Identifier: Apache-2.0
#include "portacl/plan.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <utility>

#include "portacl/device.hpp"
#include "portacl/error.hpp"
#include "rules/plan_provider.hpp"

namespace portacl {
namespace {

std::mutex provider_mutex;
PlanOverrideProvider& provider_slot() {
  static PlanOverrideProvider p;
  return p;
}
std::function<void()>& refresh_slot() {
  static std::function<void()> r;
  return r;
}
std::atomic<std::uint64_t> generation{1};

std::size_t ceil_div(std::size_t a, std::size_t b) { return b ? a / b + (a % b != 0) : 0; }

std::size_t round_down_to(std::size_t v, std::size_t m) { return m ? v / m * m : v; }

std::size_t floor_pow2(std::size_t v) {
  std::size_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

unsigned valid_vector_width(unsigned w) {
  // OpenCL C has vectors of 2, 3, 4, 8, 16; the kernels use the powers of two.
  if (w >= 16) return 16;
  if (w >= 8) return 8;
  if (w >= 4) return 4;
  if (w >= 2) return 2;
  return 1;
}

std::string str(std::size_t v) { return std::to_string(v); }

// Per-class choices for the work-group size, before limits.
struct GroupRule {
  std::size_t granule = 1;   // work-group size is a multiple of this
  std::size_t target = 64;   // preferred size
  std::size_t book_max = 0;  // class's own maximum (0: none beyond the device's)
  const char* granule_rule = "generic.wg-preferred-multiple";
  const char* target_rule = "generic.wg-start";
  std::string granule_why, target_why;
};

std::uint32_t cpu_lanes(const DeviceInfo& d, const Classification& c, ElementType e) {
  std::uint32_t w = std::max(d.native_vector_width.of(e), d.preferred_vector_width.of(e));
  if (w >= 2) return w;
  // Derive from the float SIMD width by element size.
  std::size_t bytes = c.simd_width_float * 4;
  return static_cast<std::uint32_t>(std::max<std::size_t>(1, bytes / size_of(e)));
}

GroupRule group_rule(const DeviceInfo& d, const Classification& c, const KernelTraits& t) {
  GroupRule g;
  // Each class: the granule (rule, why), then the start (rule, why, the class's maximum).
  auto granule = [&g](std::size_t size, const char* rule, std::string why) {
    g.granule = size;
    g.granule_rule = rule;
    g.granule_why = std::move(why);
  };
  auto start = [&g](std::size_t size, const char* rule, std::string why, std::size_t book_max = 0) {
    g.target = size;
    g.target_rule = rule;
    g.target_why = std::move(why);
    g.book_max = book_max;
  };
  const std::string width = str(c.execution_width);
  switch (c.device_class) {
    case DeviceClass::cpu: {
      std::size_t w = cpu_lanes(d, c, t.element);
      granule(w, "cpu.wg-simd-multiple",
              str(w) + " " + cl_type_name(t.element) + " lanes per SIMD instruction (" + c.architecture + ")");
      // 32-128, aligned to the SIMD width: 64 unless the lanes alone exceed it.
      start(std::max<std::size_t>(64, w), "cpu.wg-range", "64 is inside 32-128 and a multiple of " + str(w));
      break;
    }
    case DeviceClass::intel_mic:
      granule(16, "mic.wg-16-multiple", "16 floats per 512-bit VPU instruction");
      start(64, "mic.wg-range", "64 is inside the CPU range 32-128 and a multiple of 16");
      break;
    case DeviceClass::nvidia_gpu:
      granule(c.execution_width, "nvidia.wg-warp-multiple", "warp of " + width + " work-items");
      start(256, "nvidia.wg-start", "256 = top of the textbook's 128-256 start, a multiple of 64", 1024);
      break;
    case DeviceClass::amd_gcn_gpu:
      granule(c.execution_width, "amd.wg-wavefront-multiple", "wavefront of " + width + " work-items");
      start(256, "amd.wg-start", "256 = top of the textbook's 128-256 start", 256);
      break;
    case DeviceClass::amd_gpu_other:
      granule(c.execution_width, "amd-other.wavefront", "wavefront of " + width + " work-items");
      start(256, "generic.wg-start", "GPU start of 256", 256);
      break;
    case DeviceClass::intel_gpu:
    case DeviceClass::other_gpu:
      granule(std::max<std::size_t>(1, c.execution_width), "generic.wg-preferred-multiple",
              "execution width " + str(std::max<std::size_t>(1, c.execution_width)));
      start(256, "generic.wg-start", "GPU start of 256");
      break;
    case DeviceClass::other_accelerator:
      granule(std::max<std::size_t>(1, c.execution_width), "generic.wg-preferred-multiple",
              "execution width " + str(std::max<std::size_t>(1, c.execution_width)));
      start(64, "generic.wg-start", "non-GPU start of 64");
      break;
  }
  if (g.granule == 0) g.granule = 1;
  g.target = std::max(g.granule, round_down_to(g.target, g.granule));
  return g;
}

// Vector width from the class's rule.
unsigned vector_rule(const DeviceInfo& d, const Classification& c, const KernelTraits& t, std::string& rule_id,
                     std::string& why) {
  std::size_t sz = size_of(t.element);
  unsigned w = 1;
  switch (c.device_class) {
    case DeviceClass::cpu:
      w = cpu_lanes(d, c, t.element);
      rule_id = "cpu.vector-types";
      why = str(w) + " x " + cl_type_name(t.element) + " fills the " + c.architecture + " unit";
      break;
    case DeviceClass::intel_mic:
      w = static_cast<unsigned>(64 / sz);
      rule_id = "mic.vector-16";
      why = "64-byte VPU: " + cl_type_name(t.element) + str(valid_vector_width(w));
      break;
    case DeviceClass::nvidia_gpu:
    case DeviceClass::amd_gcn_gpu:
      rule_id = c.device_class == DeviceClass::nvidia_gpu ? "nvidia.vector-transactions" : "amd.vector-transactions";
      if (t.scalar_on_simt) {
        w = 1;
        why = "neighbouring work-items already read neighbouring elements: scalar lanes coalesce";
      } else if (t.memory_bound()) {
        w = static_cast<unsigned>(std::max<std::size_t>(1, 16 / sz));
        why = "memory-bound (" + std::to_string(static_cast<int>(t.bytes_per_item)) + " B per " +
              std::to_string(static_cast<int>(t.flops_per_item)) + " flops): 16-byte loads";
      } else {
        w = 1;
        why = "compute-bound: scalar work-items, the SIMT hardware vectorises across them";
      }
      break;
    case DeviceClass::amd_gpu_other:
      w = static_cast<unsigned>(std::max<std::size_t>(1, 16 / sz));
      rule_id = "amd-other.vliw-vectors";
      why = "16-byte vectors keep VLIW slots and memory transactions full";
      break;
    default: {
      unsigned pref = d.preferred_vector_width.of(t.element);
      w = pref ? pref : 1;
      if (c.device_class != DeviceClass::other_accelerator && t.memory_bound())
        w = std::max<unsigned>(w, static_cast<unsigned>(std::max<std::size_t>(1, 16 / sz)));
      rule_id = "generic.vector-preferred";
      why = "preferred " + cl_type_name(t.element) + " width " + str(pref) +
            (t.memory_bound() ? ", at least 16 bytes for a memory-bound kernel" : "");
      break;
    }
  }
  return w;
}

// Work-groups that fill the device; the rest is covered by grid stride.
std::size_t target_groups(const DeviceInfo& d, const Classification& c, std::size_t wg, std::string& rule_id,
                          std::string& why) {
  std::size_t cu = std::max<std::uint32_t>(1, d.compute_units);
  switch (c.device_class) {
    case DeviceClass::cpu:
      rule_id = "cpu.groups-per-cu";
      why = "10 x " + str(cu) + " compute units";
      return 10 * cu;
    case DeviceClass::intel_mic:
      rule_id = "mic.groups-per-core";
      why = str(cu) + " hardware threads = 4 per core, one work-group each";
      return std::max<std::size_t>(cu, 4);
    case DeviceClass::nvidia_gpu: {
      // Resident work-items per SM by generation: 2048, except Turing's 1024
      // and the 1536 of consumer Ampere/Ada.
      std::size_t resident = 2048;
      if (d.nvidia) {
        auto ma = d.nvidia->compute_capability_major, mi = d.nvidia->compute_capability_minor;
        if (ma == 7 && mi == 5) resident = 1024;
        if (ma == 8 && (mi == 6 || mi == 7 || mi == 9)) resident = 1536;
      }
      std::size_t per_cu = std::max<std::size_t>(1, resident / wg);
      rule_id = "nvidia.occupancy";
      why = str(cu) + " SMs x " + str(per_cu) + " resident work-groups (" + str(resident) + " work-items/SM) x 2 waves";
      return cu * per_cu * 2;
    }
    case DeviceClass::amd_gcn_gpu: {
      std::size_t per_cu = std::max<std::size_t>(1, 2560 / wg);
      rule_id = "amd.occupancy";
      why = str(cu) + " CUs x " + str(per_cu) + " resident work-groups (2560 work-items/CU) x 2 waves";
      return cu * per_cu * 2;
    }
    case DeviceClass::amd_gpu_other:
    case DeviceClass::intel_gpu:
    case DeviceClass::other_gpu:
      rule_id = "general.grid-stride";
      why = str(cu) + " compute units x 16 work-groups";
      return cu * 16;
    case DeviceClass::other_accelerator:
      rule_id = "general.grid-stride";
      why = str(cu) + " compute units x 4 work-groups";
      return cu * 4;
  }
  return cu;
}

// 2D/3D work-group shape: dimension 0 spans the coalescing (or SIMD) unit.
std::array<std::size_t, 3> shape_for(const Classification& c, const GroupRule& g, std::size_t wg, unsigned dims,
                                     std::string& rule_id, std::string& why) {
  std::array<std::size_t, 3> s{{wg, 1, 1}};
  if (dims == 1) return s;
  std::size_t x = 16;
  switch (c.device_class) {
    case DeviceClass::nvidia_gpu:
      x = c.execution_width;
      rule_id = "nvidia.coalescing-shape";
      why = "dimension 0 spans one warp (" + str(x) + ")";
      break;
    case DeviceClass::amd_gcn_gpu:
      x = 16;
      rule_id = "amd.coalescing-shape";
      why = "dimension 0 spans the 16-work-item coalescing unit (a quarter wavefront)";
      break;
    case DeviceClass::cpu:
    case DeviceClass::intel_mic:
      x = std::max<std::size_t>(16, g.granule);
      rule_id = c.device_class == DeviceClass::cpu ? "cpu.wg-simd-multiple" : "mic.wg-16-multiple";
      why = "dimension 0 (the vectorised one) is a multiple of the SIMD width";
      break;
    default:
      x = std::max<std::size_t>(16, g.granule);
      rule_id = "generic.wg-preferred-multiple";
      why = "dimension 0 spans the execution width";
      break;
  }
  x = std::min(x, wg);
  s[0] = x;
  s[1] = std::max<std::size_t>(1, wg / x);
  return s;
}

MemoryStrategy memory_rule(const DeviceInfo& d, const Classification& c, std::string& rule_id, std::string& why) {
  switch (c.device_class) {
    case DeviceClass::cpu:
      rule_id = "cpu.map-not-copy";
      why = "the CPU device works in host memory";
      return MemoryStrategy::map_host_memory;
    case DeviceClass::intel_mic:
      rule_id = "mic.pinned-copy";
      why = "the card's GDDR5 sits behind PCI-E";
      return MemoryStrategy::pinned_staging;
    default: break;
  }
  bool integrated = d.host_unified_memory || (d.nvidia && d.nvidia->integrated_memory);
  if (integrated) {
    rule_id = "generic.memory-by-unified";
    why = "device reports host-unified memory: zero copy";
    return MemoryStrategy::map_host_memory;
  }
  if (c.device_class == DeviceClass::nvidia_gpu)
    rule_id = "nvidia.pinned-transfers";
  else if (c.device_class == DeviceClass::amd_gcn_gpu)
    rule_id = "amd.pinned-transfers";
  else
    rule_id = "generic.memory-by-unified";
  why = "discrete device memory over PCI-E: DMA from pinned host memory";
  return MemoryStrategy::pinned_staging;
}

}  // namespace

DeviceLimits DeviceLimits::of(const DeviceInfo& d) {
  DeviceLimits l;
  l.max_work_group_size = static_cast<std::size_t>(d.max_work_group_size);
  for (unsigned i = 0; i < 3; ++i) l.max_item_sizes[i] = static_cast<std::size_t>(d.max_item_size(i));
  l.local_mem_size = static_cast<std::size_t>(d.local_mem_size);
  // int32 global atomics are core since OpenCL 1.1; the extension names older ones.
  l.global_atomics = d.has_extension("cl_khr_global_int32_base_atomics") ||
                     d.opencl_c_version.find("OpenCL C 1.0") == std::string::npos;
  l.sub_group_ops = sub_group_ops_of(d);
  l.nv_membar = (*l.sub_group_ops & warp_shuffle) != 0;  // NVIDIA's own compiler (inline PTX)
  l.source = d.name.empty() ? "device" : d.name;
  return l;
}

unsigned sub_group_ops_of(const DeviceInfo& d) {
  unsigned ops = 0;
  if (d.has_extension("cl_khr_subgroups")) ops |= sub_group_reduce;
  // Inline PTX (the shuffle variant) needs NVIDIA's own OpenCL compiler: a
  // device of NVIDIA's architecture behind another platform (PoCL's CUDA
  // backend) gets the portable combine. Rule nvidia.warp-shuffle.
  const bool nvidia_platform =
      d.platform_name.find("NVIDIA") != std::string::npos || d.platform_vendor.find("NVIDIA") != std::string::npos;
  if (classify(d).device_class == DeviceClass::nvidia_gpu && d.nvidia && nvidia_platform) ops |= warp_shuffle;
  return ops;
}

DeviceLimits DeviceLimits::intersect(const DeviceLimits& o) const {
  auto tighter = [](std::size_t a, std::size_t b) { return a == 0 ? b : (b == 0 ? a : std::min(a, b)); };
  DeviceLimits l;
  l.max_work_group_size = tighter(max_work_group_size, o.max_work_group_size);
  for (unsigned i = 0; i < 3; ++i) l.max_item_sizes[i] = tighter(max_item_sizes[i], o.max_item_sizes[i]);
  l.local_mem_size = tighter(local_mem_size, o.local_mem_size);
  l.global_atomics = !global_atomics     ? o.global_atomics
                     : !o.global_atomics ? global_atomics
                                         : std::optional<bool>(*global_atomics && *o.global_atomics);
  l.sub_group_ops = !sub_group_ops     ? o.sub_group_ops
                    : !o.sub_group_ops ? sub_group_ops
                                       : std::optional<unsigned>(*sub_group_ops & *o.sub_group_ops);
  l.nv_membar = o.nv_membar ? o.nv_membar : nv_membar;  // the device that runs the kernels (o, the live one)
  l.source = source + " and " + o.source;
  return l;
}

void require_precision(const DeviceInfo& d, const KernelTraits& t) {
  if (t.element == ElementType::f64 && !d.fp64)
    throw Error("kernel '" + t.name + "' needs double precision but device '" + d.name + "' has no cl_khr_fp64");
  if (t.element == ElementType::f16 && !d.fp16)
    throw Error("kernel '" + t.name + "' needs half precision but device '" + d.name + "' has no cl_khr_fp16");
}

void set_plan_override_provider(PlanOverrideProvider provider, std::function<void()> refresh) {
  std::lock_guard<std::mutex> lock(provider_mutex);
  provider_slot() = std::move(provider);
  refresh_slot() = std::move(refresh);
  ++generation;
}

void plan_inputs_changed() { ++generation; }

std::uint64_t plan_generation() {
  std::function<void()> refresh;
  {
    std::lock_guard<std::mutex> lock(provider_mutex);
    refresh = refresh_slot();
  }
  if (refresh) refresh();
  return generation.load();
}

std::optional<PlanOverride> provided_override(const DeviceInfo& d, const KernelTraits& t, const ProblemSize& size) {
  PlanOverrideProvider prov;
  {
    std::lock_guard<std::mutex> lock(provider_mutex);
    prov = provider_slot();
  }
  if (!prov) return std::nullopt;
  return prov(d, t, size);
}

bool has_plan_override_provider() {
  std::lock_guard<std::mutex> lock(provider_mutex);
  return static_cast<bool>(provider_slot());
}

namespace {

// A plan being made: the inputs every step reads, the plan they write, and
// the running work-group size and vector width. make_plan runs the steps
// in order; each is one concern and cites its rules.
struct PlanDraft {
  const DeviceInfo& d;
  const Classification& c;
  const KernelTraits& t;
  const DeviceLimits& limits;
  const std::optional<PlanOverride>& ov;
  LaunchPlan& p;
  GroupRule g{};
  std::size_t wg = 0;
  unsigned vw = 1;
  bool cpu_like() const { return c.device_class == DeviceClass::cpu || c.device_class == DeviceClass::intel_mic; }
};

// Step 1: the work-group size from the book, the class maximum, a tuned value.
void decide_work_group_size(PlanDraft& s) {
  s.g = group_rule(s.d, s.c, s.t);
  s.p.decide("work_group_granule", str(s.g.granule), s.g.granule_rule, s.g.granule_why);
  s.wg = s.g.target;
  s.p.decide("work_group_size", str(s.wg), s.g.target_rule, s.g.target_why);
  if (s.g.book_max && s.wg > s.g.book_max) {
    s.wg = s.g.book_max;
    s.p.decide("work_group_size", str(s.wg),
               s.c.device_class == DeviceClass::amd_gcn_gpu ? "amd.wg-max-256" : "amd-other.wavefront",
               "class maximum " + str(s.g.book_max));
  }
  if (s.ov && s.ov->work_group_size) {
    s.wg = *s.ov->work_group_size;
    s.p.decide("work_group_size", str(s.wg), "tuning.override", s.ov->provenance);
  }
}

// Step 2: the vector width, a valid OpenCL width.
void decide_vector_width(PlanDraft& s) {
  if (s.t.vectorizable) {
    std::string rid, why;
    const unsigned want = vector_rule(s.d, s.c, s.t, rid, why);
    s.vw = valid_vector_width(want);
    s.p.decide("vector_width", str(s.vw), rid, why);
    if (s.vw != want)
      s.p.decide("vector_width", str(s.vw), "limits.vector-width-divides",
                 str(want) + " is not an OpenCL vector width");
  } else {
    s.vw = 1;
    s.p.decide("vector_width", "1", "limits.vector-width-divides", "the kernel takes no vector types");
  }
  if (s.ov && s.ov->vector_width) {
    s.vw = *s.ov->vector_width;
    if (s.vw != valid_vector_width(s.vw) || s.vw == 0)
      throw Error("override for '" + s.t.name + "': vector width " + str(s.vw) + " is not 1, 2, 4, 8 or 16");
    // A scalar kernel (its state a struct, say) has no vector form to build.
    if (s.vw != 1 && !s.t.vectorizable)
      throw Error("override for '" + s.t.name + "' (" + s.ov->provenance + "): vector_width " + str(s.vw) +
                  " is not available: the kernel is scalar, so the knob vector_width takes 1 only");
    s.p.decide("vector_width", str(s.vw), "tuning.override", s.ov->provenance);
  }
}

// Step 3: live limits always win over the book and over tuned values.
void fit_work_group_to_limits(PlanDraft& s, const PlanOptions& opt) {
  auto apply_limit = [&](std::size_t limit, const char* rule_id, const std::string& what_limit) {
    if (limit == 0 || s.wg <= limit) return;
    std::size_t fitted = round_down_to(limit, s.g.granule);
    if (fitted == 0) fitted = floor_pow2(limit);
    s.p.decide("work_group_size", str(fitted), rule_id,
               str(s.wg) + " exceeds " + what_limit + " " + str(limit) +
                   (fitted % s.g.granule == 0 ? "" : "; granule " + str(s.g.granule) + " no longer fits"));
    s.wg = fitted;
  };
  apply_limit(s.limits.max_work_group_size, "limits.max-work-group-size",
              "CL_DEVICE_MAX_WORK_GROUP_SIZE of " + s.limits.source + " =");
  if (opt.kernel_work_group_limit)
    apply_limit(opt.kernel_work_group_limit, "limits.kernel-work-group-size", "the kernel's CL_KERNEL_WORK_GROUP_SIZE");
}

// Step 4: the local shape of that many work-items, within each dimension's limit.
void decide_local_shape(PlanDraft& s) {
  std::string srule, swhy;
  std::array<std::size_t, 3> local = shape_for(s.c, s.g, s.wg, s.t.dimensions, srule, swhy);
  if (s.ov && s.ov->local_shape) {
    local = *s.ov->local_shape;
    srule = "tuning.override";
    swhy = s.ov->provenance;
  }
  for (unsigned i = 0; i < 3; ++i) {
    if (i >= s.t.dimensions) local[i] = 1;
    if (local[i] == 0) throw Error("override for '" + s.t.name + "': a local dimension of 0");
    const std::size_t lim = s.limits.max_item_sizes[i];
    if (lim && local[i] > lim) {
      s.p.decide("local_shape", str(lim), "limits.max-work-group-size",
                 "dimension " + str(i) + " exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[" + str(i) + "] = " + str(lim));
      local[i] = floor_pow2(lim);
    }
  }
  while (s.limits.max_work_group_size && local[0] * local[1] * local[2] > s.limits.max_work_group_size) {
    // An overridden shape that is too large shrinks its largest dimension.
    auto it = std::max_element(local.begin(), local.end());
    *it = std::max<std::size_t>(1, *it / 2);
  }
  s.p.local = local;
  if (s.t.dimensions > 1) {
    std::string v = str(local[0]);
    for (unsigned i = 1; i < s.t.dimensions; ++i) v += "x" + str(local[i]);
    s.p.decide("local_shape", v, srule, swhy);
  }
  s.wg = s.p.work_group_size();
}

// Step 5: local memory where it is real and fits, barrier-free variants on
// CPU-like devices.
void decide_local_memory(PlanDraft& s) {
  const DeviceClass dc = s.c.device_class;
  if (s.t.benefits_from_local_tiling) {
    bool use = false;
    std::string rid, why;
    if (dc == DeviceClass::cpu) {
      rid = "cpu.no-local-memory";
      why = "local memory is ordinary cached memory on a CPU";
    } else if (dc == DeviceClass::intel_mic) {
      rid = "mic.no-local-memory";
      why = "no on-chip scratchpad on the MIC";
    } else if (s.d.local_mem_type != LocalMemType::local) {
      rid = dc == DeviceClass::amd_gcn_gpu ? "amd.local-memory-emulated" : "generic.local-memory-if-real";
      why = "CL_DEVICE_LOCAL_MEM_TYPE is " + to_string(s.d.local_mem_type);
    } else {
      std::size_t cap = s.limits.local_mem_size;
      if (dc == DeviceClass::amd_gcn_gpu) cap = std::min<std::size_t>(cap ? cap : 32768, 32768);
      if (dc == DeviceClass::nvidia_gpu) cap = std::min<std::size_t>(cap ? cap : 49152, 49152);
      const std::size_t need = s.t.local_bytes_per_work_item * s.wg;
      if (need > cap) {
        rid = "limits.local-mem-size";
        why = str(need) + " bytes of local memory exceed the " + str(cap) + " available";
      } else {
        use = true;
        rid = dc == DeviceClass::nvidia_gpu
                  ? "nvidia.local-memory-tiling"
                  : (dc == DeviceClass::amd_gcn_gpu ? "amd.local-memory-tiling" : "generic.local-memory-if-real");
        why = "real local memory, " + str(need) + " of " + str(cap) + " bytes per work-group";
      }
    }
    if (s.ov && s.ov->use_local_memory && *s.ov->use_local_memory != use) {
      const bool allowed =
          !*s.ov->use_local_memory ||
          (s.limits.local_mem_size == 0 || s.t.local_bytes_per_work_item * s.wg <= s.limits.local_mem_size);
      if (allowed) {
        use = *s.ov->use_local_memory;
        rid = "tuning.override";
        why = s.ov->provenance;
      }
    }
    s.p.use_local_memory = use;
    s.p.decide("use_local_memory", use ? "yes" : "no", rid, why);
  }
  if (s.t.needs_barriers && s.t.has_barrier_free_variant && s.cpu_like()) {
    s.p.barrier_free_variant = true;
    s.p.decide("barrier_free_variant", "yes", "cpu.avoid-barriers",
               "barriers cost a context switch per work-item here");
  }
}

// Step 5b: how partial results are combined (reductions, scans), and the
// order in which a 1-D work-item walks its elements.
void decide_combining(PlanDraft& s) {
  LaunchPlan& p = s.p;
  if (s.t.combines_partials) {
    const bool per_item = p.barrier_free_variant || !p.use_local_memory;
    const unsigned ops = s.limits.sub_group_ops.value_or(0);
    std::size_t sub_group_macro = 0;
    if (!per_item && (ops & warp_shuffle) && s.wg % 32 == 0) {
      sub_group_macro = 2;
      p.decide("sub_groups", "warp shuffle", "nvidia.warp-shuffle",
               "warps of 32 combine in registers; local memory holds " + str(s.wg / 32) + " value(s)");
    } else if (!per_item && (ops & sub_group_reduce)) {
      sub_group_macro = 1;
      p.decide("sub_groups", "sub_group_reduce", "general.sub-group-combine", "the device has cl_khr_subgroups");
    } else if (!per_item) {
      p.decide("sub_groups", "no", "general.sub-group-combine", "no sub-group operations on " + s.limits.source);
    }
    bool single = s.limits.global_atomics.value_or(true);
    p.decide("passes", single ? "1 (last work-group combines)" : "2",
             single ? "general.single-pass-combine" : "general.two-pass-combine",
             per_item ? "one partial result per work-item (no barriers)" : "one partial result per work-group");
    if (s.ov && s.ov->passes) {
      if (*s.ov->passes != 1 && *s.ov->passes != 2)
        throw Error("override for '" + s.t.name + "': passes must be 1 or 2, not " + str(*s.ov->passes));
      if (*s.ov->passes == 1 && !s.limits.global_atomics.value_or(true))
        throw Error("override for '" + s.t.name + "': a single pass needs global atomics, which " + s.limits.source +
                    " lacks");
      single = *s.ov->passes == 1;
      p.decide("passes", str(*s.ov->passes), "tuning.override", s.ov->provenance);
    }
    p.passes = single ? 1 : 2;
    p.macros["SUB_GROUPS"] = str(sub_group_macro);
  }
  // Wherever partials pass between work-groups (combine.cl's
  // publish_partial, the sparse kernels' and the Krylov sums'), the fence
  // that orders them is the running device's, whatever class's plan this
  // is: every plan carries it, so no family decides it again. A CPU plan's
  // scan on an H100 with only mem_fence read stale partials when other
  // processes shared the GPU.
  p.macros["NV_MEMBAR"] = s.limits.nv_membar.value_or(false) ? "1" : "0";
  if (s.t.dimensions == 1 && s.cpu_like()) {
    p.macros["CHUNKED"] = "1";
    p.decide("work_item_order", "contiguous chunks", "cpu.contiguous-chunks",
             "each work-item streams consecutive cache lines");
  }
}

// Step 6: how many work-groups, and how much each work-item does.
void decide_work_groups(PlanDraft& s, const ProblemSize& size) {
  LaunchPlan& p = s.p;
  const std::array<std::size_t, 3> units{{ceil_div(size.extent[0], s.vw), size.extent[1], size.extent[2]}};
  std::size_t needed = 1;
  for (unsigned i = 0; i < s.t.dimensions; ++i) needed *= ceil_div(units[i], p.local[i]);
  if (size.elements() == 0) needed = 0;
  std::size_t groups = needed;
  if (s.t.dimensions == 1) {
    std::string grule, gwhy;
    std::size_t target = target_groups(s.d, s.c, s.wg, grule, gwhy);
    if (s.ov && s.ov->work_groups) {
      target = *s.ov->work_groups;
      grule = "tuning.override";
      gwhy = s.ov->provenance;
    }
    if (needed <= target)
      gwhy = "problem covered by " + str(needed) + " work-group(s), at most " + str(target) + " wanted (" + gwhy + ")";
    else
      groups = target;
    p.global[0] = groups * p.local[0];
    const std::size_t threads = groups * s.wg;
    p.items_per_work_item = threads ? ceil_div(units[0], threads) : 0;
    p.decide("work_groups", str(groups), grule, gwhy);
    p.decide("items_per_work_item", str(p.items_per_work_item),
             s.c.device_class == DeviceClass::cpu ? "cpu.large-grain" : "general.grid-stride",
             str(units[0]) + " vector(s) of " + str(s.vw) + " over " + str(threads) + " work-items");
  } else {
    for (unsigned i = 0; i < s.t.dimensions; ++i)
      p.global[i] = size.elements() ? ceil_div(units[i], p.local[i]) * p.local[i] : 0;
    p.items_per_work_item = size.elements() ? 1 : 0;
    p.decide("work_groups", str(groups), "general.cover-problem", "one work-item per (vector) element");
  }
  p.work_groups = groups;
}

// Step 7: how host data reaches the device.
void decide_memory(PlanDraft& s) {
  std::string mrule, mwhy;
  s.p.memory = memory_rule(s.d, s.c, mrule, mwhy);
  s.p.decide("memory", to_string(s.p.memory), mrule, mwhy);
}

// Step 8: compile-time macros, only size-independent choices, so the binary
// cache holds one program per configuration, not per problem size.
void set_macros(PlanDraft& s) {
  LaunchPlan& p = s.p;
  p.vector_width = s.vw;
  p.macros["T"] = cl_type_name(s.t.element);
  p.macros["VW"] = str(s.vw);
  p.macros["WG_SIZE"] = str(s.wg);
  p.macros["WG_X"] = str(p.local[0]);
  p.macros["WG_Y"] = str(p.local[1]);
  p.macros["WG_Z"] = str(p.local[2]);
  p.macros["USE_LOCAL_MEMORY"] = p.use_local_memory ? "1" : "0";
  p.macros["BARRIER_FREE"] = p.barrier_free_variant ? "1" : "0";
  if (s.t.element == ElementType::f64) p.macros["PORTACL_FP64"] = "1";
  if (s.ov)
    for (const auto& kv : s.ov->macros) {
      // The planner's own macros are not a kernel's knobs: an override that
      // names one (a hand-edited tuning file) is refused, and the caller
      // plans by the rules instead.
      if (p.macros.count(kv.first))
        throw Error("override for '" + s.t.name + "': macro " + kv.first + " belongs to the planner");
      p.macros[kv.first] = kv.second;
    }
}

}  // namespace

LaunchPlan make_plan(const DeviceInfo& d, const KernelTraits& t, const ProblemSize& size, const PlanOptions& opt) {
  if (t.dimensions < 1 || t.dimensions > 3)
    throw Error("kernel '" + t.name + "' has " + std::to_string(t.dimensions) +
                " dimensions; OpenCL launches have 1, 2 or 3");
  require_precision(d, t);

  std::optional<PlanOverride> ov = opt.override_values;
  if (!ov && opt.consult_provider) {
    ov = provided_override(d, t, size);
    if (ov && !ov->refused.empty()) {
      PlanOptions without = opt;
      without.consult_provider = false;
      LaunchPlan p = make_plan(d, t, size, without);
      p.provenance = "rules (" + ov->provenance + " did not apply: " + ov->refused + ")";
      return p;
    }
    if (ov) {
      // A stored result that no longer applies (limits changed, a knob this
      // kernel lacks) must not break the launch: the rules plan it instead.
      PlanOptions with = opt;
      with.override_values = ov;
      try {
        return make_plan(d, t, size, with);
      } catch (const Error& e) {
        PlanOptions without = opt;
        without.consult_provider = false;
        LaunchPlan p = make_plan(d, t, size, without);
        p.provenance = "rules (" + ov->provenance + " did not apply: " + e.what() + ")";
        return p;
      }
    }
  }

  const Classification c = classify(d);
  DeviceLimits limits = DeviceLimits::of(d);
  if (opt.live_limits) limits = limits.intersect(*opt.live_limits);
  LaunchPlan p;
  p.traits = t;
  p.device_class = c.device_class;
  p.dimensions = t.dimensions;
  if (ov) p.provenance = ov->provenance;

  PlanDraft draft{d, c, t, limits, ov, p};
  decide_work_group_size(draft);
  decide_vector_width(draft);
  fit_work_group_to_limits(draft, opt);
  decide_local_shape(draft);
  decide_local_memory(draft);
  decide_combining(draft);
  decide_work_groups(draft, size);
  decide_memory(draft);
  set_macros(draft);
  return p;
}

}  // namespace portacl

namespace portacl {
MemoryStrategy preferred_memory_strategy(const DeviceInfo& d) {
  std::string rule_id, why;
  return memory_rule(d, classify(d), rule_id, why);
}
}  // namespace portacl
