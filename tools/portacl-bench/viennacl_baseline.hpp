// SPDX-License-Identifier: Apache-2.0
// ViennaCL's CSR SpMV and CG on portacl's own OpenCL context and queue,
// called as ViennaCL's users call them: the baseline of the sparse section.
// Built only where ViennaCL's headers are installed (libviennacl-dev);
// elsewhere available() says so and nothing else is called.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "portacl/kernels/sparse/host_csr.hpp"
#include "portacl/runtime/context.hpp"

namespace bench {

class ViennaclSparse {
 public:
  virtual ~ViennaclSparse() = default;
  // y = A x `times` times back to back (the matrix and x already on the
  // device); returns when all are done.
  virtual void spmv(int times = 1) = 0;
  virtual std::vector<float> y() = 0;
  // CG from x = 0 for exactly `iterations` iterations on b; returns when done.
  virtual void cg(std::size_t iterations) = 0;
};

// "" when ViennaCL was built in, else why not.
std::string viennacl_missing();
// ViennaCL set up on ctx's context and queue, holding `a` and `x` (and b = x
// for CG). Call only when viennacl_missing() is "".
std::unique_ptr<ViennaclSparse> viennacl_sparse(portacl::Context& ctx, const portacl::HostCsr<float>& a,
                                                const std::vector<float>& x);

}  // namespace bench
