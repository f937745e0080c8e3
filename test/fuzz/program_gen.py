"""Seeded random programs in the style of the data-tiling tests, each with its numpy reference.

A program is one or two ``func.func``s on tensors made of matmuls (named and
``linalg.generic``, transposed operand maps, dynamic and static sizes from 0 to
33), ``i8 x i8 -> i32`` (``extsi`` and ``extui``), ``f16``/``bf16``/``f32``,
``batch_matmul``, ``matvec``/``vecmat``, elementwise producers and consumers
(bias add through a broadcast map, relu, ``truncf``, ``extsi``), broadcasts,
constant weights, fills (zero or not), accumulators passed in, and chains (a
matmul feeding another, also ``i8 -> i32`` feeding an ``i32`` matmul).

The generator computes every value with numpy as it writes the op (float64 or
int64 arithmetic, rounded or wrapped to the op's element type), never with
mini-iree's interpreter, so the reference is independent of it.

    program = generate(random.Random(7))
    program.text                     # the MLIR
    program.functions[0].inputs      # seeded numpy inputs
    program.functions[0].expected    # what the function must return
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

DTYPES = {
    "f32": np.dtype(np.float32),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "i8": np.dtype(np.int8),
    "i32": np.dtype(np.int32),
}
# Sizes of a loop: 0 and 1, odd sizes, sizes that cross the CPU and GPU tiles.
SIZES = [1, 1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 33]
ZERO_SIZE = 0.04  # how often a loop has size 0 (it makes everything after it empty)
BATCH_SIZES = [1, 2, 3]

# Program features ("zero-size", "i32-chain", "unsigned", "broadcast-map", "call-helper")
# that hit a known open defect: the generator leaves out those listed here, and only
# those. Keep it empty unless a defect is open and named in a comment beside it.
KNOWN_OPEN: set[str] = set()


def allowed(feature: str) -> bool:
    return feature not in KNOWN_OPEN


def dynamic_sizes() -> list[int]:
    """Sizes for every dynamic dimension in --verify-each-with-interpreter."""
    return [s for s in [0, 1, 1, 2, 3, 5, 7, 9, 16, 17] if s or allowed("zero-size")]


def is_float(dtype: str) -> bool:
    return dtype[0] in "fb"


@dataclass
class Value:
    name: str
    dims: tuple[str, ...]
    dtype: str
    array: np.ndarray

    def type(self, symbols: dict[str, Symbol]) -> str:
        return "tensor<" + "".join(symbols[d].text + "x" for d in self.dims) + self.dtype + ">"


@dataclass
class Symbol:
    size: int
    dynamic: bool

    @property
    def text(self) -> str:
        return "?" if self.dynamic else str(self.size)


@dataclass
class Function:
    name: str
    text: str
    inputs: list
    expected: list[np.ndarray]
    # The names of the features the function uses (for counting what found what).
    features: set[str] = field(default_factory=set)
    contraction_sizes: list[int] = field(default_factory=list)


@dataclass
class Program:
    seed: int
    functions: list[Function]

    def text(self, device_1: set[str] = frozenset()) -> str:
        """The module; functions named in ``device_1`` run on ``@__device_1`` (two-device targets)."""
        parts = []
        for f in self.functions:
            text = f.text
            if f.name in device_1:
                start = text.index(f"func.func @{f.name}(")
                end = text.index(" {\n", start)
                text = text[:end] + " attributes {stream.affinity = #hal.device.affinity<@__device_1>}" + text[end:]
            parts.append(text)
        return "\n".join(parts)


def _round(array: np.ndarray, dtype: str) -> np.ndarray:
    """A float64/int64 result as the op's element type holds it (ints wrap)."""
    return array.astype(DTYPES[dtype])


def _wide(array: np.ndarray, unsigned: bool = False) -> np.ndarray:
    if array.dtype.kind in "iu":
        return (array.view(np.uint8) if unsigned and array.dtype == np.int8 else array).astype(np.int64)
    return array.astype(np.float64)


def _nested(values, dtype: str) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_nested(v, dtype) for v in values) + "]"
    return _literal(values, dtype)


def _literal(value, dtype: str) -> str:
    return f"{float(value):.6e}" if is_float(dtype) else str(int(value))


class Builder:
    """Writes one function's body, op by op, computing each value with numpy."""

    def __init__(self, rng: random.Random, name: str):
        self.rng = rng
        self.nprng = np.random.default_rng(rng.randrange(2**32))
        self.name = name
        self.symbols: dict[str, Symbol] = {}
        self.args: list[tuple[str, str]] = []  # (name, type text)
        self.inputs: list = []
        self.anchors: dict[str, tuple[str, int, str]] = {}  # dynamic symbol -> (arg, dim, type)
        self.lines: list[str] = []
        self.count = 0
        self.features: set[str] = set()
        self.contraction_sizes: list[int] = []
        self.dynamic_bias = rng.random()  # how likely a new loop is dynamic in this function

    def allowed(self, feature: str) -> bool:
        return allowed(feature)

    def fresh(self, prefix: str = "v") -> str:
        self.count += 1
        return f"%{prefix}{self.count}"

    def symbol(self, batch: bool = False, static: bool = False) -> str:
        name = f"s{len(self.symbols)}"
        size = self.rng.choice(BATCH_SIZES if batch else SIZES)
        if not batch and self.allowed("zero-size") and self.rng.random() < ZERO_SIZE:
            size = 0
            self.features.add("zero-size")
        self.symbols[name] = Symbol(size, not static and self.rng.random() < self.dynamic_bias)
        return name

    def shape(self, dims) -> tuple[int, ...]:
        return tuple(self.symbols[d].size for d in dims)

    def type(self, dims, dtype: str) -> str:
        return "tensor<" + "".join(self.symbols[d].text + "x" for d in dims) + dtype + ">"

    # -- leaves ---------------------------------------------------------------

    def random_array(self, dims, dtype: str, unsigned: bool = False) -> np.ndarray:
        shape = self.shape(dims)
        if dtype == "i8":
            # Negative values too, so that extsi and extui differ.
            return self.nprng.integers(-16 if not unsigned else -128, 16, shape).astype(np.int8)
        if dtype == "i32":
            return self.nprng.integers(-8, 8, shape).astype(np.int32)
        return self.nprng.standard_normal(shape).astype(DTYPES[dtype])

    def argument(self, dims, dtype: str) -> Value:
        name = f"%arg{len(self.args)}"
        type_ = self.type(dims, dtype)
        self.args.append((name, type_))
        array = self.random_array(dims, dtype)
        self.inputs.append(array)
        for i, d in enumerate(dims):
            if self.symbols[d].dynamic and d not in self.anchors:
                self.anchors[d] = (name, i, type_)
        return Value(name, tuple(dims), dtype, array)

    def constant(self, dims, dtype: str) -> Value:
        """A constant weight (only on static, non-empty shapes)."""
        shape = self.shape(dims)
        name = self.fresh("cst")
        if is_float(dtype):
            array = (self.nprng.integers(-8, 9, shape) / 4).astype(DTYPES[dtype])
        else:
            array = self.nprng.integers(-8, 8, shape).astype(DTYPES[dtype])
        if self.rng.random() < 0.2:
            array = np.full(shape, array.reshape(-1)[0], dtype=array.dtype)
            body = _literal(array.reshape(-1)[0], dtype)
        else:
            body = _nested(array.tolist(), dtype)
        self.lines.append(f"{name} = arith.constant dense<{body}> : {self.type(dims, dtype)}")
        self.features.add("constant")
        return Value(name, tuple(dims), dtype, array)

    def leaf(self, dims, dtype: str) -> Value:
        static = all(not self.symbols[d].dynamic and self.symbols[d].size > 0 for d in dims)
        if static and self.allowed("constant") and self.rng.random() < 0.25:
            return self.constant(dims, dtype)
        return self.argument(dims, dtype)

    def dim_value(self, d: str) -> str:
        """The SSA value of a dynamic loop's size (set up at the top of the function)."""
        return f"%dim_{d}"

    def empty(self, dims, dtype: str) -> str:
        name = self.fresh("e")
        dynamic = [self.dim_value(d) for d in dims if self.symbols[d].dynamic]
        self.lines.append(f"{name} = tensor.empty({', '.join(dynamic)}) : {self.type(dims, dtype)}")
        return name

    def init(self, dims, dtype: str) -> tuple[str, np.ndarray]:
        """A matmul's init: a fill of zero (mostly), of another value, or an accumulator argument."""
        shape = self.shape(dims)
        r = self.rng.random()
        if r < 0.12:
            acc = self.argument(dims, dtype)
            self.features.add("accumulator")
            return acc.name, _wide(acc.array)
        value = 0 if r < 0.85 else self.rng.choice([1, -2, 3])
        if value:
            self.features.add("nonzero-fill")
        empty = self.empty(dims, dtype)
        cst = self.fresh("c")
        self.lines.append(f"{cst} = arith.constant {_literal(value, dtype)} : {dtype}")
        name = self.fresh("fill")
        t = self.type(dims, dtype)
        self.lines.append(f"{name} = linalg.fill ins({cst} : {dtype}) outs({empty} : {t}) -> {t}")
        return name, np.full(shape, value, dtype=np.float64 if is_float(dtype) else np.int64)

    # -- elementwise ----------------------------------------------------------

    def generic(self, inputs: list[tuple[Value, tuple[str, ...]]], out_dims, out_dtype: str, body: list[str],
                out_init: str | None = None) -> str:  # fmt: skip
        """An all-parallel linalg.generic over ``out_dims``; each input read through its own dims."""
        loops = {d: i for i, d in enumerate(out_dims)}
        maps = []
        for value, dims in inputs:
            maps.append("affine_map<(" + ", ".join(f"d{i}" for i in range(len(out_dims))) + ") -> ("
                        + ", ".join(f"d{loops[d]}" for d in dims) + ")>")  # fmt: skip
        identity = "affine_map<(" + ", ".join(f"d{i}" for i in range(len(out_dims))) + ") -> (" + ", ".join(
            f"d{i}" for i in range(len(out_dims))) + ")>"  # fmt: skip
        maps.append(identity)
        init = out_init or self.empty(out_dims, out_dtype)
        out_type = self.type(out_dims, out_dtype)
        name = self.fresh()
        ins = ", ".join(v.name for v, _ in inputs)
        in_types = ", ".join(v.type(self.symbols) for v, _ in inputs)
        block_args = ", ".join(f"%in{i}: {v.dtype}" for i, (v, _) in enumerate(inputs)) + f", %out: {out_dtype}"
        iterators = ", ".join(['"parallel"'] * len(out_dims))
        self.lines.append(
            f"{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{iterators}]}} "
            f"ins({ins} : {in_types}) outs({init} : {out_type}) {{\n"
            f"^bb0({block_args}):\n" + "".join(f"  {line}\n" for line in body) + f"}} -> {out_type}"
        )
        return name

    def bias_add(self, x: Value) -> Value:
        """x + bias, the bias read through a broadcast map (a subset of x's dims)."""
        kept = tuple(d for d in x.dims if self.rng.random() < 0.5) or x.dims[-1:]
        bias = self.leaf(kept, x.dtype)
        op = "arith.addf" if is_float(x.dtype) else "arith.addi"
        name = self.generic([(x, x.dims), (bias, kept)], x.dims, x.dtype,
                            [f"%r = {op} %in0, %in1 : {x.dtype}", f"linalg.yield %r : {x.dtype}"])  # fmt: skip
        bias_wide = _wide(bias.array)
        index = [slice(None) if d in kept else np.newaxis for d in x.dims]
        # Broadcast the bias's dims into x's positions (kept keeps x's order).
        array = _round(_wide(x.array) + bias_wide[tuple(index)], x.dtype)
        self.features.add("bias-add")
        return Value(name, x.dims, x.dtype, array)

    def relu(self, x: Value) -> Value:
        zero = self.fresh("zero")
        self.lines.append(f"{zero} = arith.constant {_literal(0, x.dtype)} : {x.dtype}")
        op = "arith.maximumf" if is_float(x.dtype) else "arith.maxsi"
        name = self.generic([(x, x.dims)], x.dims, x.dtype, [f"%r = {op} %in0, {zero} : {x.dtype}",
                                                             f"linalg.yield %r : {x.dtype}"])  # fmt: skip
        self.features.add("relu")
        return Value(name, x.dims, x.dtype, np.maximum(x.array, np.zeros((), x.array.dtype)))

    def convert(self, x: Value, dtype: str, unsigned: bool = False) -> Value:
        """truncf (f32 -> f16/bf16), extf, or extsi/extui (i8 -> i32), elementwise."""
        if is_float(dtype):
            op = "arith.truncf" if DTYPES[dtype].itemsize < DTYPES[x.dtype].itemsize else "arith.extf"
        else:
            op = "arith.extui" if unsigned else "arith.extsi"
        name = self.generic([(x, x.dims)], x.dims, dtype, [f"%r = {op} %in0 : {x.dtype} to {dtype}",
                                                           f"linalg.yield %r : {dtype}"])  # fmt: skip
        self.features.add(op.split(".")[1])
        return Value(name, x.dims, dtype, _round(_wide(x.array, unsigned), dtype))

    def broadcast(self, x: Value, dims) -> Value:
        """x (a subset of ``dims``) broadcast to ``dims``."""
        name = self.generic([(x, x.dims)], dims, x.dtype, [f"linalg.yield %in0 : {x.dtype}"])
        index = [slice(None) if d in x.dims else np.newaxis for d in dims]
        array = np.broadcast_to(x.array[tuple(index)], self.shape(dims)).copy()
        self.features.add("broadcast")
        return Value(name, tuple(dims), x.dtype, array)

    # -- operands -------------------------------------------------------------

    def operand(self, dims, dtype: str, unsigned: bool = False) -> Value:
        """A contraction operand: a leaf, or a leaf through a producer (bias add, relu, convert, broadcast)."""
        r = self.rng.random()
        if r < 0.12 and dtype in ("f16", "bf16") and self.allowed("truncf-producer"):
            return self.convert(self.leaf(dims, "f32"), dtype)
        if r < 0.2 and dtype == "i32" and self.allowed("extsi-producer"):
            unsigned = self.allowed("unsigned") and self.rng.random() < 0.4
            return self.convert(self.leaf(dims, "i8"), "i32", unsigned=unsigned)
        if r < 0.3 and len(dims) >= 2 and self.allowed("broadcast-operand"):
            kept = tuple(d for d in dims if self.rng.random() < 0.5) or dims[-1:]
            return self.broadcast(self.leaf(kept, dtype), dims)
        if r < 0.4 and dtype in ("f32", "i32"):
            x = self.leaf(dims, dtype)
            return self.bias_add(x) if self.rng.random() < 0.5 else self.relu(x)
        if dtype == "i8" and unsigned:
            value = self.argument(dims, dtype)
            value.array = self.random_array(dims, dtype, unsigned=True)
            self.inputs[-1] = value.array
            return value
        return self.leaf(dims, dtype)

    # -- contractions ---------------------------------------------------------

    def contraction(self, kind: str, lhs: Value, rhs: Value, lhs_dims, rhs_dims, out_dims, out_dtype: str,
                    k: str, unsigned: bool = False) -> Value:  # fmt: skip
        """``out = init + sum_k lhs * rhs``, as a named op or a generic (read through its maps)."""
        init, init_array = self.init(out_dims, out_dtype)
        out_type = self.type(out_dims, out_dtype)
        name = self.fresh("mm")
        if kind == "generic":
            loops = list(dict.fromkeys([*out_dims, k]))
            position = {d: i for i, d in enumerate(loops)}
            head = "affine_map<(" + ", ".join(f"d{i}" for i in range(len(loops))) + ") -> ("

            def amap(dims) -> str:
                return head + ", ".join(f"d{position[d]}" for d in dims) + ")>"

            iterators = ", ".join('"reduction"' if d == k else '"parallel"' for d in loops)
            body = []
            a, b = "%a", "%b"
            if lhs.dtype != out_dtype:
                ext = "arith.extf" if is_float(out_dtype) else ("arith.extui" if unsigned else "arith.extsi")
                body += [f"%ae = {ext} %a : {lhs.dtype} to {out_dtype}", f"%be = {ext} %b : {rhs.dtype} to {out_dtype}"]
                a, b = "%ae", "%be"
            mul, add = ("arith.mulf", "arith.addf") if is_float(out_dtype) else ("arith.muli", "arith.addi")
            body += [f"%p = {mul} {a}, {b} : {out_dtype}", f"%s = {add} %c, %p : {out_dtype}",
                     f"linalg.yield %s : {out_dtype}"]  # fmt: skip
            self.lines.append(
                f"{name} = linalg.generic {{indexing_maps = [{amap(lhs_dims)}, {amap(rhs_dims)}, {amap(out_dims)}], "
                f"iterator_types = [{iterators}]}} ins({lhs.name}, {rhs.name} : {lhs.type(self.symbols)}, "
                f"{rhs.type(self.symbols)}) outs({init} : {out_type}) {{\n"
                f"^bb0(%a: {lhs.dtype}, %b: {rhs.dtype}, %c: {out_dtype}):\n"
                + "".join(f"  {line}\n" for line in body) + f"}} -> {out_type}"
            )  # fmt: skip
        else:
            self.lines.append(
                f"{name} = linalg.{kind} ins({lhs.name}, {rhs.name} : {lhs.type(self.symbols)}, "
                f"{rhs.type(self.symbols)}) outs({init} : {out_type}) -> {out_type}"
            )
        letters = {d: chr(ord("a") + i) for i, d in enumerate(dict.fromkeys([*lhs_dims, *rhs_dims, *out_dims]))}
        spec = "".join(letters[d] for d in lhs_dims) + "," + "".join(letters[d] for d in rhs_dims) + "->" + "".join(
            letters[d] for d in out_dims)  # fmt: skip
        # A loop of the result no operand reads (a broadcast map): sum without it, then broadcast.
        read = [d for d in out_dims if d in lhs_dims or d in rhs_dims]
        spec = spec.split("->")[0] + "->" + "".join(letters[d] for d in read)
        product = np.einsum(spec, _wide(lhs.array, unsigned), _wide(rhs.array, unsigned))
        product = np.broadcast_to(product[tuple(slice(None) if d in read else np.newaxis for d in out_dims)],
                                  self.shape(out_dims))  # fmt: skip
        array = _round(init_array + product, out_dtype)
        self.features.add(kind if kind != "generic" else "generic-contraction")
        self.contraction_sizes.append(self.symbols[k].size)
        return Value(name, tuple(out_dims), out_dtype, array)

    def matmul(self, lhs: Value | None, in_dtype: str, out_dtype: str) -> Value:
        """A matmul on ``lhs`` (M x K, made if None) and a new RHS, in one of the forms IREE data-tiles."""
        unsigned = in_dtype == "i8" and self.allowed("unsigned") and self.rng.random() < 0.4
        kind = "generic" if unsigned else self.rng.choice(["matmul", "matmul", "generic"])
        if unsigned:
            self.features.add("unsigned")  # a named linalg.matmul extends signed: a generic with extui
        m = lhs.dims[0] if lhs is not None else self.symbol()
        k = lhs.dims[1] if lhs is not None else self.symbol()
        n = self.symbol()
        lhs_dims, rhs_dims = (m, k), (k, n)
        if kind == "generic" and lhs is None and self.rng.random() < 0.2 and self.allowed("transpose-a"):
            lhs_dims = (k, m)
            self.features.add("transpose-a")
        if kind == "generic" and self.rng.random() < 0.5 and self.allowed("transpose-b"):
            rhs_dims = (n, k)
            self.features.add("transpose-b")
        if kind == "generic" and lhs is None and self.rng.random() < 0.1 and self.allowed("broadcast-map"):
            # One operand is a vector of K, broadcast over M (the LHS) or N (the RHS).
            if self.rng.random() < 0.5:
                lhs_dims = (k,)
            else:
                rhs_dims = (k,)
            self.features.add("broadcast-map")
        if lhs is None:
            lhs = self.operand(lhs_dims, in_dtype, unsigned)
        rhs = self.operand(rhs_dims, in_dtype, unsigned)
        return self.contraction(kind, lhs, rhs, lhs_dims, rhs_dims, (m, n), out_dtype, k, unsigned)

    # -- the function ---------------------------------------------------------

    def finish(self, results: list[Value]) -> Function:
        # Dynamic sizes: tensor.dim of an argument that has the loop, else an index argument.
        head = []
        used = {name for line in self.lines for name in re.findall(r"%dim_(s\d+)\b", line)}
        needed = sorted(used, key=lambda d: int(d[1:]))
        constants = set()
        for d in needed:
            if d not in self.anchors:
                name = f"%dim_{d}"
                self.args.append((name, "index"))
                self.inputs.append(self.symbols[d].size)
                self.features.add("index-argument")
                continue
            arg, i, type_ = self.anchors[d]
            if i not in constants:
                head.append(f"%c{i}_idx = arith.constant {i} : index")
                constants.add(i)
            head.append(f"%dim_{d} = tensor.dim {arg}, %c{i}_idx : {type_}")
        result_types = ", ".join(v.type(self.symbols) for v in results)
        signature = ", ".join(f"{n}: {t}" for n, t in self.args)
        body = "".join(f"  {line}\n" for text in [*head, *self.lines] for line in text.split("\n"))
        returned = f"  return {', '.join(v.name for v in results)} : {result_types}\n}}\n"
        text = f"func.func @{self.name}({signature}) -> ({result_types}) {{\n{body}{returned}"
        if self.allowed("call-helper") and self.rng.random() < 0.1:
            # The body in a private helper; the public function only calls it.
            self.features.add("call-helper")
            helper = text.replace(f"func.func @{self.name}(", f"func.func private @{self.name}_helper(", 1)
            args = ", ".join(n for n, _ in self.args)
            arg_types = ", ".join(t for _, t in self.args)
            group = f":{len(results)}" if len(results) > 1 else ""
            values = ", ".join(f"%r#{i}" for i in range(len(results))) if group else "%r"
            text = helper + (
                f"func.func @{self.name}({signature}) -> ({result_types}) {{\n"
                f"  %r{group} = func.call @{self.name}_helper({args}) : ({arg_types}) -> ({result_types})\n"
                f"  return {values} : {result_types}\n}}\n"
            )
        return Function(self.name, text, self.inputs, [v.array for v in results], self.features,
                        self.contraction_sizes)  # fmt: skip


def _function(rng: random.Random, name: str) -> Function:
    b = Builder(rng, name)
    family = rng.choice(["f32", "f32", "f16", "bf16", "i8", "i8"])
    out_dtype = "i32" if family == "i8" else "f32"
    shape = rng.random()
    results: list[Value] = []
    if shape < 0.1 and b.allowed("batch_matmul"):
        bdim, m, k, n = b.symbol(batch=True), b.symbol(), b.symbol(), b.symbol()
        lhs, rhs = b.operand((bdim, m, k), family), b.operand((bdim, k, n), family)
        kind = "batch_matmul" if family != "i8" or rng.random() < 0.5 else "generic"
        current = b.contraction(kind, lhs, rhs, (bdim, m, k), (bdim, k, n), (bdim, m, n), out_dtype, k)
    elif shape < 0.18 and b.allowed("matvec"):
        m, k = b.symbol(), b.symbol()
        if rng.random() < 0.5:
            lhs, rhs = b.operand((m, k), family), b.leaf((k,), family)
            current = b.contraction("matvec", lhs, rhs, (m, k), (k,), (m,), out_dtype, k)
        else:
            lhs, rhs = b.leaf((m,), family), b.operand((m, k), family)
            current = b.contraction("vecmat", lhs, rhs, (m,), (m, k), (k,), out_dtype, m)
    else:
        current = b.matmul(None, family, out_dtype)
        # A chain: elementwise consumers, then perhaps another matmul reading the result.
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            step = rng.random()
            if step < 0.3:
                current = b.bias_add(current)
            elif step < 0.5:
                current = b.relu(current)
            elif step < 0.6 and current.dtype == "f32" and family in ("f16", "bf16"):
                current = b.convert(current, family)
            else:
                if rng.random() < 0.25:
                    results.append(current)  # an intermediate result returned too
                in_dtype = current.dtype
                if in_dtype == "i32" and not b.allowed("i32-chain"):
                    current = b.bias_add(current)
                    continue
                if in_dtype == "f32" and family in ("f16", "bf16") and rng.random() < 0.7:
                    current = b.convert(current, family)
                    in_dtype = family
                b.features.add("chain" if in_dtype != "i32" else "i32-chain")
                current = b.matmul(current, in_dtype, "i32" if in_dtype in ("i8", "i32") else "f32")
    results.append(current)
    return b.finish(results)


def generate(rng: random.Random, seed: int = 0) -> Program:
    """One program: a function, sometimes two (two entry points; on two devices they may differ)."""
    functions = [_function(rng, "f0")]
    if rng.random() < 0.2:
        functions.append(_function(rng, "f1"))
    return Program(seed, functions)
