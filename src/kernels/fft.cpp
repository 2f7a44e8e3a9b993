// SPDX-License-Identifier: Apache-2.0
// The fast Fourier transform (kernels/fft.cl): validate, plan (plan_fft,
// the same function portacl-query runs offline), make the tables, then
// launch the plan's steps in order.
#include "portacl/fft.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <string>

#include "aliasing.hpp"
#include "kernel_call.hpp"
#include "kernels/fft_tunables.hpp"
#include "kernels/kernel_traits.hpp"
#include "portacl/error.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

KernelTraits fft_traits(ElementType element) {
  // needs_barriers, no barrier-free variant: the passes share local memory
  // bytes_per_item: a complex value read and written once a stage
  const double bytes = 4.0 * double(size_of(element));
  return kernel_traits("fft", element, 1,
                       traits::local_tiling | traits::barriers | traits::barriers_only | traits::scalar, {bytes, 0, 0},
                       &fft_tunables());
}

const TuningSpace& fft_tunables() {
  static const TuningSpace space{{knobs::work_group_size({32, 64, 128, 256, 512})}, nullptr};
  return space;
}

KernelTraits fft_slab_traits(ElementType element) {
  return kernel_traits("fft_slab", element, 1, traits::scalar, {4.0 * double(size_of(element)), 0},
                       &fft_slab_tunables());
}

const TuningSpace& fft_slab_tunables() {
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256, 512})}, nullptr};
  return space;
}

LaunchPlan plan_fft_slab_transpose(const Planner& planner, ElementType element, std::size_t values) {
  LaunchPlan p = planner.plan(fft_slab_traits(element), ProblemSize(std::max<std::size_t>(values, 1)));
  cover_items(p, std::max<std::size_t>(values, 1), 1, "complex values");
  return p;
}

FftLaunches plan_fft(const Planner& planner, const FftProblem& problem, ElementType element,
                     const PlanOptions& options) {
  std::size_t values = problem.batch;
  for (std::size_t n : problem.shape) values = checked_product(values, n, "fft: the values of a batch");
  FftLaunches l = plan_fft_launches(planner.plan(fft_traits(element), ProblemSize(values)),
                                    sizing_device(planner.device, options), problem);
  for (FftStep& s : l.steps)
    if (s.kind == FftStep::stage) fit_fft_group(s, planner.compiled_limit(KernelRef{"fft.cl", s.entry, ""}, s.plan));
  return l;
}

namespace {

const char* kind_name(FftKind k) { return k == FftKind::c2c ? "C2C" : k == FftKind::r2c ? "R2C" : "C2R"; }

// W_n^i = exp(-2 pi i / n)^i for the table's indices, in double.
std::complex<double> unit_root(std::size_t i, std::size_t n) {
  const double a = -2.0 * M_PI * (double(i) / double(n));
  return {std::cos(a), std::sin(a)};
}

template <class T>
std::vector<T> interleave(const std::vector<std::complex<double>>& v) {
  std::vector<T> out(2 * v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    out[2 * i] = static_cast<T>(v[i].real());
    out[2 * i + 1] = static_cast<T>(v[i].imag());
  }
  return out;
}

// The layout's extent in elements: its last element's index + 1.
std::size_t reach(const std::vector<std::size_t>& dims, const FftLayout& l, std::size_t batch, std::size_t& distance,
                  const char* what) {
  std::size_t span = 0, packed = l.stride;
  for (std::size_t k = dims.size(); k-- > 0;) {
    span = checked_sum(span, checked_product(dims[k] - 1, packed, what), what);
    packed = checked_product(packed, dims[k], what);
  }
  distance = l.distance ? l.distance : packed;
  return checked_sum(checked_sum(l.offset, checked_product(batch - 1, distance, what), what), span + 1, what);
}

}  // namespace

template <class T>
struct BasicFft<T>::State {
  Context* ctx = nullptr;
  std::vector<std::size_t> shape, in_dims, out_dims;
  FftOptions options;
  bool in_complex = true, out_complex = true;
  std::size_t in_elements = 0, out_elements = 0;
  FftLaunches forward, inverse;  // C2C both; R2C forward; C2R inverse
  struct Tables {
    std::optional<Buffer<T>> lo, hi, passes, chirp, spectrum_forward, spectrum_inverse;
    unsigned shift = 0;
  };
  std::vector<Tables> tables;              // per distinct length
  std::vector<std::size_t> table_of_axis;  // which tables each axis reads
  Tables real;                             // the packed real transform's roots of n (FftLaunches::real_n)
  std::optional<Buffer<T>> temp_a, temp_b, copy;
};

namespace {

template <class T>
void make_twiddles(Context& ctx, std::size_t m, std::optional<Buffer<T>>& lo, std::optional<Buffer<T>>& hi,
                   unsigned shift) {
  const std::size_t k = std::size_t{1} << shift, hs = (m + k - 1) / k;
  std::vector<std::complex<double>> l(std::min(k, m)), h(hs);
  for (std::size_t i = 0; i < l.size(); ++i) l[i] = unit_root(i, m);
  for (std::size_t i = 0; i < hs; ++i) h[i] = unit_root(i * k, m);
  lo.emplace(ctx, interleave<T>(l));
  hi.emplace(ctx, interleave<T>(h));
}

// The specialised stages' pass roots (FftLength::pass_twiddles): for each
// stage's passes after the first, W_(nsl q)^(i k) at k nsl + i.
std::vector<std::complex<double>> pass_twiddles(const FftLength& len) {
  std::vector<std::complex<double>> t(len.pass_twiddles);
  if (len.lanes) {  // lanes stages after the first: W_(before length)^(j k) at (k - 1) before + j
    for (const FftStage& s : len.stages)
      for (std::size_t k = 1; s.before > 1 && k < s.length; ++k)
        for (std::size_t j = 0; j < s.before; ++j)
          t[s.twiddle_offset + (k - 1) * s.before + j] =
              unit_root((j * k) % (s.before * s.length), s.before * s.length);
    return t;
  }
  for (const FftStage& s : len.stages) {
    std::size_t at = s.twiddle_offset, nsl = 1;
    for (unsigned q : s.radices) {
      if (nsl > 1)
        for (std::size_t k = 0; k < q; ++k)
          for (std::size_t i = 0; i < nsl; ++i) t[at + k * nsl + i] = unit_root((i * k) % (nsl * q), nsl * q);
      if (nsl > 1) at += nsl * q;
      nsl *= q;
    }
  }
  return t;
}

// Whether two axes' lengths read the same tables: the same length in the
// same stages and radices.
bool same_stages(const FftLength& a, const FftLength& b) {
  if (a.n != b.n || a.lanes != b.lanes || a.stages.size() != b.stages.size()) return false;
  for (std::size_t k = 0; k < a.stages.size(); ++k)
    if (a.stages[k].length != b.stages[k].length || a.stages[k].radices != b.stages[k].radices) return false;
  return true;
}

}  // namespace

template <class T>
BasicFft<T>::BasicFft(Context& ctx, std::vector<std::size_t> shape, const FftOptions& o)
    : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.ctx = &ctx;
  s.options = o;
  if (shape.empty() || shape.size() > 3)
    throw Error("fft: " + std::to_string(shape.size()) + " lengths; a transform has 1, 2 or 3");
  for (std::size_t k = 0; k < shape.size(); ++k)
    if (shape[k] == 0) throw Error("fft: length " + std::to_string(k) + " is 0; every length is at least 1");
  if (o.batch == 0) throw Error("fft: a batch of 0 transforms");
  if (o.input.stride == 0 || o.output.stride == 0)
    throw Error(std::string("fft: the ") + (o.input.stride == 0 ? "input" : "output") + " stride is 0");
  s.shape = shape;
  s.in_dims = s.out_dims = shape;
  if (o.kind != FftKind::c2c) {
    std::vector<std::size_t>& half = o.kind == FftKind::r2c ? s.out_dims : s.in_dims;
    half.back() = fft_half(shape.back());
  }
  s.in_complex = o.kind != FftKind::r2c;
  s.out_complex = o.kind != FftKind::c2r;
  std::size_t in_distance = 0, out_distance = 0;
  s.in_elements = reach(s.in_dims, o.input, o.batch, in_distance, "fft: the input's layout");
  s.out_elements = reach(s.out_dims, o.output, o.batch, out_distance, "fft: the output's layout");
  if (s.in_complex) s.in_elements = checked_product(s.in_elements, 2, "fft: the input's layout");
  if (s.out_complex) s.out_elements = checked_product(s.out_elements, 2, "fft: the output's layout");
  // Output batches must not share elements: apart by a whole transform, or
  // interleaved within the stride.
  std::size_t packed = o.output.stride;
  for (std::size_t d : s.out_dims) packed = checked_product(packed, d, "fft: the output's layout");
  if (o.batch > 1 && out_distance < packed && o.output.stride < checked_product(o.batch, out_distance, "fft"))
    throw Error("fft: the output's batches overlap (distance " + std::to_string(out_distance) + ", stride " +
                std::to_string(o.output.stride) + ", a transform spans " + std::to_string(packed) +
                " elements): a distance of at least the span, or a stride of at least batch x distance");

  FftProblem p;
  p.shape = shape;
  p.batch = o.batch;
  p.kind = o.kind == FftKind::c2c ? FftProblem::c2c : o.kind == FftKind::r2c ? FftProblem::r2c : FftProblem::c2r;
  p.in_offset = o.input.offset;
  p.in_stride = o.input.stride;
  p.in_distance = in_distance;
  p.out_offset = o.output.offset;
  p.out_stride = o.output.stride;
  p.out_distance = out_distance;
  p.element_bytes = sizeof(T);
  const Planner planner = live_planner(ctx, s.options.plan);
  const ElementType element = element_of<T>::value;
  if (o.kind != FftKind::c2r) s.forward = plan_fft(planner, p, element, s.options.plan);
  if (o.kind != FftKind::r2c) {
    p.inverse = true;
    s.inverse = plan_fft(planner, p, element, s.options.plan);
  }
  const FftLaunches& any = o.kind == FftKind::c2r ? s.inverse : s.forward;
  if (any.temp_values) {
    s.temp_a.emplace(ctx, checked_product(any.temp_values, 2, "fft: the temporaries"));
    s.temp_b.emplace(ctx, checked_product(any.temp_values, 2, "fft: the temporaries"));
  }
  if (any.copy_values) s.copy.emplace(ctx, checked_product(any.copy_values, 2, "fft: the copy"));
  if (any.real_n) {
    s.real.shift = any.real_shift;
    make_twiddles<T>(ctx, any.real_n, s.real.lo, s.real.hi, s.real.shift);
  }
  // Tables once a distinct length: twiddles, and under Bluestein the chirp
  // and the spectrum of each direction the plan runs.
  for (std::size_t a = 0; a < shape.size(); ++a) {
    std::size_t same = 0;
    // An axis of a length already planned with the same stages reads that
    // length's tables (a column axis may split a length a row keeps whole).
    while (same < a && !same_stages(any.lengths[same], any.lengths[a])) ++same;
    if (same < a) {
      s.table_of_axis.push_back(s.table_of_axis[same]);
      continue;
    }
    s.table_of_axis.push_back(s.tables.size());
    s.tables.emplace_back();
    const FftLength& len = any.lengths[a];
    typename State::Tables& t = s.tables.back();
    t.shift = len.twiddle_shift;
    make_twiddles<T>(ctx, len.m, t.lo, t.hi, t.shift);
    if (len.pass_twiddles) t.passes.emplace(ctx, interleave<T>(pass_twiddles(len)));
    if (!len.bluestein) continue;
    // w_j = exp(-pi i j^2 / n), j^2 reduced modulo 2n first (exact in integers).
    const std::size_t n = len.n, m = len.m;
    std::vector<std::complex<double>> w(n), b(m);
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t r = static_cast<std::size_t>((static_cast<unsigned __int128>(j) * j) % (2 * n));
      w[j] = std::polar(1.0, -M_PI * (double(r) / double(n)));
    }
    t.chirp.emplace(ctx, interleave<T>(w));
    // The convolution's kernel conj(w_k) at k and m - k (forward; w_k
    // inverse), and its spectrum over 1 / m, transformed on the device in
    // the precision the rules chose (fft.bluestein), by the device's own
    // rules: a table made once, whatever class's plan the transform runs.
    for (const bool inverse : {false, true}) {
      if ((inverse && o.kind == FftKind::r2c) || (!inverse && o.kind == FftKind::c2r)) continue;
      std::fill(b.begin(), b.end(), std::complex<double>(0));
      for (std::size_t j = 0; j < n; ++j) b[j] = b[(m - j) % m] = inverse ? w[j] : std::conj(w[j]);
      std::vector<std::complex<double>> spectrum(m);
      auto transform = [&](auto one) {
        using U = decltype(one);
        BasicFft<U> f(ctx, {m});
        Buffer<U> data(ctx, interleave<U>(b));
        f.forward(data);
        const std::vector<U> got = data.download();
        for (std::size_t k = 0; k < m; ++k) spectrum[k] = std::complex<double>(got[2 * k], got[2 * k + 1]) / double(m);
      };
      if (len.spectrum_in_double)
        transform(double{});
      else
        transform(float{});
      (inverse ? t.spectrum_inverse : t.spectrum_forward).emplace(ctx, interleave<T>(spectrum));
    }
  }
}

template <class T>
BasicFft<T>::~BasicFft() = default;
template <class T>
BasicFft<T>::BasicFft(BasicFft&&) noexcept = default;

namespace {

template <class T>
struct Operands {
  const Buffer<T>& in;
  Buffer<T>& out;
  Buffer<T>* temp_a;
  Buffer<T>* temp_b;
  Buffer<T>* copy;
  const BufferStorage& of(FftOperand o) const {
    switch (o) {
      case FftOperand::input: return in;
      case FftOperand::output: return out;
      case FftOperand::temp_a: return *temp_a;
      case FftOperand::temp_b: return *temp_b;
      case FftOperand::copy: return *copy;
    }
    return out;
  }
};

cl_ulong u(std::size_t v) { return static_cast<cl_ulong>(v); }

}  // namespace

namespace {

template <class T, class Tables>
void run_steps(Context& ctx, const FftLaunches& l, const Operands<T>& ops, const std::vector<Tables>& tables,
               const std::vector<std::size_t>& table_of_axis, const Tables& real) {
  using kernel_call::launch;
  for (const FftStep& st : l.steps) {
    const auto& tab = tables[table_of_axis[st.axis]];
    const PreparedKernel k = ctx.prepare(KernelRef{"fft.cl", st.entry, ""}, st.plan);
    const FftView &i = st.in, &o = st.out;
    switch (st.kind) {
      case FftStep::stage: {
        cl_ulong radices = 0;
        for (std::size_t p = st.shape.radices.size(); p-- > 0;) radices = (radices << 4) | st.shape.radices[p];
        const std::size_t slots_total = st.transforms * (st.n / st.shape.length);
        launch(ctx, k, ops.of(i.operand), u(i.offset), u(i.stride), u(i.distance[0]), u(i.distance[1]),
               u(i.distance[2]), ops.of(o.operand), u(o.offset), u(o.stride), u(o.distance[0]), u(o.distance[1]),
               u(o.distance[2]), u(st.c0), u(st.c1), u(slots_total), u(st.n), static_cast<cl_uint>(st.shape.length),
               u(st.shape.before), radices, static_cast<cl_uint>(st.shape.radices.size()),
               static_cast<cl_uint>(st.shape.slots), static_cast<cl_uint>(st.in_slot_first),
               static_cast<cl_uint>(st.out_slot_first), *tab.lo, *tab.hi, static_cast<cl_uint>(tab.shift),
               tab.passes ? *tab.passes : *tab.lo, kernel_call::LocalBytes{st.local_bytes},
               kernel_call::LocalBytes{std::max<std::size_t>(st.second_buffer, 2 * sizeof(T))},
               kernel_call::LocalBytes{3 * sizeof(cl_ulong) * st.shape.slots});
        break;
      }
      case FftStep::chirp_in:
        launch(ctx, k, ops.of(i.operand), u(i.offset), u(i.stride), u(i.distance[0]), u(i.distance[1]),
               u(i.distance[2]), u(st.c0), u(st.c1), u(st.transforms), u(st.chirp_n), u(st.chirp_m), *tab.chirp,
               ops.of(o.operand));
        break;
      case FftStep::chirp_product:
        launch(ctx, k, ops.of(i.operand), u(st.transforms), u(st.chirp_m),
               l.inverse ? *tab.spectrum_inverse : *tab.spectrum_forward);
        break;
      case FftStep::chirp_out:
        launch(ctx, k, ops.of(i.operand), u(st.transforms), u(st.chirp_n), u(st.chirp_m), *tab.chirp, ops.of(o.operand),
               u(o.offset), u(o.stride), u(o.distance[0]), u(o.distance[1]), u(o.distance[2]), u(st.c0), u(st.c1));
        break;
      case FftStep::lanes:
        launch(ctx, k, ops.of(i.operand), u(i.offset), u(i.stride), u(i.distance[0]), u(i.distance[1]),
               u(i.distance[2]), ops.of(o.operand), u(o.offset), u(o.stride), u(o.distance[0]), u(o.distance[1]),
               u(o.distance[2]), u(st.c0), u(st.c1), u(st.transforms), *tab.lo, *tab.hi,
               static_cast<cl_uint>(tab.shift), tab.passes ? *tab.passes : *tab.lo, u(st.shape.twiddle_offset), u(st.n),
               u(st.shape.before));
        break;
      case FftStep::real_post:
        launch(ctx, k, ops.of(i.operand), u(st.transforms), u(st.n), *real.lo, *real.hi,
               static_cast<cl_uint>(real.shift), ops.of(o.operand), u(o.offset), u(o.stride), u(o.distance[0]),
               u(o.distance[1]), u(o.distance[2]), u(st.c0), u(st.c1));
        break;
      case FftStep::real_pre:
        launch(ctx, k, ops.of(i.operand), u(i.offset), u(i.stride), u(i.distance[0]), u(i.distance[1]),
               u(i.distance[2]), u(st.c0), u(st.c1), u(st.transforms), u(st.n), *real.lo, *real.hi,
               static_cast<cl_uint>(real.shift), ops.of(o.operand));
        break;
    }
  }
}

template <class T, class State>
void check_call(const State& s, const Buffer<T>& in, const Buffer<T>& out, bool inverse) {
  const char* op = inverse ? "fft inverse" : "fft forward";
  const FftKind kind = s.options.kind;
  if (kind == FftKind::r2c && inverse)
    throw Error("fft inverse: an R2C plan runs forward only (plan a C2R transform for the inverse)");
  if (kind == FftKind::c2r && !inverse)
    throw Error("fft forward: a C2R plan runs inverse only (plan an R2C transform for the forward)");
  kernel_call::same_context(*s.ctx, in, op, "in");
  kernel_call::same_context(*s.ctx, out, op, "out");
  kernel_call::need_elements(op, "in", in.size(), s.in_elements, "the input's layout");
  kernel_call::need_elements(op, "out", out.size(), s.out_elements, "the output's layout");
  const aliasing::Overlap shared = aliasing::overlap(aliasing::whole(in), aliasing::whole(out));
  if (shared == aliasing::Overlap::none) return;
  if (shared == aliasing::Overlap::partial)
    throw Error(std::string(op) +
                ": in and out share part of their memory; run in place on one buffer, or on two apart");
  if (kind != FftKind::c2c)
    throw Error(std::string(op) + ": " + kind_name(kind) + " runs out of place (in and out are the same memory)");
  const FftLayout &a = s.options.input, &b = s.options.output;
  if (a.offset != b.offset || a.stride != b.stride || a.distance != b.distance)
    throw Error(std::string(op) + ": in place with two layouts (input and output differ); give them the same");
}

}  // namespace

template <class T>
void BasicFft<T>::forward(const Buffer<T>& in, Buffer<T>& out) const {
  check_call<T>(*s_, in, out, false);
  auto held = s_->ctx->hold_scratch();  // the plan's temporaries, one call's launches at a time
  run_steps<T>(*s_->ctx, s_->forward,
               Operands<T>{in, out, s_->temp_a ? &*s_->temp_a : nullptr, s_->temp_b ? &*s_->temp_b : nullptr,
                           s_->copy ? &*s_->copy : nullptr},
               s_->tables, s_->table_of_axis, s_->real);
}

template <class T>
void BasicFft<T>::inverse(const Buffer<T>& in, Buffer<T>& out) const {
  check_call<T>(*s_, in, out, true);
  auto held = s_->ctx->hold_scratch();
  run_steps<T>(*s_->ctx, s_->inverse,
               Operands<T>{in, out, s_->temp_a ? &*s_->temp_a : nullptr, s_->temp_b ? &*s_->temp_b : nullptr,
                           s_->copy ? &*s_->copy : nullptr},
               s_->tables, s_->table_of_axis, s_->real);
}

template <class T>
void BasicFft<T>::forward(Buffer<T>& data) const {
  forward(data, data);
}
template <class T>
void BasicFft<T>::inverse(Buffer<T>& data) const {
  inverse(data, data);
}

template <class T>
FftElements BasicFft<T>::elements() const {
  return {s_->in_elements, s_->out_elements};
}

template <class T>
std::vector<LaunchPlan> BasicFft<T>::plans() const {
  std::vector<LaunchPlan> all;
  for (const FftLaunches* l : {&s_->forward, &s_->inverse})
    for (const FftStep& st : l->steps) all.push_back(st.plan);
  return all;
}

template <class T>
std::string BasicFft<T>::explain() const {
  std::string text = std::string(kind_name(s_->options.kind)) + " FFT of";
  for (std::size_t n : s_->shape) text += " " + std::to_string(n);
  text += ", batch " + std::to_string(s_->options.batch) + ", " + (sizeof(T) == 4 ? "float" : "double") + "\n";
  for (const FftLaunches* l : {&s_->forward, &s_->inverse})
    for (const FftStep& st : l->steps) text += st.entry + ": " + st.plan.summary() + "\n" + st.plan.explain();
  return text;
}

template class BasicFft<float>;
template class BasicFft<double>;

}  // namespace portacl
