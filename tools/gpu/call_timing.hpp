// SPDX-License-Identifier: Apache-2.0
// The clock and size list of the comparison programs in tools/gpu: one call and its wait
// by wall clock, median of 10 after 2 warm-ups (what a user of either
// library sees), and "20,22,24" read as the sizes 2^20, 2^22, 2^24. Not
// part of the library.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

// One call's median, fastest and slowest of `runs` after 1 warm-up (the
// builds, the tables), in milliseconds; the call waits for its device.
struct WallTiming {
  double median, low, high;
};
template <class F>
WallTiming wall_timing(F&& call, int runs = 5) {
  std::vector<double> t;
  for (int r = 0; r <= runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    if (r > 0) t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front(), t.back()};
}

template <class F>
double median_ms(F&& call) {
  std::vector<double> t;
  for (int rep = 0; rep < 12; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (rep >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Two calls timed in turn (a, b, a, b, ...), so that a slow phase of a
// shared machine falls on both alike: each one's median of `reps` after 2
// warm-ups of each.
template <class A, class B>
std::pair<double, double> alternating_median_ms(A&& a, B&& b, int reps = 21) {
  std::vector<double> ta, tb;
  const auto time = [](auto&& call) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  for (int rep = 0; rep < reps + 2; ++rep) {
    const double x = time(a), y = time(b);
    if (rep >= 2) {
      ta.push_back(x);
      tb.push_back(y);
    }
  }
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  return {ta[ta.size() / 2], tb[tb.size() / 2]};
}

// Powers of two from a list of exponents; `fallback` when there is none.
inline std::vector<std::size_t> power_sizes(const char* list, std::vector<unsigned> fallback) {
  std::vector<unsigned> logs = std::move(fallback);
  if (list) {
    logs.clear();
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');) logs.push_back(static_cast<unsigned>(std::stoul(item)));
  }
  std::vector<std::size_t> sizes;
  for (unsigned l : logs) sizes.push_back(std::size_t{1} << l);
  return sizes;
}
