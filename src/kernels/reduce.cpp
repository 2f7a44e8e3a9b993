// SPDX-License-Identifier: Apache-2.0
#include "portacl/vectors.hpp"

#include <cctype>
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernel_call.hpp"
#include "rules/reduce_rules.hpp"
#include "kernels/reduce_tunables.hpp"
#include "kernels/planner.hpp"

namespace portacl {

namespace {

// One reduction: the definitions reduce.cl expects (see its header).
struct ReduceOp {
  std::string name;
  std::string definitions;
  unsigned inputs;
  bool vectorizable;
  double flops;
  std::string compiler_flags = "";
};

// What the rules see for `op` accumulating `state_bytes` per partial.
KernelTraits traits_of(const ReduceOp& op, ElementType element, std::size_t state_bytes) {
  return reduce_traits(op.name, element, op.inputs, state_bytes, op.vectorizable, op.flops);
}

const char* one_input = "#define INPUTS __global const T* restrict x\n";
const char* two_inputs = "#define INPUTS __global const T* restrict x, __global const T* restrict y\n";

ReduceOp additive(const std::string& name, const std::string& state, const std::string& element,
                  const std::string& element_v, unsigned inputs, double flops) {
  return ReduceOp{name,
                  "#define S " + state +
                      "\n#define IDENTITY ((S)0)\n#define COMBINE(a, b) ((a) + (b))\n"
                      "#define COMBINE_IS_ADD 1\n" +
                      (inputs == 1 ? one_input : two_inputs) + "#define ELEMENT(i) (" + element +
                      ")\n#define ELEMENT_V(i) (" + element_v + ")\n",
                  inputs, true, flops};
}

// NaN wins (IEEE 754-2019 minimum/maximum), written for scalars and vectors.
ReduceOp extreme(const std::string& name, const char* op, const char* worst) {
  return ReduceOp{name,
                  std::string("#define S T\n#define IDENTITY ((T)") + worst + ")\n#define COMBINE(a, b) ((((a) " + op +
                      " (b)) | isnan(a)) ? (a) : (b))\n" + one_input +
                      "#define ELEMENT(i) (x[i])\n#define ELEMENT_V(i) VLOAD(i, x)\n",
                  1, true, 1};
}

// min or max of integers (`op` "min" or "max", OpenCL's built-ins, for
// scalars and vectors); `worst` the identity, the type's other end.
ReduceOp integer_extreme(const std::string& name, const char* op, const std::string& worst) {
  return ReduceOp{name,
                  "#define S T\n#define IDENTITY ((T)" + worst + ")\n#define COMBINE(a, b) " + op + "((a), (b))\n" +
                      one_input + "#define ELEMENT(i) (x[i])\n#define ELEMENT_V(i) VLOAD(i, x)\n",
                  1, true, 1};
}

// min or max of T: NaN wins for floats; integers by OpenCL's min and max.
template <class T>
ReduceOp extreme_of(bool smallest) {
  if constexpr (std::is_floating_point<T>::value) {
    return smallest ? extreme("min", "<", "INFINITY") : extreme("max", ">", "-INFINITY");
  } else {
    // OpenCL C's limits are the type's name in capitals: INT_MAX, ULONG_MAX.
    std::string limit = cl_type_name(element_of<T>::value);
    for (char& c : limit) c = char(std::toupper(static_cast<unsigned char>(c)));
    const std::string lowest = std::is_signed<T>::value ? limit + "_MIN" : "0";
    return smallest ? integer_extreme("min", "min", limit + "_MAX") : integer_extreme("max", "max", lowest);
  }
}

// Value and index; ties and NaNs go to the lower index. `value_of` is the
// value of element i (x[i] or fabs(x[i])); where the plan takes vectors it
// is read a vector at a time (ARG_VECTOR in reduce.cl), with indices of T's
// width (`wide`: 8-byte elements).
ReduceOp arg_extreme(const std::string& name, const char* op, const char* worst, const std::string& value_of,
                     bool wide) {
  std::string vector_value = value_of;
  vector_value.replace(vector_value.find("x[i]"), 4, "VLOAD(i, x)");
  return ReduceOp{name,
                  std::string("typedef struct { T v; ulong i; } arg_t;\n#define S arg_t\n"
                              "inline arg_t arg_make(T v, ulong i) { arg_t r; r.v = v; r.i = i; return r; }\n"
                              "inline arg_t arg_combine(arg_t a, arg_t b) {\n"
                              "  const int an = isnan(a.v), bn = isnan(b.v);\n"
                              "  const int take_a = an ? (!bn || a.i < b.i)\n"
                              "                        : (!bn && ((a.v ") +
                      op +
                      " b.v) || (a.v == b.v && a.i < b.i)));\n"
                      "  return take_a ? a : b;\n}\n"
                      "#define IDENTITY arg_make((T)" +
                      worst +
                      ", ULONG_MAX)\n"
                      "#define COMBINE(a, b) arg_combine((a), (b))\n" +
                      one_input + "#define ELEMENT(i) arg_make(" + value_of + ", (ulong)(i))\n" +
                      "#define ARG_VECTOR 1\n#define ARG_OP " + op + "\n#define ARG_VALUE_V(i) (" + vector_value +
                      ")\n" +
                      (wide ? "#define ARG_INDEX ulong\n#define ARG_MASK long\n#define ARG_NONE ULONG_MAX\n"
                            : "#define ARG_INDEX uint\n#define ARG_MASK int\n#define ARG_NONE UINT_MAX\n"),
                  1, true, 1};
}

// Enqueues the reduction; its value (one S) lands in `result`. Returns the
// event of the last command. The caller holds the scratch memory
// (partials, ticket) from here until the value is read or the queue has
// moved on (it is in order).
template <class S>
cl::Event enqueue(Context& ctx, const ReduceOp& op, ElementType element, std::size_t n,
                  const std::vector<const BufferStorage*>& inputs, const PlanOptions& options, LaunchPlan* used,
                  const cl::Buffer& result) {
  KernelTraits traits = traits_of(op, element, sizeof(S));
  std::string source = "#include \"portacl_common.cl\"\n" + op.definitions + "#include \"reduce.cl\"\n";
  KernelRef ref{op.name + ".cl", "reduce", source, op.compiler_flags};
  if (n == 0) {
    // The empty sum (count, dot) is 0: no launch, the value is written.
    if (used) *used = ctx.plan(traits, ProblemSize(0), options);
    cl::Event filled;
    check_cl(ctx.queue().enqueueFillBuffer(result, cl_uchar{0}, 0, sizeof(S), nullptr, &filled),
             "clEnqueueFillBuffer(" + op.name + " result of no elements)");
    return filled;
  }
  PreparedKernel k = ctx.prepare(ref, traits, ProblemSize(n), options);
  const LaunchPlan& plan = k.plan;
  const bool single_pass = plan.passes == 1;
  const std::size_t units = reduce_partials(plan);

  const cl::Buffer& partials = ctx.scratch("reduce.partials", bytes_of<S>(units, "reduction partials"));
  const cl::Buffer& ticket = ctx.scratch("reduce.ticket", sizeof(cl_uint), true);
  unsigned arg = 0;
  kernel_call::set(k, arg++, static_cast<cl_ulong>(n));
  for (const BufferStorage* b : inputs) kernel_call::set(k, arg++, *b);
  kernel_call::set(k, arg++, partials);
  kernel_call::set(k, arg++, ticket);
  kernel_call::set(k, arg++, result);
  kernel_call::set(k, arg++, static_cast<cl_uint>(single_pass));
  cl::Event last = ctx.launch(k);

  if (!single_pass) {
    PreparedKernel combine =
        ctx.prepare(KernelRef{ref.file, "reduce_partials", source, op.compiler_flags}, reduce_combine_plan(plan));
    unsigned a = 0;
    kernel_call::set(combine, a++, static_cast<cl_ulong>(units));
    kernel_call::set(combine, a++, partials);
    kernel_call::set(combine, a++, result);
    last = ctx.launch(combine);
  }
  if (used) *used = plan;
  return last;
}

// The blocking form: enqueue into scratch memory and read the value.
template <class S>
S run(Context& ctx, const ReduceOp& op, ElementType element, std::size_t n, std::vector<const BufferStorage*> inputs,
      const PlanOptions& options, LaunchPlan* used) {
  auto held = ctx.hold_scratch();  // partials, ticket and result until the value is read
  const cl::Buffer& result = ctx.scratch("reduce.result", sizeof(S));
  enqueue<S>(ctx, op, element, n, inputs, options, used, result);
  S out{};
  check_cl(ctx.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof(S), &out),
           "clEnqueueReadBuffer(" + op.name + " result)");
  return out;
}

// The asynchronous form: the value lands in a buffer of its own.
template <class S>
DeviceValue<S> run_async(Context& ctx, const ReduceOp& op, ElementType element, std::size_t n,
                         std::vector<const BufferStorage*> inputs, const PlanOptions& options, LaunchPlan* used) {
  auto held = ctx.hold_scratch();  // the in-order queue serialises the kernels that reuse it
  cl_int err = CL_SUCCESS;
  cl::Buffer result(ctx.cl_context(), CL_MEM_READ_WRITE, sizeof(S), nullptr, &err);
  check_cl(err, "clCreateBuffer(" + op.name + " result)");
  cl::Event ready = enqueue<S>(ctx, op, element, n, inputs, options, used, result);
  return DeviceValue<S>(ctx, std::move(result), std::move(ready));
}

template <class T>
void require_elements(const char* op, const Buffer<T>& x) {
  if (x.size() == 0) throw Error(std::string(op) + ": the buffer is empty, and " + op + " of no elements is undefined");
}

// Device-side layout of arg_t: { T v; ulong i; }.
template <class T>
struct ArgState {
  T v;
  std::uint64_t i;
};

template <class T>
Extremum<T> run_arg(Context& ctx, const char* name, const char* op, const char* worst, const char* value_of,
                    const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, name, "x");
  require_elements(name, x);
  auto s = run<ArgState<T>>(ctx, arg_extreme(name, op, worst, value_of, sizeof(T) == 8), element_of<T>::value, x.size(),
                            {&x}, o, used);
  return Extremum<T>{s.v, static_cast<std::size_t>(s.i)};
}

// Integers add in 64 bits (int and uint elements widened as they are read).
bool widened_sum(ElementType element) { return element == ElementType::i32 || element == ElementType::u32; }
ReduceOp sum_op(ElementType element) {
  if (widened_sum(element))
    return additive("sum_wide", "long", "(long)x[i]", "PORTACL_CAT(convert_, SV)(VLOAD(i, x))", 1, 1);
  return additive("sum", "T", "x[i]", "VLOAD(i, x)", 1, 1);
}
std::size_t sum_state_bytes(ElementType element) {
  return widened_sum(element) ? sizeof(std::int64_t) : size_of(element);
}

ReduceOp dot_op() { return additive("dot", "T", "x[i] * y[i]", "VLOAD(i, x) * VLOAD(i, y)", 2, 2); }

// nrm2 sums squares (in double where floats' squares could overflow a
// float and the device has fp64); REDUCE_SQRT adds the square root kernel
// its asynchronous form ends with.
ReduceOp nrm2_op(bool wide) {
  ReduceOp op = wide ? additive("nrm2_wide", "double", "(double)x[i] * (double)x[i]",
                                "PORTACL_CAT(convert_, SV)(VLOAD(i, x)) * PORTACL_CAT(convert_, SV)(VLOAD(i, x))", 1, 2)
                     : additive("nrm2", "T", "x[i] * x[i]", "VLOAD(i, x) * VLOAD(i, x)", 1, 2);
  op.definitions = std::string(wide ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "") +
                   "#define REDUCE_SQRT 1\n" + op.definitions;
  return op;
}

template <class T>
bool nrm2_is_wide(const Context& ctx) {
  return std::is_same<T, float>::value && ctx.info().fp64;
}

ReduceOp count_if_op(const std::string& predicate, ElementType element) {
  kernel_call::check_expression("count_if", "predicate", predicate);
  // Comparisons give 1 on scalars and -1 on vectors.
  ReduceOp op = additive("count_if", "ulong", "(PREDICATE(x[i])) ? 1 : 0",
                         "PORTACL_CAT(convert_, SV)(-(PREDICATE(VLOAD(i, x))))", 1, 1);
  op.definitions = "#define PREDICATE(x) (" + predicate + ")\n" + op.definitions;
  op.compiler_flags = kernel_call::expression_flags(element);
  return op;
}

}  // namespace

template <class T, class>
sum_type<T> sum(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "sum", "x");
  return run<sum_type<T>>(ctx, sum_op(element_of<T>::value), element_of<T>::value, x.size(), {&x}, o, used);
}

template <class T, class>
DeviceValue<sum_type<T>> sum_async(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "sum_async", "x");
  return run_async<sum_type<T>>(ctx, sum_op(element_of<T>::value), element_of<T>::value, x.size(), {&x}, o, used);
}

namespace {
void check_dot_operands(Context& ctx, const BufferStorage& x, std::size_t nx, const BufferStorage& y, std::size_t ny) {
  kernel_call::same_context(ctx, x, "dot", "x");
  kernel_call::same_context(ctx, y, "dot", "y");
  kernel_call::same_length("dot", "x", nx, "y", ny);
}
}  // namespace

template <class T, class>
T dot(Context& ctx, const Buffer<T>& x, const Buffer<T>& y, const PlanOptions& o, LaunchPlan* used) {
  check_dot_operands(ctx, x, x.size(), y, y.size());
  return run<T>(ctx, dot_op(), element_of<T>::value, x.size(), {&x, &y}, o, used);
}

template <class T, class>
DeviceValue<T> dot_async(Context& ctx, const Buffer<T>& x, const Buffer<T>& y, const PlanOptions& o, LaunchPlan* used) {
  check_dot_operands(ctx, x, x.size(), y, y.size());
  return run_async<T>(ctx, dot_op(), element_of<T>::value, x.size(), {&x, &y}, o, used);
}

template <class T, class>
T nrm2(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "nrm2", "x");
  if (nrm2_is_wide<T>(ctx))
    return static_cast<T>(std::sqrt(run<double>(ctx, nrm2_op(true), element_of<T>::value, x.size(), {&x}, o, used)));
  return std::sqrt(run<T>(ctx, nrm2_op(false), element_of<T>::value, x.size(), {&x}, o, used));
}

template <class T, class>
DeviceValue<T> nrm2_async(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "nrm2_async", "x");
  const bool wide = nrm2_is_wide<T>(ctx);
  const ReduceOp op = nrm2_op(wide);
  LaunchPlan plan;
  cl::Buffer squares;
  if (wide)
    squares = run_async<double>(ctx, op, element_of<T>::value, x.size(), {&x}, o, &plan).buffer();
  else
    squares = run_async<T>(ctx, op, element_of<T>::value, x.size(), {&x}, o, &plan).buffer();
  // One work-item takes the root on the device, after the sum (in order).
  const LaunchPlan root = single_work_item(plan);
  const std::string source = "#include \"portacl_common.cl\"\n" + op.definitions + "#include \"reduce.cl\"\n";
  PreparedKernel k = ctx.prepare(KernelRef{op.name + ".cl", "reduce_sqrt", source, op.compiler_flags}, root);
  cl_int err = CL_SUCCESS;
  cl::Buffer out(ctx.cl_context(), CL_MEM_READ_WRITE, sizeof(T), nullptr, &err);
  check_cl(err, "clCreateBuffer(nrm2_async result)");
  kernel_call::set(k, 0, squares);
  kernel_call::set(k, 1, out);
  cl::Event ready = ctx.launch(k);
  if (used) *used = plan;
  return DeviceValue<T>(ctx, std::move(out), std::move(ready));
}

template <class T, class>
T min(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "min", "x");
  require_elements("min", x);
  return run<T>(ctx, extreme_of<T>(true), element_of<T>::value, x.size(), {&x}, o, used);
}

template <class T, class>
T max(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "max", "x");
  require_elements("max", x);
  return run<T>(ctx, extreme_of<T>(false), element_of<T>::value, x.size(), {&x}, o, used);
}

template <class T, class>
Extremum<T> argmin(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  return run_arg(ctx, "argmin", "<", "INFINITY", "x[i]", x, o, used);
}

template <class T, class>
Extremum<T> argmax(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  return run_arg(ctx, "argmax", ">", "-INFINITY", "x[i]", x, o, used);
}

template <class T, class>
Extremum<T> iamax(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  return run_arg(ctx, "iamax", ">", "-INFINITY", "fabs(x[i])", x, o, used);
}

template <class T, class>
std::uint64_t count_if(Context& ctx, const std::string& predicate, const Buffer<T>& x, const PlanOptions& o,
                       LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "count_if", "x");
  return run<cl_ulong>(ctx, count_if_op(predicate, element_of<T>::value), element_of<T>::value, x.size(), {&x}, o,
                       used);
}

template <class T, class>
DeviceValue<std::uint64_t> count_if_async(Context& ctx, const std::string& predicate, const Buffer<T>& x,
                                          const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "count_if_async", "x");
  DeviceValue<cl_ulong> v = run_async<cl_ulong>(ctx, count_if_op(predicate, element_of<T>::value), element_of<T>::value,
                                                x.size(), {&x}, o, used);
  return DeviceValue<std::uint64_t>(ctx, v.buffer(), v.ready());
}

template <class T, class>
DeviceValue<T> min_async(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "min_async", "x");
  require_elements("min_async", x);
  return run_async<T>(ctx, extreme_of<T>(true), element_of<T>::value, x.size(), {&x}, o, used);
}

template <class T, class>
DeviceValue<T> max_async(Context& ctx, const Buffer<T>& x, const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "max_async", "x");
  require_elements("max_async", x);
  return run_async<T>(ctx, extreme_of<T>(false), element_of<T>::value, x.size(), {&x}, o, used);
}

#define PORTACL_REDUCE_INSTANTIATE(T)                                                                                  \
  template T sum<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                                      \
  template T dot<T>(Context&, const Buffer<T>&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                    \
  template T nrm2<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                                     \
  template T min<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                                      \
  template T max<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                                      \
  template Extremum<T> argmin<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                         \
  template Extremum<T> argmax<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                         \
  template Extremum<T> iamax<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                          \
  template std::uint64_t count_if<T>(Context&, const std::string&, const Buffer<T>&, const PlanOptions&, LaunchPlan*); \
  template DeviceValue<T> sum_async<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                   \
  template DeviceValue<T> dot_async<T>(Context&, const Buffer<T>&, const Buffer<T>&, const PlanOptions&, LaunchPlan*); \
  template DeviceValue<T> nrm2_async<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                  \
  template DeviceValue<T> min_async<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                   \
  template DeviceValue<T> max_async<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                   \
  template DeviceValue<std::uint64_t> count_if_async<T>(Context&, const std::string&, const Buffer<T>&,                \
                                                        const PlanOptions&, LaunchPlan*);
PORTACL_REDUCE_INSTANTIATE(float)
PORTACL_REDUCE_INSTANTIATE(double)
#define PORTACL_SUM_INSTANTIATE(T)                                                           \
  template std::int64_t sum<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*); \
  template DeviceValue<std::int64_t> sum_async<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);
PORTACL_SUM_INSTANTIATE(int)
PORTACL_SUM_INSTANTIATE(std::int64_t)
PORTACL_SUM_INSTANTIATE(std::uint32_t)
#define PORTACL_EXTREME_INSTANTIATE(T)                                                               \
  template T min<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                    \
  template T max<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);                    \
  template DeviceValue<T> min_async<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*); \
  template DeviceValue<T> max_async<T>(Context&, const Buffer<T>&, const PlanOptions&, LaunchPlan*);
PORTACL_EXTREME_INSTANTIATE(int)
PORTACL_EXTREME_INSTANTIATE(std::int64_t)
PORTACL_EXTREME_INSTANTIATE(std::uint32_t)
PORTACL_EXTREME_INSTANTIATE(std::uint64_t)

ReduceLaunches plan_sum(const Planner& planner, ElementType element, std::size_t n) {
  ReduceLaunches l;
  l.reduce = planner.plan(traits_of(sum_op(element), element, sum_state_bytes(element)), ProblemSize(n));
  if (n && l.reduce.passes != 1) l.combine = reduce_combine_plan(l.reduce);
  return l;
}

}  // namespace portacl
