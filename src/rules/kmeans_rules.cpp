// SPDX-License-Identifier: Apache-2.0
#include "rules/kmeans_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/device/device_class.hpp"

namespace portacl {

namespace {

constexpr std::size_t kChunkBytesPerPoint = 9;  // a label, a distance and a moved flag in local memory

std::size_t local_budget(const DeviceInfo& device) {
  return device.local_mem_size ? static_cast<std::size_t>(device.local_mem_size) : 32768;
}

}  // namespace

KmeansShape choose_kmeans(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device, std::size_t n,
                          std::size_t d, std::size_t k) {
  KmeansShape s;
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
  s.points = static_cast<std::size_t>(space.value_in(plan, "POINTS"));
  s.block = std::min<std::size_t>(static_cast<std::size_t>(space.value_in(plan, "BLOCK")), std::max<std::size_t>(k, 1));
  const std::size_t planned_points = s.points;
  while (s.points > 1 && wg * s.points * kChunkBytesPerPoint > budget / 2) s.points /= 2;
  s.chunk = wg * s.points;
  plan.decide("POINTS", std::to_string(s.points), "kmeans.chunk",
              std::to_string(s.chunk) + " points a work-group (" + std::to_string(s.points) +
                  " a work-item), their labels staged in local memory for the cluster sums" +
                  (s.points < planned_points ? "; fewer than " + std::to_string(planned_points) +
                                                   " so that they fit half of " + std::to_string(budget) + " bytes"
                                             : std::string()));
  const std::size_t centroid_bytes = k * d * 4, chunk_bytes = s.chunk * kChunkBytesPerPoint;
  s.centroids_local = plan.use_local_memory && centroid_bytes + chunk_bytes <= budget / 2;
  plan.decide("centroids", s.centroids_local ? "local memory" : "global memory", "kmeans.centroids-local",
              s.centroids_local
                  ? "the " + kd + " centroids (" + std::to_string(centroid_bytes) +
                        " bytes) are read by every point: staged once a work-group, they fit half of the " +
                        std::to_string(budget) + " bytes of local memory"
                  : (plan.use_local_memory ? kd + " centroids (" + std::to_string(centroid_bytes) +
                                                 " bytes) do not fit half of the local memory; read through the cache"
                                           : "no real local memory: the centroids stay in the cache"));
  if (const auto tuned = space.chosen(plan, "ATOMIC")) {
    s.atomic = *tuned != 0;
  } else {
    s.atomic = false;
    plan.decide("combine", "a row per work-group", "kmeans.combine",
                "each work-group writes its chunk's sums and counts; a second kernel adds the rows in order, so "
                "a run repeats bit for bit (OpenCL 1.2 has no float atomic add; a compare-and-swap loop would "
                "serialise the work-groups on k x d addresses)");
  }
  s.groups = std::max<std::size_t>((n + s.chunk - 1) / s.chunk, 1);
  s.rows = s.atomic ? 1 : s.groups;
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
  plan.macros["COLUMNS"] = s.columns ? "1" : "0";
  return s;
}

}  // namespace portacl
