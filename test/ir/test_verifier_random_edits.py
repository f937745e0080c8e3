"""The incremental verifier answers as a full verification does, after random edits.

Each example parses a module from a lit input, verifies it once with a
``ModuleVerifier`` (the full first check), then applies a few random edits of
the kinds passes make (erase an op whose results are unused, detach one whose
results are still used, use another value of the same type, move an op within
its block, change or drop an attribute, insert an op) and after each one compares the verifier's answer with a fresh
``verify_op_tree`` of the same IR: both valid, or both failing with the same
diagnostics (message, failing op and its location, notes).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr
from xdsl.dialects import test as test_dialect
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsolatedFromAbove, IsTerminator

from mini_iree.compiler.ir.diagnostics import DiagnosticError, SourceLoc
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.ir.verifier import ModuleVerifier, verify_op_tree
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

REPO = Path(__file__).resolve().parents[2]

# Small lit inputs with the ops whose verifiers read only themselves
# (tensor.dim/empty, linalg.fill/matmul, set_encoding, flow.dispatch.region,
# hal.tensor.import/export, flow.tensor.encode), isolated-from-above
# workgroups, calls and symbols, and branches between blocks.
INPUTS = [
    "test/passes/canonicalize.mlir",
    "test/passes/materialize_encoding_into_nop.mlir",
    "test/passes/convert_encoding_to_flow.mlir",
    "test/passes/convert_dispatch_regions_to_workgroups.mlir",
    "test/passes/wrap_entry_points.mlir",
    "test/passes/inline.mlir",
    "test/dialects/cf/ops.mlir",
]

# With the lit inputs, programs where the changes that only propagation
# catches are a few edits away: a `linalg.pack` reads its constant tile (the
# constant's value changes), and a `return` reads its function's type (the
# functions' types differ only in their results).
PROPAGATION = [
    """\
func.func @tiles(%src: tensor<?x?xf32>, %dest: tensor<?x?x?x16xf32>, %pad: f32) -> tensor<?x?x?x16xf32> {
  %c8 = arith.constant 8 : index
  %pack = linalg.pack %src padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [%c8, 16] into %dest : tensor<?x?xf32> -> tensor<?x?x?x16xf32>
  return %pack : tensor<?x?x?x16xf32>
}
""",
    """\
func.func @index_result(%a: index) -> index {
  return %a : index
}
func.func @float_result(%a: index) -> f32 {
  %f = arith.constant 1.000000e+00 : f32
  return %f : f32
}
""",
]

START = SourceLoc("input.mlir", 1, 1)


@pytest.fixture(scope="module")
def ctx():
    return MiniIREEOptMain([]).ctx


@pytest.fixture(scope="module")
def sources(ctx) -> list[str]:
    """The valid ``// -----`` pieces of the inputs."""
    found = []
    for name in INPUTS:
        for text in (REPO / name).read_text().split("// -----"):
            if "expected-error" in text:
                continue
            verify_op_tree(parse_mlir(ctx, text, "input.mlir"), START)
            found.append(text)
    assert len(found) >= 20
    # (as likely as all the lit inputs together)
    return found + PROPAGATION * (len(found) // len(PROPAGATION))


def outcome(check) -> tuple[str, ...] | None:
    """None if ``check()`` passes, else its diagnostics."""
    try:
        check()
    except DiagnosticError as error:
        return tuple(str(d) for d in error.diagnostics)
    return None


# -- edits: each returns False when it does not apply to the module ----------------------------


def pick(draw, items: list):
    """One of ``items`` (drawn by index: the IR objects themselves print too long)."""
    return items[draw(st.integers(0, len(items) - 1))]


def nested_ops(module: Operation) -> list[Operation]:
    return [op for op in module.walk() if op is not module]


def values_of(root: Operation) -> list[SSAValue]:
    values: list[SSAValue] = []
    for op in root.walk():
        values += op.results
        for region in op.regions:
            for block in region.blocks:
                values += block.args
    return values


def near_values(module: Operation, op: Operation, draw) -> list[SSAValue]:
    """Mostly the values of the function (or other isolated op) around ``op``,
    so that edits often keep the module valid; sometimes any value."""
    scope = op.parent_op()
    while scope is not None and scope is not module and not scope.has_trait(IsolatedFromAbove):
        scope = scope.parent_op()
    if scope is None or draw(st.integers(0, 4)) == 0:
        scope = module
    return values_of(scope)


def erase_unused(module: Operation, draw) -> bool:
    candidates = []
    for op in nested_ops(module):
        inside = {id(o) for o in op.walk()}
        if all(id(use.operation) in inside for o in op.walk() for r in o.results for use in r.uses):
            candidates.append(op)
    if not candidates:
        return False
    op = pick(draw, candidates)
    op.detach()
    op.erase(safe_erase=False)
    return True


def detach_used(module: Operation, draw) -> bool:
    """Take an op out of the module although its results are still used (a pass
    that forgot to replace them)."""
    candidates = [op for op in nested_ops(module) if any(r.uses for r in op.results)]
    if not candidates:
        return False
    pick(draw, candidates).detach()
    return True


def swap_operand(module: Operation, draw) -> bool:
    users = [op for op in nested_ops(module) if op.operands]
    if not users:
        return False
    op = pick(draw, users)
    index = draw(st.integers(0, len(op.operands) - 1))
    current = op.operands[index]
    others = [v for v in near_values(module, op, draw) if v is not current and v.type == current.type]
    if not others:
        return False
    op.operands[index] = pick(draw, others)
    return True


def move_in_block(module: Operation, draw) -> bool:
    movable = [op for op in nested_ops(module) if op.parent is not None and len(op.parent.ops) > 1]
    if not movable:
        return False
    op = pick(draw, movable)
    block = op.parent
    assert block is not None
    anchor = pick(draw, [o for o in block.ops if o is not op])
    op.detach()
    # (mostly before an op: after a terminator is a plain failure)
    if anchor.has_trait(IsTerminator) or draw(st.integers(0, 3)):
        block.insert_op_before(op, anchor)
    else:
        block.insert_op_after(op, anchor)
    return True


def change_attribute(module: Operation, draw) -> bool:
    ops = nested_ops(module)
    if not ops:
        return False
    op = pick(draw, ops)
    # (segment sizes stay: the printer of the diagnostics' op needs them)
    entries = [
        (mapping, name)
        for mapping in (op.properties, op.attributes)
        for name in mapping
        if name not in ("operandSegmentSizes", "resultSegmentSizes")
    ]
    kind = draw(st.sampled_from(["tag", "drop", "borrow", "integer"] if entries else ["tag"]))
    if kind == "tag":
        # A discardable attribute nothing reads.
        op.attributes["test.tag"] = StringAttr(draw(st.sampled_from(["a", "b"])))
        return True
    mapping, name = pick(draw, entries)
    value = mapping[name]
    if kind == "drop":
        del mapping[name]
    elif kind == "integer":
        if not isinstance(value, IntegerAttr):
            return False
        mapping[name] = IntegerAttr(draw(st.integers(0, 3)), value.type)
    else:
        # The value of another op of the same kind (a function type, a symbol
        # name, an encoding...).
        pool = [
            other[name]
            for o in ops
            if o.name == op.name
            for other in (o.properties, o.attributes)
            if name in other and other[name] != value
        ]
        if not pool:
            return False
        mapping[name] = pick(draw, pool)
    return True


def insert_op(module: Operation, draw) -> bool:
    blocks = [block for op in module.walk() for region in op.regions for block in region.blocks]
    block = pick(draw, blocks)
    ops_in_block = list(block.ops)
    # (mostly before an op of the block: at its end, after its terminator, is a plain failure)
    before = pick(draw, ops_in_block) if ops_in_block and draw(st.integers(0, 3)) else None
    ops = nested_ops(module)
    values = near_values(module, before or ops_in_block[-1], draw) if ops_in_block else values_of(module)
    kind = draw(st.sampled_from(["constant", "user", "clone"]))
    if kind == "clone" and ops:
        new: Operation = pick(draw, ops).clone()
    elif kind == "user" and values:
        # An op reading existing values: they may not dominate it.
        operands = [pick(draw, values) for _ in range(draw(st.integers(1, 2)))]
        new = test_dialect.TestOp(operands, [operands[0].type])
    else:
        new = ConstantOp(IntegerAttr(draw(st.integers(0, 3)), IndexType()))
    if before is not None:
        block.insert_op_before(new, before)
    else:
        block.add_op(new)
    return True


EDITS = [erase_unused, detach_used, swap_operand, move_in_block, change_attribute, insert_op]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_incremental_verification_equals_a_full_one(ctx, sources, data):
    text = data.draw(st.sampled_from(sources), label="input")
    module = parse_mlir(ctx, text, "input.mlir")
    verifier = ModuleVerifier()
    verifier.verify(module, START)
    for _ in range(data.draw(st.integers(1, 5), label="edits")):
        edit = data.draw(st.sampled_from(EDITS), label="edit")
        if not edit(module, data.draw):
            continue
        incremental = outcome(lambda: verifier.verify(module, START))
        full = outcome(lambda: verify_op_tree(module, START))
        assert incremental == full
