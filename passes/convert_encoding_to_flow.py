"""``iree-dispatch-creation-convert-encoding-to-flow``: host-level encoding ops become `flow.tensor.encode`.

After fusion, a `set_encoding` / `unset_encoding` still outside every dispatch
region is a whole-tensor relayout the host must schedule. IREE gives it the
flow-level op `flow.tensor.encode`, which carries the dynamic sizes of its
operand and result and which the stream dialect later either folds away (when
the layouts agree) or turns into a dispatch of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.dispatch_regions import is_outside_dispatch
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.dialects import flow, iree_encoding

__all__ = ["ConvertEncodingToFlowPass"]


def _convert(op: iree_encoding.SetEncodingOp | iree_encoding.UnsetEncodingOp) -> None:
    point = InsertPoint.before(op)
    # The operand's sizes come from the IR where they already exist
    # (`hal.tensor.import ... {%0, %1}`), else from `tensor.dim`.
    operand_dims = get_dynamic_dims(op.source, point)
    if isinstance(op, iree_encoding.SetEncodingOp):
        result_dims = operand_dims
    else:
        # `unset_encoding` may slice: its result sizes are its own `{...}`, which
        # can be smaller than the encoded operand's.
        result_dims = list(op.result_dims)
    # `encoding_dims` have no counterpart on `flow.tensor.encode`; IREE drops them too.
    encode = flow.TensorEncodeOp(op.source, op.result.type, operand_dims, result_dims)
    Rewriter.replace_op(op, encode)


@dataclass(frozen=True)
class ConvertEncodingToFlowPass(ModulePass):
    """Rewrites every `set_encoding` / `unset_encoding` outside dispatch regions as `flow.tensor.encode`.

    Dynamic sizes are taken from values already in the IR (IREE's
    `findDynamicDims`), with `tensor.dim` as the fallback. Encoding ops inside a
    `flow.dispatch.region` are left untouched: they belong to that dispatch's
    code.
    """

    name = "iree-dispatch-creation-convert-encoding-to-flow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        targets = [
            o
            for o in op.walk()
            if isinstance(o, iree_encoding.SetEncodingOp | iree_encoding.UnsetEncodingOp) and is_outside_dispatch(o)
        ]
        for target in targets:
            _convert(target)
