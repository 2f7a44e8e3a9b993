// SPDX-License-Identifier: Apache-2.0
/// \file
/// The machine-learning family: binary layers, convolution, dense, pooling
/// and softmax-loss layers, SGD, k-means, k-nearest neighbours, the small
/// CNN, and its training over a device group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/vectors.hpp"

// ---- conv layer --------------------------------------------------------------
/// Convolution layers of neural networks (cross-correlation, as every deep
/// learning framework computes them): N images of C channels of H x W,
/// F filters of C / groups channels of R x S, and an output of N images of
/// F channels of P x Q, where
///   P = (H + 2 pad_h - dilation_h (R - 1) - 1) / stride_h + 1
/// (Q likewise). Output channel f of group g = f / (F / groups) sums the
/// input channels g C / groups ... (g + 1) C / groups - 1; taps that fall
/// in the padding read zeros. An optional bias (F floats) is added and an
/// optional ReLU applied.
///
/// Images and outputs are NCHW (image, channel, row, column; GPUs read it
/// best) or NHWC (image, row, column, channel; CPUs read it best): the
/// caller says which, and preferred_tensor_layout says which the device
/// reads best (rule conv.layout). Filters are always F x (C / groups) x R x S.
///
/// Errors, before any launch: zero sizes, channels or filters that groups
/// does not divide, a filter larger than the padded image, strides or
/// dilations of 0, Winograd asked for a layer that is not 3 x 3 of stride
/// 1 and dilation 1, buffers too small, of another context or sharing
/// memory.
namespace portacl {

/// The order of a 4D tensor's dimensions in memory, the last contiguous.
enum class TensorLayout {
  nchw,  ///< image, channel, row, column
  nhwc,  ///< image, row, column, channel
};

/// A convolution layer's sizes (N, C, H, W; K filters of R x S).
struct ConvLayerShape {
  std::size_t images = 1;          ///< N
  std::size_t channels = 1;        ///< C, the input's
  std::size_t height = 1;          ///< H, the input's rows
  std::size_t width = 1;           ///< W, the input's columns
  std::size_t filters = 1;         ///< K, the output's channels
  std::size_t filter_height = 1;   ///< R
  std::size_t filter_width = 1;    ///< S
  std::size_t stride_h = 1;        ///< rows between two outputs' windows
  std::size_t stride_w = 1;        ///< columns between two outputs' windows
  std::size_t pad_h = 0;           ///< zero rows above and below
  std::size_t pad_w = 0;           ///< zero columns left and right
  std::size_t dilation_h = 1;      ///< rows between two taps of a filter
  std::size_t dilation_w = 1;      ///< columns between two taps of a filter
  std::size_t groups = 1;          ///< channel groups: each filter reads C / groups channels
  std::size_t out_height() const;  ///< P
  std::size_t out_width() const;   ///< Q
};

/// How a convolution layer is computed.
enum class ConvAlgorithm {
  automatic,    ///< the rule conv.algorithm chooses
  direct,       ///< each work-item several images x filters of one output position, in registers
  im2col_gemm,  ///< the taps unrolled into a matrix, multiplied by the filters with portacl's GEMM
  /// Winograd's F(2x2, 3x3), for 3 x 3 filters of stride 1 and dilation 1
  /// only (any padding, groups, bias, ReLU): 2.25 times fewer
  /// multiplications, through 16 GEMMs over the channels. Its rounding is
  /// larger than a direct sum's: each output stays within
  /// 81 (C / groups + 16) eps sum_c max|d_c| max|g_c| of the exact value,
  /// d_c the 4 x 4 input patch of its tile in channel c and g_c its
  /// filter's 3 x 3 weights there (eps = 2^-23).
  winograd,
  /// By FFT: each image plane and each filter zero-padded to a grid of
  /// 2^a 3^b 5^c cells a side (at least the image and its padding on one
  /// side, and the dilated filter), transformed real-to-complex, the
  /// products of their spectra summed over a group's channels and
  /// transformed back. Any stride, padding, dilation or groups (a stride
  /// past 1 still pays for every position). For large filters: the direct
  /// sum's R S multiplications a position become a few a frequency. Its
  /// rounding is normwise: each output plane of image n and filter f, as
  /// a 2-norm, within (3 e + sqrt2 gamma_2 + gamma_{C / groups} + 2 u)
  /// sum_c |x_nc|_2 |w_fc|_1 (+ u sqrt(P Q) |bias_f|) of the exact one,
  /// x_nc the image's channel, w_fc the filter's weights there, e the
  /// transforms' bound for the grid and u = 2^-24.
  fft,
};

/// How a convolution layer runs.
struct ConvLayerOptions {
  TensorLayout layout = TensorLayout::nchw;            ///< of the input and output tensors
  ConvAlgorithm algorithm = ConvAlgorithm::automatic;  ///< how it is computed
  bool relu = false;                                   ///< max(0, x) after the bias
  PlanOptions plan;                                    ///< for the layer's launches
};

/// The layout the device reads best (rule conv.layout): NCHW on GPUs, NHWC
/// on CPUs.
TensorLayout preferred_tensor_layout(Context& ctx);

/// output = relu?(conv(input, filters) + bias) for `shape`; `bias` may be
/// null. Returns the plan; its decisions say which algorithm ran and why.
LaunchPlan conv_layer_forward(Context& ctx, const ConvLayerShape& shape, const Buffer<float>& input,
                              const Buffer<float>& filters, const Buffer<float>* bias, Buffer<float>& output,
                              const ConvLayerOptions& options = {});

/// Where conv_layer_backward writes the gradients (each overwritten; a
/// null one is not computed).
struct ConvLayerGradients {
  Buffer<float>* input = nullptr;    ///< N x C x H x W, the layer's layout
  Buffer<float>* filters = nullptr;  ///< F x (C / groups) x R x S
  Buffer<float>* bias = nullptr;     ///< F
};

/// The gradients of a layer for the gradient of its output (`grad_output`,
/// N x F x P x Q in the layout), by im2col and portacl's GEMM: the filters'
/// as the output gradient's product with the unrolled input, the input's
/// as the unrolled product with the filters folded back (each input element
/// gathers the taps that read it). With `options.relu` the forward output
/// `output` masks the gradient where the ReLU cut it; it may be null
/// otherwise.
LaunchPlan conv_layer_backward(Context& ctx, const ConvLayerShape& shape, const Buffer<float>& input,
                               const Buffer<float>& filters, const Buffer<float>* output,
                               const Buffer<float>& grad_output, const ConvLayerGradients& gradients,
                               const ConvLayerOptions& options = {});

/// A tensor of N x C x H x W floats from one layout into the other.
LaunchPlan convert_tensor_layout(Context& ctx, std::size_t images, std::size_t channels, std::size_t height,
                                 std::size_t width, const Buffer<float>& in, TensorLayout from, Buffer<float>& out,
                                 TensorLayout to);

}  // namespace portacl

// ---- dense layer -------------------------------------------------------------
/// Fully connected (dense) layers: y = act(x W^T + b) for a batch of
/// `batch` samples of `inputs` values (x: batch x inputs, row-major),
/// weights W of outputs x inputs, bias b of `outputs` (optional) and an
/// optional ReLU; y is batch x outputs. Products by portacl's GEMM.
///
/// Backward, for the output's gradient dy: with the ReLU, dy masked where
/// the forward output was cut (y <= 0); then dW = dy^T x, db = the column
/// sums of dy (in sample order, so repeats are bit for bit), dx = dy W.
///
/// Errors, before any launch: zero sizes, buffers too small, of another
/// context or sharing memory where one is written while another is read.
namespace portacl {

/// A dense layer's sizes.
struct DenseShape {
  std::size_t batch = 1;    ///< rows of the input
  std::size_t inputs = 1;   ///< features in
  std::size_t outputs = 1;  ///< features out
};

/// How a dense layer runs.
struct DenseOptions {
  bool relu = false;  ///< max(0, x) after the bias
  PlanOptions plan;   ///< for the layer's launch
};

/// y = act(x W^T + b); `bias` may be null.
LaunchPlan dense_forward(Context& ctx, const DenseShape& shape, const Buffer<float>& x, const Buffer<float>& weights,
                         const Buffer<float>* bias, Buffer<float>& y, const DenseOptions& options = {});

/// Where dense_backward writes (each overwritten; a null one is not
/// computed).
struct DenseGradients {
  Buffer<float>* input = nullptr;    ///< batch x inputs
  Buffer<float>* weights = nullptr;  ///< outputs x inputs
  Buffer<float>* bias = nullptr;     ///< outputs
};

/// The gradients for `grad_y` (batch x outputs). With options.relu the
/// forward output `y` is needed for the mask; it may be null otherwise.
LaunchPlan dense_backward(Context& ctx, const DenseShape& shape, const Buffer<float>& x, const Buffer<float>& weights,
                          const Buffer<float>* y, const Buffer<float>& grad_y, const DenseGradients& gradients,
                          const DenseOptions& options = {});

}  // namespace portacl

// ---- binary layers -----------------------------------------------------------
/// Binarised layers (XNOR-Net style): the inputs and the weights reduced
/// to their signs (-1 where x < 0, else +1), their products computed by the
/// binary GEMM (binary_gemm.hpp) as exact integers, then each output times
/// its filter's scale (optional, e.g. the mean |w| binarise_weights
/// gives), plus the bias (optional) and an optional ReLU, in float.
///
/// Weights are packed once by binarise_weights: a dense layer's
/// outputs x inputs, a convolution's F x (C / groups x R x S), a row of
/// packed_words(k) words each. The convolution unrolls its taps as im2col
/// does and packs them: its padding reads as +1, as a sign cannot hold 0
/// (what Larq calls pad_values = 1).
///
/// Errors, before any launch: the layers' shape errors (dense_layer.hpp,
/// conv_layer.hpp), packed weights, scales or bias too small or of another
/// context, an output sharing memory with what is read.
namespace portacl {

/// The signs of `rows` rows of `k` weights packed (rows x packed_words(k)
/// words), and where `scales` is given each row's mean |w|.
LaunchPlan binarise_weights(Context& ctx, const Buffer<float>& weights, std::size_t rows, std::size_t k,
                            Buffer<std::uint32_t>& packed, Buffer<float>* scales, const PlanOptions& plan = {});

/// How a binarised layer runs.
struct BinaryLayerOptions {
  bool relu = false;                         ///< act = max(0, x) after the scale and the bias
  TensorLayout layout = TensorLayout::nchw;  ///< the convolution's tensors
  PlanOptions plan;                          ///< for the layer's launches
};

/// y = act(scale_k (sign(x) . sign(w_k)) + b_k) for each sample and output
/// k; `scales` and `bias` (outputs each) may be null.
LaunchPlan binary_dense_forward(Context& ctx, const DenseShape& shape, const Buffer<float>& x,
                                const Buffer<std::uint32_t>& packed_weights, const Buffer<float>* scales,
                                const Buffer<float>* bias, Buffer<float>& y, const BinaryLayerOptions& options = {});

/// The convolution layer of `shape` on the signs of `input` and the packed
/// filters, each output times its filter's scale, plus the bias.
LaunchPlan binary_conv_forward(Context& ctx, const ConvLayerShape& shape, const Buffer<float>& input,
                               const Buffer<std::uint32_t>& packed_filters, const Buffer<float>* scales,
                               const Buffer<float>* bias, Buffer<float>& output,
                               const BinaryLayerOptions& options = {});

}  // namespace portacl

// ---- kmeans ------------------------------------------------------------------
/// Lloyd's k-means on the device: each iteration assigns every point to its
/// nearest centroid (squared Euclidean distance; on a tie, the centroid of
/// the lowest index) and moves every centroid to the mean of its points. A
/// cluster left without points keeps its centroid where it was.
///
/// The points are n x d floats or doubles (every distance, sum and mean in
/// that type), a row per point (PointLayout::rows: point p's
/// coordinate j at p d + j) or a column per point (PointLayout::columns:
/// at j n + p). The runtime may copy them once into the other layout where
/// the device reads that faster (rule kmeans.layout). Centroids are k x d,
/// row-major.
///
/// Errors, before any launch: k = 0, k > n, d = 0, buffers too small for the
/// shapes, of another context or sharing memory; centroids not given where
/// the initialisation says they are. After an iteration: an inertia that is
/// not finite (NaN or infinite coordinates).
namespace portacl {

/// How points lie in memory.
enum class PointLayout {
  rows,     ///< n x d row-major: a row per point
  columns,  ///< d x n row-major: a column per point
};

/// Where k-means starts.
enum class KmeansInit {
  given,          ///< the centroids buffer holds the starting centroids
  random_points,  ///< k distinct points drawn uniformly
  plus_plus,      ///< k-means++: each next point drawn with probability proportional to its squared distance
                  ///< to the nearest one drawn before
};

/// How k-means starts, stops and plans.
struct KmeansOptions {
  KmeansInit init = KmeansInit::plus_plus;  ///< the starting centroids
  std::uint64_t seed = 0;                   ///< for random_points and plus_plus: the same seed draws the same points
  std::size_t max_iterations = 300;         ///< the most Lloyd iterations
  /// Stop after an iteration in which at most this many labels changed
  /// (0: only once nothing changes).
  std::size_t changed_tolerance = 0;
  /// Stop after an iteration whose inertia fell by at most this fraction of
  /// the iteration's before (0: not used).
  double inertia_tolerance = 0;
  PointLayout layout = PointLayout::rows;  ///< of the points
  PlanOptions plan;                        ///< for every launch
};

/// How a k-means run went.
struct KmeansResult {
  /// Iterations run; each one assigned the labels and then moved the
  /// centroids, so on return the centroids are the means of the labels'
  /// clusters (empty ones kept).
  std::size_t iterations = 0;
  /// Per iteration: the sum over the points of the squared distance to the
  /// nearest centroid at its assignment. It never rises, up to the
  /// element type's rounding.
  std::vector<double> inertia;
  std::vector<std::size_t> changed;          ///< per iteration: labels that changed (the first: all n)
  std::vector<std::uint32_t> cluster_sizes;  ///< points in each cluster after the last iteration
  bool converged = false;                    ///< stopped by a tolerance, not by max_iterations
  LaunchPlan plan;                           ///< the assignment's: layout, centroids, combine, chunk
};

/// Clusters the n points of `points` (d coordinates each, `options.layout`)
/// into k clusters: `labels` (n ints) gets each point's cluster, `centroids`
/// (k x d) the clusters' means. Blocks until done.
template <class T, class = only_for<T, float, double>>
KmeansResult kmeans(Context& ctx, const Buffer<T>& points, std::size_t n, std::size_t d, std::size_t k,
                    Buffer<T>& centroids, Buffer<int>& labels, const KmeansOptions& options = {});

/// The starting centroids `options.init` asks for (random_points,
/// plus_plus; given: nothing to do), as kmeans starts from them: kmeans with
/// init = given from these centroids runs the same iterations.
template <class T, class = only_for<T, float, double>>
void kmeans_init(Context& ctx, const Buffer<T>& points, std::size_t n, std::size_t d, std::size_t k,
                 Buffer<T>& centroids, const KmeansOptions& options = {});

}  // namespace portacl

// ---- knn ---------------------------------------------------------------------
/// k-nearest-neighbour search and classification on the device. Training
/// points and queries are rows of d floats or doubles (every score in that
/// type, ranked by its exact bits). Each query's k best training
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
namespace portacl {

/// What "nearest" means for KNN.
enum class Similarity {
  cosine,            ///< (a . b) / (|a| |b|), larger is nearer
  squared_distance,  ///< |a - b|^2, smaller is nearer
};

/// How KNN ranks and plans.
struct KnnOptions {
  Similarity similarity = Similarity::cosine;  ///< what "nearest" means
  PlanOptions plan;                            ///< for every launch
};

/// For each of `query_count` queries (rows of `queries`), the k best of
/// `train_count` training points (rows of `train`): their indices into the
/// training set and their scores (the similarity or the squared distance),
/// query_count x k each, row-major, best first. Returns the plan of the
/// selection; its decisions say which method ran (a sorted list a query,
/// or a matrix product and a radix select) and why.
template <class T, class = only_for<T, float, double>>
LaunchPlan knn_search(Context& ctx, const Buffer<T>& train, std::size_t train_count, const Buffer<T>& queries,
                      std::size_t query_count, std::size_t d, std::size_t k, Buffer<int>& indices, Buffer<T>& scores,
                      const KnnOptions& options = {});

/// knn_search, then each query's majority label among its k neighbours'
/// `train_labels` (any ints) into `predicted` (query_count).
template <class T, class = only_for<T, float, double>>
LaunchPlan knn_classify(Context& ctx, const Buffer<T>& train, const Buffer<int>& train_labels, std::size_t train_count,
                        const Buffer<T>& queries, std::size_t query_count, std::size_t d, std::size_t k,
                        Buffer<int>& predicted, Buffer<int>& indices, Buffer<T>& scores,
                        const KnnOptions& options = {});

}  // namespace portacl

// ---- pooling -----------------------------------------------------------------
/// Pooling layers of neural networks, forward and backward: each output is
/// the maximum or the average of a window of R x S input values of one
/// channel, windows `stride` apart, the input padded by `pad` on each side:
///   P = (H + 2 pad_h - R) / stride_h + 1  (Q likewise).
/// The maximum ignores the padding; on equal values the first in the
/// window (row by row) is the one kept. The average divides by the window's
/// taps inside the image, or by R x S where `count_padding` is set.
/// Tensors are NCHW or NHWC (see conv_layer.hpp).
///
/// Backward takes the output's gradient to the input's: the maximum's to
/// the element it picked (so forward must record it, in `argmax`), the
/// average's spread evenly over the window. Each input element gathers
/// from the windows that cover it, so there are no atomics and a run
/// repeats bit for bit.
///
/// Errors, before any launch: zero sizes, a padding as large as the window,
/// a window larger than the padded image, buffers too small, of another
/// context or sharing memory, a maximum's backward without `argmax`.
namespace portacl {

/// The largest of a window, or its mean.
enum class PoolKind { max, average };

/// A pooling layer's sizes.
struct PoolShape {
  std::size_t images = 1;          ///< N
  std::size_t channels = 1;        ///< C
  std::size_t height = 1;          ///< H
  std::size_t width = 1;           ///< W
  std::size_t window_h = 2;        ///< R, the window's rows
  std::size_t window_w = 2;        ///< S, the window's columns
  std::size_t stride_h = 2;        ///< rows between two windows
  std::size_t stride_w = 2;        ///< columns between two windows
  std::size_t pad_h = 0;           ///< rows of padding above and below
  std::size_t pad_w = 0;           ///< columns of padding left and right
  std::size_t out_height() const;  ///< P
  std::size_t out_width() const;   ///< Q
};

/// How a pooling layer runs.
struct PoolOptions {
  PoolKind kind = PoolKind::max;             ///< maximum or average
  TensorLayout layout = TensorLayout::nchw;  ///< of the tensors
  bool count_padding = false;                ///< average: divide by R x S, not by the taps inside the image
  PlanOptions plan;                          ///< for the layer's launch
};

/// output = pool(input). For the maximum, `argmax` (as many ints as the
/// output, or null) gets each picked element's place in its channel's
/// plane, y W + x. `argmax` is laid out as the output is (NCHW or NHWC, by
/// options.layout), while its values count y W + x in the input's plane in
/// either layout: in NHWC the picked input element is at ((n H + y) W + x)
/// C + c. pool_backward reads it the same way.
LaunchPlan pool_forward(Context& ctx, const PoolShape& shape, const Buffer<float>& input, Buffer<float>& output,
                        Buffer<int>* argmax, const PoolOptions& options = {});

/// grad_input = the gradient of the pooling for grad_output (overwritten,
/// not added to). The maximum needs the forward pass's `argmax`.
LaunchPlan pool_backward(Context& ctx, const PoolShape& shape, const Buffer<float>& grad_output,
                         Buffer<float>& grad_input, const Buffer<int>* argmax, const PoolOptions& options = {});

}  // namespace portacl

// ---- sgd ---------------------------------------------------------------------
/// Stochastic gradient descent with momentum and weight decay, as PyTorch's
/// torch.optim.SGD (dampening 0, not Nesterov) applies them to each
/// parameter w with gradient g and velocity v (zero at the start):
///   g' = gradient_scale g + weight_decay w
///   v  = momentum v + g'
///   w  = w - learning_rate v
/// gradient_scale turns gradients summed over R data-parallel replicas into
/// their mean (1 / R); a single device leaves it at 1.
///
/// Errors, before any launch: parameters, gradients and velocity of
/// different sizes or contexts, or sharing memory; a rate, momentum, decay
/// or scale that is negative or not finite.
namespace portacl {

/// SGD's coefficients (above).
struct SgdOptions {
  float learning_rate = 0.01f;  ///< the step along -v
  float momentum = 0.9f;        ///< v's share carried over
  float weight_decay = 0.0f;    ///< L2 penalty's coefficient
  float gradient_scale = 1.0f;  ///< g's factor (1 / R for R replicas' summed gradients)
  PlanOptions plan;             ///< for the step's launch
};

/// One step on every parameter (above), velocity updated in place.
LaunchPlan sgd_step(Context& ctx, Buffer<float>& parameters, const Buffer<float>& gradients, Buffer<float>& velocity,
                    const SgdOptions& options = {});

}  // namespace portacl

// ---- small cnn ---------------------------------------------------------------
/// A small convolutional network trained on the device: images of
/// C x H x W (NCHW) through a 3 x 3 convolution of F filters (padding 1,
/// bias, ReLU), a 2 x 2 max-pooling of stride 2, and a fully connected
/// layer to `classes` logits, with the softmax cross-entropy as its loss.
///
/// All parameters live in one device buffer and all their gradients in
/// another of the same shape, so that data-parallel replicas can sum the
/// gradients in one call (an all-reduce), then apply them with
/// SgdOptions::gradient_scale = 1 / replicas: a step is
/// compute_gradients (forward, loss, backward) then apply_gradients (SGD
/// with momentum and weight decay). train_step does both. The gradients
/// are those of the batch's mean loss.
///
/// Parameters start from `seed`: the weights uniform in
/// +-sqrt(6 / fan_in) (He's initialisation for the ReLU layer, fan_in
/// C x 9; the same bound for the last layer), the biases 0. The same seed,
/// data and options repeat bit for bit on one device.
///
/// Errors, before any launch: zero sizes, images smaller than 2 x 2,
/// buffers too small or of another context, a batch of 0; a label outside
/// 0 .. classes - 1 is named after the forward pass.
namespace portacl {

/// The small network's sizes: C x H x W images into `classes` classes.
struct SmallCnnShape {
  std::size_t channels = 1;  ///< C
  std::size_t height = 8;    ///< H
  std::size_t width = 8;     ///< W
  std::size_t filters = 8;   ///< of the convolution
  std::size_t classes = 4;   ///< the dense layer's outputs
};

/// Where one parameter tensor lies in parameters() and gradients().
struct ParameterSegment {
  std::size_t offset = 0;  ///< the first float's index
  std::size_t count = 0;   ///< floats
};

/// The small convolutional network (above): convolution, ReLU, pooling,
/// dense layer and softmax loss, trained by SGD on one device.
class SmallCnn {
 public:
  /// `plan` applies to every layer's launches (a device class's plan, tuned
  /// values); SGD's own plan comes with its options.
  SmallCnn(Context& ctx, const SmallCnnShape& shape, std::uint64_t seed, const PlanOptions& plan = {});
  ~SmallCnn();
  SmallCnn(const SmallCnn&) = delete;
  SmallCnn& operator=(const SmallCnn&) = delete;

  const SmallCnnShape& shape() const;  ///< as built
  Context& context() const;            ///< the device it runs on
  /// Every parameter, flat: the convolution's filters (F x C x 3 x 3) and
  /// bias (F), the dense layer's weights (classes x F (H/2) (W/2)) and
  /// bias (classes), each segment starting on the device's sub-buffer
  /// alignment (the gaps hold zeros). The dense layer reads an image's
  /// pooled maps flattened in NCHW order: input f (H/2)(W/2) + y (W/2) + x
  /// is filter f's pooled value at row y, column x (H/2 and W/2 rounded
  /// down), so weight [k][that index] joins it to class k.
  Buffer<float>& parameters();
  /// The last train_step's gradients, laid out as parameters().
  const Buffer<float>& gradients() const;
  Buffer<float>& gradients();              ///< for a caller that sums replicas' gradients in place
  ParameterSegment conv_filters() const;   ///< the convolution's filters in parameters()
  ParameterSegment conv_bias() const;      ///< the convolution's bias
  ParameterSegment dense_weights() const;  ///< the dense layer's weights
  ParameterSegment dense_bias() const;     ///< the dense layer's bias
  /// The four segments read back one after another, without the gaps: the
  /// parameters as a device-independent vector (saving a model, comparing
  /// replicas on devices of different alignments).
  std::vector<float> packed_parameters() const;
  /// The same vector written back into the segments (the gaps stay 0).
  /// Throws portacl::Error for a vector of another length.
  void set_packed_parameters(const std::vector<float>& packed);

  /// Forward and backward over `batch` images (batch x C x H x W) and their
  /// labels: returns the mean loss, leaves its gradient in gradients().
  double compute_gradients(const Buffer<float>& images, const Buffer<int>& labels, std::size_t batch);
  /// One SGD step from gradients(), the velocity kept inside; the step's plan.
  LaunchPlan apply_gradients(const SgdOptions& options);
  /// compute_gradients then apply_gradients; the loss before the step.
  double train_step(const Buffer<float>& images, const Buffer<int>& labels, std::size_t batch,
                    const SgdOptions& options);
  /// The logits (batch x classes) of `batch` images.
  void forward(const Buffer<float>& images, std::size_t batch, Buffer<float>& logits);
  /// Each image's predicted class.
  void predict(const Buffer<float>& images, std::size_t batch, Buffer<int>& classes);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl

// ---- softmax loss ------------------------------------------------------------
/// Softmax cross-entropy, the classification loss: for each of `batch`
/// rows of `classes` logits z and its label t (an int in 0 .. classes - 1),
///   loss = log sum_j exp(z_j) - z_t,
/// computed in the stable form (the row's maximum subtracted first). The
/// mean over the batch is returned, summed on the host in double; its
/// gradient, (softmax(z) - onehot(t)) / batch, is written where asked.
///
/// Errors: zero sizes, buffers too small or of another context, a gradient
/// sharing memory with the logits (before any launch); a label outside
/// 0 .. classes - 1 (after the launch, naming the first such sample).
namespace portacl {

/// The mean loss; `grad_logits` (batch x classes, or null) gets its
/// gradient. Waits for the device (the losses come back to be summed).
double softmax_cross_entropy(Context& ctx, std::size_t batch, std::size_t classes, const Buffer<float>& logits,
                             const Buffer<int>& labels, Buffer<float>* grad_logits, const PlanOptions& plan = {});

/// predicted[i] = the class of row i's largest logit (the first of equal
/// ones).
LaunchPlan predict_classes(Context& ctx, std::size_t batch, std::size_t classes, const Buffer<float>& logits,
                           Buffer<int>& predicted, const PlanOptions& plan = {});

}  // namespace portacl

// ---- group small cnn ---------------------------------------------------------
/// Data-parallel training of the SmallCnn (small_cnn.hpp) on a device
/// group: a replica on every member, all from one seed; each step splits
/// the batch by the group's weights (rule group.split), each replica
/// computes the gradient of its share's mean loss, the gradients travel
/// through pinned host memory and are averaged there (in double, each
/// weighted by its share of the batch: the gradient of the whole batch's
/// mean loss, as one device would compute it), and every replica applies
/// the same SGD step to the same average.
///
/// Results: those of SmallCnn::train_step on the whole batch on one
/// device, within float rounding (the batch's sums are split). On members
/// of one kind the replicas stay equal bit for bit; members of different
/// kinds may round an SGD step differently, so sync_parameters() copies
/// member 0's parameters to the others (call it every few hundred steps).
namespace portacl {

/// Data-parallel training of the small network over a device group (above).
class GroupSmallCnn {
 public:
  /// A replica on every member, all from `seed` (the same parameters).
  GroupSmallCnn(DeviceGroup& group, const SmallCnnShape& shape, std::uint64_t seed, const PlanOptions& plan = {});
  ~GroupSmallCnn();
  GroupSmallCnn(const GroupSmallCnn&) = delete;
  GroupSmallCnn& operator=(const GroupSmallCnn&) = delete;

  /// One step on `batch` images (batch x C x H x W, by images) and labels;
  /// returns the batch's mean loss before the step. Errors: sizes that do
  /// not match, a batch of 0, a label out of range (named with its image
  /// and member), the SGD options' own.
  double train_step(const std::vector<float>& images, const std::vector<int>& labels, std::size_t batch,
                    const SgdOptions& options);
  /// The last step's split of the batch, and why.
  std::string describe() const;
  /// Seconds in the gradient exchange: from the moment every replica had
  /// its gradients to the moment every replica holds the average, summed.
  double exchange_seconds() const;
  /// Member `replica`'s network (its parameters, predictions).
  SmallCnn& replica(std::size_t member);
  /// The parameters in SmallCnn's segments, from member 0: filters, conv
  /// bias, dense weights, dense bias, one after another (no gaps).
  std::vector<float> parameters() const;
  /// Member 0's parameters to every other member.
  void sync_parameters();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl
