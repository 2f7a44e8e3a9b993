// SPDX-License-Identifier: Apache-2.0
// Operands that share memory: every operation that reads one operand while
// writing another refuses them before any launch, whether they are the same
// Buffer, two Buffers wrapping one cl_mem, or overlapping sub-buffers of
// one parent; disjoint parts of one buffer pass and give the right answer;
// element-wise operations run in place and refuse a shifted overlap.
#include <catch2/catch.hpp>

#include <vector>

#include "portacl/vectors.hpp"
#include "portacl/stencil.hpp"
#include "portacl/blas.hpp"
#include "portacl/ml.hpp"
#include "portacl/particles.hpp"
#include "portacl/sparse.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

// A parent of 4 blocks and sub-buffers of `blocks` blocks from block
// `first`; a block is 128 floats (512 bytes), a multiple of every device's
// base-address alignment.
constexpr std::size_t kBlock = 128;

struct Parent {
  explicit Parent(Context& ctx) : memory(ctx.cl_context(), CL_MEM_READ_WRITE, 4 * kBlock * sizeof(float)) {}
  Buffer<float> part(Context& ctx, std::size_t first, std::size_t blocks) {
    cl_buffer_region region{first * kBlock * sizeof(float), blocks * kBlock * sizeof(float)};
    cl_int err = CL_SUCCESS;
    cl_mem sub = clCreateSubBuffer(memory(), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    REQUIRE(err == CL_SUCCESS);
    return Buffer<float>(ctx, cl::Buffer(sub, false), blocks * kBlock);
  }
  cl::Buffer memory;
};

// The permutation matrix [[0, 1], [1, 0]]: y = A x swaps x's two elements.
template <class T>
SparseMatrix<T> swap_matrix(Context& ctx) {
  CooEntries e;
  e.rows = e.cols = 2;
  e.row = {0, 1};
  e.col = {1, 0};
  e.value = {1.0, 1.0};
  return SparseMatrix<T>(ctx, csr_from_entries<T>(e));
}

}  // namespace

TEMPLATE_TEST_CASE("SpMV refuses x and y in the same memory for every method; distinct buffers give A x", "[aliasing]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const SparseMatrix<T> a = swap_matrix<T>(ctx);
  Buffer<T> xy(ctx, std::vector<T>{1, 2});
  Buffer<T> handle = Buffer<T>::wrap(ctx, xy.cl_buffer()(), 2);  // a second Buffer on the same cl_mem
  std::vector<std::optional<SpmvMethod>> methods{std::nullopt};
  for (const SpmvMethod& m : spmv_methods()) methods.push_back(m);
  for (const auto& m : methods) {
    INFO("method " << (m ? m->name() : "automatic"));
    auto call = [&](const Buffer<T>& x, Buffer<T>& y) {
      return m ? spmv(ctx, T(1), a, x, T(0), y, *m) : spmv(ctx, T(1), a, x, T(0), y);
    };
    CHECK_THROWS_WITH(call(xy, xy), Catch::Contains("spmv: y and x share the same memory"));
    CHECK_THROWS_WITH(call(xy, handle), Catch::Contains("spmv: y and x share the same memory"));
    CHECK(xy.download() == std::vector<T>{1, 2});  // refused before any launch
    Buffer<T> y(ctx, std::vector<T>{std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN()});
    call(xy, y);
    CHECK(y.download() == std::vector<T>{2, 1});
  }
}

TEST_CASE("SpMV refuses overlapping sub-buffers and takes disjoint ones of one parent", "[aliasing]") {
  Context& ctx = test::cpu_context();
  CooEntries e;
  e.rows = e.cols = 2 * kBlock;
  for (std::uint32_t i = 0; i < e.rows; ++i) {  // the reversal permutation
    e.row.push_back(i);
    e.col.push_back(static_cast<std::uint32_t>(e.rows - 1 - i));
    e.value.push_back(1.0);
  }
  const SparseMatrix<float> a(ctx, csr_from_entries<float>(e));
  Parent parent(ctx);
  Buffer<float> x = parent.part(ctx, 0, 2), shifted = parent.part(ctx, 1, 2), disjoint = parent.part(ctx, 2, 2);
  CHECK_THROWS_WITH(spmv(ctx, 1.0f, a, x, 0.0f, shifted), Catch::Contains("y and x share overlapping memory"));
  const std::vector<float> x0 = test::random_vector<float>(2 * kBlock);
  x.upload(x0);
  spmv(ctx, 1.0f, a, x, 0.0f, disjoint);
  const std::vector<float> got = disjoint.download();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) bad += got[i] != x0[got.size() - 1 - i];
  CHECK(bad == 0);
}

TEST_CASE("CG and BiCGStab refuse b and x in the same memory", "[aliasing]") {
  Context& ctx = test::cpu_context();
  const SparseMatrix<double> a = swap_matrix<double>(ctx);
  Buffer<double> bx(ctx, std::vector<double>{1, 2});
  Buffer<double> handle = Buffer<double>::wrap(ctx, bx.cl_buffer()(), 2);
  CHECK_THROWS_WITH(cg(ctx, a, bx, bx), Catch::Contains("cg: x and b share the same memory"));
  CHECK_THROWS_WITH(bicgstab(ctx, a, handle, bx), Catch::Contains("bicgstab: x and b share the same memory"));
}

TEST_CASE("GEMV, packed SpMV and GEMM refuse outputs that overlap their inputs; disjoint ranges of one buffer pass",
          "[aliasing]") {
  Context& ctx = test::cpu_context();
  using V = VectorRef<float>;
  using M = MatrixRef<float>;
  // y = A x with A = 2 I (3 x 3) at the start of one buffer, x and y after it.
  std::vector<float> host(9 + 3 + 3, 0.0f);
  for (int i = 0; i < 3; ++i) host[i * 3 + i] = 2.0f;
  host[9] = 1, host[10] = 2, host[11] = 3;
  Buffer<float> one(ctx, host);
  gemv(ctx, Layout::row_major, Transpose::no, 3, 3, 1.0f, M{one, 0, 3}, V{one, 9, 1}, 0.0f, one, 12, 1);
  const std::vector<float> got = one.download();
  CHECK(std::vector<float>(got.begin() + 12, got.end()) == std::vector<float>{2, 4, 6});
  CHECK_THROWS_WITH(
      gemv(ctx, Layout::row_major, Transpose::no, 3, 3, 1.0f, M{one, 0, 3}, V{one, 9, 1}, 0.0f, one, 10, 1),
      Catch::Contains("gemv: y and x share overlapping memory"));
  CHECK_THROWS_WITH(
      gemv(ctx, Layout::row_major, Transpose::no, 3, 3, 1.0f, M{one, 0, 3}, V{one, 9, 1}, 0.0f, one, 6, 1),
      Catch::Contains("gemv: y and A share overlapping memory"));
  // TRSV: x inside L's rows, refused; after them in the same buffer, solved.
  CHECK_THROWS_WITH(trsv(ctx, Layout::row_major, 3, M{one, 0, 3}, one, 4, 1),
                    Catch::Contains("trsv: x and L share overlapping memory"));
  trsv(ctx, Layout::row_major, 3, M{one, 0, 3}, one, 9, 1);  // 2 x = (1, 2, 3)
  const std::vector<float> solved = one.download();
  CHECK(std::vector<float>(solved.begin() + 9, solved.begin() + 12) == std::vector<float>{0.5f, 1, 1.5f});
  // Packed symmetric: x and y the same vector.
  Buffer<float> ap(ctx, std::vector<float>{0, 1, 0}), xy(ctx, std::vector<float>{1, 2});
  CHECK_THROWS_WITH(packed_symv(ctx, 2, 1.0f, ap, 0, V{xy, 0, 1}, 0.0f, xy, 0, 1),
                    Catch::Contains("packed_symv: y and x share the same memory"));
  // GEMM: C on A, and C on a handle to B.
  Buffer<float> a(ctx, std::vector<float>(4, 1.0f)), b(ctx, std::vector<float>(4, 1.0f));
  Buffer<float> b_handle = Buffer<float>::wrap(ctx, b.cl_buffer()(), 4);
  CHECK_THROWS_WITH(
      gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, 2, 2, 2, 1.0f, M{a, 0, 2}, M{b, 0, 2}, 0.0f, a, 0, 2),
      Catch::Contains("gemm: C and A share the same memory"));
  CHECK_THROWS_WITH(gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, 2, 2, 2, 1.0f, M{a, 0, 2}, M{b, 0, 2},
                         0.0f, b_handle, 0, 2),
                    Catch::Contains("gemm: C and B share the same memory"));
}

TEST_CASE("Stencils, convolution and compaction refuse an output on a sub-buffer of the input", "[aliasing]") {
  Context& ctx = test::cpu_context();
  Parent parent(ctx);
  Buffer<float> in = parent.part(ctx, 0, 2), out = parent.part(ctx, 1, 2);
  in.upload(test::random_vector<float>(2 * kBlock));
  ConvolutionMask<float> mask(ctx, std::vector<float>(9, 1.0f / 9), 3, 3);
  CHECK_THROWS_WITH(convolve2d(ctx, in, 16, 16, mask, out),
                    Catch::Contains("convolution: out and in share overlapping memory"));
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, {8, 8, 4}, std::vector<float>{0.5f, 0.125f}, out),
                    Catch::Contains("stencil3d: out and in share overlapping memory"));
  CHECK_THROWS_WITH(compact(ctx, "x > 1.0f", in, out), Catch::Contains("compact: y and x share overlapping memory"));
  Buffer<float> handle = Buffer<float>::wrap(ctx, in.cl_buffer()(), 2 * kBlock);
  CHECK_THROWS_WITH(compact(ctx, "x > 1.0f", in, handle), Catch::Contains("compact: y and x share the same memory"));
}

TEST_CASE("Element-wise operations run in place and refuse a shifted overlap", "[aliasing]") {
  Context& ctx = test::cpu_context();
  Parent parent(ctx);
  Buffer<float> x = parent.part(ctx, 0, 2), shifted = parent.part(ctx, 1, 2);
  const std::vector<float> x0 = test::random_vector<float>(2 * kBlock);
  x.upload(x0);
  Buffer<float> same = Buffer<float>::wrap(ctx, x.cl_buffer()(), 2 * kBlock);
  axpy(ctx, 2.0f, same, x);  // x = 2 x + x
  std::vector<float> want(x0.size());
  for (std::size_t i = 0; i < x0.size(); ++i) want[i] = 3.0f * x0[i];
  CHECK(test::first_difference(x.download(), want) == "equal");
  inclusive_scan(ctx, x, x);  // in place, as scan.hpp allows
  CHECK_THROWS_WITH(axpy(ctx, 2.0f, x, shifted), Catch::Contains("axpy: y and x overlap at different offsets"));
  CHECK_THROWS_WITH(copy(ctx, x, shifted), Catch::Contains("copy: y and x overlap at different offsets"));
  CHECK_THROWS_WITH(map(ctx, "x + (T)1", shifted, x), Catch::Contains("map: y and x overlap at different offsets"));
  CHECK_THROWS_WITH(inclusive_scan(ctx, x, shifted),
                    Catch::Contains("inclusive_scan: y and x overlap at different offsets"));
}

TEST_CASE("Molecular dynamics and the small network refuse operands in the same memory", "[aliasing]") {
  // LennardJonesMd once ran a nonsense trajectory with one buffer as
  // positions and velocities (kinetic energy 1445 after 10 steps from rest).
  Context& ctx = test::cpu_context();
  LennardJones lj;
  lj.cutoff = 2.5f;
  MdOptions o;
  o.dt = 0.005f;
  const PeriodicBox box{8, 8, 8};
  Buffer<float> both(ctx, std::vector<float>{1, 1, 1, 0, 3, 3, 3, 0});
  CHECK_THROWS_WITH(LennardJonesMd(ctx, both, both, box, lj, o),
                    Catch::Contains("LennardJonesMd: velocities and positions share the same memory"));
  Buffer<float> handle = Buffer<float>::wrap(ctx, both.cl_buffer()(), 8);
  CHECK_THROWS_WITH(LennardJonesMd(ctx, both, handle, box, lj, o),
                    Catch::Contains("LennardJonesMd: velocities and positions share the same memory"));
  Parent parent(ctx);
  Buffer<float> p = parent.part(ctx, 0, 2), v = parent.part(ctx, 1, 2);
  CHECK_THROWS_WITH(LennardJonesMd(ctx, p, v, box, lj, o), Catch::Contains("share overlapping memory"));
  SmallCnnShape shape;
  SmallCnn net(ctx, shape, 7);
  Buffer<float> images(ctx, test::random_vector<float>(2 * 64)), logits(ctx, 2 * 4);
  CHECK_THROWS_WITH(net.forward(images, 2, images), Catch::Contains("SmallCnn::forward: logits and images share"));
  CHECK_THROWS_WITH(net.forward(images, 2, net.parameters()),
                    Catch::Contains("SmallCnn::forward: logits and the network's parameters share"));
  net.forward(images, 2, logits);  // distinct buffers pass
}
