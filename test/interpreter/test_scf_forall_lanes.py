"""`scf.forall` loop nests without shared outputs run as lanes of whole arrays.

The padding loops of iree-codegen-combine-layout-transformation (walkthrough dump 23)
are such nests: a workgroup `scf.forall`, a thread `scf.forall` whose bounds depend on
the workgroup's induction variables, `scf.for` loops whose bounds depend on the
thread's, and an `scf.if` around a `memref.store`. Each result is checked against
numpy, and against the same nest with a `memref.load` in it, which runs iteration
by iteration.
"""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import parse_module_text, run

UPPER = """
func.func @upper(%buf: memref<6x5xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  scf.forall (%i) = (0) to (6) step (1) {
    scf.for %j = %i to %c5 step %c1 {
      %in = arith.cmpi ult, %j, %c4 : index
      scf.if %in {
        memref.store %v, %buf[%i, %j] : memref<6x5xf32>
      }
    }
  }
  return
}
"""


def test_per_lane_loop_bounds_and_condition():
    buf = np.zeros((6, 5), np.float32)
    run(parse_module_text(UPPER), "upper", buf, np.float32(7))
    i, j = np.indices((6, 5))
    np.testing.assert_array_equal(buf, np.where((j >= i) & (j < 4), 7, 0).astype(np.float32))


# Two distribution levels as dump 23 prints them: tiles of 1 x 4 over "workgroups",
# then single "threads", then unit scf.for loops; stores `row * 100 + col`.
NEST = """
#min1 = affine_map<(d0)[s0] -> (d0 + 1, s0)>
#min4 = affine_map<(d0)[s0] -> (d0 + 4, s0)>
#min = affine_map<(d0, d1) -> (d0 + 1, d1)>
func.func @nest(%buf: memref<?x?xi32>, %r0: index, %rows: index, %cols: index) {
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.forall (%a0, %a1) = (%r0, 0) to (%rows, %cols) step (1, 4) {
    %u0 = affine.min #min1(%a0)[%rows]
    %u1 = affine.min #min4(%a1)[%cols]
    scf.forall (%b0, %b1) = (%a0, %a1) to (%u0, %u1) step (1, 1) {
      %v0 = affine.min #min(%b0, %u0)
      %v1 = affine.min #min(%b1, %u1)
      scf.for %i = %b0 to %v0 step %c1 {
        scf.for %j = %b1 to %v1 step %c1 {
          %x = arith.muli %i, %c100 : index
          %y = arith.addi %x, %j : index
          %z = arith.index_cast %y : index to i32
          memref.store %z, %buf[%i, %j] : memref<?x?xi32>
        }
      }
    } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
  } {mapping = [#iree_codegen.workgroup_mapping<x>, #iree_codegen.workgroup_mapping<y>]}
  return
}
"""


@pytest.mark.parametrize("r0,rows,cols", [(3, 7, 10), (0, 5, 4), (2, 2, 3), (1, 9, 1)])
def test_two_level_distribution(r0, rows, cols):
    buf = np.full((rows, cols), -1, np.int32)
    run(parse_module_text(NEST), "nest", buf, r0, rows, cols)
    i, j = np.indices((rows, cols))
    np.testing.assert_array_equal(buf, np.where(i >= r0, i * 100 + j, -1))


def test_nest_with_a_load_runs_iteration_by_iteration():
    """A load is not lane-safe (inactive lanes may read out of bounds): same results, scalar path."""
    text = NEST.replace(
        "memref.store %z, %buf[%i, %j] : memref<?x?xi32>",
        "%old = memref.load %buf[%i, %j] : memref<?x?xi32>\n          %w = arith.addi %old, %z : i32\n"
        "          memref.store %w, %buf[%i, %j] : memref<?x?xi32>",
    )
    buf = np.zeros((6, 9), np.int32)
    run(parse_module_text(text), "nest", buf, 1, 6, 9)
    i, j = np.indices((6, 9))
    np.testing.assert_array_equal(buf, np.where(i >= 1, i * 100 + j, 0))
