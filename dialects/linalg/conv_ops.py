"""Convolutions: xDSL's, with strides and dilations defaulting to 1."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import DenseIntElementsAttr, DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.dialects.linalg.abstract_ops import ConvOperation, NamedOperation
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def

# ---------------------------------------------------------------------------------------
# Convolutions: strides and dilations default to 1
# ---------------------------------------------------------------------------------------


class _DefaultedConv:
    """A convolution seen with its strides and dilations filled in (MLIR's
    `DefaultValuedOptionalAttr`: absent means 1 in every spatial dim)."""

    _ONES = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [1, 1])

    def __init__(self, op: Operation):
        self._op = op
        self.strides = _every_element(op.properties.get("strides")) or self._ONES
        self.dilations = _every_element(op.properties.get("dilations")) or self._ONES

    def __getattr__(self, name: str):
        return getattr(self._op, name)


def _every_element(attr: Attribute | None) -> Attribute | None:
    """``attr`` with each element stored: xDSL's convolutions unpack one value per dim,
    and a splat (``dense<2> : tensor<2xi64>``) keeps one."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        if len(values) == 1 and prod(attr.get_shape()) != 1:
            values = values * prod(attr.get_shape())  # a splat stores its one element
        return DenseIntOrFPElementsAttr.from_list(attr.type, values)
    return attr


def _conv_with_default_strides(xdsl_op: type) -> type:
    """xDSL's 2-D convolution `xdsl_op` with optional `strides`/`dilations`, as MLIR
    defines them: an op written without them parses, prints without them and has the
    indexing maps of unit strides and dilations."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return xdsl_op.get_default_indexing_maps(_DefaultedConv(self))

    def __init__(self, inputs, outputs=(), res=None, attributes=None, *, strides=None, dilations=None):
        NamedOperation.__init__(
            self,
            ins=inputs,
            outs=outputs,
            attributes=attributes,
            result_types=res,
            properties={"strides": strides, "dilations": dilations},
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    namespace = {
        "name": xdsl_op.name,
        "__doc__": f"`{xdsl_op.name}`; `strides` and `dilations` default to 1.",
        "__module__": __name__,
        "__qualname__": xdsl_op.__name__,
        "strides": opt_prop_def(DenseIntElementsAttr),
        "dilations": opt_prop_def(DenseIntElementsAttr),
        "get_default_indexing_maps": get_default_indexing_maps,
        "__init__": __init__,
    }
    return irdl_op_definition(type(xdsl_op.__name__, (ConvOperation,), namespace))


Conv2DNchwFchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNchwFchwOp)
Conv2DNhwgcGfhwcOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwgcGfhwcOp)
Conv2DNhwcHwcfOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwc_HwcfOp)
Conv2DNgchwGfchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNgchwGfchwOp)
Conv2DNgchwFgchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNgchwFgchwOp)
Conv2DNhwcFhwcOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwc_FhwcOp)


