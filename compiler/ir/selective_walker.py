"""A pattern walker whose sweeps start from the ops its patterns can match.

xDSL's ``PatternRewriteWalker``, like MLIR's greedy driver, starts every sweep
with all ops of the region on its worklist and ends once a sweep changes
nothing. Most ops of a large program are popped only to have every pattern
decline them: a pass whose patterns look at two op kinds pays for thousands of
ops it can never rewrite, twice (the last sweep only confirms the fixed point).

``SelectivePatternRewriteWalker`` is the same walker (same worklist, same
order, same listeners, same recursion into created and modified ops) except
that a sweep pushes only the ops ``roots`` accepts, plus, when the applier
erases dead ops (``dce_enabled``), the ops that are dead at that point.
Popping any other op would have done nothing, so the rewrites, their order
and the result are those of the plain walker, provided ``roots`` accepts
every op a pattern can rewrite. Ops the rewrites create or touch reach the
worklist through the listeners exactly as before, whatever ``roots`` says.

An op left out can only matter to dead-code erasure if it dies during the
sweep. Ops die when their users are erased, and a sweep runs in walk order,
where producers come before their users: such an op was already popped when
it died, so the plain walker too would only meet it again through the
listeners (which push it here as well) or in the next sweep.

With folding enabled every foldable op is a candidate, so the walker then
populates as the plain one does.

Ops a rewrite inserts take the location of the op it rewrites, as MLIR's
patterns create them with ``op.getLoc()`` (``locations.LocationStamping``);
a pattern that sets a location itself keeps it.

``pattern_recorder``, when set, wraps each walker's pattern before it runs: the
walkthrough counts which patterns rewrote what through it. It is None outside
the walkthrough, and a walker then runs its pattern as given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker, RewritePattern

from mini_iree.compiler.ir.locations import LocationStamping
from mini_iree.compiler.ir.queries import nested_ops

__all__ = ["SelectivePatternRewriteWalker", "pattern_recorder"]

pattern_recorder: Callable[[RewritePattern], RewritePattern] | None = None
"""Wraps the pattern of every walker made while it is set (see the module docstring)."""


@dataclass(eq=False, repr=False)
class SelectivePatternRewriteWalker(PatternRewriteWalker):
    """A ``PatternRewriteWalker`` that puts on its worklist only the ops ``roots`` accepts.

    ``roots`` must accept every op that any pattern of the walker can rewrite
    (or it is never tried); ops it rejects are those on which every pattern
    would decline. ``queries.instance_test`` makes one from op classes.
    """

    roots: Callable[[Operation], bool] = field(default=lambda _: True)

    def __post_init__(self) -> None:
        self.applier = pattern = self.pattern
        if pattern_recorder is not None:
            pattern = pattern_recorder(pattern)
        self.pattern = LocationStamping(pattern)

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        pattern = self.applier
        if isinstance(pattern, GreedyRewritePatternApplier) and pattern.folding_enabled:
            super()._populate_worklist(op)
            return
        dce = isinstance(pattern, GreedyRewritePatternApplier) and pattern.dce_enabled
        if dce:
            from xdsl.transforms.dead_code_elimination import is_trivially_dead
        roots = self.roots
        push = self._worklist.push
        # The plain walker pushes the ops last to first (the worklist is a
        # stack), in the reverse of the pre-order walk.
        for sub_op in reversed(self._ops_in_walk_order(op)):
            if roots(sub_op):
                push(sub_op)
            elif dce and not any(result.first_use is not None for result in sub_op.results):
                if is_trivially_dead(sub_op):
                    push(sub_op)

    def _ops_in_walk_order(self, op: Operation | Region | Block) -> list[Operation]:
        """The ops the plain walker would pop first to last when nothing changes."""
        holder = op.parent if isinstance(op, Region) else None
        if not self.walk_reverse and not self.walk_regions_first and holder is not None and len(holder.regions) == 1:
            return nested_ops(holder)[1:]  # every op of the region, in pre-order
        return list(op.walk(reverse=self.walk_reverse, region_first=self.walk_regions_first))
