"""iree-dispatch-creation-clone-producers-into-dispatch-regions: results kept, cost linear in the program."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-clone-producers-into-dispatch-regions"
FORM = "iree-dispatch-creation-form-dispatch-regions"
LIT_CASES = Path(__file__).parent / "clone_producers_into_dispatch_regions.mlir"


def _executable_cases() -> str:
    """The lit file's cases, less the one taking a !hal.buffer_view (the interpreter makes no such argument)."""
    cases = LIT_CASES.read_text().split("// -----")
    kept = [case for case in cases if "!hal.buffer_view" not in case]
    assert len(kept) == len(cases) - 1
    return "// -----".join(kept)


@pytest.mark.parametrize("options", ["", "{aggressive=true}"])
@pytest.mark.parametrize("size", [1, 3])
def test_lit_cases_keep_results(tmp_path: Path, options: str, size: int):
    source = tmp_path / "cases.mlir"
    source.write_text(_executable_cases())
    result = run_opt(
        [
            str(source),
            "-p",
            PASS + options,
            "--split-input-file",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("flow.dispatch.region") >= 10


def _many_matmuls(count: int) -> str:
    """One fill feeding ``count`` matmuls whose results are summed."""
    lines = [
        "func.func @many(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {",
        "  %cst = arith.constant 0.000000e+00 : f32",
        "  %e = tensor.empty() : tensor<4x4xf32>",
        "  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>",
    ]
    for i in range(count):
        lines.append(
            f"  %m{i} = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) "
            "outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>"
        )
    total = "%m0"
    for i in range(1, count):
        lines.append(f"  %s{i} = arith.addf {total}, %m{i} : tensor<4x4xf32>")
        total = f"%s{i}"
    lines += [f"  return {total} : tensor<4x4xf32>", "}"]
    return "\n".join(lines) + "\n"


def test_shared_fill_is_cloned_into_every_dispatch(tmp_path: Path):
    """One fill feeding many matmuls: each dispatch gets its own copy, and the original goes."""
    count = 12
    source = tmp_path / "many.mlir"
    source.write_text(_many_matmuls(count))
    result = run_opt(
        [str(source), "-p", f"{FORM},{PASS}", "--verify-each-with-interpreter", "--interpreter-dynamic-size=1"]
    )
    assert result.returncode == 0, result.stderr
    body = result.stdout
    assert body.count("flow.dispatch.region") == count
    assert body.count("linalg.fill") == count
    outside = [line for line in body.splitlines() if line.startswith("    %") and "linalg.fill" in line]
    assert not outside  # the original fill was erased


def _work(monkeypatch: pytest.MonkeyPatch, count: int) -> int:
    """How many uses and ops the pass walks on :func:`_many_matmuls` after form-dispatch-regions."""
    from xdsl.context import Context
    from xdsl.ir import Operation, SSAValue

    from mini_iree.compiler.ir.parsing import parse_mlir
    from mini_iree.dialects import get_all_dialects
    from mini_iree.passes.clone_producers_into_dispatch_regions import CloneProducersIntoDispatchRegionsPass
    from mini_iree.passes.form_dispatch_regions import FormDispatchRegionsPass

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    module = parse_mlir(ctx, _many_matmuls(count), "many.mlir")
    FormDispatchRegionsPass().apply(ctx, module)
    walked = 0
    original_uses, original_walk = SSAValue.uses, Operation.walk

    def counting_uses(self):
        nonlocal walked
        uses = list(original_uses.fget(self))
        walked += len(uses)
        return uses

    def counting_walk(self, **kwargs):
        nonlocal walked
        for op in original_walk(self, **kwargs):
            walked += 1
            yield op

    def counting(walk):
        def walk_and_count(*args, **kwargs):
            nonlocal walked
            ops = walk(*args, **kwargs)
            walked += len(ops)
            return ops

        return walk_and_count

    monkeypatch.setattr(SSAValue, "uses", property(counting_uses))
    monkeypatch.setattr(Operation, "walk", counting_walk)
    # The list walks the pass and its analysis use instead of `walk`.
    import mini_iree.compiler.analysis.clonable_into_dispatch as analysis
    import mini_iree.passes.clone_producers_into_dispatch_regions as clone_pass

    for walker in (analysis, clone_pass):
        for name in ("nested_ops", "nested_ops_post_order"):
            if hasattr(walker, name):
                monkeypatch.setattr(walker, name, counting(getattr(walker, name)))
    CloneProducersIntoDispatchRegionsPass().apply(ctx, module)
    monkeypatch.undo()
    return walked


def test_cost_is_linear_in_the_number_of_dispatches(monkeypatch: pytest.MonkeyPatch):
    """Cloning a fill shared by every dispatch never walks all its uses (or the function) per dispatch."""
    small, large = _work(monkeypatch, 10), _work(monkeypatch, 80)
    # Linear: 8x the dispatches cost about 8x; walking the fill's uses once per
    # dispatch would add 80 * 80 uses against 10 * 10, over 10x in all.
    assert large <= 9 * small, (small, large)


@pytest.mark.parametrize("aggressive", [False, True])
def test_one_cloning_round_is_enough(aggressive: bool):
    """After the pass, cloning into any region again (as a second round, or IREE's second
    walk over every region) changes nothing: one round per region gets every producer."""
    from xdsl.context import Context

    from mini_iree.compiler.analysis.clonable_into_dispatch import clone_producers_to_region, mask_or_indices_producers
    from mini_iree.compiler.ir.parsing import parse_mlir
    from mini_iree.compiler.ir.printer import print_module_to_string
    from mini_iree.dialects import flow, get_all_dialects
    from mini_iree.passes.clone_producers_into_dispatch_regions import CloneProducersIntoDispatchRegionsPass
    from mini_iree.passes.form_dispatch_regions import FormDispatchRegionsPass

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    sources = [*LIT_CASES.read_text().split("// -----"), _many_matmuls(3)]
    sources += (Path(__file__).parent / "form_dispatch_regions.mlir").read_text().split("// -----")
    regions_seen = 0
    for index, source in enumerate(sources):
        module = parse_mlir(ctx, source, f"case{index}.mlir")
        if "flow.dispatch.region" not in source:
            FormDispatchRegionsPass(aggressive_fusion=aggressive).apply(ctx, module)
        CloneProducersIntoDispatchRegionsPass(aggressive=aggressive).apply(ctx, module)
        before = print_module_to_string(module)
        mask_or_indices = mask_or_indices_producers(module) if aggressive else set()
        for region in [op for op in module.walk() if isinstance(op, flow.DispatchRegionOp)]:
            clone_producers_to_region(region, aggressive, mask_or_indices)
            regions_seen += 1
        assert print_module_to_string(module) == before, f"case {index}"
    assert regions_seen >= 20


def test_flat_clone_is_xdsl_clone():
    """Producers without regions are cloned in one step; the clone is the one xDSL's ``clone`` makes."""
    from xdsl.context import Context
    from xdsl.dialects.test import TestOp

    from mini_iree.compiler.analysis.clonable_into_dispatch import _clone_flat, _is_flat
    from mini_iree.compiler.ir.parsing import parse_mlir
    from mini_iree.compiler.ir.printer import print_module_to_string
    from mini_iree.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    compared = 0
    for index, source in enumerate(LIT_CASES.read_text().split("// -----")):
        module = parse_mlir(ctx, source, f"case{index}.mlir")
        for op in [op for op in module.walk() if _is_flat(op)]:
            # Map every operand to a stand-in, as the pass maps producers to their clones.
            stand_ins = {v: TestOp(result_types=[v.type]).results[0] for v in op.operands}
            ours_map, theirs_map = dict(stand_ins), dict(stand_ins)
            ours, theirs = _clone_flat(op, ours_map), op.clone(value_mapper=theirs_map)
            assert type(ours) is type(theirs)
            assert ours.operands == theirs.operands and ours.result_types == theirs.result_types
            assert ours.attributes == theirs.attributes and ours.properties == theirs.properties
            assert ours.location == theirs.location
            assert [r.name_hint for r in ours.results] == [r.name_hint for r in theirs.results]
            assert [ours_map[r] for r in op.results] == list(ours.results)
            assert [theirs_map[r] for r in op.results] == list(theirs.results)
            assert print_module_to_string(ours, generic=True) == print_module_to_string(theirs, generic=True)
            compared += 1
    assert compared >= 50
