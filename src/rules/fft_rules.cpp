// SPDX-License-Identifier: Apache-2.0
#include "rules/fft_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "rules/coverage_rules.hpp"

namespace portacl {

namespace {

// The largest prime the kernels take as a radix.
constexpr std::size_t kLargestRadix = 13;
// CPUs and Xeon Phi: a stage's two buffers within a core's second-level
// cache.
constexpr std::size_t kCpuStageBytes = std::size_t{256} << 10;
// GPUs: what a work-group's local memory keeps back from the device's
// figure (NVIDIA reserves 1 KiB of each block's shared memory for itself).
constexpr std::uint64_t kReservedLocalBytes = 1024;
// GPUs: the bytes of one row of local-memory banks (32 banks of 4 bytes on
// NVIDIA, 32 of 4 on GCN's LDS) and of a DRAM sector (32 bytes).
constexpr std::size_t kBankRowBytes = 128;
constexpr std::size_t kSectorBytes = 32;

std::string list_text(const std::vector<unsigned>& v) {
  std::string s;
  for (unsigned x : v) s += (s.empty() ? "" : " x ") + std::to_string(x);
  return s.empty() ? "none (length 1)" : s;
}

unsigned qmax(const std::vector<unsigned>& radices) {
  unsigned q = 1;
  for (unsigned r : radices) q = std::max(q, r);
  return q;
}

// GPUs, and CPUs for a transform of at least kCpuSpecialisedValues
// values, build a program per stage shape and run its passes in place in
// one local buffer, each work-item holding its butterflies' values in
// registers across the barrier (their number is known when the program is
// compiled); CPUs and Xeon Phi take a smaller transform's shape as
// arguments and run the passes between two buffers (rule fft.specialise).
// plan_fft_launches marks the plans (FFT_SPECIALISED).
constexpr std::size_t kCpuSpecialisedValues = std::size_t{1} << 16;
bool specialised(const LaunchPlan& plan) { return plan.macros.count("FFT_SPECIALISED") > 0; }

// The specialised stage pads its local buffer by one value a bank row
// (rule fft.local-padding); 0: no padding.
std::size_t pad_every(const LaunchPlan& plan, std::size_t complex_bytes) {
  return specialised(plan) ? std::max<std::size_t>(1, kBankRowBytes / complex_bytes) : 0;
}

// GPUs: the sequences a work-group holds so that values taken across
// them fill a DRAM sector (rules fft.stage-length, fft.slots); else 1.
std::size_t sector_slots(const LaunchPlan& plan, std::size_t complex_bytes) {
  return specialised(plan) ? std::max<std::size_t>(1, kSectorBytes / complex_bytes) : 1;
}

// The values from one slot's start to the next's in local memory: its
// `length` padded by one after every `every` (0: none; a row of banks
// holds `every` values), then a few more so that work-items on
// consecutive slots and values (`slots` of them side by side, then the
// next value) fall on different banks: an odd stride for a row's worth
// of slots or more, else a stride of row / slots banks modulo a row.
std::size_t slot_stride(std::size_t length, std::size_t every, std::size_t slots) {
  if (!every) return length;
  std::size_t s = length + (length - 1) / every;
  if (slots >= every) return s % 2 ? s : s + 1;
  const std::size_t target = every / std::max<std::size_t>(slots, 1) % every;
  while (s % every != target) ++s;
  return s;
}

// Complex values a stage's local buffers hold for one slot.
std::size_t stage_capacity(const LaunchPlan& plan, const DeviceInfo& device, std::size_t complex_bytes,
                           std::string& why) {
  const bool cpu_like = plan.device_class == DeviceClass::cpu || plan.device_class == DeviceClass::intel_mic;
  std::uint64_t bytes = device.local_mem_size ? device.local_mem_size : 16384;
  if (cpu_like) {
    bytes = std::min<std::uint64_t>(bytes, kCpuStageBytes);
    why = std::to_string(bytes >> 10) + " KiB (a core's second-level cache)";
  } else {
    bytes -= std::min<std::uint64_t>(bytes / 2, kReservedLocalBytes);
    why = std::to_string(bytes) + " bytes of local memory (1 KiB kept back)";
  }
  const std::size_t buffers = specialised(plan) ? 1 : 2;
  why += buffers == 1 ? ", one buffer (passes in place)" : ", two buffers";
  std::size_t values = static_cast<std::size_t>(bytes / (buffers * complex_bytes));
  if (const std::size_t every = pad_every(plan, complex_bytes)) {
    values = (values - 1) * every / (every + 1);
    why += ", padded by one value in " + std::to_string(every + 1);
  }
  return std::max<std::size_t>(1, values);
}

// A specialised in-place stage's registers: each pass's butterflies a
// work-item takes, times their radix, at most (FFT_VMAX).
void set_stage_registers(FftStep& s) {
  if (!specialised(s.plan)) return;
  const std::size_t wg = s.plan.work_group_size(), L = s.shape.length;
  std::size_t most = 1;
  for (unsigned q : s.shape.radices) most = std::max(most, q * ((s.shape.slots * (L / q) + wg - 1) / wg));
  s.plan.macros["FFT_INPLACE"] = "1";
  s.plan.macros["FFT_VMAX"] = std::to_string(most);
}

// The radices of one stage: eights, then a four or a two (an eight and a
// lone two become two fours: as many passes, none of radix 2), then the
// odd primes as they come.
std::vector<unsigned> stage_radices(std::size_t length) {
  std::vector<unsigned> r;
  unsigned twos = 0;
  while (length % 2 == 0) {
    length /= 2;
    ++twos;
  }
  for (; twos >= 3; twos -= 3) r.push_back(8);
  if (twos == 1 && !r.empty()) {
    r.back() = 4;
    twos = 2;
  }
  if (twos) r.push_back(twos == 2 ? 4 : 2);
  for (std::size_t p = 3; length > 1; p += 2)
    while (length % p == 0) {
      r.push_back(static_cast<unsigned>(p));
      length /= p;
    }
  return r;
}

// The prime factors of m split into `count` stages each at most `cap`
// long, the largest factor first into the shortest stage that takes it;
// empty when they do not fit.
std::vector<std::size_t> split_stages(std::vector<std::size_t> factors, std::size_t count, std::size_t cap) {
  std::sort(factors.rbegin(), factors.rend());
  std::vector<std::size_t> stages(count, 1);
  for (std::size_t f : factors) {
    std::size_t best = count;
    for (std::size_t s = 0; s < count; ++s)
      if (stages[s] * f <= cap && (best == count || stages[s] < stages[best])) best = s;
    if (best == count) return {};
    stages[best] *= f;
  }
  return stages;
}

// The stages of these lengths, in order, each after the ones before it;
// their lengths and radices as text.
std::string set_stages(FftLength& l, const std::vector<std::size_t>& lengths) {
  std::size_t before = 1;
  std::string text;
  for (std::size_t length : lengths) {
    FftStage s;
    s.length = length;
    s.before = before;
    s.radices = stage_radices(length);
    before *= length;
    text += (text.empty() ? "" : ", ") + std::to_string(length) + " (" + list_text(s.radices) + ")";
    l.stages.push_back(std::move(s));
  }
  return text;
}

// CPUs and Xeon Phi (rule fft.lanes): a length of radices 2, 3, 4, 5 and 8
// runs a work-item per SIMD width of sequences, the width in elements of
// the class's vector unit (4, 8 or 16), in as few stages as keep a
// sequence's two arrays of vectors within a core's second-level cache.
void choose_lanes(LaunchPlan& plan, const DeviceInfo& device, FftLength& l, std::size_t element_bytes,
                  bool across_batches) {
  const bool cpu_like = plan.device_class == DeviceClass::cpu || plan.device_class == DeviceClass::intel_mic;
  if (!cpu_like) return;
  const std::size_t width = std::size_t{classify(device).execution_width} * 4 / element_bytes;
  const std::size_t lanes = width >= 16 ? 16 : width >= 8 ? 8 : 4;
  const std::size_t most = kCpuStageBytes / (4 * lanes * element_bytes);  // two arrays, real and imaginary parts
  const std::vector<std::size_t> f = fft_prime_factors(l.m);
  if (!f.empty() && f.back() > 5) {
    plan.decide("fft_lanes", "none (the stages)", "fft.lanes",
                "length " + std::to_string(l.m) + " has a factor above 5 (the vector butterflies: 2, 3, 4, 5, 8)");
    return;
  }
  std::vector<std::size_t> lengths = {1};
  for (std::size_t count = 1; l.m > 1 && (count == 1 || lengths.empty()); ++count)
    lengths = split_stages(f, count, most);
  l.lanes = lanes;
  l.lanes_across = across_batches && lengths.size() > 1;
  const std::string text = set_stages(l, lengths);
  for (FftStage& s : l.stages) {
    s.twiddle_offset = l.pass_twiddles;
    l.pass_twiddles += (s.length - 1) * (s.before > 1 ? s.before : 0);
  }
  const std::string count = std::to_string(lengths.size()) + (lengths.size() == 1 ? " stage" : " stages");
  plan.decide("fft_lanes", std::to_string(lanes) + " sequences a work-item, " + count, "fft.lanes",
              std::to_string(lanes) + " " + (element_bytes == 8 ? "double" : "float") +
                  " lanes a SIMD instruction: a work-item transforms " + std::to_string(lanes) +
                  " sequences at once, value by value a vector, a sequence in private memory (two arrays of at "
                  "most " +
                  std::to_string(most) + " vectors within 256 KiB), no barrier; stages " + text +
                  (lengths.size() == 1 ? ""
                   : l.lanes_across
                       ? "; the lanes take one slot of neighbouring transforms (they lie side by side)"
                       : "; the lanes take neighbouring slots of a transform, a later stage's twiddles from a table "
                         "of " +
                             std::to_string(l.pass_twiddles) + " roots made in double once a plan"));
}

// The split of a table of m roots: one table up to 4096, else two of
// about sqrt(m) (W_m^k = lo[k mod 2^shift] hi[k >> shift]).
unsigned twiddle_split(std::size_t m) {
  unsigned bits = 0;
  while ((std::size_t{1} << bits) < m) ++bits;
  return bits <= 12 ? bits : (bits + 1) / 2;
}

}  // namespace

std::vector<std::size_t> fft_prime_factors(std::size_t n) {
  std::vector<std::size_t> f;
  for (std::size_t p = 2; p * p <= n; p += (p == 2 ? 1 : 2))
    while (n % p == 0) {
      f.push_back(p);
      n /= p;
    }
  if (n > 1) f.push_back(n);
  return f;
}

bool fft_smooth(std::size_t n) {
  const std::vector<std::size_t> f = fft_prime_factors(n);
  return f.empty() || f.back() <= kLargestRadix;
}

std::size_t fft_smooth_at_least(std::size_t least, std::size_t largest_prime) {
  // Every product of the primes up to largest_prime below 2 least (a power
  // of two at least `least` is one), the smallest at least `least` kept.
  std::size_t best = ~std::size_t{0};
  const std::size_t primes[] = {2, 3, 5, 7};
  const auto walk = [&](auto& self, std::size_t product, std::size_t from) -> void {
    if (product >= least) best = std::min(best, product);
    for (std::size_t i = from; i < 4 && primes[i] <= largest_prime; ++i)
      if (product < least) self(self, product * primes[i], i);
  };
  walk(walk, 1, 0);
  return best;
}

FftLength choose_fft_length(LaunchPlan& plan, const DeviceInfo& device, std::size_t n, std::size_t element_bytes,
                            bool across_batches) {
  FftLength l;
  l.n = n;
  l.m = n;
  const std::string len = std::to_string(n);
  if (!fft_smooth(n)) {
    l.bluestein = true;
    l.m = fft_smooth_at_least(2 * n - 1);
    plan.decide("fft_algorithm", "Bluestein, length " + std::to_string(l.m), "fft.bluestein",
                "length " + len + " has the prime factor " + std::to_string(fft_prime_factors(n).back()) +
                    ", above the largest radix (13): a cyclic convolution of length " + std::to_string(l.m) +
                    " (the smallest 2^a 3^b 5^c 7^d at least 2n - 1 = " + std::to_string(2 * n - 1) + ")");
    l.spectrum_in_double = device.fp64;
    plan.decide("fft_spectrum", device.fp64 ? "double" : "the transform's precision", "fft.bluestein",
                device.fp64
                    ? "the convolution kernel's spectrum is transformed in double once a plan (the device has "
                      "fp64), then rounded"
                    : "the device has no fp64: the kernel's spectrum is transformed in the transform's precision");
  }
  l.twiddle_shift = twiddle_split(l.m);
  // Lanes take their own stages (no local memory, no pass table).
  choose_lanes(plan, device, l, element_bytes, across_batches);
  if (l.lanes) return l;
  std::string why;
  const std::size_t cap = stage_capacity(plan, device, 2 * element_bytes, why);
  l.capacity = cap;
  const std::vector<std::size_t> factors = fft_prime_factors(l.m);
  // Where a work-group loads or stores across sequences (every stage of a
  // column axis, and every stage of several), a GPU's work-group holds a
  // DRAM sector's worth of them at least, so that those accesses coalesce.
  const std::size_t least = sector_slots(plan, 2 * element_bytes);
  const std::size_t shorter = std::max<std::size_t>(kLargestRadix, cap / least);
  const bool columns = across_batches && least > 1;
  std::vector<std::size_t> lengths = split_stages(factors, 1, columns ? shorter : cap);
  if (columns)
    plan.decide("fft_columns", "a sector's worth of transforms a work-group", "fft.columns",
                "the axis's transforms lie side by side in memory: a work-group takes " + std::to_string(least) +
                    " or more neighbouring transforms at the same index, so stages of at most " +
                    std::to_string(shorter) + " values");
  if (lengths.empty()) {
    if (least > 1)
      why += "; several stages, so at most " + std::to_string(shorter) + " values a sequence (" +
             std::to_string(least) + " sequences a work-group fill a " + std::to_string(kSectorBytes) + "-byte sector)";
    for (std::size_t count = 2; lengths.empty(); ++count) lengths = split_stages(factors, count, shorter);
  }
  if (l.m == 1) lengths = {1};
  const std::string text = set_stages(l, lengths);
  plan.decide("fft_stages", std::to_string(lengths.size()) + (lengths.size() == 1 ? " stage" : " stages"),
              "fft.stage-length",
              "length " + std::to_string(l.m) + ": a stage's local memory is at most " + why + ", " +
                  std::to_string(cap) + " values each; stages " + text);
  if (specialised(plan)) {
    std::size_t values = 0;
    for (FftStage& s : l.stages) {
      s.twiddle_offset = values;
      std::size_t nsl = 1;
      for (unsigned q : s.radices) {
        if (nsl > 1) values += nsl * q;
        nsl *= q;
      }
    }
    l.pass_twiddles = values;
    plan.decide("fft_twiddles", std::to_string(values) + " pass roots", "fft.pass-twiddles",
                "a table a pass, its roots in the order the pass's work-items read them (consecutive work-items, "
                "consecutive roots), made in double once a plan; a later stage's own twiddles from their angles "
                "(fft.stage-twiddles)");
  }
  plan.decide("fft_radices", list_text(l.stages.front().radices), "fft.radices",
              "eights while they divide, then a four or a two (an eight and a lone two as two fours), then the "
              "odd primes up to 13 (fewest passes over local memory)");
  return l;
}

namespace {

// An operand's packed strides (the user's innermost stride outward) and
// its batch distance.
struct ArrayShape {
  FftOperand operand;
  std::vector<std::size_t> dims, strides;
  std::size_t offset = 0, distance = 0;
};

ArrayShape array_shape(FftOperand operand, std::vector<std::size_t> dims, std::size_t offset, std::size_t stride,
                       std::size_t distance) {
  ArrayShape a;
  a.operand = operand;
  a.dims = std::move(dims);
  a.strides.assign(a.dims.size(), stride);
  for (std::size_t k = a.dims.size() - 1; k-- > 0;) a.strides[k] = a.strides[k + 1] * a.dims[k + 1];
  a.offset = offset;
  a.distance = distance ? distance : a.strides[0] * a.dims[0];
  return a;
}

// The view of axis `axis` of `a`: its other axes (at most two) and the
// batch as the view's three levels.
FftView axis_view(const ArrayShape& a, std::size_t axis, std::size_t& c0, std::size_t& c1) {
  FftView v;
  v.operand = a.operand;
  v.offset = a.offset;
  v.stride = a.strides[axis];
  std::vector<std::size_t> others;
  for (std::size_t k = a.dims.size(); k-- > 0;)
    if (k != axis) others.push_back(k);  // innermost first
  c0 = others.size() > 0 ? a.dims[others[0]] : 1;
  c1 = others.size() > 1 ? a.dims[others[1]] : 1;
  v.distance = {
      {others.size() > 0 ? a.strides[others[0]] : 0, others.size() > 1 ? a.strides[others[1]] : 0, a.distance}};
  return v;
}

// A temporary holding each transform's `length` values one after another.
FftView packed_view(FftOperand operand, std::size_t length, std::size_t c0, std::size_t c1) {
  FftView v;
  v.operand = operand;
  v.distance = {{length, c0 * length, c0 * c1 * length}};
  return v;
}

// Address steps, in elements, between consecutive slots and between a
// slot's consecutive values, for the cooperative load and store.
std::size_t batch_step(const FftView& v, std::size_t c0, std::size_t c1) {
  return c0 > 1 ? v.distance[0] : c1 > 1 ? v.distance[1] : v.distance[2];
}

// A temporary holding the transforms side by side, value e of transform b
// at e transforms + b (a column axis's stages between its first and last,
// rule fft.columns).
FftView interleaved_view(FftOperand operand, std::size_t transforms, std::size_t c0, std::size_t c1) {
  FftView v;
  v.operand = operand;
  v.stride = transforms;
  v.distance = {{1, c0, c0 * c1}};
  return v;
}

// Whether a view's transforms lie nearer one another than a transform's
// consecutive values (a column axis).
bool across_batches(const FftView& v, std::size_t c0, std::size_t c1, std::size_t transforms) {
  return transforms > 1 && batch_step(v, c0, c1) < v.stride;
}

struct AxisJob {
  std::size_t axis;  // index into the lengths
  FftView in, out;
  std::size_t c0, c1, transforms;
  bool batch_major = false;  // slots are neighbouring transforms (fft.columns)
  int sign;
  std::string in_kind, out_kind;  // REAL_IN / HERM_IN, REAL_OUT / HALF_OUT
};

// A step of `job` under `plan`: the batch's counts, the direction and the
// data kinds it reads and writes as macros.
FftStep job_step(const AxisJob& job, LaunchPlan plan, FftStep::Kind kind, const char* entry, int sign,
                 const std::string& in_kind, const std::string& out_kind) {
  FftStep s;
  s.kind = kind;
  s.entry = entry;
  s.plan = std::move(plan);
  s.c0 = job.c0;
  s.c1 = job.c1;
  s.transforms = job.transforms;
  s.axis = job.axis;
  s.plan.macros["SIGN"] = sign < 0 ? "-1" : "1";
  for (const std::string& k : {in_kind, out_kind})
    if (!k.empty()) s.plan.macros[k] = "1";
  return s;
}

FftStep stage_step(const LaunchPlan& base, const AxisJob& job, const FftLength& len, const FftStage& shape,
                   const FftView& in, const FftView& out, int sign, const std::string& in_kind,
                   const std::string& out_kind, std::size_t element_bytes) {
  const std::size_t m = len.m, cap = len.capacity;
  FftStep s = job_step(job, base, FftStep::stage, "fft_stage", sign, in_kind, out_kind);
  s.in = in;
  s.out = out;
  s.n = m;
  s.shape = shape;
  LaunchPlan& p = s.plan;
  const std::size_t c0 = job.c0, c1 = job.c1;
  const std::size_t L = shape.length, per_batch = m / L;
  const std::size_t slots_total = job.transforms * per_batch;
  // Consecutive slots are consecutive indices j (several per batch) or
  // consecutive batches; a slot's values are n / L (load) or `before`
  // (store) elements apart.
  s.batch_major = job.batch_major && per_batch > 1;
  if (s.batch_major) p.macros["FFT_BATCH_MAJOR"] = "1";
  const std::size_t in_slot = per_batch > 1 && !s.batch_major ? in.stride : batch_step(in, c0, c1);
  const std::size_t out_slot =
      per_batch > 1 && !s.batch_major ? (shape.before > 1 ? out.stride : L * out.stride) : batch_step(out, c0, c1);
  s.in_slot_first = in_slot < per_batch * in.stride;
  s.out_slot_first = out_slot < shape.before * out.stride;
  unsigned qmin = 0;
  for (unsigned q : shape.radices) qmin = qmin ? std::min(qmin, q) : q;
  // A slot's butterflies in the pass with the most (two buffers) or the
  // fewest (in place: every work-item busy in the largest radix's passes,
  // several butterflies each in the smaller radices').
  const unsigned q_sized = specialised(p) ? qmax(shape.radices) : qmin;
  const std::size_t butterflies = q_sized ? L / q_sized : 1;
  const std::size_t planned = std::max<std::size_t>(1, p.work_group_size());
  const std::size_t complex_bytes = 2 * element_bytes, every = pad_every(p, complex_bytes);
  // The slots' offsets (three 8-byte words a slot) share the local memory,
  // and padded slots start an odd number of values apart.
  const std::size_t fit = std::max<std::size_t>(1, cap / (L + (every ? every + 2 : 2)));
  // A GPU stage that loads or stores across slots: a sector's worth of
  // slots where the local memory holds them (fft.slots).
  const std::size_t least = s.in_slot_first || s.out_slot_first ? sector_slots(p, complex_bytes) : 1;
  s.shape.slots = std::clamp<std::size_t>(std::max(planned / butterflies, least), 1, fit);
  s.shape.slots = std::min(s.shape.slots, std::max<std::size_t>(slots_total, 1));
  std::size_t wg = 1;
  while (wg < s.shape.slots * butterflies && wg < planned) wg *= 2;
  p.local = {{wg, 1, 1}};
  p.macros["WG_SIZE"] = std::to_string(wg);
  p.use_local_memory = true;
  s.local_bytes = s.shape.slots * slot_stride(L, every, s.shape.slots) * complex_bytes;
  s.second_buffer = specialised(p) ? 0 : s.local_bytes;
  p.decide("fft_slots", std::to_string(s.shape.slots), "fft.slots",
           std::to_string(s.shape.slots) + " sequences of " + std::to_string(L) + " a work-group of " +
               std::to_string(wg) + " (" + std::to_string(s.shape.slots * butterflies) + " butterflies a " +
               (specialised(p) ? "radix-" + std::to_string(q_sized) + " pass" : "pass") + " against the planned " +
               std::to_string(planned) +
               (least > 1 ? ", at least " + std::to_string(least) + " to fill a sector across slots" : "") + "), " +
               (s.second_buffer ? "two buffers" : "one buffer") + " of " + std::to_string(s.local_bytes) + " bytes");
  grid_of_groups(p, (slots_total + s.shape.slots - 1) / s.shape.slots);
  if (specialised(p)) {
    p.macros["FFT_N"] = std::to_string(m);
    p.macros["FFT_R"] = std::to_string(L);
    p.macros["FFT_NS"] = std::to_string(shape.before);
    p.macros["FFT_SLOTS"] = std::to_string(s.shape.slots);
    p.macros["FFT_PASSES"] = std::to_string(shape.radices.size());
    std::size_t before = 1, table = shape.twiddle_offset;
    for (std::size_t k = 0; k < shape.radices.size(); ++k) {
      p.macros["FFT_Q" + std::to_string(k)] = std::to_string(shape.radices[k]);
      p.macros["FFT_S" + std::to_string(k)] = std::to_string(before);
      p.macros["FFT_T" + std::to_string(k)] = std::to_string(before > 1 ? table : 0);
      if (before > 1) table += before * shape.radices[k];
      before *= shape.radices[k];
    }
    p.macros["FFT_QL"] = std::to_string(shape.radices.empty() ? 1 : shape.radices.back());
    p.macros["FFT_SL"] = std::to_string(before / (shape.radices.empty() ? 1 : shape.radices.back()));
    p.macros["FFT_SHIFT"] = std::to_string(len.twiddle_shift);
    p.macros["FFT_PAD"] = std::to_string(every);
    p.macros["FFT_RP"] = std::to_string(slot_stride(L, every, s.shape.slots));
    if (shape.before > 1 && gpu_class(p.device_class)) {
      p.macros["FFT_STAGE_SINCOS"] = "1";
      p.decide("fft_stage_twiddles", "from their angles", "fft.stage-twiddles",
               "a stage after the first twiddles each value by W_" + std::to_string(m) +
                   "^m: computed (sinpi and cospi of the angle reduced exactly to an eighth of the circle) "
                   "instead of two table reads per value scattered over the tables");
    }
    set_stage_registers(s);
    p.decide("fft_padding", "one value in " + std::to_string(every + 1), "fft.local-padding",
             "a value of " + std::to_string(complex_bytes) + " bytes after every " + std::to_string(every) + " (a " +
                 std::to_string(kBankRowBytes) + "-byte row of banks), slots " + p.macros["FFT_RP"] +
                 " values apart: a pass's writes at strides of its radix, and work-items on consecutive slots, "
                 "spread over the banks");
    p.decide("fft_program", "a program for this stage", "fft.specialise",
             std::string(gpu_class(p.device_class) ? "GPUs" : "CPUs, a transform of at least 2^16 values") +
                 ": the stage's length, slots and radices compiled in, so each pass unrolls and a work-item's " +
                 p.macros["FFT_VMAX"] + " values (its butterflies of " + std::to_string(qmax(shape.radices)) +
                 " at most) stay in registers across the pass's barrier: the passes run in place");
  } else {
    p.decide("fft_program", "one program for every length", "fft.specialise",
             "CPUs and Xeon Phi, a transform of fewer than 2^16 values: lengths and radices as arguments (a "
             "program a length would be compiled for each length a user transforms, and the compilation would "
             "outweigh the call)");
  }
  // In place, the first pass's butterflies read their values straight
  // from memory into registers and the last pass's write theirs, in the
  // order that coalesces: consecutive work-items along a slot (1) or across
  // slots (2). A stage of one pass has one order of butterflies: where its
  // load and store want different ones, the store goes through the local
  // buffer (0).
  // The packed real transform's halves split before the first pass
  // (joined after the last) go through local memory (fft.real-packed).
  const bool direct = specialised(p) && !shape.radices.empty();
  bool staged_store = out_kind == "FFT_REAL_POST";
  const bool staged_load = in_kind == "FFT_REAL_PRE";
  if (direct) {
    staged_store = staged_store || (shape.radices.size() == 1 && s.in_slot_first != s.out_slot_first && !staged_load);
    p.macros["FFT_DIRECT_IN"] = staged_load ? "0" : s.in_slot_first ? "2" : "1";
    p.macros["FFT_DIRECT_OUT"] = staged_store ? "0" : s.out_slot_first ? "2" : "1";
  }
  auto order = [&](bool across, bool staged) {
    return std::string(across ? "across slots" : "along a slot") + (direct && !staged ? ", from registers"
                                                                    : direct          ? ", through local memory"
                                                                                      : "");
  };
  p.decide("fft_access",
           "load " + order(s.in_slot_first, staged_load) + ", store " + order(s.out_slot_first, staged_store),
           "fft.coalescing",
           "consecutive work-items take the order whose addresses are nearer: slots " + std::to_string(in_slot) +
               " / " + std::to_string(out_slot) + " elements apart, a slot's values " +
               std::to_string(per_batch * in.stride) + " / " + std::to_string(shape.before * out.stride));
  return s;
}

// A stage in one launch of fft_lanes (rule fft.lanes): a work-item a SIMD
// width of its sequences, a work-group of one.
FftStep lanes_step(const LaunchPlan& base, const AxisJob& job, const FftLength& len, const FftStage& stage,
                   const FftView& in, const FftView& out, int sign, const std::string& in_kind,
                   const std::string& out_kind) {
  FftStep s = job_step(job, base, FftStep::lanes, "fft_lanes", sign, in_kind, out_kind);
  s.in = in;
  s.out = out;
  s.n = len.m;
  s.shape = stage;
  LaunchPlan& p = s.plan;
  unsigned long long packed = 0;
  for (std::size_t k = stage.radices.size(); k-- > 0;) packed = (packed << 4) | stage.radices[k];
  p.macros["FFT_LANES"] = std::to_string(len.lanes);
  p.macros["FFT_LANE_L"] = std::to_string(stage.length);
  p.macros["FFT_LANE_TWIDDLED"] = stage.before > 1 ? "1" : "0";
  p.macros["FFT_LANE_ACROSS"] = len.lanes_across ? "1" : "0";
  p.macros["FFT_LANE_PASSES"] = std::to_string(stage.radices.size());
  p.macros["FFT_LANE_RADICES"] = std::to_string(packed) + "UL";
  groups_of_one(p);
  p.use_local_memory = false;
  p.items_per_work_item = 1;  // a work-item's sequences are its lanes
  grid_of_groups(p, (job.transforms * (len.m / stage.length) + len.lanes - 1) / len.lanes);
  return s;
}

// One axis's steps: its stages (through the temporaries when more than
// one), or the chirp-z around forward and inverse stages of length m.
void axis_steps(FftLaunches& l, const LaunchPlan& base, const AxisJob& job, std::size_t element_bytes) {
  const FftLength& len = l.lengths[job.axis];
  auto run_stages = [&](FftView from, const FftView& to, int sign, const std::string& in_kind,
                        const std::string& out_kind) {
    const std::size_t count = len.stages.size();
    FftOperand spare = FftOperand::temp_a;
    for (std::size_t k = 0; k < count; ++k) {
      const bool last = k + 1 == count;
      FftView dest = to;
      if (!last) {
        if (from.operand == FftOperand::temp_a)
          spare = FftOperand::temp_b;
        else if (from.operand == FftOperand::temp_b)
          spare = FftOperand::temp_a;
        dest = job.batch_major ? interleaved_view(spare, job.transforms, job.c0, job.c1)
                               : packed_view(spare, len.m, job.c0, job.c1);
      }
      if (len.lanes)
        l.steps.push_back(
            lanes_step(base, job, len, len.stages[k], from, dest, sign, k == 0 ? in_kind : "", last ? out_kind : ""));
      else
        l.steps.push_back(stage_step(base, job, len, len.stages[k], from, dest, sign, k == 0 ? in_kind : "",
                                     last ? out_kind : "", element_bytes));
      from = dest;
    }
  };
  if (!len.bluestein) {
    if (len.stages.size() > 1) l.temp_values = std::max(l.temp_values, job.transforms * len.m);
    run_stages(job.in, job.out, job.sign, job.in_kind, job.out_kind);
    return;
  }
  l.temp_values = std::max(l.temp_values, job.transforms * len.m);
  const FftView work = packed_view(FftOperand::temp_a, len.m, job.c0, job.c1);
  const std::size_t kept = job.out_kind == "HALF_OUT" ? fft_half(len.n) : len.n;
  const std::size_t values = job.transforms * len.m;
  FftStep in = job_step(job, one_per_item(base, values), FftStep::chirp_in, "fft_chirp_in", job.sign, job.in_kind, "");
  FftStep product =
      job_step(job, one_per_item(base, values), FftStep::chirp_product, "fft_chirp_product", job.sign, "", "");
  FftStep out = job_step(job, one_per_item(base, job.transforms * kept), FftStep::chirp_out, "fft_chirp_out", job.sign,
                         "", job.out_kind);
  in.in = job.in;
  in.out = product.in = product.out = out.in = work;
  out.out = job.out;
  for (FftStep* s : {&in, &product, &out}) {
    s->chirp_n = len.n;
    s->chirp_m = len.m;
  }
  l.steps.push_back(in);
  run_stages(work, work, -1, "", "");
  l.steps.push_back(product);
  run_stages(work, work, +1, "", "");
  l.steps.push_back(out);
}

// How the last axis's n reals run (rule fft.real-packed): as n / 2
// complex values, the halves joined (split) within the stage where n / 2
// is one stage of a GPU's in-place program (on PoCL, 4096 transforms of
// 1000 reals took 20.6 ms joined in the stage against 16.8 as complex
// values, so CPUs keep a single stage whole), or by a launch of their own where n
// takes several stages (n / 2's stages and the joining launch move fewer
// bytes); else as complex values (a single stage of n moves each value
// once already, and a launch more would add a read and a write). A column
// axis keeps its reals as complex values.
enum class RealForm { complex, joined_in_stage, joined_by_launch };

RealForm real_form(LaunchPlan& plan, const DeviceInfo& device, std::size_t n, std::size_t element_bytes, bool columns) {
  if (n % 2 || !fft_smooth(n)) return RealForm::complex;
  const std::string len = std::to_string(n), half = std::to_string(n / 2);
  if (columns) {
    plan.decide(
        "fft_real", "as complex values", "fft.real-packed",
        "the length-" + len + " transforms lie side by side (a column axis): their reals run as complex values");
    return RealForm::complex;
  }
  LaunchPlan scratch = plan;
  const std::size_t stages = choose_fft_length(scratch, device, n, element_bytes).stages.size();
  const std::size_t half_stages = n > 2 ? choose_fft_length(scratch, device, n / 2, element_bytes).stages.size() : 0;
  if (gpu_class(plan.device_class) && specialised(plan) && half_stages == 1) {
    plan.decide("fft_real", "packed, " + half + " complex values, joined in the stage", "fft.real-packed",
                "the reals as " + half + " complex values (2j, 2j + 1), one stage of an in-place program that joins " +
                    "(splits) the halves in local memory: " +
                    (stages > 1 ? "one launch where length " + len + " takes " + std::to_string(stages)
                                : "half the arithmetic of length " + len));
    return RealForm::joined_in_stage;
  }
  if (stages < 2) {
    plan.decide("fft_real", "as complex values", "fft.real-packed",
                "length " + len + " is one stage: each value is read and written once already");
    return RealForm::complex;
  }
  plan.decide("fft_real", "packed, " + half + " complex values, joined by a launch", "fft.real-packed",
              "length " + len + " takes " + std::to_string(stages) + " stages; its reals as " + half +
                  " complex values (2j, 2j + 1), whose stages and one launch joining the halves move fewer bytes "
                  "and do half the arithmetic");
  return RealForm::joined_by_launch;
}

}  // namespace

FftLaunches plan_fft_launches(const LaunchPlan& plan, const DeviceInfo& device, const FftProblem& p) {
  FftLaunches l;
  const std::size_t dims = p.shape.size();
  std::vector<std::size_t> complex_dims = p.shape;
  if (p.kind != FftProblem::c2c) complex_dims.back() = fft_half(p.shape.back());
  const ArrayShape in = array_shape(FftOperand::input, p.kind == FftProblem::r2c ? p.shape : complex_dims, p.in_offset,
                                    p.in_stride, p.in_distance);
  const ArrayShape out = array_shape(FftOperand::output, p.kind == FftProblem::c2r ? p.shape : complex_dims,
                                     p.out_offset, p.out_stride, p.out_distance);
  // Each axis's steps carry the decisions of its own length, then their own.
  LaunchPlan marked = plan;
  std::size_t values = p.batch;
  for (std::size_t n : p.shape) values *= n;
  if (gpu_class(plan.device_class) || values >= kCpuSpecialisedValues) marked.macros["FFT_SPECIALISED"] = "1";
  std::vector<LaunchPlan> axis_plans(dims, marked);
  l.lengths.resize(dims);
  l.inverse = p.kind == FftProblem::c2r || (p.kind == FftProblem::c2c && p.inverse);
  const int sign = l.inverse ? +1 : -1;
  auto job = [&](std::size_t axis, const ArrayShape& from, const ArrayShape& to, const std::string& in_kind,
                 const std::string& out_kind) {
    AxisJob j;
    j.axis = axis;
    j.in = axis_view(from, axis, j.c0, j.c1);
    std::size_t c0 = 1, c1 = 1;
    j.out = axis_view(to, axis, c0, c1);
    j.transforms = p.batch * j.c0 * j.c1;
    // A column axis (fft.columns): its slots are neighbouring transforms
    // where both views have them side by side (Bluestein's stages run on
    // a packed temporary).
    const bool columns = fft_smooth(p.shape[axis]) && across_batches(j.in, j.c0, j.c1, j.transforms) &&
                         across_batches(j.out, j.c0, j.c1, j.transforms);
    l.lengths[axis] = choose_fft_length(axis_plans[axis], device, p.shape[axis], p.element_bytes, columns);
    const FftLength& len = l.lengths[axis];
    j.batch_major = columns && (len.lanes ? len.lanes_across : specialised(axis_plans[axis])) && len.stages.size() > 1;
    j.sign = sign;
    j.in_kind = in_kind;
    j.out_kind = out_kind;
    axis_steps(l, axis_plans[axis], j, p.element_bytes);
  };
  // The last axis of R2C or C2R from `from` to `to`: its n reals as n / 2
  // complex values where rule fft.real-packed takes them (R2C: the stages
  // into a temporary, then fft_real_post into the half spectrum; C2R:
  // fft_real_pre from the half spectrum into a temporary, then the
  // stages), else the reals as complex values (REAL_IN, HALF_OUT; HERM_IN,
  // REAL_OUT).
  auto real_job = [&](const ArrayShape& from, const ArrayShape& to) {
    const std::size_t axis = dims - 1, n = p.shape[axis], half = n / 2;
    const bool r2c = p.kind == FftProblem::r2c;
    AxisJob j;
    j.axis = axis;
    j.sign = sign;
    std::size_t c0 = 1, c1 = 1;
    FftView reals = axis_view(r2c ? from : to, axis, j.c0, j.c1);
    const FftView spectrum = axis_view(r2c ? to : from, axis, c0, c1);
    j.transforms = p.batch * j.c0 * j.c1;
    const RealForm form =
        real_form(axis_plans[axis], device, n, p.element_bytes, across_batches(reals, j.c0, j.c1, j.transforms));
    if (form == RealForm::complex) {
      if (r2c)
        job(axis, from, to, "REAL_IN", "HALF_OUT");
      else
        job(axis, from, to, "HERM_IN", "REAL_OUT");
      return;
    }
    reals.stride *= 2;  // value e: the reals e stride and e stride + stride / 2 (PAIR_IN, PAIR_OUT)
    l.lengths[axis] = choose_fft_length(axis_plans[axis], device, half, p.element_bytes);
    if (form == RealForm::joined_in_stage) {
      j.in = r2c ? reals : spectrum;
      j.out = r2c ? spectrum : reals;
      j.in_kind = r2c ? "PAIR_IN" : "FFT_REAL_PRE";
      j.out_kind = r2c ? "FFT_REAL_POST" : "PAIR_OUT";
      axis_steps(l, axis_plans[axis], j, p.element_bytes);
      return;
    }
    l.real_n = n;
    l.real_shift = twiddle_split(n);
    l.temp_values = std::max(l.temp_values, j.transforms * half);
    FftStep edge =
        job_step(j, one_per_item(axis_plans[axis], j.transforms * (half / 2 + 1)),
                 r2c ? FftStep::real_post : FftStep::real_pre, r2c ? "fft_real_post" : "fft_real_pre", sign, "", "");
    edge.n = n;
    if (r2c) {
      // The stages' last output: the temporary its input is not (they
      // alternate from temp_a).
      const FftOperand last = l.lengths[axis].stages.size() % 2 ? FftOperand::temp_a : FftOperand::temp_b;
      j.in = reals;
      j.out = edge.in = packed_view(last, half, j.c0, j.c1);
      j.in_kind = "PAIR_IN";
      axis_steps(l, axis_plans[axis], j, p.element_bytes);
      edge.out = spectrum;
      l.steps.push_back(edge);
    } else {
      edge.in = spectrum;
      edge.out = j.in = packed_view(FftOperand::temp_a, half, j.c0, j.c1);
      l.steps.push_back(edge);
      j.out = reals;
      j.out_kind = "PAIR_OUT";
      axis_steps(l, axis_plans[axis], j, p.element_bytes);
    }
  };
  if (p.kind == FftProblem::c2r) {
    // The other axes inverse, from the input into a packed copy, in place
    // there; then the last axis from the copy (or the input) to the reals.
    const ArrayShape copy = array_shape(FftOperand::copy, complex_dims, 0, 1, 0);
    if (dims > 1) l.copy_values = p.batch * copy.distance;
    for (std::size_t a = dims - 1; a-- > 0;) job(a, a == dims - 2 ? in : copy, copy, "", "");
    real_job(dims > 1 ? copy : in, out);
    return l;
  }
  // C2C and R2C: the last axis from the input to the output, the others in
  // place there.
  if (p.kind == FftProblem::r2c)
    real_job(in, out);
  else
    job(dims - 1, in, out, "", "");
  for (std::size_t a = dims - 1; a-- > 0;) job(a, out, out, "", "");
  return l;
}

void fit_fft_group(FftStep& step, std::size_t compiled_limit) {
  LaunchPlan& p = step.plan;
  const std::size_t planned = p.work_group_size();
  if (!compiled_limit || planned <= compiled_limit) return;
  std::size_t fitted = 1;
  while (fitted * 2 <= compiled_limit) fitted *= 2;
  const std::size_t groups = p.work_groups;
  p.local = {{fitted, 1, 1}};
  p.macros["WG_SIZE"] = std::to_string(fitted);
  grid_of_groups(p, groups);
  set_stage_registers(step);
  p.decide("work_group_size", std::to_string(fitted), "limits.kernel-work-group-size",
           "the compiled stage kernel takes at most " + std::to_string(compiled_limit) + " work-items, not " +
               std::to_string(planned));
}

}  // namespace portacl
