"""remove-tensor-barriers drops IREE 3.13's compute barriers; the program computes the same."""

from __future__ import annotations

import numpy as np
from conftest import require_reference

from mini_iree.compiler.interpreter import make_context, parse_module_text, run
from mini_iree.compiler.ir.printer import print_module_to_string
from mini_iree.passes.remove_tensor_barriers import RemoveTensorBarriersPass

PROGRAM = """\
util.func public @barriers(%arg0: tensor<?x4xf32>, %n: index) -> tensor<?x4xf32> {
  %named = iree_tensor_ext.compute_barrier.start %arg0 : tensor<?x4xf32>{%n} -> tensor<?x4xf32>
  %0 = arith.addf %named, %named : tensor<?x4xf32>
  %1 = iree_tensor_ext.compute_barrier.end %0 : tensor<?x4xf32>{%n} -> tensor<?x4xf32>
  util.return %1 : tensor<?x4xf32>
}
"""


def test_barriers_forward_their_operands():
    module = parse_module_text(PROGRAM)
    before = run(module, "barriers", np.arange(12, dtype=np.float32).reshape(3, 4), 3)
    RemoveTensorBarriersPass().apply(make_context(), module)
    text = print_module_to_string(module)
    assert "compute_barrier" not in text
    # The operand keeps its name; the barrier's does not move onto it.
    assert "%0 = arith.addf %arg0, %arg0 : tensor<?x4xf32>" in text
    assert "util.return %0 : tensor<?x4xf32>" in text
    after = run(module, "barriers", np.arange(12, dtype=np.float32).reshape(3, 4), 3)
    np.testing.assert_array_equal(before[0], after[0])


def test_iree313_dump_loses_only_its_barriers():
    path = require_reference() / "iree-3.13" / "dynamic-matmul" / "09_HoistIntoGlobalsPass.mlir"
    module = parse_module_text(path.read_text(), str(path))
    count = sum(1 for op in module.walk() if op.name.startswith("iree_tensor_ext.compute_barrier"))
    total = sum(1 for _ in module.walk())
    RemoveTensorBarriersPass().apply(make_context(), module)
    assert count == 3
    assert sum(1 for _ in module.walk()) == total - count
