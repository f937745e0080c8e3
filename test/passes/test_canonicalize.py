"""canonicalize: results kept, and the same rewrites and erasures as xDSL's canonicalize.

The pass drives xDSL's canonicalization patterns and folders itself (remembering
per op class what only depends on the class) and runs its own copy of xDSL's
``region_dce``; both must do exactly what xDSL's ``CanonicalizePass`` does, in
the same order, before constants are placed as MLIR places them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.transforms.canonicalize import CanonicalizePass as XDSLCanonicalizePass
from xdsl.transforms.dead_code_elimination import region_dce as xdsl_region_dce

from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.ir.printer import print_module_to_string
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
from mini_iree.compiler.ir.constants import hoist_and_unique_constants
from mini_iree.passes.canonicalize import CanonicalizePass, region_dce

REPO = Path(__file__).resolve().parents[2]

# Dead code of every kind region_dce meets: unused pure ops and chains of them,
# an unreachable block, a dead op with a region, ops only dead ops use, and
# ops with effects that must stay.
DEAD_CODE = """\
func.func @dead(%c: i1, %x: f32, %m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %unused = arith.addf %x, %x : f32
  %chain = arith.mulf %unused, %x : f32
  %if = scf.if %c -> (f32) {
    %in = arith.subf %x, %x : f32
    scf.yield %in : f32
  } else {
    scf.yield %x : f32
  }
  memref.store %x, %m[%c0] : memref<4xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %live = arith.divf %x, %x : f32
  cf.br ^bb2
^bb2:
  return %x : f32
^bb3:
  %unreachable = arith.negf %x : f32
  cf.br ^bb2
}
"""

FOLDS = """\
func.func @folds(%x: index) -> index {
  %a = arith.constant 3 : index
  %b = arith.constant 4 : index
  %s = arith.addi %a, %b : index
  %t = arith.muli %x, %s : index
  %z = arith.constant 0 : index
  %u = arith.addi %t, %z : index
  return %u : index
}
"""


@pytest.fixture(scope="module")
def ctx():
    return MiniIREEOptMain([]).ctx


def _inputs(ctx):
    """Programs to compare on: the cases above, the lit cases, and data-tiling stages."""
    yield parse_mlir(ctx, DEAD_CODE, "dead.mlir")
    yield parse_mlir(ctx, FOLDS, "folds.mlir")
    cases = (REPO / "test" / "passes" / "canonicalize.mlir").read_text().split("// -----")
    for index, case in enumerate(cases):
        yield parse_mlir(ctx, case, f"canonicalize-{index}.mlir")
    for name in ("clone_producers_into_dispatch_regions", "hoist_into_globals", "convert_encoding_to_flow"):
        for index, case in enumerate((REPO / "test" / "passes" / f"{name}.mlir").read_text().split("// -----")):
            if case.strip() and "expected-error" not in case:
                yield parse_mlir(ctx, case, f"{name}-{index}.mlir")


def _removals(collected: list[str]) -> PatternRewriterListener:
    return PatternRewriterListener(operation_removal_handler=[lambda op: collected.append(op.name)])


def test_region_dce_matches_xdsl(ctx):
    for module in _inputs(ctx):
        ours, theirs = module.clone(), module.clone()
        ours_removed: list[str] = []
        theirs_removed: list[str] = []
        changed = region_dce(ours.body, _removals(ours_removed))
        assert changed is xdsl_region_dce(theirs.body, _removals(theirs_removed))
        assert ours_removed == theirs_removed
        assert print_module_to_string(ours) == print_module_to_string(theirs)


def test_region_dce_erases_what_nothing_live_needs(ctx):
    module = parse_mlir(ctx, DEAD_CODE, "dead.mlir")
    assert region_dce(module.body)
    text = print_module_to_string(module)
    for gone in ("%unused", "%chain", "scf.if", "%unreachable", "arith.divf"):
        assert gone not in text
    assert "memref.store" in text  # an effect stays
    assert not region_dce(module.body)  # nothing left to erase


def test_same_as_xdsl_canonicalize_then_constant_placement(ctx):
    for module in _inputs(ctx):
        ours, theirs = module.clone(), module.clone()
        CanonicalizePass().apply(ctx, ours)
        XDSLCanonicalizePass().apply(ctx, theirs)
        hoist_and_unique_constants(theirs)
        assert print_module_to_string(ours) == print_module_to_string(theirs)


def test_folding_keeps_results(tmp_path: Path):
    source = tmp_path / "folds.mlir"
    source.write_text(FOLDS)
    result = run_opt([str(source), "-p", "canonicalize", "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    # 3 + 4 folded, x * 7 + 0 simplified.
    assert "arith.constant 7 : index" in result.stdout
    assert "arith.addi" not in result.stdout


def test_walkthrough_matmul_keeps_results():
    """The data-tiling pipeline canonicalizes after convert-encoding-to-flow; results are checked after it."""
    example = REPO / "examples" / "matmul.mlir"
    result = run_opt(
        [str(example), "-p", "data-tiling-dispatch-creation", "--verify-each-with-interpreter", "--interpreter-dynamic-size=3"]
    )
    assert result.returncode == 0, result.stderr


def test_identity_generics_erased_keep_results(tmp_path: Path):
    """The identity-generic case of canonicalize.mlir computes the same after its generics are erased."""
    case = next(c for c in (REPO / "test/passes/canonicalize.mlir").read_text().split("// -----") if "@identity_generic" in c)
    source = tmp_path / "identity.mlir"
    source.write_text(case)
    result = run_opt([str(source), "-p", "canonicalize", "--verify-each-with-interpreter", "--interpreter-dynamic-size=8"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("linalg.generic") == 1 and "tensor.cast" in result.stdout
