"""The pieces of `mini-iree-walkthrough`: colouring, diffs, sample shapes, encoding cards, excerpts, the CLI."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from conftest import REPO

from mini_iree.compiler.walkthrough.encodings import build_card, encoded_tensor_types, sample_shape
from mini_iree.compiler.walkthrough.excerpts import ExcerptError, refresh
from mini_iree.compiler.walkthrough.highlight import highlight_line
from mini_iree.compiler.walkthrough.stages import pipeline_of, run_walkthrough
from mini_iree.compiler.walkthrough.textdiff import changed_lines, unified
from mini_iree.compiler.tools.walkthrough_main import main

XLA_PROGRAM = """\
// walkthrough-pipeline: canonicalize
func.func @f(%a: tensor<3x5xf32, #xla.layout<"{1,0:T(2,2)}">>) -> tensor<3x5xf32, #xla.layout<"{1,0:T(2,2)}">> {
  return %a : tensor<3x5xf32, #xla.layout<"{1,0:T(2,2)}">>
}
"""


def test_highlight_escapes_and_colours():
    line = '%0 = arith.constant dense<1.0> : tensor<2xf32, #enc> // "<x>"'
    out = highlight_line(line)
    assert "<i class=v>%0</i>" in out and "<i class=o>arith.constant</i>" in out
    assert "<i class=a>#enc</i>" in out and "<i class=c>" in out
    assert "<x>" not in out and "&lt;x&gt;" in out
    # The text is the line's, once the markup is taken away.
    assert html.unescape(re.sub(r"</?i[^>]*>", "", out)) == line


def test_diff_marks_changed_lines():
    before, after = "a\nb\nc\n", "a\nB\nc\nd\n"
    assert changed_lines(before, after) == {1, 3}
    kinds = [d.kind for d in unified(before, after)]
    assert kinds[0] == "@" and kinds.count("+") == 2 and kinds.count("-") == 1
    assert unified(before, before) == []


def test_sample_shape_shows_padding_and_fits():
    assert sample_shape([None, None], {0: 8, 1: 1}) == (12, 3)  # a partial tile past a whole one
    assert sample_shape([4, 3], {}) == (4, 3)  # small static shapes as they are
    shape = sample_shape([None, None], {0: 128, 1: 16})
    assert shape is not None and -(-shape[0] // 128) * 128 * -(-shape[1] // 16) * 16 <= 4096
    assert sample_shape([None, None], {0: 128, 1: 128}) is None  # one tile alone is too many cells


def test_xla_layout_card_draws_figure_1(tmp_path: Path):
    program = tmp_path / "xla.mlir"
    program.write_text(XLA_PROGRAM)
    assert pipeline_of(XLA_PROGRAM) == "canonicalize"
    walk = run_walkthrough(str(program), check=False)
    [tensor] = encoded_tensor_types(walk.stages[0].module)
    card = build_card(tensor, [], "enc-0", "", str(tensor))
    [view] = card.views
    assert card.kind == "xla" and view.xla == "f32[3,5]{1,0:T(2,2)}"
    [(caption, svg)] = view.pictures
    # The seed's Figure 1: element (2,3) is at 17, padding cells dashed.
    assert ">17</text>" in svg and 'class="pad"' in svg


def test_unresolved_encoding_resolved_per_target():
    walk = run_walkthrough(str(REPO / "examples" / "matmul.mlir"), "data-tiling-dispatch-creation{target=gfx942}",
                           check=False)  # fmt: skip
    tensors = encoded_tensor_types(walk.stages[-1].module)
    assert len(tensors) == 3
    lhs = next(t for t in tensors if "operand_index = 0" in str(t))
    card = build_card(lhs, walk.targets, "enc-0", "", str(lhs))
    [view] = card.views
    assert view.label == "resolved on gfx942" and "swizzle" in view.info_text
    assert view.xla.startswith("f32[?,?]{1,0:T(128,16)")
    assert len(view.pictures) == 2  # packed, then swizzled
    assert any("expand_shape" in op for op in view.ops) and any("transpose" in op for op in view.ops)


def test_excerpt_errors(tmp_path: Path):
    (tmp_path / "p.mlir").write_text(XLA_PROGRAM)
    with pytest.raises(ExcerptError, match="no stage"):
        refresh("<!-- walkthrough-ir: p.mlir after=cse -->\n", str(tmp_path))
    text = refresh('<!-- walkthrough-ir: p.mlir after=canonicalize from="return" lines=1 -->\n```mlir\nold\n```\n',
                   str(tmp_path))  # fmt: skip
    assert text.endswith("```mlir\n    return %arg0 : tensor<3x5xf32, #xla.layout<\"{1,0:T(2,2)}\">>\n```\n")


def test_cli(tmp_path: Path, capsys):
    program = tmp_path / "xla.mlir"
    program.write_text(XLA_PROGRAM)
    out = tmp_path / "page.html"
    assert main([str(program), "-o", str(out)]) == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and 'data-pass="canonicalize"' in page and "<svg" in page
    assert main([str(tmp_path / "missing.mlir"), "-o", str(out)]) == 1
    assert "could not open input file" in capsys.readouterr().err
    assert main([str(program), "-p", "no-such-pass", "-o", str(out)]) == 1
    assert "'no-such-pass' does not refer to a registered pass" in capsys.readouterr().err
    assert main([str(program), str(program), "-o", str(out)]) == 1
    assert "--output-dir" in capsys.readouterr().err


# --- what changed, alignment, the blog table, docstrings, failures ------------------------------------------


def test_diff_lines_carry_their_indexes_in_both_stages():
    before, after = "a\nb\nc\n", "a\nB\nc\nd\n"
    diff = unified(before, after)
    kept = [(d.old, d.new) for d in diff if d.kind == " "]
    assert kept == [(0, 0), (2, 2)]
    assert [(d.kind, d.old, d.new) for d in diff if d.kind in "+-"] == [("-", 1, None), ("+", None, 1), ("+", None, 3)]
    assert diff[0].text == "@@ -1,3 +1,4 @@"
    assert [d.is_alias for d in unified("#map = x\n", "#map = y\n") if d.kind != "@"] == [True, True]


def test_op_counts_follow_the_printed_form():
    from mini_iree.compiler.walkthrough.summary import op_counts

    walk = run_walkthrough(str(REPO / "examples" / "matmul.mlir"), "data-tiling{target=gfx942}", check=False)
    counts = {s.flag: op_counts(s.module) for s in walk.stages}
    # linalg.matmul prints without its body: its arith ops are not counted.
    assert counts["input"]["linalg.matmul"] == 1 and counts["input"]["arith.mulf"] == 0
    # Implicit terminators (hal.executable_end...) are not printed, not counted.
    assert not any(name.endswith("_end") for c in counts.values() for name in c)
    assert counts["iree-hal-materialize-interfaces"]["hal.executable"] == 3


def test_op_delta_puts_the_ops_that_compute_first():
    from collections import Counter

    from mini_iree.compiler.walkthrough.summary import format_delta, op_delta

    before = Counter({"linalg.matmul": 1, "iree_encoding.set_encoding": 2, "arith.constant": 1})
    after = Counter({"linalg.pack": 2, "iree_codegen.inner_tiled": 1, "affine.apply": 12, "arith.constant": 1})
    assert format_delta(op_delta(before, after)) == (
        "+2 linalg.pack, +1 iree_codegen.inner_tiled, -2 iree_encoding.set_encoding, -1 linalg.matmul, +12 affine.apply"
    )
    assert op_delta(before, before) == []


def test_what_changed_names_the_functions():
    from collections import Counter

    from mini_iree.compiler.walkthrough.summary import function_spans, what_changed

    before = "#map = a\nfunc.func @f() {\n  x\n}\nfunc.func @g() {\n  y\n}\n"
    after = "#map = b\nfunc.func @f() {\n  x2\n}\nfunc.func @h() {\n  z\n}\n"
    assert function_spans(before) == [("@f", 1, 3), ("@g", 4, 6)]
    change = what_changed(before, after, Counter(), Counter(), unified(before, after))
    assert change.functions == [("@f", "changed"), ("@h", "new"), ("@g", "removed")]
    assert change.alias_lines == 2 and not change.aliases_only
    only_aliases = what_changed("#map = a\n", "#map = b\n", Counter(), Counter(), unified("#map = a\n", "#map = b\n"))
    assert only_aliases.aliases_only and only_aliases.functions == []


def test_align_pairs_equal_passes_and_leaves_the_others_alone():
    from mini_iree.compiler.walkthrough.compare import Row, align

    rows = align(["input", "a", "b", "c", "d"], ["input", "a", "x", "c", "d", "e"])
    assert rows == [Row(0, 0), Row(1, 1), Row(2, None), Row(None, 2), Row(3, 3), Row(4, 4), Row(None, 5)]
    # A repeated pass pairs with its own occurrence (the longest common subsequence, in order).
    assert align(["canonicalize", "p", "canonicalize"], ["p", "canonicalize"]) == [Row(0, None), Row(1, 0), Row(2, 1)]
    assert align([], ["a"]) == [Row(None, 0)]


def test_blog_table_names_real_dumps_and_headings():
    from conftest import REFERENCE, SHARED

    from mini_iree.compiler.walkthrough.blog import PLACES

    dumps_dir = REFERENCE / "seed-walkthrough"
    posts = sorted((SHARED / "seeds").glob("003*"))
    if not dumps_dir.is_dir() or not posts:
        pytest.skip(f"the walkthrough's dumps and post are expected in {SHARED}")
    headings = {line.strip() for line in posts[0].read_text(errors="replace").splitlines()}
    named = set()
    for flag, place in PLACES.items():
        assert place.section in headings, (flag, place.section)
        for dump in place.dumps:
            assert (dumps_dir / dump).is_file(), dump
            named.add(dump)
    assert named == {p.name for p in dumps_dir.glob("[0-2][0-9]-*.mlir")}


def test_blog_table_covers_the_pipeline():
    from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
    from mini_iree.compiler.walkthrough.blog import place_of

    passes = [p.name for p in MiniIREEOptMain(args=["x.mlir", "-p", "data-tiling{target=gfx942}"]).passes]
    missing = [flag for flag in passes if place_of(flag) is None]
    assert set(missing) <= {"canonicalize", "cse"}, missing


def test_docstrings_render_without_rst():
    from mini_iree.compiler.walkthrough.doctext import inline, plain, to_html

    assert plain("Sets ``hal.device.targets`` on `x`") == "Sets hal.device.targets on x"

    assert inline("Sets ``hal.device.targets`` on `x` <y>") == "Sets <code>hal.device.targets</code> on <code>x</code> &lt;y&gt;"
    doc = "First ``a``.\n\nItems:\n\n- one ``b``\n  continued\n- two\n\nExample::\n\n    %0 = x\n      y\n\nEnd."
    assert to_html(doc) == (
        "<p>First <code>a</code>.</p><p>Items:</p><ul><li>one <code>b</code> continued</li><li>two</li></ul>"
        '<p>Example:</p><pre class="doc-literal">%0 = x\n  y</pre><p>End.</p>'
    )
    assert to_html("1. first\n2. second ``x``") == "<ol><li>first</li><li>second <code>x</code></li></ol>"


def test_failure_diagnostic_gets_its_source_line():
    from mini_iree.compiler.walkthrough.failure import render_text

    source = "func.func @f() {\n  %0 = foo.bar : i32\n}\n"
    text = render_text("p.mlir:2:8: error: 'foo.bar' op is bad\np.mlir:2:8: note: more", source, "p.mlir")
    assert text.splitlines() == [
        "p.mlir:2:8: error: 'foo.bar' op is bad",
        "  %0 = foo.bar : i32",
        "       ^",
        "p.mlir:2:8: note: more",
    ]
    # Another file, or no location: as it was.
    assert render_text("<cmdline>:1:1: error: x", source, "p.mlir") == "<cmdline>:1:1: error: x"
    assert render_text("error: x", source, "p.mlir") == "error: x"


def test_cli_compare_writes_one_page_with_two_columns(tmp_path: Path, capsys):
    program = tmp_path / "xla.mlir"
    program.write_text(XLA_PROGRAM)
    out = tmp_path / "compare.html"
    assert main([str(program), "--compare", "canonicalize", "canonicalize,cse", "-o", str(out)]) == 0
    page = out.read_text()
    assert page.count('data-side="a"><section class="stage"') == 2 and page.count('data-side="b"><section class="stage"') == 3
    assert 'id="a-stage-1"' in page and 'id="b-stage-2"' in page and 'id="row-2"' in page
    assert main([str(program), "--compare", "canonicalize", "cse", "-p", "cse", "-o", str(out)]) == 1
    assert "--compare names both pipelines" in capsys.readouterr().err


def test_failure_box_names_the_failed_pass_or_the_interpreter():
    from mini_iree.compiler.walkthrough.failure import failed_stage_index, failure_html
    from mini_iree.compiler.walkthrough.stages import Check, Stage, Walkthrough

    stages = [Stage(0, "input", "", "", "", "x\n"), Stage(1, "cse", "", "", "", "x\n")]
    walk = Walkthrough("p.mlir", "cse,canonicalize", "func.func @f()\n", stages, [],
                       error="p.mlir:1:1: error: boom", failed_pass="canonicalize")  # fmt: skip
    # The pass raised: it has no stage, it would have been the next one.
    assert failed_stage_index(walk) == 2
    assert "stopped at pass 2, <code>canonicalize</code>" in failure_html(walk)
    assert "func.func @f()\n^</pre>" in failure_html(walk)
    # The interpreter found the results changed after pass 1: that stage is the failed one.
    stages[1].check = Check(False, float("inf"), "changed")
    walk.failed_pass = "cse"
    assert failed_stage_index(walk) == 1
    # No pass failed: the interpreter's error.
    walk.failed_pass = None
    assert failed_stage_index(walk) is None and "The interpreter stopped" in failure_html(walk)


def test_compare_page_when_one_pipeline_fails(tmp_path: Path, capsys):
    out = tmp_path / "compare.html"
    matvec = str(REPO / "examples" / "matvec.mlir")
    code = main([matvec, "--no-check", "--compare", "data-tiling{target=gfx942}", "data-tiling{target=x86_64:+avx512f}",
                 "-o", str(out)])  # fmt: skip
    assert code == 1 and "'linalg.matvec' op" in capsys.readouterr().err
    page = out.read_text()
    # gfx942 stops at materialize-device-encoding: its six last rows (the GPU steps included) say so
    # and link to its failure.
    assert page.count('pipeline a stopped before this pass (<a href="#a-failure">why</a>)') == 6
    assert 'id="a-failure" data-failed-pass="iree-codegen-materialize-device-encoding"' in page
    assert 'id="b-failure"' not in page and 'data-side="b"><section class="stage" id="b-stage-31"' in page


def test_lines_that_only_use_renamed_aliases_are_not_changes():
    from collections import Counter

    from mini_iree.compiler.walkthrough.summary import what_changed
    from mini_iree.compiler.walkthrough.textdiff import alias_renames

    # A new alias #m comes first: the old ones are renumbered, and so are their uses.
    before = "#m = p\n#m1 = q\nfunc.func @f() {\n  op : t<#m1>\n}\n"
    after = "#m = n\n#m1 = p\n#m2 = q\nfunc.func @f() {\n  op : t<#m2>\n}\n"
    diff = unified(before, after)
    renamed = alias_renames(before, after, diff)
    assert [diff[k].text.strip() for k in sorted(renamed)] == ["op : t<#m1>", "op : t<#m2>"]
    change = what_changed(before, after, Counter(), Counter(), diff, renamed)
    # The function only uses a renamed alias: it did not change.
    assert change.functions == [] and change.renamed_lines == 2 and change.aliases_only
    # A line whose alias now stands for something else did change.
    changed = "#m = n\n#m1 = p\n#m2 = q\nfunc.func @f() {\n  op : t<#m>\n}\n"
    diff = unified(before, changed)
    assert alias_renames(before, changed, diff) == set()
    assert what_changed(before, changed, Counter(), Counter(), diff).functions == [("@f", "changed")]


def test_specialize_encodings_renames_are_found_on_matmul():
    from mini_iree.compiler.walkthrough.textdiff import alias_renames

    walk = run_walkthrough(str(REPO / "examples" / "matmul.mlir"), "data-tiling{target=gfx942}", check=False)
    stage = next(s for s in walk.stages if s.flag == "iree-stream-specialize-encodings")
    before = walk.stages[stage.index - 1]
    diff = unified(before.text, stage.text)
    renamed = [diff[k].text.strip() for k in sorted(alias_renames(before.text, stage.text, diff))]
    # The dispatch's tensor.empty/fill/matmul/unset_encoding only changed alias numbers (#encoding2 -> #encoding4).
    assert len(renamed) == 8 and any(line.startswith("%11 = linalg.matmul") for line in renamed)


def test_diff_view_shows_every_line_and_folds_long_alias_runs():
    from mini_iree.compiler.walkthrough.page import FOLD_AT_LEAST, _pre_diff
    from mini_iree.compiler.walkthrough.stages import Stage

    for aliases in range(0, FOLD_AT_LEAST + 2):
        before = "module {\n}\n"
        after = "".join(f"#map{i} = affine_map<() -> ({i})>\n" for i in range(aliases)) + "module {\n  x\n}\n"
        diff = unified(before, after)
        page = _pre_diff(diff, Stage(0, "a", "", "", "", before), Stage(1, "b", "", "", "", after))
        text = html.unescape(re.sub(r"<[^>]+>", "", page.replace("</span>", "\n")))
        # Every line of the diff is on the page (folded ones inside the fold), once.
        for d in diff:
            assert text.count(d.text) >= 1, (aliases, d.text)
        assert page.count('class="l fold"') == (1 if aliases >= FOLD_AT_LEAST else 0)
        assert page.count('<span class="l add"') == aliases + 1


def test_compare_two_eras_of_one_target(tmp_path: Path):
    out = tmp_path / "eras.html"
    matmul = str(REPO / "examples" / "matmul.mlir")
    era = "data-tiling{target=gfx942 era=3.13}"
    assert main([matmul, "--no-check", "--compare", "data-tiling{target=gfx942}", era, "-o", str(out)]) == 0
    page = out.read_text()
    rows = re.findall(r'data-a="(\d*)" data-b="(\d*)"', page)
    assert len(rows) > 30 and all(a == b for a, b in rows)  # the same passes, other options

    def section(side: str, flag: str) -> str:
        start = re.search(rf'<section class="stage" id="{side}-stage-\d+" data-pass="{flag}"', page).start()
        return html.unescape(re.sub(r"<[^>]+>", "", page[start : page.index("</section>", start)]))

    # IREE 3.13 casts at the stream boundary; the walkthrough transfers.
    assert "stream.async.cast" in section("b", "iree-stream-conversion")
    assert "stream.async.cast" not in section("a", "iree-stream-conversion")
