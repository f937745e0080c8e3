"""``iree-dispatch-creation-set-encoding``: put encodings on the operands of hinted ops.

With ``encoding-option=default`` (or ``matmulk``) each op carrying the
``iree.opt.data_tiling`` hint loses the hint and is rewritten
(``SetDataTilingEncodings``):

    %r = linalg.matmul ins(%a, %b) outs(%fill)

becomes

    %ea = iree_encoding.set_encoding %a : ... -> tensor<?x?xf32, #encoding>
    %eb = iree_encoding.set_encoding %b : ... -> tensor<?x?xf32, #encoding1>
    %e  = tensor.empty(%m, %n) : tensor<?x?xf32, #encoding2>
    %f  = linalg.fill ins(%cst : f32) outs(%e : ...) -> ...
    %er = linalg.matmul ins(%ea, %eb) outs(%f) -> tensor<?x?xf32, #encoding2>
    %r  = iree_encoding.unset_encoding %er : ... -> tensor<?x?xf32>{%m, %n}

The encodings only describe how each tensor is used; a backend later decides
the physical layout. ``default`` records everything about the use
(``#iree_encoding.encoding``), ``matmulk`` only which dimensions of the tensor
are reduced (``#iree_encoding.matmul_k<k_dims = [...]>``). The init is first
encoded like the inputs; ``FoldFillWithSetEncoding`` then turns an encoded
``linalg.fill`` result into a fill of an encoded ``tensor.empty``, so no
relayout of a value that is about to be overwritten remains.

With ``encoding-option=padding`` no hint is needed: the LHS and RHS of each
contraction inside a dispatch region are padded where they are produced
(``SetPaddingEncodings``). The producer dispatch returns
``set_encoding(... #iree_encoding.padding<[0, ..., 0, ?]>)`` and the consumer
reads the value back with ``unset_encoding``; a backend later picks the pad
(or none) for the innermost dimension.

IREE also runs ``linalg.fill``'s canonicalizations and the patterns resolving
``tensor.dim`` of op results after the rewrite; here the sizes the rewrite
needs are taken resolved in the first place (what the producers state), and
no other IR is canonicalized.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.dispatch_regions import dispatch_result_dims, enclosing_dispatch_region, erase_if_dead
from mini_iree.compiler.analysis.convolution import convolution_dims
from mini_iree.compiler.analysis.encoding_properties import (
    contraction_dims,
    contraction_encoding_properties,
    get_dynamic_loop_dims,
    has_data_tiling_hint,
    has_encoding,
    has_pure_tensor_semantics,
    indexing_maps,
    operand_types_with_encodings,
    remove_data_tiling_hint,
    static_loop_ranges,
)
from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.analysis.producer_dispatch import (
    ProducerChain,
    chain_result_dims,
    producer_dispatch_value_and_op_chain,
)
from mini_iree.compiler.analysis.scaled_contraction import scaled_contraction_dims
from mini_iree.compiler.era import run_era
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker, op_predicate_rewrite_pattern
from mini_iree.dialects import flow, iree_encoding, linalg, tensor

# IREE's EncodingOptions, as `encoding-option` spells them.
_ENCODING_OPTIONS = ("default", "matmulk", "padding")

# IREE's kSkinnyMatmulThreshold: a contraction whose parallel loops are all
# static and together smaller than this is not worth padding (matvec, vecmat,
# skinny matmuls).
_SKINNY_MATMUL_THRESHOLD = 64

# Producer ops whose access patterns padding does not support (IREE #21149).
_ATTENTION_OPS = frozenset({"iree_linalg_ext.attention", "iree_linalg_ext.online_attention"})


# ---------------------------------------------------------------------------------------
# Data-tiling encodings (encoding-option=default|matmulk)
# ---------------------------------------------------------------------------------------


def _matmul_k_encodings(op: LinalgStructuredOperation, k_loops: Sequence[int]) -> list[Attribute]:
    """``#iree_encoding.matmul_k`` of each operand: where the reduction loops sit among its dimensions."""
    encodings: list[Attribute] = []
    for affine_map in indexing_maps(op):
        positions = [r.position if isinstance(r, AffineDimExpr) else None for r in affine_map.results]
        k_dims = [positions.index(k) for k in k_loops if k in positions]
        encodings.append(iree_encoding.MatmulKAttr(k_dims))
    return encodings


def _scaled_matmul_encodings(op: LinalgStructuredOperation) -> list[Attribute]:
    """``#iree_encoding.encoding<op_type = scaled_matmul, ...>`` of each of the five operands.

    The element types are the operands' own: no signedness is read from the body.
    """
    element_types = [v.type.get_element_type() for v in op.operands]
    maps = indexing_maps(op)
    sizes = static_loop_ranges(op)
    return [
        iree_encoding.EncodingAttr(index, iree_encoding.EncodingOpType.SCALED_MATMUL, element_types, maps, sizes)
        for index in range(len(op.operands))
    ]


def _conv_encodings(op: LinalgStructuredOperation) -> list[Attribute]:
    """``#iree_encoding.encoding<op_type = conv, ...>`` of input, filter and output.

    As for scaled matmuls, the element types are the operands' own.
    """
    element_types = [v.type.get_element_type() for v in op.operands]
    maps = indexing_maps(op)
    sizes = static_loop_ranges(op)
    return [
        iree_encoding.EncodingAttr(index, iree_encoding.EncodingOpType.CONV, element_types, maps, sizes)
        for index in (iree_encoding.CONV_INPUT, iree_encoding.CONV_FILTER, iree_encoding.CONV_OUTPUT)
    ]


def _recreate_with_operands(op: Operation, operands: list[SSAValue], result_type: TensorType) -> Operation:
    """``op`` on new operands and result type; same properties, attributes and body.

    The body is moved rather than copied (``op`` is left without regions):
    the caller replaces ``op`` by the new op at once.
    """
    regions = [op.detach_region(0) for _ in range(len(op.regions))]
    return type(op).create(
        operands=operands,
        result_types=[result_type],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=regions,
    )


def _resolved_sizes(value: SSAValue, point: InsertPoint) -> list[SSAValue]:
    """The dynamic sizes of ``value``; a linalg result is measured on its init, as MLIR's
    ``ResolveRankedShapedTypeResultDims`` patterns would rewrite ``tensor.dim`` of it."""
    while isinstance(value, OpResult) and isinstance(value.op, LinalgStructuredOperation):
        outputs = value.op.outputs
        if value.index >= len(outputs):
            break
        value = outputs[value.index]
    return get_dynamic_dims(value, point)


@dataclass
class SetDataTilingEncodings(RewritePattern):
    """IREE's ``setDataTilingEncodings``: encode the operands of an op with the data-tiling hint.

    Every input and the init get a ``set_encoding``; the op is cloned on the
    encoded values and its result decoded with ``unset_encoding``, sized like
    the original init. The hint is dropped. A hinted op that is not a contraction
    on tensors, or whose operands are already encoded, is an error.
    """

    encoding_option: str = "default"
    encoding_dims: bool = False

    @op_predicate_rewrite_pattern(has_data_tiling_hint)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        remove_data_tiling_hint(op)
        if not isinstance(op, LinalgStructuredOperation) or not has_pure_tensor_semantics(op):
            raise OpError(op, "has the data-tiling hint but is not a linalg op on tensors")
        dims = contraction_dims(op)
        scaled_dims = scaled_contraction_dims(op) if dims is None else None
        is_conv = dims is None and scaled_dims is None and convolution_dims(op) is not None
        if dims is None and scaled_dims is None and not is_conv:
            raise OpError(
                op, "has the data-tiling hint but data-tiling encodings are only derived for contractions and convolutions"
            )
        if any(has_encoding(v) for v in op.operands):
            raise OpError(op, "has the data-tiling hint but an operand already has an encoding")

        if is_conv:
            if self.encoding_option == "matmulk":
                raise OpError(op, "has the data-tiling hint but matmul_k encodings are not derived for convolutions")
            encodings = _conv_encodings(op)
        elif self.encoding_option == "matmulk":
            k_loops = dims.k if dims is not None else (*scaled_dims.k, *scaled_dims.kb)
            encodings = _matmul_k_encodings(op, k_loops)
        elif dims is not None:
            props = contraction_encoding_properties(op)
            encodings = [*props.inputs, *props.inits]
        else:
            encodings = _scaled_matmul_encodings(op)
        # Operands in encoding order: (lhs, rhs, out), (lhs, rhs, lhs_scales, rhs_scales, out)
        # or (input, filter, output).
        outputs = op.outputs
        operands = [*op.inputs, *outputs]
        types = operand_types_with_encodings(operands, encodings)

        before = InsertPoint.before(op)
        loop_dims = get_dynamic_loop_dims(op, before) if self.encoding_dims else []
        set_ops = [
            iree_encoding.SetEncodingOp(value, ty, loop_dims) for value, ty in zip(operands, types, strict=True)
        ]
        clone = _recreate_with_operands(op, [set_op.result for set_op in set_ops], types[-1])
        # One insertion, in the order (and with the notifications) of one op at a time.
        rewriter.insert([*set_ops, clone], before)
        sizes = _resolved_sizes(outputs[0], before)
        unset = iree_encoding.UnsetEncodingOp(clone.results[0], op.results[0].type, sizes, loop_dims)
        rewriter.insert(unset, before)
        rewriter.replace(op, [], [unset.result])


def _fill_like(fill: linalg.FillOp, init: SSAValue, user: Operation) -> linalg.FillOp:
    """``linalg.fill ins(fill's value) outs(init)``.

    When ``user`` is the fill's only user, the fill goes away with the rewrite
    and its body (the same ``yield`` of the value's type) moves to the new fill
    instead of being built again.
    """
    result_type = init.type
    old_body = fill.regions[0]
    inputs, outputs = fill.inputs, fill.outputs
    if (
        len(fill.results) == 1
        and len(outputs) == 1
        and [use.operation for use in fill.results[0].uses] == [user]
        and isinstance(result_type, TensorType)
        and result_type.element_type == outputs[0].type.element_type
        and not fill.attributes
    ):
        return linalg.FillOp.create(
            operands=[*inputs, init],
            result_types=[result_type],
            properties=dict(fill.properties),
            regions=[fill.detach_region(old_body)],
        )
    return linalg.FillOp(inputs, [init], [result_type])


class FoldFillWithSetEncoding(RewritePattern):
    """IREE's ``FoldFillWithSetEncoding``: ``set_encoding(linalg.fill)`` -> a fill of an encoded ``tensor.empty``.

    The fill overwrites every element, so there is nothing to relayout; the old
    fill (and its ``tensor.empty``) go away once unused.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.SetEncodingOp, rewriter: PatternRewriter) -> None:
        fill = op.source.owner
        if not isinstance(fill, linalg.FillOp):
            return
        point = InsertPoint.before(op)
        sizes = get_dynamic_dims(fill.outputs[0], point)
        empty = tensor.EmptyOp(sizes, op.result.type)
        new_fill = _fill_like(fill, empty.results[0], op)
        rewriter.insert([empty, new_fill], point)
        rewriter.replace(op, [], [new_fill.results[0]])
        erase_if_dead([fill], rewriter)


def _constant_padding_value(pad: tensor.PadOp) -> SSAValue | None:
    """The value every padded element gets, if the body yields one defined outside it."""
    block = pad.region.block
    terminator = block.last_op
    if terminator is None or len(terminator.operands) != 1:
        return None
    value = terminator.operands[0]
    defined_inside = value in block.args or (isinstance(value.owner, Operation) and value.owner.parent_block() is block)
    return None if defined_inside else value


def _padded_sizes(pad: tensor.PadOp, point: InsertPoint) -> list[SSAValue]:
    """The dynamic sizes of a pad's result: each source size plus its low and high pads, built at ``point``."""
    source_sizes = iter(_resolved_sizes(pad.source, point))
    lows, highs = iter(pad.low), iter(pad.high)
    static_lows, static_highs = pad.static_low.get_values(), pad.static_high.get_values()
    sizes: list[SSAValue] = []
    for axis, size in enumerate(pad.result.type.get_shape()):
        source = pad.source.type.get_shape()[axis]
        terms: list[SSAValue | int] = [
            next(source_sizes) if source == DYNAMIC_INDEX else source,
            next(lows) if static_lows[axis] == DYNAMIC_INDEX else static_lows[axis],
            next(highs) if static_highs[axis] == DYNAMIC_INDEX else static_highs[axis],
        ]
        if size != DYNAMIC_INDEX:
            continue
        values = [t for t in terms if not isinstance(t, int)]
        constant = sum(t for t in terms if isinstance(t, int))
        # The sizes are the pad's result's: they take its location.
        if constant:
            c = arith.ConstantOp(IntegerAttr(constant, IndexType()))
            c.location = pad.location
            Rewriter.insert_op(c, point)
            values.append(c.result)
        total = values[0]
        for value in values[1:]:
            add = arith.AddiOp(total, value)
            add.location = pad.location
            Rewriter.insert_op(add, point)
            total = add.result
        sizes.append(total)
    return sizes


class FoldFillWithPad(RewritePattern):
    """MLIR's ``FoldFillWithPad`` (a ``linalg.fill`` canonicalization IREE's pass runs):
    padding a fill with the fill's own value is a fill of the padded shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.PadOp, rewriter: PatternRewriter) -> None:
        fill = op.source.owner
        if not isinstance(fill, linalg.FillOp):
            return
        value = _constant_padding_value(op)
        if value is None or value != fill.inputs[0]:
            return
        point = InsertPoint.before(op)
        empty = tensor.EmptyOp(_padded_sizes(op, point), op.result.type)
        new_fill = linalg.FillOp([value], [empty.tensor], [op.result.type])
        rewriter.insert([empty, new_fill], point)
        rewriter.replace(op, [], [new_fill.res[0]])
        erase_if_dead([fill], rewriter)


# ---------------------------------------------------------------------------------------
# Padding encodings (encoding-option=padding)
# ---------------------------------------------------------------------------------------


def _operands_to_pad(op: Operation) -> list[int]:
    """IREE's ``getOperandsToPad``: [0, 1] for a contraction worth padding, else [].

    Not padded: a dynamic reduction loop, a skinny problem (static parallel
    loops whose product is below the threshold: matvec, vecmat, ...), an LHS
    or RHS produced by a single-result dispatch holding attention.
    """
    if not isinstance(op, LinalgStructuredOperation) or contraction_dims(op) is None:
        return []
    iterators = [t.data for t in op.get_iterator_types()]
    parallel_size: int | None = 1
    for kind, size in zip(iterators, static_loop_ranges(op), strict=True):
        if kind == IteratorType.REDUCTION:
            if size == DYNAMIC_INDEX:
                return []
            continue
        if parallel_size is not None:
            parallel_size = None if size == DYNAMIC_INDEX else parallel_size * size
    if parallel_size is not None and parallel_size < _SKINNY_MATMUL_THRESHOLD:
        return []
    operand_numbers = [0, 1]
    for number in operand_numbers:
        chain = producer_dispatch_value_and_op_chain(op.operands[number])
        if chain is None or len(chain.dispatch.results) != 1:
            continue
        if any(inner.name in _ATTENTION_OPS for inner in chain.dispatch.walk()):
            return []
    return operand_numbers


def _padding_encoding(rank: int) -> iree_encoding.PaddingAttr:
    """``#iree_encoding.padding<[0, ..., 0, ?]>``: the innermost dimension's pad is the backend's choice."""
    return iree_encoding.PaddingAttr([0] * (rank - 1) + [DYNAMIC_INDEX])


def _pad_producer_of_value(
    chain: ProducerChain, operand: SSAValue, point: InsertPoint, rewriter: PatternRewriter
) -> tuple[SSAValue, list[SSAValue]]:
    """IREE's ``padProducerOfValue``: a copy of the producer dispatch, built at ``point``,
    that returns ``operand`` (the reshape chain replayed inside) with the padding
    encoding. Returns the padded result and its dynamic sizes.
    """
    producer = chain.dispatch
    index = chain.producer.index
    operand_type = operand.type
    assert isinstance(operand_type, TensorType)
    padding = _padding_encoding(operand_type.get_num_dims())
    padded_type = TensorType(operand_type.get_element_type(), operand_type.get_shape(), padding)

    operand_dims = chain_result_dims(chain, point)
    result_types = [padded_type if i == index else r.type for i, r in enumerate(producer.results)]
    result_dims: list[SSAValue] = []
    for i in range(len(producer.results)):
        result_dims += operand_dims if i == index else dispatch_result_dims(producer, i)

    padded = flow.DispatchRegionOp(
        result_types, result_dims, list(producer.workload), producer.body.clone(), producer.workgroup_count.clone()
    )
    padded.attributes |= producer.attributes
    rewriter.insert(padded, point)

    # Replay the reshapes on the returned value, then encode it.
    terminator = padded.body.block.last_op
    assert isinstance(terminator, flow.ReturnOp)
    value = terminator.operands[index]
    inside = InsertPoint.before(terminator)
    for reshape in chain.ops:
        copy = reshape.clone()
        copy.operands[0] = value
        rewriter.insert(copy, inside)
        value = copy.results[0]
    set_op = iree_encoding.SetEncodingOp(value, padded_type)
    rewriter.insert(set_op, inside)
    terminator.operands[index] = set_op.result
    return padded.results[index], operand_dims


@dataclass
class SetPaddingEncodings(RewritePattern):
    """IREE's ``setPaddingEncodings``: pad the LHS and RHS of contractions inside dispatches.

    For each operand produced by another dispatch region (through single-use
    reshapes), the producer is rebuilt right before the consumer's region to
    return the operand with ``#iree_encoding.padding<[0, ..., 0, ?]>``, and the
    contraction reads it through an ``unset_encoding``. Other results of a
    multi-result producer keep coming from the original region.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LinalgStructuredOperation, rewriter: PatternRewriter) -> None:
        consumer_region = enclosing_dispatch_region(op)
        if consumer_region is None:
            return
        for number in _operands_to_pad(op):
            operand = op.operands[number]
            chain = producer_dispatch_value_and_op_chain(operand)
            if chain is None:
                continue
            old = chain.dispatch
            padded, dims = _pad_producer_of_value(chain, operand, InsertPoint.before(consumer_region), rewriter)
            unset = iree_encoding.UnsetEncodingOp(padded, operand.type, dims)
            rewriter.insert(unset, InsertPoint.before(op))
            rewriter.replace_uses_with_if(operand, unset.result, lambda use: use.operation is op)
            erase_if_dead([*reversed(chain.ops), old], rewriter)


# ---------------------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetEncodingPass(ModulePass):
    """Sets encodings on contraction operands, per ``encoding-option``.

    ``default``: ``#iree_encoding.encoding`` on the operands of every op with the
    data-tiling hint; ``matmulk``: ``#iree_encoding.matmul_k`` on them instead;
    ``padding``: ``#iree_encoding.padding`` on contraction operands produced by
    another dispatch. ``encoding-dims=true`` (``default`` only) attaches the
    dynamic loop sizes as ``encoding_dims{...}`` (IREE 3.13's form); by default
    the run's era decides (``compiler/era.py``, read when the pass is built):
    the data-tiling walkthrough leaves them out. In a run whose era attaches
    them, ``matmulk`` and ``padding`` encodings simply carry none.
    """

    name = "iree-dispatch-creation-set-encoding"

    encoding_option: str = "default"
    encoding_dims: bool = field(default_factory=lambda: run_era().encoding_dims)

    def __post_init__(self) -> None:
        if self.encoding_option not in _ENCODING_OPTIONS:
            raise ValueError(
                f"unknown encoding-option '{self.encoding_option}' (expected one of: {', '.join(_ENCODING_OPTIONS)})"
            )
        if self.encoding_dims and self.encoding_option != "default" and run_era().encoding_dims:
            # The era's default, not a request: these encodings have no sizes to carry.
            object.__setattr__(self, "encoding_dims", False)
        if self.encoding_dims and self.encoding_option != "default":
            raise ValueError(
                f"encoding-dims=true needs encoding-option=default: "
                f"'{self.encoding_option}' encodings carry no iteration sizes"
            )

    def _patterns(self) -> list[RewritePattern]:
        if self.encoding_option == "padding":
            return [SetPaddingEncodings()]
        return [
            SetDataTilingEncodings(self.encoding_option, self.encoding_dims),
            FoldFillWithSetEncoding(),
            FoldFillWithPad(),
        ]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in functions(op, nested=True):
            SelectivePatternRewriteWalker(GreedyRewritePatternApplier(self._patterns())).rewrite_region(
                function.regions[0]
            )


__all__ = [
    "FoldFillWithPad",
    "FoldFillWithSetEncoding",
    "SetDataTilingEncodings",
    "SetEncodingPass",
    "SetPaddingEncodings",
]
