"""Contractions on packed operands.

IREE's `lowerContractionOpWithEncoding` (CPU, VMVX: `linalg.mmt4d` /
`linalg.batch_mmt4d`) and `lowerContractionOpToInnerTiledOp` (GPU:
`iree_codegen.inner_tiled` with `#iree_gpu.data_tiled_mma_layout`); elementwise
generics on packed tiles are `generic.py`'s.

Packed operands of a matmul are laid out by `get_encoding_info_for_matmul`:
outer dims in the order batch, M|N, K and tiles M|N, K, which is exactly what
mmt4d reads (LHS `M1xK1xM0xK0`, RHS `N1xK1xN0xK0`, ACC `M1xN1xM0xN0`). A
matvec/vecmat operand lacks M or N; it is `expand_shape`d to unit dims. A
result whose layout lists N before M (CPU narrow N) is `C^T = B^T A^T`: the
mmt4d takes RHS and LHS swapped.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IntegerType, Signedness, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from mini_iree.compiler.era import EraProfile, era_profile
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.materialize_encoding.builders import Builder, Mixed, static_shape, to_ir_shape
from mini_iree.dialects import iree_codegen, linalg, tensor
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo
from mini_iree.dialects.iree_encoding import EncodingAttr

LHS, RHS, RESULT = 0, 1, 2


def _expand_to(
    builder: Builder, value: SSAValue, sizes: Mixed, present: Sequence[bool]
) -> tuple[SSAValue, Mixed, list[list[int]] | None]:
    """Insert unit dims where `present` is False; None reassociation when nothing changes."""
    if all(present):
        return value, sizes, None
    existing = iter(range(len(sizes)))
    positions: list[int | None] = [next(existing) if p else None for p in present]
    groups: list[list[int]] = [[] for _ in sizes]
    # IREE's getExpandedType: unit dims go with the dim they precede (`1 x d0 x 1 x d1`), or,
    # when they trail (a transposed result, `d0 x 1 x d1 x 1`), with the dim they follow.
    trailing = not present[-1]
    pending: list[int] = []
    last: int | None = None
    for new_dim, old in enumerate(positions):
        if old is None:
            if trailing and last is not None:
                groups[last].append(new_dim)
            else:
                pending.append(new_dim)
            continue
        groups[old] += pending + [new_dim]
        pending, last = [], old
    if pending:
        assert last is not None
        groups[last] += pending
    new_sizes: Mixed = [1 if old is None else sizes[old] for old in positions]
    ty = TensorType(value.type.get_element_type(), to_ir_shape(static_shape(new_sizes)))  # type: ignore[attr-defined]
    expanded = builder.insert(tensor.ExpandShapeOp(value, groups, new_sizes, ty)).results[0]
    return expanded, new_sizes, groups


def _is_unsigned(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED


def _narrower(element: Attribute, than: Attribute) -> bool:
    return isinstance(element, IntegerType) and isinstance(than, IntegerType) and element.width.data < than.width.data


def _extend_unsigned(builder: Builder, value: SSAValue, sizes: Mixed, element_type: Attribute) -> SSAValue:
    """An elementwise `linalg.generic` zero-extending `value` to `element_type`.

    mmt4d sign-extends its inputs, so an unsigned operand (`ui8` in the
    encoding's element types) is extended first, as IREE's
    createElementWiseExtUIOp does.
    """
    rank = len(sizes)
    init = builder.empty(sizes, element_type)
    block = Block(arg_types=[value.type.get_element_type(), element_type])  # type: ignore[attr-defined]
    extended = arith.ExtUIOp(block.args[0], element_type)  # type: ignore[arg-type]
    block.add_ops([extended, linalg.YieldOp(extended.result)])
    identity = AffineMapAttr(AffineMap.identity(rank))
    generic = linalg.GenericOp(
        [value], [init], Region(block), [identity, identity], [linalg.IteratorTypeAttr.parallel()] * rank, [init.type]
    )
    return builder.insert(generic).results[0]


def lower_to_mmt4d(
    builder: Builder,
    op: Operation,
    encodings: Sequence[EncodingAttr],
    infos: Sequence[MaterializeEncodingInfo],
    operands: Sequence[SSAValue],
    sizes: Sequence[Mixed],
) -> tuple[SSAValue, Mixed]:
    """`linalg.mmt4d` / `linalg.batch_mmt4d` on packed operands; returns the packed result."""
    from mini_iree.compiler.resolvers.matmul_info import get_contraction_dims, is_narrow_n_result

    dims = get_contraction_dims(encodings[LHS])
    if dims is None:
        raise OpError(op, "is not a contraction with one batch, M, N and K loop at most")
    has_b, has_m, has_n = bool(dims.batch), bool(dims.m), bool(dims.n)
    batch = [True] if has_b else []
    # Which of (row, col) each packed operand has: LHS (M, K), RHS (N, K), ACC (M, N).
    present = [batch + [has_m, True, has_m, True], batch + [has_n, True, has_n, True]]
    result_encoding, result_info = encodings[RESULT], infos[RESULT]
    if has_m and has_n:
        # The result layout says it: N tiled before M is the transposed (narrow-N) form.
        m_pos = result_encoding.map_dim_to_operand_index(dims.m[0])
        n_pos = result_encoding.map_dim_to_operand_index(dims.n[0])
        transposed = list(result_info.inner_dims_pos[-2:]) == [n_pos, m_pos]
    else:
        # A vector result has nothing to swap, but a matvec (N = 1) still runs
        # as C^T = B^T A^T, as the resolver decided for its narrow N.
        transposed = is_narrow_n_result(result_encoding)
    rows, cols = (has_n, has_m) if transposed else (has_m, has_n)
    present.append(batch + [rows, cols, rows, cols])

    if any(info.swizzle is not None for info in infos):
        raise OpError(op, "has swizzled operand layouts, which mmt4d cannot take")
    for index, (size, flags) in enumerate(zip(sizes, present)):
        # Guard the (batch, M|N, K) packed order assumed above.
        if len(size) != sum(flags):
            raise OpError(op, f"operand {index} is packed to rank {len(size)}; mmt4d expects {sum(flags)}")
    # Each operand is finished (expanded, then extended) before the next one is
    # touched, as IREE's getMmt4dOperand does: the LHS's and RHS's extensions
    # come before the result's expand_shape.
    acc_element = operands[RESULT].type.get_element_type()  # type: ignore[attr-defined]
    input_elements = encodings[LHS].get_element_types()[:2]
    values, groups = [], []
    for index, (value, size, flags) in enumerate(zip(operands, sizes, present)):
        v, s, g = _expand_to(builder, value, list(size), flags)
        operand_element = v.type.get_element_type()  # type: ignore[attr-defined]
        # An operand already extended (the encoding names its narrow source type) is not extended again.
        if index != RESULT and _is_unsigned(input_elements[index]) and _narrower(operand_element, acc_element):
            v = _extend_unsigned(builder, v, s, acc_element)
        values.append(v)
        groups.append(g)
    lhs, rhs, acc = values
    if transposed:
        lhs, rhs = rhs, lhs
    mmt4d_type = linalg.BatchMmt4DOp if has_b else linalg.Mmt4DOp
    result = builder.insert(mmt4d_type([lhs, rhs], [acc])).results[0]
    if groups[RESULT] is not None:
        result = builder.insert(
            tensor.CollapseShapeOp(result, groups[RESULT], operands[RESULT].type)  # type: ignore[arg-type]
        ).results[0]
    return result, list(sizes[RESULT])


def lower_to_inner_tiled(
    builder: Builder,
    op: Operation,
    kind: Attribute,
    encodings: Sequence[EncodingAttr],
    operands: Sequence[SSAValue],
    era: str | EraProfile | None = None,
) -> SSAValue:
    """`iree_codegen.inner_tiled` with the data-tiled MMA `kind` over (b?, m, n, k).

    A scaled MMA `kind` takes the scaled contraction's five operands (IREE's
    lowerContractionOrScaledContractionOpToInnerTiledOp). IREE 3.13 also
    spells out the MMA semantics (`era`; None: the run's).
    """
    from mini_iree.compiler.resolvers.matmul_info import get_contraction_dims
    from mini_iree.dialects import iree_gpu

    if isinstance(kind, iree_gpu.DataTiledScaledMMAAttr):
        return _lower_scaled_to_inner_tiled(builder, op, kind, encodings, operands, era)
    dims = get_contraction_dims(encodings[LHS])
    profile = era_profile(era)
    if dims is not None and (not dims.m or not dims.n) and profile.gpu_vector_contractions_inner_tiled:
        # IREE 3.13 types a matvec's vector operands as whole intrinsic tiles (the
        # resolver keeps the swizzle group of the missing loop), so one intrinsic
        # runs on them as on a matmul's; the maps index the loops the op has.
        maps = _operand_maps(dims.batch, {"m": dims.m, "n": dims.n, "k": dims.k}, encodings)
        semantics = iree_gpu.MMASemanticsAttr(False, False) if profile.inner_tiled_semantics else None
        inner = iree_codegen.InnerTiledOp(
            [operands[LHS], operands[RHS]], [operands[-1]], maps, _iterators_of(op, maps[0].num_dims), kind, semantics
        )
        return builder.insert(inner).results[0]
    if dims is None or not dims.m or not dims.n:
        # The walkthrough's layouts keep one swizzle group per packed dim: no intrinsic
        # tile to run on a vector operand.
        raise OpError(op, "only matmul-like contractions (with M and N loops) lower to iree_codegen.inner_tiled")
    loops = (["b"] if dims.batch else []) + ["m", "n", "k"]
    pos = {name: i for i, name in enumerate(loops)}

    def amap(*names: str) -> AffineMap:
        prefix = ("b",) if dims.batch else ()
        return AffineMap(len(loops), 0, tuple(AffineDimExpr(pos[n]) for n in prefix + names))

    maps = [amap("m", "k"), amap("n", "k"), amap("m", "n")]
    parallel = linalg.IteratorTypeAttr.parallel()
    reduction = linalg.IteratorTypeAttr.reduction()
    iterators = [parallel] * (len(loops) - 1) + [reduction]
    semantics = iree_gpu.MMASemanticsAttr(False, False) if profile.inner_tiled_semantics else None
    inner = iree_codegen.InnerTiledOp([operands[LHS], operands[RHS]], [operands[-1]], maps, iterators, kind, semantics)
    return builder.insert(inner).results[0]


def lower_to_cpu_inner_tiled(
    builder: Builder, op: Operation, kind: Attribute, encodings: Sequence[EncodingAttr], operands: Sequence[SSAValue]
) -> SSAValue:
    """`iree_codegen.inner_tiled` with a `#iree_cpu.data_tiled_mma_layout` kind over (m, n, k)
    (IREE's CPU lowerContractionToInnerTiled, `enable_inner_tiled = true`).

    The RHS is packed N-major, as mmt4d reads it, so its map is (d1, d2).
    """
    from mini_iree.compiler.resolvers.matmul_info import get_contraction_dims
    from mini_iree.dialects import iree_cpu

    dims = get_contraction_dims(encodings[LHS])
    if dims is None or dims.batch or not dims.m or not dims.n:
        raise OpError(op, "only non-batched matmuls (with M and N loops) lower to a CPU iree_codegen.inner_tiled")
    d0, d1, d2 = (AffineDimExpr(i) for i in range(3))
    maps = [AffineMap(3, 0, (d0, d2)), AffineMap(3, 0, (d1, d2)), AffineMap(3, 0, (d0, d1))]
    parallel = linalg.IteratorTypeAttr.parallel()
    iterators = [parallel, parallel, linalg.IteratorTypeAttr.reduction()]
    semantics = iree_cpu.InnerTiledSemanticsAttr()
    inner = iree_codegen.InnerTiledOp([operands[LHS], operands[RHS]], [operands[-1]], maps, iterators, kind, semantics)
    return builder.insert(inner).results[0]


def _operand_maps(
    batch: Sequence[int], roles: dict[str, Sequence[int]], encodings: Sequence[EncodingAttr]
) -> list[AffineMap]:
    """Per operand, the (b?, m?, n?, k?) loops its encoding indexes, over the loops some operand has.

    IREE's addDimsForOperand: the loops are numbered batch, M, N, K, skipping
    the kinds the contraction lacks.
    """
    names = (["b"] if batch else []) + [name for name, loops in roles.items() if loops]
    pos = {name: i for i, name in enumerate(names)}
    maps = []
    for encoding in encodings:
        results = [AffineDimExpr(pos["b"])] if batch else []
        for name, loops in roles.items():
            if loops and encoding.map_dim_to_operand_index(loops[0]) is not None:
                results.append(AffineDimExpr(pos[name]))
        maps.append(AffineMap(len(names), 0, tuple(results)))
    return maps


def _iterators_of(op: Operation, count: int) -> list[linalg.IteratorTypeAttr]:
    """The op's own iterator types, which IREE copies onto the inner_tiled op."""
    iterators = [t if isinstance(t, linalg.IteratorTypeAttr) else linalg.IteratorTypeAttr(t) for t in _iterator_attrs(op)]
    if len(iterators) != count:
        raise OpError(op, f"has {len(iterators)} loops where its packed operands index {count}")
    return iterators


def _iterator_attrs(op: Operation) -> list[Attribute]:
    get = getattr(op, "get_iterator_types", None)
    if get is not None:
        return list(get())
    return list(op.iterator_types.data)  # type: ignore[attr-defined]


def _lower_scaled_to_inner_tiled(
    builder: Builder,
    op: Operation,
    kind: Attribute,
    encodings: Sequence[EncodingAttr],
    operands: Sequence[SSAValue],
    era: str | EraProfile | None,
) -> SSAValue:
    """A scaled contraction: `inner_tiled` over (b?, m?, n?, k, kb) with the scaled MMA `kind`.

    LHS and RHS index their loops and Kb, the scales theirs without Kb, the
    result its own (IREE's scaled_matmul case).
    """
    from mini_iree.compiler.resolvers.gpu import scaled_contraction_dims
    from mini_iree.dialects import iree_gpu

    if len(encodings) != 5 or len(operands) != 5:
        raise OpError(op, "a scaled contraction takes lhs, rhs, lhs_scales, rhs_scales and one init")
    dims = scaled_contraction_dims(encodings[LHS])
    if dims is None:
        raise OpError(op, "is not a scaled contraction with one K and one Kb loop")
    roles = {"m": dims.m, "n": dims.n, "k": dims.k}
    maps = _operand_maps(dims.batch, roles, encodings)
    count = maps[0].num_dims + 1
    kb = AffineDimExpr(count - 1)
    maps = [AffineMap(count, 0, m.results + ((kb,) if i in (0, 1) else ())) for i, m in enumerate(maps)]
    semantics = iree_gpu.MMASemanticsAttr(False, False) if era_profile(era).inner_tiled_semantics else None
    inner = iree_codegen.InnerTiledOp(list(operands[:4]), [operands[4]], maps, _iterators_of(op, count), kind, semantics)
    return builder.insert(inner).results[0]


