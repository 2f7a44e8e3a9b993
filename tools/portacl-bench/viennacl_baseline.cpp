// SPDX-License-Identifier: Apache-2.0
#include "viennacl_baseline.hpp"

#include <limits>
#include <memory>

#include "tuning/sparse_cases.hpp"
#include "tuning/sparse_reference.hpp"

#ifdef PORTACL_HAVE_VIENNACL
#define VIENNACL_WITH_OPENCL
#include <viennacl/compressed_matrix.hpp>
#include <viennacl/linalg/cg.hpp>
#include <viennacl/linalg/prod.hpp>
#include <viennacl/vector.hpp>
#endif

namespace bench {

#ifdef PORTACL_HAVE_VIENNACL
namespace {

using portacl::HostCsr;

struct Viennacl {
  Viennacl(const HostCsr<float>& a, const std::vector<float>& x) : a_(a.rows, a.cols, a.nnz()), x_(a.cols), y_(a.rows) {
    const std::vector<cl_uint> row_ptr(a.row_ptr.begin(), a.row_ptr.end());
    a_.set(row_ptr.data(), a.col.data(), a.value.data(), a.rows, a.cols, a.nnz());
    viennacl::copy(x.begin(), x.end(), x_.begin());
    viennacl::backend::finish();
  }
  // One product, enqueued (the caller waits).
  void product() { y_ = viennacl::linalg::prod(a_, x_); }
  std::vector<float> y() {
    std::vector<float> out(y_.size());
    viennacl::copy(y_.begin(), y_.end(), out.begin());
    return out;
  }
  // CG from x = 0 for exactly `iterations` iterations on b = x.
  void cg(std::size_t iterations) {
    // A tolerance no iteration reaches: exactly `iterations` iterations.
    viennacl::linalg::cg_tag tag(1e-30, static_cast<unsigned int>(iterations));
    viennacl::vector<float> solution = viennacl::linalg::solve(a_, x_, tag);
    iterations_ = tag.iters();
  }
  std::size_t iterations_ = 0;
  viennacl::compressed_matrix<float> a_;
  viennacl::vector<float> x_, y_;
};

// ViennaCL's context 0 becomes portacl's context and queue (once: later
// matrices reuse it).
void share_context(portacl::Context& ctx) {
  static bool ready = false;
  if (ready) return;
  viennacl::ocl::setup_context(0, ctx.cl_context()(), std::vector<cl_device_id>{ctx.device().cl_device()()},
                               std::vector<cl_command_queue>{ctx.queue()()});
  viennacl::ocl::switch_context(0);
  ready = true;
}

}  // namespace

std::string viennacl_missing() { return ""; }

void attach_viennacl(portacl::Context& ctx, portacl::BenchCase& c) {
  const portacl::SparseCaseInput in = portacl::sparse_case_input(c);
  share_context(ctx);
  auto v = std::make_shared<Viennacl>(*in.matrix, *in.x);
  if (in.operation == portacl::SparseCaseInput::Operation::product) {
    c.baseline = portacl::BenchBaseline{
        "ViennaCL prod", [v] { v->product(); },
        [v, in] {
          v->y_ = viennacl::scalar_vector<float>(in.matrix->rows, std::numeric_limits<float>::quiet_NaN());
          v->product();
          namespace ref = portacl::reference;
          return ref::compare(v->y(), ref::csr_product(*in.matrix, *in.x),
                              ref::dot_bound<float>(std::max<std::size_t>(1, ref::longest_row(*in.matrix))) /
                                  std::numeric_limits<float>::epsilon());
        },
        10};
  } else {
    const std::size_t iterations = c.iterations;
    c.baseline = portacl::BenchBaseline{"ViennaCL cg", [v, iterations] { v->cg(iterations); },
                                        [v, iterations]() -> std::string {
                                          v->cg(iterations);
                                          if (v->iterations_ == iterations) return "";
                                          return "stopped after " + std::to_string(v->iterations_) + " iterations";
                                        }};
  }
}
#else
std::string viennacl_missing() { return "portacl-bench was built without ViennaCL (libviennacl-dev)"; }

void attach_viennacl(portacl::Context&, portacl::BenchCase&) {}
#endif

}  // namespace bench
