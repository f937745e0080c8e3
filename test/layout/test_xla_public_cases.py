"""Every case of the shared XLA tiled-layout sample (reference/xla-layout/public-cases.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mini_iree.compiler import layout as L

CASES_FILE = Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "xla-layout" / "public-cases.json"


def _cases():
    if not CASES_FILE.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{CASES_FILE} is absent"))]
    cases = json.loads(CASES_FILE.read_text())["cases"]
    return [pytest.param(c, id=f"{c['id']}-{c['kind']}-{c['shape']}{c['layout']}") for c in cases]


def _text(case):
    return case.get("input", case["shape"] + case["layout"])


@pytest.mark.parametrize("case", _cases())
def test_public_case(case):
    kind = case["kind"]
    text = _text(case)
    if kind == "linear_index":
        relayout = L.xla_relayout(L.parse_shape(text))
        assert int(relayout.linear_index(case["index"])) == case["expected_linear_index"]
        if "xla_LayoutUtil_LinearIndex" in case and "*" not in case["layout"]:
            # XLA's own function (first tile only), kept separately and bug-compatible.
            shape = L.parse_shape(text)
            assert L.layout_util_linear_index(shape, case["index"]) == case["xla_LayoutUtil_LinearIndex"]
    elif kind == "linear_index_grid":
        grid = L.xla_relayout(L.parse_shape(text)).index_grid()
        assert grid.tolist() == case["expected_grid"]
    elif kind == "roundtrip":
        printed = L.canonical(text)
        assert printed == case["expected_canonical"]
        assert L.canonical(printed) == printed
    elif kind == "size":
        shape = L.parse_shape(text)
        expected = case["expected_size"]
        assert L.elements(shape) == expected["elements"]
        assert L.padded_elements(shape) == expected["padded_elements_full_tiling"]
        assert L.array_size(shape) == expected["ArraySize_bytes"]
        assert L.byte_size_of(shape) == expected["ByteSizeOf_bytes"]
    elif kind == "parses_but_invalid":
        # XLA's text parser accepts it and prints it back; ValidateShape rejects it.
        assert str(L.parse_shape_unvalidated(text)) == case["expected_canonical"]
        with pytest.raises(L.XlaLayoutError) as err:
            L.parse_shape(text)
        assert str(err.value) == case["expected_error"]
    elif kind == "parse_error":
        with pytest.raises(L.XlaLayoutError) as err:
            L.parse_shape(text)
        # Process aborts carry XLA's source position ("layout_util.cc:77] ..."); the message follows it.
        assert case["expected_error"].split("] ", 1)[-1] in str(err.value)
    else:
        pytest.fail(f"unknown case kind {kind}")
