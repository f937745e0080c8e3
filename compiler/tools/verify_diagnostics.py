"""MLIR's ``--verify-diagnostics``: check diagnostics against ``expected-*`` comments.

    // expected-error @+1 {{cannot change the rank of the tensor}}
    %0 = iree_encoding.set_encoding ...

Designators: none (same line), ``@+N``/``@-N`` (relative), ``@N`` (absolute line),
``@above``/``@below`` (the nearest line above/below that holds no designator).
``expected-error-re`` treats ``{{...}}`` groups inside the message as regexes.
A diagnostic matches when its severity and line agree and the expected text is a
substring of its message. The run fails if any diagnostic was not expected or any
expectation was not met, and says which, as MLIR does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mini_iree.compiler.ir.diagnostics import Diagnostic, SourceLoc

_EXPECTED = re.compile(
    r"expected-(?P<kind>error|warning|note|remark)(?P<re>-re)?"
    r"\s*(?:@(?P<where>[+-]?\d+|above|below))?\s*\{\{(?P<msg>.*)\}\}\s*$"
)


@dataclass
class Expectation:
    severity: str
    line: int
    text: str
    is_regex: bool
    loc: SourceLoc
    matched: bool = False

    def regex_error(self) -> str | None:
        """Why the ``-re`` text is not a valid regex (None when it is, or is no regex)."""
        if not self.is_regex:
            return None
        try:
            re.compile(_regex_of(self.text))
        except re.error as err:
            return str(err)
        return None

    def matches(self, diag: Diagnostic) -> bool:
        if diag.severity != self.severity or diag.loc.line != self.line:
            return False
        if not self.is_regex:
            return self.text in diag.message
        return self.regex_error() is None and re.search(_regex_of(self.text), diag.message) is not None


def _regex_of(text: str) -> str:
    """``literal {{regex}} literal`` -> one regex."""
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return "".join(re.escape(p) if i % 2 == 0 else p for i, p in enumerate(parts))


def parse_expectations(text: str, file: str, line_offset: int = 0) -> list[Expectation]:
    lines = text.split("\n")
    has_designator = [_EXPECTED.search(line) is not None for line in lines]
    out: list[Expectation] = []
    for index, line in enumerate(lines):
        m = _EXPECTED.search(line)
        if m is None:
            continue
        where = m.group("where")
        target = index
        if where is None:
            pass
        elif where == "above":
            target = index - 1
            while target >= 0 and has_designator[target]:
                target -= 1
        elif where == "below":
            target = index + 1
            while target < len(lines) and has_designator[target]:
                target += 1
        elif where[0] in "+-":
            target = index + int(where)
        else:
            target = int(where) - 1 - line_offset
        out.append(
            Expectation(
                severity=m.group("kind"),
                line=target + 1 + line_offset,
                text=m.group("msg"),
                is_regex=m.group("re") is not None,
                loc=SourceLoc(file, index + 1 + line_offset, m.start() + 1),
            )
        )
    return out


def check(expectations: list[Expectation], diagnostics: list[Diagnostic]) -> list[str]:
    """Error lines for every mismatch (empty when everything was as expected)."""
    problems: list[str] = []
    for e in expectations:
        if (error := e.regex_error()) is not None:
            # MLIR reports a malformed expected-*-re pattern where it is written.
            problems.append(f"{e.loc}: error: invalid regex: {error}")
            e.matched = True
    for diag in diagnostics:
        hit = next((e for e in expectations if not e.matched and e.matches(diag)), None)
        if hit is None:
            problems.append(f"{diag.loc}: error: unexpected {diag.severity}: {diag.message}")
        else:
            hit.matched = True
    for e in expectations:
        if not e.matched:
            problems.append(f'{e.loc}: error: expected {e.severity} "{e.text}" was not produced')
    return problems
