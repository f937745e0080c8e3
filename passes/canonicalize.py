"""``canonicalize``: xDSL's canonicalization, with constants placed as MLIR places them.

MLIR's canonicalizer uniques constants and moves them to the start of the entry
block of the nearest isolated-from-above region (the function, not a
``flow.dispatch.region`` inside it). IREE's dumps are printed after it, so
``%cst = arith.constant`` sits at the top of the function there (walkthrough
dump 06). xDSL's canonicalization folds and simplifies but leaves constants
where they are; this pass runs it and then places constants as MLIR's
``OperationFolder::insertKnownConstant`` does, visiting them in pre-order as
the top-down greedy driver does.

The canonicalization itself is xDSL's ``canonicalize`` (the same patterns,
with MLIR's ``ForOpIterArgsFolder`` added to ``scf.for``'s in
``dialects/scf.py``; folders and greedy pattern walker, then ``region_dce``
after each sweep), driven here so that what only depends on an op's class (its traits,
its canonicalization patterns) is looked up once per class, and the dead-code
sweep decides each op's removability once: the same rewrites and erasures, in
the same order.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.folder import Folder
from xdsl.ir import Operation, Region
from xdsl.ir.post_order import PostOrderIterator
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener, RewritePattern
from xdsl.traits import (
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    HasFolder,
    IsTerminator,
    SymbolOpInterface,
)
from xdsl.transforms.dead_code_elimination import result_only_effects

import mini_iree.dialects.scf  # noqa: F401  (scf.for's canonicalization patterns: MLIR's, beside xDSL's)
from mini_iree.compiler.ir.constants import CommutativeConstantToRight, hoist_and_unique_constants
from mini_iree.compiler.ir.memo import ClassMemo
from mini_iree.compiler.ir.queries import effect_free_by_class, op_has_trait
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker

# ---------------------------------------------------------------------------
# xDSL's canonicalize, with class-level answers remembered
# ---------------------------------------------------------------------------

# The canonicalization patterns of each op class (xDSL builds them anew for every op).
_PATTERNS: ClassMemo[tuple[RewritePattern, ...]] = ClassMemo("canonicalize.patterns")


def _class_patterns(op_class: type[Operation]) -> tuple[RewritePattern, ...]:
    traits = op_class.get_traits_of_type(HasCanonicalizationPatternsTrait)
    return tuple(p for trait in traits for p in trait.get_patterns(op_class))


def _canonicalization_patterns(op: Operation) -> tuple[RewritePattern, ...]:
    return _PATTERNS.lookup(type(op), _class_patterns)


def _would_be_trivially_dead(op: Operation) -> bool:
    """xDSL's ``would_be_trivially_dead``: no terminator, no symbol, effects on its own results only."""
    if op_has_trait(op, IsTerminator, False) or op_has_trait(op, SymbolOpInterface, False):
        return False
    # Most ops' classes settle it: no effects (removable) or unknown effects (not).
    by_class = effect_free_by_class(op)
    return result_only_effects(op) if by_class is None else by_class


def _is_trivially_dead(op: Operation) -> bool:
    for result in op.results:
        if result.first_use is not None:
            return False
    return _would_be_trivially_dead(op)


_COMMUTATIVE_CONSTANT_TO_RIGHT = CommutativeConstantToRight()


class CanonicalizationPattern(RewritePattern):
    """xDSL's ``GreedyRewritePatternApplier([CanonicalizationRewritePattern()], folding_enabled=True)``.

    Erase the op if trivially dead; else fold it (constants excepted); else
    apply its class's canonicalization patterns in order until one rewrites.
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if _is_trivially_dead(op):
            rewriter.erase(op)
            return
        # Folding a constant would rematerialize it forever.
        if op_has_trait(op, HasFolder, False) and not op_has_trait(op, ConstantLike, True):
            folded = Folder(self.ctx).try_fold(op)
            if folded is not None:
                folded_values, folded_ops = folded
                rewriter.replace(op, new_ops=folded_ops, new_results=folded_values)
                return
        # MLIR's fold of a commutative op (`foldCommutative`): a constant left operand moves
        # right in place, keeping the op's flags (xDSL's arith pattern rebuilds it without them).
        _COMMUTATIVE_CONSTANT_TO_RIGHT.match_and_rewrite(op, rewriter)
        if rewriter.has_done_action:
            return
        for pattern in _canonicalization_patterns(op):
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


def _visit_order(region: Region, found: list[Operation]) -> None:
    """The ops xDSL's liveness sweep visits, in its order: blocks reachable from the entry
    (post order), ops last to first, nested ops before the op holding them."""
    first = region.first_block
    if first is None:
        return
    blocks = (first,) if first.next_block is None else PostOrderIterator(first)
    for block in blocks:
        op = block.last_op
        while op is not None:
            for nested in op.regions:
                _visit_order(nested, found)
            found.append(op)
            op = op.prev_op


def _live_ops(region: Region) -> set[Operation]:
    """xDSL's ``region_dce`` liveness: an op is live if it may not be erased or a live op uses it.

    The same sweeps as xDSL's (until nothing changes), except that an op found
    live is not looked at again, and each op's removability is decided once:
    the IR does not change until the liveness has settled.
    """
    live: set[Operation] = set()
    pending: list[Operation] = []
    _visit_order(region, pending)
    changed = True
    first_sweep = True
    while changed:
        changed = False
        still_dead: list[Operation] = []
        for op in pending:
            if (first_sweep and not _would_be_trivially_dead(op)) or any(
                use.operation in live for result in op.results for use in result.uses
            ):
                live.add(op)
                changed = True
            else:
                still_dead.append(op)
        pending = still_dead
        first_sweep = False
    return live


class _LiveSet:
    """The deletion half of xDSL's ``region_dce``, given the live ops."""

    def __init__(self, live: set[Operation]) -> None:
        self.live = live
        self.changed = False

    def delete_dead(self, region: Region, listener: PatternRewriterListener | None) -> None:
        first = region.first_block
        if first is None:
            return
        live = self.live
        for block in reversed(region.blocks):
            if block is not first and not any(op in live for op in block.ops):
                self.changed = True
                region.erase_block(block, safe_erase=False)
                continue
            op = block.last_op
            while op is not None:
                previous = op.prev_op
                if op not in live:
                    self.changed = True
                    if listener is not None:
                        listener.handle_operation_removal(op)
                    block.erase_op(op, safe_erase=False)
                else:
                    for nested in op.regions:
                        self.delete_dead(nested, listener)
                op = previous


def region_dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """xDSL's ``region_dce``: erase the ops nothing live needs; True if any was erased."""
    live_set = _LiveSet(_live_ops(region))
    live_set.delete_dead(region, listener)
    return live_set.changed


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Canonicalization patterns and folding, then MLIR's constant uniquing and placement."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        # Any op may be rewritten, so every op is a root: the walker is the plain
        # `PatternRewriteWalker` (same worklist, same order) with a faster first fill.
        walker = SelectivePatternRewriteWalker(CanonicalizationPattern(ctx), post_walk_func=region_dce)
        walker.rewrite_module(op)
        hoist_and_unique_constants(op)
