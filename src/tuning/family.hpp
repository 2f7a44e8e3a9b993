// SPDX-License-Identifier: Apache-2.0
// One descriptor per family: everything the tuner, the first-use check,
// portacl-bench (its operation tables, its family sections, its --group
// section), portacl-bench-mpi and the tests read of a family, registered
// once, in the family's operations or cases file. Its name is the one
// portacl-query --explain gives the family's reference calls.
#pragma once

#include <string>
#include <vector>

#include "bench_cases.hpp"
#include "case_specs.hpp"
#include "operations.hpp"

namespace portacl {

struct Family {
  std::string name;  ///< "stencil", as its reference calls name it
  int order = 0;     ///< its place in the operation list and the bench's tables
  /// Its tunable operations (the tuner, the first-use check, the bench's
  /// operation tables); nullptr: none.
  std::vector<Operation> (*operations)() = nullptr;
  /// Its bench section: the case list its option takes and the cases a
  /// spec makes; nullptr: none.
  CaseForms (*cases)() = nullptr;
  BenchCaseMaker make_cases = nullptr;
  /// Its forms in the scaling sections (portacl-bench --group,
  /// portacl-bench-mpi); each takes one size, at least 2.
  std::vector<CaseForm> scaling = {};
};

/// A family joins the list through one of these, defined at namespace scope.
struct FamilyRegistration {
  explicit FamilyRegistration(Family family);
};

/// Every family, by order.
const std::vector<Family>& families();
/// The family called `name`; throws portacl::Error naming the known ones.
const Family& family(const std::string& name);

}  // namespace portacl
