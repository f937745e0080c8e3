"""The checks an `encoding_info` must pass, without numpy.

A resolver carrying an `encoding_info` is checked against the tensor type it is
attached to, directly or in an `#iree_encoding.layout` (as IREE verifies it since
2026: a resolver alone is not checked). These are checks of the attribute's own
fields against a rank, like `linalg.pack`'s verifier, so they belong to the
dialects (`iree_codegen`, `iree_encoding` call them); the layout algebra
(compiler/layout) builds on them through `compiler/layout/encoding_info_checks`.
No layout algebra, no numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX

from mini_iree.dialects.iree_codegen import EncodingResolverAttr, MaterializeEncodingInfo

DYNAMIC = DYNAMIC_INDEX


class EncodingInfoError(ValueError):
    """An `encoding_info` that is malformed or does not fit the tensor."""


def _list(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def inner_tiles(info: MaterializeEncodingInfo) -> tuple[int | None, ...]:
    """Inner tile sizes with dynamic (and scalable) sizes as None."""
    scalable = info.scalable_tiles or [False] * len(info.inner_tile_sizes)
    return tuple(None if t == DYNAMIC or s else t for t, s in zip(info.inner_tile_sizes, scalable))


def _check_indices(indices: Sequence[int], field: str, rank: int) -> None:
    seen: set[int] = set()
    for pos in indices:
        if not 0 <= pos < rank:
            raise EncodingInfoError(f"{field} index {pos} is out of bounds for tensor rank {rank}")
        if pos in seen:
            raise EncodingInfoError(f"{field} contains duplicate index {pos}")
        seen.add(pos)


def verify_encoding_info(info: MaterializeEncodingInfo, rank: int) -> None:
    """The checks of a resolved `encoding_info` against a rank-`rank` tensor, as EncodingInfoError.

    IREE's (since 2026) `verifyPackedLayoutWithType`, in its order and words: an
    identity layout passes; the tile lists agree in length; innerDimsPos and
    outerDimsPerm are in bounds and distinct; a swizzle is a permutation of its
    expanded dims, has a group per inner tile and each group multiplies to its
    tile. Then what `linalg.pack` needs further: positive tiles, an outerDimsPerm
    covering every dim, one scalable flag per tile.
    """
    if (
        not info.inner_dims_pos
        and not info.inner_tile_sizes
        and not info.outer_dims_perm
        and info.swizzle is None
        and info.scalable_tiles is None
    ):
        return
    if len(info.inner_dims_pos) != len(info.inner_tile_sizes):
        raise EncodingInfoError(
            f"innerDimsPos size ({len(info.inner_dims_pos)}) does not match innerTileSizes size "
            f"({len(info.inner_tile_sizes)})"
        )
    _check_indices(info.inner_dims_pos, "innerDimsPos", rank)
    _check_indices(info.outer_dims_perm, "outerDimsPerm", rank)
    swizzle = info.swizzle
    if swizzle is not None:
        message = swizzle.verify()
        if message:
            raise EncodingInfoError(message)
        if len(swizzle.expand_shape) != len(info.inner_tile_sizes):
            raise EncodingInfoError(
                f"swizzle expandShape size ({len(swizzle.expand_shape)}) does not match innerTileSizes size "
                f"({len(info.inner_tile_sizes)})"
            )
        for index, (group, tile) in enumerate(zip(swizzle.expand_shape, inner_tiles(info))):
            product = 1
            for dim in group:
                product *= dim.size
            if tile is not None and product != tile:
                raise EncodingInfoError(
                    f"swizzle expandShape[{index}] product ({product}) does not match innerTileSizes[{index}] ({tile})"
                )
    for index, tile in enumerate(info.inner_tile_sizes):
        if tile != DYNAMIC and tile <= 0:
            raise EncodingInfoError(f"innerTileSizes[{index}] ({tile}) must be positive")
    if info.outer_dims_perm and len(info.outer_dims_perm) != rank:
        raise EncodingInfoError(
            f"outerDimsPerm size ({len(info.outer_dims_perm)}) does not match tensor rank ({rank})"
        )
    if info.scalable_tiles is not None and len(info.scalable_tiles) != len(info.inner_tile_sizes):
        raise EncodingInfoError(
            f"scalableTiles size ({len(info.scalable_tiles)}) does not match innerTileSizes size "
            f"({len(info.inner_tile_sizes)})"
        )


def verify_resolved_layout(layout: object, rank: int) -> None:
    """Raise VerifyException if the `encoding_info` a resolver carries (if any) does not
    describe a pack of a rank-`rank` tensor."""
    from xdsl.utils.exceptions import VerifyException

    info = getattr(layout, "encoding_info", None)
    if not isinstance(info, MaterializeEncodingInfo):
        return
    try:
        verify_encoding_info(info, rank)
    except EncodingInfoError as err:
        raise VerifyException(str(err)) from None
