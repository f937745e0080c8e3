"""encode-host-tensors on stream.tensor.splat/fill/slice/update/load/store: the same results before and after.

Each program runs under the interpreter before the pass (tensor ops, which see
the logical tensor) and after it (``stream.async`` ops on bytes), on the same
logical inputs. The resources are compared as the tensors they hold: plain
element bytes, or, for ``#iree_encoding.packed_storage`` i1, eight elements to
a byte (element ``k`` in bit ``k % 8`` of byte ``k // 8``) after the pass,
while the interpreter's tensor ops keep one byte per element. Packed ranges
start and end on whole bytes, as IREE's lowering requires (it divides element
offsets by 8). Fills are rank-1: IREE linearizes a fill's lengths as an index,
which counts the filled elements only for one dimension.
"""

from __future__ import annotations

import numpy as np
import pytest
from mini_iree.compiler.interpreter import make_context, parse_module_text, run
from mini_iree.passes.encode_host_tensors import EncodeHostTensorsPass

PACKED = "#iree_encoding.packed_storage"

# {t} is the element type with its encoding (`i1`, `i1, #iree_encoding.packed_storage`, `f32`),
# {e} the element type alone. The 2-D tensors have 16 columns.
PROGRAM = """
util.func public @splat(%v: {e}, %d: index) -> !stream.resource<*> {{
  %size = stream.tensor.sizeof tensor<?x16x{t}>{{%d}} : index
  %0 = stream.tensor.splat %v : {e} -> tensor<?x16x{t}>{{%d}} in !stream.resource<*>{{%size}}
  util.return %0 : !stream.resource<*>
}}
util.func public @fill(%r: !stream.resource<*>, %v: {e}, %d: index, %i: index, %n: index) -> !stream.resource<*> {{
  %size = stream.tensor.sizeof tensor<?x{t}>{{%d}} : index
  %0 = stream.tensor.fill %v, %r[%i for %n] : {e} -> tensor<?x{t}>{{%d}} in %r as !stream.resource<*>{{%size}}
  util.return %0 : !stream.resource<*>
}}
util.func public @slice(%r: !stream.resource<*>, %d: index, %i: index, %n: index) -> !stream.resource<*> {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %size = stream.tensor.sizeof tensor<?x16x{t}>{{%d}} : index
  %rsize = stream.tensor.sizeof tensor<?x16x{t}>{{%n}} : index
  %0 = stream.tensor.slice %r[%i, %c0 for %n, %c16] : tensor<?x16x{t}>{{%d}} in !stream.resource<*>{{%size}} -> tensor<?x16x{t}>{{%n}} in !stream.resource<*>{{%rsize}}
  util.return %0 : !stream.resource<*>
}}
util.func public @update(%r: !stream.resource<*>, %u: !stream.resource<*>, %d: index, %i: index, %n: index) -> !stream.resource<*> {{
  %c0 = arith.constant 0 : index
  %size = stream.tensor.sizeof tensor<?x16x{t}>{{%d}} : index
  %usize = stream.tensor.sizeof tensor<?x16x{t}>{{%n}} : index
  %0 = stream.tensor.update %u, %r[%i, %c0] : tensor<?x16x{t}>{{%n}} in !stream.resource<*>{{%usize}} -> tensor<?x16x{t}>{{%d}} in %r as !stream.resource<*>{{%size}}
  util.return %0 : !stream.resource<*>
}}
"""

ELEMENTS = {
    "i1": ("i1", "i1", np.bool_),
    "i1-packed": ("i1", f"i1, {PACKED}", np.bool_),
    "f32": ("f32", "f32", np.float32),
}


def _modules(kind: str):
    element, tensor_element, _ = ELEMENTS[kind]
    text = PROGRAM.format(e=element, t=tensor_element)
    before = parse_module_text(text)
    after = parse_module_text(text)
    EncodeHostTensorsPass().apply(make_context(), after)
    return text, before, after


def _bytes(kind: str, logical: np.ndarray, packed_stage: bool) -> np.ndarray:
    """The resource holding ``logical``: packed bits after the pass for packed i1, else its element bytes."""
    flat = np.ascontiguousarray(logical).reshape(-1)
    if kind == "i1-packed" and packed_stage:
        return np.packbits(flat.astype(np.uint8), bitorder="little")
    return flat.view(np.uint8).copy()


def _logical(kind: str, resource: np.ndarray, count: int, packed_stage: bool) -> np.ndarray:
    dtype = ELEMENTS[kind][2]
    resource = np.asarray(resource, dtype=np.uint8)
    if kind == "i1-packed" and packed_stage:
        assert resource.size == -(-count // 8)
        return np.unpackbits(resource, bitorder="little")[:count].astype(dtype)
    assert resource.size == count * np.dtype(dtype).itemsize
    return resource.view(dtype)[:count]


def _random(kind: str, shape, rng) -> np.ndarray:
    if ELEMENTS[kind][2] is np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    return rng.standard_normal(shape).astype(np.float32)


def _both(kind: str, name: str, logical_inputs: list, scalars: list, count: int):
    """Runs ``@name`` before and after the pass; returns both results as logical tensors."""
    _, before, after = _modules(kind)
    results = []
    for module, packed_stage in ((before, False), (after, True)):
        resources = [_bytes(kind, array, packed_stage) for array in logical_inputs]
        (result,) = run(module, name, *resources, *scalars)
        results.append(_logical(kind, result, count, packed_stage))
    return results


@pytest.mark.parametrize("kind", list(ELEMENTS))
def test_pass_lowers_every_range_op(kind):
    _, _, after = _modules(kind)
    text = str(after)
    assert "stream.tensor.splat" not in text and "stream.tensor.fill" not in text
    assert "stream.tensor.slice" not in text and "stream.tensor.update" not in text
    for op in ("stream.async.splat", "stream.async.fill", "stream.async.slice", "stream.async.update"):
        assert op in text


@pytest.mark.parametrize("kind", list(ELEMENTS))
@pytest.mark.parametrize("value", [True, False])
def test_splat_keeps_results(kind, value):
    d = 3
    v = np.float32(-1.5 if value else 2.25) if kind == "f32" else value
    before, after = _both(kind, "splat", [], [v, d], d * 16)
    np.testing.assert_array_equal(before, after)
    np.testing.assert_array_equal(after, np.full(d * 16, v, ELEMENTS[kind][2]))


@pytest.mark.parametrize("kind", list(ELEMENTS))
@pytest.mark.parametrize(("start", "length"), [(0, 8), (8, 16), (16, 8), (0, 32)])
def test_fill_keeps_results(kind, start, length):
    rng = np.random.default_rng(start * 100 + length)
    d = 32
    target = _random(kind, d, rng)
    v = np.float32(7.0) if kind == "f32" else True
    if kind != "f32":
        target[start : start + length] = False  # so that the fill shows
    before, after = _both(kind, "fill", [target], [v, d, start, length], d)
    np.testing.assert_array_equal(before, after)
    expected = target.copy()
    expected[start : start + length] = v
    np.testing.assert_array_equal(after, expected)


@pytest.mark.parametrize("kind", list(ELEMENTS))
@pytest.mark.parametrize(("row", "rows"), [(0, 1), (2, 3), (1, 4)])
def test_slice_keeps_results(kind, row, rows):
    rng = np.random.default_rng(row * 10 + rows)
    d = 5
    source = _random(kind, (d, 16), rng)
    before, after = _both(kind, "slice", [source], [d, row, rows], rows * 16)
    np.testing.assert_array_equal(before, after)
    np.testing.assert_array_equal(after, source[row : row + rows].reshape(-1))


@pytest.mark.parametrize("kind", list(ELEMENTS))
@pytest.mark.parametrize(("row", "rows"), [(0, 1), (2, 3), (4, 1)])
def test_update_keeps_results(kind, row, rows):
    rng = np.random.default_rng(row * 10 + rows + 1)
    d = 5
    target = _random(kind, (d, 16), rng)
    update = _random(kind, (rows, 16), rng)
    before, after = _both(kind, "update", [target, update], [d, row, rows], d * 16)
    np.testing.assert_array_equal(before, after)
    expected = target.copy()
    expected[row : row + rows] = update
    np.testing.assert_array_equal(after, expected.reshape(-1))


def test_packed_splat_is_a_byte_of_repeated_bits():
    """A packed i1 splat is one byte pattern, 0xFF for true (the shli/ori chain run on the value)."""
    _, _, after = _modules("i1-packed")
    (result,) = run(after, "splat", True, 2)
    np.testing.assert_array_equal(result, np.full(4, 0xFF, np.uint8))
    (result,) = run(after, "splat", False, 2)
    np.testing.assert_array_equal(result, np.zeros(4, np.uint8))


# Loads and stores of one element of a staging resource (not packed: IREE leaves those alone).
ELEMENT_PROGRAM = """
util.func public @load(%r: !stream.resource<staging>, %d: index, %i: index, %j: index) -> {e} {{
  %size = stream.tensor.sizeof tensor<?x5x{e}>{{%d}} : index
  %0 = stream.tensor.load %r[%i, %j] : tensor<?x5x{e}>{{%d}} in !stream.resource<staging>{{%size}} -> {e}
  util.return %0 : {e}
}}
util.func public @store(%r: !stream.resource<staging>, %v: {e}, %d: index, %i: index, %j: index) -> !stream.resource<staging> {{
  %size = stream.tensor.sizeof tensor<?x5x{e}>{{%d}} : index
  %0 = stream.tensor.store %v, %r[%i, %j] : {e} -> tensor<?x5x{e}>{{%d}} in %r as !stream.resource<staging>{{%size}}
  util.return %0 : !stream.resource<staging>
}}
"""

SCALARS = {"i1": np.bool_, "f16": np.float16, "f32": np.float32, "i32": np.int32}


def _element_modules(element: str):
    text = ELEMENT_PROGRAM.format(e=element)
    before, after = parse_module_text(text), parse_module_text(text)
    EncodeHostTensorsPass().apply(make_context(), after)
    assert "stream.tensor.load" not in str(after) and "stream.tensor.store" not in str(after)
    return before, after


@pytest.mark.parametrize("element", list(SCALARS))
@pytest.mark.parametrize(("i", "j"), [(0, 0), (2, 3), (3, 4)])
def test_load_and_store_keep_results(element, i, j):
    rng = np.random.default_rng(i * 10 + j)
    dtype = SCALARS[element]
    d = 4
    array = (rng.standard_normal((d, 5)) * 10).astype(dtype)
    before, after = _element_modules(element)
    loads = [run(module, "load", array.reshape(-1).view(np.uint8).copy(), d, i, j)[0] for module in (before, after)]
    assert loads[0] == loads[1] == array[i, j]
    value = dtype(not array[i, j]) if dtype is np.bool_ else dtype(-3)
    stores = [run(module, "store", array.reshape(-1).view(np.uint8).copy(), value, d, i, j)[0] for module in (before, after)]
    np.testing.assert_array_equal(stores[0], stores[1])
    expected = array.copy()
    expected[i, j] = value
    np.testing.assert_array_equal(np.asarray(stores[1]).view(dtype).reshape(d, 5), expected)
