"""What a pass changed: line diffs between the IR before and after it."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class DiffLine:
    kind: str  # " " kept, "+" added, "-" removed, "@" a hunk header
    text: str


def changed_lines(before: str, after: str) -> set[int]:
    """Indices of the lines of ``after`` that are new or changed."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    changed: set[int] = set()
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.update(range(j1, j2))
    return changed


def unified(before: str, after: str, context: int = 3) -> list[DiffLine]:
    """A unified diff as lines, without the file headers; empty when nothing changed."""
    lines = []
    # The first two lines are the `---`/`+++` file headers.
    for line in list(difflib.unified_diff(before.splitlines(), after.splitlines(), n=context, lineterm=""))[2:]:
        kind = line[:1] if line[:1] in "+-@" else " "
        lines.append(DiffLine(kind, line[1:] if kind in "+- " else line))
    return lines
