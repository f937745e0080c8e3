"""Functions whose bodies have several blocks: ``cf.br``/``cf.cond_br`` run by the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import InterpreterError, run

# sum(i * x for i in range(n)) by a loop of blocks; %x is defined in the entry
# block and used in a block it dominates.
LOOP = """
func.func @weighted(%n: index, %v: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.addf %v, %v : tensor<3xf32>
  %zero = arith.subf %v, %v : tensor<3xf32>
  cf.br ^loop(%c0, %zero : index, tensor<3xf32>)
^loop(%i: index, %acc: tensor<3xf32>):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done, ^exit(%acc : tensor<3xf32>), ^body
^body:
  %f = arith.index_cast %i : index to i32
  %g = arith.sitofp %f : i32 to f32
  %s = tensor.splat %g : tensor<3xf32>
  %t = arith.mulf %s, %x : tensor<3xf32>
  %next = arith.addf %acc, %t : tensor<3xf32>
  %i1 = arith.addi %i, %c1 : index
  cf.br ^loop(%i1, %next : index, tensor<3xf32>)
^exit(%r: tensor<3xf32>):
  return %r : tensor<3xf32>
}
"""

SELECT = """
util.func public @pick(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^then(%a : i32), ^else
^then(%x: i32):
  util.return %x : i32
^else:
  %y = arith.muli %b, %b : i32
  util.return %y : i32
}
"""


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loop_of_blocks(n):
    v = np.array([1.0, -2.0, 0.5], dtype=np.float32)
    (got,) = run(LOOP, "weighted", n, v)
    expected = sum((np.float32(i) * (v + v) for i in range(n)), np.zeros(3, np.float32))
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("cond, expected", [(True, 3), (False, 49)])
def test_cond_br_picks_a_successor(cond, expected):
    (got,) = run(SELECT, "pick", np.bool_(cond), np.int32(3), np.int32(7))
    assert int(got) == expected


def test_unsupported_branch_is_an_error():
    program = """
func.func @f(%i: i32) -> i32 {
  cf.switch %i : i32, [default: ^a, 1: ^b]
^a:
  return %i : i32
^b:
  return %i : i32
}
"""
    with pytest.raises(InterpreterError, match="only cf.br and cf.cond_br"):
        run(program, "f", np.int32(1))
