"""IREE's serialized encoding layout (`encoding_info`) on the layout algebra.

A resolver stores its choice as

    encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1],
                     swizzle = {expandShape = [[["CrossThread", 4 : i16], ...], ...], permutation = [...]}}

which reads: `linalg.pack` the tensor (pad the `innerDimsPos` dims to multiples
of `innerTileSizes`, split them, put the outer dims in `outerDimsPerm` order and
the inner tiles after them), then split each inner tile dim into its
`expandShape` group and permute the flattened groups by `permutation`. That is
the same pad -> reshape -> transpose chain as XLA's tiles, so it becomes a
`Relayout` and shares every index function with XLA layouts.

The attribute itself is read by `MaterializeEncodingInfo` (dialects/iree_codegen);
a dynamic inner tile size is IREE's `ShapedType::kDynamic` (INT64_MIN).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import DYNAMIC_INDEX

from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo, SwizzleDim, SwizzleDimKind, TileSwizzle

from .encoding_info_checks import EncodingInfoError, inner_tiles, verify_encoding_info
from .materialization import CollapseShapeOp, ExpandShapeOp, MaterializationOp, PackOp, TransposeOp, UnPackOp
from .pack_lowering import Slice, pack_steps
from .relayout import Relayout
from .shapes import packed_shape
from .size_expr import Const, Dim, SizeExpr, ceildiv
from .steps import Reshape, Shape, Step, Transpose, inverse_permutation, is_identity

DYNAMIC = DYNAMIC_INDEX
"""`ShapedType::kDynamic` (xDSL's `DYNAMIC_INDEX`), how a dynamic inner tile size is serialized."""


def parse_encoding_info(text: str) -> MaterializeEncodingInfo:
    """Parse the walkthrough's `{innerDimsPos = [...], ...}` dictionary.

    An optional `encoding_info = ` prefix is accepted, so a line copied from a
    resolver's configuration works as it is.
    """
    from xdsl.context import Context
    from xdsl.dialects.builtin import Builtin
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    body = text.strip()
    if body.startswith("encoding_info"):
        body = body[len("encoding_info") :].lstrip().removeprefix("=").lstrip()
    ctx = Context()
    ctx.load_dialect(Builtin)
    try:
        parser = Parser(ctx, body, "<encoding-info>")
        attr = parser.parse_attribute()
    except ParseError as err:
        first = str(err).strip().splitlines()
        raise EncodingInfoError(f"cannot parse encoding_info: {first[-1] if first else err}") from None
    info = MaterializeEncodingInfo.from_attr(attr)
    if info is None:
        raise EncodingInfoError(
            "encoding_info must be {innerDimsPos = [...], innerTileSizes = [...], outerDimsPerm = [...]"
            "[, swizzle = {expandShape = [...], permutation = [...]}]}"
        )
    return info


def _swizzle_dim_text(dim: SwizzleDim) -> str:
    # The walkthrough's form: defaults (distribution factor 1, multiplier "One") omitted.
    text = f'["{dim.kind.value}", {dim.size} : i16'
    if dim.kind is SwizzleDimKind.CROSS_THREAD and dim.distribution_factor != 1:
        text += f", {dim.distribution_factor} : i8"
    if dim.kind is SwizzleDimKind.INTERNAL and dim.symbolic_multiplier != "One":
        text += f', "{dim.symbolic_multiplier}"'
    return text + "]"


def _list(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def format_encoding_info(info: MaterializeEncodingInfo) -> str:
    """Print `info` the way the walkthrough prints a resolver's `encoding_info`."""
    parts = [
        f"innerDimsPos = {_list(info.inner_dims_pos)}",
        f"innerTileSizes = {_list(info.inner_tile_sizes)}",
        f"outerDimsPerm = {_list(info.outer_dims_perm)}",
    ]
    if info.scalable_tiles is not None:
        parts.append("scalableTiles = [" + ", ".join("true" if s else "false" for s in info.scalable_tiles) + "]")
    if info.swizzle is not None:
        groups = ", ".join("[" + ", ".join(_swizzle_dim_text(d) for d in g) + "]" for g in info.swizzle.expand_shape)
        parts.append(f"swizzle = {{expandShape = [{groups}], permutation = {_list(info.swizzle.permutation)}}}")
    return "{" + ", ".join(parts) + "}"


def _outer_perm(info: MaterializeEncodingInfo, rank: int) -> tuple[int, ...]:
    return tuple(info.outer_dims_perm) if info.outer_dims_perm else tuple(range(rank))


def packed_tensor_shape(info: MaterializeEncodingInfo, shape: Shape) -> Shape:
    """`linalg.pack`'s result: permuted outer dims (ceil for tiled ones), then the tiles."""
    return packed_shape(shape, info.inner_dims_pos, inner_tiles(info), _outer_perm(info, len(shape)))


def swizzle_expanded_shape(swizzle: TileSwizzle) -> tuple[int, ...]:
    return tuple(d.size for d in swizzle.flat_dims())


def swizzle_reassociation(rank: int, swizzle: TileSwizzle) -> tuple[tuple[int, ...], ...]:
    """`expand_shape` groups: one per outer dim, then one per inner tile dim."""
    groups = [(d,) for d in range(rank)]
    next_dim = rank
    for group in swizzle.expand_shape:
        groups.append(tuple(range(next_dim, next_dim + len(group))))
        next_dim += len(group)
    return tuple(groups)


def swizzle_permutation(rank: int, swizzle: TileSwizzle) -> tuple[int, ...]:
    """The `linalg.transpose` permutation: outer dims stay, the tile dims follow `permutation`."""
    return tuple(range(rank)) + tuple(rank + p for p in swizzle.permutation)


def swizzle_transpose_is_layout_noop(swizzle: TileSwizzle) -> bool:
    """Whether the swizzle's permutation keeps its non-unit dims in order (IREE's
    isSwizzlePermutationLayoutNoOp).

    Unit dims span no memory, so such a transpose moves no data: the expanded
    and the permuted tile have the same linearized layout.
    """
    sizes = swizzle_expanded_shape(swizzle)
    previous = -1
    for source in swizzle.permutation:
        if sizes[source] == 1:
            continue
        if source < previous:
            return False
        previous = source
    return True


def swizzle_folded_reassociation(
    rank: int, tiles: Sequence[int | None], swizzle: TileSwizzle
) -> tuple[tuple[int, ...], ...] | None:
    """The one reshape between the packed tile (`tiles`) and the permuted swizzled
    tile that stands for a layout no-op transpose (IREE's getSwizzleFoldedReassociation).

    Each tile takes the next permuted dims until their product reaches it (at
    least one dim, so a tile of 1 is not empty); the unit dims left at the end go
    to the last tile. None when the permuted dims cannot be grouped that way: a
    later tile's non-unit dim placed before an earlier all-unit tile's dims.
    """
    permuted = [swizzle_expanded_shape(swizzle)[p] for p in swizzle.permutation]
    groups: list[tuple[int, ...]] = [(d,) for d in range(rank)]
    index = 0
    for tile in tiles:
        if tile is None:
            return None
        group: list[int] = []
        product = 1
        while True:
            if index >= len(permuted):
                return None
            group.append(rank + index)
            product *= permuted[index]
            index += 1
            if product >= tile:
                break
        if product != tile:
            return None
        groups.append(tuple(group))
    if any(size != 1 for size in permuted[index:]):
        return None
    groups[-1] += tuple(range(rank + index, rank + len(permuted)))
    return tuple(groups)


def _folded_swizzle_reassociation(info: MaterializeEncodingInfo, rank: int) -> tuple[tuple[int, ...], ...] | None:
    """The single reshape a swizzle lowers to when its transpose moves no data, else None."""
    swizzle = info.swizzle
    if swizzle is None or not swizzle_transpose_is_layout_noop(swizzle):
        return None
    return swizzle_folded_reassociation(rank, inner_tiles(info), swizzle)


def swizzle_steps(outer_shape: Shape, swizzle: TileSwizzle) -> list[Step]:
    """The `tensor.expand_shape` + `linalg.transpose` a swizzle adds after the pack.

    Identity steps are left out (a swizzle that splits nothing, or keeps the order).
    """
    rank = len(outer_shape)
    steps: list[Step] = []
    expanded_shape = tuple(outer_shape) + swizzle_expanded_shape(swizzle)
    if len(expanded_shape) != rank + len(swizzle.expand_shape):
        steps.append(Reshape(expanded_shape, swizzle_reassociation(rank, swizzle)))
    perm = swizzle_permutation(rank, swizzle)
    if not is_identity(perm):
        steps.append(Transpose(perm))
    return steps


def swizzle_relayout(outer_shape: Shape, swizzle: TileSwizzle) -> Relayout:
    """A packed tensor (outer dims x one dim per inner tile) to its swizzled form."""
    tiles = tuple(prod(d.size for d in group) for group in swizzle.expand_shape)
    return Relayout(tuple(outer_shape) + tiles, tuple(swizzle_steps(outer_shape, swizzle)))


def encoding_relayout(info: MaterializeEncodingInfo, shape: Shape) -> Relayout:
    """The chain `linalg.pack` (+ swizzle expand_shape + transpose) stands for.

    The pack's steps are `lowerPack`'s (`pack_lowering.py`) on the static shape;
    a dynamic dim or inner tile is a size read at run time. A dynamic dim with a
    tile other than 1 keeps its pad step, so the chain reads like pack; a reshape
    or transpose that moves nothing is left out.
    """
    rank = len(shape)
    verify_encoding_info(info, rank)
    sizes = [Dim(("dim", d)) if extent is None else Const(extent) for d, extent in enumerate(shape)]
    tiles = [
        Dim(("inner tile", k)) if tile is None else Const(tile) for k, tile in enumerate(inner_tiles(info))
    ]
    steps: list[Step] = []
    for sized in pack_steps(sizes, info.inner_dims_pos, tiles, _outer_perm(info, rank)):
        step = sized.step
        if isinstance(step, Reshape) and len(step.shape) == rank:
            continue
        if isinstance(step, Transpose) and is_identity(step.permutation):
            continue
        assert not isinstance(step, Slice)
        steps.append(step)
    if info.swizzle is not None:
        steps += swizzle_steps(packed_tensor_shape(info, shape)[:rank], info.swizzle)
    return Relayout(tuple(shape), tuple(steps))


def materialization_ops(
    info: MaterializeEncodingInfo, shape: Shape, fold_noop_swizzle: bool = False
) -> list[MaterializationOp]:
    """`set_encoding` lowered: pack, then (with a swizzle) expand_shape and transpose.

    With `fold_noop_swizzle` (IREE 3.13), a swizzle whose transpose only moves
    unit dims is one expand_shape straight into the permuted shape, and nothing
    at all when that reshape changes no shape (the folded expand_shape).
    """
    rank = len(shape)
    verify_encoding_info(info, rank)
    packed = packed_tensor_shape(info, shape)
    ops: list[MaterializationOp] = [
        PackOp(tuple(info.inner_dims_pos), inner_tiles(info), _outer_perm(info, rank), packed)
    ]
    swizzle = info.swizzle
    folded = _folded_swizzle_reassociation(info, rank) if fold_noop_swizzle else None
    if swizzle is not None and folded is not None:
        permuted = tuple(packed[:rank]) + tuple(swizzle.swizzled_shape())
        if len(permuted) != len(packed):
            ops.append(ExpandShapeOp(folded, permuted))
    elif swizzle is not None:
        expanded = tuple(packed[:rank]) + swizzle_expanded_shape(swizzle)
        ops.append(ExpandShapeOp(swizzle_reassociation(rank, swizzle), expanded))
        perm = swizzle_permutation(rank, swizzle)
        ops.append(TransposeOp(perm, tuple(expanded[p] for p in perm)))
    return ops


def unmaterialization_ops(
    info: MaterializeEncodingInfo, shape: Shape, fold_noop_swizzle: bool = False
) -> list[MaterializationOp]:
    """`unset_encoding` lowered: inverse transpose, collapse_shape, unpack.

    With `fold_noop_swizzle`, the inverse of `materialization_ops`' folded
    swizzle: one collapse_shape, or nothing.
    """
    forward = materialization_ops(info, shape, fold_noop_swizzle)
    pack = forward[0]
    assert isinstance(pack, PackOp)
    ops: list[MaterializationOp] = []
    if len(forward) == 2:
        expand = forward[1]
        assert isinstance(expand, ExpandShapeOp)
        ops.append(CollapseShapeOp(expand.reassociation, pack.result_shape))
    elif info.swizzle is not None and len(forward) == 3:
        expand, transpose = forward[1], forward[2]
        assert isinstance(expand, ExpandShapeOp) and isinstance(transpose, TransposeOp)
        ops.append(TransposeOp(inverse_permutation(transpose.permutation), expand.result_shape))
        ops.append(CollapseShapeOp(expand.reassociation, pack.result_shape))
    ops.append(UnPackOp(pack.inner_dims_pos, pack.inner_tiles, pack.outer_dims_perm, tuple(shape)))
    return ops


def packed_outer_dims(info: MaterializeEncodingInfo, rank: int) -> tuple[tuple[int, int | None], ...]:
    """Where each outer dim of the packed tensor comes from: (source dim, its inner tile or None).

    Outer dim `j` of the pack is source dim `outerDimsPerm[j]`, divided (rounded
    up) by its tile when it is tiled. IR builders turn this into the sizes of a
    packed tensor (`affine.apply ceildiv`) from the sizes of the logical one.
    """
    tile_of = dict(zip(info.inner_dims_pos, inner_tiles(info)))
    return tuple((d, tile_of[d]) if d in tile_of else (d, None) for d in _outer_perm(info, rank))


def packed_outer_sizes(info: MaterializeEncodingInfo, sizes: Sequence[SizeExpr]) -> list[SizeExpr]:
    """The outer sizes of the pack of a tensor of `sizes`: `ceildiv(size, tile)` for a tiled dim.

    A dim whose tile is only known at run time keeps its size (`packed_outer_dims`).
    """
    return [sizes[d] if tile is None else ceildiv(sizes[d], tile) for d, tile in packed_outer_dims(info, len(sizes))]


def materialized_dim_sources(info: MaterializeEncodingInfo, rank: int) -> tuple[tuple[int, int | None], ...]:
    """What each dim of the materialized tensor indexes: (source dim, None) or (source dim, k).

    An outer dim of the pack is `(d, None)`. The inner tile of source dim `d`
    becomes `(d, 0)`, or, under a swizzle, the dims of its `expandShape` group
    `(d, 0), (d, 1), ...` (outermost first), which then move where the swizzle
    permutation puts them. Two encoded tensors whose tiles split a dim into the
    same pieces address the same element through dims with the same source.
    """
    sources: list[tuple[int, int | None]] = [(d, None) for d, _ in packed_outer_dims(info, rank)]
    swizzle = info.swizzle
    if swizzle is None:
        return tuple(sources) + tuple((d, 0) for d in info.inner_dims_pos)
    groups = swizzle_reassociation(rank, swizzle)[rank:]
    for d, group in zip(info.inner_dims_pos, groups):
        sources += [(d, k) for k in range(len(group))]
    return tuple(sources[p] for p in swizzle_permutation(rank, swizzle))


def holds_whole_tiles(info: MaterializeEncodingInfo) -> bool:
    """Whether the swizzle has more groups than the pack has tiles.

    IREE 3.13 gives a GPU matvec/vecmat vector operand the swizzle of a whole
    intrinsic tile (matvec's RHS keeps its N group): its type holds the whole
    tile, but no pack + reshape reaches it (IREE's set_encoding builds an
    expand_shape its verifier rejects).
    """
    return info.swizzle is not None and len(info.swizzle.expand_shape) > len(info.inner_tile_sizes)


def materialized_shape(info: MaterializeEncodingInfo, shape: Shape) -> Shape:
    """The shape of the materialized tensor: the pack's result, swizzled when there is a swizzle.

    A layout that holds whole tiles (`holds_whole_tiles`) has the pack's outer
    dims and the whole swizzled tile, as IREE's type converter builds it.
    """
    if holds_whole_tiles(info):
        assert info.swizzle is not None
        outer = packed_shape(shape, info.inner_dims_pos, inner_tiles(info), _outer_perm(info, len(shape)))
        return tuple(outer[: len(shape)]) + tuple(info.swizzle.swizzled_shape())
    return materialization_ops(info, shape)[-1].result_shape
