// SPDX-License-Identifier: Apache-2.0
// The 3D FFT over a device group of PoCL halves: forward and inverse
// against the transform in double and beside the single-device transform,
// on awkward shapes (primes, a length of 1, fewer planes or columns than
// members), under even, uneven and empty splits, float and double, every
// device class's plan; the round trip; bad input refused by name.
#include <catch2/catch.hpp>

#include "portacl/fft.hpp"
#include "test_support.hpp"
#include "tuning/fft_reference.hpp"

using namespace portacl;
using reference::cplx;

namespace {

template <class T>
double roundoff() {
  return std::numeric_limits<T>::epsilon() / 2;
}

template <class T>
std::vector<cplx> as_complex(const std::vector<T>& v) {
  std::vector<cplx> c(v.size() / 2);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = cplx(v[2 * i], v[2 * i + 1]);
  return c;
}

// The group's transform of a random n0 x n1 x n2 array, its slabs
// poisoned past their planes, against the transform in double (relative
// RMS within the bound the single-device transform is held to) and
// beside the single-device transform (within the two bounds).
template <class T>
void check_group_fft(const std::array<std::size_t, 3>& shape, bool inverse, const PlanOptions& plan = {}) {
  DeviceGroup& group = test::cpu_halves();
  const std::vector<std::size_t> dims{shape[0], shape[1], shape[2]};
  const std::size_t values = 2 * shape[0] * shape[1] * shape[2];
  const std::vector<T> x = test::random_vector<T>(values, -1.0, 1.0);
  const BasicGroupFft3d<T> f(group, shape, plan);
  INFO(shape[0] << " x " << shape[1] << " x " << shape[2] << (inverse ? ", inverse" : ", forward") << "\n"
                << f.explain());
  std::vector<Buffer<T>> slabs;
  const T poison = std::numeric_limits<T>::quiet_NaN();
  for (std::size_t m = 0; m < group.size(); ++m) {
    const std::size_t plane = 2 * shape[1] * shape[2], first = f.plane_offsets()[m] * plane;
    std::vector<T> part(x.begin() + std::ptrdiff_t(first),
                        x.begin() + std::ptrdiff_t(f.plane_offsets()[m + 1] * plane));
    part.push_back(poison);
    slabs.emplace_back(group.context(m), part);
  }
  inverse ? f.inverse(slabs) : f.forward(slabs);
  for (const Buffer<T>& s : slabs) CHECK(std::isnan(s.download().back()));  // nothing past the planes
  const std::vector<T> got = f.gather(slabs);
  REQUIRE(got.size() == values);
  const std::vector<cplx> want = reference::fftn(as_complex(x), dims, 1, inverse ? +1 : -1);
  const double bound =
      reference::fft_error_bound(dims, roundoff<T>()) + reference::fft_error_bound(dims, roundoff<double>());
  const double error = reference::fft_relative_error(as_complex(got), want);
  INFO("relative error " << error << ", bound " << bound);
  CHECK(error <= bound);
  // Beside the single-device transform.
  FftOptions o;
  o.plan = plan;
  const BasicFft<T> single(test::whole_cpu_context(), dims, o);
  Buffer<T> data(test::whole_cpu_context(), x);
  inverse ? single.inverse(data) : single.forward(data);
  const std::vector<T> one = data.download();
  CHECK(reference::fft_relative_error(as_complex(got), as_complex(one)) <= 2 * bound);
  // A planted error of one value in a thousand at the largest output is seen.
  std::size_t largest = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::abs(want[i]) > std::abs(want[largest])) largest = i;
  std::vector<cplx> planted = as_complex(got);
  planted[largest] *= 1.0 + std::max(1e-3, 40 * bound * std::sqrt(double(want.size())));
  CHECK(reference::fft_relative_error(planted, want) > bound);
}

}  // namespace

TEMPLATE_TEST_CASE("group fft: 3D transforms over a device group equal the transform in double", "[fft_group]", float,
                   double) {
  using T = TestType;
  if (std::is_same<T, double>::value && !test::cpu_halves().context(0).info().fp64) return;
  DeviceGroup& group = test::cpu_halves();
  for (const std::vector<double>& weights : std::vector<std::vector<double>>{{1, 1}, {3, 1}, {1, 0}, {0, 1}}) {
    group.set_weights(weights);
    INFO("weights " << weights[0] << ":" << weights[1]);
    for (const std::array<std::size_t, 3>& shape : std::vector<std::array<std::size_t, 3>>{
             {8, 6, 10}, {7, 5, 9}, {1, 1, 1}, {1, 12, 5}, {13, 1, 3}, {2, 3, 17}, {5, 16, 4}})
      for (bool inverse : {false, true}) check_group_fft<T>(shape, inverse);
  }
  group.set_weights({1, 1});
}

TEST_CASE("group fft: inverse after forward gives n x; every device class's plan", "[fft_group]") {
  DeviceGroup& group = test::cpu_halves();
  const std::array<std::size_t, 3> shape{6, 7, 8};
  const std::size_t n = 6 * 7 * 8;
  const std::vector<float> x = test::random_vector<float>(2 * n, -1.0, 1.0);
  GroupFft3d f(group, shape);
  std::vector<Buffer<float>> slabs = f.scatter(x);
  f.forward(slabs);
  f.inverse(slabs);
  const std::vector<float> back = f.gather(slabs);
  std::vector<cplx> scaled = as_complex(x);
  for (cplx& v : scaled) v *= double(n);
  const double bound = 2 * (reference::fft_error_bound({6, 7, 8}, roundoff<float>()) +
                            reference::fft_error_bound({6, 7, 8}, roundoff<double>()));
  CHECK(reference::fft_relative_error(as_complex(back), scaled) <= bound);
  CHECK(f.exchange_seconds() > 0);
  for (const auto& [fixture, opt] : test::class_plans(ElementType::f32)) {
    INFO(fixture);
    check_group_fft<float>({5, 9, 6}, false, opt);
  }
}

TEST_CASE("group fft refuses what it cannot transform, naming the problem", "[fft_group]") {
  DeviceGroup& group = test::cpu_halves();
  group.set_weights({1, 1});
  CHECK_THROWS_WITH(GroupFft3d(group, {4, 0, 4}), Catch::Contains("length 1 is 0"));
  GroupFft3d f(group, {4, 3, 2});
  std::vector<Buffer<float>> one;
  one.emplace_back(group.context(0), 2 * 2 * 3 * 2);
  CHECK_THROWS_WITH(f.forward(one), Catch::Contains("1 slabs for a group of 2 members"));
  std::vector<Buffer<float>> small;
  small.emplace_back(group.context(0), 2 * 2 * 3 * 2);
  small.emplace_back(group.context(1), 2 * 2 * 3 * 2 - 1);
  CHECK_THROWS_WITH(f.inverse(small), Catch::Contains("slab 1 has 23 elements"));
  std::vector<Buffer<float>> swapped;
  swapped.emplace_back(group.context(1), 24);
  swapped.emplace_back(group.context(0), 24);
  CHECK_THROWS_WITH(f.forward(swapped), Catch::Contains("belongs to another context"));
  CHECK_THROWS_WITH(f.scatter(std::vector<float>(47)), Catch::Contains("47 values, not 48"));
}
