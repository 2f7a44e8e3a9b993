// SPDX-License-Identifier: Apache-2.0
// The FFT floor: cuFFT's C2C and R2C transforms (single precision, forward,
// out of place, packed batches) called as a CUDA C++ user calls them: the
// plan made once by cufftPlanMany outside the timing, then cudaEvents
// around each cufftExec call and the host's steady clock around it and a
// synchronize (cuda_timing.hpp: median of 20 after 3 warm-ups).
// The cases take portacl-bench --ffts' forms (c2c:N:BATCH, r2c:N:BATCH,
// c2c2d:N0:N1, c2c3d:N0:N1:N2, r2c2d:N0:N1), and its GB/s are the same count: one read
// and one write of every value. The relative RMS error of the first
// transform against the double reference is printed (the error table of
// docs/fft.md; portacl-bench prints portacl's by the same function).
// build: nvcc -O2 -I src/tuning -o cufft_direct cufft_direct.cu -lcufft   usage: cufft_direct [--seed S] SPEC...
#include <cuda_runtime.h>
#include <cufft.h>

#include "cuda_timing.hpp"
#include "fft_reference.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct Spec {
  std::string text, kind;
  std::vector<int> n;
  int batch = 1;
};

Spec parse(const char* text) {
  Spec s;
  s.text = text;
  std::vector<long> v;
  std::string t = text;
  const std::size_t colon = t.find(':');
  s.kind = t.substr(0, colon);
  for (std::size_t at = colon; at != std::string::npos;) {
    const std::size_t next = t.find(':', at + 1);
    v.push_back(std::atol(t.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1).c_str()));
    at = next;
  }
  if (s.kind == "c2c" || s.kind == "r2c") {
    s.n = {int(v[0])};
    s.batch = int(v[1]);
  } else {
    for (long x : v) s.n.push_back(int(x));
  }
  return s;
}

// --seed S: the inputs portacl-bench --seed S gives the same case
// (src/tuning/fft_cases.hpp: mt19937_64(S), uniform floats in [-1, 1)),
// so that the two errors are of the very same input; else a draw of its own.
unsigned long long bench_seed = 0;
bool same_input = false;

int run(const Spec& s) {
  long per = 1;
  for (int x : s.n) per *= x;
  const bool r2c = s.kind.compare(0, 3, "r2c") == 0;
  const long per_out = r2c ? per / s.n.back() * (s.n.back() / 2 + 1) : per;
  const std::size_t in_floats = std::size_t(per) * s.batch * (r2c ? 1 : 2);
  const std::size_t out_floats = std::size_t(per_out) * s.batch * 2;
  std::vector<float> host(in_floats);
  std::uniform_real_distribution<float> d(-1, 1);
  std::mt19937_64 gen(same_input ? bench_seed : static_cast<unsigned long long>(per));
  for (float& v : host) v = d(gen);
  float *in, *out;
  if (cudaMalloc(&in, in_floats * 4) || cudaMalloc(&out, out_floats * 4)) return std::printf("cudaMalloc failed\n"), 1;
  cudaMemcpy(in, host.data(), in_floats * 4, cudaMemcpyHostToDevice);
  cufftHandle plan;
  std::vector<int> n = s.n;
  if (cufftPlanMany(&plan, int(n.size()), n.data(), nullptr, 1, int(per), nullptr, 1, int(per_out),
                    r2c ? CUFFT_R2C : CUFFT_C2C, s.batch) != CUFFT_SUCCESS)
    return std::printf("%s: cufftPlanMany failed\n", s.text.c_str()), 1;
  auto exec = [&] {
    return r2c ? cufftExecR2C(plan, in, reinterpret_cast<cufftComplex*>(out))
               : cufftExecC2C(plan, reinterpret_cast<cufftComplex*>(in), reinterpret_cast<cufftComplex*>(out),
                              CUFFT_FORWARD);
  };
  bool failed = false;
  const Times t = time_calls([&] { failed = failed || exec() != CUFFT_SUCCESS; });
  if (failed) return std::printf("%s: cufftExec failed\n", s.text.c_str()), 1;
  std::vector<float> got(out_floats);
  cudaMemcpy(got.data(), out, out_floats * 4, cudaMemcpyDeviceToHost);
  // The first transform's relative RMS error: every output against the
  // transform of its input in double (the host reference portacl's bench
  // and tests use, src/tuning/fft_reference.hpp).
  std::vector<std::complex<double>> x(per);
  for (long j = 0; j < per; ++j)
    x[j] = r2c ? std::complex<double>(host[j], 0) : std::complex<double>(host[2 * j], host[2 * j + 1]);
  const double error = portacl::reference::forward_error(std::move(x), std::vector<std::size_t>(s.n.begin(), s.n.end()),
                                                         r2c, got.data());
  const double bytes = 4.0 * double(in_floats + out_floats);
  std::printf("%-22s device %.4f ms (%.4f-%.4f)  wall %.4f ms  %.1f GB/s  rel.rms (first transform) %.3g\n",
              s.text.c_str(), t.device_ms, t.device_min, t.device_max, t.wall_ms, bytes / t.device_ms / 1e6, error);
  std::fflush(stdout);  // each case's line as it is made
  cufftDestroy(plan);
  cudaFree(in);
  cudaFree(out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int version = 0;
  cufftGetVersion(&version);
  std::printf("cuFFT %d on %s\n", version, p.name);
  int rc = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      bench_seed = std::strtoull(argv[++i], nullptr, 10);
      same_input = true;
      std::printf("inputs of portacl-bench --seed %llu\n", bench_seed);
      continue;
    }
    rc |= run(parse(argv[i]));
  }
  return rc;
}
