"""XLA shape strings against jaxlib: 10,000 random tiled layouts print and canonicalize as XLA does.

jaxlib exposes XLA's own text parser and printer through `jaxlib._hlo.hlo_module_from_text` (an HLO
module whose parameters carry the shapes; `HloModule.to_string` prints them back) and builds a
`Layout` from minor_to_major, tiles and element size (`jaxlib.xla_client.Layout(...).to_string()`).
It has no call that validates a layout against its shape (the HLO parser accepts `{1,1}`) and none
that computes offsets or sizes, so what is compared here is the text: every random layout, written
with random spacing and explicit defaults (`E(0)`, `S(0)`), must come out of our `canonical`
exactly as XLA prints it, and our printed layout must equal `xla_client.Layout`'s.
"""

from __future__ import annotations

import random

import pytest
from parity_support import require

from mini_iree.compiler.layout import ELEMENT_TYPES, XlaLayout, canonical

hlo = require("jaxlib._hlo", "jaxlib (XLA's HLO parser and printer)")
xla_client = require("jaxlib.xla_client", "jaxlib's xla_client")

COUNT = 10_000
STAR = "*"


def xla_print(shapes: list[str]) -> list[str]:
    """XLA's parse-then-print of each shape, all in one HLO module (one parameter per shape)."""
    params = "\n".join(f"  p{i} = {s} parameter({i})" for i, s in enumerate(shapes))
    module = hlo.hlo_module_from_text(f"HloModule m\nENTRY e {{\n{params}\n  ROOT t = () tuple()\n}}")
    printed: dict[int, str] = {}
    for line in module.to_string().splitlines():
        line = line.strip()
        if " parameter(" in line:
            name, rest = line.split(" = ", 1)
            printed[int(name.lstrip("%p"))] = rest.rsplit(" parameter(", 1)[0]
    return [printed[i] for i in range(len(shapes))]


def random_case(rng: random.Random) -> tuple[str, tuple, tuple, int]:
    """(text with random spacing, minor_to_major, tiles, E bits) of a valid random tiled layout."""
    rank = rng.randint(0, 4)
    dims = [rng.choice([0, 1, 1, 2, 3, 5, 8, 16, 128]) for _ in range(rank)]
    minor_to_major = list(range(rank))
    rng.shuffle(minor_to_major)
    tiles = []
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        length = rng.randint(1, rank + 1)
        tile = [rng.choice([1, 2, 3, 4, 8, 128, STAR]) for _ in range(length - 1)]
        tiles.append((*tile, rng.choice([1, 2, 4, 8, 128])))  # '*' cannot be most minor
    element_type = rng.choice(sorted(ELEMENT_TYPES))
    bits = rng.choice([0, 0, 0, 1, 2, 4, 8, 16, 32])
    space = rng.choice([0, 0, 1, 2, 5])
    sp = lambda: rng.choice(["", "", " "])  # noqa: E731 - spacing XLA's lexer skips
    attrs = ""
    if tiles:
        attrs += "T" + "".join("(" + f",{sp()}".join(map(str, t)) + ")" for t in tiles)
    if bits or rng.random() < 0.1:
        attrs += f"E({bits})"
    if space or rng.random() < 0.1:
        attrs += f"S({space})"
    m2m = f",{sp()}".join(map(str, minor_to_major))
    layout = "{" + m2m + (f"{sp()}:{sp()}{attrs}" if attrs or rng.random() < 0.1 else "") + "}"
    if layout == "{}":
        layout = ""  # XLA prints a scalar's empty layout as nothing, and its HLO parser rejects `f32[]{}` there
    text = f"{element_type}[{f',{sp()}'.join(map(str, dims))}]{layout}"
    return text, tuple(minor_to_major), tuple(tiles), bits


def test_random_tiled_layouts_print_as_xla():
    rng = random.Random(29)
    cases = [random_case(rng) for _ in range(COUNT)]
    theirs = xla_print([text for text, *_ in cases])
    ours = [canonical(text) for text, *_ in cases]
    compared = [(text, mine, printed) for (text, *_), mine, printed in zip(cases, ours, theirs)]
    disagreements = [case for case in compared if case[1] != case[2]]
    assert not disagreements, f"{len(disagreements)} of {len(compared)} differ, e.g. {disagreements[:3]}"
    assert len(compared) == COUNT
    # The canonical text is a fixed point for both.
    assert xla_print(theirs[:500]) == theirs[:500]
    assert [canonical(printed) for _, _, printed in compared[:2000]] == [printed for _, _, printed in compared[:2000]]


def test_scalar_with_an_empty_layout_prints_as_xla():
    # ShapeUtil::HumanStringWithLayout leaves a scalar's empty layout out (`s64[]{:E(0)}` prints `s64[]`).
    texts = ["s64[]{:E(0)}", "u8[]{ : }", "f32[]{:S(0)}"]
    assert [canonical(t) for t in texts] == xla_print(texts)


def test_layouts_built_from_parts_print_as_xla_client():
    rng = random.Random(30)
    star = -(2**63)  # Tile::kCombineDimension
    for _ in range(COUNT // 5):
        _, minor_to_major, tiles, bits = random_case(rng)
        numeric = tuple(tuple(star if d == STAR else d for d in t) for t in tiles)
        theirs = xla_client.Layout(list(minor_to_major), list(numeric), bits).to_string()
        assert str(XlaLayout(minor_to_major, numeric, element_size_in_bits=bits)) == theirs
