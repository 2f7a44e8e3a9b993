// SPDX-License-Identifier: Apache-2.0
#include "cblas_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <type_traits>

namespace bench {

namespace {

struct Loaded {
  std::unique_ptr<Cblas> blas;
  std::string why;
};

Loaded load() {
  Loaded out;
  const char* asked = std::getenv("PORTACL_BENCH_CBLAS");
  std::string path = asked && *asked ? asked : "libopenblas.so.0", prefix;
  if (const auto colon = path.rfind(':'); colon != std::string::npos) {
    prefix = path.substr(colon + 1);
    path.resize(colon);
  }
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    out.why = "no CBLAS: " + std::string(dlerror()) +
              (asked ? "" : " (install libopenblas0, or name one in PORTACL_BENCH_CBLAS=PATH[:PREFIX])");
    return out;
  }
  auto blas = std::make_unique<Cblas>();
  std::string missing;
  auto bind = [&](auto& entry, const char* symbol) {
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(dlsym(lib, (prefix + symbol).c_str()));
    if (!entry) missing += (missing.empty() ? "" : ", ") + prefix + symbol;
  };
  bind(blas->saxpy, "cblas_saxpy");
  bind(blas->scopy, "cblas_scopy");
  bind(blas->sdot, "cblas_sdot");
  bind(blas->snrm2, "cblas_snrm2");
  bind(blas->isamax, "cblas_isamax");
  bind(blas->sgemv, "cblas_sgemv");
  bind(blas->sspmv, "cblas_sspmv");
  bind(blas->strsv, "cblas_strsv");
  bind(blas->sgemm, "cblas_sgemm");
  if (!missing.empty()) {
    out.why = path + " lacks " + missing;
    return out;
  }
  // OpenBLAS says what it is and how many threads it runs; another CBLAS
  // is named by its path.
  char* (*config)() = nullptr;
  int (*threads)() = nullptr;
  bind(config, "openblas_get_config");  // OpenBLAS's own: optional
  bind(threads, "openblas_get_num_threads");
  const std::string about = config ? config() : "CBLAS";
  const auto second_space = about.find(' ', about.find(' ') + 1);
  blas->library = about.substr(0, second_space);
  blas->name = about + " (" + path + (prefix.empty() ? "" : ", symbols " + prefix + "*") +
               (threads ? ", " + std::to_string(threads()) + " threads" : "") + ")";
  out.blas = std::move(blas);
  return out;
}

}  // namespace

const Cblas* cblas(std::string* why) {
  static const Loaded loaded = load();
  if (why) *why = loaded.why;
  return loaded.blas.get();
}

}  // namespace bench
