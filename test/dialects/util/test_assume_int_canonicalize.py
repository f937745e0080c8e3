"""util.assume.int's canonicalization keeps what the program computes.

The deduplicated op's results stand for the dropped ones: a function reading
every result computes the same before and after `canonicalize`, and the walkthrough's
relayout dispatch (dump 19, four assume operands) writes the same bytes with two.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import require_reference
from xdsl.context import Context

from mini_iree.compiler.interpreter import parse_module_text, run
from mini_iree.compiler.interpreter.hal_ops import run_dispatch, split_index
from mini_iree.dialects.util import AssumeIntOp
from mini_iree.passes.canonicalize import CanonicalizePass

PROGRAM = """func.func @f(%a: index, %b: index) -> (index, index) {
  %0:5 = util.assume.int
      %a<umin = 0, umax = 1000>,
      %b<udiv = 4>,
      %a<umin = 0, umax = 1000>,
      %b<umin = 4, udiv = 2>,
      %a<umin = 1>
    : index, index, index, index, index
  %1 = arith.muli %0#0, %0#1 : index
  %2 = arith.addi %1, %0#2 : index
  %3 = arith.subi %0#3, %0#4 : index
  %4 = arith.addi %3, %0#1 : index
  return %2, %4 : index, index
}
"""


def _assume_ops(module) -> list[AssumeIntOp]:
    return [op for op in module.walk() if isinstance(op, AssumeIntOp)]


@pytest.mark.parametrize("a,b", [(3, 8), (1000, 4), (1, 12)])
def test_deduplicated_assumptions_compute_the_same(a, b):
    before = run(parse_module_text(PROGRAM), "f", a, b)
    module = parse_module_text(PROGRAM)
    CanonicalizePass().apply(Context(), module)
    (assume,) = _assume_ops(module)
    assert len(assume.operands_) == 2
    # Each operand's rows are unioned: %a keeps [1, 1000], %b divisibility by lcm(4, 2) and umin 4.
    facts = [(x.min, x.max, x.divisor) for row in assume.assumptions.data for x in row.data]
    assert facts == [(1, 1000, None), (4, None, 4)]
    after = run(module, "f", a, b)
    assert [int(x) for x in after] == [int(x) for x in before]


def test_walkthrough_relayout_dispatch_keeps_its_bytes():
    text = (require_reference() / "seed-walkthrough" / "19-materialize-device-encoding.relayout.after.mlir").read_text()
    m, k = 130, 17
    a = np.random.default_rng(5).standard_normal((m, k)).astype(np.float32)
    out_bytes = -(-m // 128) * 128 * -(-k // 16) * 16 * 4
    constants = [w for v in (m, k) for w in split_index(v)]

    def dispatch(module):
        bindings = [a.copy(), np.full(out_bytes, 0xFF, np.uint8)]
        return run_dispatch(module, "_encoding_0_encode_DxDxf32_to_DxDxf32", bindings, constants)[1].copy()

    before = dispatch(parse_module_text(text))
    module = parse_module_text(text)
    assert [len(op.operands_) for op in _assume_ops(module)] == [4]
    CanonicalizePass().apply(Context(), module)
    assert [len(op.operands_) for op in _assume_ops(module)] == [2]
    np.testing.assert_array_equal(dispatch(module), before)


FIXED = """func.func @f(%a: index, %b: index, %d: i32) -> (index, index, i32) {
  %k = arith.constant 5 : index
  %0:5 = util.assume.int %a<umin = 0, umax = 0>, %b[<udiv = 4>, <udiv = 4>], %d<umin = 7, umax = 7>, %k<umin = 5>, %b<udiv = 2> : index, index, i32, index, index
  %1 = arith.addi %0#0, %0#1 : index
  %2 = arith.muli %1, %0#3 : index
  return %2, %0#4, %0#2 : index, index, i32
}
"""


@pytest.mark.parametrize("b", [0, 8, 4000])
def test_fixed_and_constant_operands_compute_the_same(b):
    # Inputs that satisfy the assumptions (a program that breaks them is undefined).
    before = run(parse_module_text(FIXED), "f", 0, b, np.int32(7))
    module = parse_module_text(FIXED)
    CanonicalizePass().apply(Context(), module)
    (assume,) = _assume_ops(module)
    assert len(assume.operands_) == 1  # %b, its rows unioned then normalized to one
    after = run(module, "f", 0, b, np.int32(7))
    assert [int(x) for x in after] == [int(x) for x in before]
