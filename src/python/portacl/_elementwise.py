# SPDX-License-Identifier: Apache-2.0
"""Element-wise work on the device: portacl.map and the arithmetic
operators of Buffer and Array (+, -, *, /, **, unary - and abs), each one
launch of the library's map kernels. A Buffer or Array operand keeps the
result on the device."""
from __future__ import annotations

import numbers
from operator import index as operator_index
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
        float32, float64, int32, int64, uint32 or uint64, any shape. On
        integers the expression is integer OpenCL C: unsigned arithmetic
        wraps, signed overflow is undefined (the operators ``+ - *`` wrap
        as NumPy's do).
    y : None, array_like, Buffer, Array or a real number, optional
        A second operand of x's dtype and shape, or one value for every
        element (passed to the kernel: a new value builds nothing new); for
        integer x an integer that fits x's dtype.
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
        Another dtype, operands of two dtypes, a y that is neither an
        operand nor a real number, or a y that is not an integer for
        integer x.
    OverflowError
        A value y out of integer x's range.
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
    return _map(expression, x, y, out, context, return_plan, modular=False)


def _map(expression: str, x: Any, y: Any, out: Any, context: Optional[Context], return_plan: bool,
         modular: bool) -> Any:
    """map and the operators: `modular` runs signed integers' + - * wrapping, as NumPy's operators do."""
    from . import _NUMBERS, _buffer, _context

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
    if x_dtype not in _NUMBERS:
        raise TypeError(f"map: dtype {x_dtype} is not float32, float64, int32, int64, uint32 or uint64")
    for name, v in (("y", y), ("out", out)):
        other_dtype = _dtype_of(v)
        if other_dtype is not None and other_dtype != x_dtype:
            raise TypeError(f"map: x is {x_dtype} but {name} is {other_dtype}")
    if _is_scalar(y) and _np.dtype(x_dtype).kind in "iu":
        y = _integer_value(y, x_dtype)
    as_array = any(isinstance(v, Array) for v in (x, y, out))
    on_device = as_array or any(isinstance(v, Buffer) for v in (x, y, out))
    ctx = _context(context, x, y, out)
    bx = _buffer(ctx, elements(x), "map", _NUMBERS)
    if y is None or _is_scalar(y):
        # The value as it is: the library converts it to x's dtype (an
        # integer dtype takes only an integer that fits).
        operand: Any = y.item() if isinstance(y, _np.ndarray) else y
    else:
        operand = _buffer(ctx, elements(y if isinstance(y, (Buffer, Array)) else _np.asarray(y)), "map", _NUMBERS)
    made: Any = _portacl.map(expression, bx, operand, elements(out), return_plan, modular)
    result = made[0] if return_plan else made
    if out is not None:
        result = out  # the caller's object itself
    elif as_array:
        result = Array(result, shape)
    elif not on_device:
        result = result.to_numpy().reshape(shape)
    return (result, made[1]) if return_plan else result


def _integer_value(y: Any, dtype: str) -> int:
    """y as a Python int for an integer dtype: a TypeError where it is not an
    integer, an OverflowError where it is outside dtype's range (as NumPy's
    for a Python int), before any work."""
    try:
        value = operator_index(y.item() if isinstance(y, _np.ndarray) else y)
    except TypeError:
        raise TypeError(f"map: the value {y!r} is not an integer, and x is {dtype} (NumPy would give floats: "
                        f"convert x first)") from None
    limits = _np.iinfo(dtype)
    if not int(limits.min) <= value <= int(limits.max):
        raise OverflowError(f"map: the value {value} is out of range for {dtype}")
    return value


def _integer(v: Any) -> bool:
    """Whether an operand (not a number) holds integers."""
    dtype = _dtype_of(v)
    return dtype is not None and _np.dtype(dtype).kind in "iu"


def _binary(expression: str, in_place: bool = False, real_only: str = "") -> Callable[[Any, Any], Any]:
    """The operator computing `expression` of self (x) and the other operand
    (y); the in-place form writes self. On integers + - * wrap as NumPy's
    do; `real_only` names an operator that integers do not take here."""
    def operator(self: Any, other: Any) -> Any:
        if not (_is_scalar(other) or isinstance(other, (Buffer, Array, _np.ndarray))):
            return NotImplemented
        if _integer(self):
            if real_only:
                raise TypeError(f"{real_only} of {self.dtype} operands: {_REFUSED_ON_INTEGERS[real_only]}; read back "
                                f"with .get(), or upload floats")
            return _map(expression, self, other, self if in_place else None, None, False, modular=True)
        return map(expression, self, other, out=self if in_place else None)
    return operator


# Why an operator refuses integers.
_REFUSED_ON_INTEGERS = {"/": "true division gives floats (as in NumPy), which an integer result cannot hold",
                        "**": "portacl raises to powers in floating point only"}


def _unary(real: str, signed: str, unsigned: str) -> Callable[[Any], Any]:
    """The unary operator: `real` on floats, `signed` on signed integers
    (run wrapping, as NumPy's), `unsigned` on unsigned ones."""
    def operator(self: Any) -> Any:
        kind = _np.dtype(self.dtype).kind
        if kind == "f":
            return map(real, self)
        return _map(signed if kind == "i" else unsigned, self, None, None, None, False, modular=True)
    return operator


# |x| of a signed integer read as unsigned (what the wrapping form runs on):
# m is all ones where x is negative, and (x ^ m) - m is then -x; |most
# negative| is itself, as in NumPy.
_SIGN_MASK = "((T)0 - (x >> (T)(sizeof(T) * 8 - 1)))"
_INTEGER_ABS = f"((x ^ {_SIGN_MASK}) - {_SIGN_MASK})"


def install_operators() -> None:
    """Buffer's operators: Buffer op (Buffer, array or number) and number op
    Buffer on the device, each a new Buffer (the in-place forms write the
    left one). An array on the left is NumPy's: it reads the Buffer back
    and computes on the host, as with any array-like. Integers take + - *,
    unary - and abs (wrapping as NumPy's); / and ** are refused on them."""
    operators = {"__pow__": _binary("pow(x, y)", real_only="**"), "__rpow__": _binary("pow(y, x)", real_only="**"),
                 "__neg__": _unary("-x", "-x", "-x"), "__pos__": lambda self: self,
                 "__abs__": _unary("fabs(x)", _INTEGER_ABS, "x")}
    for name, op in (("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/")):
        refused = "/" if op == "/" else ""
        operators[f"__{name}__"] = _binary(f"x {op} y", real_only=refused)
        operators[f"__r{name}__"] = _binary(f"y {op} x", real_only=refused)
        operators[f"__i{name}__"] = _binary(f"x {op} y", in_place=True, real_only=refused)
    for name, function in operators.items():
        setattr(Buffer, name, function)
        setattr(Array, name, function)
