"""Which rewrite patterns a pass applied, and how often: counted while the pass runs.

Every pattern pass runs its patterns through ``SelectivePatternRewriteWalker``,
which hands its pattern to ``selective_walker.pattern_recorder`` when that is
set. :func:`recording` sets it for the duration of one pass: each pattern the
walker tries (the patterns of a ``GreedyRewritePatternApplier``, nested ones
included, and the per-op canonicalization patterns of ``canonicalize``) is
wrapped so that a rewrite it makes is counted under its class name, which is
the name IREE's C++ pattern has, and each op it inserts is noted as made by it
(through the rewriter, or, for a pattern that builds ops itself, the new ops of
the matched op's block). A rewrite no pattern claims is the applier's own: erasing
a trivially dead op, or folding.

Recording costs the pass a little time (a dead-op test per op the walker
visits); it happens only in the walkthrough.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern

__all__ = ["DEAD", "FOLDED", "RewriteLog", "recording"]

DEAD = "(trivially dead op erased)"
FOLDED = "(op folded)"


class RewriteLog:
    """The rewrites of one pass: counts per pattern, the patterns it had, how many walks it made."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.patterns: list[str] = []  # every pattern the pass's walkers could apply, first seen first
        self.walks = 0
        self.made: dict[Operation, str] = {}  # the ops a pattern inserted, by the pattern's name
        self.seen: set[Operation] | None = None  # the ops there were when the current walk began
        self.claimed = False  # whether a counted pattern made the current rewrite

    def _known(self, name: str) -> None:
        if name not in self.patterns:
            self.patterns.append(name)

    def wrap(self, pattern: RewritePattern) -> RewritePattern:
        """A walker's pattern, counting what it rewrites (``selective_walker.pattern_recorder``)."""
        self.walks += 1
        return _Outer(self, pattern, self._leaves(pattern))

    def _leaves(self, pattern: RewritePattern) -> RewritePattern:
        if isinstance(pattern, GreedyRewritePatternApplier):
            return dataclasses.replace(pattern, rewrite_patterns=[self._leaves(p) for p in pattern.rewrite_patterns])
        if _is_canonicalization(pattern):
            return pattern  # its per-op patterns are counted through `recording`
        return self.counted(pattern)

    def counted(self, pattern: RewritePattern) -> RewritePattern:
        name = type(pattern).__name__
        self._known(name)
        return _Counted(self, pattern, name)


class _Counted(RewritePattern):
    def __init__(self, log: RewriteLog, pattern: RewritePattern, name: str):
        self.log, self.pattern, self.name = log, pattern, name

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        before = rewriter.has_done_action
        operands = tuple(op.operands)
        made, name = self.log.made, self.name

        def note(new_op: Operation) -> None:
            for inner in new_op.walk():  # with the ops built inside it
                made.setdefault(inner, name)

        block = op.parent_block()
        handlers = rewriter.operation_insertion_handler
        handlers.append(note)
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        finally:
            handlers.remove(note)
        # A pattern that edits the IR itself rather than through the rewriter
        # is seen by what it did to the op it matched.
        if not before and (rewriter.has_done_action or op.parent is None or tuple(op.operands) != operands):
            self.log.counts[name] += 1
            self.log.claimed = True
            # Ops it built into the matched op's block without the rewriter: those the walk had not seen.
            seen = self.log.seen
            if block is not None and seen is not None:
                for new_op in block.ops:
                    if new_op not in seen and new_op not in made:
                        note(new_op)


class _Outer(RewritePattern):
    """The walker's whole pattern: a rewrite no counted pattern claims is the applier's own."""

    def __init__(self, log: RewriteLog, original: RewritePattern, pattern: RewritePattern):
        self.log, self.pattern = log, pattern
        self.started = False  # the first op of the walk notes which ops exist
        # Appliers that erase trivially dead ops before trying their patterns.
        self.erases_dead = _is_canonicalization(original) or (
            isinstance(original, GreedyRewritePatternApplier) and original.dce_enabled
        )

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        from xdsl.transforms.dead_code_elimination import is_trivially_dead

        log = self.log
        if not self.started:
            self.started = True
            top = op
            while (parent := top.parent_op()) is not None:
                top = parent
            log.seen = set(top.walk())
        log.claimed = False
        dead = self.erases_dead and is_trivially_dead(op)
        self.pattern.match_and_rewrite(op, rewriter)
        if rewriter.has_done_action and not log.claimed:
            log.counts[DEAD if dead else FOLDED] += 1


def _is_canonicalization(pattern: RewritePattern) -> bool:
    return type(pattern).__name__ == "CanonicalizationPattern"


@contextmanager
def recording() -> Iterator[RewriteLog]:
    """Count the rewrites of the pattern walkers run inside the ``with`` block."""
    from mini_iree.compiler.ir import selective_walker
    from mini_iree.passes import canonicalize

    log = RewriteLog()
    # `canonicalize` picks each op's canonicalization patterns through this
    # function; while recording, the patterns it returns are counted.
    per_op = getattr(canonicalize, "_canonicalization_patterns", None)
    wrapped: dict[int, RewritePattern] = {}

    def counted_per_op(op: Operation) -> list[RewritePattern]:
        out = []
        for pattern in per_op(op):  # type: ignore[misc]
            counted = wrapped.get(id(pattern))
            if counted is None:
                counted = wrapped[id(pattern)] = log.counted(pattern)
            out.append(counted)
        return out

    previous = selective_walker.pattern_recorder
    selective_walker.pattern_recorder = log.wrap
    if per_op is not None:
        canonicalize._canonicalization_patterns = counted_per_op  # type: ignore[attr-defined]
    try:
        yield log
    finally:
        selective_walker.pattern_recorder = previous
        if per_op is not None:
            canonicalize._canonicalization_patterns = per_op  # type: ignore[attr-defined]
