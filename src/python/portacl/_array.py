# SPDX-License-Identifier: Apache-2.0
"""portacl.Array: an n-D array on the device, a Buffer of its elements in
C order with a shape. Element-wise arithmetic and portacl.map keep it on
the device with its shape; sum, min, max and nrm2 reduce all of it, as
NumPy's do without an axis; the 1-D calls take its elements as a Buffer
through ravel() (the same memory, no copy)."""
from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING, Any, Optional, Tuple

import numpy as _np

from ._portacl import Buffer

if TYPE_CHECKING:
    from ._portacl import Context


def _shape_of(shape: Any, size: int, call: str) -> Tuple[int, ...]:
    """`shape` (a tuple or ints, one of them -1 at most) checked against
    `size` elements; a ValueError naming `call` where they do not fit."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    try:
        dims = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"{call}: a shape is integers, not {shape!r}") from None
    if not dims:
        raise ValueError(f"{call}: an Array has at least one dimension")
    if sum(d == -1 for d in dims) > 1 or any(d < -1 for d in dims):
        raise ValueError(f"{call}: {dims} is not a shape (one -1 at most, no other negative)")
    if -1 in dims:
        known = math.prod(d for d in dims if d != -1)
        if known == 0 or size % known:
            raise ValueError(f"{call}: {size} elements do not fill {dims}")
        dims = tuple(size // known if d == -1 else d for d in dims)
    if math.prod(dims) != size:
        raise ValueError(f"{call}: {dims} holds {math.prod(dims)} elements, not {size}")
    return dims


class Array:
    """An n-D array on the device: float32, float64, int32, int64, uint32 or uint64.

    Made by ``portacl.asarray`` from an array of two or more dimensions,
    or by ``Array(buffer, shape)`` over a Buffer's elements (no copy).
    ``+``, ``-``, ``*``, ``/``, ``**``, ``-a``, ``abs(a)`` and
    ``portacl.map`` take Arrays of one shape (or an Array and a number) and
    give a new Array (on integers ``+ - *``, ``-a`` and ``abs`` wrap as
    NumPy's do; ``/`` and ``**`` are refused); ``a[i, j]`` reads back one
    element and other indices read the whole array back and index it as
    NumPy does.

    Examples
    --------
    >>> import numpy as np, portacl
    >>> a = portacl.asarray(np.arange(6.0).reshape(2, 3))
    >>> a
    <portacl.Array (2, 3) float64>
    >>> (2 * a + 1).get()
    array([[ 1.,  3.,  5.],
           [ 7.,  9., 11.]])
    >>> a[1, 2], portacl.sum(a)
    (5.0, 15.0)
    """

    __slots__ = ("_buffer", "_shape")

    def __init__(self, buffer: Buffer, shape: Any) -> None:
        if not isinstance(buffer, Buffer):
            raise TypeError(f"Array: a Buffer holds the elements, not {type(buffer).__name__}")
        self._buffer = buffer
        self._shape = _shape_of(tuple(shape) if isinstance(shape, (tuple, list)) else (shape,), len(buffer), "Array")

    @property
    def shape(self) -> Tuple[int, ...]:
        return self._shape

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        return len(self._buffer)

    @property
    def dtype(self) -> str:
        return self._buffer.dtype

    @property
    def nbytes(self) -> int:
        return self._buffer.nbytes

    @property
    def context(self) -> Context:
        return self._buffer.context

    def ravel(self) -> Buffer:
        """The elements in C order as a 1-D Buffer: the same memory, no copy."""
        return self._buffer

    def reshape(self, *shape: Any) -> Array:
        """The same elements under another shape (one dimension may be -1): no copy."""
        return Array(self._buffer, _shape_of(shape, self.size, "reshape"))

    def get(self) -> _np.ndarray:
        """The array read back into a new NumPy array of its shape."""
        return self._buffer.to_numpy().reshape(self._shape)

    to_numpy = get

    def __array__(self, dtype: Any = None, copy: Any = None) -> _np.ndarray:
        if copy is False:
            raise ValueError("Array.__array__: copy=False, but a device array can only be read back as a copy")
        a = self.get()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __dlpack__(self, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Any = None) -> Any:
        """DLPack's export with the array's shape (``numpy.from_dlpack(a)``):
        its own memory, no copy, where it lives in host memory (CPU
        devices), as a Buffer's; calls refuse the array until the consumer
        lets it go. Device memory, or ``copy=True``, raises BufferError
        (``get()`` is the copy)."""
        if copy:
            raise BufferError("Array.__dlpack__: copy=True; get() reads the array back as a copy")
        return self._buffer._dlpack_shaped(stream, list(self._shape))

    def __dlpack_device__(self) -> Tuple[int, int]:
        """(1, 0), DLPack's CPU, where the array lives in host memory."""
        kind, index = self._buffer.__dlpack_device__()
        return int(kind), int(index)

    def __len__(self) -> int:
        return self._shape[0]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple) and len(key) == self.ndim and all(isinstance(k, (int, _np.integer)) for k in key):
            flat = 0
            for k, d in zip(key, self._shape):
                i = int(k) + d if k < 0 else int(k)
                if not 0 <= i < d:
                    raise IndexError(f"Array index {key} is out of range for shape {self._shape}")
                flat = flat * d + i
            return self._buffer[flat]  # one element read back
        return self.get()[key]

    def __repr__(self) -> str:
        return f"<portacl.Array {self._shape} {self.dtype}>"


def operand_shape(v: Any) -> Optional[Tuple[int, ...]]:
    """The shape of an operand that has one (an Array, a Buffer, an array), else None."""
    if isinstance(v, Array):
        return v.shape
    if isinstance(v, Buffer):
        return (len(v),)
    if isinstance(v, _np.ndarray) and v.ndim:
        return v.shape
    return None


def elements(v: Any) -> Any:
    """An Array's elements as its Buffer, an n-D array's as a flat array; anything else as it is."""
    if isinstance(v, Array):
        return v.ravel()
    if isinstance(v, _np.ndarray) and v.ndim > 1:
        return _np.ascontiguousarray(v).reshape(-1)
    return v
