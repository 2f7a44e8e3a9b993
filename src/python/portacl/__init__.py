# SPDX-License-Identifier: Apache-2.0
"""portacl from Python: contexts, device buffers from NumPy arrays, and the
library's kernels, with portacl's plans and errors.

Every call takes NumPy arrays or portacl Buffers. Its device is, in order:
the `context` argument, the context of a Buffer among the operands, or the
default context (PORTACL_DEVICE, else the default device), made once."""
import numpy as _np

from . import _portacl
from ._portacl import BuildError, Buffer, Context, Error, __version__, query

__all__ = ["BuildError", "Buffer", "Context", "Error", "__version__", "axpy", "cg", "default_context", "dot",
           "query", "spmv", "sum"]

_default = None


def default_context():
    """The context calls use when given none: made on first use."""
    global _default
    if _default is None:
        _default = Context()
    return _default


def _context(context, *operands):
    if context is not None:
        return context
    for a in operands:
        if isinstance(a, Buffer):
            return a.context
    return default_context()


def _buffer(ctx, a):
    return a if isinstance(a, Buffer) else Buffer(ctx, _np.asarray(a))


def sum(x, context=None):
    """The sum of x's elements, as a Python float."""
    ctx = _context(context, x)
    return _portacl.sum(ctx, _buffer(ctx, x))


def dot(x, y, context=None):
    """x . y, as a Python float."""
    ctx = _context(context, x, y)
    return _portacl.dot(ctx, _buffer(ctx, x), _buffer(ctx, y))


def axpy(a, x, y, context=None):
    """y = a x + y. A Buffer y is updated in place and returned; an array y
    is left as it is and the result comes back as a new array."""
    ctx = _context(context, x, y)
    by = _buffer(ctx, y)
    _portacl.axpy(ctx, a, _buffer(ctx, x), by)
    return by if isinstance(y, Buffer) else by.to_numpy()


def spmv(a, x, context=None):
    """A @ x for a scipy.sparse CSR matrix A (float32 stays float32)."""
    return _portacl.spmv(_context(context), a, _np.asarray(x))


def cg(a, b, tol=1e-8, max_iterations=0, context=None):
    """Conjugate gradients on a symmetric positive definite CSR matrix A:
    (x, info) with info's converged, iterations, residual, stop_reason and
    warning."""
    return _portacl.cg(_context(context), a, _np.asarray(b), tol, max_iterations)
