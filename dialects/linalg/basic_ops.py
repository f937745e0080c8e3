"""xDSL's `linalg.generic` (with MLIR's syntax for several results), `yield` and `copy`,
and `linalg.index`."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, StringAttr, i64
from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.traits import HasParent
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.linalg.syntax import parse_ins_outs, parse_optional_arrow_type_list

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


