"""``inline``: calls are replaced by their callees' bodies and results are kept.

The IR the pass prints is pinned by inline.mlir; here the interpreter runs the
public functions before and after the pass on the same inputs, and the
data-tiling pipelines, which run the pass after wrapping entry points, print the
same bytes as without it for programs that make no calls.
"""

from __future__ import annotations

import pytest
from conftest import REPO, run_opt

from mini_iree.passes import get_all_pipelines

HELPER = REPO / "test" / "e2e" / "Inputs" / "call_private_helper.mlir"

CHAIN = """
func.func private @scale(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func private @scale_twice(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %0 = func.call @scale(%x, %two) : (tensor<?xf32>, f32) -> tensor<?xf32>
  %1 = func.call @scale(%0, %three) : (tensor<?xf32>, f32) -> tensor<?xf32>
  return %1, %0 : tensor<?xf32>, tensor<?xf32>
}
func.func @main(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0:2 = func.call @scale_twice(%x) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %0#1, %0#0 : tensor<?xf32>, tensor<?xf32>
}
"""


@pytest.mark.parametrize("options", ["", "{default-pipeline=}"])
def test_inlining_keeps_results(tmp_path, options: str):
    chain = tmp_path / "chain.mlir"
    chain.write_text(CHAIN)
    for path in (chain, HELPER):
        result = run_opt([str(path), "-p", f"inline{options}", "--verify-each-with-interpreter"])
        assert result.returncode == 0, result.stderr
        assert "pass 'inline' kept the results of 1 function" in result.stderr
        assert "call @" not in result.stdout and "private" not in result.stdout


def _without_inline(pipeline: str) -> str:
    passes = get_all_pipelines()[pipeline].expand().split(",")
    assert passes[passes.index("iree-abi-wrap-entry-points") + 1] == "inline{default-pipeline=}"
    return ",".join(p for p in passes if not p.startswith("inline"))


@pytest.mark.parametrize("program", sorted(p.name for p in (REPO / "examples").glob("*.mlir")))
def test_programs_without_calls_print_the_same(program: str):
    """`data-tiling-dispatch-creation` inlines right after wrapping entry points, changing nothing else."""
    path = REPO / "examples" / program
    with_inline = run_opt([str(path), "-p", "data-tiling-dispatch-creation"])
    without = run_opt([str(path), "-p", _without_inline("data-tiling-dispatch-creation")])
    assert with_inline.returncode == 0, with_inline.stderr
    assert with_inline.stdout == without.stdout


def test_call_is_gone_before_dispatch_creation():
    result = run_opt([str(HELPER), "-p", "data-tiling-dispatch-creation"])
    assert result.returncode == 0, result.stderr
    assert "call @" not in result.stdout and "@helper" not in result.stdout
    assert "flow.tensor.encode" in result.stdout


def test_bad_option_is_one_line():
    result = run_opt([str(HELPER), "-p", "inline{max-iterations=0}"])
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "<cmdline>:1:1: error: invalid options for pass 'inline': max-iterations must be at least 1, not 0"
    )
