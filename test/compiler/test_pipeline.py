"""Pass-pipeline text: both syntaxes, anchors, named pipelines, and their errors."""

from dataclasses import dataclass

import pytest
from xdsl.passes import ModulePass

from mini_iree.compiler.ir.diagnostics import DiagnosticError
from mini_iree.compiler.tools.pipeline import build_passes, parse_pipeline_text
from mini_iree.passes import get_all_passes


def names(text, mlir=False):
    return [(r.name, r.options) for r in parse_pipeline_text(text, mlir_syntax=mlir)]


def test_xdsl_syntax():
    assert names("cse,canonicalize{max-iterations=3},dce") == [
        ("cse", None),
        ("canonicalize", "max-iterations=3"),
        ("dce", None),
    ]


def test_mlir_syntax_flattens_anchors():
    text = "builtin.module(cse, util.func(dce, func.func(canonicalize{a={b c} d=\"}\"})))"
    assert names(text, mlir=True) == [("cse", None), ("dce", None), ("canonicalize", 'a={b c} d="}"')]


def test_empty_pipelines():
    assert names("") == []
    assert names("builtin.module()", mlir=True) == []


@pytest.mark.parametrize(
    "text, col, message",
    [
        ("builtin.module(cse", 19, "expected ')' to close 'builtin.module('"),
        ("builtin.module(cse{a=1", 19, "unbalanced '{'"),
        ("cse dce", 5, "unexpected 'd'"),
        ("cse,,dce", 5, "expected a pass or op name"),
    ],
)
def test_syntax_errors_have_columns(text, col, message):
    with pytest.raises(DiagnosticError) as info:
        parse_pipeline_text(text, mlir_syntax=text.startswith("builtin"))
    diag = info.value.diagnostics[0]
    assert (diag.loc.file, diag.loc.line, diag.loc.col) == ("<cmdline>", 1, col)
    assert message in diag.message


def test_named_pipelines_expand_in_place():
    pipelines = {"cleanup": "cse,dce", "outer": "canonicalize,cleanup"}
    refs = parse_pipeline_text("builtin.module(outer, cse)", mlir_syntax=True)
    passes = build_passes(refs, get_all_passes(), pipelines)
    assert [p.name for p in passes] == ["canonicalize", "cse", "dce", "cse"]


def test_recursive_pipeline_is_an_error():
    refs = parse_pipeline_text("loop", mlir_syntax=False)
    with pytest.raises(DiagnosticError, match="expands into itself"):
        build_passes(refs, get_all_passes(), {"loop": "loop"})


@dataclass(frozen=True)
class TileByPass(ModulePass):
    """A pass with options, to see them parsed and checked."""

    name = "test-tile-by"
    tile_size: int = 8
    transpose: bool = False

    def apply(self, ctx, op):
        pass


AVAILABLE = {**get_all_passes(), "test-tile-by": lambda: TileByPass}


def test_pass_options_are_parsed():
    refs = parse_pipeline_text("builtin.module(test-tile-by{tile-size=16 transpose=true})", mlir_syntax=True)
    (pass_,) = build_passes(refs, AVAILABLE, {})
    assert (pass_.tile_size, pass_.transpose) == (16, True)


@pytest.mark.parametrize(
    "options, message",
    [
        ("tile-sizes=16", "no such option 'tile-sizes' for pass 'test-tile-by' (options: tile-size, transpose)"),
        ("tile-size=big", "invalid options for pass 'test-tile-by'"),
        ("tile-size=", "invalid options for pass 'test-tile-by'"),
    ],
)
def test_bad_pass_options(options, message):
    refs = parse_pipeline_text(f"cse,test-tile-by{{{options}}}", mlir_syntax=False)
    with pytest.raises(DiagnosticError) as info:
        build_passes(refs, AVAILABLE, {})
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert diag.loc.col == 5


def test_named_pipeline_options_expand():
    from mini_iree.passes import get_all_pipelines

    pipeline = get_all_pipelines()["data-tiling-dispatch-creation"]
    plain = pipeline.expand()
    assert "assign-target-devices" not in plain
    targeted = pipeline.expand({"target": "x86_64:+avx,+avx2,+fma"})
    assert targeted.startswith("iree-hal-assign-target-devices{targetDevices=x86_64:+avx,+avx2,+fma},")
    assert targeted.endswith(plain)


def test_named_pipeline_unknown_option_is_a_cmdline_error(opt):
    from conftest import REPO

    result = opt([str(REPO / "examples" / "matmul.mlir"), "-p", "data-tiling-dispatch-creation{foo=1}"])
    assert result.returncode == 1
    assert "<cmdline>:1:1: error: invalid options for pipeline 'data-tiling-dispatch-creation'" in result.stderr
    assert "no such option 'foo' (options: target, era, encoding)" in result.stderr


def test_option_values_people_type_are_quoted():
    from mini_iree.compiler.tools.pipeline import _quote_values

    assert _quote_values("targetDevices=vmvx,x86_64:+avx512f") == 'targetDevices="vmvx,x86_64:+avx512f"'
    assert _quote_values('a=1,2 b="x:y" c') == 'a=1,2 b="x:y" c'
