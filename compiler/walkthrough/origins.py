"""The IR text of a stage, and per printed line the input positions of the op printed on it.

The text is the one ``mini-iree-opt`` writes (``OptionsPrinter`` with the
driver's printing flags); the printer is only told to note where each op starts,
so printing once gives both. An op's positions are every ``LINE:COL`` its
location is or contains: a fused location names all the ops it was made from,
a name location and a call site are looked through (``file:0:0``, the location
of a module the parser wraps around the input, is no position). Two lines of different
stages that share a position are ops made from the same op of the input: the
page's provenance highlight rests on that.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from io import StringIO

from xdsl.ir import Attribute, Operation

from mini_iree.compiler.ir.locations import file_locations
from mini_iree.compiler.tools.print_options import OptionsPrinter

__all__ = ["PrintedModule", "location_positions", "print_with_origins"]

_NEWLINE = re.compile("\n")


def location_positions(location: Attribute) -> str:
    """The input positions a location is or contains, as ``"LINE:COL LINE:COL"`` ("" for none)."""
    out: list[str] = []
    for found in file_locations(location):
        position = f"{found.line.data}:{found.column.data}"
        # Line 0 is no line of the input: MLIR's location of an implicit module.
        if found.line.data > 0 and position not in out:
            out.append(position)
    return " ".join(out)


@dataclass(eq=False, repr=False)
class _MarkingPrinter(OptionsPrinter):
    """Notes, for every op, the stream and the offset in it where the op's text starts."""

    marks: list[tuple[StringIO, int, Operation]] = field(default_factory=list, init=False)

    def print_op(self, op: Operation) -> None:
        self.marks.append((self.stream, self.stream.tell(), op))  # type: ignore[union-attr]
        super().print_op(op)


@dataclass
class PrintedModule:
    text: str
    line_origins: list[str]  # per line of ``text``
    op_lines: dict[Operation, int]  # the line (0-based) each op's text starts on
    op_counts: Counter  # how many ops of each name the module holds


def print_with_origins(driver, module: Operation) -> PrintedModule:
    """``driver.print_module(module)`` of IR that verifies, with the origins of its lines."""
    args = driver.args
    stream = StringIO()
    printer = _MarkingPrinter(
        stream=stream,
        print_generic_format=args.mlir_print_op_generic,
        local_scope=args.mlir_print_local_scope,
        print_debuginfo=args.mlir_print_debuginfo,
        elide_elements_larger_than=args.mlir_elide_elementsattrs_if_larger,
    )
    printer.print_module(module)
    text = stream.getvalue()
    lines = text.splitlines()
    origins = [""] * len(lines)
    op_lines: dict[Operation, int] = {}
    counts: Counter = Counter()
    # The ops are printed into one stream (the module's body; aliases are
    # printed above it afterwards, each on its own line), so a line is the
    # number of newlines before the op's offset plus the lines above the body.
    # (No location aliases follow the body: the walkthrough prints no debug info.)
    newlines: dict[int, tuple[list[int], int]] = {}
    cache: dict[Attribute, str] = {}
    for body, offset, op in printer.marks:
        found = newlines.get(id(body))
        if found is None:
            value = body.getvalue()
            breaks = [m.start() for m in _NEWLINE.finditer(value)]
            above = 0 if body is stream else text.count("\n") - value.count("\n") - 1
            found = newlines[id(body)] = (breaks, above)
        breaks, above = found
        line = above + bisect_right(breaks, offset - 1)
        op_lines.setdefault(op, line)
        counts[op.name] += 1
        location = op.location
        positions = cache.get(location)
        if positions is None:
            positions = cache[location] = location_positions(location)
        if positions and 0 <= line < len(origins) and not origins[line]:
            origins[line] = positions
    return PrintedModule(text, origins, op_lines, counts)
