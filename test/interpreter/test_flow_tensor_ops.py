"""``flow.tensor.*`` run by the interpreter, against numpy formulas written independently."""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import InterpreterError, run

RNG = np.random.default_rng(7)

PROGRAM = """
util.func public @f(%t: tensor<?x4xf32>, %n: index, %i: index, %j: index, %v: f32, %u: tensor<2x2xf32>, %b: tensor<4xi32>)
    -> (tensor<?xf32>, tensor<4xf32>, f32, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<2x2xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %m = arith.muli %n, %c4 : index
  %0 = flow.tensor.reshape %t : tensor<?x4xf32>{%n} -> tensor<?xf32>{%m}
  %1 = flow.tensor.bitcast %b : tensor<4xi32> -> tensor<4xf32>
  %2 = flow.tensor.load %t[%i, %j] : tensor<?x4xf32>{%n}
  %3 = flow.tensor.store %v, %t[%i, %j] : tensor<?x4xf32>{%n}
  %4 = flow.tensor.splat %v : tensor<?x4xf32>{%n}
  %5 = flow.tensor.clone %t : tensor<?x4xf32>{%n}
  %6 = flow.tensor.slice %t[%i, %j for %c2, %c2] : tensor<?x4xf32>{%n} -> tensor<2x2xf32>
  %7 = flow.tensor.update %u, %t[%i, %j] : tensor<2x2xf32> -> %t as tensor<?x4xf32>{%n}
  %8 = flow.tensor.empty : tensor<?x4xf32>{%n}
  %9 = flow.tensor.transfer %t : tensor<?x4xf32>{%n} to "target"
  flow.tensor.trace "t" = [%t : tensor<?x4xf32>{%n}]
  util.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<?xf32>, tensor<4xf32>, f32, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<2x2xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}
"""


def test_flow_tensor_ops_match_numpy():
    t = RNG.standard_normal((5, 4)).astype(np.float32)
    u = RNG.standard_normal((2, 2)).astype(np.float32)
    b = RNG.integers(-(2**31), 2**31 - 1, size=4, dtype=np.int32)
    i, j, v = 2, 1, np.float32(3.5)
    got = run(PROGRAM, "f", t, 5, i, j, v, u, b)

    stored = t.copy()
    stored[i, j] = v
    updated = t.copy()
    updated[i : i + 2, j : j + 2] = u
    expected = [
        t.reshape(-1),
        b.view(np.float32),
        t[i, j],
        stored,
        np.full((5, 4), v, np.float32),
        t,
        t[i : i + 2, j : j + 2],
        updated,
        None,  # flow.tensor.empty: contents undefined, only the shape is checked
        t,
    ]
    for index, (value, want) in enumerate(zip(got, expected)):
        if want is None:
            assert value.shape == (5, 4)
            continue
        np.testing.assert_array_equal(value, want, err_msg=f"result {index}")
    # The inputs are values: updates and stores do not write through to them.
    assert not np.array_equal(got[7], t) and not np.array_equal(got[3], t)


def test_out_of_bounds_update_is_an_interpreter_error():
    program = """
util.func public @f(%t: tensor<4xf32>, %u: tensor<2xf32>, %i: index) -> tensor<4xf32> {
  %0 = flow.tensor.update %u, %t[%i] : tensor<2xf32> -> %t as tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
"""
    with pytest.raises(InterpreterError, match="out of bounds"):
        run(program, "f", np.zeros(4, np.float32), np.ones(2, np.float32), 3)


def test_fence_ops_pass_values_through():
    """hal.tensor.barrier / alias and the fence ops only order work: the values are unchanged."""
    program = """
util.func public @f(%a: tensor<4xf32>, %b: tensor<?xf32>, %n: index) -> (tensor<4xf32>, tensor<?xf32>, i32) {
  %c0 = arith.constant 0 : index
  %d = hal.devices.get %c0 : !hal.device
  %w = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence
  %0:2 = hal.tensor.barrier join(%a, %b : tensor<4xf32>, tensor<?xf32>) => %w : !hal.fence
  hal.fence.signal<%w : !hal.fence>
  %t = arith.constant -1 : i32
  %s = hal.fence.await until([%w]) timeout_millis(%t) flags("None") : i32
  util.return %0#0, %0#1, %s : tensor<4xf32>, tensor<?xf32>, i32
}
"""
    a = RNG.standard_normal(4).astype(np.float32)
    b = RNG.standard_normal(3).astype(np.float32)
    x, y, status = run(program, "f", a, b, 3)
    np.testing.assert_array_equal(x, a)
    np.testing.assert_array_equal(y, b)
    assert status == 0


def test_tensor_ext_bitcast_reads_the_bytes():
    program = """
util.func public @f(%a: tensor<?xi32>, %n: index, %m: index) -> tensor<?x4xi8> {
  %0 = iree_tensor_ext.bitcast %a : tensor<?xi32>{%n} -> tensor<?x4xi8>{%m}
  util.return %0 : tensor<?x4xi8>
}
"""
    a = RNG.integers(-(2**31), 2**31 - 1, size=5, dtype=np.int32)
    (got,) = run(program, "f", a, 5, 5)
    np.testing.assert_array_equal(got, a.view(np.int8).reshape(5, 4))


TIE_SHAPE = """
util.func public @tie(%t: tensor<?x4xf32>, %n: index) -> tensor<?x4xf32> {
  %0 = flow.tensor.tie_shape %t : tensor<?x4xf32>{%n}
  util.return %0 : tensor<?x4xf32>
}
"""


def test_tie_shape_is_the_tensor_and_checks_its_sizes():
    t = RNG.standard_normal((3, 4)).astype(np.float32)
    (got,) = run(TIE_SHAPE, "tie", t, 3)
    np.testing.assert_array_equal(got, t)
    with pytest.raises(InterpreterError, match=r"tensor of shape \(3, 4\) tied to shape \(2, 4\)"):
        run(TIE_SHAPE, "tie", t, 2)
