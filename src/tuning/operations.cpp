#include "operations.hpp"

#include <cmath>
#include <random>
#include <sstream>

#include "portacl/error.hpp"
#include "portacl/kernels/axpy.hpp"
#include "portacl/kernels/gemm.hpp"
#include "portacl/kernels/reduce.hpp"
#include "portacl/kernels/scan.hpp"
#include "portacl/kernels/stream.hpp"
#include "matrix_operations.hpp"

namespace portacl {

Workload::Workload(Context& c, std::size_t size, unsigned long long seed)
    : ctx(c), n(size), hx(size), hy(size), x(c, size), y(c, size), z(c, size) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto& v : hx) v = d(rng);
  for (auto& v : hy) v = d(rng);
  x.upload(hx);
  y.upload(hy);
}

namespace {

constexpr float kA = operation_a, kB = operation_b;
using Options = const PlanOptions&;

std::string mismatch(const char* what, double got, double want, double tol) {
  if (std::fabs(got - want) <= tol) return "";
  std::ostringstream s;
  s << what << ": got " << got << ", want " << want << " (tolerance " << tol << ")";
  return s.str();
}

// Element-wise result against a double reference, errors scaled by `scale`.
template <class Ref, class Scale>
std::string elementwise(const std::vector<float>& out, Ref ref, Scale scale, double ulps) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    double want = ref(i), err = std::fabs(out[i] - want);
    if (!(err <= ulps * 1.2e-7 * scale(i) + 1e-30)) {
      std::string m = mismatch("element", out[i], want, ulps * 1.2e-7 * scale(i));
      return "index " + std::to_string(i) + ": " + m;
    }
  }
  return "";
}

template <class F>
double host_sum(const std::vector<float>& v, F f) {
  double s = 0;
  for (float e : v) s += f(e);
  return s;
}

// Scalar reductions: absolute tolerance from the sum of |terms|.
double reduction_tol(double abs_sum) { return 1e-5 * abs_sum + 1e-6; }

// A reduction operation: `call` runs it and returns its value; `want` and
// `tol` are the reference.
template <class Call, class Want, class Tol>
Operation reduction(const char* name, double bytes, double flops, Call call, Want want, Tol tol) {
  return Operation{
      name,
      bytes,
      flops,
      &reduce_tunables(),
      [call](Workload& w, Options o) {
        LaunchPlan p;
        call(w, o, &p);
        return p;
      },
      [=](Workload& w, Options o) { return mismatch(name, double(call(w, o, nullptr)), want(w), tol(w)); }};
}

double host_dot(const Workload& w, bool absolute) {
  double s = 0;
  for (std::size_t i = 0; i < w.n; ++i) {
    double t = double(w.hx[i]) * w.hy[i];
    s += absolute ? std::fabs(t) : t;
  }
  return s;
}

std::string scan_check(Workload& w, bool inclusive) {
  std::vector<float> out = w.z.download();
  double run = 0, mag = 0;
  for (std::size_t i = 0; i < w.n; ++i) {
    double want = inclusive ? run + w.hx[i] : run;
    if (std::fabs(out[i] - want) > 1e-5 * (mag + std::fabs(w.hx[i])) + 1e-6)
      return "index " + std::to_string(i) + ": " +
             mismatch("scan element", out[i], want, 1e-5 * (mag + std::fabs(w.hx[i])));
    run += w.hx[i];
    mag += std::fabs(w.hx[i]);
  }
  return "";
}

// C = A B on the workload's buffers as square row-major matrices of order
// floor(sqrt(n)); 64 random entries of C against a double dot product.
Operation gemm_operation() {
  auto order = [](const Workload& w) { return square_order(w.n); };
  auto run = [order](Workload& w, Options o) {
    const std::size_t n = order(w);
    return gemm(w.ctx, Layout::row_major, Transpose::no, Transpose::no, n, n, n, 1.0f, MatrixRef<float>{w.x, 0, n},
                MatrixRef<float>{w.y, 0, n}, 0.0f, w.z, 0, n, o);
  };
  auto check = [order, run](Workload& w, Options o) -> std::string {
    w.z.upload(std::vector<float>(w.n, NAN));
    run(w, o);
    const std::size_t n = order(w);
    const std::vector<float> c = w.z.download();
    std::mt19937_64 rng(w.n);
    std::uniform_int_distribution<std::size_t> pick(0, n ? n - 1 : 0);
    for (int s = 0; s < 64 && n; ++s) {
      const std::size_t i = pick(rng), j = pick(rng);
      double want = 0, mag = 0;
      for (std::size_t p = 0; p < n; ++p) {
        want += double(w.hx[i * n + p]) * w.hy[p * n + j];
        mag += std::fabs(double(w.hx[i * n + p]) * w.hy[p * n + j]);
      }
      std::string m = mismatch("gemm C entry", c[i * n + j], want, 2 * (n + 2) * 1.2e-7 * mag + 1e-30);
      if (!m.empty()) return "(" + std::to_string(i) + "," + std::to_string(j) + ") " + m;
    }
    return "";
  };
  Operation op{"gemm", 12, 0, &gemm_tunables(), run, check};
  op.streaming = false;
  return op;
}

std::vector<Operation> make_operations() {
  std::vector<Operation> ops;
  const TuningSpace* stream = &stream_tunables();
  auto abs_d = [](double v) { return std::fabs(v); };
  auto id = [](double v) { return v; };

  ops.push_back({"copy", 8, 0, stream, [](Workload& w, Options o) { return copy(w.ctx, w.x, w.z, o); },
                 [](Workload& w, Options o) {
                   w.z.upload(std::vector<float>(w.n, NAN));
                   copy(w.ctx, w.x, w.z, o);
                   return w.z.download() == w.hx ? std::string() : std::string("copy differs");
                 }});
  ops.push_back({"fill", 4, 0, stream, [](Workload& w, Options o) { return fill(w.ctx, w.z, kA, o); },
                 [](Workload& w, Options o) {
                   w.z.upload(std::vector<float>(w.n, NAN));
                   fill(w.ctx, w.z, kA, o);
                   return w.z.download() == std::vector<float>(w.n, kA) ? std::string() : std::string("fill differs");
                 }});
  ops.push_back({"scale", 8, 1, stream, [](Workload& w, Options o) { return scale(w.ctx, kA, w.y, o); },
                 [](Workload& w, Options o) {
                   w.reset_y();
                   scale(w.ctx, kA, w.y, o);
                   return elementwise(
                       w.y.download(), [&](std::size_t i) { return double(kA) * w.hy[i]; },
                       [&](std::size_t i) { return std::fabs(double(kA) * w.hy[i]); }, 1);
                 }});
  ops.push_back({"axpy", 12, 2, stream, [](Workload& w, Options o) { return axpy(w.ctx, kA, w.x, w.y, o); },
                 [](Workload& w, Options o) {
                   w.reset_y();
                   axpy(w.ctx, kA, w.x, w.y, o);
                   return elementwise(
                       w.y.download(), [&](std::size_t i) { return double(kA) * w.hx[i] + w.hy[i]; },
                       [&](std::size_t i) { return std::fabs(double(kA) * w.hx[i]) + std::fabs(w.hy[i]); }, 2);
                 }});
  ops.push_back({"axpby", 12, 3, stream, [](Workload& w, Options o) { return axpby(w.ctx, kA, w.x, kB, w.y, o); },
                 [](Workload& w, Options o) {
                   w.reset_y();
                   axpby(w.ctx, kA, w.x, kB, w.y, o);
                   return elementwise(
                       w.y.download(), [&](std::size_t i) { return double(kA) * w.hx[i] + double(kB) * w.hy[i]; },
                       [&](std::size_t i) { return std::fabs(double(kA) * w.hx[i]) + std::fabs(double(kB) * w.hy[i]); },
                       3);
                 }});
  ops.push_back({"map x*x+1", 8, 2, stream,
                 [](Workload& w, Options o) { return map(w.ctx, "x * x + 1.0f", w.x, w.z, o); },
                 [](Workload& w, Options o) {
                   w.z.upload(std::vector<float>(w.n, NAN));
                   map(w.ctx, "x * x + 1.0f", w.x, w.z, o);
                   return elementwise(
                       w.z.download(), [&](std::size_t i) { return double(w.hx[i]) * w.hx[i] + 1; },
                       [&](std::size_t i) { return double(w.hx[i]) * w.hx[i] + 1; }, 2);
                 }});
  ops.push_back(reduction(
      "sum", 4, 1, [](Workload& w, Options o, LaunchPlan* p) { return sum(w.ctx, w.x, o, p); },
      [=](Workload& w) { return host_sum(w.hx, id); },
      [=](Workload& w) { return reduction_tol(host_sum(w.hx, abs_d)); }));
  ops.push_back(reduction(
      "dot", 8, 2, [](Workload& w, Options o, LaunchPlan* p) { return dot(w.ctx, w.x, w.y, o, p); },
      [](Workload& w) { return host_dot(w, false); }, [](Workload& w) { return reduction_tol(host_dot(w, true)); }));
  auto norm = [](Workload& w) { return std::sqrt(host_sum(w.hx, [](double v) { return v * v; })); };
  ops.push_back(reduction(
      "nrm2", 4, 2, [](Workload& w, Options o, LaunchPlan* p) { return nrm2(w.ctx, w.x, o, p); }, norm,
      [=](Workload& w) { return 1e-5 * norm(w); }));
  ops.push_back(reduction(
      "max", 4, 1, [](Workload& w, Options o, LaunchPlan* p) { return max(w.ctx, w.x, o, p); },
      [](Workload& w) { return double(w.hx[first_extreme(w.hx, false)]); }, [](Workload&) { return 0.0; }));
  ops.push_back(reduction(
      "argmax", 4, 1, [](Workload& w, Options o, LaunchPlan* p) { return double(argmax(w.ctx, w.x, o, p).index); },
      [](Workload& w) { return double(first_extreme(w.hx, false)); }, [](Workload&) { return 0.0; }));
  ops.push_back(reduction(
      "iamax", 4, 1, [](Workload& w, Options o, LaunchPlan* p) { return double(iamax(w.ctx, w.x, o, p).index); },
      [](Workload& w) { return double(first_extreme(w.hx, true)); }, [](Workload&) { return 0.0; }));
  ops.push_back(reduction(
      "count_if x>0.5", 4, 1,
      [](Workload& w, Options o, LaunchPlan* p) { return double(count_if(w.ctx, "x > 0.5f", w.x, o, p)); },
      [](Workload& w) { return host_sum(w.hx, [](double v) { return v > 0.5 ? 1.0 : 0.0; }); },
      [](Workload&) { return 0.0; }));
  for (bool inclusive : {true, false}) {
    auto scan = [inclusive](Workload& w, Options o) {
      return inclusive ? inclusive_scan(w.ctx, w.x, w.z, o) : exclusive_scan(w.ctx, w.x, w.z, o);
    };
    ops.push_back(
        {inclusive ? "inclusive_scan" : "exclusive_scan", 8, 1, &scan_tunables(), scan, [=](Workload& w, Options o) {
           w.z.upload(std::vector<float>(w.n, NAN));
           scan(w, o);
           return scan_check(w, inclusive);
         }});
  }
  // Compaction reads n and writes what it keeps (a quarter here).
  ops.push_back({"compact x>0.5", 5, 1, &scan_tunables(),
                 [](Workload& w, Options o) {
                   LaunchPlan p;
                   compact(w.ctx, "x > 0.5f", w.x, w.z, o, &p);
                   return p;
                 },
                 [](Workload& w, Options o) {
                   w.z.upload(std::vector<float>(w.n, NAN));
                   std::size_t k = compact(w.ctx, "x > 0.5f", w.x, w.z, o);
                   std::vector<float> want, got = w.z.download();
                   for (float v : w.hx)
                     if (v > 0.5f) want.push_back(v);
                   got.resize(k);
                   return got == want ? std::string() : std::string("compaction differs");
                 }});
  ops.push_back(gemm_operation());
  for (Operation& op : matrix_vector_operations()) ops.push_back(std::move(op));
  return ops;
}

}  // namespace

std::size_t first_extreme(const std::vector<float>& v, bool absolute) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    double a = absolute ? std::fabs(v[i]) : v[i], b = absolute ? std::fabs(v[best]) : v[best];
    if (a > b) best = i;
  }
  return best;
}

const std::vector<Operation>& operations() {
  static const std::vector<Operation> ops = make_operations();
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
