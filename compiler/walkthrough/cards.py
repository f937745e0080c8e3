"""The encoding cards of the walkthrough page: one per encoded tensor type, its layout per target, drawn.

``collect_cards`` finds every encoded tensor type over the stages (the card
itself is ``encodings.build_card``'s); ``card_html`` renders one card, and
``chip_label`` names it in a stage's list of encodings. ``CSS`` and ``SCRIPT``
are the cards' share of the page's style and behaviour.
"""

from __future__ import annotations

from html import escape

from .encodings import EncodingCard, attribute_text, build_card, encoded_tensor_types
from .highlight import highlight_line
from .stages import Walkthrough

CSS = """
.chips a{display:inline-block;font:11px monospace;background:#eef3ff;border:1px solid #cfdcff;border-radius:10px;padding:0 7px;
 margin:2px 3px 2px 0;color:#1b3d91;text-decoration:none}
article.encoding{border-top:1px solid #eee;padding:10px 0}
article.encoding h3{font:600 13px monospace;margin:4px 0;word-break:break-all}
div.view{display:inline-block;vertical-align:top;margin:6px 18px 6px 0;max-width:100%}
div.view h4{margin:4px 0;font-size:13px}
figure{margin:6px 0;display:inline-block;vertical-align:top;margin-right:16px}
figcaption{font-size:11px;color:#555;max-width:560px}
ol.steps{font:12px monospace;margin:4px 0;padding-left:20px}
.xla{font:12px monospace;word-break:break-all}
"""

SCRIPT = ""


def chip_label(card: EncodingCard, width: int = 72) -> str:
    text = card.tensor_text
    return text if len(text) <= width else text[: width - 1] + "…"


def collect_cards(walk: Walkthrough) -> tuple[list[EncodingCard], dict[int, list[EncodingCard]]]:
    """One card per encoded tensor type over all stages, and the cards each stage holds."""
    cards: dict[str, EncodingCard] = {}
    per_stage: dict[int, list[EncodingCard]] = {}
    for stage in walk.stages:
        if stage.module is None:
            continue
        for tensor in encoded_tensor_types(stage.module):
            key = str(tensor)
            if key not in cards:
                cards[key] = build_card(
                    tensor,
                    walk.targets,
                    f"enc-{len(cards)}",
                    attribute_text(tensor.encoding),
                    attribute_text(tensor),
                )
            cards[key].stages.append(stage.index)
            per_stage.setdefault(stage.index, []).append(cards[key])
    return list(cards.values()), per_stage


def card_html(card: EncodingCard, stage_names: dict[int, str]) -> str:
    out = [f'<article class="encoding" id="{card.anchor}" data-kind="{card.kind}">']
    out.append(f"<h3>{escape(card.tensor_text)}</h3>")
    out.append(f'<pre class="attr"><span class="l">{highlight_line(card.attr_text)}</span></pre>')
    first, last = card.stages[0], card.stages[-1]
    out.append(
        f'<p class="meta">appears after <a href="#stage-{first}">{escape(stage_names[first])}</a>'
        f'{"" if first == last else f" until <a href=#stage-{last}>{escape(stage_names[last])}</a>"}</p>'
    )
    for view in card.views:
        out.append('<div class="view">')
        out.append(f"<h4>{escape(view.label)}</h4>")
        if view.info_text:
            out.append(f'<p class="xla">encoding_info = {escape(view.info_text)}</p>')
        if view.xla:
            out.append(f'<p class="xla">XLA: <code class="xla-form">{escape(view.xla)}</code></p>')
        if view.steps:
            out.append('<ol class="steps">' + "".join(f"<li>{escape(s)}</li>" for s in view.steps) + "</ol>")
        if view.ops:
            out.append('<p class="meta">set_encoding lowers to:</p><ol class="steps">')
            out.append("".join(f"<li>{escape(s)}</li>" for s in view.ops) + "</ol>")
        if view.note:
            out.append(f'<p class="meta">{escape(view.note)}</p>')
        for caption, svg in view.pictures:
            out.append(f'<figure class="picture">{svg}<figcaption>{escape(caption)}</figcaption></figure>')
        out.append("</div>")
    out.append("</article>")
    return "".join(out)
