"""Diagnostics as MLIR prints them: ``FILE:LINE:COL: error: MESSAGE``.

Everything that can go wrong with a user's input (a parse error, a verifier
failure, a failing pass, a bad command line) becomes one ``Diagnostic`` with a
source location. Tools print it as one line on stderr and exit with status 1;
``--verify-diagnostics`` matches it against ``// expected-error`` comments.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, IntAttr, NameLoc, StringAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException


@dataclass(frozen=True)
class SourceLoc:
    """A 1-based line and column in a named source (a file, or ``<cmdline>``)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def to_attr(self) -> FileLineColLoc:
        return FileLineColLoc(StringAttr(self.file), IntAttr(self.line), IntAttr(self.col))

    @staticmethod
    def from_attr(attr: object) -> SourceLoc | None:
        """The ``file:line:col`` a diagnostic at ``attr`` is shown at, as MLIR's SourceMgr
        handler finds it: the first of a fused location, a name's own location, and
        the callee's side of a call site."""
        if isinstance(attr, FileLineColLoc):
            return SourceLoc(attr.filename.data, attr.line.data, attr.column.data)
        if isinstance(attr, FusedLoc):
            return next((loc for inner in attr.locations.data if (loc := SourceLoc.from_attr(inner))), None)
        if isinstance(attr, NameLoc):
            return SourceLoc.from_attr(attr.location)
        if isinstance(attr, CallSiteLoc):
            return SourceLoc.from_attr(attr.callee) or SourceLoc.from_attr(attr.caller)
        return None


@dataclass
class Diagnostic:
    loc: SourceLoc
    message: str
    severity: str = "error"  # error | warning | note | remark

    def __str__(self) -> str:
        return f"{self.loc}: {self.severity}: {self.message}"



def render(diagnostic: Diagnostic, source: str | None, name: str) -> str:
    """The diagnostic as MLIR's SourceMgr handler prints it: its line, then, when it
    points into ``source`` (the text of the input ``name``), that source line and a
    caret under the column. Other locations (``<cmdline>``, another file) print
    the first line alone."""
    text = str(diagnostic)
    loc = diagnostic.loc
    if source is None or loc.file != name or loc.line < 1:
        return text
    lines = source.split("\n")
    if loc.line > len(lines):
        return text
    # Control characters (a vertical tab, a form feed...) show as spaces, so that the
    # excerpt stays one line and the caret stays under its column.
    line = "".join(c if c.isprintable() or c == "\t" else " " for c in lines[loc.line - 1].rstrip("\r"))
    line = line.expandtabs(8)
    if not line.strip():
        return text
    column = min(max(loc.col, 1), len(line) + 1)
    return f"{text}\n{line}\n{' ' * (column - 1)}^"


class DiagnosticError(Exception):
    """Raised with the diagnostics that stop processing of one input."""

    def __init__(self, *diagnostics: Diagnostic):
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = list(diagnostics)


def op_location(op: Operation | None, fallback: SourceLoc) -> SourceLoc:
    """The location of ``op``, or of its nearest located ancestor.

    Ops a pass creates carry no location of their own; MLIR would report them
    at their fused/parent location, and the enclosing op is the closest we have.
    """
    while op is not None:
        if (loc := SourceLoc.from_attr(op.location)) is not None:
            return loc
        op = op.parent_op()
    return fallback


class OpError(PassFailedException):
    """A pass failure about one op: reported at that op's location.

    Passes raise ``OpError(op, "message")`` the way MLIR passes call
    ``op->emitOpError("message")``; the tool prints ``'op.name' op message``.
    """

    def __init__(self, op: Operation, message: str, *, prefix_op_name: bool = True):
        self.op = op
        self.text = f"'{op.name}' op {message}" if prefix_op_name else message
        super().__init__(self.text)
