"""The walkthrough page of examples/matmul.mlir, opened in headless Chromium.

The page is generated in-process, then Chromium dumps the DOM after the page's
scripts ran (one section per pass, a diff per pass, a picture per encoding, no
script error recorded by the page's error handler) and takes a screenshot. With
MINI_IREE_UPDATE_SCREENSHOT=1 the screenshot is also saved as
docs/walkthrough-page.png, the one the README shows.

Chromium is Debian's `chromium` package (CI installs it with apt-get); where it
cannot be installed the browser tests are skipped, saying so.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import REPO

from mini_iree.compiler.tools.walkthrough_main import main as walkthrough_main

MATMUL = REPO / "examples" / "matmul.mlir"
PIPELINE = "data-tiling{target=gfx942}"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("walkthrough") / "matmul.html"
    assert walkthrough_main([str(MATMUL), "--pipeline", PIPELINE, "--timing-size", "64", "-o", str(out)]) == 0
    return out


def _chromium(page: Path, profile: Path, *flags: str, query: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            *flags,
            page.as_uri() + query,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )


class _Dom(HTMLParser):
    """The elements the assertions need, from Chromium's DOM dump."""

    def __init__(self):
        super().__init__()
        self.root: dict[str, str] = {}
        self.stages: list[dict[str, str]] = []
        self.diffs = 0
        self.added_lines = 0
        self.articles: list[dict[str, int | str]] = []
        self.outline_links = 0
        self.in_nav = False

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        if tag == "html":
            self.root = a
        elif tag == "nav":
            self.in_nav = True
        elif tag == "a" and self.in_nav and a.get("href", "").startswith("#stage-"):
            self.outline_links += 1
        elif tag == "section" and "stage" in classes:
            self.stages.append(a)
        elif tag == "pre" and "diff" in classes:
            self.diffs += 1
        elif tag == "span" and "add" in classes:
            self.added_lines += 1
        elif tag == "article" and "encoding" in classes:
            self.articles.append({"id": a.get("id", ""), "kind": a.get("data-kind", ""), "svgs": 0})
        elif tag == "svg" and self.articles:
            self.articles[-1]["svgs"] += 1  # type: ignore[operator]

    def handle_endtag(self, tag):
        if tag == "nav":
            self.in_nav = False


def _expected_passes() -> list[str]:
    from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

    return [p.name for p in MiniIREEOptMain(args=[str(MATMUL), "-p", PIPELINE]).passes]


@needs_chromium
def test_page_in_chromium(page: Path, tmp_path: Path):
    result = _chromium(page, tmp_path / "profile", "--dump-dom", "--virtual-time-budget=2000")
    assert result.returncode == 0, result.stderr[-2000:]
    dom = _Dom()
    dom.feed(result.stdout)

    # The page's scripts ran to the end and recorded no error.
    assert dom.root.get("data-ready") == "1", "the page's script did not finish"
    assert dom.root.get("data-errors") == "0", dom.root.get("data-last-error")
    assert not re.search(r"Uncaught|CONSOLE\(\d+\).*[Ee]rror", result.stderr), result.stderr[-2000:]

    # One section per pass (plus the input), in pipeline order, each in the outline.
    passes = _expected_passes()
    assert [s["data-pass"] for s in dom.stages] == ["input", *passes]
    assert dom.outline_links == len(passes) + 1
    # A diff for every pass, and passes that add lines show them marked.
    assert dom.diffs == len(passes)
    assert dom.added_lines > 0

    # Every encoding the pipeline shows has a picture: the three matmul operands'
    # #iree_encoding.encoding and the two #iree_encoding.layout that gfx942 resolves them to.
    kinds = sorted(str(a["kind"]) for a in dom.articles)
    assert kinds == ["encoding", "encoding", "encoding", "layout", "layout"]
    assert all(a["svgs"] for a in dom.articles), [a["id"] for a in dom.articles if not a["svgs"]]


@needs_chromium
def test_page_screenshot(page: Path, tmp_path: Path):
    shot = tmp_path / "page.png"
    # Opened at set-encoding (`?from=`), where the first encodings appear.
    result = _chromium(
        page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1400,1000", query="?from=stage-6"
    )
    assert result.returncode == 0, result.stderr[-2000:]
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
    if os.environ.get("MINI_IREE_UPDATE_SCREENSHOT"):
        shutil.copy(shot, REPO / "docs" / "walkthrough-page.png")
        # The encodings panel too: the gfx942 LHS packed, then swizzled.
        encodings = REPO / "docs" / "walkthrough-encodings.png"
        _chromium(page, tmp_path / "profile", f"--screenshot={encodings}", "--window-size=1400,1300",
                  query="?from=encodings")  # fmt: skip


def test_page_structure_without_a_browser(page: Path):
    """What the browser test checks that needs no browser, so it runs everywhere."""
    text = page.read_text()
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in text and "<link" not in text and "src=" not in text
    assert text.count('<section class="stage"') == len(_expected_passes()) + 1
    assert "interpreter: pass 'iree-codegen-combine-layout-transformation' kept the results" in html.unescape(text)
    assert 'id="result"' in text
