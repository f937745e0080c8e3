"""The walkthrough page in headless Chromium: its structure, what changed, navigation, search, comparison, failure.

The pages are generated in-process and opened with the DevTools client of
cdp.py (real mouse and key events). Chromium is Debian's `chromium` package
(.ci/run installs it with apt-get); where it cannot be installed the browser
tests are skipped, saying so. The checks that need no browser (page sizes, no
network) run everywhere.
"""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest
from cdp import CHROMIUM, browser, needs_chromium  # noqa: F401 - `browser` is a fixture of this module
from conftest import REPO

from mini_iree.compiler.tools.walkthrough_main import main as walkthrough_main
from mini_iree.compiler.walkthrough.compare import align

MATMUL = REPO / "examples" / "matmul.mlir"
MATVEC = REPO / "examples" / "matvec.mlir"
PIPELINE = "data-tiling{target=gfx942}"
CPU_PIPELINE = "data-tiling{target=x86_64:+avx512f}"
# One IR dump per stage: the two-device example, with its 30-odd stages, is the largest (about 3.6 MB).
MAX_PAGE_BYTES = 4_000_000


def _passes(program: Path, pipeline: str) -> list[str]:
    from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

    return [p.name for p in MiniIREEOptMain(args=[str(program), "-p", pipeline]).passes]


def _make(out: Path, *args: str) -> Path:
    status = walkthrough_main([*args, "--timing-size", "64", "-o", str(out)])
    assert out.exists(), status
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """The pages the tests open: matmul on gfx942, the two-target comparison, and matvec failing on gfx942."""
    d = tmp_path_factory.mktemp("walkthrough")
    return {
        "page": _make(d / "matmul.html", str(MATMUL), "--pipeline", PIPELINE),
        "compare": _make(d / "compare.html", str(MATMUL), "--compare", PIPELINE, CPU_PIPELINE),
        "failure": _make(d / "failure.html", str(MATVEC), "--pipeline", PIPELINE),
    }



def _no_script_error(page) -> None:
    assert page.eval("document.documentElement.getAttribute('data-errors')") == "0", page.eval(
        "document.documentElement.getAttribute('data-last-error')"
    )


# The stop at the top of <main> (the page scrolls inside <main>): the last one whose top is at or above it.
AT_TOP = """(function(){var m=document.querySelector('main').getBoundingClientRect().top,id=null;
 document.querySelectorAll('[data-stop]').forEach(function(s){if(s.offsetParent!==null&&
 s.getBoundingClientRect().top-m<=2)id=s.id;});return id;})()"""


@needs_chromium
def test_page_structure(pages, browser):
    page = browser.open(pages["page"])
    _no_script_error(page)
    passes = _passes(MATMUL, PIPELINE)
    assert page.eval("[].map.call(document.querySelectorAll('section.stage'),function(s){return s.dataset.pass})") == [
        "input",
        *passes,
    ]
    assert page.eval("document.querySelectorAll('nav#outline li a[href^=\"#stage-\"]').length") == len(passes) + 1
    assert page.eval("document.querySelectorAll('pre.diff').length") == len(passes)
    assert page.eval("document.querySelectorAll('pre.diff span.add').length") > 0
    kinds = page.eval("[].map.call(document.querySelectorAll('article.encoding'),function(a){return a.dataset.kind})")
    assert sorted(kinds) == ["encoding", "encoding", "encoding", "layout", "layout"]
    assert page.eval("[].every.call(document.querySelectorAll('article.encoding'),function(a){return a.querySelector('svg')})")
    # The header counts the passes the page shows.
    assert page.eval("document.querySelector('#top h2').textContent").endswith(f": {len(passes)} passes")


@needs_chromium
def test_fragment_opens_the_page_at_that_pass(pages, browser):
    page = browser.open(f"{pages['page']}#stage-7")
    _no_script_error(page)
    assert page.eval(AT_TOP) == "stage-7"
    assert page.eval("document.querySelector('main').scrollTop") > 0
    # The outline follows.
    page.eval("new Promise(function(r){setTimeout(r,200)})")
    assert page.eval("document.querySelector('nav#outline a.current').getAttribute('href')") == "#stage-7"


@needs_chromium
def test_fragment_screenshot_with_chromiums_screenshot_flag_is_not_blank(pages, tmp_path):
    """`chromium --headless --screenshot page.html#stage-7` drew a blank page while the document itself scrolled."""
    shot = tmp_path / "s.png"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'p'}", f"--screenshot={shot}", "--window-size=1200,800",
         pages["page"].as_uri() + "#stage-7"],
        capture_output=True, timeout=60,
    )  # fmt: skip
    image = pytest.importorskip("PIL.Image").open(shot).convert("L")
    # The blank page was one colour; the section has text (dark pixels) across the main column.
    dark = sum(image.crop((400, 0, 1200, 800)).histogram()[:100])
    assert dark > 2000, dark


@needs_chromium
def test_j_and_k_step_through_the_passes(pages, browser):
    page = browser.open(f"{pages['page']}#stage-3")
    assert page.eval(AT_TOP) == "stage-3"
    page.key("j")
    assert page.eval(AT_TOP) == "stage-4"
    page.key("j")
    page.key("j")
    assert page.eval(AT_TOP) == "stage-6"
    page.key("k")
    assert page.eval(AT_TOP) == "stage-5"
    assert page.eval("location.hash") == "#stage-5"


@needs_chromium
def test_search_finds_the_pass_that_introduced_linalg_pack(pages, browser):
    passes = _passes(MATMUL, PIPELINE)
    expected = passes.index("iree-codegen-materialize-device-encoding") + 1
    page = browser.open(pages["page"])
    page.key("/")  # focuses the search box
    for ch in "linalg.pack":
        page.key(ch)
    assert page.eval("document.getElementById('find-q').value") == "linalg.pack"
    page.key("Enter")
    page.key("Escape")  # leaves the search box, so that j / k work again
    assert page.eval("document.activeElement.id") != "find-q"
    assert page.eval("document.getElementById('find-result').dataset.stage") == f"stage-{expected}"
    assert "introduced by" in page.eval("document.getElementById('find-result').textContent")
    assert page.eval(AT_TOP) == f"stage-{expected}"
    hit = page.eval("document.querySelector('section.found pre span.hit').textContent")
    assert hit.startswith("+") and "linalg.pack" in hit
    # Something already in the input program, and something nowhere.
    page.eval("document.getElementById('find-q').value='linalg.matmul'")
    page.click("#find-q")
    page.key("Enter")
    assert page.eval("document.getElementById('find-result').textContent") == "already in the input program"
    page.eval("document.getElementById('find-q').value='no.such_op'")
    page.click("#find-q")
    page.key("Enter")
    assert page.eval("document.getElementById('find-result').className") == "miss"


@needs_chromium
@pytest.mark.parametrize(
    "text, flag",
    [
        ("iree_encoding.layout<", "iree-stream-specialize-encodings"),  # an encoding (on an alias line, folded)
        ("tensor<?x?x128x16xf32>", "iree-codegen-materialize-device-encoding"),  # a type
        ("!hal.buffer_view", "iree-abi-wrap-entry-points"),
    ],
)
def test_search_finds_encodings_and_types(pages, browser, text, flag):
    from mini_iree.compiler.walkthrough.stages import run_walkthrough

    # The expectation from the stages themselves: the first whose IR holds the text.
    walk = run_walkthrough(str(MATMUL), PIPELINE, check=False)
    first = next(s for s in walk.stages if text in s.text)
    assert first.flag == flag
    page = browser.open(pages["page"])
    page.eval(f"document.getElementById('find-q').value={text!r}")
    page.click("#find-q")
    page.key("Enter")
    assert page.eval("document.getElementById('find-result').dataset.stage") == f"stage-{first.index}"
    # The marked line is shown, even when it was folded.
    assert page.eval("document.querySelector('pre span.hit').getBoundingClientRect().height") > 0
    assert text in page.eval("document.querySelector('pre span.hit').textContent")


@needs_chromium
def test_what_changed_at_materialize_device_encoding(pages, browser):
    index = _passes(MATMUL, PIPELINE).index("iree-codegen-materialize-device-encoding") + 1
    page = browser.open(f"{pages['page']}#stage-{index}")
    section = f"#stage-{index}"
    delta = page.eval(f"document.querySelector('{section} div.changed p.delta').dataset.delta").split(", ")
    for item in ("+2 linalg.pack", "+1 iree_codegen.inner_tiled", "-1 linalg.matmul", "+1 linalg.unpack",
                 "-2 iree_encoding.set_encoding", "-1 iree_encoding.unset_encoding"):  # fmt: skip
        assert item in delta, delta
    # The ops that compute come before the index arithmetic.
    assert delta.index("+2 linalg.pack") < delta.index("+12 affine.apply")
    funcs = page.eval(f"document.querySelector('{section} div.changed p.funcs').textContent")
    assert "@matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32" in funcs
    # A function's name links to its first changed line, which a click brings into view.
    link = f"{section} div.changed p.funcs a"
    target = page.eval(f"document.querySelector('{link}').getAttribute('href')")
    page.eval(f"document.querySelector('{section} pre.diff').scrollTop=0")
    page.click(link)
    line = page.eval(
        f"(function(){{var l=document.querySelector('{target}'),p=l.closest('pre').getBoundingClientRect(),"
        "r=l.getBoundingClientRect();return [l.className,r.top>=p.top&&r.bottom<=p.bottom,r.height]})()"
    )
    assert line[0] in ("l add", "l del") and line[1] and line[2] > 0, line
    # The alias churn is folded; a click unfolds it.
    fold = f"{section} pre.diff span.fold"
    folded_height = f"document.querySelector('{fold}').nextElementSibling.getBoundingClientRect().height"
    assert page.eval(folded_height) == 0
    lines = page.eval(f"[].map.call(document.querySelector('{fold}').nextElementSibling.children,function(l){{return l.textContent}})")
    assert len(lines) >= 3 and all(re.match(r"[-+ ][#!][\w$.-]+ = ", line) for line in lines), lines
    page.click(fold)
    assert page.eval(folded_height) > 30
    # The first lines of the diff that are not folded are real changes, not aliases.
    first = page.eval(
        f"[].filter.call(document.querySelectorAll('{section} pre.diff > span.add'),function(l){{return true}})"
        ".slice(0,1).map(function(l){return l.textContent})[0]"
    )
    assert not re.match(r"[+][#!]\w+ = ", first), first


@needs_chromium
def test_toggle_hides_the_passes_that_changed_nothing(pages, browser):
    page = browser.open(pages["page"])
    total = page.eval("document.querySelectorAll('section.stage').length")
    unchanged = page.eval("document.querySelectorAll('section.stage[data-unchanged]').length")
    assert unchanged > 0
    page.click("#hide-unchanged")
    visible = "[].filter.call(document.querySelectorAll('section.stage'),function(s){return s.offsetParent!==null}).length"
    assert page.eval(visible) == total - unchanged
    assert page.eval("document.querySelectorAll('nav#outline li.unchanged a').length") == unchanged
    assert page.eval("[].every.call(document.querySelectorAll('nav#outline li.unchanged'),function(l){return l.offsetParent===null})")
    page.click("#hide-unchanged")
    assert page.eval(visible) == total


@needs_chromium
def test_each_pass_names_its_dumps_and_blog_section(pages, browser):
    page = browser.open(pages["page"])
    blog = page.eval(
        "Object.fromEntries([].map.call(document.querySelectorAll('section.stage'),function(s){"
        "var b=s.querySelector('p.blog');return [s.dataset.pass,b?[b.dataset.dumps,b.textContent]:null]}))"
    )
    assert blog["iree-codegen-materialize-device-encoding"][0] == "18 19"
    assert "MaterializeDeviceEncodingPass" in blog["iree-codegen-materialize-device-encoding"][1]
    assert blog["iree-dispatch-creation-set-encoding"][0] == "02"
    assert blog["iree-stream-specialize-encodings"][0] == "11 12 13 14 15"
    assert blog["cse"] is None  # a cleanup the post does not show
    # Every dump 00-23 is named by some pass of the gfx942 pipeline.
    named = {n for entry in blog.values() if entry for n in entry[0].split()}
    assert named == {f"{i:02d}" for i in range(24)}


@needs_chromium
def test_pass_descriptions_render_as_text(pages, browser):
    page = browser.open(pages["page"])
    text = page.eval(
        "[].map.call(document.querySelectorAll('p.summary,div.doc'),function(e){return e.textContent}).join('\\n')"
    )
    assert "``" not in text
    titles = page.eval("[].map.call(document.querySelectorAll('nav#outline a[title]'),function(a){return a.title})")
    assert titles and not any("`" in t for t in titles)
    assert page.eval("document.querySelectorAll('div.doc code').length") > 20
    assert page.eval("document.querySelectorAll('p.summary code').length") > 10


@needs_chromium
def test_failure_box_names_the_pass_and_shows_the_source_line(pages, browser):
    page = browser.open(f"{pages['failure']}#failure")
    _no_script_error(page)
    passes = _passes(MATVEC, PIPELINE)
    index = passes.index("iree-codegen-materialize-device-encoding") + 1
    title = page.eval("document.querySelector('#failure h2').textContent")
    assert title == f"The pipeline stopped at pass {index}, iree-codegen-materialize-device-encoding"
    diagnostic = page.eval("document.querySelector('#failure pre.error').textContent").splitlines()
    assert re.match(r".*matvec\.mlir:\d+:\d+: error: 'linalg.matvec' op", diagnostic[0])
    column = int(diagnostic[0].split(":")[2])
    source_line = MATVEC.read_text().splitlines()[int(diagnostic[0].split(":")[1]) - 1]
    assert diagnostic[1:3] == [source_line, " " * (column - 1) + "^"]
    assert page.eval("document.querySelector('nav#outline a[href=\"#failure\"]') !== null")


@needs_chromium
def test_compare_page_aligns_both_pipelines(pages, browser):
    page = browser.open(pages["compare"])
    _no_script_error(page)
    rows = align(["input", *_passes(MATMUL, PIPELINE)], ["input", *_passes(MATMUL, CPU_PIPELINE)])
    shown = page.eval(
        "[].map.call(document.querySelectorAll('div.row'),function(r){return ['a','b'].map(function(k){"
        "var s=r.querySelector('[data-side='+k+'] section.stage');return s?s.dataset.pass:null})})"
    )
    assert len(shown) == len(rows) and len(rows) > 30
    for pair in shown:
        assert None in pair or pair[0] == pair[1], pair
    # The codegen row: inner_tiled on the GPU side, mmt4d on the CPU side, next to each other.
    row = page.eval(
        "(function(){var r=[].find.call(document.querySelectorAll('div.row'),function(r){"
        "return r.querySelector('section[data-pass=\"iree-codegen-materialize-device-encoding\"]')});"
        "return ['a','b'].map(function(k){var s=r.querySelector('[data-side='+k+'] section.stage');"
        "return [s.querySelector('p.delta').dataset.delta,s.getBoundingClientRect().left]})})()"
    )
    assert "+1 iree_codegen.inner_tiled" in row[0][0] and "+1 linalg.mmt4d" in row[1][0]
    assert row[0][1] < row[1][1]
    # Rows where the two pipelines added or removed different ops are marked, that one among them.
    differs = page.eval(
        "[].map.call(document.querySelectorAll('div.row.differs [data-side=a] section.stage'),"
        "function(s){return s.dataset.pass})"
    )
    assert "iree-codegen-materialize-device-encoding" in differs and "iree-dispatch-creation-set-encoding" not in differs
    # Both sides' encodings are on the page, with ids kept apart.
    assert page.eval("document.querySelectorAll('[data-side=a] article.encoding').length") > 0
    assert page.eval("document.querySelectorAll('[data-side=b] article.encoding').length") > 0
    ids = page.eval("[].map.call(document.querySelectorAll('[id]'),function(e){return e.id})")
    assert len(ids) == len(set(ids))
    # The search answers for each side; j moves row by row.
    page.eval("document.getElementById('find-q').value='linalg.pack'")
    page.click("#find-q")
    page.key("Enter")
    result = page.eval("document.getElementById('find-result').textContent")
    assert result.count("introduced by") == 2 and "a: " in result and "b: " in result
    page = browser.open(f"{pages['compare']}#row-3")
    assert page.eval(AT_TOP) == "row-3"
    page.key("j")
    assert page.eval(AT_TOP) == "row-4"


def test_pages_stay_small_and_offline(pages):
    for name, path in pages.items():
        assert path.stat().st_size < MAX_PAGE_BYTES, (name, path.stat().st_size)
        text = path.read_text()
        assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "https://" not in text and "<link" not in text and "src=" not in text
    text = pages["page"].read_text()
    assert text.count('<section class="stage"') == len(_passes(MATMUL, PIPELINE)) + 1
    assert "interpreter: pass 'iree-codegen-combine-layout-transformation' kept the results" in html.unescape(text)
    assert 'id="result"' in text


def test_every_example_page_is_under_4_mb(tmp_path):
    programs = sorted((REPO / "examples").glob("*.mlir"))
    assert len(programs) == 7
    walkthrough_main([*map(str, programs), "--timing-size", "32", "--output-dir", str(tmp_path)])
    sizes = {p.name: p.stat().st_size for p in tmp_path.glob("*.html")}
    assert len(sizes) == 7, sizes
    assert max(sizes.values()) < MAX_PAGE_BYTES, sizes
