"""iree-flow-capture-dynamic-dims keeps results: the lit cases, dispatches run on sizes that differ,
and loops carrying dynamic tensors run for several iterations.

The pass only adds operands (sizes a dispatch did not take), iteration
arguments (sizes a loop carries) and ties; the interpreter runs each program
before and after it on the same inputs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

PASS = "iree-flow-capture-dynamic-dims"
LIT = Path(__file__).parent / "capture_dynamic_dims.mlir"

# A 2-D copy whose column size reaches the body only once captured, plus a
# dispatch reading its sizes through workload ordinals (as dispatches made from
# regions do).
PROGRAM = """
util.func public @copy(%t: tensor<?x?xf32>, %d0: index, %d1: index) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %0 = flow.dispatch.workgroups[%c1](%t, %d0) : (tensor<?x?xf32>{%d0, %d1}, index) -> tensor<?x?xf32>{%d0, %d1} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %a: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
    %c2 = arith.constant 2 : index
    %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%a, 2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%a, %c2} -> tensor<?x2xf32>
    iree_tensor_ext.dispatch.tensor.store %l, %out, offsets = [0, 0], sizes = [%a, 2], strides = [1, 1] : tensor<?x2xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%a, %c2}
    flow.return
  }
  util.return %0 : tensor<?x?xf32>
}

util.func public @scale(%t: tensor<?xf32>, %d: index) -> tensor<?xf32> {
  %0 = flow.dispatch.workgroups[%d](%t, %d) : (tensor<?xf32>{%d}, index) -> tensor<?xf32>{%d} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %a: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
    %cst = arith.constant 2.0 : f32
    %w = iree_tensor_ext.dispatch.workload.ordinal %a, 0 : index
    %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [%w], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%w} -> tensor<?xf32>
    %e = tensor.empty(%w) : tensor<?xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%l : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.mulf %x, %cst : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    iree_tensor_ext.dispatch.tensor.store %m, %out, offsets = [0], sizes = [%w], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%w}
    flow.return
  } count(%x: index) -> (index, index, index) {
    %x1, %y1, %z1 = iree_tensor_ext.dispatch.workgroup_count_from_slice(%x)
    flow.return %x1, %y1, %z1 : index, index, index
  }
  util.return %0 : tensor<?xf32>
}
"""


@pytest.mark.parametrize("size", [0, 1, 5])
def test_lit_cases_keep_results(size: int):
    result = run_opt(
        [
            str(LIT),
            "--split-input-file",
            "-p",
            PASS,
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results") == 9


@pytest.mark.parametrize("rows", [0, 3])
def test_programs_run_the_same_before_and_after(tmp_path, rows: int):
    from mini_iree.compiler.interpreter import run

    source = tmp_path / "program.mlir"
    source.write_text(PROGRAM)
    result = run_opt([str(source), "-p", PASS])
    assert result.returncode == 0, result.stderr
    after = result.stdout
    # The column size is captured (a new operand), the tied sizes go through ordinals.
    assert after.count("flow.dispatch.tie_shape") == 4
    assert "workgroups[%c1](%arg0, %arg1, %arg2)" in after

    matrix = np.arange(rows * 2, dtype=np.float32).reshape(rows, 2)
    vector = np.arange(rows, dtype=np.float32)
    for program in (PROGRAM, after):
        (copied,) = run(program, "copy", matrix, rows, 2)
        np.testing.assert_array_equal(copied, matrix)
        (scaled,) = run(program, "scale", vector, rows)
        np.testing.assert_array_equal(scaled, vector * 2)


# A loop doubling a dynamic tensor, through a dispatch, on each iteration: the loop carries the
# tensor's size once the pass has run, and the dispatch inside captures it.
LOOP = """
util.func public @doubling(%t: tensor<?xf32>, %d: index, %ub: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tied = flow.tensor.tie_shape %t : tensor<?xf32>{%d}
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%x = %tied) -> (tensor<?xf32>) {
    %0 = flow.dispatch.workgroups[%c1](%x, %d) : (tensor<?xf32>{%d}, index) -> tensor<?xf32>{%d} =
        (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %n: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
      %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
      %e = tensor.empty(%n) : tensor<?xf32>
      %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%l : tensor<?xf32>) outs(%e : tensor<?xf32>) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %a : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      iree_tensor_ext.dispatch.tensor.store %m, %out, offsets = [0], sizes = [%n], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
      flow.return
    }
    scf.yield %0 : tensor<?xf32>
  }
  util.return %r : tensor<?xf32>
}
"""


@pytest.mark.parametrize("size,iterations", [(0, 2), (4, 0), (4, 3)])
def test_a_loop_runs_the_same_before_and_after(tmp_path, size: int, iterations: int):
    from mini_iree.compiler.interpreter import run

    source = tmp_path / "loop.mlir"
    source.write_text(LOOP)
    result = run_opt([str(source), "-p", PASS])
    assert result.returncode == 0, result.stderr
    after = result.stdout
    assert "scf.for" in after and after.count("flow.tensor.tie_shape") == 3  # before, in and after the loop
    vector = np.arange(size, dtype=np.float32) + 1
    for program in (LOOP, after):
        (doubled,) = run(program, "doubling", vector, size, iterations)
        np.testing.assert_array_equal(doubled, vector * 2**iterations)
