// SPDX-License-Identifier: Apache-2.0
/// \file
/// k-nearest-neighbour search and classification on the device. Training
/// points and queries are rows of d floats. Each query's k best training
/// points come back best first, by one of two measures:
///   Similarity::cosine            the cosine of the angle, larger first;
///                                 0 where either vector is zero;
///   Similarity::squared_distance  the squared Euclidean distance, smaller
///                                 first.
/// Equal scores rank by the lower training index, so the result is one
/// definite list (duplicates of a point rank in index order).
///
/// Classification takes the majority label of the k neighbours; a tie goes
/// to the tied label whose best-ranked neighbour comes first.
///
/// Errors, before any launch: k = 0, k more than the training points, d =
/// 0, buffers too small for the shapes, of another context or sharing
/// memory.
#pragma once

#include <cstddef>

#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

enum class Similarity {
  cosine,            ///< (a . b) / (|a| |b|), larger is nearer
  squared_distance,  ///< |a - b|^2, smaller is nearer
};

struct KnnOptions {
  Similarity similarity = Similarity::cosine;
  PlanOptions plan;
};

/// For each of `query_count` queries (rows of `queries`), the k best of
/// `train_count` training points (rows of `train`): their indices into the
/// training set and their scores (the similarity or the squared distance),
/// query_count x k each, row-major, best first. Returns the plan of the
/// selection; its decisions say which method ran (a sorted list a query,
/// or a matrix product and a radix select) and why.
LaunchPlan knn_search(Context& ctx, const Buffer<float>& train, std::size_t train_count, const Buffer<float>& queries,
                      std::size_t query_count, std::size_t d, std::size_t k, Buffer<int>& indices,
                      Buffer<float>& scores, const KnnOptions& options = {});

/// knn_search, then each query's majority label among its k neighbours'
/// `train_labels` (any ints) into `predicted` (query_count).
LaunchPlan knn_classify(Context& ctx, const Buffer<float>& train, const Buffer<int>& train_labels,
                        std::size_t train_count, const Buffer<float>& queries, std::size_t query_count, std::size_t d,
                        std::size_t k, Buffer<int>& predicted, Buffer<int>& indices, Buffer<float>& scores,
                        const KnnOptions& options = {});

}  // namespace portacl
