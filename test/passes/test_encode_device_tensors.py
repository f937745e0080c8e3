"""iree-stream-encode-device-tensors: i1 bindings run as i8 storage, and f32 programs are left exactly as they are.

An i1 program (two i1 inputs xor-ed in a dispatch) runs before and after the
host and device encoding passes with ``--verify-each-with-interpreter``: the
host sizes i1 tensors one byte per element, the device now reads and writes
those bytes as i8 and truncates/extends. On IREE 3.13's f32 programs the pass
must change nothing (3.13's dumps show it as a no-op), which is checked against
the EncodeDeviceTensorsPass dumps.
"""

from __future__ import annotations

import re

import pytest
from conftest import require_reference, run_opt

PASS = "iree-stream-encode-device-tensors"
PIPELINE = f"iree-stream-encode-host-tensors,{PASS},iree-stream-materialize-encodings"

_I1_PROGRAM = '''
stream.executable private @ex {
  stream.executable.export public @ex workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    stream.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @ex(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: !stream.binding) {
      %c0 = arith.constant 0 : index
      %n = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xi1>>{%n}
      %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xi1>>{%n}
      %2 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xi1>>{%n}
      %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%n, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xi1>>{%n} -> tensor<?x4xi1>
      %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%n, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xi1>>{%n} -> tensor<?x4xi1>
      %5 = arith.xori %3, %4 : tensor<?x4xi1>
      iree_tensor_ext.dispatch.tensor.store %5, %2, offsets = [0, 0], sizes = [%n, 4], strides = [1, 1] : tensor<?x4xi1> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xi1>>{%n}
      return
    }
  }
}
util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %s = stream.tensor.sizeof tensor<?x4xi1>{%n} : index
  %a = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?x4xi1>{%n} in !stream.resource<external>{%s}
  %b = stream.tensor.import %arg1 : !hal.buffer_view -> tensor<?x4xi1>{%n} in !stream.resource<external>{%s}
  %r = stream.tensor.dispatch @ex::@ex[%n](%a, %b, %n) : (tensor<?x4xi1>{%n} in !stream.resource<external>{%s}, tensor<?x4xi1>{%n} in !stream.resource<external>{%s}, index) -> tensor<?x4xi1>{%n} in !stream.resource<external>{%s}
  %out = stream.tensor.export %r : tensor<?x4xi1>{%n} in !stream.resource<external>{%s} -> !hal.buffer_view
  util.return %out : !hal.buffer_view
}
'''


@pytest.mark.parametrize("size", [1, 5, 33])
def test_i1_program_keeps_results(tmp_path, size):
    path = tmp_path / "i1.mlir"
    path.write_text(_I1_PROGRAM)
    result = run_opt([str(path), "-p", PIPELINE, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])
    assert result.returncode == 0, result.stderr
    assert f"pass '{PASS}' kept the results" in result.stderr


def test_i1_bindings_become_i8(tmp_path):
    path = tmp_path / "i1.mlir"
    path.write_text(_I1_PROGRAM)
    result = run_opt([str(path), "-p", PASS])
    assert result.returncode == 0, result.stderr
    assert "tensor<?x4xi1>>" not in result.stdout.split("util.func")[0]
    assert len(re.findall(r"!iree_tensor_ext\.dispatch\.tensor<readonly:tensor<\?x4xi8>>\{%\w+\}", result.stdout)) >= 2
    assert re.search(r"arith.trunci %\w+ : tensor<\?x4xi8> to tensor<\?x4xi1>", result.stdout)
    assert re.search(r"arith.extui %\w+ : tensor<\?x4xi1> to tensor<\?x4xi8>", result.stdout)


def _executables(text: str) -> list[str]:
    """The text of each top-level `stream.executable` (two-space indented inside the module)."""
    lines = text.splitlines()
    found: list[str] = []
    for i, line in enumerate(lines):
        if line.startswith("  stream.executable "):
            end = next(j for j in range(i + 1, len(lines)) if lines[j] == "  }")
            found.append("\n".join(lines[i : end + 1]))
    return found


@pytest.mark.parametrize(
    ("program", "dumps"),
    [
        ("dynamic-matmul", ["12_EncodeDeviceTensorsPass.mlir"]),
        ("gfx942-dynamic-matmul", ["12_EncodeDeviceTensorsPass.mlir"]),
        ("elementwise-producer-consumer", ["12_EncodeDeviceTensorsPass.mlir", "13_EncodeDeviceTensorsPass.mlir"]),
        ("const-weight-matmul", ["13_EncodeDeviceTensorsPass.mlir"]),
    ],
)
def test_no_op_on_iree_3_13_programs(program, dumps):
    """Every executable after the pass is text-identical to before it and to IREE 3.13's dump of it."""
    folder = require_reference() / "iree-3.13" / program
    before = run_opt([str(folder / "10_SpecializeEncodingsPass.mlir"), "--mlir-print-local-scope"])
    after = run_opt([str(folder / "10_SpecializeEncodingsPass.mlir"), "-p", PASS, "--mlir-print-local-scope"])
    assert after.returncode == 0, after.stderr
    assert after.stdout == before.stdout
    ours = _executables(after.stdout)
    for dump in dumps:
        text = (folder / dump).read_text()
        expected = "\n".join("  " + line for line in text.splitlines() if not line.startswith("//"))
        expected = expected.replace("  \n", "\n")
        assert any(expected.rstrip() == executable for executable in ours), dump


def test_walkthrough_dump_13_unchanged():
    dump = require_reference() / "seed-walkthrough" / "13-specialize-encodings.after.mlir"
    before = run_opt([str(dump)])
    after = run_opt([str(dump), "-p", PASS])
    assert after.returncode == 0, after.stderr
    assert after.stdout == before.stdout
