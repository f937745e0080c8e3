"""Shape arithmetic of layouts, with no numpy: what verifiers and passes ask at compile time.

`mini-iree-opt` never imports numpy, yet `linalg.pack`'s verifier, the encoding
passes and the interpreter must agree on one packed shape. The formula lives
here; `steps.py` (the index functions, on numpy arrays) and `iree_encoding.py`
build on it.
"""

from __future__ import annotations

from collections.abc import Sequence

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


def packed_shape(
    shape: Shape, inner_dims_pos: Sequence[int], inner_tiles: Sequence[int | None], outer_dims_perm: Sequence[int] = ()
) -> Shape:
    """`linalg.pack`'s result (MLIR's `PackOp::inferPackedShape`).

    Each tiled dim becomes `ceil(size / tile)` (dynamic if either is), the outer
    dims are put in `outer_dims_perm` order, and the tiles follow them.
    """
    outer = list(shape)
    for dim, tile in zip(inner_dims_pos, inner_tiles, strict=True):
        outer[dim] = ceil_div(shape[dim], tile)
    order = outer_dims_perm or range(len(shape))
    return tuple(outer[p] for p in order) + tuple(inner_tiles)


def inverse_permutation(permutation: Sequence[int]) -> tuple[int, ...]:
    """The permutation that undoes `permutation` (the one inverse of the layout algebra)."""
    inverse = [0] * len(permutation)
    for position, value in enumerate(permutation):
        inverse[value] = position
    return tuple(inverse)


def is_identity(permutation: Sequence[int]) -> bool:
    return list(permutation) == list(range(len(permutation)))
