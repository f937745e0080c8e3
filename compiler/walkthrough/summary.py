"""What a pass changed, in one line: the ops it added and removed, and the functions whose bodies changed.

The op counts come from the stage modules (every op of the module, by name),
not from the printed text, so that a renamed value or a re-printed alias never
counts as a change. The functions are found in the printed text, where the diff
is: a function is changed when one of its lines is added, removed or changed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from xdsl.ir import Operation
from xdsl.traits import IsTerminator, SingleBlockImplicitTerminator

from .textdiff import DiffLine

_FUNCTION = re.compile(r"^(\s*)(?:func\.func|util\.func|util\.initializer)\b[^@{]*(@[\w$.-]+)?")


# Named linalg ops print without their body (``linalg.matmul ins(...) outs(...)``): the arith ops inside are
# not in the text a reader compares, so they are not counted either. linalg.generic, map and reduce show theirs.
_BODY_SHOWN = {"linalg.generic", "linalg.map", "linalg.reduce"}

# Ops that say how an op is built rather than what it computes: listed after the others in a summary.
_BOOKKEEPING_DIALECTS = {"arith", "affine", "index"}
_BOOKKEEPING_SUFFIXES = (
    ".yield", ".return", ".constant", "tensor.empty", "tensor.dim", ".workload.ordinal", "tie_shape"
)  # fmt: skip


def _hides_body(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.name not in _BODY_SHOWN


def _implicit_terminator(parent: Operation, op: Operation) -> bool:
    """A terminator the printer leaves out (``hal.executable_end``...): its parent builds it implicitly."""
    return op.get_trait(IsTerminator) is not None and parent.get_trait(SingleBlockImplicitTerminator) is not None


def op_counts(module: Operation | None) -> Counter[str]:
    """How many ops of each name ``module`` holds, as its printed form shows them (the module itself excluded)."""
    counts: Counter[str] = Counter()
    stack = [module] if module is not None else []
    while stack:
        op = stack.pop()
        if _hides_body(op):
            continue
        for region in op.regions:
            for block in region.blocks:
                last = block.last_op
                for child in block.ops:
                    if child is last and _implicit_terminator(op, child):
                        continue
                    counts[child.name] += 1
                    stack.append(child)
    return counts


def is_bookkeeping(name: str) -> bool:
    return name.split(".", 1)[0] in _BOOKKEEPING_DIALECTS or name.endswith(_BOOKKEEPING_SUFFIXES)


def op_delta(before: Counter[str], after: Counter[str]) -> list[tuple[str, int]]:
    """The ops added (positive) and removed (negative), by name.

    The ops that compute or move data first (additions, then removals, each
    most first), then the bookkeeping ops (index arithmetic, constants,
    terminators) the same way: ``+2 linalg.pack, +1 iree_codegen.inner_tiled,
    -1 linalg.matmul, +12 affine.apply``.
    """
    names = set(before) | set(after)
    delta = [(name, after[name] - before[name]) for name in names if after[name] != before[name]]
    return sorted(delta, key=lambda item: (is_bookkeeping(item[0]), item[1] < 0, -abs(item[1]), item[0]))


def format_delta(delta: list[tuple[str, int]]) -> str:
    """``+2 linalg.pack, +1 iree_codegen.inner_tiled, -1 linalg.matmul``."""
    return ", ".join(f"{count:+d} {name}" for name, count in delta)


def function_spans(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every function in printed IR, by its header and closing brace.

    The printer indents a function's closing brace as its header, so the end is
    the first later line that is that indentation and ``}``.
    """
    lines = text.splitlines()
    spans = []
    for i, line in enumerate(lines):
        match = _FUNCTION.match(line)
        if not match:
            continue
        indent, name = match.group(1), match.group(2) or "util.initializer"
        end = i
        if line.rstrip().endswith("{"):
            closing = indent + "}"
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(closing)), len(lines) - 1)
        spans.append((name, i, end))
    return spans


@dataclass
class Change:
    """What one pass changed."""

    delta: list[tuple[str, int]] = field(default_factory=list)
    functions: list[tuple[str, str]] = field(default_factory=list)  # (name, "changed" | "new" | "removed")
    first_line: dict[str, int] = field(default_factory=dict)  # function -> position in the diff of its first change
    alias_lines: int = 0  # added or removed alias definitions
    renamed_lines: int = 0  # removed and added lines that only use renamed aliases
    other_lines: int = 0  # added or removed lines that are not alias definitions

    @property
    def nothing(self) -> bool:
        return not (self.delta or self.functions or self.alias_lines or self.other_lines)

    @property
    def aliases_only(self) -> bool:
        return (self.alias_lines or self.renamed_lines) > 0 and not (self.delta or self.functions or self.other_lines)


def what_changed(
    before_text: str,
    after_text: str,
    before_ops: Counter[str],
    after_ops: Counter[str],
    diff: list[DiffLine],
    renames: set[int] = frozenset(),  # type: ignore[assignment]
) -> Change:
    """What the pass changed; ``renames`` are the diff positions whose lines only renamed aliases (not changes)."""
    change = Change(op_delta(before_ops, after_ops))
    added = {d.new: k for k, d in enumerate(diff) if d.kind == "+" and k not in renames}
    removed = {d.old: k for k, d in enumerate(diff) if d.kind == "-" and k not in renames}
    change.alias_lines = sum(1 for d in diff if d.kind in "+-" and d.is_alias)
    change.renamed_lines = len(renames)
    change.other_lines = len(added) + len(removed) - change.alias_lines
    old_spans, new_spans = function_spans(before_text), function_spans(after_text)
    old_names = {name for name, _, _ in old_spans}
    new_names = {name for name, _, _ in new_spans}
    seen: set[str] = set()

    def first_change(lines: dict[int, int], first: int, last: int) -> int | None:
        return min((k for j, k in lines.items() if first <= j <= last), default=None)

    for name, first, last in new_spans:
        at = first_change(added, first, last)
        if name in seen:
            continue
        if name not in old_names:
            change.functions.append((name, "new"))
        elif at is not None:
            change.functions.append((name, "changed"))
        if at is not None:
            change.first_line[name] = at
        seen.add(name)
    for name, first, last in old_spans:
        at = first_change(removed, first, last)
        if name not in new_names:
            change.functions.append((name, "removed"))
        elif name not in seen and at is not None:
            change.functions.append((name, "changed"))
            seen.add(name)
        if at is not None and (name not in change.first_line or at < change.first_line[name]):
            change.first_line[name] = at
    return change
