"""MLIR syntax colouring: one line of IR -> HTML with ``<i class=...>`` around each token kind.

A regular-expression lexer is enough for colouring (it never has to agree with
the parser on structure): comments, strings, SSA values, symbols, attribute
aliases, dialect types, builtin types, numbers and operation names.
"""

from __future__ import annotations

import re
from functools import lru_cache

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


def _span(match: re.Match) -> str:
    # <i class=v>, not <span class="v">: a page holds ~10^5 tokens, and the markup is half its size.
    return f"<i class={CLASSES[match.lastgroup or '']}>{match.group()}</i>"


@lru_cache(maxsize=1 << 16)
def highlight_line(line: str) -> str:
    """``line`` as escaped HTML with coloured tokens.

    ``&``, ``<`` and ``>`` are escaped first (no token holds them, so the lexer
    sees the same tokens); quotes need no escaping in text. Consecutive stages
    share most of their lines, so lines are remembered.
    """
    return _TOKEN.sub(_span, line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
