"""mini-iree-run on awkward files and values: one `error:` line and status 1, or the right result; no Python text."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO
from mini_iree.compiler.tools.run_main import main

MATMUL = str(REPO / "examples" / "matmul.mlir")

IDENTITY_BF16 = """func.func @f(%a: tensor<2x2xbf16>) -> tensor<2x2xbf16> {
  return %a : tensor<2x2xbf16>
}
"""

# Every cast overflows: 1e6 is too large for f16, as is the f16 product 300 * 300.
OVERFLOW = """func.func @f(%a: tensor<3xf32>, %b: tensor<2x2xf16>) -> (tensor<3xf16>, tensor<2x2xf16>) {
  %e = tensor.empty() : tensor<3xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<3xf32>) outs(%e : tensor<3xf16>) {
  ^bb0(%x: f32, %y: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<3xf16>
  %z = arith.constant 0.0 : f16
  %e2 = tensor.empty() : tensor<2x2xf16>
  %f = linalg.fill ins(%z : f16) outs(%e2 : tensor<2x2xf16>) -> tensor<2x2xf16>
  %m = linalg.matmul ins(%b, %b : tensor<2x2xf16>, tensor<2x2xf16>) outs(%f : tensor<2x2xf16>) -> tensor<2x2xf16>
  return %t, %m : tensor<3xf16>, tensor<2x2xf16>
}
"""

# scf.if on a value of the body cannot run on whole arrays: the interpreter runs the body point by point.
POINT_BY_POINT = """func.func @f(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %zero : f32
    %v = scf.if %p -> (f32) {
      scf.yield %x : f32
    } else {
      scf.yield %zero : f32
    }
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def run(args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def run_process(args) -> subprocess.CompletedProcess:
    """The tool as a user runs it: its own process, Python's default warning filters."""
    command = [sys.executable, "-m", "mini_iree.compiler.tools.run_main", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def assert_error(result: tuple[int, str, str], message: str) -> None:
    code, _, err = result
    assert code == 1, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert message in err
    assert "internal error" not in err


def test_an_empty_npy_file_is_an_error(tmp_path):
    (tmp_path / "empty.npy").write_bytes(b"")
    assert_error(run([MATMUL, f"--input=@{tmp_path / 'empty.npy'}", "--input=3x2xf32=1"]),
                 f"could not read '{tmp_path / 'empty.npy'}' as a .npy file")  # fmt: skip


def test_a_npy_header_claiming_too_many_elements_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.npy"
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (100000, 100000)})
        f.write(bytes(16))
    assert_error(run([MATMUL, f"--input=@{path}", "--input=3x2xf32=1"]),
                 "holds 100000x100000 elements of 4 bytes, more than mini-iree-run allocates")  # fmt: skip


def test_a_truncated_npy_file_is_an_error(tmp_path):
    np.save(tmp_path / "a.npy", np.ones((2, 3), np.float32))
    data = (tmp_path / "a.npy").read_bytes()
    (tmp_path / "a.npy").write_bytes(data[:-4])
    assert_error(run([MATMUL, f"--input=@{tmp_path / 'a.npy'}", "--input=3x2xf32=1"]), "as a .npy file")


def test_a_big_endian_file_holds_the_same_numbers(tmp_path):
    np.save(tmp_path / "a.npy", np.arange(6, dtype=">f4").reshape(2, 3))
    code, out, err = run([MATMUL, f"--input=@{tmp_path / 'a.npy'}", "--input=3x2xf32=1"])
    assert code == 0, err
    assert out.endswith("2x2xf32=[3 3][12 12]\n")
    # The same through SHAPExTYPE=@file.
    code, out, err = run([MATMUL, f"--input=2x3xf32=@{tmp_path / 'a.npy'}", "--input=3x2xf32=1"])
    assert code == 0, err


def test_bf16_results_saved_with_output_read_back_as_bf16(tmp_path):
    program = tmp_path / "id.mlir"
    program.write_text(IDENTITY_BF16)
    first, second = tmp_path / "first.npy", tmp_path / "second.npy"
    code, _, err = run([program, "--input=2x2xbf16=1.5,-2,3.25,1e30", f"--output=@{first}"])
    assert code == 0, err
    code, out, err = run([program, f"--input=@{first}", f"--output=@{second}"])
    assert code == 0, err
    assert first.read_bytes() == second.read_bytes()
    code, out, err = run([program, f"--input=@{second}"])
    assert code == 0, err
    assert out.endswith("2x2xbf16=[1.5 -2][3.25 1.00026E+30]\n")


def test_output_writes_exactly_the_path_given(tmp_path):
    path = tmp_path / "result"
    code, _, err = run([MATMUL, "--input=2x3xf32=1", "--input=3x2xf32=2", f"--output=@{path}"])
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["result"]
    assert (np.load(path) == 6).all()


def test_output_to_a_directory_is_refused_and_writes_nothing(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    assert_error(run([MATMUL, "--input=2x3xf32=1", "--input=3x2xf32=2", f"--output=@{folder}"]),
                 f"cannot open output file '{folder}': Is a directory")  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"] and not any(folder.iterdir())


@pytest.mark.parametrize(
    "value, type_",
    [("1e40", "f32"), ("-1e40", "f32"), ("70000", "f16"), ("1e39", "bf16"), ("1e400", "f64"), ("300", "i8")],
)
def test_a_value_the_element_type_cannot_hold_is_refused(value, type_):
    assert_error(run([MATMUL, f"--input=2x3x{type_}={value}", "--input=3x2xf32=1"]),
                 f"value {value} in input '2x3x{type_}={value}' is out of range for {type_}")  # fmt: skip


def test_infinities_spelled_out_and_the_largest_finite_values_are_accepted():
    from mini_iree.compiler.tools.run_main import parse_input

    values = parse_input("4xf32=inf,-Infinity,nan,3.4028235e38")
    assert np.isposinf(values[0]) and np.isneginf(values[1]) and np.isnan(values[2]) and np.isfinite(values[3])
    assert parse_input("f16=65504") == 65504


def test_an_i1_value_other_than_0_1_false_true_is_refused():
    assert_error(run([MATMUL, "--input=2x3xi1=2", "--input=3x2xf32=1"]), "value 2 in input '2x3xi1=2' is out of range")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--function=nope"], "no function named '@nope' in the module"),
        (["--input=2x3xf32=1"], "takes 2 arguments, got 1"),
        (["--input=2x3xq9=1", "--input=1"], "unknown element type 'q9'"),
        (["--input=2x3xf32=1,2", "--input=1"], "needs 6 values (or one to splat), got 2"),
        (["--input=2x3xf32=x", "--input=1"], "invalid value in input '2x3xf32=x'"),
        (["--input=@/nonexistent/a.npy", "--input=1"], "could not read '/nonexistent/a.npy': No such file"),
        (["--input=2x3xf32=1", "--input=3x2xf32=1", "--output=@"], "invalid --output '@'"),
        (["--input=2x3xf32=1", "--input=3x2xf32=1", "--print_max_element_count=-1"], "must not be negative"),
    ],
)
def test_command_line_mistakes(args, message):
    code, _, err = run([MATMUL, *args])
    lines = err.splitlines()
    assert code == 1 and "error: " in lines[0] and message in lines[0], err
    # One line; a mistake about the program (an argument count) also shows its source line and a caret.
    assert len(lines) == 1 or (len(lines) == 3 and lines[2].strip() == "^"), err
    assert "internal error" not in err


def test_an_unreadable_program_is_an_error(tmp_path):
    assert_error(run([tmp_path / "missing.mlir"]), "could not open input file")
    assert_error(run([tmp_path]), "Is a directory")
    (tmp_path / "bad.mlir").write_bytes(b"func.func @f() {\xff}\n")
    code, _, err = run([tmp_path / "bad.mlir"])
    # As mini-iree-opt shows it: the line, the bad byte as U+FFFD, a caret under it.
    assert code == 1 and err.endswith("bad.mlir:1:17: error: invalid UTF-8 byte in input\nfunc.func @f() {\ufffd}\n" + " " * 16 + "^\n"), err


def test_float_overflow_in_the_program_is_ieee_without_a_warning(tmp_path):
    program = tmp_path / "overflow.mlir"
    program.write_text(OVERFLOW)
    result = run_process([program, "--input=3xf32=1e6,-1e6,1", "--input=2x2xf16=300"])
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "3xf16=INF -INF 1" in result.stdout and "2x2xf16=[INF INF][INF INF]" in result.stdout


def test_interpreter_warnings_are_one_diagnostic_line(tmp_path):
    program = tmp_path / "pointwise.mlir"
    program.write_text(POINT_BY_POINT)
    result = run_process([program, "--input=4xf32=1,-2,3,-4", "--input=4xf32=0"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("4xf32=1 0 3 0\n")
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and re.match(r"\S+pointwise\.mlir:8:10: warning: linalg\.generic body cannot be vectorized",
                                        lines[0]), result.stderr  # fmt: skip
    assert ".py" not in result.stderr


def test_a_bad_argument_is_shown_at_the_argument():
    # The function's second argument is written at line 3, column 53 of examples/matmul.mlir.
    code, _, err = run([MATMUL, "--input=2x3xf32=1", "--input=3x5xi32=1"])
    lines = err.splitlines()
    assert code == 1 and lines[0].endswith("matmul.mlir:3:53: error: 'func.func' op argument 1 of @matmul_f32f32f32 "
                                           "must be tensor<?x?xf32>, got 3x5xi32"), err  # fmt: skip
    assert lines[1].startswith("func.func @matmul_f32f32f32(") and lines[2] == " " * 52 + "^", err


def test_a_failing_op_is_shown_with_its_source_line():
    code, _, err = run([MATMUL, "--input=2x3xf32=1", "--input=4x5xf32=1"])
    assert code == 1 and err.splitlines()[1:] == ["  %2 = linalg.matmul", "       ^"], err
