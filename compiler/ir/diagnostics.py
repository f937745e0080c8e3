"""Diagnostics as MLIR prints them: ``FILE:LINE:COL: error: MESSAGE``.

Everything that can go wrong with a user's input (a parse error, a verifier
failure, a failing pass, a bad command line) becomes one ``Diagnostic`` with a
source location. Tools print it as one line on stderr and exit with status 1;
``--verify-diagnostics`` matches it against ``// expected-error`` comments.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, IntAttr, NameLoc, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import PassFailedException

from mini_iree.compiler.ir.locations import file_locations


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
        found = file_locations(attr)
        return SourceLoc(found[0].filename.data, found[0].line.data, found[0].column.data) if found else None


@dataclass
class Diagnostic:
    loc: SourceLoc
    message: str
    severity: str = "error"  # error | warning | note | remark
    # The location attribute it was raised at (``loc`` is where that is shown):
    # its other sites become notes when it is rendered.
    location: Attribute | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.loc}: {self.severity}: {self.message}"


CURRENT_OPERATION = "see current operation: "
"""MLIR's note after an error about an op (``--mlir-print-op-on-diagnostic``)."""


def op_diagnostics(op: Operation, message: str, fallback: SourceLoc) -> list[Diagnostic]:
    """An error about ``op``, as ``op->emitOpError`` makes it: at the op's location,
    with the op in generic form in a note (``see current operation: ...``)."""
    location = _located(op)
    loc = fallback if location is None else SourceLoc.from_attr(location)
    note = Diagnostic(loc, CURRENT_OPERATION + operation_text(op), "note")
    return [Diagnostic(loc, message, location=location), note]


def operation_text(op: Operation) -> str:
    """``op`` in generic form, its values named as in the whole module."""
    from io import StringIO

    from mini_iree.compiler.ir.printer import MLIRPrinter

    class _ModuleNamesPrinter(MLIRPrinter):
        """Names the values of one op as the whole module does, not as the op alone would."""

        def print_op_in(self, op: Operation, root: Operation) -> None:
            self._names_for(root)  # names every value under ``root``: print_op then keeps them
            self.print_op(op)

    root = op
    while (parent := root.parent_op()) is not None:
        root = parent
    stream = StringIO()
    _ModuleNamesPrinter(stream=stream, print_generic_format=True, local_scope=True).print_op_in(op, root)
    return stream.getvalue()


def _located(op: Operation | None):
    """The location attribute of ``op``, or of its nearest ancestor that has a file location."""
    while op is not None:
        if SourceLoc.from_attr(op.location) is not None:
            return op.location
        op = op.parent_op()
    return None


def location_notes(location: Attribute | None) -> list[tuple[SourceLoc, str]]:
    """Notes a diagnostic at ``location`` gets beyond its first site.

    As MLIR's SourceMgr handler: a call site adds ``called from`` at each caller,
    outermost last. Beyond MLIR: a fused location's other sites (a dispatch region
    made of several ops) each add a note, so a reader sees every op it came from.
    """
    notes: list[tuple[SourceLoc, str]] = []
    while isinstance(location, NameLoc):
        location = location.location
    if isinstance(location, FusedLoc):
        sites = [loc for inner in location.locations.data if (loc := SourceLoc.from_attr(inner)) is not None]
        notes += [(site, "also located here (fused location)") for site in sites[1:]]
    while isinstance(location, CallSiteLoc):
        location = location.caller
        if (site := SourceLoc.from_attr(location)) is not None:
            notes.append((site, "called from"))
        while isinstance(location, NameLoc):
            location = location.location
    return notes



def render(diagnostic: Diagnostic, source: str | None, name: str) -> str:
    """The diagnostic as MLIR's SourceMgr handler prints it: its line, then, when it
    points into ``source`` (the text of the input ``name``), that source line and a
    caret under the column; then a note for each other site of its location
    (``location_notes``), each with its own source line. Other locations
    (``<cmdline>``, another file) print the first line alone, as does the note
    that shows the current operation (it holds the op itself)."""
    text = str(diagnostic)
    if not diagnostic.message.startswith(CURRENT_OPERATION):
        text += _excerpt(diagnostic.loc, source, name)
    for loc, message in location_notes(diagnostic.location):
        text += f"\n{Diagnostic(loc, message, 'note')}{_excerpt(loc, source, name)}"
    return text


def _excerpt(loc: SourceLoc, source: str | None, name: str) -> str:
    """The source line at ``loc`` and a caret under its column, on lines of their own (or nothing)."""
    if source is None or loc.file != name or loc.line < 1:
        return ""
    lines = source.split("\n")
    if loc.line > len(lines):
        return ""
    # Control characters (a vertical tab, a form feed...) show as spaces, so that the
    # excerpt stays one line and the caret stays under its column.
    line = "".join(c if c.isprintable() or c == "\t" else " " for c in lines[loc.line - 1].rstrip("\r"))
    if loc.col > len(line) + 1:
        return ""  # past the end of its line: SourceMgr finds no such position either
    line = line.expandtabs(8)
    if not line.strip():
        return ""
    column = min(max(loc.col, 1), len(line) + 1)
    return f"\n{line}\n{' ' * (column - 1)}^"


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
    location = _located(op)
    return fallback if location is None else SourceLoc.from_attr(location)


class OpError(PassFailedException):
    """A pass failure about one op: reported at that op's location.

    Passes raise ``OpError(op, "message")`` the way MLIR passes call
    ``op->emitOpError("message")``; the tool prints ``'op.name' op message``.
    """

    def __init__(
        self, op: Operation, message: str, *, prefix_op_name: bool = True, more: tuple[OpError, ...] = ()
    ):
        self.op = op
        self.text = f"'{op.name}' op {message}" if prefix_op_name else message
        # Further errors the failure emits, in order (a pass that reports the op, then gives up on
        # the module: MLIR prints each as it is emitted).
        self.more = more
        super().__init__(self.text)

    def diagnostics(self, fallback: SourceLoc) -> list[Diagnostic]:
        """This error and those after it, each with its `see current operation` note."""
        return [d for err in (self, *self.more) for d in op_diagnostics(err.op, err.text, fallback)]
