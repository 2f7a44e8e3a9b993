// SPDX-License-Identifier: Apache-2.0
#include "viennacl_baseline.hpp"

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

class Viennacl final : public ViennaclSparse {
 public:
  Viennacl(portacl::Context& ctx, const portacl::HostCsr<float>& a, const std::vector<float>& x)
      : a_(a.rows, a.cols, a.nnz()), x_(a.cols), y_(a.rows) {
    const std::vector<cl_uint> row_ptr(a.row_ptr.begin(), a.row_ptr.end());
    a_.set(row_ptr.data(), a.col.data(), a.value.data(), a.rows, a.cols, a.nnz());
    viennacl::copy(x.begin(), x.end(), x_.begin());
    viennacl::backend::finish();
    (void)ctx;
  }
  void spmv(int times) override {
    for (int k = 0; k < times; ++k) y_ = viennacl::linalg::prod(a_, x_);
    viennacl::backend::finish();
  }
  std::vector<float> y() override {
    std::vector<float> out(y_.size());
    viennacl::copy(y_.begin(), y_.end(), out.begin());
    return out;
  }
  void cg(std::size_t iterations) override {
    // A tolerance no iteration reaches: exactly `iterations` iterations.
    viennacl::linalg::cg_tag tag(1e-30, static_cast<unsigned int>(iterations));
    viennacl::vector<float> solution = viennacl::linalg::solve(a_, x_, tag);
    viennacl::backend::finish();
  }

 private:
  viennacl::compressed_matrix<float> a_;
  viennacl::vector<float> x_, y_;
};

}  // namespace

std::string viennacl_missing() { return ""; }

std::unique_ptr<ViennaclSparse> viennacl_sparse(portacl::Context& ctx, const portacl::HostCsr<float>& a,
                                                const std::vector<float>& x) {
  // ViennaCL's context 0 becomes portacl's context and queue (once: later
  // matrices reuse it).
  static bool ready = false;
  if (!ready) {
    viennacl::ocl::setup_context(0, ctx.cl_context()(), std::vector<cl_device_id>{ctx.device().cl_device()()},
                                 std::vector<cl_command_queue>{ctx.queue()()});
    viennacl::ocl::switch_context(0);
    ready = true;
  }
  return std::make_unique<Viennacl>(ctx, a, x);
}
#else
std::string viennacl_missing() { return "portacl-bench was built without ViennaCL (libviennacl-dev)"; }

std::unique_ptr<ViennaclSparse> viennacl_sparse(portacl::Context&, const portacl::HostCsr<float>&,
                                                const std::vector<float>&) {
  return nullptr;
}
#endif

}  // namespace bench
