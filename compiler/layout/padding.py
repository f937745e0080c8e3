"""IREE's `#iree_encoding.padding<[...]>` on the layout algebra: a pad-only layout.

A padding layout keeps the tensor row-major and lengthens some dims at their
high end: the chain is a single `Pad` step to the padded shape (no reshape, no
transpose), so an element's physical index is its logical index in the padded
shape and the pad elements are never read. Host storage sizes
(`storage.py`), the padded binding types of device code
(`compiler/materialize_encoding`) and the interpreter's view of padded
storage all read the padded shape from here.

A pad on a dynamic dim gives a dynamic padded size: only a symbolic size
computation (`storage.py`) can add the pad to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .relayout import Relayout
from .steps import Pad, Shape

__all__ = ["padded_shape", "padding_relayout"]


def padded_shape(padding: Sequence[int], shape: Shape) -> Shape:
    """`shape` with each static dim lengthened by its pad (dynamic dims stay dynamic)."""
    if len(padding) != len(shape):
        raise ValueError(f"padding {list(padding)} does not fit a rank-{len(shape)} tensor")
    if any(pad < 0 for pad in padding):
        raise ValueError(f"unresolved padding amount in {list(padding)}")
    return tuple(None if extent is None else extent + pad for extent, pad in zip(shape, padding))


def padding_relayout(padding: Sequence[int], shape: Shape) -> Relayout:
    """The chain a padding layout stands for: `Pad` to the padded shape (nothing for zero padding)."""
    if not any(padding):
        return Relayout(tuple(shape), ())
    return Relayout(tuple(shape), (Pad(padded_shape(padding, shape)),))
