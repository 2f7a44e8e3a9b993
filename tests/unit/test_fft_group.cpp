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

// Where complex value (i0, i1, i2) of the whole array lies in the columns'
// layout (BasicGroupFft3d::forward_to_columns): member j, position
// ((i1 - c_j) n2 + i2) n0 + i0.
std::pair<std::size_t, std::size_t> column_place(const std::vector<std::size_t>& cols,
                                                 const std::array<std::size_t, 3>& n, std::size_t i0, std::size_t i1,
                                                 std::size_t i2) {
  std::size_t j = 0;
  while (i1 >= cols[j + 1]) ++j;
  return {j, ((i1 - cols[j]) * n[2] + i2) * n[0] + i0};
}

// Buffers of the columns' layout, one a member, poisoned, with one more
// value than the layout needs (which must stay poisoned).
template <class T>
std::vector<Buffer<T>> poisoned_columns(const BasicGroupFft3d<T>& f, DeviceGroup& group) {
  const std::vector<Buffer<T>> sizes = f.make_columns();
  std::vector<Buffer<T>> c;
  for (std::size_t m = 0; m < group.size(); ++m)
    c.emplace_back(group.context(m), std::vector<T>(sizes[m].size() + 1, std::numeric_limits<T>::quiet_NaN()));
  return c;
}

// The group's transform of a random n0 x n1 x n2 array, its slabs
// poisoned past their planes, against the transform in double (relative
// RMS within the bound the single-device transform is held to) and
// beside the single-device transform (within the two bounds). Transposed:
// forward into the columns' layout, or inverse from it (one all-to-all).
template <class T>
void check_group_fft(const std::array<std::size_t, 3>& shape, bool inverse, const PlanOptions& plan = {},
                     bool transposed = false) {
  DeviceGroup& group = test::cpu_halves();
  const std::vector<std::size_t> dims{shape[0], shape[1], shape[2]};
  const std::size_t values = 2 * shape[0] * shape[1] * shape[2];
  const std::vector<T> x = test::random_vector<T>(values, -1.0, 1.0);
  const BasicGroupFft3d<T> f(group, shape, plan);
  INFO(shape[0] << " x " << shape[1] << " x " << shape[2] << (inverse ? ", inverse" : ", forward")
                << (transposed ? (inverse ? " from the columns" : " to the columns") : "") << "\n"
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
  std::vector<T> got;
  if (!transposed) {
    inverse ? f.inverse(slabs) : f.forward(slabs);
    got = f.gather(slabs);
  } else {
    std::vector<Buffer<T>> columns = poisoned_columns(f, group);
    std::vector<std::vector<T>> c(group.size());
    for (std::size_t m = 0; m < group.size(); ++m) c[m] = columns[m].download();
    got.assign(values, std::numeric_limits<T>::quiet_NaN());
    for (std::size_t i0 = 0; i0 < shape[0]; ++i0)
      for (std::size_t i1 = 0; i1 < shape[1]; ++i1)
        for (std::size_t i2 = 0; i2 < shape[2]; ++i2) {
          const auto [j, at] = column_place(f.column_offsets(), shape, i0, i1, i2);
          const std::size_t whole = 2 * ((i0 * shape[1] + i1) * shape[2] + i2);
          if (inverse) {  // the input in the columns' layout
            c[j][2 * at] = x[whole];
            c[j][2 * at + 1] = x[whole + 1];
          }
        }
    if (inverse) {
      for (std::size_t m = 0; m < group.size(); ++m) columns[m].upload(c[m]);
      f.inverse_from_columns(columns, slabs);
      got = f.gather(slabs);
    } else {
      f.forward_to_columns(slabs, columns);
      for (std::size_t m = 0; m < group.size(); ++m) {
        c[m] = columns[m].download();
        CHECK(std::isnan(c[m].back()));  // nothing past the columns
      }
      for (std::size_t i0 = 0; i0 < shape[0]; ++i0)
        for (std::size_t i1 = 0; i1 < shape[1]; ++i1)
          for (std::size_t i2 = 0; i2 < shape[2]; ++i2) {
            const auto [j, at] = column_place(f.column_offsets(), shape, i0, i1, i2);
            const std::size_t whole = 2 * ((i0 * shape[1] + i1) * shape[2] + i2);
            got[whole] = c[j][2 * at];
            got[whole + 1] = c[j][2 * at + 1];
          }
    }
  }
  for (const Buffer<T>& s : slabs) CHECK(std::isnan(s.download().back()));  // nothing past the planes
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
      for (bool inverse : {false, true})
        for (bool transposed : {false, true}) check_group_fft<T>(shape, inverse, {}, transposed);
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
    check_group_fft<float>({5, 9, 6}, true, opt, true);
  }
  // Through the columns and back: one all-to-all each way, n x again.
  std::vector<Buffer<float>> again = f.scatter(x), columns = f.make_columns();
  f.forward_to_columns(again, columns);
  f.inverse_from_columns(columns, again);
  CHECK(reference::fft_relative_error(as_complex(f.gather(again)), scaled) <= bound);
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
  std::vector<Buffer<float>> slabs = f.scatter(std::vector<float>(48)), columns = f.make_columns();
  CHECK(columns[0].size() == 2 * 2 * 2 * 4);  // columns 0 and 1 of axis 1, 2 x 4 values each
  std::vector<Buffer<float>> too_few;
  too_few.emplace_back(group.context(0), columns[0].size());
  CHECK_THROWS_WITH(f.forward_to_columns(slabs, too_few), Catch::Contains("1 column buffers for a group of 2"));
  std::vector<Buffer<float>> short_columns;
  short_columns.emplace_back(group.context(0), columns[0].size());
  short_columns.emplace_back(group.context(1), columns[1].size() - 1);
  CHECK_THROWS_WITH(f.inverse_from_columns(short_columns, slabs), Catch::Contains("columns 1 has"));
}
