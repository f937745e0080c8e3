"""IREE's `iree_linalg_ext` dialect: the ops that combine layout transformations.

Only what the data-tiling pipeline prints is defined: `map_store` (named
`map_scatter` before 2026; both spellings are registered, with the same
definition), its mirror `map_load`, and the `yield` terminator of their
index-transformation regions,
plus the syntax of `attention`, which some passes must recognize.
Syntax and verifier messages follow IREE's
`compiler/src/iree/compiler/Dialect/LinalgExt/IR/LinalgExtOps.{td,cpp}`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IndexType, IntegerType, MemRefType, ShapedType, TensorType
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_result_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminator of the regions of `iree_linalg_ext` ops.

    ```mlir
    iree_linalg_ext.yield %i, %j, %mask : index, index, i1
    ```
    """

    name = "iree_linalg_ext.yield"

    values = var_operand_def()

    traits = traits_def(IsTerminator(), Pure())

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        # IREE checks the yielded values in map_store's region verifier and
        # reports the error on this op; checking here keeps that location.
        parent = self.parent_op()
        if isinstance(parent, _MapStoreOpBase | MapLoadOp):
            parent.verify_yield(self)


class _MapStoreOpBase(IRDLOperation):
    """Definition shared by `map_store` and its former name `map_scatter`."""

    input = operand_def(ShapedType)
    output = operand_def(TensorType | MemRefType)
    result = opt_result_def(TensorType)
    transformation_region = region_def("single_block")

    def __init__(
        self,
        input: SSAValue | Operation,
        output: SSAValue | Operation,
        transformation_region: Region | Block,
    ):
        output_type = SSAValue.get(output).type
        region = transformation_region
        super().__init__(
            operands=[input, output],
            result_types=[[output_type] if isinstance(output_type, TensorType) else []],
            regions=[region if isinstance(region, Region) else Region(region)],
        )

    @property
    def input_rank(self) -> int:
        input_type = self.input.type
        assert isinstance(input_type, ShapedType)
        return input_type.get_num_dims()

    @property
    def output_rank(self) -> int:
        output_type = self.output.type
        assert isinstance(output_type, ShapedType)
        return output_type.get_num_dims()

    def verify_(self) -> None:
        input_type = self.input.type
        output_type = self.output.type
        assert isinstance(input_type, ShapedType) and isinstance(output_type, ShapedType)
        if input_type.get_element_type() != output_type.get_element_type():
            raise VerifyException("expected input and output element types to match")
        if input_type.get_num_dims() == 0:
            raise VerifyException("expected input type to have non-zero rank")
        body = self.transformation_region.block
        if len(body.args) != self.input_rank:
            raise VerifyException("expected number of block arguments to be equal to the input rank")
        if not all(isinstance(arg.type, IndexType) for arg in body.args):
            raise VerifyException("expected block arguments to be index types")
        _verify_destination_result(self.result, output_type)
        # SingleBlockImplicitTerminator<YieldOp>, with MLIR's message.
        last = body.last_op
        if last is None:
            raise VerifyException("expects a non-empty block")
        if not isinstance(last, YieldOp):
            if not last.has_trait(IsTerminator):
                # MLIR checks the trait after the ops nested in the region, whose
                # block check reports "block with no terminator" at `last` first.
                return
            raise VerifyException(f"expects regions to end with '{YieldOp.name}', found '{last.name}'")

    def verify_yield(self, yield_op: YieldOp) -> None:
        """The region verifier: one index per output dimension, then an `i1` mask."""
        output_type = self.output.type
        if not isinstance(output_type, ShapedType):
            return  # the operand constraint reports it
        types = [v.type for v in yield_op.values]
        if len(types) != output_type.get_num_dims() + 1:
            raise VerifyException(
                "expected transformation_region to yield a value for each output dimension and a mask"
            )
        if not all(isinstance(t, IndexType) for t in types[:-1]):
            raise VerifyException("expected yielded indices to be index types")
        mask_type = types[-1]
        if not (isinstance(mask_type, IntegerType) and mask_type.width.data == 1):
            raise VerifyException("expected yielded mask to be i1 type")

    @classmethod
    def parse(cls, parser: Parser):
        return _parse_map_op(cls, parser)

    def print(self, printer: Printer) -> None:
        _print_map_op(self, printer)


def _verify_destination_result(result: SSAValue | None, output_type: Attribute) -> None:
    """DestinationStyleOpInterface's check: a tensor output is returned, a memref is not."""
    num_tensor_outputs = 1 if isinstance(output_type, TensorType) else 0
    num_tensor_results = 0 if result is None else 1
    if num_tensor_results != num_tensor_outputs:
        raise VerifyException(
            f"expected the number of tensor results ({num_tensor_results}) to be equal "
            f"to the number of output tensors ({num_tensor_outputs})"
        )
    if result is not None and result.type != output_type:
        raise VerifyException(
            f"expected type of operand #1 ('{output_type}') to match type of corresponding result ('{result.type}')"
        )


def _parse_map_op(cls: type[IRDLOperation], parser: Parser) -> IRDLOperation:
    """`attr-dict $source `into` $output $transformation_region `:` type($source) `into` type($output)
    (`->` type($results)^)?`: the syntax of map_store, map_scatter and map_load."""
    attrs = parser.parse_optional_attr_dict()
    source = parser.parse_unresolved_operand()
    parser.parse_keyword("into")
    output = parser.parse_unresolved_operand()
    region = parser.parse_region()
    parser.parse_punctuation(":")
    source_type = parser.parse_type()
    parser.parse_keyword("into")
    output_type = parser.parse_type()
    result_types: list[Attribute] = []
    if parser.parse_optional_punctuation("->") is not None:
        result_types = [parser.parse_type()]
    # SingleBlockImplicitTerminator: a missing terminator is an empty yield.
    if not region.blocks:
        region.add_block(Block())
    if len(region.blocks) == 1:
        block = region.block
        last = block.last_op
        if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
            block.add_op(YieldOp())
    return cls.build(
        operands=[parser.resolve_operand(source, source_type), parser.resolve_operand(output, output_type)],
        result_types=[result_types],
        attributes=attrs,
        regions=[region],
    )


def _print_map_op(op: IRDLOperation, printer: Printer) -> None:
    source, output = op.operands
    printer.print_op_attributes(op.attributes)
    printer.print_string(" ")
    printer.print_operand(source)
    printer.print_string(" into ")
    printer.print_operand(output)
    printer.print_string(" ")
    # Like MLIR's declarative format for SingleBlockImplicitTerminator regions:
    # the terminator is left out only if it is an empty, attribute-free yield.
    region = op.regions[0]
    block = region.blocks.first
    terminator = None if block is None else block.last_op
    print_terminator = not (isinstance(terminator, YieldOp) and not terminator.values and not terminator.attributes)
    printer.print_region(region, print_block_terminators=print_terminator)
    printer.print_string(" : ")
    printer.print_attribute(source.type)
    printer.print_string(" into ")
    printer.print_attribute(output.type)
    if op.results:
        printer.print_string(" -> ")
        printer.print_attribute(op.results[0].type)


@irdl_op_definition
class MapStoreOp(_MapStoreOpBase):
    """Store every element of `input` at an index of `output` computed by a region.

    ```mlir
    %r = iree_linalg_ext.map_store %in into %out {
    ^bb0(%i: index, %j: index):
      %o:2 = affine.delinearize_index %i into (%d0, 128) : index, index
      %mask = arith.cmpi ult, %o#1, %n : index
      iree_linalg_ext.yield %o#0, %o#1, %j, %mask : index, index, index, i1
    } : tensor<?x?xf32> into tensor<?x128x?xf32> -> tensor<?x128x?xf32>
    ```

    The region takes one index per `input` dimension and yields one index per
    `output` dimension plus an `i1` mask; where the mask is true,
    `output[yielded] = input[args]`. Every input element goes to a unique place.
    With a tensor `output` the op returns the updated tensor; with a memref it
    writes in place and has no result.
    """

    name = "iree_linalg_ext.map_store"


@irdl_op_definition
class MapScatterOp(_MapStoreOpBase):
    """`iree_linalg_ext.map_store` under its name before 2026 (IREE #23481).

    ```mlir
    %r = iree_linalg_ext.map_scatter %in into %out {
    ^bb0(%i: index):
      iree_linalg_ext.yield %i, %true : index, i1
    } : tensor<?xf32> into tensor<?xf32> -> tensor<?xf32>
    ```
    """

    name = "iree_linalg_ext.map_scatter"


@irdl_op_definition
class MapLoadOp(IRDLOperation):
    """Read every element of `output` from an index of `source` computed by a region.

    ```mlir
    %r = iree_linalg_ext.map_load %src into %out {
    ^bb0(%i: index, %j: index):
      %k = affine.linearize_index disjoint [%i, %j] by (2, 4) : index
      %pad = arith.constant 0.0 : f32
      iree_linalg_ext.yield %k, %pad : index, f32
    } : tensor<8xf32> into tensor<2x4xf32> -> tensor<2x4xf32>
    ```

    The mirror of `map_store`, for relayouts read at a dispatch's start
    (combine-source-layout-transformation): the region takes one index per
    `output` dimension and yields one index per `source` dimension plus a
    padding value; `output[args] = source[yielded]`, or the padding value
    where the yielded index is out of the source's bounds.
    """

    name = "iree_linalg_ext.map_load"

    source = operand_def(ShapedType)
    output = operand_def(TensorType | MemRefType)
    result = opt_result_def(TensorType)
    transformation_region = region_def("single_block")

    def __init__(self, source: SSAValue | Operation, output: SSAValue | Operation, transformation_region: Region | Block):
        output_type = SSAValue.get(output).type
        region = transformation_region
        super().__init__(
            operands=[source, output],
            result_types=[[output_type] if isinstance(output_type, TensorType) else []],
            regions=[region if isinstance(region, Region) else Region(region)],
        )

    @property
    def source_rank(self) -> int:
        source_type = self.source.type
        assert isinstance(source_type, ShapedType)
        return source_type.get_num_dims()

    @property
    def padding_value(self) -> SSAValue:
        """The value read where the yielded index is out of bounds: the yield's last operand."""
        terminator = self.transformation_region.block.last_op
        assert isinstance(terminator, YieldOp)
        return terminator.values[-1]

    def verify_(self) -> None:
        source_type = self.source.type
        output_type = self.output.type
        assert isinstance(source_type, ShapedType) and isinstance(output_type, ShapedType)
        if source_type.get_element_type() != output_type.get_element_type():
            raise VerifyException("expected source and output element types to match")
        body = self.transformation_region.block
        if len(body.args) != output_type.get_num_dims():
            raise VerifyException("expected number of block arguments to be equal to the output rank")
        if not all(isinstance(arg.type, IndexType) for arg in body.args):
            raise VerifyException("expected block arguments to be index types")
        _verify_destination_result(self.result, output_type)

    def verify_yield(self, yield_op: YieldOp) -> None:
        """One index per source dimension, then a padding value of the source's element type."""
        source_type = self.source.type
        if not isinstance(source_type, ShapedType):
            return  # the operand constraint reports it
        types = [v.type for v in yield_op.values]
        if len(types) != source_type.get_num_dims() + 1:
            raise VerifyException(
                "expected transformation_region to yield a value for each source dimension and a padding value"
            )
        if not all(isinstance(t, IndexType) for t in types[:-1]):
            raise VerifyException("expected yielded indices to be index types")
        if types[-1] != source_type.get_element_type():
            raise VerifyException("expected yielded padding value type to match source element type")

    @classmethod
    def parse(cls, parser: Parser):
        return _parse_map_op(cls, parser)

    def print(self, printer: Printer) -> None:
        _print_map_op(self, printer)


@irdl_op_definition
class AttentionOp(IRDLOperation):
    """Scaled dot-product attention: `softmax(scale * Q @ K^T [+ mask]) @ V`.

    ```mlir
    %r = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #scale, #mask, #out]}
        ins(%q, %k, %v, %scale, %mask : tensor<...>, tensor<...>, tensor<...>, f32, tensor<...>)
        outs(%init : tensor<...>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<...>
    ```

    The inputs are query, key, value, scale and an optional mask; the region
    may modify each score before the softmax. Only its syntax is defined here:
    passes recognize it (dispatch formation, encoding fusion, padding leave
    attention producers alone) but no pass rewrites or executes it.
    """

    name = "iree_linalg_ext.attention"

    inputs = var_operand_def()
    outputs = var_operand_def(ShapedType)
    result_tensors = var_result_def(TensorType)
    region = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "attr-dict `ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)`"
        " $region (`->` type($result_tensors)^)?"
    )

    def verify_(self) -> None:
        if len(self.inputs) not in (4, 5):
            raise VerifyException(f"expected 4 or 5 inputs (query, key, value, scale, mask), got {len(self.inputs)}")
        maps = self.attributes.get("indexing_maps")
        if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr) for m in maps.data):
            raise VerifyException("expected an 'indexing_maps' array of affine maps")
        if len(maps.data) != len(self.inputs) + len(self.outputs):
            raise VerifyException("expected an indexing map for each input and output")


IREELinalgExt = Dialect(
    "iree_linalg_ext",
    [AttentionOp, MapLoadOp, MapStoreOp, MapScatterOp, YieldOp],
    [],
)
