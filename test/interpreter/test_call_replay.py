"""Repeated calls replayed from a recording (``replay.py``) give exactly the results of interpreting them.

Each program is run twice over: by an interpreter that replays (the second call
with a signature is recorded, later ones replayed; an interpreter starts counting
at its second call) and by one that never does,
on the same fresh random inputs call after call; every result must be equal bit
for bit. The programs are the data-tiling pipeline's outputs for several
targets (packs, padding loops, mmt4d, inner_tiled, microkernel queries) and
plain tensor programs. Other tests pin what is replayed and what is not: the
packs a matmul reads through their source are dropped, a transient buffer is
reused but a result never is, and a call whose control flow depends on tensor
data, or that reads a global another call changes, still gives its results.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, run_opt

from mini_iree.compiler.interpreter import make_interpreter, parse_module_text, public_functions
from mini_iree.compiler.interpreter.replay import Replay
from mini_iree.compiler.interpreter.verify_each import _imported_type, random_value

INPUTS = Path(__file__).resolve().parents[1] / "e2e" / "Inputs"
MATMUL = REPO / "examples" / "matmul.mlir"

AVX2 = "x86_64:+avx,+avx2,+fma"
AVX512 = "x86_64:+avx512f"

# (program, target, dynamic size): packs with and without padding, several tile shapes and
# element types, dispatches with more than one contraction, microkernels, GPU swizzles.
CASES = [
    (MATMUL, AVX2, 16),
    (MATMUL, AVX2, 13),
    (MATMUL, AVX512, 21),
    (MATMUL, "vmvx", 11),
    (MATMUL, "gfx942", 9),
    (MATMUL, "aarch64:+neon,+i8mm", 10),
    (INPUTS / "matmul_i8.mlir", AVX512, 12),
    (INPUTS / "matmul_i8.mlir", AVX2, 13),  # K padded, operands widened: the packs are replayed
    (INPUTS / "matmul_f16.mlir", AVX2, 7),
    (INPUTS / "batch_matmul.mlir", AVX512, 6),
    (INPUTS / "two_matmuls_bias_relu.mlir", AVX2, 10),
    (INPUTS / "two_matmuls_bias_relu.mlir", "gfx942", 5),
    (INPUTS / "const_weight.mlir", AVX512, 8),
    (INPUTS / "call_private_helper.mlir", AVX2, 9),
    (INPUTS / "matvec.mlir", AVX2, 17),
    (INPUTS / "elementwise_producer_consumer.mlir", AVX512, 12),
]


def _compile(path: Path, target: str) -> str:
    result = run_opt([str(path), "-p", f"data-tiling{{target={target}}}"])
    assert result.returncode == 0, result.stderr
    return result.stdout


def _inputs(function, rng: np.random.Generator, size: int) -> list:
    types = list(function.function_type.inputs.data)
    return [random_value(_imported_type(function, i, t), rng, size) for i, t in enumerate(types)]


def _same(expected, actual) -> bool:
    expected, actual = np.asarray(expected), np.asarray(actual)
    return (
        expected.dtype == actual.dtype
        and expected.shape == actual.shape
        and expected.tobytes() == np.ascontiguousarray(actual).tobytes()
    )


def _compare(text: str, size: int, calls: int = 5, seed: int = 0):
    """Call every public function ``calls`` times on both interpreters; return the replaying one."""
    module = parse_module_text(text)
    replaying = make_interpreter(module)
    plain = make_interpreter(module)
    plain.replay_calls = False
    rng = np.random.default_rng(seed)
    for function in public_functions(module):
        for call in range(calls):
            inputs = _inputs(function, rng, size)
            expected = plain.call_op(function, tuple(inputs))
            actual = replaying.call_op(function, tuple(inputs))
            assert len(expected) == len(actual)
            for i, (e, a) in enumerate(zip(expected, actual)):
                assert _same(e, a), f"@{function.sym_name.data} call {call} result {i} differs"
            _poison_reused_memory(replaying)
    return module, replaying


def _poison_reused_memory(interpreter) -> None:
    """Fill the allocations replays reuse with NaN bytes: what a replay reads there, it must have written."""
    replays = getattr(interpreter, "_call_replays", None)  # made at the interpreter's second call
    for state in replays._known.values() if replays is not None else ():
        if isinstance(state, Replay):
            for memory in state.reused_memory:
                memory.view(np.uint8)[...] = 0xFF


def _state(interpreter, function, inputs):
    return interpreter._call_replays.state(function, tuple(inputs))


@pytest.mark.parametrize("path,target,size", CASES, ids=lambda v: getattr(v, "stem", str(v)))
def test_replayed_calls_equal_interpreted_ones(path: Path, target: str, size: int):
    module, interpreter = _compare(_compile(path, target), size)
    states = [
        _state(interpreter, f, _inputs(f, np.random.default_rng(0), size)) for f in public_functions(module)
    ]
    # The pipeline's output is replayable: nothing in it is data-dependent.
    assert all(isinstance(s, Replay) for s in states), states


def _replayed_ops(path: Path, target: str, size: int) -> list[str]:
    module, interpreter = _compare(_compile(path, target), size)
    (function,) = public_functions(module)
    replay = _state(interpreter, function, _inputs(function, np.random.default_rng(0), size))
    return [step[0].name for step in replay.steps]


@pytest.mark.parametrize("size", [16, 13])
def test_packs_the_matmul_reads_through_their_source_are_dropped(size: int):
    # 16 is a multiple of the AVX2 tiles: both packs write every element, the mmt4d reads A and B
    # themselves (relayout_origins.py). 13 is not: the packs pad, and the mmt4d makes its padded
    # matrices from A and B. Either way neither encoding dispatch's work is replayed.
    ops = _replayed_ops(MATMUL, AVX2, size)
    assert "linalg.mmt4d" in ops
    assert "scf.forall" not in ops
    assert ops.count("iree_linalg_ext.map_scatter") == 1  # the unpack only


def test_packs_a_contraction_reads_as_they_are_are_replayed():
    # i8 operands are widened to i32 before the product: the mmt4d reads the packed buffers
    # themselves, so the packs and their padding loops run on every call.
    ops = _replayed_ops(INPUTS / "matmul_i8.mlir", AVX2, 13)
    assert ops.count("iree_linalg_ext.map_scatter") == 3
    assert ops.count("scf.forall") == 4


def test_results_are_never_shared_between_calls():
    module, interpreter = _compare(_compile(MATMUL, AVX2), 16)
    (function,) = public_functions(module)
    rng = np.random.default_rng(5)
    a, b = _inputs(function, rng, 16)
    results = [interpreter.call_op(function, (a, b))[0] for _ in range(4)]
    assert isinstance(_state(interpreter, function, (a, b)), Replay)
    expected = a @ b
    for r in results:
        np.testing.assert_array_equal(r, expected)
    for i in range(4):
        for j in range(i):
            assert not np.shares_memory(results[i], results[j])
    # The caller may change a result; later calls do not see it.
    results[-1][...] = 7
    np.testing.assert_array_equal(interpreter.call_op(function, (a, b))[0], expected)


def test_each_signature_has_its_own_replay():
    module, interpreter = _compare(_compile(MATMUL, AVX512), 16)
    (function,) = public_functions(module)
    rng = np.random.default_rng(1)
    for m, n, k in [(3, 5, 7), (33, 17, 16), (3, 5, 7)]:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        for _ in range(3):
            np.testing.assert_array_equal(interpreter.call_op(function, (a, b))[0], a @ b)
        assert isinstance(_state(interpreter, function, (a, b)), Replay)
    # A non-contiguous argument has no signature: always interpreted.
    a = rng.standard_normal((7, 6)).astype(np.float32).T
    b = rng.standard_normal((7, 4)).astype(np.float32)
    for _ in range(3):
        np.testing.assert_array_equal(interpreter.call_op(function, (a, b))[0], a @ b)
    assert _state(interpreter, function, (a, b)) == "arguments without a signature"
    # Nor do arguments sharing memory: which of them an op read is not recorded.
    square = rng.standard_normal((9, 9)).astype(np.float32)
    for _ in range(3):
        np.testing.assert_array_equal(interpreter.call_op(function, (square, square))[0], square @ square)
    assert _state(interpreter, function, (square, square)) == "arguments without a signature"


DATA_DEPENDENT = """
func.func @pick(%t: tensor<4xf32>, %u: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %x = tensor.extract %t[%c0] : tensor<4xf32>
  %positive = arith.cmpf ogt, %x, %zero : f32
  %r = scf.if %positive -> (tensor<4xf32>) {
    %s = arith.addf %t, %u : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    %s = arith.mulf %t, %u : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""


def test_control_flow_on_tensor_data_is_never_replayed():
    module = parse_module_text(DATA_DEPENDENT)
    interpreter = make_interpreter(module)
    (function,) = public_functions(module)
    u = np.arange(4, dtype=np.float32)
    for first in [1.0, -1.0, 2.0, -2.0, 3.0]:
        t = np.full(4, first, np.float32)
        expected = t + u if first > 0 else t * u
        np.testing.assert_array_equal(interpreter.call_op(function, (t, u))[0], expected)
    reason = _state(interpreter, function, (t, u))
    assert isinstance(reason, str) and "control flow may depend on data" in reason


COUNTER = """
util.global private mutable @count = 0 : i32
func.func @bump(%t: tensor<4xi32>) -> tensor<4xi32> {
  %c = util.global.load @count : i32
  %one = arith.constant 1 : i32
  %next = arith.addi %c, %one : i32
  util.global.store %next, @count : i32
  %e = tensor.empty() : tensor<4xi32>
  %s = linalg.fill ins(%next : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r = arith.addi %t, %s : tensor<4xi32>
  return %r : tensor<4xi32>
}
"""


def test_state_other_calls_change_is_read_each_call():
    module = parse_module_text(COUNTER)
    interpreter = make_interpreter(module)
    (function,) = public_functions(module)
    t = np.zeros(4, np.int32)
    for count in range(1, 6):
        np.testing.assert_array_equal(interpreter.call_op(function, (t,))[0], np.full(4, count, np.int32))
    assert isinstance(_state(interpreter, function, (t,)), str)


ELEMENTWISE = """
#id = affine_map<(d0) -> (d0)>
func.func @axpy(%a: f32, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%xi: f32, %yi: f32, %o: f32):
    %p = arith.mulf %a, %xi : f32
    %s = arith.addf %p, %yi : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""


def test_scalar_arguments_are_part_of_the_signature():
    module = parse_module_text(ELEMENTWISE)
    interpreter = make_interpreter(module)
    (function,) = public_functions(module)
    x, y = np.arange(5, dtype=np.float32), np.ones(5, np.float32)
    for a in [np.float32(2.0), np.float32(2.0), np.float32(2.0), np.float32(-3.0), np.float32(-3.0), np.float32(-3.0)]:
        np.testing.assert_array_equal(interpreter.call_op(function, (a, x, y))[0], a * x + y)
    # The generic body reads the scalar %a from outside: the replay passes it in.
    assert isinstance(_state(interpreter, function, (np.float32(-3.0), x, y)), Replay)


STORING_LOOP = """
func.func @ramp(%m: memref<?x?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?x?xf32>
  %k = memref.dim %m, %c1 : memref<?x?xf32>
  scf.forall (%i, %j) in (%n, %k) {
    %s = arith.addi %i, %j : index
    %t = arith.index_cast %s : index to i32
    %f = arith.sitofp %t : i32 to f32
    %g = arith.addf %f, %v : f32
    memref.store %g, %m[%i, %j] : memref<?x?xf32>
  }
  return
}
"""


def test_a_loop_that_only_stores_is_replayed_as_its_stores():
    module = parse_module_text(STORING_LOOP)
    interpreter = make_interpreter(module)
    (function,) = public_functions(module)
    ramp = np.add.outer(np.arange(3), np.arange(5)).astype(np.float32)
    for call in range(5):
        m = np.zeros((3, 5), np.float32)
        assert interpreter.call_op(function, (m, np.float32(0.5))) == ()
        np.testing.assert_array_equal(m, ramp + np.float32(0.5), err_msg=f"call {call}")
    replay = _state(interpreter, function, (m, np.float32(0.5)))
    assert isinstance(replay, Replay)
    # One step: the loop's stores, made without running its body.
    ((op, entry, *_),) = replay.steps
    assert op.name == "scf.forall" and entry[0] is None
