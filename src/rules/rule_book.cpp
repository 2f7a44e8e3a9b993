// SPDX-License-Identifier: Apache-2.0
#include "portacl/plan.hpp"

#include "portacl/error.hpp"

namespace portacl {

const std::vector<Rule>& rule_book() {
  static const std::vector<Rule> book = {
      // Live limits: the device's own numbers always beat the book's.
      {"limits.max-work-group-size", "all", "1.6",
       "Never exceed CL_DEVICE_MAX_WORK_GROUP_SIZE (or CL_DEVICE_MAX_WORK_ITEM_SIZES per dimension)."},
      {"limits.kernel-work-group-size", "all", "1.6", "Never exceed the compiled kernel's CL_KERNEL_WORK_GROUP_SIZE."},
      {"limits.local-mem-size", "all", "1.6", "A work-group's local memory must fit CL_DEVICE_LOCAL_MEM_SIZE."},
      {"limits.vector-width-divides", "all", "1.6",
       "Vector width is a power of two the OpenCL C vector types offer (1, 2, 4, 8, 16)."},
      {"limits.fp64", "all", "1.6", "double needs cl_khr_fp64 (or OpenCL C 1.2 optional core fp64)."},
      {"general.grid-stride", "all", "1.6",
       "Launch only as many work-groups as fill the device; each work-item loops over the rest (grid stride)."},
      {"general.cover-problem", "all", "1.6",
       "Small problems launch just enough work-groups to cover every element once."},
      {"general.single-pass-combine", "all", "003 12",
       "The last work-group to finish (an atomic ticket) combines the partial results: one launch instead of two. "
       "Scans: decoupled look-back, each work-group adding up the totals its predecessors publish, so the input is "
       "read once."},
      {"general.two-pass-combine", "all", "003 12",
       "Without global atomics a second launch of one work-group combines the partial results."},
      {"general.sub-group-combine", "all", "003 12",
       "Where the device has sub-group operations, each sub-group combines its values first; local memory holds one "
       "value per sub-group."},
      {"tuning.override", "all", "-", "A tuned value for this device and size bucket replaces the rule's default."},
      {"tuning.nearby-bucket", "all", "-",
       "A tuned record stands in for sizes within 6 buckets (64x the elements either way) of the size it was "
       "measured at; farther away the rules plan. The stencil family's records reach 1 bucket (2x): their best "
       "shapes depend on how many work-groups the grid makes (H100, the star's record tuned at 256^3 ran 1.232 ms "
       "at 512^3, the rules 1.012)."},
      {"general.gemm-register-tiles", "all", "-",
       "GEMM on packed operands in local memory runs square work-groups whose work-items each own an 8-row block "
       "of C with up to 128 accumulator registers (8 x 16 floats, 8 x 8 doubles; narrower where the tiles would "
       "number fewer than half the compute units), over slices double-buffered up to 16 deep: the next slice's "
       "loads are issued before the current slice's multiply-adds, one barrier a slice, the slice unrolled (H100, "
       "4096^3, the multiply alone: 51.2 TFLOP/s, against 41.0 for the former 16 x 4 blocks on 16 x 8 groups and "
       "33.6 for 8 x 8 blocks in one buffer)."},
      {"general.pack-large-products", "all", "-",
       "GEMM packs its operands into tile-padded panels (two extra launches) from 64^3 multiply-adds on CPU-like "
       "devices and from 640^3 on GPUs, where the launches cost more than packing saves below that (H100, wall "
       "clock: 62 against 77 us at 256^3, 101 against 117 at 512^3, packed ahead from 768^3)."},
      {"caller.choice", "all", "-", "An option the caller passed (GEMM's backend) replaces the rule's choice."},
      // Sparse matrix-vector products (seed 000 section 2.1, seed 002 chapter 8).
      {"sparse.csr-default", "all", "000 2.1", "A matrix without entries needs no kernel: y = beta y."},
      {"sparse.dia-banded", "all", "002 8",
       "DIA on GPUs and MIC when at most 128 diagonals hold the entries with at least 2/3 of their slots filled: no "
       "column indices are read, and x is read in runs (on CPUs a work-item's row is spread over the diagonals, so "
       "CSR chunks win)."},
      {"sparse.ell-regular", "all", "002 8",
       "ELL when padding every row to the longest adds at most 25% slots (ELLPACK-R, with row lengths, when rows "
       "differ), on every class: regular rows need no row pointers (PoCL, 2D Laplacian: 0.31 ms against 0.37 for "
       "CSR chunks)."},
      {"sparse.ell-layout", "all", "002 8",
       "ELL is stored column-major on GPUs and MIC (neighbouring work-items read neighbouring slots) and row-major "
       "on CPUs (a work-item streams its own row)."},
      {"sparse.hyb-width", "all", "002 8",
       "HYB's ELL width K is the largest for which at least a third of the rows (and at least 4096) have K entries "
       "or more; the longer rows' rest goes to coordinates."},
      {"sparse.csr-cpu-chunks", "cpu", "000 2.1",
       "On CPUs each work-item takes a chunk of whole rows with about equal entries, without local memory, and walks "
       "them in SIMD vectors where rows average at least 4 vectors."},
      {"sparse.csr-adaptive-irregular", "all", "000 2.1",
       "Longer rows (a mean above 16) whose lengths vary more than their mean, some beyond 128 entries: rows are "
       "binned by length "
       "(<=7, 8-31, 32-128, >128) and each bin gets the kernel that fits it, on its own queue."},
      {"sparse.csr-block-short-rows", "all", "000 2.1",
       "Rows of 16 entries or fewer on average, too irregular for ELL: a work-group reads a block of rows with "
       "balanced entries in one coalesced pass through local memory, then each work-item adds up a row; a row "
       "longer than the block is summed by the whole work-group (about 3x the half-warp kernel at 5-8 entries per "
       "row; H100, power-law rows of mean 8: 0.165 ms against 0.204 binned)."},
      {"sparse.vector-team", "all", "000 2.1",
       "Longer rows: a team per row, the next power of two at or above the mean row length up to the warp or "
       "wavefront, reads the row's consecutive entries together."},
      {"sparse.adaptive-bins", "all", "000 2.1",
       "The adaptive variant's bins: rows of 1-7 entries one work-item each, 8-31 a team of 8, 32-128 a warp or "
       "wavefront, longer rows a work-group."},
      {"sparse.block-uniform-barriers", "all", "-",
       "Where PoCL compiles the block variant (quirk pocl.barrier-loop-in-branch: PoCL 5's work-group compiler "
       "aborts on it), every work-group enters both the long-row piece's and the block's part of each unit and "
       "runs the same loops of barriers, doing only its own kind's work; elsewhere each group enters its own part."},
      {"sparse.block-entries", "all", "000 2.1",
       "The block variant stages up to 4 entries per work-item of a work-group in local memory, within the device's "
       "local memory."},
      {"sparse.long-row-segments", "all", "-",
       "The block variant cuts a row longer than its unit of entries into pieces of 8 units, a work-group each, so "
       "every group's share is about equal whatever the row lengths (load balance by entries, not rows; Merrill and "
       "Garland 2016); fewer units (down to 2) where the long rows would make under 2 pieces per compute unit (a "
       "piece's gathers queue at one compute unit: H100, 16 rows of 62505 entries, 0.061 ms in 64 pieces, 0.037 in "
       "256). Each row's pieces are added in order, so the result does not depend on timing."},
      {"sparse.merge-path-tiles", "all", "-",
       "csr-merge gives every work-item the same number of items of the merge path (the rows' ends and the entries "
       "in order; Merrill and Garland 2016): 7 for 4-byte values, 5 for 8-byte ones, fewer where local memory is "
       "short; a tile's products are staged once, coalesced, and a row cut between tiles is finished by the last of "
       "its tiles to finish (an atomic count per such row; a second launch without global atomics)."},
      // Stencils (seed 000 chapter 3).
      {"histogram.local-bins", "all", "000 4.4",
       "GPUs count a histogram hierarchically: each work-group into its own bins in local memory (local atomics), then "
       "one global atomic per non-zero bin (the textbook: 20x over a global atomic per key on a GTX 750 Ti), where the "
       "bins fit half the local memory and it is real."},
      {"histogram.global-atomics", "all", "000 4.4",
       "Bins past local memory (or past the CPU rows' memory budget): one global atomic per key."},
      {"histogram.private-rows", "cpu", "000 4.4",
       "CPUs and Xeon Phi count without atomics (they serialise there): each work-item counts a contiguous chunk of "
       "keys into its own row, at least 4096 keys and up to 4 rows per compute unit, and a second kernel adds the rows "
       "up bin by bin (the textbook's per-thread histograms scaled linearly on 8 cores)."},
      {"fft.bluestein", "all", "-",
       "A length with a prime factor above 13 (the largest radix) is transformed by Bluestein's chirp-z: x_j w_j, a "
       "cyclic convolution with conj(w) by transforms of the smallest 2^a 3^b 5^c 7^d at least 2n - 1, times w_k "
       "(w_j = exp(-pi i j^2 / n), j^2 reduced modulo 2n in integers; the kernel's spectrum made once a plan, in "
       "double "
       "where the device has fp64)."},
      {"fft.stage-length", "all", "-",
       "A transform is as few Stockham stages as fit a work-group's local memory (GPUs: one buffer, the passes in "
       "place, less 1 KiB that NVIDIA reserves in every block; CPUs and Xeon Phi: two buffers within 256 KiB, a core's "
       "second-level cache), the prime factors dealt largest first to the shortest stage: each stage reads and writes "
       "every value once, so fewer stages move fewer bytes. Where one stage does not fit, a GPU's stages are short "
       "enough that a work-group holds a 32-byte sector's worth of sequences, whose values then coalesce across "
       "them."},
      {"fft.columns", "all", "-",
       "A column axis (its transforms lie side by side in memory, nearer than a transform's consecutive values) "
       "gives a GPU work-group a 32-byte sector's worth of neighbouring transforms at the same index: stages short "
       "enough to hold them, and between its stages temporaries that keep the transforms side by side, so every "
       "load and store coalesces across transforms (one transform a work-group reads one value of each sector)."},
      {"fft.real-packed", "all", "-",
       "R2C and C2R of an even length n along the last axis run its reals as n / 2 complex values (reals 2j and "
       "2j + 1 as value j), transformed by the complex stages; the halves are joined after them (X_k and "
       "X_(n/2-k) from Z_k and Z_(n/2-k) and a root of n) or split before the inverse: within the stage where n / "
       "2 is one stage of a GPU's in-place program (in local memory, roots from their angles), else by a launch of "
       "their own where n takes more than one stage (a table of n's roots). Half the arithmetic and half the values "
       "a stage moves. A single stage of n on a CPU stays whole (it reads and writes each value once already; on "
       "PoCL 4096 transforms of 1000 reals took 20.6 ms joined in the stage and 20.1 joined by a launch, against "
       "16.8 whole, while 2^22 reals in two stages took 31.6 against 53.4). A column axis (transforms side by "
       "side) keeps its reals as complex values."},
      {"fft.lanes", "cpu, mic", "-",
       "On CPUs and Xeon Phi a length whose prime factors are 2, 3 and 5 runs a work-item per SIMD width of "
       "sequences: value j of all of them is one vector, each butterfly one vector instruction for every lane, a "
       "sequence in private memory, no barrier, a program per stage (compiled once, then cached). As few stages "
       "as keep a sequence's two arrays of vectors within 256 KiB (1024 values in float or double at 16 and 8 "
       "lanes), each a Stockham stage of its own launch: the lanes take the same slot of neighbouring transforms "
       "where the transforms lie side by side (a column axis, side by side in the temporaries too), else "
       "neighbouring slots of one transform, a later stage's twiddles from a table made in double once a plan. "
       "Memory is walked in the order it lies: lanes at neighbouring addresses a vector load and store of every "
       "lane's value at a time; lanes a sequence apart (rows) a lane's whole sequence at a time, since value j of "
       "every row lies in one cache set. PoCL's vectoriser left the stage kernel's work-item loops over float2 "
       "values scalar (its remarks, docs/bench), so the stages run one lane a work-item there."},
      {"fft.radices", "all", "-",
       "Within a stage, radix-8 passes while 8 divides, then a 4 or a 2 (an 8 and a lone 2 become two 4s), then 3, "
       "5, 7, 11 and 13: the fewest passes over local memory, none of radix 2 where a 4 serves; 2, 3, 4, 5, 7 and 8 "
       "by their own butterflies (constants compiled in), 11 and 13 by their definition."},
      {"fft.slots", "all", "-",
       "A work-group holds as many of a stage's sequences as give it about its planned size in butterflies a pass "
       "(GPUs: in the largest radix's passes, so every work-item has a butterfly there; where it loads or stores "
       "across "
       "sequences, a 32-byte sector's worth if its local memory holds them; at least one, within its local memory), "
       "in a work-group of the next power of two up to that size."},
      {"fft.pass-twiddles", "all", "1.5.2",
       "GPUs read a pass's twiddles from a table of that pass's roots, laid out in the order its work-items take "
       "them, so a warp's loads fall on a few cache lines (indexing one table of the length's roots scatters them "
       "over as many lines as work-items in the middle passes); made in double once a plan and rounded once."},
      {"fft.local-padding", "all", "1.5.2",
       "GPUs pad the stage's local buffer by one value after each 128-byte row of banks and start its sequences a "
       "few values further apart (an odd number of values where a work-group holds a row's worth of sequences, "
       "else a row over their count, modulo a row): the early passes write their butterflies' values a radix apart, "
       "and loads across sequences write a sequence's length apart, which without padding fall on the same banks "
       "(an 8-way conflict for radix 8, 16-way across sequences of 128)."},
      {"fft.stage-twiddles", "all", "-",
       "GPUs compute the twiddle a stage after the first applies to each value it loads, W_n^m, from its angle: "
       "2 pi m / n reduced exactly in integers to a quadrant and the nearer half of it, then sinpi and cospi (within "
       "4 ulp each; the angle's three roundings add under 2.4 ulp: inside the 9 ulp a table twiddle is allowed). "
       "The table's two reads a value scatter over the tables, a cache line a work-item; CPUs read the tables."},
      {"fft.specialise", "all", "-",
       "GPUs, and CPUs and Xeon Phi for a transform of at least 2^16 values, build a stage's program with its "
       "length, slots and radices compiled in: each pass unrolls, index arithmetic folds, and a work-item keeps its "
       "butterflies' values in registers across the pass's barrier, so the passes run in place in one local buffer. "
       "A smaller transform on a CPU takes them as arguments, one program for every length, the passes between two "
       "buffers: its compilation (0.3-0.8 s a stage shape on PoCL, once a machine with the binary cache) would "
       "outweigh the call. PoCL, 2 cores, 11 transforms of 2^20 to 2^22 values: 1.2 to 1.7 times as fast "
       "specialised on ten, the same on one (1000 x 4096)."},
      {"fft.coalescing", "all", "1.5.2",
       "Consecutive work-items take consecutive slots or consecutive values of one slot, whichever lies nearer in "
       "memory, so that a warp's accesses coalesce. In place (GPUs), the first pass's butterflies read their values "
       "from memory straight into registers and the last pass's write theirs, in that order (a stage of one pass "
       "whose load and store want different orders stores through local memory); two buffers (CPUs) load and "
       "store through local memory. H200, 8192-point transforms x 8192: the stage that reads across slots from "
       "2716 to 3657 GB/s."},
      {"sort.work-item-chunks", "cpu", "-",
       "CPUs and Xeon Phi radix-sort without local memory or barriers: each work-item counts a contiguous chunk of at "
       "least 4096 keys into 256 private counters (8-bit digits, 4 passes over 32-bit keys, 8 over 64-bit ones) and "
       "later moves the chunk "
       "in order to the places a scan of all the counts gives it, which keeps the sort stable."},
      {"sort.work-group-tiles", "all", "-",
       "GPUs radix-sort by tiles of 128 work-items of 12 keys: a work-group ranks its tile with a local counter per "
       "digit and work-item (scanned digit-major, so equal keys keep their order), reorders the tile in local memory "
       "and writes it out digit by digit, so neighbouring work-items write neighbouring places; 5-bit digits (7 "
       "passes over 32-bit keys, 13 over 64-bit ones), fewer where the tile would take more than half the local memory "
       "(H100, 2^24 keys: 1.06 ms against "
       "1.53 with 256 x 8 keys and 4-bit digits)."},
      {"sort.one-sweep", "all", "-",
       "Tiles may sort in one sweep where the device has global atomics (Adinets and Merrill's Onesweep): one read of "
       "the keys counts the digits of every pass, then each pass is a single launch whose tiles, taken in order from "
       "a ticket, publish their digit counts and add up those of the tiles before them (decoupled look-back) to find "
       "where their keys go; a pass reads and writes the keys once, where count, scan and scatter read them twice. "
       "Only a tuning record (ONE_SWEEP 1) turns it on: on the H100 it was slower (2^26 keys: 4.0-4.4 ms against "
       "3.5), each digit's look-back walking back over the tiles one at a time."},
      {"binary-gemm.tiles", "all", "004",
       "Binary GEMM on GPUs: work-groups of 16 x 16 compute 4 x 4 outputs each from slices of 8 packed words of the "
       "tile's rows and columns staged in local memory, a word of padding a row so that neighbouring work-items read "
       "different banks; each output is K - 2 popcount(a xor b) summed over the words."},
      {"binary-gemm.rows", "all", "004",
       "Binary GEMM on CPUs and Xeon Phi: a work-item takes a row of C and 8 columns, the row's packed words walked in "
       "the plan's integer vectors (SIMD popcount), the row reused from the cache for every column; no local memory, "
       "no barriers."},
      {"kmeans.layout", "all", "000 5.1",
       "k-means on GPUs reads the points a column per point (coordinate j of every point together), copied once into "
       "that layout where the caller's differs, so that neighbouring work-items read neighbouring addresses; the "
       "points are read every iteration, so the copy pays. Up to 4 coordinates, and on CPUs, a row per point."},
      {"kmeans.centroids-local", "all", "000 5.1",
       "k-means stages the k x d centroids in local memory, once a work-group, where the plan uses real local memory "
       "and they fit beside the chunk's labels within half of it; otherwise every point reads them through the "
       "cache."},
      {"kmeans.sums", "all", "000 5.1",
       "k-means adds up a chunk's points per cluster with d + 1 work-items, one per coordinate and one for the count, "
       "so each address has one writer and no atomics are needed. Where local memory is real and the sums fit, "
       "several such groups share the chunk in slices, each in local memory, and the slices are added up after; "
       "otherwise (CPUs) they add straight into the work-group's row, where neighbouring work-items touch "
       "neighbouring coordinates."},
      {"kmeans.block", "all", "000 5.1",
       "k-means compares a point with a vector of centroids at a time (the centroids kept transposed, so a "
       "coordinate of all of them is one load): the SIMD width in elements on CPUs (16 floats or 8 doubles with "
       "AVX-512; floats: 9.5-10.6 ms an "
       "iteration on PoCL against 16.4 with 8), 16 on GPUs (H100: 0.139 ms with 4 points a work-item against 0.208 "
       "with 8 centroids and 1 point), no wider than the power of two that holds k."},
      {"kmeans.combine", "all", "000 5.1",
       "k-means sums each cluster's points in two steps: every work-group writes its chunk's sums and counts as a "
       "row, and a second kernel adds the rows in order with a compensation term. A run then repeats bit for bit; "
       "OpenCL 1.2 has no float atomic add, and a compare-and-swap loop on k x d addresses serialises the "
       "work-groups (tunable: ATOMIC 1, floats only: a double add would need 64-bit compare-and-swap; H100, 300000 "
       "points of 35, k 10: 0.44 ms an iteration against 0.14)."},
      {"kmeans.chunk", "all", "000 5.1",
       "k-means gives each work-item 4 points on GPUs and 1 on CPUs (tunable: POINTS); the chunk's labels (4 bytes a "
       "point) stay in local memory for the sums, fewer points a work-item where they would take more than half of "
       "it."},
      {"knn.method", "all", "000 5.2",
       "k-nearest neighbours on GPUs take the dot products of a batch of queries with every training point by the "
       "library's matrix product, then a work-group per query selects its k best: a radix select finds the k-th "
       "best score 8 bits at a time, the scores above it and the lowest-indexed ones equal to it are gathered and "
       "sorted bitonically. A work-item per query (the textbook's) would leave a GPU idle with a few thousand "
       "queries. CPUs keep each query's k best in a sorted private list, inserting a training point only when it "
       "beats the k-th, up to k = 64 and d = 16 (PoCL, 4096 x 4096, k 64: at d = 3 the list took 41 ms against 161 "
       "selecting, at d = 64 312 against 173)."},
      {"knn.list-tile", "all", "000 5.2",
       "The sorted-list KNN stages as many training points as fit half the local memory, at most 256, and every "
       "query of the work-group reads them from there; where one point does not fit, the search selects instead."},
      {"knn.select-list", "all", "000 5.2",
       "The KNN selection sorts its k entries (rounded up to a power of two) in local memory where they fit half of "
       "it, else in global memory; the dot products are made for at most 2^26 query-point pairs at a time."},
      {"knn.select-keys", "all", "-",
       "The KNN selection makes a query's keys (its scores as sortable integers of the element's width: 32 bits for "
       "floats, 64 for doubles) once into local memory where they fit beside the list within half of it, and its "
       "passes (a radix digit a byte of the key, and the gathering: five for floats, nine for doubles) read them "
       "there; otherwise each pass makes them again from the dot products in global memory."},
      {"conv.layout", "all", "000 5.4",
       "Convolution layers read NCHW best on GPUs (neighbouring work-items take neighbouring output columns of one "
       "channel) and NHWC best on CPUs (a position's channels are contiguous for the SIMD lanes), as the textbook's "
       "CUDA and AVX versions do; preferred_tensor_layout reports it and convert_tensor_layout converts."},
      {"conv.algorithm", "all", "000 5.4",
       "A 3 x 3 convolution layer of stride 1 and dilation 1 with at least 16 channels and 16 filters a group runs "
       "Winograd's F(2x2, 3x3): each 2 x 2 output tile costs 16 multiplications a channel instead of 36, summed "
       "over the channels by 16 GEMMs between transforms of the input tiles, the filters and the products. Other "
       "layers unroll their taps into a matrix (im2col) and multiply it by the filters with the library's GEMM "
       "where a group has at least 32 taps (C / groups x R x S) and 16 filters, so the product is deep and wide "
       "enough for the GEMM's tiles; otherwise each work-item sums directly."},
      {"conv.fft", "all", "-",
       "A convolution layer runs by FFT where the direct sum takes at least 3.5 (GPUs) or 4.5 (CPUs) times the "
       "FFT's multiplications, and at least 2^30 (GPUs) or 2^26 (CPUs) of them: R S a position, against 4 a "
       "frequency of the half spectrum (each image-filter pair over a group's channels) and 5 / 2 G log2 G a "
       "transformed plane of G cells (the images' channels, the filters' and the outputs'). Below the count, the "
       "FFT's ten launches and the filters' transforms cost more than the whole direct sum (H200: 0.28 ms at "
       "least). H200, 16 layers of 8 and of 32 images: of the 20 it gives the FFT, 19 ran 1.19 to 6.94 "
       "times as fast as the best other algorithm and one tied (0.99); of the 12 it withholds, the FFT lost 10 "
       "(0.27 to 0.92) and won 2 narrowly (1.04, 1.06). PoCL, the same 16 layers of 2 images: the one it gives "
       "the FFT ran 1.23 times as fast; of the 15 it withholds, the FFT lost 14 and won one (1.13, at 3.3). The grid "
       "along each axis is the "
       "smallest 2^a 3^b 5^c at least the image and its padding on one side, and the dilated filter, so that no "
       "kept output's tap wraps onto the image."},
      {"conv.fft-block", "all", "-",
       "A convolution layer by FFT sums each frequency's products over a group's channels for a block of 4 "
       "images x 4 filters a work-item: each spectrum value read serves 4 products."},
      {"conv.direct-block", "all", "000 5.4",
       "The direct convolution gives each work-item one output position for 4 images x 8 filters on GPUs and 1 x 8 "
       "on CPUs (tunable: IB, FB): each input value read serves 8 filters and each tap the block's images, the sums "
       "in registers (the textbook's several images x filters a thread). 128 images of 384 x 13 x 13 by 256 x "
       "384 x 3 x 3: H100 2.50 ms against "
       "3.82 with 2 x 4; PoCL 16-17 ms against 25."},
      {"conv.filter-gradient", "all", "-",
       "The backward pass computes the filters' gradient with the GEMM where its 64 x 64 output tiles (filters x "
       "taps of a group) are at least the compute units; otherwise a work-group a weight sums it over the images "
       "and output positions, as the GEMM cannot fill the device and would walk its deep sum on a few work-groups: "
       "16 filters of 3 x 3 over 256 images of 28 x 28: 405 ms by the GEMM on PoCL with 2 cores, 73 ms a "
       "work-group a weight."},
      {"conv.im2col-chunk", "all", "-",
       "im2col and Winograd transform as many images at a time as keep each transformed matrix within 2^26 floats "
       "(256 MiB), group by group, each chunk multiplied and written out before the next."},
      {"group.split", "all", "000 1.7",
       "A device group shares n items in contiguous parts in proportion to each member's weight (its measured "
       "speed, else 1 each): whole shares first, the items left over one each to the largest remainders, a member "
       "of weight 0 none, so a slower device never holds up the others by more than one item's work."},
      {"group.halo-width", "all", "003 14",
       "A stencil over a device group keeps k ghost rows on each side of a slab that has a neighbour and exchanges "
       "them every k steps (k = the thinnest slab's rows / 64, 1 to 8): each exchange costs a round trip through host "
       "memory, and the ghost rows and the two send bands recomputed for it stay under 1/8 of a slab."},
      {"particles.nbody-layout", "all", "003 14",
       "All-pairs N-body on GPUs keeps each body as one float4 (x, y, z, m), a single 16-byte load (separate arrays' "
       "four base pointers cost registers), and stages tiles of a work-group's size in local memory, which every "
       "work-item reads as a broadcast; CPUs and Xeon Phi split the bodies into x, y, z and m arrays and walk j in "
       "SIMD vectors."},
      {"particles.nbody-rsqrt", "all", "-",
       "The split (CPU) N-body layout takes 1/sqrt(r^2) from a bit-level first guess and three Newton steps (four "
       "in double) on the FMA units: PoCL builds rsqrt from a square root and a division, which share the divider "
       "(2 Intel AVX-512 cores: 115-118 GFLOP/s against 92-93). On AMD's AVX-512 CPUs it keeps the built-in rsqrt: "
       "Zen 4 runs 512-bit FMAs at half rate and its divider keeps up (2 cores, 16384 bodies: 44.4-45.5 ms against "
       "56.4-59.9 with Newton's steps)."},
      {"particles.nbody-unroll", "all", "003 14",
       "The inner loop over a tile is unrolled 4 times (the textbook's best for shared-memory tiles: +18% over no "
       "unrolling on a GK104), 16 times on NVIDIA GPUs (H100, 2^16 bodies: 3.06 ms against 3.18 with 4)."},
      {"particles.nbody-bodies-per-item", "all", "003 14",
       "A work-item takes 1 body i unless tuned (BODIES 2 or 4 make every body j read serve several): on PoCL with "
       "AVX-512, 2^14 bodies took 131.7 ms with 1 and 129.5 with 4, the pairs' arithmetic and not the loads bounding "
       "it."},
      {"particles.neighbour-cells", "all", "000 4",
       "Neighbour lists search cells at least cutoff + skin wide where the box holds 3 or more a side and there are "
       "1000 particles or more: particles sorted by cell with the radix sort, each testing the 27 neighbouring cells "
       "(O(n)); otherwise every pair is tested (O(n^2); fewer than 3 cells a side would repeat cells)."},
      {"particles.list-slots", "all", "000 4",
       "GPUs store neighbour k of particle i at k n + i, so neighbouring work-items write and read neighbouring "
       "words; CPUs and Xeon Phi at i capacity + k, a particle's neighbours in one cache line."},
      {"particles.list-capacity", "all", "000 4",
       "A list's first capacity is 1.25 times the neighbours a uniform density gives within cutoff + skin, plus 8; a "
       "particle with more makes the build grow the capacity to fit it and run again."},
      {"particles.lj-scatter", "all", "000 4",
       "Pair forces over a full list are summed by each particle for itself (no atomics, each pair computed twice); "
       "over a half list each pair is computed once and the other particle's share added by a 32-bit atomic "
       "compare-and-swap on its float, which every OpenCL 1.2 device has."},
      {"particles.md-list", "all", "000 4",
       "An MD run takes half lists with atomic shares on CPUs and Xeon Phi, where a few threads' shares rarely collide "
       "(PoCL, 2 cores, 32,000 atoms: 14.9 ms a step against 19.4 with full lists), and full lists on GPUs, where "
       "thousands of work-items' compare-and-swap loops contend (H100, 1M atoms: half lists 5x slower); double runs "
       "take full lists (the shares are float atomics)."},
      {"stencil.tile-beyond-cache", "all", "000 3",
       "A stencil's local-memory tile (the block plus a halo) only where the grids exceed the device's cache: below "
       "that the cache serves the neighbours' re-reads (the textbook measured 1.5x on large grids, nothing on small). "
       "Never on "
       "CPUs, whose local memory is ordinary memory, nor on NVIDIA GPUs, whose caches serve the re-reads even beyond "
       "them (H100, heat 4096^2 x 1000 float: 72.8 ms cache-reliant against 113.2 tiled)."},
      {"stencil.cells-per-work-item", "all", "000 3",
       "On GPUs and MIC a work-item of the cache-reliant step updates 16 bytes of a row (4 floats, 2 doubles), "
       "loaded as aligned vectors, where the row length is a multiple of that; else 8 bytes (H100, heat 4096^2 x "
       "1000 float: 50.1 ms, 99.6% of copy, against 55.3 with 2 cells, 56.9 with 8 and 74.6 with 1; double: 94.3 "
       "with 2 cells against 105.0 with 1 and 112.4 with 8)."},
      {"stencil.temporal-blocking", "all", "000 3",
       "Where the grids exceed the cache on a GPU or MIC, a launch takes 4 steps: its tile and a halo 4 cells wide "
       "are stepped in local memory, so each cell is read and written once per 4 steps (H100, heat 4096^2 x 1000: "
       "float 25.9 ms against 50.1 one step per launch, 37.0 with 2 steps and 38.2 with 8; double 34.8 against "
       "94.3, 50.0 and 48.9)."},
      {"stencil.temporal-strip", "all", "000 3",
       "On GPUs and MIC a work-item of the temporal-blocking tile owns 8 cells of a column: the tile is 8 times as "
       "tall as the work-group, which compilers cap at a few hundred work-items for this kernel, so less of it is "
       "the overlap that is read but not written (4 steps on a 64 x 32 tile: 34% of it, against 75% on 16 x 16 "
       "with one cell each). The strip's north and south neighbours are registers (H100, heat 4096^2 x 1000 float, "
       "4 steps: 25.9 ms with 8 cells, 39.3 with 16, 89.1 with 1)."},
      {"stencil3d.plane-queue", "all", "000 3",
       "The 3D star stencil, where the plan takes local memory, marches a work-group along z: each x-y plane's block "
       "and its halo in local memory, the z neighbours in a register queue, so each cell is read from memory about "
       "once per plane. z is cut into chunks so that there are four work-groups per compute unit, each chunk at "
       "least 16R planes long (its first 2R planes are read only to fill the queue; H100, 256^3 radius 4: 0.073 ms "
       "with 64-plane chunks against 0.093 with 52). CPUs walk whole x rows instead, and a general stencil reads "
       "every point through the caches."},
      {"stencil3d.outputs-per-work-item", "all", "000 3",
       "In the plane queue a work-item computes a strip of consecutive outputs of its column in y, which share the "
       "plane's barriers and the halo's loads, and take their y neighbours inside the strip from registers: 4 on "
       "GPUs, whose block is then 16 rows tall at 256 work-items, so the halo rows above and below are a third of "
       "its loads instead of half; 2 elsewhere (H100, 512^3 radius 4, 64 x 4 work-items, 3 planes in flight: 0.468 ms "
       "with 4, 0.543 with 2 and 2 in flight)."},
      {"stencil3d.loads-in-flight", "all", "000 3",
       "On GPUs the plane queue issues each plane's loads 3 plane steps before their use, in a pass of 3 steps "
       "whose loads each keep their own registers; elsewhere one step. One step of a work-group is too few bytes in "
       "flight for HBM's latency once registers cap a multiprocessor at a few work-groups (H100, 512^3 radius 4, "
       "2 outputs in y: 0.542 ms with 1 step, 0.514 with 2, 0.493 with 3, 0.503 with 4; 4 outputs on 64 x 4: "
       "0.534, 0.482 and 0.468 with 1, 2 and 3)."},
      {"stencil3d.block-width", "all", "000 3",
       "On GPUs the plane queue's work-group is 64 work-items wide where the output rows have 64 cells or more: the "
       "halo's left and right columns are then R/64 of a block row's loads instead of R/32, and a row of 64 floats "
       "is two full 128-byte lines (H100, 512^3 radius 4, 4 outputs in y, 3 planes in flight: 64 x 4 0.468 ms; "
       "2 in flight: 64 x 4 0.482, 128 x 2 0.490, 32 x 8 0.499). Narrower rows keep the planner's shape."},
      // Convolution (seed 001 chapter 7, seed 000 section 5.3).
      {"convolution.mask-in-constant", "all", "001 7",
       "A convolution's mask (and a stencil's weights) in constant memory, which every work-item reads at the same "
       "address at the same time, when it fits the device's constant buffer (64 KiB when the device does not say); "
       "else in global memory."},
      {"convolution.outputs-per-work-item", "all", "001 7",
       "On GPUs and MIC a work-item computes 16 bytes of an output row (4 floats, 2 doubles), and in the "
       "cache-reliant variant 4 output rows for masks of 2 to 9 rows: each input row's window is read once for every "
       "output it touches, (rows + MR - 1) x (outputs + MC - 1) reads instead of MR x MC per output (H100, 4096^2 "
       "5x5 float: 76% of copy with 4 x 4 outputs, 63% with 2 x 4, 42% with 1 x 4)."},
      {"convolution.separable-passes", "all", "001 7",
       "A separable mask runs as a vertical and a horizontal pass (MR + MC multiply-adds per output instead of MR x "
       "MC, but the image is moved twice) from 49 weights on CPUs and MIC and from 121 on GPUs, whose direct pass "
       "stays memory-bound longer."},
      {"convolution.fft", "all", "-",
       "A 2D convolution runs by FFT (the image extended by its boundary and the mask zero-padded to the smallest "
       "2^a 3^b 5^c grid that holds the extended image, two real-to-complex transforms, the product with the "
       "mask's spectrum conjugated, a complex-to-real transform and the grid's corner) when the direct form's "
       "multiply-adds per output exceed the transforms' work per output, a per-class constant times log2 of the grid's "
       "cells times cells per output, measured where the two cross (docs/stencils.md). A separable mask keeps its two "
       "direct passes."},
      // Template matching (seed 003 chapter 15).
      {"ncc.image-tile", "all", "003 15",
       "Normalised cross-correlation stages the work-group's image block (its offsets plus the template less one "
       "in each direction) in local memory wherever the plan takes local memory and the block fits: every pixel "
       "serves up to template-size offsets. CPUs read through their caches."},
      {"ncc.outputs-per-work-item", "all", "003 15",
       "A work-item computes 4 offsets of a map row: they share each window row's sliding sums and one register "
       "window that slides a pixel per template column (one offset when the row has fewer)."},
      {"solver.fused-product-dot", "all", "-",
       "CG's product by DIA, ELL or ELLPACK-R (a row per work-item) also sums p . A p, and the last work-group "
       "computes alpha: one launch and one read of p and A p fewer per iteration."},
      {"solver.single-reduction-cg", "all", "-",
       "Where CG's product is fused with a dot, CG runs in the single-reduction form of Chronopoulos and Gear (1989): "
       "the product w = A z also sums z . w, alpha follows from it and the previous scalars, and one pass updates p, "
       "s = A p (a recurrence), x, r and z and sums the next rho: 2 launches an iteration instead of 3."},
      {"solver.replay-iteration", "all", "-",
       "Where the device offers cl_khr_command_buffer (the provisional 0.9 interface, with simultaneous use), CG in "
       "the single-reduction form records its two launches once and enqueues the recording each iteration: the "
       "device counts the iterations, so no argument changes. Not on PoCL, which replays a recording command by "
       "command (1.0-1.17x the plain launches' time); elsewhere, and for products that are not fused, each kernel "
       "is launched every iteration."},
      {"solver.check-interval", "all", "000 2.1",
       "An iterative solver reads its residual back every k iterations (1 on CPUs, 8 elsewhere), into pinned "
       "memory without waiting, and takes each check while the next window runs; the device marks convergence "
       "itself, so the iterations after it do nothing."},

      // CPU (1.5.1, 1.6).
      {"general.per-item-scan-vectors", "all", "-",
       "The barrier-free scan works in vectors of at most 8 lanes: wider ones' in-register prefix sums cost more in "
       "shuffles than they save (PoCL on AVX-512, 2^22 ints: 2.1 ms with 16 lanes, 1.3 ms with 8)."},
      {"general.scan-chunks", "all", "-",
       "The barrier-free scan makes one pass: chunks of 256 KiB, a work-item each, summed from memory, then scanned "
       "from the cache after adding up the sums published before them, so the input is read once, not twice (PoCL, "
       "2 cores, 2^24 elements: 6.0 ms against 7.0 for the two-pass scan; chunks of 4, 16, 64 and 1024 KiB took "
       "8.1, 6.8-7.0, 6.1-6.2 and 6.1 ms)."},
      {"cpu.wg-simd-multiple", "cpu", "1.5.1",
       "Work-items i and i+W share a SIMD lane: work-group size is a multiple of the SIMD width W for the element "
       "type."},
      {"cpu.wg-range", "cpu", "1.6", "CPU work-groups of 32-128 work-items, aligned to the SIMD width."},
      {"cpu.groups-per-cu", "cpu", "1.5.1", "At least 10x as many work-groups as compute units, to balance load."},
      {"cpu.no-local-memory", "cpu", "1.5.1",
       "Local memory is emulated in ordinary memory on CPUs: use the variant without it and rely on caches."},
      {"cpu.avoid-barriers", "cpu", "1.5.1",
       "A barrier costs a context switch per work-item on a CPU: prefer the barrier-free variant."},
      {"cpu.vector-types", "cpu", "1.6",
       "Explicit vector types sized to the SIMD unit (native vector width) help CPU performance."},
      {"cpu.map-not-copy", "cpu", "1.6", "A CPU device shares host memory: map buffers instead of copying."},
      {"cpu.contiguous-chunks", "cpu", "1.5.1",
       "Each work-item walks one contiguous chunk, so a core streams consecutive cache lines (a grid stride jumps the "
       "whole grid every step)."},
      {"cpu.gemm-register-block", "cpu", "1.5.1",
       "The CPU GEMM over packed panels gives each work-item a group of its own, 64 rows by two SIMD registers of "
       "columns, and walks the depth in slices of 256 so that its columns of B stay in the L1 cache; each block of 8 "
       "rows (4 below 16 float lanes) keeps its accumulators in explicit vector registers, each depth step loading two "
       "vectors of B and broadcasting 8 elements of A into 16 multiply-adds of whole vectors."},
      {"cpu.trsv-blocks", "cpu", "-",
       "The CPU triangular solve is one launch over blocks of 256 unknowns, a work-item each, taken in order: a "
       "block takes its rows' products with each block above as soon as that block is published, then solves its "
       "diagonal block, so one core's serial diagonal solve overlaps the other cores' products."},
      {"cpu.large-grain", "cpu", "1.5.1",
       "A work-group must carry enough work to fill the vector unit, else thread switches dominate."},
      // NVIDIA (1.3.4, 1.5.2, 1.6).
      {"nvidia.csr-block-groups", "nvidia_gpu", "-",
       "On NVIDIA GPUs the block variant runs work-groups of 128: more of them resident per SM to wait on the "
       "gathers of x (H100, web-like graph: 0.085-0.089 ms against 0.093-0.099 with 256; circuit- and power-law "
       "matrices within 2%)."},
      {"nvidia.scan-tiles", "nvidia_gpu", "-",
       "The single-pass scan takes 2-element vectors and 128 bytes of input per work-item, the tile held in "
       "registers (H100, 2^26 floats: 83% of the copy bandwidth, against 75% for 4-element vectors and 64 bytes "
       "read twice)."},
      {"nvidia.wg-warp-multiple", "nvidia_gpu", "1.6",
       "Work-groups are cut into warps of 32: work-group size is a multiple of the warp size (the textbook advises "
       "64)."},
      {"nvidia.wg-start", "nvidia_gpu", "1.6", "128-256 work-items per work-group is the starting point."},
      {"nvidia.vector-transactions", "nvidia_gpu", "1.5.2",
       "SIMT: vectors matter only for memory transactions; memory-bound kernels use 16-byte loads (float4), "
       "compute-bound ones scalars."},
      {"nvidia.occupancy", "nvidia_gpu", "1.3.4",
       "Up to 2048 resident work-items per SM: launch enough work-groups to fill every SM several times."},
      {"nvidia.local-memory-tiling", "nvidia_gpu", "1.5.2",
       "Local memory (48 KB per work-group) is fast on-chip storage: use the tiled variant when the kernel benefits."},
      {"nvidia.coalescing-shape", "nvidia_gpu", "1.5.2",
       "Coalescing is per warp along dimension 0: dimension 0 of a 2D work-group spans a full warp."},
      {"nvidia.warp-shuffle", "nvidia_gpu", "004",
       "A warp of 32 exchanges registers with shuffles (shfl.sync, inline PTX in NVIDIA's OpenCL): reductions within a "
       "warp need no local memory. Only on NVIDIA's own platform: another platform's compiler (PoCL's CUDA backend) "
       "takes no inline PTX, so those devices combine through sub-groups or local memory."},
      {"nvidia.pinned-transfers", "nvidia_gpu", "1.6",
       "PCI-E transfers run at full speed only from page-locked (pinned) host memory."},
      // AMD GCN (1.3.3, 1.5.3, 1.6).
      {"amd.wg-wavefront-multiple", "amd_gcn_gpu", "1.6",
       "Wavefronts are 64 wide: work-group size is a multiple of 64."},
      {"amd.wg-max-256", "amd_gcn_gpu", "1.5.3", "GCN work-groups hold at most 256 work-items."},
      {"amd.wg-start", "amd_gcn_gpu", "1.6", "128-256 work-items per work-group is the starting point."},
      {"amd.vector-transactions", "amd_gcn_gpu", "1.5.3",
       "Memory-bound kernels use 16-byte (float4) loads; the ALUs are scalar per work-item."},
      {"amd.occupancy", "amd_gcn_gpu", "1.3.3",
       "Up to 2560 resident work-items per CU: launch enough work-groups to fill every CU several times."},
      {"amd.local-memory-tiling", "amd_gcn_gpu", "1.5.3",
       "64 KB local memory per CU, at most 32 KB per work-group: use the tiled variant when the kernel benefits."},
      {"amd.local-memory-emulated", "amd_gcn_gpu", "1.6",
       "Where CL_DEVICE_LOCAL_MEM_TYPE is CL_GLOBAL, local memory is emulated: do not use it."},
      {"amd.coalescing-shape", "amd_gcn_gpu", "1.5.3",
       "Coalescing unit is a quarter wavefront (16 work-items) along dimension 0."},
      {"amd.pinned-transfers", "amd_gcn_gpu", "1.6",
       "Discrete GPU: stage transfers through pinned host memory for DMA."},
      // Intel MIC (1.4, 1.7, 1.8).
      {"mic.wg-16-multiple", "intel_mic", "1.8",
       "The 512-bit VPU packs 16 work-items: work-group size is a multiple of 16."},
      {"mic.wg-range", "intel_mic", "1.8", "Treated like a CPU: 32-128 work-items per work-group."},
      {"mic.vector-16", "intel_mic", "1.8", "Use float16 / double8 vector types to fill the VPU."},
      {"mic.groups-per-core", "intel_mic", "1.8",
       "At least 4 work-groups per core (one per hardware thread; OpenCL counts threads as compute units)."},
      {"mic.no-local-memory", "intel_mic", "1.8",
       "No on-chip local memory; cache-block instead of using local memory."},
      {"mic.pinned-copy", "intel_mic", "1.4",
       "The card has its own GDDR5 memory over PCI-E: copy through pinned staging, mapping is no zero copy."},
      // Other GPUs and accelerators: no chapter-1 rules, so generic GPU advice.
      {"generic.wg-preferred-multiple", "all", "1.6",
       "Work-group size is a multiple of CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (the execution width)."},
      {"generic.wg-start", "all", "1.6", "GPUs: 128-256 work-items per work-group; others: 64."},
      {"generic.vector-preferred", "all", "1.6",
       "Vector width from CL_DEVICE_PREFERRED_VECTOR_WIDTH for the element type (at least 16 bytes for memory-bound "
       "GPU kernels)."},
      {"generic.local-memory-if-real", "all", "1.6",
       "Use local-memory tiling only where local memory is real (CL_LOCAL) and the device is a GPU."},
      {"generic.memory-by-unified", "all", "1.6",
       "Devices sharing host memory (CL_DEVICE_HOST_UNIFIED_MEMORY) map; discrete ones stage through pinned memory."},
      {"amd-other.wavefront", "amd_gpu_other", "1.3.3",
       "Work-group size is a multiple of the wavefront (64 on VLIW, 32 on RDNA) and at most 256."},
      {"amd-other.vliw-vectors", "amd_gpu_other", "1.3.3",
       "VLIW parts pack independent operations: 4-wide vectors keep their slots busy."},
  };
  return book;
}

const Rule& rule(const std::string& id) {
  for (const auto& r : rule_book())
    if (id == r.id) return r;
  throw Error("internal: rule '" + id + "' is not in the rule book");
}

}  // namespace portacl
