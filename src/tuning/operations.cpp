// SPDX-License-Identifier: Apache-2.0
#include "operations.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>

#include "family.hpp"
#include "portacl/error.hpp"

namespace portacl {

Workload::Workload(Context& c, std::size_t size, unsigned long long seed)
    : ctx(c), n(size), x(c, size), y(c, size), z(c, size), hx(size), hy(size) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto& v : hx) v = d(rng);
  for (auto& v : hy) v = d(rng);
  x.upload(hx);
  y.upload(hy);
  cl_int err = CL_SUCCESS;
  scalar = cl::Buffer(c.cl_context(), CL_MEM_READ_WRITE, 16, nullptr, &err);
  check_cl(err, "clCreateBuffer(workload scalar)");
}

void Workload::poison_z() { z.upload(std::vector<float>(n, std::numeric_limits<float>::quiet_NaN())); }

void Workload::zero_z() { z.upload(std::vector<float>(n, 0.0f)); }

void Workload::finish() { check_cl(ctx.queue().finish(), "clFinish(workload)"); }

std::size_t square_order(std::size_t n) {
  std::size_t s = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
  while (s * s > n) --s;
  while ((s + 1) * (s + 1) <= n) ++s;
  return s;
}

namespace {
std::vector<std::uint32_t> bits_of(const std::vector<float>& v) {
  std::vector<std::uint32_t> out(v.size());
  if (!v.empty()) std::memcpy(out.data(), v.data(), v.size() * sizeof(float));
  return out;
}
}  // namespace

Uint32Case::Uint32Case(Workload& w)
    : hx(bits_of(w.hx)), hy(bits_of(w.hy)), x(w.ctx, hx), y(w.ctx, hy), z(w.ctx, hx.size()) {}

void Uint32Case::poison_z() { z.upload(std::vector<std::uint32_t>(hx.size(), 0x5a5a5a5au)); }

Uint32Case& uint32_case(Workload& w) {
  auto& slot = w.derived["uint32"];
  if (!slot) slot = std::make_shared<Uint32Case>(w);
  return *std::static_pointer_cast<Uint32Case>(slot);
}

std::size_t packed_order(std::size_t n) {
  std::size_t s = static_cast<std::size_t>((std::sqrt(8.0 * static_cast<double>(n) + 1) - 1) / 2);
  while (s * (s + 1) / 2 > n) --s;
  while ((s + 1) * (s + 2) / 2 <= n) ++s;
  return s;
}

const Buffer<float>& Workload::lower_triangular() {
  if (!lower_) {
    const std::size_t s = square_order(n);
    host_lower.assign(s * s, 0.0f);
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j <= i; ++j)
        host_lower[i * s + j] = i == j ? 2.0f + std::fabs(hx[i * s + j]) : hx[i * s + j] / float(s);
    lower_.emplace(ctx, host_lower);
  }
  return *lower_;
}

Operation make_operation(BufferOperation b) {
  Operation op{b.name,
               b.bytes_per_element,
               b.flops_per_element,
               b.space,
               b.run,
               [run = b.run, prepare = b.prepare, verify = b.verify](Workload& w, const PlanOptions& o) {
                 w.reset_y();  // checks stand alone: earlier runs may have changed y
                 if (prepare) prepare(w);
                 run(w, o);
                 return verify(w);
               }};
  if (!b.baseline_routine.empty())
    op.baseline = Baseline{b.baseline_routine, b.baseline_run,
                           [run = b.baseline_run, prepare = b.baseline_prepare ? b.baseline_prepare : b.prepare,
                            verify = b.verify](Workload& w) {
                             w.reset_y();
                             if (prepare) prepare(w);
                             run(w);
                             w.finish();
                             return verify(w);
                           }};
  return op;
}

const std::vector<Operation>& operations() {
  static const std::vector<Operation> ops = [] {
    std::vector<Operation> all;
    for (const Family& family : families())
      if (family.operations)
        for (Operation& op : family.operations()) all.push_back(std::move(op));
    return all;
  }();
  return ops;
}

const Operation& operation(const std::string& name) {
  std::string names;
  for (const auto& op : operations()) {
    if (op.name == name || op.name.substr(0, op.name.find(' ')) == name) return op;
    names += (names.empty() ? "" : ", ") + op.name.substr(0, op.name.find(' '));
  }
  throw Error("no operation '" + name + "'; there are: " + names);
}

}  // namespace portacl
