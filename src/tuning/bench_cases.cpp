// SPDX-License-Identifier: Apache-2.0
#include "bench_cases.hpp"

#include <map>

#include "portacl/error.hpp"

namespace portacl {

namespace {

std::map<std::string, BenchCaseMaker>& makers() {
  static std::map<std::string, BenchCaseMaker> families;
  return families;
}

}  // namespace

BenchCasesFamily::BenchCasesFamily(const std::string& family, BenchCaseMaker make) { makers()[family] = make; }

std::vector<BenchCase> bench_cases(const std::string& family, Context& ctx, const CaseSpec& spec,
                                   unsigned long long seed) {
  const auto it = makers().find(family);
  if (it == makers().end()) throw Error("no bench cases for '" + family + "'");
  return it->second(ctx, spec, seed);
}

}  // namespace portacl
