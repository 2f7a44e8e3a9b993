// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <limits>

#include "portacl/error.hpp"
#include "portacl/stencil.hpp"
#include "mask_spectrum.hpp"

namespace portacl {

namespace {

// The largest |weight|'s row and column give the factors; the mask is
// separable when their outer product matches every weight within a few
// roundings of the largest.
template <class T>
bool rank_one(const std::vector<T>& w, std::size_t rows, std::size_t cols, std::vector<T>& column,
              std::vector<T>& row) {
  std::size_t pivot = 0;
  for (std::size_t k = 1; k < w.size(); ++k)
    if (std::fabs(double(w[k])) > std::fabs(double(w[pivot]))) pivot = k;
  const double top = double(w[pivot]);
  if (top == 0) return false;  // all zero: nothing to gain
  const std::size_t p = pivot / cols, q = pivot % cols;
  column.resize(rows);
  row.resize(cols);
  for (std::size_t i = 0; i < rows; ++i) column[i] = w[i * cols + q];
  for (std::size_t j = 0; j < cols; ++j) row[j] = static_cast<T>(double(w[p * cols + j]) / top);
  const double bound = 8 * std::numeric_limits<T>::epsilon() * std::fabs(top);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      if (!(std::fabs(double(column[i]) * double(row[j]) - double(w[i * cols + j])) <= bound)) return false;
  return true;
}

// Before anything is uploaded: errors name the defect.
template <class T>
std::vector<T> checked_weights(std::vector<T> weights, std::size_t rows, std::size_t cols) {
  if (rows == 0 || cols == 0)
    throw Error("convolution mask: " + std::to_string(rows) + " x " + std::to_string(cols) + " is empty");
  if (weights.size() != rows * cols)
    throw Error("convolution mask: " + std::to_string(weights.size()) + " weights for a " + std::to_string(rows) +
                " x " + std::to_string(cols) + " mask");
  for (std::size_t k = 0; k < weights.size(); ++k)
    if (!std::isfinite(double(weights[k])))
      throw Error("convolution mask: weight " + std::to_string(k) + " (row " + std::to_string(k / cols) + ", column " +
                  std::to_string(k % cols) + ") is not a finite number");
  return weights;
}

}  // namespace

template <class T>
ConvolutionMask<T>::ConvolutionMask(Context& ctx, std::vector<T> weights, std::size_t rows, std::size_t cols,
                                    bool detect_separable)
    : ctx_(&ctx),
      weights_(checked_weights(std::move(weights), rows, cols)),
      rows_(rows),
      cols_(cols),
      buffer_(ctx, weights_),
      spectrum_(std::make_shared<Spectrum>()) {
  std::vector<T> column, row;
  if (detect_separable && rows > 1 && cols > 1 && rank_one(weights_, rows, cols, column, row)) {
    column_ = std::make_shared<const ConvolutionMask<T>>(ctx, std::move(column), rows, 1);
    row_ = std::make_shared<const ConvolutionMask<T>>(ctx, std::move(row), 1, cols);
  }
}
template class ConvolutionMask<float>;
template class ConvolutionMask<double>;

}  // namespace portacl
