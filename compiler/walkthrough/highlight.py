"""MLIR syntax colouring: one line of IR -> HTML with ``<span class="...">`` around each token kind.

A regular-expression lexer is enough for colouring (it never has to agree with
the parser on structure): comments, strings, SSA values, symbols, attribute
aliases, dialect types, builtin types, numbers and operation names.
"""

from __future__ import annotations

import re
from html import escape

_TOKEN = re.compile(
    r"""
    (?P<comment>//.*$)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<ssa>%[\w$.#-]+(?::\d+)?)
  | (?P<symbol>@[\w$.-]+)
  | (?P<block>\^[\w$.-]+)
  | (?P<alias>\#[\w$.]+)
  | (?P<dtype>![\w$.]+)
  | (?P<type>\b(?:tensor|memref|vector|index|none|complex|bf16|[fsu]?i\d+|f\d+|tf32)\b)
  | (?P<number>-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b|\b0x[0-9A-Fa-f]+\b)
  | (?P<op>\b[a-z_][\w]*\.[\w.]+\b)
  | (?P<keyword>\b(?:module|func|return|ins|outs|attributes|to|dense|affine_map|true|false|loc)\b)
    """,
    re.VERBOSE,
)

CLASSES = {
    "comment": "c",
    "string": "s",
    "ssa": "v",
    "symbol": "y",
    "block": "v",
    "alias": "a",
    "dtype": "t",
    "type": "t",
    "number": "n",
    "op": "o",
    "keyword": "k",
}


def highlight_line(line: str) -> str:
    """``line`` as escaped HTML with coloured tokens."""
    out = []
    pos = 0
    for match in _TOKEN.finditer(line):
        out.append(escape(line[pos : match.start()]))
        kind = match.lastgroup or ""
        out.append(f'<span class="{CLASSES[kind]}">{escape(match.group())}</span>')
        pos = match.end()
    out.append(escape(line[pos:]))
    return "".join(out)
