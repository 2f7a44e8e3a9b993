# SPDX-License-Identifier: Apache-2.0
"""The docstring sections many calls share, written once. In a docstring
of a function decorated with shared_doc, a line holding only ``$name``
becomes part `name` below, indented as that line is."""
import re
from typing import Any, Callable, Dict, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_PARTS: Dict[str, str] = {
    "examples": """\
Examples
--------
>>> import numpy as np, portacl""",
    "examples_sparse": """\
Examples
--------
>>> import numpy as np, scipy.sparse as sp, portacl""",
    "raises_type": """\
Raises
------
TypeError""",
    "returns_array": """\
Returns
-------
numpy.ndarray""",
    "fft_input": """\
a : array_like
    Real or complex; float32 and complex64 run in single precision.""",
    "fft_one_axis": """\
n : int, optional
    The transform's length: a cut or zero-padded to it along axis.
axis : int, default -1
    The axis transformed; the others are a batch.""",
    "fft_axes": """\
s : sequence of int, optional
    The lengths along the axes: a cut or zero-padded to them.""",
    "fft_norm": """\
norm : {"backward", "ortho", "forward"}, optional
    As NumPy's: "backward" (default) leaves the forward unscaled and divides
    the inverse by n, "ortho" scales both by 1 / sqrt(n), "forward" divides
    the forward.
context : Context, optional
    The device to run on; by default ``default_context()``.""",
    "fft_returns": """\
Returns
-------
numpy.ndarray
    complex64 for single-precision input, else complex128.""",
    "fft_raises": """\
Raises
------
ValueError
    A length below 1, an axis given twice, sizes and axes of different
    counts, an unknown norm, a 0-D array.
Error
    What the library refuses itself (a RuntimeError: double on a device
    without fp64), with its message.""",
    "fft_parameters": """\
Parameters
----------
$fft_input
$fft_one_axis
$fft_norm

$fft_returns

$fft_raises""",
    "fftn_parameters": """\
Parameters
----------
$fft_input
$fft_axes
axes : sequence of int, optional
    The axes transformed (fftn and ifftn: the last len(s), else all; fft2
    and ifft2: (-2, -1)); the others are a batch. Any number: groups of 3
    run one after another.
$fft_norm

$fft_returns

$fft_raises""",
    "context": """\
context : Context, optional
    The device to run on; by default a Buffer operand's context, else
    ``default_context()``.""",
    "context_arrays": """\
context : Context, optional
    The device to run on; by default ``default_context()``.""",
    "return_plan": """\
return_plan : bool, default False
    Also return the launch's Plan, as ``(result, plan)``.""",
    "library_error": """\
Error
    What the library refuses itself (a RuntimeError), with its message.""",
    "options_on_arrays": """\
$context_arrays
$return_plan""",
    "options_on_buffers": """\
$context
$return_plan""",
    "raises_1d": """\
Raises
------
TypeError
    Another dtype.
ValueError
    An array that is not 1-D.
$library_error""",
    "raises_pair": """\
Raises
------
TypeError
    Another dtype, or x and y of two dtypes.
ValueError
    Lengths that differ, or an array that is not 1-D.
$library_error""",
    "sort_parameters": """\
Parameters
----------
x : array_like
    1-D, float32, float64, int32, int64, uint32 or uint64 (the radix
    sort's keys; 64-bit keys take twice the passes of 32-bit ones).
$options_on_arrays""",
    "reduction": """\
Parameters
----------
x : array_like, Buffer or Array
    1-D (an Array: all of it), float32 or float64; min and max take
    int32, int64, uint32 and uint64 too.
$options_on_buffers

Returns
-------
float or int
    An int for integers.

Raises
------
TypeError
    Another dtype.
ValueError
    An array that is not 1-D (min and max: or an empty one).
$library_error""",
    "solve_parameters": """\
b : array_like or Buffer
    1-D, a's dtype and order. A Buffer (with a CsrMatrix) keeps the
    solve on the device: x then comes back as a Buffer.
tol : float, default 1e-8
    Stop when ``||b - A x|| / ||b||``, measured on the true residual at
    the stop, is below it.
max_iterations : int, default 0
    0: the library's default (1000).
jacobi : bool, default False
    Precondition by A's diagonal.
context : Context, optional
    The device to run on; by default ``default_context()``.
x0 : array_like or Buffer, optional
    The starting guess (default 0); never overwritten.""",
    "solve_returns": """\
Returns
-------
x : numpy.ndarray or Buffer
info : dict
    converged (b - A x meets tol), iterations, residual (the
    recurrence's ``||r|| / ||b||``), true_residual (``||b - A x|| /
    ||b||``), restarts, broke_down, history, stop_reason and warning.

Raises
------
TypeError
    Another dtype.
ValueError
    A matrix that is not square, b or x0 of another length or context,
    or a tolerance below 0 or not finite.
Error
    What the library refuses itself (a RuntimeError), such as a zero on
    the diagonal with jacobi.""",
    "scipy_solve": """\
b : array_like or Buffer
    1-D, A's dtype and order; a Buffer (with a CsrMatrix) keeps the
    solve on the device and x comes back as a Buffer.
x0 : array_like or Buffer, optional
    The starting guess (default 0); never overwritten.
rtol, atol : float, default 1e-5 and 0
    Stop at ``||b - A x|| <= max(rtol ||b||, atol)``, measured on the
    true residual at the stop.
maxiter : int, optional
    Default ``10 n``, as SciPy.
M : None, "jacobi", callable, LinearOperator or matrix, optional
    "jacobi": A's diagonal, applied on the device. Otherwise M^-1 r is
    ``M(r)``, ``M.matvec(r)`` or ``M @ r`` on a NumPy array r, and the
    iterations run from the host (a wait an iteration).
callback : callable, optional
    ``callback(xk)`` after each iteration with a NumPy copy of the
    iterate; the iterations then run from the host.

Returns
-------
x : numpy.ndarray or Buffer
info : int
    0 converged; > 0 the iterations done without converging; < 0 a
    breakdown.

Raises
------
TypeError
    Another dtype, an M of another kind, or a callback that is not
    callable.
ValueError
    A matrix that is not square, b or x0 of another length, M's result
    of another length, tolerances below 0 or not finite, or maxiter
    below 1.
Error
    What the library refuses itself (a RuntimeError).""",
}


def shared_doc(f: F) -> F:
    """f, its docstring's ``$name`` lines filled in, and theirs in turn (an
    unknown name is a KeyError at import)."""
    def fill(match: "re.Match[str]") -> str:
        indent, name = match.group(1), match.group(2)
        return "\n".join(indent + line if line else line for line in _PARTS[name].splitlines())

    doc, before = f.__doc__ or "", None
    while doc != before:  # parts may hold parts
        doc, before = re.sub(r"^([ \t]*)\$(\w+)[ \t]*$", fill, doc, flags=re.M), doc
    f.__doc__ = doc
    return f
