"""Every op a pass creates has a location: the op it replaces, serves, or was made from.

The pipeline runs pass by pass; before each pass every op and block argument
without a location is given one (``loc("before-<pass>":0:0)``), so an op
that ends the pass at ``loc(unknown)`` is one the pass built without saying
where it came from.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from conftest import REPO
from xdsl.dialects.builtin import (
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    UnknownLoc,
    i32,
)
from xdsl.dialects import arith, test
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mini_iree.compiler.ir.locations import file_locations, fused_location, give_location
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain



def _loc(file: str, line: int = 1, col: int = 1) -> FileLineColLoc:
    return FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))


def test_fused_location_flattens_drops_unknown_and_repeats():
    a, b, c = _loc("a"), _loc("b"), _loc("c")
    assert fused_location() == UnknownLoc()
    assert fused_location(UnknownLoc(), a, a) == a
    inner = fused_location(a, b)
    assert isinstance(inner, FusedLoc)
    outer = fused_location(inner, UnknownLoc(), c, b)
    assert isinstance(outer, FusedLoc)
    assert list(outer.locations.data) == [a, b, c]


def test_give_location_keeps_explicit_locations():
    known, unknown = arith.ConstantOp.from_int_and_width(1, 32), arith.ConstantOp.from_int_and_width(2, 32)
    known.location = _loc("known")
    give_location([known, unknown], _loc("given"))
    assert known.location == _loc("known")
    assert unknown.location == _loc("given")


class _ReplaceConstantWithTwo(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: test.TestOp, rewriter: PatternRewriter) -> None:
        first = arith.ConstantOp.from_int_and_width(1, 32)
        second = arith.ConstantOp.from_int_and_width(2, 32)
        second.location = _loc("chosen")
        rewriter.replace(op, [first, second], [second.result])


def test_pattern_rewrites_give_new_ops_the_location_of_the_op_they_replace():
    op = test.TestOp(result_types=[i32])
    op.location = _loc("x.mlir", 3, 5)
    module = ModuleOp([op])
    SelectivePatternRewriteWalker(_ReplaceConstantWithTwo()).rewrite_module(module)
    first, second = list(module.ops)
    assert first.location == _loc("x.mlir", 3, 5)
    assert second.location == _loc("chosen")  # a pattern that sets a location keeps it


def _unknown_after_each_pass(path, pipeline: str) -> dict[str, Counter]:
    main = MiniIREEOptMain([str(path), "-p", pipeline])
    module = parse_mlir(main.ctx, path.read_bytes(), str(path), 0)
    found: dict[str, Counter] = {}
    for pass_ in main.passes:
        give_location(module, _loc(f"before-{pass_.name}", 0, 0))
        pass_.apply(main.ctx, module)
        missing: Counter = Counter()
        for op in module.walk():
            if isinstance(op.location, UnknownLoc):
                missing[op.name] += 1
            for region in op.regions:
                for block in region.blocks:
                    missing["block argument"] += sum(isinstance(a.location, UnknownLoc) for a in block.args)
        missing = +missing
        if missing:
            found.setdefault(pass_.name, Counter()).update(missing)
    return found


_MATMUL_K = (
    "iree-abi-wrap-entry-points,iree-dispatch-creation-form-dispatch-regions,"
    "iree-dispatch-creation-clone-producers-into-dispatch-regions,"
    "iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding{encoding-option=matmulk},"
    "iree-dispatch-creation-hoist-encoding-ops,iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass,"
    "iree-dispatch-creation-convert-encoding-to-flow,canonicalize,iree-util-hoist-into-globals,"
    "data-tiling-stream{target=x86_64:+avx512f},data-tiling-codegen"
)

PROGRAMS = [
    ("examples/matmul.mlir", "data-tiling{target=gfx942}"),
    ("examples/matmul.mlir", "data-tiling{target=x86_64:+avx,+avx2,+fma}"),
    ("examples/matmul.mlir", _MATMUL_K),
    ("examples/const_weight.mlir", "data-tiling{target=x86_64:+avx512f}"),
    ("examples/elementwise_producer_consumer.mlir", "data-tiling{target=aarch64:+neon,+i8mm}"),
    ("examples/two_devices.mlir", "data-tiling{target=vmvx,x86_64:+avx512f}"),
    ("test/e2e/Inputs/two_matmuls_bias_relu.mlir", "data-tiling{target=vmvx}"),
    ("test/e2e/Inputs/two_matmuls_bias_relu.mlir", "iree-dispatch-creation-pipeline{aggressive-fusion data-tiling}"),
    ("test/e2e/Inputs/batch_matmul.mlir", "iree-dispatch-creation-pipeline"),
    (
        "test/e2e/Inputs/padding/matmul_chain_padded.mlir",
        "data-tiling-stream{target=gfx942:encoding-layout-resolver=pad},data-tiling-codegen",
    ),
    # Passes no pipeline runs: the sizes set-encoding reifies for encoding_dims and pads, the
    # index arithmetic combine-source-layout-transformation gives its map_loads.
    (
        "examples/matmul.mlir",
        "iree-dispatch-creation-form-dispatch-regions,iree-dispatch-creation-annotate-data-tiling-hints,"
        "iree-dispatch-creation-set-encoding{encoding-dims=true}",
    ),
    (
        "test/passes/combine_source_layout_transformation.mlir",
        "iree-codegen-combine-source-layout-transformation{test-combine-non-complex-chains=true}",
    ),
]


@pytest.mark.parametrize(("program", "pipeline"), PROGRAMS)
def test_passes_give_every_new_op_a_location(program, pipeline):
    found = _unknown_after_each_pass(REPO / program, pipeline)
    assert not found, f"ops created without a location: { {name: dict(ops) for name, ops in found.items()} }"


def _names_input(location, path: str) -> bool:
    """``location`` is, or contains, a ``file:line:col`` of ``path``."""
    return any(found.filename.data == path for found in file_locations(location))


@pytest.mark.parametrize(("program", "pipeline"), PROGRAMS)
def test_every_op_of_the_output_comes_from_the_input(program, pipeline):
    path = REPO / program
    main = MiniIREEOptMain([str(path), "-p", pipeline])
    module = parse_mlir(main.ctx, path.read_bytes(), str(path), 0)
    for pass_ in main.passes:
        pass_.apply(main.ctx, module)
    strays = Counter(op.name for op in module.walk() if not _names_input(op.location, str(path)))
    assert not strays, f"ops whose location is not in {program}: {dict(strays)}"


# Every program of examples/ and test/e2e/Inputs on every kind of target, in both eras
# (the era options of the passes that have one set to "3.13"): every op of the output
# names a line of the input. A pipeline that refuses the program (matvec on gfx942, a
# program whose own devices differ from the target) is not a location problem.
_ALL_PROGRAMS = sorted(
    str(p.relative_to(REPO))
    for p in [*REPO.glob("examples/*.mlir"), *REPO.glob("test/e2e/Inputs/*.mlir"), *REPO.glob("test/e2e/Inputs/padding/*.mlir")]
)  # fmt: skip
_TARGETS = ["gfx942", "x86_64:+avx,+avx2,+fma", "x86_64:+avx512f", "aarch64:+neon,+i8mm", "vmvx", "vmvx,x86_64:+avx512f"]


@pytest.mark.parametrize("program", _ALL_PROGRAMS)
@pytest.mark.parametrize("era", ["walkthrough", "3.13"])
def test_every_program_on_every_target_keeps_its_locations(program, era):
    from mini_iree.compiler.ir.diagnostics import DiagnosticError, OpError

    path = REPO / program
    compiled = 0
    # The eras differ in the GPU heuristics and in host size arithmetic: a GPU, a CPU and two devices show both.
    for target in _TARGETS if era == "walkthrough" else ["gfx942", "x86_64:+avx512f", "vmvx,x86_64:+avx512f"]:
        main = MiniIREEOptMain([str(path), "-p", f"data-tiling{{target={target}}}"])
        main.passes = [
            dataclasses.replace(pass_, **{o: era for o in ("era", "gpu_era") if hasattr(pass_, o)}) for pass_ in main.passes
        ]
        module = parse_mlir(main.ctx, path.read_bytes(), str(path), 0)
        try:
            for pass_ in main.passes:
                pass_.apply(main.ctx, module)
        except (OpError, DiagnosticError):
            continue
        compiled += 1
        strays = Counter(op.name for op in module.walk() if not _names_input(op.location, str(path)))
        assert not strays, f"{target}: ops whose location is not in {program}: {dict(strays)}"
    assert compiled, f"{program} compiled for no target"
