#include "cases.hpp"

#include <clblast_c.h>

#include <cmath>
#include <random>
#include <sstream>

namespace bench {

using namespace portacl;

Workload::Workload(Context& c, std::size_t size, unsigned long long seed)
    : ctx(c), n(size), hx(size), hy(size), x(c, size), y(c, size), z(c, size) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto& v : hx) v = d(rng);
  for (auto& v : hy) v = d(rng);
  x.upload(hx);
  y.upload(hy);
  cl_int err = CL_SUCCESS;
  scalar = cl::Buffer(c.cl_context(), CL_MEM_READ_WRITE, 16, nullptr, &err);
  check_cl(err, "clCreateBuffer(bench scalar)");
}

namespace {

constexpr float kA = 0.75f, kB = -1.25f;

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
    if (!(err <= ulps * 1.2e-7 * scale(i) + 1e-30)) return mismatch("element", out[i], want, ulps * 1.2e-7 * scale(i));
  }
  return "";
}

double host_sum(const std::vector<float>& v, double (*f)(double)) {
  double s = 0;
  for (float e : v) s += f(e);
  return s;
}

float read_scalar_float(Workload& w) {
  float v = 0;
  check_cl(w.ctx.queue().enqueueReadBuffer(w.scalar, CL_TRUE, 0, sizeof v, &v), "read CLBlast result");
  return v;
}
unsigned read_scalar_index(Workload& w) {
  unsigned v = 0;
  check_cl(w.ctx.queue().enqueueReadBuffer(w.scalar, CL_TRUE, 0, sizeof v, &v), "read CLBlast result");
  return v;
}

void clblast_ok(CLBlastStatusCode s, const char* routine) {
  if (s != CLBlastSuccess) throw Error(std::string("CLBlast ") + routine + " failed with status " + std::to_string(s));
}

std::size_t first_index(const std::vector<float>& v, bool absolute) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    double a = absolute ? std::fabs(v[i]) : v[i], b = absolute ? std::fabs(v[best]) : v[best];
    if (a > b) best = i;
  }
  return best;
}

}  // namespace

std::vector<Case> all_cases(bool with_baseline) {
  std::vector<Case> c;
  auto q = [](Workload& w) { return &w.ctx.queue()(); };
  // Scalar reductions: absolute tolerance from the sum of |terms|.
  auto reduction_tol = [](double abs_sum) { return 1e-5 * abs_sum + 1e-6; };

  c.push_back({"copy", 8, 0, [](Workload& w) { return copy(w.ctx, w.x, w.z); },
               [](Workload& w) {
                 copy(w.ctx, w.x, w.z);
                 return w.z.download() == w.hx ? std::string() : std::string("copy differs");
               },
               "Scopy",
               [q](Workload& w) {
                 cl_event e = nullptr;
                 clblast_ok(CLBlastScopy(w.n, w.x.cl_buffer()(), 0, 1, w.z.cl_buffer()(), 0, 1, q(w), &e), "Scopy");
                 return e;
               },
               [](Workload& w) { return w.z.download() == w.hx ? std::string() : std::string("copy differs"); }});
  c.push_back({"fill", 4, 0, [](Workload& w) { return fill(w.ctx, w.z, kA); },
               [](Workload& w) {
                 fill(w.ctx, w.z, kA);
                 return w.z.download() == std::vector<float>(w.n, kA) ? std::string() : std::string("fill differs");
               },
               "", nullptr, nullptr});
  c.push_back({"scale", 8, 1,
               [](Workload& w) { return scale(w.ctx, kA, w.y); },
               [](Workload& w) {
                 w.reset_y();
                 scale(w.ctx, kA, w.y);
                 return elementwise(w.y.download(), [&](std::size_t i) { return double(kA) * w.hy[i]; },
                                    [&](std::size_t i) { return std::fabs(double(kA) * w.hy[i]); }, 1);
               },
               "Sscal",
               [q](Workload& w) {
                 cl_event e = nullptr;
                 clblast_ok(CLBlastSscal(w.n, kA, w.y.cl_buffer()(), 0, 1, q(w), &e), "Sscal");
                 return e;
               },
               nullptr});
  auto axpy_check = [](Workload& w) {
    return elementwise(w.y.download(), [&](std::size_t i) { return double(kA) * w.hx[i] + w.hy[i]; },
                       [&](std::size_t i) { return std::fabs(double(kA) * w.hx[i]) + std::fabs(w.hy[i]); }, 2);
  };
  c.push_back({"axpy", 12, 2, [](Workload& w) { return axpy(w.ctx, kA, w.x, w.y); },
               [axpy_check](Workload& w) {
                 w.reset_y();
                 axpy(w.ctx, kA, w.x, w.y);
                 return axpy_check(w);
               },
               "Saxpy",
               [q](Workload& w) {
                 cl_event e = nullptr;
                 clblast_ok(CLBlastSaxpy(w.n, kA, w.x.cl_buffer()(), 0, 1, w.y.cl_buffer()(), 0, 1, q(w), &e), "Saxpy");
                 return e;
               },
               [axpy_check](Workload& w) {
                 w.reset_y();
                 cl_event e = nullptr;
                 clblast_ok(CLBlastSaxpy(w.n, kA, w.x.cl_buffer()(), 0, 1, w.y.cl_buffer()(), 0, 1, &w.ctx.queue()(), &e),
                            "Saxpy");
                 clWaitForEvents(1, &e);
                 clReleaseEvent(e);
                 return axpy_check(w);
               }});
  c.push_back({"axpby", 12, 3, [](Workload& w) { return axpby(w.ctx, kA, w.x, kB, w.y); },
               [](Workload& w) {
                 w.reset_y();
                 axpby(w.ctx, kA, w.x, kB, w.y);
                 return elementwise(w.y.download(), [&](std::size_t i) { return double(kA) * w.hx[i] + double(kB) * w.hy[i]; },
                                    [&](std::size_t i) { return std::fabs(double(kA) * w.hx[i]) + std::fabs(double(kB) * w.hy[i]); }, 3);
               },
               "", nullptr, nullptr});
  c.push_back({"map x*x+1", 8, 2, [](Workload& w) { return map(w.ctx, "x * x + 1.0f", w.x, w.z); },
               [](Workload& w) {
                 map(w.ctx, "x * x + 1.0f", w.x, w.z);
                 return elementwise(w.z.download(), [&](std::size_t i) { return double(w.hx[i]) * w.hx[i] + 1; },
                                    [&](std::size_t i) { return double(w.hx[i]) * w.hx[i] + 1; }, 2);
               },
               "", nullptr, nullptr});
  auto abs_f = [](double v) { return std::fabs(v); };
  c.push_back({"sum", 4, 1, [](Workload& w) {
                 LaunchPlan p;
                 sum(w.ctx, w.x, {}, &p);
                 return p;
               },
               [=](Workload& w) {
                 return mismatch("sum", sum(w.ctx, w.x), host_sum(w.hx, [](double v) { return v; }),
                                 reduction_tol(host_sum(w.hx, abs_f)));
               },
               "Ssum",
               [q](Workload& w) {
                 cl_event e = nullptr;
                 clblast_ok(CLBlastSsum(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, q(w), &e), "Ssum");
                 return e;
               },
               [=](Workload& w) {
                 return mismatch("CLBlast sum", read_scalar_float(w), host_sum(w.hx, [](double v) { return v; }),
                                 reduction_tol(host_sum(w.hx, abs_f)));
               }});
  auto host_dot = [](Workload& w, bool absolute) {
    double s = 0;
    for (std::size_t i = 0; i < w.n; ++i) s += absolute ? std::fabs(double(w.hx[i]) * w.hy[i]) : double(w.hx[i]) * w.hy[i];
    return s;
  };
  c.push_back({"dot", 8, 2, [](Workload& w) {
                 LaunchPlan p;
                 dot(w.ctx, w.x, w.y, {}, &p);
                 return p;
               },
               [=](Workload& w) {
                 w.reset_y();
                 return mismatch("dot", dot(w.ctx, w.x, w.y), host_dot(w, false), reduction_tol(host_dot(w, true)));
               },
               "Sdot",
               [q](Workload& w) {
                 cl_event e = nullptr;
                 clblast_ok(CLBlastSdot(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, w.y.cl_buffer()(), 0, 1, q(w), &e),
                            "Sdot");
                 return e;
               },
               [=](Workload& w) {
                 return mismatch("CLBlast dot", read_scalar_float(w), host_dot(w, false), reduction_tol(host_dot(w, true)));
               }});
  auto host_nrm2 = [](Workload& w) { return std::sqrt(host_sum(w.hx, [](double v) { return v * v; })); };
  c.push_back({"nrm2", 4, 2, [](Workload& w) {
                 LaunchPlan p;
                 nrm2(w.ctx, w.x, {}, &p);
                 return p;
               },
               [=](Workload& w) { return mismatch("nrm2", nrm2(w.ctx, w.x), host_nrm2(w), 1e-5 * host_nrm2(w)); },
               "Snrm2",
               [q](Workload& w) {
                 cl_event e = nullptr;
                 clblast_ok(CLBlastSnrm2(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, q(w), &e), "Snrm2");
                 return e;
               },
               [=](Workload& w) { return mismatch("CLBlast nrm2", read_scalar_float(w), host_nrm2(w), 1e-5 * host_nrm2(w)); }});
  c.push_back({"max", 4, 1, [](Workload& w) {
                 LaunchPlan p;
                 max(w.ctx, w.x, {}, &p);
                 return p;
               },
               [](Workload& w) { return mismatch("max", max(w.ctx, w.x), w.hx[first_index(w.hx, false)], 0); }, "", nullptr,
               nullptr});
  c.push_back({"argmax", 4, 1, [](Workload& w) {
                 LaunchPlan p;
                 argmax(w.ctx, w.x, {}, &p);
                 return p;
               },
               [](Workload& w) {
                 return mismatch("argmax index", double(argmax(w.ctx, w.x).index), double(first_index(w.hx, false)), 0);
               },
               "iSmax",
               [q](Workload& w) {
                 cl_event e = nullptr;
                 clblast_ok(CLBlastiSmax(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, q(w), &e), "iSmax");
                 return e;
               },
               [](Workload& w) {
                 return mismatch("CLBlast iSmax", double(read_scalar_index(w)), double(first_index(w.hx, false)), 0);
               }});
  c.push_back({"iamax", 4, 1, [](Workload& w) {
                 LaunchPlan p;
                 iamax(w.ctx, w.x, {}, &p);
                 return p;
               },
               [](Workload& w) {
                 return mismatch("iamax index", double(iamax(w.ctx, w.x).index), double(first_index(w.hx, true)), 0);
               },
               "iSamax",
               [q](Workload& w) {
                 cl_event e = nullptr;
                 clblast_ok(CLBlastiSamax(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, q(w), &e), "iSamax");
                 return e;
               },
               [](Workload& w) {
                 return mismatch("CLBlast iSamax", double(read_scalar_index(w)), double(first_index(w.hx, true)), 0);
               }});
  c.push_back({"count_if x>0.5", 4, 1, [](Workload& w) {
                 LaunchPlan p;
                 count_if(w.ctx, "x > 0.5f", w.x, {}, &p);
                 return p;
               },
               [](Workload& w) {
                 double want = 0;
                 for (float v : w.hx) want += v > 0.5f;
                 return mismatch("count_if", double(count_if(w.ctx, "x > 0.5f", w.x)), want, 0);
               },
               "", nullptr, nullptr});
  auto scan_check = [](Workload& w, bool inclusive) {
    std::vector<float> out = w.z.download();
    double run = 0, mag = 0;
    for (std::size_t i = 0; i < w.n; ++i) {
      double want = inclusive ? run + w.hx[i] : run;
      if (std::fabs(out[i] - want) > 1e-5 * (mag + std::fabs(w.hx[i])) + 1e-6)
        return mismatch("scan element", out[i], want, 1e-5 * (mag + std::fabs(w.hx[i])));
      run += w.hx[i];
      mag += std::fabs(w.hx[i]);
    }
    return std::string();
  };
  for (bool inclusive : {true, false}) {
    auto scan = [inclusive](Workload& w) {
      return inclusive ? inclusive_scan(w.ctx, w.x, w.z) : exclusive_scan(w.ctx, w.x, w.z);
    };
    c.push_back({inclusive ? "inclusive_scan" : "exclusive_scan", 8, 1, scan,
                 [=](Workload& w) {
                   scan(w);
                   return scan_check(w, inclusive);
                 },
                 "", nullptr, nullptr});
  }
  // Compaction reads n and writes what it keeps (a quarter here).
  c.push_back({"compact x>0.5", 5, 1, [](Workload& w) {
                 LaunchPlan p;
                 compact(w.ctx, "x > 0.5f", w.x, w.z, {}, &p);
                 return p;
               },
               [](Workload& w) {
                 std::size_t k = compact(w.ctx, "x > 0.5f", w.x, w.z);
                 std::vector<float> want, got = w.z.download();
                 for (float v : w.hx)
                   if (v > 0.5f) want.push_back(v);
                 got.resize(k);
                 return got == want ? std::string() : std::string("compaction differs");
               },
               "", nullptr, nullptr});
  if (!with_baseline)
    for (auto& e : c) {
      e.baseline.clear();
      e.run_baseline = nullptr;
      e.check_baseline = nullptr;
    }
  return c;
}

}  // namespace bench
