"""``iree-dispatch-creation-clone-producers-into-dispatch-regions``: recompute cheap producers in each dispatch.

A ``flow.dispatch.region`` captures what it reads from above. Before it
becomes an isolated ``flow.dispatch.workgroups``, this pass clones into it the
producers IREE would rather recompute than pass in (``isClonableIntoDispatchOp``:
constants up to 256 bytes, ``tensor.empty``, ``linalg.fill``, scalar arithmetic,
``tensor.extract(_slice)``, ``unset_encoding``, bit-extend ``linalg.generic``
ops...), with the clonable producers they need in turn, at the start of the
region. As IREE's CloneProducersIntoDispatchRegions.cpp does, it then erases
every trivially dead op of the function (originals whose users all moved in),
wraps each ``linalg.generic`` still outside a dispatch (a bit extend that is
also returned) in a dispatch of its own, and clones into those too.

It never clones ``tensor.insert_slice``, ops of other dialects (``hal``,
``flow``, ``util``...), an index the region op itself reads as a size, nor the
destination of a ``tensor.insert_slice`` in the region.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from mini_iree.compiler.analysis.clonable_into_dispatch import clone_producers_to_region, mask_or_indices_producers
from mini_iree.compiler.analysis.dispatch_regions import is_outside_dispatch, would_be_trivially_dead
from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.analysis.region_wrapping import wrap_op_in_dispatch_region
from mini_iree.compiler.ir.queries import instance_test, nested_ops, nested_ops_post_order
from mini_iree.dialects import flow, linalg


_is_dispatch_region = instance_test(flow.DispatchRegionOp)
_is_generic = instance_test(linalg.GenericOp)


def _dispatch_regions(function: Operation) -> list[flow.DispatchRegionOp]:
    return [op for op in nested_ops(function) if _is_dispatch_region(op)]  # type: ignore[misc]


def _has_uses(op: Operation) -> bool:
    for result in op.results:
        if result.first_use is not None:
            return True
    return False


def _erase_trivially_dead(function: Operation) -> None:
    """MLIR's ``isOpTriviallyDead`` clean-up, users before producers (a reverse post-order walk)."""
    for op in nested_ops_post_order(function, reverse=True):
        if op is function or op.parent is None:
            continue
        if _has_uses(op):
            continue
        if would_be_trivially_dead(op):
            Rewriter.erase_op(op)


def _clone_into(function: Operation, regions: list[flow.DispatchRegionOp], aggressive: bool) -> None:
    # Found once per function, so that deciding never walks the uses of a shared producer.
    mask_or_indices = mask_or_indices_producers(function) if aggressive else set()
    for region_op in regions:
        clone_producers_to_region(region_op, aggressive, mask_or_indices)


@dataclass(frozen=True)
class CloneProducersIntoDispatchRegionsPass(ModulePass):
    """Clone clonable producers into the dispatch regions that read them.

    ``aggressive`` (IREE's option, set by the pipeline under aggressive fusion)
    also clones what computes an attention mask or scatter indices.
    """

    name = "iree-dispatch-creation-clone-producers-into-dispatch-regions"

    aggressive: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in functions(op, nested=True):
            _clone_into(function, _dispatch_regions(function), self.aggressive)
            _erase_trivially_dead(function)
            # What is left outside every dispatch gets one of its own.
            wrapped = [
                wrap_op_in_dispatch_region(generic)
                for generic in [g for g in nested_ops(function) if _is_generic(g)]
                if is_outside_dispatch(generic)
            ]
            # IREE then clones into every region again. Only the new ones can
            # gain anything: a region already done reads nothing new that is
            # clonable (a wrapped op's results now come from a region op, and
            # erasing dead ops adds no reads), and regions do not affect each
            # other's cloning.
            _clone_into(function, wrapped, self.aggressive)


__all__ = ["CloneProducersIntoDispatchRegionsPass"]
