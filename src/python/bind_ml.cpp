// SPDX-License-Identifier: Apache-2.0
// k-means on (n, d) float32 points.
#include "bindings.hpp"

namespace portacl::python {

void bind_ml(py::module_& m) {
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
