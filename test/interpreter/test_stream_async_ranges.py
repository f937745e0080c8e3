"""The interpreter's stream.async byte-range ops: patterns, copies and the ranges they check."""

from __future__ import annotations

import numpy as np
import pytest
from mini_iree.compiler.interpreter import InterpreterError, run

PROGRAM = """
util.func public @splat_i16(%size: index) -> !stream.resource<*> {
  %p = arith.constant 258 : i16
  %0 = stream.async.splat %p : i16 -> !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
util.func public @copy(%s: !stream.resource<*>, %t: !stream.resource<*>, %size: index, %so: index, %to: index, %n: index) -> !stream.resource<*> {
  %se = arith.addi %so, %n : index
  %te = arith.addi %to, %n : index
  %0 = stream.async.copy %s[%so to %se], %t[%to to %te], %n : !stream.resource<*>{%size} -> %t as !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
util.func public @fill_i32(%t: !stream.resource<*>, %size: index, %o: index, %n: index) -> !stream.resource<*> {
  %p = arith.constant -1 : i32
  %e = arith.addi %o, %n : index
  %0 = stream.async.fill %p, %t[%o to %e for %n] : i32 -> %t as !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
"""


def test_splat_repeats_a_little_endian_pattern():
    (result,) = run(PROGRAM, "splat_i16", 6)
    np.testing.assert_array_equal(result, np.array([2, 1, 2, 1, 2, 1], np.uint8))


def test_copy_moves_bytes_and_keeps_its_target():
    source = np.arange(8, dtype=np.uint8)
    target = np.zeros(8, np.uint8)
    (result,) = run(PROGRAM, "copy", source, target, 8, 1, 4, 3)
    np.testing.assert_array_equal(result, [0, 0, 0, 0, 1, 2, 3, 0])
    np.testing.assert_array_equal(target, np.zeros(8, np.uint8))


def test_fill_must_be_whole_patterns_inside_the_resource():
    target = np.zeros(8, np.uint8)
    (result,) = run(PROGRAM, "fill_i32", target, 8, 4, 4)
    np.testing.assert_array_equal(result, [0, 0, 0, 0, 255, 255, 255, 255])
    with pytest.raises(InterpreterError, match="not a whole number of 4-byte patterns"):
        run(PROGRAM, "fill_i32", target, 8, 2, 2)
    with pytest.raises(InterpreterError, match=r"range \[6, 10\) is outside a 8-byte resource"):
        run(PROGRAM, "fill_i32", target, 8, 6, 4)


CONCURRENT = """
util.func public @fill_in_region(%t: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %p = arith.constant 7 : i8
  %0:2 = stream.async.execute with(%t as %arg0: !stream.resource<*>{%size}) -> %t{%size} {
    %1 = stream.async.concurrent with(%arg0 as %arg1: !stream.resource<*>{%size}) -> %arg0{%size} {
      %2 = stream.async.fill %p, %arg1[%c0 to %c2 for %c2] : i8 -> %arg1 as !stream.resource<*>{%size}
      stream.yield %2 : !stream.resource<*>{%size}
    }
    stream.yield %1 : !stream.resource<*>{%size}
  } => !stream.timepoint
  %3 = stream.timepoint.await %0#1 => %0#0 : !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}
"""


def test_concurrent_region_runs_its_ops():
    (result,) = run(CONCURRENT, "fill_in_region", np.zeros(4, np.uint8), 4)
    np.testing.assert_array_equal(result, [7, 7, 0, 0])
