"""``iree_encoding``: setting and unsetting an encoding keeps the logical value.

An encoding says how a tensor *will* be laid out; until an op materializes it
(``linalg.pack`` after ``iree-codegen-materialize-device-encoding``) the
interpreter holds the logical array. ``set_encoding`` therefore returns its
operand, and ``unset_encoding`` returns it cut down to the result dims: IREE
gives ``unset_encoding`` slicing semantics, so dynamic result dims may be
smaller than the encoded tensor's (the padding a pack added is dropped).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from mini_iree.compiler.interpreter.core import InterpreterError
from mini_iree.compiler.interpreter.bindings import shape_with_dims
from mini_iree.compiler.interpreter.flow_ops import slice_to_shape
from mini_iree.dialects import iree_encoding

__all__ = ["EncodingFunctions"]


@register_impls
class EncodingFunctions(InterpreterFunctions):
    """``iree_encoding.set_encoding`` / ``unset_encoding``."""

    @impl(iree_encoding.SetEncodingOp)
    def run_set_encoding(self, interpreter: Interpreter, op: iree_encoding.SetEncodingOp, args: tuple):
        value = np.asarray(args[0])
        assert isinstance(op.result.type, TensorType)
        static = op.result.type.get_shape()
        if value.ndim != len(static) or any(s >= 0 and s != n for s, n in zip(static, value.shape)):
            raise InterpreterError(op, f"value of shape {value.shape} does not match {op.result.type}")
        return (value,)

    @impl(iree_encoding.UnsetEncodingOp)
    def run_unset_encoding(self, interpreter: Interpreter, op: iree_encoding.UnsetEncodingOp, args: tuple):
        values = dict(zip(op.operands, args))
        dims = [values[d] for d in op.result_dims]
        assert isinstance(op.result.type, TensorType)
        shape = shape_with_dims(op, op.result.type.get_shape(), dims)
        return (slice_to_shape(op, args[0], shape),)


FUNCTIONS = (EncodingFunctions,)
