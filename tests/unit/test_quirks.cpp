// SPDX-License-Identifier: Apache-2.0
// The quirk book: ids are unique, each names where it applies, the code
// cites every id at its workaround, and the devices they apply to are the
// right ones.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "rules/replay_rules.hpp"
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

TEST_CASE("command-buffer replay is used only where the device's description allows it", "[rules]") {
  // cl_khr_command_buffer's provisional interface, checked like a quirk:
  // the extension, the version portacl calls, simultaneous use, and the
  // queue properties it needs.
  DeviceInfo d = test::load_fixture("nvidia_h100.clinfo");
  const std::uint64_t profiling = CL_QUEUE_PROFILING_ENABLE;
  ReplaySupport s = command_replay_support(d, profiling);
  CHECK_FALSE(s.usable);
  CHECK(s.why == "the device does not offer cl_khr_command_buffer");
  d.extensions.push_back("cl_khr_command_buffer");
  s = command_replay_support(d, profiling);
  CHECK_FALSE(s.usable);
  CHECK_THAT(s.why, Catch::Contains("without its version"));
  CommandBufferSupport c;
  c.version = (0u << 22) | (9u << 12) | 4u;  // 0.9.4
  c.capabilities = 1u << 2;                  // simultaneous use
  d.command_buffer = c;
  s = command_replay_support(d, profiling);
  CHECK(s.usable);
  CHECK(s.why == "cl_khr_command_buffer 0.9.4 with simultaneous use");
  LaunchPlan plan;
  CHECK(cg_replays_iteration(plan, d, profiling, true, std::nullopt));
  REQUIRE(plan.decision("iteration"));
  CHECK(plan.decision("iteration")->rule == "solver.replay-iteration");
  LaunchPlan unfused;
  CHECK_FALSE(cg_replays_iteration(unfused, d, profiling, false, std::nullopt));
  CHECK_THAT(unfused.decision("iteration")->why, Catch::Contains("not fused"));
  CHECK_THROWS_WITH(cg_replays_iteration(unfused, d, profiling, false, true), Catch::Contains("cannot be replayed"));
  LaunchPlan declined;
  CHECK_FALSE(cg_replays_iteration(declined, d, profiling, true, false));
  CHECK(declined.decision("iteration")->why == "the caller asked for plain launches");
  // A version whose interface portacl does not call.
  d.command_buffer->version = 1u << 22;  // 1.0.0
  s = command_replay_support(d, profiling);
  CHECK_FALSE(s.usable);
  CHECK_THAT(s.why, Catch::Contains("1.0.0") && Catch::Contains("0.9"));
  d.command_buffer->version = c.version;
  // Without simultaneous use, a replay would wait for the one before.
  d.command_buffer->capabilities = 0;
  CHECK_THAT(command_replay_support(d, profiling).why, Catch::Contains("simultaneous use"));
  d.command_buffer->capabilities = c.capabilities;
  // Queue properties the context's queue lacks.
  d.command_buffer->required_queue_properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  s = command_replay_support(d, profiling);
  CHECK_FALSE(s.usable);
  CHECK_THAT(s.why, Catch::Contains("0x1"));
  // PoCL offers it, and its replay was measured no faster: the rule
  // launches there unless asked.
  d.command_buffer->required_queue_properties = 0;
  d.platform_name = "Portable Computing Language";
  LaunchPlan pocl;
  CHECK_FALSE(cg_replays_iteration(pocl, d, profiling, true, std::nullopt));
  CHECK_THAT(pocl.decision("iteration")->why, Catch::Contains("PoCL"));
  CHECK(cg_replays_iteration(pocl, d, profiling, true, true));
  // The description keeps what it read through JSON.
  CHECK(DeviceInfo::from_json(Json::parse(d.to_json().dump())) == d);
}
