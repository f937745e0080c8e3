"""Dispatch assumptions, packed operands and HAL interfaces keep every program's results.

The three passes take a stream program (walkthrough dump 17, or hand-written
ones) to the form walkthrough dumps 18/19 start from: ``hal.executable``
variants whose argument-less functions read push constants and bindings. The
interpreter runs the host program into those functions through a dispatch
context, so results are compared before and after each pass
(``--verify-each-with-interpreter``) and against numpy.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mini_iree.compiler.interpreter import InterpreterError, parse_module_text, run
from mini_iree.compiler.interpreter.hal_ops import run_dispatch, split_index
from conftest import require_reference, run_opt

PIPELINE = ",".join(
    [
        "iree-stream-annotate-dispatch-assumptions",
        "iree-stream-pack-dispatch-operands",
        "iree-hal-materialize-interfaces",
    ]
)

_X86 = '#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3"}>'
_ARM = '#hal.executable.target<"llvm-cpu", "embedded-elf-arm_64">'

# A static elementwise add on a CPU device; `TARGETS` lists its executable targets.
STATIC_ADD = """
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [TARGETS]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @add workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @add(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x5xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [3, 5], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5xf32>> -> tensor<3x5xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [3, 5], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5xf32>> -> tensor<3x5xf32>
        %5 = tensor.empty() : tensor<3x5xf32>
        %6 = linalg.add ins(%3, %4 : tensor<3x5xf32>, tensor<3x5xf32>) outs(%5 : tensor<3x5xf32>) -> tensor<3x5xf32>
        iree_tensor_ext.dispatch.tensor.store %6, %2, offsets = [0, 0], sizes = [3, 5], strides = [1, 1] : tensor<3x5xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x5xf32>>
        return
      }
    }
  }
  util.func public @add(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c60 = arith.constant 60 : index
    %0 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<3x5xf32> in !stream.resource<external>{%c60}
    %1 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg1 : !hal.buffer_view -> tensor<3x5xf32> in !stream.resource<external>{%c60}
    %2 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@add(%0[%c0 to %c60 for %c60], %1[%c0 to %c60 for %c60]) : (!stream.resource<external>{%c60}, !stream.resource<external>{%c60}) -> !stream.resource<external>{%c60}
    %3 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %2 : tensor<3x5xf32> in !stream.resource<external>{%c60} -> !hal.buffer_view
    util.return %3 : !hal.buffer_view
  }
}
"""

# Two dispatches of two exports of one executable on a dynamic size: x * 3.0,
# then + x. The scale takes an index and an f32 operand, the add reads the
# first dispatch's result.
SCALE_THEN_ADD = """
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [TARGETS]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @scale workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    stream.executable.export public @add workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @scale(%arg0: !stream.binding, %arg1: index, %arg2: f32, %arg3: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %4 = tensor.empty(%0) : tensor<?xf32>
        %5 = linalg.fill ins(%arg2 : f32) outs(%4 : tensor<?xf32>) -> tensor<?xf32>
        %6 = linalg.mul ins(%3, %5 : tensor<?xf32>, tensor<?xf32>) outs(%4 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %6, %2, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        return
      }
      func.func @add(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
        %1 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %6 = tensor.empty(%0) : tensor<?xf32>
        %7 = linalg.add ins(%4, %5 : tensor<?xf32>, tensor<?xf32>) outs(%6 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %3, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        return
      }
    }
  }
  util.func public @scale_then_add(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant 3.0 : f32
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c4 : index
    %2 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?xf32>{%0} in !stream.resource<external>{%1}
    %3 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%2[%c0 to %1 for %1], %0, %cst) : (!stream.resource<external>{%1}, index, f32) -> !stream.resource<*>{%1}
    %4 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@add[%0](%3[%c0 to %1 for %1], %2[%c0 to %1 for %1], %0) : (!stream.resource<*>{%1}, !stream.resource<external>{%1}, index) -> !stream.resource<external>{%1}
    %5 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %4 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
}
"""


def _program(tmp_path, text: str, targets: str = _X86, name: str = "program.mlir"):
    path = tmp_path / name
    path.write_text(text.replace("TARGETS", targets))
    return path


def _compile(path, pipeline: str = PIPELINE) -> str:
    result = run_opt([str(path), "-p", pipeline])
    assert result.returncode == 0, result.stderr
    return result.stdout


def _verify_each(path, size: int, pipeline: str = PIPELINE) -> None:
    result = run_opt(
        [str(path), "-p", pipeline, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"]
    )
    assert result.returncode == 0, result.stderr
    # Each of the three passes was checked against the program's first run.
    assert result.stderr.count("kept the results") == pipeline.count(",") + 1, result.stderr


# ---------------------------------------------------------------------------
# Walkthrough dump 17
# ---------------------------------------------------------------------------


def _dump_17():
    return require_reference() / "seed-walkthrough" / "17-materialize-encodings.after.mlir"


@pytest.mark.parametrize("size", [0, 1, 37])
def test_walkthrough_dump_17_keeps_its_results(size):
    _verify_each(_dump_17(), size)


@pytest.mark.parametrize("m,k,n", [(37, 53, 29), (130, 17, 129), (0, 3, 4)])
def test_walkthrough_dump_17_after_the_passes_computes_the_matmul(m, k, n):
    module = parse_module_text(_compile(_dump_17()), "hal-interfaces")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    (c,) = run(module, "matmul_f32f32f32", a, b)
    tolerance = 1e-4 * math.sqrt(max(k, 1))
    np.testing.assert_allclose(c, a @ b, rtol=tolerance, atol=tolerance)


def test_walkthrough_dump_17_dispatches_hal_executables():
    text = _compile(_dump_17())
    assert "stream.executable" not in text
    for name in ("_encoding_0", "_encoding_1", "matmul_f32f32f32_dispatch_0"):
        assert f"hal.executable private @{name} {{" in text
        assert f"@{name}::@rocm_hsaco_fb::@{name}" in text


# ---------------------------------------------------------------------------
# Hand-written stream programs
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 7])
def test_dynamic_program_with_two_dispatches_keeps_its_results(tmp_path, size):
    _verify_each(_program(tmp_path, SCALE_THEN_ADD), size)


def test_dynamic_program_computes_three_x_plus_x(tmp_path):
    module = parse_module_text(_compile(_program(tmp_path, SCALE_THEN_ADD)), "scale-then-add")
    x = np.arange(11, dtype=np.float32) - 4
    (y,) = run(module, "scale_then_add", x)
    np.testing.assert_array_equal(y, 4 * x)


@pytest.mark.parametrize("targets", [_X86, f"{_X86}, {_ARM}"], ids=["one-cpu-target", "two-cpu-targets"])
def test_static_program_keeps_its_results(tmp_path, targets):
    path = _program(tmp_path, STATIC_ADD, targets)
    _verify_each(path, 3)
    text = _compile(path)
    module = parse_module_text(text, "static-add")
    a = np.arange(15, dtype=np.float32).reshape(3, 5)
    (c,) = run(module, "add", a, 2 * a)
    np.testing.assert_array_equal(c, 3 * a)
    if targets != _X86:
        # Both variants are dispatched; the interpreter runs the first.
        assert "{@ex::@embedded_elf_arm_64::@add, @ex::@embedded_elf_x86_64::@add}" in text


def test_each_pass_alone_keeps_the_results(tmp_path):
    """Annotating and packing also keep results without the HAL step (stream executables with i32 operands)."""
    path = _program(tmp_path, SCALE_THEN_ADD)
    _verify_each(path, 5, "iree-stream-annotate-dispatch-assumptions")
    _verify_each(path, 5, "iree-stream-pack-dispatch-operands")


# ---------------------------------------------------------------------------
# The interpreter really goes through the interface
# ---------------------------------------------------------------------------


def test_push_constants_are_what_the_function_reads(tmp_path):
    """Reading another push constant changes the result: the dispatch context is live."""
    text = _compile(_program(tmp_path, SCALE_THEN_ADD))
    x = np.arange(6, dtype=np.float32)
    # @scale's constants are (size low, size high, 3.0 as bits); read the high word as the scale.
    load = "ordinal(2) : i32"
    assert text.count(load) == 1
    module = parse_module_text(text.replace(load, "ordinal(1) : i32"), "sabotaged")
    (y,) = run(module, "scale_then_add", x)
    np.testing.assert_array_equal(y, x)  # 0.0 * x + x


def test_a_dispatch_function_of_a_whole_program_runs_on_its_own(tmp_path):
    """``run_dispatch`` finds a function inside a ``hal.executable`` variant."""
    module = parse_module_text(_compile(_program(tmp_path, SCALE_THEN_ADD)), "scale-then-add")
    x = np.arange(9, dtype=np.float32)
    three = int(np.array([3.0], np.float32).view(np.uint32)[0])
    _, out = run_dispatch(module, "scale", [x, np.zeros_like(x)], [*split_index(x.size), three])
    np.testing.assert_array_equal(out.view(np.float32), 3 * x)


def test_layout_that_does_not_match_the_dispatch_is_reported(tmp_path):
    text = _compile(_program(tmp_path, STATIC_ADD))
    layout = "#pipeline_layout = #hal.pipeline.layout<"
    broken = text.replace(layout + "bindings", layout + "constants = 1, bindings")
    assert broken != text
    module = parse_module_text(broken, "broken")
    a = np.ones((3, 5), np.float32)
    message = "dispatch passes 3 resources and 0 scalars but @add's layout has 3 bindings and 1 constants"
    with pytest.raises(InterpreterError, match=message):
        run(module, "add", a, a)


# ---------------------------------------------------------------------------
# What the passes refuse
# ---------------------------------------------------------------------------


def _error(path, pipeline: str) -> str:
    result = run_opt([str(path), "-p", pipeline])
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    return result.stderr


def test_interfaces_need_packed_operands(tmp_path):
    path = _program(tmp_path, SCALE_THEN_ADD)
    stderr = _error(path, "iree-hal-materialize-interfaces")
    # Reported at the function, as IREE's `entryFuncOp.emitError()`.
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "func.func @scale" in text)
    assert f"program.mlir:{line}:7: error: unsupported interface function argument 1 type index; " in stderr
    assert "requires !stream.binding or i32 operands only" in stderr


def test_interfaces_need_a_device(tmp_path):
    device = '  util.global private @__device_0 = #hal.device.target<"local", [TARGETS]> : !hal.device\n'
    assert device in STATIC_ADD
    text = STATIC_ADD.replace(device, "")
    stderr = _error(_program(tmp_path, text), "iree-hal-materialize-interfaces")
    assert "error: no HAL devices defined in the module" in stderr


COMPLEX_OPERAND = """
module {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: complex<f32>) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<*>, %arg1: index, %arg2: complex<f32>) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg1], %arg2) : (!stream.resource<*>{%arg1}, complex<f32>) -> %arg0{%arg1}
    util.return %0 : !stream.resource<*>
  }
}
"""


def test_complex_operands_are_refused(tmp_path):
    stderr = _error(_program(tmp_path, COMPLEX_OPERAND), "iree-stream-pack-dispatch-operands")
    assert "error: 'func.func' op cannot pack argument 1 of type complex<f32> into i32 push constants" in stderr


def test_flags_are_registered_under_iree_names():
    """The three flags are registered under IREE's names."""
    from mini_iree.passes import get_all_passes

    passes = get_all_passes()
    for flag in PIPELINE.split(","):
        assert passes[flag]().name == flag


TENSOR_DISPATCH = """
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [TARGETS]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: !stream.binding) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<*>) -> !stream.resource<*> {
    %c16 = arith.constant 16 : index
    %0 = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@fn(%arg0) : (tensor<4xf32> in !stream.resource<*>{%c16}) -> tensor<4xf32> in !stream.resource<*>{%c16}
    util.return %0 : !stream.resource<*>
  }
}
"""


def test_tensor_dispatches_are_refused(tmp_path):
    """The executable must not disappear under a dispatch the pass does not rewrite."""
    stderr = _error(_program(tmp_path, TENSOR_DISPATCH), "iree-hal-materialize-interfaces")
    assert "error: 'stream.tensor.dispatch' op dispatches @ex::@fn; iree-hal-materialize-interfaces only rewrites" in stderr
