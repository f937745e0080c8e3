"""The list walks and class-level answers of ``compiler.ir.queries`` agree with xDSL's.

``nested_ops`` / ``nested_ops_post_order`` stand in for ``Operation.walk`` in
loops over a whole module, and ``op_has_trait`` / ``instance_test`` /
``side_effect_free`` for ``has_trait`` / ``isinstance`` / ``is_side_effect_free``:
each must give xDSL's answer on every op, in xDSL's order.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation
from xdsl.traits import (
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    SymbolOpInterface,
    get_effects,
    is_side_effect_free,
)

from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.ir.queries import (
    effect_free_by_class,
    instance_test,
    nested_ops,
    nested_ops_post_order,
    op_has_trait,
    side_effect_free,
)
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
from mini_iree.dialects import flow, linalg, tensor

REPO = Path(__file__).resolve().parents[2]

# Several blocks per region, empty regions, ops nested three deep, an
# unregistered op: the shapes a walk must get right.
SHAPES = """\
func.func @branches(%c: i1, %x: f32) -> f32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = arith.addf %x, %x : f32
  cf.br ^bb3(%a : f32)
^bb2:
  %b = scf.if %c -> (f32) {
    %m = arith.mulf %x, %x : f32
    scf.yield %m : f32
  } else {
    scf.yield %x : f32
  }
  cf.br ^bb3(%b : f32)
^bb3(%r: f32):
  "test.op"() ({
    "test.op"() ({
    ^bb0:
      "test.op"() : () -> ()
    }, {
    }) : () -> ()
  }) : () -> ()
  %u = "iree_unregistered.const_expr"() : () -> f32
  return %r : f32
}
func.func private @declaration(f32) -> f32
"""


@pytest.fixture(scope="module")
def ctx():
    main = MiniIREEOptMain([])
    main.ctx.allow_unregistered = True
    return main.ctx


def _modules(ctx):
    """The shapes above, the example, and every lit case of a few pass tests."""
    yield parse_mlir(ctx, SHAPES, "shapes.mlir")
    yield parse_mlir(ctx, (REPO / "examples" / "matmul.mlir").read_text(), "matmul.mlir")
    for name in ("form_dispatch_regions", "clone_producers_into_dispatch_regions", "hoist_into_globals", "canonicalize"):
        text = (REPO / "test" / "passes" / f"{name}.mlir").read_text()
        for index, case in enumerate(text.split("// -----")):
            if case.strip() and "expected-error" not in case:
                yield parse_mlir(ctx, case, f"{name}-{index}.mlir")


def test_walks_match_xdsl_walk(ctx):
    for module in _modules(ctx):
        for op in [module, *module.walk()]:
            assert nested_ops(op) == list(op.walk())
            for reverse in (False, True):
                assert nested_ops_post_order(op, reverse) == list(op.walk(region_first=True, reverse=reverse))


def test_walks_are_snapshots(ctx):
    module = parse_mlir(ctx, SHAPES, "shapes.mlir")
    ops = nested_ops(module)
    dead = next(op for op in ops if isinstance(op, UnregisteredOp))
    dead.detach()
    dead.erase()
    assert dead in ops and dead not in nested_ops(module)


@pytest.mark.parametrize(
    "trait", [ConstantLike, IsTerminator, IsolatedFromAbove, SymbolOpInterface, HasCanonicalizationPatternsTrait, Pure]
)
def test_op_has_trait_matches_has_trait(ctx, trait):
    for module in _modules(ctx):
        for op in module.walk():
            for default in (True, False):
                assert op_has_trait(op, trait, default) is op.has_trait(trait, value_if_unregistered=default)


def test_unregistered_ops_answer_the_default(ctx):
    module = parse_mlir(ctx, SHAPES, "shapes.mlir")
    unregistered = next(op for op in module.walk() if isinstance(op, UnregisteredOp))
    assert op_has_trait(unregistered, ConstantLike, True) and not op_has_trait(unregistered, ConstantLike, False)


def test_instance_test_matches_isinstance(ctx):
    classes = [
        (LinalgStructuredOperation,),
        (linalg.GenericOp,),
        (flow.DispatchRegionOp, tensor.EmptyOp),
        (UnregisteredOp,),
        (Operation,),
    ]
    tests = [(instance_test(*c), c) for c in classes]
    for module in _modules(ctx):
        for op in module.walk():
            for test, c in tests:
                # Twice: the second answer comes from the remembered class.
                assert test(op) is isinstance(op, c) and test(op) is isinstance(op, c)
            for value in op.results:
                assert instance_test(Operation)(value) is False


def test_side_effect_free_matches_xdsl(ctx):
    seen_op_dependent = False
    for module in _modules(ctx):
        for op in module.walk():
            assert side_effect_free(op) is is_side_effect_free(op), op.name
            by_class = effect_free_by_class(op)
            if by_class is True:
                assert get_effects(op) == set()
            elif by_class is False:
                assert get_effects(op) is None
            else:
                seen_op_dependent = True
    # scf.if / linalg bodies: effects that depend on the op were asked about too.
    assert seen_op_dependent
