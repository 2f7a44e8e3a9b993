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
from ._array import Array
from ._docs import shared_doc as _shared_doc
from ._portacl import (BuildError, Buffer, Context, CsrMatrix, DeviceValue, Error, Plan, __version__, query,
                       tunable_operations)

__all__ = ["Array", "BuildError", "Buffer", "Context", "CsrMatrix", "DeviceValue", "Error", "Plan", "SmallCnn", "__version__", "argsort",
           "asarray", "axpy", "bicgstab", "bincount", "buffer_from_pyopencl", "cg", "compact", "context_from_pyopencl",
           "convolve2d", "cumsum", "default_context", "dot", "fft", "from_dlpack", "gemv", "heat2d", "kmeans", "knn", "map", "matmul", "max", "md",
           "min", "nbody", "ncc", "nrm2", "query", "sort", "sparse", "spmv", "stencil3d", "sum", "to_pyopencl", "trsv",
           "tunable_operations", "tune"]

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    #: A 1-D operand: a NumPy array (or anything numpy.asarray takes) or a Buffer already on the device.
    Vector = Union[ArrayLike, Buffer]

_default: Optional[Context] = None


def default_context() -> Context:
    """The context calls use when given none, made on first use.

    Returns
    -------
    Context
        One context for the process, on ``PORTACL_DEVICE``'s device, else
        the default device.

    Raises
    ------
    Error
        No OpenCL device matches (the message names what was looked for).

    Examples
    --------
    >>> import portacl
    >>> portacl.default_context() is portacl.default_context()
    True
    """
    global _default
    if _default is None:
        _default = Context()
    return _default


# A pyopencl queue's handle -> the portacl Context on it (and its context).
_pyopencl_contexts: dict = {}


def _is_cl_array(a: Any) -> bool:
    """Whether a is a pyopencl.array.Array: device memory portacl can take as
    it is (without importing pyopencl)."""
    return type(a).__module__.startswith("pyopencl") and hasattr(a, "base_data") and hasattr(a, "queue")


def _context_of_queue(queue: Any) -> Context:
    """The portacl Context on a pyopencl queue, made once per queue."""
    ctx = _pyopencl_contexts.get(queue.int_ptr)
    if ctx is None:
        ctx = _pyopencl_contexts[queue.int_ptr] = _portacl._context_on(queue)
    return ctx


def _context(context: Optional[Context], *operands: Any) -> Context:
    if context is not None:
        return context
    for a in operands:
        if isinstance(a, (Buffer, Array)):
            return a.context
        if _is_cl_array(a):
            return _context_of_queue(a.queue)
    return default_context()


def _on_other_queue(ctx: Context, a: Any, queue: Optional[int] = None) -> bool:
    """Whether pyopencl array a's queue is not ctx's (`queue`, its handle,
    where the caller has it): then each side's work must be finished
    before the other's reads it."""
    if queue is None:
        queue = _portacl._handles(ctx)[1]
    return a.queue is not None and a.queue.int_ptr != queue


# The dtypes of the calls on real numbers, and the dtypes a Buffer holds.
_REAL = ("float32", "float64")
_NUMBERS = ("float32", "float64", "int32", "int64", "uint32", "uint64")


def _dtype_check(dtype: Any, kinds: Tuple[str, ...], call: str) -> None:
    """A TypeError naming `call` where dtype is not one of `kinds`."""
    if _np.dtype(dtype).name not in kinds:
        raise TypeError(f"{call}: dtype {_np.dtype(dtype)} is not {', '.join(kinds[:-1])} or {kinds[-1]}")


def _cl_buffer(ctx: Context, a: Any, call: str, kinds: Tuple[str, ...] = _REAL) -> Buffer:
    """pyopencl array a as a Buffer on its own memory, no copy: 1-D,
    contiguous from the start of its memory, of a dtype in `kinds`, on
    ctx's OpenCL context. Work pyopencl queued on it finishes first where
    its queue is not ctx's."""
    dtype = _np.dtype(a.dtype)
    _dtype_check(dtype, kinds, call)
    if a.ndim != 1:
        raise ValueError(f"{call}: a 1-D array is needed, not {a.ndim}-D")
    if a.offset or not a.flags.c_contiguous:
        raise ValueError(f"{call}: a pyopencl array contiguous from the start of its memory is needed")
    context, queue = _portacl._handles(ctx)
    if a.context.int_ptr != context:
        raise ValueError(f"{call}: the pyopencl array belongs to another OpenCL context than the call's")
    if _on_other_queue(ctx, a, queue):
        a.queue.finish()
    return _portacl._buffer_on(ctx, a.base_data, dtype.name, a.size)


def _as_cl_array(like: Any, b: Buffer) -> Any:
    """Buffer b as a pyopencl array on like's queue, sharing b's memory."""
    import pyopencl as cl  # type: ignore[import]
    import pyopencl.array as cl_array  # type: ignore[import]

    if _on_other_queue(b.context, like):
        b.context.finish()
    return cl_array.Array(like.queue, (len(b),), _np.dtype(b.dtype), data=cl.Buffer.from_int_ptr(_portacl._memory_of(b)))


def _buffer(ctx: Context, a: Vector, call: str, kinds: Tuple[str, ...] = _REAL) -> Buffer:
    """a as a Buffer on ctx; an array of a dtype not in `kinds` or of
    another shape is refused naming `call`, before anything is uploaded (a
    Buffer's dtype the library checks). A pyopencl array is taken as it
    is, on its own memory."""
    if isinstance(a, Buffer):
        return a
    if isinstance(a, Array):
        raise ValueError(f"{call}: a 1-D operand is needed, not an Array of shape {a.shape} (its ravel() is its "
                         f"elements as a Buffer)")
    if _is_cl_array(a):
        return _cl_buffer(ctx, a, call, kinds)
    arr = _np.asarray(a)
    _dtype_check(arr.dtype, kinds, call)
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


def _reduce(name: str, x: Vector, context: Optional[Context], return_plan: bool,
            kinds: Tuple[str, ...] = _REAL) -> Any:
    if isinstance(x, Array):  # over every element, as NumPy's without an axis
        x = x.ravel()
    ctx = _context(context, x)
    return _result(getattr(_portacl, name)(ctx, _buffer(ctx, x, name, kinds), return_plan), return_plan)


@_shared_doc
def sum(x: Vector, context: Optional[Context] = None, return_plan: bool = False, asynchronous: bool = False) -> Any:
    """The sum of x's elements.

    Parameters
    ----------
    x : array_like, Buffer or Array
        1-D (an Array: all of it), float32 or float64; or an integer or bool
        array, added in 64 bits as ``numpy.sum`` adds them (int32 and int64
        as they are, narrower ones widened to int32, uint32 to int64 on the
        host first); or a Buffer or Array of int32, int64 or uint32, added
        in 64 bits on the device.
    $options_on_buffers
    asynchronous : bool, default False
        Return at once with a DeviceValue whose ``get()`` waits for the sum
        (a Buffer, an Array or a float array).

    Returns
    -------
    float or int or DeviceValue
        A Python float; a Python int for integers.

    $raises_type
        Another dtype; uint64 (its sum may not fit a signed 64-bit total).
    ValueError
        An array that is not 1-D.
    $library_error

    $examples
    >>> portacl.sum(np.arange(5, dtype=np.float32))
    10.0
    >>> portacl.sum(np.arange(5))
    10
    """
    if isinstance(x, Array):  # over every element, as NumPy's without an axis
        x = x.ravel()
    if not isinstance(x, Buffer):
        arr = _np.asarray(x)
        if arr.dtype.kind in "biu":
            if asynchronous:
                raise TypeError(f"sum: asynchronous=True takes a Buffer, an Array or a float array, not a {arr.dtype} "
                                "NumPy array (upload it with portacl.asarray first)")
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
        return _portacl.sum_async(ctx, _buffer(ctx, x, "sum", _NUMBERS))
    return _reduce("sum", x, context, return_plan, _NUMBERS)


@_shared_doc
def nrm2(x: Vector, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The Euclidean norm of x.

    $reduction

    $examples
    >>> portacl.nrm2(np.array([3.0, 4.0]))
    5.0
    """
    return _reduce("nrm2", x, context, return_plan)


@_shared_doc
def min(x: Vector, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The smallest element of x.

    $reduction

    Examples
    --------
    On a Buffer, nothing but the result crosses to the host:

    >>> import numpy as np, portacl
    >>> x = portacl.Buffer(portacl.default_context(), np.array([2.0, -1.5, 7.0]))
    >>> portacl.min(x)
    -1.5
    """
    return _reduce("min", x, context, return_plan, _NUMBERS)


@_shared_doc
def max(x: Vector, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The largest element of x.

    $reduction

    $examples
    >>> portacl.max(np.array([2.0, -1.5, 7.0]))
    7.0
    """
    return _reduce("max", x, context, return_plan, _NUMBERS)


@_shared_doc
def dot(x: Vector, y: Vector, context: Optional[Context] = None, return_plan: bool = False,
        asynchronous: bool = False) -> Any:
    """x . y, the dot product.

    Parameters
    ----------
    x, y : array_like or Buffer
        1-D, of one length and one dtype, float32 or float64.
    $options_on_buffers
    asynchronous : bool, default False
        Return at once with a DeviceValue whose ``get()`` waits for it.

    Returns
    -------
    float or DeviceValue

    $raises_pair

    $examples
    >>> portacl.dot(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    11.0
    """
    ctx = _context(context, x, y)
    bx, by = _pair(ctx, x, y, "dot")
    if asynchronous:
        return _portacl.dot_async(ctx, bx, by)
    return _result(_portacl.dot(ctx, bx, by, return_plan), return_plan)


@_shared_doc
def axpy(a: float, x: Vector, y: Vector, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """y = a x + y.

    Parameters
    ----------
    a : float
    x, y : array_like or Buffer
        1-D, of one length and one dtype, float32 or float64. A Buffer y is
        updated in place; an array y is left as it is.
    $options_on_buffers

    Returns
    -------
    Buffer or numpy.ndarray
        y itself for a Buffer y, else a new array.

    $raises_pair

    $examples
    >>> portacl.axpy(2.0, np.array([1.0, 2.0]), np.array([10.0, 20.0]))
    array([12., 24.])
    """
    if context is None and type(x) is Buffer and type(y) is Buffer:
        # Both on the device: the module checks their dtypes, lengths and
        # context itself; nothing to convert.
        plan = _portacl.axpy(x.context, a, x, y, return_plan)
        return (y, plan) if return_plan else y
    ctx = _context(context, x, y)
    bx, by = _pair(ctx, x, y, "axpy")
    plan = _portacl.axpy(ctx, a, bx, by, return_plan)
    if _is_cl_array(y):  # updated in place, as a Buffer is
        if _on_other_queue(ctx, y):
            ctx.finish()
        out = y
    else:
        out = by if isinstance(y, Buffer) else by.to_numpy()
    return (out, plan) if return_plan else out


@_shared_doc
def cumsum(x: ArrayLike, exclusive: bool = False, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The running sums of x, as ``numpy.cumsum``.

    Parameters
    ----------
    x : array_like
        1-D, float32, float64 or int32.
    exclusive : bool, default False
        Leave each element out of its own sum (the first sum is 0).
    $options_on_arrays

    $returns_array
        x's dtype and length.

    $raises_1d

    $examples
    >>> portacl.cumsum(np.array([1, 2, 3], dtype=np.int32))
    array([1, 3, 6], dtype=int32)
    >>> portacl.cumsum(np.array([1, 2, 3], dtype=np.int32), exclusive=True)
    array([0, 1, 3], dtype=int32)
    """
    return _result(_portacl.cumsum(_context(context), _np.asarray(x), exclusive), return_plan)


@_shared_doc
def compact(x: ArrayLike, predicate: str, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The elements of x for which a predicate holds, in their order.

    As ``x[mask]`` without making the mask.

    Parameters
    ----------
    x : array_like
        1-D, float32, float64 or int32.
    predicate : str
        An OpenCL C expression in ``x``, such as ``"x > 0.5f"`` or
        ``"!isnan(x)"``.
    $options_on_arrays

    $returns_array
        x's dtype; as many elements as the predicate kept.

    $raises_1d
    BuildError
        A predicate that does not compile (its ``log`` says why).

    $examples
    >>> portacl.compact(np.array([0.2, 0.7, 0.9, 0.1], np.float32), "x > 0.5f")
    array([0.7, 0.9], dtype=float32)
    """
    return _result(_portacl.compact(_context(context), _np.asarray(x), predicate), return_plan)


@_shared_doc
def bincount(keys: ArrayLike, bins: int, shift: int = 0, wrap: bool = False, context: Optional[Context] = None,
             return_plan: bool = False) -> Any:
    """Counts of integer keys in bins, as ``numpy.bincount``.

    ``numpy.bincount(keys >> shift, minlength=bins)[:bins]``: keys past the
    last bin are not counted.

    Parameters
    ----------
    keys : array_like
        1-D non-negative integers below 2**32.
    bins : int
    shift : int, default 0
        Bits dropped from each key first.
    wrap : bool, default False
        Count ``(key >> shift) % bins`` instead (bins a power of two: the
        digit a radix sort counts).
    $options_on_arrays

    $returns_array
        ``bins`` counts, uint32.

    $raises_type
        Keys that are not integers.
    ValueError
        Keys outside 0 to 2**32 - 1, or an array that is not 1-D.
    $library_error

    $examples
    >>> portacl.bincount(np.array([0, 1, 1, 3]), 4)
    array([1, 2, 0, 1], dtype=uint32)
    """
    k = _np.asarray(keys)
    if k.dtype.kind not in "iu":
        raise TypeError(f"bincount: keys of dtype {k.dtype} where non-negative integers are needed")
    if k.size and (k.min() < 0 or int(k.max()) > 0xFFFFFFFF):
        raise ValueError(f"bincount: keys from {k.min()} to {k.max()}; they must fit 0 to 2**32 - 1")
    return _result(_portacl.histogram(_context(context), k.astype(_np.uint32, copy=False), bins, shift, wrap),
                   return_plan)


@_shared_doc
def sort(x: ArrayLike, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """A sorted copy of x (radix sort).

    $sort_parameters

    $returns_array
        x's dtype, ascending.

    $raises_1d

    $examples
    >>> portacl.sort(np.array([3, 1, 2], np.uint32))
    array([1, 2, 3], dtype=uint32)
    """
    return _result(_portacl.sort(_context(context), _np.asarray(x)), return_plan)


@_shared_doc
def argsort(x: ArrayLike, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """The indices that sort x, as ``numpy.argsort(x, kind="stable")``.

    $sort_parameters

    $returns_array
        uint32 indices; equal keys keep their order.

    $raises_1d

    $examples
    >>> portacl.argsort(np.array([3.0, 1.0, 2.0], np.float32))
    array([1, 2, 0], dtype=uint32)
    """
    return _result(_portacl.argsort(_context(context), _np.asarray(x)), return_plan)


@_shared_doc
def matmul(a: ArrayLike, b: ArrayLike, out: Optional[_np.ndarray] = None, alpha: float = 1.0, beta: float = 0.0,
           context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """alpha a @ b + beta out, the matrix product (GEMM).

    Parameters
    ----------
    a, b : array_like
        2-D, of one dtype, float32 or float64; a's columns as many as b's
        rows.
    out : numpy.ndarray, optional
        C-contiguous, a's rows by b's columns, their dtype: the product is
        written into it (as NumPy's ``out=``) and it is returned.
    alpha, beta : float, default 1 and 0
        beta scales what ``out`` held (beta = 0: it is not read).
    $options_on_arrays

    $returns_array

    $raises_type
        Another dtype, or a and b of two dtypes.
    ValueError
        Shapes that do not match, or arrays that are not 2-D.
    $library_error

    $examples
    >>> portacl.matmul(np.eye(2), np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([[1., 2.],
           [3., 4.]])
    """
    return _result(_portacl.matmul(_context(context), _np.asarray(a), _np.asarray(b), out, alpha, beta), return_plan)


@_shared_doc
def gemv(a: ArrayLike, x: ArrayLike, alpha: float = 1.0, transpose: bool = False, context: Optional[Context] = None,
         return_plan: bool = False) -> Any:
    """alpha a @ x, the matrix-vector product (GEMV).

    Parameters
    ----------
    a : array_like
        2-D, float32 or float64.
    x : array_like
        1-D, a's dtype, as long as a has columns (rows for transpose).
    alpha : float, default 1
    transpose : bool, default False
        Compute ``alpha a.T @ x``.
    $options_on_arrays

    $returns_array

    $raises_type
        Another dtype, or a and x of two dtypes.
    ValueError
        Lengths that do not match, or arrays of other dimensions.
    $library_error

    $examples
    >>> portacl.gemv(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 1.0]))
    array([3., 7.])
    """
    return _result(_portacl.gemv(_context(context), _np.asarray(a), _np.asarray(x), alpha, transpose), return_plan)


@_shared_doc
def trsv(l: ArrayLike, b: ArrayLike, unit_diagonal: bool = False, context: Optional[Context] = None,
         return_plan: bool = False) -> Any:
    """x solving L x = b, L the lower triangle of l (TRSV).

    As ``scipy.linalg.solve_triangular(l, b, lower=True)``. A zero on the
    diagonal gives inf or NaN, as in BLAS.

    Parameters
    ----------
    l : array_like
        Square, float32 or float64; only its lower triangle is read.
    b : array_like
        1-D, l's dtype and order.
    unit_diagonal : bool, default False
        Take the diagonal as 1, never reading it.
    $options_on_arrays

    $returns_array

    $raises_type
        Another dtype, or l and b of two dtypes.
    ValueError
        A matrix that is not square, or b of another length.
    $library_error

    $examples
    >>> portacl.trsv(np.array([[2.0, 0.0], [1.0, 1.0]]), np.array([2.0, 3.0]))
    array([1., 2.])
    """
    return _result(_portacl.trsv(_context(context), _np.asarray(l), _np.asarray(b), unit_diagonal), return_plan)


@_shared_doc
def spmv(a: Any, x: Vector, context: Optional[Context] = None, return_plan: bool = False,
         out: Optional[Buffer] = None) -> Any:
    """A @ x, the sparse matrix-vector product.

    Parameters
    ----------
    a : scipy.sparse matrix or CsrMatrix
        A SciPy CSR matrix is uploaded and analysed for this call (float32
        stays float32, anything else becomes float64); a CsrMatrix
        (``portacl.sparse.csr_matrix``) keeps its upload, analysis and plan.
    x : array_like or Buffer
        1-D, a's dtype, as long as a has columns. A Buffer only with a
        CsrMatrix.
    $options_on_arrays
    out : Buffer, optional
        With a CsrMatrix and a Buffer x: a Buffer of a's rows and dtype,
        not x itself, that receives the product (repeated products then
        allocate nothing).

    Returns
    -------
    numpy.ndarray or Buffer
        A Buffer (``out`` if given) for a Buffer x, else an array.

    $raises_type
        Another dtype, or ``out`` where it is not taken.
    ValueError
        Lengths that do not match, x or ``out`` of another context, or
        ``out`` that is x.
    $library_error

    $examples_sparse
    >>> portacl.spmv(sp.identity(3, format="csr") * 2.0, np.ones(3))
    array([2., 2., 2.])
    """
    if isinstance(a, CsrMatrix):
        if context is not None and context is not a.context:
            raise ValueError("spmv: the CsrMatrix belongs to another context than `context`")
        if _is_cl_array(out):
            y, plan = _portacl.spmv(a, _buffer(a.context, x, "spmv"), _cl_buffer(a.context, out, "spmv"), return_plan)
            if _on_other_queue(a.context, out):
                a.context.finish()
            return _result((out, plan), return_plan)
        if _is_cl_array(x):  # its memory as it is; A x comes back as a pyopencl array on x's queue
            y, plan = _portacl.spmv(a, _cl_buffer(a.context, x, "spmv"), out, return_plan)
            return _result((out if out is not None else _as_cl_array(x, y), plan), return_plan)
        return _result(_portacl.spmv(a, x if isinstance(x, Buffer) else _np.asarray(x), out, return_plan),
                       return_plan)
    if out is not None:
        raise TypeError("spmv: out is taken only for a CsrMatrix times a Buffer")
    return _result(_portacl.spmv(_context(context), a, _np.asarray(x)), return_plan)


def _solve(method: str, a: Any, b: Vector, tol: float, max_iterations: int, jacobi: bool,
           context: Optional[Context], x0: Optional[Vector] = None,
           precondition: Optional[Callable[[Any], Any]] = None,
           callback: Optional[Callable[[Any], Any]] = None) -> Tuple[Any, dict]:
    if not (tol >= 0 and _np.isfinite(tol)):
        raise ValueError(f"{method}: the tolerance must be a finite number >= 0, not {tol}")
    if isinstance(a, CsrMatrix):
        if context is not None and context is not a.context:
            raise ValueError(f"{method}: the CsrMatrix belongs to another context than `context`")
        # Buffers stay on the device: x then comes back as a Buffer (a
        # pyopencl array for a pyopencl b).
        like = b if _is_cl_array(b) else None
        b = _cl_buffer(a.context, b, method) if like is not None else b if isinstance(b, Buffer) else _np.asarray(b)
        if _is_cl_array(x0):
            x0 = _cl_buffer(a.context, x0, method)
        elif x0 is not None and not isinstance(x0, Buffer):
            x0 = _np.asarray(x0)
        x, info = getattr(_portacl, method)(a, b, x0, tol, max_iterations, jacobi, precondition, callback)
        return (_as_cl_array(like, x) if like is not None else x), info
    x0 = None if x0 is None else _np.asarray(x0)
    return getattr(_portacl, method)(_context(context), a, _np.asarray(b), x0, tol, max_iterations, jacobi,
                                     precondition, callback)


@_shared_doc
def cg(a: Any, b: Vector, tol: float = 1e-8, max_iterations: int = 0, jacobi: bool = False,
       context: Optional[Context] = None, x0: Optional[Vector] = None) -> Tuple[Any, dict]:
    """Conjugate gradients on a symmetric positive definite matrix.

    On a matrix that is not symmetric CG still runs, and info's warning
    says so. ``portacl.sparse.cg`` takes SciPy's signature instead.

    Parameters
    ----------
    a : scipy.sparse matrix or CsrMatrix
        Uploaded for this call, or kept on the device
        (``portacl.sparse.csr_matrix``).
    $solve_parameters

    $solve_returns

    $examples_sparse
    >>> A = sp.diags([1.0, 2.0, 4.0]).tocsr()
    >>> x, info = portacl.cg(A, np.array([1.0, 2.0, 4.0]))
    >>> bool(np.allclose(x, 1.0)), info["converged"]
    (True, True)
    """
    return _solve("cg", a, b, tol, max_iterations, jacobi, context, x0)


@_shared_doc
def bicgstab(a: Any, b: Vector, tol: float = 1e-8, max_iterations: int = 0, jacobi: bool = False,
             context: Optional[Context] = None, x0: Optional[Vector] = None) -> Tuple[Any, dict]:
    """BiCGStab on a square, not necessarily symmetric, matrix.

    ``portacl.sparse.bicgstab`` takes SciPy's signature instead.

    Parameters
    ----------
    a : scipy.sparse matrix or CsrMatrix
        Uploaded for this call, or kept on the device
        (``portacl.sparse.csr_matrix``); non-singular.
    $solve_parameters

    $solve_returns

    $examples_sparse
    >>> A = sp.csr_matrix(np.array([[4.0, 1.0], [2.0, 3.0]]))
    >>> x, info = portacl.bicgstab(A, np.array([5.0, 5.0]))
    >>> bool(np.allclose(x, 1.0)), info["converged"]
    (True, True)
    """
    return _solve("bicgstab", a, b, tol, max_iterations, jacobi, context, x0)


@_shared_doc
def heat2d(u: ArrayLike, steps: int = 1, r: float = 0.25, sides: Optional[Sequence[float]] = None,
           context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """Explicit steps of the 2-D heat equation on a grid.

    Parameters
    ----------
    u : array_like
        2-D, float32 or float64.
    steps : int, default 1
    r : float, default 0.25
        The diffusion number, at most 1/4 (the scheme's stability limit).
    sides : sequence of 4 floats, optional
        (north, south, west, east): the edges held at those values; by
        default the edges of u are kept.
    $options_on_arrays

    $returns_array
        The grid after the steps, u's shape and dtype.

    $raises_type
        Another dtype.
    ValueError
        An array that is not 2-D, r above 1/4, or sides not 4 values.
    $library_error

    $examples
    >>> u = np.zeros((5, 5)); u[2, 2] = 1.0
    >>> portacl.heat2d(u)[2, 1:4]
    array([0.25, 0.  , 0.25])
    """
    if not (0 <= r <= 0.25):
        raise ValueError(f"heat2d: r = {r} is outside 0 to 1/4 (the explicit scheme's stability limit)")
    if sides is not None and len(sides) != 4:
        raise ValueError(f"heat2d: sides needs 4 values (north, south, west, east), not {len(sides)}")
    return _result(_portacl.heat2d(_context(context), _np.asarray(u), steps, r, sides), return_plan)


@_shared_doc
def convolve2d(image: ArrayLike, mask: ArrayLike, boundary: str = "zero", context: Optional[Context] = None,
               return_plan: bool = False, method: str = "auto") -> Any:
    """The 2-D convolution of an image with a mask, in correlation form.

    As ``scipy.signal.correlate2d``; ``method`` as ``scipy.signal.correlate``'s.

    Parameters
    ----------
    image, mask : array_like
        2-D, of one dtype, float32 or float64.
    boundary : {"zero", "clamp", "valid"}, default "zero"
        "zero": the image's size, zeros outside (mode "same"); "clamp": the
        nearest edge pixel outside; "valid": only where the mask lies inside.
    method : {"auto", "direct", "fft"}, default "auto"
        "fft": by FFT over a zero-padded grid (large masks); "direct": the
        sum itself; "auto": rule convolution.fft chooses.
    $options_on_arrays

    $returns_array

    $raises_type
        Another dtype, or two dtypes.
    ValueError
        Arrays that are not 2-D, another boundary or another method.
    $library_error

    $examples
    >>> image = np.arange(9, dtype=np.float32).reshape(3, 3)
    >>> portacl.convolve2d(image, np.ones((3, 3), np.float32), boundary="valid")
    array([[36.]], dtype=float32)
    """
    return _result(_portacl.convolve2d(_context(context), _np.asarray(image), _np.asarray(mask), boundary, method),
                   return_plan)


@_shared_doc
def ncc(image: ArrayLike, template: ArrayLike, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """Normalised cross-correlation: where a template best matches an image.

    Parameters
    ----------
    image, template : array_like
        2-D, both uint8, both float32 or both float64 (8-bit sums are
        exact; float64 on a device with fp64); the template no larger than
        the image.
    $options_on_arrays

    Returns
    -------
    map : numpy.ndarray
        float32 coefficients in [-1, 1] at every offset where the template
        lies inside the image, ``(rows - t_rows + 1, cols - t_cols + 1)``;
        0 where the window or the template is flat.
    best : tuple of int
        (row, col) of the highest coefficient, the first in row-major
        order among equals.
    score : float
        That coefficient.

    $raises_type
        Another dtype, or two dtypes.
    ValueError
        Arrays that are not 2-D, or a template larger than the image.
    $library_error

    $examples
    >>> image = np.random.default_rng(0).random((8, 8)).astype(np.float32)
    >>> _, best, score = portacl.ncc(image, image[2:4, 3:6])
    >>> best, round(score, 4)
    ((2, 3), 1.0)
    """
    image, template = _np.asarray(image), _np.asarray(template)
    if image.ndim == 2 and template.ndim == 2 and (template.shape[0] > image.shape[0] or
                                                   template.shape[1] > image.shape[1]):
        raise ValueError(f"ncc: a {template.shape[0]} x {template.shape[1]} template does not fit a "
                         f"{image.shape[0]} x {image.shape[1]} image")
    return _result(_portacl.ncc(_context(context), image, template), return_plan)


@_shared_doc
def stencil3d(u: ArrayLike, weights: Optional[Sequence[float]] = None,
              points: Optional[Sequence[Tuple[int, int, int, float]]] = None, boundary: str = "zero",
              context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """A 3-D stencil on an array indexed u[z, y, x].

    Either the star of radius R = len(weights) - 1: ``c0 u`` plus, for each
    r, ``c_r`` times the six neighbours at distance r along x, y and z; or
    any points, as ``scipy.ndimage.correlate`` with those weights.

    Parameters
    ----------
    u : array_like
        3-D, float32 or float64.
    weights : sequence of float, optional
        c0 .. cR, R from 1 to 4.
    points : sequence of (dx, dy, dz, weight), optional
        Offsets within 8 cells. Give weights or points, not both.
    boundary : {"zero", "clamp", "valid"}, default "zero"
        Zeros outside, the nearest cell outside, or the interior only.
    $options_on_arrays

    $returns_array

    $raises_type
        Another dtype.
    ValueError
        Both or neither of weights and points, 1 or more than 5 weights, an
        array that is not 3-D, or another boundary.
    $library_error

    $examples
    >>> out = portacl.stencil3d(np.ones((4, 4, 4)), weights=[-6.0, 1.0], boundary="valid")
    >>> out.shape, float(np.abs(out).max())
    ((2, 2, 2), 0.0)
    """
    if (weights is None) == (points is None):
        raise ValueError("stencil3d: give either the star's weights or the points, not both or neither")
    if weights is not None and not 2 <= len(weights) <= 5:
        raise ValueError(f"stencil3d: {len(weights)} weights; the star of radius R takes R + 1 (c0 .. cR) for R "
                         "from 1 to 4")
    return _result(_portacl.stencil3d(_context(context), _np.asarray(u), weights, points, boundary), return_plan)


@_shared_doc
def nbody(bodies: ArrayLike, velocities: ArrayLike, dt: float, steps: int = 1, softening: float = 0.01,
          gravity: float = 1.0, context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """Leapfrog steps of all-pairs gravity.

    Parameters
    ----------
    bodies : array_like
        (n, 4) float32 or float64: x, y, z and mass. float64 runs in double
        (the device's fp64).
    velocities : array_like
        (n, 4), bodies' dtype: vx, vy, vz and an unused fourth.
    dt : float
    steps : int, default 1
    softening : float, default 0.01
        Added in quadrature to every distance.
    gravity : float, default 1
    $options_on_arrays

    Returns
    -------
    bodies, velocities, accelerations : numpy.ndarray
        After the steps, bodies' dtype; the accelerations' fourth column is
        each body's potential.

    $raises_type
        Another dtype, or two dtypes.
    ValueError
        Arrays that are not (n, 4), or of two lengths.
    $library_error

    $examples
    >>> b = np.array([[0, 0, 0, 1], [1, 0, 0, 1]], np.float32)
    >>> _, _, acc = portacl.nbody(b, np.zeros_like(b), dt=0.01)
    >>> round(float(acc[0, 0]), 3), round(float(acc[1, 0]), 3)
    (1.0, -1.0)
    """
    return _result(_portacl.nbody(_context(context), _np.asarray(bodies), _np.asarray(velocities), dt, steps,
                                  softening, gravity), return_plan)


@_shared_doc
def md(positions: ArrayLike, velocities: ArrayLike, box: Sequence[float], steps: int = 1, dt: float = 0.005,
       cutoff: float = 2.5, epsilon: float = 1.0, sigma: float = 1.0, mass: float = 1.0, skin: float = 0.3,
       context: Optional[Context] = None) -> Any:
    """Velocity-Verlet steps (NVE) of Lennard-Jones particles of one type.

    In a periodic box, the potential shifted to 0 at the cutoff, neighbour
    lists rebuilt as particles drift.

    Parameters
    ----------
    positions : array_like
        (n, 4), float32 or float64: x, y, z and 0.
    velocities : array_like
        (n, 4), positions' dtype: vx, vy, vz and an unused fourth.
    box : sequence of 3 floats
        The box's sides (bx, by, bz), each more than twice cutoff + skin.
    steps : int, default 1
    dt, cutoff, epsilon, sigma, mass, skin : float
        The time step, the potential's cutoff and parameters, the mass and
        the neighbour list's skin.
    $context_arrays

    Returns
    -------
    positions, velocities : numpy.ndarray
        After the steps.
    info : dict
        kinetic, potential and total energy after the steps, and rebuilds.

    $raises_type
        Another dtype, or two dtypes.
    ValueError
        Arrays that are not (n, 4), or a box without 3 sides.
    $library_error

    Examples
    --------
    A cubic lattice at rest stays at rest: every force is cancelled by its
    mirror image.

    >>> import numpy as np, portacl
    >>> g = np.arange(3) * 2.0
    >>> p = np.zeros((27, 4)); p[:, :3] = np.stack(np.meshgrid(g, g, g), -1).reshape(-1, 3)
    >>> _, v, info = portacl.md(p, np.zeros((27, 4)), box=(6.0, 6.0, 6.0), steps=10)
    >>> float(np.abs(v).max()), info["kinetic"]
    (0.0, 0.0)
    """
    if len(box) != 3:
        raise ValueError(f"md: box needs 3 sides (bx, by, bz), not {len(box)}")
    bx, by, bz = box
    return _portacl.md(_context(context), _np.asarray(positions), _np.asarray(velocities), (bx, by, bz), steps, dt,
                       cutoff, epsilon, sigma, mass, skin)


@_shared_doc
def knn(train: ArrayLike, queries: ArrayLike, k: int, measure: str = "cosine", context: Optional[Context] = None,
        return_plan: bool = False) -> Any:
    """The k best training points for each query.

    Parameters
    ----------
    train : array_like
        (n, d) float32 or float64: a point a row. Scores are taken in that
        dtype.
    queries : array_like
        (q, d), train's dtype.
    k : int
        1 to n.
    measure : {"cosine", "squared_distance"}, default "cosine"
        Cosine similarity, larger first (0 where a vector is zero), or the
        squared Euclidean distance, smaller first; equal scores rank by
        index.
    $options_on_arrays

    Returns
    -------
    indices : numpy.ndarray
        (q, k) int32, best first.
    scores : numpy.ndarray
        (q, k), train's dtype.

    $raises_type
        Another dtype, or queries of another dtype than train.
    ValueError
        Points of two dimensions, k out of range, or another measure.
    $library_error

    $examples
    >>> train = np.array([[1, 0], [0, 1], [1, 1]], np.float32)
    >>> indices, _ = portacl.knn(train, np.array([[1, 0.1]], np.float32), 2)
    >>> indices
    array([[0, 2]], dtype=int32)
    """
    return _result(_portacl.knn(_context(context), _np.asarray(train), _np.asarray(queries), k, measure),
                   return_plan)


@_shared_doc
def kmeans(points: ArrayLike, k: int, seed: int = 0, max_iterations: int = 300, changed_tolerance: int = 0,
           context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """k-means clustering (Lloyd's iterations from a k-means++ start).

    Parameters
    ----------
    points : array_like
        (n, d) float32 or float64: a point a row. Distances, sums and means
        are taken in that dtype.
    k : int
        1 to n.
    seed : int, default 0
        The k-means++ start's seed: the same seed and points repeat the
        result.
    max_iterations : int, default 300
    changed_tolerance : int, default 0
        Stop when at most this many points change cluster.
    $options_on_arrays

    Returns
    -------
    centroids : numpy.ndarray
        (k, d), the points' dtype.
    labels : numpy.ndarray
        n cluster indices.
    info : dict
        iterations, inertia, changed, cluster_sizes and converged.

    $raises_type
        Another dtype.
    ValueError
        An array that is not 2-D, or k out of range.
    $library_error

    $examples
    >>> p = np.array([[0, 0], [0, 1], [10, 10], [10, 11]], np.float32)
    >>> centroids, labels, info = portacl.kmeans(p, 2, seed=1)
    >>> bool(labels[0] == labels[1] != labels[2] == labels[3]), info["converged"]
    (True, True)
    """
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
    """A portacl Context on a pyopencl queue and its context.

    portacl's calls then run in that queue's order, on the same memory as
    pyopencl's.

    Parameters
    ----------
    queue : pyopencl.CommandQueue
        An in-order queue.

    Returns
    -------
    Context

    Raises
    ------
    Error
        An out-of-order queue, or a device portacl cannot use.

    Examples
    --------
    >>> import pyopencl as cl, portacl
    >>> context, queue = portacl.to_pyopencl(portacl.default_context())
    >>> portacl.context_from_pyopencl(queue).device["name"] == portacl.default_context().device["name"]
    True
    """
    return _portacl._context_on(queue)


@_shared_doc
def buffer_from_pyopencl(context: Context, memory: Any, dtype: Any = None) -> Buffer:
    """A portacl Buffer on pyopencl's memory, without a copy.

    Parameters
    ----------
    context : Context
        On the same OpenCL context as the memory.
    memory : pyopencl.Buffer or pyopencl.array.Array
        A Buffer (then ``dtype`` is needed), or a contiguous 1-D array from
        the start of its memory (its own dtype).
    dtype : numpy dtype, optional
        float32 or float64, for a pyopencl.Buffer.

    Returns
    -------
    Buffer
        Sharing the memory: writes through either show in the other.

    $raises_type
        A pyopencl.Buffer without dtype, or another dtype.
    ValueError
        An array that is not contiguous, 1-D, from the start of its memory.
    Error
        Memory of another OpenCL context.

    Examples
    --------
    >>> import numpy as np, pyopencl.array as cla, portacl
    >>> ctx = portacl.default_context()
    >>> _, queue = portacl.to_pyopencl(ctx)
    >>> a = cla.to_device(queue, np.arange(4, dtype=np.float32))
    >>> portacl.sum(portacl.buffer_from_pyopencl(ctx, a))
    6.0
    """
    if hasattr(memory, "base_data"):  # a pyopencl.array.Array
        if memory.ndim != 1 or memory.offset or not memory.flags.c_contiguous:
            raise ValueError("buffer_from_pyopencl: a contiguous 1-D array from the start of its memory is needed")
        return _portacl._buffer_on(context, memory.base_data, _np.dtype(memory.dtype).name, memory.size)
    if dtype is None:
        raise TypeError("buffer_from_pyopencl: a pyopencl.Buffer needs dtype= (float32 or float64)")
    return _portacl._buffer_on(context, memory, _np.dtype(dtype).name, 0)


@_shared_doc
def asarray(a: Any, context: Optional[Context] = None) -> Union[Buffer, Array]:
    """An operand on the device, uploaded once at most: a Buffer or an Array.

    Parameters
    ----------
    a : array_like, Buffer, Array or pyopencl.array.Array
        A Buffer or an Array is returned as it is; a pyopencl array is
        taken on its own memory (no copy); anything else that
        ``numpy.asarray`` takes (a DLPack producer in host memory too) is
        uploaded from its memory. float32 or float64.
    context : Context, optional
        The device; by default a pyopencl array's queue, else
        ``default_context()``. A Buffer or Array of another context is
        refused.

    Returns
    -------
    Buffer or Array
        A Buffer for one dimension, an Array (its elements in C order, with
        the shape) for more.

    $raises_type
        Another dtype.
    ValueError
        A 0-D value, or a Buffer, Array or pyopencl array of another context
        than ``context``.

    $examples
    >>> x = portacl.asarray(np.arange(4.0))
    >>> portacl.asarray(x) is x, portacl.sum(x)
    (True, 6.0)
    >>> portacl.asarray(np.ones((2, 3), np.float32))
    <portacl.Array (2, 3) float32>
    """
    if isinstance(a, (Buffer, Array)):
        if context is not None and a.context is not context:
            raise ValueError(f"asarray: the {type(a).__name__} belongs to another context than `context`")
        return a
    ctx = _context(context, a)
    if not _is_cl_array(a) and hasattr(a, "__dlpack__") and not isinstance(a, _np.ndarray):
        a = _np.from_dlpack(a)
    if not _is_cl_array(a):
        arr = _np.asarray(a)
        if arr.ndim == 0:
            raise ValueError("asarray: a 0-D value is not an array on the device; give at least one dimension")
        if arr.ndim > 1:  # an Array: its elements in C order, uploaded once
            return Array(_buffer(ctx, _np.ascontiguousarray(arr).reshape(-1), "asarray", _NUMBERS), arr.shape)
        a = arr
    return _buffer(ctx, a, "asarray", _NUMBERS)


@_shared_doc
def from_dlpack(x: Any, context: Optional[Context] = None) -> Buffer:
    """A Buffer from a DLPack producer whose memory the host can read.

    A producer in host memory (a NumPy array, a Buffer in host memory;
    the tests use these) is read through DLPack and uploaded once: OpenCL
    memory cannot adopt another library's allocation, so this is a copy,
    made straight from the producer's memory. (The other way, ``numpy.from_dlpack(buffer)``
    shares a Buffer's memory without a copy where it lives in host
    memory.)

    Parameters
    ----------
    x : object with ``__dlpack__``
        1-D, float32, float64, int32, int64, uint32 or uint64, in host memory.
    context : Context, optional
        The device; by default ``default_context()``.

    Returns
    -------
    Buffer
        A copy on the device: later writes to x do not reach it.

    Raises
    ------
    BufferError
        A tensor in device memory the host cannot read (the producer's own
        error).
    TypeError
        An object without ``__dlpack__``, or another dtype.
    ValueError
        A tensor that is not 1-D.

    $examples
    >>> b = portacl.from_dlpack(np.array([1.0, 2.5]))
    >>> b.to_numpy()
    array([1. , 2.5])
    """
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: {type(x).__name__} has no __dlpack__ (a DLPack producer is needed)")
    return _buffer(_context(context), _np.from_dlpack(x), "from_dlpack", _NUMBERS)


@_shared_doc
def to_pyopencl(obj: Union[Context, Buffer]) -> Any:
    """pyopencl's view of a portacl object, sharing it.

    Parameters
    ----------
    obj : Context or Buffer

    Returns
    -------
    tuple or pyopencl.Buffer
        For a Context, (pyopencl.Context, pyopencl.CommandQueue); for a
        Buffer, a pyopencl.Buffer on the same memory.

    $raises_type
        Another object.
    ImportError
        pyopencl is not installed.

    $examples
    >>> b = portacl.Buffer(portacl.default_context(), np.ones(4, np.float32))
    >>> portacl.to_pyopencl(b).size
    16
    """
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
    """Tunes one operation on the context's device and stores the winner.

    The winner goes into the tuning database that plans read: the same
    file portacl-tune writes.

    Parameters
    ----------
    kernel : str
        A name of ``tunable_operations()``.
    size : int, default 2**22
        The problem size tuned for.
    budget : int, default 48
        Candidates launched, besides the rules' plan.
    seconds : float, default 0
        A time limit (0: none).
    database : str, optional
        The file; by default ``PORTACL_TUNING_DB``, else the user's.
    dry_run : bool, default False
        Measure, store nothing.
    accept_noisy : bool, default False
        Store a result whose timing spread is wide.
    quiet : bool, optional
        Progress is shown with tqdm.auto where tqdm is installed (notebooks
        too), else as a line in a terminal; True shows none.
    context : Context, optional
        The device to tune; by default ``default_context()``.

    Returns
    -------
    dict
        operation, kernel, n, rules_ms, best_ms, speedup, configuration,
        tried, valid, rejected, stored, database and not_stored.

    Raises
    ------
    Error
        An unknown operation, a size of 0, or a database that cannot be
        written (before anything is measured).

    Examples
    --------
    >>> import portacl
    >>> report = portacl.tune("axpy", 4099, budget=2, dry_run=True, quiet=True)
    >>> report["stored"], report["not_stored"]
    (False, 'dry run')
    """
    progress = _progress(quiet)
    try:
        return _portacl.tune(_context(context), kernel, size, budget, seconds, database or "", dry_run, accept_noisy,
                             progress)
    finally:
        if progress is not None:
            progress.close()


CsrMatrix.__matmul__ = lambda self, x: spmv(self, x)  # type: ignore[assignment, arg-type]
CsrMatrix.__matmul__.__doc__ = "A @ x on the device matrix, as spmv(A, x)."

from ._elementwise import install_operators as _install_operators, map  # noqa: E402  (uses the helpers above)

_install_operators()

from . import sparse  # noqa: E402  (portacl.sparse.csr_matrix; it uses the helpers above)
from . import fft  # noqa: E402  (portacl.fft.fft, numpy.fft's names; it uses the helpers above)
