"""iree-stream-encode-host-tensors keeps results, computes the right sizes and prints the dumps' IR.

Programs at the stage of walkthrough dump 13 (encoded host tensors with
serialized layouts) run before and after the pass with
``--verify-each-with-interpreter``: the walkthrough's dump 13, IREE 3.13's
SpecializeEncodings dumps, and generated dynamic/static matmuls (``encoded_stream_programs``), a matvec, a
batch matmul and a program on two devices with different layouts. The
interpreter requires every resource that holds an encoded tensor to have room
for its stored layout, so a size computed too small fails the run: a test
breaks the size arithmetic on purpose and checks that it is caught.
"""

from __future__ import annotations

import re

import pytest
from conftest import require_reference, run_opt

PASS = "iree-stream-encode-host-tensors"


def _run(path, pipeline: str, size: int = 13):
    return run_opt([str(path), "-p", pipeline, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])


def _write(tmp_path, text: str, name: str = "input.mlir"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _matmul_program(*args, **kwargs) -> str:
    from encoded_stream_programs import matmul_program

    return matmul_program(*args, **kwargs)


# ---------------------------------------------------------------------------
# Results are kept
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [1, 7, 130])
def test_walkthrough_dump_13_keeps_results(size):
    reference = require_reference()
    dump = reference / "seed-walkthrough" / "13-specialize-encodings.after.mlir"
    result = _run(dump, PASS, size)
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr


@pytest.mark.parametrize("program", ["dynamic-matmul", "elementwise-producer-consumer", "gfx942-dynamic-matmul"])
def test_iree_3_13_dumps_keep_results(program):
    dump = require_reference() / "iree-3.13" / program / "10_SpecializeEncodingsPass.mlir"
    result = _run(dump, f"{PASS}{{era=3.13}}", 11)
    assert result.returncode == 0, result.stderr


def test_const_weight_runs_with_a_splat_weight(tmp_path):
    """3.13's const-weight dump elides its weight; with a splat weight the initializer and function run."""
    dump = require_reference() / "iree-3.13" / "const-weight-matmul" / "10_SpecializeEncodingsPass.mlir"
    text = dump.read_text().replace("dense_resource<__elided__> : tensor<256x512xf32>", "dense<0.5> : tensor<256x512xf32>")
    assert "__elided__" not in text
    result = _run(_write(tmp_path, text), f"{PASS}{{era=3.13}}", 5)
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr


F32 = ("f32", "f32", "f32")
I8 = ("i8", "i8", "i32")


@pytest.mark.parametrize(
    ("sizes", "types", "devices"),
    [
        ((None, None, None), F32, ["x86"]),
        ((255, 1023, 513), F32, ["x86"]),  # the static sizes of IREE 3.13's numbers
        ((1, 4096, 512), F32, ["x86-matvec"]),  # matvec: 1-row LHS tiles
        ((37, 53, 19), I8, ["aarch64-i8"]),
        ((None, None, None), I8, ["aarch64-i8"]),
        ((None, None, None), F32, ["gfx942"]),
        ((130, 20, 17), F32, ["gfx942"]),
        ((None, None, None), F32, ["x86", "gfx942"]),  # two devices, two layouts per input
        ((None, None, None), F32, ["vmvx"]),
    ],
)
def test_generated_matmuls_keep_results(tmp_path, sizes, types, devices):
    path = _write(tmp_path, _matmul_program(*sizes, types, devices))
    result = _run(path, PASS, 29)
    assert result.returncode == 0, result.stderr
    assert f"pass '{PASS}' kept the results" in result.stderr


_BATCH = """
#map = affine_map<(b, m, n, k) -> (b, m, k)>
#map1 = affine_map<(b, m, n, k) -> (b, k, n)>
#map2 = affine_map<(b, m, n, k) -> (b, m, n)>
#enc0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#enc1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#enc2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#lhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 2], innerTileSizes = [8, 1], outerDimsPerm = [0, 1, 2]}}>]>
#rhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [2, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 2, 1]}}>]>
stream.executable private @ex {
  stream.executable.export public @ex workgroups(%arg0: index, %arg1: index, %arg2: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2)
    stream.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @ex(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index, %arg4: index, %arg5: !stream.binding) {
      %c0 = arith.constant 0 : index
      %cst = arith.constant 0.0 : f32
      %m = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
      %n = iree_tensor_ext.dispatch.workload.ordinal %arg3, 1 : index
      %k = iree_tensor_ext.dispatch.workload.ordinal %arg4, 2 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x?x?xf32, #lhs>>{%m, %k}
      %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x?x?xf32, #rhs>>{%k, %n}
      %2 = stream.binding.subspan %arg5[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x?x?xf32>>{%m, %n}
      %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [3, %m, %k], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x?x?xf32, #lhs>>{%m, %k} -> tensor<3x?x?xf32, #enc0>
      %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0, 0], sizes = [3, %k, %n], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x?x?xf32, #rhs>>{%k, %n} -> tensor<3x?x?xf32, #enc1>
      %5 = tensor.empty(%m, %n) : tensor<3x?x?xf32, #enc2>
      %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<3x?x?xf32, #enc2>) -> tensor<3x?x?xf32, #enc2>
      %7 = linalg.batch_matmul ins(%3, %4 : tensor<3x?x?xf32, #enc0>, tensor<3x?x?xf32, #enc1>) outs(%6 : tensor<3x?x?xf32, #enc2>) -> tensor<3x?x?xf32, #enc2>
      %8 = iree_encoding.unset_encoding %7 : tensor<3x?x?xf32, #enc2> -> tensor<3x?x?xf32>{%m, %n}
      iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0, 0], sizes = [3, %m, %n], strides = [1, 1, 1] : tensor<3x?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x?x?xf32>>{%m, %n}
      return
    }
  }
}
util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
  %m = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  %k = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[2] : index
  %n = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[2] : index
  %s0 = stream.tensor.sizeof tensor<3x?x?xf32>{%m, %k} : index
  %a = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<3x?x?xf32>{%m, %k} in !stream.resource<external>{%s0}
  %s1 = stream.tensor.sizeof tensor<3x?x?xf32>{%k, %n} : index
  %b = stream.tensor.import %arg1 : !hal.buffer_view -> tensor<3x?x?xf32>{%k, %n} in !stream.resource<external>{%s1}
  %s2 = stream.tensor.sizeof tensor<3x?x?xf32, #lhs>{%m, %k} : index
  %ea = stream.tensor.encode %a : tensor<3x?x?xf32>{%m, %k} in !stream.resource<external>{%s0} -> tensor<3x?x?xf32, #lhs>{%m, %k} in !stream.resource<*>{%s2}
  %s3 = stream.tensor.sizeof tensor<3x?x?xf32, #rhs>{%k, %n} : index
  %eb = stream.tensor.encode %b : tensor<3x?x?xf32>{%k, %n} in !stream.resource<external>{%s1} -> tensor<3x?x?xf32, #rhs>{%k, %n} in !stream.resource<*>{%s3}
  %s4 = stream.tensor.sizeof tensor<3x?x?xf32>{%m, %n} : index
  %r = stream.tensor.dispatch @ex::@ex[%m, %n, %k](%ea, %eb, %m, %n, %k) : (tensor<3x?x?xf32, #lhs>{%m, %k} in !stream.resource<*>{%s2}, tensor<3x?x?xf32, #rhs>{%k, %n} in !stream.resource<*>{%s3}, index, index, index) -> tensor<3x?x?xf32>{%m, %n} in !stream.resource<external>{%s4}
  %out = stream.tensor.export %r : tensor<3x?x?xf32>{%m, %n} in !stream.resource<external>{%s4} -> !hal.buffer_view
  util.return %out : !hal.buffer_view
}
"""


def test_batch_matmul_keeps_results(tmp_path):
    result = _run(_write(tmp_path, _BATCH), PASS, 11)
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr


# ---------------------------------------------------------------------------
# A wrong size is caught
# ---------------------------------------------------------------------------


def test_wrong_sizeof_is_caught(tmp_path, monkeypatch):
    """Forget the padding of packed layouts: the interpreter refuses the too-small resources."""
    from mini_iree.compiler.layout import storage

    def unpadded(b, layout, tensor, nsw):
        return storage.dense_storage_size(b, tensor)

    path = _write(tmp_path, _matmul_program(255, 1023, 513, F32, ["x86"]))
    assert _run(path, PASS, 7).returncode == 0
    monkeypatch.setattr(storage, "packed_storage_size", unpadded)
    result = _run(path, PASS, 7)
    assert result.returncode == 1
    assert f"pass '{PASS}' produced IR that cannot run @main" in result.stderr
    assert "a 523260-byte resource is too small" in result.stderr
    assert "its layout needs 525312 bytes" in result.stderr


# ---------------------------------------------------------------------------
# Sizes and printed IR
# ---------------------------------------------------------------------------


def _constants(text: str) -> set[int]:
    return {int(v) for v in re.findall(r"arith\.constant (\d+) : index", text)}


def test_static_sizes_fold_to_iree_3_13_numbers(tmp_path):
    """255x513 f32: 523260 bytes plain, 525312 packed; the 513x1023 RHS packed: 2101248."""
    path = _write(tmp_path, _matmul_program(255, 1023, 513, F32, ["x86"]))
    result = run_opt([str(path), "-p", PASS])
    assert result.returncode == 0, result.stderr
    assert {523260, 525312, 2101248} <= _constants(result.stdout)
    assert "stream.tensor.sizeof" not in result.stdout
    assert "arith.muli" not in result.stdout.split("util.func")[1]


def test_storage_size_agrees_with_the_interpreter():
    """The size programs evaluate to what the interpreter allocates, for shapes around the tiles."""
    from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, f16, f32, i8

    from mini_iree.compiler.interpreter.stream_ops import storage_size
    from mini_iree.compiler.layout.storage import tensor_storage_size
    from mini_iree.dialects import iree_encoding
    from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo, SwizzleDim, SwizzleDimKind, TileSwizzle
    from mini_iree.dialects.iree_cpu import CPUEncodingResolverAttr

    swizzle = TileSwizzle(
        [
            [SwizzleDim(SwizzleDimKind.CROSS_THREAD, 4), SwizzleDim(SwizzleDimKind.CROSS_INTRINSIC, 4)],
            [SwizzleDim(SwizzleDimKind.INTERNAL, 2)],
        ],
        [0, 2, 1],
    )
    infos = [
        MaterializeEncodingInfo([0, 1], [8, 1], [0, 1]),
        MaterializeEncodingInfo([1, 0], [16, 4], [1, 0]),
        MaterializeEncodingInfo([1], [16], [0, 1]),
        MaterializeEncodingInfo([0, 1], [16, 2], [0, 1], swizzle),
    ]
    layouts = [CPUEncodingResolverAttr.with_encoding_info(info) for info in infos]
    layouts.append(iree_encoding.PaddingAttr([3, 64]))
    for layout in layouts:
        encoding = iree_encoding.LayoutAttr([layout])
        for element in (f32, f16, i8):
            for shape in [(DYNAMIC_INDEX, DYNAMIC_INDEX), (17, DYNAMIC_INDEX), (33, 7)]:
                tensor = TensorType(element, shape, encoding)
                size = tensor_storage_size(tensor)
                for dims in [(1, 1), (15, 16), (17, 33)]:
                    used = [d for s, d in zip(shape, dims) if s == DYNAMIC_INDEX]
                    assert size.evaluate(used) == storage_size(None, tensor, used), (layout, element, shape, dims)


def test_walkthrough_dump_13_gives_dump_16():
    """Line for line with the walkthrough's dump 16 (which prints the function alone and without its attributes)."""
    reference = require_reference() / "seed-walkthrough"
    result = run_opt([str(reference / "13-specialize-encodings.after.mlir"), "-p", PASS, "--mlir-print-local-scope"])
    assert result.returncode == 0, result.stderr
    ours = result.stdout.splitlines()
    start = next(i for i, line in enumerate(ours) if line.lstrip().startswith("util.func"))
    ours_body = [line.strip() for line in ours[start + 1 :]][:-1]  # up to the function's closing brace
    dump = (reference / "16-encode-host-tensors.after.mlir").read_text().splitlines()
    dump_start = next(i for i, line in enumerate(dump) if line.startswith("util.func"))
    dump_body = [line.strip() for line in dump[dump_start + 1 :] if line.strip()]
    assert ours_body == dump_body


def _function_text(text: str, header: str) -> str:
    """The top-level op starting with `header` (two-space indented in a module, or unindented)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith(header):
            indent = len(line) - len(line.lstrip())
            end = next(j for j in range(i + 1, len(lines)) if lines[j] == " " * indent + "}")
            return "\n".join(l[indent:] for l in lines[i : end + 1])
    raise AssertionError(f"no {header}")


@pytest.mark.parametrize(
    ("program", "dump", "header"),
    [
        ("dynamic-matmul", "11_EncodeHostTensorsPass.mlir", "util.func"),
        ("elementwise-producer-consumer", "11_EncodeHostTensorsPass.mlir", "util.func"),
        ("gfx942-dynamic-matmul", "11_EncodeHostTensorsPass.mlir", "util.func"),
        ("const-weight-matmul", "11_EncodeHostTensorsPass.mlir", "util.initializer"),
        ("const-weight-matmul", "12_EncodeHostTensorsPass.mlir", "util.func"),
    ],
)
def test_iree_3_13_dumps_are_reproduced(program, dump, header):
    """10_SpecializeEncodingsPass -> EncodeHostTensorsPass with `{era=3.13}` prints IREE 3.13's dump exactly."""
    folder = require_reference() / "iree-3.13" / program
    result = run_opt(
        [str(folder / "10_SpecializeEncodingsPass.mlir"), "-p", f"{PASS}{{era=3.13}}", "--mlir-print-local-scope"]
    )
    assert result.returncode == 0, result.stderr
    expected = "\n".join(line for line in (folder / dump).read_text().splitlines() if not line.startswith("//"))
    assert _function_text(result.stdout, header) == _function_text(expected, header)


def test_bad_era_is_an_error(tmp_path):
    result = run_opt([str(_write(tmp_path, "util.func public @f() {\n  util.return\n}\n")), "-p", f"{PASS}{{era=next}}"])
    assert result.returncode == 1
    assert "unknown era 'next'" in result.stderr


def test_padding_program_keeps_results(tmp_path):
    """Two matmuls handing over a `padding<[0, ?]>` tensor, on gfx942 with the padding resolver.

    After specialization the hand-over resource is sized for 1056-float rows; the
    pass turns that into `dim * 4224` (nsw, as IREE's PaddingAttr writes it), and the
    program must keep its results.
    """
    from pathlib import Path

    chain = Path(__file__).parents[1] / "e2e" / "Inputs" / "padding" / "matmul_chain_padded.mlir"
    stages = (
        "iree-hal-assign-target-devices{targetDevices=gfx942:encoding-layout-resolver=pad},"
        "iree-hal-materialize-target-devices,iree-dispatch-creation-convert-dispatch-regions-to-workgroups,"
        "iree-flow-capture-dynamic-dims,canonicalize,cse,iree-flow-outline-dispatch-regions,iree-stream-conversion,canonicalize,cse,iree-stream-specialize-encodings"
    )
    stream_form = run_opt([str(chain), "-p", stages])
    assert stream_form.returncode == 0, stream_form.stderr
    path = _write(tmp_path, stream_form.stdout)
    for size in (1, 9):
        result = _run(path, PASS, size)
        assert result.returncode == 0, result.stderr
        assert "kept the results" in result.stderr
    out = run_opt([str(path), "-p", PASS])
    assert re.search(r"arith\.muli %\w+, %c4224 overflow<nsw> : index", out.stdout)
    assert "stream.tensor.sizeof" not in out.stdout


def test_empty_tensor_becomes_an_allocation_of_the_same_size():
    # Its contents are undefined either way: the program must still run and give a resource of as many bytes.
    from mini_iree.compiler.interpreter import make_context, parse_module_text, run
    from mini_iree.passes.encode_host_tensors import EncodeHostTensorsPass

    text = (
        "util.func public @empty(%n: index) -> !stream.resource<*> {\n"
        "  %size = stream.tensor.sizeof tensor<?x4xf32>{%n} : index\n"
        "  %empty = stream.tensor.empty : tensor<?x4xf32>{%n} in !stream.resource<*>{%size}\n"
        "  util.return %empty : !stream.resource<*>\n"
        "}\n"
    )
    module = parse_module_text(text)
    (before,) = run(module, "empty", 5)
    EncodeHostTensorsPass().apply(make_context(), module)
    assert [op.name for op in module.walk()].count("stream.async.alloca") == 1
    (after,) = run(module, "empty", 5)
    assert before.nbytes == after.nbytes == 5 * 4 * 4
