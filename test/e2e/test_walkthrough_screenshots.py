"""The README's screenshots of the walkthrough page, one per thing it shows, and the test that they are current.

    MINI_IREE_UPDATE_SCREENSHOTS=1 pytest test/e2e/test_walkthrough_screenshots.py

regenerates docs/walkthrough-*.png and docs/walkthrough-screenshots.json, the
record of what they were taken of (program, pipeline, number of passes, and
each shot's file and caption). Without the variable the shots are taken into a
temporary directory (so the code that takes them keeps working), and the test
fails when the record no longer matches the pipeline (a pass added or removed:
the pictures are stale) or the README does not show every shot.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
from pathlib import Path

import pytest
from cdp import Browser, needs_chromium
from conftest import REPO

from mini_iree.compiler.tools.walkthrough_main import main as walkthrough_main

DOCS = REPO / "docs"
RECORD = DOCS / "walkthrough-screenshots.json"
PROGRAM = "examples/matmul.mlir"
FAILING = "examples/matvec.mlir"
PIPELINE = "data-tiling{target=gfx942}"
CPU_PIPELINE = "data-tiling{target=x86_64:+avx512f}"
CODEGEN = "iree-codegen-materialize-device-encoding"
UPDATE = bool(os.environ.get("MINI_IREE_UPDATE_SCREENSHOTS"))


def _passes(program: str, pipeline: str) -> list[str]:
    from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

    return [p.name for p in MiniIREEOptMain(args=[str(REPO / program), "-p", pipeline]).passes]


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), path
    return struct.unpack(">II", data[16:24])


def _shots(browser: Browser, pages: dict[str, Path], out: Path) -> dict[str, str]:
    """Takes every shot into ``out``; returns {file name: caption}."""
    codegen = _passes(PROGRAM, PIPELINE).index(CODEGEN) + 1
    taken: dict[str, str] = {}

    def shot(name: str, page, caption: str, selector: str | None = None) -> None:
        page.eval("new Promise(function(r){setTimeout(r,150)})")  # the outline's highlight settles
        page.screenshot(out / name, selector)
        taken[name] = caption

    page = browser.open(f"{pages['page']}#stage-{codegen}")
    shot("walkthrough-page.png", page,
         f"examples/matmul.mlir on gfx942 at {CODEGEN}: what the pass changed first, then its place in the "
         "walkthrough (dumps 18, 19), its rewrites and the values it introduced")  # fmt: skip

    page = browser.open(f"{pages['page']}#stage-{codegen}")
    page.click("#hide-unchanged")
    page.click(f"#stage-{codegen} pre.diff span.fold")
    page.eval(f"document.querySelector('#stage-{codegen} pre.diff').scrollIntoView({{block:'start'}})")
    shot("walkthrough-diff.png", page,
         "the passes that changed nothing hidden (the outline too), and the diff's folded alias definitions opened "
         "with a click")  # fmt: skip

    page = browser.open(pages["page"])
    page.key("/")
    for ch in "linalg.pack":
        page.key(ch)
    page.key("Enter")
    shot("walkthrough-search.png", page,
         "the search box: the first pass that introduced linalg.pack, its line marked; j / k step through the "
         "passes, page.html#stage-N opens at one")  # fmt: skip

    # Provenance: a click on the new linalg.pack marks what it came from, in every earlier stage.
    page = browser.open(f"{pages['page']}#stage-{codegen}")
    pack = _first_line(page, f"#stage-{codegen} pre.diff span.l.add[data-o]", "linalg.pack")
    page.click(pack)
    page.eval("document.querySelector('#stage-0').scrollIntoView({block:'start'})")
    page.eval(f"document.querySelector('#stage-{codegen} p.prov-status').scrollIntoView({{block:'start'}})")
    shot("walkthrough-provenance.png", page,
         "provenance: a click on the linalg.pack a pass made marks the lines it came from in every earlier stage "
         "(the status line counts them); the pass's rewrites above")  # fmt: skip

    # Values: the packed LHS as numbers; a hover names the input element a number holds.
    page = browser.open(f"{pages['page']}#stage-{codegen}")
    block = f"#stage-{codegen} div.vt[data-op='linalg.pack']"
    page.click(f"#stage-{codegen} details.vals > summary")
    page.eval(f"document.querySelector(\"{block}\").scrollIntoView({{block:'start'}})")
    page.hover(f"{block} td[data-g='7']")
    shot("walkthrough-values.png", page,
         "values: the packed LHS on the seeded inputs, padding grey; hovering a number names the input element it "
         "holds and marks it wherever it is on the page")  # fmt: skip

    # Layouts: the gfx942 LHS after the swizzle; a hover on element [3, 5] says where it sits.
    page = browser.open(pages["page"])
    card = page.eval(
        "[].find.call(document.querySelectorAll('article.encoding[data-kind=encoding]'),function(a){"
        "return a.querySelector('h3').textContent.indexOf('operand_index = 0')>=0}).id"
    )
    svg = f"#{card}-v0-1"
    left, top, width, height, rows, cols = page.eval(
        f"(function(){{var s=document.querySelector('{svg}'),f=s.closest('figure');f.id='shot-figure';"
        "f.scrollIntoView({block:'start'});"
        "var i=s.querySelector('image').getBoundingClientRect(),g=s.getAttribute('data-grid').split(',').map(Number);"
        "return [i.left,i.top,i.width,i.height,g[g.length-2],g[g.length-1]];})()"
    )
    page._mouse("mouseMoved", left + 5.5 * width / cols, top + 3.5 * height / rows)
    shot("walkthrough-layout.png", page,
         "layouts: every encoding drawn from the layout algebra; a hover or click on a cell gives its logical index, "
         "offset, tile and, for a GPU swizzle, its expand dims (CrossThread / CrossIntrinsic / Internal)",
         "#shot-figure")  # fmt: skip

    page = browser.open(f"{pages['compare']}#row-{codegen}")
    shot("walkthrough-compare.png", page,
         "--compare: gfx942 and x86_64 (AVX-512) aligned pass by pass; inner_tiled on one side, mmt4d on the "
         "other")  # fmt: skip

    page = browser.open(f"{pages['failure']}#failure")
    shot("walkthrough-failure.png", page,
         "a pass that fails (matvec on gfx942): the box names the pass and shows the diagnostic with its source "
         "line")  # fmt: skip
    return taken


def _first_line(page, selector: str, text: str) -> str:
    """A selector for the first element matching ``selector`` whose text holds ``text`` (it gets an id)."""
    found = page.eval(
        f"(function(){{var l=[].find.call(document.querySelectorAll({json.dumps(selector)}),function(e){{"
        f"return e.textContent.indexOf({json.dumps(text)})>=0}});if(!l)return false;l.id='shot-target';return true}})()"
    )
    assert found, (selector, text)
    return "#shot-target"


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("shots")
    made = {
        "page": (d / "matmul.html", [PROGRAM, "--pipeline", PIPELINE]),
        "compare": (d / "compare.html", [PROGRAM, "--compare", PIPELINE, CPU_PIPELINE]),
        "failure": (d / "failure.html", [FAILING, "--pipeline", PIPELINE]),
    }
    # From the repository, so that the pages name the programs as the README's commands do (examples/...).
    with contextlib.chdir(REPO):
        for path, args in made.values():
            walkthrough_main([*args, "--timing-size", "64", "-o", str(path)])
            assert path.exists()
    return {name: path for name, (path, _) in made.items()}


@needs_chromium
def test_screenshots(pages, tmp_path):
    out = DOCS if UPDATE else tmp_path
    with Browser(tmp_path / "profile") as browser:
        taken = _shots(browser, pages, out)
    for name in taken:
        width, height = _png_size(out / name)
        assert 300 < width <= 1400 and height >= 300, (name, width, height)
        assert (out / name).stat().st_size > 30_000, name  # not a blank page
    record = {"program": PROGRAM, "pipeline": PIPELINE, "passes": len(_passes(PROGRAM, PIPELINE)),
              "shots": taken}  # fmt: skip
    if UPDATE:
        RECORD.write_text(json.dumps(record, indent=1) + "\n")
    else:
        recorded = json.loads(RECORD.read_text())
        assert sorted(recorded["shots"]) == sorted(taken), "the shots changed: regenerate them (see the docstring)"


def test_screenshots_are_current():
    """The pictures in docs/ show the pipeline as it is, and the README shows every one of them."""
    record = json.loads(RECORD.read_text())
    passes = _passes(record["program"], record["pipeline"])
    assert record["passes"] == len(passes), (
        f"docs/ screenshots show {record['passes']} passes, the pipeline has {len(passes)}: "
        "MINI_IREE_UPDATE_SCREENSHOTS=1 pytest test/e2e/test_walkthrough_screenshots.py"
    )
    readme = (REPO / "README.md").read_text()
    for name in record["shots"]:
        assert (DOCS / name).is_file(), name
        assert f"(docs/{name})" in readme, f"the README does not show docs/{name}"
