"""A pattern walker whose sweeps start from the ops its patterns can match.

xDSL's ``PatternRewriteWalker``, like MLIR's greedy driver, starts every sweep
with all ops of the region on its worklist and ends once a sweep changes
nothing. Most ops of a large program are popped only to have every pattern
decline them: a pass whose patterns look at two op kinds pays for thousands of
ops it can never rewrite, twice (the last sweep only confirms the fixed point).

``SelectivePatternRewriteWalker`` is the same walker (same worklist, same
order, same listeners, same recursion into created and modified ops) except
that a sweep pushes only the ops some pattern can rewrite, plus, when the
applier erases dead ops (``dce_enabled``), the ops that are dead at that point.
Popping any other op would have done nothing, so the rewrites, their order
and the result are those of the plain walker. Ops the rewrites create or touch
reach the worklist through the listeners exactly as before.

Which ops a pattern can rewrite, the pattern says itself: the walker reads it
off the decorator of its ``match_and_rewrite``, which is also what declines the
other ops, so the two cannot disagree.

- xDSL's ``op_type_rewrite_pattern``: instances of the op parameter's type hint
  (a class or a union of classes);
- ``op_predicate_rewrite_pattern(predicate)``: the ops ``predicate`` accepts,
  for a pattern that matches on something other than the class (an attribute);
- anything else (no decorator, or the hint ``Operation``): any op.

The walker visits the union over the patterns of its applier; one pattern that
may rewrite any op makes it visit every op, as the plain walker does.

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern

from mini_iree.compiler.ir.locations import LocationStamping
from mini_iree.compiler.ir.queries import nested_ops
from mini_iree.compiler.ir.xdsl_internals import SweepPopulatingWalker, op_type_pattern_types

__all__ = ["SelectivePatternRewriteWalker", "matched_ops", "op_predicate_rewrite_pattern", "pattern_recorder"]

pattern_recorder: Callable[[RewritePattern], RewritePattern] | None = None
"""Wraps the pattern of every walker made while it is set (see the module docstring)."""

_PatternT = TypeVar("_PatternT", bound=RewritePattern)
_MatchAndRewrite = Callable[[_PatternT, Operation, PatternRewriter], None]


def op_predicate_rewrite_pattern(
    predicate: Callable[[Operation], bool],
) -> Callable[[_MatchAndRewrite], _MatchAndRewrite]:
    """As xDSL's ``op_type_rewrite_pattern``, for a pattern that matches ops ``predicate`` accepts.

    The decorated ``match_and_rewrite`` is called only on those ops, and the
    walker visits them (``matched_ops``).
    """

    def decorate(func: _MatchAndRewrite) -> _MatchAndRewrite:
        def impl(self: RewritePattern, op: Operation, rewriter: PatternRewriter) -> None:
            if predicate(op):
                func(self, op, rewriter)

        impl.matched_where = predicate  # type: ignore[attr-defined]
        impl.__doc__ = func.__doc__
        return impl

    return decorate


@dataclass(frozen=True)
class _Matched:
    """The ops a pattern can rewrite: instances of ``classes`` and ops some of ``predicates`` accept."""

    classes: tuple[type[Operation], ...] = ()
    predicates: tuple[Callable[[Operation], bool], ...] = ()


def _matched(pattern: RewritePattern) -> _Matched | None:
    """What ``pattern`` can rewrite, None for any op."""
    if isinstance(pattern, GreedyRewritePatternApplier):
        union = _Matched()
        for inner in pattern.rewrite_patterns:
            matched = _matched(inner)
            if matched is None:
                return None
            union = _Matched(union.classes + matched.classes, union.predicates + matched.predicates)
        return union
    method = type(pattern).match_and_rewrite
    predicate = getattr(method, "matched_where", None)
    if predicate is not None:
        return _Matched(predicates=(predicate,))
    classes = op_type_pattern_types(method)
    if classes is None or Operation in classes:
        return None
    return _Matched(classes=classes)


def matched_ops(pattern: RewritePattern) -> Callable[[Operation], bool] | None:
    """A test accepting every op ``pattern`` (a pattern or an applier of patterns) can rewrite.

    None when that is any op. Which classes match is remembered per class (xDSL
    ops are ABCs: ``isinstance`` runs Python code).
    """
    matched = _matched(pattern)
    if matched is None:
        return None
    classes, predicates = matched.classes, matched.predicates
    by_class: dict[type, bool] = {}

    def accepts(op: Operation) -> bool:
        op_class = type(op)
        known = by_class.get(op_class)
        if known is None:
            known = by_class[op_class] = issubclass(op_class, classes)
        if known:
            return True
        for predicate in predicates:
            if predicate(op):
                return True
        return False

    return accepts


@dataclass(eq=False, repr=False)
class SelectivePatternRewriteWalker(SweepPopulatingWalker):
    """A ``PatternRewriteWalker`` whose sweeps visit only the ops its patterns can rewrite (``matched_ops``)."""

    def __post_init__(self) -> None:
        self.applier = pattern = self.pattern
        self._accepts = matched_ops(pattern)
        if pattern_recorder is not None:
            pattern = pattern_recorder(pattern)
        self.pattern = LocationStamping(pattern)

    def sweep_ops(self, op: Operation | Region | Block) -> Sequence[Operation] | None:
        pattern = self.applier
        if isinstance(pattern, GreedyRewritePatternApplier) and pattern.folding_enabled:
            return None  # every foldable op is a candidate
        dce = isinstance(pattern, GreedyRewritePatternApplier) and pattern.dce_enabled
        accepts = self._accepts
        ops = self._ops_in_walk_order(op)
        if accepts is None:
            return ops
        if dce:
            from xdsl.transforms.dead_code_elimination import is_trivially_dead
        chosen: list[Operation] = []
        keep = chosen.append
        for sub_op in ops:
            if accepts(sub_op):
                keep(sub_op)
            elif dce and not any(result.first_use is not None for result in sub_op.results):
                if is_trivially_dead(sub_op):
                    keep(sub_op)
        return chosen

    def _ops_in_walk_order(self, op: Operation | Region | Block) -> list[Operation]:
        """The ops the plain walker would pop first to last when nothing changes."""
        holder = op.parent if isinstance(op, Region) else None
        if not self.walk_reverse and not self.walk_regions_first and holder is not None and len(holder.regions) == 1:
            return nested_ops(holder)[1:]  # every op of the region, in pre-order
        return list(op.walk(reverse=self.walk_reverse, region_first=self.walk_regions_first))
