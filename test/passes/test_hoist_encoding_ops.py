"""``iree-dispatch-creation-hoist-encoding-ops`` keeps results: checked with the interpreter.

Every program is at the stage SetEncoding leaves it (the walkthrough's form:
a ``util.func`` on ``!hal.buffer_view`` whose ``flow.dispatch.region`` holds
the ``set_encoding``/``unset_encoding`` ops). The pass runs under
``--verify-each-with-interpreter``, which runs each program before and after
on the same random inputs; the tests then check where the encoding ops landed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import require_reference, run_opt

from xdsl.dialects.builtin import ArrayAttr

from mini_iree.compiler.analysis.dispatch_regions import enclosing_dispatch_region
from mini_iree.compiler.interpreter import parse_module_text
from mini_iree.dialects import iree_encoding, linalg

PASS = "iree-dispatch-creation-hoist-encoding-ops"


# ---------------------------------------------------------------------------
# Program builder: one data-tiled contraction per dispatch
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Contraction:
    op: str
    loops: str  # one letter per loop, in loop order
    lhs: str  # loop letters indexing each operand
    rhs: str
    out: str


MATMUL = Contraction("linalg.matmul", "mnk", "mk", "kn", "mn")
BATCH_MATMUL = Contraction("linalg.batch_matmul", "bmnk", "bmk", "bkn", "bmn")
MATVEC = Contraction("linalg.matvec", "mk", "mk", "k", "m")
VECMAT = Contraction("linalg.vecmat", "nk", "k", "kn", "n")

SIZES = {"b": 3, "m": 5, "n": 7, "k": 4}
ELEMENT_TYPES = {"f32": ("f32", "f32", "f32"), "f16": ("f16", "f16", "f32"), "i8": ("i8", "i8", "i32")}
ZERO = {"f32": "0.000000e+00", "i32": "0"}


def _map(c: Contraction, letters: str) -> str:
    dims = ", ".join(f"d{i}" for i in range(len(c.loops)))
    results = ", ".join(f"d{c.loops.index(letter)}" for letter in letters)
    return f"affine_map<({dims}) -> ({results})>"


def _tensor(letters: str, element: str, dynamic: bool, sizes: dict[str, int]) -> str:
    shape = "".join(("?" if dynamic else str(sizes[letter])) + "x" for letter in letters)
    return f"tensor<{shape}{element}>"


def _encoding(c: Contraction, index: int, types: tuple[str, str, str], dynamic: bool, sizes) -> str:
    maps = [_map(c, c.lhs), _map(c, c.rhs), _map(c, c.out)]
    iteration = ", ".join("?" if dynamic else str(sizes[letter]) for letter in c.loops)
    return (
        f"#iree_encoding.encoding<operand_index = {index} : index, op_type = matmul, "
        f"element_types = [{', '.join(types)}], user_indexing_maps = [{', '.join(maps)}], "
        f"iteration_sizes = [{iteration}]>"
    )


class _Function:
    """Collects the lines of a buffer-view entry point and where each dynamic size lives."""

    def __init__(self, name: str, dynamic: bool):
        self.name, self.dynamic = name, dynamic
        self.args: list[str] = []
        self.outer: list[str] = []
        self.size_of: dict[str, str] = {}

    def import_arg(self, letters: str, element: str, sizes) -> str:
        index = len(self.args)
        self.args.append(f"%arg{index}: !hal.buffer_view")
        dims = []
        for axis, letter in enumerate(letters):
            if not self.dynamic:
                continue
            name = f"%d{index}_{axis}"
            self.outer.append(f"{name} = hal.buffer_view.dim<%arg{index} : !hal.buffer_view>[{axis}] : index")
            self.size_of.setdefault(letter, name)
            dims.append(name)
        type_ = _tensor(letters, element, self.dynamic, sizes)
        dims_text = "{" + ", ".join(dims) + "}" if dims else ""
        self.outer.append(
            f'%in{index} = hal.tensor.import %arg{index} "input{index}" : !hal.buffer_view -> {type_}{dims_text}'
        )
        return f"%in{index}"

    def dims(self, letters: str) -> list[str]:
        return [self.size_of[letter] for letter in letters] if self.dynamic else []

    def text(self, body: list[str], result: str, result_letters: str, result_element: str, sizes) -> str:
        type_ = _tensor(result_letters, result_element, self.dynamic, sizes)
        dims = self.dims(result_letters)
        dims_text = "{" + ", ".join(dims) + "}" if dims else ""
        lines = [
            f"util.func public @{self.name}({', '.join(self.args)}) -> !hal.buffer_view {{",
            *self.outer,
            f"%r = flow.dispatch.region -> ({type_}{dims_text}) {{",
            *body,
            f"flow.return {result} : {type_}",
            "}",
            f'%out = hal.tensor.export %r "output0" : {type_}{dims_text} -> !hal.buffer_view',
            "util.return %out : !hal.buffer_view",
            "}",
        ]
        return "\n".join(lines) + "\n"


def contraction_program(
    c: Contraction,
    types: str = "f32",
    dynamic: bool = False,
    *,
    sizes: dict[str, int] | None = None,
    rhs_producer: str | None = None,
    bias: bool = False,
) -> str:
    """A data-tiled contraction, optionally with an RHS producer or a bias consumer in its dispatch.

    ``rhs_producer``: ``"broadcast"`` reads the RHS as a vector over its last
    loop and broadcasts it; ``"extf"`` reads it as f16 and extends it.
    ``bias`` adds a vector over the output's last loop after the unset_encoding.
    """
    sizes = {**SIZES, **(sizes or {})}
    lhs_t, rhs_t, out_t = ELEMENT_TYPES[types]
    fn = _Function(f"{c.op.split('.')[1]}_{types}_{'dynamic' if dynamic else 'static'}", dynamic)
    lhs = fn.import_arg(c.lhs, lhs_t, sizes)
    body: list[str] = []
    if rhs_producer is None:
        rhs = fn.import_arg(c.rhs, rhs_t, sizes)
    else:
        rhs = _rhs_producer(fn, c, rhs_producer, sizes, body)
    bias_value = fn.import_arg(c.out[-1], out_t, sizes) if bias else None

    rhs_type = _tensor(c.rhs, rhs_t, dynamic, sizes)
    lhs_type = _tensor(c.lhs, lhs_t, dynamic, sizes)
    encodings = [_encoding(c, i, ELEMENT_TYPES[types], dynamic, sizes) for i in range(3)]
    out_plain = _tensor(c.out, out_t, dynamic, sizes)
    out_enc = out_plain[:-1] + f", {encodings[2]}>"
    dims = ", ".join(fn.dims(c.out))
    dims_braced = "{" + dims + "}" if dims else ""
    body += [
        f"%zero = arith.constant {ZERO[out_t]} : {out_t}",
        f"%lhs = iree_encoding.set_encoding {lhs} : {lhs_type} -> {lhs_type[:-1]}, {encodings[0]}>",
        f"%rhs = iree_encoding.set_encoding {rhs} : {rhs_type} -> {rhs_type[:-1]}, {encodings[1]}>",
        f"%acc_init = tensor.empty({dims}) : {out_enc}",
        f"%acc = linalg.fill ins(%zero : {out_t}) outs(%acc_init : {out_enc}) -> {out_enc}",
        f"%mm = {c.op} ins(%lhs, %rhs : {lhs_type[:-1]}, {encodings[0]}>, {rhs_type[:-1]}, {encodings[1]}>) "
        f"outs(%acc : {out_enc}) -> {out_enc}",
        f"%res = iree_encoding.unset_encoding %mm : {out_enc} -> {out_plain}{dims_braced}",
    ]
    result = "%res"
    if bias_value is not None:
        result = _bias_consumer(c, out_t, out_plain, dims, bias_value, dynamic, sizes, body)
    return fn.text(body, result, c.out, out_t, sizes)


def _rhs_producer(fn: _Function, c: Contraction, kind: str, sizes, body: list[str]) -> str:
    rank = len(c.rhs)
    identity = "affine_map<(" + ", ".join(f"d{i}" for i in range(rank)) + ") -> (" + ", ".join(
        f"d{i}" for i in range(rank)
    ) + ")>"
    out_type = _tensor(c.rhs, "f32", fn.dynamic, sizes)
    if kind == "broadcast":
        source = fn.import_arg(c.rhs[-1], "f32", sizes)
        in_map = "affine_map<(" + ", ".join(f"d{i}" for i in range(rank)) + f") -> (d{rank - 1})>"
        in_type = _tensor(c.rhs[-1], "f32", fn.dynamic, sizes)
        region = ["^bb0(%x: f32, %o: f32):", "linalg.yield %x : f32"]
    else:
        source = fn.import_arg(c.rhs, "f16", sizes)
        in_map = identity
        in_type = _tensor(c.rhs, "f16", fn.dynamic, sizes)
        region = ["^bb0(%x: f16, %o: f32):", "%w = arith.extf %x : f16 to f32", "linalg.yield %w : f32"]
    parallel = ", ".join(['"parallel"'] * rank)
    body += [
        f"%rhs_init = tensor.empty({', '.join(fn.dims(c.rhs))}) : {out_type}",
        f"%rhs_val = linalg.generic {{indexing_maps = [{in_map}, {identity}], iterator_types = [{parallel}]}} "
        f"ins({source} : {in_type}) outs(%rhs_init : {out_type}) {{",
        *region,
        f"}} -> {out_type}",
    ]
    return "%rhs_val"


def _bias_consumer(c, out_t, out_plain, dims, bias_value, dynamic, sizes, body: list[str]) -> str:
    rank = len(c.out)
    loops = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({loops}) -> ({loops})>"
    last = f"affine_map<({loops}) -> (d{rank - 1})>"
    parallel = ", ".join(['"parallel"'] * rank)
    add = "arith.addf" if out_t.startswith("f") else "arith.addi"
    bias_type = _tensor(c.out[-1], out_t, dynamic, sizes)
    body += [
        f"%ew_init = tensor.empty({dims}) : {out_plain}",
        f"%biased = linalg.generic {{indexing_maps = [{identity}, {last}, {identity}], iterator_types = [{parallel}]}} "
        f"ins(%res, {bias_value} : {out_plain}, {bias_type}) outs(%ew_init : {out_plain}) {{",
        f"^bb0(%a: {out_t}, %b: {out_t}, %o: {out_t}):",
        f"%s = {add} %a, %b : {out_t}",
        f"linalg.yield %s : {out_t}",
        f"}} -> {out_plain}",
    ]
    return "%biased"


# ---------------------------------------------------------------------------
# Running and inspecting
# ---------------------------------------------------------------------------


def run_pass(tmp_path: Path, program: str | Path, dynamic_size: int = 5) -> str:
    path = program if isinstance(program, Path) else tmp_path / "input.mlir"
    if not isinstance(program, Path):
        path.write_text(program)
    result = run_opt(
        [str(path), "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={dynamic_size}"]
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def encoding_ops_inside_dispatches(text: str) -> list[str]:
    """Names of the encoding ops left inside a dispatch region."""
    module = parse_module_text(text)
    return [
        op.name
        for op in module.walk()
        if isinstance(op, (iree_encoding.SetEncodingOp, iree_encoding.UnsetEncodingOp))
        and enclosing_dispatch_region(op) is not None
    ]


def chained_set_encodings(text: str) -> int:
    """How many set_encoding ops carry a map chain (``[#root, #map]``) for their operand."""
    module = parse_module_text(text)
    count = 0
    for op in module.walk():
        encoding = iree_encoding.get_encoding_attr(op.results[0].type) if op.results else None
        if not isinstance(op, iree_encoding.SetEncodingOp) or encoding is None:
            continue
        entry = encoding.user_indexing_maps.data[encoding.get_operand_index()]  # type: ignore[union-attr]
        count += isinstance(entry, ArrayAttr)
    return count


def generics_on_encoded_tensors(text: str) -> int:
    module = parse_module_text(text)
    return sum(
        1
        for op in module.walk()
        if isinstance(op, linalg.GenericOp) and iree_encoding.get_encoding_attr(op.res[0].type) is not None
    )


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


def test_walkthrough_dumps_keep_results(tmp_path):
    walkthrough = require_reference() / "seed-walkthrough"
    for dump in ("02-set-encoding.after.mlir", "04-hoist-encoding-ops.local-propagation.before.mlir"):
        out = run_pass(tmp_path, walkthrough / dump)
        # Only the result's unset_encoding stays in the dispatch.
        assert encoding_ops_inside_dispatches(out) == ["iree_encoding.unset_encoding"]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("types", ["f32", "f16", "i8"])
@pytest.mark.parametrize("contraction", [MATMUL, BATCH_MATMUL, MATVEC, VECMAT], ids=lambda c: c.op)
def test_operand_encodings_are_hoisted(tmp_path, contraction, types, dynamic):
    out = run_pass(tmp_path, contraction_program(contraction, types, dynamic))
    assert encoding_ops_inside_dispatches(out) == ["iree_encoding.unset_encoding"]
    assert out.count("iree_encoding.set_encoding") == 2


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("kind", ["broadcast", "extf"])
@pytest.mark.parametrize("contraction", [MATMUL, BATCH_MATMUL], ids=lambda c: c.op)
def test_set_encoding_bubbles_through_producer(tmp_path, contraction, kind, dynamic):
    out = run_pass(tmp_path, contraction_program(contraction, "f32", dynamic, rhs_producer=kind))
    assert encoding_ops_inside_dispatches(out) == ["iree_encoding.unset_encoding"]
    assert generics_on_encoded_tensors(out) == 1
    # The RHS chain records the producer's input map.
    assert chained_set_encodings(out) == 1


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("types", ["f32", "i8"])
@pytest.mark.parametrize("contraction", [MATMUL, BATCH_MATMUL, MATVEC], ids=lambda c: c.op)
def test_unset_encoding_sinks_into_bias_add(tmp_path, contraction, types, dynamic):
    out = run_pass(tmp_path, contraction_program(contraction, types, dynamic, bias=True))
    assert encoding_ops_inside_dispatches(out) == ["iree_encoding.unset_encoding"]
    assert generics_on_encoded_tensors(out) == 1
    assert out.count("iree_encoding.set_encoding") == 3
    # A bias over the last of several dims adds a broadcast map to its chain;
    # matvec's bias is read with the identity map, which is left out.
    assert chained_set_encodings(out) == (1 if len(contraction.out) > 1 else 0)


def test_producer_and_consumer_in_one_dispatch(tmp_path):
    program = contraction_program(MATMUL, "f32", True, rhs_producer="extf", bias=True)
    out = run_pass(tmp_path, program, dynamic_size=6)
    assert encoding_ops_inside_dispatches(out) == ["iree_encoding.unset_encoding"]
    assert generics_on_encoded_tensors(out) == 2
    assert chained_set_encodings(out) == 2


@pytest.mark.parametrize("sizes", [{"m": 0}, {"k": 0}], ids=["m0", "k0"])
def test_zero_size_dimension(tmp_path, sizes):
    out = run_pass(tmp_path, contraction_program(MATMUL, "f32", False, sizes=sizes, bias=True))
    assert encoding_ops_inside_dispatches(out) == ["iree_encoding.unset_encoding"]


def test_zero_dynamic_size(tmp_path):
    out = run_pass(tmp_path, contraction_program(MATMUL, "i8", True, bias=True), dynamic_size=0)
    assert encoding_ops_inside_dispatches(out) == ["iree_encoding.unset_encoding"]


COMPUTED_SOURCE = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], \
user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, \
affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [4, 4, 4]>
util.func public @computed_source(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<4x4xf32>
  %1 = flow.dispatch.region -> (tensor<4x4xf32>) {
    %2 = tensor.empty() : tensor<4x4xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
        ins(%0 : tensor<4x4xf32>) outs(%2 : tensor<4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %in : f32
      linalg.yield %4 : f32
    } -> tensor<4x4xf32>
    %5 = iree_encoding.set_encoding %3 : tensor<4x4xf32> -> tensor<4x4xf32, #encoding>
    %6 = iree_encoding.unset_encoding %5 : tensor<4x4xf32, #encoding> -> tensor<4x4xf32>
    flow.return %6 : tensor<4x4xf32>
  }
  %7 = hal.tensor.export %1 "output0" : tensor<4x4xf32> -> !hal.buffer_view
  util.return %7 : !hal.buffer_view
}
"""


def test_source_computed_in_dispatch_stays(tmp_path):
    out = run_pass(tmp_path, COMPUTED_SOURCE)
    assert encoding_ops_inside_dispatches(out) == ["iree_encoding.set_encoding", "iree_encoding.unset_encoding"]


# A weight negated inside the dispatch: the negation of an immutable global is a
# constant expression that would become a global, so it leaves with its
# set_encoding; reading a mutable global instead, everything stays.
CONST_EXPR_WEIGHT = """
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#acc = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.global private @weight = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.5, 2.5, 3.5]]> : tensor<4x3xf32>
func.func @main(%a: tensor<5x4xf32>) -> tensor<5x3xf32> {
  %0 = flow.dispatch.region -> (tensor<5x3xf32>) {
    %w = util.global.load @weight : tensor<4x3xf32>
    %e0 = tensor.empty() : tensor<4x3xf32>
    %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4x3xf32>) outs(%e0 : tensor<4x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<4x3xf32>
    %l = iree_encoding.set_encoding %a : tensor<5x4xf32> -> tensor<5x4xf32, #lhs>
    %r = iree_encoding.set_encoding %neg : tensor<4x3xf32> -> tensor<4x3xf32, #rhs>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<5x3xf32, #acc>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x3xf32, #acc>) -> tensor<5x3xf32, #acc>
    %mm = linalg.matmul ins(%l, %r : tensor<5x4xf32, #lhs>, tensor<4x3xf32, #rhs>) outs(%f : tensor<5x3xf32, #acc>) -> tensor<5x3xf32, #acc>
    %u = iree_encoding.unset_encoding %mm : tensor<5x3xf32, #acc> -> tensor<5x3xf32>
    flow.return %u : tensor<5x3xf32>
  }
  return %0 : tensor<5x3xf32>
}
"""


@pytest.mark.parametrize("mutable", [False, True])
def test_const_expr_source_is_hoisted(tmp_path, mutable):
    program = CONST_EXPR_WEIGHT.replace("util.global private @weight", "util.global private mutable @weight")
    out = run_pass(tmp_path, program if mutable else CONST_EXPR_WEIGHT)
    module = parse_module_text(out)
    in_dispatch = {op.name for op in module.walk() if enclosing_dispatch_region(op) is not None}
    if mutable:
        assert {"util.global.load", "linalg.generic", "iree_encoding.set_encoding"} <= in_dispatch
    else:
        assert not in_dispatch & {"util.global.load", "linalg.generic", "iree_encoding.set_encoding"}


def test_encoding_dims_computed_in_dispatch_leave_with_it(tmp_path):
    cases = (Path(__file__).parent / "hoist_encoding_ops.mlir").read_text().split("// -----")
    (case,) = [c for c in cases if "@encoding_dims_computed_in_dispatch(" in c]
    out = run_pass(tmp_path, case)
    assert encoding_ops_inside_dispatches(out) == ["iree_encoding.unset_encoding"]
    assert out.index("affine.apply") < out.index("flow.dispatch.region")


@pytest.mark.parametrize(
    "function",
    ["@sunk_unset_sized_by_transposed_operand(", "@bubbled_set_keeps_static_sizes(", "@hoisted_sizes_constants_first("],
)
def test_iree_3_13_sizes_keep_results(tmp_path, function):
    # IREE 3.13 sizes the propagated encoding ops from the operands: the
    # programs still compute what they did.
    cases = (Path(__file__).parent / "hoist_encoding_ops_sizes.mlir").read_text().split("// -----")
    (case,) = [c for c in cases if function in c]
    path = tmp_path / "input.mlir"
    path.write_text(case)
    result = run_opt([str(path), "--iree-era=3.13", "-p", PASS, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
    assert encoding_ops_inside_dispatches(result.stdout) in ([], ["iree_encoding.unset_encoding"])
