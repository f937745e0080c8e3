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


# -- CuTe layouts -------------------------------------------------------------


def test_cute_subject_in_every_subcommand(capsys, tmp_path):
    layout = "(4,(2,3)):(2,(1,8))"
    # Coordinate (r, (a, b)) sits at 2r + a + 8b; a single integer is a 1-D (colexicographic) index.
    assert run(capsys, "index", layout, "3,5", "23")[1].split() == [str(2 * 3 + 1 + 8 * 2), str(2 * 3 + 1 + 8 * 2)]
    _, out, _ = run(capsys, "grid", layout)
    rows, cols = np.indices((4, 6))
    np.testing.assert_array_equal(np.array([line.split() for line in out.splitlines()], dtype=int),
                                  2 * rows + cols % 2 + 8 * (cols // 2))  # fmt: skip
    assert json.loads(run(capsys, "size", layout, "--json")[1]) == {"elements": 24, "cosize": 24}
    assert run(capsys, "canonical", "(4, (2, 3)):(_2, (_1, 8))")[1] == f"{layout}\n"
    svg = tmp_path / "c.svg"
    assert run(capsys, "draw", layout, "-o", str(svg))[0] == 0
    assert ">17</text>" in svg.read_text() and "[3, 5]: offset 23" in svg.read_text()


def test_cute_explain_names_the_other_forms(capsys):
    _, out, _ = run(capsys, "explain", "((2,2),8):((1,16),2)", "--element-type", "bf16")
    assert "compact (one-to-one onto 0..size-1)" in out
    assert "xla: bf16[4,8]{1,0:T(2,1)}" in out
    _, out, _ = run(capsys, "explain", "(4,8):(0,1)")
    assert "xla: none (not one-to-one:" in out


def test_cute_algebra_subcommand(capsys):
    assert run(capsys, "cute", "composition", "(6,2):(8,2)", "(4,3):(3,1)")[1] == "((2,2),3):((24,2),8)\n"
    assert run(capsys, "cute", "complement", "4:2", "24")[1] == "(2,3):(1,8)\n"
    assert run(capsys, "cute", "composition", "(12,(4,8)):(59,(13,1))", "<3:4, 8:2>")[1] == "(3,(2,4)):(236,(26,1))\n"
    assert run(capsys, "cute", "left-inverse", "(8,4):(4,1)")[1] == "(4,8):(8,1)\n"


def test_convert(capsys):
    _, out, _ = run(capsys, "convert", "--to", "cute", "bf16[4,8]{1,0:T(2,4)(2,1)}")
    assert out.splitlines() == ["((2,2),8):((1,16),2)", "checked: 32 elements at the same offset"]
    _, out, _ = run(capsys, "convert", "--to", "xla", "((2,2),8):((1,16),2)", "--element-type", "bf16")
    assert out.splitlines()[0] == "bf16[4,8]{1,0:T(2,1)}"
    _, out, _ = run(capsys, "convert", "--to", "cute", "--encoding-info", CPU_LHS, "--shape", "16x7xf32")
    assert out.splitlines()[0] == "((8,2),7):((1,56),8)"
    _, out, _ = run(capsys, "convert", "--to", "iree", "f32[3,5]{1,0:T(2,2)}")
    assert out.splitlines()[:2] == [
        "encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [2, 2], outerDimsPerm = [0, 1]}", "shape: 3x5xf32"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["convert", "--to", "cute", "f32[3,5]{1,0:T(2,2)}"], "error: no CuTe form: needs padding:"),
        (["convert", "--to", "xla", "4:2"], "error: no XLA form: leaves holes:"),
        (["convert", "--to", "iree", "((2,4)):((4,1))", "--no-swizzle"], "error: no IREE form: needs a swizzle:"),
        (["convert", "--to", "xla", "(4,2):(0,1)"], "error: no XLA form: not one-to-one:"),
        (["index", "(2,3", "0"], "error: cannot read CuTe layout '(2,3': expected ')'"),
        (["index", "(2,3):(1,2)", "2,0"], "error: index out of bounds in mode 0 (size 2)"),
        (["cute", "composition", "(4,6):(1,5)", "2:3"], "error: composition (4,6):(1,5) o 2:3: stride 3"),
        (["cute", "complement", "(2,2):(1,1)"], "error: complement of (2,2):(1,1): its modes overlap"),
        (["cute", "composition", "4:1"], "error: composition takes two layouts"),
        (["convert", "--to", "iree", "(100000,100000):(1,100000)"], "error: convert looks at every element"),
        (["grid", "(2,2,2):(1,2,4)"], "error: grid needs a rank-2 layout"),
    ],
)
def test_cute_errors(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 1 and out == ""
    assert err.startswith(message), err
    assert "Traceback" not in err


def test_swizzled_cute_layout(capsys):
    layout = "Sw<1,0,2> o 0 o (4,4):(4,1)"
    _, out, _ = run(capsys, "grid", layout)
    plain = np.indices((4, 4))[0] * 4 + np.indices((4, 4))[1]
    # Bit 0 of the offset takes the XOR of bit 2: odd rows swap neighbouring columns.
    np.testing.assert_array_equal(np.array([line.split() for line in out.splitlines()], dtype=int), plain ^ ((plain >> 2) & 1))
    code, out, err = run(capsys, "convert", "--to", "xla", layout)
    assert code == 1 and err.startswith("error: no XLA form: needs a swizzle:")
    code, _, err = run(capsys, "cute", "coalesce", layout)
    assert code == 1 and "takes plain shape:stride layouts" in err
