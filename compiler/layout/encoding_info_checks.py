"""The checks an `encoding_info` must pass, without numpy.

The resolvers' verifiers run them when a resolver carrying an `encoding_info` is
built, and `#iree_encoding.layout` again against the rank of the tensor it is attached
to; so this module must stay as light as the dialects: no layout algebra, no numpy.
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


def verify_encoding_info(info: MaterializeEncodingInfo, rank: int | None) -> None:
    """The checks `linalg.pack` and `TileSwizzle::verify` make, as EncodingInfoError.

    With `rank` None (the attribute alone, no tensor yet) the rank is that of
    `outerDimsPerm` when it is given; dims are only checked to be non-negative otherwise.
    """
    if rank is None:
        if info.outer_dims_perm:
            rank = len(info.outer_dims_perm)
        elif any(d < 0 for d in info.inner_dims_pos):
            raise EncodingInfoError(f"innerDimsPos {_list(info.inner_dims_pos)} holds a negative dim")
        else:
            rank = max(info.inner_dims_pos, default=-1) + 1
    if len(info.inner_dims_pos) != len(info.inner_tile_sizes):
        raise EncodingInfoError(
            f"innerDimsPos has {len(info.inner_dims_pos)} entries but innerTileSizes has {len(info.inner_tile_sizes)}"
        )
    if len(set(info.inner_dims_pos)) != len(info.inner_dims_pos) or any(
        not 0 <= d < rank for d in info.inner_dims_pos
    ):
        raise EncodingInfoError(f"innerDimsPos {_list(info.inner_dims_pos)} is not a set of dims of a rank-{rank} tensor")
    if any(t != DYNAMIC and t <= 0 for t in info.inner_tile_sizes):
        raise EncodingInfoError(f"innerTileSizes {_list(info.inner_tile_sizes)} must be positive")
    if info.outer_dims_perm and sorted(info.outer_dims_perm) != list(range(rank)):
        raise EncodingInfoError(f"outerDimsPerm {_list(info.outer_dims_perm)} is not a permutation of {rank} dims")
    if info.scalable_tiles is not None and len(info.scalable_tiles) != len(info.inner_tile_sizes):
        raise EncodingInfoError("scalableTiles must have one entry per inner tile")
    swizzle = info.swizzle
    if swizzle is not None:
        message = swizzle.verify()
        if message:
            raise EncodingInfoError(message)
        if len(swizzle.expand_shape) != len(info.inner_tile_sizes):
            raise EncodingInfoError(
                f"swizzle has {len(swizzle.expand_shape)} expandShape groups but there are "
                f"{len(info.inner_tile_sizes)} inner tiles"
            )
        for group, tile in zip(swizzle.expand_shape, inner_tiles(info)):
            product = 1
            for dim in group:
                product *= dim.size
            if tile is not None and product != tile:
                raise EncodingInfoError(f"swizzle group of sizes {[d.size for d in group]} does not multiply to {tile}")




def verify_resolved_layout(layout: object, rank: int | None) -> None:
    """Raise VerifyException if the `encoding_info` a resolver carries (if any) is not a
    pack of a rank-`rank` tensor (of any rank when None)."""
    from xdsl.utils.exceptions import VerifyException

    info = getattr(layout, "encoding_info", None)
    if not isinstance(info, MaterializeEncodingInfo):
        return
    try:
        verify_encoding_info(info, rank)
    except EncodingInfoError as err:
        raise VerifyException(f"invalid encoding_info: {err}") from None


def verify_resolver(self: EncodingResolverAttr) -> None:
    """`verify` of the resolvers: their own checks, then those of the `encoding_info`
    they may carry, which need no tensor."""
    EncodingResolverAttr.verify(self)
    verify_resolved_layout(self, None)
