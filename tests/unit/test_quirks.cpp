// SPDX-License-Identifier: Apache-2.0
// The quirk book: ids are unique, each names where it applies, the code
// cites every id at its workaround, and the devices they apply to are the
// right ones.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "test_support.hpp"

using namespace portacl;

namespace {
// Every file of the tree the workarounds live in, concatenated, with
// comment markers and line breaks folded into single spaces (a citation may
// wrap across comment lines).
std::string source_tree_text() {
  std::string all;
  for (const char* dir : {"src", "kernels", "tools", "include"}) {
    const std::string root = std::string(PORTACL_SOURCE_DIR) + "/" + dir;
    for (const std::string& f : test::list_files_recursively(root)) all += test::read_file(f);
  }
  std::string folded;
  for (std::size_t i = 0; i < all.size(); ++i) {
    char c = all[i];
    if (c == '/' && i + 1 < all.size() && all[i + 1] == '/') {
      ++i;
      c = ' ';
    }
    if (c == '\n' || c == '\t') c = ' ';
    if (c == ' ' && !folded.empty() && folded.back() == ' ') continue;
    folded += c;
  }
  return folded;
}
}  // namespace

TEST_CASE("every quirk has a unique id, a description and is cited at its workaround", "[rules]") {
  const std::string tree = source_tree_text();
  std::set<std::string> ids;
  for (const Quirk& q : quirk_book()) {
    INFO(q.id);
    CHECK(ids.insert(q.id).second);
    CHECK(std::string(q.symptom).size() > 20);
    CHECK(std::string(q.workaround).size() > 20);
    // Cited somewhere besides the book itself.
    CHECK(tree.find(std::string("quirk ") + q.id) != std::string::npos);
  }
  CHECK_THROWS_WITH(quirk("no.such-quirk"), Catch::Contains("no quirk with id 'no.such-quirk'"));
}

TEST_CASE("quirks apply to the devices they name", "[rules]") {
  auto ids = [](const DeviceInfo& d) {
    std::set<std::string> out;
    for (const Quirk* q : quirks_of(d)) out.insert(q->id);
    return out;
  };
  const auto h100 = ids(test::load_fixture("nvidia_h100.clinfo"));
  const auto pocl = ids(test::load_fixture("pocl_epyc_avx2.clinfo"));
  const auto amd = ids(test::load_fixture("amd_gfx902_vega.clinfo"));
  CHECK(h100.count("nvidia.shuffle-divergent"));
  CHECK(h100.count("nvidia.user-event-deferral"));
  CHECK(!h100.count("pocl.barrier-loop-in-branch"));
  CHECK(pocl.count("pocl.barrier-loop-in-branch"));
  CHECK(!pocl.count("nvidia.shuffle-divergent"));
  CHECK(!amd.count("nvidia.shuffle-divergent"));
  CHECK(amd.count("clblast.beta-zero-reads-c"));  // a library's bug applies wherever it runs
}
