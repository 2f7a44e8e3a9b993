# SPDX-License-Identifier: Apache-2.0
"""Fast Fourier transforms with NumPy's names and semantics.

``portacl.fft.fft``, ``ifft``, ``rfft``, ``irfft``, ``fft2``, ``ifft2``,
``fftn`` and ``ifftn`` take ``numpy.fft``'s arguments (``n``, ``s``,
``axis``, ``axes``, ``norm``) and return NumPy arrays; the transforms run
on the device (portacl's FFT family: any length, batched over the axes not
transformed). float32 and complex64 stay in single precision (complex64
results, as NumPy 2 gives); other inputs run in double (complex128),
which needs a device with fp64. Plans are kept for repeated calls, as
``scipy.fft``'s and CuPy's plan caches keep theirs: the last 16 of each
precision by context, kind, lengths and batch (``plan_cache_size()``;
``clear_plan_cache()`` lets them, and the contexts they hold, go)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple

import numpy as _np

from . import _context, _portacl
from ._docs import shared_doc as _shared_doc

__all__ = ["clear_plan_cache", "fft", "fft2", "fftn", "ifft", "ifft2", "ifftn", "irfft", "plan_cache_size", "rfft"]

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ._portacl import Context

_NORMS = (None, "backward", "ortho", "forward")


def _single(a: _np.ndarray) -> bool:
    return a.dtype in (_np.float32, _np.complex64)


def _scale(a: _np.ndarray, points: int, norm: Optional[str], inverse: bool) -> _np.ndarray:
    if norm not in _NORMS:
        raise ValueError(f'fft: norm must be "backward", "ortho", "forward" or None, not {norm!r}')
    if norm == "ortho":
        return a * a.dtype.type(1 / _np.sqrt(points)) if points else a
    if (norm == "forward") != inverse:  # "forward": the forward divides; else the inverse does
        return a * a.dtype.type(1 / points) if points else a
    return a


def _axes_and_sizes(a: _np.ndarray, s: Optional[Sequence[int]], axes: Optional[Sequence[int]]) -> Tuple[list, list]:
    if axes is None:
        axes = list(range(-len(s), 0)) if s is not None else list(range(a.ndim))
    axes = [int(x) % a.ndim if a.ndim else int(x) for x in axes]
    if len(set(axes)) != len(axes):
        raise ValueError(f"fft: an axis given twice in {list(axes)}")
    if s is None:
        s = [a.shape[x] for x in axes]
    if len(s) != len(axes):
        raise ValueError(f"fft: {len(s)} sizes for {len(axes)} axes")
    for n in s:
        if int(n) < 1:
            raise ValueError(f"fft: invalid number of data points ({n}) specified")
    return axes, [int(n) for n in s]


@_shared_doc
def plan_cache_size() -> int:
    """How many transforms' plans are kept.

    Returns
    -------
    int
        At most 16 of each precision.

    Raises
    ------
    None

    $examples
    >>> portacl.fft.clear_plan_cache()
    >>> _ = portacl.fft.fft(np.ones(8)); portacl.fft.plan_cache_size()
    1
    """
    return int(_portacl.fft_plan_cache_size())


@_shared_doc
def clear_plan_cache() -> None:
    """Drops every kept plan, and with them their hold on their contexts.

    Returns
    -------
    None

    Raises
    ------
    None

    $examples
    >>> portacl.fft.clear_plan_cache(); portacl.fft.plan_cache_size()
    0
    """
    _portacl.fft_clear_plan_cache()


def _resized(a: _np.ndarray, axis: int, n: int) -> _np.ndarray:
    """a cut or zero-padded to n values along axis, as numpy.fft does."""
    have = a.shape[axis]
    if have == n:
        return a
    if have > n:
        index = [slice(None)] * a.ndim
        index[axis] = slice(0, n)
        return a[tuple(index)]
    widths = [(0, 0)] * a.ndim
    widths[axis] = (0, n - have)
    return _np.pad(a, widths)


def _run(a: _np.ndarray, axes: Sequence[int], kind: str, inverse: bool, n_last: int,
         context: Optional[Context]) -> _np.ndarray:
    """The library's transform over `axes` (at most 3), the others a batch."""
    k = len(axes)
    moved = _np.ascontiguousarray(_np.moveaxis(a, list(axes), list(range(a.ndim - k, a.ndim))))
    out, _ = _portacl.fft_transform(_context(context), moved, k, kind, inverse, n_last)
    return _np.moveaxis(out, list(range(a.ndim - k, a.ndim)), list(axes))


def _c2c(a: ArrayLike, s: Optional[Sequence[int]], axes: Optional[Sequence[int]], norm: Optional[str],
         inverse: bool, context: Optional[Context]) -> _np.ndarray:
    x = _np.asarray(a)
    x = x.astype(_np.complex64 if _single(x) else _np.complex128, copy=False)
    if x.ndim == 0:
        raise ValueError("fft: a 0-D array has no axis to transform")
    axes, sizes = _axes_and_sizes(x, s, axes)
    for axis, n in zip(axes, sizes):
        x = _resized(x, axis, n)
    points = 1
    for n in sizes:
        points *= n
    # The transform over many axes is the transforms over each group of 3.
    for first in range(0, len(axes), 3):
        x = _run(x, axes[first:first + 3], "c2c", inverse, 0, context)
    return _scale(x, points, norm, inverse)


@_shared_doc
def fft(a: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
        context: Optional[Context] = None) -> _np.ndarray:
    """The discrete Fourier transform along one axis, as ``numpy.fft.fft``.

    $fft_parameters

    $examples
    >>> np.round(portacl.fft.fft(np.array([1.0, 2.0, 3.0, 4.0])), 6)
    array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    return _c2c(a, None if n is None else [n], [axis], norm, False, context)


@_shared_doc
def ifft(a: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
         context: Optional[Context] = None) -> _np.ndarray:
    """The inverse discrete Fourier transform along one axis, as ``numpy.fft.ifft``.

    $fft_parameters

    $examples
    >>> np.round(portacl.fft.ifft(np.array([10.0, -2 + 2j, -2.0, -2 - 2j])), 6)
    array([1.+0.j, 2.+0.j, 3.+0.j, 4.+0.j])
    """
    return _c2c(a, None if n is None else [n], [axis], norm, True, context)


@_shared_doc
def fftn(a: ArrayLike, s: Optional[Sequence[int]] = None, axes: Optional[Sequence[int]] = None,
         norm: Optional[str] = None, context: Optional[Context] = None) -> _np.ndarray:
    """The N-dimensional discrete Fourier transform, as ``numpy.fft.fftn``.

    $fftn_parameters

    $examples
    >>> np.round(portacl.fft.fftn(np.ones((2, 3))), 6)
    array([[6.+0.j, 0.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j, 0.+0.j]])
    """
    return _c2c(a, s, axes, norm, False, context)


@_shared_doc
def ifftn(a: ArrayLike, s: Optional[Sequence[int]] = None, axes: Optional[Sequence[int]] = None,
          norm: Optional[str] = None, context: Optional[Context] = None) -> _np.ndarray:
    """The N-dimensional inverse discrete Fourier transform, as ``numpy.fft.ifftn``.

    $fftn_parameters

    $examples
    >>> np.round(portacl.fft.ifftn(np.array([[6.0, 0, 0], [0, 0, 0]])), 6)
    array([[1.+0.j, 1.+0.j, 1.+0.j],
           [1.+0.j, 1.+0.j, 1.+0.j]])
    """
    return _c2c(a, s, axes, norm, True, context)


@_shared_doc
def fft2(a: ArrayLike, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
         norm: Optional[str] = None, context: Optional[Context] = None) -> _np.ndarray:
    """The 2-D discrete Fourier transform, as ``numpy.fft.fft2``.

    $fftn_parameters

    $examples
    >>> np.round(portacl.fft.fft2(np.eye(2)), 6)
    array([[2.+0.j, 0.+0.j],
           [0.+0.j, 2.+0.j]])
    """
    return _c2c(a, s, axes, norm, False, context)


@_shared_doc
def ifft2(a: ArrayLike, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
          norm: Optional[str] = None, context: Optional[Context] = None) -> _np.ndarray:
    """The 2-D inverse discrete Fourier transform, as ``numpy.fft.ifft2``.

    $fftn_parameters

    $examples
    >>> np.round(portacl.fft.ifft2(np.array([[2.0, 0], [0, 2.0]])), 6)
    array([[1.+0.j, 0.+0.j],
           [0.+0.j, 1.+0.j]])
    """
    return _c2c(a, s, axes, norm, True, context)


@_shared_doc
def rfft(a: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
         context: Optional[Context] = None) -> _np.ndarray:
    """The discrete Fourier transform of real input, as ``numpy.fft.rfft``.

    Parameters
    ----------
    a : array_like
        Real; float32 runs in single precision.
    $fft_one_axis
    $fft_norm

    Returns
    -------
    numpy.ndarray
        The n // 2 + 1 first values along axis; complex64 for float32
        input, else complex128.

    Raises
    ------
    TypeError
        Complex input.
    ValueError
        n below 1, an unknown norm, a 0-D array.
    $library_error

    $examples
    >>> np.round(portacl.fft.rfft(np.array([1.0, 2.0, 3.0, 4.0])), 6)
    array([10.+0.j, -2.+2.j, -2.+0.j])
    """
    x = _np.asarray(a)
    if _np.iscomplexobj(x):
        raise TypeError("rfft: complex input (rfft transforms real values; fft takes complex ones)")
    x = x.astype(_np.float32 if x.dtype == _np.float32 else _np.float64, copy=False)
    if x.ndim == 0:
        raise ValueError("rfft: a 0-D array has no axis to transform")
    axis = int(axis) % x.ndim
    n = x.shape[axis] if n is None else int(n)
    if n < 1:
        raise ValueError(f"rfft: invalid number of data points ({n}) specified")
    x = _resized(x, axis, n)
    return _scale(_run(x, [axis], "r2c", False, 0, context), n, norm, False)


@_shared_doc
def irfft(a: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
          context: Optional[Context] = None) -> _np.ndarray:
    """The inverse of rfft: real output, as ``numpy.fft.irfft``.

    Parameters
    ----------
    a : array_like
        The n // 2 + 1 first values of a Hermitian sequence along axis.
    n : int, optional
        The output's length along axis (default 2 (m - 1), m the input's);
        the input is cut or zero-padded to n // 2 + 1 values.
    axis : int, default -1
        The axis transformed; the others are a batch.
    $fft_norm

    Returns
    -------
    numpy.ndarray
        float32 for complex64 or float32 input, else float64.

    $fft_raises

    $examples
    >>> np.round(portacl.fft.irfft(np.array([10.0, -2 + 2j, -2.0])), 6)
    array([1., 2., 3., 4.])
    """
    x = _np.asarray(a)
    x = x.astype(_np.complex64 if _single(x) else _np.complex128, copy=False)
    if x.ndim == 0:
        raise ValueError("irfft: a 0-D array has no axis to transform")
    axis = int(axis) % x.ndim
    n = 2 * (x.shape[axis] - 1) if n is None else int(n)
    if n < 1:
        raise ValueError(f"irfft: invalid number of data points ({n}) specified")
    x = _resized(x, axis, n // 2 + 1)
    return _scale(_run(x, [axis], "c2r", True, n, context), n, norm, True)
