"""``SelectivePatternRewriteWalker`` rewrites exactly as xDSL's ``PatternRewriteWalker``.

The selective walker only leaves out of its worklist ops on which every pattern
declines, and it reads which those are off the patterns' own decorators. Each
case runs a pattern pass (or the data-tiling pipeline) twice on the same input,
once as it is and once with the walker populating its worklist with every op,
as the plain walker does, and the outputs (IR or diagnostics) must be the same.
The unit cases check the population itself: the ops the patterns' decorators
name, dead ops when the applier erases them, everything when a pattern may
rewrite any op or the applier folds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, run_opt
from xdsl.dialects import arith, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, UnitAttr
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from mini_iree.compiler.ir.selective_walker import (
    SelectivePatternRewriteWalker,
    matched_ops,
    op_predicate_rewrite_pattern,
)

PASS_INPUTS = {
    "iree-dispatch-creation-set-encoding": ["set_encoding.mlir"],
    "iree-dispatch-creation-set-encoding{encoding-option=padding}": ["set_encoding_padding.mlir"],
    "iree-dispatch-creation-set-encoding{encoding-option=matmulk}": ["set_encoding.mlir"],
    "iree-dispatch-creation-hoist-encoding-ops": ["hoist_encoding_ops.mlir"],
    "iree-dispatch-creation-propagate-encodings": ["propagate_encodings.mlir"],
    "iree-dispatch-creation-convert-encoding-to-flow": ["convert_encoding_to_flow.mlir"],
    "iree-dispatch-creation-remove-tensor-barriers": ["remove_tensor_barriers.mlir"],
    "data-tiling-dispatch-creation": ["set_encoding.mlir", "propagate_encodings.mlir"],
    # Passes whose walkers name no ops themselves either: what their patterns'
    # decorators say is all the walker goes by.
    "iree-codegen-materialize-device-encoding": ["materialize_device_encoding.mlir"],
    "iree-stream-encode-host-tensors": ["encode_host_tensors.mlir"],
    "iree-stream-encode-device-tensors": ["encode_device_tensors.mlir"],
    "iree-codegen-combine-layout-transformation": ["combine_layout_transformation.mlir"],
    "iree-stream-materialize-encodings": ["materialize_encodings.mlir"],
    "iree-stream-conversion": ["convert_to_stream.mlir"],
    "canonicalize": ["canonicalize.mlir"],
}
CASES = [(pipeline, name) for pipeline, names in PASS_INPUTS.items() for name in names]


def _populate_as_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sweep of every walker starts from every op, as xDSL's own walker."""
    monkeypatch.setattr(SelectivePatternRewriteWalker, "sweep_ops", lambda self, op: None)


def _run(path: Path, pipeline: str) -> tuple[int, str, str]:
    result = run_opt([str(path), "--split-input-file", "-p", pipeline])
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize(("pipeline", "name"), CASES)
def test_same_output_as_plain_walker(pipeline: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "test" / "passes" / name
    selective = _run(path, pipeline)
    _populate_as_xdsl(monkeypatch)
    plain = _run(path, pipeline)
    assert selective == plain
    assert selective[1] or selective[2]  # something was printed: the comparison meant something


def test_same_output_as_plain_walker_on_the_example(monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "examples" / "matmul.mlir"
    selective = _run(path, "data-tiling{target=gfx942}")
    _populate_as_xdsl(monkeypatch)
    assert selective == _run(path, "data-tiling{target=gfx942}")
    assert selective[0] == 0


# ---------------------------------------------------------------------------------------
# The worklist a sweep starts from
# ---------------------------------------------------------------------------------------


def _constants_region() -> tuple[Region, list[arith.ConstantOp], test.TestOp]:
    """Three index constants, the first two used by a test.op (the third dead)."""
    constants = [arith.ConstantOp(IntegerAttr(i, IndexType())) for i in range(3)]
    user = test.TestOp(operands=[constants[0].result, constants[1].result])
    region = Region(Block([*constants, user]))
    ModuleOp(region)
    return region, constants, user


class _Record(RewritePattern):
    """Declines every op, noting the order in which they were offered (any op may be offered)."""

    def __init__(self, seen: list[Operation] | None = None) -> None:
        self.seen: list[Operation] = [] if seen is None else seen

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.seen.append(op)


class _RecordConstants(_Record):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter) -> None:
        self.seen.append(op)


class _RecordTestOps(_Record):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: test.TestOp, rewriter: PatternRewriter) -> None:
        self.seen.append(op)


class _RecordEither(_Record):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp | test.TestOp, rewriter: PatternRewriter) -> None:
        self.seen.append(op)


class _RecordAnyOpTyped(_Record):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.seen.append(op)


class _RecordTagged(_Record):
    @op_predicate_rewrite_pattern(lambda op: "tag" in op.attributes)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.seen.append(op)


def _offered(*patterns: _Record, dce: bool = False) -> tuple[list[Operation], list[Operation], test.TestOp]:
    region, constants, user = _constants_region()
    seen: list[Operation] = []
    for pattern in patterns:
        pattern.seen = seen
    SelectivePatternRewriteWalker(GreedyRewritePatternApplier(list(patterns), dce_enabled=dce)).rewrite_region(region)
    return seen, constants, user


def test_a_typed_pattern_is_offered_its_ops_in_walk_order() -> None:
    seen, constants, user = _offered(_RecordConstants())
    assert seen == constants


def test_a_union_hint_offers_each_class() -> None:
    seen, constants, user = _offered(_RecordEither())
    assert seen == [*constants, user]


def test_the_walker_visits_the_union_over_its_patterns() -> None:
    seen, constants, user = _offered(_RecordTestOps(), _RecordConstants())
    # Each op offered to every pattern in turn; each pattern records its own ops.
    assert seen == [*constants, user]


def test_a_predicate_pattern_is_offered_the_ops_its_predicate_accepts() -> None:
    region, constants, user = _constants_region()
    constants[1].attributes["tag"] = UnitAttr()
    record = _RecordTagged()
    SelectivePatternRewriteWalker(GreedyRewritePatternApplier([record], dce_enabled=False)).rewrite_region(region)
    assert record.seen == [constants[1]]
    assert matched_ops(record)(constants[1]) and not matched_ops(record)(constants[0])


@pytest.mark.parametrize("anything", [_Record, _RecordAnyOpTyped])
def test_a_pattern_that_may_rewrite_any_op_makes_the_walker_visit_every_op(anything: type[_Record]) -> None:
    assert matched_ops(anything()) is None
    seen, constants, user = _offered(_RecordConstants(), anything())
    # The constants twice: once for each pattern.
    assert seen == [constants[0], constants[0], constants[1], constants[1], constants[2], constants[2], user]


def test_the_patterns_name_their_ops() -> None:
    test_for = matched_ops(GreedyRewritePatternApplier([_RecordConstants(), _RecordTagged()]))
    region, constants, user = _constants_region()
    assert test_for is not None
    assert all(test_for(c) for c in constants) and not test_for(user)
    user.attributes["tag"] = UnitAttr()
    assert test_for(user)


def test_dead_ops_are_offered_when_the_applier_erases_them() -> None:
    seen, constants, user = _offered(_RecordTestOps(), dce=True)
    # The dead constant was erased by the applier (and so never reached the pattern).
    assert constants[2].parent is None
    assert list(user.parent.ops) == [constants[0], constants[1], user]
    # Offered in both sweeps: the first changed the IR (the erasure), the second confirms.
    assert seen == [user, user]


def test_folding_applier_sees_every_op() -> None:
    from xdsl.context import Context

    region, constants, user = _constants_region()
    record = _RecordTestOps()
    walker = SelectivePatternRewriteWalker(
        GreedyRewritePatternApplier([record], ctx=Context(), folding_enabled=True, dce_enabled=False)
    )
    offered: list[Operation] = []
    original = walker.pattern

    class _Spy(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
            offered.append(op)
            original.match_and_rewrite(op, rewriter)

    walker.pattern = _Spy()
    walker.rewrite_region(region)
    assert offered == [*constants, user]


def test_no_pass_names_the_ops_of_its_walker() -> None:
    """The walker takes the ops from the patterns: a pass naming them could leave a pattern out."""
    offenders = [
        path.name for path in sorted((REPO / "passes").glob("*.py")) if "roots=" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []
