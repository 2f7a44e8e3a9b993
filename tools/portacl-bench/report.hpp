// SPDX-License-Identifier: Apache-2.0
// portacl-bench's results and their three renderings: a table for people,
// JSON for machines, CSV for spreadsheets.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "../common/ceilings.hpp"
#include "case_runner.hpp"
#include "cpu_table.hpp"
#include "latency.hpp"

namespace bench {

struct Row {
  std::string kernel;
  std::size_t n = 0;
  Stats ours;       // device profiling clock (kernels only)
  Stats ours_wall;  // wall clock around the call and clFinish
  double gbs = 0, gflops = 0;
  double fraction_of_copy = 0;   // of the measured copy bandwidth
  std::string plan;              // the plan's short summary
  std::string check;             // "ok" or what was wrong
  std::string baseline;          // the other library's routine or ""
  std::string baseline_library;  // "CLBlast", "Boost.Compute"
  Stats theirs;                  // wall clock around the call and clFinish
  double baseline_gbs = 0;
  double speedup = 0;   // CLBlast wall median / ours wall median
  std::string suspect;  // "" or why the baseline's figure is not believable
  std::string baseline_check;
  std::string memory;  // "cache" where the bytes it moves fit twice in the caches (above copy is possible),
                       // "memory" otherwise, "" for an operation that counts no bytes
};

struct TransferRow {
  std::string path;
  std::size_t n = 0;
  Stats wall;
  double gbs = 0;  // host bytes in and out per second
  std::string check;
};

struct Report {
  std::string device, platform, driver, device_class, baselines;
  std::string started;      // local time
  std::string started_utc;  // ISO 8601
  unsigned long long seed = 0;
  int warmup = 0, reps = 0;
  Ceilings ceilings;
  double cache_bytes = 0;  // bench::cache_bytes: what "in cache" is judged by
  std::vector<Row> rows;
  std::vector<TransferRow> transfers;
  std::vector<LatencyRow> latency;
  // The families' sections, all run from the families' own cases.
  std::vector<CaseRow> gemm, sparse, stencils, ffts;
  std::string viennacl_missing;      // "" when ViennaCL ran beside the sparse cases
  std::string fft_baseline_missing;  // "" when the FFT cases' baseline (clFFT or FFTW) could run
  // The CPU libraries table (CPU devices): its rows, and what the libraries
  // are ("" when the table was not run).
  std::vector<CpuRow> cpu;
  std::string cpu_libraries;
};

void print_table(std::ostream& out, const Report& r);
void print_json(std::ostream& out, const Report& r);
void print_csv(std::ostream& out, const Report& r);

}  // namespace bench
