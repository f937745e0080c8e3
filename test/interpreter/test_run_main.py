"""mini-iree-run's input parsing and result printing (iree-run-module conventions)."""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.tools.run_main import UsageError, format_array, parse_input


def test_input_forms():
    assert (parse_input("2x3xf32=1,2,3,4,5,6") == np.arange(1, 7, dtype=np.float32).reshape(2, 3)).all()
    assert (parse_input("2x2xi8=[1 -2][3 4]") == np.array([[1, -2], [3, 4]], np.int8)).all()
    splat = parse_input("3x2xi32=7")
    assert splat.dtype == np.int32 and (splat == 7).all() and splat.shape == (3, 2)
    assert parse_input("f32=2.5").shape == () and parse_input("f32=2.5").dtype == np.float32
    assert parse_input("0x4xf32=0").shape == (0, 4)
    assert parse_input("42") == 42


def test_npy_inputs(tmp_path):
    a = np.arange(6, dtype=np.int16).reshape(3, 2)
    np.save(tmp_path / "a.npy", a)
    assert (parse_input(f"@{tmp_path / 'a.npy'}") == a).all()
    assert (parse_input(f"3x2xi16=@{tmp_path / 'a.npy'}") == a).all()
    with pytest.raises(UsageError, match="holds 3x2xi16, not 2x3xi16"):
        parse_input(f"2x3xi16=@{tmp_path / 'a.npy'}")


@pytest.mark.parametrize("text", ["2x3xf32=1,2", "2xq8=1", "2xf32=a,b", "nonsense"])
def test_bad_inputs_are_usage_errors(text):
    with pytest.raises(UsageError):
        parse_input(text)


def test_printing_ranks_and_truncation():
    assert format_array(np.array(3, np.int32)) == "i32=3"
    assert format_array(np.array([1.5, -2.0], np.float32)) == "2xf32=1.5 -2"
    assert format_array(np.arange(4, dtype=np.int64).reshape(2, 2)) == "2x2xi64=[0 1][2 3]"
    assert format_array(np.array([True, False])) == "2xi1=1 0"
    text = format_array(np.zeros(2000, np.float32), max_elements=3)
    assert text == "2000xf32=0 0 0..."
