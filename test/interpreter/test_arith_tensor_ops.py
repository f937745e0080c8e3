"""arith, tensor, affine, scf and memref ops against independent numpy formulas."""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import InterpreterError, run

RNG = np.random.default_rng(0)


def ints(shape, dtype):
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)


def compare_generic(op: str, preds: list[str], ty: str, n: int) -> str:
    """One elementwise linalg.generic per predicate (xDSL parses cmpi/cmpf on scalars only)."""
    t, b = f"tensor<{n}x{ty}>", f"tensor<{n}xi1>"
    lines = []
    for i, p in enumerate(preds):
        lines.append(f"""  %r{i} = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%a, %b : {t}, {t}) outs(%e : {b}) {{
  ^bb0(%x: {ty}, %y: {ty}, %o: i1):
    %c = arith.{op} {p}, %x, %y : {ty}
    linalg.yield %c : i1
  }} -> {b}""")
    results = ", ".join(f"%r{i}" for i in range(len(preds)))
    types = ", ".join([b] * len(preds))
    return f"""#id = affine_map<(d0) -> (d0)>
func.func @f(%a: {t}, %b: {t}) -> ({types}) {{
  %e = tensor.empty() : {b}
{chr(10).join(lines)}
  return {results} : {types}
}}"""


def binary(op: str, ty: str, shape=(16,)) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}x{ty}>"
    return f"""
func.func @f(%a: {t}, %b: {t}) -> {t} {{
  %0 = arith.{op} %a, %b : {t}
  return %0 : {t}
}}"""


def _trunc_div(a, b):
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


INT_CASES = [
    ("addi", lambda a, b: a + b),
    ("subi", lambda a, b: a - b),
    ("muli", lambda a, b: a * b),
    ("divsi", _trunc_div),
    ("remsi", lambda a, b: a - _trunc_div(a, b) * b),
    ("floordivsi", lambda a, b: a // b),
    ("ceildivsi", lambda a, b: -((-a) // b)),
    ("maxsi", np.maximum),
    ("minsi", np.minimum),
    ("andi", np.bitwise_and),
    ("ori", np.bitwise_or),
    ("xori", np.bitwise_xor),
]


@pytest.mark.parametrize("name, formula", INT_CASES, ids=[c[0] for c in INT_CASES])
@pytest.mark.parametrize("ty, dtype", [("i8", np.int8), ("i32", np.int32), ("i64", np.int64)])
def test_signed_integer_ops_wrap_like_mlir(name, formula, ty, dtype):
    a, b = ints(64, dtype), ints(64, dtype)
    b[b == 0] = 3
    if name in ("divsi", "remsi", "floordivsi", "ceildivsi"):
        b[(a == np.iinfo(dtype).min) & (b == -1)] = 5  # INT_MIN / -1 is undefined behaviour
    (got,) = run(binary(name, ty, (64,)), "f", a, b)
    # Python integers are unbounded: reduce the exact answer modulo 2**width.
    exact = np.array([formula(int(x), int(y)) for x, y in zip(a, b)], dtype=object)
    width = np.iinfo(dtype).bits
    wrapped = [((int(v) + 2 ** (width - 1)) % 2**width) - 2 ** (width - 1) for v in exact]
    assert got.dtype == dtype
    assert got.tolist() == wrapped


@pytest.mark.parametrize(
    "name, formula",
    [
        ("divui", lambda a, b: a // b),
        ("remui", lambda a, b: a % b),
        ("ceildivui", lambda a, b: -(-a // b)),
        ("maxui", max),
        ("minui", min),
        ("shrui", lambda a, b: a >> (b % 8)),
    ],
)
def test_unsigned_integer_ops_read_the_bits_unsigned(name, formula):
    a, b = ints(64, np.int8), ints(64, np.int8)
    b[b == 0] = 7
    if name == "shrui":
        b = (b.astype(np.int64) % 8).astype(np.int8)
    (got,) = run(binary(name, "i8", (64,)), "f", a, b)
    ua, ub = a.astype(np.uint8).astype(int), b.astype(np.uint8).astype(int)
    expected = np.array([formula(int(x), int(y)) for x, y in zip(ua, ub)]).astype(np.uint8).view(np.int8)
    assert got.tolist() == expected.tolist()


def test_cmpi_all_predicates():
    a, b = ints(200, np.int8), ints(200, np.int8)
    b[:20] = a[:20]
    preds = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
    got = run(compare_generic("cmpi", preds, "i8", 200), "f", a, b)
    ua, ub = a.astype(np.uint8), b.astype(np.uint8)
    expected = [a == b, a != b, a < b, a <= b, a > b, a >= b, ua < ub, ua <= ub, ua > ub, ua >= ub]
    for g, e in zip(got, expected):
        assert g.dtype == np.bool_ and (g == e).all()


def test_cmpf_ordered_and_unordered_with_nan():
    a = np.array([1, 2, np.nan, 3, np.nan], np.float32)
    b = np.array([1, 1, 1, np.nan, np.nan], np.float32)
    preds = ["oeq", "olt", "one", "ord", "ueq", "ult", "une", "uno"]
    got = run(compare_generic("cmpf", preds, "f32", 5), "f", a, b)
    nan = np.isnan(a) | np.isnan(b)
    with np.errstate(invalid="ignore"):
        expected = [a == b, a < b, (a != b) & ~nan, ~nan, (a == b) | nan, (a < b) | nan, a != b, nan]
    for g, e in zip(got, expected):
        assert (g == e).all()


def cast(op: str, src: str, dst: str, n: int = 64) -> str:
    """An elementwise linalg.generic applying one cast (xDSL's casts take scalars only)."""
    return f"""#id = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<{n}x{src}>) -> tensor<{n}x{dst}> {{
  %e = tensor.empty() : tensor<{n}x{dst}>
  %0 = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}}
      ins(%a : tensor<{n}x{src}>) outs(%e : tensor<{n}x{dst}>) {{
  ^bb0(%x: {src}, %o: {dst}):
    %c = arith.{op} %x : {src} to {dst}
    linalg.yield %c : {dst}
  }} -> tensor<{n}x{dst}>
  return %0 : tensor<{n}x{dst}>
}}"""


def test_integer_casts():
    a = ints(64, np.int8)
    assert (run(cast("extsi", "i8", "i32"), "f", a)[0] == a.astype(np.int32)).all()
    assert (run(cast("extui", "i8", "i32"), "f", a)[0] == a.astype(np.uint8).astype(np.int32)).all()
    w = ints(64, np.int32)
    assert (run(cast("trunci", "i32", "i8"), "f", w)[0] == (w & 0xFF).astype(np.uint8).view(np.int8)).all()
    assert (run(cast("sitofp", "i8", "f32"), "f", a)[0] == a.astype(np.float32)).all()
    assert (run(cast("uitofp", "i8", "f32"), "f", a)[0] == a.astype(np.uint8).astype(np.float32)).all()
    f = RNG.uniform(-100, 100, 64).astype(np.float32)
    assert (run(cast("fptosi", "f32", "i32"), "f", f)[0] == np.trunc(f).astype(np.int32)).all()
    b = RNG.integers(0, 2, 64).astype(bool)
    assert (run(cast("extsi", "i1", "i8"), "f", b)[0] == -b.astype(np.int8)).all()
    assert (run(cast("extui", "i1", "i8"), "f", b)[0] == b.astype(np.int8)).all()
    assert (run(cast("index_cast", "i32", "index"), "f", w)[0] == w.astype(np.int64)).all()
    assert (run(cast("index_castui", "i32", "index"), "f", w)[0] == w.astype(np.uint32).astype(np.int64)).all()
    assert (run(cast("bitcast", "f32", "i32"), "f", f)[0] == f.view(np.int32)).all()


def test_float_casts_f16_bf16():
    import ml_dtypes

    f = RNG.standard_normal(64).astype(np.float32)
    (h,) = run(cast("truncf", "f32", "f16"), "f", f)
    assert h.dtype == np.float16 and (h == f.astype(np.float16)).all()
    (bf,) = run(cast("truncf", "f32", "bf16"), "f", f)
    assert bf.dtype == ml_dtypes.bfloat16 and (bf == f.astype(ml_dtypes.bfloat16)).all()
    (back,) = run(cast("extf", "bf16", "f32"), "f", bf)
    assert (back == bf.astype(np.float32)).all()


def test_scalar_arith_select_and_min_max():
    text = """
func.func @f(%a: f32, %b: f32, %i: i32) -> (f32, f32, f32, i32) {
  %0 = arith.maximumf %a, %b : f32
  %1 = arith.minnumf %a, %b : f32
  %c = arith.cmpf olt, %a, %b : f32
  %2 = arith.select %c, %a, %b : f32
  %c5 = arith.constant 5 : i32
  %3 = arith.muli %i, %c5 : i32
  return %0, %1, %2, %3 : f32, f32, f32, i32
}"""
    got = run(text, "f", np.float32(2.5), np.float32(np.nan), np.int32(2**30))
    assert np.isnan(got[0]) and got[1] == 2.5 and np.isnan(got[2])
    assert int(got[3]) == ((2**30 * 5 + 2**31) % 2**32) - 2**31


def test_constants_splat_list_hex_and_scalars():
    text = """
func.func @f() -> (tensor<2x3xf32>, tensor<4xi8>, tensor<2xi1>, tensor<2xf32>, i8, index) {
  %0 = arith.constant dense<1.5> : tensor<2x3xf32>
  %1 = arith.constant dense<[1, -2, 3, 127]> : tensor<4xi8>
  %2 = arith.constant dense<[true, false]> : tensor<2xi1>
  %3 = arith.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %4 = arith.constant -7 : i8
  %5 = arith.constant 3 : index
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<4xi8>, tensor<2xi1>, tensor<2xf32>, i8, index
}"""
    got = run(text, "f")
    assert (got[0] == np.full((2, 3), 1.5, np.float32)).all()
    assert got[1].tolist() == [1, -2, 3, 127] and got[1].dtype == np.int8
    assert got[2].tolist() == [True, False]
    assert got[3].tolist() == [1.0, 2.0]
    assert int(got[4]) == -7 and int(got[5]) == 3


def test_dense_resource_constant_is_a_clear_error():
    text = """
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<__elided__> : tensor<2xf32>
  return %0 : tensor<2xf32>
}"""
    with pytest.raises(InterpreterError, match=r"<input>:3:8: error: 'arith.constant' op .*elided"):
        run(text, "f")


def test_unimplemented_op_names_op_and_location():
    text = """
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    with pytest.raises(InterpreterError, match=r"<input>:3:8: error: 'test.op' op has no interpreter implementation"):
        run(text, "f", np.zeros(4, np.float32))


# -- tensor ----------------------------------------------------------------------


def test_slices_pad_reshapes_dynamic():
    text = """
func.func @f(%a: tensor<?x?xf32>, %o: index) -> (tensor<?x2xf32>, tensor<3xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?x2x?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %s = tensor.extract_slice %a[%o, 1] [%d0, 2] [1, 2] : tensor<?x?xf32> to tensor<?x2xf32>
  %r = tensor.extract_slice %a[1, 0] [1, 3] [1, 1] : tensor<?x?xf32> to tensor<3xf32>
  %z = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %i = tensor.insert_slice %s into %z[0, 0] [%d0, 2] [1, 2] : tensor<?x2xf32> into tensor<?x?xf32>
  %cst = arith.constant -1.0 : f32
  %p = tensor.pad %a low[1, 0] high[2, %o] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %cst : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %h = arith.divui %d1, %c1 : index
  %e = tensor.expand_shape %c [[0, 1, 2]] output_shape [%d0, 2, 3] : tensor<?xf32> into tensor<?x2x?xf32>
  return %s, %r, %i, %p, %c, %e, %d1 : tensor<?x2xf32>, tensor<3xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?x2x?xf32>, index
}"""
    a = RNG.standard_normal((5, 6)).astype(np.float32)
    s, r, i, p, c, e, d1 = run(text, "f", a, 0)
    assert (s == a[:, 1:5:2]).all()
    assert (r == a[1, :3]).all()
    expected_i = np.zeros_like(a)
    expected_i[:, 0:4:2] = a[:, 1:5:2]
    assert (i == expected_i).all()
    assert (p == np.pad(a, [(1, 2), (0, 0)], constant_values=-1)).all()
    assert (c == a.reshape(-1)).all() and (e == a.reshape(5, 2, 3)).all() and d1 == 6


def test_zero_size_and_out_of_bounds_slices():
    text = """
func.func @f(%a: tensor<?x4xf32>, %o: index) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x4xf32>
  %s = tensor.extract_slice %a[%o, 0] [%d, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}"""
    (got,) = run(text, "f", np.zeros((0, 4), np.float32), 0)
    assert got.shape == (0, 4)
    with pytest.raises(InterpreterError, match="out-of-bounds slice in dimension 0"):
        run(text, "f", np.zeros((3, 4), np.float32), 1)


def test_extract_insert_from_elements_splat():
    text = """
func.func @f(%a: tensor<2x3xi32>, %x: i32) -> (i32, tensor<2x3xi32>, tensor<2x2xi32>, tensor<3xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.extract %a[%c1, %c2] : tensor<2x3xi32>
  %i = tensor.insert %x into %a[%c1, %c1] : tensor<2x3xi32>
  %f = tensor.from_elements %e, %x, %x, %e : tensor<2x2xi32>
  %s = tensor.splat %x : tensor<3xi32>
  return %e, %i, %f, %s : i32, tensor<2x3xi32>, tensor<2x2xi32>, tensor<3xi32>
}"""
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    e, i, f, s = run(text, "f", a, np.int32(-4))
    expected = a.copy()
    expected[1, 1] = -4
    assert int(e) == 5 and (i == expected).all() and (a == np.arange(6).reshape(2, 3)).all()
    assert f.tolist() == [[5, -4], [-4, 5]] and s.tolist() == [-4, -4, -4]


# -- affine / scf / memref ----------------------------------------------------------


def test_affine_ops():
    text = """
func.func @f(%i: index, %j: index) -> (index, index, index, index, index, index) {
  %0 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv 4 + s0 mod 3)>(%i)[%j]
  %1 = affine.min affine_map<(d0) -> (d0, 7)>(%i)
  %2 = affine.max affine_map<(d0)[s0] -> (d0 ceildiv 2, s0)>(%i)[%j]
  %3 = affine.linearize_index [%i, %j] by (10, 7) : index
  %4:2 = affine.delinearize_index %3 into (10, 7) : index, index
  return %0, %1, %2, %3, %4#0, %4#1 : index, index, index, index, index, index
}"""
    for i, j in [(0, 0), (9, 5), (13, -4)]:
        got = [int(v) for v in run(text, "f", i, j)]
        assert got == [i // 4 + j % 3, min(i, 7), max(-(-i // 2), j), i * 7 + j, (i * 7 + j) // 7, (i * 7 + j) % 7]


def test_scf_for_if_forall():
    text = """
func.func @f(%a: tensor<8x6xf32>, %n: index) -> (f32, tensor<8x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = tensor.extract %a[%i, %c0] : tensor<8x6xf32>
    %pos = arith.cmpf ogt, %x, %zero : f32
    %v = scf.if %pos -> (f32) {
      scf.yield %x : f32
    } else {
      %m = arith.negf %x : f32
      scf.yield %m : f32
    }
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  %e = tensor.empty() : tensor<8x6xf32>
  %r = scf.forall (%t) in (4) shared_outs(%o = %e) -> (tensor<8x6xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 2)>(%t)
    %tile = tensor.extract_slice %a[%off, 0] [2, 6] [1, 1] : tensor<8x6xf32> to tensor<2x6xf32>
    %d = arith.addf %tile, %tile : tensor<2x6xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %d into %o[%off, 0] [2, 6] [1, 1] : tensor<2x6xf32> into tensor<8x6xf32>
    }
  }
  return %sum, %r : f32, tensor<8x6xf32>
}"""
    a = RNG.standard_normal((8, 6)).astype(np.float32)
    s, r = run(text, "f", a, 5)
    assert np.isclose(s, np.abs(a[:5, 0]).sum(), rtol=1e-6)
    assert (r == 2 * a).all()


def test_memref_alloc_store_load_subview():
    text = """
func.func @f(%v: f32) -> (f32, f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %m[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  memref.store %v, %s[%c1, %c1] : memref<2x2xf32, strided<[4, 1], offset: 5>>
  %x = memref.load %m[%c2, %c2] : memref<4x4xf32>
  %y = memref.load %m[%c1, %c1] : memref<4x4xf32>
  return %x, %y : f32, f32
}"""
    x, y = run(text, "f", np.float32(3.5))
    assert x == 3.5 and y == 0
