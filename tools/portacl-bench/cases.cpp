#include "cases.hpp"

#include <clblast_c.h>

#include <cmath>
#include <map>
#include <sstream>

namespace bench {

using namespace portacl;

Workload::Workload(Context& c, std::size_t size, unsigned long long seed) : portacl::Workload(c, size, seed) {
  cl_int err = CL_SUCCESS;
  scalar = cl::Buffer(c.cl_context(), CL_MEM_READ_WRITE, 16, nullptr, &err);
  check_cl(err, "clCreateBuffer(bench scalar)");
}

namespace {

constexpr float kA = operation_a;

std::string mismatch(const char* what, double got, double want, double tol) {
  if (std::fabs(got - want) <= tol) return "";
  std::ostringstream s;
  s << what << ": got " << got << ", want " << want << " (tolerance " << tol << ")";
  return s.str();
}

template <class T>
T read_scalar(Workload& w) {
  T v{};
  check_cl(w.ctx.queue().enqueueReadBuffer(w.scalar, CL_TRUE, 0, sizeof v, &v), "read CLBlast result");
  return v;
}

void clblast_ok(CLBlastStatusCode s, const char* routine) {
  if (s != CLBlastSuccess) throw Error(std::string("CLBlast ") + routine + " failed with status " + std::to_string(s));
}

cl_command_queue* queue_of(Workload& w) { return &w.ctx.queue()(); }

// Runs one CLBlast call as its users do; its completion event is not needed
// (callers finish the queue).
template <class Call>
void enqueue(const char* routine, Call call) {
  cl_event e = nullptr;
  clblast_ok(call(&e), routine);
  if (e) clReleaseEvent(e);
}

double sum_of(const std::vector<float>& v, double (*f)(double)) {
  double s = 0;
  for (float e : v) s += f(e);
  return s;
}
double plain(double v) { return v; }
double absolute(double v) { return std::fabs(v); }
double square(double v) { return v * v; }

// A baseline whose output portacl's own check reads (vectors): its check
// reruns the routine on fresh data then compares like portacl's operation.
struct Baseline {
  std::string routine;
  std::function<void(Workload&)> run;
  std::function<std::string(Workload&)> check;
};

std::map<std::string, Baseline> clblast_baselines() {
  std::map<std::string, Baseline> b;
  b["copy"] = {"Scopy",
               [](Workload& w) {
                 return enqueue("Scopy", [&](cl_event* e) {
                   return CLBlastScopy(w.n, w.x.cl_buffer()(), 0, 1, w.z.cl_buffer()(), 0, 1, queue_of(w), e);
                 });
               },
               [](Workload& w) { return w.z.download() == w.hx ? std::string() : std::string("copy differs"); }};
  b["scale"] = {"Sscal",
                [=](Workload& w) {
                  return enqueue("Sscal", [&](cl_event* e) {
                    return CLBlastSscal(w.n, kA, w.y.cl_buffer()(), 0, 1, queue_of(w), e);
                  });
                },
                nullptr};
  b["axpy"] = {"Saxpy",
               [](Workload& w) {
                 return enqueue("Saxpy", [&](cl_event* e) {
                   return CLBlastSaxpy(w.n, kA, w.x.cl_buffer()(), 0, 1, w.y.cl_buffer()(), 0, 1, queue_of(w), e);
                 });
               },
               [](Workload& w) {
                 // One fresh AXPY on y, checked like portacl's.
                 w.reset_y();
                 cl_event e = nullptr;
                 clblast_ok(CLBlastSaxpy(w.n, kA, w.x.cl_buffer()(), 0, 1, w.y.cl_buffer()(), 0, 1, queue_of(w), &e),
                            "Saxpy");
                 clWaitForEvents(1, &e);
                 clReleaseEvent(e);
                 std::vector<float> y = w.y.download();
                 for (std::size_t i = 0; i < w.n; ++i) {
                   double want = double(kA) * w.hx[i] + w.hy[i];
                   double tol = 2 * 1.2e-7 * (std::fabs(double(kA) * w.hx[i]) + std::fabs(w.hy[i])) + 1e-30;
                   if (std::string m = mismatch("CLBlast axpy element", y[i], want, tol); !m.empty()) return m;
                 }
                 return std::string();
               }};
  auto tol = [](double abs_sum) { return 1e-5 * abs_sum + 1e-6; };
  b["sum"] = {"Ssum",
              [=](Workload& w) {
                return enqueue("Ssum", [&](cl_event* e) {
                  return CLBlastSsum(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, queue_of(w), e);
                });
              },
              [=](Workload& w) {
                return mismatch("CLBlast sum", read_scalar<float>(w), sum_of(w.hx, plain), tol(sum_of(w.hx, absolute)));
              }};
  b["dot"] = {"Sdot",
              [=](Workload& w) {
                return enqueue("Sdot", [&](cl_event* e) {
                  return CLBlastSdot(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, w.y.cl_buffer()(), 0, 1, queue_of(w),
                                     e);
                });
              },
              [=](Workload& w) {
                double want = 0, mag = 0;
                for (std::size_t i = 0; i < w.n; ++i) {
                  want += double(w.hx[i]) * w.hy[i];
                  mag += std::fabs(double(w.hx[i]) * w.hy[i]);
                }
                return mismatch("CLBlast dot", read_scalar<float>(w), want, tol(mag));
              }};
  b["nrm2"] = {"Snrm2",
               [](Workload& w) {
                 return enqueue("Snrm2", [&](cl_event* e) {
                   return CLBlastSnrm2(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, queue_of(w), e);
                 });
               },
               [](Workload& w) {
                 double want = std::sqrt(sum_of(w.hx, square));
                 return mismatch("CLBlast nrm2", read_scalar<float>(w), want, 1e-5 * want);
               }};
  // Their indices are checked: quirk clblast.ixamax-large-n.
  b["argmax"] = {"iSmax",
                 [=](Workload& w) {
                   return enqueue("iSmax", [&](cl_event* e) {
                     return CLBlastiSmax(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, queue_of(w), e);
                   });
                 },
                 [](Workload& w) {
                   return mismatch("CLBlast iSmax", double(read_scalar<unsigned>(w)),
                                   double(first_extreme(w.hx, false)), 0);
                 }};
  b["iamax"] = {"iSamax",
                [=](Workload& w) {
                  return enqueue("iSamax", [&](cl_event* e) {
                    return CLBlastiSamax(w.n, w.scalar(), 0, w.x.cl_buffer()(), 0, 1, queue_of(w), e);
                  });
                },
                [](Workload& w) {
                  return mismatch("CLBlast iSamax", double(read_scalar<unsigned>(w)), double(first_extreme(w.hx, true)),
                                  0);
                }};
  // Matrix-vector routines on the same matrices as portacl's operations;
  // their outputs are checked by portacl's own checks only.
  for (bool transposed : {false, true})
    b[transposed ? "gemv_t" : "gemv"] = {"Sgemv",
                                         [transposed](Workload& w) {
                                           const std::size_t s = square_order(w.n);
                                           return enqueue("Sgemv", [&](cl_event* e) {
                                             return CLBlastSgemv(CLBlastLayoutRowMajor,
                                                                 transposed ? CLBlastTransposeYes : CLBlastTransposeNo,
                                                                 s, s, 1.0f, w.x.cl_buffer()(), 0, s, w.y.cl_buffer()(),
                                                                 0, 1, 0.0f, w.z.cl_buffer()(), 0, 1, queue_of(w), e);
                                           });
                                         },
                                         nullptr};
  // Row-major lower packed is portacl's packed layout.
  b["spmv"] = {"Sspmv",
               [](Workload& w) {
                 const std::size_t s = packed_order(w.n);
                 return enqueue("Sspmv", [&](cl_event* e) {
                   return CLBlastSspmv(CLBlastLayoutRowMajor, CLBlastTriangleLower, s, 1.0f, w.x.cl_buffer()(), 0,
                                       w.y.cl_buffer()(), 0, 1, 0.0f, w.z.cl_buffer()(), 0, 1, queue_of(w), e);
                 });
               },
               nullptr};
  b["trsv"] = {"Strsv",
               [](Workload& w) {
                 const std::size_t s = square_order(w.n);
                 const Buffer<float>& l = w.lower_triangular();
                 check_cl(w.ctx.queue().enqueueCopyBuffer(w.y.cl_buffer(), w.z.cl_buffer(), 0, 0, s * sizeof(float)),
                          "clEnqueueCopyBuffer(Strsv right-hand side)");
                 return enqueue("Strsv", [&](cl_event* e) {
                   return CLBlastStrsv(CLBlastLayoutRowMajor, CLBlastTriangleLower, CLBlastTransposeNo,
                                       CLBlastDiagonalNonUnit, s, l.cl_buffer()(), 0, s, w.z.cl_buffer()(), 0, 1,
                                       queue_of(w), e);
                 });
               },
               nullptr};
  return b;
}

}  // namespace

std::vector<Case> all_cases(bool with_baseline) {
  std::vector<Case> cases;
  const std::map<std::string, Baseline> baselines =
      with_baseline ? clblast_baselines() : std::map<std::string, Baseline>{};
  for (const Operation& op : operations()) {
    if (!op.streaming) continue;  // GEMM: its own section (gemm_cases.cpp)
    Case c{&op, "", nullptr, nullptr};
    auto it = baselines.find(op.name);
    if (it != baselines.end()) {
      c.baseline = it->second.routine;
      c.run_baseline = it->second.run;
      c.check_baseline = it->second.check;
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace bench
