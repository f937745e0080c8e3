"""Two pipelines on one program, side by side: one page, the passes aligned.

The passes are aligned by their flag with a longest common subsequence, so
that both columns show the same pass on the same row (two targets run the same
pipeline; two eras, or two pipelines, may differ in a few passes); a pass that
only one pipeline runs has a row of its own with the other column empty. Each
column is a whole walkthrough: its IR, diffs, what changed, rewrites, values,
encoding cards, failure and results, with its ids prefixed (``a-stage-7``,
``b-enc-0``) so that both fit on one page.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .page import StageRenderer, check_badge, nav_tools, page_shell, result_html
from .stages import Walkthrough

SIDES = ("a", "b")

CSS = """
main>*{max-width:none}
div.row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px;align-items:start;margin:0 0 16px}
div.row>div{min-width:0}
div.row section.stage{margin:0}
div.row div.absent{border:1px dashed #ccc;border-radius:6px;padding:10px 14px;color:#777;font-size:13px}
div.row.one-side{opacity:.95}
div.row.one-side>div.absent{background:repeating-linear-gradient(45deg,#fafafa,#fafafa 6px,#f2f2f2 6px,#f2f2f2 12px)}
nav#outline li.row a{display:flex;gap:4px}
nav#outline li.row a span.col{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis}
nav#outline li.row a span.col.none{color:#bbb}
nav#outline li.row.differs a{box-shadow:inset 3px 0 #d97706}
div.row.differs>div>section.stage{border-color:#f0b35a}
html.hide-unchanged div.row section.stage[data-unchanged]{display:block}
html.hide-unchanged div.row[data-unchanged]{display:none}
div.columns{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px;align-items:start}
"""


@dataclass(frozen=True)
class Row:
    """One row of the comparison: the stage index on each side (None where that pipeline has no such pass)."""

    a: int | None
    b: int | None


def align(flags_a: list[str], flags_b: list[str]) -> list[Row]:
    """Rows pairing equal flags along a longest common subsequence; unpaired passes alone, in pipeline order."""
    n, m = len(flags_a), len(flags_b)
    # lcs[i][j]: the longest common subsequence of flags_a[i:] and flags_b[j:].
    lcs = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            lcs[i][j] = lcs[i + 1][j + 1] + 1 if flags_a[i] == flags_b[j] else max(lcs[i + 1][j], lcs[i][j + 1])
    rows, i, j = [], 0, 0
    while i < n or j < m:
        if i < n and j < m and flags_a[i] == flags_b[j]:
            rows.append(Row(i, j))
            i, j = i + 1, j + 1
        elif j == m or (i < n and lcs[i + 1][j] >= lcs[i][j + 1]):
            rows.append(Row(i, None))
            i += 1
        else:
            rows.append(Row(None, j))
            j += 1
    return rows


def side_label(walk: Walkthrough) -> str:
    """What tells the two columns apart: the targets, else the pipeline."""
    return ", ".join(walk.targets) or walk.pipeline


def _short(text: str, width: int = 90) -> str:
    """A column's label on one line or two: a long pipeline, cut (its whole text is the heading's tooltip)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def render_compare_page(walk_a: Walkthrough, walk_b: Walkthrough) -> str:
    walks = (walk_a, walk_b)
    # Diffs only: the whole IR after every pass, twice, would make the page too large to open quickly (the
    # single-pipeline pages have it).
    renderers = [StageRenderer(w, f"{side}-", with_ir=False, stops=False) for w, side in zip(walks, SIDES)]
    labels = [side_label(w) for w in walks]
    if labels[0] == labels[1]:
        labels = [w.pipeline for w in walks]
    rows = align([s.flag for s in walk_a.stages], [s.flag for s in walk_b.stages])
    nav = [
        f"<h1>{escape(walk_a.program)}</h1>",
        "".join(f'<p class="meta">{side}: <code>{escape(w.pipeline)}</code></p>' for side, w in zip(SIDES, walks)),
        nav_tools(2),
        "<ol>",
    ]
    # Where each side's last stage is: rows after it, on a side whose pipeline failed, are passes it never reached.
    last_row = [max((k for k, r in enumerate(rows) if (r.a, r.b)[side] is not None), default=-1) for side in (0, 1)]
    body = []
    for k, row in enumerate(rows):
        cells, names = [], []
        for n, (side, renderer, index) in enumerate(zip(SIDES, renderers, (row.a, row.b))):
            if index is None:
                if renderer.walk.error and k > last_row[n]:
                    why = f'stopped before this pass (<a href="#{side}-failure">why</a>)'
                else:
                    why = "does not run this pass"
                absent = f'<div class="absent">pipeline {side} {why}</div>'
                cells.append(f'<div data-side="{side}">{absent}</div>')
                names.append('<span class="col none">—</span>')
                continue
            stage_html = renderer.render(index)
            cells.append(f'<div data-side="{side}">{stage_html.section}</div>')
            stage = renderer.walk.stages[index]
            names.append(f'<span class="col">{check_badge(stage)}{escape(renderer.names[stage.index])}</span>')
        one_side = row.a is None or row.b is None
        # Where both run the pass but it added or removed other ops: the rows a reader compares first.
        differs = not one_side and renderers[0].delta(row.a) != renderers[1].delta(row.b)
        both_unchanged = all(
            i is not None and i > 0 and r.walk.stages[i].text == r.walk.stages[i - 1].text
            for r, i in zip(renderers, (row.a, row.b))
        )
        unchanged = " data-unchanged" if both_unchanged else ""
        indexes = f'data-a="{"" if row.a is None else row.a}" data-b="{"" if row.b is None else row.b}"'
        body.append(
            f'<div class="row{" one-side" if one_side else ""}{" differs" if differs else ""}" id="row-{k}" '
            f"data-stop{unchanged} {indexes}>"
            f'{"".join(cells)}</div>'
        )
        grey = "unchanged" if both_unchanged else ""
        mark = " differs" if differs else ""
        title = ' title="the two pipelines added or removed different ops here"' if differs else ""
        nav.append(f'<li class="row {grey}{mark}"><a href="#row-{k}" class="{grey}"{title}>{"".join(names)}</a></li>')
    nav.append("</ol>")
    tail = []
    for side, renderer in zip(SIDES, renderers):
        walk = renderer.walk
        panels = renderer.failure_panel() + renderer.encodings_panel()
        if walk.final_runs:
            panels += result_html(walk, f"{side}-")
        tail.append(f'<div data-side="{side}">{panels}</div>')
    for side, renderer in zip(SIDES, renderers):
        if renderer.walk.error:
            nav.append(f'<p><a href="#{side}-failure">{side}: the pipeline stopped</a></p>')
    nav.append('<p><a href="#panels">encodings and results</a></p>')
    header = (
        f'<section class="panel" id="top"><h2>{escape(walk_a.program)}: two pipelines, {len(rows)} rows</h2>'
        + "".join(
            f'<p class="meta">{side}: <code>{escape(w.pipeline)}</code>, {len(w.stages) - 1} passes; targets '
            f"{escape(', '.join(w.targets) or 'none')}</p>"
            for side, w in zip(SIDES, walks)
        )
        + f'<p class="meta">interpreter inputs: seed {walk_a.seed}, every dynamic dimension {walk_a.dynamic_size}. '
        "Rows pair the passes both pipelines run; a pass only one runs has a row of its own; rows where the two "
        "added or removed different ops are marked (orange). Each pass shows its "
        "diff; the whole IR after it is on the page of one pipeline (<code>mini-iree-walkthrough PROGRAM "
        "--pipeline PIPELINE</code>).</p></section>"
    )
    # Labels above the two columns, then the rows, then each side's encodings and results next to each other.
    heads = "".join(
        f'<div data-side="{side}"><h2 title="{escape(label)}">{side}: {escape(_short(label))}</h2></div>'
        for side, label in zip(SIDES, labels)
    )
    main = header + f'<div class="columns">{heads}</div>' + "".join(body)
    main += f'<div class="columns" id="panels">{"".join(tail)}</div>'
    return page_shell(f"walkthrough: {walk_a.program}, two pipelines", "".join(nav), main, CSS)
