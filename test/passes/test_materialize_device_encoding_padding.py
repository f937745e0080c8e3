"""iree-codegen-materialize-device-encoding with padding layouts keeps what dispatch functions compute.

* every argument-less dispatch function of ``materialize_device_encoding_padding.mlir``
  runs with ``hal_ops.run_dispatch`` before and after the pass: before, an encoded
  binding holds the logical tensor; after, it holds the tensor padded by the
  pad-only layout of the layout algebra, with NaN in the pad, so a read of the pad
  would show. A padded output, with its pad dropped, must equal the logical output;
* a whole program (two chained matmuls handing over a `padding<[0, ?]>` tensor,
  compiled for gfx942 with the padding resolver up to this pass) through
  ``--verify-each-with-interpreter``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, run_opt

from mini_iree.compiler.interpreter import make_context, parse_module_text
from mini_iree.compiler.interpreter.core import numpy_dtype
from mini_iree.compiler.interpreter.hal_ops import run_dispatch
from mini_iree.compiler.layout.padding import padding_relayout
from mini_iree.compiler.resolvers import gpu
from mini_iree.dialects import hal
from mini_iree.passes.materialize_device_encoding import MaterializeDeviceEncodingPass

PASS = "iree-codegen-materialize-device-encoding"
LIT_FILE = Path(__file__).with_name("materialize_device_encoding_padding.mlir")
CHAIN = REPO / "test" / "e2e" / "Inputs" / "padding" / "matmul_chain_padded.mlir"


def _cases() -> list[str]:
    """The lit cases whose dispatch function takes no arguments (bindings and push constants only)."""
    return [c for c in LIT_FILE.read_text().split("// -----") if "hal.interface.binding.subspan" in c and "() {" in c]


def _case_name(case: str) -> str:
    return case.split("func.func @", 1)[1].split("(", 1)[0]


def _function(module):
    func_op = next(op for op in module.walk() if op.name == "func.func")
    return func_op, [op for op in func_op.walk() if isinstance(op, hal.InterfaceBindingSubspanOp)]


def _shape(subspan, rows: int) -> tuple[int, ...]:
    # Every dynamic dim of these cases is the one push constant.
    return tuple(rows if s < 0 else s for s in subspan.result.type.bound_type.get_shape())


@pytest.fixture
def gfx942_test_target():
    gpu.set_test_target("gfx942")
    yield
    gpu.set_test_target(None)


@pytest.mark.parametrize("rows", [1, 5, 64])
@pytest.mark.parametrize("case", _cases(), ids=_case_name)
def test_dispatch_function_keeps_results(case: str, rows: int, gfx942_test_target) -> None:
    rng = np.random.default_rng(rows)
    before = parse_module_text(case)
    after = parse_module_text(case)
    MaterializeDeviceEncodingPass(test_gpu_encoding_resolver="gpu_padding").apply(make_context(), after)
    func_op, subspans = _function(before)
    _, padded_subspans = _function(after)
    logical_in, padded_in, relayouts = [], [], []
    for subspan, padded in zip(subspans, padded_subspans):
        shape = _shape(subspan, rows)
        # The pad of each dim, read off the materialized binding.
        pads = [p - s for p, s in zip(_shape(padded, rows), shape)]
        relayout = padding_relayout(pads, shape)
        dtype = numpy_dtype(subspan.result.type.bound_type.get_element_type())
        if subspan.result.type.can_read():
            array = rng.integers(-3, 4, size=shape).astype(dtype)
        else:
            array = np.zeros(shape, dtype)
        logical_in.append(array)
        padded_in.append(relayout.pack(array, padding_value=np.nan))
        relayouts.append(relayout)
    assert any(r.steps for r in relayouts), "the case pads no binding"
    name = func_op.sym_name.data
    constants = [rows] if "hal.interface.constant.load" in case else []
    out_before = run_dispatch(before, name, logical_in, constants)
    out_after = run_dispatch(after, name, padded_in, constants)
    checked = 0
    for index, subspan in enumerate(subspans):
        if subspan.result.type.can_read():
            continue
        expected = out_before[index].view(logical_in[index].dtype).reshape(logical_in[index].shape)
        got = out_after[index].view(padded_in[index].dtype).reshape(padded_in[index].shape)
        np.testing.assert_array_equal(relayouts[index].unpack(got), expected)
        checked += 1
    assert checked == 1


def test_program_keeps_results(tmp_path: Path) -> None:
    """The chained matmuls, compiled for gfx942 with the padding resolver up to this pass."""
    stages = "data-tiling-stream{target=gfx942:encoding-layout-resolver=pad},iree-stream-annotate-dispatch-assumptions,"
    stages += "iree-stream-pack-dispatch-operands,iree-hal-materialize-interfaces"
    compiled = run_opt([str(CHAIN), "-p", stages])
    assert compiled.returncode == 0, compiled.stderr
    assert "padding<[0, 56]>" in compiled.stdout
    path = tmp_path / "before.mlir"
    path.write_text(compiled.stdout)
    for size in (1, 9):
        result = run_opt([str(path), "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])
        assert result.returncode == 0, result.stderr
        assert f"pass '{PASS}' kept the results of 1 function" in result.stderr
