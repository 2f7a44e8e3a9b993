// SPDX-License-Identifier: Apache-2.0
// The families' bench case lists: one grammar, one parser, clear refusals.
#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>

#include "test_support.hpp"
#include "kernels/reference_calls.hpp"
#include "tuning/bench_cases.hpp"
#include "tuning/family.hpp"

using namespace portacl;

TEST_CASE("a family's bench cases parse by its declared forms, and bad specs are refused by name", "[tuning]") {
  const CaseForms& stencils = case_forms("stencil");
  const CaseSpec heat = parse_case(stencils, "heat2d:4096:1000");
  CHECK(heat.kind == "heat2d");
  CHECK(heat.values == std::vector<std::size_t>{4096, 1000});
  CHECK(parse_case(case_forms("sparse"), "powerlaw:2000000:8").values == std::vector<std::size_t>{2000000, 8});
  CHECK_THROWS_WITH(parse_case(stencils, "star3d:24:5"), "--stencils 'star3d:24:5': the radius is 1 to 4");
  CHECK_THROWS_WITH(parse_case(stencils, "heat2d:64"),
                    Catch::Contains("expected heat2d:N:STEPS") && Catch::Contains("or ncc:N:TEMPLATE"));
  CHECK_THROWS_WITH(parse_case(stencils, "heat2d:64:-1"), Catch::Contains("'-1' is not a positive whole number"));
  CHECK_THROWS_WITH(parse_case(stencils, "heat2d:64:1e3"), Catch::Contains("'1e3' is not a positive whole number"));
  CHECK_THROWS_WITH(parse_case(stencils, "heat2d:64:99999999999999999999999"),
                    Catch::Contains("is not a positive whole number"));
  CHECK_THROWS_WITH(parse_case(case_forms("sparse"), "poisson2d:0"), Catch::Contains("'0' is not a positive"));
  CHECK_THROWS_AS(parse_case(stencils, ""), std::invalid_argument);
  CHECK_THROWS_WITH(case_forms("nonesuch"),
                    Catch::Contains("known: ") && Catch::Contains("sparse") && Catch::Contains("stencil"));
  // Every form's usage is its kind and parameters, so --help and the
  // refusals quote the same text.
  for (const CaseForm& f : stencils.forms) CHECK(parse_case(stencils, f.kind + ":7:1").kind == f.kind);
}

TEST_CASE("one descriptor per family: the families --explain shows, each registered once, read by every list",
          "[tuning]") {
  std::set<std::string> described;
  std::size_t operations_counted = 0, scaling_counted = 0;
  for (const Family& f : families()) {
    INFO(f.name);
    CHECK(described.insert(f.name).second);  // once
    CHECK(&family(f.name) == &f);
    if (f.operations) operations_counted += f.operations().size();
    if (f.cases) {
      CHECK(f.make_cases);
      CHECK(case_forms(f.name).option.rfind("--", 0) == 0);
    }
    scaling_counted += f.scaling.size();
  }
  // Every family whose calls portacl-query explains has its descriptor,
  // and every descriptor is such a family.
  std::set<std::string> explained;
  for (const ReferenceCall& c : reference_calls(test::load_fixture("nvidia_h100.clinfo"), PlanOptions{}))
    explained.insert(c.family);
  CHECK(described == explained);
  CHECK(described.size() == 19);
  // The tuner's and the bench's operation list is the descriptors'
  // operations, in the families' order; the bench sections are theirs.
  CHECK(operations().size() == operations_counted);
  CHECK(operations().front().name == family("stream").operations().front().name);
  CHECK(scaling_counted == 6);  // nbody, train, cg, spmv, heat, fft3d
  for (const char* name : {"gemm", "sparse", "stencil", "fft"}) CHECK(family(name).cases != nullptr);
  CHECK_THROWS_WITH(family("nonesuch"), Catch::Contains("known: stream, reduce"));
}
