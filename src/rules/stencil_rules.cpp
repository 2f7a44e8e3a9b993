// SPDX-License-Identifier: Apache-2.0
#include "rules/stencil_rules.hpp"
#include "rules/coverage_rules.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace portacl {

std::size_t caller_tuned_or_rule(LaunchPlan& plan, const std::string& decision,
                                 const std::optional<std::size_t>& caller, const TuningSpace& tunables,
                                 const std::string& knob, const std::optional<RuleCount>& rule, std::size_t otherwise) {
  if (caller) {
    plan.decide(decision, std::to_string(*caller), "caller.choice", "asked for by the caller");
    return *caller;
  }
  if (const std::optional<long> tuned = tunables.chosen(plan, knob)) {
    const std::size_t value = static_cast<std::size_t>(std::max<long>(1, *tuned));
    plan.decide(decision, std::to_string(value), "tuning.override", plan.provenance);
    return value;
  }
  if (rule) {
    plan.decide(decision, std::to_string(rule->value), rule->rule, rule->why);
    return rule->value;
  }
  return otherwise;
}

void decide_caller_boundary(LaunchPlan& plan, const std::string& boundary, const std::string& why) {
  plan.decide("boundary", boundary, "caller.choice", why);
}

void decide_whole_rows(LaunchPlan& rows, const std::string& variant) {
  rows.decide("variant", variant, "cpu.large-grain",
              "a core streams its rows with unit-stride loops; " + std::to_string(rows.work_groups) +
                  " work-groups to schedule");
}

bool stencil_uses_tile(LaunchPlan& plan, const DeviceInfo& device, std::uint64_t grid_bytes,
                       std::optional<bool> forced) {
  if (forced) {
    plan.decide("variant", *forced ? "local-memory tile" : "cache-reliant", "caller.choice", "asked for by the caller");
    return *forced;
  }
  const std::uint64_t cache = device.global_cache_size;
  if (!plan.use_local_memory) {
    plan.decide("variant", "cache-reliant", "stencil.tile-beyond-cache",
                "the plan takes no local memory here (see use_local_memory)");
    return false;
  }
  if (plan.device_class == DeviceClass::nvidia_gpu) {
    plan.decide("variant", "cache-reliant", "stencil.tile-beyond-cache",
                "NVIDIA's caches serve the re-reads even beyond them (H100, heat 4096^2 x 1000 float: 72.8 against "
                "113.2 ms tiled)");
    return false;
  }
  if (cache && grid_bytes <= cache) {
    plan.decide(
        "variant", "cache-reliant", "stencil.tile-beyond-cache",
        std::to_string(grid_bytes >> 10) + " KiB of grids fit the " + std::to_string(cache >> 10) + " KiB cache");
    return false;
  }
  plan.decide("variant", "local-memory tile", "stencil.tile-beyond-cache",
              std::to_string(grid_bytes >> 20) + " MiB of grids exceed the cache");
  return true;
}

bool stencil_walks_rows(const LaunchPlan& plan, bool tiled) { return !tiled && plan.device_class == DeviceClass::cpu; }

bool mask_in_constant_memory(LaunchPlan& plan, const DeviceInfo& device, std::uint64_t mask_bytes,
                             std::optional<bool> forced, const std::string& space_macro) {
  bool constant = false;
  if (forced) {
    plan.decide("mask_memory", *forced ? "constant" : "global", "caller.choice", "asked for by the caller");
    constant = *forced;
  } else {
    const std::uint64_t limit = device.max_constant_buffer_size ? device.max_constant_buffer_size : 64 * 1024;
    constant = mask_bytes <= limit;
    plan.decide("mask_memory", constant ? "constant" : "global", "convolution.mask-in-constant",
                std::to_string(mask_bytes) + " bytes of weights " + (constant ? "fit" : "exceed") + " the " +
                    std::to_string(limit) + "-byte constant buffer");
  }
  plan.macros[space_macro] = constant ? "__constant" : "__global";
  return constant;
}

std::size_t convolution_outputs_per_work_item(LaunchPlan& plan, std::size_t element_bytes, std::optional<long> tuned) {
  if (tuned) {
    plan.decide("outputs_per_work_item", std::to_string(*tuned), "tuning.override", plan.provenance);
    return static_cast<std::size_t>(*tuned < 1 ? 1 : *tuned);
  }
  if (plan.device_class == DeviceClass::cpu) return 1;
  const std::size_t outputs = 16 / element_bytes;
  plan.decide("outputs_per_work_item", std::to_string(outputs), "convolution.outputs-per-work-item",
              "16 bytes of a row per work-item: each mask row's window is read once for all of them");
  return outputs;
}

std::size_t convolution_output_rows_per_work_item(LaunchPlan& plan, std::size_t mask_rows, std::optional<long> tuned) {
  if (tuned) {
    plan.decide("output_rows_per_work_item", std::to_string(*tuned), "tuning.override", plan.provenance);
    return static_cast<std::size_t>(*tuned < 1 ? 1 : *tuned);
  }
  if (plan.device_class == DeviceClass::cpu || mask_rows < 2 || mask_rows > 9) return 1;
  const std::size_t rows = 4;
  plan.decide("output_rows_per_work_item", std::to_string(rows), "convolution.outputs-per-work-item",
              "each input row read serves " + std::to_string(rows) + " output rows");
  return rows;
}

bool convolution_tile_fits(LaunchPlan& plan, const DeviceInfo& device, std::size_t tile_bytes) {
  if (!device.local_mem_size || tile_bytes <= device.local_mem_size) return true;
  plan.decide("variant", "cache-reliant", "stencil.tile-beyond-cache",
              "the tile and halo take " + std::to_string(tile_bytes) + " bytes; the device has " +
                  std::to_string(device.local_mem_size) + " of local memory");
  return false;
}

RuleCount ncc_outputs_per_work_item() {
  return RuleCount{4, "ncc.outputs-per-work-item",
                   "4 offsets share each window row's sums and a sliding register window"};
}

std::size_t ncc_outputs_within_row(LaunchPlan& plan, std::size_t outputs, std::size_t map_cols) {
  if (outputs <= map_cols) return outputs;
  plan.decide("outputs_per_work_item", "1", "ncc.outputs-per-work-item",
              "the map's rows have fewer offsets than a work-item's share");
  return 1;
}

bool ncc_uses_tile(LaunchPlan& plan, const DeviceInfo& device, std::size_t tile_bytes, std::optional<bool> forced) {
  if (forced) {
    plan.decide("variant", *forced ? "local-memory tile" : "cache-reliant", "caller.choice", "asked for by the caller");
    return *forced;
  }
  const bool tiled = plan.use_local_memory;
  if (tiled && device.local_mem_size && tile_bytes > device.local_mem_size) {
    plan.decide("variant", "cache-reliant", "ncc.image-tile",
                "the image block takes " + std::to_string(tile_bytes) + " bytes; the device has " +
                    std::to_string(device.local_mem_size) + " of local memory");
    return false;
  }
  plan.decide("variant", tiled ? "local-memory tile" : "cache-reliant", "ncc.image-tile",
              tiled ? "each pixel serves every offset of the block from local memory"
                    : "the plan takes no local memory here (see use_local_memory)");
  return tiled;
}

bool convolution_uses_two_passes(LaunchPlan& plan, std::size_t mask_rows, std::size_t mask_cols) {
  const bool gpu = plan.device_class != DeviceClass::cpu && plan.device_class != DeviceClass::intel_mic;
  const std::size_t least = gpu ? 121 : 49;
  const std::size_t weights = mask_rows * mask_cols;
  const bool two = weights >= least;
  plan.decide("passes", two ? "2 (separable)" : "1", "convolution.separable-passes",
              std::to_string(weights) + " multiply-adds per output against " + std::to_string(mask_rows + mask_cols) +
                  " in two passes that move the image twice: two passes from " + std::to_string(least) +
                  " weights on " + (gpu ? "GPUs" : "CPUs and MIC"));
  return two;
}

bool convolution_uses_fft(LaunchPlan& plan, std::size_t weights, std::size_t outputs, std::size_t grid_rows,
                          std::size_t grid_cols, std::optional<bool> forced) {
  if (forced) {
    plan.decide("algorithm", *forced ? "fft" : "direct", "caller.choice", "ConvolutionOptions::fft");
    return *forced;
  }
  // The transforms' work an output, in multiply-adds of the direct form:
  // `per_log` times log2 of the grid's size for each grid cell, measured
  // where the two forms cross (docs/stencils.md, "Convolution by FFT").
  const bool gpu = plan.device_class != DeviceClass::cpu && plan.device_class != DeviceClass::intel_mic;
  const double per_log = gpu ? kConvolutionFftGpu : kConvolutionFftCpu;
  const double cells = double(grid_rows) * double(grid_cols);
  const double fft = per_log * std::log2(std::max(cells, 2.0)) * cells / double(std::max<std::size_t>(outputs, 1));
  const bool by_fft = outputs > 0 && double(weights) > fft;
  std::ostringstream why;
  why << weights << " multiply-adds per output directly against about " << std::lround(fft)
      << " for the transforms over a " << grid_rows << " x " << grid_cols << " grid (" << per_log
      << " x log2 of its cells an output on " << (gpu ? "GPUs" : "CPUs and MIC") << ")";
  plan.decide("algorithm", by_fft ? "fft" : "direct", "convolution.fft", why.str());
  return by_fft;
}

void decide_convolution_fft_grid(LaunchPlan& plan, std::size_t grid_rows, std::size_t grid_cols, std::size_t ext_rows,
                                 std::size_t ext_cols) {
  plan.decide("fft_grid", std::to_string(grid_rows) + " x " + std::to_string(grid_cols), "convolution.fft",
              "the smallest 2^a 3^b 5^c lengths at least the " + std::to_string(ext_rows) + " x " +
                  std::to_string(ext_cols) + " extended image: the circular correlation never wraps into an output");
}

void whole_rows_launch(LaunchPlan& rows, const LaunchPlan& plan, const std::string& variant) {
  share_build(rows, plan);  // the 1D launch's own shape wins
  rows.decisions = plan.decisions;
  decide_whole_rows(rows, variant);
}

}  // namespace portacl
