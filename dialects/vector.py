"""The `vector` dialect: only `vector.vscale`, what scalable data tiling emits.

`vector.vscale` is the run-time multiple of the base vector length (SVE's and
RVV's `vscale`). A scalable inner tile of `N0` elements is
`arith.muli %vscale, %cN0` (MLIR prints the product `%cN0_vscale`).
Upstream: https://mlir.llvm.org/docs/Dialects/Vector/#vectorvscale-vectorvectorscaleop

The interpreter runs it as `--iree-experimental-vscale-value`, 1 when not given
(`compiler/interpreter/vector_ops.py`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class VectorScaleOp(IRDLOperation):
    """`%vscale = vector.vscale`: the scale of scalable vector types (an `index`)."""

    name = "vector.vscale"
    res = result_def(IndexType())
    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])

    def asm_result_names(self) -> list[str | None]:
        return ["vscale"]


Vector = Dialect("vector", [VectorScaleOp], [])
