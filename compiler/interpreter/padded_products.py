"""Contractions reading padded packs (``relayout_origins.py``), computed from the packs' sources.

A pack with padding puts its source into tiles and the pad value everywhere
past it; an ``mmt4d`` reading the packed buffer as a matrix sees the source
with pad rows or columns around it. The general path gathers that matrix back
from the tiles. Here it comes from the source instead, so the packs need not
have run at all (a replay drops them), in one of two ways:

* **Padded copies** (:func:`_padded_copy`): the source copied into a matrix
  with the pad around it, row- or column-major as the general path's copy of
  the tiles would be (``matrix_products.matrix_form``), because BLAS may sum in
  another order for the other layout. The product is the general path's, bit
  for bit.
* **The sources in place** (:func:`_source_product`): when the contracted
  dimension has no padding and the pad is zero (as the pipeline's packs pad),
  every element of the product within the sources' rows and columns is the dot
  product of a source row and a source column and nothing else. BLAS
  multiplies the sources where they lie, straight into that corner of the
  product. The pad rows and columns are products with zero vectors: zeros, or
  NaN against an infinity or a NaN. No operand is copied, and neither is
  transposed.

The second is used only where it gives the first one's bits. They depend on
the order in which BLAS sums each element, and its kernels fix that order from
the shapes and layouts, never from the values (OpenBLAS, which numpy's wheels
bring, also packs its operands into aligned panels first, so where they lie in
memory does not matter either). So whether the two agree is a property of the
geometry: :func:`_same_bits` multiplies random matrices of that geometry both
ways once, compares every bit, and remembers the answer. Where they differ
(BLAS's small-matrix kernels have one order per layout) or the copies are too
small to be worth a probe, the padded copies are made.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mini_iree.compiler.interpreter.buffers import BufferPool
from mini_iree.compiler.interpreter.matrix_products import as_matrix, laid_out, matrix_form, plain_matmul_roles

__all__ = ["PaddedOperand", "PaddedProduct", "padded_product"]


class PaddedOperand(NamedTuple):
    """A packed operand known as its pack's padded relayout of ``source`` (``relayout_origins.py``):
    ``plan`` puts the source's elements, ``pad``'s one value fills the rest. ``shape`` and
    ``strides`` are the packed operand's own."""

    source: np.ndarray
    plan: Any
    pad: np.ndarray
    shape: tuple[int, ...]
    strides: tuple[int, ...]


class _Matrix(NamedTuple):
    """An operand seen as a ``shape`` matrix: ``core`` in its top-left corner and ``pad`` (a scalar;
    None for an operand without padding, whose ``core`` is the whole matrix) everywhere else.
    ``transposed``: the general path's copy of the operand is column-major."""

    core: np.ndarray
    shape: tuple[int, int]
    pad: Any
    transposed: bool


class _Form(NamedTuple):
    """How an operand is seen as a matrix, from its geometry alone (a repeated call's is the same)."""

    dims: list
    rows: list
    cols: list
    shape: tuple[int, int]  # the matrix's
    swap: bool | None  # a padded pack: whether the matrix holds its source transposed; None: no padding
    transposed: bool  # a padded pack: the general path's copy of it is column-major
    core_shape: tuple[int, int]
    order: str | None  # how BLAS reads the core where it lies: "C", "F", or None (it cannot)

    def matrix(self, x: np.ndarray | PaddedOperand, pool: BufferPool | None) -> _Matrix:
        if self.swap is None:
            return _Matrix(as_matrix(x, self.dims, [], self.rows, self.cols, list(self.shape), pool), self.shape, None, False)
        core = x.source.T if self.swap else x.source  # type: ignore[union-attr]
        return _Matrix(core, self.shape, np.asarray(x.pad).flat[0], self.transposed)  # type: ignore[union-attr]


# Padded copies of fewer bytes than this are always made: they cost less than the sources
# in place save, and nothing is probed for them.
IN_PLACE_MIN_BYTES = 1 << 18

# (dtype, geometry of each operand) -> whether the sources in place give the padded copies' bits.
_SAME_BITS: dict[tuple, bool] = {}


class PaddedProduct:
    """A contraction of padded packs (and plain operands) as one matrix product: which operand is
    which matrix, and whether the sources are multiplied in place. Made from the operands'
    geometry (:func:`padded_product`); a repeated call with the same geometry reuses it."""

    def __init__(self, lhs: _Form, rhs: _Form, have: list, c_dims: list, sizes: Sequence[int], in_place: bool):
        self.lhs, self.rhs = lhs, rhs
        self.have, self.c_dims, self.sizes = have, c_dims, list(sizes)
        self.in_place = in_place

    def __call__(self, a: np.ndarray | PaddedOperand, b: np.ndarray | PaddedOperand, pool: BufferPool | None):
        """The product of ``a`` and ``b`` (of the geometry this was made for), laid out as the output."""
        lhs, rhs = self.lhs.matrix(a, pool), self.rhs.matrix(b, pool)
        shape = (self.lhs.shape[0], self.rhs.shape[1])
        if self.in_place and _zero(lhs.pad) and _zero(rhs.pad):
            product = _source_product(lhs, rhs, _empty(shape, lhs.core.dtype, pool))
        else:
            lhs_copy, rhs_copy = _padded_copy(lhs, pool), _padded_copy(rhs, pool)
            product = np.matmul(lhs_copy, rhs_copy, out=_empty(shape, lhs.core.dtype, pool))
        return laid_out(product, list(self.have), self.c_dims, self.sizes)


def padded_product(
    a: np.ndarray | PaddedOperand,
    a_dims: Sequence[int],
    b: np.ndarray | PaddedOperand,
    b_dims: Sequence[int],
    c_dims: Sequence[int],
    sizes: Sequence[int],
    pooled: bool,
) -> PaddedProduct | None:
    """How to compute the contraction of ``a`` and ``b``, some of them padded packs, from their
    sources (see the module docstring); None when it does not apply (batch loops, loops summed
    alone, a pack that does not read as its source seen as a matrix). ``pooled``: the copies will
    come from a buffer pool (which decides their layout, as for ``matrix_products.as_matrix``)."""
    a_dims, b_dims, c_dims = list(a_dims), list(b_dims), list(c_dims)
    roles = plain_matmul_roles(a_dims, b_dims, c_dims)
    if roles is None:
        return None  # loops summed alone, batch loops: the general path
    contracted, free_a, free_b = roles
    lhs = _operand_form(a, a_dims, free_a, contracted, pooled)
    rhs = _operand_form(b, b_dims, contracted, free_b, pooled)
    dtype = (a.source if isinstance(a, PaddedOperand) else a).dtype
    if lhs is None or rhs is None or (b.source if isinstance(b, PaddedOperand) else b).dtype != dtype:
        return None
    in_place = _in_place_applies(lhs, rhs, dtype) and _same_bits(lhs, rhs, dtype)
    return PaddedProduct(lhs, rhs, free_a + free_b, c_dims, sizes, in_place)


def _empty(shape: tuple[int, int], dtype: np.dtype, pool: BufferPool | None) -> np.ndarray:
    return pool.empty(shape, dtype) if pool is not None else np.empty(shape, dtype)


def _operand_form(x: np.ndarray | PaddedOperand, dims: list, rows: list, cols: list, pooled: bool) -> _Form | None:
    """How ``x`` is seen as a ``rows x cols`` matrix; for a padded pack, as its source with the pad
    around it, or None when it does not read so.

    Each source index must be what its digits (``relayout_view``) add up to in the matrix's
    row or column index: the pack then put source element ``(i, j)`` at matrix position
    ``(i, j)`` (or ``(j, i)``), and the pad value everywhere past the source.
    """
    shape = x.shape if isinstance(x, PaddedOperand) else np.shape(x)
    size = (math.prod([shape[dims.index(d)] for d in rows]), math.prod([shape[dims.index(d)] for d in cols]))
    if not isinstance(x, PaddedOperand):
        matrix, _, _, transposed = matrix_form(x, dims, [], rows, cols, list(size), pooled)
        # A view where BLAS reads it, else a copy: row-major, or column-major when transposed.
        order = _blas_order(matrix) if matrix is not None else ("F" if transposed else "C")
        return _Form(dims, rows, cols, size, None, False, size, order)
    source, plan = x.source, x.plan
    if source.ndim != 2 or len(plan.out_places) != len(shape):
        return None
    weight_in: dict[int, tuple[int, int]] = {}  # id(digit) -> (0: rows or 1: columns, what it adds per unit)
    for group, axes in ((0, [dims.index(d) for d in rows]), (1, [dims.index(d) for d in cols])):
        scale = 1
        for axis in reversed(axes):
            for digit, place in plan.out_places[axis]:
                weight_in[id(digit)] = (group, place * scale)
            scale *= shape[axis]
    group_of: dict[int, int] = {}  # source dim -> 0 (rows) or 1 (columns)
    for digit in plan.digits:
        if digit.extent == 1:
            continue
        found = weight_in.get(id(digit))
        if found is None or found[1] != digit.weight or group_of.setdefault(digit.dim, found[0]) != found[0]:
            return None
    first = group_of.get(0, 1 - group_of.get(1, 1))
    if group_of.get(1, 1 - first) == first:
        return None
    core = source if first == 0 else source.T
    if core.shape[0] > size[0] or core.shape[1] > size[1]:
        return None
    # Whether the general path's copy of the packed operand is column-major: its geometry
    # decides; its elements are not read (a stand-in of its shape and strides over one element).
    stand_in = np.lib.stride_tricks.as_strided(np.empty(1, source.dtype), x.shape, x.strides)
    form, _, _, transposed = matrix_form(stand_in, dims, [], rows, cols, list(size), pooled)
    if form is not None:
        transposed = form.strides[-1] != source.itemsize and form.strides[-2] == source.itemsize
    return _Form(dims, rows, cols, size, first != 0, bool(transposed), core.shape, _blas_order(core))


def _padded_copy(matrix: _Matrix, pool: BufferPool | None) -> np.ndarray:
    """The whole matrix, laid out as the general path's copy would be (an operand without padding: as is)."""
    if matrix.pad is None:
        return matrix.core
    rows, cols = matrix.shape
    buffer = _empty((cols, rows) if matrix.transposed else (rows, cols), matrix.core.dtype, pool)
    whole = buffer.T if matrix.transposed else buffer
    m, n = matrix.core.shape
    whole[:m, :n] = matrix.core
    whole[m:, :] = matrix.pad
    whole[:m, n:] = matrix.pad
    return whole


def _source_product(lhs: _Matrix, rhs: _Matrix, out: np.ndarray) -> np.ndarray:
    """``out`` = the product of the whole matrices, from the cores where they lie (zero pads, none in
    the contracted dimension): the cores' product in the corner, zeros in the pad rows and
    columns. A pad row (all zeros) times a column of the rhs holding an infinity or a NaN is NaN,
    though; such a column is not finite in any row of the corner, so the corner's first row (and
    for pad columns, its first column) tells where that happens, and then the pad rows (columns)
    are computed as the vector products they are."""
    m, depth = lhs.core.shape
    n = rhs.core.shape[1]
    np.matmul(lhs.core, rhs.core, out=out[:m, :n])
    rows, cols = out.shape
    out[m:, :] = 0
    out[:m, n:] = 0
    if out.dtype.kind != "f":
        return out  # integers: zero times anything is zero
    if rows > m and (m == 0 or not np.isfinite(out[0, :n]).all()):
        out[m:, :n] = np.matmul(np.zeros(depth, out.dtype), rhs.core)
    if cols > n and (n == 0 or not np.isfinite(out[:m, 0]).all()):
        out[:m, n:] = np.matmul(lhs.core, np.zeros(depth, out.dtype))[:, None]
    return out


def _blas_order(core: np.ndarray) -> str | None:
    """``"C"`` or ``"F"`` when BLAS can read ``core`` where it lies (one of its axes is unit-stride), else None."""
    if core.strides[1] == core.itemsize or core.shape[1] == 1:
        return "C"
    if core.strides[0] == core.itemsize or core.shape[0] == 1:
        return "F"
    return None


def _zero(pad: Any) -> bool:
    """Whether ``pad`` (a scalar, or None for no padding) is zero, bit for bit (not -0.0)."""
    return pad is None or not np.asarray(pad).tobytes().strip(b"\0")


def _in_place_applies(lhs: _Form, rhs: _Form, dtype: np.dtype) -> bool:
    """Whether the sources in place are worth considering: no pad in the contracted dimension, cores
    BLAS reads as they lie, padded copies big enough to matter."""
    if lhs.core_shape[1] != lhs.shape[1] or rhs.core_shape[0] != rhs.shape[0]:
        return False
    if lhs.order is None or rhs.order is None or dtype.kind not in "fiu":
        return False
    copied = sum(math.prod(x.shape) * dtype.itemsize for x in (lhs, rhs) if x.swap is not None)
    return copied >= IN_PLACE_MIN_BYTES


def _same_bits(lhs: _Form, rhs: _Form, dtype: np.dtype) -> bool:
    """Whether :func:`_source_product` gives the padded copies' product bit for bit for matrices of
    this geometry: probed once on random values (see the module docstring)."""
    key = (dtype.str, lhs[3:], rhs[3:])
    known = _SAME_BITS.get(key)
    if known is None:
        rng = np.random.default_rng(0)
        lhs_, rhs_ = (_random_matrix(x, dtype, rng) for x in (lhs, rhs))
        reference = np.matmul(_padded_copy(lhs_, None), _padded_copy(rhs_, None))
        candidate = _source_product(lhs_, rhs_, np.empty(reference.shape, dtype))
        known = _SAME_BITS[key] = reference.tobytes() == candidate.tobytes()
    return known


def _random_matrix(form: _Form, dtype: np.dtype, rng: np.random.Generator) -> _Matrix:
    """A matrix of ``form``'s geometry (its core in the same layout) with random values, and a zero pad."""
    if dtype.kind == "f":
        core = rng.standard_normal(form.core_shape).astype(dtype)
    else:
        info = np.iinfo(dtype)
        core = rng.integers(max(info.min, -100), min(info.max, 100), form.core_shape, endpoint=True).astype(dtype)
    if form.order == "F":
        core = np.asfortranarray(core)
    return _Matrix(core, form.shape, None if form.swap is None else np.zeros((), dtype)[()], form.transposed)
