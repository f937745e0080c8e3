"""What a pass changed: line diffs between the IR before and after it.

Each diff line keeps the index of its line in the text before (kept and removed
lines) and in the text after (kept and added lines), so that the page can put
on it what it knows about that line of that stage (the input positions of the
op printed there).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

ALIAS_DEFINITION = re.compile(r"^[#!][\w$.-]+ = ")
"""A module-level alias line, ``#map1 = affine_map<...>`` or ``!t = tensor<...>``: renumbering them is churn."""


@dataclass(frozen=True)
class DiffLine:
    kind: str  # " " kept, "+" added, "-" removed, "@" a hunk header
    text: str
    old: int | None = None  # index of the line in the text before (" " and "-")
    new: int | None = None  # index of the line in the text after (" " and "+")

    @property
    def is_alias(self) -> bool:
        return self.kind != "@" and bool(ALIAS_DEFINITION.match(self.text))


def _matcher(before: str, after: str) -> difflib.SequenceMatcher:
    return difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)


def changed_lines(before: str, after: str) -> set[int]:
    """Indices of the lines of ``after`` that are new or changed."""
    changed: set[int] = set()
    for tag, _, _, j1, j2 in _matcher(before, after).get_opcodes():
        if tag in ("replace", "insert"):
            changed.update(range(j1, j2))
    return changed


def _range(start: int, stop: int) -> str:
    """A hunk header's range, as ``diff -u`` writes it."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if length == 0 else start + 1},{length}"


def unified(before: str, after: str, context: int = 3) -> list[DiffLine]:
    """A unified diff as lines, without the file headers; empty when nothing changed."""
    matcher = _matcher(before, after)
    a, b = matcher.a, matcher.b
    lines: list[DiffLine] = []
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        lines.append(DiffLine("@", f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@"))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines.extend(DiffLine(" ", a[i], i, j1 + i - i1) for i in range(i1, i2))
                continue
            if tag in ("replace", "delete"):
                lines.extend(DiffLine("-", a[i], old=i) for i in range(i1, i2))
            if tag in ("replace", "insert"):
                lines.extend(DiffLine("+", b[j], new=j) for j in range(j1, j2))
    return lines


_ALIAS_USE = re.compile(r"[#!][\w$.-]+")


def _alias_definitions(text: str) -> dict[str, str]:
    """The module's alias definitions (``#map1 = affine_map<...>``), each with the aliases in it expanded."""
    raw = {}
    for line in text.splitlines():
        if ALIAS_DEFINITION.match(line):
            name, _, value = line.partition(" = ")
            raw[name] = value
        elif raw and not line.startswith(("#", "!")):
            break  # the definitions are at the top of the module
    expanded: dict[str, str] = {}

    def expand(name: str, depth: int = 0) -> str:
        if name not in expanded:
            value = raw[name]
            if depth < 8:  # aliases refer to earlier ones; the bound only guards against a cycle
                value = _ALIAS_USE.sub(lambda m: expand(m.group(), depth + 1) if m.group() in raw else m.group(), value)
            expanded[name] = value
        return expanded[name]

    for name in raw:
        expand(name)
    return expanded


def alias_renames(before: str, after: str, diff: list[DiffLine]) -> set[int]:
    """Positions in ``diff`` of the removed/added line pairs that differ only in the names of aliases.

    When a pass adds ``#map``, the later aliases are renumbered and every line
    using them changes in the text but not in meaning: with each alias replaced
    by what it stands for, the removed line and the added line are equal.
    """
    old_defs, new_defs = _alias_definitions(before), _alias_definitions(after)
    if not old_defs and not new_defs:
        return set()

    def meaning(line: str, defs: dict[str, str]) -> str:
        return _ALIAS_USE.sub(lambda m: defs.get(m.group(), m.group()), line)

    renames: set[int] = set()
    k = 0
    while k < len(diff):
        # A change is a run of removed lines followed by a run of added ones; pair them in order.
        minus = k
        while k < len(diff) and diff[k].kind == "-":
            k += 1
        plus = k
        while k < len(diff) and diff[k].kind == "+":
            k += 1
        if plus - minus == k - plus > 0:
            for i, j in zip(range(minus, plus), range(plus, k)):
                a, b = diff[i], diff[j]
                if not a.is_alias and meaning(a.text, old_defs) == meaning(b.text, new_defs):
                    renames.update((i, j))
        if k == minus:
            k += 1
    return renames
