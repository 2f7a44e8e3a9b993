# SPDX-License-Identifier: Apache-2.0
"""Sparse matrices kept on the device.

csr_matrix(A) uploads a scipy.sparse matrix once; the result, a
portacl.CsrMatrix, keeps its device copy, the structure's analysis, the
formats the products convert it to and their plans, so that every later
portacl.spmv(M, x), M @ x, portacl.cg(M, b) or portacl.bicgstab(M, b) skips
them. With x a portacl.Buffer, M @ x stays on the device as a Buffer;
with b a Buffer, so does the solvers' x.

cg and bicgstab here take scipy.sparse.linalg's signatures and return its
(x, info): a program written for SciPy changes its import. Without M (or
with M="jacobi") and without callback the iterations run on the device;
a callable, LinearOperator or matrix M, or a callback, runs them from the
host (each iteration waits for its sums and calls back into Python)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

import numpy as _np

from . import _context, _solve, nrm2
from ._docs import shared_doc as _shared_doc
from ._portacl import Buffer, CsrMatrix

__all__ = ["CsrMatrix", "bicgstab", "cg", "csr_matrix"]

if TYPE_CHECKING:
    from . import Vector
    from ._portacl import Context


def csr_matrix(a: Any, context: Optional[Context] = None) -> CsrMatrix:
    """A device copy of a SciPy sparse matrix, kept for later calls.

    Its upload, the structure's analysis, the formats products convert it
    to and their plans are kept for every later ``spmv``, ``@``, ``cg`` and
    ``bicgstab``.

    Parameters
    ----------
    a : scipy.sparse matrix
        Any format (converted to CSR once); float32 stays float32, anything
        else becomes float64.
    context : Context, optional
        By default ``default_context()``.

    Returns
    -------
    CsrMatrix

    Raises
    ------
    TypeError
        Something that is not a SciPy sparse matrix.
    Error
        What the library refuses itself (a RuntimeError), such as indices
        out of range.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, portacl
    >>> D = portacl.sparse.csr_matrix(sp.identity(3, format="csr") * 2.0)
    >>> D.shape, D.nnz, (D @ np.ones(3))
    ((3, 3), 3, array([2., 2., 2.]))
    """
    if hasattr(a, "tocsr") and getattr(a, "format", "csr") != "csr":
        a = a.tocsr()
    return CsrMatrix(_context(context), a)


def _preconditioner(method: str, M: Any) -> Tuple[bool, Optional[Callable[[Any], Any]]]:
    """(jacobi, precondition) for SciPy's M: "jacobi" on the device, or a
    host function r -> M^-1 r made from a callable, a LinearOperator (its
    matvec), or a matrix (M @ r)."""
    if M is None:
        return False, None
    if isinstance(M, str):
        if M == "jacobi":
            return True, None
        raise ValueError(f"{method}: M as a string must be 'jacobi', not {M!r}")
    if hasattr(M, "matvec"):
        apply = M.matvec
    elif hasattr(M, "shape") and hasattr(M, "__matmul__"):
        apply = M.__matmul__
    elif callable(M):
        apply = M
    else:
        raise TypeError(f"{method}: M must be None, 'jacobi', a callable r -> M^-1 r, a LinearOperator or a "
                        f"matrix, not {type(M).__name__}")

    def precondition(r: Any) -> Any:
        z = _np.ravel(_np.asarray(apply(r)))
        if z.shape != r.shape:
            raise ValueError(f"{method}: M gave {z.size} elements for an r of {r.size}")
        return _np.ascontiguousarray(z, dtype=r.dtype)
    return False, precondition


def _scipy_solve(method: str, A: Any, b: Vector, x0: Optional[Vector], rtol: float, atol: float,
                 maxiter: Optional[int], M: Any, callback: Optional[Callable[..., Any]]) -> Tuple[Any, int]:
    if callback is not None and not callable(callback):
        raise TypeError(f"{method}: callback must be callable, not {type(callback).__name__}")
    jacobi, precondition = _preconditioner(method, M)
    if rtol < 0 or atol < 0 or not _np.isfinite(rtol) or not _np.isfinite(atol):
        raise ValueError(f"{method}: rtol and atol must be finite and non-negative, not {rtol} and {atol}")
    n = A.shape[0]
    if maxiter is None:
        maxiter = 10 * n  # SciPy's default
    if maxiter < 1:
        raise ValueError(f"{method}: maxiter must be at least 1, not {maxiter}")
    # SciPy stops at ||b - A x|| <= max(rtol ||b||, atol); portacl's solvers
    # at ||b - A x|| / ||b|| below their tolerance.
    if isinstance(b, Buffer):  # stays on the device: its norm too
        b_norm = float(nrm2(b))
    else:
        b = _np.asarray(b)
        b_norm = float(_np.linalg.norm(b.astype(_np.float64)))
    tol = max(rtol, atol / b_norm) if b_norm > 0 else rtol
    context = A.context if isinstance(A, CsrMatrix) else None
    x, info = _solve(method, A, b, tol, maxiter, jacobi, context, x0, precondition, callback)
    if info["converged"]:
        return x, 0
    if info["stop_reason"].startswith("iteration limit"):
        return x, info["iterations"]  # SciPy: not converged within maxiter
    return x, -1  # a breakdown (SciPy: illegal input or breakdown)


@_shared_doc
def cg(A: Any, b: Vector, x0: Optional[Vector] = None, *, rtol: float = 1e-05, atol: float = 0.0,
       maxiter: Optional[int] = None, M: Any = None,
       callback: Optional[Callable[..., Any]] = None) -> Tuple[Any, int]:
    """``scipy.sparse.linalg.cg`` on the device.

    Parameters
    ----------
    A : scipy.sparse matrix or CsrMatrix
        Symmetric positive definite.
    $scipy_solve

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, portacl
    >>> A = sp.diags([1.0, 2.0, 4.0]).tocsr()
    >>> x, info = portacl.sparse.cg(A, np.array([1.0, 2.0, 4.0]))
    >>> bool(np.allclose(x, 1.0)), info
    (True, 0)
    """
    return _scipy_solve("cg", A, b, x0, rtol, atol, maxiter, M, callback)


@_shared_doc
def bicgstab(A: Any, b: Vector, x0: Optional[Vector] = None, *, rtol: float = 1e-05, atol: float = 0.0,
             maxiter: Optional[int] = None, M: Any = None,
             callback: Optional[Callable[..., Any]] = None) -> Tuple[Any, int]:
    """``scipy.sparse.linalg.bicgstab`` on the device.

    Parameters
    ----------
    A : scipy.sparse matrix or CsrMatrix
        Square and non-singular.
    $scipy_solve

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, portacl
    >>> A = sp.csr_matrix(np.array([[4.0, 1.0], [2.0, 3.0]]))
    >>> x, info = portacl.sparse.bicgstab(A, np.array([5.0, 5.0]))
    >>> bool(np.allclose(x, 1.0)), info
    (True, 0)
    """
    return _scipy_solve("bicgstab", A, b, x0, rtol, atol, maxiter, M, callback)
