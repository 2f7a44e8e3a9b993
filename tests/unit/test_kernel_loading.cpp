// SPDX-License-Identifier: Apache-2.0
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <functional>
#include <iostream>

#include "rules/quirks.hpp"
#include "test_support.hpp"
#include "kernels/stream_tunables.hpp"
#include "programs/source_text.hpp"

using namespace portacl;

TEST_CASE("kernels load from the search path, first directory first", "[loading]") {
  std::string a = test::scratch_dir("kpath-a"), b = test::scratch_dir("kpath-b");
  test::write_file(b + "/mine.cl", "// from b\n");
  test::write_file(a + "/mine.cl", "// from a\n");
  KernelLibrary lib({a, b}, false);
  KernelSource s = lib.load("mine.cl");
  CHECK(s.origin == a + "/mine.cl");
  CHECK_THAT(s.text, Catch::Contains("// from a"));
  CHECK_THAT(s.text, Catch::Contains("#line 1 \"mine.cl\""));
  KernelLibrary only_b({b}, false);
  CHECK_THAT(only_b.load("mine.cl").text, Catch::Contains("// from b"));
}

TEST_CASE("the embedded copy is used when no file is found", "[loading]") {
  KernelLibrary lib({}, true);
  auto names = KernelLibrary::embedded_names();
  CHECK(std::find(names.begin(), names.end(), "stream.cl") != names.end());
  KernelSource s = lib.load("stream.cl");
  CHECK(s.origin == "embedded:stream.cl");
  // The include was resolved from the embedded copies too.
  CHECK_THAT(s.text, Catch::Contains("#define PORTACL_COMMON_CL"));
  CHECK_THAT(s.text, Catch::Contains("__kernel void axpy("));
  // Identical to the file in the source tree, byte for byte after expansion.
  KernelLibrary files({PORTACL_FIXTURE_DIR "/../../../kernels"}, false);
  CHECK(files.load("stream.cl").text == s.text);
}

TEST_CASE("PORTACL_KERNEL_PATH comes first in the default search path", "[loading]") {
  std::string dir = test::scratch_dir("envpath");
  ::setenv("PORTACL_KERNEL_PATH", (dir + ":/nonexistent").c_str(), 1);
  auto path = KernelLibrary::default_search_path();
  ::unsetenv("PORTACL_KERNEL_PATH");
  REQUIRE(path.size() >= 3);
  CHECK(path[0] == dir);
  CHECK(path[1] == "/nonexistent");
}

TEST_CASE("includes resolve with line markers, cycles are reported", "[loading]") {
  std::string dir = test::scratch_dir("includes");
  test::write_file(dir + "/inner.cl", "#define INNER 1\n");
  test::write_file(dir + "/outer.cl", "// line 1\n#include \"inner.cl\"\nint after;\n");
  KernelSource s = KernelLibrary({dir}, false).load("outer.cl");
  CHECK(s.text ==
        "#line 1 \"outer.cl\"\n// line 1\n#line 1 \"inner.cl\"\n#define INNER 1\n#line 3 \"outer.cl\"\nint after;\n");
  test::write_file(dir + "/loop_a.cl", "#include \"loop_b.cl\"\n");
  test::write_file(dir + "/loop_b.cl", "#include \"loop_a.cl\"\n");
  CHECK_THROWS_WITH(KernelLibrary({dir}, false).load("loop_a.cl"), Catch::Contains("includes itself"));
  test::write_file(dir + "/dangling.cl", "\n\n#include \"gone.cl\"\n");
  CHECK_THROWS_WITH(KernelLibrary({dir}, false).load("dangling.cl"),
                    Catch::Contains("dangling.cl:3: included kernel file 'gone.cl' not found"));
}

TEST_CASE("a missing kernel file names every place looked in", "[loading]") {
  KernelLibrary lib({"/nowhere/one", "/nowhere/two"}, true);
  try {
    lib.load("missing.cl");
    FAIL("no exception");
  } catch (const Error& e) {
    std::string m = e.what();
    CHECK_THAT(m, Catch::Contains("'missing.cl' not found"));
    CHECK_THAT(m, Catch::Contains("/nowhere/one/missing.cl"));
    CHECK_THAT(m, Catch::Contains("/nowhere/two/missing.cl"));
    CHECK_THAT(m, Catch::Contains("PORTACL_KERNEL_PATH"));
  }
  CHECK_THROWS_WITH(lib.load("../etc/passwd"), Catch::Contains("not a plain file name"));
}

TEST_CASE("a kernel with a syntax error raises BuildError with the compiler log", "[loading]") {
  std::string dir = test::scratch_dir("broken");
  test::write_file(dir + "/broken.cl",
                   "#include \"portacl_common.cl\"\n__kernel void broken(__global T* x) {\n  x[0] = 1\n}\n");
  ContextOptions opt;
  opt.kernels = KernelLibrary({dir}, true);  // portacl_common.cl from the embedded copy
  opt.cache_directory = "";
  Context ctx(test::cpu_context().device(), opt);
  try {
    ctx.prepare(KernelRef{"broken.cl", "broken", {}}, axpy_traits(ElementType::f32), ProblemSize(10));
    FAIL("no exception");
  } catch (const BuildError& e) {
    std::string m = e.what();
    CHECK_THAT(m, Catch::Contains("OpenCL build of 'broken.cl'"));
    CHECK_THAT(m, Catch::Contains("CL_BUILD_PROGRAM_FAILURE"));
    CHECK_THAT(m, Catch::Contains("-DT=float"));
    // The log points at the .cl file and line, thanks to the #line markers.
    CHECK_THAT(e.build_log(), Catch::Contains("broken.cl:3"));
  }
}

TEST_CASE("compiler logs that ignore #line are mapped back to file and line", "[loading]") {
  std::string dir = test::scratch_dir("logmap");
  test::write_file(dir + "/inner.cl", "int a;\nint b;\n");
  test::write_file(dir + "/outer.cl", "// one\n#include \"inner.cl\"\nint c = ;\n");
  KernelSource s = KernelLibrary({dir}, false).load("outer.cl");
  // Expanded: 1 #line, 2 "// one", 3 #line, 4 "int a;", 5 "int b;", 6 #line, 7 "int c = ;"
  CHECK(s.where(2) == "outer.cl:1");
  CHECK(s.where(5) == "inner.cl:2");
  CHECK(s.where(7) == "outer.cl:3");
  CHECK(s.where(1).empty());
  CHECK(s.where(99).empty());
  // NVIDIA's form: "<kernel>:LINE:COL: error ...".
  CHECK(map_log_lines("<kernel>:7:9: error: expected expression\n<kernel>:5:1: note", s) ==
        "outer.cl:3:9: error: expected expression\ninner.cl:2:1: note");
  CHECK(map_log_lines("broken.cl:3:9: error", s) == "broken.cl:3:9: error");  // already mapped
}

namespace {

// The test's own view of fd 2 (not the library's StderrCapture, which the
// build under test takes itself).
std::string stderr_of(const std::function<void()>& work) {
  std::fflush(stderr);
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  const int saved = ::dup(2);
  ::dup2(::fileno(file), 2);
  work();
  std::fflush(stderr);
  std::cerr.flush();
  ::dup2(saved, 2);
  ::close(saved);
  std::rewind(file);
  std::string text;
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, file)) > 0;) text.append(buf, got);
  std::fclose(file);
  return text;
}

}  // namespace

TEST_CASE("the compiler's own stderr summary is shown only with PORTACL_VERBOSE", "[loading]") {
  // Catch2 v2 has no SKIP: on other devices there is nothing to take aside.
  if (!quirk("pocl.compiler-writes-stderr").applies(test::cpu_context().info())) return;
  const std::string dir = test::scratch_dir("compiler-stderr");
  ContextOptions opt;
  opt.kernels = KernelLibrary({dir}, true);
  opt.cache_directory = "";  // every build compiles
  for (const bool verbose : {false, true}) {
    INFO("PORTACL_VERBOSE " << verbose);
    // A fresh source each time, so the in-memory cache cannot answer.
    const std::string name = std::string("warns_") + (verbose ? "v" : "q") + ".cl";
    test::write_file(dir + "/" + name,
                     "#include \"portacl_common.cl\"\n#warning portacl-test-warning\n"
                     "__kernel void warns(__global T* x) { x[get_global_id(0)] = (T)1; }\n");
    if (verbose) ::setenv("PORTACL_VERBOSE", "1", 1);
    Context ctx(test::cpu_context().device(), opt);
    const std::string printed = stderr_of([&] {
      ctx.prepare(KernelRef{name, "warns", {}}, axpy_traits(ElementType::f32), ProblemSize(10));
    });
    ::unsetenv("PORTACL_VERBOSE");
    if (verbose)
      CHECK_THAT(printed, Catch::Contains("warning generated"));
    else
      CHECK_THAT(printed, !Catch::Contains("generated"));
  }
}
