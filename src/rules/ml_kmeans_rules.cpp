// SPDX-License-Identifier: Apache-2.0
#include "rules/ml_kmeans_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/device.hpp"

namespace portacl {

namespace {

constexpr std::size_t kChunkBytesPerPoint = 4;  // a label a point

std::size_t local_budget(const DeviceInfo& device) {
  return device.local_mem_size ? static_cast<std::size_t>(device.local_mem_size) : 32768;
}

}  // namespace

KmeansShape choose_kmeans(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device, std::size_t n,
                          std::size_t d, std::size_t k) {
  KmeansShape s;
  const std::size_t bytes = size_of(plan.traits.element);
  const std::size_t bytes_per_item = bytes + 4;  // a distance and a count a work-item
  const std::string kd = std::to_string(k) + " x " + std::to_string(d);
  if (const auto tuned = space.chosen(plan, "COLUMNS")) {
    s.columns = *tuned != 0;
  } else {
    s.columns = gpu_class(plan.device_class) && d > 4;
    plan.decide("layout", s.columns ? "a column per point" : "a row per point", "kmeans.layout",
                s.columns ? "neighbouring work-items read neighbouring addresses for each coordinate (coalesced); the "
                            "points are read every iteration, so one copy into this layout pays"
                          : (gpu_class(plan.device_class)
                                 ? "d = " + std::to_string(d) + " <= 4: a point's coordinates fill one load anyway"
                                 : "a work-item walks its point's coordinates through the cache line by line"));
  }
  const std::size_t wg = plan.local[0], budget = local_budget(device);
  // H100, 300000 points of 35, k 10 (portacl-tune, work-groups of 256):
  // 4 points a work-item and 16 centroids a vector 0.139 ms an iteration,
  // 1 point and 8 centroids 0.208; compare-and-swap atomics 0.44.
  const auto tuned_points = space.chosen(plan, "POINTS");
  s.points = tuned_points ? static_cast<std::size_t>(*tuned_points) : (gpu_class(plan.device_class) ? 4 : 1);
  if (const auto tuned = space.chosen(plan, "BLOCK")) {
    s.block = static_cast<std::size_t>(*tuned);
  } else if (gpu_class(plan.device_class)) {
    s.block = 16;
    plan.decide("BLOCK", "16", "kmeans.block",
                "16 centroids a vector: 16 running distances in registers, each coordinate of the point read once "
                "for 16 centroids");
  } else {
    // PoCL, AVX-512, 300000 points of 35, k 10 (portacl-tune): 16 centroids
    // a vector 9.5-10.6 ms an iteration, 8: 16.4.
    const std::size_t lanes = classify(device).execution_width * 4 / bytes;  // the width in floats, in elements
    s.block = lanes >= 16 ? 16 : (lanes >= 8 ? 8 : 4);
    plan.decide("BLOCK", std::to_string(s.block), "kmeans.block",
                std::to_string(s.block) + " centroids a vector, the SIMD width in " +
                    (bytes == 8 ? "doubles" : "floats") +
                    ": one vector subtraction and FMA a coordinate for all of them");
  }
  // No wider than the power of two that holds k.
  while (s.block > 1 && s.block / 2 >= k) s.block /= 2;
  const std::size_t planned_points = s.points;
  while (s.points > 1 && wg * (s.points * kChunkBytesPerPoint + bytes_per_item) > budget / 2) s.points /= 2;
  s.chunk = wg * s.points;
  plan.decide(
      "POINTS", std::to_string(s.points), "kmeans.chunk",
      std::to_string(s.chunk) + " points a work-group (" + std::to_string(s.points) + " a work-item" +
          (tuned_points ? std::string(", tuned")
                        : std::string(gpu_class(plan.device_class) ? ": more work a work-item hides the GPU's latencies"
                                                                   : ": the CPU's cores each take whole work-groups")) +
          "), their labels staged in local memory for the cluster sums" +
          (s.points < planned_points ? "; fewer than " + std::to_string(planned_points) + " so that they fit half of " +
                                           std::to_string(budget) + " bytes"
                                     : std::string()));
  s.padded_k = (k + s.block - 1) / s.block * s.block;
  const std::size_t centroid_bytes = s.padded_k * d * bytes,
                    chunk_bytes = s.chunk * kChunkBytesPerPoint + wg * bytes_per_item;
  s.centroids_local = plan.use_local_memory && centroid_bytes + chunk_bytes <= budget / 2;
  plan.decide("centroids", s.centroids_local ? "local memory" : "global memory", "kmeans.centroids-local",
              s.centroids_local
                  ? "the " + kd + " centroids (" + std::to_string(centroid_bytes) +
                        " bytes, transposed) are read by every point: staged once a work-group, they fit half of the " +
                        std::to_string(budget) + " bytes of local memory"
                  : (plan.use_local_memory ? kd + " centroids (" + std::to_string(centroid_bytes) +
                                                 " bytes) do not fit half of the local memory; read through the cache"
                                           : "no real local memory: the centroids stay in the cache"));
  const std::size_t columns = d + 1, row_bytes = k * columns * bytes;
  const std::size_t used = chunk_bytes + (s.centroids_local ? centroid_bytes : 0);
  if (plan.use_local_memory && used + row_bytes <= budget / 2) {
    s.sums_local = true;
    s.slices = std::max<std::size_t>(1, wg / columns);
    while (s.slices > 1 && used + s.slices * row_bytes > budget / 2) --s.slices;
    plan.decide("sums", std::to_string(s.slices) + " slices in local memory", "kmeans.sums",
                std::to_string(s.slices) + " groups of " + std::to_string(columns) +
                    " work-items (a coordinate each, and the count) add their slices of the chunk into local "
                    "memory, then the slices are added up: no atomics, each address written by one work-item");
  } else {
    plan.decide("sums", "the work-group's row", "kmeans.sums",
                std::to_string(columns) + " work-items (a coordinate each, and the count) add the chunk's points " +
                    "straight into the work-group's row of sums" +
                    (plan.use_local_memory ? std::string(": a row of ") + std::to_string(row_bytes) +
                                                 " bytes does not fit beside the rest"
                                           : std::string(": no real local memory")));
  }
  const auto tuned_atomic = space.chosen(plan, "ATOMIC");
  if (tuned_atomic && bytes == 4) {
    s.atomic = *tuned_atomic != 0 && s.sums_local && n < (std::size_t{1} << 24);
  } else if (tuned_atomic) {
    s.atomic = false;
    plan.decide("combine", "a row per work-group", "kmeans.combine",
                std::string("atomics asked for, but the sums are doubles: the atomic add is built for floats only "
                            "(a double one needs 64-bit compare-and-swap, an extension); each work-group writes "
                            "its row and a second kernel adds them in order"));
  } else {
    s.atomic = false;
    plan.decide("combine", "a row per work-group", "kmeans.combine",
                "each work-group writes its chunk's sums and counts; a second kernel adds the rows in order, so "
                "a run repeats bit for bit (OpenCL 1.2 has no float atomic add; a compare-and-swap loop would "
                "serialise the work-groups on k x d addresses: 3x slower on an H100)");
  }
  s.groups = std::max<std::size_t>((n + s.chunk - 1) / s.chunk, 1);
  plan.work_groups = s.groups;
  plan.global = {{s.groups * wg, 1, 1}};
  plan.items_per_work_item = s.points;
  plan.macros["WG_SIZE"] = std::to_string(wg);
  plan.macros["K"] = std::to_string(k);
  plan.macros["D"] = std::to_string(d);
  plan.macros["POINTS"] = std::to_string(s.points);
  plan.macros["BLOCK"] = std::to_string(s.block);
  plan.macros["CENTROIDS_LOCAL"] = s.centroids_local ? "1" : "0";
  plan.macros["ATOMIC"] = s.atomic ? "1" : "0";
  plan.macros["ACC_LOCAL"] = s.sums_local ? "1" : "0";
  plan.macros["SLICES"] = std::to_string(s.slices);
  plan.macros["COLUMNS"] = s.columns ? "1" : "0";
  return s;
}

}  // namespace portacl
