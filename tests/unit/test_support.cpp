// SPDX-License-Identifier: Apache-2.0
#include "test_support.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

namespace test {

std::string fixture_path(const std::string& file) { return std::string(PORTACL_FIXTURE_DIR) + "/" + file; }

std::vector<std::string> fixture_files() {
  std::vector<std::string> out;
  if (DIR* d = opendir(PORTACL_FIXTURE_DIR)) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 7 && n.substr(n.size() - 7) == ".clinfo") out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

portacl::DeviceInfo load_fixture(const std::string& file) {
  return portacl::parse_clinfo_file(fixture_path(file)).at(0);
}

std::string scratch_dir(const std::string& name) {
  static int counter = 0;
  // The process id too: parallel test processes share one seed (tools/run-suite-parallel.py).
  std::string dir = std::string(PORTACL_TEST_TMP) + "/" + name + "-" + std::to_string(seed() % 100000) + "-" +
                    std::to_string(::getpid()) + "-" + std::to_string(++counter);
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cannot create " + dir);
  return dir;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> list_files_recursively(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n == "." || n == "..") continue;
      const std::string path = dir + "/" + n;
      if (e->d_type == DT_DIR) {
        for (auto& f : list_files_recursively(path)) out.push_back(std::move(f));
      } else {
        out.push_back(path);
      }
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
portacl::Context* shared_context = nullptr;
}

portacl::Context& cpu_context() {
  // PORTACL_TEST_DEVICE runs the suite on another device (the GPU run does).
  static std::unique_ptr<portacl::Context> ctx = [] {
    const char* env = std::getenv("PORTACL_TEST_DEVICE");
    return std::make_unique<portacl::Context>(portacl::select_device(env && *env ? env : "cpu"));
  }();
  shared_context = ctx.get();
  return *ctx;
}

portacl::Context& another_context() {
  static std::unique_ptr<portacl::Context> other = [] {
    portacl::ContextOptions options;
    options.cache_directory = "";
    return std::make_unique<portacl::Context>(cpu_context().device(), options);
  }();
  return *other;
}

void finish_shared_context() {
  if (shared_context) shared_context->finish();
}

std::uint64_t seed() {
  static const std::uint64_t s = []() -> std::uint64_t {
    if (const char* env = std::getenv("PORTACL_TEST_SEED")) return std::strtoull(env, nullptr, 10);
    return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  }();
  return s;
}

std::mt19937_64& rng() {
  static std::mt19937_64 g(seed());
  return g;
}

std::vector<ClassPlan> class_plans(portacl::ElementType element) {
  std::vector<ClassPlan> out;
  for (const auto& f : fixture_files()) {
    ClassPlan c{f, {}};
    c.options.plan_as = load_fixture(f);
    if (element == portacl::ElementType::f64 && !c.options.plan_as->fp64) continue;
    out.push_back(std::move(c));
  }
  return out;
}

portacl::PlanOptions with_passes(portacl::PlanOptions opt, int passes) {
  portacl::PlanOverride ov;
  ov.passes = passes;
  ov.provenance = "test: " + std::to_string(passes) + " pass(es)";
  opt.override_values = ov;
  return opt;
}

const std::vector<std::size_t> class_plan_sizes = {1, 61, 4099, 100003};

const std::vector<std::size_t> awkward_sizes = {0, 1, 2, 3, 7, 13, 31, 61, 127, 257, 1021, 4099, 65537};

portacl::TuningRecord record_for(const portacl::DeviceInfo& d, const std::string& kernel, unsigned bucket,
                                 portacl::Configuration c) {
  portacl::TuningRecord r;
  r.device = portacl::DeviceFingerprint::of(d);
  r.kernel = kernel;
  r.element = "float";
  r.bucket = bucket;
  r.n = std::size_t{1} << bucket;
  r.configuration = std::move(c);
  r.tuned = {1, 1, 1, 3, {}};
  r.rules = {2, 2, 2, 3, {}};
  return r;
}

TuningDbScope::TuningDbScope(const std::string& path) {
  saved = std::getenv("PORTACL_TUNING_DB") ? std::getenv("PORTACL_TUNING_DB") : "";
  ::setenv("PORTACL_TUNING_DB", path.c_str(), 1);
  portacl::use_tuning_databases();
}

TuningDbScope::~TuningDbScope() { ::setenv("PORTACL_TUNING_DB", saved.c_str(), 1); }

std::vector<ClassPlan> rules_and_class_plans(portacl::ElementType element) {
  std::vector<ClassPlan> plans{{"rules", portacl::PlanOptions{}}};
  for (ClassPlan& p : class_plans(element)) plans.push_back(std::move(p));
  return plans;
}

portacl::DeviceGroup& cpu_halves() {
  static portacl::DeviceGroup group("cpu/2");
  return group;
}

portacl::Context& whole_cpu_context() {
  const char* env = std::getenv("PORTACL_TEST_DEVICE");
  if (!env || !*env) return cpu_context();
  static portacl::Context whole(portacl::select_device("cpu"));
  return whole;
}

portacl::LennardJones two_type_lj() {
  portacl::LennardJones lj;
  lj.types = 2;
  lj.epsilon = {1.0, 0.7, 0.7, 0.5};
  lj.sigma = {1.0, 0.9, 0.9, 0.85};
  lj.cutoff = 2.5;
  return lj;
}

std::vector<float> random_bodies(std::size_t n) {
  std::uniform_real_distribution<float> pos(-1.0f, 1.0f), mass(0.5f, 1.5f);
  std::vector<float> b(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) b[4 * i + c] = pos(rng());
    b[4 * i + 3] = mass(rng()) / float(n);
  }
  return b;
}

}  // namespace test
