"""propagate-encodings, fuse-encoding-ops-into-dispatch-regions and convert-encoding-to-flow keep results.

Each pass (and the three in pipeline order) runs with
``--verify-each-with-interpreter`` on the walkthrough's dumps and on small
programs: an elementwise producer feeding a data-tiled matmul whose result is
re-encoded by an elementwise consumer dispatch, in several element types and
shapes, plus `tensor.cast`s between dispatches.
"""

from __future__ import annotations

import pytest
from conftest import require_reference, run_opt

PASSES = [
    "iree-dispatch-creation-propagate-encodings",
    "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass",
    "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass{enable-aggressive-fusion=true}",
    "iree-dispatch-creation-convert-encoding-to-flow",
]
PIPELINE = ",".join([PASSES[0], PASSES[1], PASSES[3], "canonicalize"])

_MAPS = """#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#ew = affine_map<(d0, d1) -> (d0, d1)>
"""


def _encoding(index: int, ins: str, out: str) -> str:
    return (
        f"#iree_encoding.encoding<operand_index = {index} : index, op_type = matmul, "
        f"element_types = [{ins}, {ins}, {out}], user_indexing_maps = [#map, #map1, #map2]>"
    )


def _matmul_program(m: int | None, n: int | None, k: int | None, ins: str, out: str) -> str:
    """producer(a + a) -> set_encoding -> matmul dispatch -> set_encoding -> consumer(x + x).

    ``None`` sizes are dynamic; their values come from `tensor.dim` of the arguments.
    """
    is_float = ins.startswith("f")
    add_in = "arith.addf" if is_float else "arith.addi"
    add_out = "arith.addf" if out.startswith("f") else "arith.addi"
    zero = "0.0" if out.startswith("f") else "0"

    def shape(*sizes: int | None) -> str:
        return "x".join("?" if s is None else str(s) for s in sizes)

    dims = {"m": ("%a", 0, m), "k": ("%a", 1, k), "n": ("%b", 1, n)}
    prologue = []
    for name, (arg, axis, size) in dims.items():
        if size is None:
            prologue.append(f"  %c{name} = arith.constant {axis} : index")
            arg_shape = shape(m, k) if arg == "%a" else shape(k, n)
            prologue.append(f"  %{name} = tensor.dim {arg}, %c{name} : tensor<{arg_shape}x{ins}>")

    def sizes(*names: str) -> str:
        values = [f"%{x}" for x in names if dims[x][2] is None]
        return "{" + ", ".join(values) + "}" if values else ""

    def empty(*names: str) -> str:
        return "(" + ", ".join(f"%{x}" for x in names if dims[x][2] is None) + ")"

    a, b, c = f"tensor<{shape(m, k)}x{ins}>", f"tensor<{shape(k, n)}x{ins}>", f"tensor<{shape(m, n)}x{out}>"
    lhs, rhs, acc = (
        f"tensor<{shape(m, k)}x{ins}, #lhs>",
        f"tensor<{shape(k, n)}x{ins}, #rhs>",
        f"tensor<{shape(m, n)}x{out}, #acc>",
    )
    return f"""{_MAPS}#lhs = {_encoding(0, ins, out)}
#rhs = {_encoding(1, ins, out)}
#acc = {_encoding(2, ins, out)}
func.func @main(%a: {a}, %b: {b}) -> {c} {{
{chr(10).join(prologue)}
  %0 = flow.dispatch.region -> ({a}{sizes("m", "k")}) {{
    %e = tensor.empty{empty("m", "k")} : {a}
    %g = linalg.generic {{indexing_maps = [#ew, #ew], iterator_types = ["parallel", "parallel"]}} ins(%a : {a}) outs(%e : {a}) {{
    ^bb0(%in: {ins}, %o: {ins}):
      %s = {add_in} %in, %in : {ins}
      linalg.yield %s : {ins}
    }} -> {a}
    flow.return %g : {a}
  }}
  %lhs = iree_encoding.set_encoding %0 : {a} -> {lhs}
  %rhs = iree_encoding.set_encoding %b : {b} -> {rhs}
  %1 = flow.dispatch.region -> ({c}{sizes("m", "n")}) {{
    %zero = arith.constant {zero} : {out}
    %e = tensor.empty{empty("m", "n")} : {acc}
    %f = linalg.fill ins(%zero : {out}) outs(%e : {acc}) -> {acc}
    %mm = linalg.matmul ins(%lhs, %rhs : {lhs}, {rhs}) outs(%f : {acc}) -> {acc}
    %u = iree_encoding.unset_encoding %mm : {acc} -> {c}{sizes("m", "n")}
    flow.return %u : {c}
  }}
  %2 = iree_encoding.set_encoding %1 : {c} -> {acc}
  %3 = flow.dispatch.region -> ({c}{sizes("m", "n")}) {{
    %e = tensor.empty{empty("m", "n")} : {acc}
    %g = linalg.generic {{indexing_maps = [#ew, #ew], iterator_types = ["parallel", "parallel"]}} ins(%2 : {acc}) outs(%e : {acc}) {{
    ^bb0(%in: {out}, %o: {out}):
      %s = {add_out} %in, %in : {out}
      linalg.yield %s : {out}
    }} -> {acc}
    %u = iree_encoding.unset_encoding %g : {acc} -> {c}{sizes("m", "n")}
    flow.return %u : {c}
  }}
  return %3 : {c}
}}
"""


_CAST_PROGRAM = f"""{_MAPS}#lhs = {_encoding(0, "f32", "f32")}
#rhs = {_encoding(1, "f32", "f32")}
#acc = {_encoding(2, "f32", "f32")}
func.func @main(%a: tensor<6x4xf32>, %b: tensor<4x3xf32>) -> tensor<?x3xf32> {{
  %0 = flow.dispatch.region -> (tensor<6x4xf32>) {{
    %e = tensor.empty() : tensor<6x4xf32>
    %g = linalg.generic {{indexing_maps = [#ew, #ew], iterator_types = ["parallel", "parallel"]}} ins(%a : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {{
    ^bb0(%in: f32, %o: f32):
      %s = arith.mulf %in, %in : f32
      linalg.yield %s : f32
    }} -> tensor<6x4xf32>
    flow.return %g : tensor<6x4xf32>
  }}
  %cast = tensor.cast %0 : tensor<6x4xf32> to tensor<?x4xf32>
  %lhs = iree_encoding.set_encoding %cast : tensor<?x4xf32> -> tensor<?x4xf32, #lhs>
  %rhs = iree_encoding.set_encoding %b : tensor<4x3xf32> -> tensor<4x3xf32, #rhs>
  %1 = flow.dispatch.region -> (tensor<6x3xf32>) {{
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<6x3xf32, #acc>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6x3xf32, #acc>) -> tensor<6x3xf32, #acc>
    %l = tensor.cast %lhs : tensor<?x4xf32, #lhs> to tensor<6x4xf32, #lhs>
    %mm = linalg.matmul ins(%l, %rhs : tensor<6x4xf32, #lhs>, tensor<4x3xf32, #rhs>) outs(%f : tensor<6x3xf32, #acc>) -> tensor<6x3xf32, #acc>
    %u = iree_encoding.unset_encoding %mm : tensor<6x3xf32, #acc> -> tensor<6x3xf32>
    flow.return %u : tensor<6x3xf32>
  }}
  %c = tensor.cast %1 : tensor<6x3xf32> to tensor<?x3xf32>
  %acc = iree_encoding.set_encoding %c : tensor<?x3xf32> -> tensor<?x3xf32, #acc>
  %back = iree_encoding.unset_encoding %acc : tensor<?x3xf32, #acc> -> tensor<6x3xf32>
  %r = tensor.cast %back : tensor<6x3xf32> to tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}}
"""

# A matmul_k set_encoding of a collapsed dispatch result: propagation moves it
# above the collapse_shape, so that it can fuse into the producer.
_MATMUL_K_PROGRAM = """#k1 = #iree_encoding.matmul_k<k_dims = [1]>
#ew3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @main(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = flow.dispatch.region -> (tensor<2x3x4xf32>) {
    %e = tensor.empty() : tensor<2x3x4xf32>
    %g = linalg.generic {indexing_maps = [#ew3, #ew3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.mulf %in, %in : f32
      linalg.yield %s : f32
    } -> tensor<2x3x4xf32>
    flow.return %g : tensor<2x3x4xf32>
  }
  %c = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %s = iree_encoding.set_encoding %c : tensor<6x4xf32> -> tensor<6x4xf32, #k1>
  %1 = flow.dispatch.region -> (tensor<6x4xf32>) {
    %u = iree_encoding.unset_encoding %s : tensor<6x4xf32, #k1> -> tensor<6x4xf32>
    flow.return %u : tensor<6x4xf32>
  }
  return %1 : tensor<6x4xf32>
}
"""

PROGRAMS = {
    "static_f32": _matmul_program(6, 5, 4, "f32", "f32"),
    "dynamic_f32": _matmul_program(None, None, None, "f32", "f32"),
    "mixed_f32": _matmul_program(None, 5, 4, "f32", "f32"),
    "f16_f32": _matmul_program(6, None, 4, "f16", "f32"),
    "i8_i32": _matmul_program(None, 5, None, "i8", "i32"),
    "zero_size_dim": _matmul_program(0, 5, 4, "f32", "f32"),
    "zero_size_reduction": _matmul_program(3, None, 0, "f32", "f32"),
    "tensor_cast": _CAST_PROGRAM,
    "matmul_k_collapse": _MATMUL_K_PROGRAM,
}


def _verify(path: str, pipeline: str) -> str:
    result = run_opt([path, "-p", pipeline, "--verify-each-with-interpreter", "--interpreter-dynamic-size=5"])
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("dump", ["03-hoist-encoding-ops.after.mlir", "05-hoist-encoding-ops.local-propagation.after.mlir"])
@pytest.mark.parametrize("pipeline", [*PASSES, PIPELINE])
def test_walkthrough_dumps_keep_results(dump, pipeline):
    path = require_reference() / "seed-walkthrough" / dump
    _verify(str(path), pipeline)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("pipeline", [*PASSES, PIPELINE])
def test_programs_keep_results(tmp_path, name, pipeline):
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name])
    _verify(str(path), pipeline)


@pytest.mark.parametrize("name", ["static_f32", "dynamic_f32", "i8_i32", "zero_size_dim"])
def test_pipeline_removes_host_relayouts(tmp_path, name):
    """The producer encodes the LHS, the matmul hands its encoded result to the consumer,
    and only the RHS relayout is left on the host."""
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name])
    out = _verify(str(path), PIPELINE)
    assert out.count("flow.tensor.encode") == 1
    assert out.count("iree_encoding.set_encoding") == 1  # the LHS, inside the producer
    assert out.count("iree_encoding.unset_encoding") == 1  # the consumer's result


def test_pipeline_through_casts(tmp_path):
    path = tmp_path / "cast.mlir"
    path.write_text(PROGRAMS["tensor_cast"])
    out = _verify(str(path), PIPELINE)
    # The LHS set_encoding moved above its cast and into the producer, and the
    # matmul hands its encoded result on: left on the host are the RHS
    # relayout and the final unset_encoding, now below its cast.
    assert out.count("flow.tensor.encode") == 2
    assert out.count("iree_encoding.set_encoding") == 1
    assert "flow.dispatch.region -> (tensor<6x3xf32, #encoding2>)" in out


@pytest.mark.parametrize("case", ["elementwise-producer-consumer", "dynamic-matmul", "gfx942-dynamic-matmul"])
def test_iree_313_dumps_keep_results(case):
    path = next((require_reference() / "iree-3.13" / case).glob("06_*.mlir"))
    _verify(str(path), PIPELINE)


def test_pipeline_fuses_matmul_k_through_collapse(tmp_path):
    path = tmp_path / "matmul_k.mlir"
    path.write_text(PROGRAMS["matmul_k_collapse"])
    out = _verify(str(path), PIPELINE)
    # The set_encoding went above the collapse_shape (K renamed to the
    # source's dim 2) and into the producer, which returns the encoded tensor;
    # the collapse now runs on encoded tensors and nothing is left to encode on
    # the host.
    assert "flow.dispatch.region -> (tensor<2x3x4xf32, #encoding>)" in out
    assert "#iree_encoding.matmul_k<k_dims = [2]>" in out
    assert "tensor.collapse_shape %0 [[0, 1], [2]] : tensor<2x3x4xf32, #encoding> into tensor<6x4xf32, #encoding1>" in out
    assert "flow.tensor.encode" not in out


# The lit files' cases, each through its pass: (pipelines, cases left out, dynamic
# sizes). Two fuse cases are left out: their expand_shape sizes are tied to other
# arguments, which one interpreter size for every dynamic dimension cannot honour.
# @unset_encoding_refines_shape unsets a ?x3 tensor to 6x3, so its size is 6.
LIT_CASES = {
    "fuse_encoding_ops_into_dispatch_regions.mlir": (
        PASSES[1:3],
        ("@fuse_through_expand_shape_and_slice", "@fuse_through_expand_shape_then_slice"),
        (1, 3),
    ),
    "convert_encoding_to_flow.mlir": ([PASSES[3], f"{PASSES[3]},canonicalize"], (), (6,)),
}


@pytest.mark.parametrize(
    ("lit_file", "pipeline"), [(name, p) for name, (pipelines, _, _) in LIT_CASES.items() for p in pipelines]
)
def test_lit_cases_keep_results(tmp_path, lit_file, pipeline):
    from pathlib import Path

    _, excluded, sizes = LIT_CASES[lit_file]
    cases = (Path(__file__).parent / lit_file).read_text().split("// -----")
    kept = [case for case in cases if not any(f"{name}(" in case for name in excluded)]
    assert len(kept) == len(cases) - len(excluded)
    path = tmp_path / lit_file
    path.write_text("// -----".join(kept))
    for size in sizes:
        result = run_opt(
            [str(path), "-p", pipeline, "--split-input-file", "--verify-each-with-interpreter",
             f"--interpreter-dynamic-size={size}"]
        )
        assert result.returncode == 0, result.stderr


def test_rematerialized_encoding_dims_keep_results(tmp_path):
    # The cast of 1024x? to ?x512 holds when the dynamic size is 512.
    from pathlib import Path

    cases = (Path(__file__).parent / "propagate_encodings.mlir").read_text().split("// -----")
    (case,) = [c for c in cases if "@rematerialized_encoding_dims(" in c]
    path = tmp_path / "remat.mlir"
    path.write_text(case)
    result = run_opt([str(path), "-p", PASSES[0], "--verify-each-with-interpreter", "--interpreter-dynamic-size=512"])
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
