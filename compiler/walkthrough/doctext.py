"""A pass docstring as HTML text: the reStructuredText a docstring uses, never shown raw.

Enough of it for the passes' docstrings: paragraphs (blank-line separated),
bullet lists (``- `` or ``* `` items, continued by indented lines), numbered
lists (``1. ``, ``#. ``), literal
blocks (a paragraph ending ``::`` then indented lines), and ``literal`` or
`literal` spans as ``<code>``.
"""

from __future__ import annotations

import re
from html import escape

_LITERAL = re.compile(r"``(.+?)``|`([^`]+?)`")
_BULLET = re.compile(r"^([-*]) +")
_NUMBERED = re.compile(r"^(\d+|#)[.)] +")


def inline(text: str) -> str:
    """One run of text as HTML: ``x`` and `x` become <code>x</code>, everything else escaped."""
    out, pos = [], 0
    for match in _LITERAL.finditer(text):
        out.append(escape(text[pos : match.start()]))
        out.append(f"<code>{escape(match.group(1) or match.group(2))}</code>")
        pos = match.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def plain(text: str) -> str:
    """One run of text without its markup, for a tooltip: ``x`` and `x` become x."""
    return _LITERAL.sub(lambda m: m.group(1) or m.group(2), text)


def _blocks(doc: str) -> list[list[str]]:
    blocks: list[list[str]] = [[]]
    for line in doc.splitlines():
        if line.strip():
            blocks[-1].append(line.rstrip())
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def to_html(doc: str) -> str:
    """A whole docstring (already dedented) as paragraphs, lists and literal blocks."""
    out: list[str] = []
    literal_next = False
    for block in _blocks(doc):
        if literal_next and block[0].startswith((" ", "\t")):
            out.append(f'<pre class="doc-literal">{escape(chr(10).join(_dedent(block)))}</pre>')
            literal_next = False
            continue
        literal_next = False
        for marker, tag in ((_BULLET, "ul"), (_NUMBERED, "ol")):
            if marker.match(block[0]):
                out.append(_list_html(block, marker, tag))
                break
        else:
            text = " ".join(line.strip() for line in block)
            if text.endswith("::"):
                literal_next = True
                # "Example::" reads "Example:"; a lone "::" introduces the block and says nothing.
                text = text[:-1] if text != "::" else ""
            if text:
                out.append(f"<p>{inline(text)}</p>")
    return "".join(out)


def _list_html(block: list[str], marker: re.Pattern, tag: str) -> str:
    items: list[list[str]] = []
    for line in block:
        if marker.match(line):
            items.append([marker.sub("", line)])
        elif items:
            items[-1].append(line.strip())
    return f"<{tag}>" + "".join(f"<li>{inline(' '.join(item))}</li>" for item in items) + f"</{tag}>"


def _dedent(lines: list[str]) -> list[str]:
    indent = min(len(line) - len(line.lstrip()) for line in lines)
    return [line[indent:] for line in lines]
