// SPDX-License-Identifier: Apache-2.0
#include "rules/ml_knn_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/device.hpp"

namespace portacl {

namespace {

// PoCL, 4096 queries x 4096 points, k 64 (portacl-tune): d = 3, the list
// 41 ms against 161 selecting; d = 64, the list 312 ms against 173.
constexpr std::size_t kMaxTile = 256, kListLimitOnCpus = 64, kListDimsOnCpus = 16;
constexpr std::size_t kBatchFloats = std::size_t{1} << 26;

std::size_t local_budget(const DeviceInfo& device) {
  return device.local_mem_size ? static_cast<std::size_t>(device.local_mem_size) : 32768;
}

}  // namespace

KnnShape choose_knn(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device, std::size_t queries,
                    std::size_t train, std::size_t d, std::size_t k, bool cosine) {
  KnnShape s;
  plan.macros["COSINE"] = cosine ? "1" : "0";
  // Keys are T's bits as ordered integers of T's width: exact ties.
  const std::size_t bytes = size_of(plan.traits.element);
  s.key_bytes = bytes;
  plan.macros["KEY_BITS"] = std::to_string(8 * bytes);
  const std::size_t budget = local_budget(device), wg = plan.local[0];
  const std::size_t fitting_tile = std::min(kMaxTile, budget / 2 / ((d + 1) * bytes));
  const bool gpu = gpu_class(plan.device_class);
  if (const auto tuned = space.chosen(plan, "METHOD")) {
    s.method = *tuned == 0 ? KnnMethod::list : KnnMethod::select;
  } else if (gpu || k > kListLimitOnCpus || d > kListDimsOnCpus) {
    s.method = KnnMethod::select;
    plan.decide(
        "method", "matrix product + radix select", "knn.method",
        gpu ? "a work-group per query: " + std::to_string(queries) +
                  " work-groups keep the GPU busy where a work-item per query would not; the dot products "
                  "by the tuned matrix product"
            : (k > kListLimitOnCpus ? "k = " + std::to_string(k) + " is past " + std::to_string(kListLimitOnCpus) +
                                          ": inserting into a sorted list of that length costs more than selecting"
                                    : "d = " + std::to_string(d) + " is past " + std::to_string(kListDimsOnCpus) +
                                          ": the dot products are better made by the matrix product"));
  } else {
    s.method = KnnMethod::list;
    plan.decide("method", "a sorted list a query", "knn.method",
                "a work-item per query keeps its " + std::to_string(k) +
                    " best in a sorted private list, each training point compared with the k-th first");
  }
  if (s.method == KnnMethod::list && fitting_tile == 0) {
    s.method = KnnMethod::select;
    plan.decide("method", "matrix product + radix select", "knn.list-tile",
                "a training point of " + std::to_string(d) + (bytes == 8 ? " doubles" : " floats") +
                    " does not fit half the local memory");
  }
  plan.macros["D"] = std::to_string(d);
  plan.macros["K"] = std::to_string(k);
  plan.macros["WG_SIZE"] = std::to_string(wg);
  if (s.method == KnnMethod::list) {
    s.tile = fitting_tile;
    plan.macros["METHOD_LIST"] = "1";
    plan.macros["TILE"] = std::to_string(s.tile);
    plan.work_groups = (queries + wg - 1) / wg;
    plan.global = {{std::max<std::size_t>(plan.work_groups, 1) * wg, 1, 1}};
    plan.decide("TILE", std::to_string(s.tile), "knn.list-tile",
                std::to_string(s.tile) + " training points staged at a time, read by every query of the work-group");
    return s;
  }
  plan.macros["METHOD_SELECT"] = "1";
  s.list = 1;
  while (s.list < k) s.list *= 2;
  const std::size_t list_bytes = s.list * (bytes + 4) + (256 + wg) * 4 + 2 * bytes + 8;
  s.list_local = list_bytes <= budget / 2;
  s.batch =
      std::clamp<std::size_t>(kBatchFloats / std::max<std::size_t>(train, 1), 1, std::max<std::size_t>(queries, 1));
  const std::size_t key_bytes = train * bytes;
  s.keys_local = plan.use_local_memory && (s.list_local ? list_bytes : 0) + key_bytes <= budget / 2;
  plan.macros["KEYS_LOCAL"] = s.keys_local ? "1" : "0";
  plan.decide("keys", s.keys_local ? "local memory" : "remade each pass", "knn.select-keys",
              s.keys_local ? "a query's " + std::to_string(train) + " keys (" + std::to_string(key_bytes) +
                                 " bytes) made once and read by the select's " + std::to_string(bytes + 1) +
                                 " passes from local memory"
                           : (plan.use_local_memory ? std::to_string(train) + " keys (" + std::to_string(key_bytes) +
                                                          " bytes) do not fit half the local memory"
                                                    : "no real local memory") +
                                 ": each pass makes them again from the dot products");
  plan.macros["LIST"] = std::to_string(s.list);
  plan.macros["LIST_LOCAL"] = s.list_local ? "1" : "0";
  plan.work_groups = s.batch;
  plan.global = {{s.batch * wg, 1, 1}};
  plan.decide("list",
              std::string(s.list_local ? "local" : "global") + " memory, " + std::to_string(s.list) + " entries",
              "knn.select-list",
              "the " + std::to_string(k) + " selected sorted bitonically in " + std::to_string(s.list) + " entries (" +
                  std::to_string(s.list * (bytes + 4)) + " bytes)" +
                  (s.list_local ? " within half the local memory" : ", past half the local memory") +
                  "; dot products " + std::to_string(s.batch) + " queries at a time (at most 2^26 of them)");
  return s;
}

}  // namespace portacl
