"""Scalar fast paths (``core.FAST_PATHS``) give exactly what the ops' implementations give.

Each op is run both ways on the same operands: the fast path (``arith_scalars``,
``affine_ops``) and the general implementation through the interpreter's op
dispatch. Results must be equal in value and in representation (Python ``int``
for ``index``, the numpy scalar type of the storage dtype for ``iN``,
``np.bool_`` for ``i1``). Operands cover the edges of each width (0, +-1, the
extremes, values with the top bit set, indices of 2**63 and more as unsigned
index ops produce them) and random values; a case the fast path declines
(None) is fine, as long as it declines rather than answers wrongly.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mini_iree.compiler.interpreter import InterpreterError, find_function, make_interpreter, parse_module_text, run
from mini_iree.compiler.interpreter.core import FAST_PATHS

RNG = np.random.default_rng(11)

INT_TYPES = ["index", "i8", "i16", "i32", "i64"]
_DTYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def _edge_values(type_: str) -> list:
    if type_ == "index":
        values = [0, 1, -1, 2, 7, -8, 2**31, 2**32 - 1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1, 12345, -98765]
        values += [int(v) for v in RNG.integers(-(2**63), 2**63 - 1, 6, dtype=np.int64)]
        return values
    dtype = _DTYPES[type_]
    info = np.iinfo(dtype)
    values = [0, 1, -1, 2, 3, -7, info.max, info.min, info.max - 1, info.min + 1, info.max // 3]
    values += [int(v) for v in RNG.integers(info.min, info.max, 6, endpoint=True, dtype=dtype)]
    return [dtype(v) for v in values]


BINARY_OPS = [
    "addi", "subi", "muli", "divsi", "divui", "floordivsi", "ceildivsi", "ceildivui", "remsi", "remui",
    "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori", "shli", "shrui",
]  # fmt: skip


def _op_of(text: str, name: str):
    module = parse_module_text(text)
    interpreter = make_interpreter(module)
    function = find_function(module, "f")
    op = next(o for o in function.walk() if o.name == name)
    return interpreter, op


def _both_ways(interpreter, op, args):
    """(fast path result or None, general result or the exception it raised)."""
    fast = FAST_PATHS[type(op)](op)
    assert fast is not None, f"{op.name} has no fast path for {op.result_types if hasattr(op, 'result_types') else ''}"
    try:
        fast_values = fast(tuple(args))
    except Exception:  # run_block falls back to the implementation, as for None
        fast_values = None
    try:
        general = tuple(interpreter._run_op(op, tuple(args)).values)
    except InterpreterError as error:
        general = error
    return fast_values, general


def _same(fast_values, general) -> None:
    assert not isinstance(general, Exception), f"the fast path answered {fast_values} where the op fails: {general}"
    assert len(fast_values) == len(general)
    for got, want in zip(fast_values, general):
        assert type(got) is type(want), (got, want)
        assert got == want, (got, want)


@pytest.mark.parametrize("type_", INT_TYPES)
@pytest.mark.parametrize("name", BINARY_OPS)
def test_binary_integer_fast_paths_equal_the_implementation(name, type_):
    text = f"""
func.func @f(%a: {type_}, %b: {type_}) -> {type_} {{
  %0 = arith.{name} %a, %b : {type_}
  return %0 : {type_}
}}"""
    interpreter, op = _op_of(text, f"arith.{name}")
    values = _edge_values(type_)
    if name in ("shli", "shrui"):
        width = 64 if type_ == "index" else int(type_[1:])
        shifts = [0, 1, 3, width - 1, width, width + 5]
        shifts = [s if type_ == "index" else _DTYPES[type_](s) for s in shifts if type_ == "index" or s < 2 ** (width - 1)]
        pairs = list(itertools.product(values, shifts))
    else:
        pairs = list(itertools.product(values, values))
    answered = 0
    for a, b in pairs:
        fast_values, general = _both_ways(interpreter, op, (a, b))
        if fast_values is not None:
            answered += 1
            _same(fast_values, general)
    # The fast path answers the ordinary cases (it declines only edge cases).
    assert answered > len(pairs) // 2


@pytest.mark.parametrize("type_", INT_TYPES)
@pytest.mark.parametrize("predicate", ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"])
def test_cmpi_fast_path_equals_the_implementation(predicate, type_):
    text = f"""
func.func @f(%a: {type_}, %b: {type_}) -> i1 {{
  %0 = arith.cmpi {predicate}, %a, %b : {type_}
  return %0 : i1
}}"""
    interpreter, op = _op_of(text, "arith.cmpi")
    values = _edge_values(type_)
    for a, b in itertools.product(values, values):
        fast_values, general = _both_ways(interpreter, op, (a, b))
        assert fast_values is not None
        _same(fast_values, general)


CASTS = [
    ("extui", "i8", "i32"), ("extui", "i32", "i64"), ("extui", "i16", "i64"),
    ("extsi", "i8", "i32"), ("extsi", "i32", "i64"),
    ("trunci", "i64", "i32"), ("trunci", "i32", "i8"), ("trunci", "i64", "i16"),
    ("index_cast", "index", "i32"), ("index_cast", "i32", "index"), ("index_cast", "index", "i64"),
    ("index_cast", "i8", "index"), ("index_castui", "i32", "index"), ("index_castui", "i64", "index"),
    ("index_castui", "index", "i64"), ("index_castui", "index", "i32"), ("index_castui", "i8", "index"),
]  # fmt: skip


@pytest.mark.parametrize("name,source,target", CASTS, ids=[f"{n}-{s}-{t}" for n, s, t in CASTS])
def test_cast_fast_paths_equal_the_implementation(name, source, target):
    text = f"""
func.func @f(%a: {source}) -> {target} {{
  %0 = arith.{name} %a : {source} to {target}
  return %0 : {target}
}}"""
    interpreter, op = _op_of(text, f"arith.{name}")
    for value in _edge_values(source):
        fast_values, general = _both_ways(interpreter, op, (value,))
        assert fast_values is not None
        _same(fast_values, general)


def test_fast_paths_decline_what_they_do_not_handle():
    text = """
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}"""
    _, op = _op_of(text, "arith.addi")
    fast = FAST_PATHS[type(op)](op)
    # Arrays (vectorized bodies), Python ints for an i32, another storage width.
    assert fast((np.arange(3, dtype=np.int32), np.int32(1))) is None
    assert fast((3, 4)) is None
    assert fast((np.int64(3), np.int32(4))) is None
    # Division by zero is left to the implementation, which reports it.
    text = text.replace("addi", "divsi")
    interpreter, op = _op_of(text, "arith.divsi")
    assert FAST_PATHS[type(op)](op)((np.int32(3), np.int32(0))) is None
    with pytest.raises(InterpreterError, match="division by zero"):
        run(text, "f", np.int32(3), np.int32(0))


def test_constants_are_shared_immutable_scalars():
    text = """
func.func @f() -> (index, i32, f32, i1) {
  %c = arith.constant 7 : index
  %i = arith.constant -3 : i32
  %x = arith.constant 1.5 : f32
  %t = arith.constant true
  return %c, %i, %x, %t : index, i32, f32, i1
}"""
    module = parse_module_text(text)
    interpreter = make_interpreter(module)
    function = find_function(module, "f")
    first = interpreter.call_op(function, ())
    second = interpreter.call_op(function, ())
    for op, got in zip([o for o in function.walk() if o.name == "arith.constant"], first):
        (want,) = interpreter._run_op(op, ()).values
        assert type(got) is type(want) and got == want
    assert [type(v) for v in first] == [int, np.int32, np.float32, np.bool_]
    assert first == second


AFFINE_MAPS = [
    "affine_map<()[s0] -> (s0 ceildiv 8)>",
    "affine_map<()[s0] -> (s0 * 8)>",
    "affine_map<()[s0, s1, s2] -> (s0 * 8 - s1 + s2)>",
    "affine_map<(d0)[s0] -> (d0 floordiv 8 + s0)>",
    "affine_map<(d0)[s0] -> (d0 mod 8 - s0 mod 3)>",
    "affine_map<(d0)[s0] -> ((d0 + 3) ceildiv 4 - d0 * 2 + s0 * 5)>",
]


@pytest.mark.parametrize("map_", AFFINE_MAPS)
def test_affine_apply_fast_path_equals_the_implementation(map_):
    dims = map_.split("(", 1)[1].split(")", 1)[0]
    num_dims = len([d for d in dims.split(",") if d.strip()])
    symbols = map_.split("[", 1)[1].split("]", 1)[0] if "[" in map_ else ""
    count = num_dims + len([s for s in symbols.split(",") if s.strip()])
    params = ", ".join(f"%a{i}: index" for i in range(count))
    operands = ", ".join(f"%a{i}" for i in range(num_dims))
    syms = ", ".join(f"%a{i}" for i in range(num_dims, count))
    text = f"""
func.func @f({params}) -> index {{
  %0 = affine.apply {map_}({operands})[{syms}]
  return %0 : index
}}"""
    interpreter, op = _op_of(text, "affine.apply")
    samples = [-17, -8, -1, 0, 1, 3, 8, 255, 1023, 2**40 + 5]
    for args in itertools.product(samples, repeat=count):
        fast_values, general = _both_ways(interpreter, op, args)
        assert fast_values is not None
        _same(fast_values, general)
    # Index arrays (a vectorized loop's lanes) take the general path.
    assert FAST_PATHS[type(op)](op)(tuple(np.arange(3) for _ in range(count))) is None


@pytest.mark.parametrize("kind", ["min", "max"])
def test_affine_min_max_fast_paths_equal_the_implementation(kind):
    text = f"""
func.func @f(%d: index, %s: index) -> index {{
  %0 = affine.{kind} affine_map<(d0)[s0] -> (d0 + 64, s0, d0 * 2 - 5)>(%d)[%s]
  return %0 : index
}}"""
    interpreter, op = _op_of(text, f"affine.{kind}")
    for args in itertools.product([-70, -1, 0, 5, 63, 64, 1000], repeat=2):
        fast_values, general = _both_ways(interpreter, op, args)
        _same(fast_values, general)


# The host side of a dispatch: 64-bit sizes split into push-constant halves and
# joined again, then sizes in tiles; the results of the whole chain with the fast
# paths must be those without any.
SPLIT_AND_JOIN = """
func.func @f(%n: index, %m: index) -> (index, index, i32, i64, index) {
  %c32 = arith.constant 32 : i64
  %c8 = arith.constant 8 : index
  %0 = arith.index_castui %n : index to i64
  %1 = arith.trunci %0 : i64 to i32
  %2 = arith.shrui %0, %c32 : i64
  %3 = arith.trunci %2 : i64 to i32
  %4 = arith.extui %1 : i32 to i64
  %5 = arith.extui %3 : i32 to i64
  %6 = arith.shli %5, %c32 : i64
  %7 = arith.ori %4, %6 : i64
  %8 = arith.index_castui %7 : i64 to index
  %9 = arith.ceildivsi %m, %c8 : index
  %10 = arith.muli %9, %c8 : index
  %11 = affine.apply affine_map<()[s0, s1] -> (s0 * 8 - s1)>()[%9, %m]
  return %8, %10, %3, %7, %11 : index, index, i32, i64, index
}"""


def test_a_host_index_chain_gives_the_same_values_without_fast_paths(monkeypatch):
    text = SPLIT_AND_JOIN
    cases = [(0, 0), (1, 1), (255, 1023), (2**32 + 7, 17), (2**40 - 1, 2**33), (2**63 - 1, 9)]
    fast = [run(text, "f", n, m) for n, m in cases]
    monkeypatch.setattr("mini_iree.compiler.interpreter.core.FAST_PATHS", {})
    general = [run(text, "f", n, m) for n, m in cases]
    for got, want in zip(fast, general):
        assert [type(v) for v in got] == [type(v) for v in want]
        assert [v.dtype if isinstance(v, np.ndarray) else v for v in got] == [
            v.dtype if isinstance(v, np.ndarray) else v for v in want
        ]
        assert all(np.array_equal(g, w) for g, w in zip(got, want))


def test_run_block_falls_back_when_a_fast_path_fails(monkeypatch):
    # A fast path that raises is treated as declining: the implementation runs.
    from xdsl.dialects import arith

    monkeypatch.setitem(FAST_PATHS, arith.AddiOp, lambda op: (lambda args: 1 // 0))
    text = """
func.func @f(%a: index, %b: index) -> index {
  %0 = arith.addi %a, %b : index
  return %0 : index
}"""
    (result,) = run(text, "f", 2, 3)
    assert int(result) == 5
