"""`mini-iree-layout` run in-process: outputs, the encoding form, and errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mini_iree.compiler.tools.layout_main import main

CPU_LHS = "{innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}"


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_index_17(capsys):
    assert run(capsys, "index", "f32[3,5]{1,0:T(2,2)}", "2,3") == (0, "17\n", "")


def test_index_several_and_rank_0(capsys):
    assert run(capsys, "index", "f32[3,5]{1,0:T(2,2)}", "0,0", "2,3", "2,4")[1].split() == ["0", "17", "20"]
    assert run(capsys, "index", "u32[]{:T(128)}", "")[1] == "0\n"


def test_grid_figure_2(capsys):
    code, out, _ = run(capsys, "grid", "bf16[4,8]{1,0:T(2,4)(2,1)}")
    rows, cols = np.indices((4, 8))
    expected = ((rows // 2) * 2 + cols // 4) * 8 + (cols % 4) * 2 + rows % 2
    assert code == 0
    np.testing.assert_array_equal(np.array([line.split() for line in out.splitlines()], dtype=int), expected)


def test_size_json_and_xla(capsys):
    _, out, _ = run(capsys, "size", "f32[8,8]{1,0:T(8,8)(3,1)}", "--json")
    assert json.loads(out) == {"elements": 64, "padded_elements": 72, "bytes": 288}
    _, out, _ = run(capsys, "size", "f32[8,8]{1,0:T(8,8)(3,1)}", "--xla", "--json")
    assert json.loads(out)["bytes"] == 256


def test_canonical(capsys):
    assert run(capsys, "canonical", "F32[3, 5]{1, 0 : T(2, 2)}") == (0, "f32[3,5]{1,0:T(2,2)}\n", "")


def test_explain_lists_steps(capsys):
    _, out, _ = run(capsys, "explain", "f32[3,5]{1,0:T(2,2)}")
    assert "pad 3x5 -> 4x6" in out
    assert "reshape 4x6 -> 2x2x3x2" in out
    assert "transpose 2x2x3x2 -> 2x3x2x2" in out


def test_encoding_form(capsys):
    args = ["--encoding-info", CPU_LHS, "--shape", "10x7xf32"]
    # Row r, col c sits in tile r//8, at (r%8): (r//8 * 7 + c) * 8 + r % 8.
    assert run(capsys, "index", *args, "9,6")[1] == f"{(1 * 7 + 6) * 8 + 1}\n"
    _, out, _ = run(capsys, "canonical", *args)
    assert out.splitlines() == [f"encoding_info = {CPU_LHS}", "xla: f32[10,7]{1,0:T(8,1)}"]
    _, out, _ = run(capsys, "size", *args, "--json")
    assert json.loads(out) == {"elements": 70, "padded_elements": 112, "bytes": 448}


def test_draw_svg(capsys, tmp_path):
    out = tmp_path / "f.svg"
    assert run(capsys, "draw", "f32[3,5]{1,0:T(2,2)}", "-o", str(out))[0] == 0
    assert ">17</text>" in out.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["canonical", "f32[3,5]{1,0:E(-1)}"], "error: INVALID_ARGUMENT: layout element_size_in_bits field is negative: -1"),
        (["index", "f32[3,5]{1,0:T(2,2)}", "3,0"], "error: index out of bounds in dimension 0 (size 3)"),
        (["index", "f32[3,5]", "1"], "error: index '1' has 1 components, the shape has rank 2"),
        (["grid", "f32[3,5,2]"], "error: grid needs a rank-2 shape"),
        (["draw", "f32[3,5]", "-o", "x.txt"], "error: -o must name a .svg or .png file"),
        (["index", "--encoding-info", CPU_LHS, "0,0"], "error: --encoding-info needs --shape"),
        (["explain"], "error: expected an XLA shape"),
        (["frobnicate"], "error: argument command: invalid choice"),
    ],
)
def test_errors(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 1 and out == ""
    assert err.startswith(message)
    assert "Traceback" not in err
