"""The browser tests' DevTools client (cdp.py) on a small page: every call of its API, and its errors."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from cdp import Browser, CDPError, needs_chromium

PAGE = """<!DOCTYPE html><html><head><style>
body{margin:0} #b{position:absolute;left:40px;top:1500px;width:200px;height:60px}
#h{width:120px;height:30px;background:#c00}
</style></head><body>
<div id="h">hover me</div><button id="b">click me</button><p id="log"></p>
<script>
var log=[];function note(s){log.push(s);document.getElementById('log').textContent=log.join(' ');}
document.getElementById('b').addEventListener('click',function(e){note('click:'+e.isTrusted);});
document.getElementById('h').addEventListener('mouseover',function(e){note('hover:'+e.isTrusted);});
document.addEventListener('keydown',function(e){note('key:'+e.key);});
setTimeout(function(){document.documentElement.setAttribute('data-ready','1');},50);
</script></body></html>
"""


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", data[16:24])


@pytest.fixture
def small_page(tmp_path: Path) -> Path:
    path = tmp_path / "small.html"
    path.write_text(PAGE)
    return path


@needs_chromium
def test_the_api_on_a_small_page(small_page: Path, tmp_path: Path):
    with Browser(tmp_path / "profile") as browser:
        page = browser.open(small_page, width=800, height=600)
        assert page.eval("1 + 2") == 3
        assert page.eval("Promise.resolve([innerWidth, innerHeight])") == [800, 600]
        with pytest.raises(CDPError, match="boom"):
            page.eval("(function(){throw new Error('boom')})()")

        # Real input events (isTrusted), the button scrolled into view first.
        page.hover("#h")
        page.click("#b")
        page.key("j")
        page.key(".")
        page.eval("document.activeElement.blur()")  # Enter on the focused button would click it again
        page.key("Enter")
        assert page.eval("log") == ["hover:true", "click:true", "key:j", "key:.", "key:Enter"]
        assert page.eval("scrollY") > 0
        with pytest.raises(CDPError, match="no element"):
            page.click("#missing")

        assert _png_size(page.screenshot(tmp_path / "all.png")) == (800, 600)
        assert _png_size(page.screenshot(tmp_path / "h.png", selector="#h")) == (120, 30)
        # An element taller than the viewport, in a page that scrolls inside an element: drawn whole.
        page.eval(
            "document.body.insertAdjacentHTML('beforeend','<main id=m style=\"position:fixed;top:0;left:0;right:0;"
            "bottom:0;overflow:auto\"><div style=\"height:300px\"></div><div id=tall style=\"width:200px;"
            "height:1000px;background:linear-gradient(#f00,#00f)\"></div></main>')"
        )
        tall = page.screenshot(tmp_path / "tall.png", selector="#tall")
        assert _png_size(tall) == (200, 1000)
        image = pytest.importorskip("PIL.Image").open(tall).convert("RGB")
        assert image.getpixel((100, 990))[2] > 200, "the bottom of the element is not drawn"
        assert page.eval("[innerWidth, innerHeight]") == [800, 600]
        page.eval("document.getElementById('m').remove()")

        # Typing into a text box, punctuation included.
        page.eval("document.body.insertAdjacentHTML('beforeend','<input id=t>')")
        page.click("#t")
        for ch in "a.b-c/d_e":
            page.key(ch)
        assert page.eval("document.getElementById('t').value") == "a.b-c/d_e"

        # A fragment in a path string is kept as the URL's fragment.
        again = browser.open(f"{small_page}#b")
        assert again.eval("location.hash") == "#b"
        with pytest.raises(CDPError, match="no such file"):
            browser.open(tmp_path / "missing.html")
        again.close()
        targets = browser.send("Target.getTargets")["targetInfos"]
        assert again.target_id not in [t["targetId"] for t in targets]


@needs_chromium
def test_a_page_that_never_becomes_ready(tmp_path: Path):
    path = tmp_path / "never.html"
    path.write_text("<!DOCTYPE html><html><body>no script</body></html>")
    with Browser(tmp_path / "profile") as browser:
        with pytest.raises(CDPError, match='data-ready="1"'):
            browser.open(path, timeout=1)
