# SPDX-License-Identifier: Apache-2.0
"""Element-wise work on the device: portacl.map and the arithmetic
operators of Buffer and Array (+, -, *, /, **, unary - and abs), each one
launch of the library's map kernels. A Buffer or Array operand keeps the
result on the device."""
from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import numpy as _np

from . import _portacl
from ._array import Array, elements, operand_shape
from ._portacl import Buffer

if TYPE_CHECKING:
    from ._portacl import Context

Scalar = Union[int, float, _np.integer, _np.floating]


def _is_scalar(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool) or (
        isinstance(v, _np.ndarray) and v.ndim == 0 and v.dtype.kind in "iuf")


def _dtype_of(v: Any) -> Optional[str]:
    """An operand's dtype name; None for None and for a number."""
    if v is None or _is_scalar(v):
        return None
    if hasattr(v, "dtype"):  # Buffer, Array, NumPy and pyopencl arrays: nothing read
        return str(_np.dtype(v.dtype).name)
    return str(_np.asarray(v).dtype.name)


def map(expression: str, x: Any, y: Any = None, *, out: Optional[Buffer] = None,
        context: Optional[Context] = None, return_plan: bool = False) -> Any:
    """``expression`` element by element, on the device.

    Parameters
    ----------
    expression : str
        OpenCL C in ``x`` (and ``y``), one line: ``"x * x + 1"``,
        ``"fmax(x, y)"``, ``"pow(x, y)"``. It sees x and y as vectors in the
        body and as scalars in the tail, so write it for both (arithmetic
        and OpenCL's built-ins are). In float32 literals are single
        precision.
    x : array_like, Buffer or Array
        float32 or float64, any shape.
    y : None, array_like, Buffer, Array or a real number, optional
        A second operand of x's dtype and shape, or one value for every
        element (passed to the kernel: a new value builds nothing new).
    out : Buffer or Array, optional
        Written in place and returned (it may be x or y); by default a new
        Array where an operand is one, else a new Buffer where an operand
        is one, else a new NumPy array.
    context : Context, optional
        The device; by default the Buffers', else ``default_context()``.
    return_plan : bool, default False
        Return ``(result, plan)``, the plan of the launch.

    Returns
    -------
    Array, Buffer or numpy.ndarray
        Of x's shape.

    Raises
    ------
    TypeError
        Another dtype, operands of two dtypes, or a y that is neither an
        operand nor a real number.
    ValueError
        Operands of other shapes or contexts.
    Error
        An expression that is empty or more than one line.
    BuildError
        An expression that does not compile (the compiler's log with it).

    Examples
    --------
    >>> import numpy as np, portacl
    >>> portacl.map("x * y + 1", np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    array([4., 9.])
    >>> b = portacl.asarray(np.array([1.0, 4.0, 9.0]))
    >>> portacl.map("sqrt(x)", b).to_numpy()
    array([1., 2., 3.])
    """
    from . import _buffer, _context

    shape = operand_shape(x)
    if shape is None:
        x = _np.asarray(x)  # (a 0-D value or a list)
        shape = x.shape
        if not shape:
            raise ValueError("map: x must have at least one dimension")
    for name, v in (("y", y), ("out", out)):
        other = operand_shape(v)
        if other is not None and other != shape:
            raise ValueError(f"map: x is {shape} but {name} is {other}")
    if not (y is None or _is_scalar(y) or isinstance(y, (Buffer, Array)) or hasattr(y, "__len__")
            or hasattr(y, "__array__")):
        raise TypeError(f"map: y must be None, an operand or a real number, not {type(y).__name__}")
    if out is not None and not isinstance(out, (Buffer, Array)):
        raise TypeError(f"map: out must be a Buffer or an Array, not {type(out).__name__}")
    # Every dtype checked before anything is uploaded.
    x_dtype = _dtype_of(x)
    if x_dtype not in ("float32", "float64"):
        raise TypeError(f"map: dtype {x_dtype} is not float32 or float64")
    for name, v in (("y", y), ("out", out)):
        other_dtype = _dtype_of(v)
        if other_dtype is not None and other_dtype != x_dtype:
            raise TypeError(f"map: x is {x_dtype} but {name} is {other_dtype}")
    as_array = any(isinstance(v, Array) for v in (x, y, out))
    on_device = as_array or any(isinstance(v, Buffer) for v in (x, y, out))
    ctx = _context(context, x, y, out)
    bx = _buffer(ctx, elements(x), "map")
    if y is None or _is_scalar(y):
        operand: Any = None if y is None else float(y)
    else:
        operand = _buffer(ctx, elements(y if isinstance(y, (Buffer, Array)) else _np.asarray(y)), "map")
    made: Any = _portacl.map(expression, bx, operand, elements(out), return_plan)
    result = made[0] if return_plan else made
    if out is not None:
        result = out  # the caller's object itself
    elif as_array:
        result = Array(result, shape)
    elif not on_device:
        result = result.to_numpy().reshape(shape)
    return (result, made[1]) if return_plan else result


def _binary(expression: str, in_place: bool = False) -> Callable[[Any, Any], Any]:
    """The operator computing `expression` of self (x) and the other operand
    (y); the in-place form writes self."""
    def operator(self: Any, other: Any) -> Any:
        if not (_is_scalar(other) or isinstance(other, (Buffer, Array, _np.ndarray))):
            return NotImplemented
        return map(expression, self, other, out=self if in_place else None)
    return operator


def install_operators() -> None:
    """Buffer's operators: Buffer op (Buffer, array or number) and number op
    Buffer on the device, each a new Buffer (the in-place forms write the
    left one). An array on the left is NumPy's: it reads the Buffer back
    and computes on the host, as with any array-like."""
    operators = {"__pow__": _binary("pow(x, y)"), "__rpow__": _binary("pow(y, x)"),
                 "__neg__": lambda self: map("-x", self), "__pos__": lambda self: self,
                 "__abs__": lambda self: map("fabs(x)", self)}
    for name, op in (("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/")):
        operators[f"__{name}__"] = _binary(f"x {op} y")
        operators[f"__r{name}__"] = _binary(f"y {op} x")
        operators[f"__i{name}__"] = _binary(f"x {op} y", in_place=True)
    for name, function in operators.items():
        setattr(Buffer, name, function)
        setattr(Array, name, function)
