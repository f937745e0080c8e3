"""Contractions as matrix products: which loops are rows, columns and depth, and each operand as a
matrix BLAS can take.

A contraction's loops are batch (in both inputs and the output), contracted (in
both inputs only), or free in one input. Gathering each operand's loops into
rows and columns makes it a (batch of) matrix: a view of the operand when its
strides allow, else a copy, laid out whichever way numpy copies faster (BLAS
takes a matrix or its transpose alike). The product comes back as a matrix and
is laid out as the output's loops say, as a view.

Which layout an operand's copy takes decides the product's bits: BLAS may sum
in another order for a transposed operand. ``padded_products.py`` builds its
matrices the same way for that reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mini_iree.compiler.interpreter.buffers import BufferPool
from mini_iree.compiler.interpreter.relayout_view import copy_into

__all__ = ["as_matrix", "contract", "laid_out", "loop_roles", "matrix_form", "matrix_views", "plain_matmul_roles"]


def contract(
    a: np.ndarray,
    a_dims: Sequence[int],
    b: np.ndarray,
    b_dims: Sequence[int],
    c_dims: Sequence[int],
    sizes: Sequence[int],
    pool: BufferPool | None = None,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """``sum over the other dims of a * b``, laid out as ``c_dims``: one batched ``np.matmul``.

    Dimensions are classified as batch (in a, b and c), contracted (a and b),
    free in a, free in b; dimensions in only one input are summed first.
    Operand copies and the product take their memory from ``pool`` when given
    (large arrays a repeated call would otherwise allocate afresh each time).
    ``out``, when given, is memory the product may be written to instead (used
    when it has the product's size and dtype and is C-contiguous).
    """
    a_dims, b_dims, c_dims = list(a_dims), list(b_dims), list(c_dims)
    for dims, name in ((a_dims, "a"), (b_dims, "b")):
        other = b_dims if name == "a" else a_dims
        lonely = [d for d in dims if d not in other and d not in c_dims]
        if lonely:
            axes = tuple(dims.index(d) for d in lonely)
            if name == "a":
                a = a.sum(axis=axes, dtype=a.dtype)
                a_dims = [d for d in a_dims if d not in lonely]
            else:
                b = b.sum(axis=axes, dtype=b.dtype)
                b_dims = [d for d in b_dims if d not in lonely]
    batch, contracted, free_a, free_b = loop_roles(a_dims, b_dims, c_dims)

    def size(dims: Sequence[int]) -> int:
        return math.prod([sizes[d] for d in dims])

    lead = [size(batch)] if batch else []
    a2 = as_matrix(a, a_dims, batch, free_a, contracted, lead + [size(free_a), size(contracted)], pool)
    b2 = as_matrix(b, b_dims, batch, contracted, free_b, lead + [size(contracted), size(free_b)], pool)
    rows, cols = a2.shape[-2], b2.shape[-1]
    if (
        out is not None
        and not batch
        and a2.dtype == b2.dtype == out.dtype
        and out.flags.c_contiguous
        and out.size == rows * cols
    ):
        product = np.matmul(a2, b2, out=out.reshape(rows, cols))
    elif pool is not None and a2.dtype == b2.dtype:
        product = np.matmul(a2, b2, out=pool.empty(a2.shape[:-1] + b2.shape[-1:], a2.dtype))
    else:
        product = np.matmul(a2, b2)
    return laid_out(product, batch + free_a + free_b, c_dims, sizes)


def loop_roles(a_dims: list, b_dims: list, c_dims: list) -> tuple[list, list, list, list]:
    """``(batch, contracted, free in a, free in b)`` loops of a contraction whose loops are all
    in the output or in both inputs (those in one input only are summed first)."""
    batch = [d for d in a_dims if d in b_dims and d in c_dims]
    contracted = [d for d in a_dims if d in b_dims and d not in c_dims]
    free_a = [d for d in a_dims if d not in b_dims]
    free_b = [d for d in b_dims if d not in a_dims]
    return batch, contracted, free_a, free_b


def plain_matmul_roles(a_dims: list, b_dims: list, c_dims: list) -> tuple[list, list, list] | None:
    """``(contracted, free in a, free in b)`` when the contraction is one matrix product: no
    batch loops, no loop in a single input only; else None."""
    if any(d not in b_dims and d not in c_dims for d in a_dims) or any(d not in a_dims and d not in c_dims for d in b_dims):
        return None
    batch, contracted, free_a, free_b = loop_roles(a_dims, b_dims, c_dims)
    return None if batch else (contracted, free_a, free_b)


def laid_out(product: np.ndarray, have: list, c_dims: Sequence[int], sizes: Sequence[int]) -> np.ndarray:
    """A product over the loops ``have`` (batch, free of a, free of b) laid out as ``c_dims``."""
    product = product.reshape([sizes[d] for d in have])
    if len(have) == len(c_dims):
        # Every output dimension is a loop of the product: a read-only transposed view, as the
        # broadcast below would give (np.broadcast_to costs more than a small product's layout).
        product = product.transpose([have.index(d) for d in c_dims]).view()
        product.flags.writeable = False
        return product
    # Dimensions only the output has: the product is the same along them.
    for d in c_dims:
        if d not in have:
            product = product[..., None]
            have.append(d)
    product = np.transpose(product, [have.index(d) for d in c_dims])
    return np.broadcast_to(product, [sizes[d] for d in c_dims])


def as_matrix(
    x: np.ndarray, dims: list, batch: list, rows: list, cols: list, shape: list, pool: BufferPool | None = None
) -> np.ndarray:
    """``x`` as a (batch of) ``rows x cols`` matrix: a view if one exists, else the cheaper copy.

    BLAS takes a matrix or its transpose alike, so the copy may be laid out
    ``cols x rows`` and handed over transposed. numpy copies fastest when the
    new innermost axis is long (a tiled operand, e.g. mmt4d's ``N1xK1xN0xK0``
    RHS, copies several times faster as ``N x K`` than as ``K x N``). The copy
    lands in a buffer of ``pool`` when given.
    """
    matrix, view, target, transposed = matrix_form(x, dims, batch, rows, cols, shape, pool is not None)
    if matrix is not None:
        return matrix
    if pool is not None:
        # The same C-order copy numpy's reshape makes, into a reused buffer.
        copy = pool.empty(view.shape, view.dtype)
        copy_into(copy, view)
        matrix = copy.reshape(target)
    else:
        matrix = view.reshape(target)
    return np.swapaxes(matrix, -1, -2) if transposed else matrix


def matrix_form(x: np.ndarray, dims: list, batch: list, rows: list, cols: list, shape: list, pooled: bool) -> tuple:
    """How :func:`as_matrix` makes its matrix, from ``x``'s shape and strides alone (its
    elements are not read): ``(the matrix, the axes' permutation, the matrix shape it is reshaped
    to, whether that is the transpose)`` when it is a view of ``x``, else ``(None, the view to
    copy, the copy's matrix shape, whether the copy is the transpose)``."""
    forms = []
    for first, second, transposed in ((rows, cols, False), (cols, rows, True)):
        view = np.transpose(x, [dims.index(d) for d in batch + first + second])
        target = shape if not transposed else shape[:-2] + [shape[-1], shape[-2]]
        permutation = [dims.index(d) for d in batch + first + second]
        reshaped = _reshaped_view(view, target)
        if reshaped is None:
            forms.append((_inner_run(view), view, target, transposed))
            continue
        return (np.swapaxes(reshaped, -1, -2) if transposed else reshaped), permutation, target, transposed
    _, view, target, transposed = max(forms, key=lambda f: f[0])  # the first form on a tie
    if pooled:
        # ``copy_into`` moves a run contiguous on both sides as one wide item: a form
        # whose source runs are a cache line or more (mmt4d tiles of 16 floats) copies
        # faster that way than a form gathering single elements, however long.
        wide = [f for f in forms if _contiguous_bytes(f[1]) >= 64]
        if wide:
            _, view, target, transposed = max(wide, key=lambda f: _contiguous_bytes(f[1]))
    return None, view, target, transposed


def _reshaped_view(array: np.ndarray, shape: list) -> np.ndarray | None:
    """``array`` reshaped without copying, or None when that needs a copy."""
    try:
        return np.reshape(array, shape, copy=False)
    except ValueError:
        return None
    except TypeError:  # numpy < 2.1: no `copy` argument (setting `shape` copies, then fails)
        view = array.view()
        try:
            view.shape = shape
        except AttributeError:
            return None
        return view


def _contiguous_bytes(view: np.ndarray) -> int:
    """How many bytes at the end of each of ``view``'s C-order rows are contiguous in memory."""
    run = view.itemsize
    for extent, step in zip(reversed(view.shape), reversed(view.strides)):
        if extent == 1:
            continue
        if step != run:
            break
        run *= extent
    return run


def _inner_run(view: np.ndarray) -> int:
    """How many elements a C-order copy of ``view`` takes in one innermost loop."""
    run, stride = 1, None
    for extent, step in zip(reversed(view.shape), reversed(view.strides)):
        if extent == 1:
            continue
        if stride is not None and step != stride * run:
            break
        if stride is None:
            stride = step
        run *= extent
    return run


def matrix_views(a: np.ndarray, a_dims, b: np.ndarray, b_dims, c_dims, sizes, out: np.ndarray):
    """What :func:`contract` does when both operands are matrix views and the product goes to
    ``out``, as a function of the operands and ``out`` (their geometry fixed: a repeated call's);
    None when it is not that case."""
    a_dims, b_dims, c_dims = list(a_dims), list(b_dims), list(c_dims)
    roles = plain_matmul_roles(a_dims, b_dims, c_dims)
    if roles is None:
        return None
    contracted, free_a, free_b = roles
    have = free_a + free_b
    if len(have) != len(c_dims):
        return None
    rows, depth, cols = (math.prod([sizes[d] for d in dims]) for dims in (free_a, contracted, free_b))
    lhs = matrix_form(a, a_dims, [], free_a, contracted, [rows, depth], True)
    rhs = matrix_form(b, b_dims, [], contracted, free_b, [depth, cols], True)
    if lhs[0] is None or rhs[0] is None or not (a.dtype == b.dtype == out.dtype):
        return None
    if not out.flags.c_contiguous or out.size != rows * cols:
        return None
    (_, perm_a, shape_a, swap_a), (_, perm_b, shape_b, swap_b) = lhs, rhs
    shape = [sizes[d] for d in have]
    layout = [have.index(d) for d in c_dims]

    def multiply(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
        a2 = a.transpose(perm_a).reshape(shape_a)
        b2 = b.transpose(perm_b).reshape(shape_b)
        product = np.matmul(a2.T if swap_a else a2, b2.T if swap_b else b2, out=out.reshape(rows, cols))
        product = product.reshape(shape).transpose(layout).view()
        product.flags.writeable = False
        return product

    return multiply

