"""`iree-codegen-gpu-generalize-named-ops`: named linalg ops whose operand maps are projections -> `linalg.generic`.

IREE's GPU pipeline generalizes `linalg.batch_matmul`, `dot`, `matmul`,
`matvec`, `transpose` and `vecmat` right after encoding materialization (and
again after `iree-codegen-gpu-combine-layout-transformation`): the walkthrough's
dumps 20 and 21 print the swizzle's transposes as

```mlir
%30 = linalg.generic {indexing_maps = [affine_map<(d0, ..., d6) -> (d0, d1, d4, d2, d5, d6, d3)>,
                                       affine_map<(d0, ..., d6) -> (d0, ..., d6)>],
                      iterator_types = ["parallel", ...]}
    ins(%expanded : tensor<?x?x4x8x4x4x4xf32>) outs(%29 : tensor<?x?x8x4x4x4x4xf32>) {
^bb0(%in: f32, %out: f32):
  linalg.yield %in : f32
} -> tensor<?x?x8x4x4x4x4xf32>
```

Each op becomes a generic with the op's indexing maps and iterator types and
its scalar body (MLIR's `generalizeNamedOp`); a `lowering_config` or
`compilation_info` attribute is carried over, as IREE does. Other named ops
(`fill`, `copy`, `mmt4d`, convolutions, the relayout ops) are left alone, as in
IREE; mini-iree has no `linalg.dot`.

IREE: `Codegen/Common/GPU/GPUGeneralizeNamedOps.cpp`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from mini_iree.dialects import linalg

# The named ops IREE's pass generalizes (`linalg.dot` has no mini-iree counterpart).
GENERALIZED_OPS: tuple[type, ...] = (
    linalg.BatchMatmulOp,
    linalg.MatmulOp,
    linalg.MatvecOp,
    linalg.TransposeOp,
    linalg.VecmatOp,
)

# Attributes IREE passes down to the generic (user-set configuration).
_CARRIED_ATTRIBUTES = ("lowering_config", "compilation_info")


class GeneralizeNamedOpPattern(RewritePattern):
    """One named op -> the `linalg.generic` it stands for (MLIR's `linalg::generalizeNamedOp`)."""

    def match_and_rewrite(self, op, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, GENERALIZED_OPS):
            return
        body = op.body.clone()
        # MLIR's generic names its block arguments `%in` (inputs) and `%out` (inits).
        for index, arg in enumerate(body.block.args):
            arg.name_hint = "in" if index < len(op.inputs) else "out"
        generic = linalg.GenericOp(
            list(op.inputs),
            list(op.outputs),
            body,
            op.get_indexing_maps(),
            op.get_iterator_types(),
            list(op.results.types),
        )
        for name in _CARRIED_ATTRIBUTES:
            if name in op.attributes:
                generic.attributes[name] = op.attributes[name]
        generic.location = op.location
        rewriter.replace(op, generic)
        # A generic has no result name of its own (`%transposed` becomes `%30`).
        for result in generic.results:
            result.name_hint = None


@dataclass(frozen=True)
class GPUGeneralizeNamedOpsPass(ModulePass):
    """Named contractions and transposes -> `linalg.generic` (dumps 20/21)."""

    name = "iree-codegen-gpu-generalize-named-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GeneralizeNamedOpPattern(), apply_recursively=False).rewrite_module(op)
