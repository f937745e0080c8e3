"""The values a pass introduces, on the page's seeded inputs, with each element's logical index.

``CSS`` and ``SCRIPT`` are this part's share of the page; ``render_stage``
gives the HTML a stage's section shows.
"""

from __future__ import annotations

from .stages import Stage, Walkthrough

CSS = ""
SCRIPT = ""


def render_stage(walk: Walkthrough, stage: Stage) -> str:
    return ""
