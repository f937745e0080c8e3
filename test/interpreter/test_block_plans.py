"""A block's plan (core._block_steps) is prepared once per interpreter; what it keeps is safe to keep.

Ops are resolved to their implementations once; an op whose results depend on
its attributes alone runs once and its scalar results are reused; every other
op runs on every call, including operand-less ops that read state
(``util.global.load``). Per-op analyses (linalg's indexing maps and
contraction match, tensor.empty's value) are reused only where they cannot
change the results.
"""

from collections import Counter

import numpy as np

from mini_iree.compiler.interpreter import core, find_function, make_interpreter, parse_module_text
from mini_iree.compiler.interpreter.core import NumpyInterpreter

PROGRAM = """
util.global private mutable @runs = 0 : index
util.func public @step() -> (i32, i32, index) {
  %f32 = hal.element_type<f32> : i32
  %layout = hal.encoding_type<dense_row_major> : i32
  %r = util.global.load @runs : index
  %c1 = arith.constant 1 : index
  %r1 = arith.addi %r, %c1 : index
  util.global.store %r1, @runs : index
  util.return %f32, %layout, %r1 : i32, i32, index
}
"""


def _counting(monkeypatch) -> Counter:
    """Counts of the ops the interpreter runs through their implementations, by name."""
    counts: Counter = Counter()
    invoke = core._invoke

    def counted(interpreter, op, entry, inputs):
        counts[op.name] += 1
        return invoke(interpreter, op, entry, inputs)

    monkeypatch.setattr(core, "_invoke", counted)
    return counts


def test_attribute_only_ops_run_once_and_state_reads_every_time(monkeypatch):
    module = parse_module_text(PROGRAM)
    function = find_function(module, "step")
    interpreter = make_interpreter(module)
    counts = _counting(monkeypatch)
    results = [interpreter.call_op(function, ()) for _ in range(3)]
    # The type codes are the same on every call; the global advances on every call.
    assert [tuple(int(v) for v in r) for r in results] == [(results[0][0], results[0][1], n) for n in (1, 2, 3)]
    assert int(results[0][0]) != 0 and int(results[0][1]) != 0
    assert counts["hal.element_type"] == 1 and counts["hal.encoding_type"] == 1
    assert counts["util.global.load"] == 3 and counts["util.global.store"] == 3


def test_an_observing_interpreter_still_sees_every_op_it_runs():
    seen: Counter = Counter()

    class Observing(NumpyInterpreter):
        def _run_op(self, op, inputs):
            seen[op.name] += 1
            return super()._run_op(op, inputs)

    module = parse_module_text(PROGRAM)
    interpreter = make_interpreter(module, Observing)
    function = find_function(module, "step")
    for _ in range(2):
        interpreter.call_op(function, ())
    # Nothing is kept from an observed run: each op is seen on each call.
    assert seen["hal.element_type"] == 2 and seen["util.global.load"] == 2


DYNAMIC = """
func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""


def test_a_planned_program_gives_numpys_results_for_each_new_shape():
    module = parse_module_text(DYNAMIC)
    function = find_function(module, "mm")
    interpreter = make_interpreter(module)
    rng = np.random.default_rng(1)
    for m, k, n in [(5, 7, 3), (5, 7, 3), (2, 9, 6), (5, 7, 3), (1, 1, 1)]:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        (c,) = interpreter.call_op(function, (a, b))
        np.testing.assert_array_equal(np.asarray(c), a @ b)


def test_tensor_empty_reuses_its_read_only_value_only_for_the_same_shape():
    text = """
func.func @e(%n: index) -> tensor<?x4xf32> {
  %e = tensor.empty(%n) : tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}"""
    module = parse_module_text(text)
    function = find_function(module, "e")
    interpreter = make_interpreter(module)
    (first,) = interpreter.call_op(function, (3,))
    (again,) = interpreter.call_op(function, (3,))
    (other,) = interpreter.call_op(function, (5,))
    assert first.shape == again.shape == (3, 4) and other.shape == (5, 4)
    assert not first.flags.writeable and not other.flags.writeable
    assert not first.any() and not other.any()
