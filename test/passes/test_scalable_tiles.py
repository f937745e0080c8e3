"""Scalable (SVE / RVV) inner tiles: `--iree-llvmcpu-enable-scalable-vectorization` and
`--iree-experimental-vscale-value`.

* the CPU resolver's rules (IREE's getScalableTileFlags and the RISC-V base VLEN);
* a matmul materialized with scalable tiles computes what the encoded program computes,
  whatever the vector length: the interpreter runs `vector.vscale` as the vscale value,
  and the materialized program is run with vscale 1, 2 and 3 against the unmaterialized one;
* the host sizes a scalable layout with the vscale value, and refuses without one.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from conftest import run_opt

from mini_iree.compiler.cpu_options import (
    is_scalable_vectorization_enabled,
    scalable_vectorization,
    set_scalable_vectorization,
    set_vscale_value,
    user_vscale_value,
    vscale_value,
)
from mini_iree.compiler.era import IREE_3_13, WALKTHROUGH
from mini_iree.compiler.interpreter import make_context, run
from mini_iree.compiler.interpreter.vector_ops import interpreter_vscale
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.resolvers.cpu import CPUResolver, scalable_tile_flags
from mini_iree.compiler.resolvers.targets import parse_target
from mini_iree.dialects.iree_encoding import EncodingAttr


@pytest.fixture(autouse=True)
def _reset_options() -> Iterator[None]:
    """mini-iree-opt sets the options for the rest of the process: leave them as the other tests expect."""
    yield
    set_scalable_vectorization(False)
    set_vscale_value(-1)


MAPS = "user_indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]"


def _encoding(operand: int, sizes: str = "?, ?, ?", types: str = "f32, f32, f32") -> EncodingAttr:
    text = f"#iree_encoding.encoding<operand_index = {operand}, op_type = matmul, element_types = [{types}], {MAPS}, iteration_sizes = [{sizes}]>"
    module = parse_mlir(make_context(), f'"test.op"() {{e = {text}}} : () -> ()', "<test>")
    attr = next(iter(module.body.block.ops)).attributes["e"]
    assert isinstance(attr, EncodingAttr)
    return attr


def _info(target: str, operand: int, sizes: str = "?, ?, ?", era=IREE_3_13, types: str = "f32, f32, f32"):
    resolved = parse_target(target)
    return CPUResolver(None, resolved).encoding_info(_encoding(operand, sizes, types), era)  # type: ignore[arg-type]


def test_options_default_off() -> None:
    assert not is_scalable_vectorization_enabled()
    assert user_vscale_value() is None
    assert interpreter_vscale() == 1
    with vscale_value(3):
        assert interpreter_vscale() == 3
    with vscale_value(0):
        assert user_vscale_value() is None


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("aarch64:+sve", [[False, False], [True, False], [False, True]]),
        ("aarch64:+sve2", [[False, False], [True, False], [False, True]]),
        ("riscv64:+v", [[False, False], [True, False], [False, True]]),
        ("aarch64:+neon", [None, None, None]),
        ("aarch64:+sve,+sme", [None, [True, False], None]),
        ("x86_64:+avx512f", [None, None, None]),
        ("riscv64:+m", [None, None, None]),
    ],
)
def test_scalable_tile_flags(target: str, expected: list) -> None:
    resolved = parse_target(target)
    with scalable_vectorization():
        assert [scalable_tile_flags(resolved, _encoding(i)) for i in range(3)] == expected
    assert scalable_tile_flags(resolved, _encoding(1)) is None


def test_riscv_scalable_tiles_use_a_64_bit_vlen() -> None:
    with scalable_vectorization():
        rhs = _info("riscv64:+v,+zvl512b", 1)
        assert (rhs.inner_tile_sizes, rhs.scalable_tiles) == ([8, 1], [True, False])
        # SpacemiT's fixed IME tiles are not scalable: scalable mode takes the RVV tiles.
        ime = _info("riscv64:+v,+zvl256b,+xsmtvdot", 0, types="i8, i8, i32")
        assert (ime.inner_tile_sizes, ime.scalable_tiles) == ([7, 1], [False, False])
        # The walkthrough's IREE had no scalable RISC-V tiles.
        assert _info("riscv64:+v,+zvl512b", 1, era=WALKTHROUGH).inner_tile_sizes == [64, 1]
    assert _info("riscv64:+v,+zvl512b", 1).inner_tile_sizes == [64, 1]
    assert _info("riscv64:+v,+zvl256b,+xsmtvdot", 0, types="i8, i8, i32").inner_tile_sizes == [12, 8]


def test_narrow_n_is_kept_with_scalable_tiles() -> None:
    with scalable_vectorization():
        result = _info("aarch64:+sve", 2, "100, 4, 50")
        assert (result.inner_dims_pos, result.inner_tile_sizes, result.scalable_tiles) == ([0, 1], [8, 8], [False, True])
        walkthrough = _info("aarch64:+sve", 2, "100, 4, 50", era=WALKTHROUGH)
        assert (walkthrough.inner_dims_pos, walkthrough.inner_tile_sizes) == ([1, 0], [4, 8])
        # Not transposed before the flags were added: the M tile is the scalable one.
        assert walkthrough.scalable_tiles == [False, True]
    fixed = _info("aarch64:+sve", 2, "100, 4, 50")
    assert (fixed.inner_dims_pos, fixed.inner_tile_sizes, fixed.scalable_tiles) == ([1, 0], [4, 8], None)


MATMUL = """
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>, %m: index, %n: index, %k: index) -> tensor<?x?xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="TRIPLE", cpu_features="FEATURES", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #lhs>
  %1 = iree_encoding.set_encoding %b encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #rhs>
  %2 = iree_encoding.set_encoding %c encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #res>
  %3 = linalg.matmul ins(%0, %1 : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%2 : tensor<?x?xf32, #res>) -> tensor<?x?xf32, #res>
  %4 = iree_encoding.unset_encoding %3 encoding_dims{%m, %n, %k} : tensor<?x?xf32, #res> -> tensor<?x?xf32>{%m, %n}
  return %4 : tensor<?x?xf32>
}
"""


@pytest.mark.parametrize(("triple", "features"), [("aarch64-xyz-xyz", "+sve"), ("riscv64-xyz-xyz", "+v")])
@pytest.mark.parametrize(("m", "n", "k"), [(5, 13, 3), (8, 16, 1), (1, 30, 7)])
def test_scalable_matmul_keeps_results_for_any_vscale(tmp_path, triple: str, features: str, m: int, n: int, k: int) -> None:
    source = tmp_path / "matmul.mlir"
    text = MATMUL.replace("TRIPLE", triple).replace("FEATURES", features)
    source.write_text(text)
    result = run_opt(
        [
            str(source),
            "--iree-era=3.13",
            "--iree-llvmcpu-enable-scalable-vectorization",
            "--pass-pipeline=builtin.module(func.func(iree-codegen-materialize-device-encoding))",
        ]
    )
    assert result.returncode == 0, result.stderr
    materialized = result.stdout
    assert "vector.vscale" in materialized and "linalg.mmt4d" in materialized
    rng = np.random.default_rng(m * 100 + n * 10 + k)
    a = rng.integers(-3, 4, (m, k)).astype(np.float32)
    b = rng.integers(-3, 4, (k, n)).astype(np.float32)
    c = rng.integers(-3, 4, (m, n)).astype(np.float32)
    (expected,) = run(text, "matmul", a, b, c, m, n, k)
    np.testing.assert_array_equal(expected, a @ b + c)
    for vscale in (1, 2, 3):
        with vscale_value(vscale):
            (got,) = run(materialized, "matmul", a, b, c, m, n, k)
        np.testing.assert_array_equal(got, expected)


def test_packed_operand_grows_with_vscale(tmp_path) -> None:
    """The packed RHS really holds 8 * vscale columns per tile: its padded size changes with vscale."""
    source = tmp_path / "rhs.mlir"
    source.write_text(
        """
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iteration_sizes = [?, ?, ?]>
func.func @rhs(%b: tensor<3x10xf32>) -> tensor<3x10xf32, #rhs> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="aarch64-xyz-xyz", cpu_features="+sve", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %b : tensor<3x10xf32> -> tensor<3x10xf32, #rhs>
  return %0 : tensor<3x10xf32, #rhs>
}
"""
    )
    result = run_opt(
        [str(source), "--iree-llvmcpu-enable-scalable-vectorization", "-p", "iree-codegen-materialize-device-encoding"]
    )
    assert result.returncode == 0, result.stderr
    b = np.arange(30, dtype=np.float32).reshape(3, 10)
    shapes = {}
    for vscale in (1, 2, 4):
        with vscale_value(vscale):
            (packed,) = run(result.stdout, "rhs", b)
        shapes[vscale] = packed.shape
        tile = 8 * vscale
        # N1 x K1 x N0 x K0, zero-padded: tile j holds columns j*tile ... of b.
        padded = np.zeros((3, -(-10 // tile) * tile), np.float32)
        padded[:, :10] = b
        np.testing.assert_array_equal(packed[..., 0], padded.T.reshape(-1, tile, 3).transpose(0, 2, 1))
    assert shapes == {1: (2, 3, 8, 1), 2: (1, 3, 16, 1), 4: (1, 3, 32, 1)}


def test_verify_each_with_interpreter_runs_vscale(tmp_path) -> None:
    source = tmp_path / "matmul.mlir"
    source.write_text(MATMUL.replace("TRIPLE", "aarch64-xyz-xyz").replace("FEATURES", "+sve"))
    for vscale in ("1", "2"):
        result = run_opt(
            [
                str(source),
                "--iree-era=3.13",
                "--iree-llvmcpu-enable-scalable-vectorization",
                f"--iree-experimental-vscale-value={vscale}",
                "-p",
                "iree-codegen-materialize-device-encoding",
                "--verify-each-with-interpreter",
                "--interpreter-dynamic-size=11",
            ]
        )
        assert result.returncode == 0, result.stderr
        assert "kept the results" in result.stderr


LAYOUT = (
    "#iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {"
    "innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1], scalableTiles = [true, false]}}>]>"
)


def test_host_size_needs_a_vscale_value(tmp_path) -> None:
    source = tmp_path / "sizeof.mlir"
    source.write_text(
        f"util.func public @f() -> index {{\n  %0 = stream.tensor.sizeof tensor<24x8xf32, {LAYOUT}> : index\n"
        "  util.return %0 : index\n}\n"
    )
    result = run_opt([str(source), "-p", "iree-stream-encode-host-tensors"])
    assert result.returncode != 0
    assert "--iree-experimental-vscale-value" in result.stderr
    for vscale, size in ((1, 24 * 8 * 4), (2, 32 * 8 * 4), (4, 32 * 8 * 4), (5, 40 * 8 * 4)):
        result = run_opt([str(source), "-p", "iree-stream-encode-host-tensors", f"--iree-experimental-vscale-value={vscale}"])
        assert result.returncode == 0, result.stderr
        assert f"arith.constant {size} : index" in result.stdout


def test_mini_iree_run_takes_the_vscale_value(tmp_path, capsys) -> None:
    from mini_iree.compiler.tools.run_main import main as run_main

    source = tmp_path / "rhs.mlir"
    source.write_text(
        """
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iteration_sizes = [?, ?, ?]>
func.func @rhs(%b: tensor<1x10xf32>) -> tensor<1x10xf32, #rhs> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="aarch64-xyz-xyz", cpu_features="+sve", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %b : tensor<1x10xf32> -> tensor<1x10xf32, #rhs>
  return %0 : tensor<1x10xf32, #rhs>
}
"""
    )
    packed = tmp_path / "rhs.packed.mlir"
    result = run_opt(
        [str(source), "--iree-llvmcpu-enable-scalable-vectorization", "-p", "iree-codegen-materialize-device-encoding", "-o", str(packed)]
    )
    assert result.returncode == 0, result.stderr
    capsys.readouterr()
    assert run_main([str(packed), "--input=1x10xf32=1"]) == 0
    assert "2x1x8x1xf32=" in capsys.readouterr().out
    assert run_main([str(packed), "--input=1x10xf32=1", "--iree-experimental-vscale-value=2"]) == 0
    assert "1x1x16x1xf32=" in capsys.readouterr().out


def test_semi_affine_maps_parse_print_and_run() -> None:
    """A symbol divisor or factor (MLIR's semi-affine maps), which xDSL alone refuses to build."""
    text = """
#div = affine_map<()[s0, s1] -> (s0 ceildiv s1)>
#mul = affine_map<()[s0, s1] -> ((s0 ceildiv s1) * s1)>
#mod = affine_map<(d0)[s0] -> (d0 mod s0, d0 floordiv s0)>
func.func @f(%a: index, %b: index) -> (index, index, index, index) {
  %0 = affine.apply #div()[%a, %b]
  %1 = affine.apply #mul()[%a, %b]
  %2 = affine.apply affine_map<()[s0] -> (16 ceildiv s0)>()[%b]
  %3 = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%a)[%b]
  return %0, %1, %2, %3 : index, index, index, index
}
"""
    module = parse_mlir(make_context(), text, "<test>")
    printed = str(module)
    for form in ("s0 ceildiv s1", "(s0 ceildiv s1) * s1", "16 ceildiv s0", "d0 mod s0"):
        assert form in printed
    assert [int(v) for v in run(text, "f", 21, 8)] == [3, 24, 2, 5]


@pytest.mark.parametrize(
    ("flag", "scalable"),
    [
        ("--iree-llvmcpu-enable-scalable-vectorization", True),
        ("--iree-llvmcpu-enable-scalable-vectorization=true", True),
        ("-iree-llvmcpu-enable-scalable-vectorization=1", True),
        ("--iree-llvmcpu-enable-scalable-vectorization=false", False),
    ],
)
def test_flag_spellings(tmp_path, flag: str, scalable: bool) -> None:
    source = tmp_path / "matmul.mlir"
    source.write_text(MATMUL.replace("TRIPLE", "aarch64-xyz-xyz").replace("FEATURES", "+sve"))
    result = run_opt([str(source), "--iree-era=3.13", flag, "-p", "iree-codegen-materialize-device-encoding"])
    assert result.returncode == 0, result.stderr
    assert ("vector.vscale" in result.stdout) == scalable


def test_bad_flag_values(tmp_path) -> None:
    source = tmp_path / "empty.mlir"
    source.write_text("module {\n}\n")
    result = run_opt([str(source), "--iree-llvmcpu-enable-scalable-vectorization=maybe"])
    assert result.returncode == 1
    assert "'maybe' is invalid value for boolean argument" in result.stderr
    result = run_opt([str(source), "--iree-experimental-vscale-value=two"])
    assert result.returncode == 1


@pytest.mark.parametrize("vscale", [1, 2, 3])
def test_whole_sve_pipeline_keeps_results(vscale: int):
    # Host sizes and the interpreter's storage both hold `tile * vscale` elements per scalable tile.
    from pathlib import Path

    matmul = Path(__file__).parents[2] / "examples" / "matmul.mlir"
    result = run_opt([str(matmul), "-p", "data-tiling{target=aarch64:+sve}", "--iree-llvmcpu-enable-scalable-vectorization",
                      f"--iree-experimental-vscale-value={vscale}", "--verify-each-with-interpreter",
                      "--interpreter-dynamic-size=7", "-o", "/dev/null"])  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "pass 'iree-codegen-combine-layout-transformation' kept the results" in result.stderr
