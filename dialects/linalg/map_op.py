"""`linalg.map`: an elementwise op applying its `mapper` region to each point of its inputs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ShapedType, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, region_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.linalg.payload_form import find_payload_op, parse_optional_payload, payload_body, print_payload
from mini_iree.dialects.linalg.syntax import element_type_or_self, parse_ins_outs, print_ins_outs, quoted_type, shape_of


@irdl_op_definition
class MapOp(IRDLOperation):
    """`init[i] = mapper(inputs[0][i], ..., init[i])` for every index `i` of the init.

    ```mlir
    %mapped = linalg.map { math.absf } ins(%a : tensor<4x?xf32>) outs(%init : tensor<4x?xf32>)
    %mapped_0 = linalg.map ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>)
      (%in: f32, %in_1: f32, %init: f32) {
        %0 = arith.addf %in, %in_1 : f32
        linalg.yield %0 : f32
      }
    ```

    The mapper takes one scalar per input and, last, the init's (as MLIR's
    `linalg.map` has since 2025). The short form `{ payload.op {attrs} }` stands
    for a mapper made of that op applied to the inputs' scalars and yielded;
    MLIR prints it whenever the mapper has that shape.

    Operands are a variadic `inputs` and a single `init` (no segment sizes,
    as in MLIR's generic form), so this is not an xDSL
    `LinalgStructuredOperation` subclass (whose two variadic groups need them);
    it is registered as one (below) since it offers the same interface
    (`inputs`, `outputs`, `res`, `body`, maps and iterator types), which
    lets the interpreter and the structured-op utilities run it as a generic.

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmap-linalgmapop.
    """

    name = "linalg.map"

    inputs = var_operand_def(ShapedType)
    init = operand_def(ShapedType)
    res = var_result_def(TensorType)
    body = region_def("single_block")

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        init: SSAValue | Operation,
        body: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        init = SSAValue.get(init)
        super().__init__(
            operands=[[SSAValue.get(v) for v in inputs], init],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            attributes=attributes,
            regions=[body],
        )

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%mapped`, `%mapped_0`...)."""
        return ["mapped"]

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        return (self.init,)

    @property
    def mapper(self) -> Region:
        return self.body

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        identity = AffineMapAttr(AffineMap.identity(len(shape_of(self.init.type))))
        return ArrayAttr([identity] * (len(self.inputs) + 1))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * len(shape_of(self.init.type)))

    def get_num_loops(self) -> int:
        return len(shape_of(self.init.type))

    def verify_(self) -> None:
        block = self.body.block
        if len(self.inputs) + 1 != len(block.args):
            raise VerifyException(
                "expects number of operands to match the arity of mapper, but got: "
                f"{len(self.inputs) + 1} and {len(block.args)}"
            )
        for arg, value in zip(block.args, self.inputs):
            element = element_type_or_self(value.type)
            if arg.type != element:
                raise VerifyException(
                    f"expected element type of input {quoted_type(element)} to match bbArg type "
                    f"{quoted_type(arg.type)}"
                )
        init_shape = shape_of(self.init.type)
        for value in self.inputs:
            shape = shape_of(value.type)
            if shape != init_shape:
                raise VerifyException(
                    f"expected shape of input ({_shape_list(shape)}) to match shape of output "
                    f"({_shape_list(init_shape)})"
                )
        if self.res and self.res[0].type != self.init.type:
            raise VerifyException(
                f"expected type of operand #{len(self.inputs)} ({quoted_type(self.init.type)}) to match "
                f"type of corresponding result ({quoted_type(self.res[0].type)})"
            )

    # -- syntax ---------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        pos = parser.pos
        payload = parse_optional_payload(parser)
        inputs, outputs = parse_ins_outs(parser)
        if len(outputs) != 1:
            parser.raise_error(f"expected one init in `outs`, got {len(outputs)}", pos, parser.pos)
        attributes = parser.parse_optional_attr_dict()
        if payload is not None:
            body = payload_body(parser, *payload, [*inputs, outputs[0]], init_first=False, pos=pos)
        else:
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
            body = parser.parse_region(args)
        return cls(inputs, outputs[0], body, attributes)

    def print(self, printer: Printer) -> None:
        payload = find_payload_op(self.body.blocks.first, init_first=False)
        if payload is not None:
            print_payload(printer, payload)
        print_ins_outs(printer, self.inputs, self.outputs)
        printer.print_op_attributes(self.attributes)
        if payload is not None:
            return
        block = self.body.block
        with printer.indented():
            printer.print_string("\n(")
            printer.print_list(block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.body, print_entry_block_args=False)


def _shape_list(shape: Sequence[int]) -> str:
    # MLIR prints the ArrayRef<int64_t> itself: a dynamic size is its sentinel value.
    return ", ".join(str(s if s >= 0 else -(2**63)) for s in shape)


# The structured-op interface, without LinalgStructuredOperation's two variadic operand groups.
LinalgStructuredOperation.register(MapOp)
