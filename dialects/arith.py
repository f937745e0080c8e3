"""arith: xDSL's arith dialect plus the casts it lacks.

``arith.index_castui`` (zero-extending index cast) appears in every dispatch IREE
emits: push constants arrive as i32 halves, are joined into an i64 and cast to
``index`` unsigned.
"""

from xdsl.dialects import arith as _xdsl_arith
from xdsl.dialects.arith import Arith as _XDSLArith
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, TensorType, container_of
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, base, irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


_floating_point_like = container_of(AnyFloat)


def _print_overflow_flags(self: _xdsl_arith.IntegerOverflowAttr, printer) -> None:
    """``overflow<nsw, nuw>``: MLIR's IntegerOverflowFlags separate flags with ", " (xDSL with ",")."""
    flags = [flag.value for flag in _xdsl_arith.IntegerOverflowFlag if flag in self.data]
    with printer.delimited("<", ">"):
        printer.print_string(", ".join(flags) if flags else "none")


# xDSL's arith ops build this attribute class: its printing is changed in place.
_xdsl_arith.IntegerOverflowAttr.print_parameter = _print_overflow_flags  # type: ignore[method-assign]


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


def _float_width(type_: Attribute) -> int:
    element = type_.element_type if isinstance(type_, TensorType) else type_
    return element.bitwidth  # type: ignore[attr-defined]


def _element(type_: Attribute) -> Attribute:
    return type_.element_type if isinstance(type_, TensorType) else type_


class _ScalingCastOp(IRDLOperation):
    """The operands and format shared by ``arith.scaling_extf`` and ``arith.scaling_truncf``."""

    input = operand_def(_floating_point_like)
    scale = operand_def(_floating_point_like)
    result = result_def(_floating_point_like)
    fastmath = opt_prop_def(FastMathFlagsAttr)

    traits = traits_def(Pure())

    assembly_format = (
        "$input `,` $scale (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `,` type($scale) `to` type($result)"
    )

    def __init__(self, value: SSAValue | Operation, scale: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[value, scale], result_types=[target_type])

    def _verify_shapes(self) -> None:
        # MLIR's SameInputOutputTensorDims.
        shapes = {
            t.get_shape() if isinstance(t, TensorType) else None
            for t in (self.input.type, self.scale.type, self.result.type)
        }
        if len(shapes) != 1:
            raise VerifyException("requires the same shape for all operands and results")


@irdl_op_definition
class ScalingExtFOp(_ScalingCastOp):
    """Extend a small float, multiplied by its block scale (MX formats).

        %12 = arith.scaling_extf %in, %scale : f4E2M1FN, f8E8M0FNU to f32

    ``result = extf(in) * extf(scale)``, the scale first truncated to
    ``f8E8M0FNU`` (a power of two), as MLIR's arith-expand lowers it.
    https://mlir.llvm.org/docs/Dialects/ArithOps/#arithscaling_extf-arithscalingextfop
    """

    name = "arith.scaling_extf"

    def verify_(self) -> None:
        self._verify_shapes()
        source, result = _element(self.input.type), _element(self.result.type)
        if _float_width(source) >= _float_width(result):
            raise VerifyException(f"result type {result} must be wider than operand type {source}")


@irdl_op_definition
class ScalingTruncFOp(_ScalingCastOp):
    """Divide by the block scale, then truncate to a small float (MX formats).

        %15 = arith.scaling_truncf %in, %scale : f32, f32 to f4E2M1FN

    ``result = truncf(in / extf(scale))``, the scale first truncated to ``f8E8M0FNU``.
    https://mlir.llvm.org/docs/Dialects/ArithOps/#arithscaling_truncf-arithscalingtruncfop
    """

    name = "arith.scaling_truncf"

    def verify_(self) -> None:
        self._verify_shapes()
        source, result = _element(self.input.type), _element(self.result.type)
        if _float_width(source) <= _float_width(result):
            raise VerifyException(f"result type {result} must be shorter than operand type {source}")


def _allow_shaped_integer_to_float(op_cls: type[IRDLOperation]) -> None:
    """Let an xDSL int-to-float cast take tensors, as MLIR's does.

    xDSL 0.74 declares ``arith.uitofp``/``arith.sitofp`` on scalars only, while
    IREE's programs cast whole tensors (``arith.uitofp %m : tensor<64x256xi1> to
    tensor<64x256xf32>``). The op classes stay xDSL's, so every pass and the
    interpreter keep matching them; only their operand and result constraints
    widen to MLIR's "signless-integer-like" and "floating-point-like".
    """
    op_def = op_cls.get_irdl_definition()
    for defs, constr in ((op_def.operands, container_of(IntegerType)), (op_def.results, container_of(AnyFloat))):
        name, old = defs[0]
        defs[0] = (name, type(old)(constr))


for _cast_op in (_xdsl_arith.UIToFPOp, _xdsl_arith.SIToFPOp):
    _allow_shaped_integer_to_float(_cast_op)


def _integer_width(type_: Attribute) -> int:
    element = _element(type_)
    return element.width.data if isinstance(element, IntegerType) else 0


def _verify_integer_resize(larger: bool):
    """MLIR's verifier of ``arith.extui``/``extsi`` (``larger``) and ``arith.trunci`` on integers or
    tensors of them: one shape for operand and result, then the element widths (its cast check)."""

    def verify_(self: IRDLOperation) -> None:
        source, result = self.operands[0].type, self.results[0].type
        if isinstance(source, TensorType) and isinstance(result, TensorType):
            if source.get_shape() != result.get_shape():
                raise VerifyException("failed to verify that input and output have the same tensor dimensions")
        narrow, wide = _integer_width(source), _integer_width(result)
        if isinstance(source, TensorType) != isinstance(result, TensorType) or not (
            narrow < wide if larger else wide < narrow
        ):
            raise VerifyException(f"operand type '{source}' and result type '{result}' are cast incompatible")

    return verify_


def _allow_shaped_integer_resize(op_cls: type[IRDLOperation], larger: bool) -> None:
    """Let xDSL's integer extensions and truncation take tensors, as MLIR's do.

    IREE narrows whole loaded tensors (``arith.trunci %t : tensor<?xi8> to
    tensor<?xi1>``, iree-stream-encode-device-tensors); xDSL 0.74 declares these
    ops on scalars. As for the int-to-float casts above, the classes stay xDSL's
    and only their constraints (MLIR's "signless-integer-like") and width check widen.
    """
    op_def = op_cls.get_irdl_definition()
    for defs in (op_def.operands, op_def.results):
        name, old = defs[0]
        defs[0] = (name, type(old)(container_of(IntegerType)))
    op_cls.verify_ = _verify_integer_resize(larger)  # type: ignore[method-assign]


for _resize_op, _larger in ((_xdsl_arith.ExtUIOp, True), (_xdsl_arith.ExtSIOp, True), (_xdsl_arith.TruncIOp, False)):
    _allow_shaped_integer_resize(_resize_op, _larger)


Arith = Dialect(
    "arith", [*_XDSLArith.operations, IndexCastUIOp, ScalingExtFOp, ScalingTruncFOp], [*_XDSLArith.attributes]
)
