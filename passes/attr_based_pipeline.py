"""``iree-preprocessing-attr-based-pipeline``: run the pipeline a function names in an attribute.

A function may ask for its own preprocessing:

    util.func @f(...) attributes {
        preprocessing_pipeline = #util.preprocessing_pipeline<"iree-dispatch-creation-form-dispatch-regions">}

This pass runs that pipeline (any passes and named pipelines ``-p`` accepts)
on that function alone; functions without the attribute are untouched. An
attribute of another kind gets IREE's remark and is skipped. Source: IREE
``compiler/src/iree/compiler/Preprocessing/Common/AttrBasedPipelinePass.cpp``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass

from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.ir.diagnostics import DiagnosticError, OpError, SourceLoc
from mini_iree.dialects import util

PREPROCESSING_PIPELINE_ATTR = "preprocessing_pipeline"


def _remark(op: Operation, message: str) -> None:
    """A remark at ``op`` on stderr, as MLIR's ``emitRemark`` prints it; processing goes on."""
    loc = SourceLoc.from_attr(op.location)
    print(f"{loc or 'loc(unknown)'}: remark: {message}", file=sys.stderr)


def _build(pipeline: str) -> list[ModulePass]:
    from mini_iree.compiler.tools.pipeline import build_passes, parse_pipeline_text
    from mini_iree.passes import get_all_passes, get_all_pipelines

    refs = parse_pipeline_text(pipeline, mlir_syntax=False)
    return build_passes(refs, get_all_passes(), get_all_pipelines())


def _run_on_function(ctx: Context, function: Operation, passes: list[ModulePass]) -> None:
    """Run ``passes`` on a module holding only ``function``, then put everything back in its place.

    mini-iree's passes are module passes; a module of one function is what a
    pass manager nested on that function lets them see. Ops a pass adds next to
    the function (a global, an initializer) go before it in the real module.
    """
    block = function.parent_block()
    assert block is not None
    anchor = function.next_op
    function.detach()
    scratch = ModuleOp(Region(Block()))
    scratch.body.block.add_op(function)
    try:
        for pass_ in passes:
            pass_.apply(ctx, scratch)
    finally:
        for op in list(scratch.body.block.ops):
            op.detach()
            if anchor is not None:
                block.insert_op_before(op, anchor)
            else:
                block.add_op(op)


@dataclass(frozen=True)
class AttrBasedPipelinePass(ModulePass):
    """Runs, on each ``func.func``/``util.func``, the pipeline of its ``preprocessing_pipeline`` attribute."""

    name = "iree-preprocessing-attr-based-pipeline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in functions(op, nested=True):
            attr = function.attributes.get(PREPROCESSING_PIPELINE_ATTR)
            if attr is None:
                continue
            if not isinstance(attr, util.PreprocessingPipelineAttr):
                _remark(
                    function,
                    "expected preprocessing_pipeline attribute to be a `StringAttr` that specifies the pass "
                    "pipeline to apply",
                )
                continue
            pipeline = attr.pipeline_string.data
            try:
                passes = _build(pipeline)
            except DiagnosticError:
                raise OpError(function, f"failed to populate pass manager specified by : {pipeline}") from None
            _run_on_function(ctx, function, passes)


__all__ = ["AttrBasedPipelinePass", "PREPROCESSING_PIPELINE_ATTR"]
