"""Packed buffers read as views of their pack's source (``relayout_origins.py``).

The data-tiling pipeline's encoding dispatches pack A and B into tiles; the
matmul dispatch loads the packed buffers, and its ``mmt4d`` wants them as plain
matrices again. When a pack wrote every element from a read-only source, the
interpreter hands the load a strided view of the source instead, which BLAS
reads without a copy. These tests check that the results are bit for bit those
of the general path (odd shapes with padding, tile multiples, static and
dynamic shapes, sizes where BLAS blocks its work), that the shortcut is taken
where it applies, and that a write into the packed buffer or its source after
the pack makes the interpreter read the buffer again.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from mini_iree.compiler.interpreter import find_function, make_interpreter, parse_module_text, relayout_origins
from mini_iree.compiler.interpreter.padded_products import PaddedProduct
from mini_iree.compiler.interpreter.relayout_origins import RelayoutOrigins, note_flat_write, note_write

RNG = np.random.default_rng(11)

AVX2 = "x86_64:+avx,+avx2,+fma"
AVX512 = "x86_64:+avx512f"

STATIC = """
func.func @matmul_f32f32f32(%a: tensor<{M}x{K}xf32>, %b: tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{M}x{N}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>) outs(%f : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}"""

EXAMPLE = __import__("pathlib").Path(__file__).resolve().parents[2] / "examples" / "matmul.mlir"


def _data_tiling(tmp_path, text: str, target: str) -> str:
    from conftest import run_opt

    source, output = tmp_path / "in.mlir", tmp_path / "out.mlir"
    source.write_text(text)
    result = run_opt([str(source), "-p", f"data-tiling{{target={target}}}", "-o", str(output)])
    assert result.returncode == 0, result.stderr
    return output.read_text()


def _results(text: str, inputs) -> list[np.ndarray]:
    module = parse_module_text(text)
    interpreter = make_interpreter(module)
    function = find_function(module, "matmul_f32f32f32")
    return [np.array(interpreter.call_op(function, (a, b))[0], copy=True) for a, b in inputs]


def _count_origins(monkeypatch) -> list:
    """The views loads were handed instead of their buffers."""
    handed: list = []
    real = RelayoutOrigins.origin

    def origin(self, buffer):
        view = real(self, buffer)
        if view is not None:
            handed.append(view.shape)
        return view

    monkeypatch.setattr(RelayoutOrigins, "origin", origin)
    return handed


def _count_padded(monkeypatch) -> list:
    """The contractions computed from padded packs' sources (``padded_products.PaddedProduct``):
    whether each multiplied the sources in place."""
    made: list = []
    real = PaddedProduct.__call__

    def call(self, a, b, pool):
        made.append(self.in_place)
        return real(self, a, b, pool)

    monkeypatch.setattr(PaddedProduct, "__call__", call)
    return made


def _origins_off(monkeypatch) -> None:
    monkeypatch.setattr(RelayoutOrigins, "record", lambda self, buffer, view: None)
    monkeypatch.setattr(RelayoutOrigins, "record_padded", lambda self, buffer, source, plan, pad: None)


def _inputs(shapes):
    return [
        (RNG.standard_normal((m, k)).astype(np.float32), RNG.standard_normal((k, n)).astype(np.float32))
        for m, k, n in shapes
    ]


@pytest.mark.parametrize("target", [AVX2, AVX512])
def test_dynamic_pipeline_gives_the_same_bits_with_and_without_origins(monkeypatch, tmp_path, target):
    text = _data_tiling(tmp_path, EXAMPLE.read_text(), target)
    # (M, K, N): tile multiples (the shortcut applies), padding in M or N or both
    # (it does not, for that operand), sizes where BLAS blocks its loops, one row.
    shapes = [(16, 24, 32), (13, 7, 10), (48, 300, 64), (50, 33, 64), (64, 33, 50), (1, 9, 5), (16, 24, 32)]
    inputs = _inputs(shapes)
    handed = _count_origins(monkeypatch)
    padded = _count_padded(monkeypatch)
    fast = _results(text, inputs)
    tile = 8 if target == AVX2 else 16
    # Each operand whose tiled dimension is a tile multiple is read through its source.
    expected = sum((m % tile == 0) + (n % tile == 0) for m, _, n in shapes)
    assert len(handed) == expected
    # A product with a padded operand makes its matrices from the sources.
    assert len(padded) == sum(bool(m % tile or n % tile) for m, _, n in shapes)
    _origins_off(monkeypatch)
    general = _results(text, inputs)
    for (a, b), got, want in zip(inputs, fast, general):
        np.testing.assert_array_equal(got, want)
        np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("m,k,n", [(64, 96, 40), (256, 512, 320), (40, 17, 24)])
def test_static_pipeline_gives_the_same_bits_with_and_without_origins(monkeypatch, tmp_path, m, k, n):
    text = _data_tiling(tmp_path, STATIC.format(M=m, K=k, N=n), AVX2)
    inputs = _inputs([(m, k, n)] * 2)
    handed = _count_origins(monkeypatch)
    fast = _results(text, inputs)
    assert len(handed) == 2 * 2  # both operands, both calls
    _origins_off(monkeypatch)
    general = _results(text, inputs)
    for got, want in zip(fast, general):
        np.testing.assert_array_equal(got, want)


def _store_after_pack(text: str, executable: str) -> str:
    """``text`` with the encoding dispatch ``executable`` also writing 42 into its packed
    buffer's first element, after the pack is stored (a program the shortcut must see)."""
    start = text.index(f"hal.executable private @{executable} ")
    # The buffer's type runs to the end of the line (a binding at an offset is `strided<[...], offset: N>`).
    store = re.compile(r"(\n(\s*)iree_codegen\.store_to_buffer %\w+, (%\w+) : [^\n]* into (memref<[^\n]*>))")
    found = store.search(text, start)
    assert found is not None
    indent, buffer, type_ = found.group(2), found.group(3), found.group(4)
    extra = (
        f"\n{indent}%forty_two = arith.constant 4.200000e+01 : f32"
        f"\n{indent}%zero_index = arith.constant 0 : index"
        f"\n{indent}memref.store %forty_two, {buffer}[%zero_index, %zero_index, %zero_index, %zero_index] : {type_}"
    )
    return text[: found.end()] + extra + text[found.end() :]


@pytest.mark.parametrize("executable", ["_encoding_0", "_encoding_1"])
def test_a_write_into_the_packed_buffer_after_the_pack_is_seen(monkeypatch, tmp_path, executable):
    m, k, n = 16, 12, 24
    text = _store_after_pack(_data_tiling(tmp_path, STATIC.format(M=m, K=k, N=n), AVX2), executable)
    (a, b), = inputs = _inputs([(m, k, n)])
    handed = _count_origins(monkeypatch)
    (got,) = _results(text, inputs)
    assert len(handed) == 1  # only the other operand
    expected = a @ b
    if executable == "_encoding_0":  # A[0, 0] became 42
        expected[0, :] += (42 - a[0, 0]) * b[0, :]
    else:  # B[0, 0] became 42
        expected[:, 0] += a[:, 0] * (42 - b[0, 0])
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
    _origins_off(monkeypatch)
    (general,) = _results(text, inputs)
    np.testing.assert_array_equal(got, general)


def test_records_are_forgotten_on_writes_and_when_the_call_returns():
    source = RNG.standard_normal((16, 12)).astype(np.float32)
    source.flags.writeable = False
    buffer = np.zeros((2, 12, 8), np.float32)
    view = source.reshape(2, 8, 12).transpose(0, 2, 1)
    buffer[...] = view

    class Holder:
        pass

    interpreter = Holder()
    origins = relayout_origins.relayout_origins(interpreter)

    def read_only(array):
        seen = array.view()
        seen.flags.writeable = False
        return seen

    origins.record(buffer, view)
    assert origins.origin(read_only(buffer)) is view
    assert origins.origin(read_only(buffer[:1])) is None  # other memory: not this record
    note_write(interpreter, np.zeros(4, np.float32))  # unrelated memory
    assert origins.origin(buffer) is view
    note_write(interpreter, buffer[1, 3:5])  # part of the buffer
    assert origins.origin(buffer) is None

    origins.record(buffer, view)
    writable_base = np.array(source)
    shared = writable_base.reshape(2, 8, 12).transpose(0, 2, 1)
    shared.flags.writeable = False
    origins.record(buffer, shared)
    note_write(interpreter, writable_base[5])  # the source changes
    assert origins.origin(buffer) is None

    # A writable view, or one sharing the buffer's memory, is never recorded.
    origins.record(buffer, np.array(view))
    assert origins.origin(buffer) is None
    origins.record(buffer, read_only(buffer))
    assert origins.origin(buffer) is None


def test_a_padded_record_survives_writes_of_the_values_already_there():
    source = RNG.standard_normal((5, 3)).astype(np.float32)
    source.flags.writeable = False
    pad = np.broadcast_to(np.float32(0), (8, 3))
    buffer = np.zeros((8, 3), np.float32)
    buffer[:5] = source

    class Holder:
        pass

    interpreter = Holder()
    origins = relayout_origins.relayout_origins(interpreter)
    origins.record_padded(buffer, source, "plan", pad)
    assert origins.padded(buffer)[0] is source
    # A padding loop storing the pad value over the padding changes nothing.
    flat = np.ravel_multi_index(np.indices((3, 3)).reshape(2, -1) + [[5], [0]], buffer.shape)
    note_flat_write(interpreter, buffer, flat, np.float32(0))
    assert origins.padded(buffer) is not None
    # -0.0 is another value (bit for bit), and so is a source element overwritten.
    note_flat_write(interpreter, buffer, flat, np.float32(-0.0))
    assert origins.padded(buffer) is None
    origins.record_padded(buffer, source, "plan", pad)
    note_flat_write(interpreter, buffer, np.array([0]), np.float32(0))
    assert origins.padded(buffer) is None
    # A writable source is never recorded.
    origins.record_padded(buffer, np.array(source), "plan", pad)
    assert origins.padded(buffer) is None


def test_the_outermost_call_forgets_every_record(tmp_path):
    text = _data_tiling(tmp_path, STATIC.format(M=16, K=8, N=16), AVX2)
    module = parse_module_text(text)
    interpreter = make_interpreter(module)
    function = find_function(module, "matmul_f32f32f32")
    (a, b), = _inputs([(16, 8, 16)])
    interpreter.call_op(function, (a, b))
    assert not relayout_origins.relayout_origins(interpreter)
    # The caller changes its input between calls: the next call sees the new values.
    a2 = a.copy()
    a2[3] = 7
    (got,) = interpreter.call_op(function, (a2, b))
    np.testing.assert_allclose(np.asarray(got), a2 @ b, rtol=1e-5, atol=1e-5)


I8_EXAMPLE = EXAMPLE.with_name("matmul_i8.mlir")


@pytest.mark.parametrize(
    "program,target,function,dtype",
    [
        ("f32", "gfx942", "matmul_f32f32f32", np.float32),  # inner_tiled on swizzled tiles
        ("i8", "gfx942", "matmul_i8i8i32", np.int8),
        ("i8", "x86_64:+avx512vnni", "matmul_i8i8i32", np.int8),  # i8 x i8 -> i32 mmt4d
        ("f16", AVX512, "matmul_f16f16f16", np.float16),
    ],
)
def test_other_targets_and_types_give_the_same_bits_with_and_without_origins(
    monkeypatch, tmp_path, program, target, function, dtype
):
    source = {
        "f32": EXAMPLE.read_text(),
        "i8": I8_EXAMPLE.read_text(),
        "f16": EXAMPLE.read_text().replace("f32", "f16"),
    }[program]
    text = _data_tiling(tmp_path, source, target)
    # Multiples of every tile here (both operands read through their source), and odd sizes.
    shapes = [(128, 64, 256), (33, 17, 9), (128, 64, 256)]

    def operand(rows, cols):
        if dtype == np.int8:
            return RNG.integers(-128, 128, (rows, cols)).astype(np.int8)
        return RNG.standard_normal((rows, cols)).astype(dtype)

    inputs = [(operand(m, k), operand(k, n)) for m, k, n in shapes]

    def results() -> list[np.ndarray]:
        module = parse_module_text(text)
        interpreter = make_interpreter(module)
        callee = find_function(module, function)
        return [np.array(interpreter.call_op(callee, (a, b))[0], copy=True) for a, b in inputs]

    handed = _count_origins(monkeypatch)
    fast = results()
    assert len(handed) == 4
    _origins_off(monkeypatch)
    general = results()
    for (a, b), got, want in zip(inputs, fast, general):
        np.testing.assert_array_equal(got, want)
        if dtype == np.int8:
            np.testing.assert_array_equal(got, a.astype(np.int32) @ b.astype(np.int32))
