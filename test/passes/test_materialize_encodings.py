"""iree-stream-materialize-encodings keeps results and reproduces walkthrough dump 17 and IREE 3.13's dumps.

Each ``stream.tensor.encode`` becomes a dispatch of a generated ``@_encoding_N``
executable whose function loads, sets (or unsets) the encoding and stores. The
programs run before and after with ``--verify-each-with-interpreter``; the
interpreter checks that every binding holding an encoded tensor has room for
its stored layout, so the sizes the dispatch passes must be right too.
"""

from __future__ import annotations

import re

import pytest
from conftest import require_reference, run_opt

PASS = "iree-stream-materialize-encodings"
HOST = "iree-stream-encode-host-tensors"
DEVICE = "iree-stream-encode-device-tensors"
PIPELINE = f"{HOST},{DEVICE},{PASS}"


def _run(path, pipeline: str, size: int = 13):
    return run_opt([str(path), "-p", pipeline, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])


def _write(tmp_path, text: str):
    path = tmp_path / "input.mlir"
    path.write_text(text)
    return path


def _normalized(path_or_text, tmp_path=None) -> str:
    """A file printed by mini-iree-opt: IREE's dumps and ours then differ only where the IR does."""
    if tmp_path is not None:
        path_or_text = _write(tmp_path, path_or_text)
    result = run_opt([str(path_or_text)])
    assert result.returncode == 0, result.stderr
    return result.stdout


# ---------------------------------------------------------------------------
# The walkthrough and IREE 3.13
# ---------------------------------------------------------------------------


def test_walkthrough_dump_13_gives_dump_17():
    """13 -> encode-host -> encode-device -> materialize is dump 17, up to SSA names."""
    reference = require_reference() / "seed-walkthrough"
    result = run_opt([str(reference / "13-specialize-encodings.after.mlir"), "-p", PIPELINE])
    assert result.returncode == 0, result.stderr
    assert result.stdout == _normalized(reference / "17-materialize-encodings.after.mlir")


def test_walkthrough_dump_16_gives_dump_17(tmp_path):
    """Dump 16 is the host function only: with dump 13's executable around it, the pass gives dump 17."""
    reference = require_reference() / "seed-walkthrough"
    dump13 = (reference / "13-specialize-encodings.after.mlir").read_text()
    dump16 = (reference / "16-encode-host-tensors.after.mlir").read_text()
    function16 = dump16[dump16.index("util.func public @matmul_f32f32f32") :]
    module = dump13[: dump13.index("util.func public @matmul_f32f32f32")] + function16 + "\n}\n"
    result = run_opt([str(_write(tmp_path, module)), "-p", PASS])
    assert result.returncode == 0, result.stderr
    expected = _normalized(reference / "17-materialize-encodings.after.mlir")
    # Dump 16 prints the function without its ABI attributes; everything else must agree.
    header = r"(util\.func public @matmul_f32f32f32\([^)]*\) -> !hal\.buffer_view) attributes \{.*\} \{"
    expected = re.sub(header, r"\1 {", expected)
    assert result.stdout == expected


@pytest.mark.parametrize(
    ("program", "dump"),
    [
        ("dynamic-matmul", "13_MaterializeEncodingsPass.mlir"),
        ("gfx942-dynamic-matmul", "13_MaterializeEncodingsPass.mlir"),
        ("elementwise-producer-consumer", "14_MaterializeEncodingsPass.mlir"),
        ("const-weight-matmul", "14_MaterializeEncodingsPass.mlir"),
    ],
)
def test_iree_3_13_dumps_are_reproduced(program, dump):
    """10_SpecializeEncodingsPass through the three passes ({era=3.13}) is IREE 3.13's MaterializeEncodings dump."""
    folder = require_reference() / "iree-3.13" / program
    pipeline = f"{HOST}{{era=3.13}},{DEVICE},{PASS}"
    result = run_opt([str(folder / "10_SpecializeEncodingsPass.mlir"), "-p", pipeline])
    assert result.returncode == 0, result.stderr
    assert result.stdout == _normalized(folder / dump)


# ---------------------------------------------------------------------------
# Results are kept
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [1, 9, 200])
def test_walkthrough_keeps_results(size):
    dump = require_reference() / "seed-walkthrough" / "13-specialize-encodings.after.mlir"
    result = _run(dump, PIPELINE, size)
    assert result.returncode == 0, result.stderr
    assert f"pass '{PASS}' kept the results" in result.stderr


@pytest.mark.parametrize("program", ["dynamic-matmul", "elementwise-producer-consumer", "gfx942-dynamic-matmul"])
def test_iree_3_13_programs_keep_results(program):
    dump = require_reference() / "iree-3.13" / program / "10_SpecializeEncodingsPass.mlir"
    result = _run(dump, f"{HOST}{{era=3.13}},{DEVICE},{PASS}", 17)
    assert result.returncode == 0, result.stderr
    assert f"pass '{PASS}' kept the results" in result.stderr


def test_const_weight_keeps_results_with_a_splat_weight(tmp_path):
    """The weight is elided in 3.13's dump; a splat stands in, so the initializer's encode dispatch runs."""
    dump = require_reference() / "iree-3.13" / "const-weight-matmul" / "10_SpecializeEncodingsPass.mlir"
    text = dump.read_text().replace("dense_resource<__elided__> : tensor<256x512xf32>", "dense<0.25> : tensor<256x512xf32>")
    result = _run(_write(tmp_path, text), f"{HOST}{{era=3.13}},{DEVICE},{PASS}", 6)
    assert result.returncode == 0, result.stderr
    assert f"pass '{PASS}' kept the results" in result.stderr


def _matmul_program(*args) -> str:
    from encoded_stream_programs import matmul_program

    return matmul_program(*args)


F32 = ("f32", "f32", "f32")
I8 = ("i8", "i8", "i32")


@pytest.mark.parametrize(
    ("sizes", "types", "devices"),
    [
        ((None, None, None), F32, ["x86"]),
        ((255, 1023, 513), F32, ["x86"]),
        ((1, 4096, 512), F32, ["x86-matvec"]),  # matvec
        ((None, None, None), I8, ["aarch64-i8"]),
        ((None, None, None), F32, ["gfx942"]),
        ((None, None, None), F32, ["x86", "gfx942"]),
    ],
)
def test_generated_matmuls_keep_results(tmp_path, sizes, types, devices):
    path = _write(tmp_path, _matmul_program(*sizes, types, devices))
    result = _run(path, PIPELINE, 23)
    assert result.returncode == 0, result.stderr
    assert f"pass '{PASS}' kept the results" in result.stderr
    assert "stream.tensor.encode" not in result.stdout


def test_batch_matmul_keeps_results(tmp_path):
    from test_encode_host_tensors import _BATCH

    result = _run(_write(tmp_path, _BATCH), PIPELINE, 10)
    assert result.returncode == 0, result.stderr
    assert f"pass '{PASS}' kept the results" in result.stderr
    assert "@_encoding_0_encode_3xDxDxf32_to_3xDxDxf32" in result.stdout


# ---------------------------------------------------------------------------
# Executables: names and sharing
# ---------------------------------------------------------------------------


def _exports(text: str) -> list[str]:
    return re.findall(r"stream\.executable\.export public @(\w+)", text)


def test_static_names(tmp_path):
    path = _write(tmp_path, _matmul_program(255, 1023, 513, F32, ["x86"]))
    result = run_opt([str(path), "-p", PIPELINE])
    assert result.returncode == 0, result.stderr
    assert _exports(result.stdout) == [
        "ex0",
        "_encoding_0_encode_255x513xf32_to_255x513xf32",
        "_encoding_1_encode_513x1023xf32_to_513x1023xf32",
    ]


def test_devices_with_the_same_layouts_share_executables(tmp_path):
    path = _write(tmp_path, _matmul_program(None, None, None, F32, ["x86", "x86"]))
    result = run_opt([str(path), "-p", PIPELINE])
    assert result.returncode == 0, result.stderr
    assert [e for e in _exports(result.stdout) if e.startswith("_encoding")] == [
        "_encoding_0_encode_DxDxf32_to_DxDxf32",
        "_encoding_1_encode_DxDxf32_to_DxDxf32",
    ]
    # Both devices' LHS encodes dispatch the one LHS executable.
    assert result.stdout.count("@_encoding_0::@_encoding_0_encode_DxDxf32_to_DxDxf32[") == 2
    assert result.stdout.count("stream.async.dispatch") == 2 + 4


def test_devices_with_different_layouts_get_their_own(tmp_path):
    path = _write(tmp_path, _matmul_program(None, None, None, F32, ["x86", "gfx942"]))
    result = run_opt([str(path), "-p", PIPELINE])
    assert result.returncode == 0, result.stderr
    assert len([e for e in _exports(result.stdout) if e.startswith("_encoding")]) == 4
