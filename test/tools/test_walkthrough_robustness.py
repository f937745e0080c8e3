"""mini-iree-walkthrough on bad flags and bad programs: one `error:` line and status 1, no page, no traceback.

A diagnostic located in the program is followed, as mini-iree-opt prints it,
by the program's line and a caret under the column.
"""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from conftest import REPO
from mini_iree.compiler.tools.walkthrough_main import main

MATMUL = str(REPO / "examples" / "matmul.mlir")

# Padding to 10^11 floats: the interpreter cannot run the input program.
HUGE_PAD = """func.func @f(%a: tensor<2xf32>) -> tensor<100000000002xf32> {
  %c0 = arith.constant 0.0 : f32
  %r = tensor.pad %a low[0] high[100000000000] {
  ^bb0(%i: index):
    tensor.yield %c0 : f32
  } : tensor<2xf32> to tensor<100000000002xf32>
  return %r : tensor<100000000002xf32>
}
"""


def run(args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def assert_one_error(result: tuple[int, str, str], pattern: str) -> None:
    code, _, err = result
    assert code == 1, err
    lines = err.splitlines()
    # One line, or a located one with its source line and a caret.
    assert len(lines) == 1 or (len(lines) == 3 and lines[2].strip() == "^"), err
    assert re.match(pattern, err), err
    assert "internal error" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    "flag, message",
    [
        ("--seed=-1", "error: argument --seed: '-1' must not be negative"),
        ("--dynamic-size=-3", "error: argument --dynamic-size: '-3' must not be negative"),
        ("--timing-size=-1", "error: argument --timing-size: '-1' must not be negative"),
        ("--seed=x", "error: argument --seed: 'x' value invalid for integer argument"),
        ("--dynamic-size=100000", "error: --dynamic-size=100000 makes the random inputs of @matmul_f32f32f32 74.5 GiB"),
        ("--timing-size=100000", "error: --timing-size=100000 makes the random inputs of @matmul_f32f32f32 74.5 GiB"),
    ],
)
def test_bad_sizes_and_seeds_are_refused_without_a_page(flag, message, tmp_path):
    page = tmp_path / "page.html"
    assert_one_error(run([MATMUL, "-p", "canonicalize", flag, "-o", page]), re.escape(message))
    assert not page.exists()


def test_a_file_that_is_not_utf8_is_a_located_error(tmp_path):
    program = tmp_path / "bad.mlir"
    program.write_bytes(b"func.func @f() {\xff}\n")
    assert_one_error(run([program, "-o", tmp_path / "page.html"]),
                     r".*bad\.mlir:1:17: error: invalid UTF-8 byte in input$")  # fmt: skip


def test_missing_unparsable_and_unknown_pipeline(tmp_path):
    page = tmp_path / "page.html"
    assert_one_error(run([tmp_path / "missing.mlir", "-o", page]),
                     r"error: could not open input file '.*missing\.mlir'")  # fmt: skip
    (tmp_path / "p.mlir").write_text("func.func @f( {\n")
    assert_one_error(run([tmp_path / "p.mlir", "-o", page]), r".*p\.mlir:1:\d+: error: ")
    assert_one_error(run([MATMUL, "-p", "no-such-pass", "-o", page]),
                     r"<cmdline>:1:1: error: 'no-such-pass' does not refer to a registered pass")  # fmt: skip
    assert_one_error(run([MATMUL, "-o", tmp_path / "no" / "page.html"]), r"error: cannot open output file")
    assert not page.exists()


def test_an_input_program_that_cannot_be_checked_is_a_located_error(tmp_path):
    program = tmp_path / "pad.mlir"
    program.write_text(HUGE_PAD)
    code, _, err = run([program, "-p", "canonicalize", "-o", tmp_path / "page.html"])
    assert_one_error((code, "", err), r".*pad\.mlir:\d+:\d+: error: the input program cannot be checked: ")
    assert "needs more memory than there is" in err


def test_excerpt_files_that_cannot_be_read(tmp_path):
    assert_one_error(run(["--check-excerpts", tmp_path / "missing.md"]), r"error: could not open input file")
    (tmp_path / "bad.md").write_bytes(b"\xff\n")
    assert_one_error(run(["--check-excerpts", tmp_path / "bad.md"]), r"error: '.*bad\.md' is not UTF-8 text")
    (tmp_path / "stage.md").write_text("<!-- walkthrough-ir: missing.mlir after=input -->\n")
    assert_one_error(run(["--check-excerpts", tmp_path / "stage.md"]),
                     r"error: .*stage\.md: could not open '.*missing\.mlir': No such file")  # fmt: skip


def _opt_stderr(args) -> str:
    from conftest import run_opt

    return run_opt([str(a) for a in args]).stderr


def test_a_failing_pass_prints_its_diagnostic_as_mini_iree_opt_does(tmp_path):
    """matvec on gfx942 stops at materialize-device-encoding: the same three lines as mini-iree-opt's."""
    matvec = REPO / "examples" / "matvec.mlir"
    page = tmp_path / "page.html"
    code, _, err = run([matvec, "-p", "data-tiling{target=gfx942}", "--no-check", "-o", page])
    assert code == 1 and page.exists()
    lines = err.splitlines()
    assert len(lines) == 3, err
    assert re.match(r".*matvec\.mlir:\d+:\d+: error: 'linalg.matvec' op ", lines[0]), err
    assert "linalg.matvec ins(" in lines[1]
    column = int(lines[0].split(":")[2])
    assert lines[2] == " " * (column - 1) + "^"
    opt = _opt_stderr([matvec, "-p", "data-tiling{target=gfx942}", "-o", tmp_path / "out.mlir"])
    assert opt.splitlines()[:3] == lines


def test_a_parse_error_prints_its_source_line_and_caret(tmp_path):
    program = tmp_path / "p.mlir"
    program.write_text("func.func @f() {\n  %0 = arith.constant 1 : i32 +\n}\n")
    code, _, err = run([program, "-o", tmp_path / "page.html"])
    assert code == 1
    assert err.splitlines() == _opt_stderr([program]).splitlines()[:3]
    assert len(err.splitlines()) == 3 and err.splitlines()[2].endswith("^")
