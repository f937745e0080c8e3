"""Shape arithmetic of layouts, with no numpy: what verifiers and passes ask at compile time.

`mini-iree-opt` never imports numpy, yet `linalg.pack`'s verifier, the encoding
passes and the interpreter must agree on one packed shape. The formula is the
linalg dialect's (`packed_shape`, MLIR's `PackOp::inferPackedShape`: the op's own
type inference), re-exported here; `steps.py` (the index functions, on numpy
arrays) and `iree_encoding.py` build on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from mini_iree.dialects.linalg.relayout_ops import packed_shape

__all__ = ["Shape", "ceil_div", "format_shape", "inverse_permutation", "is_identity", "packed_shape"]

Shape = tuple[int | None, ...]
"""A shape; `None` is a dynamic size."""


def format_shape(shape: Shape) -> str:
    """`(3, None, 4)` -> `3x?x4`, MLIR's spelling (`""` for rank 0)."""
    return "x".join("?" if d is None else str(d) for d in shape)


def ceil_div(a: int | None, b: int | None) -> int | None:
    """Ceiling division that propagates dynamic sizes."""
    if a is None or b is None:
        return None
    return -(-a // b)


def inverse_permutation(permutation: Sequence[int]) -> tuple[int, ...]:
    """The permutation that undoes `permutation` (the one inverse of the layout algebra)."""
    inverse = [0] * len(permutation)
    for position, value in enumerate(permutation):
        inverse[value] = position
    return tuple(inverse)


def is_identity(permutation: Sequence[int]) -> bool:
    return list(permutation) == list(range(len(permutation)))
