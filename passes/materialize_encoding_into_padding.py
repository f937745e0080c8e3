"""``iree-codegen-materialize-encoding-into-padding``: the walkthrough-era pass for padding layouts.

At the walkthrough's IREE, ``iree-codegen-materialize-device-encoding`` left
functions whose target has ``#iree_gpu.gpu_padding_resolver`` alone and this
separate pass materialized them (Codegen/Common/MaterializeEncodingIntoPadding.cpp);
later IREE folded it into ``iree-codegen-materialize-device-encoding``
(``{test-gpu-encoding-resolver=gpu_padding}`` for functions without a target).
Here it is that pass with the padding resolver as the fallback: a function
without an executable target is materialized for the ``--iree-gpu-test-target``
GPU with the padding resolver, one with a target for its target. Padded
bindings take the padded shape, their loads and stores a slice at offset 0,
``set_encoding``/``unset_encoding`` become their operand, and every other op
runs on its tensors without encodings.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mini_iree.passes import pass_class

__all__ = ["MaterializeEncodingIntoPaddingPass"]


@dataclass(frozen=True)
class MaterializeEncodingIntoPaddingPass(ModulePass):
    """Materializes `#iree_encoding.padding` layouts (targetless functions: the GPU padding resolver)."""

    name = "iree-codegen-materialize-encoding-into-padding"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device_encoding = pass_class("iree-codegen-materialize-device-encoding")
        device_encoding(test_gpu_encoding_resolver="gpu_padding").apply(ctx, op)  # type: ignore[call-arg]
