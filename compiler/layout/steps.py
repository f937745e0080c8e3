"""The three moves every packed layout is made of: pad, reshape, transpose.

A layout (XLA's `{1,0:T(2,2)}` or IREE's `encoding_info`) stores a logical
tensor as a chain of these steps; the physical buffer is the row-major order of
the last step's result. Each step knows

- its result shape (`None` stands for a dynamic size, MLIR's `?`),
- how it moves whole index arrays forward (logical -> physical) and backward
  (physical -> logical, with a mask saying which positions are padding),
- how to run itself on a numpy array.

Index functions take a list with one integer numpy array per dimension, so a
whole grid of indices moves in one call; nothing here loops over elements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

import numpy as np

from .shapes import Shape, format_shape, inverse_permutation, is_identity

# `inverse_permutation` and `is_identity` live in `shapes.py` (no numpy); importers of this module still find them here.
__all__ = [
    "Pad",
    "Reshape",
    "Step",
    "Transpose",
    "inverse_permutation",
    "is_identity",
    "num_elements",
    "ravel",
    "static",
    "unravel",
]

Index = list[np.ndarray]
"""One integer array per dimension (all broadcastable to a common shape)."""


def static(shape: Shape, what: str) -> tuple[int, ...]:
    """The shape with every size known, or a ValueError naming `what` needs it."""
    if any(d is None for d in shape):
        raise ValueError(f"{what} needs a static shape, got {format_shape(shape) or 'rank 0'}")
    return tuple(int(d) for d in shape)  # type: ignore[arg-type]


def ravel(index: Index, shape: Sequence[int]) -> np.ndarray:
    """Row-major linear index of `index` in `shape` (rank 0 -> 0)."""
    linear = np.zeros(np.broadcast_shapes(*(np.shape(i) for i in index)) if index else (), dtype=np.int64)
    for component, size in zip(index, shape):
        linear = linear * size + component
    return linear


def unravel(linear: np.ndarray, shape: Sequence[int]) -> Index:
    """Inverse of `ravel`: split row-major offsets into per-dimension indices."""
    index: Index = []
    rest = np.asarray(linear, dtype=np.int64)
    for size in reversed(shape):
        index.append(rest % size)
        rest = rest // size
    return index[::-1]


@dataclass(frozen=True)
class Pad:
    """Pad each dimension at its high end up to `shape` (`tensor.pad`)."""

    shape: Shape

    def result_shape(self, source: Shape) -> Shape:
        return self.shape

    def forward(self, index: Index, source: Shape) -> Index:
        return index

    def backward(self, index: Index, source: Shape) -> tuple[Index, np.ndarray]:
        # A position is padding when any coordinate falls beyond the source size.
        inside = np.ones(np.broadcast_shapes(*(np.shape(i) for i in index)) if index else (), dtype=bool)
        for component, size in zip(index, static(source, "pad")):
            inside = inside & (component < size)
        return index, inside

    def run(self, array: np.ndarray, padding_value: float = 0) -> np.ndarray:
        target = static(self.shape, "pad")
        if tuple(target) == array.shape:
            return array
        # Write the source once and only the padding regions besides: np.pad is
        # several times slower for the thin paddings packs need.
        out = np.empty(target, array.dtype)
        out[tuple(slice(0, s) for s in array.shape)] = array
        for dim, size in enumerate(array.shape):
            if size < target[dim]:
                out[(slice(None),) * dim + (slice(size, None),)] = padding_value
        return out

    def undo(self, array: np.ndarray, source: Shape) -> np.ndarray:
        """Drop the padding again (a view)."""
        return array[tuple(slice(0, s) for s in static(source, "unpad"))]

    def describe(self, source: Shape) -> str:
        return f"pad {format_shape(source)} -> {format_shape(self.shape)}"


@dataclass(frozen=True)
class Reshape:
    """A row-major reshape: a bitcast, no data moves (`tensor.expand_shape` /
    `tensor.collapse_shape`).

    `reassociation[i]` lists the result dims made from source dim i (expansion)
    or, when `collapse` is set, the source dims merged into result dim i. XLA's
    "prepend unit dims" also fits: the unit dims join the first group.
    """

    shape: Shape
    reassociation: tuple[tuple[int, ...], ...]
    collapse: bool = False

    def result_shape(self, source: Shape) -> Shape:
        return self.shape

    def forward(self, index: Index, source: Shape) -> Index:
        return unravel(ravel(index, static(source, "reshape")), static(self.shape, "reshape"))

    def backward(self, index: Index, source: Shape) -> tuple[Index, np.ndarray]:
        moved = unravel(ravel(index, static(self.shape, "reshape")), static(source, "reshape"))
        return moved, np.ones(np.shape(moved[0]) if moved else (), dtype=bool)

    def run(self, array: np.ndarray, padding_value: float = 0) -> np.ndarray:
        return array.reshape(static(self.shape, "reshape"))

    def undo(self, array: np.ndarray, source: Shape) -> np.ndarray:
        return array.reshape(static(source, "reshape"))

    def describe(self, source: Shape) -> str:
        verb = "collapse" if self.collapse else "reshape"
        groups = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in self.reassociation)
        return f"{verb} {format_shape(source) or '(scalar)'} -> {format_shape(self.shape)}  (reassociation [{groups}])"


@dataclass(frozen=True)
class Transpose:
    """Permute dimensions: result dim j is source dim `permutation[j]`
    (`linalg.transpose`'s convention)."""

    permutation: tuple[int, ...]

    def result_shape(self, source: Shape) -> Shape:
        return tuple(source[p] for p in self.permutation)

    def forward(self, index: Index, source: Shape) -> Index:
        return [index[p] for p in self.permutation]

    def backward(self, index: Index, source: Shape) -> tuple[Index, np.ndarray]:
        restored: Index = [index[0]] * len(index)
        for result_dim, source_dim in enumerate(self.permutation):
            restored[source_dim] = index[result_dim]
        return restored, np.ones(np.shape(index[0]) if index else (), dtype=bool)

    def run(self, array: np.ndarray, padding_value: float = 0) -> np.ndarray:
        return np.transpose(array, self.permutation)

    def undo(self, array: np.ndarray, source: Shape) -> np.ndarray:
        return np.transpose(array, inverse_permutation(self.permutation))

    def describe(self, source: Shape) -> str:
        perm = ", ".join(map(str, self.permutation))
        return f"transpose {format_shape(source)} -> {format_shape(self.result_shape(source))}  (permutation [{perm}])"


Step = Pad | Reshape | Transpose


def num_elements(shape: Shape) -> int | None:
    """Product of the sizes, None if any is dynamic."""
    return None if any(d is None for d in shape) else prod(shape)  # type: ignore[arg-type]
