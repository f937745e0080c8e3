"""``iree-stream-annotate-dispatch-assumptions``: tell dispatch functions what the host knows about their operands.

For every export of a ``stream.executable``, the pass looks at each dispatch
site's scalar operands and asks what the host program knows about them (an
unsigned range, a divisor; see ``mini_iree.compiler.analysis.integer_facts``). An
integer or index argument known something about at some site gets a
``util.assume.int`` at the top of the function, with one assumption per
dispatch site, and every other use of the argument goes through it:

    func.func @_encoding_0_encode_DxDxf32_to_DxDxf32(%arg0: !stream.binding, %arg1: index, ...) {
      %0:4 = util.assume.int
          %arg1<umin = 0, umax = 9007199254740991>,
          ...

A tensor dimension read by ``hal.buffer_view.dim`` is at most 2^53 - 1, which
is where the walkthrough's ``<umin = 0, umax = 9007199254740991>`` comes from;
a size computed as ``x * 64`` is ``<udiv = 64>``.

A resource offset passed as an operand (``iree-stream-fuse-dispatch-bindings``)
is a sum of aligned slice sizes: the matmul's RHS offset in the walkthrough is
the LHS's byte size, ``ceildivsi(M, 128) * 128 * 4 * ceildivsi(K, 16) * 16``,
hence dump 18's ``<udiv = 8192>``.

Left alone: arguments nothing is known about, functions without dispatch
sites, executables other than ``stream.executable``. Dispatch sites are
``stream.cmd.dispatch`` ops as in IREE, or the ``stream.async.dispatch`` ops
of a program not yet allocated (their scalar operands are the same uniform
operands).

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/AnnotateDispatchAssumptions.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mini_iree.compiler.analysis.dispatch_sites import (
    export_dispatch_sites,
    exported_function,
    uniform_operands,
)
from mini_iree.compiler.analysis.integer_facts import IntegerFacts
from mini_iree.compiler.analysis.offset_divisibility import OffsetDivisibility
from mini_iree.dialects import stream, util
from xdsl.context import Context
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

__all__ = ["AnnotateDispatchAssumptionsPass", "operand_assumption"]


def operand_assumption(
    facts: IntegerFacts, operand: SSAValue, divisibility: OffsetDivisibility | None = None
) -> util.IntAssumptionAttr:
    """What is known about one operand at one dispatch site (an empty ``<>`` if nothing)."""
    umin = umax = udiv = None
    if (known := facts.range(operand)) is not None and not known.is_full:
        umin, umax = known.umin, known.umax
    divisor = divisibility.divisor(operand) if divisibility is not None else facts.divisor(operand)
    if divisor > 1:
        udiv = divisor
    return util.IntAssumptionAttr(umin, umax, udiv)


def _annotate_export(
    export: stream.ExecutableExportOp, sites: list[Operation], facts: IntegerFacts, divisibility: OffsetDivisibility
) -> None:
    function = exported_function(export)
    if function is None or not function.body.blocks:
        return
    block = function.body.block
    # The k-th scalar operand of a dispatch is the k-th non-binding argument.
    scalar_args = [a for a in block.args if not isinstance(a.type, stream.BindingType)]
    site_operands = [uniform_operands(site) for site in sites]
    arguments: list[SSAValue] = []
    rows: list[list[util.IntAssumptionAttr]] = []
    for index, arg in enumerate(scalar_args):
        if not isinstance(arg.type, IndexType | IntegerType):
            continue
        if any(index >= len(operands) for operands in site_operands):
            continue  # a malformed site; the dispatch verifier reports it
        row = [operand_assumption(facts, operands[index], divisibility) for operands in site_operands]
        if all(a.min is None and a.max is None and a.divisor is None for a in row):
            continue
        arguments.append(arg)
        rows.append(row)
    if not arguments:
        return
    assume = util.AssumeIntOp(arguments, rows)
    assume.location = function.location  # IREE builds it at the function's location
    Rewriter.insert_op(assume, InsertPoint.at_start(block))
    for arg, result in zip(arguments, assume.results):
        arg.replace_uses_with_if(result, lambda use: use.operation is not assume)
        result.name_hint = None  # xDSL hands the argument's name on; MLIR prints `%0:4`


@dataclass(frozen=True)
class AnnotateDispatchAssumptionsPass(ModulePass):
    """Adds ``util.assume.int`` on dispatch function arguments from what all dispatch sites know.

    Only exports with dispatch sites and integer/index arguments with some
    known range or divisor are annotated.
    """

    name = "iree-stream-annotate-dispatch-assumptions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sites = export_dispatch_sites(op)
        facts = IntegerFacts()
        divisibility = OffsetDivisibility(facts)
        for executable in op.ops:
            if not isinstance(executable, stream.ExecutableOp):
                continue
            for export in executable.body.block.ops:
                if isinstance(export, stream.ExecutableExportOp) and export in sites:
                    _annotate_export(export, sites[export], facts, divisibility)
