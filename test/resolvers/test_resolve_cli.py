"""`mini-iree-layout resolve` run in-process: JSON and text output, operands, errors."""

from __future__ import annotations

import json

import pytest

from mini_iree.compiler.tools.layout_main import main


def run(capsys, *args):
    code = main(["resolve", *args])
    out, err = capsys.readouterr()
    return code, out, err


def resolve_json(capsys, *args):
    code, out, err = run(capsys, *args, "--json")
    assert (code, err) == (0, "")
    return json.loads(out)


def test_json_walkthrough_gfx942(capsys):
    layouts = resolve_json(capsys, "--target", "gfx942", "--types", "f32,f32,f32", "--sizes", "?,?,?")
    assert list(layouts) == ["lhs", "rhs", "result"]
    assert layouts["lhs"] == {
        "innerDimsPos": [0, 1],
        "innerTileSizes": [128, 16],
        "outerDimsPerm": [0, 1],
        "swizzle": {
            "expandShape": [
                [["CrossThread", 4], ["CrossIntrinsic", 8], ["CrossThread", 4]],
                [["CrossIntrinsic", 4], ["CrossThread", 4]],
            ],
            "permutation": [1, 4, 0, 2, 3],
        },
    }
    assert layouts["rhs"]["innerDimsPos"] == [1, 0] and layouts["rhs"]["outerDimsPerm"] == [1, 0]
    assert layouts["rhs"]["swizzle"]["permutation"] == [0, 2, 4, 1, 3]
    assert layouts["result"]["innerTileSizes"] == [128, 128]
    assert layouts["result"]["swizzle"]["permutation"] == [3, 1, 5, 0, 4, 2]


def test_json_3_13_keeps_distribution_factor(capsys):
    args = ["--target", "gfx942", "--types", "f32,f32,f32", "--sizes", "?,?,?", "--gpu-era", "3.13", "--operand", "lhs"]
    layouts = resolve_json(capsys, *args)
    assert list(layouts) == ["lhs"]
    expected = [["CrossThread", 2, 2], ["CrossIntrinsic", 4], ["CrossThread", 16]]
    assert layouts["lhs"]["swizzle"]["expandShape"][0] == expected


@pytest.mark.parametrize(
    ("types", "tiles"),
    [("f16,f16,f32", [128, 32]), ("bf16,bf16,f32", [128, 32]), ("i8,i8,i32", [128, 64])],
)
def test_json_element_types(capsys, types, tiles):
    layouts = resolve_json(capsys, "--target", "gfx942", "--types", types, "--sizes", "?,?,?", "--gpu-era", "3.13")
    assert layouts["lhs"]["innerTileSizes"] == tiles


def test_json_cpu_target_has_no_swizzle(capsys):
    layouts = resolve_json(capsys, "--target", "x86_64:+avx,+avx2,+fma", "--types", "f32,f32,f32", "--sizes", "?,?,?")
    assert layouts == {
        "lhs": {"innerDimsPos": [0, 1], "innerTileSizes": [8, 1], "outerDimsPerm": [0, 1]},
        "rhs": {"innerDimsPos": [1, 0], "innerTileSizes": [8, 1], "outerDimsPerm": [1, 0]},
        "result": {"innerDimsPos": [0, 1], "innerTileSizes": [8, 8], "outerDimsPerm": [0, 1]},
    }


def test_text_static_and_dynamic_sizes(capsys):
    args = ["--target", "gfx942", "--types", "f32,f32,f32", "--sizes", "255,?,513", "--operand", "rhs"]
    code, out, _ = run(capsys, *args)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "rhs: tensor<513x?xf32>"
    # RHS (K, N) is stored N-outer: ceil(N / 128) = ?, ceil(513 / 16) = 33.
    assert lines[2] == "  packed: ?x33x128x16"
    assert lines[3] == "  swizzled: ?x33x4x2x4x16x4"
    assert lines[4].startswith("  xla: f32[513,?]{0,1:T(128,16)")


def test_text_small_static_3_13(capsys):
    code, out, _ = run(
        capsys, "--target", "gfx942", "--types", "f32,f32,f32", "--sizes", "255,1023,513", "--gpu-era", "3.13",
        "--operand", "lhs",
    )
    assert code == 0
    assert "innerTileSizes = [16, 16]" in out and "  packed: 16x33x16x16" in out.splitlines()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target", "gfx1030"], "error: unknown ROCm architecture 'gfx1030'"),
        (["--target", "sparc"], "error: unknown target 'sparc'"),
        (["--target", '#hal.executable.target<"llvm-cpu", "x">'], "error: the target names no iree.encoding.resolver"),
        (["--types", "f32,f32"], "error: --types takes three element types"),
        (["--types", "f32,x,f32"], "error: --types: 'x' is not an integer or float element type"),
        (["--sizes", "1,2"], "error: --sizes takes M,N,K"),
        (["--sizes", "4,0,4"], "error: --sizes takes M,N,K"),
        (["--gpu-era", "2019"], "error: argument --gpu-era: invalid choice"),
        (["--operand", "acc"], "error: argument --operand: invalid choice"),
    ],
)
def test_errors(capsys, args, message):
    defaults = {"--target": "gfx942", "--types": "f32,f32,f32", "--sizes": "?,?,?"}
    given = dict(zip(args[::2], args[1::2]))
    argv = [item for key, value in {**defaults, **given}.items() for item in (key, value)]
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert err.startswith(message)
    assert "Traceback" not in err


def test_missing_required_option(capsys):
    code, _, err = run(capsys, "--target", "gfx942", "--sizes", "?,?,?")
    assert code == 1 and err.startswith("error: the following arguments are required: --types")
