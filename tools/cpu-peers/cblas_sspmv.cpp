// SPDX-License-Identifier: Apache-2.0
// OpenBLAS's packed symmetric product called directly through its CBLAS
// entry point, as a C or C++ user calls it: the matrix and vectors made
// once outside the timing, wall clock (steady_clock) around each call.
// The library is loaded by path (any OpenBLAS build: Debian's
// libopenblas.so.0, or the one SciPy's wheel ships, whose symbols carry a
// prefix), so the same build can be set against its Python wrapper.
//
//   g++ -O2 -std=c++17 tools/cpu-peers/cblas_sspmv.cpp -o cblas_sspmv -ldl
//   cblas_sspmv LIBRARY SYMBOL_PREFIX REPS STORED...
//
// STORED: stored elements of the packed triangle (2^22 or 4194304); the
// order is the largest n with n (n + 1) / 2 <= STORED, as portacl-bench's
// packed_symv takes it.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

// cblas_sspmv(order, uplo, n, alpha, ap, x, incx, beta, y, incy)
using Sspmv = void (*)(int, int, int, float, const float*, const float*, int, float, float*, int);
using Threads = int (*)();

std::size_t stored_of(const std::string& s) {
  const auto caret = s.find('^');
  if (caret == std::string::npos) return std::stoull(s);
  std::size_t v = 1;
  for (unsigned long e = std::stoul(s.substr(caret + 1)), b = std::stoul(s.substr(0, caret)); e; --e) v *= b;
  return v;
}

std::size_t order_of(std::size_t stored) {
  std::size_t n = 0;
  while ((n + 1) * (n + 2) / 2 <= stored) ++n;
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: cblas_sspmv LIBRARY SYMBOL_PREFIX REPS STORED...\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "cblas_sspmv: %s\n", dlerror());
    return 1;
  }
  const std::string prefix = argv[2] == std::string("-") ? "" : argv[2];
  auto sspmv = reinterpret_cast<Sspmv>(dlsym(lib, (prefix + "cblas_sspmv").c_str()));
  auto threads = reinterpret_cast<Threads>(dlsym(lib, (prefix + "openblas_get_num_threads").c_str()));
  if (!sspmv) {
    std::fprintf(stderr, "cblas_sspmv: no %scblas_sspmv in %s\n", prefix.c_str(), argv[1]);
    return 1;
  }
  const int reps = std::atoi(argv[3]);
  if (reps < 1) {
    std::fprintf(stderr, "cblas_sspmv: REPS must be at least 1\n");
    return 2;
  }
  std::printf(
      "cblas_sspmv: %s (%scblas_sspmv), %d threads; 3 warm-up + %d timed calls each, steady_clock around "
      "the call\n",
      argv[1], prefix.c_str(), threads ? threads() : -1, reps);
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int a = 4; a < argc; ++a) {
    const std::size_t n = order_of(stored_of(argv[a])), packed = n * (n + 1) / 2;
    std::vector<float> ap(packed), x(n), y(n);
    for (float& v : ap) v = u(rng);
    for (float& v : x) v = u(rng);
    // Row-major lower = the packed rows portacl takes (CblasRowMajor 101, CblasLower 122).
    auto call = [&] { sspmv(101, 122, int(n), 1.0f, ap.data(), x.data(), 1, 0.0f, y.data(), 1); };
    for (int w = 0; w < 3; ++w) call();
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      call();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double median = reps % 2 ? ms[reps / 2] : (ms[reps / 2 - 1] + ms[reps / 2]) / 2;
    std::printf("  sspmv n=%zu (%zu stored)   median %10.4f ms  min-max %.4f-%.4f ms  %7.1f GB/s\n", n, packed, median,
                ms.front(), ms.back(), 4.0 * (packed + 2 * n) / median / 1e6);
  }
  return 0;
}
