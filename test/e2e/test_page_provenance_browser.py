"""Provenance and values on the walkthrough page, clicked and hovered in headless Chromium.

Clicking an op's line marks its ancestors in every earlier stage and in the
input program, and says how many; a second click or Escape clears. Hovering a
number of a captured tensor says which input element it holds (or that it is
padding) and marks the same element in the other stages. A small page with two
sides checks that the search stays on the clicked side, as on the compare page.
"""

from __future__ import annotations

import json

import pytest
from cdp import browser, needs_chromium  # noqa: F401 - `browser` is a fixture of this module
from conftest import REPO

from mini_iree.compiler.tools.walkthrough_main import main as walkthrough_main
from mini_iree.compiler.walkthrough import page as page_mod
from mini_iree.compiler.walkthrough import provenance, values

MATMUL = REPO / "examples" / "matmul.mlir"
MATERIALIZE = "iree-codegen-materialize-device-encoding"

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def page_path(tmp_path_factory):
    out = tmp_path_factory.mktemp("provenance") / "matmul.html"
    args = [str(MATMUL), "--pipeline", "data-tiling{target=gfx942}", "--dynamic-size", "5", "--timing-size", "16"]
    assert walkthrough_main([*args, "-o", str(out)]) == 0
    return out



def _mark(page, section: str, selector: str, text: str, name: str) -> str:
    """Tags the first element matching ``selector`` in ``section`` whose text holds ``text``; its selector."""
    found = page.eval(
        f"(function(){{var s=document.querySelector('section[data-pass={json.dumps(section)}]');"
        f"var e=[].find.call(s.querySelectorAll({json.dumps(selector)}),function(x){{"
        f"return x.textContent.indexOf({json.dumps(text)})>=0;}});"
        f"if(!e)return false;e.setAttribute('data-test',{json.dumps(name)});return true;}})()"
    )
    assert found, (section, selector, text)
    return f'[data-test="{name}"]'


def _count(page, selector: str) -> int:
    return page.eval(f"document.querySelectorAll({json.dumps(selector)}).length")


def _text(page, selector: str) -> str:
    return page.eval(f"document.querySelector({json.dumps(selector)}).textContent")


def _any_text(page, selector: str, text: str) -> bool:
    return page.eval(
        f"[].some.call(document.querySelectorAll({json.dumps(selector)}),"
        f"function(l){{return l.textContent.indexOf({json.dumps(text)})>=0;}})"
    )


def test_clicking_an_op_highlights_its_ancestors(browser, page_path):
    page = browser.open(page_path, width=1400, height=900)
    pack = _mark(page, MATERIALIZE, "pre.diff span.l.add[data-o]", "linalg.pack", "pack")
    page.click(pack)
    assert page.eval(f"document.querySelector('{pack}').classList.contains('anc-sel')")
    # The matmul of the input program is an ancestor; so is the set_encoding the pack lowers.
    assert _any_text(page, "#stage-0 span.l.anc", "linalg.matmul")
    set_encoding = 'section[data-pass="iree-dispatch-creation-set-encoding"]'
    assert _any_text(page, f"{set_encoding} span.l.anc", "iree_encoding.set_encoding")
    # Nothing at or after the clicked stage is marked.
    later = page.eval(
        f"(function(){{var s=document.querySelector('section[data-pass=\"{MATERIALIZE}\"]'),n=0;"
        "document.querySelectorAll('section.stage').forEach(function(x){"
        "if(x===s||s.compareDocumentPosition(x)&Node.DOCUMENT_POSITION_FOLLOWING)"
        "n+=x.querySelectorAll('.anc').length;});"
        "return n;})()"
    )
    assert later == 0
    status = _text(page, f'section[data-pass="{MATERIALIZE}"] p.prov-status')
    marked = _count(page, "span.l.anc")
    assert f"{marked} lines" in status and "in the input program" in status, status
    assert status.startswith("made by SetEncodingOpLoweringConversion in this pass; "), status
    # A second click clears; so does Escape.
    page.click(pack)
    assert _count(page, "span.l.anc,span.l.anc-sel") == 0
    page.click(pack)
    assert _count(page, "span.l.anc") == marked
    page.key("Escape")
    assert _count(page, "span.l.anc,span.l.anc-sel") == 0
    assert page.eval("document.documentElement.getAttribute('data-errors')") == "0"


def test_hovering_a_packed_value_shows_its_logical_index(browser, page_path):
    page = browser.open(page_path, width=1400, height=900)
    block = f'section[data-pass="{MATERIALIZE}"] div.vt[data-op="linalg.pack"]'
    page.click(f'section[data-pass="{MATERIALIZE}"] details.vals > summary')
    # %arg0[1, 2] is element 7 of the 5x5 LHS (numbers count from 0 over the inputs).
    page.hover(f'{block} td[data-g="7"]')
    text = _text(page, f"{block} p.vat")
    assert "%arg0[1, 2]" in text, text
    # The same element is marked in the input, where set_encoding holds it, and where the map_scatter wrote it
    # (on gfx942 the GPU combine pass, run on the GPU executables by for-target-backends).
    for flag in ("input", "iree-dispatch-creation-set-encoding", "for-target-backends"):
        assert _count(page, f'section[data-pass="{flag}"] td.same[data-g="7"]') >= 1
    page.hover(f"{block} td.p")
    assert _text(page, f"{block} p.vat").endswith(": padding")
    assert page.eval("document.documentElement.getAttribute('data-errors')") == "0"


def test_the_search_stays_on_its_side(browser, tmp_path):
    # Each stage of each side holds a 2-element tensor: input element 3 (%arg0[1, 1]) and padding.
    tensor = (
        '<details class="vals" open><div class="vt" data-op="linalg.pack" data-shape="[2]" data-v="1.5,0" '
        'data-vo="3,-1" data-in="[[&quot;%arg0&quot;,[2,2],0]]"><div class="vg"></div><p class="vat"></p></div>'
        "</details>"
    )

    def side(name: str) -> str:
        # As the compare page: every stage in its own element naming its side.
        return (
            f'<div data-side="{name}"><section class="stage" id="{name}-stage-0" data-pass="input">'
            '<p class="prov-status" hidden></p><pre class="ir">'
            '<span class="l" data-o="3:5">%0 = linalg.matmul</span><span class="l">}</span>'
            f"</pre>{tensor}</section></div>"
            f'<div data-side="{name}"><section class="stage" id="{name}-stage-1" data-pass="p">'
            '<p class="prov-status" hidden></p><pre class="ir">'
            f'<span class="l" data-o="3:5 4:1">%1 = linalg.pack</span></pre>{tensor}</section></div>'
        )

    html = (
        f"<!DOCTYPE html><html data-errors=\"0\"><head><style>{page_mod.CSS}{provenance.CSS}{values.CSS}</style>"
        "<script>window.addEventListener('error',function(){"
        "document.documentElement.setAttribute('data-errors','1');});"
        f"</script></head><body>{side('a')}{side('b')}<script>{provenance.SCRIPT}{values.SCRIPT}"
        "document.documentElement.setAttribute('data-ready','1');</script></body></html>"
    )
    path = tmp_path / "sides.html"
    path.write_text(html)
    page = browser.open(path)
    page.click("#b-stage-1 span.l")
    assert _count(page, "#b-stage-0 span.l.anc") == 1 and _count(page, "#a-stage-0 span.l.anc") == 0
    assert "1 line in 1 earlier stage" in _text(page, "#b-stage-1 p.prov-status")
    page.hover('#b-stage-1 td[data-g="3"]')
    assert _text(page, "#b-stage-1 p.vat").startswith("element [0] = 1.5: %arg0[1, 1]")
    assert _count(page, "#b-stage-0 td.same") == 1 and _count(page, "[data-side=a] td.same") == 0
    assert page.eval("document.documentElement.getAttribute('data-errors')") == "0"
