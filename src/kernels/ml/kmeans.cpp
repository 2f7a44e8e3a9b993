// SPDX-License-Identifier: Apache-2.0
// Lloyd's k-means (kernels/ml_kmeans.cl): validate, plan (rules/kmeans_rules),
// seed the centroids, then assign and update until a stopping test holds.
// The host reads two numbers a work-group each iteration (the changed
// labels and the inertia) and adds them in double.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/ml/kmeans_tunables.hpp"
#include "portacl/error.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

using kernel_call::ceil_div;

KernelTraits kmeans_traits(ElementType element) {
  // benefits_from_local_tiling: the centroids, read by every point
  // needs_barriers: the chunk's labels
  // has_barrier_free_variant: every plan stages the labels
  // local_bytes_per_work_item: a label, and a distance and a count to add up
  // bytes_per_item: d = 35 elements of a point
  // flops_per_item: k = 10: a subtraction and an FMA per coordinate and centroid
  return kernel_traits("kmeans", element, 1,
                       traits::local_tiling | traits::barriers | traits::barriers_only | traits::scalar,
                       {35.0 * double(size_of(element)), 1050, 12}, &kmeans_tunables());
}

const TuningSpace& kmeans_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512}),
       knobs::use_local_memory(),
       {"POINTS", {1, 2, 4, 8}, std::nullopt, "points a work-item"},
       {"BLOCK",
        {1, 2, 4, 8, 16},
        std::nullopt,
        "centroids compared at a time (a vector), a point's coordinate read once a block"},
       {"COLUMNS", {0, 1}, std::nullopt, "1: a column per point, 0: a row per point"},
       {"ATOMIC", {0, 1}, std::nullopt, "1: partial sums added with atomics, 0: a row per work-group"}},
      nullptr};
  return space;
}

LaunchPlan KmeansLaunch::helper(std::size_t items) const { return one_per_item(assign, items); }

KmeansLaunch plan_kmeans(const Planner& planner, std::size_t n, std::size_t d, std::size_t k, ElementType element) {
  KmeansLaunch l;
  l.assign = planner.plan(kmeans_traits(element), ProblemSize(std::max<std::size_t>(n, 1)));
  l.shape = choose_kmeans(l.assign, kmeans_tunables(), planner.device, n, d, k);
  return l;
}

namespace {

const char* kOp = "kmeans";
constexpr std::size_t kMaxIndex = 0xffffffffull;  // the kernels index points and coordinates in 32 bits

KernelRef kernel(const char* entry) { return KernelRef{"ml_kmeans.cl", entry, ""}; }

// A uniform double in [0, 1) from 53 bits of a draw: the same on every
// standard library, unlike std::uniform_real_distribution.
double unit(std::mt19937_64& draw) { return double(draw() >> 11) * 0x1.0p-53; }
std::size_t below(std::mt19937_64& draw, std::size_t bound) {
  return std::min(bound - 1, static_cast<std::size_t>(unit(draw) * double(bound)));
}

template <class V>
std::vector<V> read(Context& ctx, const cl::Buffer& b, std::size_t count, const char* what) {
  std::vector<V> v(count);
  if (count)
    check_cl(ctx.queue().enqueueReadBuffer(b, CL_TRUE, 0, count * sizeof(V), v.data()),
             std::string("kmeans: read the ") + what);
  return v;
}

// Where point p's coordinate j lies: p ps + j ds.
struct PointView {
  const cl::Buffer* buffer;
  cl_uint ps, ds;
};

PointView strides(const cl::Buffer& b, bool columns, std::size_t n, std::size_t d) {
  return columns ? PointView{&b, 1, static_cast<cl_uint>(n)} : PointView{&b, static_cast<cl_uint>(d), 1};
}

// k distinct indices below n, in the order drawn (Floyd's sampling).
std::vector<cl_uint> distinct_points(std::mt19937_64& draw, std::size_t n, std::size_t k) {
  std::vector<cl_uint> chosen;
  std::vector<bool> taken(n, false);
  for (std::size_t j = n - k; j < n; ++j) {
    std::size_t t = below(draw, j + 1);
    if (taken[t]) t = j;
    taken[t] = true;
    chosen.push_back(static_cast<cl_uint>(t));
  }
  return chosen;
}

// k-means++: the first point uniform, each next one with probability
// proportional to its squared distance to the nearest point drawn so far
// (the distances on the device, the draw on the host in double). Where
// every remaining point coincides with a drawn one (fewer than k distinct
// points), the next is uniform among the points not drawn.
template <class T>
std::vector<cl_uint> plus_plus_points(Context& ctx, const KmeansLaunch& l, const PointView& v, std::size_t n,
                                      std::size_t k, std::mt19937_64& draw) {
  const cl::Buffer& nearest = ctx.scratch("kmeans.nearest", n * sizeof(T));
  const PreparedKernel distance = ctx.prepare(kernel("kmeans_seed_distance"), l.helper(n));
  std::vector<cl_uint> chosen{static_cast<cl_uint>(below(draw, n))};
  std::vector<bool> taken(n, false);
  taken[chosen[0]] = true;
  for (std::size_t c = 1; c < k; ++c) {
    kernel_call::launch(ctx, distance, static_cast<cl_uint>(n), v.ps, v.ds, *v.buffer, chosen.back(),
                        static_cast<cl_uint>(c == 1), nearest);
    const std::vector<T> d2 = read<T>(ctx, nearest, n, "seeding distances");
    double total = 0;
    for (T x : d2) total += x;
    if (!std::isfinite(total))
      throw Error("kmeans: a seeding distance is not finite: the points hold NaN or infinite coordinates");
    std::size_t next = n;
    if (total > 0) {
      const double target = unit(draw) * total;
      double running = 0;
      for (std::size_t p = 0; p < n && next == n; ++p) {
        running += d2[p];
        if (d2[p] > 0 && running > target) next = p;
      }
      if (next == n)  // the target fell in the last rounding of the running sum
        for (std::size_t p = n; p-- > 0 && next == n;)
          if (d2[p] > 0) next = p;
    } else {
      std::size_t skip = below(draw, n - c);
      for (std::size_t p = 0; p < n && next == n; ++p)
        if (!taken[p] && skip-- == 0) next = p;
    }
    taken[next] = true;
    chosen.push_back(static_cast<cl_uint>(next));
  }
  return chosen;
}

template <class T>
void check_call(Context& ctx, const Buffer<T>& points, std::size_t n, std::size_t d, std::size_t k,
                const Buffer<T>& centroids, const Buffer<int>* labels, const KmeansOptions& o) {
  kernel_call::same_context(ctx, points, kOp, "points");
  kernel_call::same_context(ctx, centroids, kOp, "centroids");
  if (labels) kernel_call::same_context(ctx, *labels, kOp, "labels");
  if (n == 0) throw Error("kmeans: n is 0: there are no points to cluster");
  if (d == 0) throw Error("kmeans: d is 0: points need at least one coordinate");
  if (k == 0) throw Error("kmeans: k is 0: at least one cluster is needed");
  if (o.init != KmeansInit::given && k > n)
    throw Error("kmeans: k " + std::to_string(k) + " is more than the " + std::to_string(n) +
                " points; a random or k-means++ start draws k distinct points");
  if (checked_product(n, d, "kmeans: n x d") > kMaxIndex || checked_product(k, d, "kmeans: k x d") > kMaxIndex)
    throw Error("kmeans: n x d and k x d must be below 2^32 (" + std::to_string(n) + " x " + std::to_string(d) + ", " +
                std::to_string(k) + " x " + std::to_string(d) + ")");
  if (!(o.inertia_tolerance >= 0))
    throw Error("kmeans: inertia_tolerance is " + std::to_string(o.inertia_tolerance) + "; it must be 0 or more");
  kernel_call::need_elements(kOp, "points", points.size(), n * d,
                             std::to_string(n) + " points of " + std::to_string(d));
  kernel_call::need_elements(kOp, "centroids", centroids.size(), k * d,
                             std::to_string(k) + " centroids of " + std::to_string(d));
  aliasing::refuse_overlap(kOp, aliasing::whole(centroids), "centroids", aliasing::whole(points), "points",
                           "the centroids are written while the points are read");
  if (labels) {
    kernel_call::need_elements(kOp, "labels", labels->size(), n,
                               "a label for each of " + std::to_string(n) + " points");
    aliasing::refuse_overlap(kOp, aliasing::whole(*labels), "labels", aliasing::whole(points), "points",
                             "the labels are written while the points are read");
    aliasing::refuse_overlap(kOp, aliasing::whole(*labels), "labels", aliasing::whole(centroids), "centroids",
                             "both are written");
  }
}

// The points as the plan reads them: the caller's buffer, or a copy in the
// other layout (rule kmeans.layout).
template <class T>
PointView planned_points(Context& ctx, const KmeansLaunch& l, const Buffer<T>& points, std::size_t n, std::size_t d,
                         PointLayout layout) {
  const bool given_columns = layout == PointLayout::columns;
  const PointView given = strides(points.cl_buffer(), given_columns, n, d);
  if (given_columns == l.shape.columns) return given;
  const cl::Buffer& copy = ctx.scratch("kmeans.points", n * d * sizeof(T));
  const PointView wanted = strides(copy, l.shape.columns, n, d);
  kernel_call::launch(ctx, ctx.prepare(kernel("kmeans_relayout"), l.helper(n * d)), static_cast<cl_uint>(n), given.ps,
                      given.ds, wanted.ps, wanted.ds, points, copy);
  return wanted;
}

template <class T>
void seed_centroids(Context& ctx, const KmeansLaunch& l, const PointView& v, std::size_t n, std::size_t d,
                    std::size_t k, Buffer<T>& centroids, const KmeansOptions& o) {
  if (o.init == KmeansInit::given) return;
  std::mt19937_64 draw(o.seed);
  const std::vector<cl_uint> chosen =
      o.init == KmeansInit::random_points ? distinct_points(draw, n, k) : plus_plus_points<T>(ctx, l, v, n, k, draw);
  const cl::Buffer& indices = ctx.scratch("kmeans.chosen", k * sizeof(cl_uint));
  check_cl(ctx.queue().enqueueWriteBuffer(indices, CL_TRUE, 0, k * sizeof(cl_uint), chosen.data()),
           "kmeans: write the chosen points");
  kernel_call::launch(ctx, ctx.prepare(kernel("kmeans_gather"), l.helper(k * d)), v.ps, v.ds, *v.buffer, indices,
                      centroids);
}

}  // namespace

template <class T, class>
void kmeans_init(Context& ctx, const Buffer<T>& points, std::size_t n, std::size_t d, std::size_t k,
                 Buffer<T>& centroids, const KmeansOptions& o) {
  check_call(ctx, points, n, d, k, centroids, nullptr, o);
  const KmeansLaunch l = plan_kmeans(live_planner(ctx, o.plan), n, d, k, element_of<T>::value);
  auto held = ctx.hold_scratch();
  seed_centroids(ctx, l, planned_points(ctx, l, points, n, d, o.layout), n, d, k, centroids, o);
  ctx.finish();
}

template <class T, class>
KmeansResult kmeans(Context& ctx, const Buffer<T>& points, std::size_t n, std::size_t d, std::size_t k,
                    Buffer<T>& centroids, Buffer<int>& labels, const KmeansOptions& o) {
  check_call(ctx, points, n, d, k, centroids, &labels, o);
  if (o.max_iterations == 0) throw Error("kmeans: max_iterations is 0: at least one iteration is needed");
  KmeansResult r;
  const KmeansLaunch l = plan_kmeans(live_planner(ctx, o.plan), n, d, k, element_of<T>::value);
  r.plan = l.assign;
  const KmeansShape& s = l.shape;
  auto held = ctx.hold_scratch();
  const PointView v = planned_points(ctx, l, points, n, d, o.layout);
  seed_centroids(ctx, l, v, n, d, k, centroids, o);
  const std::size_t pairs = k * d, row = k * (d + 1);
  const cl::Buffer& rows = ctx.scratch("kmeans.rows", checked_product(s.rows(), row * sizeof(T), "kmeans: rows"));
  const cl::Buffer& transposed = ctx.scratch("kmeans.centroids_t", s.padded_k * d * sizeof(T));
  const cl::Buffer& changed = ctx.scratch("kmeans.changed", s.groups * sizeof(cl_uint));
  const cl::Buffer& inertia = ctx.scratch("kmeans.inertia", s.groups * sizeof(T));
  const cl::Buffer& sizes = ctx.scratch("kmeans.sizes", k * sizeof(cl_uint));
  const PreparedKernel assign = ctx.prepare(kernel("kmeans_assign"), l.assign);
  const PreparedKernel update = ctx.prepare(kernel("kmeans_update"), l.helper(pairs));
  kernel_call::launch(ctx, ctx.prepare(kernel("kmeans_transpose_centroids"), l.helper(s.padded_k * d)), centroids,
                      transposed);
  const cl_int unlabelled = -1;
  check_cl(ctx.queue().enqueueFillBuffer(labels.cl_buffer(), unlabelled, 0, n * sizeof(cl_int)),
           "kmeans: clear the labels");
  while (r.iterations < o.max_iterations) {
    if (s.atomic) check_cl(ctx.queue().enqueueFillBuffer(rows, T(0), 0, row * sizeof(T)), "kmeans: clear the sums");
    kernel_call::launch(ctx, assign, static_cast<cl_uint>(n), v.ps, v.ds, *v.buffer, transposed, labels, rows, changed,
                        inertia);
    kernel_call::launch(ctx, update, static_cast<cl_uint>(s.rows()), rows, centroids, transposed, sizes);
    double total = 0;
    std::size_t moved = 0;
    for (T x : read<T>(ctx, inertia, s.groups, "inertia")) total += x;
    for (cl_uint c : read<cl_uint>(ctx, changed, s.groups, "changed labels")) moved += c;
    if (!std::isfinite(total))
      throw Error("kmeans: the inertia is not finite at iteration " + std::to_string(r.iterations + 1) +
                  ": the points or the centroids hold NaN or infinite coordinates");
    ++r.iterations;
    r.changed.push_back(moved);
    r.inertia.push_back(total);
    const bool settled = moved <= o.changed_tolerance;
    const bool flat = r.iterations > 1 && o.inertia_tolerance > 0 &&
                      r.inertia[r.inertia.size() - 2] - total <= o.inertia_tolerance * r.inertia[r.inertia.size() - 2];
    if (settled || flat) {
      r.converged = true;
      break;
    }
  }
  r.cluster_sizes = read<cl_uint>(ctx, sizes, k, "cluster sizes");
  return r;
}

#define PORTACL_KMEANS(T)                                                                                        \
  template KmeansResult kmeans<T>(Context&, const Buffer<T>&, std::size_t, std::size_t, std::size_t, Buffer<T>&, \
                                  Buffer<int>&, const KmeansOptions&);                                           \
  template void kmeans_init<T>(Context&, const Buffer<T>&, std::size_t, std::size_t, std::size_t, Buffer<T>&,    \
                               const KmeansOptions&);
PORTACL_KMEANS(float)
PORTACL_KMEANS(double)
#undef PORTACL_KMEANS

}  // namespace portacl
