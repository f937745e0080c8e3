"""Where the pipeline stopped: the pass that failed and its diagnostic with the source line, as MLIR prints it.

The walkthrough keeps a failure as the diagnostic's text (``Walkthrough.error``,
``FILE:LINE:COL: error: MESSAGE``); ``rendered_error`` adds the program's line
and a caret under the column, as ``mini-iree-opt`` does on stderr, and
``failure_html`` is the page's box naming the pass.
"""

from __future__ import annotations

import re
from html import escape

from mini_iree.compiler.ir.diagnostics import Diagnostic, SourceLoc, render

from .stages import Walkthrough, display_name

_DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|note|remark): ")


def rendered_error(walk: Walkthrough) -> str:
    """``walk.error`` with its source line and caret when it points into the program walked through."""
    return render_text(walk.error or "", walk.source, walk.program)


def render_text(error: str, source: str | None, program: str) -> str:
    """A diagnostic's text (first line ``FILE:LINE:COL: SEVERITY: MESSAGE``) rendered with ``source``'s line.

    ``program`` is the program's name as the page shows it; the diagnostic names
    the file as it was given, so both spellings are accepted.
    """
    first, _, rest = error.partition("\n")
    match = _DIAGNOSTIC.match(first)
    if match is None or source is None:
        return error
    name = match["file"]
    if name != program and display_name(name) != program:
        return error
    loc = SourceLoc(name, int(match["line"]), int(match["col"]))
    text = render(Diagnostic(loc, first[match.end() :], match["severity"]), source, name)
    return text + (f"\n{rest}" if rest else "")


def failed_stage_index(walk: Walkthrough) -> int | None:
    """The index the failed pass has (or would have had) in the stage list; None when no pass failed."""
    if walk.failed_pass is None:
        return None
    last = walk.stages[-1]
    # A pass whose results the interpreter found changed has a stage; a pass that raised has none.
    if last.index and last.flag == walk.failed_pass and last.check is not None and not last.check.ok:
        return last.index
    return len(walk.stages)


def failure_html(walk: Walkthrough, prefix: str = "") -> str:
    index = failed_stage_index(walk)
    if index is None:
        # No pass failed: the interpreter could not run the input program, or time the final one.
        title = "The interpreter stopped"
        why = "every pass above ran; the interpreter could not check or time the program"
    else:
        title = f"The pipeline stopped at pass {index}, <code>{escape(walk.failed_pass or '')}</code>"
        why = (
            "the interpreter's results changed after it (its IR is the last section above)"
            if index < len(walk.stages)
            else "the pass failed; the last section above is the IR it was given"
        )
    return (
        f'<section class="panel" id="{prefix}failure" data-failed-pass="{escape(walk.failed_pass or "")}">'
        f"<h2>{title}</h2><p class=\"meta\">{why}:</p>"
        f'<pre class="error">{escape(rendered_error(walk))}</pre></section>'
    )
