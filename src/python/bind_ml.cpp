// SPDX-License-Identifier: Apache-2.0
// k-nearest neighbours and k-means on (n, d) float32 points.
#include "bindings.hpp"

namespace portacl::python {

void bind_ml(py::module_& m) {
  m.def("knn",
        [](Context& ctx, const py::array& train, const py::array& queries, std::size_t k, const std::string& measure) {
          const auto ht = checked<float>(train, 2, "knn: train"), hq = checked<float>(queries, 2, "knn: queries");
          const std::size_t n = std::size_t(ht.shape(0)), d = std::size_t(ht.shape(1)), q = std::size_t(hq.shape(0));
          if (std::size_t(hq.shape(1)) != d)
            throw py::value_error("knn: the training points have " + std::to_string(d) +
                                  " coordinates but the queries " + std::to_string(hq.shape(1)));
          KnnOptions o;
          if (measure == "cosine")
            o.similarity = Similarity::cosine;
          else if (measure == "squared_distance")
            o.similarity = Similarity::squared_distance;
          else
            throw py::value_error("knn: measure '" + measure + "' is not 'cosine' or 'squared_distance'");
          const Buffer<float> dt(ctx, values(ht)), dq(ctx, values(hq));
          Buffer<int> indices(ctx, q * k);
          Buffer<float> scores(ctx, q * k);
          LaunchPlan plan;
          {
            py::gil_scoped_release release;
            plan = knn_search(ctx, dt, n, dq, q, d, k, indices, scores, o);
          }
          const std::vector<py::ssize_t> shape{py::ssize_t(q), py::ssize_t(k)};
          return with_plan(py::make_tuple(download(indices, shape), download(scores, shape)), plan);
        });
  m.def("kmeans", [](Context& ctx, const py::array& points, std::size_t k, std::uint64_t seed,
                     std::size_t max_iterations, std::size_t changed_tolerance) {
    const auto hp = checked<float>(points, 2, "kmeans: points");
    const std::size_t n = std::size_t(hp.shape(0)), d = std::size_t(hp.shape(1));
    KmeansOptions o;
    o.seed = seed;
    o.max_iterations = max_iterations;
    o.changed_tolerance = changed_tolerance;
    const Buffer<float> p(ctx, values(hp));
    Buffer<float> centroids(ctx, k * d);
    Buffer<int> labels(ctx, n);
    KmeansResult r;
    {
      py::gil_scoped_release release;
      r = kmeans(ctx, p, n, d, k, centroids, labels, o);
    }
    py::dict info;
    info["iterations"] = r.iterations;
    info["inertia"] = r.inertia;
    info["changed"] = r.changed;
    info["cluster_sizes"] = r.cluster_sizes;
    info["converged"] = r.converged;
    py::tuple out =
        py::make_tuple(download(centroids, {py::ssize_t(k), py::ssize_t(d)}), download(labels, {py::ssize_t(n)}), info);
    return with_plan(out, r.plan);
  });
}

}  // namespace portacl::python
