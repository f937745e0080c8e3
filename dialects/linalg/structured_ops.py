"""`linalg.transpose`, `linalg.broadcast` and `linalg.reduce`."""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseArrayBase, ShapedType, TensorType, i64
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import SameVariadicOperandSize, irdl_op_definition, prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.linalg.bodies import build_identity_region
from mini_iree.dialects.linalg.payload_form import find_payload_op, parse_optional_payload, payload_body, print_payload
from mini_iree.dialects.linalg.syntax import (
    element_type_or_self,
    i64_array,
    invert_permutation,
    is_permutation,
    is_strictly_increasing,
    parse_dense_i64_array,
    parse_ins_outs,
    print_dense_i64_array,
    print_ins_outs,
    quoted_type,
    shape_of,
)
from mini_iree.dialects.linalg.verifiers import verify_structured_op

# ---------------------------------------------------------------------------------------
# transpose / broadcast / reduce
# ---------------------------------------------------------------------------------------


class _DstStyleOp(LinalgStructuredOperation, ABC):
    """Ops spelled `ins(...) outs(...) <name> = [...] {attrs}` with results
    inferred from the tensor inits (MLIR's `parseDstStyleOp`).

    They keep xDSL's `inputs`/`outputs`/`res`/`body` field names so xDSL's
    structured-op utilities work on them.
    """

    inputs = var_operand_def(ShapedType)
    outputs = var_operand_def(ShapedType)

    irdl_options = (SameVariadicOperandSize(),)

    ARRAY_NAME: ClassVar[str]

    def _array(self) -> tuple[int, ...]:
        return cast(DenseArrayBase, self.properties[self.ARRAY_NAME]).get_values()

    @classmethod
    def _parse_dst_style(cls, parser: Parser) -> tuple[list[SSAValue], list[SSAValue], list[int], dict[str, Attribute]]:
        leading = parser.parse_optional_attr_dict()
        inputs, outputs = parse_ins_outs(parser)
        values = parse_dense_i64_array(parser, cls.ARRAY_NAME)
        return inputs, outputs, values, {**leading, **parser.parse_optional_attr_dict()}

    def _print_dst_style(self, printer: Printer) -> None:
        print_ins_outs(printer, self.inputs, self.outputs)
        print_dense_i64_array(printer, self.ARRAY_NAME, self._array())
        printer.print_op_attributes(self.attributes)

    def _verify_single_input_and_init(self) -> None:
        if len(self.inputs) != 1:
            raise VerifyException(f"expected 2 operands, but found {len(self.operands)}")

    def _verify_sorted(self) -> None:
        if not is_strictly_increasing(self._array()):
            raise VerifyException(
                f"attribute '{self.ARRAY_NAME}' failed to satisfy constraint: "
                "i64 dense array attribute should be in increasing order"
            )

    def _verify_structured(self) -> None:
        verify_structured_op(
            self.inputs,
            self.outputs,
            self.res,
            self.body,
            [m.data for m in self.get_indexing_maps()],
            len(self.get_iterator_types()),
        )


@irdl_op_definition
class TransposeOp(_DstStyleOp):
    """Permute the dimensions of a tensor: `init[i] = input[permutation[i]]`.

    Redefined rather than reused: xDSL's prints `ins(%a:tensor<..>)` without
    MLIR's spaces around `:` and drops the attribute dictionary.

    ```mlir
    %transposed = linalg.transpose ins(%a : tensor<4x8xf32>)
        outs(%b : tensor<8x4xf32>) permutation = [1, 0]
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgtranspose-linalgtransposeop.
    """

    name = "linalg.transpose"

    permutation = prop_def(DenseArrayBase.constr(i64))

    ARRAY_NAME: ClassVar[str] = "permutation"

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%transposed`, `%transposed_0`...)."""
        return ["transposed"]

    def __init__(
        self,
        input: SSAValue | Operation,
        init: SSAValue | Operation,
        permutation: Sequence[int] | DenseArrayBase,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        init = SSAValue.get(init)
        input = SSAValue.get(input)
        if not isinstance(permutation, DenseArrayBase):
            permutation = i64_array(permutation)
        super().__init__(
            operands=[[input], [init]],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={"permutation": permutation},
            attributes=attributes,
            regions=[build_identity_region([input], [init])],
        )

    @property
    def input(self) -> SSAValue:
        return self.inputs[0]

    @property
    def init(self) -> SSAValue:
        return self.outputs[0]

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        perm = self._array()
        rank = len(shape_of(self.init.type))
        input_map = AffineMap(len(perm), 0, tuple(AffineExpr.dimension(d) for d in invert_permutation(perm)))
        return ArrayAttr([AffineMapAttr(input_map), AffineMapAttr(AffineMap.identity(rank))])

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * len(shape_of(self.init.type)))

    def verify_(self) -> None:
        self._verify_single_input_and_init()
        perm = self._array()
        if not is_permutation(perm):
            raise VerifyException("permutation is not valid")
        input_shape, init_shape = shape_of(self.input.type), shape_of(self.init.type)
        if len(input_shape) != len(init_shape):
            raise VerifyException(f"input rank {len(input_shape)} does not match init rank {len(init_shape)}")
        if len(perm) != len(input_shape):
            raise VerifyException(
                f"size of permutation {len(perm)} does not match the argument rank {len(input_shape)}"
            )
        for i, p in enumerate(perm):
            if input_shape[p] != init_shape[i]:
                raise VerifyException(
                    f"dim(result, {i}) = {init_shape[i]} doesn't match dim(input, permutation[{i}]) = {input_shape[p]}"
                )
        self._verify_structured()

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        inputs, outputs, perm, attributes = cls._parse_dst_style(parser)
        return cls.build(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs if isinstance(o.type, TensorType)]],
            properties={"permutation": i64_array(perm)},
            attributes=attributes,
            regions=[build_identity_region(inputs, outputs)],
        )

    def print(self, printer: Printer) -> None:
        self._print_dst_style(printer)


@irdl_op_definition
class BroadcastOp(_DstStyleOp):
    """Broadcast a tensor by inserting the `dimensions` of the init.

    Redefined rather than reused: xDSL's prints `ins(%a:tensor<..>)` without
    MLIR's spaces around `:` and drops the attribute dictionary.

    ```mlir
    %broadcasted = linalg.broadcast ins(%v : tensor<4xf32>)
        outs(%t : tensor<4x8xf32>) dimensions = [1]
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbroadcast-linalgbroadcastop.
    """

    name = "linalg.broadcast"

    dimensions = prop_def(DenseArrayBase.constr(i64))

    ARRAY_NAME: ClassVar[str] = "dimensions"

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%broadcasted`, `%broadcasted_0`...)."""
        return ["broadcasted"]

    def __init__(
        self,
        input: SSAValue | Operation,
        init: SSAValue | Operation,
        dimensions: Sequence[int] | DenseArrayBase,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        init = SSAValue.get(init)
        input = SSAValue.get(input)
        if not isinstance(dimensions, DenseArrayBase):
            dimensions = i64_array(dimensions)
        super().__init__(
            operands=[[input], [init]],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={"dimensions": dimensions},
            attributes=attributes,
            regions=[build_identity_region([input], [init])],
        )

    @property
    def input(self) -> SSAValue:
        return self.inputs[0]

    @property
    def init(self) -> SSAValue:
        return self.outputs[0]

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(shape_of(self.init.type))
        dims = set(self._array())
        input_map = AffineMap(rank, 0, tuple(AffineExpr.dimension(d) for d in range(rank) if d not in dims))
        return ArrayAttr([AffineMapAttr(input_map), AffineMapAttr(AffineMap.identity(rank))])

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * len(shape_of(self.init.type)))

    def verify_(self) -> None:
        self._verify_single_input_and_init()
        self._verify_sorted()
        dims = self._array()
        input_shape, init_shape = shape_of(self.input.type), shape_of(self.init.type)
        if len(input_shape) + len(dims) != len(init_shape):
            raise VerifyException(
                "input rank plus added dimensions does not match init rank. "
                f"input rank: {len(input_shape)}, dimensions size: {len(dims)}, init rank: {len(init_shape)}"
            )
        for index, dim in enumerate(dims):
            if dim < 0 or dim >= len(init_shape):
                raise VerifyException(
                    f"dimension {index} is out of range. expected range: [0, {len(init_shape) - 1}], got: {dim}"
                )
        kept = [d for d in range(len(init_shape)) if d not in dims]
        for input_dim, init_dim in enumerate(kept):
            if input_shape[input_dim] != init_shape[init_dim]:
                raise VerifyException(
                    f"input dim {input_dim} should match init dim {init_dim}. "
                    f"input: {input_shape[input_dim]}, init: {init_shape[init_dim]}"
                )
        self._verify_structured()

    @classmethod
    def parse(cls, parser: Parser) -> BroadcastOp:
        inputs, outputs, dims, attributes = cls._parse_dst_style(parser)
        return cls.build(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs if isinstance(o.type, TensorType)]],
            properties={"dimensions": i64_array(dims)},
            attributes=attributes,
            regions=[build_identity_region(inputs, outputs)],
        )

    def print(self, printer: Printer) -> None:
        self._print_dst_style(printer)


@irdl_op_definition
class ReduceOp(_DstStyleOp):
    """Reduce `dimensions` of the inputs into the inits with a combiner region.

    Redefined rather than reused: xDSL's prints `ins(%a:tensor<..>)`, accepts a
    single input only and has no short `{ arith.addf }` form.

    ```mlir
    %reduced = linalg.reduce { arith.addf } ins(%t : tensor<4x8xf32>)
        outs(%v : tensor<4xf32>) dimensions = [1]
    %reduced_0 = linalg.reduce ins(%t : tensor<4x8xf32>) outs(%v : tensor<4xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgreduce-linalgreduceop.
    """

    name = "linalg.reduce"

    dimensions = prop_def(DenseArrayBase.constr(i64))

    ARRAY_NAME: ClassVar[str] = "dimensions"

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%reduced`, `%reduced_0`...)."""
        return ["reduced"]

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        inits: Sequence[SSAValue | Operation],
        dimensions: Sequence[int] | DenseArrayBase,
        body: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        ins = [SSAValue.get(v) for v in inputs]
        outs = [SSAValue.get(v) for v in inits]
        if not isinstance(dimensions, DenseArrayBase):
            dimensions = i64_array(dimensions)
        super().__init__(
            operands=[ins, outs],
            result_types=[[o.type for o in outs if isinstance(o.type, TensorType)]],
            properties={"dimensions": dimensions},
            attributes=attributes,
            regions=[body],
        )

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(shape_of(self.inputs[0].type)) if self.inputs else 0
        dims = set(self._array())
        identity = AffineMap.identity(rank)
        reduced = AffineMap(rank, 0, tuple(AffineExpr.dimension(d) for d in range(rank) if d not in dims))
        maps = [identity] * len(self.inputs) + [reduced] * len(self.outputs)
        return ArrayAttr(AffineMapAttr(m) for m in maps)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        rank = len(shape_of(self.inputs[0].type)) if self.inputs else 0
        dims = set(self._array())
        return ArrayAttr(
            IteratorTypeAttr.reduction() if d in dims else IteratorTypeAttr.parallel() for d in range(rank)
        )

    def verify_(self) -> None:
        self._verify_sorted()
        dims = self._array()
        input_shapes = [shape_of(v.type) for v in self.inputs]
        init_shapes = [shape_of(v.type) for v in self.outputs]
        for index, shape in enumerate(input_shapes[1:], start=1):
            if shape != input_shapes[0]:
                raise VerifyException(
                    "expects all inputs to have the same shapes. Shape at input-index "
                    f"{index} is not equal to the shape at input-index 0."
                )
        for index, shape in enumerate(init_shapes[1:], start=1):
            if shape != init_shapes[0]:
                raise VerifyException(
                    "expects all outputs to have the same shapes. Shape at output-index "
                    f"{index} is not equal to the shape at output-index 0."
                )
        if not input_shapes:
            return
        input_dims, init_dims = input_shapes[0], init_shapes[0]
        for dim in dims:
            if dim < 0 or dim >= len(input_dims):
                raise VerifyException(f"dimensions for reduction should be in the range [0, {len(input_dims) - 1}].")
        reduced = [size for d, size in enumerate(input_dims) if d not in dims]
        if len(reduced) != len(init_dims):
            raise VerifyException(
                f"number of dimensions after reduction {len(reduced)} doesn't match the init rank {len(init_dims)}"
            )
        if tuple(reduced) != init_dims:
            raise VerifyException(
                f"init dimensions [{', '.join(map(str, init_dims))}] doesn't match input dimensions "
                f"after reduction [{', '.join(map(str, reduced))}]"
            )
        block = self.body.blocks.first
        if block is None or len(block.args) != len(self.operands):
            raise VerifyException("mismatching number of operands and block arguments")
        for value, arg in zip(self.inputs, block.args):
            element = element_type_or_self(value.type)
            if element != arg.type:
                raise VerifyException(
                    f"input element type {quoted_type(element)} does not match corresponding block argument "
                    f"type {quoted_type(arg.type)}"
                )
        for value, arg in zip(self.outputs, block.args[len(self.inputs) :]):
            element = element_type_or_self(value.type)
            if element != arg.type:
                raise VerifyException(
                    f"output element type {quoted_type(element)} does not match corresponding block argument "
                    f"type {quoted_type(arg.type)}"
                )
        self._verify_structured()

    # The short form `{ arith.addf }` stands for a body with one payload op
    # applied to (init, inputs...) and yielded (payload_form.py).

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        pos = parser.pos
        payload = parse_optional_payload(parser)
        inputs, outputs, dims, attributes = cls._parse_dst_style(parser)
        if payload is not None:
            body = payload_body(parser, *payload, [*inputs, *outputs], init_first=True, pos=pos)
        else:
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
            body = parser.parse_region(args)
        return cls.build(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs if isinstance(o.type, TensorType)]],
            properties={"dimensions": i64_array(dims)},
            attributes=attributes,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        payload = find_payload_op(self.body.blocks.first, init_first=True)
        if payload is not None:
            print_payload(printer, payload)
        self._print_dst_style(printer)
        if payload is not None:
            return
        block = self.body.block
        with printer.indented():
            printer.print_string("\n(")
            printer.print_list(block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.body, print_entry_block_args=False)


