// SPDX-License-Identifier: Apache-2.0
// Hostile tuning databases (issue 12 sections 2 and 3): records that would
// have become wrong macros, values that were undefined behaviour, files
// that were silently replaced, and records lost to races. Nothing here may
// change a result or lose a record.
#include <catch2/catch.hpp>

#include <limits>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <thread>

#include "test_support.hpp"
#include "util/files.hpp"
#include "runtime/tuned_plan_check.hpp"

using namespace portacl;

namespace {

using test::record_for;

std::vector<std::string> set_aside_files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& f : test::list_files_recursively(dir))
    if (f.find(".set-aside-") != std::string::npos) out.push_back(f);
  return out;
}

const std::string kHeader = R"({"format": "portacl-tuning", "version": 1, "records": [)";

// One record's JSON for `d`, kernel sum, bucket 10, with `configuration`.
std::string record_json(const DeviceInfo& d, const std::string& kernel, const std::string& configuration) {
  const DeviceFingerprint fp = DeviceFingerprint::of(d);
  return R"({"device": {"platform": ")" + fp.platform + R"(", "name": ")" + fp.device + R"(", "driver": ")" +
         fp.driver + R"(", "compute_units": )" + std::to_string(fp.compute_units) + R"(}, "kernel": ")" + kernel +
         R"(", "element": "float", "bucket": 10, "configuration": )" + configuration + "}";
}

}  // namespace

TEST_CASE("a record's unknown knobs never become macros; the rules plan instead", "[hostile]") {
  Context& ctx = test::cpu_context();
  const std::string dir = test::scratch_dir("hostile-knobs");
  const std::vector<float> hx = test::random_vector<float>(1000);
  const double want = reference::sum(hx).value;
  Buffer<float> x(ctx, hx), y(ctx, 1000);
  // The issue's examples: WG_SIZE (a planner macro) for sum, T for copy,
  // and a value outside the declared candidates.
  for (const auto& [kernel, config] :
       std::vector<std::pair<std::string, Configuration>>{{"sum", {{"WG_SIZE", 4}}},
                                                          {"copy", {{"T", 1}}},
                                                          {"sum", {{"work_group_size", 48}}},
                                                          {"sum", {{"vector_width", 4}, {"BARRIER_FREE", 0}}}}) {
    INFO(kernel << " " << to_string(config));
    const std::string path = dir + "/" + kernel + std::to_string(config.size()) + ".json";
    TuningDatabase::merge_into_file(path, {record_for(ctx.info(), kernel, 10, config)});
    test::TuningDbScope scope(path);
    LaunchPlan used;
    if (kernel == "sum") {
      CHECK(double(sum(ctx, x, {}, &used)) == Approx(want).margin(test::sum_margin(hx)));
    } else {
      used = copy(ctx, x, y);
      CHECK(y.download() == hx);
    }
    CHECK_THAT(used.provenance,
               Catch::StartsWith("rules (tuning database " + path) && Catch::Contains("did not apply"));
    // The planner's macros hold the planner's values.
    CHECK(used.macros.at("T") == "float");
    CHECK(used.macros.at("WG_SIZE") == std::to_string(used.work_group_size()));
    CHECK(used.macros.at("BARRIER_FREE") == (used.barrier_free_variant ? "1" : "0"));
  }
}

TEST_CASE("a tuned plan is checked at its first use; wrong results fall back to the rules", "[hostile]") {
  const std::string dir = test::scratch_dir("hostile-first-use");
  const std::vector<float> hx = test::random_vector<float>(1000);
  const double want = reference::sum(hx).value;
  // The library's own check, named through the context's options (the
  // extension point), runs once on this record's first use in the context
  // and passes a configuration that computes right.
  struct Seen {
    int calls = 0;
    std::string problem;
  };
  auto seen = std::make_shared<Seen>();
  ContextOptions watched;
  watched.tuned_plan_check = [=](Context& c, const LaunchPlan& p, const ProblemSize& s, const PlanOptions& o) {
    ++seen->calls;
    seen->problem = library_tuned_plan_check(c, p, s, o);
    return seen->problem;
  };
  const std::string right = dir + "/right.json";
  TuningDatabase::merge_into_file(right,
                                  {record_for(test::cpu_context().info(), "sum", 10, {{"work_group_size", 32}})});
  {
    Context ctx(test::cpu_context().device(), watched);
    Buffer<float> x(ctx, hx);
    test::TuningDbScope scope(right);
    LaunchPlan used;
    for (int call = 0; call < 3; ++call)
      CHECK(double(sum(ctx, x, {}, &used)) == Approx(want).margin(test::sum_margin(hx)));
    CHECK_THAT(used.provenance, Catch::StartsWith("tuning database " + right));
    CHECK(used.work_group_size() == 32);
    CHECK(seen->calls == 1);
    CHECK(seen->problem == "");
  }
  // A record whose results the check finds wrong is used by no call: the
  // first call already runs the rules plan, and says why.
  ContextOptions failing;
  failing.tuned_plan_check = [=](Context&, const LaunchPlan&, const ProblemSize&, const PlanOptions&) {
    ++seen->calls;
    return std::string("sum gave 1 instead of 2");
  };
  const std::string wrong = dir + "/wrong.json";
  TuningDatabase::merge_into_file(wrong,
                                  {record_for(test::cpu_context().info(), "sum", 10, {{"work_group_size", 64}})});
  {
    Context ctx(test::cpu_context().device(), failing);
    Buffer<float> x(ctx, hx);
    test::TuningDbScope scope(wrong);
    LaunchPlan first, second;
    CHECK(double(sum(ctx, x, {}, &first)) == Approx(want).margin(test::sum_margin(hx)));
    CHECK(double(sum(ctx, x, {}, &second)) == Approx(want).margin(test::sum_margin(hx)));
    CHECK_THAT(first.provenance, Catch::StartsWith("rules"));
    CHECK(second.provenance == first.provenance);
    INFO(first.provenance);
    CHECK(seen->calls == 2);
  }
  // An empty check checks nothing: the record is used as stored.
  ContextOptions unchecked;
  unchecked.tuned_plan_check = TunedPlanCheck{};
  const std::string as_stored = dir + "/unchecked.json";
  TuningDatabase::merge_into_file(as_stored,
                                  {record_for(test::cpu_context().info(), "sum", 10, {{"work_group_size", 64}})});
  {
    Context ctx(test::cpu_context().device(), unchecked);
    Buffer<float> x(ctx, hx);
    test::TuningDbScope scope(as_stored);
    LaunchPlan used;
    CHECK(double(sum(ctx, x, {}, &used)) == Approx(want).margin(test::sum_margin(hx)));
    CHECK_THAT(used.provenance, Catch::StartsWith("tuning database " + as_stored));
    CHECK(used.work_group_size() == 64);
    CHECK(seen->calls == 2);
  }
}

TEST_CASE("the library's own check catches a tuned configuration that computes wrongly", "[hostile]") {
  // A reduce.cl that is wrong only with work-groups of 32, as a kernel edit
  // can leave a stored configuration: the record builds and runs, and only
  // the results show it.
  const std::string dir = test::scratch_dir("hostile-wrong-kernel");
  std::string text = test::read_file(std::string(PORTACL_SOURCE_DIR) + "/kernels/reduce.cl");
  const std::size_t at = text.find("\n#if PER_ITEM\n  const size_t units = get_global_size(0);");
  REQUIRE(at != std::string::npos);
  text.insert(at, "\n#if WG_SIZE == 32 && COMBINE_IS_ADD\n  acc += (S)1;\n#endif");
  test::write_file(dir + "/reduce.cl", text);
  ContextOptions opt;
  opt.kernels = KernelLibrary({dir}, true);
  opt.cache_directory = "";
  Context ctx(test::cpu_context().device(), opt);
  const std::vector<float> hx = test::random_vector<float>(1000);
  const double want = reference::sum(hx).value;
  Buffer<float> x(ctx, hx);
  PlanOptions thirty_two;
  thirty_two.override_values = PlanOverride{};
  thirty_two.override_values->work_group_size = 32;
  // The planted bug adds at least 1: far beyond sum_margin.
  CHECK(double(sum(ctx, x, thirty_two)) != Approx(want).margin(test::sum_margin(hx)));  // the planted bug is live
  const std::string path = dir + "/db.json";
  TuningDatabase::merge_into_file(path, {record_for(ctx.info(), "sum", 10, {{"work_group_size", 32}})});
  test::TuningDbScope scope(path);
  LaunchPlan used;
  CHECK(double(sum(ctx, x, {}, &used)) == Approx(want).margin(test::sum_margin(hx)));
  CHECK_THAT(used.provenance, Catch::StartsWith("rules"));
  CHECK(used.work_group_size() != 32);
}

TEST_CASE("stored values that are not small whole numbers skip their record, not the file", "[hostile]") {
  const DeviceInfo d = test::load_fixture("nvidia_h100.clinfo");
  const std::string good = record_json(d, "sum", R"({"work_group_size": 256})");
  for (const std::string bad :
       {R"({"work_group_size": -64})", R"({"work_group_size": 9223372036854775808})", R"({"work_group_size": 1e300})",
        R"({"work_group_size": 2.5})", R"({"work_group_size": "256"})", R"({"work_group_size": null})", R"([1, 2])"}) {
    INFO(bad);
    const Json j = Json::parse(kHeader + record_json(d, "dot", bad) + ", " + good + "]}");
    std::vector<std::string> skipped;
    const TuningDatabase db = TuningDatabase::from_json(j, &skipped);
    REQUIRE(db.records().size() == 1);
    CHECK(db.records()[0].kernel == "sum");
    REQUIRE(skipped.size() == 1);
    CHECK_THAT(skipped[0], Catch::StartsWith("record 0 skipped"));
    CHECK_THROWS_WITH(TuningDatabase::from_json(j), Catch::StartsWith("record 0 skipped"));
  }
  // The version field: no undefined cast, a readable refusal.
  CHECK_THROWS_WITH(TuningDatabase::from_json(Json::parse(R"({"format": "portacl-tuning", "version": 1e300,
                                                             "records": []})")),
                    Catch::Contains("format version 1.0000000000000001e+300, this library reads version 1"));
  // 2^64 in a device description is refused, not read as 0.
  CHECK_THROWS_WITH(Json(18446744073709551615.0).as_u64("max_work_group_size"),
                    Catch::Contains("max_work_group_size must be a whole number"));
}

TEST_CASE("records under the packed symmetric product's old key are read under its new one", "[hostile]") {
  const DeviceInfo d = test::load_fixture("nvidia_h100.clinfo");
  const TuningDatabase db =
      TuningDatabase::from_json(Json::parse(kHeader + record_json(d, "spmv", R"({"BLOCK": 32})") + "]}"));
  REQUIRE(db.records().size() == 1);
  CHECK(db.records()[0].kernel == "packed_symv");
  CHECK(db.records()[0].configuration == Configuration{{"BLOCK", 32}});
}

TEST_CASE("a database with bad records keeps its good ones, and merging keeps a copy of the old file", "[hostile]") {
  const DeviceInfo d = test::load_fixture("nvidia_h100.clinfo");
  const std::string dir = test::scratch_dir("hostile-bad-record");
  const std::string path = dir + "/db.json";
  const std::string original = kHeader + record_json(d, "sum", R"({"work_group_size": 256})") + ", " +
                               record_json(d, "dot", R"({"work_group_size": -1})") + "]}";
  test::write_file(path, original);
  std::vector<std::string> warnings;
  CHECK(TuningDatabase::load(path, &warnings).records().size() == 1);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains(path) && Catch::Contains("record 1 skipped"));
  std::vector<std::string> notes;
  TuningDatabase::merge_into_file(path, {record_for(d, "axpy", 20, {{"vector_width", 4}})}, &notes);
  CHECK(TuningDatabase::load(path, nullptr).records().size() == 2);  // sum and axpy
  const auto aside = set_aside_files(dir);
  REQUIRE(aside.size() == 1);
  CHECK(test::read_file(aside[0]) == original);
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::Contains(aside[0]));
}

TEST_CASE("merging refuses what it cannot read or write, and follows links", "[hostile]") {
  const DeviceInfo d = test::load_fixture("nvidia_h100.clinfo");
  const std::string dir = test::scratch_dir("hostile-paths");
  const TuningRecord r = record_for(d, "sum", 20, {{"work_group_size", 256}});
  // A directory is refused, and stays a directory.
  const std::string as_dir = dir + "/is-a-directory";
  ::mkdir(as_dir.c_str(), 0755);
  CHECK_THROWS_WITH(TuningDatabase::merge_into_file(as_dir, {r}), Catch::Contains("is not a regular file"));
  struct stat st {};
  CHECK((::stat(as_dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)));
  CHECK(set_aside_files(dir).empty());
  // A link: the target receives the record, the link stays a link.
  const std::string target = dir + "/target.json", link = dir + "/link.json";
  TuningDatabase::merge_into_file(target, {record_for(d, "dot", 20, {{"work_group_size", 256}})});
  REQUIRE(::symlink("target.json", link.c_str()) == 0);
  TuningDatabase::merge_into_file(link, {r});
  CHECK((::lstat(link.c_str(), &st) == 0 && S_ISLNK(st.st_mode)));
  CHECK(TuningDatabase::load(target, nullptr).records().size() == 2);
  // Unreadable and read-only files (permissions mean nothing to root).
  if (::geteuid() != 0) {
    const std::string locked = dir + "/locked.json";
    TuningDatabase::merge_into_file(locked, {r});
    const std::string before = test::read_file(locked);
    ::chmod(locked.c_str(), 0000);
    CHECK_THROWS_WITH(TuningDatabase::merge_into_file(locked, {record_for(d, "dot", 20, {})}),
                      Catch::Contains("not readable and writable"));
    ::chmod(locked.c_str(), 0444);
    CHECK_THROWS_WITH(TuningDatabase::merge_into_file(locked, {record_for(d, "dot", 20, {})}),
                      Catch::Contains("not readable and writable"));
    CHECK(test::read_file(locked) == before);
    CHECK(::stat(locked.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0444);
  }
  CHECK(TuningDatabase::writable_problem(as_dir) != "");
  CHECK(TuningDatabase::writable_problem(dir + "/fresh.json") == "");
}

TEST_CASE("set-aside names never collide, even within one second", "[hostile]") {
  const std::string base = test::scratch_dir("hostile-names") + "/db.json";
  std::set<std::string> names;
  for (int i = 0; i < 100; ++i) names.insert(files::unique_sibling(base, "set-aside"));
  CHECK(names.size() == 100);
}

TEST_CASE("two writers and a corrupter lose no record", "[hostile]") {
  const DeviceInfo d = test::load_fixture("nvidia_h100.clinfo");
  const std::string dir = test::scratch_dir("hostile-race");
  const std::string path = dir + "/db.json";
  const int per_writer = 40;
  auto writer = [&](int id) {
    for (int i = 0; i < per_writer; ++i)
      TuningDatabase::merge_into_file(
          path, {record_for(d, "w" + std::to_string(id) + "_" + std::to_string(i), 20, {{"work_group_size", 256}})});
  };
  std::atomic<bool> done{false};
  std::thread corrupter([&] {
    // Appends junk to whatever file is there, without the lock, as a
    // crashing or careless program would.
    while (!done) {
      if (FILE* f = std::fopen(path.c_str(), "a")) {
        std::fputs("\n}{ not json", f);
        std::fclose(f);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  std::thread a(writer, 0), b(writer, 1);
  a.join();
  b.join();
  done = true;
  corrupter.join();
  // Every record is in the database or in a set-aside copy.
  std::string everything = test::read_file(path);
  const auto aside = set_aside_files(dir);
  for (const auto& f : aside) everything += test::read_file(f);
  int missing = 0;
  for (int id = 0; id < 2; ++id)
    for (int i = 0; i < per_writer; ++i)
      if (everything.find("\"w" + std::to_string(id) + "_" + std::to_string(i) + "\"") == std::string::npos) ++missing;
  INFO(aside.size() << " set-aside file(s)");
  CHECK(missing == 0);
}

TEST_CASE("a database of 100,000 records loads in linear time", "[hostile]") {
  const DeviceInfo d = test::load_fixture("nvidia_h100.clinfo");
  std::string text = kHeader;
  const std::size_t n = 100000;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) text += ", ";
    text += record_json(d, "k" + std::to_string(i), R"({"work_group_size": 256})");
  }
  text += "]}";
  const auto t0 = std::chrono::steady_clock::now();
  const TuningDatabase db = TuningDatabase::from_json(Json::parse(text));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(db.records().size() == n);
  // Generous: quadratic insertion took minutes; linear takes well under a
  // second even on a loaded 2-core machine (sanitizer builds: a few).
  CHECK(seconds < 10);
  UNSCOPED_INFO("100k records parsed and indexed in " << seconds << " s");
}
