"""Which linalg ops data tiling takes, and the encodings their operands get.

Two questions every data-tiling pass asks about a linalg op:

* *Is it a data-tilable contraction?* (IREE's ``isSupportedContractionOp``.)
  Data tiling rewrites a contraction into ``mmt4d``/``batch_mmt4d`` on packed
  operands, so only contractions with at most one batch, M, N and K loop, at
  least one of M/N plus a K, and a plain ``out + cast(lhs) * cast(rhs)`` body
  qualify.
* *Which encodings do its operands get?* (IREE's ``getEncodingProperties``.)
  One ``#iree_encoding.encoding`` per operand, all carrying the op's element
  types (unsignedness read from ``arith.extui`` in the body), indexing maps and
  static loop ranges; they differ only in ``operand_index``.

The hint that marks an op for data tiling, the unit attribute
``iree.opt.data_tiling``, is handled here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    ShapedType,
    Signedness,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.contraction import ContractionDims, infer_contraction_dims
from mini_iree.compiler.ir.dynamic_dims import dominates_point
from mini_iree.compiler.ir.queries import instance_test

DATA_TILING_HINT = "iree.opt.data_tiling"

_T = TypeVar("_T")

# Operand indices of a matmul encoding (IREE's EncodingTypes.h).
MATMUL_LHS, MATMUL_RHS, MATMUL_RESULT = 0, 1, 2

# Ops MLIR's CastOpInterface covers among the scalar ops a linalg body may hold.
_CAST_OPS: tuple[type[Operation], ...] = (
    arith.ExtFOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncFOp,
    arith.TruncIOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
    arith.IndexCastOp,
    arith.BitcastOp,
)


# ---------------------------------------------------------------------------------------
# The data-tiling hint
# ---------------------------------------------------------------------------------------


def has_data_tiling_hint(op: Operation) -> bool:
    return DATA_TILING_HINT in op.attributes


def set_data_tiling_hint(op: Operation) -> None:
    op.attributes[DATA_TILING_HINT] = UnitAttr()


def remove_data_tiling_hint(op: Operation) -> None:
    op.attributes.pop(DATA_TILING_HINT, None)


# ---------------------------------------------------------------------------------------
# Structured-op queries
# ---------------------------------------------------------------------------------------


def indexing_maps(op: LinalgStructuredOperation) -> list[AffineMap]:
    # Named contractions give their maps without building the attribute.
    as_maps = getattr(op, "get_indexing_maps_array", None)
    if as_maps is not None:
        return list(as_maps())
    return [m.data for m in op.get_indexing_maps()]


# isinstance tests asked of every op of a module or every operand type (ops
# and ShapedType are ABCs, whose isinstance runs Python code).
_is_linalg = instance_test(LinalgStructuredOperation)
_is_shaped = instance_test(ShapedType)
_is_memref = instance_test(MemRefType)
_is_tensor = instance_test(TensorType)


def has_encoding(value: SSAValue) -> bool:
    """The value is a tensor with an encoding."""
    ty = value.type
    return isinstance(ty, TensorType) and not isinstance(ty.encoding, NoneAttr)


def has_pure_tensor_semantics(op: LinalgStructuredOperation) -> bool:
    """Every shaped operand is a tensor (no memrefs), as MLIR's hasPureTensorSemantics."""
    return all(not _is_memref(v.type) for v in op.operands if _is_shaped(v.type)) and all(
        _is_tensor(v.type) for v in op.outputs
    )


def _in_dispatch_with_workgroup_count(op: Operation) -> bool:
    """Inside a ``flow.dispatch.region`` whose workgroup count is already fixed."""
    from mini_iree.dialects import flow

    parent = op.parent_op()
    while parent is not None and not isinstance(parent, flow.DispatchRegionOp):
        parent = parent.parent_op()
    return parent is not None and bool(parent.workgroup_count.blocks)


def data_tilable_precondition(op: Operation) -> bool:
    """IREE's ``dataTilablePreCondition``: what every data-tiled op must satisfy.

    A linalg op on tensors, without a preset ``compilation_info`` (the user chose
    its codegen), not in a dispatch whose workgroup count is already computed
    (such dispatches are formed for ops codegen handles specially), and with no
    operand already encoded.
    """
    if not _is_linalg(op) or not has_pure_tensor_semantics(op):
        return False
    if "compilation_info" in op.attributes:
        return False
    if _in_dispatch_with_workgroup_count(op):
        return False
    return not any(has_encoding(v) for v in op.operands)


# Whether a value's owner is one of _CAST_OPS (see instance_test).
_is_cast = instance_test(*_CAST_OPS)


def _skip_cast(value: SSAValue) -> SSAValue:
    """The value a chain of casts starts from (MLIR's getSourceSkipUnary)."""
    while _is_cast(value.owner):
        value = value.owner.operands[0]
    return value


def _has_contraction_body(block: Block) -> bool:
    """MLIR's ``isContractionBody`` for add/mul pairs: ``out (+) (cast(a) (*) cast(b))``."""
    if len(block.args) != 3 or block.last_op is None or len(block.last_op.operands) != 1:
        return False
    reduction = _skip_cast(block.last_op.operands[0]).owner
    if not isinstance(reduction, Operation) or len(reduction.operands) != 2 or len(reduction.results) != 1:
        return False
    lhs, rhs = (_skip_cast(v) for v in reduction.operands)
    out = block.args[2]
    if out not in (lhs, rhs):
        return False
    elementwise = _skip_cast(rhs if isinstance(lhs, BlockArgument) else lhs).owner
    if not isinstance(elementwise, Operation) or len(elementwise.operands) != 2:
        return False
    pairs = ((arith.MulfOp, arith.AddfOp), (arith.MuliOp, arith.AddiOp), (arith.AndIOp, arith.OrIOp))
    if not any(isinstance(elementwise, m) and isinstance(reduction, a) for m, a in pairs):
        return False
    operands = {_skip_cast(v) for v in elementwise.operands}
    return operands == {block.args[0], block.args[1]}


def _has_matmul_like_body(block: Block) -> bool:
    """IREE's ``hasMatmulLikeBody``: exactly ``yield(add(out, mul(cast?(in0), cast?(in1))))``.

    Stricter than a contraction body: the add takes the accumulator itself, and
    each multiplicand is a block argument or one cast of one, because the
    ``mmt4d`` that data tiling produces can express nothing else.
    """
    out = block.args[2]
    add = block.last_op.operands[0].owner if block.last_op is not None else None
    if not isinstance(add, (arith.AddiOp, arith.AddfOp)):
        return False
    a, b = add.operands
    if isinstance(a.owner, Operation) and b is out:
        mul = a.owner
    elif isinstance(b.owner, Operation) and a is out:
        mul = b.owner
    else:
        return False
    if not isinstance(mul, (arith.MulfOp, arith.MuliOp)):
        return False
    for operand in mul.operands:
        if _is_cast(operand.owner):
            if not isinstance(operand.owner.operands[0], BlockArgument):
                return False
    return True


def contraction_dims(op: Operation) -> ContractionDims | None:
    """The batch/M/N/K loops of ``op`` if it is a contraction (MLIR's isaContractionOpInterface).

    Two inputs and one init, projected-permutation maps, at least one reduction
    loop, iterator types matching the maps (a loop is a reduction exactly when the
    output does not index it), and a multiply-accumulate body.
    """
    # Fewer than three operands cannot be two inputs and an init (and counting
    # them is cheaper than splitting them into inputs and inits).
    if not _is_linalg(op) or len(op.operands) < 3 or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    maps = indexing_maps(op)
    # The loop split reads only the maps and then the iterator types, immutable
    # objects that the ops of a program mostly share: it is remembered per object.
    dims = _remembered(_INFERRED_DIMS, tuple(maps), lambda: infer_contraction_dims(maps))
    if dims is None:
        return None
    iterator_types = op.get_iterator_types()
    if not _remembered(_MATCHING_ITERATORS, (iterator_types, *maps), lambda: _iterators_match(maps, iterator_types)):
        return None
    if not _has_contraction_body(op.body.block):
        return None
    return dims


def _remembered(cache: dict, objects: tuple, compute: Callable[[], _T]) -> _T:
    """``compute()``, remembered under the identities of ``objects`` (immutable attributes and maps)."""
    identity = tuple(map(id, objects))
    seen = cache.get(identity)
    if seen is None:
        if len(cache) >= _IDENTITY_CACHE_LIMIT:
            cache.clear()
        # The objects stay referenced with their ids, so that no other object takes an id meanwhile.
        seen = cache[identity] = (compute(), objects)
    return seen[0]


# ids of the maps -> (infer_contraction_dims of them, the maps).
_INFERRED_DIMS: dict[tuple[int, ...], tuple[ContractionDims | None, tuple]] = {}
# ids of (iterator types, maps...) -> (_iterators_match of them, those objects).
_MATCHING_ITERATORS: dict[tuple[int, ...], tuple[bool, tuple]] = {}
_IDENTITY_CACHE_LIMIT = 1024


def _iterators_match(maps: Sequence[AffineMap], iterator_types: Sequence[Attribute]) -> bool:
    """Every loop is indexed, and the reductions are exactly the loops the output does not index."""
    iterators = [t.data for t in iterator_types]
    if {r.position for m in maps for r in m.results} != set(range(len(iterators))):
        return False  # a loop no operand indexes has no size
    output_loops = {r.position for r in maps[2].results}
    reductions = [i for i, t in enumerate(iterators) if t == IteratorType.REDUCTION]
    return bool(reductions) and set(reductions) == set(range(len(iterators))) - output_loops


def is_supported_contraction_op(op: Operation) -> bool:
    """IREE's ``isSupportedContractionOp``: a contraction data tiling can lower to mmt4d."""
    return data_tilable_precondition(op) and is_supported_contraction_given_precondition(op)


def is_supported_contraction_given_precondition(op: Operation) -> bool:
    """``is_supported_contraction_op`` of an op known to pass ``data_tilable_precondition``."""
    dims = contraction_dims(op)
    if dims is None or not dims.is_single_mnk():
        return False
    if not (dims.m or dims.n) or not dims.k:
        return False
    # A broadcast matmul (a loop that is none of batch/M/N/K) is hinted too, as
    # IREE hints it; no resolver has a packed layout for it (get_contraction_dims),
    # so its operands keep the identity layout.
    return _has_matmul_like_body(op.body.block)


# ---------------------------------------------------------------------------------------
# Encoding properties
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpEncodingProperties:
    """The encodings of an op's inputs and inits, in operand order."""

    inputs: tuple[Attribute, ...]
    inits: tuple[Attribute, ...]


def element_type_with_signedness(op: LinalgStructuredOperation, operand_number: int) -> Attribute:
    """The operand's element type, ``uiN`` if the body zero-extends its block argument."""
    value = op.operands[operand_number]
    elem = value.type.get_element_type() if _is_shaped(value.type) else value.type
    arg = op.body.block.args[operand_number]
    if isinstance(elem, IntegerType) and any(isinstance(use.operation, arith.ExtUIOp) for use in arg.uses):
        return IntegerType(elem.width.data, Signedness.UNSIGNED)
    return elem


def static_loop_ranges(op: LinalgStructuredOperation) -> list[int]:
    """Each loop's size from the first operand dimension it indexes (``DYNAMIC_INDEX`` if ``?``)."""
    return [source.dim_size for source in op.get_loop_bound_sources()]


def get_encoding_properties(op: Operation) -> OpEncodingProperties | None:
    """IREE's ``getEncodingProperties`` for contractions; None for any other op.

    Every operand gets ``#iree_encoding.encoding<operand_index = i, op_type =
    matmul, element_types = [lhs, rhs, out], user_indexing_maps = <op maps>,
    iteration_sizes = <static loop ranges>>``. Scaled matmuls and convolutions,
    which IREE also encodes, are not recognized here.
    """
    if contraction_dims(op) is None:
        return None
    assert isinstance(op, LinalgStructuredOperation)
    return contraction_encoding_properties(op)


def contraction_encoding_properties(op: LinalgStructuredOperation) -> OpEncodingProperties:
    """``get_encoding_properties`` of an op already known to be a contraction."""
    element_types = tuple(element_type_with_signedness(op, i) for i in range(3))
    maps_attr = op.get_indexing_maps()
    # Everything the encodings are made of is an attribute of the op (element
    # types, maps, operand types, whose shapes give the loop ranges), and
    # attributes are immutable: the same objects give the same encodings.
    objects = (maps_attr, *element_types, *(v.type for v in op.operands))
    return _remembered(
        _PROPERTIES_BY_IDENTITY, objects, lambda: _encoding_properties_by_value(op, element_types, maps_attr)
    )


def _encoding_properties_by_value(
    op: LinalgStructuredOperation, element_types: tuple[Attribute, ...], maps_attr: Sequence[Attribute]
) -> OpEncodingProperties:
    key = (element_types, tuple(m.data for m in maps_attr), tuple(static_loop_ranges(op)))
    # A program's contractions mostly share their encodings; building and
    # checking an encoding attribute costs far more than looking it up.
    known = _ENCODING_PROPERTIES.get(key)
    return known if known is not None else _new_encoding_properties(key)


def _new_encoding_properties(key: tuple) -> OpEncodingProperties:
    from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType

    element_types, maps, sizes = key

    def encoding(index: int) -> EncodingAttr:
        return EncodingAttr(index, EncodingOpType.MATMUL, element_types, maps, sizes)

    properties = OpEncodingProperties(
        inputs=(encoding(MATMUL_LHS), encoding(MATMUL_RHS)), inits=(encoding(MATMUL_RESULT),)
    )
    if len(_ENCODING_PROPERTIES) >= _ENCODING_PROPERTIES_LIMIT:
        _ENCODING_PROPERTIES.clear()
    _ENCODING_PROPERTIES[key] = properties
    return properties


# (element types, indexing maps, static loop ranges) -> the encodings they give.
_ENCODING_PROPERTIES: dict[tuple, OpEncodingProperties] = {}
_ENCODING_PROPERTIES_LIMIT = 1024
# ids of (maps attribute, element types, operand types) -> (the encodings, those objects).
_PROPERTIES_BY_IDENTITY: dict[tuple[int, ...], tuple[OpEncodingProperties, tuple]] = {}


def _dynamic_position(value: SSAValue, axis: int) -> int:
    shape = value.type.get_shape()  # type: ignore[attr-defined]
    return sum(1 for d in shape[:axis] if d == DYNAMIC_INDEX)


def _reified_dim(value: SSAValue, axis: int) -> SSAValue | tuple[SSAValue, int] | None:
    """The size of ``value`` along ``axis`` as its producer states it, or None.

    A linalg result's size is read off the operand that carries its loop; when
    that operand states no size either, the answer is that operand and its axis
    (the ``tensor.dim`` to build).

    Only producers that reify their result shapes in IREE (ReifyRankedShapedTypeOpInterface)
    are asked, so the sizes match what IREE's ``tensor.dim`` folding finds:
    ``tensor.empty``, ``tensor.expand_shape``, ``flow.dispatch.region``,
    set/unset_encoding and destination-style linalg ops. ``hal.tensor.import`` and compute barriers
    are not, and get a ``tensor.dim``.
    """
    from mini_iree.dialects import flow, iree_encoding, tensor

    op = value.owner
    if not isinstance(op, Operation):
        return None
    if isinstance(op, tensor.EmptyOp):
        return op.dynamic_sizes[_dynamic_position(value, axis)]
    if isinstance(op, tensor.ExpandShapeOp):
        return op.output_shape[_dynamic_position(value, axis)]
    if isinstance(op, iree_encoding.UnsetEncodingOp):
        return op.result_dims[_dynamic_position(value, axis)]
    if isinstance(op, flow.DispatchRegionOp):
        index = list(op.results).index(value)
        start = sum(
            sum(1 for d in r.type.get_shape() if d == DYNAMIC_INDEX)  # type: ignore[attr-defined]
            for r in op.results[:index]
        )
        return op.result_dims[start + _dynamic_position(value, axis)]
    if isinstance(op, iree_encoding.SetEncodingOp):
        return _reified_dim(op.source, axis)
    if isinstance(op, LinalgStructuredOperation):
        carrier = _loop_carrier(op, list(op.results).index(value), axis)
        if carrier is None:
            return None
        if isinstance(carrier, tuple):
            found = _reified_dim(*carrier)
            return found if found is not None else carrier
        return carrier
    return None


def loop_size_carrier(op: LinalgStructuredOperation, loop: int) -> tuple[SSAValue, int] | None:
    """The operand and axis whose size is loop ``loop``'s, as MLIR's ``LinalgOp::createLoopRanges`` finds it:
    the first operand (inputs, then inits) whose map reads the loop as a plain dim."""
    for value, operand_map in zip([*op.inputs, *op.outputs], indexing_maps(op)):
        if not isinstance(value.type, TensorType):
            continue
        for axis, expr in enumerate(operand_map.results):
            if isinstance(expr, AffineDimExpr) and expr.position == loop:
                return value, axis
    return None


def _loop_carrier(
    op: LinalgStructuredOperation, index: int, axis: int
) -> tuple[SSAValue, int] | SSAValue | None:
    """Where MLIR's ``LinalgOp::reifyResultShapes`` reads result ``index``'s size along ``axis``.

    The result dim is a loop, sized by its carrier (:func:`loop_size_carrier`):
    that operand and its axis, or, for an init, the size the init's producer
    states if it does. None when the size is static or the dim not a loop.
    """
    loop = indexing_maps(op)[len(op.inputs) + index].results[axis]
    if not isinstance(loop, AffineDimExpr):
        return None
    carrier = loop_size_carrier(op, loop.position)
    if carrier is None:
        return None
    value, operand_axis = carrier
    if value.type.get_shape()[operand_axis] != DYNAMIC_INDEX:  # type: ignore[attr-defined]
        return None
    if value in op.outputs:
        return _reified_dim(value, operand_axis)
    return carrier


def get_dynamic_loop_dims(op: LinalgStructuredOperation, insert_point: InsertPoint) -> list[SSAValue]:
    """The sizes of the dynamic loops of ``op``, in loop order: the ``encoding_dims`` values.

    Each size is that of the first operand dimension the loop indexes. A size
    its producer states (``tensor.empty(%m, %n)``, a dispatch region's
    ``{%0, %4}``) is reused; the others become ``arith.constant`` +
    ``tensor.dim`` at ``insert_point``, created in operand order as IREE's
    ``createLoopRanges`` does.
    """
    from mini_iree.dialects import tensor

    sources = [s for s in op.get_loop_bound_sources() if s.dim_size == DYNAMIC_INDEX]
    dims: dict[int, SSAValue] = {}
    missing: list[tuple[int, int, int]] = []  # (operand number, dim, position in `sources`)
    operand_numbers = {id(v): i for i, v in reversed(list(enumerate(op.operands)))}
    carriers: dict[int, tuple[SSAValue, int]] = {}
    for position, source in enumerate(sources):
        found = _reified_dim(source.operand, source.dim_index)
        if isinstance(found, tuple):
            # A tensor.dim of a linalg result reads the operand carrying its loop.
            carriers[position] = found
            found = None
        if found is not None and dominates_point(found, insert_point.block):
            dims[position] = found
        else:
            missing.append((operand_numbers[id(source.operand)], source.dim_index, position))
    for _, _, position in sorted(missing):
        value, axis = carriers.get(position, (sources[position].operand, sources[position].dim_index))
        index = arith.ConstantOp(IntegerAttr(axis, IndexType()))
        dim = tensor.DimOp(value, index)
        # The sizes serve `op`'s loops: they take its location.
        index.location = dim.location = op.location
        Rewriter.insert_op([index, dim], insert_point)
        dims[position] = dim.results[0]
    return [dims[p] for p in range(len(sources))]


def operand_types_with_encodings(values: Sequence[SSAValue], encodings: Sequence[Attribute]) -> list[TensorType]:
    """The tensor types of ``values`` with ``encodings`` attached."""
    out: list[TensorType] = []
    for value, encoding in zip(values, encodings, strict=True):
        ty = value.type
        assert isinstance(ty, TensorType)
        out.append(tensor_type_with_encoding(ty, encoding))
    return out


def tensor_type_with_encoding(ty: TensorType, encoding: Attribute) -> TensorType:
    """``ty`` with ``encoding`` (replacing any it has).

    Remembered per (type, encoding) object pair: a program's contractions
    mostly share their operand types and encodings, and building and checking
    a type costs far more than looking it up.
    """
    return _remembered(
        _TYPES_WITH_ENCODING, (ty, encoding), lambda: TensorType(ty.get_element_type(), ty.get_shape(), encoding)
    )


# ids of (type, encoding) -> (the encoded type, (that type, that encoding)).
_TYPES_WITH_ENCODING: dict[tuple[int, int], tuple[TensorType, tuple]] = {}


__all__ = [
    "DATA_TILING_HINT",
    "MATMUL_LHS",
    "MATMUL_RESULT",
    "MATMUL_RHS",
    "OpEncodingProperties",
    "contraction_dims",
    "contraction_encoding_properties",
    "data_tilable_precondition",
    "element_type_with_signedness",
    "get_dynamic_loop_dims",
    "get_encoding_properties",
    "has_data_tiling_hint",
    "has_encoding",
    "has_pure_tensor_semantics",
    "is_supported_contraction_given_precondition",
    "is_supported_contraction_op",
    "operand_types_with_encodings",
    "remove_data_tiling_hint",
    "set_data_tiling_hint",
    "static_loop_ranges",
    "tensor_type_with_encoding",
]
