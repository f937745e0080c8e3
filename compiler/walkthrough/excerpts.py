"""IR excerpts in a Markdown file, regenerated from the walkthrough's real output so they never drift.

An excerpt is a comment naming what to show, followed by a fenced block that
this module rewrites:

    <!-- walkthrough-ir: matmul.mlir after=iree-dispatch-creation-set-encoding from="linalg.matmul" lines=3 -->
    ```mlir
    ...
    ```

``PROGRAM`` is relative to the Markdown file and runs its own pipeline (its
``// walkthrough-pipeline:`` line, else the default). ``after=FLAG`` picks the
first stage of that pass (``FLAG#2`` the second; ``input`` the program itself),
``from="TEXT"`` the first line containing TEXT (default: the first line),
``lines=N`` how many lines (default 12), ``show=diff`` the pass's diff instead
of the IR after it.
"""

from __future__ import annotations

import os
import re
import shlex

from .stages import Walkthrough, run_walkthrough
from .textdiff import unified

# The comment, then the fenced block after it (if any): whole lines up to the closing fence.
_EXCERPT = re.compile(r"(<!-- walkthrough-ir: (?P<spec>[^\n]*?) -->\n)(```[^\n]*\n(?:(?!```)[^\n]*\n)*```[ \t]*\n?|)")


class ExcerptError(ValueError):
    pass


def _stage_index(walk: Walkthrough, after: str) -> int:
    flag, _, nth = after.partition("#")
    count = int(nth or 1)
    for stage in walk.stages:
        if stage.flag == flag:
            count -= 1
            if count == 0:
                return stage.index
    raise ExcerptError(f"{walk.program}: no stage '{after}' in {walk.pipeline}")


def excerpt(walk: Walkthrough, after: str, start: str | None, lines: int, show: str) -> list[str]:
    index = _stage_index(walk, after)
    if show == "diff":
        if index == 0:
            raise ExcerptError("the input has no diff")
        diff = unified(walk.stages[index - 1].text, walk.stages[index].text)
        text = [f"{d.kind if d.kind in '+-' else ' '}{d.text}" for d in diff if d.kind != "@"]
    else:
        text = walk.stages[index].text.splitlines()
    first = 0
    if start:
        matches = [i for i, line in enumerate(text) if start in line]
        if not matches:
            raise ExcerptError(f"{walk.program}: no line containing '{start}' after {after}")
        first = matches[0]
    return text[first : first + lines]


def refresh(markdown: str, base_dir: str, walks: dict[str, Walkthrough] | None = None) -> str:
    """``markdown`` with every excerpt block regenerated.

    ``walks`` caches the walkthroughs by program path (``os.path.join(base_dir, PROGRAM)``).
    """
    walks = {} if walks is None else walks

    def replace(match: re.Match) -> str:
        words = shlex.split(match.group("spec"))
        program, options = words[0], dict(w.split("=", 1) for w in words[1:])
        path = os.path.join(base_dir, program)
        if path not in walks:
            walks[path] = run_walkthrough(path, check=False)
        body = excerpt(
            walks[path],
            options.get("after", "input"),
            options.get("from"),
            int(options.get("lines", "12")),
            options.get("show", "ir"),
        )
        fence = "diff" if options.get("show") == "diff" else "mlir"
        return match.group(1) + f"```{fence}\n" + "\n".join(body) + "\n```\n"

    return _EXCERPT.sub(replace, markdown)
