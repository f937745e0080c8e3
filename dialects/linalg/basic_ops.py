"""xDSL's `linalg.generic` (with MLIR's syntax for several results), `yield` and `copy`,
and `linalg.index`."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, StringAttr, TensorType, i64
from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait, HasParent
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.linalg.syntax import parse_ins_outs, parse_optional_arrow_type_list
from mini_iree.dialects.tensor import CastOp

# Re-exported so that `from mini_iree.dialects.linalg import GenericOp` works for
# every op of the dialect, ours or xDSL's.
GenericOp = xdsl_linalg.GenericOp
YieldOp = xdsl_linalg.YieldOp
CopyOp = xdsl_linalg.CopyOp


@irdl_op_definition
class IndexOp(IRDLOperation):
    """`linalg.index 1 : index`: the index of a loop of the enclosing linalg op.

    xDSL's op with MLIR's verifier: the loop must exist (a dim past the last loop
    would reach the passes and the interpreter).
    """

    name = "linalg.index"

    dim = prop_def(IntegerAttr[i64])
    result = result_def(IndexType)

    traits = traits_def(HasParent(GenericOp))

    assembly_format = "$dim attr-dict `:` type($result)"

    def __init__(self, dim: int):
        super().__init__(properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()])

    def verify_(self) -> None:
        dim = self.dim.value.data
        if dim < 0:
            raise VerifyException(
                "attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0"
            )
        parent = self.parent_op()
        if isinstance(parent, GenericOp) and dim >= (loops := len(parent.iterator_types.data)):
            raise VerifyException(
                f"expected dim ({dim}) to be lower than the number of loops ({loops}) of the enclosing LinalgOp"
            )

def _parse_generic(cls: type[GenericOp], parser: Parser) -> GenericOp:
    """xDSL's `linalg.generic` syntax, with MLIR's `-> (T1, T2)` for several results.

    xDSL 0.74 reads the results as a bare comma list, so `-> (tensor<..>, tensor<..>)`
    (as MLIR prints a multi-result generic) fails to parse there.
    """
    start = parser.pos
    attrs = dict(parser.parse_optional_attr_dict())
    end = parser.pos
    maps = attrs.pop("indexing_maps", None)
    if not isinstance(maps, ArrayAttr):
        parser.raise_error("Expected indexing_maps for linalg.generic", start, end)
    iterators = attrs.pop("iterator_types", None)
    if not isinstance(iterators, ArrayAttr):
        parser.raise_error("Expected iterator_types for linalg.generic", start, end)
    iterator_types: list[IteratorTypeAttr] = []
    for iterator in iterators.data:
        if isinstance(iterator, StringAttr):
            iterator = IteratorTypeAttr(IteratorType(iterator.data))
        if not isinstance(iterator, IteratorTypeAttr):
            parser.raise_error(f"Unknown iterator type {iterator}", start, end)
        iterator_types.append(iterator)
    doc = attrs.pop("doc", None)
    library_call = attrs.pop("library_call", None)
    inputs, outputs = parse_ins_outs(parser)
    if parser.parse_optional_keyword("attrs") is not None:
        parser.parse_punctuation("=")
        attrs |= parser.expect(parser.parse_optional_attr_dict, "expect extra attributes")
    body = parser.parse_region()
    results = parse_optional_arrow_type_list(parser)
    # xDSL also takes (and older tests write) a bare list: `-> tensor<..>, tensor<..>`.
    while results and parser.parse_optional_punctuation(",") is not None:
        results.append(parser.parse_type())
    op = cls(inputs, outputs, body, maps, ArrayAttr(iterator_types), results, doc, library_call)
    op.attributes |= attrs
    return op


GenericOp.parse = classmethod(_parse_generic)  # type: ignore[method-assign]




# ---------------------------------------------------------------------------
# linalg.generic's canonicalization (MLIR's GenericOp::getCanonicalizationPatterns)
# ---------------------------------------------------------------------------


class EraseIdentityGenericOp(RewritePattern):
    """A generic that only yields its own block arguments, every operand read alike, is those operands.

    MLIR's ``EraseIdentityLinalgOp<GenericOp>`` on tensors: all indexing maps are
    equal and the body is a lone ``linalg.yield`` of block arguments; each result
    is replaced by the operand it yields (through a ``tensor.cast`` when only
    static sizes differ). An identity copy so disappears before dispatches form.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter, /) -> None:
        maps = op.indexing_maps.data
        if any(m != maps[0] for m in maps) or not op.results:
            return
        if any(not isinstance(v.type, TensorType) for v in op.operands):
            return  # buffers and mixed semantics are left alone, as MLIR leaves them
        block = op.body.block
        yielded = block.first_op
        if not isinstance(yielded, YieldOp) or yielded is not block.last_op:
            return
        replacements: list[SSAValue] = []
        new_ops: list[Operation] = []
        for value, result in zip(yielded.operands, op.results, strict=True):
            if not isinstance(value, BlockArgument) or value.block is not block:
                return
            source = op.operands[value.index]
            if source.type != result.type:
                if not _cast_compatible(source.type, result.type):
                    return
                cast = CastOp(source, result.type)
                cast.location = op.location
                new_ops.append(cast)
                source = cast.results[0]
            replacements.append(source)
        rewriter.replace(op, new_ops, replacements)


def _cast_compatible(source: Attribute, dest: Attribute) -> bool:
    """``tensor::CastOp::areCastCompatible`` of ranked tensors: same element type and rank, sizes agree."""
    if not isinstance(source, TensorType) or not isinstance(dest, TensorType):
        return False
    if source.element_type != dest.element_type or source.get_num_dims() != dest.get_num_dims():
        return False
    return all(a == b or a < 0 or b < 0 for a, b in zip(source.get_shape(), dest.get_shape()))


class _GenericCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (EraseIdentityGenericOp(),)


# xDSL's generic has no canonicalization patterns; it gets MLIR's here, where the
# dialect's other additions to xDSL's class (its parser) are made.
GenericOp.traits.add_trait(_GenericCanonicalization())
