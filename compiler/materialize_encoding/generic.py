"""An all-parallel `linalg.generic` on encoded tensors, run on the packed tiles.

IREE's `lowerGenericOpWithResolvedLayouts` (ExternalInterfaces/Utils.cpp),
which every packed-layout resolver (CPU, VMVX, GPU) lowers generics with:

* The first output is the anchor. Every output's indexing map must be a
  permutation; when the anchor's is not the identity, the op is first
  interchanged (`linalg::interchangeGenericOp`) so that it is: the loops
  become the anchor's dims in its order.
* An anchor with an identity layout keeps the op as it is, which needs every
  operand to have an identity layout too.
* Otherwise the new loops are the anchor's materialized dims (outer dims in
  `outerDimsPerm` order, then its tile dims, expanded and permuted by its
  swizzle). Each operand's packed map sends its outer dims to the anchor's
  outer loops, and its tile dims (expanded by its swizzle) to the anchor's
  tile loops of the same logical dim; its swizzle permutation is applied, then
  the inverse of the anchor's, which makes the anchor's own map the identity.
* A `linalg.index` of the body reads a logical index: it is recomputed from
  the packed loops as outer * tile + inner, the inner index recombined from
  the swizzle's expanded dims (IREE's computePackedIndex).
* The op is refused (a `None` result: the conversion fails) when an operand
  has an identity layout, an output's packed map is not a permutation, or a
  packed map cannot index its operand in the anchor's iteration domain (rank,
  or a static size that differs), e.g. two outputs whose tiles differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from mini_iree.dialects import linalg
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo

__all__ = ["interchange_maps", "lower_generic_with_resolved_layouts"]


def _dim_positions(amap: AffineMap) -> list[int] | None:
    if not all(isinstance(r, AffineDimExpr) for r in amap.results):
        return None
    return [r.position for r in amap.results]  # type: ignore[attr-defined]


def _is_permutation(amap: AffineMap) -> bool:
    positions = _dim_positions(amap)
    return positions is not None and sorted(positions) == list(range(amap.num_dims))


def _invert(perm: Sequence[int]) -> list[int]:
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return inverse


def interchange_maps(maps: Sequence[AffineMap], interchange: Sequence[int]) -> list[AffineMap]:
    """The indexing maps after `linalg::interchangeGenericOp`: new loop `i` is old loop
    `interchange[i]`, so old dim `d_j` becomes `d_i` where `interchange[i] == j`."""
    new_position = _invert(interchange)
    return [
        AffineMap(
            m.num_dims,
            m.num_symbols,
            tuple(AffineDimExpr(new_position[r.position]) for r in m.results),  # type: ignore[attr-defined]
        )
        for m in maps
    ]


def _compatible(amap: AffineMap, operand_shape: Sequence[int], domain_shape: Sequence[int]) -> bool:
    """IREE's isCompatibleWithIterationDomain: `amap` indexes the operand in the domain
    (static sizes only are compared)."""
    if amap.num_dims != len(domain_shape) or len(amap.results) != len(operand_shape):
        return False
    for r, size in zip(amap.results, operand_shape):
        position = r.position  # type: ignore[attr-defined]
        if position >= len(domain_shape):
            return False
        loop = domain_shape[position]
        if loop >= 0 and size >= 0 and loop != size:
            return False
    return True


def _swizzle_transpose(rank: int, info: MaterializeEncodingInfo) -> list[int]:
    assert info.swizzle is not None
    return list(range(rank)) + [rank + p for p in info.swizzle.permutation]


def lower_generic_with_resolved_layouts(
    op: linalg.GenericOp,
    infos: Sequence[MaterializeEncodingInfo | None],
    operands: Sequence[SSAValue],
    result_types: Sequence[Attribute],
) -> Operation | None:
    """The generic on the converted `operands` (inputs, then inits), or None when it
    cannot run on their layouts. `infos` are the operands' layouts, in the same order."""
    if any(str(t.data) != "parallel" for t in op.iterator_types.data) or not op.outputs:
        return None
    num_inputs = len(op.inputs)
    maps = [m.data for m in op.indexing_maps.data]
    if not all(_is_permutation(m) for m in maps[num_inputs:]):
        return None
    anchor_positions = _dim_positions(maps[num_inputs])
    assert anchor_positions is not None
    if anchor_positions != list(range(len(anchor_positions))):
        maps = interchange_maps(maps, anchor_positions)
    identity = [i is None or i.is_identity() for i in infos]
    if identity[num_inputs]:
        # The original maps serve only if nothing is packed.
        if not all(identity):
            return None
        generic = _generic(op, operands, maps, len(anchor_positions), result_types)
        _rewrite_indices(generic, lambda dim: _index_ops(_invert(anchor_positions)[dim]))
        return generic

    out_info = infos[num_inputs]
    assert out_info is not None
    out_rank = len(anchor_positions)
    domain = operands[num_inputs].type
    assert isinstance(domain, TensorType)
    domain_shape = list(domain.get_shape())
    num_loops = len(domain_shape)
    out_inverse_outer = _invert(out_info.outer_dims_perm or list(range(out_rank)))
    out_inner = list(out_info.inner_dims_pos)
    out_swizzle_perm = list(range(num_loops))
    out_offsets = [0] * len(out_inner)
    if out_info.swizzle is not None:
        transpose = _swizzle_transpose(out_rank, out_info)
        if len(transpose) != num_loops:
            return None
        out_swizzle_perm = [out_swizzle_perm[t] for t in transpose]
        running = 0
        for i in range(len(out_inner)):
            out_offsets[i] = running
            running += len(out_info.swizzle.expand_shape[i])
    inv_out_swizzle_perm = _invert(out_swizzle_perm)

    packed_maps: list[AffineMap] = []
    for index, (amap, info, operand) in enumerate(zip(maps, infos, operands)):
        if not amap.results:
            packed_maps.append(AffineMap(num_loops, 0, ()))
            continue
        if info is None or info.is_identity():
            return None
        positions = _dim_positions(amap)
        if positions is None:
            return None
        rank = len(positions)
        outer_perm = info.outer_dims_perm or list(range(rank))
        packed = [out_inverse_outer[positions[p]] for p in outer_perm]
        for idx, pos in enumerate(info.inner_dims_pos):
            for tile_index, out_dim in enumerate(out_inner):
                if positions[pos] != out_dim:
                    continue
                if info.swizzle is None:
                    packed.append(out_rank + tile_index)
                    continue
                first = out_rank + out_offsets[tile_index]
                packed += [first + i for i in range(len(info.swizzle.expand_shape[idx]))]
        if info.swizzle is not None:
            transpose = _swizzle_transpose(rank, info)
            if len(transpose) != len(packed):
                return None
            packed = [packed[t] for t in transpose]
        if any(r >= num_loops for r in packed):
            return None
        packed_map = AffineMap(num_loops, 0, tuple(AffineDimExpr(inv_out_swizzle_perm[r]) for r in packed))
        if index >= num_inputs and not _is_permutation(packed_map):
            return None
        ty = operand.type
        assert isinstance(ty, TensorType)
        if not _compatible(packed_map, list(ty.get_shape()), domain_shape):
            return None
        packed_maps.append(packed_map)
    generic = _generic(op, operands, packed_maps, num_loops, result_types)
    new_position = _invert(anchor_positions)
    _rewrite_indices(
        generic,
        lambda dim: _packed_index(
            new_position[dim], out_rank, out_info, out_offsets, inv_out_swizzle_perm, domain_shape
        ),
    )
    return generic


def _index_ops(dim: int) -> tuple[list[Operation], SSAValue]:
    index = linalg.IndexOp(dim)
    return [index], index.results[0]


def _packed_index(
    dim: int,
    rank: int,
    info: MaterializeEncodingInfo,
    offsets: Sequence[int],
    inv_swizzle_perm: Sequence[int],
    domain_shape: Sequence[int],
) -> tuple[list[Operation], SSAValue | None]:
    """IREE's computePackedIndex: logical index `dim` of the anchor from the packed loops,
    `outer * tile + inner` (the inner index recombined from a swizzle's expanded dims).
    A loop of static size 1 reads as 0 and its terms are dropped, as IREE's folding does;
    None stands for a constant 0."""
    ops: list[Operation] = []

    def loop(position: int) -> SSAValue | None:
        if domain_shape[position] == 1:
            return None
        index = linalg.IndexOp(position)
        ops.append(index)
        return index.results[0]

    def times(value: SSAValue | None, factor: int) -> SSAValue | None:
        if value is None or factor == 1:
            return value
        const = arith.ConstantOp(IntegerAttr(factor, IndexType()))
        mul = arith.MuliOp(value, const.result)
        ops.extend([const, mul])
        return mul.result

    def plus(a: SSAValue | None, b: SSAValue | None) -> SSAValue | None:
        if a is None or b is None:
            return b if a is None else a
        add = arith.AddiOp(a, b)
        ops.append(add)
        return add.result

    outer_perm = info.outer_dims_perm or list(range(rank))
    outer = loop(_invert(outer_perm)[dim])
    if dim not in info.inner_dims_pos:
        return ops, outer
    inner_index = list(info.inner_dims_pos).index(dim)
    tile = info.inner_tile_sizes[inner_index]
    if info.swizzle is None:
        inner = loop(rank + inner_index)
    else:
        inner, stride = None, 1
        expanded = info.swizzle.expand_shape[inner_index]
        for i in reversed(range(len(expanded))):
            term = loop(inv_swizzle_perm[rank + offsets[inner_index] + i])
            inner = plus(inner, times(term, stride))
            stride *= expanded[i].size
    return ops, plus(times(outer, tile), inner)


def _rewrite_indices(generic: linalg.GenericOp, build) -> None:
    """Replace each `linalg.index` of the body by what `build(dim)` computes in its place."""
    for index in [o for o in generic.body.walk() if isinstance(o, linalg.IndexOp)]:
        ops, value = build(index.dim.value.data)
        if value is None:
            const = arith.ConstantOp(IntegerAttr(0, IndexType()))
            ops.append(const)
            value = const.result
        block = index.parent_block()
        assert block is not None
        for new in ops:
            new.location = index.location
            block.insert_op_before(new, index)
        index.results[0].replace_all_uses_with(value)
        index.detach()
        index.erase()


def _generic(
    op: linalg.GenericOp,
    operands: Sequence[SSAValue],
    maps: Sequence[AffineMap],
    num_loops: int,
    result_types: Sequence[Attribute],
) -> Operation:
    num_inputs = len(op.inputs)
    generic = linalg.GenericOp(
        list(operands[:num_inputs]),
        list(operands[num_inputs:]),
        op.body.clone(),
        [AffineMapAttr(m) for m in maps],
        [linalg.IteratorTypeAttr.parallel()] * num_loops,
        list(result_types),
    )
    # IREE's getPrunedAttributeList: the op's other discardable attributes stay.
    for name, value in op.attributes.items():
        if name not in generic.attributes and name not in ("indexing_maps", "iterator_types"):
            generic.attributes[name] = value
    generic.location = op.location
    return generic
