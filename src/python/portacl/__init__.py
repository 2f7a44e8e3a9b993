# SPDX-License-Identifier: Apache-2.0
"""portacl from Python: contexts, device buffers from NumPy arrays, and the
library's kernels, with portacl's plans and errors.

Every call takes NumPy arrays (or portacl Buffers where it says so) and
returns NumPy arrays or Python numbers. Its device is, in order: the
`context` argument, the context of a Buffer among the operands, or the
default context (PORTACL_DEVICE, else the default device), made once.

With return_plan=True a call returns (result, plan): plan.explain() lists
what the runtime chose for the launch and the rule behind each choice."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, Tuple, Union

import numpy as _np

from . import _portacl
from ._portacl import (BuildError, Buffer, Context, CsrMatrix, DeviceValue, Error, Plan, __version__, query,
                       tunable_operations)

__all__ = ["BuildError", "Buffer", "Context", "CsrMatrix", "DeviceValue", "Error", "Plan", "SmallCnn", "__version__", "argsort",
           "axpy", "bicgstab", "bincount", "buffer_from_pyopencl", "cg", "compact", "context_from_pyopencl",
           "convolve2d", "cumsum", "default_context", "dot", "gemv", "heat2d", "kmeans", "knn", "matmul", "max", "md",
           "min", "nbody", "ncc", "nrm2", "query", "sort", "sparse", "spmv", "stencil3d", "sum", "to_pyopencl", "trsv",
           "tunable_operations", "tune"]

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    #: A 1-D operand: a NumPy array (or anything numpy.asarray takes) or a Buffer already on the device.
    Vector = Union[ArrayLike, Buffer]

_default: Optional[Context] = None


def default_context() -> Context:
    """The context calls use when given none: made on first use."""
    global _default
    if _default is None:
        _default = Context()
    return _default


def _context(context: Optional[Context], *operands: Any) -> Context:
    if context is not None:
        return context
    for a in operands:
        if isinstance(a, Buffer):
            return a.context
    return default_context()


def _buffer(ctx: Context, a: Vector, call: str) -> Buffer:
    """a as a Buffer on ctx; an array of another dtype or shape is refused
    naming `call`, before anything is uploaded."""
    if isinstance(a, Buffer):
        return a
    arr = _np.asarray(a)
    if arr.dtype not in (_np.float32, _np.float64):
        raise TypeError(f"{call}: dtype {arr.dtype} is not float32 or float64")
    if arr.ndim != 1:
        raise ValueError(f"{call}: a 1-D array is needed, not {arr.ndim}-D")
    return Buffer(ctx, arr)


def _pair(ctx: Context, x: Vector, y: Vector, call: str) -> Tuple[Buffer, Buffer]:
    """x and y as Buffers of one length (a ValueError naming `call` before
    anything is uploaded)."""
    nx, ny = len(x) if isinstance(x, Buffer) else _np.size(x), len(y) if isinstance(y, Buffer) else _np.size(y)
    if nx != ny:
        raise ValueError(f"{call}: x has {nx} elements but y has {ny}")
    return _buffer(ctx, x, call), _buffer(ctx, y, call)


def _result(pair: Tuple[Any, ...], return_plan: bool) -> Any:
    return pair if return_plan else pair[0]


def _reduce(name: str, x: Vector, context: Optional[Context], return_plan: bool) -> Any:
    ctx = _context(context, x)
    return _result(getattr(_portacl, name)(ctx, _buffer(ctx, x, name), return_plan), return_plan)


def sum(x: Vector, context: Optional[Context] = None, return_plan: bool = False, asynchronous: bool = False) -> Any:
    """The sum of x's elements (a 1-D float32 or float64 array or Buffer), as
    a Python float; asynchronous=True returns at once with a DeviceValue
    whose get() waits for it. An integer or bool array's sum is a Python
    int, added in 64 bits as numpy.sum does (int32 and int64 as they are;
    narrower ones widened to int32, uint32 to int64 on the host first;
    uint64 is refused: its sum may not fit a signed 64-bit total)."""
    if not isinstance(x, Buffer):
        arr = _np.asarray(x)
        if arr.dtype.kind in "biu":
            if asynchronous:
                raise TypeError("sum: asynchronous=True takes float32 or float64 only, not "
                                f"{arr.dtype}")
            if arr.ndim != 1:
                raise ValueError(f"sum: a 1-D array is needed, not {arr.ndim}-D")
            if arr.dtype == _np.uint64:
                raise TypeError("sum: dtype uint64 is refused (its sum may not fit a signed 64-bit total); "
                                "convert it to int64 or float64 first")
            if arr.dtype not in (_np.int32, _np.int64):
                arr = arr.astype(_np.int64 if arr.dtype == _np.uint32 else _np.int32)
            return _result(_portacl.sum_integers(_context(context), arr), return_plan)
    if asynchronous:
        ctx = _context(context, x)
        return _portacl.sum_async(ctx, _buffer(ctx, x, "sum"))
    return _reduce("sum", x, context, return_plan)


def nrm2(x: Vector, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The Euclidean norm of x, as a Python float."""
    return _reduce("nrm2", x, context, return_plan)


def min(x: Vector, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The smallest element of x, as a Python float."""
    return _reduce("min", x, context, return_plan)


def max(x: Vector, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The largest element of x, as a Python float."""
    return _reduce("max", x, context, return_plan)


def dot(x: Vector, y: Vector, context: Optional[Context] = None, return_plan: bool = False,
        asynchronous: bool = False) -> Any:
    """x . y, as a Python float; asynchronous=True returns at once with a
    DeviceValue whose get() waits for it."""
    ctx = _context(context, x, y)
    bx, by = _pair(ctx, x, y, "dot")
    if asynchronous:
        return _portacl.dot_async(ctx, bx, by)
    return _result(_portacl.dot(ctx, bx, by, return_plan), return_plan)


def axpy(a: float, x: Vector, y: Vector, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """y = a x + y. A Buffer y is updated in place and returned; an array y
    is left as it is and the result comes back as a new array."""
    if context is None and type(x) is Buffer and type(y) is Buffer:
        # Both on the device: the module checks their dtypes, lengths and
        # context itself; nothing to convert.
        plan = _portacl.axpy(x.context, a, x, y, return_plan)
        return (y, plan) if return_plan else y
    ctx = _context(context, x, y)
    bx, by = _pair(ctx, x, y, "axpy")
    plan = _portacl.axpy(ctx, a, bx, by, return_plan)
    out = by if isinstance(y, Buffer) else by.to_numpy()
    return (out, plan) if return_plan else out


def cumsum(x: ArrayLike, exclusive: bool = False, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The running sums of a 1-D float32, float64 or int32 array, as
    numpy.cumsum (exclusive=True: each sum leaves its own element out)."""
    return _result(_portacl.cumsum(_context(context), _np.asarray(x), exclusive), return_plan)


def compact(x: ArrayLike, predicate: str, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The elements of a 1-D float32, float64 or int32 array for which
    `predicate`, an OpenCL C expression in x (e.g. "x > 0.5f",
    "!isnan(x)"), holds, in their order: x[mask] without the mask."""
    return _result(_portacl.compact(_context(context), _np.asarray(x), predicate), return_plan)


def bincount(keys: ArrayLike, bins: int, shift: int = 0, wrap: bool = False, context: Optional[Context] = None,
             return_plan: bool = False) -> Any:
    """Counts of 1-D non-negative integer keys in `bins` bins, as
    numpy.bincount(keys >> shift, minlength=bins)[:bins] (uint32): keys past
    the last bin are not counted; wrap=True counts (key >> shift) % bins
    instead (bins a power of two: the digit a radix sort counts)."""
    k = _np.asarray(keys)
    if k.dtype.kind not in "iu":
        raise TypeError(f"bincount: keys of dtype {k.dtype} where non-negative integers are needed")
    if k.size and (k.min() < 0 or int(k.max()) > 0xFFFFFFFF):
        raise ValueError(f"bincount: keys from {k.min()} to {k.max()}; they must fit 0 to 2**32 - 1")
    return _result(_portacl.histogram(_context(context), k.astype(_np.uint32, copy=False), bins, shift, wrap),
                   return_plan)


def sort(x: ArrayLike, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """A sorted copy of a 1-D float32, int32 or uint32 array (radix sort)."""
    return _result(_portacl.sort(_context(context), _np.asarray(x)), return_plan)


def argsort(x: ArrayLike, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The indices that sort x, as numpy.argsort(x, kind="stable"), uint32."""
    return _result(_portacl.argsort(_context(context), _np.asarray(x)), return_plan)


def matmul(a: ArrayLike, b: ArrayLike, out: Optional[_np.ndarray] = None, alpha: float = 1.0, beta: float = 0.0,
           context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """alpha a @ b + beta out for 2-D float32 or float64 matrices (GEMM).
    With out=, the product is written into out (as NumPy's out=) and out is
    returned."""
    return _result(_portacl.matmul(_context(context), _np.asarray(a), _np.asarray(b), out, alpha, beta), return_plan)


def gemv(a: ArrayLike, x: ArrayLike, alpha: float = 1.0, transpose: bool = False, context: Optional[Context] = None,
         return_plan: bool = False) -> Any:
    """alpha a @ x (transpose=True: alpha a.T @ x) for a 2-D float32 or
    float64 matrix and a 1-D x of its dtype (GEMV)."""
    return _result(_portacl.gemv(_context(context), _np.asarray(a), _np.asarray(x), alpha, transpose), return_plan)


def trsv(l: ArrayLike, b: ArrayLike, unit_diagonal: bool = False, context: Optional[Context] = None,
         return_plan: bool = False) -> Any:
    """x solving L x = b for L the lower triangle of a square float32 or
    float64 matrix l (unit_diagonal=True: its diagonal taken as 1, never
    read), as scipy.linalg.solve_triangular(l, b, lower=True). A zero on
    the diagonal gives inf or NaN, as in BLAS."""
    return _result(_portacl.trsv(_context(context), _np.asarray(l), _np.asarray(b), unit_diagonal), return_plan)


def spmv(a: Any, x: Vector, context: Optional[Context] = None, return_plan: bool = False,
         out: Optional[Buffer] = None) -> Any:
    """A @ x for a scipy.sparse CSR matrix A (float32 stays float32; x of A's
    dtype), uploaded for this call, or a CsrMatrix already on the device
    (portacl.sparse.csr_matrix), whose upload, analysis and plan are kept:
    there x may be a Buffer, and then A @ x comes back as a Buffer, `out`
    if given (a Buffer of A's rows and dtype, not x itself: repeated
    products then allocate nothing)."""
    if isinstance(a, CsrMatrix):
        if context is not None and context is not a.context:
            raise ValueError("spmv: the CsrMatrix belongs to another context than `context`")
        return _result(_portacl.spmv(a, x if isinstance(x, Buffer) else _np.asarray(x), out, return_plan),
                       return_plan)
    if out is not None:
        raise TypeError("spmv: out is taken only for a CsrMatrix times a Buffer")
    return _result(_portacl.spmv(_context(context), a, _np.asarray(x)), return_plan)


def _solve(method: str, a: Any, b: Vector, tol: float, max_iterations: int, jacobi: bool,
           context: Optional[Context], x0: Optional[Vector] = None) -> Tuple[Any, dict]:
    if isinstance(a, CsrMatrix):
        if context is not None and context is not a.context:
            raise ValueError(f"{method}: the CsrMatrix belongs to another context than `context`")
        # Buffers stay on the device: x then comes back as a Buffer.
        b = b if isinstance(b, Buffer) else _np.asarray(b)
        x0 = x0 if x0 is None or isinstance(x0, Buffer) else _np.asarray(x0)
        return getattr(_portacl, method)(a, b, x0, tol, max_iterations, jacobi)
    x0 = None if x0 is None else _np.asarray(x0)
    return getattr(_portacl, method)(_context(context), a, _np.asarray(b), x0, tol, max_iterations, jacobi)


def cg(a: Any, b: Vector, tol: float = 1e-8, max_iterations: int = 0, jacobi: bool = False,
       context: Optional[Context] = None, x0: Optional[Vector] = None) -> Tuple[Any, dict]:
    """Conjugate gradients on a symmetric positive definite CSR matrix A,
    from x = 0 (jacobi=True: preconditioned by A's diagonal): (x, info)
    with info's converged (b - A x meets tol), iterations, residual (the
    recurrence's ||r|| / ||b||), true_residual (||b - A x|| / ||b||),
    restarts, history, stop_reason and warning. A may be a CsrMatrix on the
    device (portacl.sparse.csr_matrix): then it is not uploaded again, and
    b and x0 may be Buffers on its context: x then comes back as a Buffer
    (nothing crosses to the host but info). x0: the starting guess (default
    0; never overwritten). portacl.sparse.cg takes SciPy's signature
    instead."""
    return _solve("cg", a, b, tol, max_iterations, jacobi, context, x0)


def bicgstab(a: Any, b: Vector, tol: float = 1e-8, max_iterations: int = 0, jacobi: bool = False,
             context: Optional[Context] = None, x0: Optional[Vector] = None) -> Tuple[Any, dict]:
    """BiCGStab on a square (not necessarily symmetric) CSR matrix A, from
    x0 (default 0); (x, info) as cg."""
    return _solve("bicgstab", a, b, tol, max_iterations, jacobi, context, x0)


def heat2d(u: ArrayLike, steps: int = 1, r: float = 0.25, sides: Optional[Sequence[float]] = None,
           context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The 2-D heat equation's explicit steps on a float32 or float64 grid:
    a new grid after `steps` steps of diffusion number r (at most 1/4).
    sides=(north, south, west, east) holds the edges at those values; else
    the edges of u are kept."""
    return _result(_portacl.heat2d(_context(context), _np.asarray(u), steps, r, sides), return_plan)


def convolve2d(image: ArrayLike, mask: ArrayLike, boundary: str = "zero", context: Optional[Context] = None,
               return_plan: bool = False) -> Any:
    """The 2-D convolution of an image with a mask in correlation form (as
    scipy.signal.correlate2d): boundary "zero" (mode "same", zeros outside),
    "clamp" (the nearest edge pixel outside) or "valid" (the smaller
    output)."""
    return _result(_portacl.convolve2d(_context(context), _np.asarray(image), _np.asarray(mask), boundary),
                   return_plan)


def ncc(image: ArrayLike, template: ArrayLike, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """Normalised cross-correlation (template matching) of a 2-D template
    over a 2-D image, both uint8 or both float32: (map, (row, col), score),
    the map of coefficients in [-1, 1] at every offset where the template
    lies inside the image ((rows - t_rows + 1, cols - t_cols + 1), float32;
    0 where the window or the template is flat) and its best offset (the
    first in row-major order among equals). 8-bit sums are exact."""
    return _result(_portacl.ncc(_context(context), _np.asarray(image), _np.asarray(template)), return_plan)


def stencil3d(u: ArrayLike, weights: Optional[Sequence[float]] = None,
              points: Optional[Sequence[Tuple[int, int, int, float]]] = None, boundary: str = "zero",
              context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """A 3-D stencil on a float32 or float64 array indexed u[z, y, x]. Either
    the star of radius R = len(weights) - 1 (1 to 4): out = c0 u + sum over
    r of c_r times the six neighbours at distance r along x, y and z; or
    any `points`, a list of (dx, dy, dz, weight) within 8 cells (as
    scipy.ndimage.correlate with those weights). boundary "zero" (zeros
    outside), "clamp" (the nearest cell) or "valid" (the interior only)."""
    if (weights is None) == (points is None):
        raise ValueError("stencil3d: give either the star's weights or the points, not both or neither")
    return _result(_portacl.stencil3d(_context(context), _np.asarray(u), weights, points, boundary), return_plan)


def nbody(bodies: ArrayLike, velocities: ArrayLike, dt: float, steps: int = 1, softening: float = 0.01,
          gravity: float = 1.0, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """`steps` leapfrog steps of dt of all-pairs gravity on (n, 4) float32
    bodies (x, y, z, mass) and velocities: (bodies, velocities,
    accelerations), the accelerations' 4th column each body's potential."""
    return _result(_portacl.nbody(_context(context), _np.asarray(bodies), _np.asarray(velocities), dt, steps,
                                  softening, gravity), return_plan)


def md(positions: ArrayLike, velocities: ArrayLike, box: Sequence[float], steps: int = 1, dt: float = 0.005,
       cutoff: float = 2.5, epsilon: float = 1.0, sigma: float = 1.0, mass: float = 1.0, skin: float = 0.3,
       context: Optional[Context] = None) -> Any:
    """`steps` velocity-Verlet steps (NVE) of Lennard-Jones particles of one
    type in a periodic box (bx, by, bz), the potential shifted to 0 at the
    cutoff, neighbour lists rebuilt as particles drift: float32 or float64
    (n, 4) positions (x, y, z, 0) and velocities (vx, vy, vz, unused).
    Returns (positions, velocities, info) with info's kinetic, potential and
    total energy after the steps and the list rebuilds."""
    if len(box) != 3:
        raise ValueError(f"md: box needs 3 sides (bx, by, bz), not {len(box)}")
    bx, by, bz = box
    return _portacl.md(_context(context), _np.asarray(positions), _np.asarray(velocities), (bx, by, bz), steps, dt,
                       cutoff, epsilon, sigma, mass, skin)


def knn(train: ArrayLike, queries: ArrayLike, k: int, measure: str = "cosine", context: Optional[Context] = None,
        return_plan: bool = False) -> Any:
    """The k best training points (rows of a float32 (n, d) array) for each
    query (rows of (q, d)): (indices, scores), each (q, k), best first. The
    measure is "cosine" (larger first; 0 where a vector is zero) or
    "squared_distance" (smaller first); equal scores rank by index."""
    return _result(_portacl.knn(_context(context), _np.asarray(train), _np.asarray(queries), k, measure),
                   return_plan)


def kmeans(points: ArrayLike, k: int, seed: int = 0, max_iterations: int = 300, changed_tolerance: int = 0,
           context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """k-means (k-means++ start) on (n, d) float32 points: (centroids,
    labels, info) with info's iterations, inertia, changed, cluster_sizes
    and converged."""
    return _result(_portacl.kmeans(_context(context), _np.asarray(points), k, seed, max_iterations,
                                   changed_tolerance), return_plan)


class SmallCnn(_portacl.SmallCnn):
    """A small convolutional network trained on the device: images of
    (channels, height, width) through a 3 x 3 convolution of `filters`
    filters (padding 1, bias, ReLU), 2 x 2 max-pooling and a dense layer to
    `classes` logits, with the softmax cross-entropy as its loss; weights
    from `seed` (the same seed, data and options repeat bit for bit).
    train_step(images, labels, ...) takes one SGD step on a batch (float32
    (B, C, H, W) images, integer labels) and returns the batch's mean loss
    before it; forward(images) gives the logits, predict(images) the
    classes; parameters() and set_parameters() read and write every
    parameter as one float32 vector (the convolution's filters and bias,
    then the dense layer's weights and bias)."""

    def __init__(self, channels: int, height: int, width: int, filters: int = 8, classes: int = 4, seed: int = 0,
                 context: Optional[Context] = None) -> None:
        super().__init__(_context(context), channels, height, width, filters, classes, seed)
        self.classes = classes

    def train_step(self, images: ArrayLike, labels: ArrayLike, learning_rate: float = 0.01,  # type: ignore[override]
                   momentum: float = 0.9, weight_decay: float = 0.0) -> float:
        lab = _np.asarray(labels)
        if lab.dtype.kind not in "iu":
            raise TypeError(f"train_step: labels of dtype {lab.dtype} where integers are needed")
        if lab.size and (lab.min() < 0 or lab.max() >= self.classes):
            raise ValueError(f"train_step: labels from {lab.min()} to {lab.max()}; the network has {self.classes} "
                             f"classes (0 to {self.classes - 1})")
        return super().train_step(_np.asarray(images), lab.astype(_np.int32), learning_rate, momentum,
                                  weight_decay)

    def forward(self, images: ArrayLike) -> _np.ndarray:  # type: ignore[override]
        return super().forward(_np.asarray(images))

    def predict(self, images: ArrayLike) -> _np.ndarray:  # type: ignore[override]
        return super().predict(_np.asarray(images))


def context_from_pyopencl(queue: Any) -> Context:
    """A portacl Context on a pyopencl CommandQueue (in order) and its
    context: portacl's calls then run in that queue's order, on the same
    memory as pyopencl's."""
    return _portacl._context_on(queue)


def buffer_from_pyopencl(context: Context, memory: Any, dtype: Any = None) -> Buffer:
    """A portacl Buffer on pyopencl's memory, no copy: a pyopencl.Buffer
    (dtype float32 or float64 given) or a contiguous 1-D pyopencl.array.Array
    (its own dtype). `context` must be on the same OpenCL context."""
    if hasattr(memory, "base_data"):  # a pyopencl.array.Array
        if memory.ndim != 1 or memory.offset or not memory.flags.c_contiguous:
            raise ValueError("buffer_from_pyopencl: a contiguous 1-D array from the start of its memory is needed")
        return _portacl._buffer_on(context, memory.base_data, _np.dtype(memory.dtype).name, memory.size)
    if dtype is None:
        raise TypeError("buffer_from_pyopencl: a pyopencl.Buffer needs dtype= (float32 or float64)")
    return _portacl._buffer_on(context, memory, _np.dtype(dtype).name, 0)


def to_pyopencl(obj: Union[Context, Buffer]) -> Any:
    """pyopencl's view of a portacl object, sharing it: a Context as
    (pyopencl.Context, pyopencl.CommandQueue), a Buffer as a pyopencl.Buffer
    on the same memory."""
    import pyopencl as cl  # type: ignore[import]

    if isinstance(obj, Context):
        context, queue = _portacl._handles(obj)
        return cl.Context.from_int_ptr(context), cl.CommandQueue.from_int_ptr(queue)
    if isinstance(obj, Buffer):
        return cl.Buffer.from_int_ptr(_portacl._memory_of(obj))
    raise TypeError(f"to_pyopencl: a portacl Context or Buffer is needed, not {type(obj).__name__}")


class _TerminalBar:
    """A one-line progress bar redrawn in place (a terminal only)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def __call__(self, operation: str, done: int, total: int, best_ms: float, rules_ms: float) -> None:
        width = 30
        filled = width * done // total if total else width
        speed = f"best {best_ms:.4g} ms vs rules {rules_ms:.4g} ms" if best_ms > 0 else ""
        self.stream.write(f"\r{operation:16.16} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {speed}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")


class _TqdmBar:
    """The progress as a tqdm.auto bar: a widget in a notebook, a line in a terminal."""

    def __init__(self, tqdm: Any) -> None:
        self.tqdm = tqdm
        self.bar: Any = None

    def __call__(self, operation: str, done: int, total: int, best_ms: float, rules_ms: float) -> None:
        if self.bar is None:
            self.bar = self.tqdm(total=total, desc=operation, unit="candidate")
        self.bar.total = total
        self.bar.n = done
        if best_ms > 0:
            self.bar.set_postfix_str(f"best {best_ms:.4g} ms vs rules {rules_ms:.4g} ms", refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _progress(quiet: Optional[bool]) -> Any:
    """tune's progress display: tqdm.auto's bar where tqdm is installed (so
    notebooks show one too), else a line redrawn in a terminal; None for
    quiet=True, or, when quiet is None, where neither tqdm nor a terminal is."""
    import sys

    if quiet:
        return None
    try:
        from tqdm.auto import tqdm  # type: ignore[import]
    except ImportError:
        tqdm = None
    if tqdm is not None:
        return _TqdmBar(tqdm)
    if quiet is None and not sys.stderr.isatty():
        return None
    return _TerminalBar(sys.stderr)


def tune(kernel: str, size: int = 1 << 22, budget: int = 48, seconds: float = 0.0, database: Optional[str] = None,
         dry_run: bool = False, accept_noisy: bool = False, quiet: Optional[bool] = None,
         context: Optional[Context] = None) -> dict:
    """Tunes one operation (a name of tunable_operations()) at `size` on the
    context's device, within `budget` candidates (and `seconds`, when not 0),
    and stores the winner in the tuning database plans read: `database`,
    else PORTACL_TUNING_DB, else the user's, the same file portacl-tune
    writes (a result whose timing spread is wide is not stored unless
    accept_noisy). Progress is shown with tqdm.auto where tqdm is installed
    (in notebooks too), else as a line in a terminal; quiet=True shows none.
    Returns a dict: rules_ms, best_ms, speedup, configuration, stored,
    database, ..."""
    progress = _progress(quiet)
    try:
        return _portacl.tune(_context(context), kernel, size, budget, seconds, database or "", dry_run, accept_noisy,
                             progress)
    finally:
        if progress is not None:
            progress.close()


CsrMatrix.__matmul__ = lambda self, x: spmv(self, x)  # type: ignore[assignment, arg-type]
CsrMatrix.__matmul__.__doc__ = "A @ x on the device matrix, as spmv(A, x)."

from . import sparse  # noqa: E402  (portacl.sparse.csr_matrix; it uses the helpers above)
