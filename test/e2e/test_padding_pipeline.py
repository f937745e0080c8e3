"""Padding encodings end to end: IREE's GPU padding resolver on gfx942.

The input is a program in the form `iree-dispatch-creation-set-encoding{encoding-option=padding}`
leaves it (Inputs/padding/): a dispatch hands its result to the next one as
`#iree_encoding.padding<[0, ?]>`. With the target spelled
`gfx942:encoding-layout-resolver=pad` (IREE's `--iree-hip-encoding-layout-resolver=pad`),
`data-tiling-stream` resolves the pad for gfx942's L1 cache (128-byte lines,
4 sets) and sizes the padded resource on the host, and `data-tiling-codegen`
writes and reads the padded binding through a subview. Every pass must keep the
results, and the final program must compute what numpy computes. A second input
pads a function argument on the host (`flow.tensor.encode`), so the encoding
dispatch of `iree-stream-materialize-encodings` writes the padded storage; and the
plain program goes through dispatch creation with `encoding-option=padding` first.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

INPUT = Path(__file__).parent / "Inputs" / "padding" / "matmul_chain_padded.mlir"
TARGET = "gfx942:encoding-layout-resolver=pad"
PIPELINE = f"data-tiling-stream{{target={TARGET}}},data-tiling-codegen"


@pytest.fixture(scope="module")
def compiled() -> str:
    result = run_opt([str(INPUT), "-p", PIPELINE])
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("program", [INPUT.name, "host_encode_padded.mlir"])
def test_every_pass_keeps_the_results(program):
    path = INPUT.with_name(program)
    result = run_opt([str(path), "-p", PIPELINE, "--verify-each-with-interpreter", "--interpreter-dynamic-size=5"])
    assert result.returncode == 0, result.stderr
    checked = re.findall(r"pass '([\w-]+)' kept the results of 1 function", result.stderr)
    for name in (
        "iree-stream-specialize-encodings",
        "iree-stream-encode-host-tensors",
        "iree-stream-materialize-encodings",
        "iree-codegen-materialize-device-encoding",
        "iree-codegen-bufferize-dispatch-tensor-load-store",
    ):
        assert name in checked
    final = run_opt([str(path), "-p", PIPELINE])
    # Whoever writes the padded tensor (a dispatch or the host's encoding dispatch) and whoever reads it
    # see a ?x1000 subview of the ?x1056 binding.
    assert len(re.findall(r"memref\.subview %\w+\[0, 0\] \[%\w+, 1000\] \[1, 1\] : memref<\?x1056xf32", final.stdout)) == 2


def test_rows_are_padded_for_gfx942(compiled):
    """1000 x f32 = 4000 bytes: 96 to the next line, then one line more (4096 is a set-span multiple): 56 floats."""
    assert "#iree_encoding" not in compiled
    # The producer writes, and the consumer reads, a ?x1000 subview of the ?x1056 binding.
    assert len(re.findall(r"memref<\?x1056xf32, #hal\.descriptor_type<storage_buffer>>\{", compiled)) == 2
    assert len(re.findall(r"memref\.subview %\w+\[0, 0\] \[%\w+, 1000\] \[1, 1\]", compiled)) == 2
    # The host allocates 1056 * 4 bytes a row.
    assert re.search(r"arith\.muli %\w+, %c4224 overflow<nsw> : index", compiled)


@pytest.mark.parametrize("rows", [1, 7, 33])
def test_results_equal_numpy(compiled, rows):
    from mini_iree.compiler.interpreter import run

    rng = np.random.default_rng(rows)
    lhs = rng.standard_normal((rows, 1000), dtype=np.float32)
    rhs0 = rng.standard_normal((1000, 1000), dtype=np.float32)
    rhs1 = rng.standard_normal((1000, 24), dtype=np.float32)
    (result,) = run(compiled, "matmul_chain", lhs, rhs0, rhs1)
    expected = (lhs.astype(np.float64) @ rhs0 @ rhs1).astype(np.float32)
    assert result.shape == (rows, 24)
    np.testing.assert_allclose(result, expected, rtol=1e-3, atol=1e-2 * np.abs(expected).max())


def test_without_the_padding_resolver_nothing_is_padded():
    """The data-tiling resolver gives a padding encoding no pad: the same program, no padded binding."""
    result = run_opt([str(INPUT), "-p", "data-tiling-stream{target=gfx942},data-tiling-codegen"])
    assert result.returncode == 0, result.stderr
    assert "1056" not in result.stdout and "#iree_encoding" not in result.stdout


def _computes_the_matmul_chain(program: str, seed: int) -> None:
    """The compiled `@matmul_chain` gives numpy's lhs @ rhs0 @ rhs1 on random inputs."""
    from mini_iree.compiler.interpreter import run

    rng = np.random.default_rng(seed)
    lhs = rng.standard_normal((3, 1000), dtype=np.float32)
    rhs0 = rng.standard_normal((1000, 1000), dtype=np.float32)
    rhs1 = rng.standard_normal((1000, 24), dtype=np.float32)
    (got,) = run(program, "matmul_chain", lhs, rhs0, rhs1)
    expected = (lhs.astype(np.float64) @ rhs0 @ rhs1).astype(np.float32)
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-2 * np.abs(expected).max())


def test_from_a_plain_function():
    """The plain program through dispatch creation with `encoding-option=padding`, then the same two halves."""
    plain = INPUT.with_name("matmul_chain.mlir")
    pipeline = (
        "iree-abi-wrap-entry-points,iree-dispatch-creation-form-dispatch-regions,"
        "iree-dispatch-creation-clone-producers-into-dispatch-regions,"
        f"iree-dispatch-creation-set-encoding{{encoding-option=padding}},{PIPELINE}"
    )
    result = run_opt([str(plain), "-p", pipeline])
    assert result.returncode == 0, result.stderr
    assert len(re.findall(r"memref<\?x1056xf32, #hal\.descriptor_type<storage_buffer>>\{", result.stdout)) == 2
    _computes_the_matmul_chain(result.stdout, seed=3)


@pytest.mark.parametrize("target", ["gfx942", "gfx942,vmvx", "x86_64:+avx512f"])
def test_the_pipeline_option(target):
    """`data-tiling{target=T encoding=padding}`: the whole route as one pipeline, from the plain program.

    GPU targets get the padding resolver (rows padded to 1056 floats on gfx942, the program's device when it
    comes first); a CPU has no padding resolver, so its encodings resolve to no padding.
    """
    plain = INPUT.with_name("matmul_chain.mlir")
    pipeline = f"data-tiling{{target={target} encoding=padding}}"
    checked = run_opt([str(plain), "-p", pipeline, "--verify-each-with-interpreter", "-o", "/dev/null"])
    assert checked.returncode == 0, checked.stderr
    result = run_opt([str(plain), "-p", pipeline])
    assert result.returncode == 0, result.stderr
    padded = len(re.findall(r"memref<\?x1056xf32, #hal\.descriptor_type<storage_buffer>>\{", result.stdout))
    assert (padded > 0) == target.startswith("gfx942"), result.stdout
    if "," in target:
        # Only the GPU of several devices takes the padding resolver.
        assert "#iree_gpu.gpu_padding_resolver<>" in result.stdout and "#iree_cpu.vmvx_encoding_resolver<>" in result.stdout
    _computes_the_matmul_chain(result.stdout, seed=5)


def test_an_unknown_encoding_is_a_command_line_error():
    result = run_opt([str(INPUT), "-p", "data-tiling{target=gfx942 encoding=zeros}"])
    assert result.returncode == 1
    assert "option 'encoding' takes data-tiling or padding, not 'zeros'" in result.stderr
