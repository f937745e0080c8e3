"""Where each op of a stage came from: the rewrites a pass applied, and the input ops behind every op.

``CSS`` and ``SCRIPT`` are this part's share of the page; ``render_stage``
gives the HTML a stage's section shows.
"""

from __future__ import annotations

from .stages import Stage, Walkthrough

CSS = ""
SCRIPT = ""


def render_stage(walk: Walkthrough, stage: Stage) -> str:
    return ""
