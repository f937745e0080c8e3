"""``iree-stream-fold-uniform-operands`` keeps every program's results and shrinks the dispatch ABI.

The interpreter runs each program before and after the pass on the same inputs
(``--verify-each-with-interpreter``); the walkthrough's matmul then goes all the
way to HAL executables, where the encode dispatches read 4 push constants as in
walkthrough dump 19.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from mini_iree.compiler.interpreter import parse_module_text, run
from conftest import REPO, run_opt

MATMUL = REPO / "examples" / "matmul.mlir"
STREAM = "data-tiling-dispatch-creation,data-tiling-stream{target=gfx942}"
BEFORE_FOLD = "iree-stream-annotate-dispatch-assumptions,iree-stream-pack-dispatch-operands,cse"

# out[i] = x[i] * a + b, where the function takes n, n again (a duplicate at
# every site), a (the constant 3 at both sites, so it is inlined) and b (a
# constant that differs between the two sites, so it stays).
AFFINE = """
module {
  stream.executable private @ex {
    stream.executable.export public @axpb workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @axpb(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: i32, %arg4: i32, %arg5: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = stream.binding.subspan %arg5[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%arg2}
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %a = arith.sitofp %arg3 : i32 to f32
        %b = arith.sitofp %arg4 : i32 to f32
        %4 = tensor.empty(%0) : tensor<?xf32>
        %5 = linalg.fill ins(%a : f32) outs(%4 : tensor<?xf32>) -> tensor<?xf32>
        %6 = linalg.fill ins(%b : f32) outs(%4 : tensor<?xf32>) -> tensor<?xf32>
        %7 = linalg.mul ins(%3, %5 : tensor<?xf32>, tensor<?xf32>) outs(%4 : tensor<?xf32>) -> tensor<?xf32>
        %8 = linalg.add ins(%7, %6 : tensor<?xf32>, tensor<?xf32>) outs(%4 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0], sizes = [%arg2], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%arg2}
        return
      }
    }
  }
  util.func public @twice(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c3_i32 = arith.constant 3 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c4 : index
    %2 = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32>{%0} in !stream.resource<external>{%1}
    %3 = stream.async.dispatch @ex::@axpb[%0](%2[%c0 to %1 for %1], %0, %0, %c3_i32, %c1_i32) : (!stream.resource<external>{%1}, index, index, i32, i32) -> !stream.resource<*>{%1}
    %4 = stream.async.dispatch @ex::@axpb[%0](%3[%c0 to %1 for %1], %0, %0, %c3_i32, %c2_i32) : (!stream.resource<*>{%1}, index, index, i32, i32) -> !stream.resource<external>{%1}
    %5 = stream.tensor.export %4 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
}
"""


def _verify(path, pipeline: str, size: int) -> str:
    result = run_opt([str(path), "-p", pipeline, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])
    assert result.returncode == 0, result.stderr
    assert "pass 'iree-stream-fold-uniform-operands' kept the results" in result.stderr, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def matmul_stream(tmp_path_factory):
    result = run_opt([str(MATMUL), "-p", STREAM])
    assert result.returncode == 0, result.stderr
    path = tmp_path_factory.mktemp("fold") / "matmul_stream.mlir"
    path.write_text(result.stdout)
    return path


@pytest.mark.parametrize("size", [0, 1, 130])
def test_walkthrough_matmul_keeps_its_results(matmul_stream, size):
    text = _verify(matmul_stream, f"{BEFORE_FOLD},iree-stream-fold-uniform-operands", size)
    # The encode dispatches pass M and K once: 4 words where (M, K, M, K) took 8.
    for name in ("_encoding_0", "_encoding_1"):
        signature = re.search(rf"func\.func @{name}_encode_DxDxf32_to_DxDxf32\(([^)]*)\)", text)
        assert signature is not None
        assert signature.group(1).count("i32") == 4, signature.group(1)


def test_walkthrough_encode_dispatch_reads_four_push_constants(matmul_stream):
    """Through HAL interfaces, as walkthrough dump 19: `constants = 4`, the assumptions on `%8, %13, %8, %13`."""
    pipeline = f"{BEFORE_FOLD},iree-stream-fold-uniform-operands,cse,iree-hal-materialize-interfaces"
    result = run_opt([str(matmul_stream), "-p", pipeline, "--mlir-print-local-scope"])
    assert result.returncode == 0, result.stderr
    encode = result.stdout[result.stdout.index("func.func @_encoding_0_encode") :]
    encode = encode[: encode.index("return")]
    assert encode.count("hal.interface.constant.load") == 4
    assume = re.search(r"util\.assume\.int\s+(%\d+)<[^>]*>,\s+(%\d+)<[^>]*>,\s+(%\d+)<[^>]*>,\s+(%\d+)<", encode)
    assert assume is not None
    m, k, m2, k2 = assume.groups()
    assert (m2, k2) == (m, k) and m != k
    module = parse_module_text(result.stdout, "folded")
    rng = np.random.default_rng(1)
    a = rng.standard_normal((37, 53)).astype(np.float32)
    b = rng.standard_normal((53, 29)).astype(np.float32)
    (c,) = run(module, "matmul_f32f32f32", a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("size", [0, 5])
def test_duplicates_and_uniform_constants_keep_the_results(tmp_path, size):
    path = tmp_path / "affine.mlir"
    path.write_text(AFFINE)
    text = _verify(path, "iree-stream-fold-uniform-operands", size)
    # n is passed once, 3 is inlined, the per-site constants stay.
    assert "func.func @axpb(%arg0: !stream.binding, %arg1: index, %arg2: i32, %arg3: !stream.binding)" in text
    assert "%c3_i32 = arith.constant 3 : i32" in text.split("util.func")[0]
    assert "(%2[%c0 to %1 for %1], %0, %c1_i32)" in text
    assert "(%3[%c0 to %1 for %1], %0, %c2_i32)" in text
    # ((x * 3) + 1) * 3 + 2
    x = np.arange(7, dtype=np.float32) - 2
    (y,) = run(parse_module_text(text, "folded"), "twice", x)
    np.testing.assert_array_equal(y, (x * 3 + 1) * 3 + 2)


def test_flag_is_registered_under_its_iree_name():
    from mini_iree.passes import get_all_passes

    flag = "iree-stream-fold-uniform-operands"
    assert get_all_passes()[flag]().name == flag


def _codegen_until(flag: str) -> str:
    """``data-tiling-codegen`` up to and including the pass ``flag``."""
    from mini_iree.passes import get_all_pipelines

    passes = get_all_pipelines()["data-tiling-codegen"].expand({}).split(",")
    return ",".join(passes[: next(i for i, p in enumerate(passes) if p.startswith(flag)) + 1])


def _normalized(function: str) -> list[str]:
    """A dispatch function's lines without SSA names, constants (placed by later canonicalizations) and
    ``tensor.dim`` (which codegen's own clean-ups decide), stripped."""
    lines = []
    for line in function.splitlines():
        line = re.sub(r"%[\w#]+", "%", line).strip()
        if line and "arith.constant" not in line and "tensor.dim" not in line and not line.startswith("//"):
            lines.append(line)
    return lines


@pytest.mark.parametrize(
    "dump,name",
    [
        ("18-materialize-device-encoding.gemm.after.mlir", "matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32"),
        ("19-materialize-device-encoding.relayout.after.mlir", "_encoding_0_encode_DxDxf32_to_DxDxf32"),
    ],
)
def test_walkthrough_dispatch_functions_are_dumps_18_and_19(matmul_stream, dump, name):
    """Bindings, push constants, offsets and assumptions as the walkthrough prints them, up to SSA names."""
    from conftest import require_reference

    reference = (require_reference() / "seed-walkthrough" / dump).read_text()
    pipeline = _codegen_until("iree-codegen-materialize-device-encoding")
    result = run_opt([str(matmul_stream), "-p", pipeline, "--mlir-print-local-scope"])
    assert result.returncode == 0, result.stderr
    text = result.stdout
    ours = text[text.index(f"func.func @{name}()") :]
    ours = ours[: ours.index("return") + len("return")]
    theirs = reference[reference.index(f"func.func @{name}()") :]
    theirs = theirs[: theirs.index("return") + len("return")]
    assert _normalized(ours) == _normalized(theirs)
