"""Values computed in the buffer they are stored to (``store_destination.py``).

A matmul dispatch ends ``mmt4d -> map_scatter (unpack) -> store_to_buffer``, an
encoding dispatch ``map_scatter (pack) -> store_to_buffer``; the interpreter may
compute the product, or the relayout, straight in the stored-to buffer, so that
the store has nothing left to copy. These tests check that the results are the
ones without the shortcut, that it is taken where it applies (the store then
copies nothing), and that it is not taken when something between the producer
and the store reads the buffer, when the value has other uses, or when an
operand shares the buffer's memory.
"""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import (
    codegen_ops,
    find_function,
    linalg_ops,
    make_interpreter,
    parse_module_text,
    relayout_view,
)

RNG = np.random.default_rng(5)

# {body}: the map_scatter's yield (identity or transpose); {between}: ops between
# the contraction and the store.
PROGRAM = """
func.func @f(%a: tensor<8x5xf32>, %b: tensor<5x8xf32>, %buf: memref<8x8xf32>) -> ({result_type}) {{
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x5xf32>, tensor<5x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  {between}
  %e2 = tensor.empty() : tensor<8x8xf32>
  %m = iree_linalg_ext.map_scatter %r into %e2 {{
  ^bb0(%i: index, %j: index):
    iree_linalg_ext.yield {body}, %true : index, index, i1
  }} : tensor<8x8xf32> into tensor<8x8xf32> -> tensor<8x8xf32>
  iree_codegen.store_to_buffer %m, %buf : tensor<8x8xf32> into memref<8x8xf32>
  return {returned}
}}
"""

READ_BETWEEN = "%old = iree_codegen.load_from_buffer %buf : memref<8x8xf32> -> tensor<8x8xf32>"


def _program(body: str, between: str = "", returned: str = "") -> str:
    """The program; it returns ``returned`` (a tensor<8x8xf32>) if given, else nothing."""
    return PROGRAM.format(
        body=body,
        between=between,
        returned=f"{returned} : tensor<8x8xf32>" if returned else "",
        result_type="tensor<8x8xf32>" if returned else "",
    )


def _run(text: str, a: np.ndarray, b: np.ndarray, buf: np.ndarray) -> list[np.ndarray]:
    module = parse_module_text(text)
    interpreter = make_interpreter(module)
    return [np.array(r, copy=True) for r in interpreter.call_op(find_function(module, "f"), (a, b, buf))]


def _count_copies(monkeypatch) -> list:
    copies = []
    real = relayout_view._copy_box
    monkeypatch.setattr(relayout_view, "_copy_box", lambda *args: copies.append(list(args[3])) or real(*args))
    return copies


@pytest.mark.parametrize("body,transposed", [("%i, %j", False), ("%j, %i", True)], ids=["identity", "transpose"])
def test_product_in_the_stored_buffer_gives_the_stored_values(monkeypatch, body, transposed):
    a = RNG.standard_normal((8, 5)).astype(np.float32)
    b = RNG.standard_normal((5, 8)).astype(np.float32)
    expected = (a @ b).T if transposed else a @ b
    copies = _count_copies(monkeypatch)
    buf = np.full((8, 8), -7, np.float32)
    assert _run(_program(body), a, b, buf) == []
    np.testing.assert_array_equal(buf, expected)
    if not transposed:
        assert copies == []  # the product already was the stored value
    # Without the shortcut: the same bits.
    monkeypatch.setattr(linalg_ops, "_find_store_destination", lambda op: None)
    plain = np.full((8, 8), -7, np.float32)
    _run(_program(body), a, b, plain)
    np.testing.assert_array_equal(buf, plain)


def test_a_read_of_the_buffer_before_the_store_sees_its_old_contents():
    a = RNG.standard_normal((8, 5)).astype(np.float32)
    b = RNG.standard_normal((5, 8)).astype(np.float32)
    old = RNG.standard_normal((8, 8)).astype(np.float32)
    buf = old.copy()
    text = _program("%i, %j", between=READ_BETWEEN, returned="%old")
    module = parse_module_text(text)
    op = next(o for o in module.walk() if o.name == "linalg.matmul")
    assert linalg_ops._find_store_destination(op) is None
    (result,) = _run(text, a, b, buf)
    np.testing.assert_array_equal(result, old)
    np.testing.assert_array_equal(buf, a @ b)


def _record_destinations(monkeypatch) -> list:
    """The ``out`` each contraction was given (None: computed elsewhere)."""
    seen = []
    real = linalg_ops.contract
    monkeypatch.setattr(linalg_ops, "contract", lambda *args: seen.append(args[7]) or real(*args))
    return seen


def test_an_operand_sharing_the_buffers_memory_is_not_overwritten(monkeypatch):
    # %a is a view of the very buffer the result is stored to.
    memory = RNG.standard_normal((8, 8)).astype(np.float32)
    a = memory[:, :5]
    b = RNG.standard_normal((5, 8)).astype(np.float32)
    expected = a @ b
    module = parse_module_text(_program("%i, %j"))
    interpreter = make_interpreter(module)
    op = next(o for o in module.walk() if o.name == "linalg.matmul")
    assert linalg_ops._find_store_destination(op) is not None  # statically it would apply
    seen = _record_destinations(monkeypatch)
    interpreter.call_op(find_function(module, "f"), (a, b, memory))
    np.testing.assert_array_equal(memory, expected)
    assert seen == [None]  # but %a is read from that memory: the product goes elsewhere
    separate = RNG.standard_normal((8, 8)).astype(np.float32)
    interpreter.call_op(find_function(module, "f"), (a.copy(), b, separate))
    assert seen[1] is separate  # with its own memory, the buffer takes the product


def test_a_product_with_other_uses_is_not_computed_in_the_buffer():
    text = _program("%i, %j", returned="%m")  # the stored value is also returned
    module = parse_module_text(text)
    op = next(o for o in module.walk() if o.name == "linalg.matmul")
    assert linalg_ops._find_store_destination(op) is None


# A pack with padding (rows 6 -> 2 tiles of 4) as an encoding dispatch writes it:
# the padding rows keep the init's zeros.
PACK = """
func.func @f(%src: tensor<6x5xf32>, %buf: memref<2x5x4x1xf32>) -> ({result_type}) {{
  %true = arith.constant true
  %e = tensor.empty() : tensor<2x5x4x1xf32>
  %m = iree_linalg_ext.map_scatter %src into %e {{
  ^bb0(%i: index, %j: index):
    %l = affine.linearize_index disjoint [%i, %j] by (8, 5) : index
    %d:4 = affine.delinearize_index %l into (2, 4, 5, 1) : index, index, index, index
    iree_linalg_ext.yield %d#0, %d#2, %d#1, %d#3, %true : index, index, index, index, i1
  }} : tensor<6x5xf32> into tensor<2x5x4x1xf32> -> tensor<2x5x4x1xf32>
  {between}
  iree_codegen.store_to_buffer %m, %buf : tensor<2x5x4x1xf32> into memref<2x5x4x1xf32>
  return {returned}
}}
"""


def _pack_program(between: str = "", returned: str = "") -> str:
    return PACK.format(
        between=between,
        returned=f"{returned} : tensor<2x5x4x1xf32>" if returned else "",
        result_type="tensor<2x5x4x1xf32>" if returned else "",
    )


def _packed(src: np.ndarray) -> np.ndarray:
    padded = np.zeros((8, 5), src.dtype)
    padded[:6] = src
    return padded.reshape(2, 4, 5, 1).transpose(0, 2, 1, 3)


def test_a_pack_is_written_straight_into_its_buffer(monkeypatch):
    src = RNG.standard_normal((6, 5)).astype(np.float32)
    copies = _count_copies(monkeypatch)
    buf = np.full((2, 5, 4, 1), -3, np.float32)  # stale contents, padding rows included
    module = parse_module_text(_pack_program())
    make_interpreter(module).call_op(find_function(module, "f"), (src, buf))
    np.testing.assert_array_equal(buf, _packed(src))
    # The relayout copied its two boxes (full tiles, the partial one) into the buffer;
    # the store found the value in place and copied nothing.
    assert [list(shape) for shape in copies] == [[5, 4, 1], [5, 2, 1]]
    copies.clear()
    monkeypatch.setattr(codegen_ops, "store_buffer_value", lambda op, through_relayout: None)
    plain = np.full((2, 5, 4, 1), -3, np.float32)
    module = parse_module_text(_pack_program())
    make_interpreter(module).call_op(find_function(module, "f"), (src, plain))
    np.testing.assert_array_equal(buf, plain)
    # Without it, the store copies the whole tensor once more.
    assert [list(shape) for shape in copies] == [[5, 4, 1], [5, 2, 1], [2, 5, 4, 1]]


def test_a_pack_whose_buffer_is_read_before_the_store_is_not_written_early():
    src = RNG.standard_normal((6, 5)).astype(np.float32)
    old = RNG.standard_normal((2, 5, 4, 1)).astype(np.float32)
    buf = old.copy()
    text = _pack_program(
        between="%old = iree_codegen.load_from_buffer %buf : memref<2x5x4x1xf32> -> tensor<2x5x4x1xf32>",
        returned="%old",
    )
    module = parse_module_text(text)
    scatter = next(o for o in module.walk() if o.name == "iree_linalg_ext.map_scatter")
    from mini_iree.compiler.interpreter.store_destination import store_buffer_value

    assert store_buffer_value(scatter, through_relayout=False) is None
    (result,) = make_interpreter(module).call_op(find_function(module, "f"), (src, buf))
    np.testing.assert_array_equal(result, old)
    np.testing.assert_array_equal(buf, _packed(src))


# ---------------------------------------------------------------------------
# The pipeline's whole program: every shortcut on against every shortcut off
# ---------------------------------------------------------------------------

EXAMPLE = __import__("pathlib").Path(__file__).resolve().parents[2] / "examples" / "matmul.mlir"


def _shortcuts_off(monkeypatch) -> None:
    """The general paths only: no scalar fast paths, no pooled buffers, no store destinations,
    no packed buffers read through their source (relayout_origins.py)."""
    from mini_iree.compiler.interpreter import buffers, core, relayout_origins

    monkeypatch.setattr(relayout_origins.RelayoutOrigins, "record", lambda self, buffer, view: None)

    monkeypatch.setattr(core, "FAST_PATHS", {})
    monkeypatch.setattr(buffers.BufferPool, "MIN_BYTES", 1 << 62)
    monkeypatch.setattr(codegen_ops, "store_buffer_value", lambda op, through_relayout: None)
    monkeypatch.setattr(linalg_ops, "_find_store_destination", lambda op: None)


@pytest.mark.parametrize("target", ["x86_64:+avx,+avx2,+fma", "x86_64:+avx512f"])
def test_the_pipelines_program_gives_the_same_bits_with_and_without_shortcuts(monkeypatch, tmp_path, target):
    from conftest import run_opt

    output = tmp_path / "out.mlir"
    result = run_opt([str(EXAMPLE), "-p", f"data-tiling{{target={target}}}", "-o", str(output)])
    assert result.returncode == 0, result.stderr
    text = output.read_text()
    # Odd sizes (padding in every dim), a tile-multiple, one row; each size twice (reused plans, buffers).
    shapes = [(13, 7, 10), (16, 8, 24), (1, 9, 5), (13, 7, 10), (16, 8, 24)]
    inputs = [
        (RNG.standard_normal((m, k)).astype(np.float32), RNG.standard_normal((k, n)).astype(np.float32))
        for m, k, n in shapes
    ]

    def results() -> list[np.ndarray]:
        module = parse_module_text(text)
        interpreter = make_interpreter(module)
        function = find_function(module, "matmul_f32f32f32")
        return [np.array(interpreter.call_op(function, (a, b))[0], copy=True) for a, b in inputs]

    from mini_iree.compiler.interpreter import buffers

    monkeypatch.setattr(buffers.BufferPool, "MIN_BYTES", 0)  # pool even these small arrays
    fast = results()
    _shortcuts_off(monkeypatch)
    general = results()
    for (a, b), got, want in zip(inputs, fast, general):
        assert got.dtype == want.dtype and got.shape == (a.shape[0], b.shape[1])
        np.testing.assert_array_equal(got, want)
        np.testing.assert_allclose(got, a @ b, rtol=1e-5, atol=1e-5)
