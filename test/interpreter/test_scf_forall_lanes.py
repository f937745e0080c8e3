"""`scf.forall` loop nests without shared outputs run as lanes of whole arrays.

The padding loops of iree-codegen-combine-layout-transformation (walkthrough dump 23)
are such nests: a workgroup `scf.forall`, a thread `scf.forall` whose bounds depend on
the workgroup's induction variables, `scf.for` loops whose bounds depend on the
thread's, and an `scf.if` around a `memref.store`. Each result is checked against
numpy, and against the same nest with a `memref.load` in it, which runs iteration
by iteration. Tiled nests whose loops cover every point once run as one body over
all points (`scf_ops._run_tiles_as_points`); they are checked against the lanes,
and nests that are no such cover against numpy.
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


# A tiled padding loop as combine-layout-transformation emits it: tiles of {T0} x {T1}
# whose scf.for loops end at `min(start + {E0}, bound)`. With E = T the loops cover
# every point once and the nest runs as one body over all points
# (`scf_ops._run_tiles_as_points`); with E != T (a nest that is no such cover) it
# must run as lanes. Stores `row * 100 + col` (or, if {USE_IV}, the tile's first row).
TILED = """
#min0 = affine_map<(d0)[s0] -> (d0 + {E0}, s0)>
#min1 = affine_map<(d0)[s0] -> (d0 + {E1}, s0)>
func.func @tiled(%buf: memref<?x?xi32>, %r0: index, %rows: index, %cols: index) {{
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.forall (%a0, %a1) = (%r0, 0) to (%rows, %cols) step ({T0}, {T1}) {{
    %u0 = affine.min #min0(%a0)[%rows]
    %u1 = affine.min #min1(%a1)[%cols]
    scf.for %i = %a0 to %u0 step %c1 {{
      scf.for %j = %a1 to %u1 step %c1 {{
        %row = {ROW}
        %x = arith.muli %row, %c100 : index
        %y = arith.addi %x, %j : index
        %z = arith.index_cast %y : index to i32
        memref.store %z, %buf[%i, %j] : memref<?x?xi32>
      }}
    }}
  }} {{mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}}
  return
}}
"""


def _tiled(t0, t1, e0, e1, use_iv=False) -> str:
    row = "arith.addi %a0, %c1 : index" if use_iv else "arith.addi %i, %c1 : index"
    return TILED.format(T0=t0, T1=t1, E0=e0, E1=e1, ROW=row)


def _run_tiled(text: str, r0: int, rows: int, cols: int) -> np.ndarray:
    buf = np.full((rows, cols), -1, np.int32)
    run(parse_module_text(text), "tiled", buf, r0, rows, cols)
    return buf


@pytest.mark.parametrize("t0,t1", [(1, 64), (2, 3), (4, 4)])
@pytest.mark.parametrize("r0,rows,cols", [(255, 256, 1023), (0, 7, 10), (3, 3, 5), (1, 9, 1)])
def test_tiled_padding_loop_runs_as_points_with_the_lanes_results(monkeypatch, t0, t1, r0, rows, cols):
    from mini_iree.compiler.interpreter import scf_ops

    taken = []
    real = scf_ops._run_tiles_as_points
    monkeypatch.setattr(scf_ops, "_run_tiles_as_points", lambda *args: taken.append(real(*args)) or taken[-1])
    text = _tiled(t0, t1, t0, t1)
    got = _run_tiled(text, r0, rows, cols)
    i, j = np.indices((rows, cols))
    np.testing.assert_array_equal(got, np.where(i >= r0, (i + 1) * 100 + j, -1))
    assert taken == ([True] if r0 < rows else [])
    monkeypatch.setattr(scf_ops, "_run_tiles_as_points", lambda *args: False)
    np.testing.assert_array_equal(_run_tiled(text, r0, rows, cols), got)


@pytest.mark.parametrize(
    "t0,t1,e0,e1,use_iv",
    [
        (2, 4, 1, 4, False),  # loops stop short of the tile's end: points are skipped
        (2, 4, 2, 8, False),  # loops run past it: points are stored twice
        (2, 4, 2, 4, True),  # the body reads the tile's start itself
    ],
)
def test_nests_that_are_not_a_cover_run_as_lanes(monkeypatch, t0, t1, e0, e1, use_iv):
    from mini_iree.compiler.interpreter import scf_ops

    taken = []
    real = scf_ops._run_tiles_as_points
    monkeypatch.setattr(scf_ops, "_run_tiles_as_points", lambda *args: taken.append(real(*args)) or taken[-1])
    text = _tiled(t0, t1, e0, e1, use_iv)
    got = _run_tiled(text, 1, 7, 10)
    assert taken == [False]
    i, j = np.indices((7, 10))
    first = 1 + (i - 1) // t0 * t0  # the row each tile starts at
    covered = (i >= 1) & ((i - first) < e0)
    want = np.where(covered, ((first if use_iv else i) + 1) * 100 + j, -1)
    np.testing.assert_array_equal(got, want)


# A tiled nest whose body has a loop of its own (scalar bounds, then per-point bounds).
TILED_INNER_LOOP = """
#min0 = affine_map<(d0)[s0] -> (d0 + 2, s0)>
#min1 = affine_map<(d0)[s0] -> (d0 + 3, s0)>
func.func @tiled_inner(%buf: memref<?x?x3xi32>, %rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c100 = arith.constant 100 : index
  scf.forall (%a0, %a1) = (0, 0) to (%rows, %cols) step (2, 3) {
    %u0 = affine.min #min0(%a0)[%rows]
    %u1 = affine.min #min1(%a1)[%cols]
    scf.for %i = %a0 to %u0 step %c1 {
      scf.for %j = %a1 to %u1 step %c1 {
        scf.forall (%k) = (0) to (3) step (1) {
          %x = arith.muli %i, %c100 : index
          %y = arith.addi %x, %j : index
          %z = arith.muli %y, %c3 : index
          %w = arith.addi %z, %k : index
          %v = arith.index_cast %w : index to i32
          memref.store %v, %buf[%i, %j, %k] : memref<?x?x3xi32>
        }
        %jk = arith.remui %j, %c3 : index
        scf.for %k = %c0 to %jk step %c1 {
          %m = arith.constant -7 : i32
          memref.store %m, %buf[%i, %j, %k] : memref<?x?x3xi32>
        }
      }
    }
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return
}
"""


@pytest.mark.parametrize("rows,cols", [(5, 7), (2, 3), (1, 1)])
def test_tiled_nest_with_loops_in_its_body(monkeypatch, rows, cols):
    from mini_iree.compiler.interpreter import scf_ops

    def results() -> np.ndarray:
        buf = np.full((rows, cols, 3), -1, np.int32)
        run(parse_module_text(TILED_INNER_LOOP), "tiled_inner", buf, rows, cols)
        return buf

    got = results()
    i, j, k = np.indices((rows, cols, 3))
    np.testing.assert_array_equal(got, np.where(k < j % 3, -7, (i * 100 + j) * 3 + k))
    monkeypatch.setattr(scf_ops, "_run_tiles_as_points", lambda *args: False)
    np.testing.assert_array_equal(results(), got)


def test_a_lane_storing_out_of_bounds_is_reported_at_the_store():
    from mini_iree.compiler.interpreter import InterpreterError

    # Tiles over 0..7 rows into a 6-row buffer: rows 6 and 7 are out of bounds.
    text = _tiled(2, 4, 2, 4)
    with pytest.raises(InterpreterError, match=r"memref.store' op index 7 is out of bounds in dimension 0 of size 6"):
        buf = np.zeros((6, 10), np.int32)
        run(parse_module_text(text), "tiled", buf, 0, 8, 10)


# Per-lane values broadcast against per-lane indices: column j of every row gets j.
BROADCAST_VALUE = """
#min0 = affine_map<(d0)[s0] -> (d0 + 2, s0)>
#min1 = affine_map<(d0)[s0] -> (d0 + 3, s0)>
func.func @columns(%buf: memref<?x?xi32>, %rows: index, %cols: index) {
  %c1 = arith.constant 1 : index
  scf.forall (%a0, %a1) = (0, 0) to (%rows, %cols) step (2, 3) {
    %u0 = affine.min #min0(%a0)[%rows]
    %u1 = affine.min #min1(%a1)[%cols]
    scf.for %i = %a0 to %u0 step %c1 {
      scf.for %j = %a1 to %u1 step %c1 {
        %v = arith.index_cast %j : index to i32
        memref.store %v, %buf[%i, %j] : memref<?x?xi32>
      }
    }
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return
}
"""


@pytest.mark.parametrize("contiguous", [True, False])
def test_tile_loops_store_per_lane_values_into_any_buffer(contiguous):
    rows, cols = 5, 7
    buf = np.full((rows, cols), -1, np.int32) if contiguous else np.full((cols, rows), -1, np.int32).T
    run(parse_module_text(BROADCAST_VALUE), "columns", buf, rows, cols)
    np.testing.assert_array_equal(buf, np.broadcast_to(np.arange(cols, dtype=np.int32), (rows, cols)))
