"""A layout as data: a logical shape and the pad/reshape/transpose chain that
stores it.

Everything a compiler or a user asks of a layout comes from the chain:

- `physical_shape`: the packed shape (the last step's result);
- `linear_index`: where a logical element lives, as an element offset into the
  row-major physical buffer (vectorized over index arrays);
- `delinearize`: the inverse, physical offset -> logical element or padding;
- `padded_elements`: the buffer length in elements (rounded up to the tail
  alignment, XLA's `L(n)`);
- `pack` / `unpack`: the chain executed on a numpy array, step by step;
- `index_exprs`: the chain as affine expressions of the logical indices, the
  form `iree_linalg_ext.map_scatter` folds relayouts into.

XLA's tiled layouts (`xla_layout.py`) and IREE's `encoding_info`
(`iree_encoding.py`) both build a `Relayout`; there is no second copy of the
index arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .steps import Index, Reshape, Shape, Step, Transpose, format_shape, num_elements, ravel, static, unravel


@dataclass(frozen=True)
class Relayout:
    """`logical_shape` stored as `steps` applied in order, then read row-major."""

    logical_shape: Shape
    steps: tuple[Step, ...]
    tail_alignment: int = 1
    """Pad the whole buffer to a multiple of this many elements (XLA's `L(n)`)."""

    # -- shapes ---------------------------------------------------------------

    def shapes(self) -> list[Shape]:
        """The shape before the first step and after each step."""
        shapes = [self.logical_shape]
        for step in self.steps:
            shapes.append(step.result_shape(shapes[-1]))
        return shapes

    @property
    def physical_shape(self) -> Shape:
        return self.shapes()[-1]

    @property
    def rank(self) -> int:
        return len(self.logical_shape)

    def elements(self) -> int | None:
        """Logical element count."""
        return num_elements(self.logical_shape)

    def padded_elements(self) -> int | None:
        """Physical buffer length in elements, padding and tail alignment included."""
        count = num_elements(self.physical_shape)
        if count is None:
            return None
        return -(-count // self.tail_alignment) * self.tail_alignment

    # -- indices ----------------------------------------------------------------

    def physical_index(self, index: Sequence[np.ndarray | int]) -> Index:
        """The physical coordinates of logical `index` (one array per dim)."""
        self._check_rank(index)
        current: Index = [np.asarray(i, dtype=np.int64) for i in index]
        for step, source in zip(self.steps, self.shapes()):
            current = step.forward(current, source)
        return current

    def linear_index(self, index: Sequence[np.ndarray | int]) -> np.ndarray:
        """Element offset of logical `index` in the physical buffer.

        Out-of-bounds indices raise ValueError: a layout says nothing about them.
        """
        self._check_rank(index)
        logical = static(self.logical_shape, "a linear index")
        if any(d is None for d in self.physical_shape):
            raise ValueError(
                f"a linear index needs static tile sizes; the physical shape is {format_shape(self.physical_shape)}"
            )
        arrays = [np.asarray(i, dtype=np.int64) for i in index]
        for dim, (component, size) in enumerate(zip(arrays, logical)):
            if np.any((component < 0) | (component >= size)):
                raise ValueError(f"index out of bounds in dimension {dim} (size {size})")
        return ravel(self.physical_index(arrays), static(self.physical_shape, "a linear index"))

    def delinearize(self, offsets: np.ndarray | int) -> tuple[Index, np.ndarray]:
        """Physical offsets -> (logical indices, is-element mask).

        Where the mask is False the offset holds padding (from tiling or from the
        tail alignment) and the returned indices are meaningless.
        """
        offsets = np.asarray(offsets, dtype=np.int64)
        physical = static(self.physical_shape, "delinearize")
        total = num_elements(physical)
        valid = (offsets >= 0) & (offsets < total)
        current = unravel(np.where(valid, offsets, 0), physical)
        shapes = self.shapes()
        for step, source in reversed(list(zip(self.steps, shapes))):
            current, inside = step.backward(current, source)
            valid = valid & inside
        return current, valid

    def index_grid(self) -> np.ndarray:
        """The linear index of every logical element, as an array of the logical shape."""
        logical = static(self.logical_shape, "an index grid")
        return self.linear_index(list(np.indices(logical, dtype=np.int64))) if logical else self.linear_index([])

    # -- data ---------------------------------------------------------------------

    def pack(self, array: np.ndarray, padding_value: float = 0) -> np.ndarray:
        """Run the chain on `array`; the result has the physical shape."""
        if tuple(array.shape) != static(self.logical_shape, "pack"):
            raise ValueError(f"expected an array of shape {self.logical_shape}, got {array.shape}")
        for step in self.steps:
            array = step.run(array, padding_value)
        return array

    def unpack(self, packed: np.ndarray) -> np.ndarray:
        """The logical array back from its packed form (padding dropped).

        Each step is undone in reverse order (inverse transpose, reshape back,
        slice off the padding), so this costs one copy at most, like
        `linalg.unpack`.
        """
        shapes = self.shapes()
        physical = static(shapes[-1], "unpack")
        if tuple(packed.shape) != tuple(physical):
            # A flat buffer (possibly with XLA's tail padding) holds the same data row-major.
            flat, needed = packed.reshape(-1), int(np.prod(physical, dtype=np.int64))
            if packed.ndim != 1 or flat.size < needed:
                raise ValueError(f"expected an array of shape {shapes[-1]} or a buffer of it, got {packed.shape}")
            packed = flat[:needed].reshape(physical)
        for step, source in zip(reversed(self.steps), reversed(shapes[:-1])):
            packed = step.undo(packed, source)
        return packed

    # -- text -------------------------------------------------------------------------

    def explain(self) -> list[str]:
        """One line per step, with the shapes it maps between."""
        lines = [f"logical shape {format_shape(self.logical_shape) or '(scalar)'}"]
        for step, source in zip(self.steps, self.shapes()):
            lines.append(step.describe(source))
        lines.append(f"physical shape {format_shape(self.physical_shape) or '(scalar)'}, read row-major")
        if self.tail_alignment != 1:
            lines.append(f"buffer length rounded up to a multiple of {self.tail_alignment} elements")
        return lines

    def index_exprs(self):
        """Physical coordinates as xDSL `AffineExpr`s of the logical dims d0..dn-1.

        Pads leave indices alone, transposes permute them, and a reshape turns
        into the floordiv/mod (expansion) or multiply-add (collapse) of its row-major
        linearization. This is the index map a `map_scatter` body computes.
        """
        from xdsl.ir.affine import AffineExpr

        exprs = [AffineExpr.dimension(i) for i in range(self.rank)]
        for step, source in zip(self.steps, self.shapes()):
            if isinstance(step, Transpose):
                exprs = [exprs[p] for p in step.permutation]
            elif isinstance(step, Reshape):
                exprs = _reshape_exprs(exprs, static(source, "index expressions"), step)
        return exprs

    def _check_rank(self, index: Sequence[object]) -> None:
        if len(index) != self.rank:
            raise ValueError(f"expected {self.rank} indices, got {len(index)}")


def _reshape_exprs(exprs, source: tuple[int, ...], step: Reshape):
    """Affine form of a row-major reshape, one reassociation group at a time."""
    from xdsl.ir.affine import AffineExpr

    target = static(step.shape, "index expressions")
    result = [AffineExpr.constant(0)] * len(target)
    if step.collapse:
        for out_dim, group in enumerate(step.reassociation):
            linear = AffineExpr.constant(0)
            for d in group:
                linear = linear * source[d] + exprs[d]
            result[out_dim] = linear
        return result
    if not source:  # rank-0 source: every result dim is a unit dim at index 0.
        return result
    for src_dim, group in enumerate(step.reassociation):
        stride = 1
        for d in reversed(group):
            value = exprs[src_dim] if stride == 1 else exprs[src_dim] // stride
            # The outermost dim of a group needs no `mod`: the source index is in bounds.
            result[d] = value if d == group[0] else value % target[d]
            stride *= target[d]
    return result

