// SPDX-License-Identifier: Apache-2.0
#include "bench_cases.hpp"

#include <map>
#include <mutex>

#include "family.hpp"
#include "portacl/error.hpp"

namespace portacl {

namespace {

// The family of `name` with a bench section.
const Family& with_cases(const std::string& name) {
  for (const Family& f : families())
    if (f.name == name && f.cases) return f;
  std::string known;
  for (const Family& f : families())
    if (f.cases) known += (known.empty() ? "" : ", ") + f.name;
  throw Error("no bench case list for '" + name + "' (known: " + known + ")");
}

}  // namespace

const CaseForms& case_forms(const std::string& family) {
  static std::mutex mutex;
  static std::map<std::string, CaseForms> made;  // each list made once
  std::lock_guard<std::mutex> lock(mutex);
  auto m = made.find(family);
  if (m == made.end()) m = made.emplace(family, with_cases(family).cases()).first;
  return m->second;
}

std::vector<BenchCase> bench_cases(const std::string& family, Context& ctx, const CaseSpec& spec,
                                   unsigned long long seed) {
  std::vector<BenchCase> cases = with_cases(family).make_cases(ctx, spec, seed);
  for (BenchCase& c : cases) c.family = family;
  return cases;
}

}  // namespace portacl
