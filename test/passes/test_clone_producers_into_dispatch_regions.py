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

    monkeypatch.setattr(SSAValue, "uses", property(counting_uses))
    monkeypatch.setattr(Operation, "walk", counting_walk)
    CloneProducersIntoDispatchRegionsPass().apply(ctx, module)
    monkeypatch.undo()
    return walked


def test_cost_is_linear_in_the_number_of_dispatches(monkeypatch: pytest.MonkeyPatch):
    """Cloning a fill shared by every dispatch never walks all its uses (or the function) per dispatch."""
    small, large = _work(monkeypatch, 10), _work(monkeypatch, 80)
    # Linear: 8x the dispatches cost about 8x; walking the fill's uses once per
    # dispatch would add 80 * 80 uses against 10 * 10, over 10x in all.
    assert large <= 9 * small, (small, large)
