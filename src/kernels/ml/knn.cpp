// SPDX-License-Identifier: Apache-2.0
// k-nearest neighbours (kernels/ml_knn.cl): validate, plan (rules/knn_rules),
// then either a sorted list a query, or dot products by portacl's GEMM and
// a radix select a query; classification adds a vote.
#include <algorithm>
#include <string>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/ml/knn_tunables.hpp"
#include "portacl/error.hpp"
#include "portacl/blas.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

KernelTraits knn_traits(ElementType element) {
  // benefits_from_local_tiling: the training tile, the selection's histogram and list
  return kernel_traits("knn", element, 1,
                       traits::local_tiling | traits::barriers | traits::barriers_only | traits::scalar, {4, 0},
                       &knn_tunables());
}

const TuningSpace& knn_tunables() {
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256}),
                                  {"METHOD",
                                   {0, 1},
                                   std::nullopt,
                                   "a sorted list a work-item, or a matrix product and a radix select a work-group",
                                   {"list", "select"}}},
                                 nullptr};
  return space;
}

LaunchPlan KnnLaunch::helper(std::size_t items) const { return one_per_item(select, items); }

KnnLaunch plan_knn(const Planner& planner, std::size_t queries, std::size_t train, std::size_t d, std::size_t k,
                   Similarity similarity, ElementType element) {
  KnnLaunch l;
  l.select = planner.plan(knn_traits(element), ProblemSize(std::max<std::size_t>(queries, 1)));
  l.shape =
      choose_knn(l.select, knn_tunables(), planner.device, queries, train, d, k, similarity == Similarity::cosine);
  return l;
}

namespace {

constexpr std::size_t kMaxIndex = 0x7fffffffull;  // indices are ints

KernelRef kernel(const char* entry) { return KernelRef{"ml_knn.cl", entry, ""}; }

template <class T>
void check_search(const char* op, Context& ctx, const Buffer<T>& train, std::size_t train_count,
                  const Buffer<T>& queries, std::size_t query_count, std::size_t d, std::size_t k,
                  const Buffer<int>& indices, const Buffer<T>& scores) {
  kernel_call::same_context(ctx, train, op, "train");
  kernel_call::same_context(ctx, queries, op, "queries");
  kernel_call::same_context(ctx, indices, op, "indices");
  kernel_call::same_context(ctx, scores, op, "scores");
  if (d == 0) throw Error(std::string(op) + ": d is 0: points need at least one coordinate");
  if (k == 0) throw Error(std::string(op) + ": k is 0: at least one neighbour is needed");
  if (k > train_count)
    throw Error(std::string(op) + ": k " + std::to_string(k) + " is more than the " + std::to_string(train_count) +
                " training points");
  if (train_count > kMaxIndex || query_count > kMaxIndex)
    throw Error(std::string(op) + ": at most 2^31 - 1 training points and queries (" + std::to_string(train_count) +
                ", " + std::to_string(query_count) + ")");
  const std::string dims = " of " + std::to_string(d) + (sizeof(T) == 8 ? " doubles" : " floats");
  kernel_call::need_elements(op, "train", train.size(), checked_product(train_count, d, std::string(op) + ": train"),
                             std::to_string(train_count) + " points" + dims);
  kernel_call::need_elements(op, "queries", queries.size(),
                             checked_product(query_count, d, std::string(op) + ": queries"),
                             std::to_string(query_count) + " queries" + dims);
  const std::size_t results = checked_product(query_count, k, std::string(op) + ": queries x k");
  const std::string per_query = std::to_string(query_count) + " queries of " + std::to_string(k);
  kernel_call::need_elements(op, "indices", indices.size(), results, per_query);
  kernel_call::need_elements(op, "scores", scores.size(), results, per_query);
  for (const auto& [written, name] : {std::pair<const BufferStorage*, const char*>{&indices, "indices"},
                                      std::pair<const BufferStorage*, const char*>{&scores, "scores"}}) {
    aliasing::refuse_overlap(op, aliasing::whole(*written), name, aliasing::whole(train), "train",
                             "results are written while the points are read");
    aliasing::refuse_overlap(op, aliasing::whole(*written), name, aliasing::whole(queries), "queries",
                             "results are written while the points are read");
  }
  aliasing::refuse_overlap(op, aliasing::whole(indices), "indices", aliasing::whole(scores), "scores",
                           "both are written");
}

// The search itself, the checks done (k is the plan's K).
template <class T>
void search(Context& ctx, const KnnLaunch& l, const Buffer<T>& train, std::size_t train_count, const Buffer<T>& queries,
            std::size_t query_count, std::size_t d, Buffer<int>& indices, Buffer<T>& scores, const KnnOptions& o) {
  const cl::Buffer& query_norms = ctx.scratch("knn.query_norms", query_count * sizeof(T));
  const cl::Buffer& train_norms = ctx.scratch("knn.train_norms", train_count * sizeof(T));
  const PreparedKernel norms = ctx.prepare(kernel("knn_norms"), l.helper(std::max(query_count, train_count)));
  kernel_call::launch(ctx, norms, static_cast<cl_uint>(query_count), queries, query_norms);
  kernel_call::launch(ctx, norms, static_cast<cl_uint>(train_count), train, train_norms);
  const KnnShape& s = l.shape;
  if (s.method == KnnMethod::list) {
    kernel_call::launch(ctx, ctx.prepare(kernel("knn_list"), l.select), static_cast<cl_uint>(query_count),
                        static_cast<cl_uint>(train_count), queries, train, query_norms, train_norms, indices, scores);
    return;
  }
  // Dot products of a batch of queries with every training point, by the
  // library's GEMM under its own rules and tuning (not the search's knobs).
  GemmOptions products(o.plan);
  products.plan.override_values.reset();
  const std::size_t batch = std::min(s.batch, query_count);
  Buffer<T> dots(ctx, ctx.scratch("knn.dots", batch * train_count * sizeof(T)), batch * train_count);
  // Lists in global memory only where they do not fit the local memory;
  // otherwise the argument is unused and any buffer stands in.
  const cl::Buffer& lists =
      s.list_local ? query_norms
                   : ctx.scratch("knn.lists", checked_product(batch, 2 * s.list * s.key_bytes, "knn: lists"));
  for (std::size_t first = 0; first < query_count; first += batch) {
    const std::size_t rows = std::min(batch, query_count - first);
    gemm<T>(ctx, Layout::row_major, Transpose::no, Transpose::yes, rows, train_count, d, T(1),
            MatrixRef<T>{queries, first * d, d}, MatrixRef<T>{train, 0, d}, T(0), dots, 0, train_count, products);
    LaunchPlan grid = l.select;
    grid_of_groups(grid, rows);
    kernel_call::launch(ctx, ctx.prepare(kernel("knn_select"), grid), static_cast<cl_uint>(train_count),
                        static_cast<cl_uint>(first), dots, query_norms, train_norms, lists, indices, scores,
                        kernel_call::LocalBytes{(s.keys_local ? train_count : 1) * s.key_bytes});
  }
}

}  // namespace

template <class T, class>
LaunchPlan knn_search(Context& ctx, const Buffer<T>& train, std::size_t train_count, const Buffer<T>& queries,
                      std::size_t query_count, std::size_t d, std::size_t k, Buffer<int>& indices, Buffer<T>& scores,
                      const KnnOptions& o) {
  check_search("knn_search", ctx, train, train_count, queries, query_count, d, k, indices, scores);
  const KnnLaunch l =
      plan_knn(live_planner(ctx, o.plan), query_count, train_count, d, k, o.similarity, element_of<T>::value);
  if (query_count == 0) return l.select;
  auto held = ctx.hold_scratch();
  search(ctx, l, train, train_count, queries, query_count, d, indices, scores, o);
  return l.select;
}

template <class T, class>
LaunchPlan knn_classify(Context& ctx, const Buffer<T>& train, const Buffer<int>& train_labels, std::size_t train_count,
                        const Buffer<T>& queries, std::size_t query_count, std::size_t d, std::size_t k,
                        Buffer<int>& predicted, Buffer<int>& indices, Buffer<T>& scores, const KnnOptions& o) {
  const char* op = "knn_classify";
  check_search(op, ctx, train, train_count, queries, query_count, d, k, indices, scores);
  kernel_call::same_context(ctx, train_labels, op, "train_labels");
  kernel_call::same_context(ctx, predicted, op, "predicted");
  kernel_call::need_elements(op, "train_labels", train_labels.size(), train_count,
                             "a label for each of " + std::to_string(train_count) + " training points");
  kernel_call::need_elements(op, "predicted", predicted.size(), query_count,
                             "a label for each of " + std::to_string(query_count) + " queries");
  for (const auto& [read, name] : {std::pair<const BufferStorage*, const char*>{&train, "train"},
                                   std::pair<const BufferStorage*, const char*>{&queries, "queries"},
                                   std::pair<const BufferStorage*, const char*>{&train_labels, "train_labels"},
                                   std::pair<const BufferStorage*, const char*>{&indices, "indices"},
                                   std::pair<const BufferStorage*, const char*>{&scores, "scores"}})
    aliasing::refuse_overlap(op, aliasing::whole(predicted), "predicted", aliasing::whole(*read), name,
                             "the labels are written while it is used");
  const KnnLaunch l =
      plan_knn(live_planner(ctx, o.plan), query_count, train_count, d, k, o.similarity, element_of<T>::value);
  if (query_count == 0) return l.select;
  auto held = ctx.hold_scratch();
  search(ctx, l, train, train_count, queries, query_count, d, indices, scores, o);
  kernel_call::launch(ctx, ctx.prepare(kernel("knn_vote"), l.helper(query_count)), static_cast<cl_uint>(query_count),
                      indices, train_labels, predicted);
  return l.select;
}

#define PORTACL_KNN(T)                                                                                               \
  template LaunchPlan knn_search<T>(Context&, const Buffer<T>&, std::size_t, const Buffer<T>&, std::size_t,          \
                                    std::size_t, std::size_t, Buffer<int>&, Buffer<T>&, const KnnOptions&);          \
  template LaunchPlan knn_classify<T>(Context&, const Buffer<T>&, const Buffer<int>&, std::size_t, const Buffer<T>&, \
                                      std::size_t, std::size_t, std::size_t, Buffer<int>&, Buffer<int>&, Buffer<T>&, \
                                      const KnnOptions&);
PORTACL_KNN(float)
PORTACL_KNN(double)
#undef PORTACL_KNN

}  // namespace portacl
