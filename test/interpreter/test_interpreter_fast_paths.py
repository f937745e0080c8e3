"""The interpreter's shortcuts give the results of its general paths.

* strided copies cut into cache-sized slabs (``relayout_view._cache_blocks``)
  against numpy's own assignment, on packs, transposes, non-dividing tiles,
  reversed views and empty arrays;
* ``map_scatter`` plans reused across calls (``PlanCache``) against the body
  evaluated on index arrays, when dynamic sizes change between calls;
* ``stream.tensor.export`` handing back the resource a call produced without
  a copy: results never alias inputs, globals or each other's calls;
* dispatch result buffers reused across calls only once nothing holds them;
* a contraction's operand copies and product in pooled buffers (``buffers.py``):
  the same bits as fresh arrays, never shared with a value still held;
* blocks' op lists read once per interpreter: loops and repeated calls;
* implementation modules registered by the dialects a program uses.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

from mini_iree.compiler.interpreter import (
    InterpreterError,
    codegen_ops,
    find_function,
    make_interpreter,
    parse_module_text,
    relayout_view,
    run,
)
from mini_iree.compiler.interpreter.registry import DIALECT_MODULES, IMPLEMENTATION_MODULES, modules_for

RNG = np.random.default_rng(7)


# ---------------------------------------------------------------------------
# Cache-blocked strided copies
# ---------------------------------------------------------------------------


def _pack_rows(a: np.ndarray, tile: int) -> np.ndarray:
    """``a`` (M x K, M a multiple of ``tile``) as the view a row pack copies: M1 x K x tile."""
    m, k = a.shape
    return a.reshape(m // tile, tile, k).transpose(0, 2, 1)


def _pack_columns(b: np.ndarray, tile: int) -> np.ndarray:
    """``b`` (K x N, N a multiple of ``tile``) as the view a column pack copies: N1 x K x tile."""
    k, n = b.shape
    return b.reshape(k, n // tile, tile).transpose(1, 0, 2)


COPY_CASES = [
    ("pack columns", lambda: _pack_columns(RNG.standard_normal((37, 48)).astype(np.float32), 8)),
    ("pack columns, 16-bit", lambda: _pack_columns(RNG.integers(-99, 99, (29, 32)).astype(np.int16), 16)),
    ("pack rows", lambda: _pack_rows(RNG.standard_normal((24, 13)).astype(np.float32), 8)),
    ("transpose, odd sizes", lambda: RNG.standard_normal((23, 41)).astype(np.float64).T),
    ("padded tile corner", lambda: _pack_columns(RNG.standard_normal((19, 40)).astype(np.float32), 8)[:, 3:17, :5]),
    ("reversed rows", lambda: RNG.standard_normal((31, 9)).astype(np.float32)[::-1].T),
    ("one row", lambda: RNG.standard_normal((1, 64)).astype(np.float32).T),
    ("empty", lambda: RNG.standard_normal((0, 16)).astype(np.float32).T),
    ("empty tiles", lambda: _pack_columns(np.zeros((0, 16), np.float32), 8)),
]


@pytest.mark.parametrize("name,make", COPY_CASES, ids=[c[0] for c in COPY_CASES])
@pytest.mark.parametrize("block_bytes", [1, 64, 4096, 1 << 20])
def test_blocked_copy_equals_numpy_assignment(monkeypatch, name, make, block_bytes):
    monkeypatch.setattr(relayout_view, "_SOURCE_BLOCK_BYTES", block_bytes)
    value = make()
    expected = np.array(value, copy=True)
    # A target laid out differently from the value (the other axis order), as
    # a store into a binding of another layout is.
    target = np.full(value.shape[::-1], -1, value.dtype).T
    relayout_view.copy_into(target, value)
    np.testing.assert_array_equal(target, expected)


def test_small_blocks_do_cut_a_pack_into_slabs():
    # The column pack walks the source by whole rows: with a small block it is
    # copied in several slabs (so the test above checks the slab offsets).
    merged = [[6, 32, 37 * 32], [37, 48 * 4, 32]]  # N1 x K items of 8 floats, strides in bytes
    blocks = relayout_view._cache_blocks(merged)
    assert len(blocks) == 1
    old = relayout_view._SOURCE_BLOCK_BYTES
    try:
        relayout_view._SOURCE_BLOCK_BYTES = 1024
        blocks = relayout_view._cache_blocks(merged)
    finally:
        relayout_view._SOURCE_BLOCK_BYTES = old
    assert len(blocks) > 1
    assert sum(shape[1] for _, shape in blocks) == 37
    assert all(shape[0] == 6 for _, shape in blocks)


# ---------------------------------------------------------------------------
# map_scatter plans reused across calls with dynamic sizes
# ---------------------------------------------------------------------------

# A row pack with dynamic sizes, as the pipeline's encoding dispatches write it:
# rows padded up to %m1 tiles of 8.
DYNAMIC_PACK = """
func.func @f(%in: tensor<?x?xf32>, %m1: index, %mp: index) -> tensor<?x?x8x1xf32> {
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %k = tensor.dim %in, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m1, %k) : tensor<?x?x8x1xf32>
  %0 = iree_linalg_ext.map_scatter %in into %e {
  ^bb0(%i: index, %j: index):
    %l = affine.linearize_index disjoint [%i, %j] by (%mp, %k) : index
    %d:4 = affine.delinearize_index %l into (%m1, 8, %k, 1) : index, index, index, index
    iree_linalg_ext.yield %d#0, %d#2, %d#1, %d#3, %true : index, index, index, index, i1
  } : tensor<?x?xf32> into tensor<?x?x8x1xf32> -> tensor<?x?x8x1xf32>
  return %0 : tensor<?x?x8x1xf32>
}
"""

# (rows, columns, row tiles): tiles that divide, padding rows, more tiles than
# needed, an empty input, and shapes seen before (the cached plans).
DYNAMIC_CALLS = [(16, 5, 2), (13, 7, 2), (13, 7, 3), (0, 3, 1), (16, 5, 2), (13, 7, 2), (1, 1, 1)]


def test_scatter_plans_are_reused_only_for_the_same_shape_and_sizes(monkeypatch):
    made = []
    real_plan = codegen_ops.scatter_plan

    def counting_plan(*args):
        made.append(tuple(args[1]))
        return real_plan(*args)

    monkeypatch.setattr(codegen_ops, "scatter_plan", counting_plan)
    module = parse_module_text(DYNAMIC_PACK)
    interpreter = make_interpreter(module)
    function = find_function(module, "f")
    fast = []
    for rows, cols, tiles in DYNAMIC_CALLS:
        source = RNG.standard_normal((rows, cols)).astype(np.float32)
        (result,) = interpreter.call_op(function, (source, tiles, tiles * 8))
        fast.append((source, tiles, np.array(result, copy=True)))
    # One plan per distinct (shape, sizes the body reads); the repeated calls reuse theirs.
    assert len(made) == len({(r, c, t) for r, c, t in DYNAMIC_CALLS})

    # The reference: the body evaluated on index arrays, no plan at all.
    monkeypatch.setattr(codegen_ops, "scatter_plan", lambda *args: None)
    for source, tiles, result in fast:
        (expected,) = run(DYNAMIC_PACK, "f", source, tiles, tiles * 8)
        assert result.shape == expected.shape
        np.testing.assert_array_equal(result, expected)


def test_plan_cache_keeps_a_few_shapes_per_body():
    block = parse_module_text(DYNAMIC_PACK).body.block  # any block serves as a key
    made = []

    def make(_block, shape, outer_value):
        made.append(shape)
        return object()

    cache = relayout_view.PlanCache()
    shapes = [(n, 3) for n in range(1, cache.KEPT + 2)]
    plans = [cache.plan(block, shape, lambda value: 0, make) for shape in shapes]
    assert cache.plan(block, shapes[-1], lambda value: 0, make) is plans[-1]
    assert len(made) == len(shapes)
    # The oldest shape was dropped: its plan is made again.
    assert cache.plan(block, shapes[0], lambda value: 0, make) is not plans[0]
    assert len(made) == len(shapes) + 1


# ---------------------------------------------------------------------------
# stream.tensor.export without a copy
# ---------------------------------------------------------------------------

EXPORTS = """
util.global private mutable @kept : !stream.resource<*>
util.func public @round_trip(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %size = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32>{%n} in !stream.resource<external>{%size}
  %r = stream.tensor.export %a : tensor<?xf32>{%n} in !stream.resource<external>{%size} -> !hal.buffer_view
  util.return %r : !hal.buffer_view
}
util.func public @encode_and_keep(%arg0: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) {
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %size = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32>{%n} in !stream.resource<external>{%size}
  %e = stream.tensor.encode %a : tensor<?xf32>{%n} in !stream.resource<external>{%size} -> tensor<?xf32>{%n} in !stream.resource<*>{%size}
  util.global.store %e, @kept : !stream.resource<*>
  %f = stream.tensor.encode %a : tensor<?xf32>{%n} in !stream.resource<external>{%size} -> tensor<?xf32>{%n} in !stream.resource<*>{%size}
  %r = stream.tensor.export %e : tensor<?xf32>{%n} in !stream.resource<*>{%size} -> !hal.buffer_view
  %s = stream.tensor.export %f : tensor<?xf32>{%n} in !stream.resource<*>{%size} -> !hal.buffer_view
  util.return %r, %s : !hal.buffer_view, !hal.buffer_view
}
"""


def test_export_of_an_imported_buffer_is_a_copy():
    a = RNG.standard_normal(6).astype(np.float32)
    (r,) = run(EXPORTS, "round_trip", a)
    np.testing.assert_array_equal(r, a)
    assert not np.shares_memory(r, a)
    r[0] += 1  # the caller owns the result: it is writable, and the input is untouched
    assert r[0] != a[0]


def test_export_does_not_hand_out_a_globals_value():
    module = parse_module_text(EXPORTS)
    interpreter = make_interpreter(module)
    function = find_function(module, "encode_and_keep")
    a = RNG.standard_normal(5).astype(np.float32)
    kept, fresh = interpreter.call_op(function, (a,))
    np.testing.assert_array_equal(kept, a)
    np.testing.assert_array_equal(fresh, a)
    assert not np.shares_memory(kept, fresh) and not np.shares_memory(fresh, a)
    # Changing the result must not change the global the program keeps.
    kept[...] = 0
    from mini_iree.compiler.interpreter.util_ops import UtilFunctions

    stored = interpreter.get_data(UtilFunctions, "globals", dict)["kept"]
    np.testing.assert_array_equal(stored.view(np.float32)[:5], a)
    # A second call's results are new arrays: the first call's stay as they were.
    b = a + 1
    _, fresh_again = interpreter.call_op(function, (b,))
    np.testing.assert_array_equal(fresh, a)
    np.testing.assert_array_equal(fresh_again, b)


# A dispatch writing a fresh result buffer per call.
DISPATCH = """
stream.executable private @ex {
  stream.executable.export public @add workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    stream.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @add(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: !stream.binding) {
      %c0 = arith.constant 0 : index
      %n = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
      %a = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n}
      %b = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n}
      %c = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
      %0 = iree_tensor_ext.dispatch.tensor.load %a, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
      %1 = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
      %2 = arith.addf %0, %1 : tensor<?xf32>
      iree_tensor_ext.dispatch.tensor.store %2, %c, offsets = [0], sizes = [%n], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
      return
    }
  }
}
util.func public @add(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %size = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32>{%n} in !stream.resource<external>{%size}
  %b = stream.tensor.import %arg1 : !hal.buffer_view -> tensor<?xf32>{%n} in !stream.resource<external>{%size}
  %c = stream.tensor.dispatch @ex::@add[%n](%a, %b, %n) : (tensor<?xf32>{%n} in !stream.resource<external>{%size}, tensor<?xf32>{%n} in !stream.resource<external>{%size}, index) -> tensor<?xf32>{%n} in !stream.resource<*>{%size}
  %r = stream.tensor.export %c : tensor<?xf32>{%n} in !stream.resource<*>{%size} -> !hal.buffer_view
  util.return %r : !hal.buffer_view
}
"""


def test_result_buffers_are_reused_only_when_nothing_holds_them(monkeypatch):
    from mini_iree.compiler.interpreter import stream_ops

    monkeypatch.setattr(stream_ops.ResultBuffers, "MIN_BYTES", 0)  # pool even these small buffers
    fresh = []
    real_new = stream_ops._new_resource
    monkeypatch.setattr(stream_ops, "_new_resource", lambda op, size: fresh.append(size) or real_new(op, size))
    module = parse_module_text(DISPATCH)
    interpreter = make_interpreter(module)
    function = find_function(module, "add")

    def call(n: int):
        a, b = RNG.standard_normal(n).astype(np.float32), RNG.standard_normal(n).astype(np.float32)
        (c,) = interpreter.call_op(function, (a, b))
        return a + b, c

    first_expected, first = call(6)
    second_expected, second = call(6)
    # The caller still holds the first result: the second call wrote a new buffer.
    assert len(fresh) == 2 and not np.shares_memory(first, second)
    np.testing.assert_array_equal(first, first_expected)
    np.testing.assert_array_equal(second, second_expected)
    del first
    third_expected, third = call(6)
    assert len(fresh) == 2  # the dropped first buffer came back
    np.testing.assert_array_equal(third, third_expected)
    np.testing.assert_array_equal(second, second_expected)
    # Another size, and an empty result, get buffers of their own.
    other_expected, other = call(3)
    empty_expected, empty = call(0)
    np.testing.assert_array_equal(other, other_expected)
    assert empty.shape == (0,) and len(fresh) == 4


# ---------------------------------------------------------------------------
# Blocks read once per interpreter
# ---------------------------------------------------------------------------

LOOPS = """
func.func @f(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %inner = scf.for %j = %c0 to %i step %c1 iter_args(%a = %acc) -> (i32) {
      %jj = arith.index_cast %j : index to i32
      %s = arith.addi %a, %jj : i32
      scf.yield %s : i32
    }
    %t = arith.muli %inner, %ii : i32
    %u = arith.addi %t, %x : i32
    scf.yield %u : i32
  }
  return %r : i32
}
"""


def _loops_reference(n: int, x: int) -> int:
    acc = x
    for i in range(n):
        inner = acc + sum(range(i))
        acc = (inner * i + x + 2**31) % 2**32 - 2**31
    return acc


def test_repeated_calls_and_loop_bodies_run_the_same_ops():
    module = parse_module_text(LOOPS)
    interpreter = make_interpreter(module)
    function = find_function(module, "f")
    for n, x in [(5, 3), (0, 7), (9, -2), (5, 3), (1, 0)]:
        (result,) = interpreter.call_op(function, (n, np.int32(x)))
        assert int(result) == _loops_reference(n, x)


# ---------------------------------------------------------------------------
# Registration by dialect
# ---------------------------------------------------------------------------


def test_every_registered_op_belongs_to_its_modules_dialect():
    for module_name in IMPLEMENTATION_MODULES:
        module = importlib.import_module(module_name)
        for functions in module.FUNCTIONS:
            for key in ("__impl_dict", "__callable_impl_dict"):
                for op_type in getattr(functions, key, {}):
                    dialect = op_type.name.split(".", 1)[0]
                    assert DIALECT_MODULES.get(dialect) == module_name, (op_type.name, module_name)


def test_modules_for_keeps_registration_order():
    names = ["stream.async.dispatch", "arith.addi", "func.func", "unknown.op", "math.exp"]
    assert modules_for(names) == [
        "mini_iree.compiler.interpreter.arith_ops",
        "mini_iree.compiler.interpreter.math_ops",
        "mini_iree.compiler.interpreter.func_ops",
        "mini_iree.compiler.interpreter.stream_ops",
    ]


def test_a_small_program_imports_only_its_dialects_implementations():
    script = """
import sys
from mini_iree.compiler.interpreter import run
(r,) = run('''func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}''', "f", 3, 4)
assert int(r) == 7
print(" ".join(sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("mini_iree.compiler.interpreter."))))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert {"arith_ops", "func_ops"} <= loaded
    assert not loaded & {"hal_ops", "stream_ops", "flow_ops", "linalg_ops", "codegen_ops", "relayout_view"}


def test_an_op_of_an_unimplemented_dialect_still_reports_itself():
    text = """
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    from mini_iree.compiler.interpreter import make_context
    from mini_iree.compiler.ir.parsing import parse_mlir

    context = make_context()
    context.allow_unregistered = True
    module = parse_mlir(context, text, "<input>")
    with pytest.raises(InterpreterError, match="has no interpreter implementation"):
        run(module, "f", np.zeros(4, np.float32))


# ---------------------------------------------------------------------------
# Contraction operands and products in pooled buffers
# ---------------------------------------------------------------------------

# pack -> mmt4d -> unpack with padding (odd sizes), as data tiling materializes it.
MMT4D = """
func.func @f(%a: tensor<13x7x{t}>, %b: tensor<7x10x{t}>) -> tensor<13x10x{o}> {{
  %zero = arith.constant {zero} : {t}
  %ozero = arith.constant {ozero} : {o}
  %ea = tensor.empty() : tensor<2x7x8x1x{t}>
  %pa = linalg.pack %a padding_value(%zero : {t}) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<13x7x{t}> -> tensor<2x7x8x1x{t}>
  %eb = tensor.empty() : tensor<2x7x8x1x{t}>
  %pb = linalg.pack %b padding_value(%zero : {t}) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %eb : tensor<7x10x{t}> -> tensor<2x7x8x1x{t}>
  %ec = tensor.empty() : tensor<2x2x8x8x{o}>
  %fc = linalg.fill ins(%ozero : {o}) outs(%ec : tensor<2x2x8x8x{o}>) -> tensor<2x2x8x8x{o}>
  %mm = linalg.mmt4d ins(%pa, %pb : tensor<2x7x8x1x{t}>, tensor<2x7x8x1x{t}>) outs(%fc : tensor<2x2x8x8x{o}>) -> tensor<2x2x8x8x{o}>
  %e = tensor.empty() : tensor<13x10x{o}>
  %u = linalg.unpack %mm outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<2x2x8x8x{o}> -> tensor<13x10x{o}>
  return %u : tensor<13x10x{o}>
}}
"""

MMT4D_TYPES = [("f32", "f32", np.float32), ("f16", "f32", np.float16), ("i8", "i32", np.int8)]


@pytest.mark.parametrize("t,o,dtype", MMT4D_TYPES, ids=[f"{t}->{o}" for t, o, _ in MMT4D_TYPES])
def test_pooled_contraction_buffers_give_the_same_bits_and_are_never_shared(monkeypatch, t, o, dtype):
    from mini_iree.compiler.interpreter import buffers

    zero = "0.0" if t.startswith("f") else "0"
    text = MMT4D.format(t=t, o=o, zero=zero, ozero="0.0" if o.startswith("f") else "0")
    inputs = []
    for _ in range(3):
        if dtype == np.int8:
            inputs.append((RNG.integers(-128, 128, (13, 7)).astype(np.int8), RNG.integers(-128, 128, (7, 10)).astype(np.int8)))
        else:
            inputs.append((RNG.standard_normal((13, 7)).astype(dtype), RNG.standard_normal((7, 10)).astype(dtype)))
    # The reference: every array fresh (nothing pooled).
    monkeypatch.setattr(buffers.BufferPool, "MIN_BYTES", 1 << 62)
    expected = [run(text, "f", a, b)[0] for a, b in inputs]
    # Pool every buffer, however small, and keep each result while the next call runs.
    monkeypatch.setattr(buffers.BufferPool, "MIN_BYTES", 0)
    module = parse_module_text(text)
    interpreter = make_interpreter(module)
    function = find_function(module, "f")
    results = [interpreter.call_op(function, (a, b))[0] for a, b in inputs]
    for result, want in zip(results, expected):
        assert result.dtype == want.dtype
        np.testing.assert_array_equal(result, want)  # bit for bit, after later calls ran
    for first, second in zip(results, results[1:]):
        assert not np.shares_memory(first, second)
    pool = buffers.scratch_pool(interpreter)
    assert pool._buffers, "the contraction took its buffers from the pool"
    # Once the results are dropped, a call reuses pooled buffers instead of allocating.
    del results, first, second, result
    allocated = []
    real_new = buffers.BufferPool.new
    monkeypatch.setattr(buffers.BufferPool, "new", lambda self, n: allocated.append(n) or real_new(self, n))
    (again,) = interpreter.call_op(function, inputs[0])
    np.testing.assert_array_equal(again, expected[0])
    assert allocated == []


def test_buffer_pool_hands_out_a_buffer_only_when_nothing_refers_to_it(monkeypatch):
    from mini_iree.compiler.interpreter.buffers import BufferPool

    monkeypatch.setattr(BufferPool, "MIN_BYTES", 0)
    pool = BufferPool()
    a = pool.empty((4, 8), np.float32)
    view = a.T[1:]  # a view keeps the buffer alive after `a` is gone
    del a
    b = pool.empty((4, 8), np.float32)
    assert not np.shares_memory(b, view)
    del view
    c = pool.empty((8, 4), np.float32)  # same byte size, another shape: the dropped buffer
    assert c.shape == (8, 4) and c.flags.c_contiguous and c.flags.writeable
    assert not np.shares_memory(c, b)
    assert sum(len(v) for v in pool._buffers.values()) == 2


# mmt4d on packed operands as a dispatch reads them from buffers (contiguous, so the
# contraction copies them): tiles of 8 (rows gathered element by element) and of 16
# (whole 64-byte tile rows moved at once, the operand handed to BLAS transposed).
MMT4D_PACKED = """
func.func @f(%a: tensor<3x5x{t}x1xf32>, %b: tensor<2x5x{t}x1xf32>) -> tensor<3x2x{t}x{t}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2x{t}x{t}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2x{t}x{t}xf32>) -> tensor<3x2x{t}x{t}xf32>
  %r = linalg.mmt4d ins(%a, %b : tensor<3x5x{t}x1xf32>, tensor<2x5x{t}x1xf32>) outs(%f : tensor<3x2x{t}x{t}xf32>) -> tensor<3x2x{t}x{t}xf32>
  return %r : tensor<3x2x{t}x{t}xf32>
}}
"""


@pytest.mark.parametrize("tile", [8, 16])
def test_packed_mmt4d_copies_give_the_unpooled_bits(monkeypatch, tile):
    from mini_iree.compiler.interpreter import buffers

    text = MMT4D_PACKED.format(t=tile)
    a = RNG.standard_normal((3, 5, tile, 1)).astype(np.float32)
    b = RNG.standard_normal((2, 5, tile, 1)).astype(np.float32)
    monkeypatch.setattr(buffers.BufferPool, "MIN_BYTES", 1 << 62)
    (expected,) = run(text, "f", a, b)
    monkeypatch.setattr(buffers.BufferPool, "MIN_BYTES", 0)
    (result,) = run(text, "f", a, b)
    np.testing.assert_array_equal(result, expected)
    # And the meaning: out[m1, n1, m0, n0] = sum over k of a[m1, k, m0] * b[n1, k, n0].
    reference = np.einsum("akm,bkn->abmn", a[..., 0].astype(np.float64), b[..., 0].astype(np.float64))
    np.testing.assert_allclose(result, reference, rtol=1e-5, atol=1e-5)
