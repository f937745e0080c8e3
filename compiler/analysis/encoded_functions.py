"""The functions encoding materialization rewrites: those that hold an encoded tensor type.

A function holds one when a block argument or an op result anywhere in it is
a tensor with an encoding, or a dispatch tensor bound to one. Functions of
nested modules (executables' inner modules) count; declarations do not.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation

from mini_iree.compiler.analysis.functions import functions
from mini_iree.dialects import iree_tensor_ext

__all__ = ["encoded_functions"]


def _has_encoding(ty: Attribute) -> bool:
    if isinstance(ty, iree_tensor_ext.DispatchTensorTypeBase):
        ty = ty.bound_type
    return isinstance(ty, TensorType) and not isinstance(ty.encoding, NoneAttr)


def encoded_functions(module: ModuleOp) -> list[Operation]:
    """The ``func.func`` ops with a body that hold an encoded tensor type, in ``module.walk()`` order."""
    return [
        op
        for op in functions(module, kinds=("func.func",), defined=True, nested=True)
        if any(_has_encoding(t) for t in _types_in(op))
    ]


def _types_in(func_op: Operation) -> Iterator[Attribute]:
    for op in func_op.walk():
        for result in op.results:
            yield result.type
    for arg in func_op.regions[0].blocks[0].args:
        yield arg.type
