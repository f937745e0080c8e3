"""Convolutions: xDSL's, with strides and dilations defaulting to 1."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, DenseIntElementsAttr, DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.dialects.linalg.abstract_ops import ConvOperation, NamedOperation, PoolingOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Operation, Region
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def

# ---------------------------------------------------------------------------------------
# Convolutions: strides and dilations default to 1
# ---------------------------------------------------------------------------------------


class _DefaultedConv:
    """A convolution seen with its strides and dilations filled in (MLIR's
    `DefaultValuedOptionalAttr`: absent means 1 in every spatial dim)."""

    def __init__(self, op: Operation, spatial: int = 2):
        self._op = op
        ones = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [spatial]), [1] * spatial)
        self.strides = _every_element(op.properties.get("strides")) or ones
        self.dilations = _every_element(op.properties.get("dilations")) or ones

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


def _conv_op(
    name: str, class_name: str, get_default_indexing_maps, extra: dict | None = None, base: type = ConvOperation
) -> type:
    """A convolution op with optional `strides`/`dilations`, as MLIR defines them: an op
    written without them parses, prints without them and has the indexing maps of unit
    strides and dilations."""

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
        "name": name,
        "__doc__": f"`{name}`; `strides` and `dilations` default to 1.",
        "__module__": __name__,
        "__qualname__": class_name,
        "strides": opt_prop_def(DenseIntElementsAttr),
        "dilations": opt_prop_def(DenseIntElementsAttr),
        "get_default_indexing_maps": get_default_indexing_maps,
        "__init__": __init__,
        **(extra or {}),
    }
    return irdl_op_definition(type(class_name, (base,), namespace))


def _max_pooling_region(cls, inputs, outputs) -> Region:
    """MLIR's max pooling body, ``max(out, in)`` (xDSL's takes the max of input and window)."""
    arg_types = cls.body_arg_types((*inputs, *outputs))
    max_op = arith.MaximumfOp if isinstance(arg_types[-1], AnyFloat) else arith.MaxSIOp

    @Builder.implicit_region(arg_types)
    def region(args) -> None:
        xdsl_linalg.YieldOp(max_op(args[2], args[0]))

    return region


def _conv_with_default_strides(xdsl_op: type) -> type:
    """xDSL's 2-D convolution (or pooling) `xdsl_op`, with strides and dilations
    defaulting to 1 and splats (`dense<1> : tensor<2xi64>`) read per dim."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return xdsl_op.get_default_indexing_maps(_DefaultedConv(self))

    if issubclass(xdsl_op, PoolingOperation):
        extra = {"get_hidden_region": classmethod(_max_pooling_region)}
        return _conv_op(xdsl_op.name, xdsl_op.__name__, get_default_indexing_maps, extra, PoolingOperation)
    return _conv_op(xdsl_op.name, xdsl_op.__name__, get_default_indexing_maps)


Conv2DNchwFchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNchwFchwOp)
Conv2DNhwgcGfhwcOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwgcGfhwcOp)
Conv2DNhwcHwcfOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwc_HwcfOp)
Conv2DNgchwGfchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNgchwGfchwOp)
Conv2DNgchwFgchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNgchwFgchwOp)
Conv2DNhwcFhwcOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwc_FhwcOp)
PoolingNchwMaxOp = _conv_with_default_strides(xdsl_linalg.PoolingNchwMaxOp)




# ---------------------------------------------------------------------------------------
# Convolutions xDSL does not define: 1-D and 3-D channels-last
# ---------------------------------------------------------------------------------------


def _channels_last_conv(name: str, class_name: str, spatial: int) -> type:
    """MLIR's ``conv_{1,3}d_n*c_*cf``: loops ``(n, o_1..o_s, f, k_1..k_s, c)``; the input is
    read at ``o_i * stride_i + k_i * dilation_i``, the filter is ``(k_1..k_s, c, f)``."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        conv = _DefaultedConv(self, spatial)
        strides, dilations = conv.strides.get_values(), conv.dilations.get_values()
        dims = [AffineDimExpr(d) for d in range(2 * spatial + 3)]
        n, out, f, win, c = dims[0], dims[1 : 1 + spatial], dims[1 + spatial], dims[2 + spatial : -1], dims[-1]
        image = [o * s + k * d for o, k, s, d in zip(out, win, strides, dilations, strict=True)]
        loops = len(dims)
        return (
            AffineMap(loops, 0, (n, *image, c)),
            AffineMap(loops, 0, (*win, c, f)),
            AffineMap(loops, 0, (n, *out, f)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        # n, the output image and f are parallel; the window and c reduce (ConvOperation
        # assumes three reduction loops, true in 2-D only).
        return ArrayAttr(
            (IteratorTypeAttr.parallel(),) * (spatial + 2) + (IteratorTypeAttr.reduction(),) * (spatial + 1)
        )

    return _conv_op(name, class_name, get_default_indexing_maps, {"get_iterator_types": get_iterator_types})


Conv1DNwcWcfOp = _channels_last_conv("linalg.conv_1d_nwc_wcf", "Conv1DNwcWcfOp", 1)
Conv3DNdhwcDhwcfOp = _channels_last_conv("linalg.conv_3d_ndhwc_dhwcf", "Conv3DNdhwcDhwcfOp", 3)
