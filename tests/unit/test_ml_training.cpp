// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "portacl/ml.hpp"
#include "test_support.hpp"
#include "ml_training_margins.hpp"
#include "tuning/ml_training_reference.hpp"

using namespace portacl;

namespace {

// "" when every entry is within `margin` (absolute) of the reference.
template <class G>
std::string within(const char* what, const std::vector<G>& got, const std::vector<double>& want, double margin) {
  if (got.size() < want.size()) return std::string(what) + ": too few values";
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(double(got[i]) - want[i]) <= margin * (1.0 + std::fabs(want[i]))))
      return std::string(what) + " " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " +
             std::to_string(want[i]);
  return "";
}

std::vector<int> random_labels(std::size_t n, std::size_t classes) {
  std::vector<int> labels(n);
  for (int& l : labels) l = int(test::rng()() % classes);
  return labels;
}

}  // namespace

TEST_CASE("dense layers equal the double reference forward and backward, odd sizes, every class plan", "[training]") {
  Context& ctx = test::cpu_context();
  const std::vector<test::ClassPlan> plans = test::rules_and_class_plans(ElementType::f32);
  for (const auto& [name, plan] : plans)
    for (const DenseShape s : {DenseShape{1, 1, 1}, DenseShape{7, 13, 5}, DenseShape{33, 64, 17}})
      for (bool relu : {false, true}) {
        INFO(name << ": " << s.batch << " x " << s.inputs << " -> " << s.outputs << (relu ? ", ReLU" : ""));
        // Dyadic data: every sum exact in float, so the ReLU's mask is the reference's.
        const std::vector<float> x = test::random_dyadic<float>(s.batch * s.inputs, 4, 8);
        const std::vector<float> w = test::random_dyadic<float>(s.outputs * s.inputs, 4, 8);
        const std::vector<float> b = test::random_dyadic<float>(s.outputs, 4, 4);
        const std::vector<float> dy = test::random_dyadic<float>(s.batch * s.outputs, 4, 8);
        Buffer<float> dx(ctx, x), dw(ctx, w), db(ctx, b), ddy(ctx, dy);
        const std::vector<float> poison(s.batch * std::max(s.inputs, s.outputs) + 1, std::nanf(""));
        Buffer<float> y(ctx, poison), gx(ctx, poison), gw(ctx, std::vector<float>(s.outputs * s.inputs, std::nanf(""))),
            gb(ctx, poison);
        const DenseOptions o{relu, plan};
        dense_forward(ctx, s, dx, dw, &db, y, o);
        const std::vector<double> want = reference::dense_forward(s, x, w, &b, relu);
        const std::vector<float> got = y.download();
        CHECK(within("y", got, want, 0.0) == "");
        CHECK(std::isnan(got[s.batch * s.outputs]));
        dense_backward(ctx, s, dx, dw, &y, ddy, DenseGradients{&gx, &gw, &gb}, o);
        const std::vector<float> y_host(got.begin(), got.begin() + std::ptrdiff_t(s.batch * s.outputs));
        const reference::DenseGradientsReference g = reference::dense_backward(s, x, w, dy, relu ? &y_host : nullptr);
        CHECK(within("input gradient", gx.download(), g.input, 0.0) == "");
        CHECK(within("weights gradient", gw.download(), g.weights, 0.0) == "");
        CHECK(within("bias gradient", gb.download(), g.bias, 0.0) == "");
      }
  Buffer<float> x(ctx, 6), w(ctx, 6), y(ctx, 3);
  CHECK_THROWS_WITH(dense_forward(ctx, DenseShape{2, 3, 3}, x, w, nullptr, y),
                    Catch::Contains("weights has 6 elements"));
  CHECK_THROWS_WITH(dense_forward(ctx, DenseShape{0, 3, 2}, x, w, nullptr, y), Catch::Contains("a size is 0"));
  CHECK_THROWS_WITH(dense_forward(ctx, DenseShape{1, 3, 2}, x, w, nullptr, x), Catch::Contains("written while"));
  CHECK_THROWS_WITH(
      dense_backward(ctx, DenseShape{1, 3, 2}, x, w, nullptr, y, DenseGradients{}, DenseOptions{true, {}}),
      Catch::Contains("forward output y is needed"));
}

TEST_CASE("softmax cross-entropy equals the double reference, stays finite on large logits, names a bad label",
          "[training]") {
  Context& ctx = test::cpu_context();
  const std::vector<test::ClassPlan> plans = test::rules_and_class_plans(ElementType::f32);
  for (const auto& [batch, classes] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {5, 3}, {37, 10}}) {
    INFO(batch << " x " << classes);
    std::vector<float> z = test::random_vector<float>(batch * classes);
    z[0] = 80.0f;  // exp(80) overflows float: the stable form must not
    const std::vector<int> labels = random_labels(batch, classes);
    Buffer<float> dz(ctx, z), grad(ctx, std::vector<float>(batch * classes, std::nanf("")));
    Buffer<int> dl(ctx, labels);
    const double loss = softmax_cross_entropy(ctx, batch, classes, dz, dl, &grad);
    const reference::SoftmaxLossReference want = reference::softmax_cross_entropy(batch, classes, z, labels);
    CHECK(std::isfinite(loss));
    // The margins count ml_softmax_loss.cl's roundings (ml_training_margins.hpp).
    const test::SoftmaxMargins margins = test::softmax_margins(batch, classes, z, labels, want.grad, want.loss);
    const double loss_margin = margins.loss;
    const std::vector<double>& grad_margin = margins.grad;
    CHECK(std::fabs(loss - want.loss) <= loss_margin);
    const std::vector<float> g = grad.download();
    CHECK(test::within_each("gradient", g, want.grad, grad_margin) == "");
    // The margins see a planted error: the loss, and the first gradient
    // entry, off by one part in 10^4.
    if (want.loss != 0) CHECK_FALSE(std::fabs(loss * (1 + 1e-4) - want.loss) <= loss_margin);
    std::vector<float> planted = g;
    planted[0] = float(want.grad[0] + 1e-4 * std::fabs(want.grad[0]) + 1e-4 / double(batch));
    CHECK(test::within_each("gradient", planted, want.grad, grad_margin) != "");
    // Each row of the gradient sums to 0: softmax sums to 1, the one-hot
    // too; the float entries within their margins.
    for (std::size_t n = 0; n < batch; ++n) {
      double row = 0, margin = 0;
      for (std::size_t j = 0; j < classes; ++j) {
        row += g[n * classes + j];
        margin += grad_margin[n * classes + j];
      }
      CHECK(std::fabs(row) <= margin);
    }
    for (const auto& [name, plan] : plans) {
      INFO(name);
      Buffer<int> predicted(ctx, std::vector<int>(batch, -7));
      predict_classes(ctx, batch, classes, dz, predicted, plan);
      const std::vector<int> p = predicted.download();
      for (std::size_t n = 0; n < batch; ++n) {
        const auto row = z.begin() + std::ptrdiff_t(n * classes);
        CHECK(p[n] == int(std::max_element(row, row + std::ptrdiff_t(classes)) - row));
      }
    }
  }
  Buffer<float> z(ctx, std::vector<float>(6, 0.0f));
  Buffer<int> bad(ctx, std::vector<int>{0, 2, 3});
  CHECK_THROWS_WITH(softmax_cross_entropy(ctx, 3, 2, z, bad, nullptr),
                    Catch::Contains("sample 1 has label 2, outside 0 .. 1"));
  CHECK_THROWS_WITH(softmax_cross_entropy(ctx, 4, 2, z, bad, nullptr), Catch::Contains("logits has 6 elements"));
}

TEST_CASE("SGD with momentum and weight decay equals the double steps, every class plan; refusals", "[training]") {
  Context& ctx = test::cpu_context();
  const std::vector<test::ClassPlan> plans = test::rules_and_class_plans(ElementType::f32);
  const std::size_t n = 1001;
  const std::vector<float> w0 = test::random_vector<float>(n), g = test::random_vector<float>(n);
  Buffer<float> w(ctx, w0), dg(ctx, g), v(ctx, std::vector<float>(n, 0.0f));
  SgdOptions o;
  o.learning_rate = 0.05f;
  o.momentum = 0.9f;
  o.weight_decay = 0.01f;
  o.gradient_scale = 0.5f;  // two replicas' summed gradients
  for (const auto& [name, plan] : plans) {
    INFO(name);
    w.upload(w0);
    v.upload(std::vector<float>(n, 0.0f));
    o.plan = plan;
    std::vector<double> want_w(w0.begin(), w0.end()), want_v(n, 0.0), gd(g.begin(), g.end());
    // Each float step's error bounds (ml_training_margins.hpp); the gradient
    // is given exactly.
    std::vector<double> dw(n, 0.0), dv(n, 0.0);
    const std::vector<double> exact(n, 0.0);
    for (int step = 0; step < 3; ++step) {
      sgd_step(ctx, w, dg, v, o);
      test::sgd_margins(want_w, gd, want_v, o, exact, dw, dv);
      reference::sgd_step(want_w, gd, want_v, o);
    }
    const std::vector<float> got_w = w.download();
    CHECK(test::within_each("parameters", got_w, want_w, dw) == "");
    CHECK(test::within_each("velocity", v.download(), want_v, dv) == "");
    // The margins see one parameter off by one part in 10^4.
    const std::vector<float> planted = test::plant_where_tightest(got_w, want_w, dw, 1e-4);
    REQUIRE(!planted.empty());  // parameters are sums that do not cancel: some margin is that tight
    CHECK(test::within_each("parameters", planted, want_w, dw) != "");
  }
  o.plan = {};
  Buffer<float> short_g(ctx, n - 1);
  CHECK_THROWS_WITH(sgd_step(ctx, w, short_g, v, o), Catch::Contains("gradients"));
  CHECK_THROWS_WITH(sgd_step(ctx, w, w, v, o), Catch::Contains("written while"));
  o.learning_rate = -1.0f;
  CHECK_THROWS_WITH(sgd_step(ctx, w, dg, v, o), Catch::Contains("learning_rate is -1"));
}

namespace {

// Dyadic parameters: with dyadic images every convolution sum is exact in
// float (test::conv_exact), so the device's ReLU masks and pooling picks
// are the reference's; the dense layer's sums are counted
// (ml_training_margins.hpp).
void make_dyadic(SmallCnn& net) {
  std::vector<float> p = net.parameters().download();
  for (ParameterSegment s : {net.conv_filters(), net.conv_bias(), net.dense_weights(), net.dense_bias()}) {
    const std::vector<float> d = test::random_dyadic<float>(s.count, 4, 16);
    std::copy(d.begin(), d.end(), p.begin() + std::ptrdiff_t(s.offset));
  }
  net.parameters().upload(p);
}

// `count` images of 8 x 8 in 4 classes: class k a 3 x 3 block of +0.6 in
// quadrant k, under uniform noise of +-0.7 everywhere (a pixel alone says
// little; the block's sum separates the classes).
void separable(std::size_t count, std::vector<float>& images, std::vector<int>& labels) {
  images.assign(count * 64, 0.0f);
  labels = random_labels(count, 4);
  std::uniform_real_distribution<float> noise(-0.7f, 0.7f);
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t p = 0; p < 64; ++p) images[i * 64 + p] = noise(test::rng());
    const std::size_t y0 = labels[i] / 2 * 4, x0 = labels[i] % 2 * 4;
    for (std::size_t y = 0; y < 3; ++y)
      for (std::size_t x = 0; x < 3; ++x) images[i * 64 + (y0 + y) * 8 + x0 + x] += 0.6f;
  }
}

}  // namespace

TEST_CASE("the small network's gradients equal the double reference, under every class plan", "[training]") {
  Context& ctx = test::cpu_context();
  const std::vector<test::ClassPlan> plans = test::rules_and_class_plans(ElementType::f32);
  for (const auto& [name, plan] : plans) {
    INFO(name);
    // Odd sizes: 3 channels of 7 x 9 (pooling drops the last row), 5 filters, 3 classes.
    const SmallCnnShape shape{3, 7, 9, 5, 3};
    SmallCnn net(ctx, shape, 42, plan);
    make_dyadic(net);
    const std::size_t batch = 6;
    const std::vector<float> images = test::random_dyadic<float>(batch * 3 * 7 * 9, 4, 8);
    const std::vector<int> labels = random_labels(batch, 3);
    Buffer<float> di(ctx, images);
    Buffer<int> dl(ctx, labels);
    const double loss = net.compute_gradients(di, dl, batch);
    const reference::NetworkGradients want =
        reference::small_cnn_gradients(net, net.parameters().download(), images, labels, batch);
    const std::vector<float> p = net.parameters().download();
    REQUIRE(test::conv_exact(net, p, images, batch));
    const test::NetworkMargins margin = test::small_cnn_margins(net, p, images, labels, batch, want);
    CHECK(std::fabs(loss - want.loss) <= margin.loss);
    const std::vector<float> got = net.gradients().download();
    CHECK(test::within_each("gradient", got, want.gradients, margin.gradients) == "");
    // The margin is tight enough to see a planted error: a gradient off by
    // one part in 10^4 (the one whose margin is tightest; the largest
    // gradient may be a sum that cancels, its margin relatively wide).
    const std::vector<float> planted = test::plant_where_tightest(got, want.gradients, margin.gradients, 1e-4);
    if (!planted.empty())
      CHECK(test::within_each("gradient", planted, want.gradients, margin.gradients) != "");
    else
      WARN("no gradient of this draw has a margin below 1e-4 of its value: every one cancels; nothing planted");
  }
  SmallCnn net(ctx, SmallCnnShape{}, 1);
  Buffer<float> images(ctx, 64 * 2);
  Buffer<int> labels(ctx, std::vector<int>{0, 9});
  CHECK_THROWS_WITH(net.compute_gradients(images, labels, 3), Catch::Contains("images has 128 elements"));
  CHECK_THROWS_WITH(net.compute_gradients(images, labels, 2), Catch::Contains("sample 1 has label 9"));
  CHECK_THROWS_WITH(SmallCnn(ctx, SmallCnnShape{1, 1, 8, 4, 2}, 1), Catch::Contains("smaller than the 2 x 2"));
}

TEST_CASE("a planted gradient error is seen on a fixed draw that does not saturate, under every class plan",
          "[training]") {
  // The random draws above may saturate (every gradient a cancelling sum:
  // nothing to plant against, and that check says so). This draw is fixed
  // and mild, so an error of one part in 10^4 must be planted and seen on
  // every run: pixels of -1 to 1 in steps of 1/8 from a fixed generator.
  Context& ctx = test::cpu_context();
  const SmallCnnShape shape{3, 7, 9, 5, 3};
  const std::size_t batch = 6;
  std::mt19937_64 fixed(20261128);
  std::uniform_int_distribution<int> eighths(-8, 8);
  std::vector<float> images(batch * 3 * 7 * 9);
  for (float& v : images) v = float(eighths(fixed)) / 8.0f;
  const std::vector<int> labels{0, 1, 2, 2, 1, 0};
  for (const auto& [name, plan] : test::rules_and_class_plans(ElementType::f32)) {
    INFO(name);
    SmallCnn net(ctx, shape, 42, plan);
    make_dyadic(net);
    Buffer<float> di(ctx, images);
    Buffer<int> dl(ctx, labels);
    net.compute_gradients(di, dl, batch);
    const std::vector<float> p = net.parameters().download();
    const reference::NetworkGradients want = reference::small_cnn_gradients(net, p, images, labels, batch);
    REQUIRE(test::conv_exact(net, p, images, batch));
    const test::NetworkMargins margin = test::small_cnn_margins(net, p, images, labels, batch, want);
    const std::vector<float> got = net.gradients().download();
    CHECK(test::within_each("gradient", got, want.gradients, margin.gradients) == "");
    const std::vector<float> planted = test::plant_where_tightest(got, want.gradients, margin.gradients, 1e-4);
    REQUIRE(!planted.empty());
    CHECK(test::within_each("gradient", planted, want.gradients, margin.gradients) != "");
  }
}

TEST_CASE("the small network learns separable data: the loss falls, held-out accuracy, bit-identical repeats",
          "[training]") {
  Context& ctx = test::cpu_context();
  const std::size_t batch = 32, steps = 60, held_out = 256;
  std::vector<float> train_images, test_images;
  std::vector<int> train_labels, test_labels;
  separable(batch * steps, train_images, train_labels);
  separable(held_out, test_images, test_labels);
  SgdOptions sgd;
  sgd.learning_rate = 0.05f;
  sgd.momentum = 0.9f;
  sgd.weight_decay = 1e-4f;
  std::vector<float> final_parameters[2];
  for (int run = 0; run < 2; ++run) {
    SmallCnn net(ctx, SmallCnnShape{1, 8, 8, 4, 4}, 7);
    std::vector<double> losses;
    for (std::size_t step = 0; step < steps; ++step) {
      Buffer<float> images(ctx, std::vector<float>(train_images.begin() + std::ptrdiff_t(step * batch * 64),
                                                   train_images.begin() + std::ptrdiff_t((step + 1) * batch * 64)));
      Buffer<int> labels(ctx, std::vector<int>(train_labels.begin() + std::ptrdiff_t(step * batch),
                                               train_labels.begin() + std::ptrdiff_t((step + 1) * batch)));
      losses.push_back(net.train_step(images, labels, batch, sgd));
    }
    Buffer<float> images(ctx, test_images);
    Buffer<int> predicted(ctx, std::vector<int>(held_out, -1));
    net.predict(images, held_out, predicted);
    const std::vector<int> p = predicted.download();
    std::size_t right = 0;
    for (std::size_t i = 0; i < held_out; ++i) right += p[i] == test_labels[i];
    const double accuracy = double(right) / double(held_out);
    const double first = (losses[0] + losses[1] + losses[2]) / 3, last = (losses[57] + losses[58] + losses[59]) / 3;
    INFO("loss " << first << " -> " << last << ", held-out accuracy " << accuracy);
    CHECK(last < 0.25 * first);
    CHECK(accuracy >= 0.95);
    final_parameters[run] = net.parameters().download();
  }
  CHECK(final_parameters[0] == final_parameters[1]);
}
