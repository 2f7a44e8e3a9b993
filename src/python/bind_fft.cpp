// SPDX-License-Identifier: Apache-2.0
// Fast Fourier transforms of NumPy arrays over their last 1 to 3 axes (the
// leading axes a batch); portacl/fft.py gives NumPy's names, axes and
// norms on top.
#include <complex>
#include <list>
#include <memory>
#include <mutex>

#include "bindings.hpp"

namespace portacl::python {

namespace {

// The transform's lengths (the last `axes` of `shape`, the last replaced
// by `n_last` where given) and its batch (the product of the others).
std::vector<std::size_t> lengths_of(const py::array& a, int axes, std::size_t n_last, std::size_t& batch) {
  if (axes < 1 || axes > 3 || axes > a.ndim())
    throw py::value_error("fft: " + std::to_string(axes) + " axes of a " + std::to_string(a.ndim()) +
                          "-D array; 1 to 3, at most its dimensions");
  std::vector<std::size_t> lengths;
  batch = 1;
  for (int k = 0; k < a.ndim(); ++k) {
    if (k < a.ndim() - axes)
      batch *= std::size_t(a.shape(k));
    else
      lengths.push_back(std::size_t(a.shape(k)));
  }
  if (n_last) lengths.back() = n_last;
  return lengths;
}

// Plans kept for repeated transforms, as scipy.fft's and CuPy's plan
// caches keep theirs: the last kPlanCacheSize plans of each precision by
// (context, kind, lengths, batch), the most recent first. An entry holds
// its context; clear_plan_cache() (and the interpreter's exit) lets go.
constexpr std::size_t kPlanCacheSize = 16;

template <class T>
struct PlanCache {
  struct Entry {
    std::shared_ptr<Context> ctx;
    FftKind kind;
    std::vector<std::size_t> lengths;
    std::size_t batch;
    std::shared_ptr<const BasicFft<T>> plan;
  };
  std::mutex lock;
  std::list<Entry> entries;

  static PlanCache& get() {
    static PlanCache cache;
    return cache;
  }
  std::shared_ptr<const BasicFft<T>> plan(const std::shared_ptr<Context>& ctx, const std::vector<std::size_t>& lengths,
                                          const FftOptions& o) {
    std::lock_guard<std::mutex> held(lock);
    for (auto e = entries.begin(); e != entries.end(); ++e)
      if (e->ctx == ctx && e->kind == o.kind && e->lengths == lengths && e->batch == o.batch) {
        entries.splice(entries.begin(), entries, e);
        return entries.front().plan;
      }
    auto made = std::make_shared<const BasicFft<T>>(*ctx, lengths, o);
    entries.push_front(Entry{ctx, o.kind, lengths, o.batch, made});
    if (entries.size() > kPlanCacheSize) entries.pop_back();
    return made;
  }
  std::size_t size() {
    std::lock_guard<std::mutex> held(lock);
    return entries.size();
  }
  void clear() {
    std::lock_guard<std::mutex> held(lock);
    entries.clear();
  }
};

void clear_plan_caches() {
  PlanCache<float>::get().clear();
  PlanCache<double>::get().clear();
}

template <class T>
py::tuple transform(const std::shared_ptr<Context>& shared, const py::array& a, int axes, const std::string& kind,
                    bool inverse, std::size_t n_last) {
  Context& ctx = *shared;
  using Complex = std::complex<T>;
  std::size_t batch = 1;
  const std::vector<std::size_t> lengths = lengths_of(a, axes, kind == "c2r" ? n_last : 0, batch);
  if (batch == 0) throw py::value_error("fft: an empty batch (a leading axis of length 0)");
  FftOptions o;
  o.kind = kind == "r2c" ? FftKind::r2c : kind == "c2r" ? FftKind::c2r : FftKind::c2c;
  o.batch = batch;
  std::vector<py::ssize_t> out_shape(a.shape(), a.shape() + a.ndim());
  if (o.kind == FftKind::r2c) out_shape.back() = py::ssize_t(lengths.back() / 2 + 1);
  if (o.kind == FftKind::c2r) {
    if (std::size_t(a.shape(a.ndim() - 1)) != lengths.back() / 2 + 1)
      throw py::value_error("irfft: the last axis holds " + std::to_string(a.shape(a.ndim() - 1)) +
                            " values; n = " + std::to_string(lengths.back()) +
                            " needs n // 2 + 1 = " + std::to_string(lengths.back() / 2 + 1));
    out_shape.back() = py::ssize_t(lengths.back());
  }
  const std::shared_ptr<const BasicFft<T>> kept = PlanCache<T>::get().plan(shared, lengths, o);
  const BasicFft<T>& plan = *kept;
  Buffer<T> in(ctx, plan.elements().input), out(ctx, plan.elements().output);
  if (o.kind == FftKind::r2c) {
    const auto host = py::array_t<T, py::array::c_style>::ensure(a);
    in.upload(host.data(), in.size());
  } else {
    const auto host = py::array_t<Complex, py::array::c_style>::ensure(a);
    in.upload(reinterpret_cast<const T*>(host.data()), in.size());
  }
  {
    py::gil_scoped_release release;
    inverse ? plan.inverse(in, out) : plan.forward(in, out);
  }
  const LaunchPlan first = plan.plans().front();
  if (o.kind == FftKind::c2r) return with_plan(download(out, out_shape), first);
  py::array_t<Complex> result(out_shape);
  T* into = reinterpret_cast<T*>(result.mutable_data());
  {
    py::gil_scoped_release release;
    out.download(into, out.size());
  }
  return with_plan(result, first);
}

}  // namespace

void bind_fft(py::module_& m) {
  m.def("fft_plan_cache_size", [] { return PlanCache<float>::get().size() + PlanCache<double>::get().size(); });
  m.def("fft_clear_plan_cache", &clear_plan_caches);
  // The kept plans hold contexts: they go before the interpreter ends.
  py::module_::import("atexit").attr("register")(py::cpp_function(&clear_plan_caches));
  m.def("fft_transform", [](const std::shared_ptr<Context>& ctx, const py::array& a, int axes, const std::string& kind,
                            bool inverse, std::size_t n_last) {
    if (kind != "c2c" && kind != "r2c" && kind != "c2r")
      throw py::value_error("fft: kind must be 'c2c', 'r2c' or 'c2r', not '" + kind + "'");
    const bool real_in = kind == "r2c";
    if (real_in ? holds<float>(a) : holds<std::complex<float>>(a))
      return transform<float>(ctx, a, axes, kind, inverse, n_last);
    if (real_in ? holds<double>(a) : holds<std::complex<double>>(a))
      return transform<double>(ctx, a, axes, kind, inverse, n_last);
    throw py::type_error("fft: dtype " + dtype_name(a) + " is not " +
                         (real_in ? "float32 or float64" : "complex64 or complex128"));
  });
}

}  // namespace portacl::python
