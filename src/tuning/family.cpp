// SPDX-License-Identifier: Apache-2.0
#include "family.hpp"

#include <algorithm>

#include "portacl/error.hpp"

namespace portacl {

namespace {

// In registration order (static initialisation); sorted when first read.
std::vector<Family>& registered() {
  static std::vector<Family> all;
  return all;
}

}  // namespace

FamilyRegistration::FamilyRegistration(Family family) {
  for (const Family& f : registered())
    if (f.name == family.name) throw Error("family '" + family.name + "' is registered twice");
  registered().push_back(std::move(family));
}

const std::vector<Family>& families() {
  static const std::vector<Family> sorted = [] {
    std::vector<Family> all = registered();
    std::stable_sort(all.begin(), all.end(), [](const Family& a, const Family& b) { return a.order < b.order; });
    return all;
  }();
  return sorted;
}

const Family& family(const std::string& name) {
  std::string known;
  for (const Family& f : families()) {
    if (f.name == name) return f;
    known += (known.empty() ? "" : ", ") + f.name;
  }
  throw Error("no family '" + name + "' (known: " + known + ")");
}

}  // namespace portacl
