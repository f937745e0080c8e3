"""mini-iree-layout and mini-iree-run on bad input: one `error:` line and status 1, never a crash."""

from __future__ import annotations

import contextlib
import io
import sys
import warnings

import pytest

from mini_iree.compiler.tools import layout_main, run_main


def call(main, args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("error")
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def assert_error(result: tuple[int, str, str], message: str) -> None:
    code, _, err = result
    assert code == 1, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert message in err
    assert "internal error" not in err


INFO = "{innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}"
SWIZZLE = (
    "{innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = "
    '[[["CrossThread", X : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], [["CrossIntrinsic", 4 : i16], '
    '["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}'
)


@pytest.mark.parametrize(
    "args, message",
    [
        # Sizes whose offsets do not fit in int64.
        (["size", "f32[9223372036854775807,2]"], "more than 64-bit offsets can address"),
        (["index", "f32[9223372036854775808]", "1"], "does not fit in a 64-bit integer"),
        # A grid of a billion elements.
        (["grid", "f32[100000,100000]"], "grid prints at most 1048576 elements, this shape has 10000000000"),
        # encoding_info fields that do not verify, or that would take minutes or all memory to parse.
        (["explain", "--encoding-info", SWIZZLE.replace("X", "9223372036854775808"), "--shape", "?x?xf32"],
         "cannot parse encoding_info: Integer value 9223372036854775808 is out of range for type i16"),
        (["explain", "--encoding-info", SWIZZLE.replace("X : i16", "4 : i92233720368575807"), "--shape", "?x?xf32"],
         "integer bitwidth is limited to 16777215 bits"),
        (["explain", "--encoding-info", '{innerDimsPos = [0, 1], x = "' + "+avx," * 2000, "--shape", "?x?xf32"],
         "cannot parse encoding_info"),
        # A picture of a padded grid with a zero-size dim but an enormous tile.
        (["draw", "--encoding-info", "{innerDimsPos = [1, 0], innerTileSizes = [14294967296, 8], outerDimsPerm = [1, 0]}",
          "--shape", "0x4xf32", "-o", "x.svg"], "too many to draw"),
        (["bogus"], "invalid choice: 'bogus'"),
    ],
)  # fmt: skip
def test_layout_errors(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_error(call(layout_main.main, args), message)


def test_png_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    result = call(layout_main.main, ["draw", "f32[3,5]{1,0:T(2,2)}", "-o", str(tmp_path / "x.png")])
    assert_error(result, "PNG output needs matplotlib, which is not installed: pip install 'mini-iree[png]'")
    assert not (tmp_path / "x.png").exists()
    # SVG needs no matplotlib.
    code, _, err = call(layout_main.main, ["draw", "f32[3,5]{1,0:T(2,2)}", "-o", str(tmp_path / "x.svg")])
    assert code == 0, err
    assert (tmp_path / "x.svg").read_text().startswith("<svg ")


MATMUL = "examples/matmul.mlir"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--input=4294967297x16xf32=0", "--input=16x2xf32=1"], "more than mini-iree-run allocates"),
        (["--input=-1x3xf32=0", "--input=3x2xf32=1"], "sizes cannot be negative"),
        (["--input=2x3xui8=-1", "--input=3x2xf32=1"], "value -1 in input '2x3xui8=-1' is out of range for ui8"),
        (["--input=2x3xi8=128", "--input=3x2xf32=1"], "value 128 in input '2x3xi8=128' is out of range for i8"),
        (["--bogus"], "unknown command line argument '--bogus' (see 'mini-iree-run --help')"),
        (["--print_max_element_count=x"], "invalid int value: 'x'"),
    ],
)
def test_run_errors(args, message):
    from conftest import REPO

    assert_error(call(run_main.main, [str(REPO / MATMUL), *args]), message)


def test_run_without_a_file_is_one_error_line():
    assert_error(call(run_main.main, []), "the following arguments are required: FILE")


def test_run_float_too_large_for_the_type_is_refused():
    with pytest.raises(run_main.UsageError, match="value 1e39 in input '2x3xf32=1e39' is out of range for f32"):
        run_main.parse_input("2x3xf32=1e39")
    with pytest.raises(run_main.UsageError, match="out of range for f16"):
        run_main.parse_input("f16=1e5")

