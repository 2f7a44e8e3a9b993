// SPDX-License-Identifier: Apache-2.0
// k-nearest neighbours and k-means on (n, d) float32 or float64 points; the small
// convolutional network, trained on the device.
#include "bindings.hpp"

namespace portacl::python {

namespace {

// A SmallCnn and the context it runs on, kept alive together.
struct PySmallCnn {
  std::shared_ptr<Context> ctx;
  std::unique_ptr<SmallCnn> net;
};

// A batch of images (B, C, H, W) of the network's shape, as a device buffer.
Buffer<float> batch_of(const PySmallCnn& n, const py::array& images, const char* op, std::size_t& batch) {
  const auto hi = checked<float>(images, 4, std::string(op) + ": images");
  const SmallCnnShape& s = n.net->shape();
  if (std::size_t(hi.shape(1)) != s.channels || std::size_t(hi.shape(2)) != s.height ||
      std::size_t(hi.shape(3)) != s.width)
    throw py::value_error(std::string(op) + ": images are " + std::to_string(hi.shape(1)) + " x " +
                          std::to_string(hi.shape(2)) + " x " + std::to_string(hi.shape(3)) +
                          " (C x H x W) but the network takes " + std::to_string(s.channels) + " x " +
                          std::to_string(s.height) + " x " + std::to_string(s.width));
  batch = std::size_t(hi.shape(0));
  return uploaded(*n.ctx, hi);
}

// The k best of (n, d) training points of T for each of (q, d) queries:
// (indices, scores).
template <class T>
py::tuple neighbours(Context& ctx, const py::array& train, const py::array& queries, std::size_t k,
                     const std::string& measure) {
  if (!holds<T>(queries))
    throw py::type_error("knn: the queries are " + dtype_name(queries) + " but the training points " +
                         dtype_name(train) + "; give both one dtype");
  const auto ht = checked<T>(train, 2, "knn: train"), hq = checked<T>(queries, 2, "knn: queries");
  const std::size_t n = std::size_t(ht.shape(0)), d = std::size_t(ht.shape(1)), q = std::size_t(hq.shape(0));
  if (std::size_t(hq.shape(1)) != d)
    throw py::value_error("knn: the training points have " + std::to_string(d) + " coordinates but the queries " +
                          std::to_string(hq.shape(1)));
  if (k > n)
    throw py::value_error("knn: k " + std::to_string(k) + " is more than the " + std::to_string(n) +
                          " training points");
  KnnOptions o;
  if (measure == "cosine")
    o.similarity = Similarity::cosine;
  else if (measure == "squared_distance")
    o.similarity = Similarity::squared_distance;
  else
    throw py::value_error("knn: measure '" + measure + "' is not 'cosine' or 'squared_distance'");
  const Buffer<T> dt = uploaded(ctx, ht), dq = uploaded(ctx, hq);
  Buffer<int> indices(ctx, q * k);
  Buffer<T> scores(ctx, q * k);
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = knn_search(ctx, dt, n, dq, q, d, k, indices, scores, o);
  }
  const std::vector<py::ssize_t> shape{py::ssize_t(q), py::ssize_t(k)};
  return with_plan(py::make_tuple(download(indices, shape), download(scores, shape)), plan);
}

// Lloyd's k-means on (n, d) points of T: (centroids, labels, info).
template <class T>
py::tuple clusters(Context& ctx, const py::array& points, std::size_t k, std::uint64_t seed, std::size_t max_iterations,
                   std::size_t changed_tolerance) {
  const auto hp = checked<T>(points, 2, "kmeans: points");
  const std::size_t n = std::size_t(hp.shape(0)), d = std::size_t(hp.shape(1));
  if (k == 0 || k > n)
    throw py::value_error("kmeans: k " + std::to_string(k) + " clusters for " + std::to_string(n) +
                          " points; k must be 1 to the number of points");
  KmeansOptions o;
  o.seed = seed;
  o.max_iterations = max_iterations;
  o.changed_tolerance = changed_tolerance;
  const Buffer<T> p = uploaded(ctx, hp);
  Buffer<T> centroids(ctx, k * d);
  Buffer<int> labels(ctx, n);
  KmeansResult r;
  {
    py::gil_scoped_release release;
    r = kmeans(ctx, p, n, d, k, centroids, labels, o);
  }
  const py::dict info("iterations"_a = r.iterations, "inertia"_a = r.inertia, "changed"_a = r.changed,
                      "cluster_sizes"_a = r.cluster_sizes, "converged"_a = r.converged);
  py::tuple out =
      py::make_tuple(download(centroids, {py::ssize_t(k), py::ssize_t(d)}), download(labels, {py::ssize_t(n)}), info);
  return with_plan(out, r.plan);
}

}  // namespace

void bind_ml(py::module_& m) {
  py::class_<PySmallCnn>(m, "SmallCnn")
      .def(py::init([](const std::shared_ptr<Context>& ctx, std::size_t channels, std::size_t height, std::size_t width,
                       std::size_t filters, std::size_t classes, std::uint64_t seed) {
        SmallCnnShape shape{channels, height, width, filters, classes};
        return PySmallCnn{ctx, std::make_unique<SmallCnn>(*ctx, shape, seed)};
      }))
      .def("train_step",
           [](PySmallCnn& n, const py::array& images, const py::array& labels, float learning_rate, float momentum,
              float weight_decay) {
             std::size_t batch = 0;
             const Buffer<float> di = batch_of(n, images, "train_step", batch);
             const auto hl = checked<int>(labels, 1, "train_step: labels");
             if (std::size_t(hl.shape(0)) != batch)
               throw py::value_error("train_step: " + std::to_string(hl.shape(0)) + " labels for " +
                                     std::to_string(batch) + " images");
             const Buffer<int> dl = uploaded(*n.ctx, hl);
             SgdOptions o;
             o.learning_rate = learning_rate;
             o.momentum = momentum;
             o.weight_decay = weight_decay;
             py::gil_scoped_release release;
             return n.net->train_step(di, dl, batch, o);
           })
      .def("forward",
           [](PySmallCnn& n, const py::array& images) {
             std::size_t batch = 0;
             const Buffer<float> di = batch_of(n, images, "forward", batch);
             Buffer<float> logits(*n.ctx, batch * n.net->shape().classes);
             {
               py::gil_scoped_release release;
               n.net->forward(di, batch, logits);
             }
             return download(logits, {py::ssize_t(batch), py::ssize_t(n.net->shape().classes)});
           })
      .def("predict",
           [](PySmallCnn& n, const py::array& images) {
             std::size_t batch = 0;
             const Buffer<float> di = batch_of(n, images, "predict", batch);
             Buffer<int> classes(*n.ctx, batch);
             {
               py::gil_scoped_release release;
               n.net->predict(di, batch, classes);
             }
             return download(classes, {py::ssize_t(batch)});
           })
      .def("parameters",
           [](const PySmallCnn& n) {
             const std::vector<float> p = n.net->packed_parameters();
             return py::array_t<float>(py::ssize_t(p.size()), p.data());
           })
      .def("set_parameters",
           [](PySmallCnn& n, const py::array& packed) {
             n.net->set_packed_parameters(values(checked<float>(packed, 1, "set_parameters")));
           })
      .def_property_readonly("context", [](const PySmallCnn& n) { return n.ctx; });

  m.def("knn",
        [](Context& ctx, const py::array& train, const py::array& queries, std::size_t k, const std::string& measure) {
          return by_real_dtype("knn", train,
                               [&](auto t) { return neighbours<decltype(t)>(ctx, train, queries, k, measure); });
        });
  m.def("kmeans", [](Context& ctx, const py::array& points, std::size_t k, std::uint64_t seed,
                     std::size_t max_iterations, std::size_t changed_tolerance) {
    return by_real_dtype("kmeans", points, [&](auto t) {
      return clusters<decltype(t)>(ctx, points, k, seed, max_iterations, changed_tolerance);
    });
  });
}

}  // namespace portacl::python
