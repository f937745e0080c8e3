"""arith: xDSL's arith dialect plus the casts it lacks.

``arith.index_castui`` (zero-extending index cast) appears in every dispatch IREE
emits: push constants arrive as i32 halves, are joined into an i64 and cast to
``index`` unsigned.
"""

from xdsl.dialects.arith import Arith as _XDSLArith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, base, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """Cast between ``index`` and an integer type, zero-extending or truncating.

        %14 = arith.index_castui %13 : i64 to index

    https://mlir.llvm.org/docs/Dialects/ArithOps/#arithindex_castui-arithindexcastuiop
    """

    name = "arith.index_castui"

    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, value: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[value], result_types=[target_type])

    def verify_(self) -> None:
        # Exactly one side is `index`, as for arith.index_cast.
        if isinstance(self.input.type, IndexType) == isinstance(self.result.type, IndexType):
            raise VerifyException(
                f"operand type '{self.input.type}' and result type '{self.result.type}' are cast incompatible"
            )


Arith = Dialect("arith", [*_XDSLArith.operations, IndexCastUIOp], [*_XDSLArith.attributes])
