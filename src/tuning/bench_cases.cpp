// SPDX-License-Identifier: Apache-2.0
#include "bench_cases.hpp"

#include <map>
#include <mutex>

#include "portacl/error.hpp"

namespace portacl {

namespace {

struct Registered {
  CaseForms (*forms)() = nullptr;
  BenchCaseMaker make = nullptr;
};

std::map<std::string, Registered>& families() {
  static std::map<std::string, Registered> all;
  return all;
}

const Registered& registered(const std::string& family) {
  const auto it = families().find(family);
  if (it == families().end()) {
    std::string known;
    for (const auto& kv : families()) known += (known.empty() ? "" : ", ") + kv.first;
    throw Error("no bench case list for '" + family + "' (known: " + known + ")");
  }
  return it->second;
}

}  // namespace

BenchFamily::BenchFamily(const std::string& family, CaseForms (*forms)(), BenchCaseMaker make) {
  families()[family] = {forms, make};
}

const CaseForms& case_forms(const std::string& family) {
  static std::mutex mutex;
  static std::map<std::string, CaseForms> made;  // each list made once
  std::lock_guard<std::mutex> lock(mutex);
  auto m = made.find(family);
  if (m == made.end()) m = made.emplace(family, registered(family).forms()).first;
  return m->second;
}

std::vector<BenchCase> bench_cases(const std::string& family, Context& ctx, const CaseSpec& spec,
                                   unsigned long long seed) {
  std::vector<BenchCase> cases = registered(family).make(ctx, spec, seed);
  for (BenchCase& c : cases) c.family = family;
  return cases;
}

}  // namespace portacl
