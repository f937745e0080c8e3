"""The whole data-tiling pipeline, from a plain `func.func` on tensors to HAL executables, keeps results.

`data-tiling{target=T}` runs `data-tiling-dispatch-creation`, `data-tiling-stream`
and `data-tiling-codegen`. For every program of Inputs/ and every target the
issue names (x86_64 AVX2 and AVX-512, aarch64, VMVX, gfx942, two devices) the
final IR must hold no encoding at all and compute what the input computes. The
walkthrough's matmul is also checked pass by pass (`--verify-each-with-interpreter`)
on each target, and its gfx942 stream half must print dump 17.

Programs the GPU lowering cannot take are refused with a clear error, never
miscompiled: matvec/vecmat (no `inner_tiled` without both M and N; IREE cannot
either, iree-org/iree#23046). In the IREE 3.13 era their vector operands hold
whole intrinsic tiles, which the contraction takes but no encode dispatch can
write: the pipeline refuses the layout itself. Elementwise consumers of a swizzled GPU result
(bias + relu) run on its swizzled tiles and must keep their results.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, require_reference, run_opt

INPUTS = Path(__file__).parent / "Inputs"
MATMUL = REPO / "examples" / "matmul.mlir"

TARGETS = {
    "avx2": "x86_64:+avx,+avx2,+fma",
    "avx512": "x86_64:+avx512f",
    "aarch64": "aarch64:+neon,+i8mm",
    "vmvx": "vmvx",
    "gfx942": "gfx942",
    "two-devices": "vmvx,x86_64:+avx512f",
}

PROGRAMS = sorted(p.stem for p in INPUTS.glob("*.mlir") if p.stem != "two_devices")
# Every single-device program on every target; the two-device program needs two devices.
CASES = [(program, target) for program in PROGRAMS for target in TARGETS] + [("two_devices", "two-devices")]

# (program, target) pairs the GPU lowering refuses, with the diagnostic it gives.
GPU_REFUSED = {
    "matvec": "only matmul-like contractions (with M and N loops) lower to iree_codegen.inner_tiled",
    "vecmat": "only matmul-like contractions (with M and N loops) lower to iree_codegen.inner_tiled",
}

# The same programs in the IREE 3.13 era: the whole-tile layout of a vector operand is refused
# when its storage size is computed (IREE's verifyPackedLayoutWithType).
GPU_REFUSED_3_13 = {
    "matvec": "swizzle expandShape size (2) does not match innerTileSizes size (1)",
    "vecmat": "swizzle expandShape size (2) does not match innerTileSizes size (1)",
}


def _pipeline(target: str) -> str:
    return f"data-tiling{{target={target}}}"


def _compile(path: Path, target: str, *extra: str):
    return run_opt([str(path), "-p", _pipeline(target), *extra])


def _assert_same_results(source: Path, compiled: str, size: int) -> None:
    """The compiled module's public functions give the source's results on the same seeded inputs."""
    from mini_iree.compiler.interpreter import parse_module_text
    from mini_iree.compiler.interpreter.verify_each import ResultChecker, ResultsChanged

    checker = ResultChecker(parse_module_text(source.read_text(), str(source)), seed=3, dynamic_size=size)
    try:
        checker.check(parse_module_text(compiled, "<compiled>"), "data-tiling")
    except ResultsChanged as err:
        pytest.fail(err.message)


@pytest.mark.parametrize("program,target", CASES)
def test_whole_pipeline_keeps_results(program: str, target: str):
    path = INPUTS / f"{program}.mlir"
    result = _compile(path, TARGETS[target])
    if target == "gfx942" and program in GPU_REFUSED:
        assert result.returncode == 1, result.stdout
        assert GPU_REFUSED[program] in result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""
        return
    assert result.returncode == 0, result.stderr
    # Nothing of the encoding dialect survives codegen: no op, no encoded type.
    assert "iree_encoding" not in result.stdout
    assert "hal.executable" in result.stdout or "dispatch" not in result.stdout
    for size in (0, 7) if program != "two_devices" else (5,):
        _assert_same_results(path, result.stdout, size)


@pytest.mark.parametrize("program", sorted(GPU_REFUSED_3_13))
def test_gpu_vector_contractions_refused_in_iree_3_13(program: str):
    result = _compile(INPUTS / f"{program}.mlir", TARGETS["gfx942"], "--iree-era=3.13")
    assert result.returncode == 1, result.stdout
    assert GPU_REFUSED_3_13[program] in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("target", TARGETS)
def test_walkthrough_matmul_pass_by_pass(target: str):
    """Every pass of the pipeline keeps the results of the walkthrough's matmul (sizes cross the tiles)."""
    result = _compile(MATMUL, TARGETS[target], "--verify-each-with-interpreter", "--interpreter-dynamic-size=9")
    assert result.returncode == 0, result.stderr
    assert "pass 'iree-codegen-combine-layout-transformation' kept the results" in result.stderr


def test_two_devices_get_one_executable_copy_each():
    result = run_opt(
        [str(INPUTS / "two_devices.mlir"), "-p", f"data-tiling-dispatch-creation,data-tiling-stream{{target={TARGETS['two-devices']}}}"]
    )
    assert result.returncode == 0, result.stderr
    executables = re.findall(r"stream\.executable private @(\w*dispatch\w*)", result.stdout)
    assert executables == ["on_vmvx_dispatch_0", "on_vmvx_dispatch_0_dup0"]
    # Each copy's bindings carry its own device's layouts: VMVX 8x4 tiles, AVX-512 16x1.
    assert "vmvx_encoding_resolver" in result.stdout and "innerTileSizes = [8, 4]" in result.stdout
    assert "cpu_encoding_resolver" in result.stdout and "innerTileSizes = [16, 1]" in result.stdout


def test_final_ir_runs_with_mini_iree_run(tmp_path):
    """`mini-iree-run` on the pipeline's output computes A @ B."""
    from mini_iree.compiler.interpreter import run

    result = _compile(MATMUL, TARGETS["avx2"])
    assert result.returncode == 0, result.stderr
    rng = np.random.default_rng(0)
    a = rng.standard_normal((37, 53)).astype(np.float32)
    b = rng.standard_normal((53, 29)).astype(np.float32)
    (c,) = run(result.stdout, "matmul_f32f32f32", a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def _normalize(text: str) -> list[str]:
    """Lines without indentation, comments and the ABI attributes our wrap-entry-points does not emit."""
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        lines.append(re.sub(r" attributes \{iree\.abi\.stub, iree\.reflection = \{[^}]*\}\}", "", line))
    return lines


def test_gfx942_stream_half_prints_walkthrough_dump_17():
    """The walkthrough's dumps 09-16 print `iree.abi.stub`/`iree.reflection` on the entry point while
    its dumps 00-08 do not; we follow 00-08 and compare without them."""
    reference = require_reference() / "seed-walkthrough" / "17-materialize-encodings.after.mlir"
    result = run_opt([str(MATMUL), "-p", "data-tiling-dispatch-creation,data-tiling-stream{target=gfx942}"])
    assert result.returncode == 0, result.stderr
    assert _normalize(result.stdout) == _normalize(reference.read_text())


def test_codegen_half_on_gfx942_has_the_walkthrough_shapes():
    """Dumps 18-23's shapes, transposes and map_scatter bodies (bindings differ: one per resource)."""
    result = _compile(MATMUL, "gfx942")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert (
        "tensor<?x?x8x4x4x4x4xf32>, tensor<?x?x4x2x4x16x4xf32> into tensor<?x?x4x8x2x4x16x4xf32>" in out
    )
    assert "#iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8" in out
    # The result's relayout folded into one map_scatter with a bounds mask; the inputs'
    # into map_scatters whose padding is written by scf.forall loops.
    assert out.count("iree_linalg_ext.map_scatter") == 3
    assert "arith.cmpi ult" in out and "scf.forall" in out
    assert "linalg.pack" not in out and "linalg.unpack" not in out


STREAM_PREFIX = ",".join(
    [
        "data-tiling-dispatch-creation{target=gfx942}",
        "iree-dispatch-creation-convert-dispatch-regions-to-workgroups",
        "iree-flow-capture-dynamic-dims",
        "canonicalize",
        "cse",
        "iree-flow-outline-dispatch-regions",
        "iree-flow-annotate-dispatches",
        "iree-flow-deduplicate-executables",
        "iree-stream-conversion",
    ]
)


def _host_function(lines: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith("util.func public @matmul_f32f32f32"))
    return lines[start:]


def _tokens(lines: list[str]) -> str:
    """The text with all layout whitespace gone: the walkthrough wraps long ops over several lines."""
    text = re.sub(r"\s+", " ", " ".join(lines))
    return re.sub(r"\s*([\[\]{}()<>,:=])\s*", r"\1", text)


@pytest.mark.parametrize(
    "dump,passes,host_only",
    [
        ("10-convert-to-stream.after.mlir", "", False),
        ("13-specialize-encodings.after.mlir", "canonicalize,cse,iree-stream-specialize-encodings", False),
        (
            "16-encode-host-tensors.after.mlir",
            "canonicalize,cse,iree-stream-specialize-encodings,iree-stream-encode-host-tensors",
            True,
        ),
    ],
)
def test_gfx942_stages_print_walkthrough_dumps(dump: str, passes: str, host_only: bool):
    """Our pipeline, stopped after a pass, prints the walkthrough's dump of that pass."""
    reference = (require_reference() / "seed-walkthrough" / dump).read_text()
    pipeline = STREAM_PREFIX + ("," + passes if passes else "")
    # Dump 16 is the host function alone, so its encodings are written in place, not as aliases.
    result = run_opt([str(MATMUL), "-p", pipeline, *(["--mlir-print-local-scope"] if host_only else [])])
    assert result.returncode == 0, result.stderr
    expected, actual = _normalize(reference), _normalize(result.stdout)
    if host_only:
        expected = _host_function(expected)
        actual = _host_function(actual)[: len(expected)]
    assert _tokens(actual) == _tokens(expected)


@pytest.mark.parametrize("program", ["dynamic-matmul", "elementwise-producer-consumer", "const-weight-matmul"])
def test_iree313_programs_get_iree313_layouts_sizes_and_names(program: str):
    """From IREE 3.13's own inputs on the host CPU (AVX2), the stream half gives the layouts, byte-size
    arithmetic and executable names of 3.13's MaterializeEncodings dump. (3.13's input form differs from the
    walkthrough's elsewhere, e.g. `stream.async.cast` and `overflow<nsw>`, so those are compared, not the text.)"""
    folder = require_reference() / "iree-3.13" / program
    reference = next(folder.glob("1[34]_MaterializeEncodingsPass.mlir")).read_text()
    result = run_opt(
        [str(folder / "input.mlir"), "-p", f"data-tiling-dispatch-creation,data-tiling-stream{{target={TARGETS['avx2']}}}"]
    )
    assert result.returncode == 0, result.stderr

    def layouts(text: str) -> set[str]:
        return set(re.findall(r"^#encoding\d* = (#iree_encoding\.layout<.*)$", text, re.M))

    def names(text: str) -> list[str]:
        return sorted(re.findall(r"stream\.executable(?:\.export)? (?:private|public) @(\w+)", text))

    def sizes(text: str) -> set[str]:
        return set(re.findall(r"arith\.constant (\d+) : index", text))

    def arithmetic(text: str) -> list[int]:
        return [len(re.findall(rf"arith\.{op} ", text)) for op in ("ceildivsi", "muli")]

    assert layouts(result.stdout) == layouts(reference) != set()
    assert names(result.stdout) == names(reference)
    assert sizes(result.stdout) == sizes(reference)
    assert arithmetic(result.stdout) == arithmetic(reference)


# Programs the pipeline used to refuse, each checked pass by pass where it used to fail.
@pytest.mark.parametrize(
    "program,target",
    [
        ("matmul_u8", "vmvx"),
        ("matmul_broadcast_lhs", "avx2"),
        ("matmul_broadcast_lhs", "vmvx"),
        ("matmul_broadcast_lhs", "gfx942"),
        ("call_private_helper", "avx512"),
        ("call_private_helper", "gfx942"),
    ],
)
def test_valid_programs_compile_pass_by_pass(program: str, target: str):
    result = _compile(INPUTS / f"{program}.mlir", TARGETS[target], "--verify-each-with-interpreter", "--interpreter-dynamic-size=9")
    assert result.returncode == 0, result.stderr
    assert "pass 'iree-codegen-combine-layout-transformation' kept the results" in result.stderr


def test_unsigned_contraction_on_vmvx_zero_extends_into_mmt4d():
    """mmt4d sign-extends: the packed `ui8` operands are zero-extended to i32 first (IREE's createElementWiseExtUIOp)."""
    from mini_iree.compiler.interpreter import run

    result = _compile(INPUTS / "matmul_u8.mlir", TARGETS["vmvx"])
    assert result.returncode == 0, result.stderr
    assert "linalg.mmt4d ins(%" in result.stdout and "tensor<?x?x8x4xi32>, tensor<?x?x8x4xi32>" in result.stdout
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, (13, 21)).astype(np.int8)
    b = rng.integers(-128, 128, (21, 10)).astype(np.int8)
    (c,) = run(result.stdout, "matmul_u8u8i32", a, b)
    expected = a.view(np.uint8).astype(np.int32) @ b.view(np.uint8).astype(np.int32)
    np.testing.assert_array_equal(c, expected)


@pytest.mark.parametrize("target", ["avx2", "vmvx", "gfx942"])
def test_broadcast_matmul_keeps_the_identity_layout(target: str):
    """No loop of a broadcast LHS's result is M: hinted and encoded as IREE does, but no packed layout has
    room for it, so every resolver gives the identity layout and the matmul runs as it is."""
    dispatch_creation = run_opt([str(INPUTS / "matmul_broadcast_lhs.mlir"), "-p", "data-tiling-dispatch-creation"])
    assert dispatch_creation.returncode == 0, dispatch_creation.stderr
    assert "#iree_encoding.encoding<operand_index = 0" in dispatch_creation.stdout
    result = _compile(INPUTS / "matmul_broadcast_lhs.mlir", TARGETS[target])
    assert result.returncode == 0, result.stderr
    assert "iree_encoding" not in result.stdout
    if target == "gfx942":
        # GPU executables get named contractions generalized (iree-codegen-gpu-generalize-named-ops).
        assert "linalg.matmul" not in result.stdout
        assert 'linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]}' in result.stdout
    else:
        assert "linalg.matmul indexing_maps" in result.stdout
    assert "mmt4d" not in result.stdout and "inner_tiled" not in result.stdout and "linalg.pack" not in result.stdout


@pytest.mark.parametrize("program", [MATMUL, INPUTS / "matmul_i8.mlir", INPUTS / "matmul_u8.mlir"])
def test_vmvx_microkernel_tiles_are_left_to_the_runtime(program: Path):
    """`vmvx:ukernels=all`: the host sizes buffers for 16-wide tiles, the device asks the runtime for its
    tiles (`iree_codegen.query_tile_sizes`, answered 8x4 for M0/N0 x K0) and packs with them."""
    result = _compile(program, "vmvx:ukernels=all")
    assert result.returncode == 0, result.stderr
    assert "arith.ceildivsi" in result.stdout and "arith.constant 16 : index" in result.stdout
    assert "iree_codegen.query_tile_sizes" in result.stdout
    assert re.search(r"linalg\.mmt4d ins\(.*tensor<\?x\?x\?x\?xi?\w+>, tensor<\?x\?x\?x\?x", result.stdout)
    assert re.search(r"linalg\.pack .* inner_tiles = \[%\w+#0, %\w+#1\]", result.stdout)
    # Only the queries name an encoding: the runtime chooses the tiles from it.
    body = [line for line in result.stdout.splitlines() if not line.startswith("#")]
    assert all("query_tile_sizes" in line for line in body if "#encoding" in line or "iree_encoding" in line)
    for size in (0, 7, 19):
        _assert_same_results(program, result.stdout, size)


def test_gpu_without_resolver_drops_encodings():
    """`encoding-layout-resolver=none`: IREE's identity resolver, the matmul runs unpacked."""
    result = _compile(MATMUL, "gfx942:encoding-layout-resolver=none", "--verify-each-with-interpreter", "--interpreter-dynamic-size=9")
    assert result.returncode == 0, result.stderr
    assert "pass 'iree-codegen-combine-layout-transformation' kept the results" in result.stderr
    assert "iree_encoding" not in result.stdout and "inner_tiled" not in result.stdout
    # Unpacked, then generalized as the LLVMGPU pipeline does with named ops: a matmul-shaped generic.
    assert "linalg.matmul" not in result.stdout
    assert '#linalg.iterator_type<reduction>' in result.stdout or '"reduction"' in result.stdout
